#!/bin/sh
# uncore-exporter's --listen unix:PATH (issue 89): the local scraper's way in that no other local user can take
# (on loopback any user binds any of 127.0.0.0/8: test_exporter_crowd.sh trickles there beside it).  The socket
# is made as an attacker would want it not to be: a symbolic link, a file or another user's socket planted at
# its path is refused and left as it was, a directory on the way that another user may write is refused, and so
# is a sticky one (as /tmp) the socket would be made in, where another user can take its name first; a socket
# left by a killed exporter is replaced, one another exporter listens on is not; the socket is 0660 and
# a user outside its group cannot connect; it is removed at the end, and only if it is still the exporter's.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
. "${top_srcdir:-.}/tests/exporter_start.sh" # log_says
B=${top_builddir:-.}
EXP=$B/uncore-exporter
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$W"' EXIT
command -v curl >/dev/null || { echo "FAIL: curl is not installed (scripts/install-deps installs it)"; exit 1; }
# Debian's python3, which every user may run (another python3 may come first in PATH, in root's home)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# start NAME OPTIONS...: an exporter serving only its unix socket (its log in $W/NAME.log); 0 once it serves
start() {
	name=$1
	shift
	"$EXP" --backend sim:emr --interval 0.5 "$@" 2>"$W/$name.log" &
	last=$!
	pids="$pids $last"
	log_says "$W/$name.log" "serving .* read every" $last
}
# refused NAME WANT OPTIONS...: the exporter does not start, exit 1 or 2, WANT in its message
refused() {
	name=$1 want=$2
	shift 2
	out=$(timeout 120 "$EXP" --backend sim:emr "$@" 2>&1) # one that starts after all is ended
	rc=$?
	check "$name: refused (exit $rc), saying '$want' ($(echo "$out" | tail -1))" \
		'[ $rc -ne 0 ] && echo "$out" | grep -qF -- "$want"'
}
code() { curl -s -o "$W/body" -w '%{http_code}' --max-time 20 --unix-socket "$1" http://localhost/metrics; }

# --- the option's forms
refused relative "give the socket's absolute path" --listen unix:metrics.sock
refused trailing "give the socket's absolute path" --listen unix:/run/
long=/$(printf '%0120d' 0)
refused long "a unix socket's path has at most 107 characters" --listen "unix:$long"
out=$("$EXP" --backend sim:emr --listen 127.0.0.1:9 --listen "unix:$W/x.sock" --check-config 2>&1 | head -1)
check "--check-config names both places ($out)" 'echo "$out" | grep -qF "served at http://127.0.0.1:9/metrics and unix:$W/x.sock"'

# --- served, 0660, removed at the end
D=$W/run
mkdir -m 0755 "$D"
start plain --listen "unix:$D/metrics.sock" || { cat "$W/plain.log"; no "the exporter starts on unix:$D/metrics.sock"; }
P1=$last
got=$(code "$D/metrics.sock")
check "curl --unix-socket: 200 and the memory counters ($got)" '[ "$got" = 200 ] && grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}" "$W/body"'
mode=$(stat -c '%a %u' "$D/metrics.sock")
check "the socket is mode 0660, the exporter's user's ($mode)" '[ "$mode" = "660 $(id -u)" ]'
check "it serves no TCP port when only the socket is given" '! grep -q "on port" "$W/plain.log"'
# another exporter on the same path: refused, the first one's socket left alone
refused "a second exporter on the same path" "a process listens on it already" --listen "unix:$D/metrics.sock"
got=$(code "$D/metrics.sock")
check "... and the first one is still served there ($got)" '[ "$got" = 200 ]'
# a user outside the socket's group: connect(2) needs write permission on the socket's file (unix(7))
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups curl -s -o /dev/null -w '%{http_code}' \
		--unix-socket "$D/metrics.sock" http://localhost/metrics 2>&1; }
	chmod 0711 "$W"
	chmod 0666 "$D/metrics.sock" # first the control: with every user's write bit, user 65534 gets in
	ctl=$(nobody)
	chmod 0660 "$D/metrics.sock"
	got=$(nobody)
	rc=$?
	chmod 0700 "$W"
	if [ "$ctl" = 200 ]; then
		check "user 65534, not of the socket's group: not connected at mode 0660 (curl exit $rc: 7, $got), served at 0666" \
			'[ $rc -eq 7 ]'
	else
		echo "# user 65534 cannot reach $D even at mode 0666 ($ctl: a directory above $W shuts it out): left out"
	fi
else
	echo "# not root (or no setpriv): the check that another user cannot connect is left out"
fi
kill $P1 && wait $P1
rc=$?
check "SIGTERM: it ends with 0 ($rc) and its socket is gone" '[ $rc -eq 0 ] && [ ! -e "$D/metrics.sock" ]'

# --- a socket a killed exporter left: replaced, and said
start killed --listen "unix:$D/metrics.sock" || no "the exporter starts again"
kill -KILL $last; wait $last 2>/dev/null
check "kill -9 leaves its socket behind" '[ -S "$D/metrics.sock" ]'
start stale --listen "unix:$D/metrics.sock" || { cat "$W/stale.log"; no "an exporter starts over the stale socket"; }
check "the stale socket is removed, and said so" 'grep -q "removed the socket no process listened on" "$W/stale.log"'
got=$(code "$D/metrics.sock")
check "... and the new one is served there ($got)" '[ "$got" = 200 ]'
# its socket replaced under it (by root or its own user: no one else may write the directory): left alone at the end
mv "$D/metrics.sock" "$D/moved.sock"
"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/metrics.sock"
kill $last && wait $last
check "a socket at its path that is not the one it made is left at the end" '[ -S "$D/metrics.sock" ]'
rm -f "$D/metrics.sock" "$D/moved.sock"

# --- what an attacker plants at the path: never followed, never removed
echo "root's file" >"$W/target"
ln -s "$W/target" "$D/metrics.sock"
refused "a symbolic link at the path" "a symbolic link is there, which is not removed" --listen "unix:$D/metrics.sock"
check "... the link and its target are as they were" '[ -L "$D/metrics.sock" ] && [ "$(cat "$W/target")" = "root'"'"'s file" ]'
rm "$D/metrics.sock"
echo data >"$D/metrics.sock"
refused "a regular file at the path" "a regular file is there, which is not removed" --listen "unix:$D/metrics.sock"
check "... the file is as it was" '[ "$(cat "$D/metrics.sock")" = data ]'
rm "$D/metrics.sock"
# directories on the way that another user may write: the path could be swapped between the look and the bind
mkdir -m 0777 "$W/open" && chmod 0777 "$W/open"
refused "a directory every user may write" "directory $W/open is writable by every user (mode 0777) without the sticky bit" \
	--listen "unix:$W/open/metrics.sock"
mkdir "$W/open/deeper"
refused "a directory below one every user may write" "directory $W/open is writable by every user" --listen "unix:$W/open/deeper/m.sock"
mkdir -m 0775 "$W/grp" && chmod 0775 "$W/grp"
refused "a directory its group may write" "directory $W/grp is writable by its group" --listen "unix:$W/grp/metrics.sock"
# a sticky directory every user (as /tmp) or its group may write: refused, naming it.  The sticky bit keeps others
# from removing the socket, not from binding its name while it is free (after the exporter's exit, or between a
# stale socket's removal and the bind), and the scraper, which connects by path, then reads their numbers
mkdir "$W/sticky" && chmod 1777 "$W/sticky"
refused "a sticky directory every user may write (as /tmp)" \
	"directory $W/sticky is writable by every user (mode 1777): sticky or not, another user can make a name there first" \
	--listen "unix:$W/sticky/metrics.sock"
check "... and the error says where the socket belongs" 'echo "$out" | grep -q "RuntimeDirectory=: /run/uncore-exporter"'
mkdir "$W/stickygrp" && chmod 1770 "$W/stickygrp"
refused "a sticky directory its group may write" \
	"directory $W/stickygrp is writable by its group $(stat -c %g "$W/stickygrp") (mode 1770): sticky or not" \
	--listen "unix:$W/stickygrp/metrics.sock"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# a socket of another user at the path (one root gave away: no other user may write a directory accepted)
	"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/metrics.sock"
	chown 65534 "$D/metrics.sock"
	refused "another user's stale socket" "a socket of user 65534 is there, which is not removed" --listen "unix:$D/metrics.sock"
	check "... and it is still there" '[ -S "$D/metrics.sock" ]'
	rm -f "$D/metrics.sock"
	# user 65534 takes the name in the sticky directory and answers as an exporter would, with numbers of its own
	chmod 0711 "$W"
	setpriv --reuid 65534 --regid 65534 --clear-groups "$PY" -c 'import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(8)
while True:
    c = s.accept()[0]
    c.recv(4096)
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nuncore_memory_read_bytes_total{socket=\"0\"} 42\n")
    c.close()' "$W/sticky/metrics.sock" 2>"$W/squat.log" &
	squat=$!
	pids="$pids $squat"
	for _ in $(seq 300); do
		[ -S "$W/sticky/metrics.sock" ] && break
		kill -0 $squat 2>/dev/null || break
		sleep 0.1
	done
	got=$(code "$W/sticky/metrics.sock")
	check "user 65534 binds the name in the sticky directory, and a scraper there reads its numbers (the attack: $got)" \
		'[ "$got" = 200 ] && grep -q "^uncore_memory_read_bytes_total{socket=\"0\"} 42$" "$W/body"'
	refused "the exporter asked for that path" "directory $W/sticky is writable by every user (mode 1777)" \
		--listen "unix:$W/sticky/metrics.sock"
	kill $squat && wait $squat 2>/dev/null
	chmod 0700 "$W"
	mkdir "$W/theirs" && chown 65534 "$W/theirs"
	refused "a directory of another user" "directory $W/theirs belongs to user 65534" --listen "unix:$W/theirs/metrics.sock"
	# a directory reached through another user's symbolic link, made where every user may write
	ln -s "$D" "$W/sticky/mine"
	chown -h 65534 "$W/sticky/mine"
	refused "a path through another user's symbolic link" "$W/sticky/mine is a symbolic link of user 65534" \
		--listen "unix:$W/sticky/mine/metrics.sock"
else
	echo "# not root (or no setpriv): the planted files of another user are left out"
fi
# a symbolic link of its own user on the way (as /var/run -> /run) is followed
ln -s "$D" "$W/via"
start via --listen "unix:$W/via/metrics.sock" || { cat "$W/via.log"; no "the exporter serves through its own symbolic link"; }
got=$(code "$D/metrics.sock")
check "a path through a symbolic link of root or its own user: served at the link's target ($got)" '[ "$got" = 200 ]'
kill $last && wait $last

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
