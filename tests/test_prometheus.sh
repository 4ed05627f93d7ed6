#!/bin/sh
# Debian's Prometheus on 127.0.0.1 scraping uncore-exporter on every built-in platform, on sim: and
# perf+sim: where it exists, at scrape intervals of 1, 3 and 7 s: rate() and increase() through its HTTP API
# equal the simulator's truth within 1 % at instants that fall anywhere between scrapes, and every gauge;
# the recording rules pass promtool and sum the cluster's and the jobs' traffic right.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
S=$(cd "${top_srcdir:-.}" && pwd) B=${top_builddir:-.}
EXP=$B/uncore-exporter TRUTH=$B/tests/prom_truth
CHECKS="python3 $S/tests/prometheus_checks.py"
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; for p in $pids; do wait $p 2>/dev/null; done; rm -rf "$W"' EXIT # all stop at once
if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
	echo "FAIL: Debian's prometheus is not installed (scripts/install-deps installs it)"
	exit 1
fi
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start an exporter named $1 with the rest as options (all start at once: exporters_up waits for them)
started=
exporter() {
	name=$1
	shift
	"$EXP" --listen 127.0.0.1:0 "$@" 2>"$W/$name.log" &
	pids="$pids $!" started="$started $name:$!"
}
# each started exporter's port, once it listens: appends "127.0.0.1:PORT truthfile name" to $W/targets
exporters_up() {
	for s in $started; do
		name=${s%:*} ep=
		for _ in $(seq 1200); do
			ep=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/$name.log")
			[ -n "$ep" ] && break
			kill -0 ${s#*:} 2>/dev/null || break
			sleep 0.05
		done
		[ -n "$ep" ] || { cat "$W/$name.log"; no "$name: the exporter started"; continue; }
		echo "127.0.0.1:$ep $W/truth-${name#*-} $name" >>"$W/targets"
	done
	started=
}

# the collectd plugin installed as a site installs it (below), meanwhile
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
make -s -C "$B" install-data DESTDIR="$W/stage" >"$W/install.log" 2>&1 &
install_pid=$!

# --- the truth: socket 0 reads 6.4e9 B/s, socket 1 12.8e9; the rest the simulator's defaults
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket1.mem_read_bytes_per_s = 12.8e9\n' >"$W/profile2"
printf 'socket0.mem_read_bytes_per_s = 6.4e9\n' >"$W/profile1" # Broadwell-DE has one socket
: >"$W/targets"
for plat in snbep ivbep hsx bdx bdxde skx clx icx spr emr gnr srf cwf nhm montecito; do
	profile=$W/profile2
	[ $plat = bdxde ] && profile=$W/profile1
	# energy: the default set counts it (package and DRAM) where the platform has RAPL
	"$TRUTH" "sim:$plat,profile=$profile" energy >"$W/truth-$plat" || no "prom_truth sim:$plat"
	exporter "sim-$plat" --backend "sim:$plat,profile=$profile"
	[ $plat = montecito ] || exporter "perf+sim-$plat" --backend "perf+sim:$plat,profile=$profile"
done
exporters_up
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
exporters_up
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
wait $install_pid || { cat "$W/install.log"; no "make install-data"; }
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
	printf 'global:\n  evaluation_interval: 1s\nrule_files: ["%s"]\nscrape_configs:\n' "$RULES"
	ctargets=$(awk '{printf "%s\"%s\"", (NR > 1 ? ", " : ""), $1}' "$W/targets-collectd")
	printf '  - job_name: collectd\n    scrape_interval: 5s\n    static_configs: [{targets: [%s]}]\n' "$ctargets"
	for i in 1 3 7; do
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
# a Prometheus this test started answers its API once /-/ready says so: up to 60 s (on 2 cores beside a second
# full run, it took 12 s), said where it does not; no query goes to one before
ready() { # API: whether it became ready
	for _ in $(seq 300); do
		curl -sf "$1/-/ready" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}
check "Prometheus is ready on 127.0.0.1:$PP" 'ready "$API"' || cat "$W/prometheus.log"

# until every target of the 7 s job has 8 scrapes: a 28 s window at the earliest instant below (15.4 s back)
# then starts after its first sample; and until the recording rules' 1 m window over the 7 s job is full
# (their newest evaluation a minute after every target's first sample)
# (a query the server does not answer, or answers with no JSON, prints nothing: never taken for a 0)
q() { curl -sf --data-urlencode "query=$1" "$API/api/v1/query" | python3 -c 'import json,sys
try: r = json.load(sys.stdin)["data"]["result"]
except ValueError: sys.exit(0)
print(r[0]["value"][1] if r else 0)'; }
RULE='cluster:uncore_memory_read_bytes:rate1m{job="s7"}'
start=$(date +%s) have=0 full=
while [ $(($(date +%s) - start)) -lt ${PROM_WAIT:-300} ]; do
	have=$(q 'count(count_over_time(up{job="s7"}[10m]) >= 8)')
	[ "${have%.*}" -ge 29 ] 2>/dev/null && full=$($CHECKS filled "$API" "$RULE" s7 60) && break
	sleep 0.5
done
check "every target has 8 scrapes of the 7 s job ($(($(date +%s) - start)) s); ${full:-the rule over it not yet evaluated over a full minute}" \
	'[ "${have%.*}" -ge 29 ] && [ -n "$full" ]'
up=$(q 'count(up == 1)')
check "every target is up in every job ($up of 89, collectd's two with them)" '[ "${up%.*}" -eq 89 ]' || {
	tail -5 "$W/prometheus.log"
	curl -s "$API/api/v1/targets" | python3 -c 'import json, sys
for t in json.load(sys.stdin)["data"]["activeTargets"][:5]: print(t["scrapeUrl"], t["health"], t["lastError"])'
}
errs=$(q 'sum(scrape_samples_post_metric_relabeling) > 0 and sum(up == 0)')
out=$($CHECKS rates "$API" "$W/targets" s1:4:1.2,s3:12:3.5,s7:28:7.7 0,2.3,4.9,7.7)
rc=$?
echo "$out"
check "rate() and increase() of every counter and every gauge equal the truth at every scrape interval" '[ $rc -eq 0 ]'
# the rules: the cluster's read bandwidth is the sum of every target's, each job's interval counted once
want=$(for f in $(awk '{print $2}' "$W/targets"); do sort -u "$f"; done | awk '$1 == "uncore_memory_read_bytes_total" && $2 !~ /port/ { s += $4 } END { printf "%.6g", s }')
got=$(q "$RULE")
check "the recording rule cluster:uncore_memory_read_bytes:rate1m = $got B/s, the targets' sum $want within 1 %" \
	'python3 -c "import sys; g, w = map(float, sys.argv[1:]); sys.exit(abs(g - w) > 0.01 * w)" "$got" "$want"'

# --- collectd's write_prometheus: its shape (doc/prometheus.md), and the bandwidth through rate()
# (the truth over the time rate() extrapolates the window's samples to: a scrape that came late on a loaded
# machine leaves an edge it does not reach, prometheus_checks.py covered)
for b in sim:emr perf+sim:emr; do
	for spec in "socket0 mem_bw_read 6.4e9" "socket1 mem_bw_read 12.8e9" "socket1 mem_bw_write 9.6e9"; do
		set -- $spec
		echo "collectd_intel_uncore_memory_bandwidth_total{exported_instance=\"cn-$b\",intel_uncore=\"$1\",type=\"$2\"} $3"
	done
done >"$W/wp-specs"
# one check a value, at now-5.5 s less 0, 3.1 and 7.3 s
$CHECKS rates_covered "$API" 20 5.5 0,3.1,7.3 "$W/wp-specs" >"$W/wp-out"
while read -r verdict what; do
	check "write_prometheus: $what" '[ "$verdict" = ok ]'
done <"$W/wp-out"
[ "$(grep -c . "$W/wp-out")" -eq 18 ] || no "write_prometheus: 18 values checked, not $(grep -c . "$W/wp-out")"

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
	exporter stale --backend sim:emr
	last_pid=${started#*:}
	exporters_up
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
	# Prometheus 2.53 (Debian 13) on a loaded machine answered a query before it was ready with an empty reply:
	# so it is waited for (ready, above), then up to 3 minutes more for both jobs' series (an empty answer is not
	# a count: both must be numbers above 0)
	if ! ready "$API"; then
		no "the second Prometheus (staleness) is ready on 127.0.0.1:$SP within 60 s"
		cat "$W/stale.log"
	fi
	for _ in $(seq 900); do [ "$(series true)" -gt 0 ] 2>/dev/null && [ "$(series false)" -gt 0 ] 2>/dev/null && break; sleep 0.2; done
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
