#!/bin/sh
# The claims file system doc/safety.md gives a site (its /etc/fstab line) holds the claims of a count on every
# box of the largest machine the project knows, for root and for the group's file at once.  Root's claims file
# has two copies of a record per box (each 6.6 kB), so the largest (sim:cwf, 433 boxes) needs 5.7 MB for root
# alone: a 4 MB file system refused root's count ("No space left on device; nothing was programmed").
# A small file system needs a mount: done in a mount namespace of its own (check.sh need_mount_ns), skipped (77) without one.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=$(cd "${top_builddir:-.}" && pwd)/uncore
src=${top_srcdir:-.}
D=$W/run
mkdir "$D"
need_mount_ns "$D" "file system of the documented size"
size=$(sed -n 's/.*`tmpfs \/run\/intel-uncore tmpfs size=\([0-9]*[km]\),.*/\1/p' "$src/doc/safety.md")
check "doc/safety.md gives the claims file system's size ($size)" '[ -n "$size" ]'
# the machine with the most boxes of all the simulator lays out, counted from `uncore info`
largest= most=0
for p in $("$UNCORE" --help 2>&1 | grep -o 'sim:[a-z0-9]*' | sort -u | sed 's/sim://'); do
	n=$("$UNCORE" --backend "sim:$p" info 2>/dev/null | grep -o ' s[0-9]*:[0-9]*' | cut -d: -f2 | awk '{s+=$1} END {print s+0}')
	[ "$n" -gt "$most" ] && most=$n largest=$p
done
check "the largest simulated machine found ($largest, $most boxes)" '[ "$most" -gt 300 ]'
# one event of every unit: every box of the machine claimed
events=$("$UNCORE" --backend "sim:$largest" list 2>/dev/null | awk '$1 ~ /^UNC_/ && !seen[$2]++ { printf " -e %s", $1 }')
out=$($MOUNT_NS sh -c '
	D=$1 UNCORE=$2 size=$3 p=$4; shift 4
	mount -t tmpfs -o "size=$size" none "$D" || exit 9
	# (the simulator keeps the state of its machine beside the claims: 0.4 MB more than a node holds there)
	"$UNCORE" --backend "sim:$p,shared=$D/s" info >/dev/null || exit 8
	"$UNCORE" --backend "sim:$p,shared=$D/s" stat "$@" --duration 600 >/dev/null 2>"$D.err1" &
	first=$!
	i=0   # the first count holds every box once its records are in the file
	while [ "$(stat -c %s "$D/s.claims" 2>/dev/null || echo 0)" -le 8192 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	"$UNCORE" --backend "sim:$p,shared=$D/s" stat "$@" --duration 0.02 >/dev/null 2>"$D.err2"
	echo "second rc $?"
	echo "root file $(stat -c %s "$D/s.claims") bytes, used $(df -k "$D" | awk "NR==2{print \$3}") kB"
	kill -TERM $first; wait $first
	echo "first rc $?"
	cat "$D.err1" "$D.err2"
' sh "$D" "$UNCORE" "$size" "$largest" $events)
echo "$out"
check "a second count on every box of $largest starts beside the first on the documented file system" \
	'echo "$out" | grep -qx "second rc 0"'
check "... and the first ends by the signal that stopped it (128+15)" 'echo "$out" | grep -qx "first rc 143"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
