#!/usr/bin/env python3
"""Golden register vectors of sim:dmr (platforms/dmr/vectors.vec).

Usage: tools/vectors/dmr_vectors.py > platforms/dmr/vectors.vec

Control words from Linux 7.0's DMR formats (platforms/dmr/README.md: sca-like umask_ext5 8-15,32-63; iMC thresh10
23-32, fixed counter 0x18 / control 0x10; CXL CM inv2 21, thresh9_2 23-31, port_en 32-35; PCIe thresh_ext 32-35,
rs3_sel 36, rx_sel 37, tx_sel 38, iep_sel 39, vc_sel 40-47, port_sel 48-55), the unit and counter control bits of
the discovery generation (seed 001 Tables 1-3 and 1-5: frz 0, rst_ctrs 9 with rst_ctrl 8, en 22 on a fixed
control), the compute dies' global control (b575fc0e3357: freeze_all bit 0, cleared with 0), the IIO free-running
counters (d8987048f665: DMR_IMH1_HIOP_MMIO_BASE 0x1ffff6ae7000 + dmr_iio_freerunning_box_offsets {0x0, 0x8000,
0x18000, 0x20000}[n]; ITC_INB_DATA_BW 0x4d40, ITC_BW_IN 0x6b00, OTC_BW_OUT 0x6b60 8 bytes a port, OTC_CLOCK_TICKS
0x6bb0; read, never written), Linux's generic MMIO ops for every unit but the iMC (uncore_discovery.c
generic_uncore_mmio_ops: controls at the entry's control offset 4 bytes apart, 32-bit, counters 8 apart; no
.ops in dmr_uncores[], 6daf2c35b835, CXL CM included) and the simulated machine's placement
(common/sim/sim_domains.c: each unit's MMIO window, its status +0x8, controls +0x10, counters +0x30; the free-running
windows on socket 0's hub); nothing here reads the library.  Control bits at 32 and above (umask_ext, port_en, the
PCIe selectors) have no place in a 32-bit control: the library refuses them (tests/test_domains.c)."""

GCTL = [0x2e0000000 + 0x1000 * s for s in range(2)]  # each compute die's global control (sockets 0, 1)

def unit(kind, where, bc, ctl0, cs, ctr0, rs, n):
    return dict(kind=kind, where=where, bc=bc, ctl0=ctl0, cs=cs, ctr0=ctr0, rs=rs, n=n)

def gen(bc, n=4):  # generic MMIO ops: status +0x8, controls +0x10 4 apart, counters +0x30 8 apart (placed here)
    return unit('mmio', 'mmio', bc, bc + 0x10, 4, bc + 0x30, 8, n)
def imh(k, s=0): return 0x3100000000 + 0x2000000 * s + 0x4000 * k     # socket s's hub: PCU 0, UBox 1, ITC n 2 + n, others 8 + k
def cbb(off, s=0): return 0x3000000000 + 0x1000000 * s + off          # socket s's compute die (one a socket)
def imc(ch, s=0):
    b = 0xe0000000 + 0x1000000 * s + 0x8000 * ch
    return unit('mmio', 'mmio', b, b + 0x40, 4, b + 0x20, 8, 4)
def cxlcm(): return gen(0xd8000000, 8)

def case(name, src, event, u, ctl, ctr=0, fixed=None, event2=None, ctl2=None):
    W = u['where']; h = hex
    L = ["case " + name, "  src " + src, "  event " + event] + (["  event " + event2] if event2 else []) + ["  start"]
    L += ["    w mmio %s 0x0" % h(g) for g in GCTL]  # the frozen-at-power-on controls cleared first
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if fixed:
        L.append("    w %s %s 0x400000" % (W, h(u['bc'] + 0x10)))
    else:
        L.append("    w %s %s %s" % (W, h(u['ctl0'] + ctr * u['cs']), h(ctl)))
    if event2:
        L.append("    w %s %s %s" % (W, h(u['ctl0'] + (ctr + 1) * u['cs']), h(ctl2)))
    L.append("    w %s %s 0x201" % (W, h(u['bc'])))
    if fixed:  # the fixed control has no reset bit on DMR (none in the driver's facts): the counter is written 0
        L.append("    w %s %s 0x0" % (W, h(u['bc'] + 0x18)))
    L.append("    w %s %s 0x0" % (W, h(u['bc'])))
    L.append("  read")
    if fixed:
        L += ["    r %s %s" % (W, h(u['bc'] + 0x18)), "    r %s %s" % (W, h(u['bc'] + 0x10))]
    else:
        L += ["    r %s %s" % (W, h(u['ctr0'] + ctr * u['rs'])), "    r %s %s" % (W, h(u['ctl0'] + ctr * u['cs']))]
    if event2:
        L += ["    r %s %s" % (W, h(u['ctr0'] + (ctr + 1) * u['rs'])), "    r %s %s" % (W, h(u['ctl0'] + (ctr + 1) * u['cs']))]
    L.append("  stop")
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if fixed:
        L += ["    w %s %s 0" % (W, h(u['bc'] + 0x18)), "    w %s %s 0" % (W, h(u['bc'] + 0x10))]
    else:
        if event2:
            L.append("    w %s %s 0" % (W, h(u['ctl0'] + (ctr + 1) * u['cs'])))
        L.append("    w %s %s 0" % (W, h(u['ctl0'] + ctr * u['cs'])))
    for c in reversed(range(u['n'])):
        L.append("    w %s %s 0" % (W, h(u['ctr0'] + c * u['rs'])))
    L.append("    w %s %s 0" % (W, h(u['bc'])))
    L += ["    w mmio %s 0x1" % h(g) for g in GCTL]  # frozen again, as found
    return "\n".join(L + ["end", ""])

