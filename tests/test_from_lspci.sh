#!/bin/sh
# A field snapshot made from an lspci listing (tools/snapshot/from_lspci.py, doc/snapshot.md) keeps the
# listing's device tree and NUMA nodes: its replay's `uncore devices` lists the listing's devices (a real Dell
# R730's, tests/snapshots/field/hsx-r730-1s.source: bridges, switch, NICs, RAID, video), and a listing whose
# devices name more NUMA nodes than sockets (cluster on die, SNC) gives each socket its nodes, numbered socket
# by socket as Linux does, so that a device of node 1 is on socket 0, not on socket 1.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
S=${top_srcdir:-.} B=${top_builddir:-.}
UNCORE=$B/uncore
export TMPDIR="$W"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

python3 "$S/tools/snapshot/from_lspci.py" "$S/tests/snapshots/field/hsx-r730-1s.source" "$W/hsx.tar"
check "the converter writes the device tree" 'tar tf "$W/hsx.tar" | grep -qx devices/tree.txt'
$UNCORE --backend "replay:$W/hsx.tar" devices >"$W/dev" 2>"$W/err"
check "uncore devices runs on the listing's replay" '[ $? -eq 0 ] || { cat "$W/err"; false; }'
# the listing: 01:00.0 and 01:00.1 BCM5720 (14e4:165f, tg3) below root port 00:03.1 (secondary 01); 03:00.0
# the PERC H730 Mini (1000:005d, megaraid_sas) below 00:01.0; 0b:00.0 the Matrox G200eR2 (102b:0534, mgag200)
# three bridges below the PCH's root port 00:1c.7 (08:00.0, 09:00.0, 0a:00.0)
for d in "0000:01:00.0.*14e4:165f.*tg3" "0000:01:00.1.*14e4:165f.*tg3" "0000:02:00.0.*14e4:165f" \
	"0000:03:00.0.*1000:005d.*megaraid_sas" "0000:06:00.1.*11f8:8032.*celerity8fc" "0000:0b:00.0.*102b:0534.*mgag200"; do
	check "uncore devices lists $d" 'grep -q "$d" "$W/dev" || { cat "$W/dev"; false; }'
done

# Two Haswell-EP sockets with cluster on die: nodes 0 and 1 socket 0's (bus 00 and its uncore bus 7f... as
# Linux numbers them), 2 and 3 socket 1's; the listing's devices on nodes 1 and 3
cat >"$W/cod.source" <<'SRC'
source: made for this test: two sockets of two NUMA nodes each, as a cluster-on-die listing shows them
machine: two Haswell-EP
cpu: 6 63 2 Intel(R) Xeon(R) CPU E5-2600 v3
sockets: 2
cores: 4
threads: 2
fill: 2f1e 40 node
fill: 2f1e 54 nodemap
00:03.0 8086:2f08 0 060400 bus=01-01 driver=pcieport
01:00.0 14e4:165f 1 020000 driver=tg3
7f:10.5 8086:2f1e 1 088000
80:03.0 8086:2f08 2 060400 bus=81-81 driver=pcieport
81:00.0 15b3:1017 3 020000 driver=mlx5_core
ff:10.5 8086:2f1e 3 088000
SRC
python3 "$S/tools/snapshot/from_lspci.py" "$W/cod.source" "$W/cod.tar"
mkdir "$W/cod" && tar xf "$W/cod.tar" -C "$W/cod"
# socket 0: CPUs 0-7 (cores 0-3, then their second threads 4-7); node 0 cores 0-1, node 1 cores 2-3
check "node 1 is socket 0's second cluster" '[ "$(cat "$W/cod/sys/devices/system/node/node1/cpulist")" = 2-3,6-7 ]'
check "node 2 is socket 1's first cluster" '[ "$(cat "$W/cod/sys/devices/system/node/node2/cpulist")" = 8-9,12-13 ]'
check "four nodes, no more" '[ ! -e "$W/cod/sys/devices/system/node/node4" ] && [ -e "$W/cod/sys/devices/system/node/node3/cpulist" ]'
check "the UBox of node 3 names socket 1" 'od -An -tx4 -j64 -N4 "$W/cod/sys/bus/pci/devices/0000:ff:10.5/config" | grep -q " 00000001"'
# (snc=1: the simulator models sub-NUMA clustering on SPR and later only; the replay takes the node's files)
$UNCORE --backend "replay:$W/cod.tar,snc=1" info >"$W/cod.info" 2>"$W/err"
check "the cluster-on-die replay opens" '[ $? -eq 0 ] || { cat "$W/err"; false; }'
# each UBox on its own socket (CPUNODEID filled with its node's socket: node 1 -> 0, node 3 -> 1), where
# node N = socket N put both on socket 1
check "a UBox on each socket" 'grep -Eq "^ubox .* s0:1 s1:1 " "$W/cod.info" || { cat "$W/cod.info"; false; }'
$UNCORE --backend "replay:$W/cod.tar,snc=1" devices --json >"$W/cod.json" 2>"$W/err"
check "uncore devices runs on the cluster-on-die replay" '[ $? -eq 0 ] || { cat "$W/err"; false; }'
check "the devices' NUMA nodes as the listing gives them" 'python3 - "$W/cod.json" <<"PY"
import json, sys
got = {d["bdf"]: d["numa_node"] for g in map(json.loads, open(sys.argv[1])) for d in g["devices"]}
want = {"0000:01:00.0": 1, "0000:81:00.0": 3}
sys.exit(0 if all(got.get(k) == v for k, v in want.items()) else "got %s" % got)
PY'

# A config file shorter than the register read (here a snapshot's: the ids and one filled dword, 20 bytes) is
# said to be short, whoever reads it, not blamed on a user other than root
cat >"$W/icx.source" <<'SRC'
source: made for this test: an Ice Lake-SP Mesh2IIO function whose config file stops at 20 bytes
machine: one Ice Lake-SP
cpu: 6 106 6 Intel(R) Xeon(R) Platinum 8380
sockets: 1
cores: 4
threads: 2
fill: 09a2 10 0x0
00:00.0 8086:09a2 0 088000
17:02.0 8086:347a 0 060400 bus=18-18 driver=pcieport
18:00.0 8086:1593 0 020000 driver=ice
SRC
python3 "$S/tools/snapshot/from_lspci.py" "$W/icx.source" "$W/icx.tar"
$UNCORE --backend "replay:$W/icx.tar" devices >"$W/icx.out" 2>&1
check "a short config file is said to be short" 'grep -q "SAD_CONTROL_CFG (offset 0x3f4) cannot be read (the file holds only 20 bytes)" "$W/icx.out" || { cat "$W/icx.out"; false; }'
check "and not blamed on the user" '! grep -q "only root" "$W/icx.out"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
