#!/bin/sh
# uncore jobs (issue 46 point 1): the node's batch jobs and their CPUs from a fake kernel tree below
# UNCORE_SYSROOT -- Slurm's cgroup v2 and v1 hierarchies and the spool a prolog writes -- and every bad
# entry left out with a warning that names it: an odd job id, a file gone mid-read, a FIFO, a CPU list
# that is not one, a spool file another user planted or anyone may change, a link.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
V1=$R/sys/fs/cgroup/cpuset/slurm/uid_1000
SP=$R/run/intel-uncore/jobs
mkdir -p "$V2/job_1001" "$V2/job_1002" "$V1/job_77" "$SP"
chmod 755 "$SP"
# sim:snbep: 2 sockets of 8 CPUs, 0-7 on socket 0 and 8-15 on socket 1 (the simulator's layout, as
# uncore info's socket CPUs give it)
printf '0-7\n' >"$V2/job_1001/cpuset.cpus.effective"
printf '8-9,12\n' >"$V2/job_1002/cpuset.cpus.effective"
printf '10-11\n' >"$V1/job_77/cpuset.cpus"
printf '13-15\n' >"$SP/99.pbs01"
chmod 644 "$SP/99.pbs01"
jobs() { UNCORE_SYSROOT=$R $UNCORE --backend sim:snbep jobs "$@"; }
out=$(jobs 2>&1); rc=$?
echo "$out"
check "four jobs from three sources ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^# 4 jobs on this node"'
check "job 1001 (cgroup v2) holds socket 0 whole" \
	'echo "$out" | grep -qE "^job 1001 +slurm-cgroup2 +8 CPUs 0-7 +socket0 8/8 \(whole\) socket1 0/8$"'
check "job 1002 (cgroup v2): 3 CPUs of socket 1" 'echo "$out" | grep -qE "^job 1002 +slurm-cgroup2 +3 CPUs 8-9,12 +socket0 0/8 socket1 3/8$"'
check "job 77 (cgroup v1, cpuset.cpus)" 'echo "$out" | grep -qE "^job 77 +slurm-cgroup1 +2 CPUs 10-11 +socket0 0/8 socket1 2/8$"'
check "job 99.pbs01 (the spool)" 'echo "$out" | grep -qE "^job 99.pbs01 +spool +3 CPUs 13-15 +socket0 0/8 socket1 3/8$"'
js=$(jobs --json 2>&1)
check "--json: one object a job, the sockets whole or not" \
	'[ "$(echo "$js" | grep -c "^{\"job\":")" -eq 4 ] && echo "$js" | grep -q "{\"socket\":0,\"cpus\":8,\"of\":8,\"whole\":true}"'
# cgroup v1 with effective_cpus beside cpuset.cpus: the effective set counts; a job two sources name, once
printf '10\n' >"$V1/job_77/cpuset.effective_cpus"
printf '0-1\n' >"$SP/1001"
chmod 644 "$SP/1001"
out=$(jobs 2>&1)
check "v1: cpuset.effective_cpus before cpuset.cpus; a job in two sources listed once, from the first" \
	'echo "$out" | grep -qE "^job 77 +slurm-cgroup1 +1 CPUs 10 " && [ "$(echo "$out" | grep -c "^job 1001 ")" -eq 1 ] &&
	 echo "$out" | grep -qE "^job 1001 +slurm-cgroup2 "'
rm -f "$SP/1001"
# --- bad entries: each left out, named, the others kept
mkdir -p "$V2/job_1;rm -rf x" "$V2/job_2003" "$V2/job_2004" "$V2/job_2005" "$V2/job_2006"
printf '0\n' >"$V2/job_1;rm -rf x/cpuset.cpus.effective"
# job_2003 has no cpuset file: listed, then gone, as when the job ends while the tree is read
mkfifo "$V2/job_2004/cpuset.cpus.effective"
printf '0-3,x\n' >"$V2/job_2005/cpuset.cpus.effective"
printf '9-2\n' >"$V2/job_2006/cpuset.cpus.effective"
printf '4\n' >"$SP/3001"
chmod 666 "$SP/3001"
ln -s /etc/hostname "$SP/3002"
out=$(timeout 20 env UNCORE_SYSROOT="$R" $UNCORE --backend sim:snbep jobs 2>&1); rc=$?
echo "$out"
check "bad entries: the run ends, the good jobs kept ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^# 4 jobs on this node"'
check "an odd job id is left out, named without its odd characters" \
	'echo "$out" | grep -q "a job named .1;rm?-rf?x. is left out: a job id is 1..64 of A-Z a-z 0-9 . _ - \[ \]"'
