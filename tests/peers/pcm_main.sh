# Sourced by peer_test.sh: PCM's energy (pcm-power) and its main tool, pcm, on two sockets (memory, UPI or QPI,
# LLC miss latency, uncore clock, energy), each over the windows the simulator counted (the trace)

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
	timeout $PEER_LIMIT "$gdb" -batch -ex "py SOCKET, PROGRAM, CPUID_AT, ENTRY, QEMU_PID, TOPOLOGY, PMU_AT = '$sock', '$pcm', 0x$at, $entry, $p, '$HOSTDIR/root/sys/devices/system/cpu', ($pmu)" \
		-x "$SRC/tests/peers/cpuid_topology.py" >"$W/$1.gdb" 2>&1
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt $((PEER_LIMIT * 10)) ]; do sleep 0.1; i=$((i + 1)); done
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
	# the truth a socket: memory (profile2), UPI received and sent (the test's profile, machines.sh: socket 0 4.0e9 and 3.0e9,
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
