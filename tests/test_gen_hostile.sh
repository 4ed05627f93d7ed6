#!/bin/sh
# Event data stays data (issue 45 point 7): the table generators (tools/gen/gen_perfmon, tools/gen/gen_events)
# compile into the library whatever perfmon JSON, mapfile, .evt or metric file they read.  Fed strings
# holding ??/ (a trigraph for \ under -std=c11), ", \, newlines, control bytes, the end of a comment and
# code, their output must compile cleanly with gcc -std=c11 -trigraphs -Wall -Wextra -Werror and hold
# exactly the input's bytes; names that become file names or reach the C output (the mapfile's fields,
# the maps' file, directory and platform names) outside [A-Za-z0-9._/-] are refused, naming the file,
# line and field.  Every generated file is also compiled as the library is (warnings do not stop it),
# linked with a program that prints its strings and run: a constructor smuggled in as an event
# description or a mapfile path (both worked before the fix) would create run/PWNED.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
# what the generators and gcc said, as it is (check's echo would expand the backslashes of \042...)
say() { [ -s "$2" ] && printf '  %s: %s\n' "$1" "$(head -c 600 "$2")"; }
B=$(cd "${top_builddir:-.}" && pwd) S=$(cd "${top_srcdir:-.}" && pwd)
command -v gcc >/dev/null 2>&1 || { echo "FAIL: gcc is not installed"; exit 1; }
INC="-I$S/common/include -I$S/common -I$B/common"
STRICT="-std=c11 -trigraphs -Wall -Wextra -Werror"
LIB="-std=c11 -Wall -Wextra" # AM_CFLAGS: what the library's build compiles generated files with
cd "$W" || exit 1
M="$W/m??/*" # the maps live where a comment naming their path could end: .../m??/*/units.txt
mkdir -p run ev/HOST/events ev/HOST/metrics/perf ex/X/events evt "$M" plain r1 r2

# H: every kind of byte that broke the old output, ending in ??/ (which escaped the closing quote);
# H_FMT is it for printf, H_JSON the same bytes as a JSON string
H_FMT='a??/\042b\042\134c\nd*/e/*f??=g\047h\ti\001j\303\251k?1\042);system(\042touch PWNED\042);(\042??/'
H_JSON='a??/\"b\"\\c\nd*/e/*f??=g\u0027h\ti\u0001j\u00e9k?1\");system(\"touch PWNED\");(\"??/'
printf "$H_FMT" >h.bin
{ printf EV.; cat h.bin; } >evh.bin
cat >ev/HOST/events/host_uncore.json <<EOF
{"Header": {}, "Events": [
 {"Unit": "HOST UNIT", "EventCode": "0x01", "UMask": "0x01", "Counter": "0,1", "Filter": "hf",
  "EventName": "EV.$H_JSON", "BriefDescription": "$H_JSON", "PublicDescription": "$H_JSON"},
 {"Unit": "HOST UNIT", "EventCode": "0x02", "UMask": "0x00", "Counter": "0", "Filter": "",
  "EventName": "EV2??/", "BriefDescription": "", "PublicDescription": "*/"}
]}
EOF
# a metric file, embedded whole by --generic: H, a newline, H (no newline at the end)
{ cat h.bin; echo; cat h.bin; } >ev/HOST/metrics/perf/host_metrics_perf.json
printf '%s\n' 'Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name' \
	'GenuineIntel-6-F0-[01],V1.0,/HOST/events/host_uncore.json,uncore experimental,,,' >ev/mapfile.csv
# the maps (ours, trusted, but their box and filter names reach the output too)
printf '%s\n' 'json HOST/events/host_uncore.json' 'unit box"??/'"'"'*/x HOST UNIT' 'filter f??/"*/\ hf' >"$M/units.txt"
printf '%s\n' 'dir HOST host discovery' 'filter f??/"*/\ hf' >"$M/dirs.txt"
# NUL after each string of FILEs and literal strings (+TEXT): what print.c prints
want() {
	for s; do
		case $s in +*) printf '%s' "${s#+}" ;; *) cat "$s" ;; esac
		printf '\000'
	done
}
cat >print.c <<'EOF'
#include <stdio.h>
#include "platform/platform.h"
static void put(const char *s)
{
	fputs(s ? s : "(null)", stdout);
	putchar(0);
}
static void events(const struct uc_catalog *c)
{
	for (int i = 0; i < c->n; i++) {
		const struct uc_event_row *r = &c->rows[i];
		put(c->pool + r->name);
		put(c->pool + r->unit);
		put(c->pool + r->filters);
		put(c->pool + r->desc);
		put(c->pool + r->src);
	}
}
#ifdef EVENTS
extern const struct uc_catalog EVENTS;
#endif
#ifdef EMBED
extern const char EMBED[];
#endif
int main(void)
{
	(void)events;
#ifdef EVENTS
	events(&EVENTS);
#endif
#ifdef MAPFILE
	for (int i = 0; i < uc_mapfile_n; i++) {
		put(uc_mapfile[i].dir);
		put(uc_mapfile[i].file);
		put(uc_mapfile[i].version);
		put(uc_mapfile[i].platform);
	}
#endif
#ifdef GENERIC
	for (const struct uc_generic_catalog *c = uc_generic_catalogs; c->dir; c++) {
		put(c->dir);
		put(c->platform);
		put(c->file);
		put(c->version);
		events(c->events);
		put(c->metrics_json);
	}
#endif
#ifdef EMBED
	put(EMBED);
#endif
	return 0;
}
EOF

