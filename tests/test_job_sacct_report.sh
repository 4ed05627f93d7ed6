#!/bin/sh
# Issue 89 point 4: `uncore job report --sacct ID` reads a record anyone who may write the job's AdminComment
# wrote, through a sacct that may hang.  A sacct of the test's (first in PATH) prints the records: the strings
# of a record are shown with their control characters escaped (ESC, BEL, CR, LF, C1's CSI: none reaches the
# terminal, no line is forged), fields of the wrong JSON type are refused by name (not printed as "(null)"),
# a damaged record says why without a position it does not have, and a sacct that hangs, or prints without
# end, is stopped after UNCORE_SACCT_TIMEOUT with a clear error.  The records are made here as doc/jobs.md
# says they are read: "uncore1:" and the base32 (lower case) of the gzip of the JSON.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
UNCORE=$B/uncore
mkdir -p "$W/bin"
# the fake sacct: the record in $W/rec, or as $W/mode says (hang: sleeps as itself, its pid in $W/sacct.pid;
# mute: the same with its output closed; wrapped: a site's wrapper whose real sacct, its child, hangs, the child's
# pid in $W/sacct.pid; flood: 300,000 bytes)
cat >"$W/bin/sacct" <<EOF
#!/bin/sh
case "\$(cat '$W/mode' 2>/dev/null)" in
hang) echo \$\$ >'$W/sacct.pid'; exec sleep 600 ;;
mute) echo \$\$ >'$W/sacct.pid'; exec >&-; exec sleep 600 ;;
wrapped) sleep 600 2>/dev/null & echo \$! >'$W/sacct.pid'; wait; exit 0 ;;
flood) head -c 300000 /dev/zero | tr '\\000' a; exit 0 ;;
esac
cat '$W/rec'
EOF
chmod +x "$W/bin/sacct"
rec() { printf 'uncore1:%s\n' "$(printf '%s' "$1" | gzip -n | base32 -w0 | tr A-Z a-z)" >"$W/rec"; }
report() { out=$(PATH="$W/bin:$PATH" timeout 120 "$UNCORE" job report --sacct 7 2>&1); rc=$?; }
# a control character anywhere but the ends of lines: how many lines hold one (printf: dash's echo would
# turn the escapes shown back into the characters)
ctl() { printf '%s' "$1" | LC_ALL=C grep -c '[[:cntrl:]]'; }

# --- a sound record: every value where it belongs
good='{"job":"7","node":"n1","counted_from":1700000000.5,"seconds":12.5,"sockets":[{"socket":0,"read_bytes":1000,
"write_bytes":2000,"peak_read_bw":3e9,"peak_write_bw":null,"energy_dram_joules":1.5,"energy_pkg_joules":null}],
"devices":[{"socket":1,"devices":["0000:17:00.0","0000:18:00.0"],"read_bytes":5,"write_bytes":6}],"warnings":2}'
rec "$good"
report
want='job 7 on n1: counted 12.500 s from 1700000000.500 (Unix time)
socket 0
  read_bytes           1000 B
  write_bytes          2000 B
  peak_read_bw         3 GB/s
  peak_write_bw        -
  energy_dram_joules   1.5 J
  energy_pkg_joules    -
devices ["0000:17:00.0","0000:18:00.0"] (socket 1)
  read_bytes           5 B
  write_bytes          6 B
warnings 2 (uncore job report 7 on the node, or the system log)'
check "a sound record: every line as written ($rc: $out)" '[ $rc -eq 0 ] && [ "$out" = "$want" ]'
# the job's share of its sockets' peak (issue 91: summaries since): 409.6e9 B/s is 409.6 GB/s, 0.325 is 32.5 %;
# null where the peak was not known
rec "$(printf '%s' "$good" | sed 's/"seconds":12.5,/"seconds":12.5,"peak_bw":409600000000,"peak_share":0.325,/')"
report
check "a record with the peak: peak_bw 409.6 GB/s and peak_share 32.5 % after its first line ($rc: $out)" \
	'[ $rc -eq 0 ] && [ "$(printf "%s\n" "$out" | sed -n 2,3p)" = "  peak_bw              409.6 GB/s
  peak_share           32.5 %" ]'
rec "$(printf '%s' "$good" | sed 's/"seconds":12.5,/"seconds":12.5,"peak_bw":null,"peak_share":null,/')"
report
check "... unknown: both - ($rc: $out)" \
	'[ $rc -eq 0 ] && [ "$(printf "%s\n" "$out" | sed -n 2,3p)" = "  peak_bw              -
  peak_share           -" ]'

