#!/bin/sh
# Peers count on our machines (issue 90 items 2 and 3).  A simulated machine is presented behind a node's device
# files (tests/peers/sim_host.c serves its registers through the simulator's public raw-register API,
# tests/peers/devfiles.c is the LD_PRELOAD that puts them behind /dev/cpu/N/msr, PCI configuration space and
# /dev/mem), and counted by programs that know nothing of it:
#   - the library's own direct backend (the real host path: pread/pwrite of the MSR device, libpci's sysfs
#     configuration space, /dev/mem windows whose loads and stores fault into the simulator's registers), on one
#     and two sockets, MSR (CHA), PCI (SKX iMC) and MMIO (ICX iMC) units;
#   - unmodified PCM 202302 and likwid 5.2.2 under qemu-x86_64, whose CPUID is the simulated part's.
# Each counts a workload profile of this test's own (the truth), within 1 %, and beside `uncore stat` on the same
# shared machine (shared=FILE).  The simulator's protocol checks are printed and each refused register named: one
# the simulator does not model yet is a known disagreement of issue 90 (D2 MSR 0x700, D3 0x702, D4 the SKX UBox's
# 08.2, D5 0xCE, and D9: uncore functions without a NUMA node, where a real board, the Lenovo SR650 of
# tests/snapshots/field/clx-sr650-2s, gives each its socket's; all modelled on sim:skx now), or one a peer's
# release programs that the part has not (D8: PCM 202302's SPR stacks 10-11 and middle channels); any other
# fails.  A peer check that needs what the simulator lacks is skipped naming it, found by asking the simulator
# (sim_host --probe), never passed; a peer wrong where the simulator keeps a real board's truth (D6: PCM's sockets;
# D11: likwid's UPI bus) is a SKIP line naming it with both sides' numbers.  Where qemu-user, PCM or likwid are
# missing, their checks are skipped,
# saying so.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
SRC=${top_srcdir:-.}
UNCORE=$B/uncore
skip() { echo "SKIP: $1"; }

. "$SRC/tests/peers/peers.sh" # HOST, PRELOAD, start_host, stop_host, count, has, peer, peer_release
# Debian 12's peers (the host's, or a bookworm root's on a Debian 13 host): QEMU, PCM_*, LIKWID, LUA.  Their output is
# read as PCM 202302 prints it; another release is left out, saying so
peer_release bookworm
[ -z "$RELEASE_WHY" ] || echo "SKIP: Debian 12's peers: $RELEASE_WHY"
case "$PCM_VER" in
202302*|"") ;;
*) PCM_MEMORY= PCM_PCIE= PCM_IIO= PCM= PCM_WHY="PCM $PCM_VER is Debian 12's here: this part reads the output of PCM 202302" ;;
esac
# every served machine traces its accesses (HOSTDIR/trace: the windows the simulator counted, the control writes
# made while a box counted)
export PEER_TRACE=1

# The truth: each socket's memory reads and writes, LLC miss ratio, UPI and I/O traffic (doc/user-guide.md,
# "Simulator profile"), none of them the defaults.
QPI_UTIL0=0.25 QPI_UTIL1=0.45 # two sockets: each link's use (its flits, data and not, of 2 a QPI or 3 a UPI clock)
LAT0=85 LAT1=115 # two sockets: an LLC data-read miss's latency, ns
# The machine's TSC rate, kept apart from the host's.  PCM times every window by the time stamp over the nominal
# rate, PLATFORM_INFO's (0xCE) ratio x 100 MHz (cpucounters.cpp getTickCount, detectNominalFrequency), and takes
# the stamp from RDTSCP where CPUID has it, else from MSR 0x10 (getInvariantTSC_Fast).  Under qemu-user RDTSCP
# answers the host's TSC, which ticks at the host's own rate (2.3 GHz on an Emerald Rapids host, 2.445 on an EPYC),
# so PCM's CPU models go without it (PCM_CPU, peers.sh) and it reads the simulated machine's MSR 0x10, at the
# profile's rate.  That rate is 2.6 GHz, or 3.4 GHz where the host's is within 10 % of 2.6: a PCM timed by the
# host would then be 10 % off or more on every host, and its checks would say so.
HOST_TSC=$("$HOST" --host-tsc)
TSC=2.6e9
apart() { awk -v h="$HOST_TSC" -v t="$TSC" 'BEGIN { d = (h - t) / t; exit !(h > 0 && (d >= 0.1 || d <= -0.1)) }'; }
apart || TSC=3.4e9
check "the machine's TSC rate $TSC Hz is 10 % or more apart from the host's ($HOST_TSC Hz)" apart
for n in 1 2; do
	{
		echo "tsc_hz = $TSC"
		echo "socket0.mem_read_bytes_per_s = 9.6e9"
		echo "socket0.mem_write_bytes_per_s = 3.2e9"
		echo "socket0.llc_miss_ratio = 0.2"
		echo "socket0.upi_rx_bytes_per_s = 4.0e9"
		echo "socket0.upi_tx_bytes_per_s = 3.0e9"
		echo "socket0.iio_in_bytes_per_s = 2.0e9"
		echo "socket0.iio_out_bytes_per_s = 1.0e9"
		# one socket: an NVMe drive's DMA beside the profile's I/O (the pcm-iio and pcm-pcie machines hold one on
		# port 1 of a stack), at rates of this test's own; the boards' other devices move nothing (sim:icx's
		# eight CBDMA engines and its BMC's NIC: doc/user-guide.md, "PCI devices"), and the profile's I/O rides
		# port 2 of each stack, which no device holds on these boards (Skylake-SP's model keeps it on port 0)
		[ $n = 2 ] || printf '%s\n' "device.nvme.in_bytes_per_s = 1.5e9" "device.nvme.out_bytes_per_s = 0.5e9" \
			"device.nvme.overhead_ratio = 0.02" "device.nic.in_bytes_per_s = 0" "device.nic.out_bytes_per_s = 0" \
			"device.cbdma.in_bytes_per_s = 0" "device.cbdma.out_bytes_per_s = 0" "socket0.iio_port0_share = 0" \
			"socket0.iio_port1_share = 0" "socket0.iio_port2_share = 1" "socket0.iio_port3_share = 0" \
			"socket0.iio_port4_share = 0" "socket0.iio_port5_share = 0" "socket0.iio_port6_share = 0" \
			"socket0.iio_port7_share = 0" "socket0.llc_lookups_per_s = 1.2e9"
		[ $n = 1 ] || printf '%s\n' "socket1.mem_read_bytes_per_s = 6.4e9" "socket1.mem_write_bytes_per_s = 2.4e9" \
			"socket1.llc_miss_ratio = 0.35" "socket1.upi_rx_bytes_per_s = 3.0e9" "socket1.upi_tx_bytes_per_s = 4.0e9" \
			"socket0.qpi_link_util = $QPI_UTIL0" "socket1.qpi_link_util = $QPI_UTIL1" \
			"socket0.llc_miss_latency_ns = $LAT0" "socket1.llc_miss_latency_ns = $LAT1"
		# two sockets: the uncore clock and each package's power (likwid's CLOCK group), at values of this test's own
		[ $n = 1 ] || printf '%s\n' "uncore_clock_hz = 2.4e9" "socket1.pkg_watts = 95"
		# and each socket's DRAM power: its idle watts and watts per GB/s of its memory's reads and writes
		# (sim_rapl.c), at values of this test's own: 5 + 0.5 x 12.8 = 11.4 W and 7 + 0.25 x 8.8 = 9.2 W (PCM's;
		# socket 0's, with its package's, pcm-power's on one socket too)
		printf '%s\n' "socket0.pkg_watts = 150" "socket0.dram_idle_watts = 5" "socket0.dram_watts_per_gbps = 0.5"
		[ $n = 1 ] || printf '%s\n' "socket1.dram_idle_watts = 7" "socket1.dram_watts_per_gbps = 0.25"
	} >"$W/profile$n"
done
RD0=9.6e9 WR0=3.2e9 RD1=6.4e9 WR1=2.4e9
# socket 0's I/O with the drive: what its port counts is its payload and 2 % overhead (doc/user-guide.md, "PCI
# devices"); the profile's share of a stack is on a port without it.  The drive sits on stack 1, port 1
# (Skylake-SP, Ice Lake-SP), or stack 2 on Sapphire Rapids, whose stack 1 is the DMI's (platforms/spr/board.c)
IO_DEVS=devices=nvme@0.1.1 IO_DEVS_SPR=devices=nvme@0.2.1
NVME_IN=1.53e9 NVME_OUT=0.51e9
IO_IN=3.53e9 IO_OUT=1.51e9
LOOKUPS=1.2e9 # socket 0's LLC lookups a second: the cores' data reads (DRd) the CHAs take

# within 1 % of b
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && m > 0 && d <= 0.01 * m) }'; }
mul() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6g", a * b }'; }

# the machine of NAME and SPEC (start_host: tests/peers/peers.sh)
machine() { # NAME SPEC: HOSTDIR and SIM, nothing started
	HOSTDIR=$W/$1
	case $2 in *sockets=1*) prof=$W/profile1 ;; *) prof=$W/profile2 ;; esac
	SIM="sim:$2,profile=$prof,shared=$W/$1.machine"
}

# `uncore stat` of metrics on the machine: CSV rows time,socket,box,name,value,...
ours() { # BACKEND OUT METRICS [env...]
	be=$1 out=$2 metrics=$3
	shift 3
	env "$@" "$UNCORE" --backend "$be" stat -M "$metrics" --duration 1 -x, >"$out" 2>"$out.err"
}
value() { awk -F, -v s="$2" -v n="$3" '$2 == s && $4 == n { v = $5 } END { print v }' "$1"; }

# ---- item 3: the direct backend through the device files ----
direct() { # NAME SPEC SOCKETS SPACES
	NAME=$1 SPEC=$2 sockets=$3 spaces=$4
	start_host "$1" "$2" || return
	ours direct "$W/$1.direct" mem_bw_read,mem_bw_write,llc_miss_ratio PEER_HOST_DIR="$HOSTDIR" LD_PRELOAD="$PRELOAD" \
		UNCORE_CLAIMS="$W/$1.claims"
	rc=$?
	ours "$SIM" "$W/$1.sim" mem_bw_read,mem_bw_write,llc_miss_ratio
	stop_host
	check "direct backend on sim:$2 through the device files: exit 0 ($(head -c 300 "$W/$1.direct.err"))" '[ $rc -eq 0 ]'
	s=0
	while [ $s -lt "$sockets" ]; do
		eval "rd=\$RD$s wr=\$WR$s"
		miss=$(awk -v s=$s 'BEGIN { print s ? 35 : 20 }')
		for m in "mem_bw_read $(mul "$rd" 1e-9)" "mem_bw_write $(mul "$wr" 1e-9)" "llc_miss_ratio $miss"; do
			metric=${m% *} t=${m#* }
			d=$(value "$W/$NAME.direct" $s "$metric") o=$(value "$W/$NAME.sim" $s "$metric")
			check "direct sim:$SPEC socket $s $metric: $d against the truth $t and uncore stat's $o (1 %)" \
				'near "$d" "$t" && near "$d" "$o"'
		done
		s=$((s + 1))
	done
	# the library freezes a box before it programs it and touches no register the machine lacks
	check "direct sim:$SPEC: protocol checks bad_accesses $(count bad_accesses), unfrozen_ctl_writes $(count unfrozen_ctl_writes) (both 0)" \
		'[ "$(count bad_accesses)" = 0 ] && [ "$(count unfrozen_ctl_writes)" = 0 ]'
	for sp in $spaces; do
		check "direct sim:$SPEC programmed its units through the $sp device ($sp writes $(count ${sp}_writes))" \
			'[ "$(count ${sp}_writes)" -gt 0 ]'
	done
}
direct skx1 skx,sockets=1 1 "msr pci"
direct skx2 skx,sockets=2 2 "msr pci"
direct icx2 icx,sockets=2 2 "msr mmio"

# ---- item 2: the peers under qemu-user ----

# Every register a peer was refused is one the simulator does not model yet, named (issue 90) or a package or
# core register outside the uncore's PMON (the microcode signature, thermal status, C-state residencies, turbo and
# RAPL limits (the platform's 0x65c too: likwid 5.4.1), which no uncore count needs: likwid 5.2.2 reads them at start, seen with D2, D5 and D9 stood in);
# and bad_accesses is their number (but for MSR 0x64d, which the simulator knows SKX lacks: common/sim/sim_rapl.c).
# (awk: a hexadecimal number's value, "0x" or not, as the counts and the trace write them)
HEX_AWK='function hex(x,  i, v) { v = 0; x = tolower(x); sub(/^0x/, "", x)
	for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return v }'
