#!/usr/bin/env python3
"""The uncore PMUs Linux's intel_uncore driver registers on a simulated machine, as a listing.

Usage:
  tools/vectors/linux_pmus.py LINUX_SRC PLATFORM [--generic]           print the listing
  tools/vectors/linux_pmus.py LINUX_SRC PLATFORM [--generic] --check FILE
                                                                compare FILE's data lines with it

LINUX_SRC is a Linux source tree (only arch/x86/events/intel/uncore*.c are read).  The rules restated
here are Linux 6.12's, the tree the listings in platforms/<p>/linux_pmus*.txt were written from; an
older tree's differences are in each listing's comments (NOTES), not modelled.  PLATFORM is nhm, snbep, ivbep, hsx, bdx,
bdxde, skx, clx, icx, spr, emr, gnr, srf or cwf;
--generic models a kernel without the model's entry (the generic discovery driver, emr only).
--linux-6.12.0 (gnr, srf, cwf) reads a 6.12.y tree with the March 2026 backports as Linux 6.12.0 had it, by
undoing their diffs: 6d642735cdb6 (gnr_uncore_units_ignore back to UNCORE_SPR_UPI 8, UNCORE_GNR_TYPE_15,
UNCORE_GNR_B2UPI 18, UNCORE_GNR_TYPE_21, _22; gnr_uncores[] back to NULL at 8, 12, 13, 15, 18, 21, 22) and
6a8a48644c4b (gnr_uncores[6] back to spr_uncore_imc); and without b6ccddd6fe1f (6.12.8: CWF's
INTEL_ATOM_DARKMONT_X entry), so CWF runs the generic discovery driver.

What comes from the driver's source: the type tables (names, num_boxes, format groups, event
descriptions, attr_update groups, fixed counters), the format attributes' text, the PCI id tables, the
SPR/EMR discovery type names, ignore list and extra types, the generic discovery formats.  What comes
from the simulated machine: the MACHINES table below (sockets, cores, PCI devices, discovery units),
written from platforms/<p>/sim.c and sim_map.c.  The naming, numbering and cpumask rules are
uncore.c's (uncore_get_pmu_name, uncore_get_alias_name, uncore_get_box_id, uncore_die_has_box),
restated here.  The script runs by hand: CI has no Linux source; the listings are data in the tree.
"""
import argparse
import os
import re
import sys

HEADER = """\
# {title}
# Written by tools/vectors/linux_pmus.py from {src} (arch/x86/events/intel/uncore*.c) and the
# simulated machine's boxes (MACHINES in the script).  Do not edit data lines by hand: regenerate,
# or check with `tools/vectors/linux_pmus.py LINUX_SRC {plat}{gen} --check THIS_FILE`.
#
# Format: one line per sysfs file below /sys/bus/event_source/devices/, sorted by path:
#   <pmu>/<file> <text>
# <text> is the file's first line without its newline.  Listed: cpumask, format/*, events/* (with
# their .scale and .unit files), alias.  Left out: type (a dynamic number), and perf core's own files
# (perf_event_mux_interval_ms, uevent, power/, subsystem), which do not come from the uncore driver.
# Lines starting with '#' are comments.
"""


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class Driver:
    """The symbols of one driver source file that describe sysfs: formats, attribute lists and groups,
    event descriptions, zero-argument initializer macros and intel_uncore_type records."""

    def __init__(self, path):
        with open(path, encoding="utf-8", errors="replace") as f:
            raw = f.read()
        self.path = path
        text = strip_comments(raw)
        self.formats = {v: (n, t) for v, n, t in re.findall(
            r'DEFINE_UNCORE_FORMAT_ATTR\(\s*(\w+)\s*,\s*(\w+)\s*,\s*"([^"]*)"\s*\)', text)}
        self.attr_lists = {}
        for name, body in re.findall(r"static struct attribute \*(\w+)\[\]\s*=\s*\{(.*?)\};", text, re.S):
            self.attr_lists[name] = re.findall(r"&format_attr_(\w+)\.attr", body)
        self.groups = {}
        for name, body in re.findall(r"static (?:const )?struct attribute_group (\w+)\s*=\s*\{(.*?)\};", text, re.S):
            m = re.search(r"\.attrs\s*=\s*(\w+)", body)
            self.groups[name] = m.group(1) if m else None
        self.events = {}
        for name, body in re.findall(r"static struct uncore_event_desc (\w+)\[\]\s*=\s*\{(.*?)\n\};", text, re.S):
            self.events[name] = re.findall(r'INTEL_UNCORE_EVENT_DESC\(\s*([\w.]+)\s*,\s*"([^"]*)"\s*\)', body)
        # zero-argument macros used inside type initializers (SNBEP_UNCORE_PCI_COMMON_INIT() ...)
        self.macros = {}
        for name, body in re.findall(r"#define (\w+)\(\)\s*((?:[^\n]*\\\n)*[^\n]*)", text):
            self.macros[name] = body.replace("\\\n", " ")
        self.types = {}
        for name, body in re.findall(r"static struct intel_uncore_type (\w+)\s*=\s*\{(.*?)\n\};", text, re.S):
            self.types[name] = self._fields(body)
        self.arrays = {}
        for name, body in re.findall(r"static struct intel_uncore_type \*(\w+)\[[^\]]*\]\s*=\s*\{(.*?)\};", text, re.S):
            self.arrays[name] = body
        self.text = text

    def _fields(self, body, depth=0):
        fields = {}
        for m in re.finditer(r"(\w+)\(\)", body):
            if m.group(1) in self.macros and depth < 8:
                fields.update(self._fields(self.macros[m.group(1)], depth + 1))
        for key, val in re.findall(r"\.(\w+)\s*=\s*([^,\n]+?)\s*(?:,|$)", body, re.M):
            fields[key] = val.strip()
        return fields

    def list_of(self, array):
        """The entries of a type-pointer array, in order ('&x' -> 'x', NULL -> None), and its designators."""
        body = self.arrays[array]
        out, desig = [], {}
        for item in [s.strip() for s in body.split(",") if s.strip()]:
            m = re.match(r"(?:\[(\w+)\]\s*=\s*)?(&(\w+)|NULL)$", item)
            if not m:
                raise SystemExit(f"{self.path}: cannot read entry '{item}' of {array}")
            out.append(m.group(3))
            if m.group(1):
                desig[m.group(1)] = m.group(3)
        return out, desig

    def int_define(self, name):
        m = re.search(r"#define\s+%s\s+(\w+)" % name, self.text)
        if not m:
            raise SystemExit(f"{self.path}: no #define {name}")
        return int(m.group(1), 0)

    def int_array(self, name):
        m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\};" % name, self.text, re.S)
        if not m:
            raise SystemExit(f"{self.path}: no array {name}")
        out = []
        for item in [s.strip() for s in m.group(1).split(",") if s.strip()]:
            if item == "UNCORE_IGNORE_END":  # the list's end mark (uncore.h)
                break
            out.append(self.int_define(item) if not item[0].isdigit() else int(item, 0))
        return out

    def format_list(self, group):
        """[(file name, text)] of a format attribute group."""
        attrs = self.groups.get(group)
        if attrs is None or attrs not in self.attr_lists:
            raise SystemExit(f"{self.path}: cannot resolve format group {group}")
        return [self.formats[v] for v in self.attr_lists[attrs]]

    def pci_ids(self, table):
        """[(device id or its macro, driver enum, index)] of a pci_device_id table."""
        m = re.search(r"static const struct pci_device_id %s\[\]\s*=\s*\{(.*?)\n\};" % table, self.text, re.S)
        out = []
        for dev, typ, idx in re.findall(r"PCI_DEVICE\(PCI_VENDOR_ID_INTEL,\s*(\w+)\),\s*"
                                        r"\.driver_data\s*=\s*UNCORE_PCI_DEV_DATA\((\w+),\s*(\w+)\)", m.group(1)):
            out.append((dev, typ, idx))
        return out


