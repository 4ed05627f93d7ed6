#!/usr/bin/env python3
"""Golden register vectors of sim:hsx and sim:bdx (platforms/<p>/vectors.vec).

Usage: tools/vectors/hsx_vectors.py PLATFORM > platforms/PLATFORM/vectors.vec     (hsx, bdx or bdxde)

The expected accesses follow the session protocol of platforms/VECTORS.md and the Haswell-EP register
facts of Linux 6.12 uncore_snbep.c that the file header states (HSWEP_* addresses, which the bdx_uncore_*
types use too, SNB-EP's box control and control bits, hswep/bdx_uncore_pci_ids), with event codes from
Intel's haswellx/broadwellx_uncore.json and the PCI places of the simulated machine (platforms/hsx/sim.c,
which sim:bdx shares; socket 0 on bus 0xff); nothing here reads the library.  The two differ in event
names (BDX's JSON gives the UBox and iMC fixed counters, HSX's the general-counter clocks; BDX has no PCU
band events), in the last CBo (one per core: 18, 22 and 8 on the simulated parts), in the PCU's occupancy
events (not on counter 0 on BDX) and in QPI port 2's match/mask function (BDX only).  Broadwell-DE (bdxde) is
BDX without SBox, QPI and R3QPI, with one home agent and two channels (platforms/bdxde/sim.c), and HSX's names
of the fixed counters (Intel's BDW-DE file has neither; platforms/hsx/driver_events.json).
"""
import sys

PLAT = sys.argv[1] if len(sys.argv) > 1 else "hsx"
BDX, DE = PLAT in ("bdx", "bdxde"), PLAT == "bdxde"
# event names in HSX's, BDX's and BDW-DE's catalogs
NAMES = {"ufix": ("UNC_U_FIXED_UCLK", "UNC_U_CLOCKTICKS", "UNC_U_FIXED_UCLK"),
         "uclk": ("UNC_U_CLOCKTICKS", "ubox/event=0x00/", "ubox/event=0x00/"),
         "mfix": ("UNC_M_FIXED_DCLK", "UNC_M_CLOCKTICKS", "UNC_M_FIXED_DCLK"),
         "mclk": ("UNC_M_DCLOCKTICKS", "UNC_M_CLOCKTICKS_P", "UNC_M_DCLOCKTICKS"),
         "band0": ("UNC_P_FREQ_BAND0_CYCLES:band0=0x20", "pcu/event=0x0b,band0=0x20/", "pcu/event=0x0b,band0=0x20/"),
         "band3": ("UNC_P_FREQ_BAND3_CYCLES:band3=0x1e", "pcu/event=0x0e,band3=0x1e/", "pcu/event=0x0e,band3=0x1e/")}
NM = lambda k: NAMES[k][("hsx", "bdx", "bdxde").index(PLAT)]
LAST_CBO = {"hsx": 17, "bdx": 21, "bdxde": 7}[PLAT]
# the DE's machine has none of these units or places
DE_SKIP = ("sbox", "qpi", "r3qpi", "ha1_", "imc3_", "imc7_", "imc4_")

FRZ, RESET, RUN = 0x10100, 0x10102, 0x10000  # frz_en 16 | frz 8, + rst_ctrs 1; frz_en alone counts
EN = 0x400000  # control enable bit 22
h = hex


def msr_box(bc, ctl0, ctr0, n=4, filt=()):
    return dict(kind='msr', where='msr:0', bc=bc, ctl0=ctl0, cs=1, ctr0=ctr0, rs=1, n=n, filt=filt)


def cbo(i):  # HSWEP_C0_MSR_PMON_BOX_CTL 0xE00, CTL0 +1, CTR0 +8, FILTER0 +5, FILTER1 +6, box stride 0x10
    b = 0xe00 + 0x10 * i
    return msr_box(b, b + 1, b + 8)