explain() { # TOOL
	awk -v tool="$1" "$HEX_AWK"'
	$1 != "refused" { next }
	{ n = $2; $1 = $2 = $3 = ""; what = $0; sub(/^ +/, "", what) }
	what ~ /^(rd|wr)msr MSR 0x(48|10a|700|702|ce|8b|1b1|3f8|3f9|3fa|60d|1a0|1ad|1b0|610|613|618|61b|61c|620|639|641|65c|64d):/ {
		split(what, w, " "); msr[w[3]] += n; refused += w[3] == "0x64d:" ? 0 : n; next }
	what ~ /^PCI read of / { next } # a function that is not there reads all ones, as on a node
	# D8, PCM 202302 on sim:spr programs what the part has not (seed 001, the guide of the family): IIO and IRP
	# stacks 10 and 11 (its SPR_M2IOSF_NUM 12; Table 1-3: IIO "up to 10 for XCC"), MSRs 0x30a0-0x30bf and
	# 0x34a0-0x34bf; and the middle one of the three channels it lays 0x4000 apart a controller (section 1.10.3:
	# two, 0x8000 apart), MEMn + 0x26800 (the MEMn of the simulator 0x80000 apart, spr_family_sim.c)
	tool ~ /sim:(spr|emr)/ && what ~ /^(rd|wr)msr MSR 0x3[04][ab][0-9a-f]:/ { stacks += n; refused += n; next }
	# PCM 202502 on Birch Stream programs 16 IIO and IRP units (src/types.h BHS_M2IOSF_NUM 16 at 0x2900 + 0x10 n,
	# BHS_IRP_UNIT_CTL 0x2A00-0x2AF0); the board has IIO PMUs 0-14, every one its srf_sad_to_pmu_id_mapping names
	# (pcm-iio-topology.cpp; platforms/gnr/board.c), so the MSRs of unit 15, 0x29F0-0x29FF and 0x2AF0-0x2AFF, are none
	tool ~ /sim:(gnr|srf)/ && what ~ /^(rd|wr)msr MSR 0x2[9a]f[0-9a-f]:/ { bhs15 += n; refused += n; next }
	# likwid 5.4.1 on the discovery parts translates of its UBox (MSR_UBOX_DEVICE) the global control and status
	# alone and every other register to MSR 0 (access_x86_translate.c access_x86_translate_read): its UBOX0 counter,
	# UNCORE_CLOCKTICKS of the CLOCK group on Granite Rapids, reads MSR 0x0 while its discovery found the UBox at 0x3FF0
	tool ~ /^likwid.*sim:(spr|emr|gnr|srf)/ && what ~ /^rdmsr MSR 0x0:/ { ubox0 += n; refused += n; next }
	tool ~ /sim:spr/ && what ~ /^MMIO (read|write) 0x/ {
		split(what, w, " "); a = hex(w[3]) % 524288
		if (a >= 157696 && a < 157952) { chan += n; refused += n; next } }
	{ other = other "; " n " x " what }
	END {
		if (stacks) printf "%s refused %d x MSR 0x30a0-0x30bf, 0x34a0-0x34bf: IIO and IRP stacks 10 and 11, which PCM 202302 programs on SPR and the part has not (D8: seed 001 Table 1-3)\n", tool, stacks
		if (bhs15) printf "%s refused %d x MSR 0x29f0-0x29ff, 0x2af0-0x2aff: IIO and IRP unit 15, which PCM 202502 programs on Birch Stream (BHS_M2IOSF_NUM 16) and the board has not (IIO PMUs 0-14, pcm srf_sad_to_pmu_id_mapping)\n", tool, bhs15
		if (ubox0) printf "%s refused %d x MSR 0x0: its UBOX0 counter, which likwid 5.4.1 translates to MSR 0 on the discovery parts (access_x86_translate_read: MSR_UBOX_DEVICE, the global registers alone)\n", tool, ubox0
		if (chan) printf "%s refused %d x MMIO MEMn + 0x26800-0x268ff: PCM 202302 channel 1 of 3 a controller, 0x4000 apart, where the part has 2, 0x8000 apart (D8: seed 001 section 1.10.3); its channel 2 is channel 1 of the part\n", tool, chan
		why["0x700:"] = "UBox global control (D2)"; why["0x702:"] = "CHA count (D3)"; why["0xce:"] = "PLATFORM_INFO (D5)"
		why["0x8b:"] = "microcode signature"; why["0x1b1:"] = "package thermal status"
		why["0x48:"] = "IA32_SPEC_CTRL"; why["0x10a:"] = "IA32_ARCH_CAPABILITIES" # (read by PCM 202502 for its speculation report)
		why["0x3f8:"] = why["0x3f9:"] = why["0x3fa:"] = why["0x60d:"] = "package C-state residency"
		why["0x1a0:"] = "IA32_MISC_ENABLE"; why["0x1ad:"] = "turbo ratio limits"; why["0x1b0:"] = "energy/performance bias"
		why["0x610:"] = why["0x613:"] = why["0x618:"] = why["0x61b:"] = why["0x61c:"] = why["0x639:"] = why["0x641:"] = why["0x65c:"] = \
			"RAPL limits, status and PP0/PP1 (the simulator models the package and DRAM energy counters alone)"
		why["0x620:"] = "uncore ratio limit (MSR_UNCORE_RATIO_LIMIT: Haswell-EP on; the Xeon E5 v1 and v2 have none)"
		why["0x64d:"] = "platform energy (none on SKX: the simulator answers it absent, as modelled, not as a bad access)"
		for (m in msr) printf "%s refused %d x MSR %s %s\n", tool, msr[m], m, why[m]
		print refused + 0 > "/dev/stderr"
		if (other != "") print "UNEXPLAINED" other
	}' "$COUNTS" 2>"$W/refused.n"
}
protocol() { # TOOL: print and judge the simulator's protocol checks after a peer ran
	explain "$1" >"$W/explained"
	sed 's/^/  /' "$W/explained"
	check "$1: every refused register explained, bad_accesses $(count bad_accesses) is their number" \
		'! grep -q UNEXPLAINED "$W/explained" && [ "$(count bad_accesses)" = "$(cat "$W/refused.n")" ]'
	# the control words written while their box counted, found in the trace (sim_host tags each): those after the
	# last read of the thread that wrote them are its clean-up, zeroing the boxes the tool left counting, which it
	# reads no more; one before is a program's own and needs its reason (UNFROZEN_WHY, set by the caller).  Reads of
	# other threads do not count: PCM reads the RAPL energy and each CBo counter from a thread of its own every few
	# seconds (CounterWidthExtender, to catch their wrap), and such a read came after its clean-up in CI runs
	n=$(count unfrozen_ctl_writes) tr=$HOSTDIR/trace
	ut=$(grep -c ' unfrozen$' "$tr" 2>/dev/null)
	# (a line's thread is its last field but the tag; the reads of a thread after one of its unfrozen writes go to
	# $W/unfrozen.before, the first 8, so a failure says which)
	ua=$(awk -v t="$1" -v before="$W/unfrozen.before" '{ th = $NF == "unfrozen" ? $(NF - 1) : $NF }
		$2 == "r" { if (a[th] && k++ < 8) print "  " t ": read after an unfrozen write of its thread: " $0 >before; a[th] = 0 }
		/ unfrozen$/ { a[th]++ } END { for (th in a) s += a[th]; print s + 0 }' "$tr" 2>/dev/null)
	echo "  $1: unfrozen_ctl_writes $n (control words written while the box counted): $ua after the last read of the thread that wrote them, its clean-up zeroing the controls of the boxes it left counting; $((ut - ua)) before${UNFROZEN_WHY:+ ($UNFROZEN_WHY)}"
	cat "$W/unfrozen.before" 2>/dev/null
	rm -f "$W/unfrozen.before"
	check "$1: the trace names each unfrozen control write ($ut of $n), none before its thread's last read but what is explained" \
		'[ -s "$tr" ] && [ "$ut" = "$n" ] && { [ "$ut" = "$ua" ] || [ -n "$UNFROZEN_WHY" ]; }'
	UNFROZEN_WHY=
}

# pcm-memory NAME SPEC QEMU-CPU SHARE: its memory bandwidth of socket 0, SHARE the part of the truth its
# release counts (1 everywhere: on ICX PCM counts 2 channels a controller, boxes 3m and 3m+1, the 8 that the
# simulated SR630 V2 populates and its traffic moves on, D1 settled in doc/memory.md)
pcm_memory() {
	start_host "$1" "$2" || return
	peer "$W/$1.pcm" "$3$PCM_CPU" "$PCM_MEMORY" 16 -i=1 -nc # (16 s: a loaded machine delays its reads at either end by tens of ms, +1.2 % of 4 s seen)
	rc=$?
	ours "$SIM" "$W/$1.sim" mem_bw_read,mem_bw_write
	D5=1
	has msr 0 0xce || D5=0
	stop_host
	check "pcm-memory on sim:$2 (qemu -cpu $3): exit 0 ($(grep -v TCG "$W/$1.pcm.err" | tail -2 | tr '\n' ' '))" '[ $rc -eq 0 ]'
	case $2 in spr,*) # D8: PCM 202302 counts the CHAs in CAPID6/7 of the PCU CR3 (8086:325b) on SPR: the spec's cores=
		sl=$(awk '/Last level cache slices per socket:/ { print $NF }' "$W/$1.pcm.err") c=$(echo "$2" | sed -n 's/.*cores=\([0-9]*\).*/\1/p')
		check "pcm-memory sim:$2: its LLC slices, the CHAs it counts in CAPID6/7 (D8), $sl: the spec's $c" '[ "$sl" = "$c" ]' ;;
	gnr,* | srf,*) # PCM 202502 counts Birch Stream's CHAs in MSR 0x3FED (getMaxNumOfCBoxesInternal): the socket's CHAs
		cb=$(sed -n 's/.* \([0-9]*\) CHA\/CBO units detected.*/\1/p' "$W/$1.pcm.err" | head -1)
		c=$("$UNCORE" --backend "sim:$2" info 2>/dev/null | awk '$1 == "cha" { sub(/^s0:/, "", $6); print $6 }')
		check "pcm-memory sim:$2: the CHAs it detects (MSR 0x3FED), $cb: the machine's $c" '[ -n "$cb" ] && [ "$cb" = "$c" ]' ;;
	esac
	# (202302 prints "NODE 0 Mem Read (MB/s) :", 202502 "SKT  0 Mem Read (MB/s) :")
	r=$(awk -F'[:-]+' '/(NODE|SKT) +0 Mem Read/ { v = $3 } END { print v + 0 }' "$W/$1.pcm")
	w=$(awk -F'[:-]+' '/(NODE|SKT) +0 Mem Write/ { v = $3 } END { print v + 0 }' "$W/$1.pcm")
	est=$(awk '/Nominal core frequency:/ { print $4 }' "$W/$1.pcm.err")
	# Without MSR 0xCE (D5) PCM estimates the TSC's rate over a sleep, which a loaded machine stretches, and times
	# its interval by it: its bandwidth is taken back to the TSC's rate here, and said.
	fix=1
	[ $D5 = 1 ] || fix=$(awk -v t=$TSC -v e="$est" 'BEGIN { print (e > 0 ? t / e : 1) }')
	tr=$(mul "$RD0" "$4e-6") tw=$(mul "$WR0" "$4e-6")
	cr=$(mul "$r" "$fix") cw=$(mul "$w" "$fix")
	echo "  pcm-memory sim:$2: read $r MB/s, write $w MB/s; its estimated TSC rate $est Hz (0xCE modelled: $D5), so $cr and $cw at the TSC's"
	check "pcm-memory sim:$2: socket 0 read $cr MB/s against the truth $tr (1 %)" 'near "$cr" "$tr"'
	check "pcm-memory sim:$2: socket 0 write $cw MB/s against the truth $tw (1 %)" 'near "$cw" "$tw"'
	o=$(value "$W/$1.sim" 0 mem_bw_read)
	check "pcm-memory sim:$2: uncore stat on the same machine reads $o GB/s, the truth $(mul "$RD0" 1e-9)" \
		'near "$o" "$(mul "$RD0" 1e-9)"'
	# PCM 202502 reads CXL memory reads on the Sapphire Rapids family from the CHAs' TOR inserts of misses to CXL
	# memory (pcm-memory.cpp: UNC_CHA_TOR_INSERTS.IA_MISS_*_CXL_ACC, umask ext bit 28); the profile's misses go
	# to DDR alone, so its truth is 0
	cxl=$(awk -F: '/System CXL Read Throughput/ { v = $2 } END { print v }' "$W/$1.pcm" | tr -dc '0-9.')
	[ -z "$cxl" ] || check "pcm-memory sim:$2: CXL memory reads $cxl MB/s against the truth 0 (the TOR's misses to CXL)" \
		'awk -v v="$cxl" "BEGIN { exit !(v + 0 == 0) }"'
	protocol "pcm-memory sim:$2"
	# counted on sim:spr: 0 while it ran, 44 after (sim_host --counts during and after a run)
	echo "  (they are its clean-up's, UncorePMU::cleanup of PCM 202302: at exit it zeroes each control word it programmed without freezing the box first)"
}

