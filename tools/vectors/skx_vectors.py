#!/usr/bin/env python3
"""Golden register vectors of sim:skx and sim:clx (platforms/<p>/vectors.vec).

Usage: tools/vectors/skx_vectors.py skx|clx    (writes platforms/<p>/vectors.vec beside this script's tree)

The expected accesses follow the session protocol of platforms/VECTORS.md and the Linux 6.12 driver's
constants the cases cite (uncore_snbep.c HSWEP_* and SKX_* defines, skx_uncore_pci_ids), with the simulated
machine's placement (platforms/skx/sim.c: socket 0's buses 0x80-0x83, socket 1's 0x00-0x03); nothing here
reads the library.  clx: the same cases on socket 1, its last CHA, and the Optane events of Intel's CLX files.
"""
import os
import sys
PLAT = sys.argv[1] if len(sys.argv) > 1 else "skx"
LAST_CHA = {"skx": 19, "clx": 25}[PLAT]
EN=1<<22
FRZ=0x100; FRZ_RST=0x102
out=[]
# back: the control words the read phase reads back after the counters (platforms/VECTORS.md: each programmed
# counter's control, in the order the events were added), as (where, address)
def case(name, src, events, start, read, stop, open_=None, back=()):
    out.append(f"case {name}\n  src {src}\n" + (f"  open {open_}\n" if open_ else "") +
      "".join(f"  event {e}\n" for e in events) + "  start\n" + "".join(f"    w {w} {a:#x} {v:#x}\n" for w,a,v in start) +
      "  read\n" + "".join(f"    r {w} {a}\n" for w,a in read) + "".join(f"    r {w} {a:#x}\n" for w,a in back) + "  stop\n" + "".join(f"    w {w} {a:#x} {v:#x}\n" for w,a,v in stop) + "end\n")
def h(x): return f"{x:#x}"
# MSR box with box control and resets: one or more events in counters 0..
def msr_box(name, src, events, sock, box, ctl0, ctr0, nctr, ctls, filters=(), reads=None):
    w=f"msr:{sock}"
    start=[(w,box,FRZ)] + [(w,a,v) for a,v in filters] + [(w,ctl0+i,v|EN) for i,v in enumerate(ctls)] + [(w,box,FRZ_RST),(w,box,0)]
    stop=[(w,box,FRZ)] + [(w,ctl0+i,0) for i in reversed(range(len(ctls)))] + [(w,a,0) for a,v in reversed(filters)] \
        + [(w,ctr0+i,0) for i in reversed(range(nctr))] + [(w,box,0)]
    case(name, src, events, start, reads or [(w,h(ctr0+i)) for i in range(len(ctls))], stop, back=[(w,ctl0+i) for i in range(len(ctls))])
def pci_box(name, src, events, loc, box, ctl0, cstride, ctr0, nctr, ctls, ctl64=False, fixed=None):
    w=f"pci:{loc}"
    st=[(w,box,FRZ)]
    for i,v in enumerate(ctls):
        a=ctl0+i*cstride
        if ctl64: st += [(w,a+4,(v|EN)>>32),(w,a,(v|EN)&0xffffffff)]
        else: st += [(w,a,v|EN)]
    st += [(w,box,FRZ_RST),(w,box,0)]
    sp=[(w,box,FRZ)]
    for i in reversed(range(len(ctls))):
        a=ctl0+i*cstride
        sp += ([(w,a+4,0),(w,a,0)] if ctl64 else [(w,a,0)])
    for i in reversed(range(nctr)):
        sp += [(w,ctr0+8*i,0),(w,ctr0+8*i+4,0)]
    sp += [(w,box,0)]
    rd=[(w,f"{ctr0:#x}-{ctr0+8*(len(ctls)-1)+4:#x}")]
    bk=[]
    for i in range(len(ctls)):
        a=ctl0+i*cstride
        bk += [(w,a),(w,a+4)] if ctl64 else [(w,a)]
    case(name, src, events, st, rd, sp, back=bk)

L="Linux 6.12 uncore_snbep.c"
BC="box control rst_ctrl 0, rst_ctrs 1, frz 8, no frz_en (IVBEP_PMON_BOX_CTL_INT: freeze 0x100, freeze+reset 0x102, run 0)"
# --- UBox: no box control; CTL0 0x705, CTR0 0x709, fixed 0x703/0x704
case("ubox_counter0", f"{L} skx_uncore_ubox: HSWEP_U_MSR_PMON_CTL0 0x705, CTR0 0x709, no box control (en first, counter zeroed, then the event); EVENT_MSG.DOORBELL_RCVD 0x42/0x08",
     ["UNC_U_EVENT_MSG.DOORBELL_RCVD:socket=0"], [("msr:0",0x705,EN),("msr:0",0x709,0),("msr:0",0x705,0x400842)], [("msr:0","0x709")],
     [("msr:0",0x705,0),("msr:0",0x709,0)], back=[("msr:0",0x705)])
