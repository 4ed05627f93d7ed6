#!/bin/sh
# No control character but tab and newline in the pages people read: README.md and every other *.md, the
# manual pages' sources and the other *.in templates (tools/checks/doc_chars.py).  A form feed typed where
# "\f" was meant (troff's font escape "\fB") made libuncore(3) show "Bstruct uncore_healthR" in every
# locale, and troff warned of it only without a UTF-8 locale (issue 89 point 6).  Each one found is named
# by file, line and column, with its code.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
SRC=${top_srcdir:-.}
SCAN="python3 $SRC/tools/checks/doc_chars.py"
out=$($SCAN "$SRC" 2>&1); rc=$?
n=$(echo "$out" | sed -n 's/^files //p')
found=$(echo "$out" | grep -v '^files ')
check "the pages are found (${n:-no} files)" '[ "${n:-0}" -ge 20 ]'
check "no control character but tab and newline in them (rc $rc)${found:+:
$found}" '[ $rc -eq 0 ] && [ -z "$found" ]'
# the check itself, on a tree of its own (no git's: as in a release tarball): a form feed, a carriage return and a
# C1 control (CSI) each named by line and column; a tab, a \fB escape, UTF-8 text, a file of another kind, a
# build tree's and automake's Makefile.in (its test colours) are not
mkdir -p "$W/t/doc" "$W/t/build-test"
printf 'a\033[0;32mb\n' >"$W/t/Makefile.in"
printf 'fine\tline \\fBok\\fR \342\200\224 \303\251\n\fBbad\fR\r\n\302\233x\n' >"$W/t/doc/p.1.in"
printf 'a\fb\n' >"$W/t/doc/p.c"
printf 'a\fb\n' >"$W/t/build-test/q.md"
printf 'ok\n' >"$W/t/README.md"
got=$($SCAN "$W/t" 2>&1); rc=$?
got=$(echo "$got" | tr '\n' ' ')
check "the scan names a planted form feed, carriage return and C1 control, nothing else, and fails (rc $rc: $got)" \
	'[ $rc -eq 1 ] && [ "$got" = "files 2 doc/p.1.in:2:1: control character 0x0C doc/p.1.in:2:6: control character 0x0C doc/p.1.in:2:8: control character 0x0D doc/p.1.in:3:1: control character 0x9B " ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