def sbox(i):  # HSWEP_S0_MSR_PMON_BOX_CTL 0x720, CTL0 0x721, CTR0 0x726, box stride 0xA
    b = 0x720 + 0xa * i
    return msr_box(b, b + 1, b + 6)


PCU = msr_box(0x710, 0x711, 0x717)  # HSWEP_PCU_MSR_PMON_BOX_CTL/CTL0/CTR0


def pci(dev, fn, n=4):  # SNBEP_PCI_PMON_BOX_CTL 0xF4, CTL0 0xD8 + 4k, CTR0 0xA0 + 8k (two dwords)
    return dict(kind='pci', where='pci:ff:%02x.%d' % (dev, fn), bc=0xf4, ctl0=0xd8, cs=4, ctr0=0xa0, rs=8, n=n)


def case(name, src, events, u, ctls, filt=(), fixed=None, spec=None):
    """ctls: (counter, control word) per event in the order added; filt: (where, address, value) writes in
    register order; fixed: (control, counter) of the box's fixed counter when an event uses it (the last);
    spec: the machine the case opens, where not the platform's default."""
    W = u['where']
    L = ["case " + name, "  src " + src] + (["  open " + spec] if spec else []) + ["  event " + e for e in events] + ["  start"]
    w = lambda where, a, v: L.append("    w %s %s %s" % (where, h(a), h(v)))
    ctr = lambda c: u['ctr0'] + c * u['rs']
    w(W, u['bc'], FRZ)
    for f in filt:
        w(*f)
    for c, v in ctls:
        w(W, u['ctl0'] + c * u['cs'], v)
    if fixed:
        w(W, fixed[0], EN)
    w(W, u['bc'], RESET)
    if fixed:  # the fixed counter's own reset bit 19 (SNBEP_MC_CHy_PCI_PMON_FIXED_CTL), with enable
        w(W, fixed[0], EN | 1 << 19)
    w(W, u['bc'], RUN)
    L.append("  read")
    # each counter its own run of dwords: the gap between a PCI box's general counters and its fixed one is not read
    for c, _ in ctls:
        a = ctr(c)
        L.append("    r %s %s" % (W, h(a) + ("-" + h(a + 4) if u['kind'] == 'pci' else "")))
    if fixed:
        L.append("    r %s %s" % (W, h(fixed[1]) + ("-" + h(fixed[1] + 4) if u['kind'] == 'pci' else "")))
    # each programmed counter's control read back, in the order the events were added (platforms/VECTORS.md)
    for c, _ in ctls:
        L.append("    r %s %s" % (W, h(u['ctl0'] + c * u['cs'])))
    if fixed:
        L.append("    r %s %s" % (W, h(fixed[0])))
    L.append("  stop")
    w(W, u['bc'], FRZ)
    if fixed:
        w(W, fixed[1], 0)
        if u['kind'] == 'pci':
            w(W, fixed[1] + 4, 0)
        w(W, fixed[0], 0)
    for c, _ in reversed(ctls):
        w(W, u['ctl0'] + c * u['cs'], 0)
    for f in reversed(filt):
        w(f[0], f[1], 0)
    for c in reversed(range(u['n'])):
        w(W, ctr(c), 0)
        if u['kind'] == 'pci':
            w(W, ctr(c) + 4, 0)
    w(W, u['bc'], 0)
    return "\n".join(L + ["end", ""])


