#!/bin/sh
# uncore check by the node's memory population (issue 91): the simulated boards' channels populated as the real
# boards are (sim:icx the Lenovo SR630 V2's 8 channels of Ice Lake-SP's 12 boxes, two DIMMs each; sim:spr the HPE
# DL380 Gen11's 8, one each; sim:skx and sim:clx one on each of 6; sim:bdx the Dell R730's 4 of 8 boxes; snbep,
# ivbep, hsx, emr as their boards say; sim:spr,hbm=only a Xeon Max without DDR) or as dimms= says, the simulator moving traffic on populated channels alone and showing
# the EDAC tree i10nm_edac writes.  A sound node passes, counting exactly the bytes its generators moved; a
# populated channel whose counter is dead fails; an empty channel (or a box that is no channel) that counts fails as
# a phantom; without EDAC (edac=off) a channel counting nothing is a warning, possibly empty, not a failure.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
ARGS="--seconds 0.1 --size 32 --socket 0"

run() { $UNCORE --backend "$1,clock=manual" check $ARGS >"$W/out" 2>"$W/err"; rc=$?; }
row() { grep -E "^socket 0: $1 " "$W/out"; }

# the SR630 V2's population: 8 populated channels, ICX's 4 spare boxes (2, 5, 8, 11) empty and counting nothing
run sim:icx
check "sim:icx (SR630 V2: 8 channels x 2 DIMMs): exit 0, no FAIL (exit $rc: $(grep " FAIL" "$W/out" | head -c 300)$(head -c 200 "$W/err"))" \
	'[ $rc -eq 0 ] && ! grep -q " FAIL" "$W/out" && ! grep -q " WARN" "$W/out"'
check "sim:icx: every channel counts: 8 channels compared, PASS" 'row "every channel counts" | grep -qE " 8, least 100% of mean +PASS$"'
check "sim:icx: the 4 boxes that are no channel count nothing, PASS" \
	'row "empty channels count nothing" | grep -qE " 4 empty, most 0.0 MiB +PASS$"'
check "sim:icx: the bytes moved are the bytes counted" \
	'[ "$(grep -cE "^(streaming read|non-temporal write|copy): socket 0 (read|write) bytes .* 32.0 MiB +PASS$" "$W/out")" -eq 4 ]'

# a half-filled Sapphire Rapids: one DIMM on every second channel (4 of 8), and a 2-1 mix with 2 empty on socket 1
for pop in 10101010 11110000/01010101; do
	run "sim:spr,dimms=$pop"
	check "sim:spr,dimms=$pop: exit 0, no FAIL (exit $rc: $(grep " FAIL" "$W/out" | head -c 300)$(head -c 200 "$W/err"))" \
		'[ $rc -eq 0 ] && ! grep -q " FAIL" "$W/out"'
	check "sim:spr,dimms=$pop: 4 channels compared, 4 empty counting nothing" \
		'row "every channel counts" | grep -qE " 4, least 100% of mean +PASS$" &&
		 row "empty channels count nothing" | grep -qE " 4 empty, most 0.0 MiB +PASS$"'
	check "sim:spr,dimms=$pop: counts its truth, 32.0 MiB each way" \
		'[ "$(grep -cE "^(streaming read|non-temporal write|copy): socket 0 (read|write) bytes .* 32.0 MiB +PASS$" "$W/out")" -eq 4 ]'
done

