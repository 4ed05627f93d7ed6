#!/usr/bin/env python3
"""Golden register vectors of sim:icx (platforms/icx/vectors.vec).

Usage: tools/vectors/icx_vectors.py    (writes platforms/icx/vectors.vec beside this script's tree)

The expected accesses follow the session protocol of platforms/VECTORS.md and the Linux 6.12 driver's
constants the cases cite (uncore_snbep.c, "ICX uncore support": the ICX_* defines, icx_cha_msr_offsets,
icx_msr_offsets, icx_iio_freerunning with its box offset tables, icx_imc_freerunning, icx_uncore_pci_ids, and
the SNR_* / SKX_* / HSWEP_* constants those types use), event codes from Intel's icelakex_uncore*.json, and
the simulated machine's placement (platforms/icx/sim.c: buses, the 0x3451 config values that place the MMIO
windows); nothing here reads the library.
"""
import os

EN = 1 << 22
FRZ, FRZ_RST, RUN = 0x100, 0x102, 0  # IVBEP_PMON_BOX_CTL_INT: rst_ctrl 0, rst_ctrs 1, frz 8; no frz_en
L = "Linux 6.12 uncore_snbep.c"
J = "icelakex_uncore.json"
BC = "box control IVBEP_PMON_BOX_CTL_INT (frz 0x100, rst_ctrs 0x2, no frz_en)"

# icx_cha_msr_offsets: CHA n's registers are ICX_C34_MSR_PMON_* + this (CHA 34-39 at the low ones)
ICX_CHA_OFFS = [0x2a0, 0x2ae, 0x2bc, 0x2ca, 0x2d8, 0x2e6, 0x2f4, 0x302, 0x310,
                0x31e, 0x32c, 0x33a, 0x348, 0x356, 0x364, 0x372, 0x380, 0x38e,
                0x3aa, 0x3b8, 0x3c6, 0x3d4, 0x3e2, 0x3f0, 0x3fe, 0x40c, 0x41a,
                0x428, 0x436, 0x444, 0x452, 0x460, 0x46e, 0x47c, 0x0, 0xe,
                0x1c, 0x2a, 0x38, 0x46]
ICX_C34_MSR_PMON_BOX_CTL, ICX_C34_MSR_PMON_CTL0, ICX_C34_MSR_PMON_CTR0, ICX_C34_MSR_PMON_BOX_FILTER0 = 0xb60, 0xb61, 0xb68, 0xb65
# icx_msr_offsets (IIO, IRP, M2PCIe) = icx_iio_clk_freerunning_box_offsets; icx_iio_bw_freerunning_box_offsets
ICX_MSR_OFFS = [0x0, 0x20, 0x40, 0x90, 0xb0, 0xd0]
ICX_IIO_BW_OFFS = [0x0, 0x10, 0x20, 0x90, 0xa0, 0xb0]
ICX_IIO_MSR_PMON_BOX_CTL, ICX_IIO_MSR_PMON_CTL0, ICX_IIO_MSR_PMON_CTR0 = 0xa50, 0xa58, 0xa51
ICX_IRP0_MSR_PMON_BOX_CTL, ICX_IRP0_MSR_PMON_CTL0, ICX_IRP0_MSR_PMON_CTR0 = 0xa4a, 0xa4d, 0xa4b
ICX_M2PCIE_MSR_PMON_BOX_CTL, ICX_M2PCIE_MSR_PMON_CTL0, ICX_M2PCIE_MSR_PMON_CTR0 = 0xa40, 0xa46, 0xa41
IIO_FR_IOCLK, IIO_FR_BW_IN = 0xa55, 0xaa0  # icx_iio_freerunning: { 0xa55, 0x1, ... }, { 0xaa0, 0x1, ... }
# skx_uncore_ubox, skx_uncore_pcu (icx_msr_uncores[0], [5])
HSWEP_U_MSR_PMON_CTL0, HSWEP_U_MSR_PMON_CTR0, UCLK_FIXED_CTL, UCLK_FIXED_CTR = 0x705, 0x709, 0x703, 0x704
HSWEP_PCU_MSR_PMON_BOX_CTL, HSWEP_PCU_MSR_PMON_CTL0, HSWEP_PCU_MSR_PMON_CTR0, HSWEP_PCU_MSR_PMON_BOX_FILTER = 0x710, 0x711, 0x717, 0x715
# PCI types
SNR_M2M_PCI_PMON_BOX_CTL, SNR_M2M_PCI_PMON_CTL0, SNR_M2M_PCI_PMON_CTR0 = 0x438, 0x468, 0x440
ICX_UPI_PCI_PMON_BOX_CTL, ICX_UPI_PCI_PMON_CTL0, ICX_UPI_PCI_PMON_CTR0 = 0x318, 0x350, 0x320
ICX_M3UPI_PCI_PMON_BOX_CTL, ICX_M3UPI_PCI_PMON_CTL0, ICX_M3UPI_PCI_PMON_CTR0 = 0xa0, 0xd8, 0xa8
# MMIO iMC (snr_uncore_mmio_map, icx_uncore_imc_init_box)
SNR_IMC_MMIO_BASE_MASK, SNR_IMC_MMIO_MEM0_MASK = 0x1FFFFFFF, 0x7FF
SNR_IMC_MMIO_PMON_BOX_CTL, SNR_IMC_MMIO_OFFSET = 0x22800, 0x4000
SNR_IMC_MMIO_PMON_CTL0, SNR_IMC_MMIO_PMON_CTR0, SNR_IMC_MMIO_PMON_FIXED_CTL, SNR_IMC_MMIO_PMON_FIXED_CTR = 0x40, 0x8, 0x54, 0x38
ICX_NUMBER_IMC_CHN = 3
ICX_IMC_DCLK, ICX_IMC_DDR, ICX_IMC_DDRT = 0x22b0, 0x2290, 0x22a0  # icx_imc_freerunning bases; DDR/DDRT step 0x8

