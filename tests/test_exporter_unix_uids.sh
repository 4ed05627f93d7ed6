#!/bin/sh
# The unix socket's clients by user (issue 96 point 3).  Its mode lets in the exporter's group, and one member
# could take all of --reserved-connections (16) and the listen backlog (128) behind them: 144 trickling
# connections of one member left root's scrapes 0 of 15.  Now one user holds at most half of them (the kernel
# says whose a connection is: SO_PEERCRED) and one more is closed at once, so root's scraper is served every
# second beside user 65534's 144; and each user has a bcrypt budget of its own, so that user's wrong passwords
# are refused unchecked past it (before, each was a bcrypt) while root's first scrape still gets its check.
# Counts, not times: every scrape served, every guess refused and some of them unchecked.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
. "${top_srcdir:-.}/tests/other_user.sh" # AS_OTHER, other_cannot
. "${top_srcdir:-.}/tests/exporter_start.sh" # log_says
B=${top_builddir:-.}
EXP=$B/uncore-exporter
PY=/usr/bin/python3 # Debian's, which every user may run
[ -x "$PY" ] || PY=python3
pid= crowd=
trap 'for p in $crowd $pid; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$W"' EXIT
command -v curl >/dev/null || { echo "FAIL: curl is not installed (scripts/install-deps installs it)"; exit 1; }
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || { echo "SKIP: another user's connections need root and setpriv"; exit 77; }
chmod 0711 "$W"
mkdir -m 0755 "$W/run"
cp "${top_srcdir:-.}/tests/exporter_crowd.py" "$W/crowd.py" && chmod 0644 "$W/crowd.py"
why=$(other_cannot "$W/crowd.py")
[ -z "$why" ] || { echo "SKIP: $why"; exit 77; }
S=$W/run/m.sock
# descriptors: 144 of the crowd's, and the exporter's
[ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 1024 ] && ulimit -n 1024

# start OPTIONS...: an exporter on the unix socket alone, its group 65534's (a member of it is the attacker)
start() {
	"$EXP" --backend sim:emr --interval 0.5 --listen "unix:$S" "$@" 2>"$W/exp.log" &
	pid=$!
	log_says "$W/exp.log" "serving .* read every" $pid && chgrp 65534 "$S" && return 0
	cat "$W/exp.log"
	return 1
}
stop() {
	kill $pid && wait $pid
	rc=$?
	pid=
	check "... and the exporter stops cleanly ($rc), its socket removed" '[ $rc -eq 0 ] && [ ! -e "$S" ]'
}

# --- 144 trickling connections of user 65534 beside root's scraper (the deadline past the test: they stay)
start --request-timeout 120 || no "the exporter starts on unix:$S"
check "it says each user's share ($(grep -o "unix:.*one user" "$W/exp.log"))" 'grep -q "16 connections (--reserved-connections), at most 8 of one user" "$W/exp.log"'
got=$($AS_OTHER curl -s -o /dev/null -w '%{http_code}' --max-time 20 --unix-socket "$S" http://localhost/metrics)
check "user 65534, of the socket's group, is served ($got)" '[ "$got" = 200 ]'
$AS_OTHER "$PY" "$W/crowd.py" unixtrickle "$S" 144 >"$W/crowd.out" 2>&1 &
crowd=$!
log_says "$W/crowd.out" "^ready" $crowd
head -1 "$W/crowd.out"
out=$("$PY" "$W/crowd.py" unixscrape "$S" 15)
rc=$?
echo "$out"
check "root's scraper among user 65534's 144 trickling connections: served every second, 15 of 15" '[ $rc -eq 0 ]'
check "... the crowd still runs" 'kill -0 $crowd'
kill $crowd && wait $crowd 2>/dev/null
crowd=
tail -2 "$W/crowd.out"
check "... and the exporter closed user 65534's connections past its 8, saying so" \
	'grep -q "user 65534 holds its 8 connections (half of --reserved-connections): another one closed" "$W/exp.log"'
stop

# --- wrong passwords: a bcrypt budget per user
command -v htpasswd >/dev/null || { no "htpasswd is not installed (apache2-utils: scripts/install-deps installs it)"; exit 1; }
HASH=$(htpasswd -nbBC 5 prom 's3cret pass' | cut -d: -f2)
printf 'basic_auth_users:\n  prom: %s\n' "$HASH" >"$W/web.yml"
chmod 0600 "$W/web.yml"
start --web.config.file "$W/web.yml" || no "the exporter with basic authentication starts"
out=$($AS_OTHER "$PY" "$W/crowd.py" unixguess "$S" 100 prom guess)
rc=$?
echo "$out"
check "user 65534's 100 wrong passwords, one after another: each refused" '[ $rc -eq 0 ]'
got=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 -u 'prom:s3cret pass' --unix-socket "$S" http://localhost/metrics)
check "root's first scrape right after them, its password not yet checked: served ($got; the budget is user 65534's)" '[ "$got" = 200 ]'
refusals() { # CHECKED: the count of that kind the exporter last published
	curl -s --max-time 20 -u 'prom:s3cret pass' --unix-socket "$S" http://localhost/metrics |
		sed -n "s/^uncore_exporter_auth_refusals_total{checked=\"$1\"} \([0-9]*\).*/\1/p"
}
for _ in $(seq 600); do # the counts as of the exporter's next read
	h=$(refusals true) u=$(refusals false)
	[ $((${h:-0} + ${u:-0})) -ge 100 ] && break
	sleep 0.1
done
check "the 100 refused: $h after a bcrypt, $u unchecked past user 65534's budget (before, all 100 checked)" \
	'[ $((h + u)) -eq 100 ] && [ "$u" -gt 0 ]'
stop

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
