#!/bin/sh
# The library's house: calls and includes go one way between the folders of common/ (tools/checks/layers.py
# reads the built objects' symbols and the sources' includes), and common/ itself holds folders only, so
# that its parts show at a glance.  A loop across two folders fails with its members named, and so does a call
# or include that runs up the layers of common/ (LAYERS in tools/checks/layers.py).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
src=${top_srcdir:-.} build=${top_builddir:-.}
out=$(python3 "$src/tools/checks/layers.py" "$build" "$src" 2>&1)
rc=$?
echo "$out"
check "no call or include loop spans two folders of common/" '[ $rc -eq 0 ] && echo "$out" | grep -q " 0 loops across folders$"'
check "calls and includes go down the layers of common/, each folder in one, none out of common/" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "^0 calls or includes up the layers"'
files=$(echo "$out" | sed -n 's/.*, \([0-9]*\) files directly in common\/.*/\1/p')
check "common/ holds folders only ($files files directly)" '[ "$files" = 0 ]'
# the house's rooms: what is installed (the library, the CLI, the collectd plugin, the PAPI component) is
# built from the library's and the adaptors' folders; tools/ holds only what builds and checks the project
installed=$(sed -n '/^\(libuncore_impl_la\|uncore\|intel_uncore_la\)_SOURCES *=/,/[^\\]$/p' "$src/Makefile.am")
in_tools=$(echo "$installed" | tr ' \t' '\n\n' | grep '^tools/' | tr '\n' ' ')
check "no installed program is built from tools/ (${in_tools:-none})" '[ -n "$installed" ] && [ -z "$in_tools" ]'
check "the CLI has its own folder beside the adaptors" \
	'echo "$installed" | grep -q "cli/uncore\.c" && [ -f "$src/cli/uncore.c" ] && [ -d "$src/papi_component" ] && [ -d "$src/collectd_plugin" ]'
# the measure itself: a call from a lower folder up into the session layer is a loop it names
mkdir -p "$W/common/util" "$W/common/session"
printf 'int sess_x(void);\nint util_y(void) { return sess_x(); }\n' > "$W/common/util/y.c"
printf 'int util_y(void);\nint sess_x(void) { return util_y(); }\n' > "$W/common/session/x.c"
for d in util session; do
	mkdir -p "$W/build/common/$d/.libs"
	f=$(ls "$W/common/$d")
	cc -c -o "$W/build/common/$d/.libs/libuncore_impl_la-${f%.c}.o" "$W/common/$d/$f"
done
bad=$(python3 "$src/tools/checks/layers.py" "$W/build" "$W" 2>&1)
check "a loop between util/ and session/ is found and named" \
	'echo "$bad" | grep -q "call loop across session, util: session/x.c util/y.c"'
# the layers (LAYERS in layers.py): a call from open/ up into jobs/ is named though it closes no loop (open/
# once called jobs_release by name), and so is a folder placed in no layer and an include that climbs out of
# common/ into an adaptor (a library file including cli/cli.h)
mkdir -p "$W/up/common/open" "$W/up/common/jobs" "$W/up/common/newroom" "$W/up/cli" "$W/up/build"
printf 'void jobs_let(void);\nvoid close_it(void) { jobs_let(); }\n' > "$W/up/common/open/o.c"
printf 'void jobs_let(void) {}\n' > "$W/up/common/jobs/j.c"
printf '#include "../../cli/cli.h"\n' > "$W/up/common/newroom/n.c"
: > "$W/up/cli/cli.h"
for d in open jobs newroom; do
	mkdir -p "$W/up/build/common/$d/.libs"
	f=$(ls "$W/up/common/$d")
	cc -c -I"$W/up/common" -o "$W/up/build/common/$d/.libs/libuncore_impl_la-${f%.c}.o" "$W/up/common/$d/$f"
done
up=$(python3 "$src/tools/checks/layers.py" "$W/up/build" "$W/up" 2>&1)
check "a call from open/ up into jobs/ is found and named" \
	'echo "$up" | grep -q "^call up the layers, open (opening) -> jobs (clients): open/o.c -> jobs/j.c$"' || echo "$up"
check "a folder with no layer, and an include out of common/, are found and named" \
	'echo "$up" | grep -q "^folder with no layer: common/newroom$" && echo "$up" | grep -q "^include out of common/: newroom/n.c includes ../../cli/cli.h$" && echo "$up" | grep -q "^3 calls or includes up"'
