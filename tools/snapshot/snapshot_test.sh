#!/bin/sh
# Turn a node's snapshot into a test (doc/snapshot.md): tools/snapshot/snapshot_test.sh NAME SNAPSHOT.tar[.gz] [BUILDDIR]
# keeps it as tests/snapshots/field/NAME.tar.gz and what the library answers on its replay today as
# NAME.expect (what uncore info finds, its warnings, and the default metrics of a simulated second,
# directly and through perf where the snapshot has the kernel's PMUs).  Read NAME.expect: it is the
# answer test_replay.sh holds the library to from then on.
set -e
[ $# -ge 2 ] || { echo "usage: tools/snapshot/snapshot_test.sh NAME SNAPSHOT.tar [BUILDDIR]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
name=$1 snap=$2 build=${3:-$top/build}
case $name in *[!a-z0-9-]*|"") echo "snapshot_test: NAME is lower-case letters, digits and '-'" >&2; exit 2 ;; esac
dir=$top/tests/snapshots/field
mkdir -p "$dir"
# (a snapshot taken as FILE.tar.gz is kept as its tar gzipped again here, not gzipped twice)
if gzip -t "$snap" 2>/dev/null; then gzip -dc "$snap"; else cat "$snap"; fi | gzip -9n >"$dir/$name.tar.gz"
"$top/tests/replay_answer.sh" "$build/uncore" "$dir/$name.tar.gz" >"$dir/$name.expect"
echo "tests/snapshots/field/$name.tar.gz and $name.expect written:"
cat "$dir/$name.expect"
