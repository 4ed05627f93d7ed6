#!/bin/sh
# The Performance Co-Pilot agent (pcp_pmda/, doc/pcp.md) under a real pmcd of its own: loopback, a port of its
# own, its own configuration (the agent alone, a daemon PMDA on pipes), run and log directories in $W, so a
# system pmcd is neither needed nor touched.  The agent counts sim:skx with a known profile; pminfo, pmval,
# pmrep and a pmlogger archive read back with pmdumplog and pmrep -a must give the simulator's truth (tests/
# prom_truth, the exporter's, and tests/pcp_truth, the device groups') within the exporter tests' 0.5 %; the peak DRAM
# bandwidth that of the board sim:skx models (doc/memory.md), and absent where it is not known.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.} S=${top_srcdir:-.}
PATH=$PATH:/usr/lib/pcp/bin:/usr/libexec/pcp/bin
PMCD=${PMCD:-$(command -v pmcd)}
for t in "$PMCD" pminfo pmval pmrep pmlogger pmdumplog newhelp; do
	[ -n "$t" ] && command -v "$t" >/dev/null 2>&1 && continue
	echo "SKIP: ${t:-pmcd} is not installed (Debian: pcp; scripts/install-deps installs it)"
	exit 77
done
[ -x "$B/pmdaintel_uncore" ] || { echo "SKIP: the agent was not built (configure found no libpcp_pmda)"; exit 77; }
[ -x "$B/tests/prom_truth" ] || { echo "SKIP: tests/prom_truth is built with the exporter alone (configure --with-exporter)"; exit 77; }
AGENT=$B/pmdaintel_uncore
pmcd_pid=
trap 'kill $pmcd_pid 2>/dev/null; wait $pmcd_pid 2>/dev/null; rm -rf "$W"' EXIT
# pmcd, its agent and the clients take these over pcp.conf's (pcp.conf(5)); the pmrep of Debian runs its
# python3 (pmpython is python3 on PATH: another one first lacks the pcp module)
export PCP_RUN_DIR="$W/run" PCP_LOG_DIR="$W/log" PCP_TMP_DIR="$W/tmp"
mkdir -p "$W/run" "$W/log" "$W/tmp"
PY=/usr/bin:$PATH
CHECKS="python3 $S/tests/pcp_checks.py"

# the truth: three Slurm jobs (their cgroups below $W/jobroot, UNCORE_SYSROOT of the agent and the truths; sim:skx
# has 18 CPUs a socket, 0-17 on socket 0) whose cores read and write the profile's rates: jobs 1 and 2 share
# socket 0 (4.0e9 + 2.4e9 = 6.4e9 B/s read), job 3 has socket 1 (12.8e9), each writing 0.375 of its reads (a
# job's writes are attributed as its socket's in proportion to its reads, doc/jobs.md "Writes": alike ratios
# make that the profile's own); the uncore clock's limits 1.1 to
# 2.9 GHz (the simulator's intel_uncore_frequency files give the profile's, min_freq_khz 1100000 and max_freq_khz
# 2900000, and as initial_*: the limits the driver found at load, common/sim/sim_ufreq.c); the rest (DMA of the
# devices, which no job holds, watts, the 2.7 GHz clock) the simulator's defaults
V2=$W/jobroot/sys/fs/cgroup/system.slice/slurmstepd.scope
mkdir -p "$V2/job_1" "$V2/job_2" "$V2/job_3"
echo 0-8 >"$V2/job_1/cpuset.cpus.effective"
echo 9-17 >"$V2/job_2/cpuset.cpus.effective"
echo 18-35 >"$V2/job_3/cpuset.cpus.effective"
export UNCORE_SYSROOT=$W/jobroot
cat >"$W/profile" <<EOF
job.1.cpus = 0-8
job.1.mem_read_bytes_per_s = 4.0e9
job.1.mem_write_bytes_per_s = 1.5e9
job.2.cpus = 9-17
job.2.mem_read_bytes_per_s = 2.4e9
job.2.mem_write_bytes_per_s = 0.9e9
job.3.cpus = 18-35
job.3.mem_read_bytes_per_s = 12.8e9
job.3.mem_write_bytes_per_s = 4.8e9
uncore_min_clock_hz = 1.1e9
uncore_max_clock_hz = 2.9e9
EOF
SIM="sim:skx,profile=$W/profile"
"$B/tests/prom_truth" "$SIM" energy >"$W/prom" && "$B/tests/pcp_truth" "$SIM" >"$W/dev" &&
	$CHECKS truth "$W/prom" "$W/dev" "$W/profile" >"$W/expected" || no "the truth of $SIM"