def ubox_case(name, src, events, ctls, filt=None, fixed=False):
    """The UBox has no box control: enable bits first, counters zeroed, then the control words."""
    L = ["case " + name, "  src " + src] + ["  event " + e for e in events] + ["  start"]
    w = lambda a, v: L.append("    w msr:0 %s %s" % (h(a), h(v)))
    if filt is not None:
        w(0x707, filt)
    if fixed:
        w(0x703, 0)
        w(0x704, 0)
        w(0x703, EN)
    for c, _ in ctls:
        w(0x705 + c, EN)
    for c, _ in ctls:
        w(0x709 + c, 0)
    for c, v in ctls:
        w(0x705 + c, v)
    L.append("  read")
    for c, _ in ctls:
        L.append("    r msr:0 %s" % h(0x709 + c))
    if fixed:
        L.append("    r msr:0 0x704")
    for c, _ in ctls:
        L.append("    r msr:0 %s" % h(0x705 + c))
    if fixed:
        L.append("    r msr:0 0x703")
    L.append("  stop")
    for c, _ in reversed(ctls):
        w(0x705 + c, 0)
    if filt is not None:  # the filter was saved before the counters were zeroed
        w(0x707, 0)
    for c, _ in reversed(ctls):
        w(0x709 + c, 0)
    if fixed:
        w(0x703, 0)
        w(0x704, 0)
    return "\n".join(L + ["end", ""])


HEADER = ("""# Broadwell-DE golden register vectors, written by tools/vectors/hsx_vectors.py bdxde from the facts below (no seed
# covers it: Linux 6.12 uncore_snbep.c, "BDX uncore support", bdx_uncore_init for INTEL_BROADWELL_D too, and
# Intel's broadwellde_uncore.json V12).  Format and protocol: platforms/VECTORS.md.  As Broadwell-EP's (below)
# without SBox, QPI and R3QPI, on one socket with one home agent (12.1) and two channels (14.0, 14.1).
#""" if DE else """# Broadwell-EP golden register vectors, written by tools/vectors/hsx_vectors.py bdx from the facts below (no seed covers
# BDX: Linux 6.12 arch/x86/events/intel/uncore_snbep.c, "BDX uncore support", whose bdx_uncore_* types use the
# HSWEP_* registers, and Intel's broadwellx_uncore.json V23 for event codes).  Format and protocol:
# platforms/VECTORS.md.  As Haswell-EP's except the PCI ids (0x6fxx, bdx_uncore_pci_ids), QPI port 2's filter
# function (0x6f46 at 0a.6) and the PCU's occupancy events, which bdx_uncore_pcu_constraints keep off counter 0.
#""" if BDX else """# Haswell-EP golden register vectors, written by tools/vectors/hsx_vectors.py hsx from the facts below (no seed covers
# HSX: Linux 6.12 arch/x86/events/intel/uncore_snbep.c, "Haswell-EP uncore support", and Intel's
# haswellx_uncore.json V29 for event codes).  Format and protocol: platforms/VECTORS.md.
#""") + """
# Facts used (socket 0; the simulated machine puts socket 0's uncore on PCI bus 0xff, platforms/hsx/sim.c):
#  box control: SNB-EP's (snbep_uncore_msr/pci_*_box, SNBEP_PMON_BOX_CTL_INT = rst_ctrl 0 | rst_ctrs 1 | frz_en
#    16, frz 8), written to every HSX box with one, HA and iMC included: freeze 0x10100, reset 0x10102, count
#    0x10000.
#  counter control: SNB-EP's bits (ev 7:0, umask 15:8, rst 17, edge 18, tid_en 19, ext 21, en 22, inv 23,
#    thresh 31:24; UBox and PCU thresh 28:24, PCU occ_sel 15:14).
#  UBox: CTL0 0x705, CTR0 0x709, FILTER 0x707 (tid 0, cid 5:1), fixed UCLK CTL 0x703 (en 22) / CTR 0x704
#    (HSWEP_U_MSR_PMON_*); no box control.
#  CBo n: BOX_CTL 0xE00 + 0x10 n, CTL0 +1, FILTER0 +5 (tid 5:0, link 9:6, state 23:17), FILTER1 +6 (nid 15:0,
#    opc 28:20, c6 29, nc 30, isoc 31), CTR0 +8 (HSWEP_C0_MSR_PMON_*, HSWEP_CB0_MSR_PMON_BOX_FILTER_*).
#  SBox n: BOX_CTL 0x720 + 0xA n, CTL0 +1, CTR0 +6 (HSWEP_S0_MSR_PMON_*, HSWEP_SBOX_MSR_OFFSET).
#  PCU: BOX_CTL 0x710, CTL0 0x711, FILTER 0x715 (band n = byte n), CTR0 0x717 (HSWEP_PCU_MSR_PMON_*).
#  PCI boxes: BOX_CTL 0xF4, CTL 0xD8 + 4k, CTR 0xA0 + 8k (SNBEP_PCI_PMON_*); iMC fixed CTL 0xF0 (en 22,
#    rst 19) / CTR 0xD0; QPI match/mask on the port's filter function at 0x228/0x22C/0x238/0x23C; HA
#    12.1/12.5, iMC 14.0 14.1 15.0 15.1 17.0 17.1 18.0 18.1, IRP 05.6, QPI 08.2/09.2/0a.2 (filters 08.6,
#    09.6), R2PCIe 10.1, R3QPI 0b.1/0b.2/0b.5.
"""

