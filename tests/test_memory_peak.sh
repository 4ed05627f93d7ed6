#!/bin/sh
# The peak DRAM bandwidth of NUMA nodes and jobs (issue 91 point 4, doc/memory.md): every value here worked out by
# hand from the simulated boards' populations (doc/memory.md "On the simulator") -- a channel moves 8 bytes a
# transfer at its DIMMs' configured MT/s -- and the profile's bandwidth, never taken from the program's output:
#   sim:icx  SR630 V2, 8 channels x DDR4-3200 a socket: 8 x 3200e6 x 8 = 204.8e9 B/s, one node a socket;
#   sim:skx  6 channels x DDR4-2666: 6 x 2666e6 x 8 = 127.968e9;
#   sim:spr,snc=2,dimms=11101100: DL380 Gen11's DDR5-4800 with channels 0 1 2 4 5 holding a DIMM; SNC2 gives
#            channels {0,1,4,5} to domain 0 and {2,3,6,7} to domain 1 (perf's spr_emr_snc2_map, doc/numa.md),
#            so node 0 has 4 populated channels, 4 x 4800e6 x 8 = 153.6e9, and node 1 one, 38.4e9;
# with SNC the simulator's domain d moves d + 1 parts of its socket's traffic (doc/numa.md "Simulated").  Where
# the peak cannot be known (edac=off: no EDAC driver; SNC4, which no public table maps) it is said unknown, not 0.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(a != "" && b > 0 && (a - b) / b < t && (b - a) / b < t) }'; }

# --- uncore memory: a node's peak beside its socket's
$UNCORE --backend sim:icx memory >"$W/out" 2>"$W/err"
check "sim:icx memory: node 0 and node 1 are their sockets, each 8 x 3200 x 8 = 204.8 GB/s" \
	'grep -q "^# node 0 (socket 0, SNC domain 0 of 1) peak: 204.8 GB/s$" "$W/out" &&
	 grep -q "^# node 1 (socket 1, SNC domain 0 of 1) peak: 204.8 GB/s$" "$W/out"'
$UNCORE --backend sim:skx memory --json >"$W/out" 2>"$W/err"
check "sim:skx memory --json: each socket and node 6 x 2666 x 8 = 127.968e9 B/s" \
	'[ "$(grep -c "^{\"socket\":[01],\"peak_bytes_per_s\":127968000000}$" "$W/out")" -eq 2 ] &&
	 grep -q "^{\"node\":1,\"socket\":1,\"domain\":0,\"snc\":1,\"peak_bytes_per_s\":127968000000}$" "$W/out"'
