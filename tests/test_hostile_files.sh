#!/bin/sh
# Hostile node files (issue 79 point 2, doc/safety.md): a FIFO (whose open or read would wait forever, as a hung
# NFS /etc/slurm does) or a 1 GB sparse file planted where the front ends read a node file -- gres.conf, a job
# spool entry, a cgroup's CPU list, a job's pid file, the exporter's --config -- is refused by name and left
# out, the run goes on or ends at once; and SIGTERM sent while a front end runs over such a tree ends it.
# timeout 20 only guards against a hang (its 124 is a failure); how soon SIGTERM ends a process is polled with
# kill -0 every 0.1 s and printed, failing past 5 s (the issue asks for one second; the CI has 2 loaded cores).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
SP=$R/run/intel-uncore/jobs
SIM="sim:spr,devices=gpu@0.6.0"
mkdir -p "$V2/job_801" "$V2/job_802" "$V2/job_803" "$SP" "$R/etc/slurm" "$W/spool"
chmod 755 "$SP" && chmod 700 "$W/spool"
# sim:spr: 56 CPUs a socket; job 801 holds socket 0 whole (uncore job counts such a job)
printf '0-55\n' >"$V2/job_801/cpuset.cpus.effective"
printf '56-59\n' >"$V2/job_803/cpuset.cpus.effective"
printf -- '-\ngpus=0\n' >"$SP/801" && chmod 644 "$SP/801"

# plant KIND at FILE: a FIFO, or a sparse file of 1 GiB; what uc_guarded_why says of it
plant() {
	rm -f "$2"
	if [ "$1" = FIFO ]; then mkfifo "$2"; else truncate -s 1G "$2"; fi
	chmod 644 "$2"
}
is() { if [ "$1" = FIFO ]; then echo "it is a FIFO, not a regular file"; else echo "it is 1073741824 bytes"; fi; }