out = [HEADER]
C = lambda *a, **k: None if DE and a[0].startswith(DE_SKIP) else out.append(case(*a, **k))
C("cbo0_clockticks", "HSWEP_C0_MSR_PMON_BOX_CTL 0xE00, CTL0 0xE01, CTR0 0xE08; UNC_C_CLOCKTICKS 0x00",
  ["UNC_C_CLOCKTICKS:socket=0:box=0"], cbo(0), [(0, EN)])
C("cbo1_box_stride", "HSWEP_CBO_MSR_OFFSET 0x10: CBo 1 at 0xE10", ["UNC_C_CLOCKTICKS:socket=0:box=1"], cbo(1), [(0, EN)])
C("cbo%d_last_box" % LAST_CBO, "one CBo per core, at most %s: CBo %d at 0x%X (the simulated part has %d cores)" %
  ("24 (bdx_uncore_cbox.num_boxes)" if BDX else "18 (hswep_uncore_cbox.num_boxes)", LAST_CBO, 0xe00 + 0x10 * LAST_CBO, LAST_CBO + 1),
  ["UNC_C_CLOCKTICKS:socket=0:box=%d" % LAST_CBO], cbo(LAST_CBO), [(0, EN)])
C("cbo0_state_filter0", "HSWEP_CB0_MSR_PMON_BOX_FILTER_STATE 0x7f << 17 in FILTER0 0xE05; LLC_LOOKUP 0x34/0x03",
  ["cbo/event=0x34,umask=0x03,state=0x7f/:socket=0:box=0"], cbo(0), [(0, EN | 0x334)], filt=[("msr:0", 0xe05, 0x7f << 17)])
C("cbo0_llc_lookup_default_state", "LLC_LOOKUP.DATA_READ (CBoFilter0[23:17]) counts nothing without a state: every state by default",
  ["UNC_C_LLC_LOOKUP.DATA_READ:socket=0:box=0"], cbo(0), [(0, EN | 0x334)], filt=[("msr:0", 0xe05, 0xfe0000)])
C("cbo1_nid_opc_filter1", "FILTER1 = FILTER0 + 1 (hswep_cbox_enable_event): nid 15:0, opc 28:20; TOR_INSERTS.NID_OPCODE 0x35/0x41, DRd 0x182",
  ["cbo/event=0x35,umask=0x41,nid=0x2,opc=0x182/:socket=0:box=1"], cbo(1), [(0, EN | 0x4135)],
  filt=[("msr:0", 0xe16, 0x182 << 20 | 0x2)])