# --- hostile strings: a terminal title (OSC ... BEL), a clear screen (CSI 2J), a carriage return over the
# line, a forged line, C1's CSI (U+009B), DEL; in the node, the job and a device's BDF
rec '{"job":"7\u001b]0;owned\u0007","node":"n1\r\u001b[2Jjob 8 on n9: counted 99 s\nsocket 5\u009b2J\u007f",
"counted_from":1,"seconds":2,"sockets":[],"devices":[{"socket":0,"devices":["0000:17:00.0\u001b[31m\n  read_bytes 1 B"],
"read_bytes":1,"write_bytes":1}],"warnings":0}'
report
check "hostile strings: shown, no control character reaches the terminal ($rc: $(printf '%s' "$out" | od -c | head -c 600))" \
	'[ $rc -eq 0 ] && [ "$(ctl "$out")" -eq 0 ] && ! printf "%s" "$out" | LC_ALL=C grep -q "$(printf "\302\233")"'
check "... each escaped where it stood, no line forged ($(printf "%s\n" "$out" | wc -l) lines)" \
	'[ "$(printf "%s\n" "$out" | sed -n 1p)" = "job 7\\x1b]0;owned\\x07 on n1\\r\\x1b[2Jjob 8 on n9: counted 99 s\\nsocket 5\\u009b2J\\x7f: counted 2.000 s from 1.000 (Unix time)" ] &&
	 [ "$(printf "%s\n" "$out" | sed -n 2p)" = "devices [\"0000:17:00.0\\x1b[31m\\n  read_bytes 1 B\"] (socket 0)" ] &&
	 [ "$(printf "%s\n" "$out" | wc -l)" -eq 5 ]'
# bidirectional controls (issue 96 point 5): RLO, PDF, the isolates, LRM/RLM and ALM make a line read otherwise
# than it is stored ("job 7 on n1" shown as "1n no 7 boj"); each is escaped as \uHHHH, none reaches the terminal
rec '{"job":"7\u202e1n no","node":"n1\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c","counted_from":1,
"seconds":2,"sockets":[],"devices":[{"socket":0,"devices":["0000:17:00.0\u2067x"],"read_bytes":1,"write_bytes":1}],"warnings":0}'
report
bidi() { printf '%s' "$1" | grep -c "$(printf '\342\200[\216\217\252-\256]\|\342\201[\246-\251]\|\330\234')"; }
check "bidi controls in the job, the node and a BDF: none raw ($rc: $(printf '%s' "$out" | od -c | head -c 400))" \
	'[ $rc -eq 0 ] && [ "$(bidi "$out")" -eq 0 ]'
check "... each escaped as \\uHHHH where it stood" \
	'[ "$(printf "%s\n" "$out" | sed -n 1p)" = "job 7\\u202e1n no on n1\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c: counted 2.000 s from 1.000 (Unix time)" ] &&
	 [ "$(printf "%s\n" "$out" | sed -n 2p)" = "devices [\"0000:17:00.0\\u2067x\"] (socket 0)" ]'
# another tool's AdminComment beginning with an escape sequence: named, escaped
printf '\033[2J\033]0;x\007JS1:abc\n' >"$W/rec"
report
check "another tool's AdminComment: refused, its beginning escaped ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$(ctl "$out")" -eq 0 ] &&
	 printf "%s\n" "$out" | grep -qF "is no uncore record of this version (it begins '"'"'\\x1b[2J\\x1b]0;x\\x07JS1:abc'"'"', not '"'"'uncore1:'"'"')"'

