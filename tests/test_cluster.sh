#!/bin/sh
# A cluster into one Graphite (issue 36), on one machine: 16 simulated nodes of mixed platforms, each its
# own collectd (its Hostname, its simulated machine in a shared= file, its profile) with the intel_uncore
# plugin, sending through collectd's network plugin, signed with a shared secret, to an aggregating
# collectd, whose write_graphite feeds carbon-relay, consistent hashing over two carbon-cache instances,
# read back through graphite-web's render API.  Every node also keeps what it sent in collectd's csv
# plugin: Graphite must hold exactly that, every point equal to the node's truth, and a node stopped and
# restarted mid-run must show a gap of exactly its downtime.  A node with the wrong secret gets nothing
# in.  Then the Grafana dashboard's cluster panels, evaluated by graphite-web against the nodes' truths
# and rendered to PNG (tests/cluster_check.py does the checks over Graphite).
. "${top_srcdir:-.}/tests/graphite_env.sh"
install_plugin
chmod 700 "$W" # the secret below lives in it

# the nodes: host platform sockets; node i reads i GB/s on socket 0, 1.5 x that on socket 1 (and 2x, 2.5x
# on sockets 2 and 3), writes 0.4 x its reads: every node and socket differs, and the ranking by
# bandwidth is the node number
NODES="node01 snbep 2
node02 ivbep 2
node03 hsx 2
node04 bdx 2
node05 bdxde 1
node06 skx 2
node07 clx 2
node08 nhm 2
node09 emr 2
node10 spr 2
node11 gnr 2
node12 srf 2
node13 cwf 2
node14 emr 4
node15 snbep 2
node16 skx 2"
RESTART=node07                 # stopped and restarted mid-run
JOB="{node03,node09,node11,node14}" # the nodes of one job, as Grafana's host-list variable gives them
SECRET=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
[ ${#SECRET} -eq 32 ] || no "a 128-bit shared secret from /dev/urandom"

# --- carbon: a relay hashing over two caches, each with its own whisper tree
C=$W/carbon
RELAY_LINE=$(port) RELAY_PICKLE=$(port)
A_LINE=$(port) A_PICKLE=$(port) A_QUERY=$(port) B_LINE=$(port) B_PICKLE=$(port) B_QUERY=$(port)
carbon_cache_conf "$C"
mkdir -p "$C/a" "$C/b"
cat >>"$C/conf/carbon.conf" <<EOF
[cache:a]
LOCAL_DATA_DIR = $C/a/
LINE_RECEIVER_PORT = $A_LINE
PICKLE_RECEIVER_PORT = $A_PICKLE
CACHE_QUERY_PORT = $A_QUERY
[cache:b]
LOCAL_DATA_DIR = $C/b/
LINE_RECEIVER_PORT = $B_LINE
PICKLE_RECEIVER_PORT = $B_PICKLE
CACHE_QUERY_PORT = $B_QUERY
[relay]
# the relay's own directories (carbon reads [cache]'s for caches only: without them it made /usr/storage as
# root, and as another user it could not start)
STORAGE_DIR = $C/
PID_DIR = $C/
LOG_DIR = $C/log/
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $RELAY_LINE
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $RELAY_PICKLE
RELAY_METHOD = consistent-hashing
REPLICATION_FACTOR = 1
DESTINATIONS = 127.0.0.1:$A_PICKLE:a, 127.0.0.1:$B_PICKLE:b
MAX_QUEUE_SIZE = 100000
EOF
for i in a b; do
	carbon-cache --config="$C/conf/carbon.conf" --instance=$i --pidfile="$C/cache-$i.pid" --logdir="$C/log" \
		--nodaemon start >"$C/cache-$i.out" 2>&1 &
	pids="$! $pids"
done
carbon-relay --config="$C/conf/carbon.conf" --pidfile="$C/relay.pid" --logdir="$C/log" --nodaemon start \
	>"$C/relay.out" 2>&1 &
pids="$! $pids"
check "carbon-cache a and b listen on 127.0.0.1:$A_PICKLE and :$B_PICKLE" 'listening $A_PICKLE && listening $B_PICKLE' ||
	cat "$C"/cache-*.out
check "carbon-relay (consistent hashing over a and b) listens on 127.0.0.1:$RELAY_LINE" 'listening $RELAY_LINE' ||
	cat "$C/relay.out"

# --- the aggregating collectd: the network plugin accepts only signed packets from users of its AuthFile
NET_PORT=$(port)
mkdir -p "$W/agg"
(umask 077 && printf 'cluster: %s\n' "$SECRET" >"$W/agg/passwd")
{
	collectd_conf_head aggregator "$W/agg" "$W/agg/log"
	# a node's packet a stall of up to 10 intervals delayed still finds its series in the cache, so its rate
	# is not lost (collectd's default, 2, forgets a series after 2 intervals without a value)
	cat <<EOF
Timeout 10
LoadPlugin network
<Plugin network>
  <Listen "127.0.0.1" "$NET_PORT">
    SecurityLevel "Sign"
    AuthFile "$W/agg/passwd"
  </Listen>
</Plugin>
EOF
	write_graphite_conf "$RELAY_LINE"
} >"$W/agg/collectd.conf"
"$COLLECTD" -f -C "$W/agg/collectd.conf" >"$W/agg/out" 2>&1 &
agg_pid=$!
pids="$agg_pid $pids"

# --- the nodes: $1 host, $2 platform, $3 sockets, $4 the password it signs with
node_conf() {
	d=$W/$1
	mkdir -p "$d/csv"
	: >"$d/profile"
	for s in $(seq 0 $(($3 - 1))); do
		n=${1#node} n=${n#0}
		rd=$(awk -v n="${n:-0}" -v s=$s 'BEGIN { printf "%.6g", n * 1e9 * (1 + 0.5 * s) }')
		printf 'socket%d.mem_read_bytes_per_s = %s\nsocket%d.mem_write_bytes_per_s = %s\n' $s "$rd" $s \
			"$(awk -v r="$rd" 'BEGIN { printf "%.6g", 0.4 * r }')" >>"$d/profile"
	done
	collectd_conf_head "$1" "$d" "$d/log"
	cat <<EOF
LoadPlugin csv
<Plugin csv>
  DataDir "$d/csv"
  StoreRates false
</Plugin>
<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  <Server "127.0.0.1" "$NET_PORT">
    SecurityLevel "Sign"
    Username "cluster"
    Password "$4"
  </Server>
</Plugin>
PluginDir "$PLUGDIR"
<LoadPlugin intel_uncore>
  Interval 1
</LoadPlugin>
<Plugin intel_uncore>
  Backend "sim:$2,sockets=$3,profile=$d/profile,shared=$d/machine"
  MetricGroups "memory"
</Plugin>
EOF
}
# start node $1 (its conf written): its pid in node_<host>
start_node() {
	LD_PRELOAD=$PRELOAD "$COLLECTD" -f -C "$W/$1/collectd.conf" >>"$W/$1/out" 2>&1 &
	eval "node_$1=$!"
	pids="$! $pids"
}
# values node $1 has recorded so far (lines of its socket 0 read bandwidth csv)
recorded() { cat "$W/$1"/csv/*/intel_uncore-socket0/memory_bandwidth-mem_bw_read-* 2>/dev/null | grep -c '^[0-9]'; }
echo "$NODES" | while read -r host plat socks; do
	mkdir -p "$W/$host"
	node_conf "$host" "$plat" "$socks" "$SECRET" >"$W/$host/collectd.conf"
done
mkdir -p "$W/rogue01"
node_conf rogue01 emr 2 "not-$SECRET" >"$W/rogue01/collectd.conf" # signs with the wrong secret
for host in $(echo "$NODES" | cut -d' ' -f1) rogue01; do start_node $host; done
check "the shared secret is readable by its owner only (the aggregator's AuthFile $(stat -c %a "$W/agg/passwd"), the nodes' confs in a directory of mode $(stat -c %a "$W"))" \
	'[ "$(stat -c %a "$W/agg/passwd")" = 600 ] && [ "$(stat -c %a "$W")" = 700 ]'

# run: stop $RESTART once it has 8 values, start it again 5 s later, then run until every node has 20
# values and $RESTART 8 since its restart (at most 240 s: a loaded machine slows the start, not the counts)
t0=$(date +%s) phase=up
while :; do
	now=$(date +%s) n=$(recorded $RESTART)
	if [ $phase = up ] && [ "$n" -ge 8 ]; then
		eval "kill -TERM \$node_$RESTART; wait \$node_$RESTART"
		phase=down stopped=$now before=$n
		echo "$RESTART stopped after $n values ($((now - t0)) s)"
	elif [ $phase = down ] && [ $((now - stopped)) -ge 5 ]; then
		start_node $RESTART
		phase=again
		echo "$RESTART started again ($((now - t0)) s)"
	elif [ $phase = again ] && [ "$n" -ge $((before + 8)) ]; then
		short=$(for h in $(echo "$NODES" | cut -d' ' -f1); do [ "$(recorded $h)" -lt 20 ] && echo $h; done | head -1)
		[ -z "$short" ] && break
	fi
	[ $((now - t0)) -ge 240 ] && break
	sleep 0.5
done
ran=$(($(date +%s) - t0))
check "every node recorded 20 values, $RESTART 8 after its restart, within 240 s (${ran} s; ${short:+short: $short, }phase $phase)" \
	'[ $phase = again ] && [ -z "$short" ] && [ $ran -lt 240 ]'
# stop the nodes; each must shut down cleanly
for host in $(echo "$NODES" | cut -d' ' -f1) rogue01; do
	eval "p=\$node_$host"
	kill -TERM "$p"
	wait "$p"
	rc=$?
	[ $rc -eq 0 ] || no "$host: collectd shut down cleanly on SIGTERM (rc $rc)" || tail -5 "$W/$host/out"
	grep -Eiq "\[error\]|failed" "$W/$host/log" && { no "$host: no error in its log"; grep -Ei "\[error\]|failed" "$W/$host/log" | head -3; }
done
check "every node's plugin started on its simulator" \
	'[ "$(grep -l "intel_uncore plugin: [0-9]* values from .*SIMULATED" "$W"/node*/log | wc -l)" -eq 16 ]'
check "the aggregator logged the wrong secret of rogue01" 'grep -q "network plugin: .*[Ss]ignature\|network plugin: .*verif" "$W/agg/log"' ||
	tail -5 "$W/agg/log"

graphite_web "$W/web" "['$C/a', '$C/b']" "['127.0.0.1:$A_QUERY:a', '127.0.0.1:$B_QUERY:b']"
pids="$web_pid $pids"
check "graphite-web listens on 127.0.0.1:$WEB_PORT" 'listening $WEB_PORT' || tail -20 "$W/web/migrate.log" "$W/web/server.log"

# the nodes as cluster_check.py reads them
echo "$NODES" | while read -r host plat socks; do echo "$host $plat $socks $W/$host"; done >"$W/nodes"
PNG=${top_builddir:-.}/cluster-png # apart from test_collectd.sh's dashboard-png/: they may run at once
rm -rf "$PNG"
mkdir -p "$PNG"
$PY "${top_srcdir:-.}/tests/cluster_check.py" "http://127.0.0.1:$WEB_PORT" "$W/nodes" "$RESTART" "$JOB" "$C/a" "$C/b" \
	"${top_srcdir:-.}/collectd_plugin/grafana/intel_uncore.json" "$PNG" >"$W/check.out" 2>&1
cat "$W/check.out"
pass=$((pass + $(grep -c '^PASS' "$W/check.out"))) fail=$((fail + $(grep -c '^FAIL' "$W/check.out")))
check "the Graphite checks ran to their end" 'grep -q "^cluster_check: " "$W/check.out"'
check "no series of rogue01 in Graphite" '[ -z "$(find "$C/a" "$C/b" -path "*rogue01*")" ]'
# a failed check above: what the aggregator, the relay and the caches said (values dropped as too old, a
# full queue, a lost connection), and the host's UDP drops, for the next reader of this log
if grep -q '^FAIL' "$W/check.out"; then
	echo "--- on failure: the aggregator's warnings and errors"
	grep -E '\[(warning|error)\]' "$W/agg/log" | grep -v rogue01 | tail -20
	echo "--- the relay's and caches' logs"
	find "$C/log" -name '*.log' -exec grep -HiE 'drop|full|lost|refus|error' {} + 2>/dev/null | tail -20
	echo "--- UDP: $(grep -A1 '^Udp:' /proc/net/snmp | tail -1)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
