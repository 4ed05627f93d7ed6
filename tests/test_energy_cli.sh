#!/bin/sh
# Energy in the front ends (issue 68 point 1, doc/energy.md): uncore stat's energy_pkg, energy_dram (J) and
# power_pkg, power_dram (W) on sim: and perf+sim: equal the profile's watts (socket0 150 W package, 10 W DRAM;
# socket1 200 W and 12 W: the simulator's truth) over 10 s and in each -I interval; uncore list --metrics lists
# them; the exporter's uncore_energy_joules_total{socket,domain} rises at the profile's watts between two scrapes
# (over the samples' own times); Nehalem-EP and Montecito say they cannot read energy.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore EXP=$B/uncore-exporter
exp_pid=
trap 'kill $exp_pid 2>/dev/null; wait $exp_pid 2>/dev/null; rm -rf "$W"' EXIT
printf 'socket0.pkg_watts = 150\nsocket1.pkg_watts = 200\nsocket0.dram_idle_watts = 10\nsocket1.dram_idle_watts = 12
socket0.dram_watts_per_gbps = 0\nsocket1.dram_watts_per_gbps = 0\n' >"$W/profile"

# "metric socket value" lines of a JSON run
rows() { python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print(r["metric"], r["socket"], "%.6f" % r["value"])'; }
# whether every row of metric m on socket s is want within 10 parts in 1e6: the TPMI power PMU of GNR and later adds
# 262143 x 2^-32 J for each 2^-14 J (intel_rapl_common.c's whole-nanojoule unit), 3.8 ppm short
near() { awk -v m="$2" -v s="$3" -v w="$4" '$1 == m && $2 == s { n++; d = $3 - w; if (d < 0) d = -d; if (d > 1e-5 * w) bad++ }
	END { exit !(n > 0 && !bad) }' "$1"; }

for b in sim:snbep sim:skx perf+sim:skx sim:spr perf+sim:gnr sim:cwf; do
	$UNCORE --backend "$b,profile=$W/profile,clock=manual" stat -M energy_pkg,energy_dram,power_pkg,power_dram \
		--duration 10 --json 2>"$W/err" | rows >"$W/r"; rc=$?
	check "$b: energy_pkg 1500 J and 2000 J, energy_dram 100 J and 120 J over 10 s ($(tr '\n' ' ' <"$W/r"))" \
		'[ $rc -eq 0 ] && near "$W/r" energy_pkg 0 1500 && near "$W/r" energy_pkg 1 2000 &&
		 near "$W/r" energy_dram 0 100 && near "$W/r" energy_dram 1 120' || cat "$W/err"
	check "$b: power_pkg 150 W and 200 W, power_dram 10 W and 12 W" \
		'near "$W/r" power_pkg 0 150 && near "$W/r" power_pkg 1 200 && near "$W/r" power_dram 0 10 && near "$W/r" power_dram 1 12'
done
# each -I interval its own: 3 intervals of 2 s, 300 J and 150 W on socket 0; energy beside a memory metric
$UNCORE --backend "sim:icx,profile=$W/profile,clock=manual" stat -M mem_bw_read,energy_pkg,power_pkg -I 2000 \
	--duration 6 --json 2>"$W/err" | rows >"$W/r"; rc=$?
check "sim:icx -I 2000: three intervals of 300 J and 150 W on socket 0 beside mem_bw_read" \
	'[ $rc -eq 0 ] && [ "$(grep -c "^energy_pkg 0 " "$W/r")" -eq 3 ] && near "$W/r" energy_pkg 0 300 && near "$W/r" power_pkg 0 150 &&
	 grep -q "^mem_bw_read 0 " "$W/r"' || cat "$W/err" "$W/r"
out=$($UNCORE --backend "sim:hsx,profile=$W/profile,clock=manual" stat --metric-group energy --duration 1 2>&1); rc=$?
check "--metric-group energy counts the package and DRAM metrics ($rc)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "socket1 *power_dram *12.0000 W" && echo "$out" | grep -q "socket0 *energy_pkg *150.0000 J"'
out=$($UNCORE --backend sim:spr list --metrics 2>&1)
check "list --metrics names the energy metrics in group energy, psys on SPR" \
	'echo "$out" | grep -q "^energy_dram  *J  *energy " && echo "$out" | grep -q "^power_psys  *W  *energy "'
out=$($UNCORE --backend sim:skx list --metrics 2>&1)
check "... and no psys on Skylake-SP (rapl.c model_hsx has none)" '! echo "$out" | grep -q psys'
# a domain the part lacks, named, is refused saying so (it printed nothing and exited 0): psys on Skylake-SP, and on
# Clearwater Forest, whose TPMI psys only some firmware gives and whose MSRs no public source reads (doc/energy.md)
for b in sim:skx perf+sim:cwf; do
	out=$($UNCORE --backend $b stat -M energy_psys --duration 0.1 2>&1); rc=$?
	check "$b: stat -M energy_psys refused, naming the domain ($rc: $(echo "$out" | tail -1))" \
		'[ $rc -eq 1 ] && echo "$out" | grep -q "energy_psys: no socket of this node has RAPL.s psys domain"'
done
out=$($UNCORE --backend sim:cwf list --metrics 2>&1)
check "sim:cwf lists no psys (TPMI's system domain is the firmware's choice)" '! echo "$out" | grep -q psys'
# Granite Rapids: psys from MSR 0x64D at 1 J (PCM cpucounters.h systemEnergyMetricAvailable, getSystemConsumedJoules),
# beside the kernel's TPMI sources, which show none on the simulator; socket 0's alone
for b in sim:gnr perf+sim:gnr; do
	out=$($UNCORE --backend $b stat -M energy_psys,power_psys --duration 0.2 2>&1); rc=$?
	check "$b: stat -M energy_psys reads socket 0's psys ($rc: $(echo "$out" | grep psys | head -1))" \
		'[ $rc -eq 0 ] && echo "$out" | grep -q "^socket0 *power_psys *[1-9][0-9]*\.[0-9]* W" && ! echo "$out" | grep -q "^socket1 .*psys"'
done
for p in nhm montecito; do
	out=$($UNCORE --backend sim:$p stat -M energy_pkg --duration 0.1 2>&1); rc=$?
	check "sim:$p says plainly it cannot read energy ($out)" '[ $rc -ne 0 ] && echo "$out" | grep -q "has no RAPL.*energy cannot be read"'
done

# the Grafana dashboard's Energy row reads the series the collectd plugin dispatches (test_collectd's energy test:
# plugin instance socketN, types power and energy, type instances pkg and dram) as write_graphite names them
res=$(python3 - "${top_srcdir:-.}/collectd_plugin/grafana/intel_uncore.json" <<'PY'
import fnmatch, json, re, sys
d = json.load(open(sys.argv[1]))
rows = [i for i, p in enumerate(d["panels"]) if p["type"] == "row"]
at = next((i for i in rows if d["panels"][i]["title"] == "Energy"), None)
if at is None:
    sys.exit(print("no Energy row"))
panels = d["panels"][at + 1:next((i for i in rows if i > at), len(d["panels"]))]
bad, n = [], 0
for p in panels:
    for t in p["targets"]:
        m = re.match(r"aliasByNode\(collectd\.\$host\.(intel_uncore\.socket\*\.(\w+)\.\{(.*)\}), 1, 3, 5\)$", t["target"])
        if not m or m.group(2) not in ("power", "energy"):
            bad.append(t["target"]); continue
        for dom in ("pkg", "dram"):
            for s in (0, 1):
                n += fnmatch.fnmatch("intel_uncore.socket%d.%s.%s" % (s, m.group(2), dom), m.group(1).replace("{" + m.group(3) + "}", dom))
print("%d %s" % (n, " ".join(bad) or "ok"))
PY
)
check "the Grafana dashboard's Energy row reads socketN.power.{pkg,dram} and socketN.energy.{pkg,dram} ($res)" '[ "$res" = "8 ok" ]'

# --- the exporter (--groups energy alone: no uncore session): uncore_energy_joules_total rises at the profile's watts
if [ ! -x "$EXP" ]; then # built without libmicrohttpd
	echo "$pass passed, $fail failed (no uncore-exporter here)"
	[ "$fail" -eq 0 ]
	exit
fi
"$EXP" --listen 127.0.0.1:0 --backend "sim:skx,profile=$W/profile" --groups energy --interval 0.2 2>"$W/exp.log" &
exp_pid=$!
PORT=
for _ in $(seq 1200); do
	PORT=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/exp.log")
	[ -n "$PORT" ] && break
	kill -0 $exp_pid 2>/dev/null || break
	sleep 0.1
done
scrape() { python3 -c 'import urllib.request, sys; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' \
	"http://127.0.0.1:$PORT/metrics"; }
sleep 1
scrape >"$W/s1" 2>&1
sleep 3
scrape >"$W/s2" 2>&1
kill -TERM $exp_pid; wait $exp_pid; exp_pid=
res=$(python3 - "$W/s1" "$W/s2" <<'PY'
import re, sys
def load(f):
    out = {}
    for l in open(f):
        m = re.match(r'uncore_energy_joules_total\{(.*)\} (\S+) (\d+)$', l.strip())
        if m: out[m.group(1)] = (float(m.group(2)), int(m.group(3)) / 1000)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
want = {'socket="0",domain="pkg"': 150, 'socket="1",domain="pkg"': 200, 'socket="0",domain="dram"': 10, 'socket="1",domain="dram"': 12}
bad = []
for k, w in want.items():
    if k not in a or k not in b: bad.append("no " + k); continue
    rate = (b[k][0] - a[k][0]) / (b[k][1] - a[k][1])
    if abs(rate - w) > 0.01 * w: bad.append("%s %.3f W" % (k, rate))
print(" ".join(bad) or "ok")
PY
)
check "exporter: uncore_energy_joules_total{socket,domain} rises at 150, 200, 10 and 12 W ($res)" '[ "$res" = ok ]' ||
	{ cat "$W/exp.log"; grep energy "$W/s2"; }
check "... with its HELP naming the source, TYPE counter" \
	'grep -q "^# HELP uncore_energy_joules_total Energy of the socket.s RAPL domain.*powercap" "$W/s2" &&
	 grep -q "^# TYPE uncore_energy_joules_total counter" "$W/s2"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
