#!/bin/sh
# Memory by NUMA node on a replayed snapshot (issue 67 point 4, doc/numa.md): the field snapshot gnr-snc3-cxl (a
# two-socket Granite Rapids in SNC3 with a CXL memory node a socket, tests/snapshots/field/gnr-snc3-cxl.nodes
# says what it is) keeps the node's NUMA topology, and its replay counts as the node: on replay: and
# perf+replay: every node's read and write bandwidth of `stat --per-node` is the truth its .nodes file records
# within 1 %, the nodes of a socket add up to its total, and `uncore check` proves the map on each socket
# (passing), and fails it where the replayed machine's channels contradict it (fault=swapped:sncmap).  A
# snapshot of an older version, without the NUMA files, is refused with the reason.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
S=${top_srcdir:-.}
F=$S/tests/snapshots/field/gnr-snc3-cxl
gzip -dc "$F.tar.gz" >"$W/s.tar"
for b in replay perf+replay; do
	$UNCORE --backend "$b:$W/s.tar,clock=manual" stat --per-node --duration 1 --json >"$W/n.json" 2>"$W/err"; rc=$?
	res=$(python3 - "$W/n.json" "$F.nodes" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
truth = {}
for l in open(sys.argv[2]):
    if l.strip() and not l.startswith("#"):
        n, s, kind, rd, wr = l.split()
        truth[int(n)] = (int(s), kind, float(rd), float(wr))
nodes = {r["node"]: r for r in rows if r["node"] is not None and r["memory"] == r["kind"]}
bad = []
if sorted(nodes) != sorted(truth):
    bad.append("nodes %s, the truth's %s" % (sorted(nodes), sorted(truth)))
for n, (s, kind, rd, wr) in truth.items():
    r = nodes.get(n)
    if not r:
        continue
    if (r["socket"], r["kind"]) != (s, kind):
        bad.append("node%d: socket %s %s, want %d %s" % (n, r["socket"], r["kind"], s, kind))
    for k, want in (("read_bw", rd), ("write_bw", wr)):
        if abs(r[k] - want) > 0.01 * want:
            bad.append("node%d %s %.6g, the truth %.6g" % (n, k, r[k], want))
for t in (r for r in rows if r["node"] is None):
    got = sum(x["read_bytes"] for x in nodes.values() if x["socket"] == t["socket"] and x["kind"] == t["memory"])
    if abs(got - t["read_bytes"]) > 1e-9 * t["read_bytes"] + 64:
        bad.append("socket%d %s: nodes %g, total %g" % (t["socket"], t["memory"], got, t["read_bytes"]))
print(" ".join(bad) or "ok")
PY
)
	check "$b: gnr-snc3-cxl: eight nodes at the truth of its .nodes file, adding up to their sockets ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = ok ]' || cat "$W/err"
	for s in 0 1; do
		$UNCORE --backend "$b:$W/s.tar,clock=manual" check --seconds 0.2 --size 64 --socket $s >"$W/c" 2>&1; rc=$?
		n=$(grep -c "^node [0-9] (socket $s): its memory on its channels .*PASS" "$W/c")
		check "$b: check proves socket $s's map: its three SNC nodes and its CXL node ($rc, $n nodes)" \
			'[ $rc -eq 0 ] && [ "$n" -eq 4 ]' || cat "$W/c"
	done
	$UNCORE --backend "$b:$W/s.tar,clock=manual,fault=swapped:sncmap" check --seconds 0.2 --size 64 --socket 0 >"$W/c" 2>&1; rc=$?
	check "$b: check fails the map the replayed channels contradict, on nodes 0 and 1 ($rc)" \
		'[ $rc -eq 1 ] && grep -q "^node 0 (socket 0): its memory on its channels .*FAIL" "$W/c" &&
		 grep -q "^node 1 (socket 0): its memory on its channels .*FAIL" "$W/c" &&
		 grep -q "^node 2 (socket 0): its memory on its channels .*PASS" "$W/c"' || cat "$W/c"
done
# a snapshot without the NUMA files (taken before snapshots kept them): refused, saying so
out=$($UNCORE --backend "replay:$S/tests/snapshots/skx.tar.gz" stat --per-node --duration 0.1 2>&1); rc=$?
check "a snapshot without the node's NUMA files: refused with the reason ($rc)" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "this snapshot keeps no NUMA memory topology"' || echo "$out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
