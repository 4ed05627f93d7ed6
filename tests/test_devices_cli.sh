#!/bin/sh
# uncore devices (issue 66 point 1): the simulator's default device set, on sim:spr the one of the board it is
# laid out as (platforms/spr/board.c, an HPE DL380 Gen11's socket 0: a NIC behind the PCH's root port on the DMI
# stack, PMU 1, at part 7; on PMU 2 an empty port 11:01.0 and an NVMe drive at 05.0, part 4; a switch with two
# GPUs on PMU 4 part 0; NICs on PMU 6 parts 0 and 4; PMU 7's ports 01.0-07.0 (parts 0, 2, 4, 6: a drive, an
# empty port, an HCA, a drive); a GPU and a drive on PMU 9 parts 0 and 2; on socket 1 eight more groups, the
# listing's ports c8:01.0-07.0 and dd:01.0-07.0: an HCA, a drive, a GPU, a drive and four empty ports) printed
# as text and as one JSON object a group; a machine without IIO stacks prints nothing; a bad argument is refused.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
out=$($UNCORE --backend sim:spr devices 2>&1); rc=$?
echo "$out"
check "sim:spr: twelve port groups on socket 0 ($rc)" '[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c "^socket 0 die 0 iio .* port [0-9]")" -eq 12 ]'
check "the NIC behind the PCH's root port: stack 1 port 7" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 1 (0000:00) port 7 (0000:00:0d.0)" | grep -qE "8086:1592 class 020000 driver ice +ens0f0 +node 0"'
check "the NVMe drive on stack 2 port 4" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 2 .* port 4 " | grep -qE "144d:a80a class 010802 driver nvme +nvme0 +node 0"'
check "the switch on stack 4 port 0, one group" 'echo "$out" | grep -qE "^socket 0 die 0 iio 4 .* port 0 .*: devices behind a PCIe switch, counted as one group$"'
check "the empty port" 'echo "$out" | grep -qE "^socket 0 die 0 iio 2 .* port 0 .*: empty$"'
check "the InfiniBand HCA on stack 7 port 4" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 7 .* port 4 " | grep -qE "15b3:101b class 020700 driver mlx5_core +mlx5_0 +node 0"'
$UNCORE --backend sim:spr devices --json >"$W/d.json" 2>"$W/err"; rc=$?
res=$(python3 - "$W/d.json" <<'PY'
import json, sys
g = [x for x in (json.loads(l) for l in open(sys.argv[1])) if x["port"] >= 0]  # the stacks' own functions apart
sw = [x for x in g if x["behind_switch"]]
names = sorted(d["name"] for x in g for d in x["devices"])
print(len(g), len(sw), len(sw[0]["devices"]) if sw else 0, ",".join(names),
      sw[0]["stack"] if sw else -1, sw[0]["port"] if sw else -1, g[0]["source"])
PY
)
check "--json: one object a group, the switch's two GPUs one group ($rc: $res)" \
	'[ $rc -eq 0 ] && [ "$res" = "20 1 2 card0,card1,card2,card3,ens0f0,ens1f0,ens2f0,mlx5_0,mlx5_1,nvme0,nvme1,nvme2,nvme3,nvme4,nvme5 4 0 registers" ]'
out=$($UNCORE --backend sim:snbep devices 2>&1); rc=$?
check "sim:snbep (no IIO stack): nothing, no error ($rc)" '[ $rc -eq 0 ] && [ -z "$out" ]'
$UNCORE --backend sim:spr devices --bogus >/dev/null 2>"$W/err"; rc=$?
check "an unknown argument: exit 2 ($rc)" '[ $rc -eq 2 ] && grep -q "unexpected argument" "$W/err"'
# a root port whose counter port no table gives (Diamond Rapids: pcm-iio has no table) is not the stack's
# own functions: it says so, and why, in text and JSON
out=$($UNCORE --backend sim:dmr devices 2>&1); rc=$?
check "sim:dmr: root ports with an unknown counter port ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -qE "^socket 0 die 0 iio 1 .* root port 0000:20:[0-9a-f]{2}\.0, counter port unknown \(no table" && ! echo "$out" | grep -q "own functions: 1 device"'
# SKX's root port at device 4 is none of its counter ports (devices 0-3): the whole reason, then its device
out=$($UNCORE --backend sim:skx,devices=nic@0.1.4 devices 2>&1); rc=$?
check "sim:skx: a root port at device 4, its reason whole ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -qE "^socket 0 die 0 iio 1 .* root port 0000:[0-9a-f]{2}:04\.0, counter port unknown \(a root port where this generation has none of its counter ports \(pcm-iio.s table: function 0 of the part.s device\)\): 1 device$"'
res=$($UNCORE --backend sim:dmr devices --json 2>/dev/null | python3 -c '
import json, sys
g = [json.loads(l) for l in sys.stdin]
print(sum(1 for x in g if x["port"] == -2 and x["port_why"].startswith("no table")))')
check "--json: port -2 with port_why ($res)" '[ "${res:-0}" -ge 3 ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
