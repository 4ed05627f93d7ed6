#!/bin/sh
# The exporter's peak DRAM bandwidth (issue 91 point 4, doc/prometheus.md "Peak bandwidth"): per socket
# uncore_memory_peak_bytes_per_second and uncore_memory_peak_share_ratio, gauges with their HELP, each against a
# figure worked out here by hand -- the simulated boards' populations (doc/memory.md "On the simulator": sim:icx
# 8 channels x DDR4-3200 x 8 bytes = 204.8e9 B/s a socket, sim:skx 6 x DDR4-2666 x 8 = 127.968e9) and the
# profile's bandwidth (socket 0 40.96e9 + 10.24e9 = 51.2e9 B/s, 0.25 of 204.8e9; socket 1 61.44e9 + 20.48e9 =
# 81.92e9, 0.4) -- and absent, not 0, where the peak is not known (edac=off: no EDAC driver).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
EXP=$B/uncore-exporter
CHECKS="python3 ${top_srcdir:-.}/tests/prometheus_checks.py"
[ -x "$EXP" ] || { echo "SKIP: the exporter was not built (configure --with-exporter)"; exit 77; }
exp_pid=
trap 'kill $exp_pid 2>/dev/null; wait $exp_pid 2>/dev/null; rm -rf "$W"' EXIT
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(a != "" && b > 0 && (a - b) / b < t && (b - a) / b < t) }'; }

. "$(dirname "$0")/exporter_start.sh" # start: $EXP on a free port, $PORT, $exp_pid
stop() {
	kill -TERM $exp_pid
	wait $exp_pid
	exp_pid=
}
# the value of family $1 with labels $2 in the scrape $3
value() { sed -n "s/^$1{$2} \([^ ]*\).*/\1/p" "$3"; }

printf 'socket0.mem_read_bytes_per_s = 40.96e9\nsocket0.mem_write_bytes_per_s = 10.24e9\n' >"$W/profile"
printf 'socket1.mem_read_bytes_per_s = 61.44e9\nsocket1.mem_write_bytes_per_s = 20.48e9\n' >>"$W/profile"
start --backend "sim:icx,profile=$W/profile" --interval 0.2 || no "the exporter on sim:icx"
$CHECKS reads $PORT 3 # the share needs an interval: two reads
$CHECKS scrape $PORT >"$W/text" 2>&1
$CHECKS scrape $PORT application/openmetrics-text >"$W/om" 2>&1
stop
p0=$(value uncore_memory_peak_bytes_per_second 'socket="0"' "$W/text")
p1=$(value uncore_memory_peak_bytes_per_second 'socket="1"' "$W/text")
check "sim:icx: uncore_memory_peak_bytes_per_second of each socket 8 x 3200e6 x 8 = 204.8e9 ($p0, $p1)" \
	'[ "$p0" = 204800000000 ] && [ "$p1" = 204800000000 ]'
s0=$(value uncore_memory_peak_share_ratio 'socket="0"' "$W/text")
s1=$(value uncore_memory_peak_share_ratio 'socket="1"' "$W/text")
check "uncore_memory_peak_share_ratio: socket 0 51.2 of 204.8 = 0.25, socket 1 81.92 of 204.8 = 0.4, within 0.5 % ($s0, $s1)" \
	'near "$s0" 0.25 0.005 && near "$s1" 0.4 0.005'
check "both gauges, with their HELP" \
	'grep -q "^# TYPE uncore_memory_peak_bytes_per_second gauge$" "$W/text" &&
	 grep -q "^# TYPE uncore_memory_peak_share_ratio gauge$" "$W/text" &&
	 grep -q "^# HELP uncore_memory_peak_bytes_per_second The socket.s peak DRAM bandwidth: its channels holding DIMMs" "$W/text" &&
	 grep -q "^# HELP uncore_memory_peak_share_ratio The socket.s DRAM bandwidth (read and written)" "$W/text"'
check "OpenMetrics: their units bytes_per_second and ratio" \
	'grep -q "^# UNIT uncore_memory_peak_bytes_per_second bytes_per_second$" "$W/om" &&
	 grep -q "^# UNIT uncore_memory_peak_share_ratio ratio$" "$W/om"'
