#!/usr/bin/env python3
"""Golden register vectors of sim:gnr, sim:srf and sim:cwf (platforms/<p>/vectors.vec).

Usage: tools/vectors/gnr_vectors.py PLATFORM > platforms/PLATFORM/vectors.vec

The expected accesses follow the session protocol of platforms/VECTORS.md and the register layout the
file header states (Linux 6.12's GNR formats, seed 001's control bits, perfmon's event codes, the
simulated machine's placement); nothing here reads the library.  The three platforms differ in their CHA
count (CHAS), which moves the compute dies' first CHAs and the last one.
"""
import sys

CHAS = {"gnr": 72, "srf": 96, "cwf": 144}  # platforms/<p>/sim.c: CHAs a socket, a third per compute die
def unit(kind, where, bc, ctl0, cs, ctr0, rs, n, filt=None):
    return dict(kind=kind, where=where, bc=bc, ctl0=ctl0, cs=cs, ctr0=ctr0, rs=rs, n=n, filt=filt)

def case(name, src, events, u, ctrs, ctls, filt=None, fixed=None, still=False):
    """events: specs; ctrs: counter index per event; ctls: control value per event; filt: filter value;
    still: the simulator drives none of the case's events, so the read also asks the die's GLOBAL_STATUS
    (platforms/VECTORS.md; 0x2FF2-0x2FF3, platforms/gnr/platform.c)"""
    W = u['where']; h = lambda v: hex(v)
    L = ["case " + name, "  src " + src] + ["  event " + e for e in events] + ["  start"]
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if filt is not None:
        L.append("    w %s %s %s" % (W, h(u['bc'] + 0xe), h(filt)))
    for c, v in zip(ctrs, ctls):
        if c == 'fixed':
            continue
        a = u['ctl0'] + c * u['cs']
        if u['kind'] == 'pci':
            L.append("    w %s %s %s" % (W, h(a + 4), h(v >> 32)))
            L.append("    w %s %s %s" % (W, h(a), h(v & 0xffffffff)))
        else:
            L.append("    w %s %s %s" % (W, h(a), h(v)))
    if fixed:
        L.append("    w %s %s 0x400000" % (W, h(fixed[0])))
    L.append("    w %s %s 0x201" % (W, h(u['bc'])))
    if fixed:
        L.append("    w %s %s 0x480000" % (W, h(fixed[0])))
    L.append("    w %s %s 0x0" % (W, h(u['bc'])))
    L.append("  read")
    for c in ctrs:
        if c == 'fixed':
            L.append("    r %s %s" % (W, h(fixed[1])))
            continue
        a = u['ctr0'] + c * u['rs']
        L.append("    r %s %s" % (W, h(a) + ("-" + h(a + 4) if u['kind'] == 'pci' else "")))
    # each programmed counter's control read back, in the order the events were added (platforms/VECTORS.md)
    for c in ctrs:
        if c == 'fixed':
            L.append("    r %s %s" % (W, h(fixed[0])))
            continue
        a = u['ctl0'] + c * u['cs']
        L.append("    r %s %s" % (W, h(a)))
        if u['kind'] == 'pci':
            L.append("    r %s %s" % (W, h(a + 4)))
    if still:
        L.append("    # no count moves on the simulator: the read asks GLOBAL_STATUS whether a sampler froze the die (VECTORS.md)")
        L += ["    r msr:0 0x2ff2", "    r msr:0 0x2ff3"]
    L.append("  stop")
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if fixed:
        L.append("    w %s %s 0" % (W, h(fixed[1])))
        L.append("    w %s %s 0" % (W, h(fixed[0])))
    for c in reversed(ctrs):
        if c == 'fixed':
            continue
        a = u['ctl0'] + c * u['cs']
        if u['kind'] == 'pci':
            L.append("    w %s %s 0" % (W, h(a + 4)))
        L.append("    w %s %s 0" % (W, h(a)))
    if filt is not None:
        L.append("    w %s %s 0" % (W, h(u['bc'] + 0xe)))
    for c in reversed(range(u['n'])):
        a = u['ctr0'] + c * u['rs']
        L.append("    w %s %s 0" % (W, h(a)))
        if u['kind'] == 'pci':
            L.append("    w %s %s 0" % (W, h(a + 4)))
    L.append("    w %s %s 0" % (W, h(u['bc'])))
    return "\n".join(L + ["end", ""])

