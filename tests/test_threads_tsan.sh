#!/bin/sh
# test_threads with the library under ThreadSanitizer: a data race fails it (TSan's exit status 66).
# Kernels with many bits of mmap randomisation break this TSan runtime's memory layout at start-up;
# then the test runs without address randomisation (setarch -R), as TSan's own documentation advises.
T=${top_builddir:-.}/tests/test_threads_tsan
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
out=$("$T" 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "unexpected memory mapping\|FATAL: ThreadSanitizer"; then
	echo "(ThreadSanitizer could not map its memory here; running without address randomisation)"
	out=$(setarch "$(uname -m)" -R "$T" 2>&1); rc=$?
	if [ $rc -ne 0 ] && echo "$out" | grep -q "unexpected memory mapping\|FATAL: ThreadSanitizer"; then
		echo "$out" | head -3
		echo "SKIP: ThreadSanitizer cannot run on this kernel (not a result of the test: test_threads ran under ASan)"
		exit 77
	fi
fi
echo "$out"
exit $rc
