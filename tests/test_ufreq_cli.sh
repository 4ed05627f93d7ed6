#!/bin/sh
# uncore freq (issue 68, doc/user-guide.md "Uncore clock limits"): the uncore clock's limits per die on sim:skx
# (the simulator's truth: SKX's 1.2 GHz floor, the profile's 2.7 GHz clock as ceiling and current clock), per
# TPMI cluster on perf+sim:gnr,dies=2 (four uncoreNN entries, their package, domain and cluster ids; the
# package roots left out), a BIOS-pinned clock (fault pinned:uclk=600) from the MSRs without the driver, and a
# part without limits refused with why.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
out=$($UNCORE --backend sim:skx freq 2>&1); rc=$?
check "sim:skx: a line a die, 1200-2700 MHz, initial the same, current 2700 ($rc)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -Eq "^package_00_die_00 +socket 0 die 0 +1200 +2700 +1200 +2700 +2700$" &&
	 echo "$out" | grep -Eq "^package_01_die_01 +socket 1 die 0 +1200 +2700 +1200 +2700 +2700$" &&
	 [ "$(echo "$out" | grep -c "^package_")" -eq 2 ]' || echo "$out"
$UNCORE --backend perf+sim:gnr,dies=2 freq --json >"$W/g.json" 2>"$W/err"; rc=$?
res=$(python3 - "$W/g.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
want = [("uncore%02d" % i, i // 2, i % 2) for i in range(4)]
got = [(r["entry"], r["socket"], r["domain"]) for r in rows]
ok = got == want and all(r["cluster"] == 0 and r["die"] == -1 and r["min_mhz"] == 800 and r["max_mhz"] == 2700
                         and r["current_mhz"] == 2700 and r["source"] == "intel_uncore_frequency (TPMI)" for r in rows)
print("ok" if ok else rows)
PY
)
check "perf+sim:gnr,dies=2 --json: uncore00-03 by package and domain, 800-2700 MHz ($rc: $res)" '[ $rc -eq 0 ] && [ "$res" = ok ]'
out=$($UNCORE --backend sim:icx,ufreq=msr,fault=pinned:uclk=600 freq 2>&1); rc=$?
check "sim:icx without the driver: MSR 0x620/0x621, pinned at 600 MHz, no initial limits ($rc)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "from MSR 0x620/0x621" &&
	 [ "$(echo "$out" | grep -Ec "^msr +socket [01] die 0 +600 +600 +- +- +600$")" -eq 2 ]' || echo "$out"
out=$($UNCORE --backend sim:hsx freq 2>&1); rc=$?
check "sim:hsx: refused, saying which parts Linux knows ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -q "no uncore clock limits: .*hsx keeps none in MSR 0x620"'
out=$($UNCORE --backend sim:skx freq --bogus 2>&1); rc=$?
check "an unknown argument exits 2 ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "unexpected argument"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
