#!/bin/sh
# Compare an unpacked release tree with the sources git has (committed or not, not ignored): each of
# those must be in the tree unless named as left out, and the tree may hold nothing else but what
# autoreconf makes.  Run by make distcheck (distcheck-hook); outside a git checkout it says so and passes.
#   dist_contents.sh SRCDIR DISTDIR [LEFT-OUT...]
src=${1:?SRCDIR} dist=${2:?DISTDIR}
shift 2
export LC_ALL=C # one collation for sort and comm
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
	if [ -e "$src/.git" ]; then # a checkout git will not read (not installed, another owner): no silent pass
		git -C "$src" rev-parse --show-toplevel
		echo "dist_contents.sh: git cannot read $src, so the tarball cannot be compared with it" >&2
		exit 1
	fi
	echo "dist_contents.sh: $src is not a git checkout; tarball contents not compared"
	exit 0
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
git -C "$src" -c core.quotepath=off ls-files --cached --others --exclude-standard |
	while IFS= read -r f; do [ -e "$src/$f" ] && echo "$f"; done | sort -u >"$W/git"
(cd "$dist" && find . -type f -o -type l) | sed 's|^\./||' | sort >"$W/dist"
printf '%s\n' "$@" | sort >"$W/left-out"
comm -23 "$W/git" "$W/dist" | comm -23 - "$W/left-out" >"$W/missing"
comm -13 "$W/git" "$W/dist" |
	grep -vE '^(configure|aclocal\.m4|(.*/)?Makefile\.in|build-aux/[^/]+|m4/[^/]+\.m4)$' >"$W/extra"
comm -12 "$W/dist" "$W/left-out" >"$W/not-left-out"
rc=0
if [ -s "$W/missing" ]; then
	echo "dist_contents.sh: in git but not in the tarball (add them to EXTRA_DIST or to DIST_LEFT_OUT):" >&2
	sed 's/^/  /' "$W/missing" >&2
	rc=1
fi
if [ -s "$W/extra" ]; then
	echo "dist_contents.sh: in the tarball but not in git (build products? add them to git or keep them out):" >&2
	sed 's/^/  /' "$W/extra" >&2
	rc=1
fi
if [ -s "$W/not-left-out" ]; then
	echo "dist_contents.sh: named in DIST_LEFT_OUT but in the tarball:" >&2
	sed 's/^/  /' "$W/not-left-out" >&2
	rc=1
fi
[ $rc -eq 0 ] && echo "dist_contents.sh: the tarball holds every file git has, left out on purpose: ${*:-none}"
exit $rc