case("ubox_fixed_uclk", f"{L}: HSWEP_U_MSR_PMON_UCLK_FIXED_CTL 0x703 (en 22), UCLK_FIXED_CTR 0x704; UNC_U_CLOCKTICKS FIXED",
     ["UNC_U_CLOCKTICKS:socket=0"], [("msr:0",0x703,0),("msr:0",0x704,0),("msr:0",0x703,EN)], [("msr:0","0x704")],
     [("msr:0",0x703,0),("msr:0",0x704,0)], back=[("msr:0",0x703)])
case("ubox_thresh5_two_counters", f"{L}: SNBEP_U_MSR_PMON_RAW_EVENT_MASK thresh 28:24 (format thresh5); counters 0x709, 0x70A",
     ["ubox/event=0x42,umask=0x01,thresh=0x1f/:socket=0","ubox/event=0x42,umask=0x02/:socket=0"],
     [("msr:0",0x705,EN),("msr:0",0x706,EN),("msr:0",0x709,0),("msr:0",0x70a,0),("msr:0",0x705,0x1f400142),("msr:0",0x706,0x400242)],
     [("msr:0","0x709"),("msr:0","0x70a")], [("msr:0",0x706,0),("msr:0",0x705,0),("msr:0",0x70a,0),("msr:0",0x709,0)],
     back=[("msr:0",0x705),("msr:0",0x706)])
# --- CHA n: box 0xE00 + 0x10n, CTL0 +1, FILTER0 +5, FILTER1 +6, CTR0 +8
def cha(name, src, events, n, ctls, filters=(), sock=0):
    b=0xe00+0x10*n
    msr_box(name, f"{L} skx_uncore_chabox: HSWEP_C0_MSR_PMON_BOX_CTL 0xE00 + HSWEP_CBO_MSR_OFFSET 0x10 x {n}, CTL0 +1, CTR0 +8; {BC}; {src}",
            events, sock, b, b+1, b+8, 4, ctls, [(b+a,v) for a,v in filters])
cha("cha0_clockticks","UNC_CHA_CLOCKTICKS 0x00",["UNC_CHA_CLOCKTICKS:socket=0:box=0"],0,[0x00])
cha("cha%d_last_box" % LAST_CHA,"%d CHAs: CAPID6 of the simulated part has %d bits set (skx_count_chabox)" % (LAST_CHA + 1, LAST_CHA + 1),["UNC_CHA_CLOCKTICKS:socket=0:box=%d" % LAST_CHA],LAST_CHA,[0x00])
cha("cha2_state_filter0","FILTER0 state 26:17 (SKX_CHA_MSR_PMON_BOX_FILTER_STATE), 0xf1 = F M E S I; LLC_LOOKUP.DATA_READ 0x34/0x03",
    ["UNC_CHA_LLC_LOOKUP.DATA_READ:socket=0:box=2:state=0xf1"],2,[0x0334],[(5,0xf1<<17)])
cha("cha1_filter1_drd","FILTER1 = FILTER0 + 1 (hswep_cbox_enable_event), FILTER_VALUE 0x40433 (rem 0, loc 1, nm 4, not_nm 5, opc0 18:9 = 0x202); TOR_INSERTS 0x35/0x21",
    ["UNC_CHA_TOR_INSERTS.IA_MISS_DRD:socket=0:box=1"],1,[0x2135],[(6,0x40433)])
cha("cha3_tid_filter0","tid 8:0 of FILTER0 with tid_en 19 (SKX_CHA_MSR_PMON_BOX_FILTER_TID, SNBEP_CBO_PMON_CTL_TID_EN); a tid_en event holds every field, 0 unless given (skx_cha_hw_config: idx = the TID mask 0x1ff), so FILTER1 is written 0 too",
    ["UNC_CHA_CLOCKTICKS:socket=0:box=3:tid=0x5"],3,[0x80000],[(5,0x5),(6,0)])
