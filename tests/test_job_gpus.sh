#!/bin/sh
# A Slurm job's GPUs (issue 66 point 3, doc/jobs.md "A job's devices"): the package's prolog writes them into
# the job's spool entry -- from SLURM_JOB_GPUS, CUDA_VISIBLE_DEVICES, or this node's IDX of scontrol show job
# -d -- with "-" for its CPUs (its cgroup's), the epilog removes it, and uncore jobs on a simulated node lists
# the job's CPUs from its cgroup and its GPUs as the simulator's device set has them.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
R=$W/root
SP=$R/run/intel-uncore/jobs
mkdir -p "$W/bin" "$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_701"
echo 0-3 >"$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_701/cpuset.cpus.effective"
# scontrol as Slurm 22.05 prints a job of two nodes with a NIC GRES beside the GPUs
cat >"$W/bin/scontrol" <<'EOS'
#!/bin/sh
printf '   JobId=%s JobName=t\n     Nodes=n0 CPU_IDs=0-3 Mem=0 GRES=nic:1(IDX:0),gpu:h100:1(IDX:3)\n' "$4"
printf '     Nodes=n1 CPU_IDs=0-3 Mem=0 GRES=nic:1(IDX:1),gpu:h100:2(IDX:1-2)\n'
EOS
chmod +x "$W/bin/scontrol"
prolog() { env -i PATH="$W/bin:$PATH" UNCORE_SYSROOT="$R" UNCORE_BIN=true SLURM_SCRIPT_CONTEXT=prolog_slurmd "$@" \
	sh "$B/slurm/intel-uncore-job" 2>"$W/err"; }
prolog SLURM_JOB_ID=701 SLURM_JOB_GPUS=0,2 CUDA_VISIBLE_DEVICES=1
check "prolog: SLURM_JOB_GPUS into the job's entry, CPUs '-', mode 0644 ($(cat "$W/err"))" \
	'[ "$(cat "$SP/701")" = "$(printf -- "-\ngpus=0,2")" ] && [ "$(stat -c %a "$SP/701")" = 644 ] && [ "$(stat -c %a "$SP")" = 755 ]'
prolog SLURM_JOB_ID=702 CUDA_VISIBLE_DEVICES=3
check "prolog: CUDA_VISIBLE_DEVICES without SLURM_JOB_GPUS" '[ "$(sed -n 2p "$SP/702")" = gpus=3 ]'
prolog SLURM_JOB_ID=703 SLURMD_NODENAME=n1
check "prolog: this node's IDX of scontrol show job -d, the GPUs' and not the NIC's" '[ "$(sed -n 2p "$SP/703")" = gpus=1-2 ]'
prolog SLURM_JOB_ID=704 CUDA_VISIBLE_DEVICES=GPU-5d3f1c2a
prolog SLURM_JOB_ID=705
check "prolog: no GPU, or GPUs not given by index: no entry" '[ ! -e "$SP/704" ] && [ ! -e "$SP/705" ] && [ -z "$(ls -A "$SP" | grep "^\.")" ]'
ref=$(UNCORE_SYSROOT= $UNCORE --backend "sim:spr,devices=gpu@0.1.0+gpusw@0.2.0" devices | awk '$2 == "10de:2330" { print $1 }')
g0=$(echo "$ref" | sed -n 1p) g2=$(echo "$ref" | sed -n 3p)
out=$(UNCORE_SYSROOT=$R $UNCORE --backend "sim:spr,devices=gpu@0.1.0+gpusw@0.2.0" jobs 2>"$W/err")
echo "$out"
check "uncore jobs: job 701's CPUs from its cgroup, its GPUs 0 and 2 the simulated node's ($g0, $g2)" \
	'echo "$out" | grep -qE "^job 701 +slurm-cgroup2 +4 CPUs 0-3 .* devices $g0,$g2$"'
check "uncore jobs: the entries of no cgroup are said and left out" \
	'grep -q "job 702 (spool): .* gives its CPUs as .-. (its cgroup.s), and no cgroup of the job was found: left out" "$W/err"'
js=$(UNCORE_SYSROOT=$R $UNCORE --backend "sim:spr,devices=gpu@0.1.0+gpusw@0.2.0" jobs --json 2>/dev/null)
check "uncore jobs --json: the devices an array of BDFs" 'echo "$js" | grep -q "\"devices\":\[\"$g0\",\"$g2\"\]}$"'
env -i PATH="$PATH" UNCORE_SYSROOT="$R" UNCORE_BIN=true SLURM_SCRIPT_CONTEXT=epilog_slurmd SLURM_JOB_ID=701 sh "$B/slurm/intel-uncore-job"
check "epilog: the job's entry removed" '[ ! -e "$SP/701" ] && [ -e "$SP/702" ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