# a platform is one folder: its facts are data of its descriptor, read through it, never by comparing its name
# (issue 77); the simulator's kinds too (their IIO registers and SNC layouts are sim_kind data)
named=$(python3 "$src/tools/checks/layers.py" --names "$src")
check "no platform's name compared outside platforms/, tests/ and generated files" \
	'echo "$named" | tail -1 | grep -q "^0 platform names"' || echo "$named"
mkdir -p "$W/names/platforms/skx" "$W/names/common/energy"
: > "$W/names/platforms/skx/platform.c"
printf 'int f(const char *p) { return !strcmp(p, "skx"); }\n' > "$W/names/common/energy/e.c"
named=$(python3 "$src/tools/checks/layers.py" --names "$W/names")
check "a name compared in common/ is found and named" \
	'echo "$named" | grep -q "compared outside platforms/: common/energy/e.c:1"'
# and through a helper of the file's that wraps the comparison (sim_pcicfg.c had one)
printf 'static int is(const char *k, const char *n)\n{\n\treturn !strcmp(k, n);\n}\nint g(const char *k) { return is(k, "skx") ? 0 : 2; }\n' > "$W/names/common/energy/e.c"
named=$(python3 "$src/tools/checks/layers.py" --names "$W/names")
check "a name compared through a helper, is(k, \"skx\"), is found and named" \
	'echo "$named" | grep -q "compared outside platforms/: common/energy/e.c:5"'
# and a table keyed by the name (sim_ufreq.c had one)
printf 'static const struct { const char *p; int r; } t[] = {\n\t{ "skx", 12 },\n};\n' > "$W/names/common/energy/e.c"
named=$(python3 "$src/tools/checks/layers.py" --names "$W/names")
check "a table row keyed by a name, { \"skx\", 12 }, is found and named" \
	'echo "$named" | grep -q "compared outside platforms/: common/energy/e.c:2"'
# the simulator is a host (issue 77): the feature folders read its files through the backend's one file view
# and drive it through the access layer; only the simulator, its kernel and the replay call sim_* functions
sims=$(python3 "$src/tools/checks/layers.py" --sim "$src")
check "no sim_* function called outside common/sim, common/sim_kernel and common/replay ($(echo "$sims" | tail -n 1))" \
	'echo "$sims" | grep -q "^0 calls of the simulator outside it$"'
mkdir -p "$W/sims/common/sim" "$W/sims/common/ufreq" "$W/sims/platforms/skx"
printf 'int sim_ufreq_sysfs(const void *s, void *m);\n' > "$W/sims/common/sim/sim_ufreq.h"
printf '/* sim_ufreq_sysfs(s, m) in a comment */\nint f(void *s) { return sim_ufreq_sysfs(s, 0); }\n' > "$W/sims/common/ufreq/u.c"
printf 'int g(void *s) { return sim_ufreq_sysfs(s, 0); }\n' > "$W/sims/platforms/skx/sim_skx.c"
planted=$(python3 "$src/tools/checks/layers.py" --sim "$W/sims")
check "a sim_* call planted in common/ufreq is found and named, one in platforms/skx/sim_skx.c is not" \
	'echo "$planted" | grep -q "outside it: common/ufreq/u.c:2$" && echo "$planted" | grep -q "^1 calls of the simulator outside it$"'
# a replay is a host too (issue 77): its node's files are its access's one file view; no feature reads the
# unpacked directory (replay_dir_of) or swaps the process's sysroot around a call (sysroot_set_override)
views=$(python3 "$src/tools/checks/layers.py" --view "$src")
check "no replayed node's files read beside the file view outside common/replay and common/access ($(echo "$views" | tail -n 1))" \
	'echo "$views" | grep -q "^0 reads of a replayed node.s files beside the file view$"' || echo "$views"
mkdir -p "$W/views/common/numa" "$W/views/common/replay" "$W/views/common/access"
printf '/* replay_dir_of(a) in a comment */\nint f(void *a) { return replay_dir_of(a) != 0; }\n' > "$W/views/common/numa/n.c"
printf 'int g(void) { return sysroot_set_override("/x") != 0; }\n' > "$W/views/common/numa/m.c"
printf 'int h(void *a) { return replay_dir_of(a) != 0; }\n' > "$W/views/common/replay/r.c"
printf 'int k(void) { return sysroot_set_override(0) != 0; }\n' > "$W/views/common/access/s.c"
planted=$(python3 "$src/tools/checks/layers.py" --view "$W/views")
check "a replay_dir_of and a sysroot_set_override call planted in common/numa are found and named, none in common/replay or common/access" \
	'echo "$planted" | grep -q "file view: common/numa/n.c:2$" && echo "$planted" | grep -q "file view: common/numa/m.c:1$" &&
	 echo "$planted" | grep -q "^2 reads of"' || echo "$planted"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
