#!/bin/sh
# The exporter follows the node changing under it (issue 99 point 2): the simulator's changes file takes a PCI device
# away, a CPU offline and the clock limits down, and brings them back, empties a memory channel, and (perf+sim)
# reloads the uncore PMU driver; each change said in one line, the removed device's series dropped and started
# again, the limits' gauge and the peak the simulator's new ones, and the memory counters' totals going on across
# each change (never back, never a re-read of the whole count: at most the profile's rate
# over the scrapes' own timestamps).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
EXP=$B/uncore-exporter
[ -x "$EXP" ] || { echo "SKIP: the exporter was not built (configure --with-exporter)"; exit 77; }
exp_pid=
trap 'kill $exp_pid 2>/dev/null; wait $exp_pid 2>/dev/null; rm -rf "$W"' EXIT
. "$(dirname "$0")/exporter_start.sh" # start: $EXP on a free port, $PORT, $exp_pid
scrape() { curl -s "http://127.0.0.1:$PORT/metrics" >"$1"; }
mem() { sed -n 's/^uncore_memory_read_bytes_total{socket="0"} \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$1"; }
# the count moved between two scrapes, within the profile's 1e9 B/s over their timestamps' span (+1 % and a read)
within() {
	set -- $(mem "$1") $(mem "$2")
	awk -v a="$1" -v ta="$2" -v b="$3" -v tb="$4" 'BEGIN { exit !(b > a && b - a <= 1e9 * 1.01 * (tb - ta) / 1e3 + 2e8) }'
}
changed() { log_says "$W/exp.log" "the node changed ($1)" $exp_pid; }

printf 'socket0.mem_read_bytes_per_s = 1e9\n' >"$W/profile"
: >"$W/changes"
start --backend "sim:spr,profile=$W/profile,changes=$W/changes" --interval 0.2 || no "the exporter on sim:spr"
sleep 1
scrape "$W/m0"
check "the NVMe at 0000:12:00.0 has its IIO series" 'grep -q "pci_bdf=\"0000:12:00.0\"" "$W/m0"'
echo "device 0000:12:00.0 remove" >>"$W/changes"
check "the device's removal said in one line" 'changed devices && grep -q "the node changed (devices): 62 series, 2 gone, 0 new" "$W/exp.log"'
sleep 0.5
scrape "$W/m1"
check "its series dropped, the others kept" '! grep -q "0000:12:00.0" "$W/m1" && grep -q "pci_bdf=" "$W/m1"'
check "socket 0's memory total goes on across the change, at the profile's rate" 'within "$W/m0" "$W/m1"'
printf 'cpu 0 offline\nufreq 800 1800\n' >>"$W/changes"
check "a CPU offline and the limits rewritten said in one line" 'changed "cpus, clock limits"'
sleep 0.5
scrape "$W/m2"
check "the limits' gauge is the simulator's new 1.8 GHz" 'grep -q "^uncore_frequency_limit_max_hertz{.*} 1.8e+09" "$W/m2" || grep -q "^uncore_frequency_limit_max_hertz{.*} 1800000000" "$W/m2"'
check "socket 0 read on another CPU, its total going on" 'within "$W/m1" "$W/m2"'
printf 'cpu 0 online\ndevice 0000:12:00.0 add\n' >>"$W/changes"
check "both back, said in one line" 'changed "cpus, devices" && grep -q "the node changed (cpus, devices): 64 series, 0 gone, 2 new" "$W/exp.log"'
sleep 0.5
scrape "$W/m3"
check "the device's series started again" 'grep -q "pci_bdf=\"0000:12:00.0\"" "$W/m3"'
check "socket 0's total still going on" 'within "$W/m2" "$W/m3"'
# the board's 8 channels a socket of DDR5-4800 (doc/memory.md "On the simulator"): 8 x 4800e6 x 8 B = 307.2e9 B/s;
# socket 0's first channel emptied, 7 x 4800e6 x 8 = 268.8e9
check "socket 0's peak before: its 8 channels" 'grep -q "^uncore_memory_peak_bytes_per_second{socket=\"0\"} 307200000000$" "$W/m3"'
echo "dimms 01111111/11111111" >>"$W/changes"
check "EDAC's population changed, said in one line" 'changed memory'
sleep 0.5
scrape "$W/m4"
check "socket 0's peak over its 7 channels left, socket 1's as it was" \
	'grep -q "^uncore_memory_peak_bytes_per_second{socket=\"0\"} 268800000000$" "$W/m4" &&
	 grep -q "^uncore_memory_peak_bytes_per_second{socket=\"1\"} 307200000000$" "$W/m4"'
check "socket 0's total going on" 'within "$W/m3" "$W/m4"'
kill -TERM $exp_pid
wait $exp_pid
exp_pid=

# perf+sim: the uncore PMU driver reloaded, its PMUs' type numbers new; the events opened again with them
: >"$W/changes"
start --backend "perf+sim:spr,profile=$W/profile,changes=$W/changes" --interval 0.2 || no "the exporter on perf+sim:spr"
sleep 1
scrape "$W/p0"
echo "pmu reload" >>"$W/changes"
check "the driver's reload said in one line" 'changed pmus && grep -q "the node changed (pmus): 64 series, 0 gone, 0 new" "$W/exp.log"'
sleep 0.5
scrape "$W/p1"
check "socket 0's total going on across the reload, at the profile's rate" 'within "$W/p0" "$W/p1"'
kill -TERM $exp_pid
wait $exp_pid
exp_pid=
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