# ended PID: gone, or a zombie (this runs in a command substitution, whose shell does not reap the test's child)
ended() { ! kill -0 "$1" 2>/dev/null || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
# term PID: SIGTERM, then a look every 0.1 s up to 5 s; prints the tenths it took (or "alive")
term() {
	kill -TERM "$1"
	for t in $(seq 0 50); do
		ended "$1" && { echo "$t"; return 0; }
		sleep 0.1
	done
	echo alive
	kill -KILL "$1"
}

# wait until FILE holds TEXT or PID ends (at most 120 s on a loaded machine)
await() {
	for _ in $(seq 1200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

for kind in FIFO huge; do
	plant $kind "$R/etc/slurm/gres.conf"
	plant $kind "$SP/802"
	plant $kind "$V2/job_802/cpuset.cpus.effective"
	why=$(is $kind)
	# uncore jobs: each file named with what it is, the good jobs listed
	out=$(SLURMD_NODENAME=n0 UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend "$SIM" jobs </dev/null 2>"$W/err"); rc=$?
	echo "$out"; cat "$W/err"
	check "uncore jobs, gres.conf a $kind: refused by name, job 801 listed without devices (rc $rc)" \
		'[ $rc -eq 0 ] && grep -qF "gres.conf: $R/etc/slurm/gres.conf: $why" "$W/err" &&
		 echo "$out" | grep -E "^job 801 " | grep -qv devices'
	check "uncore jobs, a cgroup's cpuset.cpus.effective a $kind: job 802 left out by name, 803 kept" \
		'grep -qF "job 802 (slurm-cgroup2): cannot read $V2/job_802/cpuset.cpus.effective: $why" "$W/err" &&
		 ! echo "$out" | grep -q "^job 802 " && echo "$out" | grep -qE "^job 803 +slurm-cgroup2 +4 CPUs 56-59 "'
	if [ $kind = FIFO ]; then spool_why="job spool: 802 is not a regular file: left out"
	else spool_why="cannot read $SP/802: it is 1073741824 bytes"; fi
	# the spool entry of job 802 adds to its cgroup's job: with that one gone, it is the spool's own words
	rm -f "$V2/job_802/cpuset.cpus.effective"
	printf '60-61\n' >"$V2/job_802/cpuset.cpus.effective"
	out=$(UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend "$SIM" jobs </dev/null 2>"$W/err"); rc=$?
	check "uncore jobs, the spool entry of job 802 a $kind: named and left out (rc $rc: $(grep 802 "$W/err"))" \
		'[ $rc -eq 0 ] && grep -qF "$spool_why" "$W/err" && echo "$out" | grep -qE "^job 802 +slurm-cgroup2 +2 CPUs 60-61 "'

	# the exporter --per-job over that tree: serves, names the files, ends on SIGTERM with status 0
	UNCORE_SYSROOT=$R timeout 300 "$B/uncore-exporter" --listen 127.0.0.1:0 --per-job --interval 0.2 \
		--groups memory --backend "$SIM" </dev/null 2>"$W/exp.log" &
	exp=$!
	await "$W/exp.log" " on port [0-9]*, read every" $exp
	await "$W/exp.log" "gres.conf: $R/etc/slurm/gres.conf" $exp
	took=$(term $exp)
	wait $exp; rc=$?
	check "exporter --per-job, gres.conf and a spool entry $kind: serves, names gres.conf, SIGTERM ends it with 0 (in ${took} tenths of a second: rc $rc)" \
		'grep -q " on port [0-9]*, read every" "$W/exp.log" && grep -qF "gres.conf: $R/etc/slurm/gres.conf: $why" "$W/exp.log" &&
		 [ "$took" != alive ] && [ $rc -eq 0 ]' || tail -5 "$W/exp.log"

	# uncore stat --per-job over it, ended by SIGTERM mid-run: the signal's own status (128 + 15)
	UNCORE_SYSROOT=$R timeout 300 $UNCORE --backend "$SIM" stat --per-job -I 200 </dev/null >"$W/stat.out" 2>"$W/stat.err" &
	st=$!
	await "$W/stat.out" "801" $st
	took=$(term $st)
	wait $st; rc=$?
	check "uncore stat --per-job, the same tree: job 801 read, SIGTERM ends it (in ${took} tenths: rc $rc)" \
		'grep -q 801 "$W/stat.out" && [ "$took" != alive ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]' || tail -3 "$W/stat.err"

	# a job's pid file in the job spool: uncore job end and begin refuse a FIFO or do not take it for a count
	plant $kind "$W/spool/801.pid"
	chmod 600 "$W/spool/801.pid"
	out=$(UNCORE_JOB_SPOOL=$W/spool timeout 20 $UNCORE job end 801 </dev/null 2>&1); rc=$?
	if [ $kind = FIFO ]; then
		check "uncore job end, 801.pid a FIFO: refused by name at once (rc $rc: $out)" \
			'[ $rc -eq 1 ] && echo "$out" | grep -qF "$W/spool/801.pid is not a file of root" && echo "$out" | grep -q "(a FIFO)"'
	else
		check "uncore job end, 801.pid of 1 GiB: no process named in it, nothing signalled (rc $rc: $out)" \
			'[ $rc -eq 1 ] && echo "$out" | grep -q "does not name a process"'
	fi
	out=$(UNCORE_JOB_SPOOL=$W/spool UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend "$SIM" job begin 801 --interval 0.2 </dev/null 2>&1); rc=$?
	out2=$(UNCORE_JOB_SPOOL=$W/spool timeout 20 $UNCORE job end 801 </dev/null 2>&1); rc2=$?
	check "uncore job begin, 801.pid a $kind: not taken for a count, the job counted and ended (rc $rc $rc2: $out $out2)" \
		'[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -f "$W/spool/801.json" ]'
	rm -f "$W/spool/801.json" "$W/spool/801.pid"
done

# the exporter's --config a FIFO: refused by name at once, not waited on (a start and every SIGHUP read it)
mkfifo "$W/config"
out=$(timeout 20 "$B/uncore-exporter" --config "$W/config" --backend "$SIM" </dev/null 2>&1); rc=$?
check "exporter --config a FIFO: refused by name (rc $rc: $out)" \
	'[ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -qF -- "--config $W/config: it is a FIFO, not a regular file"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
