#!/bin/sh
# Energy by job (issue 68 point 3, doc/jobs.md "Energy"), on the simulator, whose profile is the truth.
# Shared node: two jobs on socket 0 of sim:skx (and perf+sim:skx) moving 40 and 20 GB/s; uncore stat --per-job
# over 10 s of the manual clock gives each job its share by bytes of the socket's DRAM energy -- the truth
# (dram_idle_watts x 10 s + dram_watts_per_gbps x the GB moved) x the job's bytes over the socket's -- within
# 1 %, the rows adding up to the socket's DRAM energy, and the package's joules (pkg_watts x 10 s) as the
# socket's figure on every row.  (An exclusive job's summary: tests/test_job.sh.)
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
export UNCORE_SYSROOT="$R"
mkdir -p "$V2/job_1" "$V2/job_2"
echo 0-8 >"$V2/job_1/cpuset.cpus.effective"  # sim:skx: 18 cores a socket
echo 9-17 >"$V2/job_2/cpuset.cpus.effective"
cat >"$W/profile" <<EOF
job.a.cpus = 0-8
job.a.mem_read_bytes_per_s = 30e9
job.a.mem_write_bytes_per_s = 10e9
job.b.cpus = 9-17
job.b.mem_read_bytes_per_s = 15e9
job.b.mem_write_bytes_per_s = 5e9
pkg_watts = 150
dram_idle_watts = 5
dram_watts_per_gbps = 0.4
EOF
for b in sim perf+sim; do
	out=$($UNCORE --backend "$b:skx,profile=$W/profile,clock=manual" stat --per-job --duration 10 --json 2>"$W/err")
	rc=$?
	verdict=$(echo "$out" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
dram = 5 * 10 + 0.4 * 60 * 10              # socket 0: idle 5 W, 0.4 W per GB/s of 60 GB/s, 10 s
share = {"1": 40 / 60, "2": 20 / 60}       # the jobs bytes over the sockets
bad = []
for j, f in share.items():
    r = [x for x in rows if x["socket"] == 0 and x["job"] == j]
    if len(r) != 1 or r[0].get("dram_joules") is None:
        bad.append("job %s: no row with dram_joules" % j)
        continue
    if abs(r[0]["dram_joules"] / (dram * f) - 1) > 0.01:
        bad.append("job %s: %.4f J, truth %.4f J x %.4f = %.4f J" % (j, r[0]["dram_joules"], dram, f, dram * f))
s0 = [x for x in rows if x["socket"] == 0]
tot = sum(x["dram_joules"] for x in s0 if x.get("dram_joules") is not None)
if s0 and abs(tot - s0[0]["socket_dram_joules"]) > 1e-6 * tot:
    bad.append("the rows add to %.6f J, the socket %.6f J" % (tot, s0[0]["socket_dram_joules"]))
if s0 and abs(s0[0]["socket_dram_joules"] / dram - 1) > 0.001:
    bad.append("socket 0 DRAM %.6f J, truth %.6f J" % (s0[0]["socket_dram_joules"], dram))
if any(abs(x["socket_pkg_joules"] / 1500 - 1) > 0.001 for x in s0):
    bad.append("package %s J, truth 1500 J on every row" % [x["socket_pkg_joules"] for x in s0])
if any(abs(x["dram_watts_per_gbps"] - dram / 600) > 1e-3 for x in s0):
    bad.append("DRAM W per GB/s %s, truth %.6f" % ([x["dram_watts_per_gbps"] for x in s0], dram / 600))
print("; ".join(bad) if bad else "ok %.4f J and %.4f J" % tuple(x["dram_joules"] for x in s0 if x["job"]))
' 2>&1)
	check "$b:skx: two jobs' DRAM joules = the truth x their byte share within 1 %, the package the socket's (rc $rc: $verdict$(head -c 200 "$W/err"))" \
		'[ $rc -eq 0 ] && [ "${verdict%% *}" = ok ]'
done
out=$($UNCORE --backend "sim:skx,profile=$W/profile,clock=manual" stat --per-job --duration 10 2>&1)
check "the text rows give the job's DRAM joules of the socket's" \
	'echo "$out" | grep -q "^socket0   1 .*DRAM 193\.3 J of the socket.s 290\.0 J (package 1500\.0 J)$"' || echo "$out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
