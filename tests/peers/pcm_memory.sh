# Sourced by peer_test.sh: pcm-memory's bandwidth on one socket and, gdb answering CPUID, two (D6); a release's
# refusal of a part it does not know

# pcm-memory NAME SPEC QEMU-CPU SHARE: its memory bandwidth of socket 0, SHARE the part of the truth its
# release counts (1 everywhere: on ICX PCM counts 2 channels a controller, boxes 3m and 3m+1, the 8 that the
# simulated SR630 V2 populates and its traffic moves on, D1 settled in doc/memory.md)
pcm_memory() {
	start_host "$1" "$2" || return
	peer "$W/$1.pcm" "$3$PCM_CPU" "$PCM_MEMORY" 4 -i=1 -nc
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
	# PCM divides by its window, the simulator counted each channel over its own span (memspan), which a loaded
	# machine moves apart (+1.2 % on sim:clx, -2.1 % on sim:spr seen with the pieces side by side); the traffic is
	# spread evenly over the populated channels (common/sim/sim_dimms.c), so the figure is taken to their mean span
	read -r win cnt nch cmin cmax unp <<-EOF
	$(memspan 4 $(imc_boxes "$2" 0))
	EOF
	fix=$(awk -v f="$fix" -v w="$win" -v c="$cnt" 'BEGIN { print (c > 0 ? f * w / c : 0) }')
	tr=$(mul "$RD0" "$4e-6") tw=$(mul "$WR0" "$4e-6")
	cr=$(mul "$r" "$fix") cw=$(mul "$w" "$fix")
	echo "  pcm-memory sim:$2: read $r MB/s, write $w MB/s; its estimated TSC rate $est Hz (0xCE modelled: $D5); its window $win s, the simulator's $nch channels counted $cnt s of it ($cmin to $cmax; the trace), so $cr and $cw at the TSC's over what they counted"
	check "pcm-memory sim:$2: socket 0 read $cr MB/s against the truth $tr (1 %), each channel's count over the span the simulator counted it ($unp channels' freezing not followed)" \
		'[ "$unp" = 0 ] && near "$cr" "$tr"'
	check "pcm-memory sim:$2: socket 0 write $cw MB/s against the truth $tw (1 %), over the same spans" '[ "$unp" = 0 ] && near "$cw" "$tw"'
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

# memspan NOMINAL BOX...: pcm-memory's window and the time the simulator counted the iMC channels over, from the trace:
# "WINDOW COUNTED CHANNELS LO HI UNPAIRED" (seconds): PCM's window; the mean, over the channels among BOX... (PCI
# functions, pages of MMIO registers: imc_boxes) whose counters changed over it, of the time each counted; how many;
# the least and the most; how many channels' control writes do not pair (left out).  PCM's main thread (the one that
# reads MSR 0x10 on CPU 0, its time stamp: PCM_CPU in peers.sh) reads its boxes, freezing each around its reads
# (getServerUncoreCounterState), then its time stamp (BeforeTime); it sleeps, takes its time stamp (AfterTime: the
# read right after calibratedSleep's own two, the third of three in a row) and reads its boxes again.  202502 on SPR
# and EMR reads them twice in the middle and twice at the end too, its counts the last read's (pcm-memory.cpp,
# CHAEventCollector: the CHAs reprogrammed between).  So a channel counted from its unfreeze after PCM's read of it
# before the window to its freeze before its last read after it, less the times it was frozen between: its writes
# between those reads alternate unfreeze and freeze.  (AfterTime is found by the order of the accesses, not by a gap
# in time, which a stall would fake; BeforeTime is the stamp nearest NOMINAL before it, its neighbours seconds away.)
memspan() {
	nom=$1
	shift
	awk -v nom="$nom" -v boxes=" $* " "$HEX_AWK"'
	{ tid = ""; for (i = 6; i <= NF; i++) if ($i ~ /^t=/) tid = $i }
	NR == FNR { if (main == "" && $2 == "r" && $3 == "msr" && $4 == 0 && $5 == "0x10") main = tid; next }
	tid != main { next }
	{ n++; t[n] = $1; rw[n] = $2; tsc[n] = $3 == "msr" && $4 == 0 && $5 == "0x10"; dev[n] = ""
		if ($3 == "pci") { dev[n] = $4; reg[n] = $4 " " $5; val[n] = $6 }
		if ($3 == "mmio") { a = hex($4); dev[n] = sprintf("%x", a - a % 4096); reg[n] = $4; val[n] = $5 }
		if (!index(boxes, " " dev[n] " ")) dev[n] = "" }
	END {
		for (i = 3; i <= n; i++) if (tsc[i] && tsc[i - 1] && tsc[i - 2]) after = i
		for (i = 1; i < after; i++) if (tsc[i]) { d = (t[after] - t[i]) / 1e9 - nom; if (d < 0) d = -d
			if (before == "" || d < best) { best = d; before = i } }
		for (i = 1; i <= n; i++) { if (!after || dev[i] == "" || rw[i] != "r") continue
			of[reg[i]] = dev[i]
			if (i < before) { last0[dev[i]] = i; v0[reg[i]] = val[i] }
			if (i > after) { last1[dev[i]] = i; v1[reg[i]] = val[i] } }
		for (r in v1) if ((r in v0) && v0[r] != v1[r]) counted[of[r]] = 1
		for (b in counted) {
			k = s = 0
			for (i = last0[b] + 1; i < last1[b]; i++) if (dev[i] == b && rw[i] == "w") w[++k] = t[i]
			if (k % 2) { unpaired++; continue }
			if (!k) s = t[last1[b]] - t[last0[b]]
			for (j = 1; j < k; j += 2) s += w[j + 1] - w[j]
			s /= 1e9; sum += s; m++
			if (lo == "" || s < lo) lo = s
			if (hi == "" || s > hi) hi = s }
		printf "%.6f %.6f %d %.6f %.6f %d\n", after ? (t[after] - t[before]) / 1e9 : 0, m ? sum / m : 0, m, lo, hi, unpaired }' \
		"$HOSTDIR/trace" "$HOSTDIR/trace"
}
# imc_boxes SPEC SOCKET: the machine's iMC channels on SOCKET as memspan takes them, from `uncore info` on it (a PCI
# function; the page of an MMIO box's control)
imc_boxes() {
	"$UNCORE" --backend "sim:$1" info 2>/dev/null | awk -v s="$2:" "$HEX_AWK"'$1 == "box" && $2 == "imc" && $5 == s {
		if ($6 == "pci") { sub(/\+.*/, "", $7); print $7 } else if ($6 == "mmio") { a = hex($7); printf "%x\n", a - a % 4096 } }'
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
	PEER_HOST_DIR="$HOSTDIR" "$QEMU" ${QEMU_L:+-L "$QEMU_L"} -g "$sock" -cpu "$3$PCM_CPU" -E LD_PRELOAD="$PRELOAD" "$PCM_MEMORY" 4 -i=1 -nc \
		>"$W/$1.pcm" 2>"$W/$1.pcm.err" &
	p=$!
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 100 ] && kill -0 $p 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	timeout $PEER_LIMIT "$gdb" -batch -ex "py SOCKET, PROGRAM, CPUID_AT, ENTRY, QEMU_PID, TOPOLOGY = '$sock', '$PCM_MEMORY', 0x$at, $entry, $p, '$HOSTDIR/root/sys/devices/system/cpu'" \
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
	# each NODE's figure taken to what its socket's channels counted of PCM's window (memspan, as pcm_memory's)
	read -r win clo x x x ulo <<-EOF
	$(memspan 4 $(imc_boxes "$2" $lo))
	EOF
	read -r win chi x x x uhi <<-EOF
	$(memspan 4 $(imc_boxes "$2" $hi))
	EOF
	tospan() { awk -v v="$1" -v w="$win" -v c="$2" 'BEGIN { printf "%.6g", (c > 0 ? v * w / c : 0) }'; }
	r0=$(tospan "$r0" "$clo") w0=$(tospan "$w0" "$clo") r1=$(tospan "$r1" "$chi") w1=$(tospan "$w1" "$chi")
	check "pcm-memory sim:$2: its NODE 0 and NODE 1 are the sockets in iMC bus order (socket $lo's bus $(eval echo \$m$lo), socket $hi's $(eval echo \$m$hi)): read $r0 and $r1 MB/s against $rlo and $rhi, write $w0 and $w1 against $wlo and $whi (1 %), over the $clo and $chi s their channels counted of its $win s window (the trace; $ulo and $uhi channels' freezing not followed)" \
		'[ "$ulo$uhi" = 00 ] && near "$r0" "$rlo" && near "$r1" "$rhi" && near "$w0" "$wlo" && near "$w1" "$whi"'
	[ $lo = 0 ] || [ "$n" != 2 ] ||
		skip "pcm-memory sim:$2: PCM 202302 is wrong per socket (issue 90 D6): its NODE 0 reads $r0 MB/s where socket 0's truth is $(mul "$RD0" 1e-6) (its NODE 0 is the lowest iMC bus, socket 1's here; the board's UBox node map numbers them the other way)"
	protocol "pcm-memory sim:$2"
}
