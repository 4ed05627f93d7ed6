#!/bin/sh
# Issue 46 point 5: a real batch system.  Debian's Slurm (slurmctld, slurmd) on loopback, configured here
# (no systemd, no cgroups: proctrack/linuxproc, select/linear gives each job the node whole), with the
# package's prolog and epilog (slurm/intel-uncore-job): sbatch jobs on a simulated 2-socket node, each
# job's summary equal to the simulator's truth (the profile's rates over the job's counted window, a
# window inside the one the test saw), a job ended by scancel summarised too, and the node left as found.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
B=$(cd "$B" && pwd)
UNCORE=$B/uncore
SIMSTATE=$B/tests/sim_state
for d in slurmctld slurmd sbatch squeue scancel sinfo; do
	command -v $d >/dev/null 2>&1 && continue
	echo "SKIP: $d is not installed (scripts/install-deps installs slurmctld, slurmd and slurm-client)"
	exit 77
done
if [ "$(id -u)" -ne 0 ]; then # slurmd starts each job as its user, which takes root
	echo "SKIP: slurmd must run as root to start jobs; run as root to test the Slurm prolog and epilog"
	exit 77
fi
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ctld_pid= slurmd_pid=
stop() {
	for p in $slurmd_pid $ctld_pid; do kill "$p" 2>/dev/null; done
	for p in $slurmd_pid $ctld_pid; do
		for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	# a counting process a failed test left behind
	for f in "$W"/spool/jobs/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	rm -rf "$W"
}
trap stop EXIT

# --- the simulated node and the package's prolog/epilog, with the test's settings (slurmd gives a
# prolog no environment: a site puts these in /etc/default/intel-uncore; here a wrapper exports them)
mkdir -p "$W/state" "$W/slurmd" "$W/log" "$W/spool/jobs" "$W/root" "$W/out"
chmod 755 "$W" "$W/spool" "$W/spool/jobs"
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 9.6e9\nsocket1.mem_write_bytes_per_s = 1.6e9\n' >"$W/profile"
sim="sim:snbep,shared=$W/machine,profile=$W/profile"
JOBSCRIPT=$B/slurm/intel-uncore-job
cat >"$W/prolog" <<EOF
#!/bin/sh
export UNCORE_BIN='$UNCORE' UNCORE_BACKEND='$sim' UNCORE_JOB_SPOOL='$W/spool/jobs' UNCORE_SYSROOT='$W/root'
exec '$JOBSCRIPT' 2>>'$W/log/prolog.err'
EOF
chmod 755 "$W/prolog"
check "the package's prolog/epilog is built ($JOBSCRIPT)" '[ -x "$JOBSCRIPT" ]'
CPUS=$(nproc --all)
cat >"$W/slurm.conf" <<EOF
ClusterName=iu
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(port)
SlurmdPort=$(port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/slurmd
SlurmctldPidFile=$W/ctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
Prolog=$W/prolog
Epilog=$W/prolog
PrologFlags=Alloc
NodeName=iunode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=iu Nodes=iunode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$W/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >"$W/log/slurmctld.out" 2>&1 &
ctld_pid=$!
slurmd -D -N iunode -f "$SLURM_CONF" >"$W/log/slurmd.out" 2>&1 &
slurmd_pid=$!
# wait for a state: the node idle in the controller's view (at most 60 s)
for _ in $(seq 300); do
	[ "$(sinfo -h -n iunode -o %t 2>/dev/null)" = idle ] && break
	sleep 0.2
done
check "slurmctld and slurmd on loopback: the node is idle" '[ "$(sinfo -h -n iunode -o %t 2>/dev/null)" = idle ]' ||
	tail -5 "$W/log/slurmctld.out" "$W/log/slurmd.out" "$W/log/slurmctld.log" "$W/log/slurmd.log"

now() { date +%s.%N; }
# a job's state as squeue has it, "" once it has left the queue
state() { squeue -h -j "$1" -o %T 2>/dev/null; }
# wait (at most 120 s) until job $1 has left the queue and its epilog wrote its summary or said why not
finished() {
	for _ in $(seq 600); do
		[ -z "$(state "$1")" ] && { [ -f "$W/spool/jobs/$1.json" ] || grep -q "job $1" "$W/log/prolog.err" 2>/dev/null; } &&
			[ ! -e "$W/spool/jobs/$1.pid" ] && return 0
		sleep 0.2
	done
	return 1
}
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$2" | sed -n "${3:-1}p"; }
# the summary of job $1 on socket $2 (1st or 2nd in the file) against the profile's rates
truth() { # $1 job, $2 window the test saw (s), $3 the job's own run (s)
	f=$W/spool/jobs/$1.json secs=$(field seconds "$W/spool/jobs/$1.json")
	check "job $1: a summary, socket 0 and socket 1 (the node whole)" \
		'[ -f "$f" ] && grep -q "\"socket\": 0," "$f" && grep -q "\"socket\": 1," "$f"' || {
		cat "$W/log/prolog.err" 2>/dev/null
		return
	}
	check "job $1: counted ${secs} s, at least the job's $3 s and within the $2 s the test saw" \
		'awk -v s="$secs" -v lo="$3" -v hi="$2" "BEGIN { exit !(s >= lo && s <= hi) }"'
	n=1
	for rates in "6.4e9 3.2e9" "9.6e9 1.6e9"; do
		rr=${rates% *} wr_rate=${rates#* }
		rd=$(field read_bytes "$f" $n) wr=$(field write_bytes "$f" $n)
		check "job $1: socket $((n - 1)) read $rd B, written $wr B: the profile's $rr and $wr_rate B/s over $secs s within 0.1 %" \
			'awk -v r="$rd" -v w="$wr" -v s="$secs" -v R="$rr" -v X="$wr_rate" "BEGIN {
				a = r / s / R; b = w / s / X; exit !(a > 0.999 && a < 1.001 && b > 0.999 && b < 1.001) }"'
		n=$((n + 1))
	done
}

# --- two jobs run to their end, one after the other (select/linear: the node whole to each)
for run in 2 3; do
	t0=$(now)
	id=$(sbatch --parsable -o "$W/out/%j" --wrap "sleep $run; echo done")
	finished "$id"
	t1=$(now)
	check "job $id (sleep $run) ran and printed its output" '[ "$(cat "$W/out/$id" 2>/dev/null)" = done ]'
	truth "$id" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")" "$run"
done

# --- a job ended by scancel: the epilog still writes its summary
t0=$(now)
id=$(sbatch --parsable -o "$W/out/%j" --wrap "sleep 600")
for _ in $(seq 600); do # wait for a state: running, and counted
	[ "$(state "$id")" = RUNNING ] && [ -f "$W/spool/jobs/$id.pid" ] && break
	sleep 0.2
done
check "job $id runs and is counted" '[ "$(state "$id")" = RUNNING ] && [ -f "$W/spool/jobs/$id.pid" ]'
sleep 1
scancel "$id"
finished "$id"
t1=$(now)
truth "$id" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")" 1

check "no counting process left (no .pid in the spool)" '! ls "$W/spool/jobs/"*.pid >/dev/null 2>&1'
check "the node's uncore left as found" '$SIMSTATE "$sim" | grep -q "changed 0$"'
check "the prolog and epilog said nothing wrong$(head -c 300 "$W/log/prolog.err" 2>/dev/null)" \
	'! grep -v "^uncore job: job [0-9]*: \(counting 2 sockets, process [0-9]*\|summary in .*\)$" "$W/log/prolog.err"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
