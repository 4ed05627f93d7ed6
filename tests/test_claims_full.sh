#!/bin/sh
# Issue 79 point 4: a member of the group fills the claims file system through claims.group before root's
# first count (the msr-safe set-up of doc/safety.md: root's claims made empty at boot, the group's file
# beside it).  Root's count still starts: it takes its room back from the group's file, naming it.
# A small file system needs a mount: done in a mount namespace of its own (check.sh need_mount_ns: unshare -rm, where
# this process is root, or unshare -m for root in a chroot), skipped (77) where the kernel allows neither.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=$(cd "${top_builddir:-.}" && pwd)/uncore
D=$W/run
mkdir "$D"
need_mount_ns "$D" "small file system to fill"
out=$($MOUNT_NS sh -c '
	D=$1 UNCORE=$2
	mount -t tmpfs -o size=1m none "$D" || exit 9
	"$UNCORE" --backend "sim:snbep,shared=$D/s" info >/dev/null 2>&1 || exit 8
	rm -f "$D/s.claims"
	: >"$D/s.claims"; chmod 0600 "$D/s.claims"           # as tmpfiles makes it at boot: no room yet
	: >"$D/s.claims.group"; chmod 0660 "$D/s.claims.group"
	dd if=/dev/zero of="$D/s.claims.group" bs=4096 2>/dev/null   # the member fills the file system
	echo "free before: $(df -k "$D" | awk "NR==2{print \$4}") kB"
	"$UNCORE" --backend "sim:snbep,shared=$D/s" stat -e UNC_M_CAS_COUNT.RD --duration 0.05 2>&1
	echo "rc $?"
	echo "group file: $(stat -c %s "$D/s.claims.group") bytes"
' sh "$D" "$UNCORE")
echo "$out"
check "root's first count starts on a file system the group's file filled" 'echo "$out" | grep -qx "rc 0"'
check "... saying it cut the group's file" 'echo "$out" | grep -q "s.claims.group held [0-9]* bytes (no records): cut to 0"'
check "... which holds nothing now" 'echo "$out" | grep -qx "group file: 0 bytes"'
check "... with the file system full before it" 'echo "$out" | grep -qx "free before: 0 kB"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
