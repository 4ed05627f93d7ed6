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
0x6bb0; read, never written) and the simulated machine's placement (common/sim/sim_domains.c: 4 ITCs a hub at
MSR 0x3100 + 0x10 n, the free-running windows on socket 0's hub); nothing here reads the library.
"""

GCTL = [0x2e0000000 + 0x1000 * s for s in range(2)]  # each compute die's global control (sockets 0, 1)

def unit(kind, where, bc, ctl0, cs, ctr0, rs, n):
    return dict(kind=kind, where=where, bc=bc, ctl0=ctl0, cs=cs, ctr0=ctr0, rs=rs, n=n)

def msr(bc, n=4, s=0): return unit('msr', 'msr:%d' % s, bc, bc + 2, 1, bc + 8, 1, n)
def imc(ch, s=0):
    b = 0xe0000000 + 0x1000000 * s + 0x8000 * ch
    return unit('mmio', 'mmio', b, b + 0x40, 4, b + 0x20, 8, 4)
def cxlcm(): b = 0xd8000000; return unit('mmio', 'mmio', b, b + 8, 8, b + 8 + 64, 8, 8)

def case(name, src, event, u, ctl, ctr=0, fixed=None):
    W = u['where']; h = hex
    L = ["case " + name, "  src " + src, "  event " + event, "  start"]
    L += ["    w mmio %s 0x0" % h(g) for g in GCTL]  # the frozen-at-power-on controls cleared first
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if fixed:
        L.append("    w %s %s 0x400000" % (W, h(u['bc'] + 0x10)))
    else:
        L.append("    w %s %s %s" % (W, h(u['ctl0'] + ctr * u['cs']), h(ctl)))
    L.append("    w %s %s 0x201" % (W, h(u['bc'])))
    if fixed:  # the fixed control has no reset bit on DMR (none in the driver's facts): the counter is written 0
        L.append("    w %s %s 0x0" % (W, h(u['bc'] + 0x18)))
    L.append("    w %s %s 0x0" % (W, h(u['bc'])))
    L.append("  read")
    if fixed:
        L += ["    r %s %s" % (W, h(u['bc'] + 0x18)), "    r %s %s" % (W, h(u['bc'] + 0x10))]
    else:
        L += ["    r %s %s" % (W, h(u['ctr0'] + ctr * u['rs'])), "    r %s %s" % (W, h(u['ctl0'] + ctr * u['cs']))]
    L.append("  stop")
    L.append("    w %s %s 0x1" % (W, h(u['bc'])))
    if fixed:
        L += ["    w %s %s 0" % (W, h(u['bc'] + 0x18)), "    w %s %s 0" % (W, h(u['bc'] + 0x10))]
    else:
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
C("pcu_event1", "PCU at MSR 0x2FC0 (placed here); generic format: event 7:0", "pcu/event=0x1/:socket=0", msr(0x2fc0), 0x1)
C("pcu_umask_socket1", "PCU on socket 1; umask 15:8", "pcu/event=0x2,umask=0x3/:socket=1", msr(0x2fc0, s=1), 0x302)
C("ubox_event1", "UBox at MSR 0x2FD0, 2 counters", "ubox/event=0x1/:socket=0", msr(0x2fd0, 2), 0x1)
C("ubox_thresh", "UBox: generic thresh 31:24", "ubox/event=0x2,thresh=0x5/:socket=1", msr(0x2fd0, 2, 1), 0x5000002)
C("imc_fixed_dclk", "iMC channel 0 at 0xE0000000: fixed control +0x10 (en 22), counter +0x18 (DMR_IMC_PMON_FIXED_CTL/CTR)",
  "UNC_M_FIXED_DCLK:socket=0:box=0", imc(0), 0, fixed=True)
C("imc3_socket1_fixed", "iMC channel 3 of socket 1: 0xE1000000 + 3 x 0x8000", "UNC_M_FIXED_DCLK:socket=1:box=3", imc(3, 1), 0, fixed=True)
C("imc_thresh10", "iMC: controls +0x40 4 apart, counters +0x20 8 apart; thresh10 from bit 23", "imc/event=0x1,thresh=0x3/:socket=0:box=1",
  imc(1), 0x1 | 0x3 << 23)
C("imc_edge", "iMC: edge 18, umask 15:8", "imc/event=0x4,umask=0x5,edge,thresh=0x1/:socket=0:box=0", imc(0), 0x504 | 1 << 18 | 1 << 23)
C("cxlcm_port_en", "CXL CM at 0xD8000000, 8-byte steps: port_en 35:32", "cxlcm/event=0x2,umask=0x3,port_en=0x3/:socket=0", cxlcm(),
  0x302 | 0x3 << 32)
C("cxlcm_inv2_thresh9", "CXL CM: inv 21, thresh 31:23", "cxlcm/event=0x41,inv,thresh=0x3/:socket=0", cxlcm(), 0x41 | 1 << 21 | 0x3 << 23)
C("cbo0_event1", "CBO 0 at MSR 0x2000", "cbo/event=0x1/:socket=0:box=0", msr(0x2000), 0x1)
C("cbo5_umask_ext", "CBO n at 0x2000 + 0x10 n; umask_ext5 63:32", "cbo/event=0x2,umask=0x3,umask_ext=0x5/:socket=0:box=5", msr(0x2050),
  0x302 | 0x5 << 32)
C("sbo0_event1", "SBO 0 at MSR 0x2E00", "sbo/event=0x1/:socket=0:box=0", msr(0x2e00), 0x1)
C("sbo1_socket1", "SBO 1 at 0x2E10 on socket 1; umask_ext5", "sbo/event=0x3,umask_ext=0x80000000/:socket=1:box=1", msr(0x2e10, s=1),
  0x3 | 0x80000000 << 32)
SCA = ["sca", "hamvf", "ula", "ubr", None, None, "cpc", "itc", "otc", None, None]
for k, name in enumerate(["sca", "hamvf", "ula", "ubr", "pcie4", "crs", "cpc", "itc", "otc", "cms", "pcie6"]):
    a, b = (0x3000 + 0x10 * k, "") if name != "itc" else (0x3100, ":box=0")  # ITC 0 of 4
    C("%s_event1" % name, "%s at MSR 0x%X (the hub's units from 0x3000, placed here)" % (name, a), "%s/event=0x1/:socket=0%s" % (name, b),
      msr(a), 0x1)
    if name in ("pcie4", "pcie6"):
        C("%s_selectors" % name, "PCIe formats: port_sel 55:48, vc_sel 47:40, rx_sel 37, thresh_ext 35:32",
          "%s/event=0x2,umask=0x3,port_sel=0x5,vc_sel=0x2,rx_sel=1,thresh_ext=0x4/:socket=1" % name, msr(a, s=1),
          0x302 | 0x5 << 48 | 0x2 << 40 | 1 << 37 | 0x4 << 32)
    elif name in SCA:
        C("%s_umask_ext" % name, "umask_ext5: umask 15:8 and 63:32", "%s/event=0x2,umask=0x3,umask_ext=0x1/:socket=1%s" % (name, b),
          msr(a, s=1), 0x302 | 1 << 32)
    else:
        C("%s_thresh" % name, "generic format: thresh 31:24", "%s/event=0x2,thresh=0x4/:socket=1" % name, msr(a, s=1), 0x4000002)
for k, name in enumerate(["santa", "cncu", "sncu", "dda"]):
    a = 0x3200 + 0x10 * k
    C("%s_event1" % name, "%s at MSR 0x%X (each compute die's from 0x3200, placed here)" % (name, a), "%s/event=0x1/:socket=0" % name,
      msr(a), 0x1)
    if name == "dda":
        C("dda_umask_ext", "umask_ext5", "dda/event=0x2,umask_ext=0x7/:socket=1", msr(a, s=1), 0x2 | 7 << 32)
    else:
        C("%s_umask" % name, "generic format: umask 15:8", "%s/event=0x2,umask=0x4/:socket=1" % name, msr(a, s=1), 0x402)

C("itc3_event1", "ITC 3 at MSR 0x3130 (a hub's 4 ITCs from 0x3100, placed here)", "itc/event=0x1/:socket=0:box=3", msr(0x3130), 0x1)
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