check "the truth names socket 1's reads as 12.8e9 B/s and nvme0's DMA" \
	'grep -q "^intel_uncore.memory.read_bytes	socket1	1.28e+10$" "$W/expected" && grep -q "^dev.write	nvme0	" "$W/expected"'

# the agent's names (a root of its own around pcp_pmda/pmns) and help (newhelp, as Install makes it, where the
# agent looks by default: $PCP_PMDAS_DIR/intel_uncore/help)
export PCP_PMDAS_DIR="$W/pmdas"
mkdir -p "$W/pmdas/intel_uncore"
printf 'root {\n\tintel_uncore\n}\n\n' >"$W/root" && cat "$S/pcp_pmda/pmns" >>"$W/root"
newhelp -n "$W/root" -o "$W/pmdas/intel_uncore/help" "$S/pcp_pmda/help" || no "newhelp of pcp_pmda/help"
DOMAIN=$(sed -n 's/^#define INTEL_UNCORE \([0-9]*\)$/\1/p' "$S/pcp_pmda/domain.h") # as Install reads it
# pmcd.conf's line as Install writes it, with no -h or -l: the agent's defaults, its help above and its log
# intel_uncore.log in pmcd's directory ($W/log).  libpcp_pmda's pmdaDaemon copies the defaults, and -h and -l
# copy again over them: Debian 13's libpcp_pmda 6.3.8 leaked the first copies (54 bytes, LeakSanitizer).
# The agent runs below a shell (agent.sh): pmcd kills what it started 150 ms after closing its pipes
# (SHUTDOWNWAIT, pmcd.c), before an agent built with the sanitizers has ended and LeakSanitizer has looked
# (a leak in main() went unseen); the shell is killed, the agent reads the end of its pipe, stops, and is checked
printf '#!/bin/sh\n"%s" "$@"\n' "$AGENT" >"$W/agent.sh" && chmod +x "$W/agent.sh"
printf 'intel_uncore\t%s\tpipe\tbinary\t%s -j -b %s\n' "$DOMAIN" "$W/agent.sh" "$SIM" >"$W/pmcd.conf"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$W/log" && exec "$PMCD" -f -A -i 127.0.0.1 -p "$PORT" -s "$W/run/pmcd.socket" -c "$W/pmcd.conf" -n "$W/root" \
	-l "$W/log/pmcd.log" -x "$W/log/pmcd.err" -U "$(id -un)") &
pmcd_pid=$!
export PMCD_PORT=$PORT # the clients' (pmcd has -p)
H="-h 127.0.0.1"
# up when the agent answers (a sanitizer build opening a simulated machine on loaded cores: up to 2 minutes)
for _ in $(seq 1200); do
	pminfo $H -f intel_uncore.memory.read_bytes >"$W/first" 2>&1 && grep -q 'value' "$W/first" && break
	kill -0 $pmcd_pid 2>/dev/null || break
	sleep 0.1
done
check "pmcd serves the agent's metrics on port $PORT" 'grep -q "inst \[1 or \"socket1\"\] value [0-9]" "$W/first"' ||
	cat "$W/log/pmcd.log" "$W/log/pmcd.err" "$W/log/intel_uncore.log" 2>/dev/null

# --- pminfo: semantics, units, help and instances
pminfo $H -dT intel_uncore.memory.read_bytes intel_uncore.energy.joules intel_uncore.clock.uncore_frequency \
	intel_uncore.health.conditions >"$W/desc" 2>&1
check "memory bytes: a 64-bit counter in bytes, with its help" \
	'grep -A2 "^intel_uncore.memory.read_bytes$" "$W/desc" | grep -q "Semantics: counter  Units: byte" &&
	 grep -A6 "^intel_uncore.memory.read_bytes$" "$W/desc" | grep -q "CAS reads times 64"'
check "energy a counter, the uncore clock an instant value in count / sec (hertz)" \
	'grep -A2 "^intel_uncore.energy.joules$" "$W/desc" | grep -q "Semantics: counter" &&
	 grep -A2 "^intel_uncore.clock.uncore_frequency$" "$W/desc" | grep -q "Semantics: instant  Units: count / sec"'
