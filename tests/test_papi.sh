#!/bin/sh
# The intel_uncore PAPI component through PAPI's own tools, an API test and an OpenMPI job, on the
# simulator; PAPI comes from scripts/build-papi (configure --with-papi=PREFIX).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/papi_prefix.sh" # P
UNCORE=${top_builddir:-.}/uncore
SIMSTATE=${top_builddir:-.}/tests/sim_state
SRC=${top_srcdir:-.}/papi_component
# is $1 within $3 (relative) of $2?
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= t * b) }'; }
# truth: socket 0 reads 6.4e9 B/s = 1e8 CAS/s, socket 1 twice that; every DRAM channel ticks 0.8e9 times a second
# (a DCLK inside every platform's range here: health's clock condition, doc/health.md)
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket1.mem_read_bytes_per_s = 12.8e9\ndram_clock_hz = 0.8e9\n' > "$W/profile"
unset UNCORE_BACKEND
# the first CPU of socket 1, as the library places socket 1's MSR boxes (PAPI_CPU_ATTACH tests)
socket1_cpu() { $UNCORE --backend "$1" info | sed -n 's/^box .* socket 1: .* cpu \([0-9]*\).*/\1/p' | head -1; }
cc -std=c11 -Wall -Wextra -Werror -o "$W/basic" "$SRC/intel_uncore/tests/intel_uncore_basic.c" -I"$P/include" \
	-L"$P/lib" -lpapi -Wl,-rpath,"$P/lib" || no "intel_uncore_basic builds"
mpicc -std=c11 -Wall -Wextra -Werror -o "$W/mpi" "$SRC/examples/mpi_uncore_membw.c" -I"$P/include" \
	-L"$P/lib" -lpapi -Wl,-rpath,"$P/lib" || no "the MPI example builds"

# the uncore clock's gauges a simulated machine lists (iu_ufreq.c): five where it shows limits (uncore freq)
gauges() { if $UNCORE --backend "$1" freq >/dev/null 2>&1; then echo 5; else echo 0; fi; }
# what the library lists of backend $1: events (its events), totals (its integral metrics: totals and locality),
# energy (its energy events, iu_energy.c: the part's energy_* metrics, in nJ), peaks (mem_bw_peak and
# mem_bw_peak_share, iu_peak.c, where the part has the metric mem_bw_peak_share), from one listing of each kind
# (the events' kept in evtsv)
listed_by_library() {
	evtsv=$($UNCORE --backend "$1" list --format tsv)
	events=$(echo "$evtsv" | grep -v '^#' | tail -n +2 | wc -l)
	set -- "$1" "$($UNCORE --backend "$1" list --metrics --format tsv)"
	totals=$(echo "$2" | awk -F'\t' '$3 == "totals" || $3 == "locality"' | wc -l)
	energy=$(echo "$2" | awk -F'\t' '$3 == "energy" && $1 ~ /^energy_/' | wc -l)
	peaks=$((2 * $(echo "$2" | awk -F'\t' '$1 == "mem_bw_peak_share"' | wc -l)))
}

for b in snbep emr perf_emr spr perf_spr; do # perf_<p>: the perf backend over the simulated kernel
	sim=sim:$b,profile=$W/profile
	case $b in perf_*) sim=perf+sim:${b#perf_},profile=$W/profile ;; esac
	# --- papi_component_avail: enabled on the simulator, with every event of the library
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_component_avail" 2>&1)
	active=$(echo "$out" | sed -n '/^Active components/,$p')
	check "$b: papi_component_avail shows intel_uncore active on the simulator" \
		'echo "$active" | grep -q "^Name: *intel_uncore .*(SIMULATED)"'
	native=$(echo "$active" | grep -A1 "^Name: *intel_uncore" | sed -n 's/.*Native: \([0-9]*\),.*/\1/p')
	listed_by_library "$sim"
	totals=$((totals + $(gauges "$sim") + energy + peaks))
	check "$b: Native $native = $events events + $totals integral metrics, uncore clock gauges and $energy energy events" '[ "$native" -eq $((events + totals)) ]'
	listed=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" 2>&1 | grep -c '^| intel_uncore:::')
	check "$b: papi_native_avail lists all $listed" '[ "$listed" -eq $((events + totals)) ]'
	q=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::UNC_M_CLOCKTICKS 2>&1)
	check "$b: qualifiers shown as PAPI umasks" 'echo "$q" | grep -q ":socket=0 -- socket to count on .*\[0-1\]"'
	box=$(echo "$q" | sed -n 's/.*:box=\([0-9]*\) --.*/\1/p')

	# --- papi_command_line: counts equal the simulator's truth (against the same window's DRAM clock)
	# (each socket against its own DRAM clock: a loaded machine starts the sockets' boxes apart)
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" intel_uncore:::UNC_M_CAS_COUNT.RD:socket=0 \
		intel_uncore:::UNC_M_CAS_COUNT.RD:socket=1 "intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=$box" \
		"intel_uncore:::UNC_M_CLOCKTICKS:socket=1:box=$box" intel_uncore:::mem_read_bytes:socket=0 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	rd0=$(value "UNC_M_CAS_COUNT.RD:socket=0") rd1=$(value "UNC_M_CAS_COUNT.RD:socket=1")
	clk=$(value "UNC_M_CLOCKTICKS:socket=0:box=$box") clk1=$(value "UNC_M_CLOCKTICKS:socket=1:box=$box")
	bytes=$(value "mem_read_bytes:socket=0")
	echo "$b: CAS.RD socket0 $rd0 socket1 $rd1, DRAM clocks $clk $clk1, read bytes $bytes"
	check "$b: papi_command_line CAS_COUNT.RD:socket=0 = 1e8/s (1/8 of a DRAM clock)" \
		'[ -n "$clk" ] && [ "$clk" -gt 0 ] && near "$rd0" "$(awk -v c="$clk" "BEGIN { printf \"%.0f\", c / 8 }")" 0.005'
	check "$b: socket 1 = 2e8/s" '[ -n "$clk1" ] && near "$rd1" "$(awk -v c="$clk1" "BEGIN { printf \"%.0f\", c / 4 }")" 0.005'
	check "$b: mem_read_bytes = 64 x CAS" '[ -n "$bytes" ] && [ "$bytes" -eq $((64 * rd0)) ]'
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" intel_uncore:::UNC_M_CAS_COUNT.RD:socket=7 \
		intel_uncore:::UNC_M_CAS_COUNT.RD:sokcet=0 intel_uncore:::NOT_AN_EVENT 2>&1)
	check "$b: bad names are refused as missing events" \
		'[ "$(echo "$out" | grep -c "^Failed adding: intel_uncore:::")" -eq 3 ] && echo "$out" | grep -q "Event does not exist"'

	# --- the API test: names round-trip (on snbep a perf_event_uncore name too), reset/accum/stop semantics
	pfm=; [ $b = snbep ] && pfm=snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=0
	out=$(UNCORE_BACKEND=$sim IU_SOCKET1_CPU=$(socket1_cpu "$sim") IU_PFM_NAME=$pfm "$W/basic" 2>&1)
	echo "$out" | grep -E "^(FAIL|both sockets)"; echo "$out" | tail -3
	check "$b: intel_uncore_basic passes" 'echo "$out" | tail -1 | grep -q "^PASSED$"'
	# --- another agent reprograms imc 0 mid-run (a perf user, a second tool): an error on read, not a short count
	case $b in snbep|emr)
		out=$(UNCORE_BACKEND=$sim,fault=agent:imc:0@2 IU_TAKEN_AT=2 "$W/basic" 2>&1)
		echo "$out" | grep -E "^FAIL"
		check "$b: a box taken over mid-run: PAPI_read fails with the reason" 'echo "$out" | tail -1 | grep -q "^PASSED$"'
		# --- a box whose device goes (all ones) or whose counters stop: the read names the health condition
		for f in allones:allones dead:stopped; do
			out=$(UNCORE_BACKEND=$sim,fault=${f%%:*}:imc:0@1 IU_HEALTH=${f#*:} "$W/basic" 2>&1)
			echo "$out" | grep -E "^FAIL"
			check "$b: imc 0 ${f%%:*} mid-run: PAPI_read fails with health ${f#*:}" 'echo "$out" | tail -1 | grep -q "^PASSED$"'
		done ;;
	esac
	# --- what the user of PAPI's tools sees: a refused event's reason without PAPI_VERBOSE, through
	# PAPI_strerror(); only the qualifiers that can be counted (the perf backend does not sample)
	case $b in perf_*) ;; *)
		# six general-counter events of one iMC channel, which has four
		six=$(echo "$evtsv" | awk -F'\t' '$1 == "imc" && $2 ~ /^UNC_M_(CAS|ACT|PRE)/ &&
			$6 !~ /fixed/ { printf "intel_uncore:::%s:socket=0:box=0\n", $2 }' | head -6)
		out=$(env -u PAPI_VERBOSE UNCORE_BACKEND=$sim "$P/bin/papi_command_line" $six 2>/dev/null)
		check "$b: papi_command_line says why an event that does not fit is refused (no PAPI_VERBOSE)" \
			'echo "$out" | grep -A1 "^Failed adding: intel_uncore:::UNC_M_" | grep -q "^because: intel_uncore: UNC_M_[A-Z_.]*:socket=0:box=0: .*in imc box 0 (socket 0): 4 counters"' ;;
	esac
	q=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::UNC_M_CAS_COUNT.RD 2>&1)
	case $b in
	perf_*) check "$b: no :sample= listed on the perf backend, which cannot sample" \
		'echo "$q" | grep -q ":socket=" && ! echo "$q" | grep -q ":sample="' ;;
	snbep) check "$b: no :sample= where the box has no overflow status to sample with" \
		'echo "$q" | grep -q ":socket=" && ! echo "$q" | grep -q ":sample="' ;;
	*) check "$b: :sample= listed where the box samples" 'echo "$q" | grep -q ":sample=1 "' ;;
	esac