# The simulated machine (platforms/icx/sim.c and board.c, two sockets laid out as a Lenovo SR650 V2 lists its parts,
# linuxhw/LsPCI 92efda81): socket 0's UBox 3450 at 7e:00.0 with UPI, M3UPI, M2M and the memory controller 0x3451
# (00.1) on the same bus and its PCU 345b at 7f:1e.3; socket 1's on fe and ff; the 0x3451 config values: 0xD0 =
# 0x1a0 on socket 0 (0x1a2 on socket 1), 0xD8 + 4 c = 0x200 + 0x80 c.
UBOX_BUS = {0: 0x7e, 1: 0xfe}
CFG_D0 = {0: 0xd0000000 >> 23, 1: 0xd1000000 >> 23}
CFG_MEM = [0x200 + 0x80 * c for c in range(4)]


def imc_ctrl_base(sock, c):
    """snr_uncore_mmio_map: (config 0xD0 & BASE_MASK) << 23 | (config 0xD8 + 4 c & MEM0_MASK) << 12."""
    return (CFG_D0[sock] & SNR_IMC_MMIO_BASE_MASK) << 23 | (CFG_MEM[c] & SNR_IMC_MMIO_MEM0_MASK) << 12


def imc_box(sock, idx):
    """icx_uncore_imc_init_box: controller idx / 3 (mem offset 0xD8 + ICX_IMC_MEM_STRIDE 4 x that), channel
    idx % 3 at SNR_IMC_MMIO_PMON_BOX_CTL + SNR_IMC_MMIO_OFFSET x channel."""
    return imc_ctrl_base(sock, idx // ICX_NUMBER_IMC_CHN) + SNR_IMC_MMIO_PMON_BOX_CTL + SNR_IMC_MMIO_OFFSET * (idx % ICX_NUMBER_IMC_CHN)


out = []


def case(name, src, events, start, read, stop, back=()):
    """back: the control words the read phase reads back after the counters (platforms/VECTORS.md: each
    programmed counter's control, in the order the events were added), as (where, address)."""
    out.append(f"case {name}\n  src {src}\n" + "".join(f"  event {e}\n" for e in events) +
               "  start\n" + "".join(f"    w {w} {a:#x} {v:#x}\n" for w, a, v in start) +
               "  read\n" + "".join(f"    r {w} {a}\n" for w, a in read) +
               "".join(f"    r {w} {a:#x}\n" for w, a in back) +
               "  stop\n" + "".join(f"    w {w} {a:#x} {v:#x}\n" for w, a, v in stop) + "end\n")


def box_case(name, src, events, where, box, ctl0, cs, ctr0, rs, nctr, ctls, filters=(), ctl64=False, pci=False,
             ctrs=None):
    """A box with a box control that resets: freeze, filters, controls (in the order the events were added),
    reset the counters through the box control, run; at stop freeze, controls back in reverse, filters back,
    every counter zeroed (highest first), the box control last."""
    ctrs = ctrs or list(range(len(ctls)))
    w = where
    st = [(w, box, FRZ)] + [(w, a, v) for a, v in filters]
    for i, v in zip(ctrs, ctls):
        a = ctl0 + i * cs
        st += [(w, a + 4, (v | EN) >> 32), (w, a, (v | EN) & 0xffffffff)] if ctl64 else [(w, a, v | EN)]
    st += [(w, box, FRZ_RST), (w, box, RUN)]
    sp = [(w, box, FRZ)]
    for i in reversed(ctrs):
        a = ctl0 + i * cs
        sp += [(w, a + 4, 0), (w, a, 0)] if ctl64 else [(w, a, 0)]
    sp += [(w, a, 0) for a, v in reversed(filters)]
    for i in reversed(range(nctr)):
        a = ctr0 + i * rs
        sp += [(w, a, 0), (w, a + 4, 0)] if pci else [(w, a, 0)]
    sp += [(w, box, RUN)]
    rd = [(w, f"{ctr0 + i * rs:#x}-{ctr0 + i * rs + 4:#x}" if pci else f"{ctr0 + i * rs:#x}") for i in ctrs]
    bk = []
    for i in ctrs:
        a = ctl0 + i * cs
        bk += [(w, a), (w, a + 4)] if ctl64 else [(w, a)]
    case(name, src, events, st, rd, sp, bk)


def fr(name, src, ev, where, addr):
    case(name, f"{src}; free-running: read, never written", [ev], [], [(where, f"{addr:#x}")], [])


# ---- UBox (skx_uncore_ubox): no box control; counters 0x709-0x70A, controls 0x705-0x706, UCLK fixed 0x703/0x704
case("ubox_counter0", f"{L} icx_msr_uncores[0] = skx_uncore_ubox: HSWEP_U_MSR_PMON_CTL0 0x705, CTR0 0x709, no box control "
     f"(en first, counter zeroed, then the event); {J} UNC_U_EVENT_MSG.DOORBELL_RCVD 0x42/0x08",
     ["UNC_U_EVENT_MSG.DOORBELL_RCVD:socket=0"], [("msr:0", 0x705, EN), ("msr:0", 0x709, 0), ("msr:0", 0x705, EN | 0x0842)],
     [("msr:0", "0x709")], [("msr:0", 0x705, 0), ("msr:0", 0x709, 0)], [("msr:0", 0x705)])
case("ubox_fixed_uclk", f"{L} skx_uncore_ubox: HSWEP_U_MSR_PMON_UCLK_FIXED_CTL 0x703 (SNBEP_PMON_CTL_EN 22), UCLK_FIXED_CTR 0x704, "
     f"fixed_ctr_bits 48; {J} UNC_U_CLOCKTICKS CounterType FIXED",
     ["UNC_U_CLOCKTICKS:socket=0"], [("msr:0", UCLK_FIXED_CTL, 0), ("msr:0", UCLK_FIXED_CTR, 0), ("msr:0", UCLK_FIXED_CTL, EN)],
     [("msr:0", "0x704")], [("msr:0", UCLK_FIXED_CTL, 0), ("msr:0", UCLK_FIXED_CTR, 0)], [("msr:0", UCLK_FIXED_CTL)])
case("ubox_thresh5_socket1", f"{L} skx_uncore_ubox: SNBEP_U_MSR_PMON_RAW_EVENT_MASK thresh 28:24 (format thresh5), counter 1 0x70A "
     "after counter 0; socket 1's MSRs on a CPU of socket 1",
     ["ubox/event=0x42,umask=0x01,thresh=0x1f/:socket=1", "ubox/event=0x42,umask=0x02/:socket=1"],
     [("msr:1", 0x705, EN), ("msr:1", 0x706, EN), ("msr:1", 0x709, 0), ("msr:1", 0x70a, 0), ("msr:1", 0x705, 0x1f400142),
      ("msr:1", 0x706, 0x400242)],
     [("msr:1", "0x709"), ("msr:1", "0x70a")], [("msr:1", 0x706, 0), ("msr:1", 0x705, 0), ("msr:1", 0x70a, 0), ("msr:1", 0x709, 0)],
     [("msr:1", 0x705), ("msr:1", 0x706)])


# ---- CHA n (icx_uncore_chabox): box 0xB60 + icx_cha_msr_offsets[n], CTL0 +1, CTR0 +8, FILTER0 +5; 64-bit
# controls written whole (snr_cha_enable_event: wrmsrl), umask extension 57:32 (umask_ext2 config:8-15,32-57)
def cha(name, src, events, n, ctls, tid=None, sock=0, ctrs=None):
    off = ICX_CHA_OFFS[n]
    b = ICX_C34_MSR_PMON_BOX_CTL + off
    filt = [(ICX_C34_MSR_PMON_BOX_FILTER0 + off, tid)] if tid is not None else []
    box_case(name, f"{L} icx_uncore_chabox: ICX_C34_MSR_PMON_BOX_CTL 0xB60 + icx_cha_msr_offsets[{n}] {off:#x} = {b:#x}, "
             f"CTL0 0xB61, CTR0 0xB68 (+ the same); {BC}; {src}",
             events, f"msr:{sock}", b, ICX_C34_MSR_PMON_CTL0 + off, 1, ICX_C34_MSR_PMON_CTR0 + off, 1, 4, ctls, filt, ctrs=ctrs)


cha("cha0_clockticks", f"{J} UNC_CHA_CLOCKTICKS 0x00", ["UNC_CHA_CLOCKTICKS:socket=0:box=0"], 0, [0x00])
cha("cha33_last_high_offset", "the last entry before the table wraps: 0x47C", ["UNC_CHA_CLOCKTICKS:socket=0:box=33"], 33, [0x00])
cha("cha34_wrapped_offset0", "CHA 34 at offset 0x0, the ICX_C34_* registers themselves (40 CHAs: CAPID6 + CAPID7 of 0x345B "
    "have 40 bits set on the simulated part, icx_count_chabox)", ["UNC_CHA_CLOCKTICKS:socket=0:box=34"], 34, [0x00])
cha("cha39_last_box", "the last CHA, offset 0x46", ["UNC_CHA_CLOCKTICKS:socket=0:box=39"], 39, [0x00])
cha("cha2_llc_lookup_umask_ext", f"umask extension in bits 57:32 (SNR_CHA_RAW_EVENT_MASK_EXT 0x3ffffff); {J} "
    "UNC_CHA_LLC_LOOKUP.DATA_READ 0x34/0xFF UMaskExt 0x1BC1; no tid_en, so no filter write (icx_cha_hw_config)",
    ["UNC_CHA_LLC_LOOKUP.DATA_READ:socket=0:box=2"], 2, [0x1bc1 << 32 | 0xff34])
cha("cha1_tor_ia_miss_drd", f"{J} UNC_CHA_TOR_INSERTS.IA_MISS_DRD 0x35/0x01 UMaskExt 0xC817FE in control bits 55:32",
    ["UNC_CHA_TOR_INSERTS.IA_MISS_DRD:socket=0:box=1"], 1, [0xc817fe << 32 | 0x0135])
cha("cha4_umask_ext_top", "the extension's whole width: format umask_ext2 config:8-15,32-57, SNR_CHA_RAW_EVENT_MASK_EXT 0x3ffffff; "
    "umask_ext=0x3000001 sets control bits 57, 56 and 32", ["cha/event=0x35,umask=0x01,umask_ext=0x3000001/:socket=0:box=4"], 4,
    [0x3000001 << 32 | 0x0135])
cha("cha3_tid_filter0", "tid_en 19 (SNBEP_CBO_PMON_CTL_TID_EN): icx_cha_hw_config puts config1 & SKX_CHA_MSR_PMON_BOX_FILTER_TID "
    "(8:0) in ICX_C34_MSR_PMON_BOX_FILTER0 0xB65 + the offset, written before the control (snr_cha_enable_event)",
    ["UNC_CHA_CLOCKTICKS:socket=0:box=3:tid=0x5"], 3, [1 << 19], tid=0x5)
cha("cha36_tid_wrapped", "the tid filter of a CHA at the wrapped offsets: FILTER0 0xB65 + 0x1C = 0xB81; tid 0x1FF, the whole "
    "SKX_CHA_MSR_PMON_BOX_FILTER_TID", ["UNC_CHA_CLOCKTICKS:socket=0:box=36:tid=0x1ff"], 36, [1 << 19], tid=0x1ff)
cha("cha5_thresh_edge", f"edge 18, thresh 31:24 (HSWEP_S_MSR_PMON_RAW_EVENT_MASK); {J} UNC_CHA_TOR_OCCUPANCY.IA_MISS 0x36/0x01 "
    "UMaskExt 0xC001FE, counter 0", ["UNC_CHA_TOR_OCCUPANCY.IA_MISS:socket=0:box=5:thresh=1:edge"], 5,
    [0xc001fe << 32 | 1 << 24 | 1 << 18 | 0x0136])
cha("cha0_two_counters", f"two events in one box, counters 0xE08 and 0xE09; {J} UNC_CHA_IMC_READS_COUNT.NORMAL 0x59/0x01, "
    ".PRIORITY 0x59/0x02", ["UNC_CHA_IMC_READS_COUNT.NORMAL:socket=0:box=0", "UNC_CHA_IMC_READS_COUNT.PRIORITY:socket=0:box=0"],
    0, [0x0159, 0x0259])
cha("cha35_socket1", "socket 1's CHA 35 (offset 0xE): MSRs on a CPU of socket 1", ["UNC_CHA_CLOCKTICKS:socket=1:box=35"], 35, [0x00],
    sock=1)


# ---- IIO stack n (icx_uncore_iio): box 0xA50 + icx_msr_offsets[n], CTL0 0xA58, CTR0 0xA51; skx_iio_enable_event
# writes 64 bits: thresh 35:24 (thresh9), ch_mask 47:36 (ch_mask2), fc_mask 50:48 (fc_mask2)
def iio(name, src, events, n, ctls, ctrs=None):
    off = ICX_MSR_OFFS[n]
    b = ICX_IIO_MSR_PMON_BOX_CTL + off
    box_case(name, f"{L} icx_uncore_iio: ICX_IIO_MSR_PMON_BOX_CTL 0xA50 + icx_msr_offsets[{n}] {off:#x} = {b:#x}, CTL0 0xA58, "
             f"CTR0 0xA51 (+ the same); SNR_IIO_PMON_RAW_EVENT_MASK_EXT 0x7ffff; {BC}; {src}",
             events, "msr:0", b, ICX_IIO_MSR_PMON_CTL0 + off, 1, ICX_IIO_MSR_PMON_CTR0 + off, 1, 4, ctls, ctrs=ctrs)


iio("iio0_clockticks", f"{J} UNC_IIO_CLOCKTICKS 0x01", ["UNC_IIO_CLOCKTICKS:socket=0:box=0"], 0, [0x01])
iio("iio2_data_req_of_cpu", f"{J} UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0 0x83/0x04, PortMask 0x01 at ch_mask 47:36, FCMask 0x07 at "
    "fc_mask 50:48 (snr_uncore_iio_format_group: ch_mask config:36-47, fc_mask config:48-50)",
    ["UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0:socket=0:box=2"], 2, [1 << 36 | 7 << 48 | 0x0483])
iio("iio3_ch_mask_wide", "ch_mask=0x800: bit 47, beyond Skylake-SP's 8-bit ch_mask; fc_mask=0x4 at bit 50; "
    f"{J} UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0 0x83/0x01 (icx_msr_offsets[3] 0x90)",
    ["UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0:socket=0:box=3:ch_mask=0x800:fc_mask=0x4"], 3, [0x800 << 36 | 4 << 48 | 0x0183])
iio("iio5_thresh12", "thresh 35:24, 12 bits (format thresh9 config:24-35): 0xabc = 0xbc at 31:24, 0xa at 35:32",
    ["iio/event=0x01,thresh=0xabc/:socket=0:box=5"], 5, [0xa << 32 | 0xbc << 24 | 0x01])
iio("iio4_two_counters", "counters 0 and 1 of stack 4 (offset 0xB0): CTL 0xB08-0xB09, CTR 0xB01-0xB02",
    ["UNC_IIO_CLOCKTICKS:socket=0:box=4", "iio/event=0x01/:socket=0:box=4"], 4, [0x01, 0x01])
IOC = f"{L} icx_iio_freerunning[ICX_IIO_MSR_IOCLK] {{ 0xa55, 0x1, 0x20, 1, 48, icx_iio_clk_freerunning_box_offsets }}"
BWI = f"{L} icx_iio_freerunning[ICX_IIO_MSR_BW_IN] {{ 0xaa0, 0x1, 0x10, 8, 48, icx_iio_bw_freerunning_box_offsets }}"
fr("iio0_freerun_ioclk", f"{IOC}: stack 0 0xA55; {J} UNC_IIO_CLOCKTICKS_FREERUN", "UNC_IIO_CLOCKTICKS_FREERUN:socket=0:box=0",
   "msr:0", IIO_FR_IOCLK + ICX_MSR_OFFS[0])
fr("iio3_freerun_ioclk", f"{IOC}: stack 3 at box offset 0x90 (not 3 x 0x20): 0xAE5", "UNC_IIO_CLOCKTICKS_FREERUN:socket=0:box=3",
   "msr:0", IIO_FR_IOCLK + ICX_MSR_OFFS[3])
fr("iio1_freerun_bw_in0", f"{BWI}: port 0 of stack 1 at bw offset 0x10 (not the 0x20 of the clock): 0xAB0; {J} "
   "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN", "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=1", "msr:0",
   IIO_FR_BW_IN + 0 + ICX_IIO_BW_OFFS[1])
fr("iio4_freerun_bw_in7", f"{BWI}: port 7 (+7) of stack 4 at bw offset 0xA0: 0xB47", "UNC_IIO_BANDWIDTH_IN.PART7_FREERUN:socket=0:box=4",
   "msr:0", IIO_FR_BW_IN + 7 + ICX_IIO_BW_OFFS[4])
fr("iio5_freerun_bw_in3_s1", f"{BWI}: port 3 of stack 5 at bw offset 0xB0: 0xB53, on socket 1",
   "UNC_IIO_BANDWIDTH_IN.PART3_FREERUN:socket=1:box=5", "msr:1", IIO_FR_BW_IN + 3 + ICX_IIO_BW_OFFS[5])


# ---- IRP and M2PCIe stack n (icx_uncore_irp, icx_uncore_m2pcie): box + icx_msr_offsets[n], 2 and 4 counters
def stack_type(driver_type, macro, box0, ctl0, ctr0, nctr):
    def case(name, src, events, n, ctls):
        off = ICX_MSR_OFFS[n]
        b = box0 + off
        box_case(name, f"{L} {driver_type}: {macro} 0x{box0:X} + icx_msr_offsets[{n}] {off:#x} = {b:#x}, CTL0 0x{ctl0:X}, "
                 f"CTR0 0x{ctr0:X}, {nctr} counters; {BC}; {src}", events, "msr:0", b, ctl0 + off, 1, ctr0 + off, 1, nctr, ctls)
    return case


irp = stack_type("icx_uncore_irp", "ICX_IRP0_MSR_PMON_BOX_CTL", ICX_IRP0_MSR_PMON_BOX_CTL, ICX_IRP0_MSR_PMON_CTL0,
                 ICX_IRP0_MSR_PMON_CTR0, 2)
m2p = stack_type("icx_uncore_m2pcie", "ICX_M2PCIE_MSR_PMON_BOX_CTL", ICX_M2PCIE_MSR_PMON_BOX_CTL, ICX_M2PCIE_MSR_PMON_CTL0,
                 ICX_M2PCIE_MSR_PMON_CTR0, 4)

irp("irp0_clockticks", f"{J} UNC_I_CLOCKTICKS 0x01", ["UNC_I_CLOCKTICKS:socket=0:box=0"], 0, [0x01])
irp("irp4_two_counters", f"both counters of stack 4 (offset 0xB0): CTL 0xAFD-0xAFE, CTR 0xAFB-0xAFC; {J} UNC_I_FAF_INSERTS 0x18",
    ["UNC_I_CLOCKTICKS:socket=0:box=4", "UNC_I_FAF_INSERTS:socket=0:box=4"], 4, [0x01, 0x18])

m2p("m2pcie0_clockticks", f"{J} UNC_M2P_CLOCKTICKS 0x01", ["UNC_M2P_CLOCKTICKS:socket=0:box=0"], 0, [0x01])
m2p("m2pcie3_offset_0x90", "stack 3 at offset 0x90: box 0xAD0", ["UNC_M2P_CLOCKTICKS:socket=0:box=3"], 3, [0x01])


# ---- PCU (skx_uncore_pcu): box 0x710, CTL0 0x711, CTR0 0x717, band filter 0x715
def pcu(name, src, events, ctls, filters=()):
    box_case(name, f"{L} icx_msr_uncores[5] = skx_uncore_pcu: HSWEP_PCU_MSR_PMON_BOX_CTL 0x710, CTL0 0x711, CTR0 0x717; {BC}; {src}",
             events, "msr:0", HSWEP_PCU_MSR_PMON_BOX_CTL, HSWEP_PCU_MSR_PMON_CTL0, 1, HSWEP_PCU_MSR_PMON_CTR0, 1, 4, ctls, filters)


pcu("pcu_clockticks", f"{J} UNC_P_CLOCKTICKS 0x00", ["UNC_P_CLOCKTICKS:socket=0"], [0x00])
pcu("pcu_band_filter", "HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715, band0 7:0 (format filter_band0 config1:0-7); FREQ_BAND0_CYCLES 0x0B "
    "(hswep_pcu_hw_config: ev_sel 0xb-0xe)", ["pcu/event=0x0b,band0=0x20/:socket=0"], [0x0b],
    [(HSWEP_PCU_MSR_PMON_BOX_FILTER, 0x20)])
pcu("pcu_occupancy_c6", f"occ_sel 15:14 in the umask (SNBEP_PCU_MSR_PMON_CTL_OCC_SEL_MASK); {J} "
    "UNC_P_POWER_STATE_OCCUPANCY.CORES_C6 0x80/0xC0", ["UNC_P_POWER_STATE_OCCUPANCY.CORES_C6:socket=0"], [0xc080])

# ---- PCI boxes: M2M, UPI and M3UPI on socket 0's UBox bus 0x7e (platforms/icx/sim.c); matched
# by device id and dev.fn (icx_uncore_pci_ids UNCORE_PCI_DEV_FULL_DATA)
M = (f"{L} icx_uncore_m2m: SNR_M2M_PCI_PMON_BOX_CTL 0x438, CTL0 0x468 (UNCORE_BOX_FLAG_CTL_OFFS8: 8 apart, 64 bits, high "
     f"dword first), CTR0 0x440; SNR_M2M_PCI_PMON_UMASK_EXT 0xff; {BC}")


def m2m(name, src, events, n, ctls, bus=UBOX_BUS[0]):
    box_case(name, f"{M}; M2M {n} = 0x344A at {12 + n}.0; {src}", events, f"pci:{bus:02x}:{12 + n:02x}.0", SNR_M2M_PCI_PMON_BOX_CTL,
             SNR_M2M_PCI_PMON_CTL0, 8, SNR_M2M_PCI_PMON_CTR0, 8, 4, ctls, ctl64=True, pci=True)


m2m("m2m0_clockticks", f"{J} UNC_M2M_CLOCKTICKS 0x00", ["UNC_M2M_CLOCKTICKS:socket=0:box=0"], 0, [0x00])
m2m("m2m1_umask_ext", f"{J} UNC_M2M_IMC_READS.TO_PMM 0x37/0x20 UMaskExt 0x07: control bits 34:32, in the high dword",
    ["UNC_M2M_IMC_READS.TO_PMM:socket=0:box=1"], 1, [0x7 << 32 | 0x2037])
m2m("m2m3_two_counters", f"controls 0x468, 0x470; {J} UNC_M2M_TAG_HIT.NM_RD_HIT_CLEAN 0x2C/0x01, .NM_RD_HIT_DIRTY 0x2C/0x02",
    ["UNC_M2M_TAG_HIT.NM_RD_HIT_CLEAN:socket=0:box=3", "UNC_M2M_TAG_HIT.NM_RD_HIT_DIRTY:socket=0:box=3"], 3, [0x012c, 0x022c])
m2m("m2m2_socket1", "socket 1's UBox bus 0xFE (its UBox 0x3450 there, the M2M's own bus)",
    ["UNC_M2M_CLOCKTICKS:socket=1:box=2"], 2, [0x00], bus=UBOX_BUS[1])
U = (f"{L} icx_uncore_upi: ICX_UPI_PCI_PMON_BOX_CTL 0x318, CTL0 0x350 (CTL_OFFS8: 8 apart, 64 bits), CTR0 0x320; "
     f"ICX_UPI_CTL_UMASK_EXT 0xffffff; {BC}")


def upi(name, src, events, n, ctls):
    box_case(name, f"{U}; UPI {n} = 0x3441 at {2 + n}.1; {src}", events, f"pci:{UBOX_BUS[0]:02x}:{2 + n:02x}.1", ICX_UPI_PCI_PMON_BOX_CTL,
             ICX_UPI_PCI_PMON_CTL0, 8, ICX_UPI_PCI_PMON_CTR0, 8, 4, ctls, ctl64=True, pci=True)


upi("upi0_clockticks", f"{J} UNC_UPI_CLOCKTICKS 0x01", ["UNC_UPI_CLOCKTICKS:socket=0:box=0"], 0, [0x01])
upi("upi2_umask_ext", f"{J} UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC 0x04/0x08 UMaskExt 0x1: control bit 32",
    ["UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC:socket=0:box=2"], 2, [1 << 32 | 0x0804])
upi("upi1_tx_flits", f"{J} UNC_UPI_TxL_FLITS.ALL_DATA 0x02/0x0F", ["UNC_UPI_TxL_FLITS.ALL_DATA:socket=0:box=1"], 1, [0x0f02])
MU = (f"{L} icx_uncore_m3upi: ICX_M3UPI_PCI_PMON_BOX_CTL 0xA0, CTL0 0xD8 (4 apart, 32 bits: ivbep_uncore_pci_ops), CTR0 0xA8 "
      f"(8 apart, two dwords), 4 counters; {BC}")


def m3upi(name, src, events, n, ctls):
    box_case(name, f"{MU}; M3UPI {n} = 0x3446 at {5 + n}.1; {src}", events, f"pci:{UBOX_BUS[0]:02x}:{5 + n:02x}.1", ICX_M3UPI_PCI_PMON_BOX_CTL,
             ICX_M3UPI_PCI_PMON_CTL0, 4, ICX_M3UPI_PCI_PMON_CTR0, 8, 4, ctls, pci=True)


m3upi("m3upi0_clockticks", f"{J} UNC_M3UPI_CLOCKTICKS 0x01", ["UNC_M3UPI_CLOCKTICKS:socket=0:box=0"], 0, [0x01])
m3upi("m3upi2_two_counters", f"controls 0xD8, 0xDC; {J} UNC_M3UPI_CLOCKTICKS 0x01 and UNC_M3UPI_CMS_CLOCKTICKS 0xC0",
      ["UNC_M3UPI_CLOCKTICKS:socket=0:box=2", "UNC_M3UPI_CMS_CLOCKTICKS:socket=0:box=2"], 2, [0x01, 0xc0])

# ---- iMC channels in MMIO (icx_uncore_imc): the window's box control at 0, CTL0 0x40 (4 apart, writel), CTR0 0x8
# (8 apart, readq), fixed control 0x54 (en 22, rst 19) and counter 0x38
IM = (f"{L} icx_uncore_imc_init_box, snr_uncore_mmio_map: (0xD0 & 0x1FFFFFFF) << 23 | (0xD8 + 4 (idx / 3) & 0x7FF) << 12 "
      f"+ 0x22800 + 0x4000 (idx % 3); SNR_IMC_MMIO_PMON_CTL0 0x40 (4 apart), CTR0 0x8 (8 apart); {BC}")


def imc(name, src, events, idx, ctls, sock=0):
    b = imc_box(sock, idx)
    box_case(name, f"{IM}; iMC {idx} of socket {sock}: {b:#x}; {src}", events, "mmio", b, b + SNR_IMC_MMIO_PMON_CTL0, 4,
             b + SNR_IMC_MMIO_PMON_CTR0, 8, 4, ctls)


imc("imc0_cas_count_rd", f"{J} UNC_M_CAS_COUNT.RD 0x04/0x0F", ["UNC_M_CAS_COUNT.RD:socket=0:box=0"], 0, [0x0f04])
imc("imc4_cas_count_wr", f"controller 1 (config 0xDC), channel 1; {J} UNC_M_CAS_COUNT.WR 0x04/0x30", ["UNC_M_CAS_COUNT.WR:socket=0:box=4"],
    4, [0x3004])
imc("imc11_two_counters", f"controller 3 (config 0xE4), channel 2: the last; {J} UNC_M_RPQ_INSERTS.PCH0 0x10/0x01, .PCH1 0x10/0x02",
    ["UNC_M_RPQ_INSERTS.PCH0:socket=0:box=11", "UNC_M_RPQ_INSERTS.PCH1:socket=0:box=11"], 11, [0x0110, 0x0210])
imc("imc2_clockticks_s1", f"socket 1 (its 0x3451 at fe:00.1, config 0xD0 = 0x1a2); {J} UNC_M_CLOCKTICKS 0x00 on a general counter",
    ["UNC_M_CLOCKTICKS:socket=1:box=2"], 2, [0x00], sock=1)
b = imc_box(0, 5)
FC, FT = b + SNR_IMC_MMIO_PMON_FIXED_CTL, b + SNR_IMC_MMIO_PMON_FIXED_CTR
case("imc5_fixed_hclk", f"{L} icx_uncore_imc: iMC 5 of socket 0 at {b:#x} (controller 1, channel 2); SNR_IMC_MMIO_PMON_FIXED_CTL "
     f"0x54 (en 22; rst 19 as the discovery generation's), FIXED_CTR 0x38, 48 bits; {BC}; {J} UNC_M_HCLOCKTICKS FIXED",
     ["UNC_M_HCLOCKTICKS:socket=0:box=5"],
     [("mmio", b, FRZ), ("mmio", FC, EN), ("mmio", b, FRZ_RST), ("mmio", FC, EN | 1 << 19), ("mmio", b, RUN)],
     [("mmio", f"{FT:#x}")],
     [("mmio", b, FRZ), ("mmio", FT, 0), ("mmio", FC, 0)] + [("mmio", b + 8 + 8 * i, 0) for i in (3, 2, 1, 0)] + [("mmio", b, RUN)],
     [("mmio", FC)])
IF = (f"{L} icx_imc_freerunning at controller c's window (icx_uncore_imc_freerunning_init_box: 0xD8 + 4 c, box_ctl 0): "
      "DCLK 0x22b0, DDR 0x2290 + 8 i, DDRT 0x22a0 + 8 i; iMC box 3 c (controller c's channel 0) holds them")
fr("imc0_freerun_dclk", f"{IF}; controller 0 DCLK {imc_ctrl_base(0, 0) + ICX_IMC_DCLK:#x}; {J} UNC_M_CLOCKTICKS_FREERUN",
   "UNC_M_CLOCKTICKS_FREERUN:socket=0:box=0", "mmio", imc_ctrl_base(0, 0) + ICX_IMC_DCLK)
fr("imc3_freerun_dclk", f"{IF}; controller 1 (config 0xDC) DCLK {imc_ctrl_base(0, 1) + ICX_IMC_DCLK:#x}",
   "UNC_M_CLOCKTICKS_FREERUN:socket=0:box=3", "mmio", imc_ctrl_base(0, 1) + ICX_IMC_DCLK)
fr("imc6_freerun_ddr_read", f"{IF}; controller 2 DDR read (index 0) {imc_ctrl_base(0, 2) + ICX_IMC_DDR:#x}; perf's imc_free_running "
   "read, event=0xff,umask=0x20", "UNC_M_CAS_COUNT_FREERUN.RD:socket=0:box=6", "mmio", imc_ctrl_base(0, 2) + ICX_IMC_DDR)
fr("imc9_freerun_ddr_write", f"{IF}; controller 3 DDR write (index 1: + 0x8) {imc_ctrl_base(0, 3) + ICX_IMC_DDR + 8:#x}",
   "UNC_M_CAS_COUNT_FREERUN.WR:socket=0:box=9", "mmio", imc_ctrl_base(0, 3) + ICX_IMC_DDR + 8)
fr("imc0_freerun_ddrt_write_s1", f"{IF}; socket 1 controller 0 DDRT write (index 1) {imc_ctrl_base(1, 0) + ICX_IMC_DDRT + 8:#x}",
   "UNC_M_PMM_CAS_COUNT_FREERUN.WR:socket=1:box=0", "mmio", imc_ctrl_base(1, 0) + ICX_IMC_DDRT + 8)

hdr = """# Ice Lake-SP golden register vectors (tools/vectors/icx_vectors.py), from the Linux 6.12 driver's constants (arch/x86/events/intel/
# uncore_snbep.c, "ICX uncore support": ICX_* defines, icx_cha_msr_offsets, icx_msr_offsets, icx_iio_freerunning and its
# box offset tables, icx_imc_freerunning, icx_uncore_pci_ids; the SNR_* M2M and MMIO iMC constants, the Skylake-SP UBox and
# PCU it reuses), event codes from Intel's icelakex_uncore*.json, and the protocol of platforms/VECTORS.md.
#  Box control (every box but the UBox): rst_ctrl 0, rst_ctrs 1, frz 8, no frz_en (IVBEP_PMON_BOX_CTL_INT): freeze 0x100,
#    freeze + reset counters 0x102, count 0.
#  Counter control: ev 7:0, umask 15:8, rst 17, edge 18, tid_en 19 (CHA), en 22, inv 23, thresh 31:24 (UBox 28:24; IIO
#    35:24 with ch_mask 47:36, fc_mask 50:48); umask extension from bit 32 (CHA 57:32, M2M 39:32, UPI 55:32).
#  The simulated machine (platforms/icx/sim.c): 2 sockets of 40 cores and 40 CHAs (CAPID6 + CAPID7) on a Lenovo
#    SR650 V2's buses: socket 0's UBox 0x3450, M2M, UPI, M3UPI and memory controller 0x3451 on 0x7E, its PCU on 0x7F;
#    socket 1's on 0xFE and 0xFF; 0x3451's config 0xD0 = 0x1A0 (socket 1: 0x1A2), 0xD8 + 4 c = 0x200 + 0x80 c.
"""
for c in out:
    for line in c.splitlines():
        assert len(line) < 500, "a line too long for tests/test_vectors' reader: " + line
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "platforms", "icx", "vectors.vec"), "w").write(hdr + "\n" + "\n".join(out))
print(len(out))
