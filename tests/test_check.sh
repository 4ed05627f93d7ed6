#!/bin/sh
# uncore check (issue 35): on the simulator the generators' bytes are the whole workload, so every row
# passes (or is skipped, saying why) on a sound machine of each platform, and each simulated fault of the
# issue makes the check exit 1 with the row naming its symptom; the JSON form carries the same rows; two
# backends run one after the other; on a machine without an Intel uncore the command says why and offers
# the simulated check.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
ARGS="--seconds 0.1 --size 32"

# every platform with no fault: exit 0, every row PASS or a SKIP with its reason, none FAIL
# (SPR as Xeon Max: HBM in flat mode on sim:, caching DDR on perf+sim:)
for b in sim:snbep sim:ivbep sim:hsx sim:bdx sim:bdxde sim:skx sim:clx sim:icx sim:spr,hbm=1 sim:emr sim:gnr sim:srf,cxl=1 sim:cwf sim:nhm \
	sim:montecito perf+sim:snbep perf+sim:ivbep perf+sim:hsx perf+sim:bdx perf+sim:bdxde perf+sim:skx perf+sim:clx \
	perf+sim:icx perf+sim:spr,hbm=cache perf+sim:emr perf+sim:gnr,cxl=1 perf+sim:srf perf+sim:cwf perf+sim:nhm; do
	$UNCORE --backend "$b,clock=manual" check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	rows=$(grep -v "^#" "$W/out" | grep -cE " (PASS|FAIL|SKIP)")
	npass=$(grep -v "^#" "$W/out" | grep -cE " PASS")
	check "$b: exit 0, $npass of $rows rows PASS, the rest SKIP with a reason (exit $rc$(head -c 200 "$W/err"))" \
		'[ $rc -eq 0 ] && [ "$rows" -ge 16 ] && [ "$npass" -ge 10 ] && ! grep -qE " FAIL" "$W/out" &&
		 ! grep -qE " SKIP(\$|[^:])" "$W/out" && grep -q "^# PASS" "$W/out"'
	case $b in # Xeon Max: the generators again in each socket's HBM node (flat), or DDR's rows count HBM's (cache)
	*hbm=1) check "$b: every generator's bytes in HBM counted on its socket" \
		'[ "$(grep -cE "^(streaming read|non-temporal write|copy) in HBM: socket [01] (read|write) bytes .* PASS$" "$W/out")" -eq 8 ]' ;;
	*cxl=1) check "$b: every generator's bytes in CXL memory counted on its socket" \
		'[ "$(grep -cE "^(streaming read|non-temporal write|copy) in CXL: socket [01] (read|write) bytes .* PASS$" "$W/out")" -eq 8 ]' ;;
	sim:gnr) check "$b: no CXL memory, no CXL rows" '! grep -q " in CXL" "$W/out"' ;;
	*hbm=cache) check "$b: DDR's rows count HBM's, no HBM node" \
		'grep -qE "^copy, DDR \+ HBM: socket 1 write bytes .* PASS$" "$W/out" && ! grep -q " in HBM" "$W/out"' ;;
	esac
done
# the rows a sound machine must pass where the platform has what they check
$UNCORE --backend sim:gnr,clock=manual check $ARGS >"$W/out" 2>"$W/err"
for row in "registers untouched by others, before" "registers untouched by others, during" \
	"registers restored after" "socket 1: every channel counts" "socket 1: channels balanced" \
	"socket 1: both schedulers of every channel count" "socket 1: uncore clock in range" "socket 1: DRAM clock in range" \
	"socket 1: IIO ports in, free-running = general" "socket 1: IMC counters wrap at their width" \
	"socket 1: resctrl memory bandwidth = uncore" "attribution: CPU 0's reads, CPU 1's at once" \
	"attribution: CPU 1's reads, CPU 0's at once"; do
	check "sim:gnr: '$row' PASS" 'grep -q "^$row .* PASS$" "$W/out"'
done
for p in emr icx; do # EMR's UNC_M_DCLK_FREERUN, ICX's UNC_M_CLOCKTICKS_FREERUN (a controller's)
	$UNCORE --backend sim:$p,clock=manual check $ARGS >"$W/out" 2>"$W/err"
	check "sim:$p: IMC DCLK, free-running = general counters PASS" \
		'grep -q "^socket 0: IMC DCLK, free-running = general .* PASS$" "$W/out"'
done