cha("cha4_opc_pair_nc","FILTER1 loc 1, opc0 18:9, opc1 28:19, nc 30 (config1 33, 41-50, 51-60, 62 less 32); TOR_INSERTS.IA_HIT 0x35/0x11",
    ["UNC_CHA_TOR_INSERTS.IA_HIT:socket=0:box=4:loc=1:opc0=0x202:opc1=0x25a:nc=1"],4,[0x1135],[(6,2|0x202<<9|0x25a<<19|1<<30)])
cha("cha5_thresh_edge","edge 18, thresh 31:24 (HSWEP_S_MSR_PMON_RAW_EVENT_MASK); TOR_OCCUPANCY.IA_MISS 0x36/0x21 on counter 0; FILTER1 written 0, as the driver programs all of FILTER1 for every TOR event (skx_uncore_cha_extra_regs 0x36 -> the FILTER1 fields, config1 63:32 = 0)",
    ["UNC_CHA_TOR_OCCUPANCY.IA_MISS:socket=0:box=5:thresh=1:edge"],5,[0x01042136],[(6,0)])
cha("cha0_two_counters","two events in one box, counters 0xE08 and 0xE09; REQUESTS.READS_LOCAL 0x50/0x01, .READS_REMOTE 0x50/0x02",
    ["UNC_CHA_REQUESTS.READS_LOCAL:socket=0:box=0","UNC_CHA_REQUESTS.READS_REMOTE:socket=0:box=0"],0,[0x0150,0x0250])
cha("cha0_socket1","socket 1's CHA 0: MSRs on a CPU of socket 1",["UNC_CHA_CLOCKTICKS:socket=1:box=0"],0,[0x00],sock=1)
# --- IIO n: box 0xA40 + 0x20n, CTL0 0xA48, CTR0 0xA41; 64-bit control: ch_mask 43:36, fc_mask 46:44, thresh 35:24
def iio(name, src, events, n, ctls, first=0):
    b=0xa40+0x20*n
    w="msr:0"
    start=[(w,b,FRZ)]+[(w,b+8+first+i,v|EN) for i,v in enumerate(ctls)]+[(w,b,FRZ_RST),(w,b,0)]
    stop=[(w,b,FRZ)]+[(w,b+8+first+i,0) for i in reversed(range(len(ctls)))]+[(w,b+1+i,0) for i in reversed(range(4))]+[(w,b,0)]
    case(name, f"{L} skx_uncore_iio: SKX_IIO0_MSR_PMON_BOX_CTL 0xA40 + SKX_IIO_MSR_OFFSET 0x20 x {n}, CTL0 0xA48, CTR0 0xA41; skx_iio_enable_event writes 64 bits; {src}",
         events, start, [(w,h(b+1+first+i)) for i in range(len(ctls))], stop, back=[(w,b+8+first+i) for i in range(len(ctls))])
iio("iio0_clockticks","UNC_IIO_CLOCKTICKS 0x01",["UNC_IIO_CLOCKTICKS:socket=0:box=0"],0,[0x01])
iio("iio2_data_req_of_cpu","DATA_REQ_OF_CPU.MEM_READ.PART0 0x83/0x04, PortMask 0x01 at ch_mask 43:36, FCMask 0x07 at fc_mask 46:44 (format ch_mask config:36-43, fc_mask config:44-46)",
    ["UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0:socket=0:box=2"],2,[0x0483|1<<36|7<<44])
iio("iio5_ch_mask_given","ch_mask=0x3 in place of PortMask 0x01; MEM_WRITE.PART0 0x83/0x01",
    ["UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0:socket=0:box=5:ch_mask=0x3"],5,[0x0183|3<<36|7<<44])
iio("iio1_thresh12","thresh 35:24, 12 bits (format thresh9 config:24-35): 0xabc = 0xbc at 31:24, 0xa at 35:32",
    ["iio/event=0x01,thresh=0xabc/:socket=0:box=1"],1,[0x01|0xbc<<24|0xa<<32])
def fr(name, src, ev, addr):
    case(name, f"{L} skx_iio_freerunning: {src}; free-running: read, never written", [ev], [], [("msr:0",h(addr))], [])