def num(v):
    return int(v, 0) if v and re.match(r"^(0x[0-9a-fA-F]+|\d+)$", v) else None


# The device ids include/linux/pci_ids.h gives the SNB-EP table's macros (that header is outside
# arch/x86; read from Linux 6.12 include/linux/pci_ids.h, PCI_DEVICE_ID_INTEL_UNC_*).
PCI_IDS_H = {"PCI_DEVICE_ID_INTEL_UNC_HA": 0x3c46, "PCI_DEVICE_ID_INTEL_UNC_IMC0": 0x3cb0,
             "PCI_DEVICE_ID_INTEL_UNC_IMC1": 0x3cb1, "PCI_DEVICE_ID_INTEL_UNC_IMC2": 0x3cb4,
             "PCI_DEVICE_ID_INTEL_UNC_IMC3": 0x3cb5, "PCI_DEVICE_ID_INTEL_UNC_QPI0": 0x3c41,
             "PCI_DEVICE_ID_INTEL_UNC_QPI1": 0x3c42, "PCI_DEVICE_ID_INTEL_UNC_R2PCIE": 0x3c43,
             "PCI_DEVICE_ID_INTEL_UNC_R3QPI0": 0x3c44, "PCI_DEVICE_ID_INTEL_UNC_R3QPI1": 0x3c45}


def spr_family_units(sock, chas=60, hbm=0):
    """One socket's discovery entries in table order, as common/sim/spr_family_sim.c spr_family_build/
    spr_units write them: (type, box id, access: 0 MSR 1 MMIO 2 PCI, PCI devfn the entry's address
    names).  chas: the CHA entries (s->cores plus the variant's extra_chas)."""
    u = [(0, i, 0, None) for i in range(chas)]                    # CHA 0..chas-1
    for i in range(10):                                           # SPR_SIM_STACKS: IIO PMUs 0-9
        u += [(1, i, 0, None), (2, i, 0, None), (3, i, 0, None)]  # IIO, IRP, M2PCIe
    u += [(4, 0, 0, None), (5, 0, 0, None)]                       # PCU, UBox
    u += [(11, i, 0, None) for i in range(4)]                     # MDF
    u += [(6, i, 1, None) for i in range(8)]                      # IMC: 4 controllers x 2 channels
    for i in range(4):                                            # UPI, M3UPI, M2M
        upi_devfn = (0x1f, 7) if i == 2 else (1 + i, 1)           # quirk 1: entry 2 names no device
        u += [(8, i, 2, upi_devfn), (9, i, 2, (5 + i, 1)), (7, i, 2, (12 + i, 0))]
    if sock == 0:                                                 # CXL on socket 0 only
        u += [(12, 0, 1, None), (13, 0, 1, None)]
    u += [(14, i, 1, None) for i in range(hbm)]                   # Xeon Max: HBM channels (type 14)
    return u


SPR_PCI_DEVS = {0x3241: [(1 + i, 1) for i in range(4)], 0x3246: [(5 + i, 1) for i in range(4)]}
# the PMON functions each socket's bus has (dev, fn): UPI, M3UPI, M2M (spr_units' pci_unit calls)
SPR_PCI_PRESENT = {(1 + i, 1) for i in range(4)} | {(5 + i, 1) for i in range(4)} | {(12 + i, 0) for i in range(4)}


