#!/bin/sh
# Issue 79's attacks on uncore-exporter, small enough for CI's 2 loaded cores: many loopback source addresses
# each trickling 16 connections (before: 16 an exact address, so 200 addresses filled --max-connections and
# no scrape got in), and clients that ask for /metrics and never read (before: a private copy of the
# exposition each, the RSS growing with them past the DaemonSet's memory limit).  A scraper named by --allow is
# served every time while they run, and the RSS stays within the bound the exporter computes from its options
# (doc/safety.md), in a memory cgroup of the DaemonSet's 128 MiB limit where cgroups can be made here.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
EXP=$B/uncore-exporter
CROWD="python3 ${top_srcdir:-.}/tests/exporter_crowd.py"
exp_pid= cg=
cleanup() {
	[ -n "$exp_pid" ] && kill $exp_pid 2>/dev/null && wait $exp_pid 2>/dev/null
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	:
	rm -rf "$W"
}
trap cleanup EXIT
# ASan keeps freed blocks in a quarantine (256 MiB by default) that would count as the exporter's own
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4"

# start the exporter with "$@" on any free port (as test_exporter.sh does); PORT, and BOUND its memory at most (kB)
# (in the memory cgroup $cg when one is made, from its first page on)
start() {
	: >"$W/exp.log" # emptied here: the child truncating it races with the wait below reading the last one's port
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' sh "$cg" \
		"$EXP" --listen 127.0.0.1:0 --backend sim:emr --interval 0.5 "$@" 2>"$W/exp.log" &
	exp_pid=$!
	PORT=
	for _ in $(seq 1200); do
		PORT=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/exp.log")
		[ -n "$PORT" ] && break
		kill -0 $exp_pid 2>/dev/null || break
		sleep 0.1
	done
	BOUND=$(sed -n 's/.*HTTP server.s memory at most \([0-9]*\) kB.*/\1/p' "$W/exp.log")
	[ -n "$PORT" ] || { cat "$W/exp.log"; return 1; }
}
stop() {
	kill -TERM $exp_pid
	wait $exp_pid
	rc=$?
	exp_pid=
	return $rc
}

# descriptors: 3,200 attacking sockets here and up to 1,024 in the exporter (a root shell's soft limit is 1024)
want=8192 hard=$(ulimit -Hn)
[ "$hard" != unlimited ] && [ "$hard" -lt $want ] && want=$hard
[ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $want ] && ulimit -n $want
addrs=200
[ $((addrs * 16 + 1200)) -gt "$want" ] && addrs=$(((want - 1200) / 16))

# --- many addresses, each within 16 connections: 127.0.0.0/8 is one client, so the crowd holds 16
start --max-connections 1024 --request-timeout 30
check "the exporter serves on a port of its own choosing ($PORT)" '[ -n "$PORT" ]'
out=$($CROWD trickle $PORT $addrs 16 10 16)
rc=$?
echo "$out"
check "$addrs loopback addresses x 16 trickling connections hold 16 of them, as one client" '[ $rc -eq 0 ]'
stop
check "... and it stops cleanly" '[ $? -eq 0 ]'

# --- the same with the per-client limit off: the scraper --allow names has connections of its own
for opts in "--max-connections-per-ip 16" "--max-connections-per-ip 0"; do
	start --max-connections 1024 --request-timeout 30 --allow 127.0.0.1/32 $opts
	check "the exporter serves on a port of its own choosing ($PORT)" '[ -n "$PORT" ]'
	out=$($CROWD trickle $PORT $addrs 16 10 -1)
	rc=$?
	echo "$out"
	check "$addrs loopback addresses x 16 trickling connections ($opts): every scrape of the --allow'd scraper served" '[ $rc -eq 0 ]'
	check "... and the exporter still runs" 'kill -0 $exp_pid'
	stop
	check "... and stops cleanly" '[ $? -eq 0 ]'
done

