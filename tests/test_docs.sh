#!/bin/sh
# Every `uncore` command line written in README.md and doc/*.md runs on the simulator, and every
# relative link of those pages reaches a file (and a heading, for #anchor).
#
# What is a command line:
#  * in a code block (a fenced ``` block, or a line indented by 4 spaces or more), a line that starts,
#    after an optional "$ " prompt, with "uncore ", "build/uncore " or "/usr/bin/uncore "; a
#    "# comment" at its end is not part of it;
#  * in prose, an inline code span on one line whose whole text is such a command and names a command
#    word after it (`uncore info`, `uncore list --json`; a span of "uncore" alone names the program).
#    A span of "uncore stat" with nothing to count (no -e, -M or --metric-group) is a phrase about
#    stat's options (`uncore stat -x SEP`), not a command line: it is listed as not run.
# How it is run: through sh in a scratch directory (so "> FILE" lands there), with the build's binary
# whatever path the line gives, stdin from /dev/null, for at most 120 s (a hang detector: the slowest line,
# a perf+replay of EMR, takes 9.5 s alone and passed 30 s on a loaded machine); and with these changes:
#  * the backend: sim:... and perf+sim:... run as written; a real backend runs over its simulated
#    form, perf as perf+sim:P, direct and auto as sim:P; a line naming no backend runs with
#    UNCORE_BACKEND=sim:P.  P is snbep, or emr when the line names an event, metric or metric group
#    that snbep has not;
#  * "-- CMD ..." becomes "-- sleep 0.1", "--duration S" at most 0.3 s and "-I MS" at most 100 ms;
#    "check" moves 8 MiB a generator after a baseline of 0.1 s (--size 8 --seconds 0.1);
#  * the example file my_cpu_uncore.json is Intel's EMR uncore file of eventtables/EMR/events/;
#  * a line with another placeholder (an upper-case word that is not an event such as FILE, SEP or
#    N, or one with "<", "[", "..." or "…") is not run, and says so with the placeholder.
# A line fails when it exits non-zero, runs out of time, or prints "unknown" or "usage:" (but a help
# command).  A line meant to fail says so in its comment, "# error: TEXT": it must exit non-zero and
# print TEXT.  Each failure is one FAIL line with its file and line number.
#
# Every other command block of those pages (a code block whose first command is a program, a script of
# the tree, or sudo: the build, PAPI's and MPI's lines, the packages) says on the line before it, in an
# HTML comment, what this test does with it:
#    <!-- test_docs: runs[ in DIR] -->   run as written under sh -e, in a fresh copy of the checkout (git's
#                                        files), in DIR of it, after what the page's earlier blocks exported;
#                                        $PREFIX is PAPI's prefix.  Not run, saying why: in a release tarball
#                                        (make distcheck builds it itself), without PAPI for a block naming
#                                        $PREFIX, and after a block of the page that was not run
#    <!-- test_docs: runs, make -n: WHY -->  a build's block, run so, but its make as make -n (its rules, not
#                                        its compile): WHY names the build of the same run that compiles the
#                                        same files the same way, which must have passed.  The one such
#                                        build: the .debs' (tests/shared_debs.sh: autoreconf -fi, configure
#                                        --prefix=/usr --sysconfdir=/etc and make -j in a fresh copy of git's
#                                        files, with Debian's flags); where it cannot be built here, the
#                                        block's make runs as written
#    <!-- test_docs: not run: WHY -->    not run, WHY printed; the packages its apt-get install lines name
#                                        must exist in the configured Debian archive
# A command block without one fails, so a new one is either run or says why not.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
SRC=${top_srcdir:-.}
cd "$SRC" || exit 1
SRC=$(pwd)
case $UNCORE in /*) ;; *) UNCORE=$OLDPWD/$UNCORE ;; esac
PAGES="README.md $(ls doc/*.md)"
# the line's binary, whichever path it names, is the build's
mkdir -p "$W/bin" "$W/run"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$UNCORE" >"$W/bin/uncore"
chmod +x "$W/bin/uncore"
# what Sandy Bridge-EP has: event names, metric names and metric groups
{
	"$UNCORE" --backend sim:snbep list --format tsv | cut -f2
	"$UNCORE" --backend sim:snbep list --metrics --format tsv | cut -f1,3 | tr '\t' '\n'
} >"$W/snbep.names" 2>/dev/null

lines=$(grep -c '' README.md)
check "README.md is at most 250 lines ($lines)" '[ "$lines" -le 250 ]'

# FILE <tab> LINE <tab> code|span <tab> COMMAND <tab> COMMENT, one a command line
awk '
function cmd(s) { return s ~ /^(build\/|\/usr\/bin\/)?uncore / }
FNR == 1 { fence = 0 }
/^ *```/ { fence = !fence; next }
{
	if (fence || /^    /) {
		s = $0; sub(/^ +/, "", s); sub(/^\$ /, "", s)
		if (!cmd(s)) next
		c = ""
		if (match(s, /[ \t]#/)) { c = substr(s, RSTART + 1); s = substr(s, 1, RSTART - 1) }
		sub(/[ \t]+$/, "", s); sub(/^# */, "", c)
		printf "%s\t%d\tcode\t%s\t%s\n", FILENAME, FNR, s, c
		next
	}
	s = $0
	while (match(s, /`[^`]*`/)) {
		span = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
		if (cmd(span)) printf "%s\t%d\tspan\t%s\t\n", FILENAME, FNR, span
	}
}' $PAGES >"$W/commands"

# the platform a line runs on: snbep unless it names what snbep has not
platform() {
	for w in $(printf '%s\n' "$1" | awk '{ for (i = 1; i < NF; i++)
		if ($i == "-e" || $i == "-M" || $i == "--metric-group") { n = split($(i + 1), a, ","); for (j = 1; j <= n; j++) { sub(/:.*/, "", a[j]); print a[j] } } }'); do
		grep -qxF "$w" "$W/snbep.names" || { echo emr; return; }
	done
	echo snbep
}
# the first word of a line that holds a placeholder, if any
placeholder() {
	printf '%s\n' "$1" | awk '{ for (i = 1; i <= NF; i++) { n = split($i, part, /[,=:]/)
		for (j = 1; j <= n; j++) if (part[j] !~ /^UNC_/ && part[j] ~ /^[A-Z][A-Z0-9_]*$|[<[]|\.\.\.|…/) { print $i; exit } } }'
}
ran=0 skipped=0
while IFS='	' read -r file line kind text comment; do
	where="$file:$line: $text"
	words=" $text "
	if [ "$kind" = span ]; then
		case $words in *" stat "*) case $words in *" -e "* | *" -M "* | *" --metric-group "*) ;; *)
			skipped=$((skipped + 1)); echo "not run: $where (a phrase about stat's options: nothing to count)"; continue ;;
		esac ;; esac
	fi
	# the command after "--" is a short sleep; durations and intervals are cut short
	run=$(printf '%s\n' "$text" | sed 's/ --backend=/ --backend /; s/ -- .*/ -- sleep 0.1/; s/my_cpu_uncore\.json/$RT\/eventtables\/EMR\/events\/emeraldrapids_uncore.json/' |
		sed 's/^[^ ]*uncore /uncore /' |
		awk '{ for (i = 2; i <= NF; i++) {
			if ($(i - 1) == "--duration" && $i + 0 > 0.3) $i = "0.3"
			if ($(i - 1) == "-I" && $i + 0 > 100) $i = "100"
			if ($(i - 1) == "--size" || $(i - 1) == "--seconds") $(i - 1) = $i = "" }
		  if ($0 ~ / check( |$)/) $0 = $0 " --size 8 --seconds 0.1"; print }')
	ph=$(placeholder "$(printf '%s\n' "$run" | sed 's/\$RT[^ ]*//')")
	if [ -n "$ph" ]; then
		skipped=$((skipped + 1)); echo "not run: $where (placeholder $ph)"; continue
	fi
	p=$(platform "$run")
	be=sim:$p
	case $run in
	*" --backend perf "*) run=$(printf '%s\n' "$run" | sed "s/ --backend perf / --backend perf+sim:$p /") ;;
	*" --backend direct "* | *" --backend auto "*) run=$(printf '%s\n' "$run" | sed -E "s/ --backend (direct|auto) / --backend sim:$p /") ;;
	esac
	case $run in *" --backend "*) be= ;; esac
	ran=$((ran + 1))
	rc=0
	(cd "$W/run" && PATH="$W/bin:$PATH" RT="$SRC" UNCORE_BACKEND=$be timeout 120 sh -c "$run" \
		</dev/null >"$W/out" 2>&1) || rc=$?
	shown=$where
	[ "$run" = "$text" ] && [ -z "$be" ] || shown="$where (ran: ${be:+UNCORE_BACKEND=$be }$run)"
	case $comment in
	error:*)
		want=${comment#error: }
		if [ $rc -ne 0 ] && grep -qF -- "$want" "$W/out"; then ok "$shown: refused as written"
		else no "$shown: should fail with '$want', exit $rc: $(head -3 "$W/out")"; fi
		continue ;;
	esac
	bad=
	[ $rc -eq 0 ] || bad="exit $rc"
	grep -qi unknown "$W/out" && bad="$bad, prints 'unknown'"
	case $words in *" help "* | *" --help "*) ;; *) grep -qi 'usage:' "$W/out" && bad="$bad, prints 'usage:'" ;; esac
	# the first lines, and what failed where the output is a table of verdicts (uncore check)
	if [ -z "$bad" ]; then ok "$shown"; else no "$shown: ${bad#, }: $(head -3 "$W/out"; grep -E 'FAIL|uncore: ' "$W/out" | head -5)"; fi
done <"$W/commands"
check "the pages' command lines ran: $ran (at least 20), $skipped not run" '[ "$ran" -ge 20 ]'

# --- command blocks: FILE <tab> LINE <tab> TAG, and the block's lines in $W/blocks/N
mkdir -p "$W/blocks"
awk -v dir="$W/blocks" '
function flush() { if (n) { close(out); printf "%s\t%d\t%s\n", page, start, tag }; n = 0 }
function add(s) { if (!n) { start = FNR; out = dir "/" ++nb; tag = pending }; sub(/^ +/, "", s); print s > out; n++ }
FNR == 1 { flush(); fence = 0; pending = ""; page = FILENAME }
/^ *```/ { if (fence) flush(); else { pending = last }; fence = !fence; next }
fence { add($0); next }
/^    / { if (!n) pending = last; add($0); next }
/^ *$/ { if (n) print "" > out; next }
{ flush(); last = $0; pending = "" }
END { flush() }' $PAGES >"$W/blocks.list"
# a copy of the checkout as a fresh clone has it: git's files (committed or not, not ignored)
fresh=$W/fresh
mkdir -p "$fresh"
top=$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null) # the tree is a checkout of its own (a tarball unpacked inside one is not)
clone=
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$SRC" && pwd -P)" ]; then
	clone=yes
	git -C "$SRC" ls-files --cached --others --exclude-standard -z | (cd "$SRC" && tar cf - --null --no-recursion -T - 2>/dev/null) |
		(cd "$fresh" && tar xf -)