fr("iio1_freerun_bw_in","BW 0xB00 + i, + 0x10 a stack: bw_in_port0 of stack 1 0xB10, 36 bits","UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=1",0xb10)
fr("iio3_freerun_ioclk","IOCLK 0xA45 + 0x20 a stack: stack 3 0xAA5","UNC_IIO_CLOCKTICKS_FREERUN:socket=0:box=3",0xaa5)
fr("iio5_freerun_util_out3","UTIL 0xB08 + i (util_out_port3 = i 7), stack 5 0xB5F","UNC_IIO_UTIL_OUT.PART3_FREERUN:socket=0:box=5",0xb5f)
fr("iio0_freerun_bw_out2","bw_out_port2 = BW i 6: 0xB06","UNC_IIO_BANDWIDTH_OUT.PART2_FREERUN:socket=0:box=0",0xb06)
# --- IRP n: box 0xA58 + 0x20n, CTL0 0xA5B, CTR0 0xA59, 2 counters
def irp(name, src, events, n, ctls):
    b=0xa58+0x20*n
    msr_box(name, f"{L} skx_uncore_irp: SKX_IRP0_MSR_PMON_BOX_CTL 0xA58 + 0x20 x {n}, CTL0 0xA5B, CTR0 0xA59, 2 counters; {BC}; {src}",
            events, 0, b, b+3, b+1, 2, ctls)
irp("irp0_clockticks","UNC_I_CLOCKTICKS 0x01",["UNC_I_CLOCKTICKS:socket=0:box=0"],0,[0x01])
irp("irp4_two_counters","both counters of stack 4: CTL 0xADB-0xADC, CTR 0xAD9-0xADA",["UNC_I_CLOCKTICKS:socket=0:box=4","irp/event=0x01/:socket=0:box=4"],4,[0x01,0x01])
# --- PCU: box 0x710, CTL0 0x711, CTR0 0x717, filter 0x715
def pcu(name, src, events, ctls, filters=()):
    msr_box(name, f"{L} skx_uncore_pcu: HSWEP_PCU_MSR_PMON_BOX_CTL 0x710, CTL0 0x711, CTR0 0x717; {BC}; {src}", events, 0, 0x710, 0x711, 0x717, 4, ctls, filters)
pcu("pcu_clockticks","UNC_P_CLOCKTICKS 0x00",["UNC_P_CLOCKTICKS:socket=0"],[0x00])
pcu("pcu_band_filter","HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715, band0 7:0 (filter_band0 config1:0-7); FREQ_BAND0_CYCLES 0x0B",["pcu/event=0x0b,band0=0x20/:socket=0"],[0x0b],[(0x715,0x20)])
pcu("pcu_occupancy_c6","occ_sel 15:14 (SNBEP_PCU_MSR_PMON_CTL_OCC_SEL_MASK) = umask 0xC0; POWER_STATE_OCCUPANCY.CORES_C6 0x80",["UNC_P_POWER_STATE_OCCUPANCY.CORES_C6:socket=0"],[0xc080])
pcu("pcu_occ_inv_edge","occ_invert 30, occ_edge_det 31 (format occ_invert config:30, occ_edge_det config:31)",["UNC_P_POWER_STATE_OCCUPANCY.CORES_C0:socket=0:occ_inv:occ_edge"],[0x4080|1<<30|1<<31])
# --- PCI: socket 0's range starts at bus 0x80 (UBox 80:08.0); M2PCIe on 81, iMC/M2M on 82, UPI/M3UPI on 83
P=f"{L} skx_uncore_pci_ids (UNCORE_PCI_DEV_FULL_DATA dev, fn); SNBEP_PCI_PMON_BOX_CTL 0xF4, CTL0 0xD8, CTR0 0xA0 (two dwords); {BC}"
pci_box("imc0_cas_count_rd", f"{P}; iMC 0 = 0x2042 at 10.2; CAS_COUNT.RD 0x04/0x03", ["UNC_M_CAS_COUNT.RD:socket=0:box=0"], "82:0a.2", 0xf4, 0xd8, 4, 0xa0, 4, [0x0304])
pci_box("imc1_fn6", f"{P}; iMC 1 = 0x2046 at 10.6; CAS_COUNT.RD 0x04/0x03", ["UNC_M_CAS_COUNT.RD:socket=0:box=1"], "82:0a.6", 0xf4, 0xd8, 4, 0xa0, 4, [0x0304])
pci_box("imc3_repeated_id", f"{P}; iMC 3 = 0x2042 again, at 12.2; CAS_COUNT.WR 0x04/0x0C", ["UNC_M_CAS_COUNT.WR:socket=0:box=3"], "82:0c.2", 0xf4, 0xd8, 4, 0xa0, 4, [0x0c04])
pci_box("imc4_two_counters", f"{P}; iMC 4 = 0x2046 at 12.6; CTL 0xD8, 0xDC", ["UNC_M_CAS_COUNT.RD:socket=0:box=4","UNC_M_CAS_COUNT.WR:socket=0:box=4"], "82:0c.6", 0xf4, 0xd8, 4, 0xa0, 4, [0x0304,0x0c04])
w="pci:82:0d.2"
case("imc5_fixed_dclk", f"{P}; iMC 5 = 0x204A at 13.2; SNBEP_MC_CHy_PCI_PMON_FIXED_CTL 0xF0 (en 22, rst 19), FIXED_CTR 0xD0; UNC_M_CLOCKTICKS_F FIXED",
     ["UNC_M_CLOCKTICKS_F:socket=0:box=5"], [(w,0xf4,FRZ),(w,0xf0,EN),(w,0xf4,FRZ_RST),(w,0xf0,EN|1<<19),(w,0xf4,0)], [(w,"0xd0-0xd4")],
     [(w,0xf4,FRZ),(w,0xd0,0),(w,0xd4,0),(w,0xf0,0),(w,0xb8,0),(w,0xbc,0),(w,0xb0,0),(w,0xb4,0),(w,0xa8,0),(w,0xac,0),(w,0xa0,0),(w,0xa4,0),(w,0xf4,0)], back=[(w,0xf0)])