done

# --- the IVB-EP, Skylake-SP, Cascade Lake, Ice Lake-SP, Nehalem-EP and Montecito rows: event lists, counts against a clock of known rate, the API test
# clocks of 1.6e9/s: the uncore clock (Nehalem's fixed counter) and the core clock (Montecito's CPU_OP_CYCLES);
# the DRAM clock 0.8e9/s
# GNR: the schedulers share the reads evenly here, so scheduler 0 counts half (1/16 of a DRAM clock) and
# mem_read_bytes, which adds both, is 128 bytes per scheduler-0 CAS
printf 'uncore_clock_hz = 1.6e9\ntsc_hz = 1.6e9\nmem_sch0_ratio = 0.5\n' | cat "$W/profile" - > "$W/profile2"
for spec in "ivbep UNC_M_CAS_COUNT.RD UNC_M_CLOCKTICKS:socket=0:box=3 8 64" \
	    "skx UNC_M_CAS_COUNT.RD UNC_M_CLOCKTICKS:socket=0:box=3 8 64" \
	    "clx UNC_M_CAS_COUNT.RD UNC_M_CLOCKTICKS:socket=0:box=3 8 64" \
	    "icx UNC_M_CAS_COUNT.RD UNC_M_CLOCKTICKS:socket=0:box=3 8 64" \
	    "gnr UNC_M_CAS_COUNT_SCH0.RD UNC_M_CLOCKTICKS:socket=0:box=3 16 128 0.001" \
	    "nhm UNC_IMC_NORMAL_READS.ANY UNC_CLK_UNHALTED:socket=0 16 64" \
	    "montecito BUS_MEM_READ.ALL.EITHER CPU_OP_CYCLES:socket=0:box=1 32 128"; do
	set -- $spec
	b=$1 ev=$2 clkev=$3 ratio=$4 line=$5 tol=${6:-} sim=sim:$1,profile=$W/profile2
	listed_by_library "$sim"
	totals=$((totals + $(gauges "$sim") + energy + peaks))
	listed=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" 2>&1 | grep -c '^| intel_uncore:::')
	check "$b: papi_native_avail lists all $listed ($events events + $totals metrics, gauges and energy events)" '[ "$listed" -eq $((events + totals)) ]'
	clk1ev=$(echo "$clkev" | sed 's/socket=0/socket=1/') # each socket against its own clock
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" "intel_uncore:::$ev:socket=0" "intel_uncore:::$ev:socket=1" \
		"intel_uncore:::$clkev" "intel_uncore:::$clk1ev" intel_uncore:::mem_read_bytes:socket=1 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	rd0=$(value "$ev:socket=0") rd1=$(value "$ev:socket=1") clk=$(value "$clkev") clk1=$(value "$clk1ev")
	bytes=$(value "mem_read_bytes:socket=1")
	echo "$b: $ev socket0 $rd0 socket1 $rd1, clock $clk, socket1 read bytes $bytes"
	check "$b: papi_command_line $ev:socket=0 = 1/$ratio of its clock (6.4e9 B/s)" \
		'[ -n "$clk" ] && [ "$clk" -gt 0 ] && near "$rd0" "$(awk -v c="$clk" -v r="$ratio" "BEGIN { printf \"%.0f\", c / r }")" 0.005'
	check "$b: socket 1 twice that" '[ -n "$clk1" ] && near "$rd1" "$(awk -v c="$clk1" -v r="$ratio" "BEGIN { printf \"%.0f\", 2 * c / r }")" 0.005'
	check "$b: mem_read_bytes:socket=1 near $line x the socket's count" '[ -n "$bytes" ] && near "$bytes" $((line * rd1)) 0.005'
	out=$(UNCORE_BACKEND=$sim IU_SOCKET1_CPU=$(socket1_cpu "$sim") "$W/basic" "$ev" "$line" $tol 2>&1)
	echo "$out" | grep -E "^(FAIL|both sockets)"; echo "$out" | tail -2
	check "$b: intel_uncore_basic passes" 'echo "$out" | tail -1 | grep -q "^PASSED$"'
