#!/bin/sh
# make check's LOG_COMPILER: runs one test and ends its log with how long it ran, which scripts/test
# prints beside each test's results (budgets are make bench's; this only tells where the time goes).
start=$(date +%s%N)
"$@"
rc=$?
echo "# elapsed: $((($(date +%s%N) - start) / 1000000)) ms"
exit $rc