C("cbo2_tid_link_opc", "tid 5:0 and link 9:6 in FILTER0, opc in FILTER1; tid sets tid_en 19; TOR_INSERTS.OPCODE 0x35/0x01",
  ["cbo/event=0x35,umask=0x01,tid=0x3e,link=0x5,opc=0x182/:socket=0:box=2"], cbo(2), [(0, EN | 1 << 19 | 0x135)],
  filt=[("msr:0", 0xe25, 0x3e | 0x5 << 6), ("msr:0", 0xe26, 0x182 << 20)])
C("cbo3_opc_nc", "FILTER1 nc 30 (HSWEP_CB0_MSR_PMON_BOX_FILTER_NC); PCIRdCur 0x19e",
  ["cbo/event=0x35,umask=0x01,opc=0x19e,nc=1/:socket=0:box=3"], cbo(3), [(0, EN | 0x135)],
  filt=[("msr:0", 0xe36, 0x19e << 20 | 1 << 30)])
C("cbo0_c6_isoc", "FILTER1 c6 29, isoc 31", ["cbo/event=0x35,umask=0x01,opc=0x182,c6=1,isoc=1/:socket=0:box=0"], cbo(0),
  [(0, EN | 0x135)], filt=[("msr:0", 0xe06, 0x182 << 20 | 1 << 29 | 1 << 31)])
C("cbo0_thresh_edge_inv", "edge 18, invert 23, thresh 31:24 (SNBEP_CBO_MSR_PMON_RAW_EVENT_MASK); RxR_OCCUPANCY.IRQ 0x11/0x01",
  ["cbo/event=0x11,umask=0x01,thresh=1,edge,inv/:socket=0:box=0"], cbo(0), [(0, 0x01000000 | 1 << 23 | EN | 1 << 18 | 0x111)])
C("cbo0_two_counters", "CTL1 0xE02, CTR1 0xE09", ["UNC_C_CLOCKTICKS:socket=0:box=0", "cbo/event=0x34,umask=0x11,state=0x1/:socket=0:box=0"],
  cbo(0), [(0, EN), (1, EN | 0x1134)], filt=[("msr:0", 0xe05, 1 << 17)])
C("cbo0_tor_occupancy_counter0", "TOR_OCCUPANCY 0x36 on counter 0 only (JSON Counter 0; hswep_uncore_cbox_constraints 0x36: 0x1)",
  ["UNC_C_CLOCKTICKS:socket=0:box=0", "UNC_C_TOR_OCCUPANCY.MISS_OPCODE:opc=0x182:socket=0:box=0"], cbo(0),
  [(1, EN), (0, EN | 0x336)], filt=[("msr:0", 0xe06, 0x182 << 20)])
C("sbox0_clockticks", "HSWEP_S0_MSR_PMON_BOX_CTL 0x720, CTL0 0x721, CTR0 0x726; UNC_S_CLOCKTICKS 0x00",
  ["UNC_S_CLOCKTICKS:socket=0:box=0"], sbox(0), [(0, EN)])
C("sbox3_last_box", "HSWEP_SBOX_MSR_OFFSET 0xA, 4 SBoxes: SBox 3 at 0x73E", ["UNC_S_CLOCKTICKS:socket=0:box=3"], sbox(3), [(0, EN)])
C("sbox1_thresh", "SBox 1 at 0x72A; thresh 31:24 (HSWEP_S_MSR_PMON_RAW_EVENT_MASK); RING_AD_USED 0x1b/0x03",
  ["sbox/event=0x1b,umask=0x03,thresh=0x2/:socket=0:box=1"], sbox(1), [(0, 0x02000000 | EN | 0x31b)])
C("pcu_clockticks", "HSWEP_PCU_MSR_PMON_BOX_CTL 0x710, CTL0 0x711, CTR0 0x717; UNC_P_CLOCKTICKS 0x00",
  ["UNC_P_CLOCKTICKS:socket=0"], PCU, [(0, EN)])
C("pcu_band0_filter", "HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715, band 0 = byte 0 (0x20 = 3.2 GHz); FREQ_BAND0_CYCLES 0x0B",
  [NM("band0") + ":socket=0"], PCU, [(0, EN | 0x0b)], filt=[("msr:0", 0x715, 0x20)])
