#!/bin/sh
# The simulated devices' NUMA node under sub-NUMA clustering (issue 67, doc/numa.md "Simulated"): a real kernel
# gives a PCI function its host bridge's node (the ACPI _PXM of its stack's SNC domain), so under SNC a device
# is on a node of its own socket, its stack's domain's: on sim: and perf+sim: of spr,snc=2 and gnr,snc=3 (and
# SNC off) each device of `uncore devices --json` must show a node of its socket (the nodes `stat --per-node`
# gives the socket) and its stack's (the model: stack st of N in domain st x SNC / N), and each row of `uncore
# stat --per-device` must end with its devices' node.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
for b in sim perf+sim; do
	for p in spr,snc=2 gnr,snc=3 spr; do
		be=$b:$p,clock=manual
		$UNCORE --backend "$be" devices --json >"$W/d.json" 2>"$W/err" &&
			$UNCORE --backend "$be" stat --per-node --duration 0.1 --json >"$W/n.json" 2>>"$W/err" &&
			$UNCORE --backend "$be" stat --per-device --duration 0.1 >"$W/p.txt" 2>>"$W/err"; rc=$?
		# the stacks a socket has (its IIO boxes), not those with devices (a stack of only the uncore's own
		# functions lists no group)
		nstacks=$($UNCORE --backend "$be" info | grep -c "^box iio [0-9]* socket 0:")
		res=$(python3 - "$W/d.json" "$W/n.json" "$W/p.txt" "$nstacks" <<'PY'
import json, re, sys
groups = [g for g in map(json.loads, open(sys.argv[1])) if g["socket"] >= 0]  # below a stack
nodes = [json.loads(l) for l in open(sys.argv[2])]
of_socket = {}
snc = {}
for r in nodes:
    if r["node"] is not None and r["kind"] == "ddr":
        of_socket.setdefault(r["socket"], set()).add(r["node"])
        snc[r["socket"]] = r["snc"]
nstacks = int(sys.argv[4])
bad, n = [], 0
first = {}
for g in groups:
    s, st = g["socket"], g["stack"]
    want = min(of_socket[s]) + st * snc[s] // nstacks
    for d in g["devices"]:
        n += 1
        if d["numa_node"] not in of_socket[s] or d["numa_node"] != want:
            bad.append("%s (socket %d stack %d) node %d, want %d of %s" % (d["bdf"], s, st, d["numa_node"], want, sorted(of_socket[s])))
    if g["port"] >= 0 and g["devices"]:
        first[(s, st, g["port"])] = g["devices"][0]["numa_node"]
rows = 0
for l in open(sys.argv[3]):
    m = re.match(r"socket(\d+) iio(\d+) port(\d+) .*  node (\d+)$", l.rstrip("\n"))
    if l.startswith("socket") and not m and not l.rstrip().endswith("empty"):
        bad.append("per-device row without its node: " + l.strip())
    elif m:
        rows += 1
        s, box, port, node = map(int, m.groups())
        if node not in of_socket[s]:
            bad.append("per-device row of socket %d on node %d" % (s, node))
print(n > 0 and rows > 0 and not bad and "ok" or "%d devices %d rows: %s" % (n, rows, "; ".join(bad[:4])))
PY
)
		check "$be: each device on its stack's node of its socket, --per-device says it ($rc: $res)" \
			'[ $rc -eq 0 ] && [ "$res" = ok ]' || cat "$W/err"
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
