#!/bin/sh
# make check's LOG_COMPILER: runs one test and ends its log with how long it ran and the CPU time it and
# the processes it waited for used, which scripts/test prints beside each test's results (budgets are make
# bench's; this only tells where the time goes: a test with far less CPU than wall time is waiting).
start=$(date +%s%N)
"$@"
rc=$?
echo "# elapsed: $((($(date +%s%N) - start) / 1000000)) ms"
# times' second line: the children's user and system time, as 0m1.230000s 0m0.450000s (into a file: in a
# pipe or $(...) it would run in a new process, which has no children yet)
cpu=$(mktemp "${TMPDIR:-/tmp}/timed.XXXXXX") && times >"$cpu" && sed -n '2s/^\([0-9]*\)m\([0-9.]*\)s \([0-9]*\)m\([0-9.]*\)s$/\1 \2 \3 \4/p' "$cpu" |
	awk '{ printf "# cpu: %d ms\n", ($1 * 60 + $2 + $3 * 60 + $4) * 1000 }'
rm -f "$cpu"
exit $rc
