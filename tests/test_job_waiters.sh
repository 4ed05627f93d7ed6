#!/bin/sh
# Issue 89 point 4: `uncore job begin ID --wait S` leaves a process that waits for the job's cgroup by scanning
# every job of the node; it scanned five times a second for up to the hour it waits, and 20 of them on a node of
# 500 jobs took a core.  Now each scans 0.2 s after begin, then after twice as long each time, up to 5 s
# (doc/jobs.md): at t = 0, 0.2, 0.6, 1.4, 3.0, 6.2, 11.2, 16.2 s..., so at most 7 scans in its first 15 s,
# and fewer in any later 15 s.  The scans are counted by the kernel, not by the program: each opens the cgroup
# v2 directory of the node's jobs (inotify's IN_OPEN on it; one `uncore jobs` measures the opens of one scan).
# 20 waiters on a node of 100 jobs, a window of 15 s: at most 20 x 10 scans (the 7, begin's own and room to
# spare; five a second would be some 1,500).  No speed is asserted: a loaded machine only scans less.  Then a
# waiter whose job's cgroup appears still counts it, and end stops every waiter.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
mkdir -p "$V2" "$W/spool/jobs"
chmod 755 "$W" "$W/spool" "$W/spool/jobs"
export UNCORE_SYSROOT="$R" UNCORE_JOB_SPOOL="$W/spool/jobs"
sim="sim:snbep,shared=$W/machine"
for i in $(seq 100); do # the node's 100 jobs, a CPU each
	mkdir "$V2/job_$i" && echo $((i % 16)) >"$V2/job_$i/cpuset.cpus.effective"
done
waiters=$(seq 9001 9020)
stop() {
	for j in $waiters; do "$UNCORE" job end "$j" >/dev/null 2>&1; done
	for f in "$W"/spool/jobs/*.pid; do [ -f "$f" ] && kill "$(cut -d" " -f1 "$f")" 2>/dev/null; done # "PID START BOOT"
	[ -n "$counter" ] && kill "$counter" 2>/dev/null
	rm -rf "$W"
}
counter=
trap stop EXIT
# count the opens of the jobs' directory (itself, not what is in it) for $1 seconds, or until SIGUSR1 (what the
# kernel queued by then counted too); "ready" in $2 once watching, the count in $3 at the end
cat >"$W/count.py" <<'PY'
import ctypes, os, select, signal, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
IN_OPEN, IN_ISDIR = 0x20, 0x40000000  # linux/inotify.h
fd = libc.inotify_init1(os.O_NONBLOCK)
if fd < 0 or libc.inotify_add_watch(fd, sys.argv[1].encode(), IN_OPEN) < 0:
    sys.exit("inotify: " + os.strerror(ctypes.get_errno()))
class Stop(Exception):
    pass
def stop(sig, frame):
    raise Stop()
signal.signal(signal.SIGUSR1, stop)
open(sys.argv[3], "w").write("ready\n")
n, end = 0, time.monotonic() + float(sys.argv[2])
def drain():
    global n
    try:
        buf = os.read(fd, 65536)
    except BlockingIOError:
        return False
    i = 0
    while i < len(buf):  # struct inotify_event: wd, mask, cookie, len, then len bytes of name
        wd, mask, cookie, ln = struct.unpack_from("iIII", buf, i)
        n += bool(mask & IN_ISDIR) and ln == 0
        i += 16 + ln
    return True
try:
    while time.monotonic() < end:
        if select.select([fd], [], [], max(0, end - time.monotonic()))[0]:
            drain()
except Stop:
    pass
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
while drain():
    pass
open(sys.argv[4], "w").write("%d\n" % n)
PY
# count for $1 s in the background ($counter); returns once the watch is in place
count() {
	rm -f "$W/ready" "$W/n"
	python3 "$W/count.py" "$V2" "$1" "$W/ready" "$W/n" &
	counter=$!
	for _ in $(seq 300); do [ -s "$W/ready" ] && break; kill -0 $counter 2>/dev/null || break; sleep 0.1; done
}
count 120
"$UNCORE" --backend "$sim" jobs >"$W/jobs.out" 2>&1
kill -USR1 $counter
wait $counter
per=$(cat "$W/n" 2>/dev/null)
check "one scan of the node's 100 jobs opens their directory $per time(s) (uncore jobs: $(head -1 "$W/jobs.out"))" \
	'[ -n "$per" ] && [ "$per" -ge 1 ] && grep -q "^# 100 jobs on this node" "$W/jobs.out"'
[ -n "$per" ] && [ "$per" -ge 1 ] || per=1

count 15
for j in $waiters; do "$UNCORE" --backend "$sim" job begin "$j" --wait 600 >"$W/begin.$j" 2>&1; done
wait $counter
n=$(cat "$W/n" 2>/dev/null)
waiting=0
for j in $waiters; do grep -qs "^waiting for the job.s cgroup since" "$W/spool/jobs/$j.pid" && waiting=$((waiting + 1)); done
check "20 waiters, each waiting for its job ($waiting waiting: $(head -c 200 "$W/begin.9001"))" '[ $waiting -eq 20 ]'
check "20 waiters on a node of 100 jobs scanned ${n:-?} times in 15 s: at most 20 x 10 (x $per opens a scan)" \
	'[ -n "$n" ] && [ "$n" -le $((20 * 10 * per)) ]'

# a waiter still counts its job when the cgroup comes (now 5 s apart at most): socket 1 whole
mkdir "$V2/job_9007" && echo 8-15 >"$V2/job_9007/cpuset.cpus.effective"
for _ in $(seq 300); do grep -qs "^counting since" "$W/spool/jobs/9007.pid" && break; sleep 0.2; done # a state: counted
check "the waiter of job 9007 counts it once its cgroup appears ($(cat "$W/spool/jobs/9007.pid" 2>/dev/null | tail -1))" \
	'grep -q "^counting since [0-9.]* (its cgroup appeared [0-9.]* s after begin)$" "$W/spool/jobs/9007.pid"'
out=$("$UNCORE" job end 9007 2>&1); rc=$?
check "end 9007: its summary of socket 1 ($rc: $out)" '[ $rc -eq 0 ] && grep -q "\"socket\": 1," "$W/spool/jobs/9007.json"'
left=0
for j in $waiters; do
	[ "$j" = 9007 ] && continue
	"$UNCORE" job end "$j" >/dev/null 2>&1
	[ -e "$W/spool/jobs/$j.pid" ] && left=$((left + 1))
done
check "end stops every other waiter: no pid file left ($left)" '[ $left -eq 0 ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