# on the simulator's real clock too: the workload's bytes go in while its clock stands still, and the
# counter rows' tolerances come from their measured windows, so a loaded host's late wake-ups add nothing
# (the simulator holds its clock from before the workload's rates change: a preemption in between once
# counted 83 MiB for 32 moved); each socket counts exactly the bytes moved, as resctrl sees them
for i in 1 2 3; do
	$UNCORE --backend sim:gnr check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	inexact=$(grep -E "(read|write) bytes " "$W/out" | grep -vc " 32.0 MiB  ")
	check "sim:gnr on the real clock, run $i: exit 0, no row FAIL, every socket's bytes exactly 32.0 MiB a direction ($inexact not; exit $rc: $(grep " FAIL" "$W/out" | head -c 300))" \
		'[ $rc -eq 0 ] && ! grep -q " FAIL" "$W/out" && [ "$inexact" -eq 0 ] &&
		 [ "$(grep -c "resctrl memory bandwidth = uncore .* 128.0 / 128.0 MiB .*PASS" "$W/out")" -eq 2 ]'
done

# each fault: exit 1 and the row that names its symptom (grep -E pattern after "check ... FAIL: ")
fails() { # BACKEND ROW WHY: the check on socket 0 fails with that row
	$UNCORE --backend "$1,clock=manual" check $ARGS --socket 0 >"$W/out" 2>"$W/err"
	rc=$? row=$2 why=$3
	check "$1: exit 1, '$row' FAIL: $why (exit $rc$(head -c 200 "$W/err"))" \
		'[ $rc -eq 1 ] && grep -qE "^$row .* FAIL: $why" "$W/out" && grep -q "^# FAIL" "$W/out"'
}
# the devices behind the IIO ports against their own byte counters (issue 66 point 2): a row per group, the
# simulator's NICs, NVMe drives and HCAs PASS (devices' bytes / port's: 50/51.5 GB in of the NIC's 5 GB/s and
# its 3 % overhead over 10 s), the GPUs' switch and the empty port SKIP saying why; each device fault its row
# (ICX: 8, its PCH's NIC on the DMI stack's port 0 too)
# The NIC's stack A and the switch's B: the default set's stacks 1 and 2; on Granite Rapids' board 2 and 3 (its
# stack 1 an accelerator stack); Sapphire Rapids' board (its stack 1 the DMI stack) given a set on its PCIe stacks 6,
# 7, 9, 4 and 2 (platforms/spr/board.c) with the same seven groups
SPRDEV=devices=nic@0.6.0+nvme@0.6.1+nvme@0.6.2+gpusw@0.7.0+empty@0.7.1+ib@0.9.0+nvme@0.4.0+nvme@0.2.0+ib@0.2.1
# Granite Rapids given a set on its PCIe stacks 2, 3 and 4 and socket 1's 5 and 7 (its board's own set holds no GPU
# switch): a NIC, an NVMe drive and an HCA on socket 0, an NVMe drive and an HCA on socket 1 counted
GNRDEV=devices=nic@0.2.0+nvme@0.2.1+gpusw@0.3.0+empty@0.3.1+ib@0.4.0+nvme@1.5.2+ib@1.7.0
for b in sim:skx perf+sim:icx "sim:spr,$SPRDEV" "perf+sim:gnr,$GNRDEV"; do
	$UNCORE --backend "$b,clock=manual" check $ARGS --socket 0 >"$W/out" 2>"$W/err"
	n=7 && [ "$b" = perf+sim:icx ] && n=8
	case $b in perf+sim:gnr*) n=5 ;; esac
	# ICX's board has no root bus for PMU 2 (the MCP stack): its default switch is on stack 4 (platforms/icx/board.c)
	case $b in sim:spr*) A=6 B=7 ;; *gnr*) A=2 B=3 ;; *icx) A=1 B=4 ;; *) A=1 B=2 ;; esac
	check "${b%%,*}: device rows: $n groups PASS, the NIC's 50/51.5 GB in, the GPUs' switches SKIP: not compared" \
		'[ "$(grep -cE "^iio [0-9] port [0-9] \(socket [01]\): .* PASS: devices" "$W/out")" -eq $n ] &&
		 grep -qE "^iio $A port 0 \(socket 0\): ens0f0 .* in 50/51.5 out 30/30.9 GB +PASS" "$W/out" &&
		 grep -qE "^iio $B port 0 \(socket 0\): card0, card1 .* SKIP: not compared: a device keeps no byte counters" "$W/out" &&
		 grep -qE "^iio $B port 1 \(socket 0\): no device .* SKIP: not compared: an empty port" "$W/out" &&
		 { [ "$b" != perf+sim:icx ] || grep -qE "^iio 5 port 0 \(socket 0\): eno2 .* PASS" "$W/out"; }' || cat "$W/out"
