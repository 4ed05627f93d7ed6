# Sourced by the tests that run a real Slurm (test_slurm.sh, test_slurm_sacct.sh), after check.sh: one Slurm at
# a time, free ports, the daemons' logs after a failed check, and stopping the daemons and the node's cgroups.
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