# built NAME DEFINES: compile NAME.c as the library would, link it with print.c and run the program in run/
# (a command it ran, run/PWNED, is put down to NAME in $ran)
ran=
built() {
	gcc $LIB $INC -c -o "$1.o" "$1.c" 2>/dev/null && gcc $LIB $INC $2 -o "$1.print" print.c "$1.o" 2>"$1.link" &&
		(cd run && "$W/$1.print") >"$1.got"
	set -- $? "$1"
	[ -e run/PWNED ] && ran="$ran $2" && rm -f run/PWNED
	return "$1"
}
# verify NAME DEFINES: NAME.c (exit status of its generator in NAME.rc) compiles cleanly, and its strings
# printed by print.c are NAME.want
verify() {
	v=$1
	say "$v: the generator" "$v.stderr"
	check "$v: the generator exits 0" '[ "$(cat "$v.rc")" = 0 ]'
	gcc $STRICT $INC -c -o "$v.strict.o" "$v.c" >"$v.gcc" 2>&1
	say "$v: gcc" "$v.gcc"
	check "$v: gcc $STRICT compiles it" '[ ! -s "$v.gcc" ]'
	if built "$v" "$2"; then
		check "$v: its strings are the input's bytes" 'cmp -s "$v.got" "$v.want"'
		cmp -s "$v.got" "$v.want" || { echo "  want:"; od -c "$v.want" | head -12; echo "  got:"; od -c "$v.got" | head -12; }
	else
		say "$v: link" "$v.link"
		no "$v: compiled as the library is and linked, it runs"
	fi
}
gen() { # NAME PROGRAM ARG...: generate NAME.c, keeping the exit status and stderr
	name=$1 prog=$2
	shift 2
	"$B/$prog" "$@" >"$name.c" 2>"$name.stderr"
	echo $? >"$name.rc"
}

# --- gen_perfmon: a platform's catalog, the CPU table and the generic catalogs
gen catalog gen_perfmon uc_events_host "$W/ev" "$M/units.txt"
want evh.bin +'box"??/'"'"'*/x' +'f??/"*/\' h.bin +json +'EV2??/' +'box"??/'"'"'*/x' + + +json >catalog.want
verify catalog "-DEVENTS=uc_events_host"
gen mapfile gen_perfmon --mapfile "$W/ev" "$M/dirs.txt"
want +HOST +host_uncore.json +V1.0 +host >mapfile.want
verify mapfile -DMAPFILE
gen generic gen_perfmon --generic "$W/ev" "$M/dirs.txt"
want +HOST +host +HOST/events/host_uncore.json +V1.0 evh.bin +'HOST UNIT' +'f??/"*/\' h.bin +json \
	+'EV2??/' +'HOST UNIT' + + +json ev/HOST/metrics/perf/host_metrics_perf.json >generic.want
verify generic -DGENERIC

