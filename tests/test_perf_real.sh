#!/bin/sh
# The perf backend against the real kernel, where it has uncore PMUs: count the iMC's CAS reads (or the
# platform's clock) through /sys/bus/event_source/devices/uncore_*.  Elsewhere: SKIP with the reason
# (exit 77, which automake counts as a skip, never as a pass).
UNCORE=${top_builddir:-.}/uncore
set -- /sys/bus/event_source/devices/uncore*
if [ ! -e "$1" ]; then
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	vm=$(grep -qw hypervisor /proc/cpuinfo && echo "; a virtual machine: its hypervisor hides the uncore")
	echo "SKIP: no uncore PMUs in /sys/bus/event_source/devices on this machine (${cpu:-unknown CPU}$vm): the real-kernel test needs an Intel server with intel_uncore loaded"
	exit 77
fi
info=$($UNCORE --backend perf info 2>&1) || {
	case $info in
	*perf_event_paranoid*) echo "SKIP: the kernel has uncore PMUs, but this user may not use them: $info"; exit 77 ;;
	esac
	echo "FAIL: uncore --backend perf info: $info"
	echo "0 passed, 1 failed"
	exit 1
}
echo "$info" | head -3
ev=UNC_M_CAS_COUNT.RD
[ -e /sys/bus/event_source/devices/uncore_imc_0 ] || [ -e /sys/bus/event_source/devices/uncore ] || ev=UNC_C_CLOCKTICKS
[ -e /sys/bus/event_source/devices/uncore ] && ev=UNC_CLK_UNHALTED # Nehalem's single PMU: its clock
out=$($UNCORE --backend perf stat -e "$ev" --duration 1 2>&1)
echo "$out"
if echo "$out" | awk -v e="$ev" '$2 == e && $3 > 0 { n++ } END { exit !n }'; then
	echo "PASS: $ev counted through the real kernel"
	echo "1 passed, 0 failed"
else
	echo "FAIL: $ev did not count through the real kernel"
	echo "0 passed, 1 failed"
	exit 1
fi