def msr(bc, n=4, s=0): return unit('msr', 'msr:%d' % s, bc, bc + 2, 1, bc + 8, 1, n)
def imc(die, ch, s=0):
    # SCF BAR (UBox 3251 0xD0/0xD4: 0xE0200000 + 0x1000000 socket) + 0x24E800 + 0x4000 channel of the socket
    # (PCM 202502 src/types.h BHS_MC_CH_PMON_BASE_ADDR, SERVER_MC_CH_PMON_STEP)
    b = 0xe0200000 + 0x1000000 * s + 0x24e800 + 0x4000 * (4 * die + ch)
    return unit('mmio', 'mmio', b, b + 0x40, 4, b + 8, 8, 4)
def mmio8(b, n): return unit('mmio', 'mmio', b, b + 8, 8, b + 8 + 8 * n, 8, n)
def pci(dev, fn, bc, bus=0x7e, ctl0=0x28, ctr0=0x08):
    return unit('pci', 'pci:%02x:%02x.%d' % (bus, dev, fn), bc, bc + ctl0, 8, bc + ctr0, 8, 4)
# B2CMI: PCM 202502 SERVER_M2M_PCI_PMON_BOX_CTL/CTR0/CTL0_ADDR 0x438/0x440/0x468; PCIe Gen5 BHS_PCIE_GEN5_PCI_PMON_* 0x620/0x650/0x630
def b2cmi(dev, fn): return pci(dev, fn, 0x438, ctl0=0x30)
def pcie5(dev, fn): return pci(dev, fn, 0x620, ctl0=0x10, ctr0=0x30)

plat = sys.argv[1] if len(sys.argv) > 1 else "gnr"
n = CHAS[plat]
die1, last = n // 3, n - 1
out = []
C = lambda *a, **k: out.append(case(*a, **k))
C("cha0_clockticks", "CHA 0 placed at 0x2000: Ctrl0 +2, Ctr0 +8; JSON UNC_CHA_CLOCKTICKS 0x01", ["UNC_CHA_CLOCKTICKS:socket=0:box=0"], msr(0x2000), [0], [0x01])
C("cha5_unit_stride", "CHA n at 0x2000 + 0x10 n: CHA 5 0x2050", ["UNC_CHA_CLOCKTICKS:socket=0:box=5"], msr(0x2050), [0], [0x01])
C("cha%d_die1" % die1, "compute die 1's first CHA (%d) at 0x%X" % (die1, 0x2000 + 0x10 * die1),
  ["UNC_CHA_CLOCKTICKS:socket=0:box=%d" % die1], msr(0x2000 + 0x10 * die1), [0], [0x01])
C("cha%d_last" % last, "the last CHA of %d at 0x%X" % (n, 0x2000 + 0x10 * last), ["UNC_CHA_CLOCKTICKS:socket=0:box=%d" % last],
  msr(0x2000 + 0x10 * last), [0], [0x01])
C("cha3_tid_filter", "Linux spr_uncore_chabox: tid_en 16, FILTER0 +0xE tid 9:0; JSON TOR_INSERTS.IA 0x35/0x01 ext 0xC001FF",
  ["UNC_CHA_TOR_INSERTS.IA:tid=0x9:socket=0:box=3"], msr(0x2030), [0], [0xc001ff00010135], filt=0x9, still=True)