def gnr_units(chas, stacks=6):
    """One socket's discovery entries of GNR's machine (platforms/gnr/sim.c compute_die, io_units), in table
    order, for a machine with chas CHAs a socket (a third per compute die) and stacks IIO PMUs (15 where the
    kind has a board, sim:gnr and sim:srf; the first six with a PCIEX16 unit)."""
    def f(sock):
        u = []
        for die in range(3):
            u += [(0, i, 0, None) for i in range(die * chas // 3, (die + 1) * chas // 3)]  # CHAs
            for c in range(4):                                                          # IMC, B2CMI
                i = die * 4 + c
                u += [(6, i, 1, None), (16, i, 2, (16 + i, 0))]
            u += [(15, die, 0, None)] + [(20, die * 2 + k, 0, None) for k in range(2)]   # B2HOT, MDF
        for i in range(stacks):                                                         # IIO, IRP, PCIEX16
            u += [(1, i, 0, None), (2, i, 0, None)] + ([(21, i, 2, (9 + i, 2))] if i < 6 else [])
        u += [(22, 0, 2, (9, 3))]                                                       # PCIEX8
        for i in range(4):                                                              # UPI, B2UPI
            u += [(8, i, 2, (1 + i, 1)), (18, i, 2, (5 + i, 1))]
        u += [(4, 0, 0, None), (5, 0, 0, None)]                                         # PCU, UBox
        if sock == 0:                                                                   # CXL CM, DP, B2CXL
            u += [(12, 0, 1, None), (13, 0, 1, None), (17, 0, 1, None)]
        # the types gnr_uncores[] names none for (sim.c unnamed_units): two each of 3 and 7 (MMIO), one each
        # of 9, 10, 11, 14 (MMIO) and 19
        u += [(3, 0, 0, None), (7, 0, 1, None), (3, 1, 0, None), (7, 1, 1, None)]
        u += [(9, 0, 0, None), (10, 0, 0, None), (11, 0, 0, None), (14, 0, 1, None), (19, 0, 0, None)]
        return u
    return f


GNR_PCI = ({(1 + i, 1) for i in range(4)} | {(5 + i, 1) for i in range(4)} | {(9 + i, 2) for i in range(6)} |
           {(9, 3)} | {(16 + i, 0) for i in range(12)})

# Skylake-SP's machine (platforms/skx/sim.c places, sim_map.c .ids): the PCI functions of skx_uncore_pci_ids at
# their dev.fn on each socket's buses, as (device id, dev, fn)
SKX_PCI = {(0x2042, 10, 2), (0x2046, 10, 6), (0x204a, 11, 2), (0x2042, 12, 2), (0x2046, 12, 6), (0x204a, 13, 2),
           (0x2066, 8, 0), (0x2066, 9, 0), (0x2058, 14, 0), (0x2058, 15, 0), (0x2058, 16, 0), (0x2088, 21, 1),
           (0x2088, 22, 1), (0x2088, 23, 1), (0x2088, 21, 5), (0x204d, 18, 1), (0x204e, 18, 2), (0x204d, 18, 5)}

# Ice Lake-SP's machine (platforms/icx/sim.c places, sim_map.c .ids): the PCI functions of icx_uncore_pci_ids at their
# dev.fn on each socket's buses, as (device id, dev, fn): M2M 0x344A at 12-15.0, UPI 0x3441 at 2-4.1, M3UPI 0x3446 at 5-7.1
ICX_PCI = ({(0x344a, 12 + i, 0) for i in range(4)} | {(0x3441, 2 + i, 1) for i in range(3)} |
           {(0x3446, 5 + i, 1) for i in range(3)})

# The simulated machines (perf+sim:<p> defaults: 2 sockets, the kind's core count).
MACHINES = {
    "nhm": {"sockets": 2, "cores": 4},                            # platforms/nhm/sim.c sim_kind_nhm
    "snbep": {"sockets": 2, "cores": 8,                           # platforms/snbep/sim.c, sim_map.c .ids
              "pci": [0x3c46, 0x3cb0, 0x3cb1, 0x3cb4, 0x3cb5, 0x3c41, 0x3c42, 0x3c43, 0x3c44, 0x3c45,
                      0x3c86, 0x3c96]},
    "ivbep": {"sockets": 2, "cores": 15,                          # platforms/ivbep/sim.c, sim_map.c .ids
              "pci": [0x0e30, 0x0e38, 0x0eb4, 0x0eb5, 0x0eb0, 0x0eb1, 0x0ef4, 0x0ef5, 0x0ef0, 0x0ef1, 0x0e39,
                      0x0e32, 0x0e33, 0x0e3a, 0x0e34, 0x0e36, 0x0e37, 0x0e3e, 0x0e86, 0x0e96]},
    # platforms/skx/sim.c, sim_map.c .ids: 18 cores, 20 CHAs (CAPID6), the PCI functions of skx_uncore_pci_ids
    # at their dev.fn on each socket's buses
    "skx": {"sockets": 2, "cores": 18, "chas": 20, "pci_devfn": SKX_PCI},
    # platforms/clx/sim.c: the same machine with 24 cores, 26 CHAs
    "clx": {"sockets": 2, "cores": 24, "chas": 26, "pci_devfn": SKX_PCI},
    # platforms/icx/sim.c: 40 cores, 40 CHAs (CAPID6 + CAPID7 of 0x345B), the PCI functions of icx_uncore_pci_ids at
    # their dev.fn, and on each socket the memory controller 0x3451 the MMIO types map (every die has one)
    "icx": {"sockets": 2, "cores": 40, "chas": 40, "pci_devfn": ICX_PCI},
    # platforms/hsx/sim.c, sim_map.c .ids: two sockets list QPI links 0 and 1 alone, as the EP boards do (the
    # third, 0x2f3a/0x6f3a with R3QPI 0x2f3e/0x6f3e and BDX's filter 0x6f46, is the E7's: more sockets)
    "hsx": {"sockets": 2, "cores": 18,
            "pci": [0x2f30, 0x2f38, 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5, 0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5, 0x2f39,
                    0x2f32, 0x2f33, 0x2f34, 0x2f36, 0x2f37, 0x2f86, 0x2f96]},
    "bdx": {"sockets": 2, "cores": 22,
            "pci": [0x6f30, 0x6f38, 0x6fb0, 0x6fb1, 0x6fb4, 0x6fb5, 0x6fd0, 0x6fd1, 0x6fd4, 0x6fd5, 0x6f39,
                    0x6f32, 0x6f33, 0x6f34, 0x6f36, 0x6f37, 0x6f86, 0x6f96]},
    # platforms/bdxde/sim.c: one socket of 8 cores, one HA and two channels; bdx_uncore_cpu_init drops the SBox
    # type on INTEL_BROADWELL_D
    "bdxde": {"sockets": 1, "cores": 8, "pci": [0x6f30, 0x6fb0, 0x6fb1, 0x6f39, 0x6f34], "drop": ["bdx_uncore_sbox"]},
    # platforms/emr/sim.c (common/sim/spr_family_sim.c): discovery tables per socket, UPI 0x3241 at
    # D1-4:F1 and M3UPI 0x3246 at D5-8:F1 (spr_family_map.c .ids), MSR 0x2FFE reads 0 (so the CHA
    # count stays the table's)
    "emr": {"sockets": 2, "cores": 60, "units": spr_family_units,
            "pci_devs": SPR_PCI_DEVS, "pci_present": SPR_PCI_PRESENT, "cbo_config": 0},
    # platforms/spr/sim.c: the same machine with 56 CHAs, 60 CHA entries per table, MSR 0x2FFE = 56
    "spr": {"sockets": 2, "cores": 56, "units": spr_family_units,
            "pci_devs": SPR_PCI_DEVS, "pci_present": SPR_PCI_PRESENT, "cbo_config": 56},
    # sim:spr,hbm=1 (Xeon Max): the same machine with 32 HBM channels a socket (discovery type 14, MMIO;
    # spr_family_sim.c hbm_units)
    "spr_hbm": {"sockets": 2, "cores": 56, "units": lambda s: spr_family_units(s, 60, 32),
                "pci_devs": SPR_PCI_DEVS, "pci_present": SPR_PCI_PRESENT, "cbo_config": 56},
    # platforms/gnr/sim.c (sim:srf and sim:cwf: the same machine, 96 and 144 CHAs): every unit through its
    # table entry; the PMON functions each socket's bus has (dev, fn) are GNR_PCI
    "gnr": {"sockets": 2, "cores": 72, "units": gnr_units(72, 15), "pci_present": GNR_PCI, "cbo_config": 0},
    "srf": {"sockets": 2, "cores": 96, "units": gnr_units(96, 15), "pci_present": GNR_PCI, "cbo_config": 0},
    "cwf": {"sockets": 2, "cores": 144, "units": gnr_units(144), "pci_present": GNR_PCI, "cbo_config": 0},
}


# Hand-written notes for each listing: what the script does not derive, and where Linux 6.1 differs.
NOTES = {
    "nhm": [
        "NHM-EP (model 26) is nhm_uncore_init's (uncore.c intel_uncore_match): one type, nhm_uncore of",
        "uncore_snb.c, named \"\" so its one PMU is \"uncore\".",
        "Linux 6.1: the same files.  Its cpumask file printed the one global uncore_cpu_mask (uncore.c",
        "uncore_get_attr_cpumask), the same text here since the PMU has a box on every die.",
    ],
    "snbep": [
        "The SNB-EP PCI id table names its devices by macro; their numbers are include/linux/pci_ids.h's",
        "(PCI_IDS_H in the script).  The QPI filter devices 0x3c86/0x3c96 are UNCORE_EXTRA_PCI_DEV: no PMU.",
        "The CBo count is num_boxes capped to the cores per package (snbep_uncore_cpu_init): 8.",
        "Linux 6.1: the same files (the cap read boot_cpu_data.x86_max_cores, the same number); cpumask",
        "printed the global uncore_cpu_mask, the same text here since every PMU has a box on every die.",
    ],
    "ivbep": [
        "The CBo count is num_boxes (15) capped to the cores per package (ivbep_uncore_cpu_init): 15.",
        "Linux 6.1: the same files; cpumask printed the global uncore_cpu_mask, the same text here.",
    ],
    "skx": [
        "SKX (model 0x55, every stepping: Cascade Lake and Cooper Lake too) is skx_uncore_init's.  The CHA count",
        "is CAPID6's set bits (skx_count_chabox: 0x2083 config 0x9C, bits 27:0): 20 on the simulated part, which",
        "has 18 cores.  PCI boxes are matched by device id and dev.fn (UNCORE_PCI_DEV_FULL_DATA).",
        "Not listed: the die<N> mapping files of uncore_iio_* (skx_iio_attr_update, from MSR 0x300) and, in",
        "6.12 only, of uncore_upi_* (skx_upi_attr_update, from KTILP0/KTIPCSTS): the simulated kernel does not",
        "model them.",
        "Linux 6.1: the same files (no UPI mapping attributes); cpumask printed the global uncore_cpu_mask, the",
        "same text here.",
    ],
    "icx": [
        "ICX (INTEL_ICELAKE_X 0x6a, INTEL_ICELAKE_D 0x6c) is icx_uncore_init's: icx_msr_uncores, icx_pci_uncores and",
        "icx_mmio_uncores.  The CHA count is the set bits of CAPID6 and CAPID7 (icx_count_chabox: 0x345B config 0x9C",
        "and 0xA0, 64 bits): 40 on the simulated part, so uncore_cha_0..39; cpumask \"0,40\".  PCI boxes are matched by",
        "device id and dev.fn (UNCORE_PCI_DEV_FULL_DATA).  The MMIO types (uncore_imc_0..11, uncore_imc_free_running_0..3)",
        "are registered on every die; their boxes map the 0x3451 device's windows when first used.",
        "Not listed: the die<N> mapping files of uncore_iio_* (icx_iio_attr_update, from SAD_CONTROL_CFG of 0x09A2)",
        "and uncore_upi_* (icx_upi_attr_update, from KTILP0/KTIPCSTS): the simulated kernel does not model them.",
        "Linux 6.1: not compared (this listing is 6.12's only).",
    ],
    "clx": [
        "CLX (model 0x55 steppings 5-7; Cooper Lake 10-11) is skx_uncore_init's, as SKX (see skx/linux_pmus.txt):",
        "the same types, names, formats and aliases.  What differs is the machine: 24 cores, CAPID6 with 26 bits",
        "set, so uncore_cha_0..25; cpumask \"0,24\".  On stepping 11 (Cooper Lake) skx_upi_get_topology gives up",
        "(\"CPX case is not supported\"), which only hides the UPI die<N> files, not listed here anyway.",
        "Linux 6.1: the same files (no UPI mapping attributes); cpumask printed the global uncore_cpu_mask.",
    ],
    "hsx": [
        "HSX (model 0x3f) is hswep_uncore_init's.  The CBo count is num_boxes (18) capped to the cores per",
        "package (hswep_uncore_cpu_init): 18.  The SBoxes stay 4: hswep_has_limit_sbox reads the PCU's CAPID4",
        "(device 0x2fc0, config 0x94), whose chop (bits 7:6) the simulated machine makes 3 (chop=0 would leave 2",
        "SBoxes: tests/test_kernel_tree).  The QPI filter devices 0x2f86/0x2f96 are UNCORE_EXTRA_PCI_DEV: no PMU.",
        "Two sockets have QPI links 0 and 1 (and R3QPI 0 and 1) alone, as two-socket E5 boards list them: no",
        "uncore_qpi_2 or uncore_r3qpi_2 (their devices, the E7's third link, are absent).",
        "Linux 6.1: the same files (the cap read boot_cpu_data.x86_max_cores, the same number); cpumask",
        "printed the global uncore_cpu_mask, the same text here since every PMU has a box on every die.",
    ],
    "bdx": [
        "BDX (model 0x4f) is bdx_uncore_init's.  The CBo count is num_boxes (24) capped to the cores per",
        "package (bdx_uncore_cpu_init): 22 on the simulated part.  The SBox type stays: bdx_uncore_cpu_init drops",
        "it on Broadwell-DE (model 0x56) and where the PCU's CAPID4 (device 0x6fc0, config 0x94) reports no chop",
        "(bits 7:6 of 0), and the simulated machine is model 0x4f with a chop of 3 (chop=0 would leave no SBox",
        "PMU: tests/test_kernel_tree).  The QPI filter devices 0x6f86/0x6f96 are UNCORE_EXTRA_PCI_DEV: no",
        "PMU.  The UBox has IVB-EP's formats (no filters).  Two sockets have QPI and R3QPI links 0 and 1 alone, as",
        "the R730 and X10DRi list them (the third link's 0x6f3a, 0x6f3e and 0x6f46 are the E7's).",
        "Linux 6.1: the same files (the cap read boot_cpu_data.x86_max_cores, the same number); cpumask",
        "printed the global uncore_cpu_mask, the same text here since every PMU has a box on every die.",
    ],
    "bdxde": [
        "Broadwell-DE (model 0x56) is bdx_uncore_init's too.  bdx_uncore_cpu_init drops the SBox type on",
        "INTEL_BROADWELL_D; the one-socket part has no QPI or R3QPI device, so neither type registers.  The",
        "CBo count is num_boxes (24) capped to the cores per package: 8 on the simulated part.",
        "Linux 6.1: the same files (its test was boot_cpu_data.x86_model == 86, the same part).",
    ],
    "emr": [
        "EMR (model 0xcf) is spr_uncore_init's.  Units come from the discovery tables (types 8 UPI and 9",
        "M3UPI ignored there: spr_uncore_units_ignore) and are named by spr_uncores[type]; 5 (UBox) has no",
        "name, so uncore_type_5.  UPI and M3UPI are found by device id (spr_update_device_location):",
        "box id = slot - the first link's slot, so the table's broken third UPI entry hides nothing.",
        "MSR 0x2FFE reads 0 on the simulator (EMR XCC), so the CHA count stays the table's 60.",
        "No dieN files on uncore_upi_*: skx_upi_mapping_visible shows them only where KTIPCSTS (config",
        "0x120) bit 4 is set, and the simulator's UPI devices read 0 there.",
        "Linux 6.1 differs: (1) every cpumask is the global uncore_cpu_mask, \"0,60\" also for CXL, which",
        "only die 0 has; (2) UNCORE_SPR_NUM_UNCORE_TYPES was 12, so types 12 and 13 were uncore_type_12 and",
        "uncore_type_13 with the generic formats and no alias file; (3) uncore_imc_N had no events/* (no",
        "spr_uncore_imc_events); (4) UPI and M3UPI came from the discovery table (spr_uncores[8], [9]),",
        "so the broken third UPI entry left no uncore_upi_2 (uncore_pci_pmus_register finds no device).",
        "The CHA umask (umask_ext5, config:8-15,32-63) and the IIO bw_in_port scale are 6.1's too.",
    ],
    "spr": [
        "SPR (model 0x8f) is spr_uncore_init's, as EMR: the same types, names, formats and aliases (see",
        "emr/linux_pmus.txt).  What differs is the CHA count: the simulated part's tables list 60 CHAs",
        "(the firmware bug of Linux 38776cc4) while MSR 0x2FFE reads 56, and spr_uncore_cpu_init takes",
        "the MSR's, so uncore_cha_0..55 (the extra entries never become PMUs); cpumask \"0,56\".",
        "Linux 6.1 differs as for EMR (emr/linux_pmus.txt); its spr_uncore_cpu_init reads the MSR alike.",
    ],
    "spr_hbm": [
        "perf+sim:spr,hbm=1, a Xeon Max: the spr machine (spr/linux_pmus.txt) with 32 HBM channels a socket,",
        "discovery type 14, which Linux 6.12 names hbm (spr_uncores[14], spr_uncore_hbm of f8a86a9bb5f7):",
        "uncore_hbm_0..31 with SPR_UNCORE_COMMON_FORMAT's formats, no events, alias uncore_type_14_N.",
        "Linux 6.1 has no hbm type (UNCORE_SPR_NUM_UNCORE_TYPES 12 there): uncore_type_14_N with the generic formats.",
    ],
    "gnr": [
        "GNR (model 0xad) is gnr_uncore_init's (uncore.c intel_uncore_match).  Units come from the discovery table, none",
        "ignored (gnr_uncore_units_ignore is empty), named by gnr_uncores[type]; the types without a format",
        "group (pcu, ubox, b2hot, mdf_sbo) take the generic discovery formats.  The extra MSR type is",
        "spr_uncore_iio_free_running with gnr_iio_freerunning, one PMU per IIO box; there is no IMC",
        "free-running type and no UPI device-id search (gnr_uncore_pci_init/mmio_init add none).  The types",
        "gnr_uncores[] has no entry for (3, 7, 9-11, 14, 19) are uncore_type_<t>[_<box id>] with the generic",
        "formats and no alias file (uncore_get_uncores keeps every discovered type).",
        "Linux 6.1 had no GNR entry (the model ran the generic discovery driver).",
        "6d642735cdb6 (Linux 6.14; 6.12.y from its March 2026 backport) named types 8, 12, 13, 15, 18, 21, 22;",
        "Linux 6.12.0 before it: linux_pmus_6.12.0.txt (--linux-6.12.0).",
    ],
    "srf": [
        "SRF (INTEL_ATOM_CRESTMONT_X, model 0xaf) is gnr_uncore_init's (uncore.c intel_uncore_match).  Units come from the discovery table, none",
        "ignored (gnr_uncore_units_ignore is empty), named by gnr_uncores[type]; the types without a format",
        "group (pcu, ubox, b2hot, mdf_sbo) take the generic discovery formats.  The extra MSR type is",
        "spr_uncore_iio_free_running with gnr_iio_freerunning, one PMU per IIO box; there is no IMC",
        "free-running type and no UPI device-id search (gnr_uncore_pci_init/mmio_init add none).  The types",
        "gnr_uncores[] has no entry for (3, 7, 9-11, 14, 19) are uncore_type_<t>[_<box id>] with the generic",
        "formats and no alias file (uncore_get_uncores keeps every discovered type).",
        "Linux 6.1 had no GNR entry (the model ran the generic discovery driver).",
        "6d642735cdb6 (Linux 6.14; 6.12.y from its March 2026 backport) named types 8, 12, 13, 15, 18, 21, 22;",
        "Linux 6.12.0 before it: linux_pmus_6.12.0.txt (--linux-6.12.0).",
    ],
    "cwf": [
        "CWF (INTEL_ATOM_DARKMONT_X, model 0xdd) is gnr_uncore_init's (uncore.c intel_uncore_match).  Units come from the discovery table, none",
        "ignored (gnr_uncore_units_ignore is empty), named by gnr_uncores[type]; the types without a format",
        "group (pcu, ubox, b2hot, mdf_sbo) take the generic discovery formats.  The extra MSR type is",
        "spr_uncore_iio_free_running with gnr_iio_freerunning, one PMU per IIO box; there is no IMC",
        "free-running type and no UPI device-id search (gnr_uncore_pci_init/mmio_init add none).  The types",
        "gnr_uncores[] has no entry for (3, 7, 9-11, 14, 19) are uncore_type_<t>[_<box id>] with the generic",
        "formats and no alias file (uncore_get_uncores keeps every discovered type).",
        "Linux 6.1 had no GNR entry (the model ran the generic discovery driver).",
        "6d642735cdb6 (Linux 6.14; 6.12.y from its March 2026 backport) named types 8, 12, 13, 15, 18, 21, 22;",
        "Linux 6.12.0 before it: linux_pmus_6.12.0.txt (--linux-6.12.0).",
    ],
    "gnr_6120": [
        "Linux 6.12.0 (and 6.12.y before its March 2026 backports, 6.13): gnr_uncore_init with",
        "gnr_uncore_units_ignore = { UNCORE_SPR_UPI, UNCORE_GNR_TYPE_15, UNCORE_GNR_B2UPI, UNCORE_GNR_TYPE_21,",
        "UNCORE_GNR_TYPE_22 }: no PMU for types 8, 15, 18, 21, 22; gnr_uncores[] NULL at 12 and 13 as at 3, 7,",
        "9-11, 14, 19: uncore_type_12[_N], uncore_type_13[_N] with the generic formats and no alias file; the IMC is",
        "spr_uncore_imc (cas_count_read/_write, event 0x05: scheduler 0 only).  6d642735cdb6 (Linux 6.14) named",
        "the seven types; 6a8a48644c4b (Linux 7.0) gave the IMC its per-scheduler aliases.",
    ],
    "srf_6120": [
        "Linux 6.12.0 on SRF (INTEL_ATOM_CRESTMONT_X): gnr_uncore_init as on GNR (see gnr/linux_pmus_6.12.0.txt):",
        "no PMU for types 8, 15, 18, 21, 22; uncore_type_12[_N] and uncore_type_13[_N]; spr_uncore_imc's aliases.",
    ],
    "cwf_6120": [
        "Linux 6.12.0 has no entry for CWF (INTEL_ATOM_DARKMONT_X came with b6ccddd6fe1f: Linux 6.13, 6.12.8):",
        "intel_uncore_init falls back to the generic discovery driver (generic_uncore_init): every discovered",
        "type is uncore_type_<type>[_<box id>] with the generic formats, no events/*, no alias file, no",
        "free-running PMU.",
    ],
    "emr_generic": [
        "A kernel without the model's entry and discovery tables: generic_uncore_init (uncore.c",
        "intel_uncore_init, uncore_discovery.c intel_uncore_generic_init_uncores).  Every type unnamed:",
        "uncore_type_<type>[_<box id>], the generic formats, no events/*, no alias file, no free-running",
        "PMU, and no fixed counter (config 0xff is EINVAL: uncore_pmu_event_init, no fixed_ctl).  UPI and",
        "M3UPI are found through the table here, so the broken third UPI entry (its address names no",
        "device) leaves no uncore_type_8_2 (uncore_pci_pmus_register).",
        "Linux 6.1 differs only in the cpumask: the global uncore_cpu_mask, \"0,60\" for uncore_type_12",
        "and uncore_type_13 too.",
    ],
}


class Pmu:
    def __init__(self, name, dies, formats, events=(), alias=None):
        self.name, self.dies, self.formats, self.events, self.alias = name, dies, formats, list(events), alias


def cpumask(m, dies):
    """uncore_change_type_ctx: the first online CPU of each die with the box (Linux 6.12 per PMU)."""
    return ",".join(str(d * m["cores"]) for d in sorted(dies))


def pmu_name(tname, num_boxes, box_id, type_id):
    """uncore_get_pmu_name / uncore_get_alias_name (uncore.c)."""
    if tname is None:
        return alias_name(num_boxes, box_id, type_id)
    if num_boxes == 1:
        return "uncore_%s" % tname if tname else "uncore"
    return "uncore_%s_%d" % (tname, box_id)


def alias_name(num_boxes, box_id, type_id):
    return "uncore_type_%d" % type_id if num_boxes == 1 else "uncore_type_%d_%d" % (type_id, box_id)


def unquote(v):
    return v.strip('"') if v and v.startswith('"') else None


def fixed_table(drv, m, msr_list, pci_list=None, pci_table=None, cap_cbox=None):
    """SNB-EP, IVB-EP, HSX, BDX, Nehalem: every MSR type's boxes on every die (but the types the machine's
    *_uncore_cpu_init drops, m["drop"]); PCI types where a device probed."""
    notes, pmus = [], []

    def describe(tvar, nboxes, idx, dies):
        t = drv.types[tvar]
        evs = drv.events[t["event_descs"]] if "event_descs" in t else []
        return Pmu(pmu_name(unquote(t["name"]), nboxes, idx, 0), dies, drv.format_list(t["format_group"].lstrip("&")), evs)

    for tvar in drv.list_of(msr_list)[0]:
        if not tvar or tvar in m.get("drop", ()):
            continue
        n = num(drv.types[tvar]["num_boxes"])
        if tvar == cap_cbox and n > m["cores"]:  # *_uncore_cpu_init: capped to the cores per package
            n = m["cores"]
        pmus += [describe(tvar, n, i, range(m["sockets"])) for i in range(n)]
    if pci_list:
        _, desig = drv.list_of(pci_list)
        found = {}
        for dev, enum, idx in drv.pci_ids(pci_table):
            devid = num(dev) if num(dev) is not None else PCI_IDS_H[dev]
            if enum == "UNCORE_EXTRA_PCI_DEV" or devid not in m["pci"]:
                continue
            tvar, i = desig[enum], int(idx, 0)
            n = num(drv.types[tvar]["num_boxes"])
            if i >= n:
                notes.append("# device 0x%04x is %s index %d, beyond its num_boxes %d: uncore_pci_probe would "
                             "index past type->pmus[] (a driver bug); no PMU is listed for it" % (devid, tvar, i, n))
                continue
            found[(tvar, i)] = n
        for (tvar, i), n in sorted(found.items(), key=lambda x: (desig_order(desig, x[0][0]), x[0][1])):
            pmus.append(describe(tvar, n, i, range(m["sockets"])))
    return pmus, notes


def skylake_style_table(drv, m, p):
    """Skylake-SP (skx_uncore_init) and Ice Lake-SP (icx_uncore_init, p = "icx"): the MSR types of <p>_msr_uncores on
    every die, the CHAs as CAPID6 (and on ICX CAPID7) count them, ICX's IIO free-running type among them; the PCI
    types of <p>_pci_uncores where a device of the id sits at the dev.fn its UNCORE_PCI_DEV_FULL_DATA names; ICX's
    MMIO types (icx_mmio_uncores) on every die, num_boxes each."""
    pmus = []

    def describe(tvar, nboxes, idx):
        t = drv.types[tvar]
        evs = drv.events[t["event_descs"]] if "event_descs" in t else []
        return Pmu(pmu_name(unquote(t["name"]), nboxes, idx, 0), range(m["sockets"]),
                   drv.format_list(t["format_group"].lstrip("&")), evs)

    def every_box(tvar, n):
        return [describe(tvar, n, i) for i in range(n)]

    for tvar in drv.list_of(p + "_msr_uncores")[0]:
        if tvar:
            pmus += every_box(tvar, m["chas"] if tvar == p + "_uncore_chabox" else num(drv.types[tvar]["num_boxes"]))
    _, desig = drv.list_of(p + "_pci_uncores")
    t = re.search(p + r"_uncore_pci_ids\[\]\s*=\s*\{(.*?)\n\};", drv.text, re.S).group(1)
    found = {}
    for dev, d, f, enum, idx in re.findall(r"PCI_DEVICE\(PCI_VENDOR_ID_INTEL,\s*(\w+)\),\s*\.driver_data\s*=\s*"
                                           r"UNCORE_PCI_DEV_FULL_DATA\((\w+),\s*(\w+),\s*(\w+),\s*(\w+)\)", t):
        if (int(dev, 0), int(d, 0), int(f, 0)) in m["pci_devfn"]:
            found[(desig[enum], int(idx, 0))] = num(drv.types[desig[enum]]["num_boxes"])
    for (tvar, i), n in sorted(found.items(), key=lambda x: (desig_order(desig, x[0][0]), x[0][1])):
        pmus.append(describe(tvar, n, i))
    if p == "icx":
        for tvar in drv.list_of("icx_mmio_uncores")[0]:
            if tvar:
                pmus += every_box(tvar, num(drv.types[tvar]["num_boxes"]))
    return pmus, []


def desig_order(desig, tvar):
    return list(desig.values()).index(tvar)


# Linux 6.12.0's GNR driver, before 6d642735cdb6 and 6a8a48644c4b (see --linux-6.12.0 above)
GNR_6120_IGNORE = [8, 15, 18, 21, 22]
GNR_6120_NULL = [8, 12, 13, 15, 18, 21, 22]


def discovery(drv, disc, m, generic, family="spr", linux6120=False):
    """SPR/EMR (spr_uncore_init), GNR/SRF/CWF (gnr_uncore_init) or the generic discovery driver."""
    notes = []
    gen_formats = disc.format_list("generic_uncore_format_group")
    if generic:
        names, ignore = [None] * 64, []
    else:
        names, _ = drv.list_of(family + "_uncores")
        ignore = drv.int_array(family + "_uncore_units_ignore")
        if linux6120:
            if ignore or names[6] != "gnr_uncore_imc":
                raise SystemExit("--linux-6.12.0 undoes 6d642735cdb6 and 6a8a48644c4b: this tree does not have them")
            ignore = GNR_6120_IGNORE
            names = ["spr_uncore_imc" if t == 6 else None if t in GNR_6120_NULL else n for t, n in enumerate(names)]
    # intel_uncore_has_discovery_tables / uncore_insert_box_info: per type, units with pmu_idx by
    # first appearance of their box id; the dies' tables in the order of their devices (either order
    # gives the same here: every die lists its ids in ascending order)
    types = {}
    for die in range(m["sockets"]):
        for t, bid, access, devfn in m["units"](die):
            if t in ignore:
                continue
            ty = types.setdefault(t, {"access": access, "units": [], "ids": []})
            if bid not in ty["ids"]:
                ty["ids"].append(bid)
            ty["units"].append({"die": die, "id": bid, "pmu_idx": ty["ids"].index(bid), "devfn": devfn})
    pmus = []
    max_id = {}
    for t, ty in sorted(types.items()):
        custom = drv.types[names[t]] if t < len(names) and names[t] else {}
        num_boxes = len(ty["ids"])
        if t == 0 and not generic and m["cbo_config"]:  # spr_uncore_cpu_init: SPR_MSR_UNC_CBO_CONFIG
            num_boxes = m["cbo_config"]
        max_id[t] = max(ty["ids"])
        emit_type(drv, pmus, unquote(custom.get("name")), t, num_boxes, ty, custom, gen_formats, m)
    if generic:
        return pmus, notes
    if family == "gnr":  # gnr_uncore_cpu_init: the SPR MSR extras, i.e. the IIO free-running type alone
        t = drv.types["spr_uncore_iio_free_running"]
        emit_type(drv, pmus, unquote(t["name"]), None, max_id[1] + 1, {"access": 0, "units": None}, t, None, m)
        return pmus, notes
    # the extra types: free-running IIO (MSR) and IMC (MMIO), and UPI/M3UPI found by PCI device id
    for tv, n in (("spr_uncore_iio_free_running", max_id[1] + 1), ("spr_uncore_imc_free_running", (max_id[6] + 1) // 2)):
        t = drv.types[tv]
        ty = {"access": 0, "units": None}
        emit_type(drv, pmus, unquote(t["name"]), None, n, ty, t, None, m)
    for tv, did, slot0 in (("spr_uncore_upi", 0x3241, 1), ("spr_uncore_m3upi", 0x3246, 5)):
        # spr_update_device_location: box id = slot - the first link's slot; every unit's address is the
        # first link's device, which the sim has on every die
        t = drv.types[tv]
        units = [{"die": d, "id": s - slot0, "pmu_idx": s - slot0, "devfn": (slot0, 1)}
                 for d in range(m["sockets"]) for s, fn in m["pci_devs"][did]]
        n = num(t["num_boxes"]) if num(t["num_boxes"]) else drv.int_define(t["num_boxes"])
        emit_type(drv, pmus, unquote(t["name"]), drv.int_define(t["type_id"]), n, {"access": 2, "units": units}, t, None, m)
    return pmus, notes


def emit_type(drv, pmus, tname, type_id, num_boxes, ty, custom, gen_formats, m):
    fg = custom.get("format_group")
    formats = drv.format_list(fg.lstrip("&")) if fg else gen_formats
    events = drv.events[custom["event_descs"]] if custom.get("event_descs") else []
    alias = "alias" in custom.get("attr_update", "") or custom.get("attr_update", "").startswith("spr_upi_attr_update")
    for idx in range(num_boxes):
        if ty["units"] is None:  # no discovery boxes: every die, box id = pmu_idx
            dies, box_id = list(range(m["sockets"])), idx
        else:
            us = sorted([u for u in ty["units"] if u["pmu_idx"] == idx], key=lambda u: u["die"])
            if ty["access"] == 2:  # uncore_pci_pmus_register: only units whose address names a device
                us = [u for u in us if u["devfn"] is not None and present(m, u["devfn"])]
            if not us:
                continue
            # uncore_get_box_id: the box id of the pmu_idx's first unit (intel_uncore_find_discovery_unit, die -1)
            dies = [u["die"] for u in us]
            box_id = min((u for u in ty["units"] if u["pmu_idx"] == idx), key=lambda u: u["die"])["id"]
        pmus.append(Pmu(pmu_name(tname, num_boxes, box_id, type_id), dies, formats, events,
                        alias_name(num_boxes, box_id, type_id) if alias else None))


def present(m, devfn):
    """Whether the simulated machine has a PCI device at devfn (on the die's bus)."""
    return devfn in m["pci_present"]


def listing(src, plat, generic, linux6120=False):
    d = os.path.join(src, "arch/x86/events/intel")
    m = MACHINES[plat]
    if plat == "nhm":
        drv = Driver(os.path.join(d, "uncore_snb.c"))
        pmus, notes = fixed_table(drv, m, "nhm_msr_uncores")
    elif plat in ("snbep", "ivbep", "hsx", "bdx", "bdxde"):
        drv = Driver(os.path.join(d, "uncore_snbep.c"))
        pre = {"hsx": "hswep", "bdxde": "bdx"}.get(plat, plat)  # the driver's prefix for the platform
        pmus, notes = fixed_table(drv, m, pre + "_msr_uncores", pre + "_pci_uncores", pre + "_uncore_pci_ids",
                                  cap_cbox=pre + "_uncore_cbox")
    elif plat in ("skx", "clx", "icx"):
        pmus, notes = skylake_style_table(Driver(os.path.join(d, "uncore_snbep.c")), m, "icx" if plat == "icx" else "skx")
    elif plat in ("spr", "spr_hbm", "emr", "gnr", "srf", "cwf"):
        drv = Driver(os.path.join(d, "uncore_snbep.c"))
        disc = Driver(os.path.join(d, "uncore_discovery.c"))
        pmus, notes = discovery(drv, disc, m, generic, "spr" if plat in ("spr", "spr_hbm", "emr") else "gnr", linux6120)
    else:
        raise SystemExit("unknown platform " + plat)
    lines = []
    for p in pmus:
        lines.append("%s/cpumask %s" % (p.name, cpumask(m, p.dies)))
        lines += ["%s/format/%s %s" % (p.name, f, t) for f, t in p.formats]
        lines += ["%s/events/%s %s" % (p.name, e, t) for e, t in p.events]
        if p.alias:
            lines.append("%s/alias %s" % (p.name, p.alias))
    names = [p.name for p in pmus]
    if len(set(names)) != len(names):
        raise SystemExit("two PMUs of one name: " + " ".join(sorted(n for n in names if names.count(n) > 1)))
    return sorted(lines, key=lambda s: s.split(" ", 1)[0]), notes


def data_lines(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("linux_src")
    ap.add_argument("platform", choices=sorted(MACHINES))
    ap.add_argument("--generic", action="store_true", help="the generic discovery driver (emr)")
    ap.add_argument("--check", metavar="FILE", help="compare FILE's data lines with the driver's")
    ap.add_argument("--version", default="Linux 6.12", help="the tree's version, for the header")
    ap.add_argument("--linux-6.12.0", dest="linux6120", action="store_true",
                    help="Linux 6.12.0's GNR family driver (gnr, srf, cwf), from a tree with the 2026 backports")
    a = ap.parse_args()
    if a.generic and a.platform != "emr":
        raise SystemExit("--generic: emr only (the simulated discovery machine)")
    if a.linux6120 and a.platform not in ("gnr", "srf", "cwf"):
        raise SystemExit("--linux-6.12.0: gnr, srf and cwf only")
    # 6.12.0 has no CWF entry (b6ccddd6fe1f came with 6.12.8): the generic discovery driver
    generic = a.generic or (a.linux6120 and a.platform == "cwf")
    lines, notes = listing(a.linux_src, a.platform, generic, a.linux6120)
    if a.check:
        have = data_lines(a.check)
        missing, extra = sorted(set(lines) - set(have)), sorted(set(have) - set(lines))
        for l in missing:
            print("missing from %s: %s" % (a.check, l))
        for l in extra:
            print("not in the driver: %s" % l)
        print("%s: %d lines, %d missing, %d extra" % (a.check, len(have), len(missing), len(extra)))
        return 1 if missing or extra else 0
    title = "Linux uncore PMUs of perf+sim:%s%s (%s)" % ({"spr_hbm": "spr,hbm=1"}.get(a.platform, a.platform),
                                                       ",kernel=6.12.0" if a.linux6120 else ",generic=1" if a.generic else "",
                                                       "the generic discovery driver" if generic else "the model's driver")
    out = HEADER.format(title=title, src=a.version,
                        plat=a.platform, gen=" --linux-6.12.0" if a.linux6120 else " --generic" if a.generic else "")
    out += "#\n" + "".join("# " + n + "\n" for n in NOTES[a.platform + ("_6120" if a.linux6120 else "_generic" if a.generic else "")])
    out += "".join(n + "\n" for n in notes)
    out += "".join(l + "\n" for l in lines)
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