fi
# is WORD, the first of a line past its VAR=value words, a command to run (not output, conf or C)?
is_command() {
	case $1 in uncore) return 1 ;; sudo | ./* | /opt/* | /usr/*) return 0 ;; esac # uncore: its lines run above, one at a time (an installed uncore must not change that: test_deb installs one)
	[ -f "$SRC/$1" ] || command -v "$1" >/dev/null 2>&1
}
first_word() { sed -n '/^[^#]/{p;q;}' "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[A-Za-z_][A-Za-z0-9_]*=/) { print $i; exit } }'; }
nb=0 blocks_run=0
while IFS='	' read -r file line tag; do
	nb=$((nb + 1))
	b=$W/blocks/$nb
	# blocks of uncore lines alone are run above, one line at a time
	[ -z "$(grep -v '^#' "$b" | grep -v '^$' | grep -vE '^(\$ )?(build/|/usr/bin/)?uncore( |$)')" ] && continue
	w=$(first_word "$b")
	[ -n "$w" ] && is_command "$w" || continue
	where="$file:$line"
	tag=$(printf '%s\n' "$tag" | sed -n 's/^ *<!-- test_docs: \(.*\) -->$/\1/p')
	case $tag in
	"not run: "*)
		echo "not run: $where: ${tag#not run: }"
		for pkg in $(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$b" | sed -n 's/.*apt-get install \(.*\)/\1/p' |
			tr ' ' '\n' | grep -v '^-' | grep -v '[*/\\]'); do
			check "$where: Debian has the package $pkg" 'apt-cache show "$pkg" >/dev/null 2>&1'
		done ;;
	runs | "runs in "* | "runs, make -n: "*)
		dry=
		case $tag in "runs, make -n: "*) dry=${tag#runs, make -n: } tag=runs ;; esac
		# the .debs' build stands for the block's compile only where it can be made (else make runs)
		if [ -n "$dry" ] && ! { command -v dpkg-buildpackage && command -v dh && [ -n "${top_builddir:-}" ]; } >/dev/null 2>&1; then
			echo "$file:$line: its make runs as written: the .debs ($dry) cannot be built here"
			dry=
		fi
		sub=.; case $tag in "runs in "*) sub=${tag#runs in } ;; esac
		held=$W/held.$(echo "$file" | tr '/.' '__') # a block the page's later ones build on was not run
		why=
		if [ -z "$clone" ]; then
			why="the tree is not a clone (a release tarball, which make distcheck builds and tests itself)"
		elif [ -f "$held" ]; then
			why="it follows $(cat "$held"), which was not run"
		elif grep -q '\$PREFIX' "$b" && [ -z "${PAPI_PREFIX:-}" ]; then
			why="it needs PAPI's prefix, and this build has no PAPI (--with-papi)"
		fi
		if [ -n "$why" ]; then
			echo "not run: $where: $why"
			[ -f "$held" ] || echo "$where" >"$held"
			continue
		fi
		blocks_run=$((blocks_run + 1))
		# a reader types a page's blocks into one shell: what an earlier one exported holds in the later ones
		env=$W/exports.$(echo "$file" | tr '/.' '__')
		{ [ -z "$dry" ] || echo 'make() { command make -n "$@"; }'; cat "$env" "$b"; } >"$b.sh" 2>/dev/null
		grep '^export ' "$b" >>"$env"
		rc=0
		(cd "$fresh/$sub" && PREFIX=${PAPI_PREFIX:-} timeout 900 sh -e "$b.sh" </dev/null >"$W/out" 2>&1) || rc=$?
		check "$where: the block runs as written in a fresh tree$([ -z "$dry" ] || echo ", make as make -n") (exit $rc)$([ $rc -eq 0 ] || { echo ':'; tail -5 "$W/out"; })" '[ $rc -eq 0 ]'
		if [ -n "$dry" ]; then
			echo "$where: its compile: $dry"
			rc=0
			TMPDIR=$W "$SRC/tests/shared_debs.sh" "$W/debs" "$W/debs.log" || rc=$? # (what the build leaves in TMPDIR goes with W)
			check "$where: its make's compile passed in the .debs' build of these sources (rc $rc)$([ $rc -eq 0 ] || { echo ':'; tail -5 "$W/debs.log"; })" '[ $rc -eq 0 ]'
		fi ;;
	*) no "$where: a command block ($w ...) says neither <!-- test_docs: runs --> nor <!-- test_docs: not run: WHY --> on the line before it" ;;
	esac
done <"$W/blocks.list"
[ -z "$clone" ] || check "command blocks run as written: $blocks_run (at least 1)" '[ "$blocks_run" -ge 1 ]'

# every relative link reaches its file, and its #anchor a heading there (GitHub's ids: lower case,
# punctuation but - and _ left out, spaces as -)
anchors() { sed -n 's/^#\{1,6\} //p' "$1" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'; }
bad=
for page in $PAGES; do
	dir=$(dirname "$page")
	for link in $(grep -o '\]([^)]*)' "$page" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:'); do
		target=${link%%#*} anchor=
		case $link in *'#'*) anchor=${link#*#} ;; esac
		[ -n "$target" ] && target=$dir/$target || target=$page
		if [ ! -f "$target" ]; then bad="$bad $page:$link"
		elif [ -n "$anchor" ] && ! anchors "$target" | grep -qxF "$anchor"; then bad="$bad $page:$link"; fi
	done
done
check "every relative link of README.md and doc/*.md reaches its page and heading${bad:+ (broken:$bad)}" '[ -z "$bad" ]'
for page in doc/*.md; do
	check "README.md links to $page" 'grep -qF "]($page)" README.md'
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
