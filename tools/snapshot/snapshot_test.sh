#!/bin/sh
# Turn a node's snapshot into a test (doc/snapshot.md): tools/snapshot/snapshot_test.sh NAME SNAPSHOT.tar [BUILDDIR]
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
gzip -9nc "$snap" >"$dir/$name.tar.gz"
"$top/tests/replay_answer.sh" "$build/uncore" "$dir/$name.tar.gz" >"$dir/$name.expect"
echo "tests/snapshots/field/$name.tar.gz and $name.expect written:"
cat "$dir/$name.expect"