# pcm-pcie: each socket's PCIe reads and writes, 64 bytes a request, over its delay.  On SKX (pcm-pcie.h
# PurleyPlatform, cpucounters.cpp programPCIeEventGroup) it counts the CHAs' TOR inserts of the IO queue (event 0x35,
# umask PRQ 0x04 with hit 0x10 or miss 0x20) by FILTER1 opcode, one opcode at a time: reads are PCIRdCur + RFO + CRd +
# DRd, writes RFO + ItoM.  The simulator's CHAs see the stacks' DMA as RdCur (device reads of memory) and ItoM
# (its writes) (platforms/skx/sim.c cha_rate, from Intel's UNC_CHA_TOR_INSERTS.IO_MISS_RDCUR/_ITOM), so its reads are
# the IIO's outbound bytes and its writes the inbound, the drive's among them
# pcm-pcie NAME SPEC QEMU-CPU: socket 0's PCIe reads and writes, as the CHAs' (CBos') TOR inserts of the IIO's
# requests count them (pcm-pcie.h: Purley, Whitley and Eagle Stream read PCIRdCur as reads, ItoM and
# ItoMCacheNear as writes; Grantley, HSX and BDX, reads PCIRdCur + RFO + CRd + DRd, writes RFO + ItoM)
pcm_pcie() {
	machine "$1" "$2"
	case $2 in
	skx*|icx*) if ! has msr 0 0x702; then
		skip "pcm-pcie on sim:$2: needs MSR 0x702, the CHA count PCM reads on SKX and ICX (issue 90 D3): it programs no CHA without it"
		return
	fi ;;
	esac
	start_host "$1" "$2" || return
	# 32 s: its 14 events take turns, each counted over 1/14 of it and timed by its sleep, not a clock
	# (LegacyPlatform::getEventGroup), so what a loaded machine adds to a turn (+0.7 % at 0.57 s turns) weighs
	# less the longer it is (+0.7 % at 16 s beside a second full run)
	PCIE_S=32
	peer "$W/$1.pcie" "$3$PCM_CPU" "$PCM_PCIE" $PCIE_S -i=1 -csv -B
	rc=$?
	stop_host
	check "pcm-pcie on sim:$2: exit 0" '[ $rc -eq 0 ]'
	# -B: its last two columns, PCIe Rd (B) and PCIe Wr (B) of the sample (pcm-pcie.h printBandwidth), over its delay
	pcie=$W/$1.pcie
	col() { awk -F, -v s=$PCIE_S -v k="$1" '$1 == "Skt" { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
		$1 == "0" && c { print $c / s }' "$pcie"; }
	rd=$(col "PCIe Rd (B)") wr=$(col "PCIe Wr (B)")
	# Each turn is timed by PCM's sleep (LegacyPlatform::getEventGroup: m_delay = the delay over the groups, in whole ms)
	# and counted over the span between its reads of a counter, which a loaded machine stretches (+1.3 % seen on a
	# Debian 13 host beside two builds): a value, a sum of turns' counts, lies between the truth times the shortest
	# and the longest turn over m_delay.  The turns from the trace: the long gaps between two reads of an MSR by the
	# thread that programs (its first write of a control word), their number for the register read in most of them
	# the groups (a thread of PCM's own that reads a register every 5.555 s to catch its wrap, its
	# CounterWidthExtender, writes nothing and is left out)
	span=$(awk -v s=$PCIE_S '$2 == "w" && $6 != "0x0" && main == "" { main = $NF }
		$3 == "msr" && $2 == "r" && $NF == main { if (($5) in last && $1 - last[$5] > 2e8) { n[$5]++; g[++m] = $1 - last[$5] } last[$5] = $1 }
		END { for (r in n) if (n[r] > ng) { ng = n[r]; reg = r }; if (!ng) exit
			d = int(s * 1000 / ng) * 1e6; lo = hi = g[1] / d
			for (i = 2; i <= m; i++) { f = g[i] / d; if (f < lo) lo = f; if (f > hi) hi = f }
			if (lo < 0.95 || hi > 1.5) lo = hi = 1 # (not turns of the delay: PCM 202502 on SPR times its own; judged plainly)
			printf "%.6f %.6f %d", lo, hi, ng }' "$HOSTDIR/trace")
	flo=${span%% *} fhi=$(echo "$span" | cut -d' ' -f2) ngroups=${span##* }
	# within 1 % of the truth taken over the turns' windows
	turned() { awk -v v="$1" -v t="$2" -v lo="$flo" -v hi="$fhi" 'BEGIN { exit !(v != "" && lo > 0 && v >= t * lo * 0.99 && v <= t * hi * 1.01) }'; }
	echo "  pcm-pcie sim:$2: its $ngroups turns took $flo to $fhi of their nominal span (the trace)"
	case $2 in
	bdx*) # Grantley: the drive-less machine (Broadwell-EP has no IIO PMU, no stack a device is placed on), so the
		# I/O is the profile's; PCM filters RFO and ItoM by the IIO's TID (0x3e, FILTER0) and PCIRdCur, CRd and DRd
		# by nothing (the trace: FILTER0 written for opcodes 0x180 and 0x1c8 alone), so its reads hold every core's
		# DRd too: PCIRdCur is the I/O reads, DRd the cores' data reads (the LLC lookups), and its Rd their sum
		io_out=1.0e9 io_in=2.0e9
		rdcur=$(col PCIRdCur) drd=$(col DRd)
		rdcur=$(mul "$rdcur" 64) drd=$(mul "$drd" 64)
		cores=$(mul $LOOKUPS 64) both=$(awk -v a=$io_out -v b=$(mul $LOOKUPS 64) 'BEGIN { print a + b }')
		check "pcm-pcie sim:$2: socket 0 PCIRdCur $rdcur B/s against the I/O reads' truth $io_out (1 %, over its turns)" 'turned "$rdcur" $io_out'
		check "pcm-pcie sim:$2: socket 0 DRd $drd B/s against the cores' data reads, $LOOKUPS lookups a second of 64 bytes, $cores (1 %): PCM 202302 counts them as PCIe reads on Grantley" \
			'turned "$drd" "$cores"'
		check "pcm-pcie sim:$2: socket 0 PCIe reads $rd B/s, PCM's PCIRdCur + RFO + CRd + DRd, against $io_out + $cores (1 %, over its turns)" \
			'turned "$rd" "$both"'
		check "pcm-pcie sim:$2: socket 0 PCIe writes $wr B/s (RFO + ItoM of the IIO's TID) against the inbound truth $io_in (1 %, over its turns)" \
			'turned "$wr" $io_in' ;;
	*)
		check "pcm-pcie sim:$2: socket 0 PCIe reads $rd B/s against the IIO's outbound truth $IO_OUT (1 %, over its turns)" 'turned "$rd" $IO_OUT'
		check "pcm-pcie sim:$2: socket 0 PCIe writes $wr B/s against the IIO's inbound truth $IO_IN (1 %, over its turns)" 'turned "$wr" $IO_IN' ;;
	esac
	protocol "pcm-pcie sim:$2"
}
# the seconds between the two reads of register REG on CPU by one thread that lie closest to NOMINAL seconds apart
# (the trace): PCM reads the RAPL energy at each of its snapshots, and every 10 s beside them from a thread of its
# own (CounterWidthExtender), so its window is the gap of one thread's reads nearest its interval
tspan() { # CPU REG NOMINAL
	awk -v cpu="$1" -v reg="$2" -v nom="$3" '$3 == "msr" && $2 == "r" && $4 == cpu && $5 == reg {
		if ($NF in last) { g = ($1 - last[$NF]) / 1e9; d = g - nom; if (d < 0) d = -d; if (best == "" || d < bd) { best = g; bd = d } }
		last[$NF] = $1 } END { if (best != "") printf "%.6f", best }' "$HOSTDIR/trace"
}

# pcm-power NAME SPEC QEMU-CPU: socket 0's package and DRAM energy over 4 s (PCM 202502; 202302's programs the cores'
# PMU beside, which qemu-user answers with none, as pcm_main's), against the profile's watts over its window
pcm_power() {
	start_host "$1" "$2" || return
	peer "$W/$1.pow" "$3$PCM_CPU" "$PCM_POWER" 4 -i=1
	rc=$?
	stop_host
	check "pcm-power on sim:$2: exit 0 ($(grep -v TCG "$W/$1.pow.err" | tail -1))" '[ $rc -eq 0 ]'
	# "S0; Consumed energy units: N; Consumed Joules: J; Watts: ..." and "S0; Consumed DRAM energy units: N;
	# Consumed DRAM Joules: J; ...".  PCM 202502 counts the DRAM energy of Granite Rapids and Sierra Forest in
	# units of 15.3 uJ too (getDRAMConsumedJoules), where Linux (their RAPL through TPMI, no DRAM quirk) and PAPI's
	# rapl component (linux-rapl.c, Granite Rapids: different_units 0) take MSR 0x606's, 2^-14 J, and so does the
	# simulator: a quarter of the energy, PCM's to name (D13), its figure checked as PCM reads it
	pj=$(awk -F'; ' '/^S0; Consumed energy units/ { sub(/.*: /, "", $3); print $3 }' "$W/$1.pow")
	dj=$(awk -F'; ' '/^S0; Consumed DRAM energy units/ { sub(/.*: /, "", $3); print $3 }' "$W/$1.pow")
	p=$(tspan 0 0x611 4) d=$(tspan 0 0x619 4)
	du=1 dwhy=
	case $2 in gnr* | srf*) du=$(awk 'BEGIN { print 15.3e-6 * 16384 }') dwhy="; DRAM x $du, PCM's 15.3 uJ for MSR 0x606's 2^-14 J: D13" ;; esac
	tp=$(awk -v a="$p" 'BEGIN { print 150 * a }') td=$(awk -v a="$d" -v u=$du 'BEGIN { print 11.4 * a * u }')
	check "pcm-power sim:$2: socket 0 package $pj J and DRAM $dj J against the profile's 150 and 11.4 W over the windows the simulator counted them ($p and $d s$dwhy): $tp and $td J (1 %)" \
		'near "$pj" "$tp" && near "$dj" "$td"'
	core_regs pcm-power
	protocol "pcm-power sim:$2"
}

