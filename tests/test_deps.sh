#!/bin/sh
# A fresh machine has only what scripts/install-deps installs: every program the tests, the release check
# and the scripts run must come from a package it names, or from one every Debian system has (Essential or
# of priority required).  A program found on this machine by luck (git on a developer's box, strace on
# some images) is named here with what runs it, so a clone elsewhere does not fail half-way.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
src=${top_srcdir:-.}
command -v dpkg-query >/dev/null 2>&1 || { echo "SKIP: not a Debian system (no dpkg-query)"; exit 77; }
pkgs=" $(sed -n '/^PKGS=/,/"$/p' "$src/scripts/install-deps" | tr -d '\\"\t' | sed 's/PKGS=//; s/\$PKGS//; s/\[.*PKGS=//' |
	tr '\n' ' ') "
check "scripts/install-deps names its packages (${#pkgs} characters)" 'echo "$pkgs" | grep -q " build-essential " && echo "$pkgs" | grep -q " libcunit1-dev "'
# and what those depend on directly (python3 brings python3-minimal, which holds /usr/bin/python3)
depends=" $(dpkg-query -W -f '${Depends}, ${Pre-Depends}, ' $pkgs 2>/dev/null | sed 's/([^)]*)//g; s/:any//g' | tr ',|' '\n\n' |
	tr -d ' ' | sort -u | tr '\n' ' ') "
# the program, and what runs it
while read -r prog who; do
	[ -n "$prog" ] || continue
	path=$(command -v "$prog" 2>/dev/null)
	if [ -z "$path" ]; then
		no "$prog ($who) is not installed here: scripts/install-deps would have to install it"
		continue
	fi
	pkg= # the package of the program found, or of Debian's own copy beside another (a python3 of pyenv's);
	for f in "$path" "$(readlink -f "$path")" /usr/bin/"$prog" /bin/"$prog" /usr/sbin/"$prog" /sbin/"$prog"; do
		pkg=$(dpkg-query -S "$f" 2>/dev/null | grep -v '^diversion' | head -1 | sed 's/:.*//; s/,.*//') # /sbin: merged /usr
		[ -n "$pkg" ] && break
	done
	prio=$(dpkg-query -W -f '${Essential} ${Priority}' "$pkg" 2>/dev/null)
	check "$prog ($who) comes from $pkg ($prio), which install-deps installs (or a package it names needs) or every system has" \
		'[ -n "$pkg" ] && { echo "$pkgs$depends" | grep -q " $pkg " || case $prio in yes*|*required) true ;; *) false ;; esac; }'
done <<EOF
git tools/checks/dist_contents.sh (make distcheck)
strace tests/test_papi.sh (system calls of papi_native_avail)
autoreconf scripts/build
python3 tests/test_layers.sh, tests/graphite_checks.py
mpirun tests/test_papi.sh (MPI jobs)
mpicc tests/test_papi.sh (the MPI example)
clang tests/fuzz/run.sh (make check's fuzzers)
collectd tests/test_collectd.sh
carbon-cache tests/test_collectd.sh
man tests/test_man.sh
lintian tests/test_deb.sh
dpkg-buildpackage tests/test_deb.sh
setcap tests/test_exec_env.sh
time tools/bench/bench_papi.sh (/usr/bin/time)
col tests/test_man.sh (bsdextrautils)
env tests/test_cli.sh (env --default-signal)
prometheus tests/test_prometheus.sh
promtool tests/test_exporter.sh, tests/test_prometheus.sh
curl tests/test_prometheus.sh, tests/test_unit.sh
systemd-analyze tests/test_unit.sh, tests/test_deb.sh
systemd-tmpfiles tests/test_unit.sh
nsenter tests/test_unit.sh
unshare tests/test_unit.sh
gdb tests/test_peers_memory.sh, tests/test_peers_pcm.sh (PCM on two sockets: tests/peers/cpuid_topology.py)
objdump tests/test_peers_memory.sh, tests/test_peers_pcm.sh (PCM's cpuid)
readelf tests/test_peers_memory.sh, tests/test_peers_pcm.sh (PCM's entry point)
setfacl tests/test_exporter_config.sh (a reader through a file's ACL)
EOF
# the measure itself: a program no package holds is named
fake=$W/bin/uncore-no-such-package
mkdir -p "$W/bin" && printf '#!/bin/sh\n' >"$fake" && chmod +x "$fake"
out=$(dpkg-query -S "$fake" 2>&1)
check "a program of no package is not taken for one ($out)" '! dpkg-query -S "$fake" >/dev/null 2>&1'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