pminfo $H -f intel_uncore >"$W/all" 2>&1
check "instances: channels, NUMA nodes, device groups named by their devices, energy domains, health" \
	'grep -q "\"socket1/channel5\"" "$W/all" && grep -q "\"node1\"" "$W/all" &&
	 grep -q "\"socket0/iio1/port1 nvme0 0000:17:00.0\"" "$W/all" && grep -q "\"socket1/dram\"" "$W/all" &&
	 grep -q "\"allones/socket0\"\] value 0" "$W/all"'
check "the uncore clock is the simulator's 2.7 GHz (sim:skx's profile default)" \
	'grep -A2 "^intel_uncore.clock.uncore_frequency$" "$W/all" | grep -q "\"socket0\"\] value 2[67][0-9]*"'

# the clock's limits: an instance a die (sim:skx: one a socket, Linux's package_%02d_die_%02d entries), in hertz
pminfo $H -f intel_uncore.clock.limit_min intel_uncore.clock.limit_max intel_uncore.clock.initial_limit_min \
	intel_uncore.clock.initial_limit_max >"$W/limits" 2>&1
lim=$($CHECKS limits "$W/limits" 1.1e9 2.9e9 "socket0/die0 package_00_die_00" "socket1/die0 package_01_die_01")
check "the uncore clock's limits per die = the profile's 1.1 and 2.9 GHz, now and at boot ($lim)" '[ "${lim%% *}" = ok ]' ||
	cat "$W/limits"
pminfo $H -dT intel_uncore.clock.limit_max >"$W/ldesc" 2>&1
check "a limit is an instant value in count / sec (hertz), with its help" \
	'grep -q "Semantics: instant  Units: count / sec" "$W/ldesc" && grep -q "max_freq_khz" "$W/ldesc"' || cat "$W/ldesc"

# --- the peak DRAM bandwidth (issue 91 point 4, doc/memory.md): sim:skx's 6 channels x DDR4-2666 x 8 bytes =
# 127.968e9 B/s a socket, worked out here from the board's figures; the share of it each socket's bytes read and
# written a second (the truth above: the jobs' 6.4e9 + 2.4e9 and 12.8e9 + 4.8e9) are over the last interval
pminfo $H -f intel_uncore.memory.peak_bandwidth intel_uncore.memory.peak_share >"$W/peak" 2>&1
pminfo $H -dT intel_uncore.memory.peak_bandwidth intel_uncore.memory.peak_share >"$W/pdesc" 2>&1
pk() { awk -v m="intel_uncore.memory.$1" -v i="socket$2" '$0 == m { on = 1; next } /^$/ { on = 0 }
	on && index($0, "\"" i "\"]") { print $NF }' "$W/peak"; }
truth_bw() { awk -F '\t' -v i="socket$1" '$1 ~ /^intel_uncore.memory.(read|write)_bytes$/ && $2 == i { s += $3 } END { print s }' "$W/expected"; }
p0=$(pk peak_bandwidth 0) p1=$(pk peak_bandwidth 1) s0=$(pk peak_share 0) s1=$(pk peak_share 1) t0=$(truth_bw 0) t1=$(truth_bw 1)
check "memory.peak_bandwidth of each socket 6 x 2666e6 x 8 = 127.968e9 B/s ($p0, $p1)" \
	'awk -v a="$p0" -v b="$p1" "BEGIN { exit !(a == 127968000000 && b == 127968000000) }"' || cat "$W/peak"
check "memory.peak_share: socket 0 $t0 and socket 1 $t1 B/s of 127.968e9 within 1 % ($s0, $s1)" \
	'awk -v a="$s0" -v b="$s1" -v x="$t0" -v y="$t1" "BEGIN { p = 127968000000; exit !(x > 0 && y > 0 &&
	 (a / (x / p) - 1) ^ 2 < 1e-4 && (b / (y / p) - 1) ^ 2 < 1e-4) }"'
# each NUMA node's (sim:skx without SNC: a node a socket, its six channels): numa.peak_bandwidth
pminfo $H -f intel_uncore.numa.peak_bandwidth >"$W/npeak" 2>&1
n0=$(awk 'index($0, "\"node0\"]") { print $NF }' "$W/npeak") n1=$(awk 'index($0, "\"node1\"]") { print $NF }' "$W/npeak")
check "numa.peak_bandwidth of each node, its socket's six channels: 127.968e9 B/s ($n0, $n1)" \
	'awk -v a="$n0" -v b="$n1" "BEGIN { exit !(a == 127968000000 && b == 127968000000) }"' || cat "$W/npeak"
