#!/bin/sh
# uncore memory and the peak share (issue 91): which channel box of each socket holds DIMMs on the simulated boards
# (sim:icx the Lenovo SR630 V2's 8 DDR4-3200 channels of 12 boxes, two 32 GB DIMMs each; sim:spr's dimms=), each
# socket's peak from the population and SMBIOS's configured speed -- 8 x 3200 MT/s x 8 B = 204.8 GB/s, 4 x 4800 x 8 =
# 153.6 GB/s, worked out here from the boards' figures -- and stat's mem_bw_peak_share: a profile's 51.2 GB/s on
# 204.8 is 25 %.  Without EDAC (edac=off) the channels are unknown and the peak is said to be unknown, not guessed.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore

$UNCORE --backend sim:icx memory >"$W/out" 2>"$W/err"
rc=$?
check "sim:icx memory: exit 0, 16 channels populated with 2 DIMMs of 32768 MiB at 3200 MT/s, 8 boxes none (exit $rc $(head -c 200 "$W/err"))" \
	'[ $rc -eq 0 ] && [ "$(grep -cE "^[01] +imc([013467]|9|10) +populated +[0-3] +[01] +2 +65536 +3200 Registered-DDR4 " "$W/out")" -eq 16 ] &&
	 [ "$(grep -cE "^[01] +imc(2|5|8|11) +none " "$W/out")" -eq 8 ]'
check "sim:icx memory: controller 1 channel 1 is imc4, labelled as i10nm_edac labels it" \
	'grep -qE "^1 +imc4 +populated +1 +1 .*CPU_SrcID#1_MC#1_Chan#1_DIMM#0, CPU_SrcID#1_MC#1_Chan#1_DIMM#1$" "$W/out"'
check "sim:icx memory: each socket's peak 204.8 GB/s" '[ "$(grep -c "^# socket [01] peak: 204.8 GB/s" "$W/out")" -eq 2 ]'

$UNCORE --backend sim:spr,dimms=10101010/11111111 memory --json >"$W/out" 2>"$W/err"
check "sim:spr,dimms=10101010/11111111 memory --json: socket 0 153.6 GB/s (4 channels), socket 1 307.2 GB/s (8)" \
	'grep -q "^{\"socket\":0,\"peak_bytes_per_s\":153600000000}$" "$W/out" &&
	 grep -q "^{\"socket\":1,\"peak_bytes_per_s\":307200000000}$" "$W/out" &&
	 [ "$(grep -c "\"socket\":0,\"box\":[1357],\"state\":\"empty\"" "$W/out")" -eq 4 ]'

$UNCORE --backend sim:icx,edac=off memory >"$W/out" 2>"$W/err"
check "sim:icx,edac=off memory: every box unknown, the peak unknown saying why" \
	'[ "$(grep -cE "^[01] +imc[0-9]+ +unknown " "$W/out")" -eq 24 ] &&
	 grep -q "^# socket 0 peak: unknown (.*no EDAC driver loaded: modprobe i10nm_edac" "$W/out"'

# the share: socket 0 moves 40.96e9 + 10.24e9 B/s = 51.2 GB/s of its 204.8
printf 'socket0.mem_read_bytes_per_s = 40.96e9\nsocket0.mem_write_bytes_per_s = 10.24e9\n' >"$W/profile"
$UNCORE --backend "sim:icx,clock=manual,profile=$W/profile" stat -M mem_bw_total --duration 1 >"$W/out" 2>"$W/err"
check "sim:icx stat -M mem_bw_total: socket 0's mem_bw_peak_share 25 % ($(grep share "$W/out" | head -1))" \
	'grep -qE "^socket0 +mem_bw_total +51\.2000 GB/s$" "$W/out" && grep -qE "^socket0 +mem_bw_peak_share +25\.0000 %$" "$W/out"'
$UNCORE --backend "sim:icx,clock=manual,edac=off,profile=$W/profile" stat -M mem_bw_total --duration 1 >"$W/out" 2>"$W/err"
check "sim:icx,edac=off: no share where the peak is unknown" '! grep -q mem_bw_peak_share "$W/out" && grep -q mem_bw_total "$W/out"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