# a partially populated node of three generations (i10nm's Ice Lake-SP and Sapphire Rapids above, skx_edac's
# Skylake-SP here): channels compared and empty ones as the population says, the bytes exact
for pp in "sim:icx,dimms=22002200|4|8" "sim:skx,dimms=110110|4|2" "sim:clx,dimms=101010/111111|3|3"; do
	spec=${pp%%|*} rest=${pp#*|}
	nch=${rest%|*} nempty=${rest#*|}
	run "$spec"
	check "$spec: exit 0, $nch channels compared, $nempty empty boxes counting nothing, 32.0 MiB each way (exit $rc: $(grep " FAIL" "$W/out" | head -c 300))" \
		'[ $rc -eq 0 ] && ! grep -q " FAIL" "$W/out" && row "every channel counts" | grep -qE " $nch, least 100% of mean +PASS$" &&
		 row "empty channels count nothing" | grep -qE " $nempty empty, most 0.0 MiB +PASS$" &&
		 [ "$(grep -cE "^(streaming read|non-temporal write|copy): socket 0 (read|write) bytes .* 32.0 MiB +PASS$" "$W/out")" -eq 4 ]'
done
run "sim:skx,dimms=110110,fault=phantom:imc:2"
check "sim:skx,dimms=110110,fault=phantom:imc:2: exit 1, the empty imc 2 a phantom" \
	'[ $rc -eq 1 ] && row "empty channels count nothing" | grep -qE "imc 2: .* FAIL: imc 2 counted .*EDAC lists no DIMM on it"'

# every other generation's board (sb_edac's Sandy Bridge-EP to Broadwell-EP, Emerald Rapids) and a partially
# populated node of two of them: channels compared and empty boxes as each board says (platforms/<p>/sim_memory.c:
# snbep 4 of 4; ivbep, hsx, bdx the two home agents' channels 0 and 1, 4 of 8; emr 8 of 8), counting 32.0 MiB
# each way; the idle row bounding the populated channels alone (72 GB/s each)
for pp in "sim:snbep|4|0" "sim:ivbep|4|4" "sim:hsx|4|4" "sim:bdx|4|4" "sim:emr|8|0" \
	"sim:bdx,dimms=1000/1100|1|7" "sim:hsx,dimms=0120/2222|2|6" "sim:emr,dimms=11001100|4|4"; do
	spec=${pp%%|*} rest=${pp#*|}
	nch=${rest%|*} nempty=${rest#*|}
	run "$spec"
	check "$spec: exit 0, $nch channels compared, $nempty empty counting nothing, 32.0 MiB each way, idle bound $((72 * nch)) GB/s (exit $rc: $(grep " FAIL" "$W/out" | head -c 300))" \
		'[ $rc -eq 0 ] && ! grep -qE " (FAIL|WARN)" "$W/out" && grep -q "^# PASS: every check passed$" "$W/out" &&
		 row "every channel counts" | grep -qE " $nch, least 100% of mean +PASS$" &&
		 { [ "$nempty" -eq 0 ] && row "empty channels count nothing" | grep -q "SKIP: no empty channel" ||
		   row "empty channels count nothing" | grep -qE " $nempty empty, most 0.0 MiB +PASS$"; } &&
		 grep -qE "^idle: socket 0 memory traffic +<= $((72 * nch)) GB/s \($nch channels\)" "$W/out" &&
		 [ "$(grep -cE "^(streaming read|non-temporal write|copy): socket 0 (read|write) bytes .* 32.0 MiB +PASS$" "$W/out")" -eq 4 ]'
done
# a dead populated channel and a phantom empty one on each of them (sb_edac's box 4 is home agent 1's channel 0,
# box 2 agent 0's channel 2, no DIMM there)
for pp in "sim:snbep|dead|1" "sim:ivbep|dead|4" "sim:hsx|dead|5" "sim:bdx|dead|0" "sim:emr|dead|7" \
	"sim:ivbep|phantom|2" "sim:hsx|phantom|7" "sim:bdx|phantom|3" "sim:emr,dimms=11001100|phantom|6" \
	"sim:bdx,dimms=1000/1100|phantom|1"; do
	spec=${pp%%|*} rest=${pp#*|}
	kind=${rest%|*} box=${rest#*|}
	run "$spec,fault=$kind:imc:$box"
	if [ "$kind" = dead ]; then
		check "$spec,fault=dead:imc:$box: exit 1, imc $box FAIL as a channel EDAC lists DIMMs on (exit $rc)" \
			'[ $rc -eq 1 ] && row "every channel counts" | grep -qE "imc $box: 0.0 MiB +FAIL: imc $box counted 0% .*yet EDAC lists DIMMs on it" &&
			 grep -q "^# FAIL" "$W/out"'
	else
		check "$spec,fault=phantom:imc:$box: exit 1, the empty imc $box FAIL as a phantom (exit $rc)" \
			'[ $rc -eq 1 ] && row "empty channels count nothing" | grep -qE "imc $box: .* FAIL: imc $box counted .*EDAC lists no DIMM on it: a phantom"'
	fi
done

# Xeon Max in HBM-only mode (no DDR DIMM): the bytes rows count its HBM, exactly what moved, the DDR comparison and
# what rests on DDR (attribution, the DRAM power) skipped saying so; a DDR box that counts there is still a phantom
run "sim:spr,hbm=only"
check "sim:spr,hbm=only: exit 0, the bytes counted in HBM 32.0 MiB each way, no FAIL (exit $rc: $(grep " FAIL" "$W/out" | head -c 300))" \
	'[ $rc -eq 0 ] && ! grep -q " FAIL" "$W/out" &&
	 [ "$(grep -cE "^(streaming read|non-temporal write|copy), HBM only: socket 0 (read|write) bytes +32.0 MiB \.\. 49.6 MiB +32.0 MiB +PASS$" "$W/out")" -eq 4 ]'
check "sim:spr,hbm=only: channels SKIP (no DDR DIMM), 8 empty DDR boxes count nothing, idle bound its 32 HBM channels" \
	'row "every channel counts" | grep -q "SKIP: EDAC lists no DDR DIMM on socket 0 (HBM only" &&
	 row "empty channels count nothing" | grep -qE " 8 empty, most 0.0 MiB +PASS$" &&
	 grep -qE "^idle: socket 0 memory traffic +<= 2304 GB/s \(32 channels\)" "$W/out" &&
	 grep -q "^attribution: two CPU sets at once .*SKIP: socket 0 has no DDR DIMM (HBM only)" "$W/out" &&
	 row "DRAM energy rises with the traffic" | grep -q "SKIP: socket 0 has no DDR DIMM (HBM only)"'
run "sim:spr,hbm=only,fault=phantom:imc:3"
check "sim:spr,hbm=only,fault=phantom:imc:3: exit 1, the empty imc 3 a phantom (exit $rc)" \
	'[ $rc -eq 1 ] && row "empty channels count nothing" | grep -qE "imc 3: .* FAIL: imc 3 counted .*EDAC lists no DIMM on it"'
run "sim:spr,hbm=only,fault=dead:hbm:5"
check "sim:spr,hbm=only,fault=dead:hbm:5: exit 1, its bytes 1/32 short (exit $rc)" \
	'[ $rc -eq 1 ] && grep -qE "^streaming read, HBM only: socket 0 read bytes .* 31.0 MiB +FAIL: 97% of the bytes" "$W/out"'

# a populated channel whose counter the simulator kills: it fails, named as one EDAC lists DIMMs on
run "sim:icx,fault=dead:imc:3"
check "sim:icx,fault=dead:imc:3: exit 1, imc 3 (controller 1's channel 0) FAIL as a populated channel" \
	'[ $rc -eq 1 ] && row "every channel counts" | grep -qE "imc 3: 0.0 MiB +FAIL: imc 3 counted 0% .*yet EDAC lists DIMMs on it"'
# an empty channel made to count: a phantom
run "sim:spr,dimms=10101010,fault=phantom:imc:5"
check "sim:spr,dimms=10101010,fault=phantom:imc:5: exit 1, the empty imc 5 FAIL as a phantom" \
	'[ $rc -eq 1 ] && row "empty channels count nothing" | grep -qE "imc 5: .* FAIL: imc 5 counted .*EDAC lists no DIMM on it: a phantom"'
run "sim:icx,fault=phantom:imc:11"
check "sim:icx,fault=phantom:imc:11: exit 1, box 11 FAIL: it is no channel" \
	'[ $rc -eq 1 ] && row "empty channels count nothing" | grep -qE "imc 11: .* FAIL: .*it is no channel"'

# no EDAC driver: the population unknown, ICX's spare boxes possibly empty, a warning and exit 0; the summary says
# PASS with the warning (text and JSON), the idle bound the 12 boxes, none known to be no channel
run "sim:icx,edac=off"
check "sim:icx,edac=off: exit 0, every channel counts WARN: possibly empty (exit $rc)" \
	'[ $rc -eq 0 ] && row "every channel counts" | grep -qE " 8; 4 counted nothing +WARN: imc 2 and others counted 0% of the mean: possibly empty" &&
	 ! grep -q " FAIL" "$W/out"'
check "sim:icx,edac=off: the summary '# PASS with 1 warning', the idle bound 12 boxes" \
	'grep -q "^# PASS with 1 warning: no check failed" "$W/out" && ! grep -q "^# PASS: every check passed" "$W/out" &&
	 grep -qE "^idle: socket 0 memory traffic +<= 864 GB/s \(12 channels\)" "$W/out"'
$UNCORE --backend "sim:icx,edac=off,clock=manual" check $ARGS --json >"$W/out" 2>"$W/err"
rc=$?
check "sim:icx,edac=off --json: exit 0, a closing summary row PASS, 1 WARN, its keys the rows' (exit $rc)" \
	'[ $rc -eq 0 ] && tail -n 1 "$W/out" | grep -qE "^\{\"backend\": \"sim:icx,edac=off,clock=manual\", \"check\": \"summary\", \"expected\": \"no FAIL\", \"measured\": \"0 FAIL, 1 WARN of [0-9]+ rows\", \"verdict\": \"PASS\", \"why\": \"PASS with 1 warning: " &&
	 [ "$(grep -c "\"check\": \"summary\"" "$W/out")" -eq 1 ]'
check "sim:icx (SR630 V2): the idle row bounds its 8 channels, not the 12 boxes" \
	'$UNCORE --backend sim:icx,clock=manual check $ARGS | grep -qE "^idle: socket 0 memory traffic +<= 576 GB/s \(8 channels\)"'
run "sim:icx,edac=off,fault=dead:imc:0"
check "sim:icx,edac=off,fault=dead:imc:0: the dead channel is one more possibly empty, its bytes missing fail (exit $rc)" \
	'[ $rc -eq 1 ] && row "every channel counts" | grep -qE " 7; 5 counted nothing +WARN" &&
	 grep -qE "^streaming read: socket 0 read bytes .* FAIL" "$W/out"'

# the per-channel output marks the empty channels and the boxes that are no channel: never a silent zero
$UNCORE --backend sim:spr,dimms=10101010,clock=manual stat -M mem_read_bytes --per-box --duration 1 >"$W/out" 2>"$W/err"
check "stat --per-box on sim:spr,dimms=10101010: imc 1, 3, 5, 7 of each socket marked empty, 0, 2, 4, 6 not" \
	'[ "$(grep -cE "^  imc[1357] +mem_read_bytes +0 B  \(empty channel: no DIMM\)$" "$W/out")" -eq 8 ] &&
	 [ "$(grep -cE "^  imc[0246] +mem_read_bytes +[1-9][0-9]* B$" "$W/out")" -eq 8 ]'
$UNCORE --backend sim:icx,clock=manual stat -M mem_read_bytes --per-box --duration 1 --json >"$W/out" 2>"$W/err"
check "stat --per-box --json on sim:icx: boxes 2, 5, 8, 11 of each socket status no_channel, the 8 channels ok" \
	'[ "$(grep -cE "\"box\": (2|5|8|11),.*\"status\": \"no_channel\"" "$W/out")" -eq 8 ] &&
	 [ "$(grep -cE "\"box\": (0|1|3|4|6|7|9|10),.*\"status\": \"ok\"" "$W/out")" -eq 16 ]'
$UNCORE --backend sim:icx,clock=manual,edac=off stat -M mem_read_bytes --per-box --duration 1 -x , >"$W/out" 2>"$W/err"
check "stat --per-box -x , on sim:icx,edac=off: the population unknown, no box marked" \
	'! grep -qE ",(empty|no_channel)$" "$W/out" && [ "$(grep -c ",ok$" "$W/out")" -eq 26 ]'

# dimms= refused where it cannot be
for bad in "sim:icx,dimms=222|8 channels a socket" "sim:spr,dimms=33333333|at most 2 DIMMs" \
	"sim:gnr,dimms=1|dimms=1: sim:gnr models no memory board" "sim:icx,dimms=2x|a digit 0-3 each"; do
	spec=${bad%|*} want=${bad#*|}
	$UNCORE --backend "$spec" info >"$W/out" 2>"$W/err"
	rc=$?
	check "$spec refused, saying '$want' (exit $rc: $(head -c 200 "$W/err"))" '[ $rc -ne 0 ] && grep -q "$want" "$W/err"'
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