HIOP_BASE = 0x1ffff6ae7000
HIOP_OFFS = [0x0, 0x8000, 0x18000, 0x20000]  # HIOP0, HIOP1, HIOP3, HIOP4
FR_BASE = {"inb": 0x4d40, "in": 0x6b00, "out": 0x6b60, "clk": 0x6bb0}

def fr_case(name, src, event, box, grp, port=0):
    a = HIOP_BASE + HIOP_OFFS[box] + FR_BASE[grp] + 8 * port
    L = ["case " + name, "  src " + src, "  event " + event, "  start"]
    L += ["    w mmio %s 0x0" % hex(g) for g in GCTL]
    L += ["  read", "    r mmio %s" % hex(a), "  stop"]
    L += ["    w mmio %s 0x1" % hex(g) for g in GCTL]
    return "\n".join(L + ["end", ""])

out = []
C = lambda *a, **k: out.append(case(*a, **k))
C("pcu_event1", "PCU at its hub's MMIO window (placed here); generic MMIO ops; generic format: event 7:0", "pcu/event=0x1/:socket=0",
  gen(imh(0)), 0x1)
C("pcu_umask_socket1", "PCU on socket 1; umask 15:8", "pcu/event=0x2,umask=0x3/:socket=1", gen(imh(0, 1)), 0x302)
C("ubox_event1", "UBox, 2 counters", "ubox/event=0x1/:socket=0", gen(imh(1), 2), 0x1)
C("ubox_thresh", "UBox: generic thresh 31:24", "ubox/event=0x2,thresh=0x5/:socket=1", gen(imh(1, 1), 2), 0x5000002)
C("imc_fixed_dclk", "iMC channel 0 at 0xE0000000: fixed control +0x10 (en 22), counter +0x18 (DMR_IMC_PMON_FIXED_CTL/CTR)",
  "UNC_M_FIXED_DCLK:socket=0:box=0", imc(0), 0, fixed=True)
C("imc3_socket1_fixed", "iMC channel 3 of socket 1: 0xE1000000 + 3 x 0x8000", "UNC_M_FIXED_DCLK:socket=1:box=3", imc(3, 1), 0, fixed=True)
C("imc_thresh10", "iMC: controls +0x40 4 apart, counters +0x20 8 apart; thresh10 from bit 23", "imc/event=0x1,thresh=0x3/:socket=0:box=1",
  imc(1), 0x1 | 0x3 << 23)
C("imc_edge", "iMC: edge 18, umask 15:8", "imc/event=0x4,umask=0x5,edge,thresh=0x1/:socket=0:box=0", imc(0), 0x504 | 1 << 18 | 1 << 23)
C("cxlcm_ctl_step4", "CXL CM at 0xD8000000, generic MMIO ops (dmr_uncore_cxlcm has no .ops): control 1 at +4 from control 0",
  "cxlcm/event=0x2,umask=0x3/:socket=0", cxlcm(), 0x302, event2="cxlcm/event=0x5/:socket=0", ctl2=0x5)
C("cxlcm_inv2_thresh9", "CXL CM: inv 21, thresh 31:23", "cxlcm/event=0x41,inv,thresh=0x3/:socket=0", cxlcm(), 0x41 | 1 << 21 | 0x3 << 23)
C("cbo0_event1", "CBO 0 at its compute die's MMIO window", "cbo/event=0x1/:socket=0:box=0", gen(cbb(0)), 0x1)
C("cbo5_umask", "CBO n at + 0x4000 n; umask 15:8", "cbo/event=0x2,umask=0x3/:socket=0:box=5", gen(cbb(0x14000)), 0x302)
C("sbo0_event1", "SBO 0 at + 0x800000", "sbo/event=0x1/:socket=0:box=0", gen(cbb(0x800000)), 0x1)
C("sbo1_socket1", "SBO 1 at + 0x804000 on socket 1; edge", "sbo/event=0x3,edge,thresh=0x1/:socket=1:box=1", gen(cbb(0x804000, 1)),
  0x3 | 1 << 18 | 1 << 24)
