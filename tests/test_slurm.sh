#!/bin/sh
# Issue 46 point 5: a real batch system.  Debian's Slurm (slurmctld, slurmd) on loopback, configured here
# (no systemd, no cgroups: proctrack/linuxproc, select/linear gives each job the node whole), with the
# package's prolog and epilog (slurm/intel-uncore-job): sbatch jobs on a simulated 2-socket node, each
# job's summary equal to the simulator's truth (the profile's rates over the job's counted window, a
# window inside the one the test saw), a job ended by scancel summarised too, and the node left as found.
# Issue 63: Slurm with its cgroups as sites run it (proctrack/cgroup, task/cgroup with ConstrainCores,
# select/cons_tres), cgroup/v1 and, where /sys/fs/cgroup is a pure cgroup2 mount, cgroup/v2: two jobs of
# one CPU each, both listed by `uncore jobs` (no uncore needed) with exactly the CPU Slurm gave each
# (scontrol's CPU_IDs, the job's own affinity and its cgroup's cpuset agree), then, once they end, gone
# from the list and their cgroups gone; every daemon, job and cgroup the test made is gone at its end.
# Issue 78 point 1: there with doc/jobs.md's own lines (the package's Prolog and Epilog, PrologFlags=Alloc;
# on cgroup v1 also PrologFlags=Contain, whose extern step makes the cgroup right after the prolog),
# whose prolog runs before slurmd makes the job's cgroup (at the job's first step): each job, given one
# socket's CPUs of a simulated two-socket node, is counted from its first step (the job sees "counting since"
# in the spool before its script goes on), and its summary's bytes are the simulator's truth over the window
# it says it counted.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
B=$(cd "$B" && pwd)
UNCORE=$B/uncore
SIMSTATE=$B/tests/sim_state
for d in slurmctld slurmd sbatch squeue scancel sinfo scontrol; do
	command -v $d >/dev/null 2>&1 && continue
	echo "SKIP: $d is not installed (scripts/install-deps installs slurmctld, slurmd and slurm-client)"
	exit 77
done
if [ "$(id -u)" -ne 0 ]; then # slurmd starts each job as its user, which takes root
	echo "SKIP: slurmd must run as root to start jobs; run as root to test the Slurm prolog and epilog"
	exit 77
