#!/bin/sh
# uncore's output for scripts (stat -x SEP, stat --json, list --json), read back with Python's csv and
# json modules and checked against the simulator's truth; help and version; repeated file options.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore

# --- stat -x ';': the default profile reads 12.8e9 * (1 + s) B/s on socket s, 64 bytes per CAS, over
# 4 channels: 2e8 CAS on socket 0 and 4e8 on socket 1 in one (manual-clock) second
$UNCORE --backend sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD -M mem_bw_read -x ';' --per-box --duration 1 \
	>"$W/out.csv" 2>"$W/err"
check "stat -x exits 0 and writes nothing else ($(cat "$W/err"))" '[ ! -s "$W/err" ]'
out=$(python3 - "$W/out.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline=''), delimiter=';'))
want = {('0', '', 'UNC_M_CAS_COUNT.RD'): 2e8, ('1', '', 'UNC_M_CAS_COUNT.RD'): 4e8,
        ('0', '', 'mem_bw_read'): 12.8, ('1', '', 'mem_bw_read'): 25.6}
for s in '01':
    for b in '0123':
        want[(s, b, 'UNC_M_CAS_COUNT.RD')] = 5e7 * (1 + int(s))
        want[(s, b, 'mem_bw_read')] = 3.2 * (1 + int(s))
bad = 0
for r in rows:
    k = (r['socket'], r['box'], r['name'])
    w = want.pop(k, None)
    if w is None or abs(float(r['value']) - w) > 1e-9 * w or abs(float(r['time']) - 1) > 1e-6 \
       or r['backend'] != 'sim:snbep,clock=manual' or r['simulated'] != '1' \
       or r['unit'] != ('GB/s' if r['name'] == 'mem_bw_read' else '') or r['enabled_ns'] or r['running_ns'] \
       or r['status'] != 'ok':
        print('wrong row', r); bad += 1
print('missing', sorted(want)) if want else None
print('rows %d bad %d missing %d' % (len(rows), bad, len(want)))
PY
)
echo "$out"
check "stat -x: every row parses as CSV and equals the truth" 'echo "$out" | grep -q "^rows 20 bad 0 missing 0$"'

# --- stat --json -I through the perf backend: one object a line, per interval, with the kernel's times
$UNCORE --backend perf+sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:socket=1 -M mem_bw_write --json -I 500 \
	--duration 1.5 >"$W/out.json"
out=$(python3 - "$W/out.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
bad = 0
for r in recs:
    t = r['time']
    if r.get('event') == 'UNC_M_CAS_COUNT.RD:socket=1':
        # 2e8 CAS in half a second on socket 1; enabled = running (nothing multiplexed), 4 boxes counting
        ok = r['value'] == 200000000 and r['enabled_ns'] == r['running_ns'] == int(round(t * 4e9)) and r['socket'] == 1
    elif r.get('metric') == 'mem_bw_write':
        # a metric's times are its least counted event's: CAS_COUNT.WR of the socket's 4 channels, all the time
        ok = abs(r['value'] - 4.8 * (1 + r['socket'])) < 1e-9 and r['unit'] == 'GB/s' \
             and r['enabled_ns'] == r['running_ns'] == int(round(t * 4e9))
    else:
        ok = False
    ok = ok and r['box'] is None and r['simulated'] is True and r['backend'].startswith('perf+sim:snbep') \
         and r['status'] == 'ok'
    if not ok:
        print('wrong record', r); bad += 1
times = sorted(set(r['time'] for r in recs))
print('records %d bad %d times %s' % (len(recs), bad, ' '.join('%.1f' % t for t in times)))
PY
)
echo "$out"
check "stat --json -I: 3 intervals x 3 values, each equal to the truth, with enabled/running times" \
	'echo "$out" | grep -q "^records 9 bad 0 times 0.5 1.0 1.5$"'
# --- a set that does not fit a box (two TOR occupancies, both on counter 0): perf multiplexes it. -I 3 ms:
# in the first 4 ms interval the second group has not been on the counters (not_counted, no value); over
# 1 s each counts half the time, scaled: the occupancies' ratio is socket 0's llc_miss_parallel, 2
occ=UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD:socket=0
$UNCORE --backend perf+sim:emr,clock=manual stat -e "$occ,$occ:thresh=1" -x , -I 3 --duration 0.003 >"$W/mux.csv"
$UNCORE --backend perf+sim:emr,clock=manual stat -e "$occ,$occ:thresh=1" -x , --duration 1 >"$W/mux1.csv"
out=$(python3 - "$W/mux.csv" "$W/mux1.csv" <<'PY'
import csv, sys
first = list(csv.DictReader(open(sys.argv[1])))
print('first', ' '.join('%s/%s/%s' % (r['status'], r['value'] or '-', int(r['running_ns']) < int(r['enabled_ns']))
                        for r in first))
last = list(csv.DictReader(open(sys.argv[2])))
ratio = float(last[0]['value']) / float(last[1]['value'])
print('last %s ratio %.6f shares %s' % (' '.join(r['status'] for r in last), ratio,
      ' '.join('%.3f' % (int(r['running_ns']) / int(r['enabled_ns'])) for r in last)))
PY
)
echo "$out"
check "stat -x: a multiplexed count not yet on the counters is not_counted, with no value" \
	'echo "$out" | grep -q "^first ok/[0-9]*/False not_counted/-/True$"'