check "the peak a discrete value in byte / sec, the share an instant one, each with its help" \
	'grep -A2 "^intel_uncore.memory.peak_bandwidth$" "$W/pdesc" | grep -q "Semantics: discrete  Units: byte / sec" &&
	 grep -A2 "^intel_uncore.memory.peak_share$" "$W/pdesc" | grep -q "Semantics: instant  Units: none" &&
	 grep -q "configured speed in MT/s" "$W/pdesc"' || cat "$W/pdesc"

# --- pmval and pmrep live: bytes a second of each socket.  pmcd stamps each fetch after its agent answers, not
# at the agent's read, so a rate over an interval is off by the two ends' delays over its length: the mean of
# three 2 s intervals within 1 % leaves 20 ms at each end, where a loaded 2-core machine delayed 6 ms of 1 s
# (0.6 %, a failed 0.5 %)
pmval $H -t 2sec -s 3 -f 0 intel_uncore.memory.read_bytes >"$W/pmval" 2>&1
$CHECKS pmval "$W/pmval" "$W/expected" intel_uncore.memory.read_bytes 0.01 >"$W/pmval.c"
check "pmval: memory read bytes a second = the profile's 6.4e9 and 12.8e9 ($(tr '\n' ';' <"$W/pmval.c"))" '[ $? -eq 0 ]'
PATH=$PY pmrep $H -t 2sec -s 3 -o csv intel_uncore.memory.write_bytes >"$W/pmrep" 2>&1
$CHECKS pmrep "$W/pmrep" "$W/expected" 0.01 >"$W/pmrep.c"
check "pmrep: memory write bytes a second = the simulator's ($(tr '\n' ';' <"$W/pmrep.c"))" '[ $? -eq 0 ]' || cat "$W/pmrep"

# --- a pmlogger archive of 4 s, read back
printf 'log mandatory on 500 msec {\n\tintel_uncore.memory\n\tintel_uncore.numa\n\tintel_uncore.energy\n\tintel_uncore.iio\n\tintel_uncore.jobs\n}\n' >"$W/log.conf"
pmlogger $H -c "$W/log.conf" -s 9 -l "$W/log/pmlogger.log" "$W/arch" >/dev/null 2>&1
check "pmlogger wrote an archive of 9 samples" '[ -f "$W/arch.0" ] && [ -f "$W/arch.meta" ]' || cat "$W/log/pmlogger.log"
pmdumplog "$W/arch" intel_uncore.memory.read_bytes intel_uncore.memory.write_bytes intel_uncore.numa.read_bytes \
	intel_uncore.numa.write_bytes intel_uncore.energy.joules intel_uncore.iio.write_bytes intel_uncore.iio.read_bytes intel_uncore.jobs >"$W/dump" 2>&1
$CHECKS dumplog "$W/dump" "$W/expected" >"$W/dump.c"
check "pmdumplog: every socket's, node's, energy domain's and device group's rate = the truth ($(grep -c . "$W/dump.c") values)" \
	'[ $? -eq 0 ] && [ "$(grep -c "^ok intel_uncore.iio" "$W/dump.c")" -eq 20 ] && grep -q "^ok intel_uncore.numa.read_bytes\[node1\]" "$W/dump.c" &&
	 grep -q "^ok intel_uncore.energy.joules\[socket1/dram\]" "$W/dump.c"' || cat "$W/dump.c"
check "per job (-j): jobs 1, 2, 3 and unattributed, memory and device bytes a second = the profile's (\
$(grep -c "^ok intel_uncore.jobs" "$W/dump.c") of 16)" '[ "$(grep -c "^ok intel_uncore.jobs" "$W/dump.c")" -eq 16 ] &&
	 grep -q "^ok intel_uncore.jobs.read_bytes\[2\]" "$W/dump.c"' || grep jobs "$W/dump.c"
PATH=$PY pmrep -a "$W/arch" -t 1sec -o csv intel_uncore.memory.read_bytes intel_uncore.numa.write_bytes >"$W/rep" 2>&1
$CHECKS pmrep "$W/rep" "$W/expected" 0.01 >"$W/rep.c"
check "pmrep -a: the archive's memory and NUMA rates = the truth ($(tr '\n' ';' <"$W/rep.c"))" '[ $? -eq 0 ]' || cat "$W/rep"