done

# --- the uncore clock's limits as gauges (issue 68): a BIOS-pinned SKX (600 MHz, both limits and the clock) per
# socket and the node, a TPMI GNR on the simulated kernel (0.8-2.7 GHz): the simulator's values, in Hz
for spec in "sim:skx,fault=pinned:uclk=600 600000000 600000000 600000000" \
	    "perf+sim:gnr 800000000 2700000000 2700000000"; do
	set -- $spec
	lo=$2 hi=$3 cur=$4
	out=$(UNCORE_BACKEND=$1 "$P/bin/papi_command_line" intel_uncore:::UNCORE_FREQ_LIMIT_MIN:socket=1 \
		intel_uncore:::UNCORE_FREQ_LIMIT_MAX intel_uncore:::UNCORE_FREQ_CURRENT:socket=0 \
		intel_uncore:::UNCORE_FREQ_INITIAL_LIMIT_MAX:socket=1 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	check "$1: UNCORE_FREQ_LIMIT_MIN:socket=1 $2, _MAX $3, _CURRENT:socket=0 $4, _INITIAL_LIMIT_MAX:socket=1 $3" \
		'[ "$(value UNCORE_FREQ_LIMIT_MIN:socket=1)" = $lo ] && [ "$(value UNCORE_FREQ_LIMIT_MAX)" = $hi ] &&
		 [ "$(value UNCORE_FREQ_CURRENT:socket=0)" = $cur ] && [ "$(value UNCORE_FREQ_INITIAL_LIMIT_MAX:socket=1)" = $hi ]' ||
		echo "$out"
done
# --- the DRAM peak and its share as gauges (issue 98 point 4, iu_peak.c).  sim:skx's board (platforms/skx/
# sim_memory.c) fills its 6 channels a socket with DDR4-2933 configured at 2666 MT/s: 6 x 2666e6 x 8 = 127.968e9 B/s a
# socket, 255.936e9 the node, worked out here from the board's figures.  The profile below reads and writes 6.4e9 +
# 3.2e9 B/s on socket 0 and twice that on socket 1: shares of 9.6e9 / 127.968e9 = 75018.8 ppm, 150037.5 ppm, and
# the node's 28.8e9 / 255.936e9 = 112528.1 ppm (the simulator's counts and the session's clock are read at one
# instant: 0.2 % leaves room for the counts' rounding alone)
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 12.8e9\nsocket1.mem_write_bytes_per_s = 6.4e9\n' >"$W/peak.profile"
for be in sim perf+sim; do
	out=$(UNCORE_BACKEND=$be:skx,profile=$W/peak.profile "$P/bin/papi_command_line" intel_uncore:::mem_bw_peak_share:socket=0 \
		intel_uncore:::mem_bw_peak_share:socket=1 intel_uncore:::mem_bw_peak_share intel_uncore:::mem_bw_peak \
		intel_uncore:::mem_bw_peak:socket=1 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	s0=$(value mem_bw_peak_share:socket=0) s1=$(value mem_bw_peak_share:socket=1) sn=$(value mem_bw_peak_share)
	echo "$be:skx: mem_bw_peak_share socket0 $s0 socket1 $s1 node $sn ppm, mem_bw_peak $(value mem_bw_peak) $(value mem_bw_peak:socket=1)"
	check "$be:skx: mem_bw_peak 255.936e9 B/s, :socket=1 127.968e9 (6 x 2666e6 x 8)" \
		'[ "$(value mem_bw_peak)" = 255936000000 ] && [ "$(value mem_bw_peak:socket=1)" = 127968000000 ]' || echo "$out"
	check "$be:skx: mem_bw_peak_share socket 0 75018.8, socket 1 150037.5, the node 112528.1 ppm within 0.2 %" \
		'[ -n "$s0" ] && near "$s0" 75018.8 0.002 && near "$s1" 150037.5 0.002 && near "$sn" 112528.1 0.002' || echo "$out"
done
out=$(UNCORE_BACKEND=sim:skx "$P/bin/papi_native_avail" -e intel_uncore:::mem_bw_peak_share 2>&1)
check "mem_bw_peak_share listed: a share of mem_bw_peak in ppm, with :socket=" \
	'echo "$out" | grep -q "as a share of mem_bw_peak, in millionths" && echo "$out" | grep -q ":socket=0"' || echo "$out"
# where the population is not known (no EDAC driver), refused with the library's reason, never a guess
out=$(UNCORE_BACKEND=sim:hsx,edac=off "$P/bin/papi_command_line" intel_uncore:::mem_bw_peak_share:socket=0 2>&1)
check "sim:hsx,edac=off: mem_bw_peak_share refused, saying no EDAC driver is loaded" \
	'echo "$out" | grep -A1 "^Failed adding: intel_uncore:::mem_bw_peak_share:socket=0" | grep -q "no EDAC driver loaded"' || echo "$out"
out=$(UNCORE_BACKEND=sim:skx "$P/bin/papi_native_avail" -e intel_uncore:::UNCORE_FREQ_LIMIT_MAX 2>&1)
check "UNCORE_FREQ_LIMIT_MAX described, in Hz, with :socket=" \
	'echo "$out" | grep -q "upper limit now" && echo "$out" | grep -q "Hz" && echo "$out" | grep -q ":socket=0"' || echo "$out"

# --- Xeon Max (sim:spr,hbm=1, on both backends): HBM's reads apart from DDR's.  The simulator's default HBM
# reads, 25.6e9 x (1+s) B/s at 32 bytes a CAS over 32 channels, are as many CAS a second on socket 0 as its
# DRAM clock ticks (0.8e9/s); hbm_read_bytes of socket 1, 64 bytes a tick; its DDR reads, 16 (12.8e9 B/s)
for sim in "sim:spr,hbm=1,profile=$W/profile" "perf+sim:spr,hbm=1,profile=$W/profile"; do
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" intel_uncore:::UNC_MCHBM_CAS_COUNT.RD:socket=0 \
		intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=0 intel_uncore:::hbm_read_bytes:socket=1 \
		intel_uncore:::UNC_M_CLOCKTICKS:socket=1:box=0 intel_uncore:::mem_read_bytes:socket=1 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	cas0=$(value "UNC_MCHBM_CAS_COUNT.RD:socket=0") clk=$(value "UNC_M_CLOCKTICKS:socket=0:box=0")
	hbm1=$(value "hbm_read_bytes:socket=1") clk1=$(value "UNC_M_CLOCKTICKS:socket=1:box=0") ddr1=$(value "mem_read_bytes:socket=1")
	echo "$sim: HBM read CAS socket0 $cas0, DRAM clocks $clk $clk1, socket1 HBM read bytes $hbm1, DDR $ddr1"
	check "${sim%%,profile*}: UNC_MCHBM_CAS_COUNT.RD:socket=0 = its DRAM clock (25.6e9 B/s of HBM reads)" \
		'[ -n "$clk" ] && [ "$clk" -gt 0 ] && near "$cas0" "$clk" 0.005'
	check "${sim%%,profile*}: hbm_read_bytes:socket=1 = 64 B a DRAM clock (51.2e9 B/s)" \
		'[ -n "$clk1" ] && [ -n "$hbm1" ] && near "$hbm1" $((64 * clk1)) 0.005'
	check "${sim%%,profile*}: mem_read_bytes:socket=1 = 16 B a DRAM clock (DDR's 12.8e9 B/s), apart from HBM's" \
		'[ -n "$ddr1" ] && near "$ddr1" $((16 * clk1)) 0.005'
done

# --- CXL memory (issue 50): sim:gnr,cxl=1's integral metrics cxl_read_bytes and cxl_write_bytes through PAPI,
# against the same window's DRAM clock (0.8e9/s): socket 0 reads 6.4e9 B/s and writes 3.2e9 B/s of its CXL
# memory, 8 and 4 bytes a DRAM clock
printf 'socket0.cxl_read_bytes_per_s = 6.4e9\nsocket0.cxl_write_bytes_per_s = 3.2e9\ndram_clock_hz = 0.8e9\n' > "$W/cxl.profile"
for be in sim perf+sim; do
	out=$(UNCORE_BACKEND=$be:gnr,cxl=1,profile=$W/cxl.profile "$P/bin/papi_command_line" intel_uncore:::cxl_read_bytes:socket=0 \
		intel_uncore:::cxl_write_bytes:socket=0 "intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=3" 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	rd=$(value "cxl_read_bytes:socket=0") wr=$(value "cxl_write_bytes:socket=0") clk=$(value "UNC_M_CLOCKTICKS:socket=0:box=3")
	echo "$be:gnr,cxl=1: CXL read $rd, write $wr bytes, DRAM clock $clk"
	check "$be:gnr,cxl=1: cxl_read_bytes = 8 x the DRAM clock, cxl_write_bytes 4 x" \
		'[ -n "$clk" ] && [ "$clk" -gt 0 ] && near "$rd" $((8 * clk)) 0.005 && near "$wr" $((4 * clk)) 0.005'
done

# --- PAPI's ctests/all_native_events adds every name the component enumerates (each base event and each
# qualifier it lists).  The only refusals allowed are of events the library lists as needing a filter
# value (e.g. an opcode), each refused with a message naming that qualifier.
ANE=$P/libexec/papi/all_native_events
check "PAPI's all_native_events is installed" '[ -x "$ANE" ]'
# grr: a Grand Ridge, which has no platform of ours, on perf: the kernel's PMUs with Intel's GRR events
for b in snbep ivbep hsx bdx bdxde skx clx icx nhm emr spr gnr montecito grr; do
	be=sim:$b
	[ $b = grr ] && be=perf+sim:gnr,cpu=6-B6-0
	[ $b = spr ] && be=sim:spr,hbm=1 # a Xeon Max: every unit SPR's events name (MCHBM's are its HBM channels')
	out=$(UNCORE_BACKEND=$be "$ANE" 2>"$W/ane.err") # PAPI's messages apart: they interleave with stdout
	added=$(echo "$out" | sed -n 's/^Successfully found and added \([0-9]*\) events.*/\1/p')
	# failures of our component's names only: PAPI's perf_event component lists the host's core events too, and
	# on a machine whose PMU the kernel does not virtualize (a VM) adding them fails, which is not ours to test
	failed=$(echo "$out" | grep -c "^Error adding intel_uncore:::")
	required=$($UNCORE --backend $be list --format tsv | awk -F'\t' '$8 ~ /\(required\)/ { print $2 }' | sort)
	# the base event of every refused name, and the library's reasons
	refused=$(echo "$out" | grep -o "^Error adding intel_uncore:::[^ ]*" | sed 's/^Error adding intel_uncore::://; s/:.*//' | sort -u)
	other=$(echo "$refused" | grep -vxF -e "${required:-@none@}" | grep -v '^$')
	reasons=$(grep "^PAPI Error: intel_uncore:" "$W/ane.err" | grep -vc "needs the '[a-z_0-9]*' qualifier")
	echo "$b: all_native_events added ${added:-?}, failed ${failed:-0}; $(echo "$refused" | grep -c .) events refused, $(echo "$required" | grep -c .) need a filter value"
	[ -n "$other" ] && echo "$b: refused though they need nothing: $(echo $other | head -c 300)"
	check "$b: all_native_events added every name it was offered but the filter-requiring events" \
		'[ "${added:-0}" -gt 500 ] && [ -z "$other" ] && [ "$reasons" -eq 0 ]'
	case $b in nhm|emr|spr|gnr|icx|montecito|grr) check "$b: all_native_events failed none" '[ -z "$failed" ] || [ "$failed" -eq 0 ]' ;; esac
done
# the Grand Ridge counts its truth through PAPI: both schedulers' CAS reads = 1e8/s on socket 0 (1/8 of a
# DRAM clock of 0.8e9/s), more than scheduler 0 alone
out=$(UNCORE_BACKEND=perf+sim:gnr,cpu=6-B6-0,profile=$W/profile "$P/bin/papi_command_line" \
	intel_uncore:::UNC_M_CAS_COUNT_SCH0.RD:socket=0 intel_uncore:::UNC_M_CAS_COUNT_SCH1.RD:socket=0 \
	intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=0 2>&1)
value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
s0=$(value "UNC_M_CAS_COUNT_SCH0.RD:socket=0") s1=$(value "UNC_M_CAS_COUNT_SCH1.RD:socket=0")
clk=$(value "UNC_M_CLOCKTICKS:socket=0:box=0")
echo "grr: CAS reads SCH0 $s0 SCH1 $s1, DRAM clocks $clk"
check "grr: papi_command_line SCH0 + SCH1 reads on socket 0 = 1/8 of a DRAM clock" \
	'[ -n "$clk" ] && [ "$clk" -gt 0 ] && [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ] && near "$((s0 + s1))" "$(awk -v c="$clk" "BEGIN { printf \"%.0f\", c / 8 }")" 0.005'
# issue 33: listing every event is cheap.  Its time is make bench's (tools/bench/bench_papi.sh prints it); a test
# asserts the work, which no load changes: the system calls papi_native_avail makes beside writing its
# output do not grow with the events listed (one per event would add hundreds between SNB-EP and GNR)
syscalls() { # events listed, and system calls other than write(2)
	UNCORE_BACKEND=$1 strace -f -c -o "$W/strace" "$P/bin/papi_native_avail" >"$W/listing" 2>&1
	echo "$(grep -c '^| intel_uncore:::' "$W/listing") $(awk '$NF == "total" { t = $4 } $NF == "write" { w = $4 } END { print t - w }' "$W/strace")"
}
set -- $(syscalls sim:snbep) $(syscalls sim:gnr,sockets=2)
ev_snb=$1 sc_snb=$2 ev_gnr=$3 sc_gnr=$4 # check's eval has its own $1..$4
echo "papi_native_avail: snbep $ev_snb events listed with $sc_snb system calls beside writes, 2-socket gnr $ev_gnr with $sc_gnr"
check "gnr: papi_native_avail lists every event ($ev_gnr) of a 2-socket GNR with no system call per event ($sc_gnr against snbep's $sc_snb for $ev_snb)" \
	'[ "$ev_gnr" -gt 800 ] && [ "$ev_snb" -gt 400 ] && [ "$sc_snb" -gt 0 ] && [ $((sc_gnr - sc_snb)) -lt $(((ev_gnr - ev_snb) / 4)) ]'
# issue 66: a per-port IIO event's description names the devices its port counts (the set the test gives the
# simulator, sim_pcitree.c, on the PCIe stacks of the board sim:spr is laid out as (platforms/spr/board.c: PMU 6 on
# root bus 39, PMU 7 on 4d): the NIC on stack 6 port 0 of socket 0, an NVMe drive on its port 1, the switch's two
# GPUs as one group on stack 7 port 0), and one stack's port counts its device's DMA: the NIC's 4e9 B/s in and
# 0.03 of it in descriptors and completions (the profile below; doc/user-guide.md "Simulator profile"), 32 bytes
# a count, against the same window's DRAM clock (0.8e9/s)
devs=devices=nic@0.6.0+nvme@0.6.1+gpusw@0.7.0
{ cat "$W/profile"; printf 'device.nic.in_bytes_per_s = 4e9\ndevice.nic.overhead_ratio = 0.03\n'; } > "$W/devprofile"
for b in spr perf_spr; do
	sim=sim:spr,$devs,profile=$W/devprofile
	[ $b = perf_spr ] && sim=perf+sim:spr,$devs,profile=$W/devprofile
	d=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::iio_write_bytes_port0 2>&1)
	check "$b: iio_write_bytes_port0's description names the NIC, and the switch's GPUs as one group" \
		'echo "$d" | grep -q "Port 0 counts: socket0 iio6: ens0f0 (0000:3a:00.0, ice); socket0 iio7: PCIe switch: card0 (0000:50:00.0, nvidia) + card1 (0000:51:00.0, nvidia)\.$"'
	d=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::UNC_IIO_BANDWIDTH_IN.PART1_FREERUN 2>&1)
	check "$b: the raw port 1 event's description names the NVMe drive" 'echo "$d" | grep -q "SOC\. Port 1 counts: socket0 iio6: nvme0 (0000:3b:00.0, nvme)\.$"'
	d=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::UNC_M_CLOCKTICKS 2>&1)
	check "$b: other events name no device" '! echo "$d" | grep -q "counts: socket"'
	box=$(echo "$d" | sed -n 's/.*:box=\([0-9]*\) --.*/\1/p')
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" "intel_uncore:::UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=6" \
		"intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=$box" 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	nic=$(value "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0:box=6") clk=$(value "UNC_M_CLOCKTICKS:socket=0:box=$box")
	echo "$b: the NIC's port counted $nic x 32 bytes over $clk DRAM clocks"
	check "$b: the NIC's port counts its bytes, the truth within 1 %" \
		'[ -n "$clk" ] && [ "$clk" -gt 0 ] && near "$((nic * 32))" "$(awk -v c="$clk" "BEGIN { printf \"%.0f\", c / 0.8e9 * 4e9 * 1.03 }")" 0.01'