# pcm-iio NAME SPEC QEMU-CPU STACK: socket 0's inbound and outbound bytes by stack and part (port), the drive on
# part 1 of STACK
pcm_iio() {
	machine "$1" "$2"
	case $2 in
	bdx*) # pcm-iio 202302 knows Skylake-SP and later (its platform maps: Purley, Whitley, Eagle Stream, Snowridge);
		# Broadwell-EP has no IIO PMU (Linux's bdx uncore has no iio box): it stops, saying so
		start_host "$1" "$2" || return
		peer "$W/$1.iio" "$3$PCM_CPU" "$PCM_IIO" 1 -i=1 -csv
		stop_host
		why=$(grep -m1 "unknown platform" "$W/$1.iio.err")
		check "pcm-iio on sim:$2 refuses the platform it does not know, saying so ($why)" '[ -n "$why" ]'
		skip "pcm-iio on sim:$2: PCM 202302's pcm-iio does not know Broadwell-EP, which has no IIO PMU"
		return ;;
	skx*) if ! has pciid 8086 2016; then
		skip "pcm-iio on sim:$2: needs the UBox's function 08.2 (8086:2016, CPUBUSNO at 0xCC/0xD0; issue 90 D4): PCM stops with \"No access to PCICFG\" without it"
		return
	fi ;;
	esac
	start_host "$1" "$2" || return
	# 30 s: its events take turns (collect_data), each counted over 30 s / the events of its opCode file and taken to a
	# second by that nominal span, not by a clock (get_IIO_Samples: 1000 / delay_ms); a loaded machine's sleep
	# overruns a turn (+3.2 % seen on SPR's 0.75 s turns), so each value is taken back to the window the simulator
	# counted it in, from the trace (turns(), below).  PCM 202502 prints no row of its CSV after one pass of its
	# turns (-i=1: its tables only, on screen), so it is given two passes of 15 s and its last CSV block is read
	# (the last pass's windows: later turns take the place of earlier ones below)
	delay=30 passes=1
	case $PCM_VER in 2023*) ;; *) delay=15 passes=2 ;; esac
	peer "$W/$1.iio" "$3$PCM_CPU" "$PCM_IIO" $delay -i=$passes -csv
	rc=$?
	stop_host
	case $2 in skx*) model=85 ;; icx*) model=106 ;; emr*) model=207 ;; *) model=143 ;; esac
	# (its file of events by model: opCode-MODEL.txt in 202302, opCode-FAMILY-MODEL.txt in 202502)
	opcode=$QEMU_L/usr/share/pcm/opCode-6-$model.txt
	[ -e "$opcode" ] || opcode=$QEMU_L/usr/share/pcm/opCode-$model.txt
	nctrs=$(grep -cv '^[[:space:]]*$\|^#' "$opcode" 2>/dev/null)
	delay_s=$(awk -v n="$nctrs" -v d=$delay 'BEGIN { if (n > 0) printf "%.3f", int(d * 1000 / n) / 1000 }')
	# the turns in the trace: one begins where an IIO counter is programmed with an event (a control word with
	# ports in bits 47:36), its counters read before and after the sleep (the after-sleep reads begin with the first
	# register read a second time: PCM reads each once a side; a gap in time would take a loaded machine's stall of
	# more than the 0.75 s sleep inside a batch for the sleep, which lost a turn in one CI run), stack
	# by stack in PCM's order of its stacks, the order it prints them in; "EVENT UMASK PART STACK WINDOW" a turn and
	# stack (PART: the lowest bit of ch_mask; STACK: 0 for the first it reads), WINDOW from a register's read
	# before to its read after
	awk "$HEX_AWK"'
		function flush(  i, j, k, at, seen) {
			if (cur == "" || n < 2) return
			at = 0
			for (i = 1; i <= n && !at; i++) { if ((r[i]) in once) at = i; once[r[i]] = 1 }
			delete once
			if (!at) return
			k = 0
			for (i = 1; i < at; i++) {
				if ((r[i]) in seen) continue
				seen[r[i]] = 1
				for (j = at; j <= n; j++) if (r[j] == r[i]) { printf "%d %d %d %d %.6f\n", ev, um, part, k, (t[j] - t[i]) / 1e9; break }
				k++
			} }
		$3 == "msr" && $2 == "w" && $6 != "0x0" { v = hex($6); if (v < 68719476736) next
			if ($6 != cur || n > 0) { flush(); cur = $6; n = 0; ev = v % 256; um = int(v / 256) % 256
				cm = int(v / 68719476736) % 4096; part = 0; while (cm > 1 && cm % 2 == 0) { cm /= 2; part++ } }
			next }
		$3 == "msr" && $2 == "r" && cur != "" { n++; t[n] = $1; r[n] = $5 }
		END { flush() }' "$HOSTDIR/trace" >"$W/$1.turns"
	tf=$W/$1.turns
	ibturns=$(awk '$1 == 131 && ($2 == 1 || $2 == 4) && $4 == 0' "$tf" | wc -l)
	ibevents=$(($(grep -c 'ev_sel=0x83,umask=0x[14],' "$opcode" 2>/dev/null) * passes)) # its IB writes and reads
	span=$(awk '$1 == 131 { if (lo == "" || $5 < lo) lo = $5; if ($5 > hi) hi = $5 } END { print lo "-" hi }' "$tf")
	check "pcm-iio sim:$2: the trace shows a turn for each IB write and read of its opCode file in each of its $passes passes ($ibturns of $ibevents), counted over $span s each where it takes $delay_s ($nctrs events in $delay s)" \
		'[ "$ibturns" = "$ibevents" ] && [ "$ibturns" -gt 0 ] && [ -n "$delay_s" ]'
	check "pcm-iio on sim:$2: exit 0" '[ $rc -eq 0 ]'
	# its CSV (after its banner): Socket,Name,Part,<a column a counter>; a row a stack's part, then rows (Total) whose values
	# are other counters' (build_csv: a row holds only its own), so the columns are found by the header's names
	# and only the parts' rows read.  COLUMN PART [STACK]: socket 0's sum over its stacks (or stack STACK) of that
	# part (any: all parts)
	csv=$W/$1.iio
	# (IB write is DATA_REQ_OF_CPU 0x83 umask 0x01, IB read umask 0x04: the opCode file's; a value of one of them
	# is its count over the turn's window, times delay_s over that window)
	iio() { awk -F, -v col="$1" -v part="$2" -v st="$3" -v d="$delay_s" -v turns="$tf" '
		BEGIN { while ((getline l < turns) > 0) { split(l, f, " "); if (f[1] == 131 && (f[2] == 1 || f[2] == 4)) w[f[2] == 1 ? "IB write" : "IB read", f[3], f[4]] = f[5] } }
		$1 == "Socket" { for (i = 1; i <= NF; i++) if (index($i, col) == 1) c = i; s = 0; miss = 0; next } # (a pass: the last counts)
		$1 == "Socket0" && $3 ~ /^Part/ && !($2 in order) { order[$2] = nst++ } # the stacks in the order it reads them
		$1 == "Socket0" && $3 ~ "^Part" part && (st == "" || $2 ~ "^IIO Stack " st " ") {
			k = $3; sub(/^Part/, "", k); k += 0; x = $c
			if ((col, k, order[$2]) in w) x = x * d / w[col, k, order[$2]]; else if (col ~ /^IB/) miss++
			s += x }
		END { print s + 0; if (miss) print "no window for " miss " of its values" > "/dev/stderr" }' "$csv"; }
	# (a column by its name's start: "IB write (bytes)" on Skylake-SP, "IB write" later)
	ibw=$(iio "IB write") ibr=$(iio "IB read") obr=$(iio "OB read") obw=$(iio "OB write")
	p1w=$(iio "IB write" 1 "$4") p1r=$(iio "IB read" 1 "$4")
	io_in=$IO_IN io_out=$IO_OUT seen=
	case $2 in
	spr* | emr*) # Sapphire Rapids XCC and Emerald Rapids have 10 IIO PMUs (seed 001 Table 1-3), and the simulator
		# spreads the profile's I/O evenly over them; the board (platforms/spr/board.c, from a real listing) gives 7 of them a root bus, and
		# PCM shows only the stacks it maps to a bus ("Mapped CPU bus #N ... to IO PMU #M"): the 7 stacks' share
		mapped=$(grep -c "^Mapped CPU bus .* to IO PMU" "$csv")
		io_in=$(awk -v d=$NVME_IN -v m="$mapped" 'BEGIN { print d + 2.0e9 * m / 10 }')
		io_out=$(awk -v d=$NVME_OUT -v m="$mapped" 'BEGIN { print d + 1.0e9 * m / 10 }')
		seen=" (its $mapped stacks of 10: the profile's 2.0e9 and 1.0e9 over 10, the drive's whole)"
		check "pcm-iio sim:$2 maps the 7 stacks the board gives a root bus ($mapped)" '[ "$mapped" = 7 ]' ;;
	esac
	check "pcm-iio sim:$2: socket 0 IB write $ibw B/s against the inbound truth $io_in$seen (1 %)" 'near "$ibw" $io_in'
	check "pcm-iio sim:$2: socket 0 IB read $ibr B/s against the outbound truth $io_out (1 %)" 'near "$ibr" $io_out'
	check "pcm-iio sim:$2: the drive's port (stack $4, Part1) IB write $p1w, IB read $p1r B/s against $NVME_IN and $NVME_OUT (1 %)" \
		'near "$p1w" $NVME_IN && near "$p1r" $NVME_OUT'
	check "pcm-iio sim:$2: socket 0 OB read $obr, OB write $obw B/s: the cores' MMIO, none in the profile (0)" \
		'[ "$obr" = 0 ] && [ "$obw" = 0 ]'
	protocol "pcm-iio sim:$2"
}

