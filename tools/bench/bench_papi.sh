#!/bin/sh
# make bench, PAPI part: the intel_uncore component's init time and the time papi_native_avail takes to
# list every event, next to the stock perf_event_uncore component listing libpfm4's SNB-EP uncore
# tables (forced with LIBPFM_FORCE_PMU, one PMU per run: libpfm4 takes a single name).
set -e
P=${PAPI_PREFIX:?}
here=$(dirname "$0")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -std=c11 -O2 -o "$W/bench_papi" "$here/bench_papi.c" -I"$P/include" -L"$P/lib" -lpapi -Wl,-rpath,"$P/lib"
ms() { date +%s%N; }
# median wall time in ms of 5 runs of papi_native_avail, the median of its CPU time (user + system: what the
# listing costs whatever else the machine runs; with /usr/bin/time, Debian's package "time"), and the events it listed
native_avail() {
	for i in 1 2 3 4 5; do
		t0=$(ms)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$W/cpu" "$P/bin/papi_native_avail" >"$W/out" 2>&1
			awk '{ printf "%d\n", ($1 + $2) * 1000000 }' "$W/cpu" >>"$W/cpus"
		else
			"$P/bin/papi_native_avail" >"$W/out" 2>&1
		fi
		echo $((($(ms) - t0) / 1000))
	done | sort -n | sed -n 3p >"$W/t"
	printf '%s.%03d ms' $(($(cat "$W/t") / 1000)) $(($(cat "$W/t") % 1000))
	if [ -s "$W/cpus" ]; then
		c=$(sort -n "$W/cpus" | sed -n 3p)
		printf ' (CPU %s.%03d ms)' $((c / 1000)) $((c % 1000))
	fi
	rm -f "$W/cpus"
	printf ', %s events' "$(grep -c "^| $1" "$W/out")"
}
for b in emr spr gnr icx snbep; do
	UNCORE_BACKEND=sim:$b "$W/bench_papi"
	echo "papi_native_avail, intel_uncore on sim:$b: $(UNCORE_BACKEND=sim:$b native_avail intel_uncore:::) (target for EMR, a 2-socket GNR and a 2-socket ICX: under 1000 ms, CPU time where the machine is loaded)"
done
total=0 events=0
for pmu in snbep_unc_cbo0 snbep_unc_ha snbep_unc_imc0 snbep_unc_pcu snbep_unc_qpi0 snbep_unc_ubo snbep_unc_r2pcie \
	snbep_unc_r3qpi0; do
	line=$(LIBPFM_FORCE_PMU=$pmu UNCORE_BACKEND=sim:none native_avail "$pmu::")
	echo "papi_native_avail, perf_event_uncore forced to $pmu: $line"
	total=$((total + $(cat "$W/t")))
	events=$((events + $(grep -c "^| $pmu::" "$W/out")))
done
printf 'perf_event_uncore, libpfm4 SNB-EP uncore tables (8 runs, one PMU each): %s.%03d ms for %s events\n' \
	$((total / 1000)) $((total % 1000)) "$events"
