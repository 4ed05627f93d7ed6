#!/bin/sh
# Jobs that share a CPU (issue 78 point 4, doc/jobs.md "Shared CPUs"): with OverSubscribe=FORCE or --overlap,
# job 3 holds CPU 0 beside job 1.  The rule: a CPU's reads are split equally among the jobs holding it, and each
# such job says how many of its CPUs were shared.  The truth, from the simulator's profile (its jobs' bytes
# spread evenly over their CPUs, common/sim/sim_jobs.c cpu_rates):
#   job a: CPUs 0-3, 4 GB/s: 1 GB/s a CPU;  job b: CPU 0, 3 GB/s;  job c: CPUs 4-7, 2 GB/s (no CPU shared)
#   CPU 0 reads 1 + 3 = 4 GB/s, by the rule 2 GB/s each to jobs 1 and 3;
#   job 1 = 2 + 3 (CPUs 1-3) = 5 GB/s, job 3 = 2 GB/s, job 2 = 2 GB/s: over 10 s 50e9, 20e9, 20e9 bytes.
# (Before, CPU 0 went to job 1 alone, silently: job 3 had no row and the exporter exported 0.)
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
export UNCORE_SYSROOT="$R"
mkdir -p "$V2/job_1" "$V2/job_2" "$V2/job_3"
echo 0-3 >"$V2/job_1/cpuset.cpus.effective"
echo 4-7 >"$V2/job_2/cpuset.cpus.effective"
echo 0 >"$V2/job_3/cpuset.cpus.effective"
printf 'job.a.cpus = 0-3\njob.a.mem_read_bytes_per_s = 4e9\njob.b.cpus = 0\njob.b.mem_read_bytes_per_s = 3e9
job.c.cpus = 4-7\njob.c.mem_read_bytes_per_s = 2e9\n' >"$W/profile"
for b in sim perf+sim; do
	out=$($UNCORE --backend "$b:spr,profile=$W/profile,clock=manual" stat --per-job --duration 10 --json 2>"$W/err")
	rc=$?
	verdict=$(echo "$out" | python3 -c '
import json, sys
truth = {"1": (50e9, 1), "2": (20e9, 0), "3": (20e9, 1)}
rows = [json.loads(l) for l in sys.stdin if l.strip()]
bad = []
for j, (t, sh) in truth.items():
    r = [x for x in rows if x["socket"] == 0 and x["job"] == j]
    if len(r) != 1:
        bad.append("job %s: %d rows" % (j, len(r)))
        continue
    if abs(r[0]["read_bytes"] - t) > 0.01 * t:
        bad.append("job %s: %.5g B, by the rule %.5g" % (j, r[0]["read_bytes"], t))
    if r[0].get("shared_cpus") != sh:
        bad.append("job %s: shared_cpus %s, not %d" % (j, r[0].get("shared_cpus"), sh))
u = [x for x in rows if x["socket"] == 0 and x["job"] is None]
if len(u) != 1 or u[0].get("shared_cpus") != 0 or u[0]["read_bytes"] > 0.01 * 90e9:
    bad.append("unattributed: %s" % u)
print("; ".join(bad) if bad else "ok")
' 2>&1)
	check "$b:spr: jobs 1 and 3 split CPU 0 equally (50e9 and 20e9 B), each says shared_cpus 1, job 2 0 ($rc: $verdict $(head -c 300 "$W/err"))" \
		'[ $rc -eq 0 ] && [ "$verdict" = ok ]'
done
txt=$($UNCORE --backend "sim:spr,profile=$W/profile,clock=manual" stat --per-job --duration 10 2>&1)
echo "$txt"
check "stat --per-job text: job 3's row, saying its shared CPU" \
	'echo "$txt" | grep -qE "^socket0 +3 +read +2\.0[0-9]* GB/s.*shared_cpus 1 \(split equally" &&
	 ! echo "$txt" | grep -E "^socket0 +2 " | grep -q shared_cpus'
# the exporter: job 3's bytes are not 0, and its shared CPU is a series of its own
$B/uncore-exporter --backend "sim:spr,profile=$W/profile" --listen 127.0.0.1:0 --per-job --interval 0.5 --groups memory \
	2>"$W/exp.log" &
exp=$!
port=
for _ in $(seq 1200); do
	port=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/exp.log")
	[ -n "$port" ] && break
	kill -0 $exp 2>/dev/null || break
	sleep 0.1
done
got=
for _ in $(seq 600); do # until a read has counted job 1 (the same read counts job 3)
	got=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"http://127.0.0.1:$port/metrics" 2>/dev/null)
	echo "$got" | grep -q '^uncore_job_memory_read_bytes_total{job_id="1"} [1-9]' && break
	sleep 0.1
done
kill -TERM $exp
wait $exp
echo "$got" | grep "job_id=\"[13]\"" | grep -E "memory_read|shared"
ratio=$(echo "$got" | awk '/^uncore_job_memory_read_bytes_total\{job_id="1"\}/ { a = $2 } /^uncore_job_memory_read_bytes_total\{job_id="3"\}/ { c = $2 }
	END { if (c > 0) printf "%.4f", a / c }')
check "exporter --per-job: job 3 counted (job 1 : job 3 = 5 : 2 by the rule: ${ratio:-none})" \
	'[ -n "$ratio" ] && awk "BEGIN { exit !($ratio > 0.97 * 2.5 && $ratio < 1.03 * 2.5) }"'
check "exporter --per-job: uncore_job_shared_cpus 1 for jobs 1 and 3, 0 for job 2, typed a gauge" \
	'echo "$got" | grep -q "^uncore_job_shared_cpus{job_id=\"1\"} 1" && echo "$got" | grep -q "^uncore_job_shared_cpus{job_id=\"3\"} 1" &&
	 echo "$got" | grep -q "^uncore_job_shared_cpus{job_id=\"2\"} 0" && echo "$got" | grep -q "^# TYPE uncore_job_shared_cpus gauge"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
