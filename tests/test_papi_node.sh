#!/bin/sh
# The intel_uncore PAPI component follows the node changing under a running EventSet (issue 99 point 2): a PAPI
# program (papi_component/intel_uncore/tests/intel_uncore_node.c) on sim:skx's manual clock, the simulator's
# changes file taking CPUs offline and back mid-run and passing the time; every count equals the truth over the
# whole run, and each change and each event that went away said once through PAPI's warnings (PAPI_VERBOSE).
# PAPI comes from scripts/build-papi (configure --with-papi=PREFIX).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/papi_prefix.sh" # P
SRC=${top_srcdir:-.}/papi_component/intel_uncore/tests
unset UNCORE_BACKEND
cc -std=c11 -Wall -Wextra -Werror -o "$W/node" "$SRC/intel_uncore_node.c" -I"$P/include" -L"$P/lib" -lpapi \
	-Wl,-rpath,"$P/lib" || no "intel_uncore_node builds"
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket1.mem_read_bytes_per_s = 12.8e9\nuncore_clock_hz = 1.6e9\n' >"$W/profile"
: >"$W/changes"
UNCORE_BACKEND=sim:skx,clock=manual,profile=$W/profile,changes=$W/changes PAPI_VERBOSE=1 "$W/node" "$W/changes" \
	>"$W/out" 2>"$W/err"
cat "$W/out"
grep -v "^PAPI Warning: intel_uncore: the node changed\|^PAPI Warning: intel_uncore: after the node's change" "$W/err"
check "the counts equal the truth across CPUs going offline and coming back" 'tail -1 "$W/out" | grep -q "^PASSED$"'
said() { grep -c "^PAPI Warning: intel_uncore: $1" "$W/err"; }
check "three changes seen, each said once" \
	'[ "$(said "the node changed (cpus): each EventSet is planned again at its next call, its counts carried over$")" -eq 3 ] &&
	 [ "$(said "the node changed (")" -eq 3 ]' || cat "$W/err"
check "CPU 1's event left out twice (mid-run, at a start), each said once, naming its CPU" \
	'[ "$(said "after the node.s change no longer counted, each count kept at its last value: UNC_M_CAS_COUNT.RD:cpu=1 (.*CPU 1 is offline.*)$")" -eq 2 ]' || cat "$W/err"
# (PAPI's perf_event component may say its own, on a host that does not virtualize the core PMU)
check "nothing else of the component said: no error, no other warning" \
	'! grep intel_uncore "$W/err" | grep -v "^PAPI Warning: intel_uncore: \(the node changed (\|after the node.s change\)" | grep -q .'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