# the bus of the function at DEV.FN with device id 8086:ID on NUMA node NODE (a socket's), from the served machine's
# sysfs tree, as hwloc, and so likwid, places it; where the function has no node (-1: Broadwell-EP's boards), the
# socket its bus's UBox names (ubox_socket, the host running)
fn_bus() { # ID DEV.FN NODE
	for f in "$HOSTDIR"/root/sys/bus/pci/devices/0000:??:"$2"; do
		[ -e "$f/device" ] && [ "$(cat "$f/device")" = "0x$1" ] || continue # (none: a part without PCI uncore)
		n=$(cat "$f/numa_node") b=${f%:*}
		b=${b##*:}
		[ "$n" != -1 ] || n=$(ubox_socket "$b")
		[ "$n" = "$3" ] && { echo "$b"; return; }
	done
}
# the socket of Haswell-EP's or Broadwell-EP's uncore bus BUS as Linux reads it (snbep_pci2phy_map_init): its UBox
# (10.5) holds the node id in CPUNODEID (0x40) bits 2:0, and GIDNIDMAP (0x54) a node id of 3 bits for each socket;
# the socket is the field that holds it.  Read live through the preload (the tree's config files hold no registers).
ubox_socket() { # BUS
	ubox_rd() { PEER_HOST_DIR="$HOSTDIR" LD_PRELOAD="$PRELOAD" dd if=/sys/bus/pci/devices/0000:$1:10.5/config bs=4 skip=$2 \
		count=1 2>/dev/null | od -An -tu4; }
	awk -v n="$(ubox_rd "$1" 16)" -v m="$(ubox_rd "$1" 21)" 'BEGIN { for (i = 0; i < 8; i++) if (int(m / 8 ^ i) % 8 == n % 8) { print i; exit } }'
}

# likwid-perfctr -g GROUP on the first CPU of each of two sockets, direct access: METRIC's value on each
# counted CPU REG: the seconds a likwid run's counters of CPU counted, from the simulator's trace of the run
# (HOSTDIR/trace, sim_host.c): REG 0x700, from the last unfreeze (bit 61) of the UBox global control to the freeze
# (bit 63) after it; REG 0x611, the package energy's, from its last read before that unfreeze to its first after
# (where it freezes no UBox, likwid 5.4.1's CLOCK on the Sapphire Rapids family: around the cores' global control
# IA32_PERF_GLOBAL_CTRL 0x38F, its last read before the enable to its first after the write of 0);
# REG 0x391, Nehalem-EP's uncore global control (enable-style: EN_PC0-7 bits 0-7), from the last write that enables
# a counter to the write of 0 after it; REG 0x2ff0, the Sapphire Rapids family's U_MSR_PMON_GLOBAL_CTL, from the
# last write of 0 (frz_all clear: seed 001 L1290) to the write that sets frz_all (bit 0) after it
# (REG pci:BUS:DEV.FN:OFF, a counter of a PCI box that likwid starts and stops with its event controls, without a
# freeze (Sandy Bridge-EP's iMC channels): from its last write of 0 to the read of it after); REG 0xc00, Ivy
# Bridge-EP's U_MSR_PMON_GLOBAL_CTL, from its unfrz_all command (bit 29) to its frz_all (bit 31) after it (seed 002)
counted() {
	awk -v cpu="$1" -v reg="$2" '
	reg ~ /^pci:/ && $3 == "pci" && "pci:" substr($4, 6) ":" $5 == reg {
		if ($2 == "w" && $6 == "0x0") on = $1; else if ($2 == "r" && on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0xc00" && $3 == "msr" && $4 == cpu && $5 == "0xc00" && $2 == "w" {
		if ($6 == "0x20000000") on = $1; else if ($6 == "0x80000000" && on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0x2ff0" && $3 == "msr" && $4 == cpu && $5 == "0x2ff0" && $2 == "w" {
		if ($6 == "0x0") on = $1; else if (on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0x391" && $3 == "msr" && $4 == cpu && $5 == "0x391" && $2 == "w" {
		if ($6 != "0x0") on = $1; else if (on != "") { w = ($1 - on) / 1e9; on = "" } }
	$3 == "msr" && $4 == cpu && $5 == "0x700" && $2 == "w" {
		if ($6 == "0x2000000000000000") { un = $1; if (reg == "0x611") e0 = last }
		else if ($6 == "0x8000000000000000" && un != "") { if (reg == "0x700") w = ($1 - un) / 1e9; fr = $1; un = "" } }
	$3 == "msr" && $4 == cpu && $5 == "0x38f" && $2 == "w" && reg == "0x611" {
		if ($6 != "0x0") { c0 = last; cfr = "" } else if (c0 != "") cfr = $1 }
	$3 == "msr" && $4 == cpu && $5 == "0x611" && $2 == "r" {
		if (fr != "" && e0 != "") { w = ($1 - e0) / 1e9; fr = e0 = "" }
		if (cfr != "" && c0 != "") { cw = ($1 - c0) / 1e9; cfr = c0 = "" }
		last = $1 }
	END { if (w == "") w = cw; if (w != "") printf "%.6f", w }' "$HOSTDIR/trace"
}

likwid() { # NAME SPEC QEMU-CPU GROUP "METRIC;TRUTH0;TRUTH1"...
	name=$1 spec=$2 cpu=$3 group=$4
	shift 4
	machine "$name" "$spec"
	if [ "$spec" != "$need_of" ]; then # what the machine lacks, found once a machine
		need_of=$spec
		need=
		case $spec in spr* | emr* | gnr* | srf* | cwf* | bdx* | hsx* | nhm* | snbep* | ivbep*) ;; *) # (where it counts; no UBox global control before Skylake-SP)
			has msr 0 0x700 || need="$need, MSR 0x700 (the UBox global control likwid freezes with: issue 90 D2)"
			has msr 0 0xce || need="$need, MSR 0xce (PLATFORM_INFO: D5)" ;;
		esac
		start_host "$name" "$spec" || return
		# hwloc places a function by its NUMA node; likwid 5.2.2 walks hwloc's parents to a package with no check
		# (likwid issue 435): one with none (-1) is the whole machine's, hwloc's root, and likwid crashes
		nonode=0
		while read -r bdf _; do # the functions of the configuration space (/proc/bus/pci/devices: bus, devfn)
			devfn=$((0x${bdf#??}))
			f=$(printf '%s/0000:%s:%02x.%x/numa_node' "$HOSTDIR/root/sys/bus/pci/devices" "${bdf%??}" $((devfn >> 3)) $((devfn & 7)))
			[ "$(cat "$f" 2>/dev/null)" = -1 ] && nonode=$((nonode + 1))
		done <"$HOSTDIR/root/proc/bus/pci/devices"
		# (the Xeon E5 boards' uncore buses show none: their listings, -1, kept; likwid crashes there, below;
		# likwid 5.2.2 refuses Sapphire Rapids before it looks)
		case $spec in snbep* | ivbep*) # the Dell R720's listing gives its uncore buses their socket's node
			check "sim:$spec gives its uncore functions their socket's NUMA node, as the Dell R720 lists them ($nonode at -1; ivbep-r720-2s.source)" '[ "$nonode" = 0 ]' ;;
		esac
		case $spec in bdx* | hsx* | spr* | emr* | gnr* | srf* | cwf*) ;; *) [ "$nonode" -gt 0 ] &&
			need="$need, the uncore functions' NUMA node (D9: $nonode of them show -1 on sim:$spec, where a real board gives each its socket's)" ;;
		esac
		stop_host
	fi
	if [ -n "$need" ]; then
		skip "likwid-perfctr -g $group on sim:$spec: needs ${need#, }"
		return
	fi
	rm -rf "$HOSTDIR" "$W/$name.machine"
	start_host "$name" "$spec" || return
	peer "$W/$name.likwid" "$cpu" "$LUA" "$LIKWID" -M 0 -c S0:0@S1:0 -g "$group" -S 4s
	rc=$?
	stop_host
	# the release says what it knows: likwid 5.2.2 refuses Sapphire Rapids (its perfmon.c maps end at Ice Lake-SP),
	# 5.4.1 (Debian 13) knows it and is checked as on any other part
	why=$(grep -m1 "Unsupported .*Processor" "$W/$name.likwid.err")
	if [ -n "$why" ]; then
		case $spec in spr* | emr* | gnr* | srf* | cwf*) ;; *) no "likwid $LIKWID_VER refuses sim:$spec, which its releases know ($why)" ;; esac
		skip "likwid-perfctr -g $group on sim:$spec: likwid $LIKWID_VER does not know the part ($why)"
		return
	fi
	wrote=$(($(count msr_writes) + $(count pci_writes) + $(count mmio_writes)))
	swapped=0 disc=0
	case $LIKWID_VER:$spec in 5.4*:spr* | 5.4*:gnr* | 5.4*:srf*)
		# likwid 5.4.1 finds the Sapphire Rapids family's boxes in the discovery tables and numbers the tables'
		# sockets in the order their devices are found on the buses (intel_perfmon_uncore_discovery.c
		# perfmon_uncore_discovery: socket_id++, the device's NUMA node unread).  On a real board that is the
		# sockets' order (the DL380 Gen11's 09a7 at 75:03.1 and f2:03.1); sim:spr keeps D6's trap, socket 0's
		# device on its UBox bus fe above socket 1's 7e, so likwid's socket 0 is the simulator's socket 1: each
		# of its numbers is checked against the other socket's truth, over the window that socket's global
		# control (U_MSR_PMON_GLOBAL_CTL 0x2FF0, written by the other CPU) counted.  sim:gnr and sim:srf list
		# socket 0's device first (7e below fe), as Birch Stream does (00:03.1, 80:03.1): in order there
		disc=1
		case $spec in spr*)
			swapped=1
			UNFROZEN_WHY="likwid programs each table's boxes after freezing its own CPU's socket, which holds the other table (D6)" ;;
		esac
		# It writes no register where it finds no PMON DVSEC: its walk looks only at the first DVSEC of a
		# function, which real boards list first (0x100) and sim_disc.c too (test_peer_regs).  On Sierra Forest
		# likwid 5.4.1 turns its uncore off itself (topology.c: case SIERRAFORREST, supportUncore = 0, where
		# Granite Rapids' is 1), so it opens no uncore access and its MBOXes read '-'
		if [ "$wrote" = 0 ] && [ "$group" = MEM ]; then
			case $spec in
			srf*) skip "likwid $LIKWID_VER -g $group on sim:$spec: it writes no register (msr, pci and mmio writes 0) and its MBOXes read '-': likwid 5.4.1 does not support Sierra Forest's uncore (topology.c, SIERRAFORREST: supportUncore = 0)" ;;
			*) no "likwid $LIKWID_VER -g $group on sim:$spec programs its boxes (msr, pci and mmio writes 0: it found no PMON DVSEC, $(grep -m1 "ERROR" "$W/$name.likwid.err"))" ;;
			esac
			return
		fi ;;
	esac
	case $spec in
	bdx* | hsx*) # the uncore functions show no NUMA node (their buses 7f and ff: the listings of the Supermicro
		# X10DRi and Dell R730, tests/snapshots/field/bdx-*.source, -1 each), so hwloc puts them at its root,
		# and likwid 5.2.2 walks from there to a package with no check and crashes (pci_hwloc.c hwloc_pci_init;
		# likwid issue 435, on a Haswell-EP): the simulator keeps the boards' -1
		check "sim:$spec keeps the Xeon E5 boards' uncore functions without a NUMA node ($nonode of them at -1)" '[ "$nonode" -gt 0 ]'
		skip "likwid-perfctr -g $group on sim:$spec: likwid 5.2.2 is wrong on the boards' -1 (issue 90 D9; its issue 435): it stops with status $rc ($(grep -m1 -o "uncaught target signal [0-9]* ([A-Za-z ]*)" "$W/$name.likwid.err"))"
		return ;;
	esac
	# likwid 5.4.1 on the Sapphire Rapids family ends on SIGSEGV at a heap address once its tables are printed: its
	# discovery clean-up (perfmon_uncore_discovery_free) walks num_sockets entries, which perfmon_uncore_discovery
	# sets to the tables found plus one, one past the array it allocated (intel_perfmon_uncore_discovery.c, v5.4.1).
	# It munmaps the io_addr it finds there and writes NULL over it: what lies past the array is the heap's, so some
	# runs end 0, some on a fault (at a heap address, or at 0), some in glibc's abort on the heap it overwrote.  The
	# signal is known by the status (128 + 11, 128 + 6): qemu-user names it only where it could dump a core (ulimit -c)
	crash=
	case $rc in
	139) crash="SIGSEGV, $(grep -m1 -o "a fault at 0x[0-9a-f]*" "$W/$name.likwid.err" || echo "no fault address said")" ;;
	134) crash=$(grep -m1 -oE "(free|malloc|munmap_chunk)\(\): [a-z ]*|double free[a-z ]*|corrupted [a-z ]*" "$W/$name.likwid.err") ;;
	esac
	if [ "$disc" = 1 ] && [ -n "$crash" ] && grep -q "Runtime (RDTSC) \[s\] STAT" "$W/$name.likwid"; then
		skip "likwid $LIKWID_VER -g $group on sim:$spec: status $rc ($crash) after its results, outside the /dev/mem windows: its discovery clean-up reads one socket past its table (perfmon_uncore_discovery_free, num_sockets = tables + 1)"
	else
		check "likwid-perfctr -g $group on sim:$spec: exit 0, status $rc ($(tail -2 "$W/$name.likwid.err" | tr '\n' ' '))" '[ $rc -eq 0 ]'
	fi
	# likwid 5.2.2 opens a socket's PCI boxes on one bus, the bus of its SKX test device 8086:2042 (iMC channel 0,
	# 0a.2) that hwloc places on the socket's package (access_x86_pci.c access_x86_pci_init, pci_hwloc.c
	# hwloc_pci_init: by the function's NUMA node, not by bus order)
	m0=$(fn_bus 2042 0a.2 0) m1=$(fn_bus 2042 0a.2 1)
	sbox_uncounted=0
	case $group:$spec in
	MEM:skx*) # D6: the simulator puts socket 0 above socket 1 (a real board's UBox node map), so a peer that took
		# sockets in bus order would swap the two sockets' numbers below
		check "sim:$spec keeps D6's trap: socket 0's iMC 8086:2042 on bus $m0, above socket 1's $m1" \
			'[ -n "$m0" ] && [ -n "$m1" ] && [ $((0x$m0)) -gt $((0x$m1)) ]' ;;
	UPI:skx*) # D11: likwid looks for UPI 8086:2058 at 0e.0, 0f.0 and 10.0 of that same bus (perfmon_skylakeX_counters.h
		# skylakeX_pci_devices), where Skylake-SP has none: the UPI functions sit on stack 3's bus, the iMC's on stack
		# 2's (the Dell R440, tests/snapshots/field/skx-r440-ubox00: iMC 3a and ae, UPI 5d and d7; Linux
		# skx_uncore_pci_ids matches each by id and dev.fn on whatever bus); likwid prints '-' for a counter whose
		# device it did not find, and programs no UPI box
		u0=$(fn_bus 2058 0e.0 0) u1=$(fn_bus 2058 0e.0 1)
		check "sim:$spec keeps Skylake-SP's places: each socket's UPI 8086:2058 0e.0 on another bus than its iMC 8086:2042 (socket 0: $u0 and $m0, socket 1: $u1 and $m1; the R440: 5d and 3a, d7 and ae)" \
			'[ -n "$u0" ] && [ -n "$u1" ] && [ "$u0" != "$m0" ] && [ "$u1" != "$m1" ]'
		sbox_uncounted=$(awk -F'|' '$3 ~ /SBOX[0-9]C[0-9]/ && $2 !~ /STAT/ { n++; if ($4 ~ /^ *- *$/ && $5 ~ /^ *- *$/) d++ }
			END { print (n > 0 && n == d) ? 1 : 0 }' "$W/$name.likwid") ;;
	esac
	# likwid divides its counts by its own clock, the TSC over a rate it measures at start (timer.c getCpuSpeed:
	# the least of two TSC spans over the second 500 ms sleep's gettimeofday span: a sleep a loaded machine
	# overruns by 6 ms reads the rate 1.2 % low); so each metric is taken back to its counts (times the runtime
	# likwid printed) over the window the simulator counted them in (its trace, sim_host.c): the UBox global
	# control's unfreeze to its freeze (MSR 0x700 bits 61 and 63), or the package energy's reads before and after
	runtime=$(awk -F'|' 'index($2, "Runtime (RDTSC) [s]") && $2 !~ /STAT/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4; exit }' "$W/$name.likwid")
	cpus=$(awk -F'|' 'index($2, "Metric") && $3 ~ /HWThread/ { gsub(/[^0-9]/, "", $3); gsub(/[^0-9]/, "", $4); print $3, $4; exit }' "$W/$name.likwid")
	for m in "$@"; do
		metric=${m%%;*} t=${m#*;}
		t0=${t%;*} t1=${t#*;}
		reg=0x700
		case $spec in nhm*) reg=0x391 ;; spr* | emr* | gnr* | srf*) reg=0x2ff0 ;; esac
		# the Xeon E5's: each socket's iMC channel 0 (D16:F0, seed 000 L2162) and its first counter (0xA0)
		# (Sandy Bridge-EP has no global control: likwid starts each counter by its enable and zeroes it; on Ivy
		# Bridge-EP it unfreezes and freezes through U_MSR_PMON_GLOBAL_CTL 0xC00)
		case $spec in snbep*) reg="pci:BUS:10.0:0xa0" ch0=3cb0 ;; ivbep*) reg=0xc00 ;; esac
		# a package's energy: a core's register (MSR 0x611), which the discovery tables' socket order does not touch
		case $metric in Power*|Energy*) reg=0x611 ;; esac
		# its metric table: | NAME | CPU 0's | CPU 1's | (socket 0's first CPU, socket 1's)
		row=$(awk -F'|' -v k="$metric" 'index($2, k) && $2 !~ /STAT/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4; exit }' "$W/$name.likwid")
		v0=${row%% *} v1=${row##* }
		if [ "$sbox_uncounted" = 1 ]; then
			skip "likwid $group sim:$spec: $metric $v0 and $v1 where the truth is $t0 and $t1: likwid 5.2.2 is wrong on Skylake-SP (issue 90 D11): it looks for UPI at 0e.0/0f.0/10.0 of the iMC's bus ($m0, $m1), the UPI functions are on $u0 and $u1 as on a real board; its SBOX counters read '-' (pci_writes $(count pci_writes))"
			continue
		fi
		case $reg in pci:*)
			r0=$(echo "$reg" | sed "s/BUS/$(fn_bus $ch0 10.0 0)/") r1=$(echo "$reg" | sed "s/BUS/$(fn_bus $ch0 10.0 1)/")
			w0=$(counted - "$r0") w1=$(counted - "$r1") reg="$r0 and $r1" ;;
		*) w0=$(counted "${cpus% *}" $reg) w1=$(counted "${cpus#* }" $reg) ;;
		esac
		[ "$swapped" = 0 ] || [ "$reg" = 0x611 ] || { t=$t0 t0=$t1 t1=$t w=$w0 w0=$w1 w1=$w; }
		c0=$(awk -v v="$v0" -v r="${runtime% *}" -v w="$w0" 'BEGIN { if (w > 0) printf "%.6g", v * r / w }')
		c1=$(awk -v v="$v1" -v r="${runtime#* }" -v w="$w1" 'BEGIN { if (w > 0) printf "%.6g", v * r / w }')
		check "likwid $group sim:$spec: $metric socket 0 $v0 over its ${runtime% *} s, $c0 over the $w0 s the simulator counted (CPU ${cpus% *}, MSR $reg), against $t0; socket 1 $v1, $c1 over $w1 s against $t1 (1 %)" \
			'near "$c0" "$t0" && near "$c1" "$t1"'
	done
	case $group:$spec in
	MEM:snbep*) UNFROZEN_WHY="Sandy Bridge-EP has no global control (seed 000: a box freezes by its own control, or a counter stops with its enable bit 22): likwid starts each iMC counter by its control's enable, the box unfrozen, and stops it so after its reads" ;;
	MEM:icx*) UNFROZEN_WHY="the events it writes to Ice Lake-SP's MMIO channels (+0x840, +0x844) before any freeze; it zeroes their counters next and unfreezes through MSR 0x700, so the counts hold" ;;
	esac
	protocol "likwid -g $group sim:$spec"
}

# refused NAME SPEC QEMU-CPU WHAT PATTERN PROGRAM ARGS...: a peer that does not count a part its release does not know
# says so (PATTERN, in its output): a check that it does, and its own words quoted in a SKIP line
refused() {
	name=$1 spec=$2 cpu=$3 what=$4 pat=$5
	shift 5
	start_host "$name" "$spec" || return
	peer "$W/$name.out" "$cpu" "$@"
	stop_host
	said=$(cat "$W/$name.out" "$W/$name.out.err" | grep -m1 -o "$pat")
	check "$what on sim:$spec says it does not know the part ($(grep -v TCG "$W/$name.out.err" | tail -1))" '[ -n "$said" ]'
	[ -z "$said" ] || skip "$what on sim:$spec: not counted, in its own words: \"$said\""
}