check "stat -x: then both count, scaled, and their ratio is the truth" \
	'echo "$out" | grep -q "^last ok ok ratio 2.00000[0-9] shares 0.500 0.500$"'
# --- a box that fails mid-run (imc 0 of each socket, from 0.5 s on): every value over it has the status
# failed and no value; every other one is ok and the truth: 2.7e9 clocks a second on each CHA (uncore_freq
# 2.7 GHz), a socket's clocks the sum of its CHAs', 12.8e9 * (1 + s) B/s read over the 8 channels
fault=sim:emr,clock=manual,fault=eio:imc:0@0.5
for fmt in "-x ;" --json; do
	$UNCORE --backend "$fault" stat -M mem_bw_read,uncore_freq -e UNC_CHA_CLOCKTICKS --per-box $fmt --duration 1.2 \
		>"$W/failed.out" 2>"$W/err"; rc=$?
	out=$(python3 - "$W/failed.out" "$fmt" <<'PY'
import csv, json, sys
if sys.argv[2] == '--json':
    recs = [json.loads(l) for l in open(sys.argv[1])]
    for r in recs:
        r['name'] = r.get('event', r.get('metric'))
else:
    recs = list(csv.DictReader(open(sys.argv[1], newline=''), delimiter=';'))
    for r in recs:
        r['socket'] = int(r['socket'])
        r['box'] = int(r['box']) if r['box'] else None
        r['value'] = float(r['value']) if r['value'] else None
socket_clk = {}
bad = failed = 0
for r in recs:
    s, b, name = r['socket'], r['box'], r['name']
    if name == 'mem_bw_read' and b in (None, 0):
        want = None # the socket's sum and the failed channel itself
    elif name == 'mem_bw_read':
        want = 12.8 * (1 + s) / 8
    elif name == 'uncore_freq':
        want = 2.7
    elif b is None:
        want = socket_clk.setdefault(s, r['value']) # checked against its CHAs below
    else:
        want = 2.7e9 * 1.2
        socket_clk[(s, 'sum')] = socket_clk.get((s, 'sum'), 0) + want
    if want is None:
        failed += 1
        ok = r['status'] == 'failed' and r['value'] is None
    else:
        ok = r['status'] == 'ok' and r['value'] is not None and abs(r['value'] - want) <= 1e-9 * want
    if not ok:
        print('wrong record', r); bad += 1
bad += sum(socket_clk[s] != socket_clk.get((s, 'sum')) for s in (0, 1))
print('records %d bad %d failed %d' % (len(recs), bad, failed))
PY
)
	echo "$out"
	check "stat $fmt with a box failing: exit 1 ($rc); values over it failed, the others ok and true" \
		'[ $rc -eq 1 ] && echo "$out" | grep -qE "^records [0-9]+ bad 0 failed 4$"'
done
err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -x , --json --duration 0.1 2>&1); rc=$?
check "stat -x with --json is refused ($rc: $err)" '[ "$rc" -eq 2 ] && echo "$err" | grep -q "one of -x SEP and --json"'
err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -x '' --duration 0.1 2>&1); rc=$?
check "an empty separator is refused ($rc)" '[ "$rc" -eq 2 ] && echo "$err" | grep -q "separator"'

# --- list --json: as many events as the TSV, each parsed, CAS_COUNT.RD as the manual gives it
$UNCORE --backend sim:snbep list --json >"$W/list.json"
tsv=$($UNCORE --backend sim:snbep list --format tsv | grep -v '^#' | tail -n +2 | wc -l)
out=$(python3 - "$W/list.json" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
cas = [e for e in ev if e['name'] == 'UNC_M_CAS_COUNT.RD']
ok = len(cas) == 1 and cas[0]['unit'] == 'imc' and cas[0]['code'] == '0x04' and cas[0]['umask'] == '0x03' \
     and cas[0]['counters'] == [0, 1, 2, 3] and cas[0]['kind'] == 'general' and 'cpu=0..15' in cas[0]['qualifiers']
clk = [e for e in ev if e['name'] == 'UNC_M_CLOCKTICKS']
print('events %d cas %s fixed %s' % (len(ev), ok, len(clk) == 1 and clk[0]['kind'] == 'fixed' and clk[0]['counters'] == []))
PY
)
echo "$out"
check "list --json: $tsv events, CAS_COUNT.RD event 0x04 umask 0x03 on counters 0-3 (seed 000), the fixed clock" \
	'echo "$out" | grep -q "^events $tsv cas True fixed True$"'
