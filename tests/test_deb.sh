#!/bin/sh
# The Debian packages, as a site gets them: debian/ builds with dpkg-buildpackage -us -uc -b, lintian
# reports no error, apt-get install ./*.deb installs them, /usr/bin/uncore counts on the simulator,
# the -dev package compiles libuncore(3)'s example, the real collectd runs the packaged plugin and its
# values equal the simulator's truth, and apt-get purge takes everything away again.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
SRC=$(cd "${top_srcdir:-.}" && pwd)
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: installing packages needs root (run as root, as CI does)"
	exit 77
fi
for t in dpkg-buildpackage dh lintian collectd; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t is missing (scripts/install-deps installs it)"; exit 1; }
done
PKGS="collectd-intel-uncore intel-uncore libuncore-dev libuncore0 prometheus-uncore-exporter"
export TMPDIR="$W" # what dpkg-buildpackage and lintian leave in TMPDIR (lintian's mldbm-elf-*) goes with W
cleanup() {
	[ -n "$cd_pid" ] && kill "$cd_pid" 2>/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $PKGS >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# --- build from the sources as they are (committed or not), outside the tree (built once for this test
# and the others that need them: tests/shared_debs.sh)
"$SRC/tests/shared_debs.sh" "$W" "$W/build.log"
rc=$?
check "dpkg-buildpackage -us -uc -b builds (rc $rc)" '[ $rc -eq 0 ]' || tail -30 "$W/build.log"
debs=$(ls "$W"/*.deb 2>/dev/null | grep -v dbgsym)
check "five packages: $(echo $debs | xargs -n1 basename 2>/dev/null | tr '\n' ' ')" '[ $(echo $debs | wc -w) -eq 5 ]'
lintian "$W"/*.changes >"$W/lintian.txt" 2>/dev/null
errors=$(grep -c '^E:' "$W/lintian.txt")
check "lintian: no error ($errors)" '[ "$errors" -eq 0 ]' || grep '^E:' "$W/lintian.txt"
echo "lintian warnings: $(grep -c '^W:' "$W/lintian.txt")"
grep '^W:' "$W/lintian.txt"
for p in $debs; do
	case $p in *collectd-intel-uncore_*) dpkg -I "$p" | grep -q 'Depends:.*collectd-core' && cdep=yes ;; esac
	# (libarchive13 on Debian 12, libarchive13t64 on 13: dpkg-shlibdeps names it from the library's NEEDED)
	case $p in *libuncore0_*) dpkg -I "$p" | grep -q '^ Depends:.*libarchive13' && adep=yes ;; esac
done
check "the collectd plugin's package depends on collectd-core" '[ "$cdep" = yes ]'
check "libuncore0 depends on libarchive (the snapshots' archives)" '[ "$adep" = yes ]'

# --- install as a site does
had_run_dir=no
[ -e /run/intel-uncore ] && had_run_dir=yes
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs >"$W/install.log" 2>&1
rc=$?
check "apt-get install ./*.deb (rc $rc)" '[ $rc -eq 0 ]' || tail -20 "$W/install.log"
check "/usr/bin/uncore is the packaged one" '[ "$(dpkg -S /usr/bin/uncore 2>/dev/null)" = "intel-uncore: /usr/bin/uncore" ]'
info=$(/usr/bin/uncore --backend sim:emr info 2>&1)
check "/usr/bin/uncore --backend sim:emr info names the platform and the units" \
	'echo "$info" | grep -q "Emerald Rapids" && echo "$info" | grep -q "imc" && echo "$info" | grep -q "cha"'
out=$(/usr/bin/uncore --backend sim:emr,clock=manual stat -M mem_bw_read --duration 1 2>&1)
check "/usr/bin/uncore counts: mem_bw_read 12.8 GB/s on socket 0" 'echo "$out" | grep -q "^socket0 *mem_bw_read *12.8000 GB/s$"'
check "man pages installed: uncore(1), libuncore(3), intel_uncore(5)" \
	'man -w uncore >/dev/null 2>&1 && man -w 3 libuncore >/dev/null 2>&1 && man -w 5 intel_uncore >/dev/null 2>&1'
# the exporter: its program, page, unit (installed, not enabled nor started) and Prometheus files; the unit
# where the release's debhelper handles it (Debian 13: /usr/lib, /lib an aliased-location to its lintian;
# Debian 12: /lib, the only place its dh_installsystemd reads), which its maintainer scripts then name
UNIT=$(dpkg -L prometheus-uncore-exporter 2>/dev/null | grep '/systemd/system/uncore-exporter.service$')
check "dh_installsystemd handled the unit ${UNIT:-(not packaged)}: the package's postrm names it" \
	'[ -n "$UNIT" ] && grep -q "uncore-exporter.service" /var/lib/dpkg/info/prometheus-uncore-exporter.postrm'
check "uncore-exporter is packaged with its page, unit, rules and dashboard" \
	'[ "$(dpkg -S /usr/bin/uncore-exporter 2>/dev/null)" = "prometheus-uncore-exporter: /usr/bin/uncore-exporter" ] &&
	man -w 8 uncore-exporter >/dev/null 2>&1 && [ -f "$UNIT" ] &&
	[ -f /usr/share/intel-uncore/prometheus/intel_uncore_rules.yml ] && [ -f /usr/share/intel-uncore/prometheus/intel_uncore_prometheus.json ]'
out=$(/usr/bin/uncore-exporter --backend sim:emr --check-config 2>&1)
check "/usr/bin/uncore-exporter --check-config lists the memory counters" 'echo "$out" | grep -q "^uncore_memory_read_bytes_total counter, bytes"'
if command -v systemd-analyze >/dev/null 2>&1; then
	# (it also remarks on the units this one is ordered after, other packages' business)
	out=$(systemd-analyze verify "$UNIT" 2>&1 | grep "uncore-exporter")
	check "systemd-analyze verify has nothing to say of the unit${out:+ ($out)}" '[ -z "$out" ]'
fi
# /run/intel-uncore is root's from boot on: libuncore0's tmpfiles.d lines, applied by its postinst now and by
# systemd-tmpfiles at every boot, make the directory 0755 and root's claims 0600 (issue 64)
check "libuncore0 ships /usr/lib/tmpfiles.d/libuncore0.conf and its postinst applies it" \
	'dpkg -L libuncore0 | grep -qx /usr/lib/tmpfiles.d/libuncore0.conf &&
	grep -q "systemd-tmpfiles.*--create.*libuncore0.conf" /var/lib/dpkg/info/libuncore0*.postinst'
got=$(stat -c '%U:%G %a' /run/intel-uncore /run/intel-uncore/claims 2>&1 | tr '\n' ' ')
check "after install: /run/intel-uncore root:root 0755, its claims root:root 0600 ($got)" \
	'[ "$got" = "root:root 755 root:root 600 " ]'
# libuncore(3)'s example, taken from the installed page, built with the installed -dev's pkg-config
MANWIDTH=200 man 3 libuncore 2>/dev/null | col -b | sed -n '/^EXAMPLE/,/^SEE ALSO/p' | sed '1d;$d' >"$W/example.c"
cc -std=c11 -Wall -Wextra -o "$W/example" "$W/example.c" $(pkg-config --cflags --libs intel-uncore) 2>"$W/cc.log"
check "libuncore(3)'s example builds with pkg-config intel-uncore" '[ -x "$W/example" ]' || cat "$W/cc.log"
check "and runs: socket 0 reads 12.8 GB/s" '[ "$("$W/example" 2>&1)" = "socket 0 reads 12.8 GB/s" ]'

# --- the real collectd with the packaged plugin from /usr/lib/collectd, writing csv
mkdir -p "$W/collectd"
cat >"$W/collectd.conf" <<EOF
Hostname "pkgtest"
FQDNLookup false
Interval 1
BaseDir "$W/collectd"
PIDFile "$W/collectd/collectd.pid"
LoadPlugin logfile
<Plugin logfile>
  File "$W/collectd.log"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$W/csv"
  StoreRates false
</Plugin>
LoadPlugin intel_uncore
<Plugin intel_uncore>
  Backend "sim:emr"
  MetricGroups "memory" "clock"
</Plugin>
EOF
collectd -f -C "$W/collectd.conf" >"$W/collectd.out" 2>&1 &
cd_pid=$!
f=$W/csv/pkgtest/intel_uncore-socket1/memory_bandwidth-mem_bw_read-$(date +%Y-%m-%d)
# up to 120 s for 5 points (a loaded machine slows the daemon's start, not its counts)
for _ in $(seq 600); do [ "$(cat "$f" 2>/dev/null | grep -c '^[0-9]')" -ge 5 ] && break; sleep 0.2; done
[ "$(cat "$f" 2>/dev/null | grep -c '^[0-9]')" -ge 5 ] || echo "waited 120 s for 5 points in $f: $(cat "$f" 2>/dev/null | grep -c '^[0-9]') came"
kill "$cd_pid" 2>/dev/null
wait "$cd_pid" 2>/dev/null
cd_pid=
check "collectd loaded the packaged plugin and wrote its series" '[ -s "$f" ]' || cat "$W/collectd.log" "$W/collectd.out"
# DERIVE bytes since start, stamped with when the counters were read: the rate between the first and
# the last point is socket 1's 25.6e9 B/s (its profile), within 1%
rate=$(awk -F, '/^[0-9]/ { if (!n++) { t0 = $1; v0 = $2 } t = $1; v = $2 } END { if (t > t0) printf "%.0f", (v - v0) / (t - t0) }' "$f" 2>/dev/null)
check "socket 1 memory read bandwidth through collectd: ${rate:-none} B/s = 25.6e9 within 1%" \
	'[ -n "$rate" ] && awk -v r="$rate" "BEGIN { exit !(r > 25.344e9 && r < 25.856e9) }"'

# --- purge
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $PKGS >"$W/purge.log" 2>&1
rc=$?
left=
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 && left="$left $p"; done
check "apt-get purge removes all four (rc $rc)${left:+ (left:$left)}" '[ $rc -eq 0 ] && [ -z "$left" ]'
check "nothing of them is left: command, plugin, conf.d snippet, header, tmpfiles.d lines" \
	'[ ! -e /usr/bin/uncore ] && [ ! -e /usr/lib/collectd/intel_uncore.so ] && [ ! -e /etc/collectd/collectd.conf.d/intel_uncore.conf ] && [ ! -e /usr/include/uncore.h ] &&
	[ ! -e /usr/lib/tmpfiles.d/libuncore0.conf ]'
# (/run/intel-uncore stays until the next boot: root's claims there may name sessions still running; the
# test takes away what the install made, an empty claims file in a directory that held nothing else)
if [ $had_run_dir = no ] && [ ! -s /run/intel-uncore/claims ]; then
	rm -f /run/intel-uncore/claims
	rmdir /run/intel-uncore 2>/dev/null
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
