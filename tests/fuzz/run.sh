#!/bin/sh
# Build the libFuzzer harnesses (clang, ASan + UBSan + coverage) and run each: first every kept crash
# input (tests/fuzz/regressions/NAME-*) once, then FUZZ_SECONDS of fuzzing from the seed corpus.
# Prints a line per fuzzer with executions, exec/s and coverage, and "N passed, N failed".
# Called by 'make fuzz' and tests/test_fuzz.sh with the build's flags in the environment.
S=${top_srcdir:?}
B=${top_builddir:?}/fuzz
CC=${FUZZ_CC:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-10}
FLAGS="-g -O1 -std=c11 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
pass=0 fail=0
mkdir -p "$B/obj"
# the fuzzers' scratch files, removed however they end (a crash skips their own cleanup)
export TMPDIR="$B/tmp"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
trap 'exit 1' INT TERM HUP
if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' |
	$CC -x c -fsanitize=fuzzer - -o "$B/probe" 2>/dev/null; then
	echo "no libFuzzer: $CC -fsanitize=fuzzer does not link (install clang and libclang-rt-dev)"
	exit 77
fi
# the library, once, with coverage for the fuzzers; two compilers at a time (two cores).  An object
# is reused only when it is newer than its source and than every header (a changed struct layout in
# a header would otherwise mix two layouts in one fuzzer).
objs= running=0
rm -f "$B/obj/failed"
newest_h=$(ls -t "$S"/common/*.h "$S"/common/*/*.h "$B"/../common/*.h "$B"/../common/*/*.h 2>/dev/null | head -1)
for src in $FUZZ_SOURCES; do
	case $src in *.c) ;; *) continue ;; esac
	[ -f "$src" ] || src=$S/$src
	o=$B/obj/$(echo "$src" | tr '/' '_' | sed 's/\.c$/.o/')
	objs="$objs $o"
	[ "$o" -nt "$src" ] && { [ -z "$newest_h" ] || [ "$o" -nt "$newest_h" ]; } && continue
	{ $CC $FLAGS -fsanitize=fuzzer-no-link $FUZZ_CPPFLAGS -c "$src" -o "$o" || echo "$src" >>"$B/obj/failed"; } &
	running=$((running + 1))
	[ $running -ge 2 ] && { wait; running=0; }
done
wait
if [ -s "$B/obj/failed" ]; then
	echo "FAIL: building the library for the fuzzers: $(cat "$B/obj/failed")"
	exit 1
fi
for h in spec metrics json simopt discovery tarball collectd; do
	if [ $h = collectd ] && [ -z "$FUZZ_COLLECTD_CPPFLAGS" ]; then
		echo "SKIP: fuzz_collectd: the collectd plugin is not configured (configure --with-collectd)"
		continue
	fi
	extra=
	[ $h = collectd ] && extra="$S/tests/mock_collectd.c $S/collectd_plugin/iu_config.c $S/collectd_plugin/iu_series.c $S/collectd_plugin/iu_health.c $S/collectd_plugin/iu_ufreq.c $S/collectd_plugin/iu_jobs.c $S/collectd_plugin/iu_energy.c $FUZZ_COLLECTD_CPPFLAGS"
	if ! $CC $FLAGS -fsanitize=fuzzer $FUZZ_CPPFLAGS -I"$S/tests" $extra "$S/tests/fuzz/fuzz_$h.c" $objs $FUZZ_LIBS \
		-o "$B/fuzz_$h" 2>"$B/fuzz_$h.log"; then
		cat "$B/fuzz_$h.log"
		echo "FAIL: fuzz_$h builds"
		fail=$((fail + 1))
		continue
	fi
	regs=$(ls "$S/tests/fuzz/regressions/$h"-* 2>/dev/null)
	if [ -n "$regs" ] && ! "$B/fuzz_$h" $regs >"$B/fuzz_$h.regressions" 2>&1; then
		tail -30 "$B/fuzz_$h.regressions"
		echo "FAIL: fuzz_$h: a kept crash input crashes again"
		fail=$((fail + 1))
		continue
	fi
	rm -rf "$B/corpus_$h"
	mkdir -p "$B/corpus_$h"
	"$B/fuzz_$h" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$B/crash-$h-" "$B/corpus_$h" "$S/tests/fuzz/corpus/$h" >"$B/fuzz_$h.out" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz_$h.out")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$B/fuzz_$h.out")
	cov=$(grep -o 'cov: [0-9]*' "$B/fuzz_$h.out" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "PASS: fuzz_$h: ${execs:-0} executions in ${SECONDS_EACH} s (${rate:-0}/s), ${cov:-cov: ?} edges, no crash"
		pass=$((pass + 1))
	else
		grep -E "ERROR|SUMMARY|Test unit written" "$B/fuzz_$h.out" | head -5
		echo "FAIL: fuzz_$h crashed (input kept in $B/crash-$h-*; add it to tests/fuzz/regressions/$h-NAME once fixed)"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
