#!/bin/sh
# Debian's Prometheus on 127.0.0.1 scraping uncore-exporter on every built-in platform, on sim: and
# perf+sim: where it exists, at scrape intervals of 1, 5 and 15 s: rate() and increase() through its HTTP API
# equal the simulator's truth within 1 % at instants that fall anywhere between scrapes, and every gauge;
# the recording rules pass promtool and sum the cluster's and the jobs' traffic right.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
S=$(cd "${top_srcdir:-.}" && pwd) B=${top_builddir:-.}
EXP=$B/uncore-exporter TRUTH=$B/tests/prom_truth
CHECKS="python3 $S/tests/prometheus_checks.py"
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$W"' EXIT
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
	echo "FAIL: Debian's prometheus is not installed (scripts/install-deps installs it)"
	exit 1
fi
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start an exporter named $1 with the rest as options; appends "127.0.0.1:PORT truthfile name" to $W/targets
exporter() {
	name=$1
	shift
	"$EXP" --listen 127.0.0.1:0 "$@" 2>"$W/$name.log" &
	pids="$pids $!" last_pid=$!
	for _ in $(seq 300); do
		ep=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/$name.log")
		[ -n "$ep" ] && break
		sleep 0.1
	done
	[ -n "$ep" ] || { cat "$W/$name.log"; no "$name: the exporter started"; return 1; }
	echo "127.0.0.1:$ep $W/truth-${name#*-} $name" >>"$W/targets"
}

# --- the truth: socket 0 reads 6.4e9 B/s, socket 1 12.8e9; the rest the simulator's defaults
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket1.mem_read_bytes_per_s = 12.8e9\n' >"$W/profile2"
printf 'socket0.mem_read_bytes_per_s = 6.4e9\n' >"$W/profile1" # Broadwell-DE has one socket
: >"$W/targets"
for plat in snbep ivbep hsx bdx bdxde skx clx icx spr emr gnr srf cwf nhm montecito; do
	cp "$W/profile2" "$W/profile"
	[ $plat = bdxde ] && cp "$W/profile1" "$W/profile"
	# energy: the default set counts it (package and DRAM) where the platform has RAPL
	"$TRUTH" "sim:$plat,profile=$W/profile" energy >"$W/truth-$plat" || no "prom_truth sim:$plat"
	exporter "sim-$plat" --backend "sim:$plat,profile=$W/profile"
	[ $plat = montecito ] || exporter "perf+sim-$plat" --backend "perf+sim:$plat,profile=$W/profile"
done
n=$(grep -c . "$W/targets")
check "29 exporters serve (every platform on sim:, all but Montecito on perf+sim:): $n" '[ "$n" -eq 29 ]'

# --- two nodes of a cluster for the dashboard: sim:spr with three jobs sharing it (doc/jobs.md) and 5 GB/s
# of DMA, each channel and each job counted; the same jobs on both (a job across two nodes)
. "$S/tests/job_fixture.sh"
job_fixture "$W"
"$TRUTH" "sim:spr,profile=$W/jobprofile" energy >"$W/truth-nodes" || no "prom_truth for the nodes"
: >"$W/targets-nodes"
for node in cn01 cn02; do
	UNCORE_SYSROOT=$W/jobroot exporter "$node-nodes" --backend "sim:spr,profile=$W/jobprofile" --per-job --per-box imc \
		--groups memory,llc,interconnect,clock,energy
done
grep nodes "$W/targets" >"$W/targets-nodes"
sed -i '/nodes/d' "$W/targets"
DP=$(port)
DAPI=http://127.0.0.1:$DP
ntargets=$(awk '{printf "%s\"%s\"", (NR > 1 ? ", " : ""), $1}' "$W/targets-nodes")
printf 'scrape_configs:\n  - job_name: uncore\n    scrape_interval: 5s\n    static_configs: [{targets: [%s]}]\n' "$ntargets" >"$W/dash.yml"
prometheus --config.file="$W/dash.yml" --storage.tsdb.path="$W/dtsdb" --web.listen-address=127.0.0.1:$DP \
	--log.level=warn >"$W/dash.log" 2>&1 &
pids="$pids $!"

# --- the documented second path: collectd with the intel_uncore plugin (installed as a site installs it)
# and its write_prometheus, on sim:emr and perf+sim:emr, Interval 1, scraped every 5 s
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
make -s -C "$B" install-data DESTDIR="$W/stage" >"$W/install.log" 2>&1 || { cat "$W/install.log"; no "make install-data"; }
PLUGDIR=$W/stage$collectdplugindir
PRELOAD=
if ldd "$PLUGDIR/intel_uncore.so" | grep -q libasan; then # an ASan build of the plugin: its runtime first
	PRELOAD=$(cc -print-file-name=libasan.so)
	export ASAN_OPTIONS=detect_leaks=0