check "a job's file gone mid-read: named, left out" \
	'echo "$out" | grep -q "job 2003 (slurm-cgroup2): .*job_2003/cpuset.cpus.effective vanished while it was read (the job ended): left out"'
check "a FIFO as a cpuset file: refused at once, named" \
	'echo "$out" | grep -q "job 2004 (slurm-cgroup2): cannot read .*: it is a FIFO, not a regular file: left out"'
check "a CPU list with a stray character, and one backwards: refused, named" \
	'echo "$out" | grep -q "job 2005 (slurm-cgroup2): .*not a CPU list at .x." && echo "$out" | grep -q "job 2006 (slurm-cgroup2): .*not a CPU list at .9-2."'
check "a spool file anyone may write: left out, its mode named" \
	'echo "$out" | grep -q "job 3001 (spool): .*3001 belongs to uid [0-9]* with mode 0666: a spool file must be"'
check "a link in the spool: left out" 'echo "$out" | grep -q "job spool: 3002 is not a regular file: left out"'
check "no bad entry listed" '! echo "$out" | grep -qE "^job (2003|2004|2005|2006|3001|3002) "'
if [ "$(id -u)" -eq 0 ]; then # a file another user planted (root reads the spool): only root can make one
	printf '5\n' >"$SP/3003"
	chmod 644 "$SP/3003"
	chown 65534 "$SP/3003"
	out=$(jobs 2>&1)
	check "as root: a spool file of another user is left out, its owner named" \
		'echo "$out" | grep -q "job 3003 (spool): .*3003 belongs to uid 65534 with mode 0644" && ! echo "$out" | grep -q "^job 3003 "'
else
	echo "not run: a spool file of another user (making one needs root)"
fi
chmod 777 "$SP"
out=$(jobs 2>&1)
check "a spool directory anyone may write (no sticky bit): its jobs left out, said once" \
	'echo "$out" | grep -q "the job spool .* is not a directory of root (or this user) writable by its owner alone" &&
	 ! echo "$out" | grep -q "^job 99.pbs01 "'
chmod 755 "$SP"
# a CPU list too long to show: cut with "...", the count exact
seq -s, 0 2 798 >"$SP/4001"
chmod 644 "$SP/4001"
js=$(jobs --json 2>/dev/null | grep '"job":"4001"')
cpus=$(echo "$js" | sed 's/.*"cpus":"\([^"]*\)".*/\1/')
check "400 separate CPUs: counted, the list cut at 255 characters with ... (${#cpus})" \
	'echo "$js" | grep -q "\"ncpus\":400," && [ ${#cpus} -le 255 ] && case $cpus in *...) true ;; *) false ;; esac'
out=$(jobs --nosuch 2>&1); rc=$?
check "jobs: an unknown argument refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "unexpected argument .--nosuch."'
out=$(UNCORE_SYSROOT=$W/empty $UNCORE --backend sim:snbep jobs 2>&1); rc=$?
check "no batch system and no spool: no job, no error ($rc)" '[ $rc -eq 0 ] && [ "$out" = "# 0 jobs on this node (Slurm'"'"'s cgroup tree, the spool /run/intel-uncore/jobs)" ]'
# --- a node without a usable uncore (issue 63 point 3): an AMD CPU, as this VM's, a login node or a
# container: listing jobs counts nothing, so it needs no backend that counts.  A fake kernel tree of 2
# sockets of 4 CPUs (0-3 on socket 0, 4-7 on socket 1: the topology files written here are the truth)
N=$W/amd
mkdir -p "$N/proc" "$N/sys/fs/cgroup/cpuset/slurm_n1/uid_0/job_5" "$N/sys/fs/cgroup/system.slice/slurmstepd.scope/job_6"
printf 'vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nflags\t\t: fpu hypervisor\n' >"$N/proc/cpuinfo"
for c in 0 1 2 3 4 5 6 7; do
	mkdir -p "$N/sys/devices/system/cpu/cpu$c/topology"
	echo $((c / 4)) >"$N/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
	echo $((c % 4)) >"$N/sys/devices/system/cpu/cpu$c/topology/core_id"
