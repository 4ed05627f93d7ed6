#!/bin/sh
# uncore stat --per-node and uncore check's proof of the channel-to-node map (issue 67 points 1 and 2, doc/numa.md):
# on sim:gnr,snc=3 every node's JSON row is its domain's share of the socket (d + 1 parts of 6, the simulator's
# truth) and the rows add up to the socket's; uncore check places memory on each node in turn and passes, and
# fails the node rows when the hardware's channels contradict the map (fault swapped:sncmap); a node no table
# maps is printed refused with why; each socket's local versus remote split adds up to its bytes.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
for b in sim perf+sim; do
	$UNCORE --backend $b:gnr,clock=manual,snc=3 stat --per-node --duration 1 --json >"$W/n.json" 2>"$W/err"; rc=$?
	res=$(python3 - "$W/n.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
nodes = [r for r in rows if r["node"] is not None and r["memory"] == "ddr"]
tot = {r["socket"]: r for r in rows if r["node"] is None and r["memory"] == "ddr"}
bad = []
for r in nodes:
    want = tot[r["socket"]]["read_bytes"] * (r["domain"] + 1) / 6
    if abs(r["read_bytes"] - want) > 0.01 * want: bad.append("node%d %g want %g" % (r["node"], r["read_bytes"], want))
for s, t in tot.items():
    for k in ("read_bytes", "write_bytes"):
        got = sum(r[k] for r in nodes if r["socket"] == s)
        if abs(got - t[k]) > 1e-9 * t[k] + 64: bad.append("socket%d %s %g != %g" % (s, k, got, t[k]))
print(len(nodes), " ".join(bad) or "ok")
PY
)
	check "$b:gnr,snc=3 --per-node: six nodes at their domain's share, adding up to the socket ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "6 ok" ]'
done
# -M with --per-node (as perf stat --per-node -M): the metric named, on each node its domain's share of the
# simulator's profile (mem_read_bytes_per_s 12.8e9 x (socket + 1), common/sim/sim_profile.c; d + 1 parts of 6
# under SNC3) and each socket's total; a metric of the CHAs (llc_misses) said once as not split, given by socket
for b in sim perf+sim; do
	$UNCORE --backend $b:gnr,clock=manual,snc=3 stat --per-node -M mem_bw_read,llc_misses --duration 1 --json >"$W/m.json" 2>"$W/err"; rc=$?
	res=$(python3 - "$W/m.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bw = [r for r in rows if r["metric"] == "mem_bw_read" and r["node"] is not None]
tot = {r["socket"]: r["value"] for r in rows if r["metric"] == "mem_bw_read" and r["node"] is None}
llc = [r for r in rows if r["metric"] == "llc_misses"]
bad = []
for r in bw:
    dom = r["node"] - 3 * r["socket"]  # SNC3: the socket's nodes in domain order
    want = 12.8 * (r["socket"] + 1) * (dom + 1) / 6
    if abs(r["value"] - want) > 1e-6 * want: bad.append("node%d %g want %g" % (r["node"], r["value"], want))
for s in (0, 1):
    if abs(tot.get(s, -1) - 12.8 * (s + 1)) > 1e-6: bad.append("socket%d %s" % (s, tot.get(s)))
if not (llc and "refused" in llc[0] and llc[0]["node"] is None and sum(1 for r in llc if "value" in r) == 2):
    bad.append("llc_misses rows %s" % llc)
print(len(bw), " ".join(bad) or "ok")
PY
)
	check "$b:gnr,snc=3 --per-node -M mem_bw_read: each node its share of the profile, llc_misses by socket ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "6 ok" ]' || cat "$W/err"