C("pcu_band3_filter", "band 3 = byte 3 of 0x715 (PCUFilter[31:24]), programmed whole on the registers; FREQ_BAND3_CYCLES 0x0E",
  [NM("band3") + ":socket=0"], PCU, [(0, EN | 0x0e)], filt=[("msr:0", 0x715, 0x1e << 24)])
if BDX:
    C("pcu_occupancy_not_counter0", "bdx_uncore_pcu_constraints: bit 7 events (occupancy) on counters 1-3; "
      "POWER_STATE_OCCUPANCY.CORES_C0 0x80 with occ_sel 1: CTL1 0x712, CTR1 0x718",
      ["UNC_P_POWER_STATE_OCCUPANCY.CORES_C0:socket=0"], PCU, [(1, EN | 0x4080)])
else:
    C("pcu_occupancy_select", "occ_sel 15:14; POWER_STATE_OCCUPANCY 0x80 with occ_sel 1 (cores in C0)",
      ["pcu/event=0x80,umask=0x40/:socket=0"], PCU, [(0, EN | 0x4080)])
C("pcu_thresh5_two_counters", "thresh 28:24 (SNBEP_PCU_MSR_PMON_CTL_TRESH_MASK); CTL1 0x712, CTR1 0x718",
  ["UNC_P_CLOCKTICKS:socket=0", "pcu/event=0x80,umask=0x40,thresh=0x1f/:socket=0"], PCU, [(0, EN), (1, 0x1f000000 | EN | 0x4080)])
out.append(ubox_case("ubox_fixed_uclk", "HSWEP_U_MSR_PMON_UCLK_FIXED_CTL 0x703 (en 22), CTR 0x704; no UBox box control: the counter is zeroed by hand",
                     [NM("ufix") + ":socket=0"], [], fixed=True))
out.append(ubox_case("ubox_counter0", "HSWEP_U_MSR_PMON_CTL0 0x705, CTR0 0x709; event 0x00 (the UBox clock) on counter 0",
                     [NM("uclk") + ":socket=0"], [(0, EN)]))
out.append(ubox_case("ubox_filter_tid_core", "HSWEP_U_MSR_PMON_FILTER 0x707: tid bit 0, cid 5:1 (core 3 -> 0x6); FILTER_MATCH.ENABLE 0x41/0x01",
                     ["UNC_U_FILTER_MATCH.ENABLE:tid=1:core=3:socket=0"], [(0, EN | 0x141)], filt=0x7))
out.append(ubox_case("ubox_thresh5_two_counters", "thresh 28:24 (SNBEP_U_MSR_PMON_CTL_TRESH_MASK); CTL1 0x706, CTR1 0x70A",
                     [NM("uclk") + ":socket=0", "ubox/event=0x42,umask=0x08,thresh=0x1f/:socket=0"], [(0, EN), (1, 0x1f000000 | EN | 0x842)]))
C("ha0_clockticks", "Home Agent 0 (0x2f30) at 12.1; UNC_H_CLOCKTICKS 0x00", ["UNC_H_CLOCKTICKS:socket=0:box=0"], pci(0x12, 1), [(0, EN)])
C("ha1_second_home_agent", "Home Agent 1 (0x2f38) at 12.5; REQUESTS.READS 0x01/0x03", ["UNC_H_REQUESTS.READS:socket=0:box=1"],
  pci(0x12, 5), [(0, EN | 0x301)])
C("ha0_opcode_match", "HA OPCODEMATCH 0x48 opc 5:0 (SNB-EP's register); the driver programs none",
  ["ha/event=0x20,umask=0x03,opc=0x1/:socket=0:box=0"], pci(0x12, 1), [(0, EN | 0x320)], filt=[("pci:ff:12.1", 0x48, 0x1)])
