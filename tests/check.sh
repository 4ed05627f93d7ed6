# Sourced by the shell tests: PASS and FAIL lines and their counts, and a scratch directory $W that goes
# however the test ends.  A test ends with: echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]
# no and a failed check return 1, so `check ... || <diagnostics>` prints its diagnostics.
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $1"; }
no() { fail=$((fail + 1)); echo "FAIL: $1"; return 1; }
check() { if eval "$2"; then ok "$1"; else no "$1"; fi; }
# root keeps its claims in FILE.claims, any other user in FILE.claims.group (common/session/claims.h)
CLAIMS=.claims
[ "$(id -u)" -eq 0 ] || CLAIMS=.claims.group
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
# A small file system of the test's own is mounted in a mount namespace of the test's own: in a user
# namespace too (unshare -rm, where the test is root), or where the kernel refuses one (a chroot such as
# scripts/test-root's: unshare(2) refuses CLONE_NEWUSER there) a plain one (unshare -m) for root.
# MOUNT_NS is the command that made one; without either the test is skipped (77), saying why it needs one.
need_mount_ns() { # DIR WHY
	for MOUNT_NS in "unshare -rm" "unshare -m"; do
		$MOUNT_NS sh -c "mount -t tmpfs -o size=1m none '$1' && umount '$1'" 2>/dev/null && return 0
	done
	echo "SKIP: no user and mount namespace here (unshare -rm), nor a mount namespace for root (unshare -m), so no $2$(root_not_mounted | sed 's/^/; /')"
	rm -rf "$W"
	exit 77
}
# A chroot whose root is not a mount point (a plain chroot; scripts/test-root bind-mounts its root on itself, as
# a container's root is one): what makes the mounts of a new namespace private or slave there, unshare --mount
# and runc (podman: "remount /, flags: 0x44000: invalid argument"), fails with EINVAL.  root_not_mounted prints
# that, where it is so, for a test's SKIP line; nothing elsewhere.
root_not_mounted() {
	mountpoint -q / || echo "/ is not a mount point: in a chroot its root must be one, as scripts/test-root makes it"
}