# --- a local user's 16 trickling connections from 127.x fill the one client 127.0.0.0/8 is, with the default options
# (issue 89: root's scraper on 127.0.0.1 was served 1 of 15 times); the local scraper on --listen unix:PATH, whose
# mode no other user passes, is served every second throughout (before: --listen took no unix socket)
start --listen "unix:$W/metrics.sock"
check "the exporter serves on its port ($PORT) and on unix:$W/metrics.sock" '[ -n "$PORT" ] && [ -S "$W/metrics.sock" ]'
out=$($CROWD local $PORT "$W/metrics.sock" 1 16 10)
rc=$?
echo "$out"
check "16 trickling connections from 127.1.0.1: the scraper on the unix socket served every second" '[ $rc -eq 0 ]'
got=$(curl -s -o "$W/body" -w '%{http_code}' --max-time 10 --unix-socket "$W/metrics.sock" http://localhost/metrics)
check "curl --unix-socket is served too ($got)" '[ "$got" = 200 ] && grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}" "$W/body"'
stop
check "... and it stops cleanly, its socket removed" '[ $? -eq 0 ] && [ ! -e "$W/metrics.sock" ]'

# --- an address block of --allow, refused forms
out=$("$EXP" --allow 10.0.0.0/33 2>&1); rc=$?
check "--allow 10.0.0.0/33 is refused with the prefix's range ($out)" '[ $rc -eq 2 ] && echo "$out" | grep -q "from 0 to 32"'
out=$("$EXP" --allow 10.0.0.256 2>&1); rc=$?
check "--allow 10.0.0.256 is refused as no address ($out)" '[ $rc -eq 2 ] && echo "$out" | grep -q "not an IPv4 or IPv6 address"'
printf 'allow 10.0.0.0/8, fd00::/64\nallow 10.0.0.0/33\n' >"$W/allow.conf"
out=$("$EXP" --config "$W/allow.conf" 2>&1); rc=$?
check "--config takes allow, its bad line named ($out)" '[ $rc -eq 2 ] && echo "$out" | grep -q "allow.conf:2: --allow .10.0.0.0/33.: the prefix length"'
out=$("$EXP" --allow ::1 --max-connections 16 2>&1); rc=$?
check "reserving all of --max-connections is refused ($out)" '[ $rc -eq 2 ] && echo "$out" | grep -q "leaves none of --max-connections 16"'

# --- clients that never read: the per-client limit off, so that only the shared response bounds the memory;
# in a memory cgroup of the DaemonSet's limit (packaging/kubernetes/uncore-exporter.yaml) where one can be made
for m in /sys/fs/cgroup/memory /sys/fs/cgroup/unified /sys/fs/cgroup; do
	[ -w "$m" ] && { [ -e "$m/memory.limit_in_bytes" ] || grep -qw memory "$m/cgroup.subtree_control" 2>/dev/null; } || continue
	mkdir "$m/uncore-crowd-$$" 2>/dev/null && cg=$m/uncore-crowd-$$ && break
done
start --backend sim:cwf --interval 1 --request-timeout 10 --max-connections 1024 --max-connections-per-ip 0 --allow 127.0.0.1/32 --per-box all
check "the exporter serves on a port of its own choosing ($PORT), its memory bound said (${BOUND:-none} kB)" '[ -n "$PORT" ] && [ -n "$BOUND" ]'
grep "memory at most" "$W/exp.log"
if [ -n "$cg" ]; then
	# 128 MiB, or a sanitizer build's own memory (shadow memory: some 105 MB) and the bound above it
	used=$(cat "$cg/memory.usage_in_bytes" "$cg/memory.current" 2>/dev/null | head -1)
	lim=$((128 * 1024 * 1024))
	[ $((used + (BOUND + 16384) * 1024)) -gt $lim ] && lim=$((used + (BOUND + 16384) * 1024))
	if { echo $lim >"$cg/memory.limit_in_bytes" || echo $lim >"$cg/memory.max"; } 2>/dev/null; then
		echo "# memory cgroup $cg: $((used / 1048576)) MiB used, limit $((lim / 1048576)) MiB"
	else
		echo "# memory cgroup $cg: its limit cannot be set; the RSS bound alone holds"
	fi
else
	echo "# no memory cgroup can be made here: the RSS bound alone holds"
fi
out=$($CROWD slow $PORT $exp_pid 100 16 15 "$BOUND")
rc=$?
echo "$out"
check "100 addresses x 16 clients that never read: every scrape served, the RSS within the computed bound" '[ $rc -eq 0 ]'
check "... and the exporter still runs${cg:+ in its memory cgroup}" 'kill -0 $exp_pid'
stop
check "... and stops cleanly" '[ $? -eq 0 ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