# the jobs change: job 2 leaves and job 4 comes on its CPUs; the agent finds it within a read or two (every
# second) and its instances follow: 2 gone, 4 new with a number of its own (2's is not reused), 1 and 3 kept
pminfo $H -f intel_uncore.jobs.read_bytes >"$W/jobs0" 2>&1
rm -r "$V2/job_2" && mkdir "$V2/job_4" && echo 9-17 >"$V2/job_4/cpuset.cpus.effective"
for _ in $(seq 100); do
	pminfo $H -f intel_uncore.jobs.read_bytes >"$W/jobs1" 2>&1
	grep -q ' or "4"\]' "$W/jobs1" && break
	sleep 0.2
done
num() { sed -n "s/^ *inst \[\([0-9]*\) or \"$2\"\].*/\1/p" "$1"; }
check "the jobs change: instance 2 gone, 4 new (number $(num "$W/jobs1" 4), not 2's $(num "$W/jobs0" 2)), 1 and 3 keep theirs" \
	'[ -n "$(num "$W/jobs1" 4)" ] && [ -z "$(num "$W/jobs1" 2)" ] && [ -n "$(num "$W/jobs0" 2)" ] &&
	 [ "$(num "$W/jobs1" 4)" != "$(num "$W/jobs0" 2)" ] && [ "$(num "$W/jobs1" 1)" = "$(num "$W/jobs0" 1)" ] &&
	 [ "$(num "$W/jobs1" 3)" = "$(num "$W/jobs0" 3)" ] && [ -n "$(num "$W/jobs1" unattributed)" ]' || cat "$W/jobs0" "$W/jobs1"

kill -TERM $pmcd_pid
wait $pmcd_pid
pmcd_pid=
# the agent's end: its exit and, in a build with the sanitizers, LeakSanitizer's look (seconds on loaded cores)
for _ in $(seq 1200); do pgrep -f "profile=$W/profile" >/dev/null || break; sleep 0.1; done
check "pmcd stopped, and its agent with it" '! pgrep -f "profile=$W/profile" >/dev/null'
check "the agent ended by exit, its log finished (where LeakSanitizer looks)" 'grep -q "^Log finished" "$W/log/intel_uncore.log"'
check "the agent's log has no sanitizer report (a build with --enable-sanitizers)" \
	'! grep -E "Sanitizer|runtime error" "$W/log/intel_uncore.log"' ||
	sed -n '/==ERROR\|runtime error/,/SUMMARY/p' "$W/log/intel_uncore.log" | head -80 # the report whole, its stacks

# --- where the peak is not known (sim:icx,edac=off: no EDAC driver, the channels' population unknown) the two
# peak metrics have no instance, not a 0, and the agent's log says why; the memory's bytes are there
printf 'intel_uncore\t%s\tpipe\tbinary\t%s -b %s\n' "$DOMAIN" "$W/agent.sh" "sim:icx,edac=off" >"$W/pmcd.conf"
(cd "$W/log" && exec "$PMCD" -f -A -i 127.0.0.1 -p "$PORT" -s "$W/run/pmcd.socket" -c "$W/pmcd.conf" -n "$W/root" \
	-l "$W/log/pmcd.log" -x "$W/log/pmcd.err" -U "$(id -un)") &
pmcd_pid=$!
for _ in $(seq 1200); do
	pminfo $H -f intel_uncore.memory.read_bytes >"$W/first" 2>&1 && grep -q 'value' "$W/first" && break
	kill -0 $pmcd_pid 2>/dev/null || break
	sleep 0.1
done
pminfo $H -f intel_uncore.numa.peak_bandwidth >"$W/npeak" 2>&1
check "sim:icx,edac=off: numa.peak_bandwidth without an instance" '! grep -q "inst " "$W/npeak" && grep -q "No value" "$W/npeak"' ||
	cat "$W/npeak"
pminfo $H -f intel_uncore.memory.peak_bandwidth intel_uncore.memory.peak_share >"$W/peak" 2>&1
check "sim:icx,edac=off: memory.peak_bandwidth and peak_share without an instance, the bytes with theirs" \
	'grep -q "inst \[1 or \"socket1\"\] value [0-9]" "$W/first" && ! grep -q "inst " "$W/peak" &&
	 [ "$(grep -c "No value" "$W/peak")" -eq 2 ] && grep -q "no peak DRAM bandwidth of socket 0: .*no EDAC driver loaded" "$W/log/intel_uncore.log"' ||
	cat "$W/peak" "$W/log/intel_uncore.log"
kill -TERM $pmcd_pid
wait $pmcd_pid
pmcd_pid=
for _ in $(seq 1200); do pgrep -f "$W/agent.sh -b sim:icx,edac=off" >/dev/null || break; sleep 0.1; done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