# the cores' data reads: DRd on GNR, DRd_Opt (opcode 0x104 in ext 21:11) on the Atom-core parts
drd, ext = ("DRD", 0xc817fe) if plat == "gnr" else ("DRD_OPT", 0xc827fe)
C("cha0_umask_ext_miss_" + drd.lower(), "umask_ext 63:32 (SPR_CHA_EVENT_MASK_EXT); JSON TOR_INSERTS.IA_MISS_%s 0x35/0x01 ext 0x%X" % (drd, ext),
  ["UNC_CHA_TOR_INSERTS.IA_MISS_%s:socket=0:box=0" % drd], msr(0x2000), [0], [ext << 32 | 0x135])
C("cha0_llc_lookup_miss", "JSON LLC_LOOKUP.DATA_READ_MISS 0x34/0x01 ext 0x1FC1", ["UNC_CHA_LLC_LOOKUP.DATA_READ_MISS:socket=0:box=0"],
  msr(0x2000), [0], [0x1fc100000134])
C("cha0_two_counters", "a second event takes Ctrl1 +3 and Ctr1 +9; JSON LLC_LOOKUP.DATA_READ_ALL 0x34/0xFF ext 0x1FC1",
  ["UNC_CHA_CLOCKTICKS:socket=0:box=0", "UNC_CHA_LLC_LOOKUP.DATA_READ_ALL:socket=0:box=0"], msr(0x2000), [0, 1], [0x01, 0x1fc10000ff34])
C("cha0_socket1", "socket 1 has its own MSRs (its CPU) at the same addresses", ["UNC_CHA_CLOCKTICKS:socket=1:box=0"], msr(0x2000, s=1), [0], [0x01])
C("cha0_thresh_edge_inv", "counter control: edge 18, invert 23, thresh 31:24", ["cha/event=0x36,umask=0x01,thresh=1,edge,inv/:socket=0:box=0"],
  msr(0x2000), [0], [0x01840136], still=True)
C("iio0_clockticks", "IIO stack 0 placed at 0x2900 (the driver's IOCLK 0x290E at its +0xE); JSON UNC_IIO_CLOCKTICKS 0x01",
  ["UNC_IIO_CLOCKTICKS:socket=0:box=0"], msr(0x2900), [0], [0x01])
C("iio2_part3", "IIO stack 2 at 0x2920; ch_mask 47:36, fc_mask 50:48 (snr_uncore_iio_format_group); JSON DATA_REQ_OF_CPU.MEM_WRITE.PART3 0x83/0x01 ext 0x70080",
  ["UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART3:socket=0:box=2"], msr(0x2920), [0], [0x7008000000183])
C("iio5_all_parts", "IIO stack 5 at 0x2950; JSON DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS 0x83/0x04 ext 0x70FF0",
  ["UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS:socket=0:box=5"], msr(0x2950), [0], [0x70ff000000483])
def freerun(name, src, event, addr):
    out.append("\n".join(["case " + name, "  src " + src, "  event " + event, "  start", "  read",
                          "    r msr:0 0x%x" % addr, "  stop", "end", ""]))


freerun("iio0_bw_in_port0_freerun", "Linux gnr_iio_freerunning BW_IN: 0x360E + 0x10 port + 0x80 stack, read only",
        "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=0", 0x360e)
freerun("iio2_ioclk_freerun", "gnr_iio_freerunning IOCLK: 0x290E + 0x10 stack (stack 2: 0x292E)",
        "UNC_IIO_CLOCKTICKS_FREERUN:socket=0:box=2", 0x292e)
freerun("iio5_bw_out_port3_freerun", "gnr_iio_freerunning BW_OUT: 0x2E0E + 0x10 x 3 + 0x80 x 5 = 0x30BE",
        "UNC_IIO_BANDWIDTH_OUT.PART3_FREERUN:socket=0:box=5", 0x30be)
