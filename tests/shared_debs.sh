#!/bin/sh
# The Debian packages (with -dbgsym, which test_deb.sh's lintian checks) of the sources as they are, built once
# for tests/test_deb.sh, tests/test_rpm.sh, tests/test_container.sh and tests/test_docs.sh (the compile of
# doc/collectd.md's build), which make check -j2 runs side by side:
# the first to come builds them in the build tree, the others wait for it (flock) and take the same files,
# where each built the whole project before.  Kept per run (scripts/test's IU_TEST_RUN) and per content of the
# sources (scripts/deb-source's copy, hashed), so a changed file or a new run builds anew.
#   tests/shared_debs.sh DIR LOG   the .debs, .buildinfo and .changes into DIR, dpkg-buildpackage's output
#                                  into LOG; its exit status
set -u
# the build is dpkg-buildpackage's own, not make check's (its jobserver is not this one's)
unset MAKEFLAGS MFLAGS MAKELEVEL
DIR=$1 LOG=$2
SRC=${top_srcdir:-.} B=${top_builddir:-.}
V=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version) || exit 1
CACHE=$B/tests/debs-cache
mkdir -p "$CACHE" "$DIR" || exit 1
tree=$(mktemp -d "$CACHE/src.XXXXXX") || exit 1
"$SRC/scripts/deb-source" "$tree/intel-uncore-$V" || { rm -rf "$tree"; exit 1; }
key=$( (cd "$tree" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; echo "${IU_TEST_RUN:-}") |
	sha256sum | cut -c1-16)
# flock holds the lock on file descriptor 9 until this subshell ends: one build, the other test waits
(
	flock 9 || exit 1
	if [ ! -f "$CACHE/$key/rc" ]; then
		rm -rf "${CACHE:?}"/[0-9a-f]*[0-9a-f] # an earlier run's or earlier sources' packages
		mkdir -p "$CACHE/$key" && mv "$tree/intel-uncore-$V" "$CACHE/$key/" &&
			(cd "$CACHE/$key/intel-uncore-$V" && dpkg-buildpackage -us -uc -b) \
				>"$CACHE/$key/build.log" 2>&1
		echo $? >"$CACHE/$key/rc"
		rm -rf "$CACHE/$key/intel-uncore-$V"
	fi
) 9>"$CACHE/lock"
rm -rf "$tree"
cp "$CACHE/$key/build.log" "$LOG" 2>/dev/null
rc=$(cat "$CACHE/$key/rc" 2>/dev/null) || exit 1
[ "$rc" -eq 0 ] || exit "$rc"
cp "$CACHE/$key"/*.deb "$CACHE/$key"/*.buildinfo "$CACHE/$key"/*.changes "$DIR"/