$UNCORE --backend sim:spr,snc=2,dimms=11101100 memory --json >"$W/out" 2>"$W/err"
check "sim:spr,snc=2,dimms=11101100 memory --json: nodes 0 and 2 153.6e9 B/s (4 channels), 1 and 3 38.4e9 (1); sockets 192e9" \
	'grep -q "^{\"node\":0,\"socket\":0,\"domain\":0,\"snc\":2,\"peak_bytes_per_s\":153600000000}$" "$W/out" &&
	 grep -q "^{\"node\":1,\"socket\":0,\"domain\":1,\"snc\":2,\"peak_bytes_per_s\":38400000000}$" "$W/out" &&
	 grep -q "^{\"node\":2,\"socket\":1,\"domain\":0,\"snc\":2,\"peak_bytes_per_s\":153600000000}$" "$W/out" &&
	 grep -q "^{\"node\":3,\"socket\":1,\"domain\":1,\"snc\":2,\"peak_bytes_per_s\":38400000000}$" "$W/out" &&
	 [ "$(grep -c "^{\"socket\":[01],\"peak_bytes_per_s\":192000000000}$" "$W/out")" -eq 2 ]'
$UNCORE --backend sim:icx,edac=off memory --json >"$W/out" 2>"$W/err"
check "sim:icx,edac=off memory --json: every node's peak null, unknown with why (no EDAC driver)" \
	'[ "$(grep -c "^{\"node\":[01],.*\"peak_bytes_per_s\":null,\"peak_unknown\":\".*no EDAC driver loaded" "$W/out")" -eq 2 ]'
$UNCORE --backend sim:spr,snc=4 memory >"$W/out" 2>"$W/err"
check "sim:spr,snc=4 memory: the sockets' 307.2 GB/s, the nodes' unknown (SNC4's channels are in no public table)" \
	'[ "$(grep -c "^# socket [01] peak: 307.2 GB/s" "$W/out")" -eq 2 ] &&
	 [ "$(grep -c "^# node [0-7] (socket [01]) peak: unknown (.*SNC4" "$W/out")" -eq 8 ]'

# --- stat --per-node: each node's share of its peak.  Socket 0 moves 30e9 + 15e9 = 45e9 B/s: node 0 (domain 0)
# 1/3 of it, 15e9 of 153.6e9 = 9.765625 %; node 1 2/3, 30e9 of 38.4e9 = 78.125 %; the socket 45e9 of 192e9
printf 'socket0.mem_read_bytes_per_s = 30e9\nsocket0.mem_write_bytes_per_s = 15e9\n' >"$W/profile"
SPR="sim:spr,clock=manual,snc=2,dimms=11101100,profile=$W/profile"
$UNCORE --backend "$SPR" stat --per-node --duration 1 --json >"$W/out" 2>"$W/err"
s0=$(sed -n 's/^{"node": 0, .*"peak_bw": 153600000000, "peak_share": \([^}]*\)}$/\1/p' "$W/out")
s1=$(sed -n 's/^{"node": 1, .*"peak_bw": 38400000000, "peak_share": \([^}]*\)}$/\1/p' "$W/out")
check "stat --per-node --json: node 0 15e9 of 153.6e9 B/s ($s0), node 1 30e9 of 38.4e9 ($s1), within 0.1 %" \
	'near "$s0" 0.09765625 0.001 && near "$s1" 0.78125 0.001'
$UNCORE --backend "$SPR" stat --per-node -M mem_bw_total --duration 1 >"$W/out" 2>"$W/err"
check "stat --per-node -M mem_bw_total: node 1's mem_bw_peak_share 78.125 %, socket 0's 45 of 192 = 23.4375 %" \
	'grep -qE "^node1 +socket0 +mem_bw_peak_share +78\.12[45][0-9] %$" "$W/out" &&
	 grep -qE "^total +socket0 +mem_bw_peak_share +23\.43[78][0-9] %$" "$W/out"'
$UNCORE --backend "sim:icx,clock=manual,edac=off,profile=$W/profile" stat --per-node --duration 1 --json >"$W/out" 2>"$W/err"
check "sim:icx,edac=off stat --per-node --json: the share null with why, not 0" \
	'[ "$(grep -c "\"peak_bw\": null, \"peak_share\": null, \"peak_unknown\": \".*no EDAC driver" "$W/out")" -eq 2 ]'

# --- the job summary: a job's bandwidth over the sum of its sockets' peaks.  sim:icx: socket 0 moves
# 40.96e9 + 10.24e9 = 51.2e9 B/s (25 % of 204.8e9), socket 1 61.44e9 + 20.48e9 = 81.92e9 (40 %); job 1 holds
# socket 0 (CPUs 0-39) whole: 51.2 of 204.8 = 0.25; a job of the whole node 133.12 of 409.6 = 0.325
R=$W/root
V2=$R/sys/fs/cgroup/system.slice/slurmstepd.scope
mkdir -p "$V2/job_1"
printf '0-39\n' >"$V2/job_1/cpuset.cpus.effective"
printf 'socket0.mem_read_bytes_per_s = 40.96e9\nsocket0.mem_write_bytes_per_s = 10.24e9\n' >"$W/jprofile"
printf 'socket1.mem_read_bytes_per_s = 61.44e9\nsocket1.mem_write_bytes_per_s = 20.48e9\n' >>"$W/jprofile"
export UNCORE_SYSROOT="$R" UNCORE_JOB_SPOOL="$W/spool/jobs"
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$W/spool/jobs/$2.json" | head -1; }
job() { # id backend begin-options...: a job counted for about a second
	id=$1 back=$2
	shift 2
	out=$($UNCORE --backend "$back" job begin "$id" --interval 0.2 "$@" 2>&1) || echo "begin $id: $out"
	sleep 1
	out=$($UNCORE job end "$id" 2>&1) || echo "end $id: $out"
}
ICX="sim:icx,shared=$W/machine,profile=$W/jprofile"
job 1 "$ICX"
p=$(field peak_bw 1) s=$(field peak_share 1)
check "job 1 on socket 0: peak_bw 204.8e9 (its one socket's), peak_share 51.2 of 204.8 = 0.25 within 0.1 % ($p, $s)" \
	'[ "$p" = 204800000000 ] && near "$s" 0.25 0.001' || cat "$W/spool/jobs/1.json"
check "... each socket of the summary its own peak_bw" 'grep -q "^  \"peak_bw\": 204800000000,$" "$W/spool/jobs/1.json" &&
	[ "$(grep -c "\"peak_bw\"" "$W/spool/jobs/1.json")" -eq 2 ]'
job 2 "$ICX" --whole-node
p=$(field peak_bw 2) s=$(field peak_share 2)
check "job 2 on the whole node: peak_bw 409.6e9 (two sockets'), peak_share 133.12 of 409.6 = 0.325 within 0.1 % ($p, $s)" \
	'[ "$p" = 409600000000 ] && near "$s" 0.325 0.001' || cat "$W/spool/jobs/2.json"
job 3 "sim:icx,edac=off,shared=$W/machine2,profile=$W/jprofile" --whole-node
check "job 3 where EDAC is off: peak_bw and peak_share null, peak_unknown says why" \
	'[ "$(field peak_bw 3)" = null ] && [ "$(field peak_share 3)" = null ] &&
	 grep -q "^  \"peak_unknown\": \".*no EDAC driver loaded" "$W/spool/jobs/3.json"' || cat "$W/spool/jobs/3.json"
python3 -c 'import json, sys; [json.load(open(f)) for f in sys.argv[1:]]' "$W/spool/jobs/1.json" "$W/spool/jobs/2.json" \
	"$W/spool/jobs/3.json" 2>"$W/err"
check "the summaries are JSON ($(head -c 200 "$W/err"))" '[ ! -s "$W/err" ]'

# --- stat --per-job --json: a job's row's bytes a second as a share of its socket's peak: job 1's cores (CPUs
# 0-39, socket 0) move 40.96e9 + 10.24e9 B/s of the 204.8e9: 0.25; null where the peak is unknown
printf 'job.1.cpus = 0-39\njob.1.mem_read_bytes_per_s = 40.96e9\njob.1.mem_write_bytes_per_s = 10.24e9\n' >"$W/pjprofile"
$UNCORE --backend "sim:icx,clock=manual,profile=$W/pjprofile" stat --per-job --duration 1 --json >"$W/out" 2>"$W/err"
s=$(sed -n 's/^{"socket": 0, "job": "1", .*"peak_share": \([^,]*\),.*/\1/p' "$W/out")
check "stat --per-job --json: job 1's peak_share 51.2 of 204.8 = 0.25 within 0.1 % ($s)" 'near "$s" 0.25 0.001' || cat "$W/out" "$W/err"
$UNCORE --backend "sim:icx,clock=manual,edac=off,profile=$W/pjprofile" stat --per-job --duration 1 --json >"$W/out" 2>"$W/err"
check "... edac=off: every row's peak_share null" \
	'[ "$(grep -c "\"peak_share\": null," "$W/out")" -eq "$(grep -c . "$W/out")" ] && [ -s "$W/out" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
