#!/bin/sh
# uncore job begin|end|report (issue 46 point 2): an exclusive job's summary on the simulator, whose
# profile is the truth: the bytes of the socket the job holds whole, its mean and peak bandwidth; the
# machine left as found; a counting process killed, a job on no whole socket, an odd id, a spool others
# may write, a link planted where the summary goes; a lock someone holds on the pid file, a dead count's
# pid given to another process (issue 64 point 2); a job waited for until its cgroup appears, warnings in the
# system log (issue 78 points 1 and 2).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/other_user.sh" # AS_OTHER, other_cannot, build_copy
UNCORE=${top_builddir:-.}/uncore
SIMSTATE=${top_builddir:-.}/tests/sim_state
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
mkdir -p "$V2/job_1001" "$V2/job_1002"
printf '0-7\n' >"$V2/job_1001/cpuset.cpus.effective" # sim:snbep: socket 0 whole
printf '8-11\n' >"$V2/job_1002/cpuset.cpus.effective" # half of socket 1
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 9.6e9\n' >"$W/profile"
printf 'pkg_watts = 150\ndram_idle_watts = 5\ndram_watts_per_gbps = 0.4\n' >>"$W/profile" # energy (issue 68)
export UNCORE_SYSROOT="$R" UNCORE_JOB_SPOOL="$W/spool/jobs"
sim="sim:snbep,shared=$W/machine,profile=$W/profile"
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$W/spool/jobs/$2.json" | head -1; }
out=$($UNCORE --backend "$sim" job begin 1001 --interval 0.2 2>&1); rc=$?
check "begin: counting socket 0 ($rc: $out)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^uncore job: job 1001: counting 1 socket, process [0-9]*$"'
# the prolog's shell is gone; the job runs its second (a wait for a state: the process counts already)
sleep 1
out=$($UNCORE job end 1001 2>&1); rc=$?
check "end: the summary written ($rc: $out)" '[ $rc -eq 0 ] && [ -f "$W/spool/jobs/1001.json" ] && [ ! -e "$W/spool/jobs/1001.pid" ]'
cat "$W/spool/jobs/1001.json"
secs=$(field seconds 1001) rd=$(field read_bytes 1001) wr=$(field write_bytes 1001)
mrd=$(field mean_read_bw 1001) prd=$(field peak_read_bw 1001)
check "read bytes over its window: the profile's 6.4e9 B/s within 0.1 % ($rd B in $secs s)" \
	'awk -v b="$rd" -v s="$secs" "BEGIN { r = b / s / 6.4e9; exit !(s > 0.5 && r > 0.999 && r < 1.001) }"'
check "write bytes: 3.2e9 B/s within 0.1 % ($wr B)" 'awk -v b="$wr" -v s="$secs" "BEGIN { r = b / s / 3.2e9; exit !(r > 0.999 && r < 1.001) }"'
# each interval's bytes over that interval's own window (its boxes' read times): a read a loaded machine
# delays widens the window it counted, so the peak of a steady load is its rate (once 1.5 % high when
# divided by the session's clock between reads instead)
check "mean read bandwidth = bytes / seconds; the peak of a steady load is the profile's 6.4e9 B/s within 0.1 % ($mrd, $prd)" \
	'awk -v m="$mrd" -v b="$rd" -v s="$secs" -v p="$prd" "BEGIN { exit !(m > 0 && (m - b / s) ^ 2 < 1 && p / 6.4e9 > 0.999 && p / 6.4e9 < 1.001) }"'
check "only the socket it holds whole: socket 0, not socket 1" \
	'grep -q "\"socket\": 0," "$W/spool/jobs/1001.json" && ! grep -q "\"socket\": 1," "$W/spool/jobs/1001.json"'
check "extras with their units (LLC miss ratio %, uncore clock GHz)" \
	'grep -q "\"llc_miss_ratio\": {\"value\": [0-9.e+-]*, \"unit\": \"%\"}" "$W/spool/jobs/1001.json" &&
	 grep -q "\"uncore_freq\": {\"value\": [0-9.e+-]*, \"unit\": \"GHz\"}" "$W/spool/jobs/1001.json"'
