# Sourced by the tests that run a real Slurm (test_slurm.sh, test_slurm_sacct.sh, test_slurm_gpus.sh), after
# check.sh: one Slurm at a time, free ports, the release, slurm.conf and a cgroup.conf wanting no cgroups, starting
# the daemons, their logs after a failed check, and stopping the daemons and the node's cgroups.
# The test sets D (its directory, logs in $D/log), cgroots (its node's cgroup roots), ctld_pid (slurmctld's, asked
# for the jobs left) and daemons (their pids, the first stopped first).

# one real Slurm at a time on a machine: every Slurm on it shares the cgroup tree and the spool /run/intel-uncore/jobs,
# so the other test's jobs would be this node's too (make check -j2 runs test_slurm.sh and test_slurm_sacct.sh at once)
mkdir -p /run/lock && exec 9>/run/lock/intel-uncore-slurm-tests.lock && flock -w 900 9 ||
	{ echo "no lock on /run/lock in 900 s: the Slurm tests would meet"; exit 1; }
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# the daemons' logs, after a check that failed
diag() {
	for f in "$D"/log/*; do [ -s "$f" ] && { echo "--- $f (its last 15 lines)"; tail -n 15 "$f"; }; done
}
# check, and the daemons' logs when it failed (by the count: no() need not return non-zero)
checkd() { # returns 1 when the check failed, as check does
	f0=$fail
	check "$@"
	[ "$fail" -eq "$f0" ] && return 0
	diag
	return 1
}
# the jobs a failed check left running are cancelled first (their slurmstepd would outlive slurmd, 10 s at most),
# then each of $daemons is stopped (KILL after 15 s)
stop_daemons() {
	q=$([ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null && squeue -h -o %i 2>/dev/null)
	if [ -n "$q" ]; then
		scancel $q 2>/dev/null
		for _ in $(seq 50); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.2; done
	fi
	for p in $daemons; do kill "$p" 2>/dev/null; done
	for p in $daemons; do
		for _ in $(seq 150); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	daemons=
}
# the cgroups of this test's node (cgroots, each named after the node): whatever still runs in them is
# ended, then each is removed, deepest first
cg_clean() {
	for r in $cgroots; do
		for _ in 1 2 3 4 5; do
			[ -d "$r" ] || break
			find "$r" -name cgroup.procs -exec cat {} + 2>/dev/null | while read -r p; do kill -KILL "$p" 2>/dev/null; done
			find "$r" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$r" ] && sleep 0.5
		done
	done
}
# the release of Slurm here, "22.05" of "slurm-wlm 22.05.8" (cgroup.conf's keys differ between releases), and
# whether it is $1 or later
SLURM_VER=$(slurmd -V 2>/dev/null | sed -n 's/^[^0-9]*\([0-9]*\.[0-9]*\).*/\1/p')
slurm_at_least() {
	awk -v v="$SLURM_VER" -v w="$1" 'BEGIN { split(v, a, "."); split(w, b, ".");
		exit !(a[1] + 0 > b[1] + 0 || (a[1] + 0 == b[1] + 0 && a[2] + 0 >= b[2] + 0)) }'
}
# slurm.conf in $D for node $1: ProctrackType $2, TaskPlugin $3, SelectType $4, more lines $5, the node's Gres=
# $6 and more of its partition $7 (none if empty); ClusterName $cluster (iu if unset), AccountingStorageType
# $accounting (accounting_storage/none if unset)
slurm_conf() {
	mkdir -p "$D/state" "$D/slurmd" "$D/log" "$D/out"
	cat >"$D/slurm.conf" <<EOF
ClusterName=${cluster:-iu}
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(port)
SlurmdPort=$(port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
ProctrackType=$2
TaskPlugin=$3
SelectType=$4
SchedulerType=sched/builtin
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=${accounting:-accounting_storage/none}
ReturnToService=2
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/slurmd
SlurmctldPidFile=$D/ctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
$5
NodeName=$1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$(nproc --all) ${6:+Gres=$6 }State=UNKNOWN
PartitionName=iu Nodes=$1 Default=YES MaxTime=INFINITE State=UP${7:+ $7}
EOF
}
# cgroup.conf in $D for a node that wants no cgroups (proctrack/linuxproc, task/none).  slurmd looks for the
# cgroup tree all the same and fails where /sys/fs/cgroup is not mounted ("No filesystem mounted on
# /sys/fs/cgroup"): Slurm 24.05 and later are told to keep off it (CgroupPlugin=disabled, their cgroup.conf(5));
# before 24.05 there is no such value (22.05 to 23.11 know cgroup/v1, cgroup/v2 and autodetect), so the cgroup/v1
# plugin is pointed at an empty directory of the test's (CgroupMountpoint, "for development and testing"), which
# linuxproc and task/none never write to
cgroup_conf_none() {
	if slurm_at_least 24.05; then
		echo "CgroupPlugin=disabled" >"$D/cgroup.conf"
	else
		mkdir -p "$D/cgroup"
		printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=%s\n' "$D/cgroup" >"$D/cgroup.conf"
	fi
}
# slurmctld and slurmd of node $1 with $D's slurm.conf (its cgroup.conf beside it), then wait for a state:
# the node idle in the controller's view (at most 60 s; at once when slurmd ends)
start_slurm() {
	export SLURM_CONF="$D/slurm.conf"
	slurmctld -D -i -f "$SLURM_CONF" >"$D/log/slurmctld.out" 2>&1 &
	ctld_pid=$!
	slurmd -D -N "$1" -f "$SLURM_CONF" >"$D/log/slurmd.out" 2>&1 &
	slurmd_pid=$!
	for _ in $(seq 300); do
		[ "$(sinfo -h -n "$1" -o %t 2>/dev/null)" = idle ] && return 0
		kill -0 "$slurmd_pid" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
