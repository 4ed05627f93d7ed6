#!/bin/sh
# What a test run left behind: every process that still carries the run's IU_TEST_RUN token in its
# environment (a daemon or server a test started, even one reparented to init), and every file in the
# run's private TMPDIR.  Each is printed as "LEFT: ...", then killed or removed; exit 1 if there was any.
# Usage: tests/leftovers.sh TOKEN TMPDIR   (scripts/test calls it after make check, passed or failed;
# only make check's environment holds the token, not the caller's nor this script's)
token=${1:?token} dir=${2:?tmpdir}
left=0
pids=
for e in /proc/[0-9]*/environ; do
	p=${e#/proc/} p=${p%/environ}
	tr '\0' '\n' 2>/dev/null <"$e" | grep -qx "IU_TEST_RUN=$token" && pids="$pids $p"
done
for p in $pids; do
	echo "LEFT: process $p ($(tr '\0' ' ' </proc/$p/cmdline 2>/dev/null | cut -c1-150)), parent $(sed -n 's/^PPid:\t//p' /proc/$p/status 2>/dev/null)"
	kill -9 "$p" 2>/dev/null
	left=$((left + 1))
done
if [ -d "$dir" ]; then
	for f in "$dir"/* "$dir"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		echo "LEFT: $(du -sh "$f" 2>/dev/null | cut -f1) $f"
		left=$((left + 1))
	done
	rm -rf "$dir"
fi
[ $left -eq 0 ] && echo "leftovers: no process and no temporary file left" || echo "leftovers: $left left behind (listed above)"
[ $left -eq 0 ]
