#!/usr/bin/env python3
"""Golden register vectors of sim:dmr (platforms/dmr/vectors.vec).

Usage: tools/dmr_vectors.py > platforms/dmr/vectors.vec

Control words from Linux 7.0's DMR formats (platforms/dmr/README.md: sca-like umask_ext5 8-15,32-63; iMC thresh10
23-32, fixed counter 0x18 / control 0x10; CXL CM inv2 21, thresh9_2 23-31, port_en 32-35; PCIe thresh_ext 32-35,
rs3_sel 36, rx_sel 37, tx_sel 38, iep_sel 39, vc_sel 40-47, port_sel 48-55), the unit and counter control bits of
the discovery generation (seed 001 Tables 1-3 and 1-5: frz 0, rst_ctrs 9 with rst_ctrl 8, en 22 on a fixed
control), the compute dies' global control (b575fc0e3357: freeze_all bit 0, cleared with 0) and the simulated
machine's placement (common/sim/sim_domains.c); nothing here reads the library.
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
    a = 0x3000 + 0x10 * k
    C("%s_event1" % name, "%s at MSR 0x%X (the hub's units from 0x3000, placed here)" % (name, a), "%s/event=0x1/:socket=0" % name,
      msr(a), 0x1)
    if name in ("pcie4", "pcie6"):
        C("%s_selectors" % name, "PCIe formats: port_sel 55:48, vc_sel 47:40, rx_sel 37, thresh_ext 35:32",
          "%s/event=0x2,umask=0x3,port_sel=0x5,vc_sel=0x2,rx_sel=1,thresh_ext=0x4/:socket=1" % name, msr(a, s=1),
          0x302 | 0x5 << 48 | 0x2 << 40 | 1 << 37 | 0x4 << 32)
    elif name in SCA:
        C("%s_umask_ext" % name, "umask_ext5: umask 15:8 and 63:32", "%s/event=0x2,umask=0x3,umask_ext=0x1/:socket=1" % name,
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

print(__doc__.split("\n\n")[2].strip().replace("\n", "\n# ").join(["# Diamond Rapids golden register vectors for sim:dmr, written by tools/dmr_vectors.py.\n# ", "\n"]))
print("\n".join(out))
