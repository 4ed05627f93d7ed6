#!/usr/bin/env python3
"""The Linux uncore PMUs of perf+sim:dmr (platforms/dmr/linux_pmus.txt), written from platforms/dmr/README.md's
Linux 7.0 facts (dmr_uncores[] names and formats; the IIO free-running PMU, README "IIO free-running counters")
and the simulated machine's boxes (common/sim/sim_domains.c: 2 sockets, one hub a socket with 4 ITCs, one
compute die, 8 CBOs; every unit listed as MMIO, so each becomes a PMU: dmr_uncore_init has .pci_init and
.mmio_init and no .cpu_init, 6daf2c35b835, and registers no MSR-access unit), never from the library's or the
simulator's tables.

Usage: tools/vectors/dmr_linux_pmus.py > platforms/dmr/linux_pmus.txt
"""
GEN = {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18", "inv": "config:23", "thresh": "config:24-31"}
SCA = dict(GEN, umask="config:8-15,32-63")  # umask_ext5
IMC = dict(GEN, thresh="config:23-32")  # thresh10
CXL = dict(GEN, inv="config:21", thresh="config:23-31", port_en="config:32-35")  # inv2, thresh9_2, port_en
PCIE = dict(GEN, thresh_ext="config:32-35", rs3_sel="config:36", rx_sel="config:37", tx_sel="config:38",
            iep_sel="config:39", vc_sel="config:40-47", port_sel="config:48-55")
# name, discovery type, formats, box ids, sockets with the unit
TYPES = [("pcu", 4, GEN, [0], (0, 1)), ("ubox", 5, GEN, [0], (0, 1)), ("imc", 6, IMC, [0, 1, 2, 3], (0, 1)),
         ("sca", 23, SCA, [0], (0, 1)), ("cxlcm", 24, CXL, [0], (0,)), ("hamvf", 30, SCA, [0], (0, 1)),
         ("cbo", 31, SCA, list(range(8)), (0, 1)), ("santa", 32, GEN, [0], (0, 1)), ("cncu", 33, GEN, [0], (0, 1)),
         ("sncu", 34, GEN, [0], (0, 1)), ("ula", 35, SCA, [0], (0, 1)), ("dda", 36, SCA, [0], (0, 1)),
         ("sbo", 38, SCA, [0, 1], (0, 1)), ("ubr", 43, SCA, [0], (0, 1)), ("pcie4", 45, PCIE, [0], (0, 1)),
         ("crs", 46, GEN, [0], (0, 1)), ("cpc", 47, SCA, [0], (0, 1)), ("itc", 48, SCA, [0, 1, 2, 3], (0, 1)),
         ("otc", 49, SCA, [0], (0, 1)), ("cms", 50, GEN, [0], (0, 1)), ("pcie6", 51, PCIE, [0], (0, 1))]
CPUS = 8  # the first CPU of socket s is 8 s (sim:dmr: 8 cores a socket)
# The IIO free-running PMU (d8987048f665): uncore_iio_free_running_<n>, as many as uncore_type_max_boxes over the MMIO
# ITCs (uncore_mmio_uncores: the largest id below 0x8000, plus 1; 4 here), the
# skx_uncore_iio_freerunning formats, dmr_uncore_iio_freerunning_events (4 bytes a count: 3.814697266e-6 MiB).
# The driver maps one fixed window set (DMR_IMH1_HIOP_MMIO_BASE) on every die; the simulated machine places
# it on socket 0's hub alone, so the simulated kernel's cpumask is socket 0's CPU (Linux's names every die).
FR_FMT = {"event": "config:0-7", "umask": "config:8-15"}
FR_EVENTS = {}
for grp, um in (("inb_data_port", 0x10), ("bw_in_port", 0x20), ("bw_out_port", 0x30)):
    for k in range(8):
        FR_EVENTS["%s%d" % (grp, k)] = ("event=0xff,umask=0x%x" % (um + k), "3.814697266e-6", "MiB")
FR_EVENTS["clockticks"] = ("event=0xff,umask=0x40", None, None)
ITCS = 4

lines = []
for name, t, fmt, ids, socks in TYPES:
    for i in ids:
        pmu = "uncore_%s" % name + ("_%d" % i if len(ids) > 1 else "")
        lines.append("%s/alias uncore_type_%d%s" % (pmu, t, "_%d" % i if len(ids) > 1 else ""))
        lines.append("%s/cpumask %s" % (pmu, ",".join(str(CPUS * s) for s in socks)))
        lines += ["%s/format/%s %s" % (pmu, f, v) for f, v in fmt.items()]
for n in range(ITCS):
    pmu = "uncore_iio_free_running_%d" % n
    lines.append("%s/cpumask 0" % pmu)
    lines += ["%s/format/%s %s" % (pmu, f, v) for f, v in FR_FMT.items()]
    for name, (terms, scale, unit) in FR_EVENTS.items():
        lines.append("%s/events/%s %s" % (pmu, name, terms))
        if scale:
            lines += ["%s/events/%s.scale %s" % (pmu, name, scale), "%s/events/%s.unit %s" % (pmu, name, unit)]
print("""# Linux uncore PMUs of perf+sim:dmr (the model's driver, Linux 7.0 dmr_uncore_init)
# Written by tools/vectors/dmr_linux_pmus.py from platforms/dmr/README.md (the driver's names and formats; no Linux 7.0
# tree is unpacked here) and the simulated machine's boxes.  Format as platforms/gnr/linux_pmus.txt:
#   <pmu>/<file> <text>, sorted by path; listed: cpumask, format/*, events/*, alias.
# The MSE (0x13) and SB2UCIE (0x25) units the tables list are ignored (dmr_uncore_imh/cbb_units_ignore): no PMU.
# Every other unit is listed as MMIO (Linux's generic MMIO ops; no .cpu_init: an MSR-access unit would have none).
# No event alias on the iMC (dmr_uncore_imc has none); its fixed counter is config 0xff.  The IIO free-running
# PMUs' aliases are dmr_uncore_iio_freerunning_events; their cpumask is socket 0's CPU alone here (the simulated
# machine's HIOP windows are socket 0's hub's), where Linux 7.0 names one CPU a die.""")
print("\n".join(sorted(lines)))