done
printf '0-3\n' >"$N/sys/fs/cgroup/cpuset/slurm_n1/uid_0/job_5/cpuset.cpus"
printf '5,7\n' >"$N/sys/fs/cgroup/system.slice/slurmstepd.scope/job_6/cpuset.cpus.effective"
for b in auto perf direct; do
	out=$(UNCORE_SYSROOT=$N UNCORE_BACKEND=$b $UNCORE jobs 2>&1); rc=$?
	echo "$out"
	check "no uncore, UNCORE_BACKEND=$b: both jobs listed on the tree's 2 sockets of 4 CPUs ($rc)" \
		'[ $rc -eq 0 ] && echo "$out" | grep -q "^# 2 jobs on this node" &&
		 echo "$out" | grep -qE "^job 5 +slurm-cgroup1 +4 CPUs 0-3 +socket0 4/4 \(whole\) socket1 0/4$" &&
		 echo "$out" | grep -qE "^job 6 +slurm-cgroup2 +2 CPUs 5,7 +socket0 0/4 socket1 2/4$"'
done
js=$(UNCORE_SYSROOT=$N $UNCORE --backend auto jobs --json 2>&1)
check "no uncore, --json: job 5 holds socket 0 whole" \
	'[ "$(echo "$js" | grep -c "^{\"job\":")" -eq 2 ] &&
	 echo "$js" | grep -q "^{\"job\":\"5\",\"source\":\"slurm-cgroup1\",\"ncpus\":4,\"cpus\":\"0-3\",\"sockets\":\[{\"socket\":0,\"cpus\":4,\"of\":4,\"whole\":true}"'
out=$(UNCORE_SYSROOT=$N $UNCORE --backend auto stat -e UNC_M_CAS_COUNT.RD --duration 0.1 2>&1); rc=$?
check "no uncore: counting still says why it cannot ($rc)" '[ $rc -ne 0 ] && echo "$out" | grep -q "AuthenticAMD"'
# this machine as it is (whatever its CPU): the kernel's own tree, no job
out=$(UNCORE_BACKEND=auto UNCORE_SYSROOT=$W/host-empty-jobs $UNCORE jobs 2>&1); rc=$?
check "UNCORE_BACKEND=auto, a tree without CPUs: the error names the missing topology ($rc)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "reading the CPU identity\|no CPU topology"'
out=$(UNCORE_BACKEND=auto $UNCORE jobs 2>&1); rc=$?
check "UNCORE_BACKEND=auto on this machine: listed, no error ($rc: $out)" '[ $rc -eq 0 ] && echo "$out" | grep -q "^# [0-9]* jobs\? on this node"'
# uncore job end and report open no backend either: their answers are the spool's
SPL=$W/jobspool
mkdir -p "$SPL" && chmod 755 "$SPL"
printf '{\n  "job": "5"\n}\n' >"$SPL/5.json"
out=$(UNCORE_JOB_SPOOL=$SPL UNCORE_SYSROOT=$N UNCORE_BACKEND=auto $UNCORE job report 5 2>&1); rc=$?
check "no uncore: job report prints the summary ($rc)" '[ $rc -eq 0 ] && [ "$out" = "$(cat "$SPL/5.json")" ]'
out=$(UNCORE_JOB_SPOOL=$SPL UNCORE_SYSROOT=$N UNCORE_BACKEND=auto $UNCORE job end 5 2>&1); rc=$?
check "no uncore: job end of a job not counted says so ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -q "job 5: is not being counted"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
