#!/bin/sh
# A Slurm job's GPUs (issue 66 point 3, doc/jobs.md "A job's devices"): the package's prolog writes them into
# the job's spool entry -- from SLURM_JOB_GPUS, else CUDA_VISIBLE_DEVICES, never from scontrol show job's text
# (issue 89 point 2) -- with "-" for its CPUs (its cgroup's), the epilog removes it, and uncore jobs on a simulated node lists
# the job's CPUs from its cgroup and its GPUs as the simulator's device set has them.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
R=$W/root
SP=$R/run/intel-uncore/jobs
mkdir -p "$W/bin" "$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_701"
echo 0-3 >"$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_701/cpuset.cpus.effective"
# scontrol as Slurm 22.05 prints a job of two nodes with a NIC GRES beside the GPUs: text a user can forge (a
# job's name, comment and working directory are printed with their newlines), so the prolog must not read it
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
check "prolog: no GPUs in its environment, scontrol show job -d's IDX not read: no entry ($(cat "$W/err"))" '[ ! -e "$SP/703" ]'
prolog SLURM_JOB_ID=704 CUDA_VISIBLE_DEVICES=GPU-5d3f1c2a
prolog SLURM_JOB_ID=705
check "prolog: no GPU, or GPUs not given by index: no entry" '[ ! -e "$SP/704" ] && [ ! -e "$SP/705" ] && [ -z "$(ls -A "$SP" | grep "^\.")" ]'
ref=$(UNCORE_SYSROOT= $UNCORE --backend "sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" devices | awk '$2 == "10de:2330" { print $1 }')
g0=$(echo "$ref" | sed -n 1p) g2=$(echo "$ref" | sed -n 3p)
out=$(UNCORE_SYSROOT=$R $UNCORE --backend "sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" jobs 2>"$W/err")
echo "$out"
check "uncore jobs: job 701's CPUs from its cgroup, its GPUs 0 and 2 the simulated node's ($g0, $g2)" \
	'echo "$out" | grep -qE "^job 701 +slurm-cgroup2 +4 CPUs 0-3 .* devices $g0,$g2$"'
check "uncore jobs: the entries of no cgroup are said and left out" \
	'grep -q "job 702 (spool): .* gives its CPUs as .-. (its cgroup.s), and no cgroup of the job was found: left out" "$W/err"'
js=$(UNCORE_SYSROOT=$R $UNCORE --backend "sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" jobs --json 2>/dev/null)
check "uncore jobs --json: the devices an array of BDFs" 'echo "$js" | grep -q "\"devices\":\[\"$g0\",\"$g2\"\]}$"'
env -i PATH="$PATH" UNCORE_SYSROOT="$R" UNCORE_BIN=true SLURM_SCRIPT_CONTEXT=epilog_slurmd SLURM_JOB_ID=701 sh "$B/slurm/intel-uncore-job"
check "epilog: the job's entry removed" '[ ! -e "$SP/701" ] && [ -e "$SP/702" ]'
# the simulated node reads its sysroot's gres.conf as slurmd does (issue 78 point 3, doc/jobs.md "A job's devices"):
# keys in any case, this node's NodeName= line (another node's and the MPS line skipped), File= in the order
# written; job 9 given Slurm's index 0 holds /dev/nvidia2, the simulated GPU of minor 2 ($g2), not nvidia0
mkdir -p "$R/etc/slurm" "$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9"
echo 4-7 >"$R/sys/fs/cgroup/system.slice/slurmstepd.scope/job_9/cpuset.cpus.effective"
printf -- '-\ngpus=0\n' >"$SP/9" && chmod 644 "$SP/9"
printf 'NodeName=gpu[01-02] Name=gpu File=/dev/nvidia[0-2]\nnodename=n[0-3] name=gpu type=h100 file=/dev/nvidia[2,1] cores=0-3\n%s\n' \
	'NodeName=n0 Name=mps Count=100 File=/dev/nvidia0' >"$R/etc/slurm/gres.conf"
out=$(SLURMD_NODENAME=n0 UNCORE_SYSROOT=$R $UNCORE --backend "sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" jobs 2>"$W/err")
echo "$out"
check "uncore jobs on the simulator: job 9's index 0 is gres.conf's /dev/nvidia2, $g2 ($(cat "$W/err"))" \
	'echo "$out" | grep -qE "^job 9 .* devices $g2$"'
# a gres.conf that is a FIFO: refused by name at once (a blocking open would hang), the GPU left without device
rm "$R/etc/slurm/gres.conf" && mkfifo "$R/etc/slurm/gres.conf"
out=$(SLURMD_NODENAME=n0 UNCORE_SYSROOT=$R timeout 60 $UNCORE --backend "sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" jobs 2>"$W/err"); rc=$?
check "a FIFO gres.conf: refused by name, job 9 without devices, not index 0's /dev/nvidia0 (rc $rc: $(cat "$W/err"))" \
	'[ $rc -eq 0 ] && grep -q "gres.conf: $R/etc/slurm/gres.conf: .*FIFO" "$W/err" && echo "$out" | grep -E "^job 9 " | grep -qv devices'
