#!/bin/sh
# tests/leftovers.sh, the check scripts/test runs after make check: it finds a server started through a
# shell function in the background (the kill that reaches only the subshell) and a file left in the
# run's TMPDIR, names both, kills and removes them and fails; after a clean run it passes.  And the
# tests' own checks (tests/check.sh): a failed one runs the diagnostics after its ||.
S=${top_srcdir:-.}
. "$S/tests/check.sh"

# a clean run: nothing to report
mkdir "$W/clean"
out=$(sh "$S/tests/leftovers.sh" "clean.$$" "$W/clean")
rc=$?
check "a clean run passes (rc $rc: $out)" '[ $rc -eq 0 ] && [ ! -d "$W/clean" ]'

# a run that left a server behind (started in the background by a shell that is gone, as a kill that
# reaches only a subshell leaves it: reparented to init) and a file
token=planted.$$
IU_TEST_RUN=$token sh -c 'sleep 300 >/dev/null 2>&1 &'
mkdir "$W/dirty"
echo x >"$W/dirty/uncore-simkernel.x"
out=$(sh "$S/tests/leftovers.sh" "$token" "$W/dirty")
rc=$?
echo "$out"
check "a run that left a process and a file fails (rc $rc)" '[ $rc -ne 0 ]'
check "... naming the process" 'echo "$out" | grep -q "^LEFT: process [0-9]* (sleep 300"'
check "... and the file" 'echo "$out" | grep -q "^LEFT: .*/uncore-simkernel.x$"'
sleep_left=$(for e in /proc/[0-9]*/environ; do tr '\0' '\n' 2>/dev/null <"$e" | grep -qx "IU_TEST_RUN=$token" && echo "${e%/environ}"; done)
check "... and leaves neither behind${sleep_left:+ (still: $sleep_left)}" '[ -z "$sleep_left" ] && [ ! -d "$W/dirty" ]'

# check.sh itself: a failed check prints what follows its ||, a passed one does not, and each is counted
out=$(sh -c '. "$1/tests/check.sh"; check fails false || echo "diagnostics 1"; no said || echo "diagnostics 2"
	check passes true || echo "diagnostics 3"; echo "$pass $fail"' sh "$S")
check "a failed check and no print their diagnostics, a passed check none ($(echo $out))" \
	'[ "$(echo $out)" = "FAIL: fails diagnostics 1 FAIL: said diagnostics 2 PASS: passes 1 2" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
