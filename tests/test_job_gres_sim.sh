#!/bin/sh
# The simulated node as a Slurm node (issue 77 point 2): its jobs' cgroups, its spool and its gres.conf are
# files of the simulated machine (profile keys slurm.*), read through the one file view by the same readers
# and the same gres.conf parser as a real node's.  The devices each job is credited are written from
# gres.conf(5)'s rules: File= a hostlist of device files, one index each in the order written
# (/dev/nvidia[2,0,1]: index 0 is nvidia2, 1 nvidia0, 2 nvidia1); without File= lines index i is
# /dev/nvidia<i>; the minor of /dev/nvidiaN is N (Linux devices.txt "195 char Nvidia graphics devices").
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
DEVS="devices=gpu@0.6.0+gpusw@0.7.0" # three GPUs: card0 on a port of its own, card1 and card2 behind a switch
mkdir -p "$W/empty"
export UNCORE_SYSROOT="$W/empty"
unset SLURMD_NODENAME
# the simulated GPUs by minor: the driver numbers them as DRM does, card<N> is /dev/nvidia<N>
ref=$($UNCORE --backend "sim:spr,$DEVS" devices | awk '$2 == "10de:2330" { print $1, $7 }')
g0=$(echo "$ref" | awk '$2 == "card0" { print $1 }') g1=$(echo "$ref" | awk '$2 == "card1" { print $1 }')
g2=$(echo "$ref" | awk '$2 == "card2" { print $1 }')
check "the simulated node has GPUs card0-2 ($g0 $g1 $g2)" '[ -n "$g0" ] && [ -n "$g1" ] && [ -n "$g2" ]'
jobs_of() { # PROFILE-LINES: uncore jobs on the node of that profile (stderr in $W/err)
	printf '%s\njob.41.cpus = 0-3\njob.41.gpus = 0\njob.42.cpus = 4-7\njob.42.gpus = 1-2\n' "$1" >"$W/profile"
	$UNCORE --backend "sim:spr,profile=$W/profile,$DEVS" jobs 2>"$W/err"
}

# cgroup v2 and gres.conf File=/dev/nvidia[2,0,1]: job 41 (index 0) holds nvidia2, job 42 (1-2) nvidia0 and 1
out=$(jobs_of 'slurm.cgroup = 2
slurm.gpu_minors = 2,0,1')
echo "$out"
check "cgroup v2: each job's CPUs from its cgroup (slurm-cgroup2), no warning ($(cat "$W/err"))" \
	'echo "$out" | grep -qE "^job 41 +slurm-cgroup2 +4 CPUs 0-3 " && echo "$out" | grep -qE "^job 42 +slurm-cgroup2 +4 CPUs 4-7 " &&
	 [ ! -s "$W/err" ]'
check "gres.conf File=/dev/nvidia[2,0,1]: job 41's index 0 is nvidia2 ($g2)" 'echo "$out" | grep -qE "^job 41 .* devices $g2$"'
check "gres.conf File=/dev/nvidia[2,0,1]: job 42's indexes 1-2 are nvidia0 and nvidia1 ($g0,$g1)" \
	'echo "$out" | grep -qE "^job 42 .* devices $g0,$g1$"'

# cgroup v1: the CPUs from cpuset/, the GPUs also from devices.list (c 195:N, and /dev/nvidiactl passed over)
out=$(jobs_of 'slurm.cgroup = 1
slurm.gpu_minors = 1,2,0')
echo "$out"
check "cgroup v1: slurm-cgroup1, File=/dev/nvidia[1,2,0]: job 41 nvidia1 ($g1), job 42 nvidia2 and nvidia0 ($(cat "$W/err"))" \
	'echo "$out" | grep -qE "^job 41 +slurm-cgroup1 +4 CPUs 0-3 .* devices $g1$" &&
	 echo "$out" | grep -qE "^job 42 +slurm-cgroup1 +4 CPUs 4-7 .* devices $g0,$g2$" && [ ! -s "$W/err" ]'

# AutoDetect=nvml and no File=: Slurm numbers the GPUs from NVML, which is not asked: index i is /dev/nvidia<i>,
# said for the node gres.conf's lines are for (the simulated node's own name, sim-spr)
out=$(jobs_of 'slurm.autodetect = nvml')
check "AutoDetect=nvml without File=: said for node sim-spr, job 41 nvidia0 ($g0), job 42 nvidia1-2 ($(cat "$W/err"))" \
	'grep -q "gres.conf: AutoDetect=nvml for node sim-spr: .* taken as /dev/nvidia<index>" "$W/err" &&
	 echo "$out" | grep -qE "^job 41 .* devices $g0$" && echo "$out" | grep -qE "^job 42 .* devices $g1,$g2$"'
out=$(jobs_of 'slurm.autodetect = nvml
slurm.gpu_minors = 2,0,1')
check "AutoDetect=nvml with File=: the File= order stands (job 41 nvidia2, $g2)" \
	'grep -q "taken as gres.conf.s File= order" "$W/err" && echo "$out" | grep -qE "^job 41 .* devices $g2$"'

# the spool alone (no cgroup): the entries carry the CPUs, as before; the indexes still gres.conf's
out=$(jobs_of 'slurm.gpu_minors = 2,0,1')
check "no cgroup: the spool's jobs, job 41 nvidia2 ($g2)" 'echo "$out" | grep -qE "^job 41 +spool +4 CPUs 0-3 .* devices $g2$"'

# a gres.conf below UNCORE_SYSROOT stands in for the simulator's (a site's file): this node's line, File= nvidia1
mkdir -p "$W/root/etc/slurm"
printf 'NodeName=sim-spr Name=gpu File=/dev/nvidia1\nNodeName=other Name=gpu File=/dev/nvidia0\n' >"$W/root/etc/slurm/gres.conf"
out=$(UNCORE_SYSROOT=$W/root; jobs_of 'slurm.cgroup = 2
slurm.gpu_minors = 2,0,1')
check "the sysroot's gres.conf over the simulator's: job 41's index 0 is nvidia1 ($g1), 42's indexes past its one file said" \
	'echo "$out" | grep -qE "^job 41 .* devices $g1$" && grep -q "job 42: GPU index 1: gres.conf names 1 GPU device files" "$W/err"'
# a mistaken key is named
printf 'slurm.gpu_minors = 2,x\n' >"$W/bad"
out=$($UNCORE --backend "sim:spr,profile=$W/bad" jobs 2>&1); rc=$?
check "slurm.gpu_minors = 2,x refused by file and line ($rc: $out)" '[ $rc -ne 0 ] && echo "$out" | grep -q "bad:1: slurm.gpu_minors is"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
