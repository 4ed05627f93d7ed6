#!/bin/sh
# A replay reads its archive into memory (common/replay/replay_files.c, issue 64 point 7): a signal at any
# point of the read or of the open ends the command as it would have (128 + it); nothing is written in
# $TMPDIR or anywhere else, so a process killed with SIGKILL or stopped halfway leaves nothing behind, and a
# replay beside a stopped one runs.  The points are the test option signal_at=MEMBERS:SIGNAL: the process
# sends itself the signal after that many members of the archive (snbep's has 432: 431 is before its last;
# 9999: after the read, while the library opens the machine).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
S=${top_srcdir:-.} B=${top_builddir:-.}
UNCORE=$B/uncore
export TMPDIR="$W/tmp"
mkdir -p "$TMPDIR"
gzip -dc "$S/tests/snapshots/snbep.tar.gz" >"$W/snbep.tar"
left() { ls -A "$TMPDIR" | tr '\n' ' '; }
files() { find "$TMPDIR" -type f | wc -l; }

# a caught signal at each point, through each replay backend and a command of each kind: the command
# ends by it, nothing left behind (the shell that runs the tests may ignore SIGINT: env gives it back)
for b in replay perf+replay; do
	for at in 0 1 200 431 9999; do
		for sig in INT:2 TERM:15 HUP:1; do # (signal(7): their numbers on Linux)
			n=${sig#*:} sig=${sig%:*}
			cmd=info
			[ "$sig$at" = TERM200 ] && cmd="stat -e UNC_C_CLOCKTICKS --duration 1"
			env --default-signal="$sig" $UNCORE --backend "$b:$W/snbep.tar,signal_at=$at:$n" $cmd >"$W/out" 2>&1
			rc=$?
			check "$b, SIG$sig after $at members, uncore $cmd: ended by it ($rc), nothing left ($(left))" \
				'[ $rc -eq $((128 + n)) ] && [ -z "$(left)" ]' || head -3 "$W/out"
			rm -rf "$TMPDIR"/*
		done
	done
done

rm -rf "$TMPDIR"/*
# a 5,000-member archive that is refused at its end (a symbolic link, issue 79): a signal stops the unpack
# at the next member and ends the command by it (128 + N), SIGINT too where a shell's background job ignores
# it (it exited 1, the refusal's, after the whole unpack)
mkdir -p "$W/many/extra"
(cd "$W/many" && tar xf "$W/snbep.tar" && i=0 && while [ $i -lt 5000 ]; do : >"extra/f$i"; i=$((i + 1)); done &&
	ln -s /etc/passwd extra/zz-link && tar cf "$W/many.tar" --sort=name *)
for sig in INT:2 TERM:15 HUP:1; do
	n=${sig#*:} sig=${sig%:*}
	# SIGHUP its default: under nohup it stays ignored, as the CLI keeps it (cli/cli_signals.c)
	env --default-signal=HUP $UNCORE --backend "replay:$W/many.tar,signal_at=2:$n" info >"$W/out" 2>&1 &
	wait $!
	rc=$?
	check "SIG$sig after 2 of 5,000 members, in a background job: ended by it ($rc), nothing left ($(left))" \
		'[ $rc -eq $((128 + n)) ] && [ -z "$(left)" ]' || head -3 "$W/out"
	rm -rf "$TMPDIR"/*
done
# a real SIGTERM from outside once the read has begun: the process stops itself (SIGSTOP) after 2 members,
# is sent SIGTERM, and continued
$UNCORE --backend "replay:$W/many.tar,signal_at=2:19" info >"$W/out" 2>&1 &
pid=$!
for i in $(seq 600); do [ "$(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null)" = T ] && break; sleep 0.1; done
kill -TERM $pid && kill -CONT $pid
wait $pid
rc=$?
check "SIGTERM during the read: ended by it ($rc), nothing left ($(left))" '[ $rc -eq 143 ] && [ -z "$(left)" ]' || head -3 "$W/out"
out=$($UNCORE --backend "replay:$W/many.tar" info 2>&1)
check "the archive is refused without a signal" 'echo "$out" | grep -q "zz-link"' || echo "$out" | head -3

# a gzip snapshot whose trailer's CRC-32 is wrong (RFC 1952 2.3.1: the 8 bytes before the end are CRC32 and
# ISIZE): refused, not replayed (libarchive 3.6 and 3.7 take it); the same bytes with the right CRC replay
cp "$S/tests/snapshots/snbep.tar.gz" "$W/badcrc.tar.gz"
size=$(wc -c <"$W/badcrc.tar.gz")
crc=$(od -An -tu1 -j $((size - 8)) -N1 "$W/badcrc.tar.gz" | tr -d ' ')
printf "$(printf '\\%03o' $(((crc + 1) % 256)))" | dd of="$W/badcrc.tar.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
out=$($UNCORE --backend "replay:$W/badcrc.tar.gz" info 2>&1)
rc=$?
check "a gzip snapshot with a wrong CRC is refused ($rc): $(echo "$out" | head -1)" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "damaged gzip data.*check" && [ -z "$(left)" ]'
out=$($UNCORE --backend "replay:$S/tests/snapshots/snbep.tar.gz" info 2>&1)
check "the snapshot itself replays" 'echo "$out" | grep -q "platform snbep"' || echo "$out" | head -3

rm -rf "$TMPDIR"/*
# SIGKILL halfway through the read: nothing left behind; the next replay of any command runs
$UNCORE --backend "replay:$W/snbep.tar,signal_at=200:9" info >/dev/null 2>&1
rc=$? n=$(files)
check "SIGKILL after 200 members: killed ($rc), nothing left behind ($n files: $(left))" '[ $rc -eq 137 ] && [ "$n" -eq 0 ] && [ -z "$(left)" ]'
$UNCORE --backend "replay:$W/snbep.tar" list >/dev/null 2>&1
rc=$?
check "... the next replay runs ($rc; left: $(left))" '[ $rc -eq 0 ] && [ -z "$(left)" ]'

# a replay stopped (SIGSTOP) after 200 members holds nothing on disk, and one beside it runs
$UNCORE --backend "replay:$W/snbep.tar,signal_at=200:19" info >"$W/stopped.out" 2>&1 &
stopped=$!
for i in $(seq 600); do [ "$(cut -d' ' -f3 /proc/$stopped/stat 2>/dev/null)" = T ] && break; sleep 0.1; done
before=$(left)
$UNCORE --backend "replay:$W/snbep.tar" info >"$W/want" 2>&1
rc=$?
check "a replay beside a stopped one runs ($rc), and neither wrote anything in \$TMPDIR ($before)" \
	'[ $rc -eq 0 ] && [ -z "$before" ] && [ -z "$(left)" ]'
kill -CONT $stopped
wait $stopped
rc=$?
check "... and the stopped one, continued, runs to its end as the other (but the banner's backend) ($rc), nothing left" \
	'[ $rc -eq 0 ] && [ "$(tail -n +2 "$W/want")" = "$(tail -n +2 "$W/stopped.out")" ] && [ -z "$(left)" ]'

out=$($UNCORE --backend "replay:$W/snbep.tar,signal_at=1" info 2>&1)
check "a bad signal_at refused, saying so" 'echo "$out" | grep -q "signal_at=MEMBERS:SIGNAL"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