done
d=$(UNCORE_BACKEND=sim:snbep "$P/bin/papi_native_avail" -e intel_uncore:::UNC_C_TOR_INSERTS.OPCODE 2>&1)
check "snbep: a filter-requiring event says so in its description" 'echo "$d" | grep -q "Needs :opc=V"'
check "snbep: the UBox lists a 5-bit threshold" \
	'UNCORE_BACKEND=sim:snbep "$P/bin/papi_native_avail" -e intel_uncore:::UNC_U_LOCK_CYCLES 2>&1 | grep -q ":thresh=0 .*\[0-31\]"'
check "ivbep: no inv umask (the control register has no invert bit)" \
	'! UNCORE_BACKEND=sim:ivbep "$P/bin/papi_native_avail" -e intel_uncore:::UNC_M_CAS_COUNT.RD 2>&1 | grep -q ":inv "'

# --- PAPI's own perf_event_uncore tests (:cpu=0, PAPI_CPU_ATTACH, multiple EventSets, every CBox on every
# socket), built by scripts/build-papi with the component name swapped.  They pick their event
# (snbep_unc_imc0::UNC_M_CLOCKTICKS, nhm_unc::UNC_CLK_UNHALTED, snbep_unc_cboN::UNC_C_TOR_OCCUPANCY:ALL)
# and each socket's CPU from PAPI_get_hardware_info(): a preloaded shim reports the simulated CPU there.
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$W/shim.so" "$SRC/intel_uncore/tests/sim_cpu_shim.c" -I"$P/include" -ldl ||
	no "the CPU shim builds"
