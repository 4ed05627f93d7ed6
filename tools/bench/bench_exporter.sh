#!/bin/sh
# make bench: uncore-exporter's cost per read (its own uncore_exporter_read_seconds_total over
# uncore_exporter_reads_total) and per scrape (1000 scrapes, one connection each), on the 2-socket
# simulated Emerald Rapids and Granite Rapids with the default set: the figures to set beside
# collectd-bench's per-read cost of the plugin.
B=${1:-.}
for plat in emr gnr; do
	"$B/uncore-exporter" --backend sim:$plat --listen 127.0.0.1:0 --interval 0.01 2>"$B/bench-exporter.log" &
	pid=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$B/bench-exporter.log")
		[ -n "$port" ] && break
		sleep 0.1
	done
	sleep 3
	python3 - "$port" "$plat" <<'PY'
import re, sys, time, urllib.request
port, plat = int(sys.argv[1]), sys.argv[2]
def scrape():
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port) as r:
        return r.read().decode()
text = scrape()
v = {m.group(1): float(m.group(2)) for m in re.finditer(r"^(uncore_exporter_\w+) (\S+)$", text, re.M)}
n = 1000
t0 = time.perf_counter()
for _ in range(n):
    size = len(scrape())
dt = (time.perf_counter() - t0) / n
series = sum(1 for l in text.splitlines() if l and not l.startswith("#"))
print("uncore-exporter sim:%-4s %3d series: %7.1f us a read (%d reads at 100 Hz), %7.1f us a scrape of %d bytes "
      "(client included)" % (plat, series, 1e6 * v["uncore_exporter_read_seconds_total"] / v["uncore_exporter_reads_total"],
                             v["uncore_exporter_reads_total"], 1e6 * dt, size))
PY
	kill $pid
	wait $pid 2>/dev/null
done
rm -f "$B/bench-exporter.log"