fi
. "$(dirname "$0")/slurm_fixture.sh" # the lock, port, the release, slurm.conf, cgroup.conf, the daemons, cg_clean
ctld_pid= slurmd_pid= D= cgroots= ran_cgroup=
stop_slurm() {
	daemons="$slurmd_pid $ctld_pid"
	stop_daemons
	slurmd_pid= ctld_pid=
}
stop() {
	stop_slurm
	cg_clean
	# a counting process a failed test left behind
	for f in "$W"/*/spool/jobs/*.pid; do [ -f "$f" ] && kill "$(cut -d" " -f1 "$f")" 2>/dev/null; done # "PID START BOOT"
	rm -rf "$W"
}
trap stop EXIT

now() { date +%s.%N; }
# a job's state as squeue has it, "" once it has left the queue
state() { squeue -h -j "$1" -o %T 2>/dev/null; }

# --- proctrack/linuxproc: the simulated node and the package's prolog/epilog, with the test's settings
# (slurmd gives a prolog no environment: a site puts these in /etc/default/intel-uncore; here a wrapper
# exports them)
D=$W/linuxproc
SP=$D/spool/jobs
mkdir -p "$SP" "$D/root"
chmod 755 "$W" "$D" "$D/spool" "$SP"
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 9.6e9\nsocket1.mem_write_bytes_per_s = 1.6e9\n' >"$D/profile"
sim="sim:snbep,shared=$D/machine,profile=$D/profile"
JOBSCRIPT=$B/slurm/intel-uncore-job
slurm_conf iunode proctrack/linuxproc task/none select/linear "Prolog=$D/prolog
Epilog=$D/prolog
PrologFlags=Alloc"
cat >"$D/prolog" <<EOF
#!/bin/sh
export UNCORE_BIN='$UNCORE' UNCORE_BACKEND='$sim' UNCORE_JOB_SPOOL='$SP' UNCORE_SYSROOT='$D/root'
exec '$JOBSCRIPT' 2>>'$D/log/prolog.err'
EOF
chmod 755 "$D/prolog"
check "the package's prolog/epilog is built ($JOBSCRIPT)" '[ -x "$JOBSCRIPT" ]'
cgroup_conf_none
linuxproc=1 up=
start_slurm iunode && up=1
if [ -z "$up" ] && grep -qs "No filesystem mounted on" "$D/log/slurmd.log" "$D/log/slurmd.out"; then
	echo "SKIP: proctrack/linuxproc: slurmd $SLURM_VER wants a cgroup tree this machine has not mounted, whatever" \
		"cgroup.conf says ($(tr '\n' ' ' <"$D/cgroup.conf")): slurmd said" \
		"'$(grep -hs "No filesystem mounted on" "$D/log/slurmd.log" "$D/log/slurmd.out" | head -1)'"
	linuxproc=
else
	checkd "proctrack/linuxproc: slurmctld and slurmd (Slurm $SLURM_VER) on loopback: the node is idle" '[ -n "$up" ]'
fi

# wait (at most 120 s) until job $1 has left the queue and its epilog wrote its summary or said why not
finished() {
	for _ in $(seq 600); do
		[ -z "$(state "$1")" ] && { [ -f "$SP/$1.json" ] || grep -q "job $1" "$D/log/prolog.err" 2>/dev/null; } &&
			[ ! -e "$SP/$1.pid" ] && return 0
		sleep 0.2
	done
	return 1
}
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$2" | sed -n "${3:-1}p"; }
# the summary of job $1 on socket $2 (1st or 2nd in the file) against the profile's rates
truth() { # $1 job, $2 window the test saw (s), $3 the job's own run (s)
	f=$SP/$1.json secs=$(field seconds "$SP/$1.json") f0=$fail
	check "job $1: a summary, socket 0 and socket 1 (the node whole)" \
		'[ -f "$f" ] && grep -q "\"socket\": 0," "$f" && grep -q "\"socket\": 1," "$f"'
	if [ "$fail" -ne "$f0" ]; then
		cat "$D/log/prolog.err" 2>/dev/null
		diag
		return
	fi
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

if [ -n "$linuxproc" ] && [ -n "$up" ]; then # (no node: the jobs would only wait out their time)
	# --- two jobs run to their end, one after the other (select/linear: the node whole to each)
	for run in 2 3; do
		t0=$(now)
		id=$(sbatch --parsable -o "$D/out/%j" --wrap "sleep $run; echo done")
		finished "$id"
		t1=$(now)
		checkd "job $id (sleep $run) ran and printed its output" '[ "$(cat "$D/out/$id" 2>/dev/null)" = done ]'
		truth "$id" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")" "$run"
	done

	# --- a job ended by scancel: the epilog still writes its summary
	t0=$(now)
	id=$(sbatch --parsable -o "$D/out/%j" --wrap "sleep 600")
	for _ in $(seq 600); do # wait for a state: running, and counted
		[ "$(state "$id")" = RUNNING ] && [ -f "$SP/$id.pid" ] && break
		sleep 0.2
	done
	checkd "job $id runs and is counted" '[ "$(state "$id")" = RUNNING ] && [ -f "$SP/$id.pid" ]'
	sleep 1
	scancel "$id"
	finished "$id"
	t1=$(now)
	truth "$id" "$(awk -v a="$t0" -v b="$t1" "BEGIN { print b - a }")" 1

	check "no counting process left (no .pid in the spool)" '! ls "$SP/"*.pid >/dev/null 2>&1'
	check "the node's uncore left as found" '$SIMSTATE "$sim" | grep -q "changed 0$"'
	check "the prolog and epilog said nothing wrong$(head -c 300 "$D/log/prolog.err" 2>/dev/null)" \
		'! grep -v "^uncore job: job [0-9]*: \(counting 2 sockets, process [0-9]*\|summary in .*\)$" "$D/log/prolog.err"'
fi
stop_slurm

# --- Slurm's own cgroups: proctrack/cgroup, task/cgroup (ConstrainCores) with task/affinity, cons_tres
# giving each job a core.  $1: v1 or v2, $2: PrologFlags (Alloc, Contain).  The node is named after this run, and so are the cgroups
# slurmd makes for it (cgroup/v1: CONTROLLER/slurm_NODE/uid_UID/job_ID, Debian's Slurm being built for
# several slurmd a host; cgroup/v2: system.slice/NODE_slurmstepd.scope/job_ID): removed at the end.
cgroup_jobs() {
	v=$1 fl=$2 node=iu$$$1$(echo "$2" | tr A-Z a-z) ran_cgroup=1
	D=$W/$v$fl
	# the simulated node: two sockets of half this machine's CPUs each (sim cores=N: CPUs 0..N-1 socket 0),
	# so that a job Slurm gives half the CPUs holds one socket whole
	half=$(($(nproc --all) / 2)) SP=$D/spool/jobs
	mkdir -p "$SP"
	chmod 755 "$D" "$D/spool" "$SP"
	printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket0.mem_write_bytes_per_s = 3.2e9\nsocket1.mem_read_bytes_per_s = 9.6e9\nsocket1.mem_write_bytes_per_s = 1.6e9\n' >"$D/profile"
	sim="sim:snbep,cores=$half,shared=$D/machine,profile=$D/profile"
	if [ "$v" = v1 ]; then
		src=slurm-cgroup1
		cgroots=$(for c in /sys/fs/cgroup/*/; do printf '%sslurm_%s ' "$c" "$node"; done)
		conf="CgroupPlugin=cgroup/v1"
	else
		src=slurm-cgroup2
		cgroots=/sys/fs/cgroup/system.slice/${node}_slurmstepd.scope
		conf="CgroupPlugin=cgroup/v2"
		# without systemd (a container) slurmd makes its scope itself (IgnoreSystemd, 22.05 and later)
		[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || conf="$conf
IgnoreSystemd=yes"
	fi
	# keys both 22.05 and 24.11 know (cgroup.conf(5) of each); no CgroupAutomount (gone in 23.11)
	printf '%s\nConstrainCores=yes\n' "$conf" >"$W/$v$fl.cgroup.conf"
	slurm_conf "$node" proctrack/cgroup task/cgroup,task/affinity select/cons_tres "SelectTypeParameters=CR_Core
Prolog=$D/prolog
Epilog=$D/prolog
PrologFlags=$fl"
	cat >"$D/prolog" <<EOF
#!/bin/sh
export UNCORE_BIN='$UNCORE' UNCORE_BACKEND='$sim' UNCORE_JOB_SPOOL='$SP' UNCORE_JOB_WAIT=120
exec '$JOBSCRIPT' 2>>'$D/log/prolog.err'
EOF
	chmod 755 "$D/prolog"
	mv "$W/$v$fl.cgroup.conf" "$D/cgroup.conf"
	up=
	start_slurm "$node" && up=1
	checkd "$v $fl: slurmctld and slurmd (Slurm $SLURM_VER, proctrack/cgroup, task/cgroup, cons_tres) on loopback: the node is idle" \
		'[ -n "$up" ]'
	if [ -z "$up" ]; then # no node: the jobs would only wait out their time
		stop_slurm
		cg_clean
		return
	fi
	# two jobs of one socket's CPUs, each printing its own affinity (the kernel's word), then waiting until the
	# spool says it is counted (at most 60 s) and printing when it saw that, and running until told to end
	ids=
	for _ in 1 2; do
		ids="$ids $(sbatch --parsable -n 1 -c $half -o "$D/out/%j" --wrap \
			"grep Cpus_allowed_list: /proc/self/status; for i in \$(seq 300); do
				grep -qs '^counting since' '$SP/'\$SLURM_JOB_ID.pid && break; sleep 0.2; done
			echo counted-seen \$(date +%s.%N)
			for i in \$(seq 1500); do [ -e '$D/end' ] && break; sleep 0.2; done")"
	done
	for _ in $(seq 300); do # wait for a state: both running, each having printed its CPUs
		n=0
		for id in $ids; do
			[ "$(state "$id")" = RUNNING ] && grep -qs counted-seen "$D/out/$id" && n=$((n + 1))
		done
		[ $n -eq 2 ] && break
		sleep 0.2
	done
	checkd "$v $fl: jobs$ids run at once, each on $half CPUs, each saw itself counted" '[ $n -eq 2 ]'
	out=$(UNCORE_BACKEND=auto "$UNCORE" jobs 2>&1)
	echo "$out"
	cpus=
	for id in $ids; do
		sc=$(scontrol show job -d "$id" 2>/dev/null | sed -n 's/.* CPU_IDs=\([^ ]*\) .*/\1/p')
		own=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$D/out/$id" 2>/dev/null)
		if [ "$v" = v1 ]; then
			cg=$(find /sys/fs/cgroup/cpuset/slurm_"$node" -maxdepth 2 -type d -name "job_$id" 2>/dev/null | head -1)
			cgc=$(cat "$cg/cpuset.cpus" 2>/dev/null)
		else
			cg=$cgroots/job_$id
			cgc=$(cat "$cg/cpuset.cpus.effective" 2>/dev/null)
		fi
		checkd "$v $fl: job $id: Slurm gave CPUs '$sc' (scontrol's CPU_IDs), the job runs on '$own', its cgroup $cg holds '$cgc'" \
			'[ -n "$sc" ] && [ "$sc" = "$own" ] && [ "$sc" = "$cgc" ] && case $sc in *[!0-9-]*) false ;; esac'
		check "$v $fl: uncore jobs lists job $id from $src with $half CPUs, $sc" \
			'echo "$out" | grep -qE "^job $id +$src +$half CPUs $sc +socket"'
		cpus="$cpus $sc"
	done
	check "$v $fl: the two jobs hold two sets of CPUs ($cpus)" '[ "$(echo $cpus | tr " " "\n" | sort -u | wc -l)" -eq 2 ]'
	js=$(UNCORE_BACKEND=auto "$UNCORE" jobs --json 2>&1)
	check "$v $fl: --json lists both with $half CPUs" \
		'[ "$(for id in $ids; do echo "$js" | grep -c "^{\"job\":\"$id\",\"source\":\"$src\",\"ncpus\":$half,"; done)" = "1
1" ]'
	# the jobs end (each by itself): they leave the queue, then Slurm removes their cgroups
	touch "$D/end"
	for _ in $(seq 600); do
		n=0
		for id in $ids; do
			[ -z "$(state "$id")" ] && n=$((n + 1))
		done
		[ $n -eq 2 ] && break
		sleep 0.2
	done
	checkd "$v $fl: both jobs ended" '[ $n -eq 2 ]'
	for _ in $(seq 300); do # wait for a state: each epilog has ended its count (at most 60 s)
		n=0
		for id in $ids; do
			[ -f "$SP/$id.json" ] && [ ! -e "$SP/$id.pid" ] && n=$((n + 1))
		done
		[ $n -eq 2 ] && break
		sleep 0.2
	done
	for id in $ids; do # each job's summary: its socket (its first CPU's), counted from its first step, the truth
		f=$SP/$id.json first=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' "$D/out/$id")
		sk=$((first / half)) seen=$(sed -n 's/^counted-seen //p' "$D/out/$id")
		from=$(field counted_from "$f") begun=$(field begun_at "$f") secs=$(field seconds "$f")
		checkd "$v $fl: job $id: a summary of socket $sk alone, waited for (its cgroup came after the prolog)" \
			'[ "$(grep -c "\"socket\": " "$f")" = 1 ] && grep -q "\"socket\": $sk," "$f" && grep -q "\"waited_for_job\": true" "$f"'
		check "$v $fl: job $id: counted from $from, after begin ($begun) and before the job's script saw it ($seen)" \
			'awk -v f="$from" -v b="$begun" -v s="$seen" "BEGIN { exit !(f > b && f <= s) }"'
		rr=$([ $sk = 0 ] && echo 6.4e9 || echo 9.6e9) wr_rate=$([ $sk = 0 ] && echo 3.2e9 || echo 1.6e9)
		rd=$(field read_bytes "$f") wr=$(field write_bytes "$f")
		check "$v $fl: job $id: socket $sk read $rd B, written $wr B: the profile's $rr and $wr_rate B/s over its $secs s within 0.1 %" \
			'awk -v r="$rd" -v w="$wr" -v s="$secs" -v R="$rr" -v X="$wr_rate" "BEGIN {
				a = r / s / R; b = w / s / X; exit !(s > 0 && a > 0.999 && a < 1.001 && b > 0.999 && b < 1.001) }"'
	done
	check "$v $fl: the prolog and epilog said nothing wrong$(head -c 300 "$D/log/prolog.err" 2>/dev/null)" \
		'! grep -v "^uncore job: job [0-9]*: \(not on this node yet .*\|summary in .*\)$" "$D/log/prolog.err"'
	for _ in $(seq 150); do # wait for a state: no job cgroup of the node left (at most 30 s)
		left=$(find $cgroots -type d -name "job_*" 2>/dev/null)
		[ -z "$left" ] && break
		sleep 0.2
	done
	checkd "$v $fl: the jobs' cgroups are gone${left:+ (left: $left)}" '[ -z "$left" ]'
	out=$(UNCORE_BACKEND=auto "$UNCORE" jobs 2>&1)
	check "$v $fl: uncore jobs no longer lists them" '[ -z "$(for id in $ids; do echo "$out" | grep "^job $id "; done)" ]'
	stop_slurm
	cg_clean
	left=$(ls -d $cgroots 2>/dev/null)
	check "$v $fl: no cgroup of the node left once the daemons are stopped${left:+ (left: $left)}" '[ -z "$left" ]'
}
if [ "$(nproc --all)" -lt 2 ]; then
	echo "SKIP: cgroup/v1 and cgroup/v2: two jobs of one CPU at once need 2 CPUs, this machine has $(nproc --all)"
