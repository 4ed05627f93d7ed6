#!/bin/sh
# What the library answers on a snapshot's replay (tools/snapshot/snapshot_test.sh writes it, test_replay.sh compares):
#   tests/replay_answer.sh UNCORE SNAPSHOT.tar.gz
# For the register backend and, where the snapshot has the kernel's PMUs, the perf backend: uncore info
# (the first line, which names the file, left out), its warnings, and the default metrics of one simulated
# second on every socket; where the snapshot keeps the device tree, uncore devices.
uncore=$1 snap=$2
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
gzip -dc "$snap" >"$t/s.tar" || exit 1
for b in replay perf+replay; do
	[ $b = perf+replay ] && ! tar tf "$t/s.tar" | grep -q "^sys/bus/event_source/devices/uncore" && continue
	echo "== $b: uncore info"
	"$uncore" --backend "$b:$t/s.tar" info 2>"$t/err" | tail -n +2
	sed "s|$t/s.tar|SNAPSHOT|g" "$t/err"
	echo "== $b: uncore stat, default metrics, 1 simulated second"
	# a group the machine has no boxes for (every QPI device hidden) is refused: that line, then the others
	groups=memory,llc,interconnect,clock
	while "$uncore" --backend "$b:$t/s.tar,clock=manual" stat --metric-group $groups --duration 1 >"$t/out" 2>&1 ||
		grep -q "^uncore: no metric group '[a-z]*' on" "$t/out"; do
		g=$(sed -n "s/^uncore: no metric group '\([a-z]*\)' on.*/\1/p" "$t/out")
		[ -n "$g" ] && [ "$groups" != "$g" ] || break
		cat "$t/out"
		groups=$(echo ",$groups," | sed "s/,$g,/,/; s/^,//; s/,$//")
	done
	grep -v '^#' "$t/out" | sed "s|$t/s.tar|SNAPSHOT|g"
	tar tf "$t/s.tar" | grep -q "^devices/tree.txt$" || continue
	echo "== $b: uncore devices"
	"$uncore" --backend "$b:$t/s.tar" devices 2>&1 | sed "s|$t/s.tar|SNAPSHOT|g"
done