if command -v promtool >/dev/null 2>&1; then
	lint=$(tail -n +2 "$W/text" | promtool check metrics 2>&1)
	check "promtool check metrics finds nothing to say${lint:+ ($lint)}" '[ -z "$lint" ]'
fi

# --sockets 1: the memory's metrics are socket 1's, and the share's too (its counters theirs)
start --backend "sim:icx,profile=$W/profile" --interval 0.2 --sockets 1 || no "the exporter on sim:icx --sockets 1"
$CHECKS reads $PORT 3
$CHECKS scrape $PORT >"$W/text" 2>&1
stop
s1=$(value uncore_memory_peak_share_ratio 'socket="1"' "$W/text")
check "--sockets 1: socket 1's peak and its share 0.4 within 0.5 % ($s1), no socket 0's" \
	'[ "$(value uncore_memory_peak_bytes_per_second "socket=\"1\"" "$W/text")" = 204800000000 ] && near "$s1" 0.4 0.005 &&
	 ! grep -q "^uncore_memory_peak.*socket=\"0\"" "$W/text"'

start --backend "sim:skx,profile=$W/profile" --interval 0.2 || no "the exporter on sim:skx"
$CHECKS reads $PORT 3
$CHECKS scrape $PORT >"$W/text" 2>&1
stop
p0=$(value uncore_memory_peak_bytes_per_second 'socket="0"' "$W/text")
s1=$(value uncore_memory_peak_share_ratio 'socket="1"' "$W/text")
check "sim:skx: 6 x 2666e6 x 8 = 127.968e9 ($p0); socket 1's share 81.92 of 127.968 = 0.640163 within 0.5 % ($s1)" \
	'[ "$p0" = 127968000000 ] && near "$s1" 0.640163 0.005'

start --backend "sim:icx,edac=off,profile=$W/profile" --interval 0.2 || no "the exporter on sim:icx,edac=off"
$CHECKS reads $PORT 3
$CHECKS scrape $PORT >"$W/text" 2>&1
stop
check "sim:icx,edac=off: neither family (absent, not 0), the memory's series there, and the log says why" \
	'! grep -q "uncore_memory_peak" "$W/text" && grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}" "$W/text" &&
	 grep -q "no uncore_memory_peak_bytes_per_second{socket=\"0\"}: .*no EDAC driver loaded" "$W/exp.log"'

# a hostile EDAC tree (issue 96 point 5): every mc_name holding a colour (CSI 31m), a bidirectional override and
# C1's CSI, so the peak is unknown and the log's reason quotes one; the log shows none of them raw
UNCORE=$B/uncore
$UNCORE --backend sim:icx snapshot -o "$W/pop.tar" >/dev/null 2>"$W/err" || no "a snapshot of sim:icx: $(cat "$W/err")"
mkdir -p "$W/bad" && tar -C "$W/bad" -xf "$W/pop.tar"
for m in "$W"/bad/sys/devices/system/edac/mc/mc*/mc_name; do printf 'Intel_10nm\033[31m\342\200\256\302\233 Socket#0 IMC#0\n' >"$m"; done
(cd "$W/bad" && tar -cf "$W/bad.tar" -- *)
$EXP --backend "replay:$W/bad.tar" --check-config >/dev/null 2>"$W/log"
raw() { LC_ALL=C grep -c "$(printf '[\001-\010\013-\037\177]\\|\302[\200-\237]\\|\342\200[\216\217\252-\256]\\|\342\201[\246-\251]\\|\330\234')" "$1"; }
check "hostile mc_names: the log says the peak is unknown quoting one escaped, none raw ($(raw "$W/log") lines)" \
	'[ "$(raw "$W/log")" -eq 0 ] &&
	 grep -qF "uncore-exporter: no uncore_memory_peak_bytes_per_second{socket=\"0\"}: " "$W/log" &&
	 grep -qF "mc_name '"'"'Intel_10nm\x1b[31m\u202e\u009b Socket#0 IMC#0'"'"'" "$W/log"' || head -c 600 "$W/log"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