fi
STOCK=$("$COLLECTD" -h | sed -n 's/^ *Plugin directory *//p')
: >"$W/targets-collectd"
for b in sim:emr perf+sim:emr; do
	cp=$(port)
	mkdir -p "$W/cd-$b"
	cat >"$W/cd-$b.conf" <<EOF
Hostname "cn-$b"
FQDNLookup false
Interval 1
BaseDir "$W/cd-$b"
PIDFile "$W/cd-$b/collectd.pid"
PluginDir "$STOCK"
LoadPlugin logfile
<Plugin logfile>
  File "$W/cd-$b.log"
</Plugin>
LoadPlugin write_prometheus
<Plugin write_prometheus>
  Port "$cp"
</Plugin>
PluginDir "$PLUGDIR"
LoadPlugin intel_uncore
<Plugin intel_uncore>
  Backend "$b,profile=$W/profile2"
</Plugin>
EOF
	LD_PRELOAD=$PRELOAD "$COLLECTD" -f -C "$W/cd-$b.conf" >"$W/cd-$b.out" 2>&1 &
	pids="$pids $!"
	echo "127.0.0.1:$cp $b" >>"$W/targets-collectd"
done

# --- the recording rules, then Prometheus with a job per scrape interval
RULES=$S/exporter/prometheus/intel_uncore_rules.yml
out=$(promtool check rules "$RULES" 2>&1)
check "promtool check rules passes the shipped rules ($(echo "$out" | grep -o 'SUCCESS: [0-9]* rules found'))" '[ $? -eq 0 ]'
targets=$(awk '{printf "%s\"%s\"", (NR > 1 ? ", " : ""), $1}' "$W/targets")
{
	printf 'global:\n  evaluation_interval: 5s\nrule_files: ["%s"]\nscrape_configs:\n' "$RULES"
	ctargets=$(awk '{printf "%s\"%s\"", (NR > 1 ? ", " : ""), $1}' "$W/targets-collectd")
	printf '  - job_name: collectd\n    scrape_interval: 5s\n    static_configs: [{targets: [%s]}]\n' "$ctargets"
	for i in 1 5 15; do
		printf '  - job_name: s%s\n    scrape_interval: %ss\n    scrape_timeout: %ss\n    static_configs: [{targets: [%s]}]\n' $i $i $i "$targets"
	done
} >"$W/prometheus.yml"
out=$(promtool check config "$W/prometheus.yml" 2>&1)
rc=$?
[ $rc -eq 0 ] || echo "$out"
check "promtool check config passes" '[ $rc -eq 0 ]'
PP=$(port)
API=http://127.0.0.1:$PP
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" --web.listen-address=127.0.0.1:$PP \
	--log.level=warn >"$W/prometheus.log" 2>&1 &
pids="$pids $!"
ready=
for _ in $(seq 300); do
	curl -sf "$API/-/ready" >/dev/null 2>&1 && { ready=1; break; }
	sleep 0.2
done
check "Prometheus is ready on 127.0.0.1:$PP" '[ -n "$ready" ]' || cat "$W/prometheus.log"