# multiple's second EventSet counts PAPI_TOT_CYC; a host without core counters (a VM: PAPI's perf_event
# component disabled) runs it with a second intel_uncore EventSet instead, another event on socket 0,
# the socket of the one attached to CPU 0: two sessions share the box by counter, as the kernel does
second=
if "$P/bin/papi_avail" -e PAPI_TOT_CYC 2>&1 | grep -q "NOT available"; then
	echo "note: PAPI_TOT_CYC is not available here ($("$P/bin/papi_component_avail" 2>&1 | grep -A1 '^Name: *perf_event ' | sed -n 's/.*Disabled: //p')); multiple's second EventSet counts an intel_uncore event on socket 0"
	second=yes
fi
for spec in "sim:snbep 45 UNC_M_CAS_COUNT.RD" "perf+sim:snbep 45 UNC_M_CAS_COUNT.RD" \
	    "sim:nhm 26 UNC_IMC_NORMAL_READS.ANY" "perf+sim:nhm 26 UNC_IMC_NORMAL_READS.ANY"; do
	set -- $spec
	b=$1 sim=$1,profile=$W/profile2
	cpus=$(socket1_cpu "$sim")
	tests="perf_event_uncore perf_event_uncore_attach perf_event_uncore_multiple"
	case $b in *snbep) tests="$tests perf_event_uncore_cbox" ;; esac # PAPI's test has no CBox event for Nehalem
	for t in $tests; do
		out=$(env UNCORE_BACKEND="$sim" IU_SIM_CPU="$2 2 $cpus" ${second:+IU_SECOND_EVENT=intel_uncore:::$3:socket=0} \
			LD_PRELOAD="$W/shim.so" "$P/libexec/papi/$t" 2>&1)
		rc=$?
		# every value the test prints: "<tab>name: N" (cbox: "<tab>name N")
		vals=$(echo "$out" | sed -n 's/^\t[^ ]*:\{0,1\} \{1,\}\([0-9-]*\)$/\1/p')
		zero=$(echo "$vals" | grep -c -v '^[1-9]')
		n=$(echo "$vals" | grep -c .)
		echo "$b: $t: exit $rc, $n values: $(echo $vals | head -c 200)"
		echo "$out" | grep -E "FAILED|SKIPPED|Error" | head -3
		want=1; case $t in *multiple) want=2 ;; *cbox) want=16 ;; esac
		check "$b: PAPI's $t passes against intel_uncore, $want counts > 0" \
			'[ "$rc" -eq 0 ] && echo "$out" | grep -q "PASSED" && [ "$n" -eq "$want" ] && [ "$zero" -eq 0 ]'
		case $t in *cbox) check "$b: the CBox test attached socket 1's EventSets to CPU $cpus" \
			'echo "$out" | grep -q "Using core $cpus for socket 1"' ;; esac
	done
