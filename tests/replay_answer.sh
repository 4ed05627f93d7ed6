#!/bin/sh
# What the library answers on a snapshot's replay (tools/snapshot/snapshot_test.sh writes it, test_replay.sh compares):
#   tests/replay_answer.sh UNCORE SNAPSHOT.tar.gz
# For the register backend and, where the snapshot has the kernel's PMUs, the perf backend: uncore info
# (the first line, which names the file, left out), its warnings, and the default metrics of one simulated
# second on every socket.
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
	"$uncore" --backend "$b:$t/s.tar,clock=manual" stat --metric-group memory,llc,interconnect,clock --duration 1 2>&1 |
		grep -v '^#' | sed "s|$t/s.tar|SNAPSHOT|g"
done