# pcm-memory on two sockets (D6).  PCM 202302 finds its sockets in CPUID alone: it pins itself to each CPU of
# /proc/cpuinfo and takes the socket from leaf 0xB's x2APIC id above the SMT and core widths (cpucounters.cpp
# discoverSystemTopology, L1102-1330 of 202302); no environment variable or sysfs file stands in (every getenv of
# its src/: PCM_NO_AWS_WORKAROUND, PCM_IGNORE_ARCH_PERFMON, PCM_NO_RDT, PCM_USE_RESCTRL, PCM_KEEP_NMI_WATCHDOG,
# PCM_PRINT_TOPOLOGY, PCM_NO_PERF, PCM_USE_UNCORE_PERF, PCM_NO_MSR, PCM_NO_UNCORE_PMU_DISCOVERY,
# PCM_PRINT_UNCORE_PMU_DISCOVERY).  qemu-user answers leaf 0xB with its CPU's apic-id property (0 unless -cpu
# ...,apic-id=N), the same for every thread and every affinity, with widths 0: PCM alone sees one socket and stops
# (its M2M scan finds 2 buses; it falls back to CPUBUSNO at 00:05.0 0x108, and cannot open that function here).  So gdb, on
# qemu's gdbstub, answers leaf 0xB as the hardware does, each CPU its socket's x2APIC id (tests/peers/cpuid_topology.py,
# a breakpoint after the cpuid of PCM's pcm_cpuid(leaf, subleaf): the binary is not touched).  Then PCM's socket s
# is the s-th iMC bus in bus order (initSocket2Bus: forAllIntelDevices), here socket 1's first: the simulator keeps
# that trap (socket 0's buses above socket 1's, a real board's UBox node map), and PCM is wrong per socket.
pcm_memory2() { # NAME SPEC QEMU-CPU
	machine "$1" "$2"
	gdb=$(command -v gdb)
	# pcm_cpuid's cpuid: the one whose leaf and subleaf come from its arguments (mov %edi,%eax; mov %esi,%ecx)
	at=$(objdump -d --no-show-raw-insn "$PCM_MEMORY" 2>/dev/null | awk '{ i = $0; sub(/^ *[0-9a-f]+:\t/, "", i) }
		i ~ /^cpuid/ && p1 ~ /^mov +%esi,%ecx/ && p2 ~ /^mov +%edi,%eax/ { sub(/:.*/, "", $1); print $1 } { p2 = p1; p1 = i }')
	entry=$(readelf -h "$PCM_MEMORY" 2>/dev/null | awk '/Entry point/ { print $4 }')
	if [ -z "$gdb" ] || [ "$(echo $at | wc -w)" != 1 ] || [ -z "$entry" ]; then
		skip "pcm-memory on sim:$2: PCM takes its sockets from CPUID leaf 0xB, which qemu-user answers with one x2APIC id for every CPU (issue 90 D6), and gdb (scripts/install-deps) or PCM's one cpuid of a variable leaf (found: '$at') to answer it otherwise is missing"
		return
	fi
	start_host "$1" "$2" || return
	sock=$W/$1.gdb.sock
	PEER_HOST_DIR="$HOSTDIR" "$QEMU" ${QEMU_L:+-L "$QEMU_L"} -g "$sock" -cpu "$3$PCM_CPU" -E LD_PRELOAD="$PRELOAD" "$PCM_MEMORY" 16 -i=1 -nc \
		>"$W/$1.pcm" 2>"$W/$1.pcm.err" &
	p=$!
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 100 ] && kill -0 $p 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	timeout 120 "$gdb" -batch -ex "py SOCKET, PROGRAM, CPUID_AT, ENTRY, QEMU_PID, TOPOLOGY = '$sock', '$PCM_MEMORY', 0x$at, $entry, $p, '$HOSTDIR/root/sys/devices/system/cpu'" \
		-x "$SRC/tests/peers/cpuid_topology.py" >"$W/$1.gdb" 2>&1
	kill -0 $p 2>/dev/null && { kill -KILL $p; echo "(stopped: gdb ended first)" >>"$W/$1.pcm.err"; }
	wait $p
	rc=$?
	stop_host
	n=$(awk '/^Num sockets:/ { print $3 }' "$W/$1.pcm.err")
	check "pcm-memory on sim:$2, each CPU's x2APIC id its socket's (gdb: $(grep -c '^cpuid 0xb' "$W/$1.gdb") answers): exit 0 and 2 sockets seen ($n; $(grep -v TCG "$W/$1.pcm.err" | tail -1))" \
		'[ $rc -eq 0 ] && [ "$n" = 2 ]'
	# its last sample's "NODE s Mem Read (MB/s) : V" and "NODE s Mem Write(MB/s) : V"
	node() { awk -F'[:-]+' -v k="NODE $2 Mem $3" '{ for (i = 1; i < NF; i++) if (index($i, k)) v = $(i + 1) } END { print v + 0 }' "$1"; }
	r0=$(node "$W/$1.pcm" 0 Read) r1=$(node "$W/$1.pcm" 1 Read) w0=$(node "$W/$1.pcm" 0 Write) w1=$(node "$W/$1.pcm" 1 Write)
	# which socket's iMC bus comes first in bus order (fn_bus: by the function's NUMA node)
	m0=$(fn_bus 2042 0a.2 0) m1=$(fn_bus 2042 0a.2 1)
	lo=0
	[ $((0x$m0)) -lt $((0x$m1)) ] || lo=1
	hi=$((1 - lo))
	eval "rlo=\$RD$lo rhi=\$RD$hi wlo=\$WR$lo whi=\$WR$hi"
	rlo=$(mul "$rlo" 1e-6) rhi=$(mul "$rhi" 1e-6) wlo=$(mul "$wlo" 1e-6) whi=$(mul "$whi" 1e-6)
	check "pcm-memory sim:$2: its NODE 0 and NODE 1 are the sockets in iMC bus order (socket $lo's bus $(eval echo \$m$lo), socket $hi's $(eval echo \$m$hi)): read $r0 and $r1 MB/s against $rlo and $rhi, write $w0 and $w1 against $wlo and $whi (1 %)" \
		'near "$r0" "$rlo" && near "$r1" "$rhi" && near "$w0" "$wlo" && near "$w1" "$whi"'
	[ $lo = 0 ] || [ "$n" != 2 ] ||
		skip "pcm-memory sim:$2: PCM 202302 is wrong per socket (issue 90 D6): its NODE 0 reads $r0 MB/s where socket 0's truth is $(mul "$RD0" 1e-6) (its NODE 0 is the lowest iMC bus, socket 1's here; the board's UBox node map numbers them the other way)"
	protocol "pcm-memory sim:$2"
}