n=$($UNCORE --backend sim:emr list --metrics --json | python3 -c 'import json,sys; print(sum(1 for l in sys.stdin if json.loads(l)["formula"]))')
m=$($UNCORE --backend sim:emr list --metrics --format tsv | grep -v '^#' | tail -n +2 | wc -l)
check "list --metrics --json: every metric with its formula ($n of $m)" '[ "$n" -eq "$m" ] && [ "$m" -gt 10 ]'

# --- help and version
for c in info list stat allowlist; do
	out=$($UNCORE "$c" --help); rc=$?
	check "uncore $c --help: its usage, exit 0" '[ "$rc" -eq 0 ] && echo "$out" | grep -q "^usage: uncore \[OPTIONS\] $c"'
	check "uncore help $c says the same" '[ "$($UNCORE help "$c")" = "$out" ]'
done
out=$($UNCORE --help); rc=$?
check "uncore --help names every simulated platform, exit 0" \
	'[ "$rc" -eq 0 ] && for p in snbep ivbep nhm emr montecito generic; do echo "$out" | grep -q "sim:$p " || exit 1; done'
out=$($UNCORE --version)
check "uncore --version: the package version ($out)" 'echo "$out" | head -1 | grep -Eq "^uncore \(intel-uncore\) [0-9]+\.[0-9]+\.[0-9]+$"'
err=$($UNCORE help nothing 2>&1); rc=$?
check "uncore help of a command there is not: exit 2" '[ "$rc" -eq 2 ] && echo "$err" | grep -q "no command .nothing."'

# --- --events and --metric-file add up when repeated, and split on ':' as the variables do
F=${top_srcdir:-.}/tests/fixtures/generic_events.json
cat >"$W/more.json" <<'J'
{ "Header": { "Info": "test: one more CHA event, and one for a unit this machine lacks" },
  "Events": [
    { "Unit": "CHA", "EventCode": "0x34", "UMask": "0x11", "EventName": "UNC_CHA_TEST_LOOKUP",
      "BriefDescription": "test", "Counter": "0,1,2,3", "CounterType": "PGMABLE" },
    { "Unit": "NOSUCHUNIT", "EventCode": "0x01", "UMask": "0x00", "EventName": "UNC_NOPE_CLOCKTICKS",
      "BriefDescription": "test", "Counter": "0", "CounterType": "PGMABLE" } ] }
J
for form in "--events $F --events $W/more.json" "--events $F:$W/more.json"; do
	out=$($UNCORE --backend sim:generic $form list --format tsv 2>"$W/err")
	check "$form: events of both files" \
		'echo "$out" | grep -q "	UNC_CHA_CLOCKTICKS	" && echo "$out" | grep -q "	UNC_CHA_TEST_LOOKUP	"'
	check "$form: the skipped unit is warned about ($(cat "$W/err"))" 'grep -q "units .*NOSUCHUNIT.* skipped" "$W/err"'
done
cat >"$W/m1.json" <<'J'
[ { "MetricName": "test_cas_a", "MetricExpr": "UNC_M_CAS_COUNT.RD", "BriefDescription": "t", "ScaleUnit": "1count" } ]
J
sed 's/test_cas_a/test_cas_b/' "$W/m1.json" >"$W/m2.json"
out=$($UNCORE --backend sim:snbep --metric-file "$W/m1.json" list --metrics --metric-file "$W/m2.json" --format tsv 2>&1)
check "--metric-file twice: metrics of both files" 'echo "$out" | grep -q "^test_cas_a	" && echo "$out" | grep -q "^test_cas_b	"'

# --- control characters: an event name with a tab and a newline is refused at load (it once split the TSV,
# CSV and text rows it was printed in), not echoed; a spec holding one is refused; a description with them
# keeps its TSV row one line of 8 columns
cat >"$W/ctl.json" <<'J'
[ { "Unit": "CHA", "EventCode": "0x00", "UMask": "0x00", "EventName": "UNC_CHA_TEST\tTAB\nNEWLINE",
    "BriefDescription": "test", "Counter": "0,1,2,3" } ]
J
out=$($UNCORE --backend sim:generic --events "$W/ctl.json" list --format tsv 2>&1); rc=$?
check "an EventName with a tab and a newline: refused naming file and entry, the name not echoed ($rc: $(echo "$out" | head -2))" \
	'[ $rc -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
	 echo "$out" | grep -qF "$W/ctl.json: entry 0 of the event list: field \"EventName\" holds control character 0x09"'