done
fails "sim:spr,$SPRDEV,fault=uncounted:ens0f0" "iio 6 port 0 \(socket 0\): ens0f0" "uncounted: the devices moved more than the port counted"
fails "perf+sim:gnr,$GNRDEV,fault=frozen:nvme0" "iio 2 port 1 \(socket 0\): nvme0" "stopped: the devices' counters did not move"
fails "sim:icx,fault=swapped:stackmap" "iio 2 port 1 \(socket 0\): nvme0" "elsewhere: .*: iio 1 port 1 counted in 24 GB"
# an HBM channel that does not count: the HBM rows fall short by its share (1 of 32)
fails "sim:spr,hbm=1,fault=dead:hbm:5" "copy in HBM: socket 0 read bytes" "9[0-9]% of the bytes moved were counted"
# a CXL port that does not count: the CXL rows fall short by its share (port 1 of 2 carries 2/3)
fails "sim:gnr,cxl=1,fault=dead:cxlcm:1" "streaming read in CXL: socket 0 read bytes" "3[0-9]% of the bytes moved were counted"
# a CHA that ignores its thread filter: the two CPUs' reads cannot be told apart (issue 46 point 6)
for b in sim:spr perf+sim:spr sim:snbep; do
	fails "$b,fault=tidless:$( [ "$b" = sim:snbep ] && echo cbo || echo cha)" "attribution: CPU 0's reads, CPU 1's at once" \
		"less than it read"
done
# one scheduler of a channel not counted (the tools that read half of Granite Rapids' bandwidth)
for p in gnr srf cwf; do
	fails "sim:$p,fault=onesched:imc:1" "socket 0: both schedulers of every channel count" \
		"scheduler 1 of imc 1 served 0% of its CAS commands: one scheduler is not counted"
done
fails "sim:gnr,fault=onesched:imc:1" "streaming read: socket 0 read bytes" "9[0-9]% of the bytes moved were counted"
# a channel without a PCI device, or without its kernel PMU: the socket counts less than moved
for b in "sim:snbep,fault=missing:imc:1" "perf+sim:emr,missing=uncore_imc_0" "perf+sim:gnr,missing=uncore_imc_2"; do
	fails "$b" "streaming read: socket 0 read bytes" "[0-9]*% of the bytes moved were counted"
done
# a dead PMU and a stuck counter: the channel does not count; where EDAC lists DIMMs on it (every simulated board:
# sim:spr, sim:icx, sim:emr, sim:snbep) its row fails, where the population is unknown (edac=off: no EDAC files) it
# is possibly empty, a warning, and the socket's bytes fail (doc/memory.md)
fails "sim:spr,fault=dead:imc:3" "socket 0: every channel counts" "imc 3 counted 0% of the mean .*yet EDAC lists DIMMs on it"
fails "sim:emr,fault=dead:imc:3" "socket 0: every channel counts" "imc 3 counted 0% of the mean .*yet EDAC lists DIMMs on it"
fails "sim:emr,edac=off,fault=dead:imc:3" "streaming read: socket 0 read bytes" "8[78]% of the bytes moved were counted" # 7 of 8 channels: 87.5 %, either side of it as the bytes moved fall
check "sim:emr,edac=off,fault=dead:imc:3: imc 3 possibly empty, a warning" \
	'grep -qE "^socket 0: every channel counts .* WARN: imc 3 counted 0% of the mean: possibly empty" "$W/out"'
fails "sim:snbep,fault=stuck:imc:1" "socket 0: every channel counts" "imc 1 counted 0% of the mean .*yet EDAC lists DIMMs on it"
fails "sim:snbep,edac=off,fault=stuck:imc:1" "streaming read: socket 0 read bytes" "75% of the bytes moved were counted"
check "sim:snbep,edac=off,fault=stuck:imc:1: imc 1 possibly empty, a warning" \
	'grep -qE "^socket 0: every channel counts .* WARN: imc 1 counted 0% of the mean: possibly empty" "$W/out"'