C("irp1_clockticks", "IRP n at 0x2A00 + 0x10 n; JSON UNC_I_CLOCKTICKS 0x01", ["UNC_I_CLOCKTICKS:socket=0:box=1"], msr(0x2a10), [0], [0x01])
C("irp0_four_counters", "GNR's IRP has counters 0-3 (perfmon GNR IRP Counter 0,1,2,3): the third event takes Ctrl2 +4",
  ["UNC_I_CLOCKTICKS:socket=0:box=0", "irp/event=0x01/:socket=0:box=0", "irp/event=0x11,umask=0x08/:socket=0:box=0"],
  msr(0x2a00), [0, 1, 2], [0x01, 0x01, 0x811])
C("pcu_clockticks", "PCU placed at 0x2D00; JSON UNC_P_CLOCKTICKS 0x01", ["UNC_P_CLOCKTICKS:socket=0"], msr(0x2d00), [0], [0x01])
C("pcu_c0", "JSON POWER_STATE_OCCUPANCY_CORES_C0 0x35", ["UNC_P_POWER_STATE_OCCUPANCY_CORES_C0:socket=0"], msr(0x2d00), [0], [0x35])
C("ubox_msi", "UBox at 0x3FF0 (PCM 202502 BHS_UBOX_MSR_PMON_BOX_CTL_ADDR), 2 counters; JSON UNC_U_EVENT_MSG.MSI_RCVD 0x42/0x02 (counters 0,1)",
  ["UNC_U_EVENT_MSG.MSI_RCVD:socket=0"], msr(0x3ff0, 2), [0], [0x242], still=True)
C("b2hot2_clockticks", "B2HOT of compute die 2 at 0x2B20; JSON UNC_B2HOT_CLOCKTICKS 0x01/0x01", ["UNC_B2HOT_CLOCKTICKS:socket=0:box=2"],
  msr(0x2b20), [0], [0x101])
C("mdf5_clockticks", "MDF stop 5 at 0x2C50; JSON UNC_MDF_CLOCKTICKS 0x01", ["UNC_MDF_CLOCKTICKS:socket=0:box=5"], msr(0x2c50), [0], [0x01])
C("imc0_cas_sch0_rd", "IMC channel 0 of die 0 at 0xE044E800 (MMIO); controls +0x40 4 apart, counters +0x08 8 apart (SNR_IMC_MMIO_PMON_CTL0/CTR0); JSON CAS_COUNT_SCH0.RD 0x05/0xCF",
  ["UNC_M_CAS_COUNT_SCH0.RD:socket=0:box=0"], imc(0, 0), [0], [0xcf05])
C("imc0_cas_sch1_rd", "JSON CAS_COUNT_SCH1.RD 0x06/0xCF: scheduler 1 has its own event select", ["UNC_M_CAS_COUNT_SCH1.RD:socket=0:box=0"],
  imc(0, 0), [0], [0xcf06])
C("imc0_both_schedulers", "the two schedulers' write CASes on counters 0 and 1; JSON CAS_COUNT_SCH0/SCH1.WR 0x05/0x06 umask 0xF0",
  ["UNC_M_CAS_COUNT_SCH0.WR:socket=0:box=0", "UNC_M_CAS_COUNT_SCH1.WR:socket=0:box=0"], imc(0, 0), [0, 1], [0xf005, 0xf006])
C("imc1_channel_stride", "channel 1 of die 0 at + 0x4000", ["UNC_M_CAS_COUNT_SCH0.WR:socket=0:box=1"], imc(0, 1), [0], [0xf005])
C("imc4_die1", "channel 0 of compute die 1 (IMC 4) at 0xE045E800", ["UNC_M_CLOCKTICKS:socket=0:box=4"], imc(1, 0), [0], [0x101])
C("imc11_last", "IMC 11: die 2 channel 3 at 0xE047A800", ["UNC_M_CAS_COUNT_SCH1.ALL:socket=0:box=11"], imc(2, 3), [0], [0xff06])
C("imc0_socket1", "socket 1's IMCs at 0xE144E800", ["UNC_M_CAS_COUNT_SCH0.RD:socket=1:box=0"], imc(0, 0, 1), [0], [0xcf05])
C("imc0_fixed_dclk", "Linux gnr_uncore_imc: fixed control +0x54 (en 22, rst 19), fixed counter +0x38 (SNR_IMC_MMIO_PMON_FIXED_CTL/CTR)",
  ["UNC_M_FIXED_DCLK:socket=0:box=0"], imc(0, 0), ['fixed'], [0], fixed=(0xe044e854, 0xe044e838))