name=$(printf 'UNC_CHA_CLOCKTICKS\tX')
for fmt in "-x ," --json ""; do
	# shellcheck disable=SC2086
	out=$($UNCORE --backend sim:generic,clock=manual stat -e "$name" $fmt --duration 0.1 2>&1); rc=$?
	check "stat ${fmt:-(text)}: a spec with a tab refused, not echoed ($rc: $(echo "$out" | tail -1))" \
		'[ $rc -ne 0 ] && echo "$out" | grep -q "an event spec holds control character 0x09" && ! echo "$out" | grep -q "	X"'
done
cat >"$W/ctl.json" <<'J'
[ { "Unit": "CHA", "EventCode": "0x00", "UMask": "0x00", "EventName": "UNC_CHA_TEST_DESC",
    "BriefDescription": "a\ttab,\na newline and \u0007", "Counter": "0,1,2,3" } ]
J
out=$($UNCORE --backend sim:generic --events "$W/ctl.json" list --format tsv 2>&1); rc=$?
# (printf, not echo: dash's echo would turn the \t written back into a tab)
bad=$(printf '%s\n' "$out" | grep -v '^#' | awk -F'\t' 'NF != 8' | wc -l)
check "list --format tsv: a description with a tab, a newline and a bell keeps its row of 8 columns ($rc, $bad rows not)" \
	'[ $rc -eq 0 ] && [ "$bad" -eq 0 ] &&
	 printf "%s\n" "$out" | grep -qF "	UNC_CHA_TEST_DESC	0x00	0x00	0x0	0,1,2,3	a\ttab,\na newline and \x07	"'
# a description with bidirectional controls (issue 96 point 5: "RLO" shows the rest of a row reversed), C1's CSI
# and an isolate: escaped as \uHHHH, none raw
cat >"$W/ctl.json" <<'J'
[ { "Unit": "CHA", "EventCode": "0x00", "UMask": "0x00", "EventName": "UNC_CHA_TEST_BIDI",
    "BriefDescription": "reads \u202eetirw\u202c, \u2066iso\u2069 \u200f\u061c \u009b2J", "Counter": "0,1,2,3" } ]
J
out=$($UNCORE --backend sim:generic --events "$W/ctl.json" list --format tsv 2>&1); rc=$?
check "list --format tsv: bidi controls and C1 in a description escaped, none raw ($rc)" \
	'[ $rc -eq 0 ] && ! printf "%s" "$out" | grep -q "$(printf "\342\200[\216\217\252-\256]\|\342\201[\246-\251]\|\330\234\|\302\233")" &&
	 printf "%s\n" "$out" | grep -qF "	UNC_CHA_TEST_BIDI	0x00	0x00	0x0	0,1,2,3	reads \u202eetirw\u202c, \u2066iso\u2069 \u200f\u061c \u009b2J	"'

# --- two dies a socket (sim:gnr,dies=2: 12 channels a die): a box of die 1 is named by its die in text and
# JSON; the same command on one die a socket shows no die at all
$UNCORE --backend sim:gnr,dies=2,clock=manual stat -M mem_bw_read --per-box --duration 1 >"$W/dies.txt" 2>&1
check "--per-box names die 1's channel imc12/die1 and die 0's imc11/die0; the banner the dies" \
	'grep -q "^  imc12/die1 *mem_bw_read *0.5333 GB/s" "$W/dies.txt" && grep -q "^  imc11/die0 " "$W/dies.txt" &&
	 grep -q "^# backend sim:gnr,dies=2,clock=manual .*, 2 sockets of 2 dies$" "$W/dies.txt"'
$UNCORE --backend perf+sim:gnr,dies=2,clock=manual stat -M mem_bw_read --per-box --json --duration 1 >"$W/dies.json"
out=$(python3 - "$W/dies.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
boxes = [r for r in rows if r['box'] is not None]
ok = len(boxes) == 48 and all(r['die'] == (r['box'] >= 12) for r in boxes) \
     and all('die' not in r for r in rows if r['box'] is None) \
     and abs(sum(r['value'] for r in boxes if r['socket'] == 0) - 12.8) < 1e-6
print('dies ok' if ok else 'dies wrong %r' % rows[:3])
PY
)
check "--json: a die key on every box of a two-die socket, none on the totals, die 1's channels counted ($out)" \
	'[ "$out" = "dies ok" ]'
$UNCORE --backend sim:gnr stat -M mem_bw_read --per-box --json --duration 0.1 >"$W/one.json"
check "--json: no die key with one die a socket" '! grep -q "die" "$W/one.json"'
out=$($UNCORE --backend sim:gnr,dies=2 info)
check "info: a box of die 1 is listed with its die and CPU" \
	'echo "$out" | grep -q "^box cha 72 socket 0 die 1: msr 0x2000 cpu 72$"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
