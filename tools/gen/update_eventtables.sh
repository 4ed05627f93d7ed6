#!/bin/sh
# Copy Intel's perfmon uncore event files, metric files, mapfile and licence into eventtables/,
# verbatim and laid out as perfmon lays them out (issue 33 point 1).  Core event files are left out:
# the library counts uncore only.  Usage: tools/gen/update_eventtables.sh PERFMON_GIT_DIR [COMMIT]
# (a clone or bare mirror of https://github.com/intel/perfmon); run from the top of the source tree.
set -eu
repo=$1
commit=${2:-HEAD}
# the perfmon directories vendored: the supported platforms, those of the next issue, and Grand Ridge
# (a discovery part with no platform here: perf on any Intel server is tested with its events)
dirs="JKT IVT NHM-EP HSX BDX BDW-DE SKX CLX ICX SPR EMR GNR SRF CWF GRR"
g() { git -C "$repo" "$@"; }
rm -rf eventtables
mkdir -p eventtables
for d in $dirs; do
	# uncore events (standard and experimental), perf's metric files, and the metrics file the mapfile names
	files=$(g ls-tree -r --name-only "$commit" "$d" | grep -E "^$d/(events/[^/]*_uncore(_experimental)?\.json|metrics/perf/[^/]*\.json)$" || true)
	files="$files $(g show "$commit:mapfile.csv" | awk -F, -v d="/$d/" 'index($3, d) == 1 && $4 == "metrics" { print substr($3, 2) }' | sort -u)"
	for f in $files; do
		mkdir -p "eventtables/$(dirname "$f")"
		g show "$commit:$f" > "eventtables/$f"
	done
done
g show "$commit:mapfile.csv" > eventtables/mapfile.csv
g show "$commit:LICENSE" > eventtables/LICENSE
printf 'https://github.com/intel/perfmon\n%s\n' "$(g rev-parse "$commit")" > eventtables/SOURCE