SCA = ["sca", "hamvf", "ula", "ubr", None, None, "cpc", "itc", "otc", None, None]
for k, name in enumerate(["sca", "hamvf", "ula", "ubr", "pcie4", "crs", "cpc", "itc", "otc", "cms", "pcie6"]):
    kk, b = (8 + k, "") if name != "itc" else (2, ":box=0")  # ITC 0 of 4
    C("%s_event1" % name, "%s at its hub's window %d (placed here)" % (name, kk), "%s/event=0x1/:socket=0%s" % (name, b),
      gen(imh(kk)), 0x1)
    if name in ("pcie4", "pcie6"):
        C("%s_thresh" % name, "PCIe formats: thresh 31:24, inv 23 (the selectors, 32 and above, have no place in a 32-bit control)",
          "%s/event=0x2,umask=0x3,inv,thresh=0x4/:socket=1" % name, gen(imh(kk, 1)), 0x302 | 1 << 23 | 0x4 << 24)
    elif name in SCA:
        C("%s_umask" % name, "umask 15:8 (umask_ext, 32 and above, has no place in a 32-bit control)",
          "%s/event=0x2,umask=0x3/:socket=1%s" % (name, b), gen(imh(kk, 1)), 0x302)
    else:
        C("%s_thresh" % name, "generic format: thresh 31:24", "%s/event=0x2,thresh=0x4/:socket=1" % name, gen(imh(kk, 1)), 0x4000002)
for k, name in enumerate(["santa", "cncu", "sncu", "dda"]):
    a = 0xc00000 + 0x4000 * k
    C("%s_event1" % name, "%s at its compute die's window + 0x%X (placed here)" % (name, a), "%s/event=0x1/:socket=0" % name,
      gen(cbb(a)), 0x1)
    if name == "dda":
        C("dda_edge", "edge 18, thresh 31:24", "dda/event=0x2,edge,thresh=0x1/:socket=1", gen(cbb(a, 1)), 0x2 | 1 << 18 | 1 << 24)
    else:
        C("%s_umask" % name, "generic format: umask 15:8", "%s/event=0x2,umask=0x4/:socket=1" % name, gen(cbb(a, 1)), 0x402)

C("itc3_event1", "ITC 3 at its hub's window 5 (a hub's 4 ITCs from window 2, placed here)", "itc/event=0x1/:socket=0:box=3",
  gen(imh(5)), 0x1)
F = lambda *a, **k: out.append(fr_case(*a, **k))
F("iio0_bw_in_port0_freerun", "HIOP0 window 0x1ffff6ae7000 + 0x0; ITC_BW_IN 0x6b00", "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=0",
  0, "in")
F("iio2_bw_in_port5_freerun", "HIOP3 window + 0x18000 (box 2); ITC_BW_IN 0x6b00 + 8 x 5",
  "UNC_IIO_BANDWIDTH_IN.PART5_FREERUN:socket=0:box=2", 2, "in", 5)
F("iio1_bw_out_port7_freerun", "HIOP1 window + 0x8000 (box 1); OTC_BW_OUT 0x6b60 + 8 x 7",
  "UNC_IIO_BANDWIDTH_OUT.PART7_FREERUN:socket=0:box=1", 1, "out", 7)
F("iio3_inb_data_port2_freerun", "HIOP4 window + 0x20000 (box 3); ITC_INB_DATA_BW 0x4d40 + 8 x 2",
  "UNC_IIO_INBOUND_DATA.PART2_FREERUN:socket=0:box=3", 3, "inb", 2)
F("iio3_clockticks_freerun", "HIOP4 window + 0x20000 (box 3); OTC_CLOCK_TICKS 0x6bb0", "UNC_IIO_CLOCKTICKS_FREERUN:socket=0:box=3",
  3, "clk")
F("iio2_clockticks_perf_spelling", "perf's spelling iio_free_running/clockticks/ (umask 0x40): HIOP3, 0x6bb0",
  "iio_free_running/clockticks/:socket=0:box=2", 2, "clk")
F("iio1_bw_in_port3_perf_umask", "perf's raw spelling event=0xff,umask=0x23: bw_in_port3, 0x6b00 + 8 x 3, HIOP1",
  "iio_free_running/event=0xff,umask=0x23/:socket=0:box=1", 1, "in", 3)

print(__doc__.split("\n\n")[2].strip().replace("\n", "\n# ").join(["# Diamond Rapids golden register vectors for sim:dmr, written by tools/vectors/dmr_vectors.py.\n# ", "\n"]))
print("\n".join(out))