# its socket's energy over the energy counters' own window (issue 68 point 3, doc/jobs.md "Energy by job")
es=$(field energy_seconds 1001) pkg=$(field energy_pkg_joules 1001) dram=$(field energy_dram_joules 1001)
wpg=$(field dram_watts_per_gbps 1001) bpj=$(field bytes_per_dram_joule 1001)
check "package joules over the energy window: the profile's 150 W within 0.1 % ($pkg J in $es s)" \
	'awk -v j="$pkg" -v s="$es" "BEGIN { r = j / s / 150; exit !(s > 0.5 && r > 0.999 && r < 1.001) }"'
check "DRAM joules: 5 W + 0.4 W per GB/s x 9.6 GB/s within 0.1 % ($dram J)" \
	'awk -v j="$dram" -v s="$es" "BEGIN { r = j / s / (5 + 0.4 * 9.6); exit !(r > 0.999 && r < 1.001) }"'
check "derived: DRAM W per GB/s and bytes per DRAM joule, each the other's inverse x 1e9 ($wpg, $bpj)" \
	'awk -v w="$wpg" -v b="$bpj" "BEGIN { exit !(w > 0.8 && w < 1.0 && (w * b / 1e9 - 1) ^ 2 < 1e-12) }"'
check "the machine is left as found" '$SIMSTATE "$sim" | grep -q "changed 0$"'
rep=$($UNCORE job report 1001 2>&1); rc=$?
check "report prints the summary ($rc)" '[ $rc -eq 0 ] && [ "$rep" = "$(cat "$W/spool/jobs/1001.json")" ]'
# the counting process killed (an OOM kill, kill -9): end says so; the next session restores its boxes
out=$($UNCORE --backend "$sim" job begin 1001 --interval 0.2 2>&1)
pid=${out##* }
kill -KILL "$pid" 2>/dev/null
for i in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
rm -f "$W/spool/jobs/1001.json"
out=$($UNCORE job end 1001 2>&1); rc=$?
check "its counting process killed: end says so, exit 1, no summary ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "its counting process ended before the job (killed?): no summary" && [ ! -e "$W/spool/jobs/1001.json" ]'
$UNCORE --backend "$sim" stat -e UNC_C_CLOCKTICKS --duration 0.01 >/dev/null 2>&1 # the next session
check "... and the next session put its boxes back" '$SIMSTATE "$sim" | grep -q "changed 0$"'
# --whole-node: the scheduler gave it the node (no cgroup entry needed): every socket counted
out=$($UNCORE --backend "$sim" job begin 7 --whole-node --interval 0.2 2>&1); rc=$?
check "--whole-node: a job without a cgroup counts both sockets ($rc: $out)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "^uncore job: job 7: counting 2 sockets, process [0-9]*$"'
$UNCORE job end 7 >/dev/null 2>&1
check "... its summary has socket 0 and socket 1" \
	'grep -q "\"socket\": 0," "$W/spool/jobs/7.json" && grep -q "\"socket\": 1," "$W/spool/jobs/7.json"'
out=$($UNCORE job end 7 --whole-node 2>&1); rc=$?
check "--whole-node is begin's alone ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "unexpected argument .--whole-node."'
# a second begin of a job being counted: refused, nothing programmed twice; the first goes on
$UNCORE --backend "$sim" job begin 1001 --interval 0.2 >/dev/null 2>&1
out=$($UNCORE --backend "$sim" job begin 1001 2>&1); rc=$?
check "a second begin of a counted job: refused ($rc: $out)" '[ $rc -eq 1 ] && echo "$out" | grep -q "it is being counted already"'
out=$($UNCORE job end 1001 2>&1); rc=$?
check "... and the first count ends with its summary ($rc)" '[ $rc -eq 0 ] && [ -f "$W/spool/jobs/1001.json" ]'
# issue 64 point 2: the pid file is root's alone, and end signals and waits for the process it names by its
# start time, not for whoever holds a lock on it.  hold FILE: a process of its own ($holder) with LOCK_SH on
# the file (flock(2) on an open file of its own), once a LOCK_EX on it is let go; it holds it once it sleeps
hold() {
	(exec 7<"$1" && flock -s 7 && exec sleep 300) &
	holder=$!
	for i in $(seq 1 100); do [ "$(cat /proc/$holder/comm 2>/dev/null)" = sleep ] && break; sleep 0.1; done
}
# killed_held: a count of job 1001 begun, its pid file held, the count ($pid) killed with SIGKILL
killed_held() {
	out=$($UNCORE --backend "$sim" job begin 1001 --interval 0.2 2>&1)
	pid=${out##* }
	hold "$P"
	kill -KILL "$pid" 2>/dev/null
	for i in $(seq 1 200); do [ "$(cat /proc/$holder/comm 2>/dev/null)" = sleep ] && break; sleep 0.05; done
}
P=$W/spool/jobs/1001.pid
out=$($UNCORE --backend "$sim" job begin 1001 --interval 0.2 2>&1)
check "the pid file and the spool's lock: mode 0600, root's (this user's) alone ($(stat -c '%a %U' "$P" "$W/spool/jobs/.lock" | tr '\n' ' '))" \
	'[ "$(stat -c "%a %u" "$P")" = "600 $(id -u)" ] && [ "$(stat -c "%a %u" "$W/spool/jobs/.lock")" = "600 $(id -u)" ]'
# another user (uid 65534, tests/other_user.sh): the spool's directories let it search, the CLI its own copy
# (the build may lie below root's home, 0700), so only the pid file's mode stands in its way
[ "$(id -u)" -eq 0 ] && chmod 711 "$W" && build_copy "$W/other" uncore
why=$(other_cannot "$W/spool/jobs" "$W/other/uncore")
if [ -z "$why" ]; then
	out=$($AS_OTHER flock -s -n "$P" true 2>&1); rc=$?
	check "another user (uid 65534) cannot open the pid file to lock it ($rc: $out)" \
		'[ $rc -ne 0 ] && echo "$out" | grep -q "Permission denied"'
	out=$($AS_OTHER env LD_LIBRARY_PATH="$W/other" "$W/other/uncore" job end 1001 2>&1); rc=$?
	check "... nor stop the count: its end says it cannot open the file ($rc: $out)" \
		'[ $rc -eq 1 ] && echo "$out" | grep -q "job 1001: cannot open .*1001.pid: Permission denied"'
else
	echo "not run: another user's lock on the pid file ($why)"
fi
[ "$(id -u)" -eq 0 ] && chmod 700 "$W"
# a lock on the live count's pid file (taken once the count lets go of it, as a user did on 0644 files):
# end once waited 60 s for it, Slurm's node COMPLETING meanwhile; it waits for the process alone now
hold "$P"
out=$(timeout 45 $UNCORE job end 1001 2>&1); rc=$?
check "a lock held on the pid file: end finishes within 45 s, with the summary ($rc: $out)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "summary in"'
kill "$holder" 2>/dev/null
# a count killed, its pid file locked by someone: the job's next begin (a requeued job keeps its id) counts
killed_held
out=$($UNCORE --backend "$sim" job begin 1001 --interval 0.2 2>&1); rc=$?
check "a begin over a killed count's pid file someone holds locked: it counts ($rc: $out)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "^uncore job: job 1001: counting 1 socket"'
out=$($UNCORE job end 1001 2>&1); rc=$?
check "... and its end writes the summary ($rc: $out)" '[ $rc -eq 0 ] && [ -f "$W/spool/jobs/1001.json" ]'
kill "$holder" 2>/dev/null
# the count killed and its pid given to an unrelated process (the file rewritten in place, as a recycled
# pid would read, the lock still held): end signals nothing and the process lives
killed_held
sleep 300 &
victim=$!
rest=$(sed 's/^[0-9]*//' "$P")
printf '%s%s\n' "$victim" "$rest" >"$P"
out=$($UNCORE job end 1001 2>&1); rc=$?
check "a dead count's pid now an unrelated process's: end says the count ended, the process lives ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "its counting process ended before the job (killed?)" && kill -0 $victim'
check "... and the dead count's pid file is gone" '[ ! -e "$P" ]'
kill "$victim" "$holder" 2>/dev/null
for i in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done # reaped: no longer a holder
$UNCORE --backend "$sim" stat -e UNC_C_CLOCKTICKS --duration 0.01 >/dev/null 2>&1 # puts the killed counts' boxes back
# a pid file others may write (planted to have root signal a process of theirs): refused, nothing signalled
sleep 300 &
victim=$!
echo "$victim" >"$W/spool/jobs/555.pid"
chmod 666 "$W/spool/jobs/555.pid"
out=$($UNCORE job end 555 2>&1); rc=$?
check "end with a pid file others may write: refused, its process untouched ($rc)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "is not a file of root.s (or this user.s) that only its owner may write" && kill -0 $victim'
chmod 644 "$W/spool/jobs/555.pid" # an older uncore's file: the pid alone, no start time to prove it by
out=$($UNCORE job end 555 2>&1); rc=$?
check "end with a pid file that names no start time: nothing signalled, said so ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "does not name a process with its start time" && kill -0 $victim'
kill $victim 2>/dev/null
rm -f "$W/spool/jobs/555.pid"
# issue 78 points 1 and 2: a job not there at begin (Slurm makes its cgroup after the prolog) is waited for
# and counted from when its cgroup appears; warnings reach the system log (a datagram socket the test listens
# on, as /dev/log is) with the job id, and the summary
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(60)
with open(sys.argv[2], "a") as f:
	while True:
		try:
			m = s.recv(4096)
		except OSError:
			break
		f.write(m.decode(errors="replace") + "\n")
		f.flush()
' "$W/log.sock" "$W/syslog" &
logger_pid=$!
for _ in $(seq 100); do [ -S "$W/log.sock" ] && break; sleep 0.1; done # wait for a state: listening
export UNCORE_SYSLOG_SOCKET="$W/log.sock"
out=$($UNCORE --backend "$sim" job begin 1003 --interval 0.2 --wait 60 2>&1); rc=$?
check "begin --wait of a job not there yet: its process waits ($rc: $out)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "job 1003: not on this node yet" && grep -qs "^waiting for the job.s cgroup since" "$W/spool/jobs/1003.pid"'
mkdir -p "$V2/job_1003" && printf '8-15\n' >"$V2/job_1003/cpuset.cpus.effective" # socket 1 whole
for _ in $(seq 300); do grep -qs "^counting since" "$W/spool/jobs/1003.pid" && break; sleep 0.1; done # a state: counted
check "the spool says from when it counts ($(grep since "$W/spool/jobs/1003.pid"))" \
	'grep -q "^counting since [0-9.]* (its cgroup appeared [0-9.]* s after begin)$" "$W/spool/jobs/1003.pid"'
sleep 1
out=$($UNCORE job end 1003 2>&1); rc=$?
secs=$(field seconds 1003) rd=$(field read_bytes 1003) from=$(field counted_from 1003) begun=$(field begun_at 1003)
check "end: its summary, socket 1, counted from $from (begun $begun), read $rd B in $secs s: 9.6e9 B/s within 0.1 % ($rc: $out)" \
	'[ $rc -eq 0 ] && grep -q "\"socket\": 1," "$W/spool/jobs/1003.json" && grep -q "\"waited_for_job\": true" "$W/spool/jobs/1003.json" &&
	awk -v b="$rd" -v s="$secs" -v f="$from" -v g="$begun" "BEGIN { r = b / s / 9.6e9; exit !(f > g && r > 0.999 && r < 1.001) }"'
out=$($UNCORE --backend "$sim" job begin 1004 --wait 0.3 2>&1)
for _ in $(seq 100); do [ -e "$W/spool/jobs/1004.pid" ] || break; sleep 0.1; done # a state: the wait ran out
out=$($UNCORE job end 1004 2>&1); rc=$?
check "a job whose cgroup never came: end says it was never counted ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "job 1004: was never counted"'
check "... and its summary has why" \
	'grep -q "\"warnings\": \[\"no cgroup of the job appeared in the 0.3 s begin waited for it (--wait): not counted\"\]" "$W/spool/jobs/1004.json"'
out=$($UNCORE --backend "$sim" job begin 1005 --wait 60 2>&1)
out=$($UNCORE job end 1005 2>&1); rc=$?
check "a job that ends while begin's process waits for it: end says it was never counted ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "job 1005: was never counted: it ended before its cgroup appeared" &&
	grep -q "\"counted_from\": null," "$W/spool/jobs/1005.json" && [ ! -e "$W/spool/jobs/1005.pid" ]'
$UNCORE --backend "$sim" job begin 4243 >/dev/null 2>&1
for _ in $(seq 100); do grep -qs "job 4243" "$W/syslog" && grep -qs "job 1004: was never" "$W/syslog" && break; sleep 0.1; done
check "the system log has each warning with its job id, ident intel-uncore ($(cat "$W/syslog"))" \
	'grep -q "^<28>[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* intel-uncore\[[0-9]*\]: job 4243: no such job on this node" "$W/syslog" &&
	grep -q "intel-uncore\[[0-9]*\]: job 1004: no cgroup of the job appeared in the 0.3 s" "$W/syslog" &&
	grep -q "intel-uncore\[[0-9]*\]: job 1004: was never counted" "$W/syslog"'
# the Slurm script's own warnings too (logger(1), the same socket)
env -i PATH="$PATH" UNCORE_SYSLOG_SOCKET="$W/log.sock" SLURM_JOB_ID=4244 SLURM_SCRIPT_CONTEXT=odd \
	sh "${top_builddir:-.}/slurm/intel-uncore-job" 2>/dev/null
for _ in $(seq 100); do grep -qs "job 4244" "$W/syslog" && break; sleep 0.1; done
check "the Slurm script's warning in the system log with its job id" \
	'grep -q "intel-uncore.*: job 4244: name me as Slurm.s Prolog and Epilog" "$W/syslog"'
kill $logger_pid 2>/dev/null
unset UNCORE_SYSLOG_SOCKET
# refusals
out=$($UNCORE --backend "$sim" job begin 1002 2>&1); rc=$?
check "a job holding no socket whole: refused, said why ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -q "job 1002: it holds no socket whole"'
out=$($UNCORE --backend "$sim" job begin 4242 2>&1); rc=$?
check "a job not on this node: refused ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -q "job 4242: no such job on this node"'
out=$($UNCORE --backend "$sim" job begin "../../etc/x" 2>&1); rc=$?
check "a job id with a path in it: refused before any file is touched ($rc)" \
	'[ $rc -eq 2 ] && echo "$out" | grep -q "not a job id" && [ ! -e "$W/etc" ]'
out=$($UNCORE job end 1001 2>&1); rc=$?
check "end of a job not counted: said so ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -q "job 1001: is not being counted"'
out=$($UNCORE job report 4242 2>&1); rc=$?
check "report of a job without a summary: said so ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -q "no summary of job 4242"'
# a link planted where the summary goes: replaced, its target untouched
echo keep >"$W/target"
ln -s "$W/target" "$W/spool/jobs/1001.json"
$UNCORE --backend "$sim" job begin 1001 --interval 0.2 >/dev/null 2>&1
$UNCORE job end 1001 >/dev/null 2>&1
check "a link planted as the summary: replaced by the summary, its target untouched" \
	'[ "$(cat "$W/target")" = keep ] && [ ! -L "$W/spool/jobs/1001.json" ] && grep -q "\"job\": \"1001\"" "$W/spool/jobs/1001.json"'
for mode in 777 1777; do
	chmod $mode "$W/spool/jobs"
	out=$($UNCORE --backend "$sim" job begin 1001 2>&1); rc=$?
	check "a spool anyone may write (mode $mode, sticky too): refused ($rc)" \
		'[ $rc -eq 1 ] && echo "$out" | grep -q "is not a directory of root (or this user) that only its owner may write"'
done
chmod 755 "$W/spool/jobs"
check "nothing left programmed" '$SIMSTATE "$sim" | grep -q "changed 0$"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
