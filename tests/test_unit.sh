#!/bin/sh
# The exporter's systemd unit and the claims directory's tmpfiles.d lines, under a real systemd: this
# machine's root seen through an overlay (nothing written to it), a fresh /run, and the Debian release's
# systemd as PID 1 of new PID, mount, cgroup, network, UTS and IPC namespaces.  It boots (tmpfiles.d making
# /run/intel-uncore root's), and the shipped unit starts, restarts and stops the exporter as its dynamic
# user while root's claims, the group's file and the jobs spool stay root's, byte for byte (issue 64: the
# unit's RuntimeDirectory gave /run/intel-uncore to the dynamic user at every start).  What needs no
# running systemd is checked first, everywhere; then the unit with doc/prometheus.md's drop-ins (the unix socket's,
# direct access).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
. "${top_srcdir:-.}/tests/other_user.sh" # build_copy
SRC=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-.}" && pwd)
UNIT=$SRC/exporter/uncore-exporter.service
TMPFILES=$SRC/debian/libuncore0.tmpfiles
for t in systemd-analyze systemd-tmpfiles unshare nsenter curl; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t is missing (scripts/install-deps installs it)"; exit 1; }
done

# --- without a running systemd: the unit names no directory of /run/intel-uncore, and verifies
dirs=$(grep -E '^(RuntimeDirectory|StateDirectory|CacheDirectory|LogsDirectory|ConfigurationDirectory)=' "$UNIT")
check "the unit makes no directory (${dirs:-none}): it would be the dynamic user's" '[ -z "$dirs" ]'
sed "s#/usr/bin/uncore-exporter#$B/uncore-exporter#" "$UNIT" >"$W/uncore-exporter.service"
# hardened below 2.0 of systemd-analyze security (issue 79: 4.2 without a system call filter, an address
# allow list, private devices and a umask)
for l in 'SystemCallFilter=@system-service perf_event_open' 'PrivateDevices=yes' 'UMask=0077' 'IPAddressDeny=any'; do
	check "the unit has $l" 'grep -qx "$l" "$UNIT"'
