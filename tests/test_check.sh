#!/bin/sh
# uncore check (issue 35): on the simulator the generators' bytes are the whole workload, so every check
# passes on a sound machine and a channel left uncounted fails by name; the JSON form carries the same
# rows; on a machine without an Intel uncore the command says why and offers the simulated check.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
ARGS="--seconds 0.1 --size 8"

for b in sim:snbep sim:ivbep sim:emr sim:spr sim:gnr sim:srf perf+sim:snbep perf+sim:emr perf+sim:gnr; do
	$UNCORE --backend "$b,clock=manual" check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	rows=$(grep -v "^#" "$W/out" | grep -cE " (PASS|FAIL|SKIP)")
	check "$b: check exits 0 with every row PASS ($rows rows, exit $rc$(head -c 200 "$W/err"))" \
		'[ $rc -eq 0 ] && [ "$rows" -ge 16 ] && [ "$(grep -cE " (FAIL|SKIP)" "$W/out")" -eq 0 ] && grep -q "^# PASS" "$W/out"'
done

# on the simulator's real clock too: the workload's bytes go in while its clock stands still, so a loaded
# host's late wake-ups add nothing
for i in 1 2 3; do
	$UNCORE --backend sim:gnr check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	check "sim:gnr on the real clock, run $i: exit 0, every row PASS (exit $rc)" \
		'[ $rc -eq 0 ] && [ "$(grep -v "^#" "$W/out" | grep -cE " (FAIL|SKIP)")" -eq 0 ]'
done

# a memory channel the library cannot count (no PCI device, no kernel PMU): the socket counts less than moved
for b in "sim:snbep,fault=missing:imc:1" "perf+sim:emr,missing=uncore_imc_0" "perf+sim:gnr,missing=uncore_imc_2"; do
	$UNCORE --backend "$b,clock=manual" check $ARGS --socket 0 >"$W/out" 2>"$W/err"
	rc=$?
	check "$b: check exits 1, naming the uncounted traffic (exit $rc)" \
		'[ $rc -eq 1 ] && grep -q "socket 0 read bytes .*FAIL: [0-9]*% of the bytes moved were counted" "$W/out" && grep -q "^# FAIL" "$W/out"'
done

# faults of the counters themselves: a dead PMU counts nothing, a phantom one an impossible rate
$UNCORE --backend "sim:emr,clock=manual,fault=dead:imc:3" check $ARGS --socket 1 >"$W/out" 2>"$W/err"
rc=$?
check "a dead IMC channel: exit 1, the traffic not all counted (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "socket 1 read bytes .*FAIL: [0-9]*% of the bytes moved were counted" "$W/out"'
$UNCORE --backend "sim:snbep,clock=manual,fault=phantom:imc:2" check $ARGS --socket 0 >"$W/out" 2>"$W/err"
rc=$?
check "a phantom channel: exit 1, the idle traffic impossible (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "idle: socket 0 memory traffic .*FAIL: more than 4 channels can move" "$W/out"'

# --json: one object a row, the same verdicts
$UNCORE --backend sim:gnr,clock=manual check $ARGS --socket 1 --json >"$W/json" 2>"$W/err"
rc=$?
out=$(python3 - "$W/json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [r for r in rows if set(r) != {"backend", "check", "expected", "measured", "verdict", "why"} or r["verdict"] != "PASS"]
print(len(rows), len(bad))
PY
)
check "--json: every row an object with check, expected, measured, verdict ($out, exit $rc)" '[ $rc -eq 0 ] && [ "$out" = "10 0" ]'

# bad arguments
for a in "--size 0" "--seconds -1" "--socket 7" "--bogus"; do
	$UNCORE --backend sim:snbep check $a >"$W/out" 2>"$W/err"
	rc=$?
	check "check $a: refused with exit 2 ($(head -c 120 "$W/err"))" '[ $rc -eq 2 ] && [ -s "$W/err" ]'
done

# no Intel uncore here: the hardware check cannot run, and the simulated one is offered
if UNCORE_BACKEND= $UNCORE info >/dev/null 2>&1; then
	echo "SKIP: this machine has an uncore the library can count: the no-hardware message is not tested here"
else
	UNCORE_BACKEND= $UNCORE check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	check "no uncore: check exits 2, says why and offers the simulated check" \
		'[ $rc -eq 2 ] && grep -q "no check on the hardware is possible here" "$W/err" && grep -q "uncore --backend sim:" "$W/err"'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