else
	# cgroup/v1 wants the cpuset and freezer hierarchies mounted (a hybrid host has them beside cgroup2)
	if [ "$(stat -fc %T /sys/fs/cgroup/cpuset 2>/dev/null)" = cgroupfs ] &&
		[ "$(stat -fc %T /sys/fs/cgroup/freezer 2>/dev/null)" = cgroupfs ]; then
		cgroup_jobs v1 Alloc
		cgroup_jobs v1 Contain # the extern step's cgroup, made right after the prolog
	else
		echo "SKIP: cgroup/v1: no cgroup v1 cpuset and freezer hierarchies under /sys/fs/cgroup here"
	fi
	# cgroup/v2 wants the unified hierarchy alone at /sys/fs/cgroup: Slurm refuses a hybrid one
	if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		cgroup_jobs v2 Alloc
	else
		echo "SKIP: cgroup/v2: /sys/fs/cgroup is not a pure cgroup2 mount here (it is $(stat -fc %T /sys/fs/cgroup 2>/dev/null ||
			echo "not mounted")$([ -d /sys/fs/cgroup/unified ] && echo ", cgroup v1 hierarchies with cgroup2 at /sys/fs/cgroup/unified"))," \
			"and Slurm's cgroup/v2 refuses a hybrid one"
	fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
# a run that could try no batch system at all passed nothing
[ -n "$linuxproc$ran_cgroup" ] || { echo "SKIP: no Slurm configuration could run here (the reasons above)"; exit 77; }
