# Sourced by peer_test.sh: PCM's PCIe and IIO views, pcm-pcie and pcm-iio, each turn of their events taken over
# the window the simulator counted it in (the trace)

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
	# CounterWidthExtender, writes nothing and is left out).  A gap is a turn where it is at least half the longest:
	# a loaded machine's stall between one turn's last read and the next turn's first (0.2 s and more) is none (a
	# 15th "turn" of sim:bdx's 14 beside two other peer runs took each turn's nominal span for 32/15 s)
	span=$(awk -v s=$PCIE_S '$2 == "w" && $6 != "0x0" && main == "" { main = $NF }
		$3 == "msr" && $2 == "r" && $NF == main { if (($5) in last && $1 - last[$5] > 2e8) { r[++m] = $5; g[m] = $1 - last[$5] }
			last[$5] = $1 }
		END { for (i = 1; i <= m; i++) if (g[i] > top) top = g[i]
			for (i = 1; i <= m; i++) if (g[i] >= top / 2) { n[r[i]]++; t[++k] = g[i] }
			for (x in n) if (n[x] > ng) ng = n[x]; if (!ng) exit
			d = int(s * 1000 / ng) * 1e6; lo = hi = t[1] / d
			for (i = 2; i <= k; i++) { f = t[i] / d; if (f < lo) lo = f; if (f > hi) hi = f }
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
	# stack (PART: the lowest bit of ch_mask; STACK: 0 for the first it reads before and after: a register read
	# once in the turn, another thread's (PCM's RAPL reads every 10 s), is no stack, where it took stack 0's
	# number and lost that turn in one CI run), WINDOW from a register's read before to its read after
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
				for (j = at; j <= n; j++) if (r[j] == r[i]) { printf "%d %d %d %d %.6f\n", ev, um, part, k++, (t[j] - t[i]) / 1e9; break }
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
