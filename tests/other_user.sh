# Sourced by the shell tests that run something as another user: uid and gid 65534 (Debian's nobody), no
# supplementary group, which only root can become (setpriv, util-linux).  That user reaches only what every
# directory on the way lets it search: a clone in root's home (mode 0700 on Debian) or a TMPDIR below one is out
# of its reach (issue 89 point 5).  So a test finds out first, as that user, and says which directory stops it,
# and runs the build's programs from a copy of its own in a directory the user can reach.
#   $AS_OTHER CMD...           CMD as that user
#   other_cannot PATH...       prints why the user cannot reach a PATH (the first directory on its way it may not
#                              search, with its mode and owner; or that only root can be that user), nothing if it
#                              reaches all
#   build_copy DIR PROG        copies the build's program PROG (libtool's real one from .libs/, and the build's
#                              libraries it loads) into DIR, made 0755: run it as LD_LIBRARY_PATH=DIR DIR/PROG
AS_OTHER="setpriv --reuid=65534 --regid=65534 --clear-groups"
other_cannot() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "being another user needs root"
		return
	fi
	command -v setpriv >/dev/null 2>&1 || { echo "setpriv is missing (util-linux)"; return; }
	# as that user: each directory from / down, the first it may not search named
	$AS_OTHER sh -c 'set -f; for p; do
		case $p in /*) ;; *) p=$PWD/$p ;; esac
		d= IFS=/
		for c in ${p#/}; do
			d=$d/$c
			[ -d "$d" ] || continue
			[ -x "$d" ] || { echo "uid 65534 cannot search $d ($(stat -c "%A %U" "$d")) on the way to $p"; exit; }
		done
		[ -e "$p" ] || { echo "uid 65534 cannot reach $p"; exit; }
	done' sh "$@" 2>&1
}
build_copy() { # DIR PROG
	b=$(cd "${top_builddir:-.}" && pwd)
	mkdir -p "$1" && chmod 755 "$1" || return 1
	# the program (libtool's real one from .libs/ where $b/PROG is its wrapper script; a sanitizer build's
	# programs are real ones, -no-install, whose RUNPATH names the build tree), and the build's libraries it runs with
	p=$b/$2
	[ -x "$b/.libs/$2" ] && p=$b/.libs/$2
	cp "$p" "$1/$2" || return 1
	for l in $(LD_LIBRARY_PATH="$b/.libs" ldd "$p" | awk -v b="$b/" 'index($3, b) == 1 { print $3 }'); do
		cp -L "$l" "$1/" || return 1
	done
	chmod -R a+rX "$1"
}