# pcm, PCM 202302's main tool, on two sockets: its memory and UPI tables, which it reads from the uncore (the iMC, the
# UPI links' RxL/TxL flits: cpucounters.cpp ServerPCICFGUncore::program).  It programs the cores' PMU beside them and
# asks CPUID leaf 0xA how many counters there are, which qemu-user answers with none ("Trying to program 4 general
# purpose counters with only 0 available"): gdb answers leaf 0xA as a Skylake-SP does (tests/peers/cpuid_topology.py,
# PMU_AT: the cpuids after "mov $0xa,%eax") beside leaf 0xB (D6, pcm_memory2), and sim_host keeps the core PMU's
# registers as plain values counting nothing (core_reads, core_writes), so its core columns (IPC, L3MISS, ...: core
# events) read 0 and are not judged.  PCM_NO_PERF=1, one of its own variables, makes it program the PMUs through
# the MSR device (it tries Linux perf first, which qemu-user has not).  16 s, as pcm-memory: its window is its own
# sleep, and TIME(ticks), the TSC over it, converts its bytes to a rate.
pcm_main() { # NAME SPEC QEMU-CPU IMC-ID IMC-DEV.FN LINK-ID LINK-DEV.FN: the functions PCM orders sockets by (D6)
	machine "$1" "$2"
	imc_id=$4 imc_fn=$5 upi_id=$6 upi_fn=$7
	case $2 in hsx* | bdx*) xpi=QPI ours_m=qpi_tx_bw,qpi_tx_util ;; *) xpi=UPI ours_m=upi_rx_bw,upi_tx_bw ;; esac
	gdb=$(command -v gdb)
	pcm=$PCM
	dis=$(objdump -d --no-show-raw-insn "$pcm" 2>/dev/null | awk '{ i = $0; sub(/^ *[0-9a-f]+:\t/, "", i); a = $1; sub(/:.*/, "", a) }
		i ~ /^cpuid/ && p1 ~ /^mov +%esi,%ecx/ && p2 ~ /^mov +%edi,%eax/ { print "b", a }
		i ~ /^cpuid/ && p1 ~ /^mov +\$0xa,%eax/ { print "a", a } { p2 = p1; p1 = i }')
	at=$(echo "$dis" | awk '$1 == "b" { print $2 }') pmu=$(echo "$dis" | awk '$1 == "a" { printf "0x%s,", $2 }')
	entry=$(readelf -h "$pcm" 2>/dev/null | awk '/Entry point/ { print $4 }')
	if [ -z "$gdb" ] || [ "$(echo $at | wc -w)" != 1 ] || [ -z "$pmu" ] || [ -z "$entry" ]; then
		skip "pcm (memory, UPI) on sim:$2: qemu-user answers CPUID leaf 0xA with no core PMU and leaf 0xB with one x2APIC id (D6), and gdb (scripts/install-deps) or pcm's cpuids to answer them otherwise are missing (leaf 0xB's: '$at', leaf 0xA's: '$pmu')"
		return
	fi
	start_host "$1" "$2" || return
	# PCM's socket k is the k-th iMC bus and the k-th link bus in bus order (initSocket2Bus, D6), where its CPUs say
	# otherwise: on sim:skx socket 1's (buses 02, 03 below 82, 83); Ice Lake-SP's by its UBox functions' buses (found
	# before PCM runs: on BDX they are read through the preload, and its trace is to end with PCM's accesses)
	for k in 0 1; do
		m=$(fn_bus $imc_id $imc_fn $k) u=$(fn_bus $upi_id $upi_fn $k)
		eval "imc$k=\$((0x$m)) upi$k=\$((0x$u))"
	done
	sock=$W/$1.gdb.sock csv=$W/$1.csv
	PCM_S=16
	# (SIGPIPE ignored: once gdb has detached, qemu 7.2's gdbstub still reports each signal of the program to the
	# closed connection, and the MMIO windows' faults (the preload's loads and stores, Ice Lake-SP's iMC) would end
	# qemu there; ignored, its write fails and it delivers the signal to the program)
	(trap '' PIPE; PEER_HOST_DIR="$HOSTDIR" exec "$QEMU" ${QEMU_L:+-L "$QEMU_L"} -g "$sock" -cpu "$3$PCM_CPU" -E LD_PRELOAD="$PRELOAD" -E PCM_NO_PERF=1 \
		"$pcm" $PCM_S -i=1 -nc -csv="$csv") >"$W/$1.pcm" 2>"$W/$1.pcm.err" &
	p=$!
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 100 ] && kill -0 $p 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	# gdb answers until PCM has read its topology and core PMU, then detaches (cpuid_topology.py); pcm runs on
	timeout 120 "$gdb" -batch -ex "py SOCKET, PROGRAM, CPUID_AT, ENTRY, QEMU_PID, TOPOLOGY, PMU_AT = '$sock', '$pcm', 0x$at, $entry, $p, '$HOSTDIR/root/sys/devices/system/cpu', ($pmu)" \
		-x "$SRC/tests/peers/cpuid_topology.py" >"$W/$1.gdb" 2>&1
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt 900 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 $p 2>/dev/null && { kill -KILL $p; echo "(stopped after $((i / 10)) s more)" >>"$W/$1.pcm.err"; }
	wait $p
	rc=$?
	ours "$SIM" "$W/$1.sim" $ours_m
	stop_host
	n=$(awk '/^Num sockets:/ { print $3 }' "$W/$1.pcm.err")
	v=$(awk -F: '/^Core PMU \(perfmon\) version:/ { print $2 + 0 }' "$W/$1.pcm.err")
	g=$(awk -F: '/^Number of core PMU generic/ { print $2 + 0 }' "$W/$1.pcm.err")
	f=$(awk -F: '/^Number of core PMU fixed counters:/ { print $2 + 0 }' "$W/$1.pcm.err")
	# (3 general counters, not 4: qemu's CPUID says hypervisor, and PCM then keeps one back, its AWS workaround)
	check "pcm on sim:$2 (gdb: $(grep -c '^cpuid 0xb' "$W/$1.gdb") leaf 0xB answers; $(tail -1 "$W/$1.gdb" | tr -d '\n')): exit 0, 2 sockets, core PMU version $v with $g general and $f fixed counters ($(grep -v TCG "$W/$1.pcm.err" | tail -1))" \
		'[ $rc -eq 0 ] && [ "$n" = 2 ] && [ "$v" = 4 ] && [ "$f" = 3 ] && [ -s "$csv" ]'
	# its CSV (after lines it prints before it): a row of sections, a row of names, a row of values; COLUMN SECTION's
	# value
	col() { awk -F, -v sec="$2" -v name="$1" '$1 ~ /^(System|Date)/ && !h1 { for (i = 1; i <= NF; i++) s[i] = $i; h1 = 1; next }
		h1 && !h2 { for (i = 1; i <= NF; i++) c[i] = $i; h2 = 1; next }
		h2 { for (i = 1; i <= NF; i++) if (s[i] == sec && c[i] == name) { print $i + 0; exit } }' "$csv"; }
	# SECTION's values summed over its links (UPI0, UPI1 ... : three on SKX and ICX, four on SPR; QPI0, QPI1 on BDX),
	# and how many (nlinks)
	links() { awk -F, -v sec="$1" -v n="$2" '$1 ~ /^(System|Date)/ && !h1 { for (i = 1; i <= NF; i++) s[i] = $i; h1 = 1; next }
		h1 && !h2 { for (i = 1; i <= NF; i++) c[i] = $i; h2 = 1; next }
		h2 { for (i = 1; i <= NF; i++) if (s[i] == sec && c[i] ~ /^[UQ]PI[0-9]$/) { v += $i; k++ }; print n ? k + 0 : v + 0; exit }' "$csv"; }
	nlinks() { links "$1" 1; }
	secs=$(awk -v t="$(col 'TIME(ticks)' System)" -v hz=$TSC 'BEGIN { print t * 1e6 / hz }') # its TSC, in millions
	mlo=0 ulo=0
	[ $imc0 -lt $imc1 ] || mlo=1
	[ $upi0 -lt $upi1 ] || ulo=1
	echo "  pcm sim:$2: a window of $secs s (its TIME(ticks) over $TSC Hz); its socket 0 is socket $mlo's iMC and socket $ulo's $xpi (bus order)"
	# PCM divides each socket's counts by its TSC window, while the simulator counted them over the span between
	# its reads of them, which a loaded machine (and gdb on qemu's stub) moves apart: each count is taken over its
	# own span from the trace, the widest gap between two reads of the function it is read from (the link's; the
	# iMC's where its counters are PCI registers) or else of its socket's UBox UCLK fixed counter (0x704; 0x2FDF on
	# SPR, seed 001 Table 1-8) on a CPU of it; fix: PCM's window over that span
	ureg=0x704
	case $2 in spr*) ureg=0x2fdf ;; esac
	uspan() { awk -v cpu="$1" -v reg="$ureg" '$3 == "msr" && $2 == "r" && $4 == cpu && $5 == reg {
		if (last != "" && $1 - last > best) best = $1 - last; last = $1 } END { if (best > 0) printf "%.6f", best / 1e9 }' "$HOSTDIR/trace"; }
	fspan() { awk -v f="$(printf '0000:%02x:%s' "$1" "$2")" '$3 == "pci" && $2 == "r" && $4 == f {
		if (last != "" && $1 - last > best) best = $1 - last; last = $1 } END { if (best > 0) printf "%.6f", best / 1e9 }' "$HOSTDIR/trace"; }
	over() { awk -v s="$secs" -v w="$1" 'BEGIN { print (w > 0 ? s / w : 1) }'; }
	imc_pci=1
	case $2 in icx* | spr*) imc_pci=0 ;; esac # (their iMC channels are MMIO; $imc_id is the UBox that places them)
	for s in 0 1; do
		eval "b=\$imc$s l=\$upi$s"
		u=$(uspan $s) ls=$(fspan "$l" "$upi_fn")
		[ $imc_pci = 1 ] && ms=$(fspan "$b" "$imc_fn") || ms=$u
		eval "fixu$s=\$(over \"\$u\") fixm$s=\$(over \"\$ms\") fixl$s=\$(over \"\$ls\")"
		echo "  pcm sim:$2: the simulator counted socket $s's memory over ${ms:-?} s, its $xpi over ${ls:-?} s, its UCLK over ${u:-?} s (the trace)"
	done
	# the truth a socket: memory (profile2), UPI received and sent (test_peers' profile: socket 0 4.0e9 and 3.0e9,
	# socket 1 3.0e9 and 4.0e9).  What PCM shows as sent is every TxL flit, data and not (TxL_FLITS 0x9F: DATA,
	# LLCRD and PROTHDR in all three slots, seed 001 Table 2-230), over 3 and at 172 bits (cpucounters.h
	# getOutgoingQPILinkUtilization, getBytesPerFlit: 172/8 bytes a flit): the flits that fill each link to the
	# profile's link use (upi_link_util, of 3 a UPI clock, 1e9 Hz by default: doc/user-guide.md), so 21.5e9 B/s x
	# the use a link, on every link PCM lists (3 on SKX and ICX, 4 on SPR).
	# On QPI (Broadwell-EP) PCM 202302 shows no incoming data (incomingQPITrafficMetricsAvailable names neither
	# Haswell-EP nor Broadwell-EP), and as sent every TxL_FLITS_G0 flit, DATA and NON_DATA, at 8 bytes
	# (getBytesPerFlit): what fills each link to the profile's link use (qpi_link_util, of 2 flits a QPI clock,
	# 1e9 Hz by default: doc/user-guide.md), 16e9 B/s x the use a link, on the board's two links
	RX0=4.0e9 TX0=3.0e9 RX1=3.0e9 TX1=4.0e9 UTIL0=$QPI_UTIL0 UTIL1=$QPI_UTIL1
	for k in 0 1; do
		sm=$k su=$k
		[ $mlo = 0 ] || sm=$((1 - k))
		[ $ulo = 0 ] || su=$((1 - k))
		eval "rd=\$RD$sm wr=\$WR$sm rx=\$RX$su tx=\$TX$su util=\$UTIL$su fm=\$fixm$sm fl=\$fixl$su"
		r=$(awk -v v="$(col READ "Socket $k")" -v s="$secs" -v f="$fm" 'BEGIN { print v * 1e9 / s * f }')
		w=$(awk -v v="$(col WRITE "Socket $k")" -v s="$secs" -v f="$fm" 'BEGIN { print v * 1e9 / s * f }')
		in=$(awk -v a="$(links SKT${k}dataIn)" -v s="$secs" -v f="$fl" 'BEGIN { print a * 1e6 / s * f }')
		out=$(awk -v a="$(links SKT${k}trafficOut)" -v s="$secs" -v f="$fl" 'BEGIN { print a * 1e6 / s * f }')
		nl=$(nlinks SKT${k}trafficOut)
		tout=$(awk -v u="$util" -v n="$nl" 'BEGIN { print n * 21.5e9 * u }')
		check "pcm sim:$2: its socket $k READ $r B/s and WRITE $w B/s against socket $sm's truth $rd and $wr (1 %)" \
			'near "$r" "$rd" && near "$w" "$wr"'
		if [ $xpi = QPI ]; then
			tout=$(awk -v u="$util" -v n="$nl" 'BEGIN { print n * 16e9 * u }')
			check "pcm sim:$2: its socket $k shows no QPI incoming data, as PCM 202302 shows none on Broadwell-EP" \
				'! grep -q "SKT${k}dataIn" "$csv"'
			otx=$(value "$W/$1.sim" $su qpi_tx_bw) outil=$(value "$W/$1.sim" $su qpi_tx_util)
			check "pcm sim:$2: its socket $k QPI outgoing $out B/s on $nl links (the board's 2) against socket $su's link use $util as PCM counts it ($tout); uncore stat's qpi_tx_bw $otx GB/s against its $tx B/s and qpi_tx_util $outil % (1 %)" \
				'[ "$nl" = 2 ] && near "$out" "$tout" && near "$otx" "$(mul "$tx" 1e-9)" && near "$outil" "$(mul "$util" 100)"'
			continue
		fi
		orx=$(value "$W/$1.sim" $su upi_rx_bw) otx=$(value "$W/$1.sim" $su upi_tx_bw)
		check "pcm sim:$2: its socket $k UPI incoming data $in B/s against socket $su's upi_rx $rx, uncore stat's $orx GB/s (1 %)" \
			'near "$in" "$rx" && near "$orx" "$(mul "$rx" 1e-9)"'
		check "pcm sim:$2: its socket $k UPI outgoing $out B/s on $nl links against socket $su's link use $util as PCM counts it ($tout), uncore stat's upi_tx $otx GB/s against its $tx B/s (1 %)" \
			'near "$out" "$tout" && near "$otx" "$(mul "$tx" 1e-9)"'
	done
	# its LLC read-miss latency (LLCRDMISSLAT: the CBos' or CHAs' TOR occupancy over inserts of data-read misses,
	# over its uncore clock, the UBox's fixed counter, a second: cpucounters.h getLLCReadMissLatency) and that
	# clock (UncFREQ), MSR units read on a CPU of the socket, so socket k's (the CPUs gdb gives it): the profile's
	# latency and uncore_clock_hz (2.4e9).  On SPR both read inf and 0 while the simulated UCLK fixed counter
	# stopped with the UBox unit's freeze, which PCM leaves on (test_peer_regs test_spr_uclk)
	# (none on a Skylake-SP of more than one socket: LLCReadMissLatencyMetricsAvailable, SKX with num_sockets 1)
	for k in 0 1; do
		eval "lat=\$LAT$k fix=\$fixu$k"
		# (the latency is over the uncore clock's rate, the clock a count over PCM's window: both taken to the span)
		l=$(awk -v v="$(col SKT$k 'LLCRDMISSLAT (ns)')" -v f="$fix" 'BEGIN { print v / f }')
		f=$(awk -v v="$(col SKT$k 'UncFREQ (Ghz)')" -v f="$fix" 'BEGIN { print v * f }')
		case $2 in
		skx*) check "pcm sim:$2: its socket $k uncore clock $f GHz against 2.4 (1 %), no LLC read-miss latency (PCM 202302 shows none on a Skylake-SP of two sockets)" \
			'near "$f" 2.4 && ! grep -q LLCRDMISSLAT "$csv"' ;;
		*) check "pcm sim:$2: its socket $k LLC read-miss latency $l ns against socket $k's $lat, its uncore clock $f GHz against 2.4 (1 %)" \
			'near "$l" "$lat" && near "$f" 2.4' ;;
		esac
	done
	# its energy, the system's (its CSV has no socket's): each socket's package and DRAM energy (MSR 0x611, 0x619)
	# over its snapshots' window (tspan)
	# (PCM 202302 counts the DRAM energy of Haswell-EP to Ice Lake-SP in units of 15.3 uJ, getDRAMConsumedJoules:
	# the datasheet's rounding of the 2^-16 J that Linux (rapl.c, the Haswell server quirk) and the simulator count
	# in, 0.27 % more; elsewhere in the unit of MSR 0x606)
	du=1
	case $2 in hsx* | bdx* | skx* | icx*) du=$(awk 'BEGIN { print 15.3e-6 * 65536 }') ;; esac
	pj=$(col 'Proc Energy (Joules)' System) dj=$(col 'DRAM Energy (Joules)' System)
	p0=$(tspan 0 0x611 $PCM_S) p1=$(tspan 1 0x611 $PCM_S) d0=$(tspan 0 0x619 $PCM_S) d1=$(tspan 1 0x619 $PCM_S)
	tp=$(awk -v a="$p0" -v b="$p1" 'BEGIN { print 150 * a + 95 * b }') td=$(awk -v a="$d0" -v b="$d1" -v u=$du 'BEGIN { print (11.4 * a + 9.2 * b) * u }')
	check "pcm sim:$2: its energy, package $pj J and DRAM $dj J, against the profile's 150 and 95 W, 11.4 and 9.2 W over the windows the simulator counted them ($p0, $p1; $d0, $d1 s; DRAM in PCM's unit, x $du): $tp and $td J (1 %)" \
		'near "$pj" "$tp" && near "$dj" "$td"'
	[ $mlo = 0 ] && [ $ulo = 0 ] ||
		skip "pcm sim:$2: PCM 202302 is wrong per socket (issue 90 D6): its socket 0's memory is socket $mlo's, its $xpi socket $ulo's (the lowest iMC and $xpi buses; the board's UBox node map numbers them the other way)"
	echo "  pcm sim:$2: the core PMU's registers, kept apart by sim_host: core_reads $(count core_reads), core_writes $(count core_writes)"
	core_regs pcm
	protocol "pcm sim:$2"
}

# Besides the registers protocol() names (issue 90), pcm and pcm-power read core registers no uncore count needs:
# core C3, C6 and C7 residency 0x3FC-0x3FE (MSR_CORE_C3/C6/C7_RESIDENCY; C3 and C7 on ICX and SPR), thermal status
# 0x19C (IA32_THERM_STATUS), the SMI count 0x34 (types.h): named here and taken off COUNTS before protocol() judges
# the rest
core_regs() { # TOOL
	awk -v t="$1" 'BEGIN { why["0x3fd:"] = "core C6 residency"; why["0x3fc:"] = "core C3 residency"; why["0x3fe:"] = "core C7 residency"
		why["0x19c:"] = "core thermal status"; why["0x34:"] = "SMI count" }
		$1 == "refused" && $6 in why { n += $2; print "  " t " sim: refused " $2 " x MSR " $6 " " why[$6] " (a core register)"; next }
		$1 == "bad_accesses" { b = $2; next } { print > "/dev/stderr" } END { print "bad_accesses " b - n > "/dev/stderr" }' \
		"$COUNTS" 2>"$COUNTS.core"
	COUNTS=$COUNTS.core
}

if [ -z "$QEMU" ]; then
	skip "the peers: no qemu-x86_64 (Debian's qemu-user, scripts/install-deps): PCM and likwid need a CPUID that says Intel"