C("upi0_clockticks", "UPI link 0 at D16:F1 of bus 0x7F (Birch Stream's 3241), unit control 0x318, Ctl0 0x340, Ctr0 0x320 (placed here); JSON UNC_UPI_CLOCKTICKS",
  ["UNC_UPI_CLOCKTICKS:socket=0:box=0"], pci(16, 1, 0x318, 0x7f), [0], [0x01])
C("upi3_txl_flits", "UPI link 3 at D19:F1; JSON TxL_FLITS.ALL_DATA 0x02/0x0F", ["UNC_UPI_TxL_FLITS.ALL_DATA:socket=0:box=3"], pci(19, 1, 0x318, 0x7f), [0], [0xf02])
C("b2cmi0_imc_reads", "B2CMI 0 at D5:F1 (Birch Stream's 324a), unit control 0x438, counter 0 0x440, control 0 0x468 (PCM 202502 SERVER_M2M_PCI_PMON_*); umask_ext 55:32; JSON IMC_READS.ALL 0x24/0x04 ext 0x1",
  ["UNC_B2CMI_IMC_READS.ALL:socket=0:box=0"], b2cmi(5, 1), [0], [0x100000424])
C("b2cmi11_clockticks", "B2CMI 11 at D6:F5; JSON UNC_B2CMI_CLOCKTICKS 0x01", ["UNC_B2CMI_CLOCKTICKS:socket=0:box=11"], b2cmi(6, 5), [0], [0x01])
C("b2upi1_clockticks", "B2UPI 1 at D25:F0 of bus 0x7F (Birch Stream's 3245), unit control 0x408 (PCM 202502 BHS_M3UPI_PCI_PMON_BOX_CTL_ADDR); JSON UNC_B2UPI_CLOCKTICKS 0x01", ["UNC_B2UPI_CLOCKTICKS:socket=0:box=1"], pci(25, 0, 0x408, 0x7f), [0], [0x01])
C("pciex16_2_raw", "PCIEX16 2 at D11:F2, unit control 0x620, control 0 0x630, counter 0 0x650 (PCM 202502 BHS_PCIE_GEN5_PCI_PMON_*; no JSON events: a raw spec)", ["pciex16/event=0x01/:socket=0:box=2"], pcie5(11, 2), [0], [0x01])
C("pciex8_raw", "PCIEX8 0 at D9:F3", ["pciex8/event=0x02,umask=0x3/:socket=0:box=0"], pcie5(9, 3), [0], [0x302], still=True)
C("cxlcm0_ctr4", "CXL CM (socket 0) at 0xD8000000, 8 counters, 8-byte step (OFFS8); JSON RxC_PACK_BUF_INSERTS.MEM_DATA 0x41/0x10 on counters 4-7",
  ["UNC_CXLCM_RxC_PACK_BUF_INSERTS.MEM_DATA:socket=0:box=0"], mmio8(0xd8000000, 8), [4], [0x1041], still=True)
C("cxldp0_raw", "CXL DP at 0xD8001000, 4 counters (a raw spec)", ["cxldp/event=0x01,umask=0x01/:socket=0:box=0"], mmio8(0xd8001000, 4), [0], [0x101])
C("b2cxl0_clockticks", "B2CXL at 0xD8002000 (SPR_UNCORE_MMIO_OFFS8_COMMON_FORMAT); JSON UNC_B2CXL_CLOCKTICKS 0x01",
  ["UNC_B2CXL_CLOCKTICKS:socket=0:box=0"], mmio8(0xd8002000, 4), [0], [0x01])
