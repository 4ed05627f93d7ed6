#!/bin/sh
# Every fuzzer briefly (FUZZ_SECONDS, default 5), after replaying the crash inputs kept as regressions.
FUZZ_SECONDS=${FUZZ_SECONDS:-5} exec sh "${top_srcdir:-.}/tests/fuzz/run.sh"