fails "sim:skx,fault=stuck:imc:2" "copy: socket 0 write bytes" "8[0-9]% of the bytes moved were counted"
fails "sim:icx,fault=stuck:imc:3" "socket 0: every channel counts" "imc 3 counted 0% of the mean .*dead or stuck counter"
# Ice Lake-SP: each memory controller's free-running reads and writes against its three channels' CAS counts
for b in sim:icx perf+sim:icx; do
	$UNCORE --backend "$b,clock=manual" check $ARGS >"$W/out" 2>"$W/err"
	check "$b: 'socket 1: IMC CAS, free-running = general' PASS" \
		'grep -q "^socket 1: IMC CAS, free-running = general .* PASS$" "$W/out"'
done
fails "sim:icx,fault=dead:imc:4" "socket 0: IMC CAS, free-running = general" \
	"controller 1: its 3 channels .* bytes, its free-running counters .*: a channel or a free-running counter not counted"
# resctrl (the simulator's: what its workload moved) sees the bytes a dead channel's counters miss
fails "sim:snbep,fault=dead:imc:1" "socket 0: resctrl memory bandwidth = uncore" \
	"resctrl saw 128.0 MiB move, the uncore counted 96.0 MiB"
# a phantom channel: an impossible rate
fails "sim:snbep,fault=phantom:imc:2" "idle: socket 0 memory traffic" "more than 4 channels can move"
fails "sim:snbep,fault=phantom:imc:2" "socket 0: channels balanced" "imc 2 counted .* more than a channel can move"
# counters narrower than documented: the sampled clock wraps elsewhere
for p in emr gnr; do
	fails "sim:$p,fault=narrow:imc:1" "socket 0: IMC counters wrap at their width" \
		"box 1, preloaded 2\^width - [0-9]*: it wrapped in .* where the documented width cannot \(health: width\)"
done
# the bus-to-socket map swapped: each socket's memory counted on the other
for p in snbep hsx skx icx; do
	fails "sim:$p,fault=swapped:busmap" "streaming read on socket 0: socket 1 reads" \
		"socket 1 counted socket 0's traffic: the sockets' boxes are mapped to the wrong socket"
done
# ... but not where Linux reads no UBox map (6.12 gnr_uncore_pci_init): GNR, SRF and CWF place their tables by
# NUMA node, so a map that disagrees changes nothing; nor on EMR, whose tables (and the iMC channels they list)
# Linux places by NUMA node too (get_device_die_id), the map only for UPI and the iMC free-running counters
for p in gnr srf cwf emr; do
	$UNCORE --backend "sim:$p,clock=manual,fault=swapped:busmap" check $ARGS >"$W/out" 2>"$W/err"
	check "sim:$p,fault=swapped:busmap: the UBox map does not place the tables, socket 0's traffic counted on socket 0" \
		'grep -q "^streaming read on socket 0: socket 1 reads .* PASS$" "$W/out" && grep -q "^# PASS" "$W/out"'
done
fails "sim:snbep,fault=swapped:busmap" "socket 0: every channel counts" "no channel counted the socket's traffic"
# an IIO stack's free-running port counters mapped to the next port
for b in "sim:emr,fault=portmap:iio:2" "sim:gnr,fault=portmap:iio:0" "sim:skx,fault=portmap:iio:1" "sim:icx,fault=portmap:iio:3"; do
	fails "$b" "socket 0: IIO ports in, free-running = general" "box [0-9]*: .*a counter mapped to the wrong port"
done
# another agent: programming a box before the check, or reprogramming it mid-run
fails "sim:snbep,fault=agent:imc:2" "registers untouched by others, before" "imc 2 \(socket 0\) is in use by another agent"
for b in "sim:snbep,fault=agent:imc:2@0.05" "sim:emr,fault=agent:imc:0@0.05" "sim:gnr,fault=agent:imc:5@0.05"; do
	fails "$b" "registers untouched by others, during" "[0-9]+ register\(s\) changed behind the check's back, first imc"
done
# the library's own faults: I/O errors from the start or mid-run, registers reading all ones
fails "sim:snbep,fault=eio:imc:1" "registers untouched by others, before" ".*I/O error on simulated imc 1"
fails "sim:emr,fault=eio:imc:1@0.05" "every box read throughout" ".*I/O error on simulated imc 1"
fails "sim:snbep,fault=allones:imc:1" "registers untouched by others, before" ".*CTL0 = 0xffffffff"
# a 7 GHz uncore clock (a clock counter counting the wrong thing): outside what the part can run at
printf 'uncore_clock_hz = 7e9\n' >"$W/profile"
fails "sim:emr,profile=$W/profile" "socket 0: uncore clock in range" "faster than the part can run"