# until every target of the 15 s job has 9 scrapes: a 60 s window at the earliest instant below (24 s back)
# then starts after its first sample
q() { curl -sf --data-urlencode "query=$1" "$API/api/v1/query" | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'; }
start=$(date +%s) have=0
while [ $(($(date +%s) - start)) -lt ${PROM_WAIT:-300} ]; do
	have=$(q 'count(count_over_time(up{job="s15"}[10m]) >= 9)')
	[ "${have%.*}" -ge 29 ] 2>/dev/null && break
	sleep 2
done
check "every target has 9 scrapes of the 15 s job ($(($(date +%s) - start)) s)" '[ "${have%.*}" -ge 29 ]'
up=$(q 'count(up == 1)')
check "every target is up in every job ($up of 89, collectd's two with them)" '[ "${up%.*}" -eq 89 ]' || {
	tail -5 "$W/prometheus.log"
	curl -s "$API/api/v1/targets" | python3 -c 'import json, sys
for t in json.load(sys.stdin)["data"]["activeTargets"][:5]: print(t["scrapeUrl"], t["health"], t["lastError"])'
}
errs=$(q 'sum(scrape_samples_post_metric_relabeling) > 0 and sum(up == 0)')
out=$($CHECKS rates "$API" "$W/targets" s1:4:1.2,s5:20:5.5,s15:60:16 0,2.3,4.9,7.7)
rc=$?
echo "$out"
check "rate() and increase() of every counter and every gauge equal the truth at every scrape interval" '[ $rc -eq 0 ]'
# the rules: the cluster's read bandwidth is the sum of every target's, each job's interval counted once
want=$(for f in $(awk '{print $2}' "$W/targets"); do sort -u "$f"; done | awk '$1 == "uncore_memory_read_bytes_total" && $2 !~ /port/ { s += $4 } END { printf "%.6g", s }')
sleep 6 # a rule evaluation after the 1 m window filled
got=$(q 'cluster:uncore_memory_read_bytes:rate1m{job="s5"}')
check "the recording rule cluster:uncore_memory_read_bytes:rate1m = $got B/s, the targets' sum $want within 1 %" \
	'python3 -c "import sys; g, w = map(float, sys.argv[1:]); sys.exit(abs(g - w) > 0.01 * w)" "$got" "$want"'

# --- collectd's write_prometheus: its shape (doc/prometheus.md), and the bandwidth through rate()
for b in sim:emr perf+sim:emr; do
	for spec in "socket0 mem_bw_read 6.4e9" "socket1 mem_bw_read 12.8e9" "socket1 mem_bw_write 9.6e9"; do
		set -- $spec
		truth=$3 # check's eval has its own $3
		sel="collectd_intel_uncore_memory_bandwidth_total{exported_instance=\"cn-$b\",intel_uncore=\"$1\",type=\"$2\"}"
		for back in 0 3.1 7.3; do
			at=$(python3 -c "import time; print(time.time() - 5.5 - $back)")
			# the truth over the time rate() extrapolates the window's samples to (a scrape that came late on a
			# loaded machine leaves an edge it does not reach: prometheus_checks.py covered)
			set -- $($CHECKS rate_covered "$API" "$sel" "$at" 20)
			got=$1 want=$(python3 -c "print($truth * $2)")
			check "write_prometheus: rate($sel[20s]) at now-$back-5.5 s = $got B/s, truth $want ($truth over the $2 of the window its samples cover) within 1 %" \
				'python3 -c "import sys; g, w = sys.argv[1:]; sys.exit(g == \"none\" or abs(float(g) - float(w)) > 0.01 * float(w))" "$got" "$want"'
		done
	done
done

# --- the dashboard: every panel's query through the API, against the nodes' truth
DASH=$S/exporter/prometheus/intel_uncore_prometheus.json
out=$($CHECKS dashboard "$DAPI" "$DASH" "$W/truth-nodes" 2 101 30e9)
rc=$?
echo "$out"
check "every panel of the Prometheus dashboard equals the truth of two nodes and their jobs" '[ $rc -eq 0 ]'

# --- staleness (doc/prometheus.md): the exporter stamps its samples, so Prometheus keeps a stopped one's
# series for the 5 minute lookback, unless (2.48 and later) the job has track_timestamps_staleness: then
# they end at its first failed scrape.  One exporter, two 1 s jobs, with and without it; then it stops.
pv=$(prometheus --version 2>&1 | sed -n '1s/^prometheus, version \([0-9]*\)\.\([0-9]*\)\..*/\1 \2/p')
if [ -n "$pv" ] && { [ "${pv% *}" -gt 2 ] || [ "${pv#* }" -ge 48 ]; }; then
	exporter stale --backend sim:emr # (its pid: last_pid)
	st=$(sed -n 's/ .* stale$//p' "$W/targets")
	printf 'scrape_configs:\n' >"$W/stale.yml"
	for track in true false; do
		printf '  - job_name: track_%s\n    scrape_interval: 1s\n    scrape_timeout: 1s\n    track_timestamps_staleness: %s\n    static_configs: [{targets: ["%s"]}]\n' \
			$track $track "$st" >>"$W/stale.yml"
	done
	SP=$(port)
	API=http://127.0.0.1:$SP
	prometheus --config.file="$W/stale.yml" --storage.tsdb.path="$W/stale-tsdb" --web.listen-address=127.0.0.1:$SP \
		--log.level=warn >"$W/stale.log" 2>&1 &
	pids="$pids $!"
	series() { q "count(uncore_memory_read_bytes_total{job=\"track_$1\"})"; }
	# up to 3 minutes for Prometheus to start and scrape twice: on 2 cores beside another full run, 30 s
	# was once too few (its API not up yet: both counts 0, a failure that said nothing of staleness)
	for _ in $(seq 900); do [ "$(series true)" != 0 ] && [ "$(series false)" != 0 ] && break; sleep 0.2; done
	before="$(series true) $(series false)"
	kill "$last_pid"
	for _ in $(seq 900); do [ "$(q 'up{job="track_true"}')" = 0 ] && [ "$(q 'up{job="track_false"}')" = 0 ] && break; sleep 0.2; done
	# up = 0 and the staleness markers come in the same scrape's commit: a query now sees both
	after="$(series true) $(series false)"
	check "Prometheus $(echo $pv | tr ' ' .): a stopped exporter's series end with track_timestamps_staleness and stay without it (series before: $before, after: $after)" \
		'[ "${before% *}" -gt 0 ] && [ "${before#* }" = "${before% *}" ] && [ "${after% *}" = 0 ] && [ "${after#* }" = "${before#* }" ]' ||
		cat "$W/stale.log"
else
	echo "Prometheus ${pv:-?}: no track_timestamps_staleness (2.48 and later), not checked"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
