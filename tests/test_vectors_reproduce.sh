#!/bin/sh
# The golden vectors stay an independent truth only while their generators still write them: each
# generator of tools/vectors/ (which reads Linux's constants, the manuals and the simulated placement, never
# the library) rewrites its platforms' vectors.vec byte for byte.  Run on a copy, so a read-only source tree
# (make distcheck) is never written.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
S=${top_srcdir:-.}
command -v python3 >/dev/null || { echo "SKIP: no python3 to run the generators"; exit 77; }
mkdir -p "$W/tools/vectors"
cp "$S"/tools/vectors/*.py "$W/tools/vectors/"
# generator, platform, how it writes (file: into the tree beside it; out: to its standard output)
for g in "icx_vectors icx file" "skx_vectors skx file" "skx_vectors clx file" "gnr_vectors gnr out" "gnr_vectors srf out" \
	"gnr_vectors cwf out" "hsx_vectors hsx out" "hsx_vectors bdx out" "hsx_vectors bdxde out" "dmr_vectors dmr out"; do
	set -- $g
	gen=$1 plat=$2 how=$3 # check's eval sees its own $1 and $2
	mkdir -p "$W/platforms/$plat"
	rm -f "$W/platforms/$plat/vectors.vec"
	if [ "$how" = file ]; then
		python3 "$W/tools/vectors/$gen.py" "$plat" >/dev/null 2>"$W/err"
	else
		python3 "$W/tools/vectors/$gen.py" "$plat" >"$W/platforms/$plat/vectors.vec" 2>"$W/err"
	fi
	check "tools/vectors/$gen.py $plat runs" '[ $? -eq 0 ] || { cat "$W/err"; false; }'
	check "tools/vectors/$gen.py $plat writes platforms/$plat/vectors.vec as committed" \
		'cmp -s "$W/platforms/$plat/vectors.vec" "$S/platforms/$plat/vectors.vec" ||
		 { diff "$S/platforms/$plat/vectors.vec" "$W/platforms/$plat/vectors.vec" | head -20; false; }'
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