# the part's own highest uncore clock, as Linux's intel_uncore_frequency gives it (2 GHz here): 2.7 GHz is faster
mkdir -p "$W/root/sys/devices/system/cpu/intel_uncore_frequency/package_01_die_00"
echo 2000000 >"$W/root/sys/devices/system/cpu/intel_uncore_frequency/package_01_die_00/initial_max_freq_khz"
UNCORE_SYSROOT=$W/root $UNCORE --backend sim:snbep,clock=manual check $ARGS >"$W/out" 2>"$W/err"
rc=$?
check "a part whose uncore runs at most 2 GHz: exit 1, socket 1's uncore clock out of range, socket 0's not (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "^socket 1: uncore clock in range .*0 .. 2.00 GHz .* FAIL: faster than the part can run (intel_uncore_frequency" "$W/out" &&
	 grep -q "^socket 0: uncore clock in range .*0 .. 5.00 GHz .* PASS" "$W/out"'
# that file a FIFO or a 100 MB sparse file planted in the sysroot: the row is skipped, naming the file and what
# it is, at once (a hang ends after 20 s: 124)
F=$W/root/sys/devices/system/cpu/intel_uncore_frequency/package_01_die_00/initial_max_freq_khz
for kind in FIFO huge; do
	rm -f "$F"
	if [ $kind = FIFO ]; then mkfifo "$F"; is="a FIFO, not a regular file"; else truncate -s 100M "$F"; is="104857600 bytes"; fi
	UNCORE_SYSROOT=$W/root timeout 20 $UNCORE --backend sim:snbep,clock=manual check $ARGS </dev/null >"$W/out" 2>"$W/err"
	rc=$?
	check "initial_max_freq_khz a $kind: socket 1's uncore clock row skipped, naming it, at once (exit $rc: $(grep "uncore clock" "$W/out" | head -c 300))" \
		'[ $rc -ne 124 ] && grep -qF "SKIP: cannot read $F: it is $is" "$W/out" &&
		 grep -q "^socket 1: uncore clock in range .* SKIP: cannot read" "$W/out" &&
		 grep -q "^socket 0: uncore clock in range .*0 .. 5.00 GHz .* PASS" "$W/out"'
done
rm -f "$F"

# direct and perf one after the other: a table each, the JSON rows naming their backend; a fault in either fails
$UNCORE check --backend sim:emr,clock=manual --backend perf+sim:emr,clock=manual $ARGS --socket 1 --json >"$W/json" 2>"$W/err"
rc=$?
out=$(python3 - "$W/json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
bad = [r for r in rows if set(r) != {"backend", "check", "expected", "measured", "verdict", "why"} or r["verdict"] == "FAIL"
       or (r["verdict"] == "SKIP" and not r["why"])]
print(sorted({r["backend"] for r in rows}), len(bad))
PY
)
check "--json over two backends: rows of both, none FAIL, every SKIP with its reason ($out, exit $rc)" \
	'[ $rc -eq 0 ] && [ "$out" = "['"'"'perf+sim:emr,clock=manual'"'"', '"'"'sim:emr,clock=manual'"'"'] 0" ]'
$UNCORE check --backend sim:spr,clock=manual --backend perf+sim:spr,clock=manual,fault=dead:imc:1 $ARGS --socket 1 >"$W/out" 2>"$W/err"
rc=$?
check "two backends, the second with a dead channel: exit 1, both tables (exit $rc)" \
	'[ $rc -eq 1 ] && [ "$(grep -c "^# backend" "$W/out")" -eq 2 ] && grep -q "^socket 1: every channel counts .* FAIL: imc 1" "$W/out"'

# bad arguments
for a in "--size 0" "--seconds -1" "--socket 7" "--bogus"; do
	$UNCORE --backend sim:snbep check $a >"$W/out" 2>"$W/err"
	rc=$?
	check "check $a: refused with exit 2 ($(head -c 120 "$W/err"))" '[ $rc -eq 2 ] && [ -s "$W/err" ]'
done

# no Intel uncore here: the hardware check cannot run, and the simulated one is offered
if UNCORE_BACKEND= $UNCORE info >/dev/null 2>&1; then
	echo "SKIP: this machine has an uncore the library can count: the no-hardware message is not tested here"
else
	UNCORE_BACKEND= $UNCORE check $ARGS >"$W/out" 2>"$W/err"
	rc=$?
	check "no uncore: check exits 2, says why and offers the simulated check" \
		'[ $rc -eq 2 ] && grep -q "no check on the hardware is possible here" "$W/err" && grep -q "uncore --backend sim:" "$W/err"'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