rm -rf "$R/etc/slurm" "$SP/9"
# the exporter's --per-job: a job's GPUs' DMA and the unattributed groups' as counters of their own; job 1001
# holds the GPU on port 0 (card0, writing 4e9 B/s), job 1002 one GPU of the switch on port 1 (card1 and card2,
# 1e9 each: none of it theirs); no overhead, so at any scrape the two counters stand 4 : 2
GPUS='device.gpu.overhead_ratio = 0
device.card0.in_bytes_per_s = 4e9
device.card0.out_bytes_per_s = 3e9
device.card1.in_bytes_per_s = 1e9
device.card2.in_bytes_per_s = 1e9'
printf 'job.1001.cpus = 0-3\njob.1001.gpus = 0\njob.1002.cpus = 4-7\njob.1002.gpus = 1\n%s\n' "$GPUS" >"$W/gprofile"
mkdir -p "$W/empty"
UNCORE_SYSROOT=$W/empty "$B/uncore-exporter" --listen 127.0.0.1:0 --per-job --interval 0.5 --groups memory \
	--backend "sim:spr,profile=$W/gprofile,devices=gpu@0.6.0+gpusw@0.7.1" 2>"$W/exp.log" &
exp=$!
port=
for _ in $(seq 1200); do
	port=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/exp.log")
	[ -n "$port" ] && break
	kill -0 $exp 2>/dev/null || break
	sleep 0.1
done
got=
for _ in $(seq 600); do # until a read has counted some of it
	got=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"http://127.0.0.1:$port/metrics" 2>/dev/null)
	echo "$got" | grep -q '^uncore_unattributed_device_write_bytes_total [1-9]' && break
	sleep 0.1
done
kill -TERM $exp
wait $exp
ratio=$(echo "$got" | awk '/^uncore_job_device_write_bytes_total\{job_id="1001"\}/ { j = $2 } /^uncore_unattributed_device_write_bytes_total / { u = $2 }
	END { if (u > 0) printf "%.6f", j / u }')
check "exporter --per-job: job 1001's device bytes and the unattributed switch's stand 4 : 2 (${ratio:-none})" \
	'awk "BEGIN { exit !($ratio > 0.99 * 2 && $ratio < 1.01 * 2) }"'
check "exporter --per-job: job 1002 holds half the switch: 0 device bytes, the families typed and described" \
	'echo "$got" | grep -q "^uncore_job_device_read_bytes_total{job_id=\"1002\"} 0" &&
	 echo "$got" | grep -q "^# TYPE uncore_job_device_write_bytes_total counter" &&
	 echo "$got" | grep -q "^# HELP uncore_unattributed_device_read_bytes_total Bytes read from the node by device groups"'
check "exporter: why job 1002 has none of the switch is in its log" 'grep -q "devices: job 1002 holds card1 .* (a group is never split)" "$W/exp.log"'
# uncore stat --per-job -M: the device metrics by job are its groups' DMA: job 1001 card0's 4e9 B/s written and
# 3e9 B/s read (6e9 B in the manual clock's 2 s), job 1002 none (half a switch)
out=$(UNCORE_SYSROOT=$W/empty $UNCORE --backend "sim:spr,profile=$W/gprofile,devices=gpu@0.6.0+gpusw@0.7.1,clock=manual" \
	stat --per-job -M iio_bw_write,iio_read_bytes --duration 2 --json 2>"$W/err"); rc=$?
v=$(echo "$out" | python3 -c '
import json, sys
rows = {(r["job"], r["metric"]): (r["value"], r["unit"]) for r in map(json.loads, sys.stdin)}
print(rows.get(("1001", "iio_bw_write")), rows.get(("1001", "iio_read_bytes")), rows.get(("1002", "iio_bw_write")))' 2>&1)
check "stat --per-job -M iio_bw_write,iio_read_bytes: job 1001 its GPU's 4e9 B/s and 6e9 B within 1 %, job 1002 0 ($rc: $v)" \
	'echo "$v" | tr -d "(),'"'"'" | awk "{ exit !(\$1 > 0.99 * 4e9 && \$1 < 1.01 * 4e9 && \$2 == \"B/s\" && \$3 > 0.99 * 6e9 &&
		\$3 < 1.01 * 6e9 && \$4 == \"B\" && \$5 == 0) }"'
# uncore job (an exclusive job's summary): job 1001 holds socket 0 whole and the GPU on port 0, and its
# summary gives that group's bytes over its window: card0's 4e9 B/s written and 3e9 read
printf 'job.1001.cpus = 0-55\njob.1001.gpus = 0\njob.1002.cpus = 56-59\njob.1002.gpus = 1\n%s\n' "$GPUS" >"$W/jprofile"
jsim="sim:spr,shared=$W/machine,profile=$W/jprofile,devices=gpu@0.6.0+gpusw@0.7.1"
export UNCORE_JOB_SPOOL="$W/spool"
out=$(UNCORE_SYSROOT=$W/empty $UNCORE --backend "$jsim" job begin 1001 --interval 0.2 2>&1); rc=$?
sleep 1
out2=$(UNCORE_SYSROOT=$W/empty $UNCORE job end 1001 2>&1)
sum=$(cat "$W/spool/1001.json" 2>/dev/null)
echo "$sum"
rates=$(echo "$sum" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = d["devices"]
print(len(g), g[0]["socket"], g[0]["port"], ",".join(g[0]["devices"]), g[0]["write_bytes"] / d["seconds"], g[0]["read_bytes"] / d["seconds"])' 2>&1)
check "uncore job begin: nothing said of another job's devices ($out)" '! echo "$out" | grep -q "job 1002"'
check "uncore job: the summary holds its GPU's group, 4e9 B/s written and 3e9 read within 1 % ($rc $out $out2: $rates)" \
	'echo "$rates" | awk "{ exit !(\$1 == 1 && \$2 == 0 && \$3 == 0 && \$4 == \"$g0\" &&
		\$5 > 0.99 * 4e9 && \$5 < 1.01 * 4e9 && \$6 > 0.99 * 3e9 && \$6 < 1.01 * 3e9) }"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