done
out=$($UNCORE --backend sim:gnr stat --per-node -e UNC_M_CAS_COUNT_SCH0.RD --duration 1 2>&1); rc=$?
check "--per-node -e is refused, naming -M ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "give -M METRIC"'
# local versus remote (issue 67 point 4): each socket's DDR row carries its home agents' split, the simulator's
# remote_ratio (0.1 x (socket + 1) by default) of its reads and writes, local + remote = the channels' bytes
for b in sim perf+sim; do
	$UNCORE --backend $b:gnr,clock=manual,snc=3 stat --per-node --duration 1 --json >"$W/n.json" 2>"$W/err"; rc=$?
	res=$(python3 - "$W/n.json" <<'PY'
import json, sys
tot = [r for r in map(json.loads, open(sys.argv[1])) if r["node"] is None and r["memory"] == "ddr"]
bad = []
for t in tot:
    for k in ("read", "write"):
        loc, rem, whole = t[k + "_local_bytes"], t[k + "_remote_bytes"], t[k + "_bytes"]
        if abs(loc + rem - whole) > 0.01 * whole: bad.append("socket%d %s %g + %g != %g" % (t["socket"], k, loc, rem, whole))
        want = 0.1 * (t["socket"] + 1) * whole
        if abs(rem - want) > 0.01 * want: bad.append("socket%d %s remote %g, want %g" % (t["socket"], k, rem, want))
print(len(tot), " ".join(bad) or "ok")
PY
)
	check "$b:gnr,snc=3 --per-node: each socket's local + remote = its bytes, remote the truth ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "2 ok" ]'
done
out=$($UNCORE --backend sim:snbep,clock=manual stat --per-node --duration 0.1 2>&1); rc=$?
check "sim:snbep: no local/remote split, refused with why ($rc)" \
	'[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c "^local/remote socket[01]: refused: snbep has no local versus remote metric")" -eq 2 ]' ||
	echo "$out"
# the text rows name the memory once: "node0   socket0 ddr read ... B" (issue 80: it said "ddr ddr"), whole bytes
check "sim:snbep --per-node text: each node and socket row names its memory once, in whole bytes" \
	'[ "$(echo "$out" | grep -cE "^(node[01] +socket[01]|total +socket[01]) +ddr read +[0-9]+ B +[0-9.]+ GB/s  write +[0-9]+ B ")" -eq 4 ]' ||
	echo "$out"
out=$($UNCORE --backend sim:spr,snc=4 stat --per-node --duration 0.1 2>&1); rc=$?
check "sim:spr,snc=4: nodes refused, saying why ($rc)" \
	'[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c "refused: no public table says which memory channels serve which domain of SNC4 on spr")" -eq 8 ]'
$UNCORE --backend sim:gnr,clock=manual,snc=3 check --seconds 0.2 --size 64 --socket 0 >"$W/c" 2>&1; rc=$?
check "check on sim:gnr,snc=3: passes, three nodes proved ($rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -c "^node [0-2] (socket 0): its memory on its channels .*PASS" "$W/c")" -eq 3 ]' || cat "$W/c"
$UNCORE --backend sim:gnr,clock=manual,snc=3,fault=swapped:sncmap check --seconds 0.2 --size 64 --socket 0 >"$W/c" 2>&1; rc=$?
check "check with a wrong map: fails on nodes 0 and 1 ($rc)" \
	'[ $rc -eq 1 ] && grep -q "^node 0 (socket 0): its memory on its channels .*FAIL: less of the bytes read on node 0" "$W/c" &&
	 grep -q "^node 0.s memory: node 1.s channels .*FAIL" "$W/c" && grep -q "^node 2 (socket 0): its memory on its channels .*PASS" "$W/c"' || cat "$W/c"
# the window is the --duration asked, on the manual clock to the nanosecond (it was 0.999999999 s: 50 ms steps
# summed in floating point, the last one cut short)
secs=$($UNCORE --backend sim:spr,clock=manual stat --per-node --duration 1 --json 2>&1 | sed -n 's/.*"seconds": \([0-9.e+-]*\),.*/\1/p' | sort -u)
check "--per-node --duration 1 counts 1 s exactly (${secs:-no rows})" '[ "$secs" = 1 ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