# a description that was code: ??/ turned the escaping backslash of its quote into an escaped backslash,
# so the quote ended the string, and // hid the rest of the line (it compiled, with warnings)
P="x??/\"}};int system(const char*);__attribute__((constructor))static void q(void){system((char[]){'t','o','u','c','h',' ','P','W','N','E','D',0});}const struct uc_event r[]={{0},//"
cat >ex/X/events/x.json <<EOF
{"Events": [{"Unit": "X", "EventCode": "0x01", "UMask": "0x01", "Counter": "0", "EventName": "EV",
  "BriefDescription": "$(printf '%s' "$P" | sed 's/["\\]/\\&/g')"}]}
EOF
# (its map where the path in the comment is harmless, so that only the description is hostile)
printf '%s\n' 'json X/events/x.json' 'unit b X' >plain/x.txt
printf '%s\n' 'dir HOST host' >plain/dirs.txt
gen exploit gen_perfmon uc_events_x "$W/ex" "$W/plain/x.txt"
want +EV +b + +"$P" +json >exploit.want
verify exploit "-DEVENTS=uc_events_x"

# --- refused: NAME DIR MAP MESSAGE [SYMBOL]: gen_perfmon fails naming file, line and field; if it does not,
# what it wrote is built and run as above (a constructor it let through creates run/PWNED)
refused() {
	name=$1 dir=$2 map=$3 msg=$4
	if [ -n "$5" ]; then gen "$name" gen_perfmon "$5" "$dir" "$map"; else gen "$name" gen_perfmon --mapfile "$dir" "$map"; fi
	printf '  %s: want %s\n' "$name" "$msg"
	say "$name" "$name.stderr"
	check "$name: refused, naming the file, the line and the field" \
		'[ "$(cat "$name.rc")" != 0 ] && grep -qF -- "$msg" "$name.stderr"'
	[ "$(cat "$name.rc")" = 0 ] && built "$name" -DMAPFILE
}
# a path in the mapfile that closes the table and defines a constructor (it compiled, with a warning)
printf '%s\n' 'Family-model,Version,Filename,EventType' \
	'GenuineIntel-6-F0,V1.0,/X"}};int system(const char*);__attribute__((constructor))static void p(void){system("touch PWNED");}const struct uc_mapfile_row q[]={{.dir="/events/x.json,uncore' >r1/mapfile.csv
refused mapfile_path "$W/r1" "$W/plain/dirs.txt" 'r1/mapfile.csv:2: Filename "/X\042}};int system(const char\052);'
printf '%s\n' 'GenuineIntel-6-F0,V1");system("touch PWNED");(",/HOST/events/host_uncore.json,uncore' >r2/mapfile.csv
refused mapfile_version "$W/r2" "$W/plain/dirs.txt" 'r2/mapfile.csv:1: Version "V1\042);system(\042touch PWNED\042);(\042" is empty or has a byte outside [A-Za-z0-9._/-]'
printf '%s\n' '# a platform name' 'dir HOST ho"st' >"$M/dirs_bad.txt"
refused dir_platform "$W/ev" "$M/dirs_bad.txt" 'dirs_bad.txt:2: dir PLATFORM "ho\042st"'
printf '%s\n' 'json HOST/events/x?.json' 'unit b X' >"$M/units_bad.txt"
refused json_file "$W/ev" "$M/units_bad.txt" 'units_bad.txt:1: json FILE "HOST/events/x\077.json"' uc_events_bad
# a directory whose generic catalog's C name, uc_generic_DIR, would not fit its 95 bytes (it was cut short,
# silently: gcc 14 said so); 85 characters, and a file named x, so that DIR/events/x still fits
long=$(printf 'L%.0s' $(seq 85))
mkdir -p "lg/$long/events" && cp ev/HOST/events/host_uncore.json "lg/$long/events/x"
printf '%s\n' 'Family-model,Version,Filename,EventType' "GenuineIntel-6-F0,V1.0,/$long/events/x,uncore" >lg/mapfile.csv
printf '%s\n' "dir $long other" >"$M/dirs_long.txt"
refused long_dir "$W/lg" "$M/dirs_long.txt" "$long: a directory name this long makes a C name longer than the 95 bytes" --generic

# --- gen_events: .evt names, units, attributes and descriptions, and --embed of a file with H
printf '%s\n' '# hostile names and descriptions' 'unit box"??/*/ HX' \
	'event 0x01 EV??/ ctrs=0-1 src=s??/\ "d??/e\f*/g'"'"'h??=?1"' 'umask 0x02 U??/ filter=q??/*/ "u??/"' \
	'event 0x02 E2 ctrs=0 "plain"' >evt/host.evt
gen events gen_events uc_events_evt evt/host.evt
want +'HX_EV??/.U??/' +'box"??/*/' +'q??/*/' +"d??/e\\f*/g'h??=?1: u??/" +'s??/\' \
	+HX_E2 +'box"??/*/' + +plain + >events.want
verify events "-DEVENTS=uc_events_evt"
cp ev/HOST/metrics/perf/host_metrics_perf.json "$M/m.json" # its path, in the comment, holds ??/*/
gen embed gen_events --embed uc_hostile_embed "$M/m.json"
want "$M/m.json" >embed.want
verify embed -DEMBED=uc_hostile_embed
# --embed of several JSON arrays (a platform's shared metrics, then its own): one array of their elements,
# each file's bytes between its brackets kept, H inside both
{ printf '['; cat h.bin; printf ']'; } >"$M/a.json"
{ printf ' \n['; cat h.bin; printf '\n]\n'; } >"$M/b.json"
gen embed2 gen_events --embed uc_hostile_embed "$M/a.json" "$M/b.json"
{ printf '['; cat h.bin; printf ',\n'; cat h.bin; printf '\n\n]\n'; } >joined.bin
want joined.bin >embed2.want
verify embed2 -DEMBED=uc_hostile_embed
printf '{"MetricName": "x"}\n' >"$M/c.json"
gen embed3 gen_events --embed uc_hostile_embed "$M/a.json" "$M/c.json"
check "embed3: a file that is not one array refused, named" '[ "$(cat embed3.rc)" != 0 ] && grep -q "c.json.*not one JSON array" embed3.stderr'

check "no generated program ran a command (run/PWNED)${ran:+: these did:$ran}" '[ -z "$ran" ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