done
# perf_event_uncore's names: PMU::EVENT[:UMASK][:qualifier] counts what the library's name counts; a PMU
# of another unit, box or platform, or two umasks at once, is no event
out=$(UNCORE_BACKEND=sim:snbep,profile=$W/profile "$P/bin/papi_command_line" snbep_unc_imc1::UNC_M_CAS_COUNT:RD:cpu=8 \
	intel_uncore:::UNC_M_CAS_COUNT.RD:box=1:socket=1 snbep_unc_imc0::UNC_C_CLOCKTICKS snbep_unc_imc9::UNC_M_CLOCKTICKS \
	ivbep_unc_imc0::UNC_M_CLOCKTICKS snbep_unc_imc0::UNC_M_CAS_COUNT:RD:WR 2>&1)
pfm=$(echo "$out" | sed -n 's/^snbep_unc_imc1::UNC_M_CAS_COUNT:RD:cpu=8 :[[:space:]]*\([0-9]*\).*/\1/p')
lib=$(echo "$out" | sed -n 's/^intel_uncore:::UNC_M_CAS_COUNT.RD:box=1:socket=1 :[[:space:]]*\([0-9]*\).*/\1/p')
echo "snbep: snbep_unc_imc1::UNC_M_CAS_COUNT:RD:cpu=8 $pfm, UNC_M_CAS_COUNT.RD:box=1:socket=1 $lib"
check "snbep: a perf_event_uncore name counts as the library's name (within 0.5%)" '[ -n "$pfm" ] && [ "$pfm" -gt 0 ] && near "$pfm" "$lib" 0.005'
check "snbep: perf_event_uncore names of another unit, box, platform, or two umasks are refused" \
	'[ "$(echo "$out" | grep -c "^Failed adding: ")" -eq 4 ]'

# --- disabled, with the library's reason, when nothing can be used
disabled() { UNCORE_BACKEND=$1 "$P/bin/papi_component_avail" 2>&1 | grep -A1 "^Name: *intel_uncore" | sed -n 's/.*-> Disabled: //p'; }
if why=$(UNCORE_BACKEND= $UNCORE info 2>&1); then
	check "this machine has a supported uncore: enabled by default" '[ -z "$(disabled "")" ]'
