# Sourced by test_collectd.sh and test_cluster.sh: their checks (ok, no, check; pass and fail count
# them), a private directory $W, the plugin installed as a site installs it, and the Graphite servers
# (carbon, graphite-web) on 127.0.0.1 with private directories under $W.  Sets PLUGDIR, SO, PRELOAD, STOCK
# and PY (install_plugin the first four).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
# the servers and daemons a test started, or the $variables holding their pids: stopped with the test,
# however it ends
pids=
cleanup() {
	for p in $(eval echo "$pids"); do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset UNCORE_BACKEND
PY=/usr/bin/python3 # Debian's python3-whisper, carbon and graphite-web live in the system interpreter
COLLECTD=${COLLECTD:-/usr/sbin/collectd}

# make install-data into $W/stage: the plugin where collectd looks for it, and the example conf
install_plugin() {
	make -s -C "${top_builddir:-.}" install-data DESTDIR="$W/stage" >"$W/install.log" 2>&1 ||
		{ cat "$W/install.log"; no "make install-data"; }
	PLUGDIR=$W/stage$collectdplugindir
	SO=$PLUGDIR/intel_uncore.so
	# an ASan build of the plugin needs the sanitizer runtime loaded first
	PRELOAD=
	if ldd "$SO" | grep -q libasan; then
		PRELOAD=$(cc -print-file-name=libasan.so)
		export ASAN_OPTIONS=detect_leaks=0 # the daemon's own allocations at exit are not ours to judge
	fi
	STOCK=$("$COLLECTD" -h | sed -n 's/^ *Plugin directory *//p') # collectd's own plugins
}

# the start of a collectd.conf: $1 host name, $2 its directory (BaseDir, PIDFile), $3 its log file;
# Interval 1, collectd's own plugins, one write thread (doc/collectd.md: collectd 5.12 works a DERIVE's
# rate out in the write thread that takes the value, and write_graphite asks the cache for the rate
# afterwards: two write threads taking two values of one series at once repeat one rate at both stamps or
# drop the older value, which the cluster test caught as a doubled first point)
collectd_conf_head() {
	cat <<EOF
Hostname "$1"
FQDNLookup false
Interval 1
WriteThreads 1
BaseDir "$2"
PIDFile "$2/collectd.pid"
PluginDir "$STOCK"
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$3"
  Timestamp true
  PrintSeverity true
</Plugin>
EOF
}

# write_graphite to 127.0.0.1:$1 as the docs set it up: Prefix "collectd.", rates, separate instances
write_graphite_conf() {
	cat <<EOF
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$1"
    Protocol "tcp"
    Prefix "collectd."
    StoreRates true
    SeparateInstances true
  </Node>
</Plugin>
EOF
}

# a free TCP port on 127.0.0.1
port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# does a server listen on 127.0.0.1:$1 (within 20 s)?
listening() {
	for _ in $(seq 100); do
		$PY -c "import socket; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# $1/conf/carbon.conf with its [cache] section for whisper files under $1/whisper/ (logs, pids and lists
# under $1), one point per second kept for an hour, written as soon as they arrive; the caller appends the
# ports and any other section
carbon_cache_conf() {
	mkdir -p "$1/conf" "$1/whisper" "$1/lists" "$1/log"
	printf '[test]\npattern = .*\nretentions = 1s:1h\n' >"$1/conf/storage-schemas.conf"
	cat >"$1/conf/carbon.conf" <<EOF
[cache]
STORAGE_DIR = $1/
LOCAL_DATA_DIR = $1/whisper/
WHITELISTS_DIR = $1/lists/
CONF_DIR = $1/conf/
LOG_DIR = $1/log/
PID_DIR = $1/
DATABASE = whisper
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 1000
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
CACHE_QUERY_INTERFACE = 127.0.0.1
LOG_CREATES = True
WHISPER_AUTOFLUSH = True
EOF
}

# Debian's graphite-web on 127.0.0.1:$WEB_PORT (sets WEB_PORT and web_pid) with private settings under
# $1, over the whisper directories $2 (a Python list of strings) and the carbon-caches $3 (a Python list
# of "host:port:instance" for their cache queries, [] for none)
graphite_web() {
	mkdir -p "$1/log"
	cat >"$1/iu_graphite_settings.py" <<EOF
SECRET_KEY = 'test-only'
GRAPHITE_ROOT = '/usr/share/graphite-web'
CONF_DIR = '$1'
STORAGE_DIR = '$1'
STANDARD_DIRS = $2
WHISPER_DIR = STANDARD_DIRS[0]
CARBONLINK_HOSTS = $3
LOG_DIR = '$1/log'
INDEX_FILE = '$1/index'
STATIC_ROOT = '/usr/share/graphite-web/static'
DATABASES = {'default': {'NAME': '$1/graphite.db', 'ENGINE': 'django.db.backends.sqlite3'}}
ALLOWED_HOSTS = ['127.0.0.1']
EOF
	WEB_PORT=$(port)
	# env execs python: $! is the server itself (a shell function in the background would put a
	# subshell between, and the kill would reach only that)
	gw_dir=$1
	set -- env PYTHONPATH="$gw_dir" GRAPHITE_SETTINGS_MODULE=iu_graphite_settings DJANGO_SETTINGS_MODULE=graphite.settings \
		$PY -m django
	"$@" migrate --run-syncdb -v0 >"$gw_dir/migrate.log" 2>&1
	"$@" runserver --noreload "127.0.0.1:$WEB_PORT" >"$gw_dir/server.log" 2>&1 &
	web_pid=$!
}