# --- fields of the wrong type: refused by name, nothing printed as "(null)"
for c in '"job":7|"job" is an integer, not a string' \
	'"node":["n1"]|"node" is an array, not a string' \
	'"seconds":"12"|"seconds" is a string, not a number or null' \
	'"sockets":{}|"sockets" is an object, not an array' \
	'"warnings":1.5|"warnings" is a real number, not an integer' \
	'"sockets":[{"socket":0,"read_bytes":"1","write_bytes":1,"peak_read_bw":1,"peak_write_bw":1,"energy_dram_joules":1,"energy_pkg_joules":1}]|sockets[0]'"'"'s "read_bytes" is a string, not a number or null' \
	'"sockets":[7]|sockets[0] is an integer, not an object' \
	'"peak_share":"32.5 %"|"peak_share" is a string, not a number or null' \
	'"devices":[{"socket":"0","read_bytes":1,"write_bytes":1}]|devices[0]'"'"'s "socket" is a string, not an integer' \
	'"devices":[{"socket":0,"devices":["a",1],"read_bytes":1,"write_bytes":1}]|devices[0]'"'"'s "devices" is an array, not an array of strings'; do
	field=${c%%|*} why=${c#*|}
	key=${field%%:*}
	# the sound record with this one field replaced (or added where the sound one lacks it)
	rec "$(printf '%s' "$good" | tr -d '\n' | python3 -c 'import json, sys
d = json.loads(sys.stdin.read()); k, v = sys.argv[1].split(":", 1); d[json.loads(k)] = json.loads(v); print(json.dumps(d))' "$field")"
	report
	check "record with $field: refused, \"$why\" ($rc: $out)" \
		'[ $rc -eq 1 ] && [ "$out" = "uncore job: job 7'"'"'s AdminComment is a damaged uncore record ($why)" ]'
done
rec '[1,2]'
report
check "a record whose JSON is an array: refused by name ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "damaged uncore record (its JSON is an array, not an object)$"'

# --- damaged records: why, and a position only where there is one (the byte the JSON parser stopped at)
printf 'uncore1:not!base32\n' >"$W/rec"
report
check "not base32: said so, no position ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore job: job 7'"'"'s AdminComment is a damaged uncore record (not base32 of gzip)" ]'
rec '{"job": "7", oops}'
report
check "broken JSON: the parser's reason and where it stopped, after 'oops' (bytes 13-16) ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "damaged uncore record (its JSON: .* near .oops., at byte 17)$"'

# --- sacct bounded in time: one that hangs is stopped after UNCORE_SACCT_TIMEOUT (and gone), one that prints
# without end is read to its end and refused; a timeout that is no number of seconds is refused by name
echo hang >"$W/mode"
out=$(PATH="$W/bin:$PATH" UNCORE_SACCT_TIMEOUT=1 timeout 120 "$UNCORE" job report --sacct 7 2>&1); rc=$?
p=$(cat "$W/sacct.pid" 2>/dev/null)
check "a sacct that hangs: stopped after UNCORE_SACCT_TIMEOUT=1, said so ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore job: sacct -j 7 gave no answer in 1 s (UNCORE_SACCT_TIMEOUT): is slurmdbd responding? sacct was stopped" ]'
check "... and the hung sacct (pid $p) is gone" '[ -n "$p" ] && ! kill -0 "$p" 2>/dev/null'
[ -n "$p" ] && kill "$p" 2>/dev/null
echo mute >"$W/mode"
rm -f "$W/sacct.pid"
out=$(PATH="$W/bin:$PATH" UNCORE_SACCT_TIMEOUT=1 timeout 120 "$UNCORE" job report --sacct 7 2>&1); rc=$?
p=$(cat "$W/sacct.pid" 2>/dev/null)
check "a sacct that closes its output and goes on: stopped the same way, and gone ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "gave no answer in 1 s" && [ -n "$p" ] && ! kill -0 "$p" 2>/dev/null'
[ -n "$p" ] && kill "$p" 2>/dev/null
echo wrapped >"$W/mode"
rm -f "$W/sacct.pid"
out=$(PATH="$W/bin:$PATH" UNCORE_SACCT_TIMEOUT=1 timeout 120 "$UNCORE" job report --sacct 7 2>&1); rc=$?
p=$(cat "$W/sacct.pid" 2>/dev/null)
# gone or a zombie (killed, its wrapper gone: it waits for whichever process reaps orphans here), checked for up
# to 5 s, since a SIGKILL lands after kill() returns
dead() { ! kill -0 "$1" 2>/dev/null || [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]; }
i=0
while [ -n "$p" ] && ! dead "$p" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "a wrapper whose real sacct hangs: stopped the same way, the real one (pid $p) killed too ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "gave no answer in 1 s" && [ -n "$p" ] && dead "$p"'
[ -n "$p" ] && kill "$p" 2>/dev/null
echo flood >"$W/mode"
report
check "a sacct that prints 300,000 bytes: read to its end, refused ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore job: sacct -j 7 printed more than 65535 bytes: no AdminComment of this program'"'"'s" ]'
rm "$W/mode"
for t in abc 0 -1 1e9 nan; do
	out=$(PATH="$W/bin:$PATH" UNCORE_SACCT_TIMEOUT=$t "$UNCORE" job report --sacct 7 2>&1); rc=$?
	check "UNCORE_SACCT_TIMEOUT=$t: refused by name ($rc: $out)" \
		'[ $rc -eq 1 ] && [ "$out" = "uncore job: UNCORE_SACCT_TIMEOUT='"'"'$t'"'"' is not a number of seconds from 0.1 to 3600" ]'
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
