#!/bin/sh
# uncore devices (issue 66 point 1): the simulator's default device set (doc/user-guide.md: on socket 0 a NIC
# and two NVMe drives on stack 1, a PCIe switch with two GPUs and an empty port on stack 2, an InfiniBand HCA
# on stack 3; on socket 1 five more groups) printed as text and as one JSON object a group; a machine without
# IIO stacks prints nothing; a bad argument is refused.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
out=$($UNCORE --backend sim:spr devices 2>&1); rc=$?
echo "$out"
check "sim:spr: six groups on socket 0 ($rc)" '[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c "^socket 0 die 0 iio ")" -eq 6 ]'
check "the NIC on stack 1 port 0" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 1 .* port 0 " | grep -qE "8086:1592 class 020000 driver ice +ens0f0 +node 0"'
check "the NVMe drive on stack 1 port 1" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 1 .* port 1 " | grep -qE "144d:a80a class 010802 driver nvme +nvme0 +node 0"'
check "the switch on stack 2 port 0, one group" 'echo "$out" | grep -qE "^socket 0 die 0 iio 2 .* port 0 .*: devices behind a PCIe switch, counted as one group$"'
check "the empty port" 'echo "$out" | grep -qE "^socket 0 die 0 iio 2 .* port 1 .*: empty$"'
check "the InfiniBand HCA on stack 3 port 0" 'echo "$out" | grep -A1 "^socket 0 die 0 iio 3 .* port 0 " | grep -qE "15b3:101b class 020700 driver mlx5_core +mlx5_0 +node 0"'
$UNCORE --backend sim:spr devices --json >"$W/d.json" 2>"$W/err"; rc=$?
res=$(python3 - "$W/d.json" <<'PY'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1])]
sw = [x for x in g if x["behind_switch"]]
names = sorted(d["name"] for x in g for d in x["devices"])
print(len(g), len(sw), len(sw[0]["devices"]) if sw else 0, ",".join(names),
      sw[0]["stack"] if sw else -1, sw[0]["port"] if sw else -1, g[0]["source"])
PY
)
check "--json: one object a group, the switch's two GPUs one group ($rc: $res)" \
	'[ $rc -eq 0 ] && [ "$res" = "11 2 2 card0,card1,card2,card3,card4,ens0f0,ens1f0,mlx5_0,mlx5_1,nvme0,nvme1,nvme2 2 0 simulator" ]'
out=$($UNCORE --backend sim:snbep devices 2>&1); rc=$?
check "sim:snbep (no IIO stack): nothing, no error ($rc)" '[ $rc -eq 0 ] && [ -z "$out" ]'
$UNCORE --backend sim:spr devices --bogus >/dev/null 2>"$W/err"; rc=$?
check "an unknown argument: exit 2 ($rc)" '[ $rc -eq 2 ] && grep -q "unexpected argument" "$W/err"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
