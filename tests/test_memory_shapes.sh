#!/bin/sh
# uncore memory on the shapes real nodes show (issue 98), as the simulator writes them (common/sim/sim_dimms.c):
# each figure worked out here from the boards (platforms/<p>/sim_memory.c) before the program ran -- sim:hsx two
# home agents of 2 DDR4-2133 channels a socket, 4 x 2133 MT/s x 8 B = 68.256 GB/s; sim:skx 6 channels configured at
# 2666 (127.968 GB/s), rated 2933 (140.784 GB/s where the table says the rated speed alone); an 8-socket sim:skx whose
# last three controllers repeat node ids 0, 1, 1 -- and the peak share a metric: listed and accepted by -M.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore

mem() { $UNCORE --backend "$1" memory >"$W/out" 2>"$W/err"; rc=$?; }

# sb_edac's names before Linux 4.9: one controller a socket, channels of both home agents
mem sim:hsx,edac=old
check "sim:hsx,edac=old: 2 controllers read, boxes 0, 1, 4, 5 populated, each socket 68.256 GB/s (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q "^# EDAC: 2 DDR controllers;" "$W/out" &&
	 [ "$(grep -cE "^[01] +imc[0145] +populated " "$W/out")" -eq 8 ] &&
	 [ "$(grep -c "^# socket [01] peak: 68.256 GB/s" "$W/out")" -eq 2 ]' || cat "$W/out" "$W/err"
# sb_edac's numbering: mc0 is socket 1's home agent 0; read as such (socket 1's labels on socket 1)
mem sim:hsx
check "sim:hsx: sb_edac's numbering (home agent first, sockets descending) read to the right sockets" \
	'[ $rc -eq 0 ] && grep -qE "^1 +imc4 +populated +1 +0 .*CPU_SrcID#1_Ha#1_Chan#0_DIMM#0" "$W/out" &&
	 grep -qE "^0 +imc0 +populated +0 +0 .*CPU_SrcID#0_Ha#0_Chan#0_DIMM#0" "$W/out"'
# the legacy csrow layout alone
mem sim:hsx,edac=csrow
check "sim:hsx,edac=csrow: the population read from csrows, each socket 68.256 GB/s (exit $rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -cE "^[01] +imc[0145] +populated +[01] +[01] +2 " "$W/out")" -eq 8 ] &&
	 [ "$(grep -c "^# socket [01] peak: 68.256 GB/s" "$W/out")" -eq 2 ] && grep -q "legacy layout" "$W/out"'
# socket 1 mapped out: EDAC lists its DIMMs, its node has no memory, SMBIOS none
mem sim:hsx,mapout=1
check "sim:hsx,mapout=1: socket 1's 8 DIMMs named and not counted, its socket and node peaks 0 (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q "socket 1: EDAC lists 8 DIMMs (CPU_SrcID#1_Ha#0_Chan#0_DIMM#0.*mapped out" "$W/out" &&
	 grep -q "^# socket 1 peak: 0 GB/s" "$W/out" && grep -q "^# node 1 (socket 1.*peak: 0 GB/s" "$W/out" &&
	 grep -q "^# socket 0 peak: 68.256 GB/s" "$W/out" && ! grep -qE "^1 +imc[0-9] +populated" "$W/out"'
$UNCORE --backend sim:hsx,mapout=1,clock=manual check --seconds 0.1 --size 32 --socket 0 >"$W/chk" 2>&1
check "sim:hsx,mapout=1: uncore check passes, socket 1 idle within its 0 channels" \
	'grep -q "^idle: socket 1 memory traffic *<= 0 GB/s (0 channels) .*PASS" "$W/chk" && grep -q "^# PASS" "$W/chk"' ||
	tail -5 "$W/chk"
# uncore check by the population on every other shape: the idle socket's bound counts the channels the shape
# populates (Haswell-EP's board 4 a socket, boxes 0, 1, 4, 5, whatever the EDAC layout; the one-home-agent die its
# 4 on Ha#0; Skylake-SP's 6; Sapphire Rapids' 8 beside its PMem, which is not a channel of DRAM)
printf 'pmem = 1\n' >"$W/pmem"
for shape in "hsx,edac=old 4" "hsx,edac=csrow 4" "hsx,ha=1 4" "bdx,ha=1 4" "skx,smbios=2.6 6" "spr,profile=$W/pmem 8"; do
	spec=${shape% *} n=${shape##* }
	$UNCORE --backend "sim:$spec,clock=manual" check --seconds 0.1 --size 32 --socket 0 >"$W/chk" 2>&1
	check "sim:${spec%%,profile=*}: uncore check passes, socket 1 idle within its $n channels" \
		'grep -q "^idle: socket 1 memory traffic *<= [0-9.]* GB/s ($n channels) .*PASS" "$W/chk" && grep -q "^# PASS" "$W/chk"' ||
		tail -5 "$W/chk"
done
# one-home-agent dies (ha=1): the Haswell-EP/Broadwell-EP low-core-count die has home agent 0 alone (no HA 1 12.5
# 2f38/6f38, no iMC 1 17.0-18.1 2fd0-2fd5/6fd0-6fd5 of Linux hswep/bdx_uncore_pci_ids), sb_edac one controller a
# socket "Haswell SrcID#N_Ha#0" with channels 0-3 (doc/memory.md, "Shapes real nodes show"): 1 HA and 4 iMC boxes a
# socket, 2 controllers on 2 sockets, each socket's channels 0-3 on controller 0 as boxes imc0-3; sim:hsx's 2 DDR4-2133
# DIMMs a channel: 16 of 24 R730 slots, 4 x 2133 MT/s x 8 B = 68.256 GB/s a socket; sim:bdx's one DDR4-2400:
# 8 of 24 slots, 4 x 2400 x 8 = 76.8 GB/s
# socket $1's channels 0-3 each on Ha#0 as box imc<channel>, labelled so
on_ha0() { for c in 0 1 2 3; do grep -qE "^$1 +imc$c +populated +0 +$c .*_SrcID#$1_Ha#0_Chan#${c}_DIMM#0" "$W/out" || return 1; done; }
for k in "hsx 2 16 68.256" "bdx 1 8 76.8"; do
	set -- $k
	p=$1 dpc=$2 used=$3 peak=$4
	$UNCORE --backend "sim:$p,ha=1" info >"$W/info" 2>&1
	mem "sim:$p,ha=1"
	check "sim:$p,ha=1: 1 HA and 4 iMC boxes a socket, one controller a socket, channels 0-3 on Ha#0, $used DIMMs, $peak GB/s (exit $rc)" \
		'[ $rc -eq 0 ] && grep -qE "^ha +pci .* s0:1 s1:1 " "$W/info" && grep -qE "^imc +pci .* s0:4 s1:4 " "$W/info" &&
		 grep -q "^# EDAC: 2 DDR controllers; SMBIOS type 17: $used of 24 slots hold a DIMM" "$W/out" &&
		 [ "$(grep -cE "^[01] +imc([0-3]) +populated +0 +[0-3] +$dpc " "$W/out")" -eq 8 ] &&
		 [ "$(grep -cE "^[01] +imc[0-9]" "$W/out")" -eq 8 ] &&
		 on_ha0 0 && on_ha0 1 &&
		 [ "$(grep -c "^# socket [01] peak: $peak GB/s" "$W/out")" -eq 2 ] &&
		 [ "$(grep -c "^# node [01] (socket [01].*peak: $peak GB/s" "$W/out")" -eq 2 ]' || cat "$W/info" "$W/out" "$W/err"
done
$UNCORE --backend sim:hsx,ha=3 memory >"$W/out" 2>"$W/err"
check "sim:hsx,ha=3 refused: a die has one home agent or two" '[ $? -ne 0 ] && grep -q "ha=1|2" "$W/err"'
# SMBIOS 2.6: 28-byte type 17, the rated speed alone, said
mem sim:skx,smbios=2.6
check "sim:skx,smbios=2.6: the rated 2933 MT/s taken and said, each socket 140.784 GB/s (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q "at 2933 MT/s (the DIMMs. rated speed: the table has no configured speed)" "$W/out" &&
	 [ "$(grep -c "^# socket [01] peak: 140.784 GB/s" "$W/out")" -eq 2 ]'
mem sim:skx
check "sim:skx: DDR4-2933 DIMMs configured at 2666: the configured speed, 127.968 GB/s a socket" \
	'[ $rc -eq 0 ] && grep -q "configured at 2666 MT/s" "$W/out" && [ "$(grep -c "^# socket [01] peak: 127.968 GB/s" "$W/out")" -eq 2 ]'
# persistent memory beside the DRAM (a profile's pmem): its own line, out of the DRAM speed and peak
printf 'pmem = 1\n' >"$W/pmem"
mem "sim:spr,profile=$W/pmem"
check "sim:spr with PMem: 16 Optane modules named apart, the DRAM's 4800 MT/s and 307.2 GB/s a socket kept (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q "16 non-volatile devices (Intel Optane persistent memory) kept out of the DRAM peak" "$W/out" &&
	 grep -q "configured at 4800 MT/s" "$W/out" && [ "$(grep -c "^# socket [01] peak: 307.2 GB/s" "$W/out")" -eq 2 ]'
# repeated node ids on 8 sockets: placed by order, each said
mem sim:skx,sockets=8,devices=none,edac=repeat
check "sim:skx,sockets=8,edac=repeat: mc13-15 placed by order on sockets 6 and 7, socket 1 its own (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q "(3 notes): mc13 names socket 0 controller 1" "$W/out" &&
	 grep -qE "^1 +imc0 +populated .*CPU_SrcID#1_MC#0_" "$W/out" && grep -qE "^7 +imc5 +populated .*CPU_SrcID#7_MC#1_" "$W/out" &&
	 grep -qE "^6 +imc3 +populated .*CPU_SrcID#6_MC#1_" "$W/out" && [ "$(grep -c "^# socket [0-7] peak: 127.968 GB/s" "$W/out")" -eq 8 ]'
# shapes a board has not are refused, saying so
$UNCORE --backend sim:icx,edac=old memory >"$W/out" 2>"$W/err"
check "sim:icx,edac=old refused: i10nm_edac has no older names" '[ $? -ne 0 ] && grep -q "has no older names" "$W/err"'
$UNCORE --backend sim:skx,edac=repeat memory >"$W/out" 2>"$W/err"
check "sim:skx,edac=repeat refused on 2 sockets" '[ $? -ne 0 ] && grep -q "sockets=8" "$W/err"'

# the peak share a metric like the others
$UNCORE --backend sim:icx list --metrics >"$W/out" 2>&1
check "list --metrics lists mem_bw_peak_share (group memory_peak)" 'grep -qE "^mem_bw_peak_share +% +memory_peak" "$W/out"'
# the profile's 17.6 GB/s on socket 0 of sim:icx over its 204.8 GB/s: 8.59375 %; an empty box 0
$UNCORE --backend sim:icx,clock=manual stat -M mem_bw_peak_share --per-box --duration 1 >"$W/out" 2>"$W/err"
check "stat -M mem_bw_peak_share on sim:icx: socket 0 8.59 %, box 2 (no channel) 0 (exit $?)" \
	'grep -qE "^socket0 +mem_bw_peak_share +8\.59(37|38) %" "$W/out" && grep -qE "^  imc2 +mem_bw_peak_share +0\.0000 %" "$W/out"' ||
	cat "$W/out" "$W/err"
$UNCORE --backend sim:hsx,edac=off stat -M mem_bw_peak_share --duration 0.1 >"$W/out" 2>"$W/err"
check "stat -M mem_bw_peak_share without EDAC: no value, not a guess" '! grep -qE "mem_bw_peak_share +[0-9]" "$W/out"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