C("imc0_cas_count_rd", "MC0 channel 0 (0x2fb0) at 14.0; CAS_COUNT.RD 0x04/0x03", ["UNC_M_CAS_COUNT.RD:socket=0:box=0"], pci(0x14, 0),
  [(0, EN | 0x304)])
C("imc3_cas_count_wr", "MC0 channel 3 (0x2fb5) at 15.1; CAS_COUNT.WR 0x04/0x0C", ["UNC_M_CAS_COUNT.WR:socket=0:box=3"], pci(0x15, 1),
  [(0, EN | 0xc04)])
C("imc7_last_channel", "MC1 channel 3 (0x2fd5) at 18.1, the eighth channel", ["UNC_M_CAS_COUNT.ALL:socket=0:box=7"], pci(0x18, 1),
  [(0, EN | 0xf04)])
C("imc4_fixed_dclk", "MC1 channel 0 (0x2fd0) at 17.0; fixed DCLK CTL 0xF0 (en 22, rst 19), CTR 0xD0 (SNBEP_MC_CHy_PCI_PMON_FIXED_*)",
  [NM("mfix") + ":socket=0:box=4"], pci(0x17, 0), [], fixed=(0xf0, 0xd0))
C("imc0_general_and_fixed", "general counter 0xA0 and the fixed 0xD0 together", ["UNC_M_CAS_COUNT.RD:socket=0:box=0", NM("mfix") + ":socket=0:box=0"],
  pci(0x14, 0), [(0, EN | 0x304)], fixed=(0xf0, 0xd0))
C("imc1_dclockticks_general", "%s 0x00 on a general counter (the driver's imc clockticks alias)" % NM("mclk"),
  [NM("mclk") + ":socket=0:box=1"], pci(0x14, 1), [(0, EN)])
C("irp_clockticks", "IRP (0x2f39) at 05.6; UNC_I_CLOCKTICKS 0x00", ["UNC_I_CLOCKTICKS:socket=0"], pci(0x05, 6), [(0, EN)])
C("irp_counter1_regular", "hswep_uncore_irp_ctrs {0xA0, 0xA8, 0xB0, 0xB8}: counter 1 at 0xA8 (IVB-EP's was 0xB0)",
  ["UNC_I_CLOCKTICKS:socket=0", "irp/event=0x13,umask=0x01/:socket=0"], pci(0x05, 6), [(0, EN), (1, EN | 0x113)])
C("qpi0_clockticks", "QPI port 0 (0x2f32) at 08.2; UNC_Q_CLOCKTICKS 0x14", ["UNC_Q_CLOCKTICKS:socket=0:box=0"], pci(0x08, 2), [(0, EN | 0x14)])
C("qpi0_packet_match", "PKT_MATCH0 0x228, PKT_MASK0 0x238 on the port 0 filter (0x2f86) at 08.6; CTO_COUNT 0x38 with ext 21",
  ["qpi/event=0x38,ext,match0=0x1c00,mask0=0x1f80/:socket=0:box=0"], pci(0x08, 2), [(0, EN | 1 << 21 | 0x38)],
  filt=[("pci:ff:08.6", 0x228, 0x1c00), ("pci:ff:08.6", 0x238, 0x1f80)])
C("qpi1_tx_flits_data", "QPI port 1 (0x2f33) at 09.2; TxL_FLITS_G0.DATA 0x00/0x02", ["UNC_Q_TxL_FLITS_G0.DATA:socket=0:box=1"],
  pci(0x09, 2), [(0, EN | 0x200)])
# the third QPI link is the E7's: two-socket E5 boards list links 0 and 1 alone (tests/snapshots/field/bdx-*.source),
# so its cases open four sockets, where the simulator models the E7 (platforms/hsx/sim.c)
E7 = "sim:%s,sockets=4,clock=manual" % PLAT
C("qpi2_third_port", "QPI port 2 (\"QPI1 Port 2\") at 0a.2", ["UNC_Q_CLOCKTICKS:socket=0:box=2"], pci(0x0a, 2), [(0, EN | 0x14)],
  spec=E7)
