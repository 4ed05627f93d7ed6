#!/bin/sh
# A PAPI program through a simulated year (issue 99 point 3): papi_component/intel_uncore/tests/intel_uncore_year.c
# on sim:skx's manual clock, the counters started 120 s short of their wrap, the clock and the node's changes
# through the simulator's changes file.  The program checks the totals against the profile's truth, each
# coming and going EventSet's counts, RSS and open files; here: each change said once, the event that went away
# said once, no error said (PAPI's warnings, PAPI_VERBOSE).  PAPI comes from scripts/build-papi (configure
# --with-papi=PREFIX).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/papi_prefix.sh" # P
SRC=${top_srcdir:-.}/papi_component/intel_uncore/tests
LIVES=${IU_YEAR_EVENTSETS:-100000} # EventSets that come and go over the year
unset UNCORE_BACKEND
cc -std=c11 -Wall -Wextra -Werror -o "$W/year" "$SRC/intel_uncore_year.c" -I"$P/include" -I"${top_srcdir:-.}/tests" -L"$P/lib" -lpapi -lm -pthread \
	-Wl,-rpath,"$P/lib" || no "intel_uncore_year builds"
# socket 0 reads 6.4e9 B/s and writes 3.2e9, socket 1 reads 12.8e9; the low power of the year tests (tests/year.h):
# the RAPL counters wrap every day or two
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 12.8e9\n' >"$W/profile"
printf 'uncore_clock_hz = 1.6e9\npkg_watts = 2\ndram_idle_watts = 0.3\ndram_watts_per_gbps = 0.005\n' >>"$W/profile"
: >"$W/changes"
UNCORE_BACKEND=sim:skx,clock=manual,prewrap=120,profile=$W/profile,changes=$W/changes PAPI_VERBOSE=1 \
	"$W/year" "$W/changes" "$LIVES" >"$W/out" 2>"$W/err"
cat "$W/out"
check "the year's totals, each EventSet's counts, RSS and open files" 'tail -1 "$W/out" | grep -q "^PASSED$"'
n=$(sed -n 's/^changes: \([0-9]*\)$/\1/p' "$W/out")
said=$(grep -c "^PAPI Warning: intel_uncore: the node changed (" "$W/err")
check "each of the ${n:-?} changes said once ($said said)" '[ -n "$n" ] && [ "$said" -eq "$n" ]' || grep "^PAPI" "$W/err" | head
check "CPU 19's event left out once, saying why" \
	'[ "$(grep -c "^PAPI Warning: intel_uncore: after the node.s change no longer counted, each count kept at its last value: UNC_M_CAS_COUNT.RD:cpu=19 (.*CPU 19 is offline.*)$" "$W/err")" -eq 1 ]'
# (PAPI's perf_event component may say its own, on a host that does not virtualize the core PMU)
check "nothing else of the component said: no error, no other warning" \
	'! grep intel_uncore "$W/err" | grep -v "^PAPI Warning: intel_uncore: \(the node changed (\|after the node.s change\)" | grep -q .' ||
	grep intel_uncore "$W/err" | head -5
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
