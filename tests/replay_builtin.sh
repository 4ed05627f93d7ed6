# Sourced by tests/test_replay_sim.sh (PREFIX empty) and tests/test_replay_perf.sh (PREFIX=perf+): every
# built-in platform's snapshot (tests/snapshots, made from the simulated machines) replayed directly, or
# through the perf backend, gives what the simulator gives (the units, every box and where it is, every event,
# every metric group's values) (issue 49, doc/snapshot.md).  Split from tests/test_replay.sh so that
# make -j2 runs the two backends' halves on both cores.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
S=${top_srcdir:-.} B=${top_builddir:-.}
UNCORE=$B/uncore
export TMPDIR="$W/tmp"
mkdir -p "$TMPDIR"
groups() { $UNCORE --backend "$1" list --metrics --format tsv | grep -v '^#' | tail -n +2 | cut -f3 | sort -u; }
# what a backend says of the machine: info without its first line (the backend's name), the events, and
# each metric group's values over a simulated second (or the same refusal)
facts() {
	$UNCORE --backend "$1" info 2>&1 | tail -n +2
	$UNCORE --backend "$1" list --format tsv 2>&1 | grep -v '^#'
	for g in $(groups "$1"); do
		# the stored snapshots predate energy and keep no power PMU events: a perf+replay of a part Linux reads
		# through TPMI reads its energy through powercap, which is not rounded as the power PMU's counts are
		# (3.8 ppm, doc/energy.md); sim: and the other parts read the same joules either way
		case ${1%.tar.gz}:$g in perf+*[:/]gnr:energy | perf+*[:/]srf:energy | perf+*[:/]cwf:energy | perf+*[:/]dmr:energy) continue ;; esac
		echo "== $g"
		# through the kernel a group may need more than a process's 1024 descriptors: locality's four events on
		# each of Clearwater Forest's 144 CHAs a socket
		case $1 in perf+*) fds=,fds=4096 ;; *) fds= ;; esac
		# the stored snapshots predate the memory population (issue 91): they keep no EDAC tree nor SMBIOS table,
		# so a replay knows no peak and has no mem_bw_peak_share row where the simulator, which shows both, has one
		$UNCORE --backend "$1,clock=manual$fds" stat --metric-group "$g" --duration 1 2>&1 | grep -v '^#' |
			grep -v '^socket[0-9]* *mem_bw_peak_share '
	done
}
# (each archive replayed as it is, read into memory by every command: no unpacking; tests/test_replay.sh holds
# a directory unpacked by hand, replay:DIR, to the archive's answer)
for f in "$S"/tests/snapshots/*.tar.gz; do
	p=$(basename "$f" .tar.gz)
	b=$PREFIX
	[ "$b$p" = perf+montecito ] && continue # Linux has no uncore PMUs on Itanium
	facts "${b}sim:$p" >"$W/want" 2>&1
	facts "${b}replay:$f" >"$W/got" 2>&1
	n=$(grep -c "GB/s\|GHz\|%\|M/s\| ns\|B$" "$W/want")
	check "${b}replay of $p's snapshot: what ${b}sim:$p gives ($(wc -l <"$W/want") lines, $n values)" \
		'[ "$n" -gt 0 ] && cmp -s "$W/want" "$W/got" || { diff "$W/want" "$W/got" | head -5; false; }'
done
check "the replays left nothing in their private directories' place ($(ls "$TMPDIR" | wc -l) entries)" '[ -z "$(ls -A "$TMPDIR")" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