if BDX:
    C("qpi2_packet_match", "QPI port 2's filter function (BDX_PCI_QPI_PORT2_FILTER 0x6f46) at 0a.6: PKT_MATCH0 0x228, PKT_MASK0 0x238",
      ["qpi/event=0x38,ext,match0=0x1c00,mask0=0x1f80/:socket=0:box=2"], pci(0x0a, 2), [(0, EN | 1 << 21 | 0x38)],
      filt=[("pci:ff:0a.6", 0x228, 0x1c00), ("pci:ff:0a.6", 0x238, 0x1f80)], spec=E7)
C("r2pcie_clockticks", "R2PCIe (0x2f34) at 10.1; UNC_R2_CLOCKTICKS 0x01", ["UNC_R2_CLOCKTICKS:socket=0"], pci(0x10, 1), [(0, EN | 0x01)])
C("r3qpi0_three_counters", "R3QPI link 0 (0x2f36) at 0b.1: 3 counters (hswep_uncore_r3qpi.num_counters)",
  ["UNC_R3_CLOCKTICKS:socket=0:box=0", "r3qpi/event=0x10,umask=0x01/:socket=0:box=0", "r3qpi/event=0x11,umask=0x01/:socket=0:box=0"],
  pci(0x0b, 1, n=3), [(0, EN | 0x01), (1, EN | 0x110), (2, EN | 0x111)])
C("r3qpi2_third_link", "R3QPI1 link 2 (0x2f3e) at 0b.5", ["UNC_R3_CLOCKTICKS:socket=0:box=2"], pci(0x0b, 5, n=3), [(0, EN | 0x01)],
  spec=E7)
if DE:  # the fixed DCLK on a channel the DE has, and more of its own boxes
    C("imc1_fixed_dclk", "MC0 channel 1 (0x2fb1) at 14.1; fixed DCLK CTL 0xF0 (en 22, rst 19), CTR 0xD0",
      [NM("mfix") + ":socket=0:box=1"], pci(0x14, 1), [], fixed=(0xf0, 0xd0))
    C("imc1_cas_count_wr", "MC0 channel 1 (0x2fb1) at 14.1; CAS_COUNT.WR 0x04/0x0C", ["UNC_M_CAS_COUNT.WR:socket=0:box=1"],
      pci(0x14, 1), [(0, EN | 0xc04)])
    C("cbo4_tor_inserts_miss", "CBo 4 at 0xE40; TOR_INSERTS.MISS_OPCODE 0x35/0x03, DRd 0x182 in FILTER1 0xE46",
      ["UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182:socket=0:box=4"], cbo(4), [(0, EN | 0x335)], filt=[("msr:0", 0xe46, 0x182 << 20)])
    C("r2pcie_two_counters", "R2PCIe CTL1 0xDC, CTR1 0xA8", ["UNC_R2_CLOCKTICKS:socket=0", "r2pcie/event=0x10,umask=0x01/:socket=0"],
      pci(0x10, 1), [(0, EN | 0x01), (1, EN | 0x110)])
    C("ha0_two_counters", "HA CTL1 0xDC, CTR1 0xA8; REQUESTS.READS 0x01/0x03", ["UNC_H_CLOCKTICKS:socket=0", "UNC_H_REQUESTS.READS:socket=0"],
      pci(0x12, 1), [(0, EN), (1, EN | 0x301)])
# the citations name HSX's device ids (0x2fxx); BDX's are the same with 0x6f (bdx_uncore_pci_ids)
text = "\n".join(out)
if BDX:
    text = "\n".join(l.replace("0x2f", "0x6f") if l.startswith("  src ") else l for l in text.split("\n"))
print(text, end="")