else
	why=${why#uncore: }
	check "default backend disabled with the library's reason ($why)" '[ "$(disabled "")" = "$why" ]'
fi
R=$W/intel-host
mkdir -p "$R/proc" "$R/sys/devices/system/cpu/cpu0/topology" "$R/sys/bus/pci/devices"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz\nflags\t\t: fpu msr\n\n' >"$R/proc/cpuinfo"
echo 0 >"$R/sys/devices/system/cpu/cpu0/topology/physical_package_id"
why=$(UNCORE_SYSROOT=$R disabled direct)
check "no msr device: disabled, saying to load the msr module ($why)" 'echo "$why" | grep -q "modprobe msr"'
why=$(disabled sim:nope)
check "unknown backend: disabled, naming it" 'echo "$why" | grep -q "unknown simulated platform .nope."'

# --- MPI: ranks sharing a socket share its counters; every rank gets the socket's truth
mpirun_() {
	root=; [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
	UNCORE_BACKEND=$1 mpirun $root --oversubscribe -np "$2" -x UNCORE_BACKEND "$W/mpi" --sockets 2 --seconds 1 2>&1
}
for b in snbep emr; do
	rm -f "$W/two" "$W/two".claims* "$W/four" "$W/four".claims*
	sim=sim:$b,profile=$W/profile
	# one rank per socket: how many register writes programming and restoring both sockets takes
	out=$(mpirun_ "$sim,shared=$W/two" 2)
	check "$b: 2 ranks on 2 sockets consistent" 'echo "$out" | grep -q "^CONSISTENT$"'
	two=$($SIMSTATE "$sim,shared=$W/two")
	out=$(mpirun_ "$sim,shared=$W/four" 4)
	echo "$out" | grep -E "^(rank|socket|CONSISTENT|INCONSISTENT)"
	four=$($SIMSTATE "$sim,shared=$W/four")
	echo "$b: register state after 2 ranks: $two; after 4: $four"
	check "$b: 4 ranks: every rank got its socket's counts, consistent" 'echo "$out" | grep -q "^CONSISTENT$"'
	check "$b: 4 ranks reported" '[ "$(echo "$out" | grep -c "^rank ")" -eq 4 ]'
	# the truth must lie between the rank's bytes over the time around its start..stop and over the time
	# between them (0.1 % for the counts' rounding): that window is measured, not assumed
	bad=$(echo "$out" | awk '/^rank / { want = $4 == 0 ? 6.4e9 : 12.8e9; lo = $10 / $6; hi = $10 / $8;
		if (lo > want * 1.001 || hi < want * 0.999) print }')
	[ -n "$bad" ] && echo "outside the bracket: $bad"
	check "$b: each rank's read bandwidth brackets its socket's truth (bytes/outer <= truth <= bytes/inner)" \
		'[ -z "$bad" ] && [ -n "$(echo "$out" | grep "^rank ")" ]'
	check "$b: 4 ranks programmed each socket once (as many register writes as 2 ranks)" \
		'[ "${two%% changed*}" = "${four%% changed*}" ] && [ "${two%% changed*}" != "writes 0" ]'
	check "$b: registers left as found after the job" 'echo "$four" | grep -q "changed 0$"'
done

# --- The example on every simulated platform (issue 50): it counts the metrics mem_read_bytes and
# mem_write_bytes, whose names every platform has where the events behind them differ (GNR, SRF and CWF have
# no UNC_M_CAS_COUNT.RD, only the per-scheduler CAS counts the metrics add up).  One short run each, a rank
# per socket, each rank's read and write bandwidth bracketing its socket's truth (reads 6.4e9 B/s times
# socket + 1, the simulator's default writes 4.8e9 times socket + 1).  A platform without the metrics
# (generic: a CPU without a platform of ours or a metric file) is refused naming the event it lacks.
for p in $($UNCORE --version | sed -n 's/^simulated platforms: //p'); do
	n=$($UNCORE --backend "sim:$p" info | sed -n '1s/.*, \([0-9]*\) sockets*$/\1/p')
	: >"$W/$p.profile"
	for s in $(seq 0 $((n - 1))); do
		awk -v s="$s" 'BEGIN { printf "socket%d.mem_read_bytes_per_s = %.6g\n", s, 6.4e9 * (s + 1) }' >>"$W/$p.profile"
	done
	rm -f "$W/one.$p" "$W/one.$p".claims*
	root=; [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
	out=$(UNCORE_BACKEND=sim:$p,profile=$W/$p.profile,shared=$W/one.$p mpirun $root --oversubscribe -np "$n" \
		-x UNCORE_BACKEND "$W/mpi" --sockets "$n" --seconds 0.2 2>&1)
	if ! $UNCORE --backend "sim:$p" list --metrics | grep -q '^mem_read_bytes '; then
		check "$p: no metric mem_read_bytes: the example names it and fails" \
			'! echo "$out" | grep -q "^CONSISTENT$" && echo "$out" | grep -q "mem_read_bytes:socket=[0-9]*: Event does not exist"'
		continue
	fi
	bad=$(echo "$out" | awk '/^rank / { t = 6.4e9 * ($4 + 1); w = 4.8e9 * ($4 + 1)
		if ($10 / $6 > t * 1.001 || $10 / $8 < t * 0.999 || $12 / $6 > w * 1.001 || $12 / $8 < w * 0.999) print }')
	echo "$out" | grep -E "^(rank|CONSISTENT|INCONSISTENT)" || echo "$out" | tail -5
	check "$p: the MPI example, a rank on each of $n sockets, brackets the read and write truths${bad:+ ($bad)}" \
		'[ -z "$bad" ] && [ "$(echo "$out" | grep -c "^rank ")" -eq "$n" ] && echo "$out" | grep -q "^CONSISTENT$"'
done

# --- MPI across nodes (issue 36): one job over three simulated nodes, each its own machine (its shared=
# file, platform and profile), given to its ranks by the rank Open MPI gives each (OMPI_COMM_WORLD_RANK, 4 and
# 5 alike): one program for every rank, not an MPMD `mpirun a : b` line, on which Open MPI 5.0.7 crashes;
# exactly one rank per socket reads the uncore (--one-per-socket), rank 0 gathers the sockets' figures, adds
# them up per node and for the job.
# Node: name, platform, sockets, ranks, socket 0 and socket 1 read bytes per second (writes: the defaults)
NODESPEC="cn01 emr 2 3 6.4e9 12.8e9
cn02 snbep 2 2 3.2e9 4.8e9
cn03 skx 1 2 9.6e9 -"
nranks=0
: >"$W/as_node.sh" # each node's ranks in turn, as an MPMD line would number them
while read -r host plat socks ranks r0 r1; do
	printf 'socket0.mem_read_bytes_per_s = %s\n' "$r0" >"$W/$host.profile"
	[ "$r1" = - ] || printf 'socket1.mem_read_bytes_per_s = %s\n' "$r1" >>"$W/$host.profile"
	rm -f "$W/$host.machine" "$W/$host.machine".claims*
	nranks=$((nranks + ranks))
	printf '[ "$OMPI_COMM_WORLD_RANK" -lt %d ] && exec env UNCORE_BACKEND=%s %s\n' $nranks \
		"sim:$plat,sockets=$socks,profile=$W/$host.profile,shared=$W/$host.machine" \
		"$W/mpi --node $host --sockets $socks --one-per-socket --seconds 1" >>"$W/as_node.sh"
done <<EOF
$NODESPEC
EOF
echo 'echo "rank ${OMPI_COMM_WORLD_RANK:-?}: no node (OMPI_COMM_WORLD_RANK unset?)" >&2; exit 1' >>"$W/as_node.sh"
root=; [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
out=$(mpirun $root --oversubscribe -np $nranks sh "$W/as_node.sh" 2>&1)
echo "$out" | grep -E "^(rank|idle|socket|node|job|CONSISTENT|INCONSISTENT)"
check "nodes: the job over 3 simulated nodes (7 ranks) consistent" 'echo "$out" | grep -q "^CONSISTENT$"'
# the truth of node $1 socket $2, read or write ($3): the profile's reads, the simulator's default writes
truth() { echo "$NODESPEC" | awk -v h="$1" -v s="$2" -v k="$3" '$1 == h { print k == "read" ? $(5 + s) : 4.8e9 * (1 + s) }'; }
readers=$(echo "$out" | awk '/^rank / { print $NF ":" $4 }' | sort)
check "nodes: exactly one rank read each socket of each node (readers: $(echo $readers))" \
	'[ "$(echo $readers)" = "cn01:0 cn01:1 cn02:0 cn02:1 cn03:0" ]'
check "nodes: the other 2 ranks read nothing" '[ "$(echo "$out" | grep -c "^idle rank ")" -eq 2 ]'
# each socket: bytes over its reader's outer window <= truth <= bytes over its inner window (0.1 % for the
# counts' rounding), reads and writes
bad=$(echo "$out" | awk '/^rank / { print $NF, $4, $6, $8, $10, $12 }' | while read -r host s outer inner rd wr; do
	for k in read write; do
		t=$(truth "$host" "$s" $k) b=$rd
		[ $k = write ] && b=$wr
		awk -v b="$b" -v o="$outer" -v i="$inner" -v t="$t" 'BEGIN { exit !(b / o <= t * 1.001 && b / i >= t * 0.999) }' ||
			echo "$host socket $s $k: $b bytes over $outer..$inner s, truth $t B/s"
	done
done)
check "nodes: every socket's read and write bandwidth brackets its truth${bad:+ ($bad)}" '[ -z "$bad" ]'
# the node and job lines: the sum of the sockets' ranges must hold the sum of their truths
sum_truth() { echo "$NODESPEC" | awk -v h="$1" -v k="$2" 'h == "job" || $1 == h { for (s = 0; s < $3; s++) t += k == "read" ? $(5 + s) : 4.8e9 * (1 + s) } END { print t }'; }
inside() { # $1 a "lo..hi" range in GB/s (4 decimals), $2 the truth in B/s
	echo "$1" | awk -F'[.][.]' -v t="$2" '{ exit !($1 * 1e9 <= t * 1.001 + 1e5 && $2 * 1e9 >= t * 0.999 - 1e5) }'
}
for who in cn01 cn02 cn03 job; do
	case $who in job) line=$(echo "$out" | grep "^job ") ;; *) line=$(echo "$out" | grep "^node $who ") ;; esac
	rd=$(echo "$line" | sed -n 's/.*read_GBps \([^ ]*\).*/\1/p') wr=$(echo "$line" | sed -n 's/.*write_GBps \([^ ]*\).*/\1/p')
	trd=$(sum_truth $who read) twr=$(sum_truth $who write)
	check "nodes: $who's total read bandwidth $rd GB/s holds the sum of its sockets' truths ($trd B/s), write $wr GB/s ($twr)" \
		'[ -n "$rd" ] && inside "$rd" "$trd" && inside "$wr" "$twr"'
done
for host in cn01 cn02 cn03; do
	spec=$(echo "$NODESPEC" | awk -v h=$host '$1 == h { print "sim:" $2 ",sockets=" $3 }')
	state=$($SIMSTATE "$spec,profile=$W/$host.profile,shared=$W/$host.machine")
	check "nodes: $host's registers left as found after the job ($state)" \
		'echo "$state" | grep -q "changed 0$" && ! echo "$state" | grep -q "^writes 0 "'
done

# --- NUMA nodes (issue 67, doc/papi.md): mem_read_bytes:node=N, each node's channels summed, on sim: and perf+sim: of
# spr with SNC2 (four nodes, their domains' uneven shares): every node within 1 % of the simulator's truth for it
# (sim_state nodes) over the window its socket's DRAM clock measured (0.8e9 ticks a second), a socket's nodes
# adding up to its mem_read_bytes:socket=N; node=N listed as a qualifier; under SNC4, which no public table maps, a
# node's event refused at PAPI_add_event with the reason
for sim in "sim:spr,snc=2,profile=$W/profile" "perf+sim:spr,snc=2,profile=$W/profile"; do
	truth=$($SIMSTATE "$sim" nodes)
	q=$(UNCORE_BACKEND=$sim "$P/bin/papi_native_avail" -e intel_uncore:::mem_read_bytes 2>&1)
	check "$sim: mem_read_bytes lists :node=N, nodes 0-3" 'echo "$q" | grep -q ":node=0 -- NUMA node whose memory channels .*\[0-3\]"'
	out=$(UNCORE_BACKEND=$sim "$P/bin/papi_command_line" intel_uncore:::mem_read_bytes:node=0 intel_uncore:::mem_read_bytes:node=1 \
		intel_uncore:::mem_read_bytes:node=2 intel_uncore:::mem_write_bytes:node=3 intel_uncore:::mem_read_bytes:socket=0 \
		intel_uncore:::UNC_M_CLOCKTICKS:socket=0:box=0 intel_uncore:::UNC_M_CLOCKTICKS:socket=1:box=0 2>&1)
	value() { echo "$out" | sed -n "s/^intel_uncore:::$1 :[[:space:]]*\([0-9]*\).*/\1/p"; }
	clk0=$(value "UNC_M_CLOCKTICKS:socket=0:box=0") clk1=$(value "UNC_M_CLOCKTICKS:socket=1:box=0")
	for spec in "0 read 0" "1 read 0" "2 read 1" "3 write 1"; do
		set -- $spec
		got=$(value "mem_$2_bytes:node=$1") clk=$clk0
		[ "$3" = 1 ] && clk=$clk1
		bps=$(echo "$truth" | awk -v n="$1" -v k="$2" '$2 == n { print k == "read" ? $6 : $8 }')
		want=$(awk -v b="$bps" -v c="$clk" 'BEGIN { printf "%.0f", b * c / 0.8e9 }')
		echo "$sim: node $1 $2 $got bytes over $clk DRAM clocks, truth $bps B/s: $want"
		check "$sim: mem_$2_bytes:node=$1 = the node's truth within 1 %" '[ -n "$got" ] && [ -n "$bps" ] && near "$got" "$want" 0.01'
	done
	sum=$(($(value "mem_read_bytes:node=0") + $(value "mem_read_bytes:node=1")))
	check "$sim: nodes 0 and 1 add up to socket 0's mem_read_bytes" 'near "$sum" "$(value "mem_read_bytes:socket=0")" 0.001'
done
out=$(env -u PAPI_VERBOSE UNCORE_BACKEND=sim:spr,snc=4 "$P/bin/papi_command_line" intel_uncore:::mem_read_bytes:node=5 2>/dev/null)
check "sim:spr,snc=4: mem_read_bytes:node=5 refused at PAPI_add_event, saying why" \
	'echo "$out" | grep -A1 "^Failed adding: intel_uncore:::mem_read_bytes:node=5" | grep -q "^because: intel_uncore: mem_read_bytes:node=5: node 5: .*SNC4 on spr"' ||
	echo "$out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