else
	if [ -z "$PCM_MEMORY" ]; then
		skip "pcm-memory: $PCM_WHY"
	else
		# PCM 202302 knows SKX, ICX, SPR and BDX; qemu 7.2's models by CPUID (ICX-SP is model 106, its
		# Icelake-Server 134; no Sapphire Rapids model: Icelake-Server as model 143 stepping 8); one core a socket,
		# since qemu-user's CPUID gives every CPU one APIC id (PCM's topology otherwise counts one core of many
		# threads, and pcm-pcie refuses it as offlined cores)
		pcm_memory pm_skx skx,sockets=1,cores=1 Skylake-Server 1
		pcm_memory pm_icx icx,sockets=1,cores=1 Icelake-Server,model=106 1
		pcm_memory pm_spr spr,sockets=1,cores=1 Icelake-Server,model=143,stepping=8 1
		pcm_memory pm_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1 1
		# the Xeon E5 generations before it and Cascade Lake (issue 97): qemu 7.2's client models as the server
		# parts' numbers (Sandy Bridge-EP 45, Ivy Bridge-EP 62, Haswell-EP 63); Cascadelake-Server is model 85
		# stepping 6, which PCM takes for CLX
		pcm_memory pm_snbep snbep,sockets=1,cores=1 SandyBridge,model=45 1
		pcm_memory pm_ivbep ivbep,sockets=1,cores=1 IvyBridge,model=62 1
		pcm_memory pm_hsx hsx,sockets=1,cores=1 Haswell,model=63 1
		pcm_memory pm_clx clx,sockets=1,cores=1 Cascadelake-Server 1
		# what PCM 202302's pcm-memory does not know: Nehalem-EP (its memory view is pcm's, which needs the core PMU
		# qemu-user's CPUID leaf 0xA does not give) and Emerald Rapids (model 207, after its release)
		refused pr_nhm nhm,sockets=1,cores=1 "Nehalem$PCM_CPU" "pcm-memory $PCM_VER" "Unsupported processor model ([0-9]*)" \
			"$PCM_MEMORY" 2 -i=1 -nc
		refused pr_emr emr,sockets=1,cores=1 "Icelake-Server,model=207$PCM_CPU" "pcm-memory $PCM_VER" \
			"Unsupported processor model ([0-9]*)" "$PCM_MEMORY" 2 -i=1 -nc
	fi
	if [ -n "$PCM_PCIE" ]; then
		pcm_pcie pp_skx skx,sockets=1,cores=1,$IO_DEVS Skylake-Server
		pcm_pcie pp_icx icx,sockets=1,cores=1,$IO_DEVS Icelake-Server,model=106
		pcm_pcie pp_spr spr,sockets=1,cores=1,$IO_DEVS_SPR Icelake-Server,model=143,stepping=8
		pcm_pcie pp_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1
	else skip "pcm-pcie: $PCM_WHY"; fi
	if [ -n "$PCM_IIO" ]; then
		pcm_iio pi_skx skx,sockets=1,cores=1,$IO_DEVS Skylake-Server 1
		pcm_iio pi_icx icx,sockets=1,cores=1,$IO_DEVS Icelake-Server,model=106 1
		pcm_iio pi_spr spr,sockets=1,cores=1,$IO_DEVS_SPR Icelake-Server,model=143,stepping=8 2
		pcm_iio pi_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1
	else skip "pcm-iio: $PCM_WHY"; fi
	# pcm (the main tool): memory and UPI on two sockets, with gdb answering CPUID leaves 0xA and 0xB
	if [ -n "$PCM_MEMORY" ]; then
		pcm_main pcm_skx2 skx,sockets=2,cores=1 Skylake-Server 2042 0a.2 2058 0e.0
		# Ice Lake-SP: the iMC's MMIO windows found from the UBox's 3451 (00.1), UPI 3441 at 02.1-04.1
		pcm_main pcm_icx2 icx,sockets=2,cores=1 Icelake-Server,model=106 3451 00.1 3441 02.1
		# Sapphire Rapids: the same places, its own ids (3251, UPI 3241 at 01.1-04.1)
		pcm_main pcm_spr2 spr,sockets=2,cores=1 Icelake-Server,model=143,stepping=8 3251 00.1 3241 01.1
		# Broadwell-EP: iMC 0's channel 0 (6fb0 at 14.0), QPI link 0 (6f32 at 08.2), as the X10DRi's listing has them
		pcm_main pcm_bdx2 bdx,sockets=2,cores=1 Broadwell,model=79,stepping=1 6fb0 14.0 6f32 08.2
	else skip "pcm: $PCM_WHY"; fi
	if [ -z "$LIKWID" ] || [ -z "$LUA" ]; then
		skip "likwid-perfctr: likwid (and lua5.3) are not installed (Debian's likwid, scripts/install-deps)"
	else
		# two sockets: with one, hwloc places every uncore function at its root and likwid 5.2.2 crashes (issue 435)
		likwid lw_mem skx,sockets=2,cores=2 Skylake-Server MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_upi skx,sockets=2,cores=2 Skylake-Server UPI \
			"Received data bandwidth [MByte/s];4000;3000" "Sent data bandwidth [MByte/s];3000;4000"
		# one more group, of an uncore box likwid 5.2.2 reaches on SKX: CLOCK, the UBox's UCLK fixed counter (MSR
		# 0x703/0x704, UNCORE_CLOCK) over its run, and each package's RAPL energy (0x611) over it
		likwid lw_clock skx,sockets=2,cores=2 Skylake-Server CLOCK "Uncore Clock [MHz];2400;2400" "Power [W];150;95"
		# Ice Lake-SP: the iMC's MMIO channels (likwid's perfmon_icelakeX), the UBox's clock and RAPL
		likwid lw_icx_mem icx,sockets=2,cores=2 Icelake-Server,model=106 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_icx_clock icx,sockets=2,cores=2 Icelake-Server,model=106 CLOCK "Uncore Clock [MHz];2400;2400" "Power [W];150;95"
		# Cascade Lake (Skylake-SP's uncore, which likwid 5.2.2 takes it for: model 85 stepping 6)
		likwid lw_clx clx,sockets=2,cores=2 Cascadelake-Server MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# where likwid 5.2.2 does not count: Sapphire Rapids (unknown to it; 5.4.1 counts it), Broadwell-EP (the
		# boards' NUMA nodes)
		likwid lw_spr spr,sockets=2,cores=2 Icelake-Server,model=143,stepping=8 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_bdx bdx,sockets=2,cores=2 Broadwell,model=79,stepping=1 MEM
		likwid lw_hsx hsx,sockets=2,cores=2 Haswell,model=63 MEM # (the R730's and X10DRi's -1, as on Broadwell-EP)
		# Nehalem-EP (seed 003): the uncore's eight MSR counters (0x3b0) under the global control 0x391, which the
		# harness's core PMU registers must leave to the uncore there (sim_host.c uncore_owned)
		likwid lw_nhm nhm,sockets=2,cores=2 Nehalem MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# Sandy Bridge-EP and Ivy Bridge-EP (seeds 000, 002): the iMC channels' PCI boxes, on the uncore buses the
		# Dell R720 gives a NUMA node (D9); qemu 7.2's client models as the server parts' numbers
		likwid lw_snbep snbep,sockets=2,cores=2 SandyBridge,model=45 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_ivbep ivbep,sockets=2,cores=2 IvyBridge,model=62 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
	fi
	if [ -n "$PCM_MEMORY" ]; then pcm_memory2 pm_skx2 skx,sockets=2,cores=1 Skylake-Server; fi
fi

# ---- Debian 13's peers (issue 97): PCM 202502, likwid 5.4.1 and qemu 10, whose CPU models include Sapphire
# Rapids, Granite Rapids and Sierra Forest, from the host or a trixie root beside the build, serving the same
# simulated machines through the same harness ----
peer_release trixie
if [ -n "$RELEASE_WHY" ]; then
	skip "Debian 13's peers: $RELEASE_WHY"
elif [ -z "$QEMU" ]; then
	skip "Debian 13's peers: no qemu-x86_64 in the $RELEASE root"
else
	echo "Debian 13's peers ($RELEASE${QEMU_L:+, a root beside the build}): PCM $PCM_VER, likwid $LIKWID_VER, $("$QEMU" --version | head -1)"
	if [ -z "$PCM_MEMORY" ]; then skip "pcm-memory of Debian 13: $PCM_WHY"; else
		# PCM 202502 finds the Sapphire Rapids family's units in its discovery tables (uncore_pmu_discovery.cpp), the
		# iMC channels among them; qemu 10's SapphireRapids model, as model 207 for Emerald Rapids (it has none)
		pcm_memory pm13_spr spr,sockets=1,cores=1 SapphireRapids 1
		pcm_memory pm13_emr emr,sockets=1,cores=1 SapphireRapids,model=207 1
		# Clearwater Forest (model 221, qemu 10's ClearwaterForest) is after PCM 202502
		refused pr13_cwf cwf,sockets=1,cores=1 "ClearwaterForest$PCM_CPU" "pcm-memory $PCM_VER" \
			"Unsupported processor model ([0-9a-fx]*)" "$PCM_MEMORY" 2 -i=1 -nc
		# Granite Rapids and Sierra Forest (Birch Stream): PCM 202502 takes their iMC channels from the UBox 3251 at
		# 00.1 of the UBox bus, SCF BAR (0xD0, 0xD4) + 0x24E800 + 0x4000 a channel, as many as it finds B2CMIs 324a at
		# 05.1-06.5, and its CHAs from MSR 0x3FED (platforms/gnr/sim.c); qemu 10's own models
		pcm_memory pm13_gnr gnr,sockets=1,cores=1 GraniteRapids 1
		pcm_memory pm13_srf srf,sockets=1,cores=1 SierraForest 1
		# a mistake planted in the simulated board: the UBox 3251's SCF BAR a page off (fault scfbar,
		# platforms/gnr/sim.c) while the discovery table still names the channels; the library reads the table and
		# counts, PCM reads the channels through the SCF BAR, as on a real Birch Stream, and must not
		start_host pm13_gnr_bad gnr,sockets=1,cores=1,fault=scfbar:imc:0 && {
			peer "$W/pm13_gnr_bad.pcm" "GraniteRapids$PCM_CPU" "$PCM_MEMORY" 4 -i=1 -nc
			ours "$SIM" "$W/pm13_gnr_bad.sim" mem_bw_read
			stop_host
			r=$(awk -F'[:-]+' '/SKT +0 Mem Read/ { v = $3 } END { print v + 0 }' "$W/pm13_gnr_bad.pcm")
			o=$(value "$W/pm13_gnr_bad.sim" 0 mem_bw_read)
			check "pcm-memory $PCM_VER catches a planted board mistake (sim:gnr, its SCF BAR a page off the table's channels): it reads $r MB/s, not the truth $(mul "$RD0" 1e-6); uncore stat, from the table, $o GB/s" \
				'grep -q "SKT *0 Mem Read" "$W/pm13_gnr_bad.pcm" && ! near "$r" "$(mul "$RD0" 1e-6)" && near "$o" "$(mul "$RD0" 1e-9)"'
		}
	fi
	# pcm-pcie 202502: the CHAs' TOR inserts of the IO queue by opcode (pcm-pcie.h EagleStreamPlatform), as 202302
	if [ -z "$PCM_PCIE" ]; then skip "pcm-pcie of Debian 13: $PCM_WHY"; else
		pcm_pcie pp13_spr spr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids
		pcm_pcie pp13_emr emr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids,model=207
	fi
	# pcm-power 202502: each part's package and DRAM energy
	if [ -z "$PCM_POWER" ]; then skip "pcm-power of Debian 13: $PCM_WHY"; else
		pcm_power pw13_spr spr,sockets=1,cores=1 SapphireRapids
		pcm_power pw13_emr emr,sockets=1,cores=1 SapphireRapids,model=207
		pcm_power pw13_gnr gnr,sockets=1,cores=1 GraniteRapids
		pcm_power pw13_srf srf,sockets=1,cores=1 SierraForest
	fi
	# pcm-iio 202502: the IIO stacks' inbound and outbound bytes by port, as 202302's on Sapphire Rapids
	if [ -z "$PCM_IIO" ]; then skip "pcm-iio of Debian 13: $PCM_WHY"; else
		pcm_iio pi13_spr spr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids 2
		pcm_iio pi13_emr emr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids,model=207 2
	fi
	if [ -z "$LIKWID" ] || [ -z "$LUA" ]; then skip "likwid of Debian 13: not in the $RELEASE root"; else
		# likwid 5.4.1 on Sapphire Rapids: the iMC channels' MMIO boxes from the discovery tables, under the
		# global control 0x2FF0 (its sockets in the tables' bus order, D6, above)
		likwid lw13_spr spr,sockets=2,cores=2 SapphireRapids MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# each package's energy (RAPL, MSR 0x611) in its CLOCK group: 5.4.1's has no uncore clock on Sapphire Rapids,
		# and reads its UBOX0 through MSR 0 on Granite Rapids (above: 0, not checked)
		likwid lw13_spr_clock spr,sockets=2,cores=2 SapphireRapids CLOCK "Power [W];150;95"
		likwid lw13_gnr_clock gnr,sockets=2,cores=2 GraniteRapids CLOCK "Power [W];150;95"
		# likwid 5.4.1 does not know Emerald Rapids ("Unsupported Intel Processor")
		likwid lw13_emr emr,sockets=2,cores=2 SapphireRapids,model=207 MEM
		# nor Clearwater Forest
		likwid lw13_cwf cwf,sockets=2,cores=2 ClearwaterForest MEM
		# Granite Rapids: the iMC channels of the tables (at the SCF BAR), its sockets in order; Sierra Forest: below
		likwid lw13_gnr gnr,sockets=2,cores=2 GraniteRapids MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw13_srf srf,sockets=2,cores=2 SierraForest MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
