#!/bin/sh
# uncore-exporter's own files against other users (issue 96).  --config may name the backend, the web
# configuration (TLS and authentication off) and the addresses, so it is read by the rule of the key and the web
# configuration (trusted_path.h): refused when another user could change it, at start and at SIGHUP (where the
# running options go on), and warned of when another user may read it; before, a file every user could write
# was taken.  And a reader its ACL names is another user: root's 0600 file with an ACL entry user:65534:r was
# taken with no warning; its group entry and mask are honoured, and a named writer refuses it.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
. "${top_srcdir:-.}/tests/other_user.sh" # other_cannot
. "${top_srcdir:-.}/tests/exporter_start.sh" # log_says
B=${top_builddir:-.}
EXP=$B/uncore-exporter
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null && wait $pid 2>/dev/null; rm -rf "$W"' EXIT
chmod 0711 "$W" # other users pass it (whether they reach it at all is asked below)
F=$W/exp.conf
printf 'groups memory\n' >"$F"
chmod 0600 "$F"

# cfg NAME WANT: --check-config with --config $F, exit 0 or 2 (in $rc), its standard error in $err
cfg() {
	err=$("$EXP" --backend sim:emr --config "$F" "$@" --check-config 2>&1 >/dev/null)
	rc=$?
}
refused() { # NAME WANT
	cfg
	want=$2
	check "$1: refused (exit $rc), saying '$want' ($err)" '[ $rc -eq 2 ] && echo "$err" | grep -qF -- "--config $F: $want"'
}

# --- another user could change it: refused at start
cfg
check "root's file, mode 0600: taken with no warning (exit $rc${err:+: $err})" '[ $rc -eq 0 ] && [ -z "$err" ]'
chmod 0666 "$F"
refused "a file every user may write" "it may be written by every user (mode 0666)"
chmod 0620 "$F"
refused "a file its group may write" "it may be written by its group $(stat -c %g "$F") (mode 0620)"
chmod 0600 "$F"
mkdir -m 0777 "$W/open" && chmod 0777 "$W/open" && cp -p "$F" "$W/open/exp.conf"
err=$("$EXP" --backend sim:emr --config "$W/open/exp.conf" --check-config 2>&1 >/dev/null)
rc=$?
check "a file in a directory every user may write: refused (exit $rc: $err)" \
	'[ $rc -eq 2 ] && echo "$err" | grep -qF "directory $W/open is writable by every user (mode 0777) without the sticky bit"'
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$F"
	refused "a file of user 65534" "it belongs to user 65534 (only root's or your own are trusted)"
	chown 0 "$F"
else
	echo "# not root: the file of another user is left out"
fi

# --- at SIGHUP: a file made writable by every user is refused, the running options go on; mended, it is read
mkdir -m 0755 "$W/run"
"$EXP" --backend sim:emr --interval 0.5 --config "$F" --listen "unix:$W/run/m.sock" 2>"$W/exp.log" &
pid=$!
waitlog() { log_says "$W/exp.log" "$1" $pid; } # PATTERN: 0 once the log has it (the exporter still running)
waitlog "serving .* read every" || { cat "$W/exp.log"; no "the exporter starts with --config $F"; }
channels() { curl -s --max-time 20 --unix-socket "$W/run/m.sock" http://localhost/metrics | grep -c '^uncore_memory_read_bytes_total{socket="0",channel='; }
printf 'groups memory\nper-box imc\n' >"$F"
chmod 0666 "$F"
kill -HUP $pid
waitlog "reload: " || no "the exporter logs the reload"
check "SIGHUP with the file writable by every user: refused, the running options go on ($(grep "reload: " "$W/exp.log" | head -1))" \
	'grep -qF "reload: --config $F: it may be written by every user (mode 0666); the running options go on" "$W/exp.log"'
reads() { curl -s --max-time 20 --unix-socket "$W/run/m.sock" http://localhost/metrics | sed -n 's/^uncore_exporter_reads_total \([0-9]*\).*/\1/p'; }
r0=$(reads)
for _ in $(seq 600); do # two reads later: a reload that took would be served by then
	[ "$(reads)" -ge $((${r0:-0} + 2)) ] 2>/dev/null && break
	sleep 0.1
done
got=$(channels)
check "... and its per-box series are not served, reads ${r0:-none} to $(reads) ($got)" '[ "$got" = 0 ]'
chmod 0600 "$F"
kill -HUP $pid
waitlog "reloaded: " || { cat "$W/exp.log"; no "the mended file is read at the next SIGHUP"; }
for _ in $(seq 600); do # served from the read after the reload
	got=$(channels)
	[ "${got:-0}" -gt 0 ] && break
	sleep 0.1
done
check "SIGHUP with the file mended (0600): read, its per-box series served ($got channels)" '[ "${got:-0}" -gt 0 ]'
kill $pid && wait $pid
rc=$?
pid=
check "... and the exporter stops cleanly" '[ $rc -eq 0 ]'

# --- another user may read it: every user, or one its ACL names (through directories that let them pass)
why=$(other_cannot "$F")
if [ -n "$why" ]; then
	echo "# $why: the warnings of readers are left out (no other user reaches the file)"
else
	chmod 0644 "$F"
	cfg
	check "a file every user may read: taken with a warning ($err)" \
		'[ $rc -eq 0 ] && echo "$err" | grep -qF "warning: --config $F may be read by every user (mode 0644), and it holds the exporter'"'"'s options"'
	chmod 0600 "$F"
	if ! command -v setfacl >/dev/null; then
		no "setfacl is not installed (package acl: scripts/install-deps installs it)"
	elif ! acl=$(setfacl -m u:65534:r "$F" 2>&1); then
		echo "# the file system of $W keeps no ACLs ($acl): the ACL checks are left out"
	else
		cfg
		check "root's 0600 file with the ACL entry user:65534:r: taken with a warning naming the user ($err)" \
			'[ $rc -eq 0 ] && echo "$err" | grep -qF "warning: --config $F may be read by user 65534, whom its ACL names"'
		setfacl -m m::--- "$F"
		cfg
		check "... and with the ACL's mask ---, which leaves user 65534 nothing: no warning (${err:-none})" \
			'[ $rc -eq 0 ] && [ -z "$err" ]'
		setfacl -b "$F" && chmod 0600 "$F" && setfacl -m g:65534:r "$F"
		cfg
		check "the ACL entry group:65534:r: a warning naming the group ($err)" \
			'[ $rc -eq 0 ] && echo "$err" | grep -qF "warning: --config $F may be read by the members of group 65534, which its ACL names"'
		setfacl -b "$F" && chmod 0600 "$F" && setfacl -m u:65534:rw "$F"
		refused "the ACL entry user:65534:rw" "it may be written by a user or group its ACL names"
		setfacl -b "$F" && chmod 0600 "$F"
		# the web configuration's password hashes too (the key is read by the same ue_read_small)
		printf 'basic_auth_users:\n  prom: $2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi\n' >"$W/web.yml"
		chmod 0600 "$W/web.yml"
		setfacl -m u:65534:r "$W/web.yml"
		cfg --web.config.file "$W/web.yml"
		check "--web.config.file of root, 0600, with user:65534:r: a warning naming the user ($err)" \
			'[ $rc -eq 0 ] && echo "$err" | grep -qF "warning: --web.config.file $W/web.yml may be read by user 65534, whom its ACL names"'
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