pci_box("imc0_socket1", f"{P}; socket 1's range starts at bus 0x00 (its UBox at 00:08.0): bus 0x02 is socket 1's by the forward fill (snbep_pci2phy_map_init reverse=false)", ["UNC_M_CAS_COUNT.RD:socket=1:box=0"], "02:0a.2", 0xf4, 0xd8, 4, 0xa0, 4, [0x0304])
M=f"{L} skx_uncore_m2m: SKX_M2M_PCI_PMON_BOX_CTL 0x258, CTL0 0x228 with UNCORE_BOX_FLAG_CTL_OFFS8 (8 apart, 64 bits: high dword first), CTR0 0x200; {BC}"
pci_box("m2m0_clockticks", f"{M}; M2M 0 = 0x2066 at 8.0; UNC_M2M_CLOCKTICKS 0x00", ["UNC_M2M_CLOCKTICKS:socket=0:box=0"], "82:08.0", 0x258, 0x228, 8, 0x200, 4, [0x00], True)
pci_box("m2m1_two_counters", f"{M}; M2M 1 = 0x2066 at 9.0; controls 0x228, 0x230", ["UNC_M2M_CLOCKTICKS:socket=0:box=1","m2m/event=0x00/:socket=0:box=1"], "82:09.0", 0x258, 0x228, 8, 0x200, 4, [0x00,0x00], True)
U=f"{L} skx_uncore_upi: SKX_UPI_PCI_PMON_BOX_CTL 0x378, CTL0 0x350 (8 apart, 64 bits), CTR0 0x318; {BC}"
pci_box("upi0_clockticks", f"{U}; UPI 0 = 0x2058 at 14.0; UNC_UPI_CLOCKTICKS 0x01", ["UNC_UPI_CLOCKTICKS:socket=0:box=0"], "83:0e.0", 0x378, 0x350, 8, 0x318, 4, [0x01], True)
pci_box("upi2_umask_ext", f"{U}; UPI 2 at 16.0; UMaskExt 0x1 in control bit 32 (format umask config:8-15,32-43,45-55); TxL_BASIC_HDR_MATCH.REQ_OPC 0x04/0x08", ["UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC:socket=0:box=2"], "83:10.0", 0x378, 0x350, 8, 0x318, 4, [0x0804|1<<32], True)
pci_box("upi1_tx_flits", f"{U}; UPI 1 at 15.0; TxL_FLITS.ALL_DATA 0x02/0x0F", ["UNC_UPI_TxL_FLITS.ALL_DATA:socket=0:box=1"], "83:0f.0", 0x378, 0x350, 8, 0x318, 4, [0x0f02], True)
pci_box("m2pcie3_fn5", f"{P}; M2PCIe 3 = 0x2088 at 21.5 (boxes 0-2 at 21.1, 22.1, 23.1); raw event 0x01", ["m2pcie/event=0x01/:socket=0:box=3"], "81:15.5", 0xf4, 0xd8, 4, 0xa0, 4, [0x01])
pci_box("m3upi1_three_counters", f"{P}; M3UPI 1 = 0x204E at 18.2, 3 counters; UNC_M3UPI_CLOCKTICKS 0x01", ["UNC_M3UPI_CLOCKTICKS:socket=0:box=1"], "83:12.2", 0xf4, 0xd8, 4, 0xa0, 3, [0x01])
pci_box("m3upi2_repeated_id", f"{P}; M3UPI 2 = 0x204D again, at 18.5", ["UNC_M3UPI_CLOCKTICKS:socket=0:box=2"], "83:12.5", 0xf4, 0xd8, 4, 0xa0, 3, [0x01])
hdr = """# Skylake-SP golden register vectors (tools/vectors/skx_vectors.py), from the Linux 6.12 driver's constants (arch/x86/events/intel/
# uncore_snbep.c: HSWEP_* and SKX_* defines, skx_uncore_* types, skx_iio_freerunning, skx_uncore_pci_ids) and
# the protocol of platforms/VECTORS.md.
#  Box control (every SKX box): rst_ctrl 0, rst_ctrs 1, frz 8, no frz_en (IVBEP_PMON_BOX_CTL_INT, "There is
#    no frz_en for chabox ctl"): freeze 0x100, freeze + reset counters 0x102, count 0.
#  Counter control: ev 7:0, umask 15:8, rst 17, edge 18, tid_en 19 (CHA), en 22, inv 23, thresh 31:24
#    (UBox, PCU 28:24; IIO 35:24 with ch_mask 43:36 and fc_mask 46:44; UPI umask extension 55:32).
#  The simulated machine: socket 0's buses 0x80-0x83 (UBox 0x2014 at 80:08.0, M2PCIe on 0x81, M2M and iMC on
#    0x82, UPI and M3UPI on 0x83), socket 1's 0x00-0x03; device ids repeat, so boxes are told apart by
#    dev.fn (UNCORE_PCI_DEV_FULL_DATA); 20 CHAs (CAPID6) on 18 cores.
"""
if PLAT == "clx":
    # Cascade Lake: the same cases on the other socket (socket 1's MSRs, its PCI range 0x00-0x03 mapped by the
    # forward fill), and the Optane events its files add
    pci_box("imc2_pmm_rpq_inserts", f"{P}; iMC 2 = 0x204A at 11.2; CLX UNC_M_PMM_RPQ_INSERTS 0xE3 (Optane read queue)", ["UNC_M_PMM_RPQ_INSERTS:socket=0:box=2"], "82:0b.2", 0xf4, 0xd8, 4, 0xa0, 4, [0x00e3])
    pci_box("m2m0_imc_reads_to_pmm", f"{M}; CLX UNC_M2M_IMC_READS.TO_PMM 0x37/0x08", ["UNC_M2M_IMC_READS.TO_PMM:socket=0:box=0"], "82:08.0", 0x258, 0x228, 8, 0x200, 4, [0x0837], True)
    import re
    swap = {"socket=0": "socket=1", "socket=1": "socket=0", "msr:0": "msr:1", "msr:1": "msr:0"}
    for k in range(4):
        swap["pci:%02x:" % (0x80 + k)] = "pci:%02x:" % k
        swap["pci:%02x:" % k] = "pci:%02x:" % (0x80 + k)
    pat = re.compile("|".join(re.escape(k) for k in swap))
    out = [pat.sub(lambda m: swap[m.group(0)], c) for c in out]
    out = [c.replace("case imc0_socket1", "case imc0_socket0").replace("case cha0_socket1", "case cha0_socket0")
           .replace("socket 1's range starts at bus 0x00 (its UBox at 00:08.0): bus 0x02 is socket 1's",
                    "socket 0's range starts at bus 0x80 (its UBox at 80:08.0): bus 0x82 is socket 0's")
           .replace("socket 1's CHA 0: MSRs on a CPU of socket 1", "socket 0's CHA 0: MSRs on a CPU of socket 0") for c in out]
    out = [re.sub(r"^case (\w+)", lambda m: "case " + m.group(1) + ("" if m.group(1).endswith("socket0") else "_s1"), c) for c in out]
    hdr = hdr.replace("# Skylake-SP golden register vectors", "# Cascade Lake golden register vectors (Skylake-SP's registers: the same driver, skx_uncore_init)")
    hdr = hdr.replace("20 CHAs (CAPID6) on 18 cores", "26 CHAs (CAPID6) on 24 cores.\n#  Every case on socket 1 (but the two that check socket 0): its MSRs and its PCI range 0x00-0x03")
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "platforms", PLAT, "vectors.vec"), "w").write(hdr + "\n" + "\n".join(out))
print(len(out))