HEADER = """\
# {name} golden register vectors for sim:{p}, written by tools/vectors/gnr_vectors.py from the Linux 6.12 driver
# (uncore_snbep.c gnr_uncores[] and the spr_* formats it reuses; uncore_discovery.c generic ops), seed
# 001's unit and counter control bits (the discovery generation's, Tables 1-3 and 1-5) and Intel's
# perfmon files ({json}_uncore{{,_experimental}}.json: codes, umasks, UMaskExt, counters).
#  Unit control: frz 0, rst_ctrl 8, rst_ctrs 9, write-only; freeze 0x1, run 0x0, reset counters 0x201.
#  Counter control: ev_sel 7:0, umask 15:8, rst 17, edge 18, frz_ovf 20, invert 23, thresh 31:24,
#    umask_ext from 32 (CHA 63:32 with tid_en 16; IIO thresh 35:24, ch_mask 47:36, fc_mask 50:48).
#  Addresses: the parts' are not public; the simulated machine (platforms/gnr/sim.c) places its units
#    and publishes them in its discovery table, which is all the library may use:
#    IIO free-running counters (Linux gnr_iio_freerunning, not in discovery): IOCLK 0x290E + 0x10 stack,
#    BW_IN port p 0x360E + 0x10 p + 0x80 stack, BW_OUT 0x2E0E + 0x10 p + 0x80 stack.
#    MSR units (status +1, controls +2.., counters +8..): CHA n 0x2000 + 0x10 n (FILTER0 +0xE; {n} CHAs,
#    {d} per compute die), IIO n 0x2900 + 0x10 n, IRP n 0x2A00 + 0x10 n (4 counters), B2HOT d 0x2B00 +
#    0x10 d, MDF k 0x2C00 + 0x10 k, PCU 0x2D00, UBox 0x3FF0 (2 counters; PCM 202502 BHS_UBOX_*).
#    IMC channel n = 4 d + c of compute die d (MMIO): the SCF BAR 0xE0200000 + 0x1000000 socket (UBox 3251
#    at 00.1, 0xD0 and 0xD4) + 0x24E800 + 0x4000 n (PCM 202502 BHS_MC_CH_PMON_BASE_ADDR, SERVER_MC_CH_PMON_STEP);
#    controls +0x40 4 apart, counters +0x08 8 apart, fixed control +0x54 (en 22, rst 19), fixed
#    counter +0x38 (Linux SNR_IMC_MMIO_PMON_* as gnr_uncore_imc uses them).
#    PCI units (64-bit registers as two dwords, upper control dword first), as Birch Stream lists them: on
#    socket 0's bus 0x7E PCIEX16 i D(9+i):F2, PCIEX8 D9:F3, B2CMI i D5:F(1+i) (i 0-6) and D6:F(i-6) (7-11);
#    on bus 0x7F UPI i D(16+i):F1 (unit control 0x318) and B2UPI i D(24+i):F0 (0x408): controls at unit control
#    + 0x28, counters + 0x08; B2CMI at 0x438 (controls 0x468, counters 0x440), PCIEX16/PCIEX8 at 0x620 (controls
#    0x630, counters 0x650), as PCM 202502 programs them (src/types.h).
#    CXL on socket 0 (MMIO, 8-byte step): CM 0xD8000000 (8 counters), DP 0xD8001000, B2CXL 0xD8002000;
#    controls +0x08, counters after the controls.
"""
NAMES = {"gnr": ("Granite Rapids", "graniterapids"), "srf": ("Sierra Forest", "sierraforest"),
         "cwf": ("Clearwater Forest", "clearwaterforest")}
print(HEADER.format(name=NAMES[plat][0], p=plat, json=NAMES[plat][1], n=n, d=n // 3))
print("\n".join(out))