done
score=$(systemd-analyze security --offline=yes "$W/uncore-exporter.service" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure ${score:-unknown} below 2.0" '[ -n "$score" ] && awk -v s="$score" "BEGIN { exit !(s < 2.0) }"'
out=$(systemd-analyze verify --man=no "$W/uncore-exporter.service" 2>&1 | grep "uncore-exporter")
check "systemd-analyze verify has nothing to say of the unit${out:+ ($out)}" '[ -z "$out" ]'
check "libuncore0 ships tmpfiles.d lines (debian/libuncore0.tmpfiles)" '[ -f "$TMPFILES" ]'

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: the tmpfiles.d lines' owners and a systemd as PID 1 need root (unshare, mount, chown)"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && exit 77
	exit 1
fi

# --- the tmpfiles.d lines, applied to an empty root: the directory and root's claims are root's alone
mkdir "$W/tmpfiles"
systemd-tmpfiles --root="$W/tmpfiles" --create "$TMPFILES" >"$W/tmpfiles.log" 2>&1
rc=$?
check "systemd-tmpfiles --create applies them (rc $rc)" '[ $rc -eq 0 ]' || cat "$W/tmpfiles.log"
got=$(stat -c '%U:%G %a' "$W/tmpfiles/run/intel-uncore" "$W/tmpfiles/run/intel-uncore/claims" 2>&1 | tr '\n' ' ')
check "/run/intel-uncore is root:root 0755 and its claims root:root 0600 ($got)" \
	'[ "$got" = "root:root 755 root:root 600 " ]'

# --- a systemd as PID 1: what it takes, each missing piece named in the SKIP line
SYSTEMD=
for s in /usr/lib/systemd/systemd /lib/systemd/systemd; do [ -x "$s" ] && SYSTEMD=$s && break; done
[ -n "$SYSTEMD" ] || { no "systemd is not installed (scripts/install-deps installs it)"; echo "$pass passed, $fail failed"; exit 1; }
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
skip() {
	echo "SKIP: no systemd as PID 1 here: $1"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}
[ -n "$CG2" ] || skip "no cgroup2 hierarchy is mounted (systemd needs one to run its units)"
# a cgroup of its own below this process's, the container's root cgroup: systemd's cgroups go inside it
CG=$CG2$(sed -n 's/^0:://p' /proc/self/cgroup)/uncore-unit-$$
mkdir "$CG" 2>"$W/cg.err" || skip "cannot make a cgroup in $CG2 ($(cat "$W/cg.err"))"
stop_container() {
	if [ -n "$LPID" ]; then
		[ -n "$P1" ] && nsenter -t "$P1" -m -p -r -w systemctl poweroff >/dev/null 2>&1
		for _ in $(seq 300); do kill -0 "$LPID" 2>/dev/null || break; sleep 0.1; done
		# PID 1 of the namespace (systemd, or the shell before it): every process in it goes with it
		for p in $(cat "/proc/$LPID/task/$LPID/children" 2>/dev/null); do kill -KILL "$p"; done
		wait "$LPID" 2>/dev/null
	fi
	find "$CG" -depth -type d -exec rmdir {} \; 2>/dev/null
	LPID= P1=
}
P1= LPID=
trap 'stop_container; rm -rf "$W"' EXIT
unshare --mount --pid --fork --cgroup --net --uts --ipc true 2>"$W/ns.err" ||
	skip "unshare cannot make private PID, mount, cgroup and network namespaces ($(cat "$W/ns.err"))$(root_not_mounted | sed 's/^/; /')"

# The container's PID 1: an overlay of / (the upper a tmpfs, so nothing reaches this machine's files), a
# fresh /run, a read-only /sys with the cgroup namespace's cgroup2 on /sys/fs/cgroup, a few devices, and
# systemd started on a target that needs only sysinit.target (the tmpfiles.d lines included).  PREP adds to
# the overlay's upper layer, before systemd starts: that target, the unit and the tmpfiles.d lines where the
# packages install them, the exporter, its options.
PREP=$W/prep.sh
build_copy "$W/exporter" uncore-exporter || { no "a copy of the build's exporter"; echo "$pass passed, $fail failed"; exit 1; }
cat >"$PREP" <<EOF
set -e
mkdir -p etc/systemd/system etc/tmpfiles.d usr/lib/tmpfiles.d etc/default usr/bin
# the boot does not clean /tmp: through the overlay it is this machine's, which other tests use
ln -s /dev/null etc/tmpfiles.d/tmp.conf
printf '[Unit]\nDescription=intel-uncore test\nRequires=sysinit.target\nAfter=sysinit.target\n' \
	>etc/systemd/system/intel-uncore-test.target
cp "$UNIT" etc/systemd/system/uncore-exporter.service
cp "$TMPFILES" usr/lib/tmpfiles.d/libuncore0.conf
# the build's exporter where the unit runs it, with its library: copied out of the build (build_copy above),
# which may be below /root or /home, where ProtectHome=yes hides it (scripts/test-root's clone is)
mkdir -p usr/lib/intel-uncore-test
cp -a "$W/exporter/." usr/lib/intel-uncore-test/
printf '#!/bin/sh\nLD_LIBRARY_PATH=/usr/lib/intel-uncore-test exec /usr/lib/intel-uncore-test/uncore-exporter "\$@"\n' \
	>usr/bin/uncore-exporter
chmod 755 usr/bin/uncore-exporter
# the options as a site gives them; a later --backend wins over the unit's perf (no uncore PMU here)
printf 'UNCORE_EXPORTER_OPTS=--backend sim:emr --listen 127.0.0.1:9739 --interval 0.5\nASAN_OPTIONS=detect_leaks=0\n' \
	>etc/default/uncore-exporter
EOF

R=$W/r
mkdir "$R" && : >"$W/console"
cat >"$W/pid1.sh" <<EOF
set -e
mount -t tmpfs -o mode=0700 unit-test "$R"
mkdir "$R/u" "$R/w" "$R/root"
mount -t overlay overlay -o lowerdir=/,upperdir="$R/u",workdir="$R/w" "$R/root"
cd "$R/root"
mount -t proc proc proc
mount -t sysfs -o ro sysfs sys
mount -t cgroup2 cgroup2 sys/fs/cgroup
mount -t tmpfs -o mode=0755 run run
mount -t tmpfs -o mode=0755 dev dev
for d in null zero full random urandom tty; do : >"dev/\$d"; mount --bind "/dev/\$d" "dev/\$d"; done
: >dev/console && mount --bind "$W/console" dev/console
mkdir dev/pts dev/shm && mount -t devpts -o newinstance,ptmxmode=0666 devpts dev/pts && ln -s pts/ptmx dev/ptmx
mount -t tmpfs shm dev/shm
sh "$PREP"
exec chroot . env -i container=intel-uncore-test PATH=/usr/sbin:/usr/bin:/sbin:/bin "$SYSTEMD" \
	--unit=intel-uncore-test.target --log-target=console
EOF
# a poweroff ends PID 1 and so the namespaces, within 30 s
powered_off() {
	inside systemctl poweroff >/dev/null 2>&1
	for _ in $(seq 300); do kill -0 "$LPID" 2>/dev/null || return 0; sleep 0.1; done
	return 1
}
sh -c 'echo $$ >"$1/cgroup.procs" && exec unshare --mount --pid --fork --cgroup --net --uts --ipc sh "$2"' \
	sh "$CG" "$W/pid1.sh" >"$W/pid1.log" 2>&1 &
LPID=$!
for _ in $(seq 600); do # about 0.1 s here; a minute allowed
	P1=$(cat "/proc/$LPID/task/$LPID/children" 2>/dev/null | awk '{ print $1 }')
	[ -n "$P1" ] && [ "$(cat "/proc/$P1/comm" 2>/dev/null)" = systemd ] && break
	P1=
	kill -0 "$LPID" 2>/dev/null || break
	sleep 0.1
done
# a mount the namespaces refuse (a container that forbids overlay, proc or cgroup2 mounts) is the machine's
# limit, said in the SKIP line; anything else is a failure
mnt=$(grep -m1 '^mount' "$W/pid1.log")
[ -n "$P1" ] || [ -z "$mnt" ] || skip "the container's root cannot be mounted here ($mnt)"
[ -n "$P1" ] || { cat "$W/pid1.log"; no "systemd runs as PID 1 of the namespaces"; echo "$pass passed, $fail failed"; exit 1; }
inside() { nsenter -t "$P1" -m -u -i -n -p -r -w env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
state=
for _ in $(seq 600); do # a boot of sysinit.target: about a second here, up to a minute allowed
	state=$(inside systemctl is-system-running 2>/dev/null)
	case $state in running | degraded) break ;; esac
	sleep 0.1
done
check "systemd as PID 1 booted sysinit.target ($state)" '[ "$state" = running ] || [ "$state" = degraded ]' ||
	{ tail -30 "$W/console"; cat "$W/pid1.log"; }
[ "$state" = degraded ] && inside systemctl --failed --no-pager --no-legend

# --- at boot, tmpfiles.d made root's directory and claims before any other process could
got=$(inside stat -c '%U:%G %a' /run/intel-uncore /run/intel-uncore/claims 2>&1 | tr '\n' ' ')
check "at boot: /run/intel-uncore root:root 0755, its claims root:root 0600 ($got)" \
	'[ "$got" = "root:root 755 root:root 600 " ]'
# the node as root's tools leave it: records in root's claims, the group's file (the msr-safe set-up of
# doc/safety.md, group 4242), a job in the spool
inside sh -c 'printf "root records" >/run/intel-uncore/claims &&
	install -m 0660 -g 4242 /dev/null /run/intel-uncore/claims.group && printf "member records" >/run/intel-uncore/claims.group &&
	install -d -m 0755 /run/intel-uncore/jobs && printf "0-1\n" >/run/intel-uncore/jobs/42'
listing() { # owners, modes and contents (a directory's size on tmpfs counts its entries: left out)
	inside sh -c 'cd /run/intel-uncore && find . \( -type d -printf "%p %u:%g %m\n" \) -o -printf "%p %u:%g %m %s\n" | sort &&
		find . -type f -exec md5sum {} + | sort'
}
listing >"$W/before"

# --- the shipped unit: start, restart, stop; /run/intel-uncore as it was after each
scrape() { # the exposition, once the exporter answers (a sanitizer build on 2 loaded cores: up to 2 minutes)
	for _ in $(seq 1200); do
		inside curl -sf http://127.0.0.1:9739/metrics 2>/dev/null && return 0
		inside systemctl is-failed -q uncore-exporter && return 1
		sleep 0.1
	done
	return 1
}
for step in start restart; do
	inside systemctl "$step" uncore-exporter
	out=$(scrape)
	check "systemctl $step: it serves the memory counters" 'echo "$out" | grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}"' ||
		inside journalctl -u uncore-exporter --no-pager | tail -20
	pid=$(inside systemctl show -p MainPID --value uncore-exporter)
	uid=$(inside awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
	check "it runs as its dynamic user (uid $uid), with CAP_PERFMON alone" \
		'[ -n "$uid" ] && [ "$uid" -ne 0 ] && inside grep -q "^CapEff:.*0000004000000000$" "/proc/$pid/status"'
	listing >"$W/after"
	check "after $step: /run/intel-uncore, its claims, claims.group and the spool as root left them" \
		'cmp -s "$W/before" "$W/after"' || diff "$W/before" "$W/after"
done
inside systemctl stop uncore-exporter
res=$(inside systemctl show -p Result -p ExecMainStatus --value uncore-exporter | tr '\n' ' ')
check "systemctl stop: it ends with success, status 0 ($res)" '[ "$res" = "success 0 " ]'
listing >"$W/after"
check "after stop: /run/intel-uncore as root left it" 'cmp -s "$W/before" "$W/after"' || diff "$W/before" "$W/after"

# --- doc/prometheus.md's drop-in for a scraper on the same host (issue 89): the unix socket in a directory of the
# unit's own, the scraper's group (a static one) the service's while its user stays dynamic; a member of that
# group is served there, any other user refused, and the socket goes with the unit
block() { # the drop-in of doc/prometheus.md holding the line $1
	awk -v want="$1" '/^    sudo systemctl edit uncore-exporter$/ { on = 1; b = ""; next }
		on && /^$/ { if (b ~ want) printf "%s", b; on = 0; next }
		on { sub(/^    # /, ""); b = b $0 "\n" }' "$SRC/doc/prometheus.md"
}
dropin=$(block 'RuntimeDirectory=uncore-exporter')
check "doc/prometheus.md gives the socket's drop-in ($(echo "$dropin" | wc -l) lines)" 'echo "$dropin" | grep -q "^Group=prometheus$"'
printf '%s\n' "$dropin" | inside sh -c '{ getent group prometheus >/dev/null || echo "prometheus:x:4243:" >>/etc/group; } && mkdir -p /etc/systemd/system/uncore-exporter.service.d &&
	cat >/etc/systemd/system/uncore-exporter.service.d/socket.conf &&
	sed -i "s|^UNCORE_EXPORTER_OPTS=.*|& --listen unix:/run/uncore-exporter/metrics.sock|" /etc/default/uncore-exporter &&
	systemctl daemon-reload'
inside systemctl start uncore-exporter
out=$(scrape)
check "with the socket's drop-in: it serves on its port" 'echo "$out" | grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}"' ||
	inside journalctl -u uncore-exporter --no-pager | tail -20
gid=$(inside getent group prometheus | cut -d: -f3) # the prometheus package's, where it is installed
pid=$(inside systemctl show -p MainPID --value uncore-exporter)
ids=$(inside awk '/^Uid:/ { u = $2 } /^Gid:/ { g = $2 } END { print u, g }' "/proc/$pid/status")
got=$(inside stat -c '%u:%g %a' /run/uncore-exporter /run/uncore-exporter/metrics.sock 2>&1 | tr '\n' ' ')
check "its user dynamic, its group prometheus ($ids, prometheus $gid); the directory 0750 and the socket 0660 theirs ($got)" \
	'[ "${ids% *}" -ne 0 ] && [ "${ids#* }" = "$gid" ] && [ "$got" = "${ids% *}:$gid 750 ${ids% *}:$gid 660 " ]'
as() { inside setpriv --reuid "$1" --regid "$2" --clear-groups curl -s -o /dev/null -w '%{http_code}' --max-time 20 \
	--unix-socket /run/uncore-exporter/metrics.sock http://localhost/metrics 2>&1; }
got=$(as 4243 "$gid")
check "a member of prometheus (uid 4243, gid $gid) is served on the socket ($got)" '[ "$got" = 200 ]'
got=$(as 65534 65534)
check "user 65534 is not ($got)" '[ "$got" = 000 ]'
inside systemctl stop uncore-exporter
res=$(inside systemctl show -p Result -p ExecMainStatus --value uncore-exporter | tr '\n' ' ')
check "systemctl stop: it ends with success, status 0 ($res); its directory gone" \
	'[ "$res" = "success 0 " ] && ! inside test -e /run/uncore-exporter'
inside sh -c 'rm /etc/systemd/system/uncore-exporter.service.d/socket.conf && systemctl daemon-reload'

# --- doc/prometheus.md's drop-in for direct register access: root, its claims in /run/intel-uncore.  No
# register is reachable here: a shared simulator in /run/intel-uncore stands in (its claims beside it,
# root's, as the direct backend's would be).  (The drop-in's ReadWritePaths= is what systemd.exec(5) asks
# for under ProtectSystem=strict, and a unit with ProtectSystem=strict alone finds /run read-only here;
# but with ProtectControlGroups=yes too, systemd 252 and 257 here left /run writable, so this cannot show
# the line needed.)
dropin=$(block 'DynamicUser=no')
check "doc/prometheus.md gives the drop-in ($(echo "$dropin" | wc -l) lines)" 'echo "$dropin" | grep -q "^DynamicUser=no$"'
printf '%s\n' "$dropin" | inside sh -c 'mkdir -p /etc/systemd/system/uncore-exporter.service.d &&
	cat >/etc/systemd/system/uncore-exporter.service.d/direct.conf &&
	sed -i "s|^UNCORE_EXPORTER_OPTS=.*|UNCORE_EXPORTER_OPTS=--backend sim:emr,shared=/run/intel-uncore/sim --listen 127.0.0.1:9739 --interval 0.5|" /etc/default/uncore-exporter &&
	systemctl daemon-reload'
inside systemctl start uncore-exporter
out=$(scrape)
check "with the drop-in: it serves the memory counters" 'echo "$out" | grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}"' ||
	inside journalctl -u uncore-exporter --no-pager | tail -20
pid=$(inside systemctl show -p MainPID --value uncore-exporter)
uid=$(inside awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
got=$(inside stat -c '%U:%G %a' /run/intel-uncore/sim.claims 2>&1)
check "as root (uid $uid), its claims root's, 0600, in /run/intel-uncore ($got)" '[ "$uid" = 0 ] && [ "$got" = "root:root 600" ]'
inside journalctl -u uncore-exporter --no-pager >"$W/journal" 2>&1
check "no claims file refused" '! grep -q "claims file refused" "$W/journal"' || grep "claims file refused" "$W/journal"
inside systemctl stop uncore-exporter
res=$(inside systemctl show -p Result -p ExecMainStatus --value uncore-exporter | tr '\n' ' ')
check "systemctl stop: it ends with success, status 0 ($res)" '[ "$res" = "success 0 " ]'
listing | grep -v '^\./sim' | grep -v ' \./sim' >"$W/after"
check "and /run/intel-uncore is as root left it, but for the simulator's files" 'cmp -s "$W/before" "$W/after"' ||
	diff "$W/before" "$W/after"
check "systemctl poweroff ends the container" powered_off
stop_container
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
