#!/bin/sh
# Check perf's own metric files of a Linux source tree against the simulator: every uncore metric of
# tools/perf/pmu-events/arch/x86/{jaketown/jkt,ivytown/ivt,emeraldrapids/emr,sierraforest/srf}-metrics.json must
# load and equal the truth on sim:<platform> and perf+sim:<platform> (snbep, ivbep, emr, srf; EMR with and without
# PMem), but tma_info_system_mem_parallel_reads, which only the perf backend counts (multiplexed) and sim: must
# refuse, and the core metrics be left out with one warning (srf's with '%' or a space in their names too). Linux's files are GPL, so they are not kept in this
# tree: this runs tests/test_metrics in its LINUX_TREE mode over the tree given.
#   tools/checks/check_linux_metrics.sh LINUX_SRC [BUILDDIR]    (BUILDDIR: build/, made with make check)
tree=${1:?usage: check_linux_metrics.sh LINUX_SRC [BUILDDIR]}
build=${2:-$(dirname "$0")/../../build}
[ -d "$tree/tools/perf/pmu-events/arch/x86" ] || { echo "check_linux_metrics.sh: $tree has no tools/perf/pmu-events/arch/x86" >&2; exit 2; }
[ -x "$build/tests/test_metrics" ] || (cd "$build" && make -s tests/test_metrics) || exit 2
out=$(LINUX_TREE=$tree "$build/tests/test_metrics" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E 'metrics load|skipped|truth|did not load|loaded, no truth|lacks|^ +[0-9]+\. '
printf '%s\n' "$out" | grep -E '^ +asserts'
[ $rc -eq 0 ] && echo "check_linux_metrics.sh: $tree: every uncore metric loads and equals the truth" ||
	echo "check_linux_metrics.sh: $tree: FAILED (above)" >&2
exit $rc
