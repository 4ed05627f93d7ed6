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
	'[ $rc -eq 0 ] && [ "$(grep -cE "^[01] +imc([013467]|9|10) +populated +[0-3] +[01] +2 +65536 +3200 Unbuffered-DDR4 " "$W/out")" -eq 16 ] &&
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

# the other generations' boards, each figure from its board (platforms/<p>/sim_memory.c): sb_edac's names and
# types, the DIMMs a channel, and the peak worked out here -- channels x MT/s x 8 B, to the MB/s (4 x 1866 x 8 = 59.712)
for pp in "snbep|0123|1|16384|1600|Registered-DDR3|CPU_SrcID#1_Ha#0_Chan#3_DIMM#0|51.2" \
	"ivbep|0145|1|16384|1866|Registered-DDR3|CPU_SrcID#1_Ha#1_Chan#1_DIMM#0|59.712" \
	"hsx|0145|2|32768|2133|Registered-DDR4|CPU_SrcID#1_Ha#1_Chan#1_DIMM#0, CPU_SrcID#1_Ha#1_Chan#1_DIMM#1|68.256" \
	"bdx|0145|1|32768|2400|Registered-DDR4|CPU_SrcID#1_Ha#1_Chan#1_DIMM#0|76.8" \
	"emr|01234567|1|32768|5600|Unbuffered-DDR5|CPU_SrcID#1_MC#3_Chan#1_DIMM#0|358.4"; do
	IFS='|' read -r k boxes d mib mts type label peak <<EOF2
$pp
EOF2
	$UNCORE --backend "sim:$k" memory >"$W/out" 2>"$W/err"
	rc=$? n=$(printf %s "$boxes" | wc -c) last=$(printf %s "$boxes" | tail -c 1)
	check "sim:$k memory: boxes $boxes of each socket populated, $d DIMM(s) of $mib MiB at $mts MT/s, $type; the rest empty (exit $rc)" \
		'[ $rc -eq 0 ] && [ "$(grep -cE "^[01] +imc[$boxes] +populated +[0-9] +[0-3] +$d +$mib +$mts $type " "$W/out")" -eq $((2 * n)) ] &&
		 ! grep -qE "^[01] +imc[0-9]+ +(unknown|none) " "$W/out" &&
		 [ "$(grep -cE "^[01] +imc[0-9]+ +empty " "$W/out")" -eq $(($(grep -cE "^[01] +imc" "$W/out") - 2 * n)) ]'
	check "sim:$k memory: socket 1's last channel (imc$last) labelled '$label'; each peak $peak GB/s" \
		'grep -qE "^1 +imc$last +populated .* $label$" "$W/out" && [ "$(grep -c "^# socket [01] peak: $peak GB/s" "$W/out")" -eq 2 ]'
done

# Xeon Max: its 32 HBM channels a socket (i10nm_edac's 16 HBM controllers, lmc 4-19, 2 channels, 2 GiB each) apart
# from DDR, which alone makes the peak: 8 x 4800 x 8 = 307.2 GB/s with HBM beside it; 0 with HBM alone
$UNCORE --backend sim:spr,hbm=flat memory >"$W/out" 2>"$W/err"
check "sim:spr,hbm=flat memory: 64 HBM channels populated (2048 MiB, High-bandwidth-memory-Gen2), hbm31 controller 19 channel 1; DDR peak 307.2 GB/s" \
	'[ "$(grep -cE "^[01] +hbm[0-9]+ +populated +([4-9]|1[0-9]) +[01] +1 +2048 +- High-bandwidth-memory-Gen2 CPU_SrcID#[01]_HBMC#" "$W/out")" -eq 64 ] &&
	 grep -qE "^1 +hbm31 +populated +19 +1 .*CPU_SrcID#1_HBMC#19_Chan#1$" "$W/out" &&
	 [ "$(grep -c "^# socket [01] peak: 307.2 GB/s" "$W/out")" -eq 2 ] && ! grep -q "HBM only" "$W/out"'
$UNCORE --backend sim:spr,hbm=only memory >"$W/out" 2>"$W/err"
check "sim:spr,hbm=only memory: every DDR channel empty, HBM only said, DDR peak 0 GB/s" \
	'[ "$(grep -cE "^[01] +imc[0-7] +empty " "$W/out")" -eq 16 ] && [ "$(grep -c "^# socket [01]: HBM only" "$W/out")" -eq 2 ] &&
	 [ "$(grep -c "^# socket [01] peak: 0 GB/s" "$W/out")" -eq 2 ] && [ "$(grep -cE "^[01] +hbm[0-9]+ +populated " "$W/out")" -eq 64 ]'
$UNCORE --backend sim:spr,hbm=only memory --json >"$W/out" 2>"$W/err"
check "sim:spr,hbm=only memory --json: HBM rows of kind hbm, DDR of kind ddr" \
	'[ "$(grep -c "\"state\":\"populated\".*\"kind\":\"hbm\"}$" "$W/out")" -eq 64 ] &&
	 [ "$(grep -c "\"state\":\"empty\".*\"kind\":\"ddr\"}$" "$W/out")" -eq 16 ]'
$UNCORE --backend sim:spr,hbm=only,dimms=10000000 info >"$W/out" 2>"$W/err"
check "sim:spr,hbm=only,dimms=10000000 refused: HBM-only has no DDR DIMM" '[ $? -ne 0 ] && grep -q "has no DDR DIMM" "$W/err"'

# a snapshot keeps the EDAC tree and the SMBIOS table: its replay shows the node's population row for row, and
# its simulated machine moves traffic on those channels alone (uncore check on socket 1's 4 of 8)
spec=sim:spr,dimms=10101010/11110000
$UNCORE --backend "$spec" snapshot -o "$W/pop.tar" >/dev/null 2>"$W/err"
check "snapshot of $spec: the EDAC files (8 mc_name; 8 DIMMs x dimm_location, size, type, label) and the SMBIOS table" \
	'tar tf "$W/pop.tar" | grep -qx sys/firmware/dmi/tables/DMI &&
	 [ "$(tar tf "$W/pop.tar" | grep -cE "^sys/devices/system/edac/mc/mc[0-9]+/mc_name$")" -eq 8 ] &&
	 [ "$(tar tf "$W/pop.tar" | grep -cE "^sys/devices/system/edac/mc/mc[0-9]+/dimm[0-9]+/(dimm_location|size|dimm_mem_type|dimm_label)$")" -eq 32 ] &&
	 [ "$(tar xOf "$W/pop.tar" sys/devices/system/edac/mc/mc0/dimm0/dimm_location)" = "channel 0 slot 0 " ]'
$UNCORE --backend "$spec" memory | grep -v "^# backend" >"$W/sim"
$UNCORE --backend "replay:$W/pop.tar" memory | grep -v "^# backend" >"$W/rep"
check "replay of the snapshot: uncore memory the same rows, peaks and sources as on the node" 'cmp -s "$W/sim" "$W/rep" || diff "$W/sim" "$W/rep" | head -5'
$UNCORE --backend "replay:$W/pop.tar,clock=manual" check --seconds 0.1 --size 32 --socket 1 >"$W/out" 2>"$W/err"
check "replay: check on socket 1 compares its 4 populated channels, 4 empty ones count nothing, 32.0 MiB each way (exit $?)" \
	'grep -qE "^socket 1: every channel counts .* 4, least 100% of mean +PASS$" "$W/out" &&
	 grep -qE "^socket 1: empty channels count nothing .* 4 empty, most 0.0 MiB +PASS$" "$W/out" &&
	 [ "$(grep -cE "^(streaming read|non-temporal write|copy): socket 1 (read|write) bytes .* 32.0 MiB +PASS$" "$W/out")" -eq 4 ]'
# a hostile EDAC tree (issue 96 point 5): the driver's and the firmware's strings -- dimm_label, dimm_mem_type,
# mc_name -- holding a terminal title (OSC ... BEL), a clear screen (CSI 2J), C1's CSI and a bidirectional
# override reach no terminal raw through uncore memory, text or JSON; each is escaped where it stood
mkdir -p "$W/bad" && tar -C "$W/bad" -xf "$W/pop.tar"
E=$W/bad/sys/devices/system/edac/mc
printf 'evil\033]0;pwned\007 \342\200\256label\302\233x\n' >"$E/mc0/dimm0/dimm_label"
printf 'DDR5\033[2J\n' >"$E/mc0/dimm0/dimm_mem_type"
printf 'Intel_10nm\033[31m\342\200\256 Socket#0 IMC#1\n' >"$E/mc1/mc_name"
(cd "$W/bad" && tar -cf "$W/bad.tar" -- *)
# lines holding a C0 control or DEL, C1 (U+0080-U+009F), a bidirectional control, raw
raw() { LC_ALL=C grep -c "$(printf '[\001-\010\013-\037\177]\\|\302[\200-\237]\\|\342\200[\216\217\252-\256]\\|\342\201[\246-\251]\\|\330\234')" "$1"; }
$UNCORE --backend "replay:$W/bad.tar" memory >"$W/out" 2>&1
check "hostile EDAC strings: uncore memory shows none raw ($(raw "$W/out") lines)" '[ "$(raw "$W/out")" -eq 0 ]'
check "... the label, the type and the odd mc_name each escaped where it stood" \
	'grep -qE "^0 +imc0 +populated .* DDR5\\\\x1b\[2J +evil\\\\x1b\]0;pwned\\\\x07 \\\\u202elabel\\\\u009bx$" "$W/out" &&
	 grep -qF "mc_name '"'"'Intel_10nm\x1b[31m\u202e Socket#0 IMC#1'"'"' is not" "$W/out"' || grep -E "imc0 |mc_name" "$W/out"
$UNCORE --backend "replay:$W/bad.tar" memory --json >"$W/out" 2>&1
check "... and --json: none raw, each a JSON escape" \
	'[ "$(raw "$W/out")" -eq 0 ] && grep -qF "\"type\":\"DDR5\u001b[2J\",\"labels\":\"evil\u001b]0;pwned\u0007 \u202elabel\u009bx\"" "$W/out"'
for m in "$E"/mc*/mc_name; do printf 'Intel_10nm\033[31m\342\200\256 Socket#0 IMC#1\n' >"$m"; done
(cd "$W/bad" && tar -cf "$W/bad2.tar" -- *)
$UNCORE --backend "replay:$W/bad2.tar" memory >"$W/out" 2>&1
check "every mc_name hostile: the peak unknown, the reason quoting it escaped, none raw" \
	'[ "$(raw "$W/out")" -eq 0 ] &&
	 grep -qF "# socket 0 peak: unknown (memory peak of socket 0: which channels hold DIMMs is unknown (" "$W/out" &&
	 grep -qF "mc_name '"'"'Intel_10nm\x1b[31m\u202e Socket#0 IMC#1'"'"'" "$W/out"'
$UNCORE --backend sim:spr,hbm=only snapshot -o "$W/hbm.tar" >/dev/null 2>"$W/err"
$UNCORE --backend "replay:$W/hbm.tar" memory >"$W/out" 2>"$W/err"
check "replay of an HBM-only node: HBM only, its 64 HBM channels populated" \
	'[ "$(grep -c "^# socket [01]: HBM only" "$W/out")" -eq 2 ] && [ "$(grep -cE "^[01] +hbm[0-9]+ +populated " "$W/out")" -eq 64 ]'
# a node without them says so: no EDAC driver (edac=off), and a field snapshot made from an lspci listing
$UNCORE --backend sim:icx,edac=off snapshot -o "$W/off.tar" >/dev/null 2>"$W/err"
check "snapshot of sim:icx,edac=off: not taken, said: no EDAC driver loaded" 'grep -q "not taken: the EDAC tree: no .*no EDAC driver loaded" "$W/err"'
$UNCORE --backend "replay:$W/off.tar" memory >"$W/out" 2>"$W/err"
check "its replay: EDAC unknown, the snapshot holding none; the SMBIOS table kept (3200 MT/s)" \
	'grep -q "^# EDAC: unknown: the snapshot holds no EDAC/SMBIOS: none on the node.*; SMBIOS type 17: 32 of 32 slots hold a DIMM, configured at 3200 MT/s" "$W/out"'
$UNCORE --backend "replay:${top_srcdir:-.}/tests/snapshots/field/bdx-r730-2ch.tar.gz" memory >"$W/out" 2>"$W/err"
# (its listing's iMC channel functions: 0, 1, 4, 5 of each socket, the boxes sim:bdx populates)
check "the R730 field snapshot (from an lspci listing): its 8 channels unknown, the snapshot holding no EDAC/SMBIOS" \
	'grep -q "^# EDAC: unknown: the snapshot holds no EDAC/SMBIOS: it was made from an lspci listing" "$W/out" &&
	 [ "$(grep -cE "^[01] +imc[0145] +unknown " "$W/out")" -eq 8 ] && ! grep -qE "^[01] +imc[2367] " "$W/out" &&
	 grep -q "^# socket 0 peak: unknown" "$W/out"'

# the share: socket 0 moves 40.96e9 + 10.24e9 B/s = 51.2 GB/s of its 204.8
printf 'socket0.mem_read_bytes_per_s = 40.96e9\nsocket0.mem_write_bytes_per_s = 10.24e9\n' >"$W/profile"
$UNCORE --backend "sim:icx,clock=manual,profile=$W/profile" stat -M mem_bw_total --duration 1 >"$W/out" 2>"$W/err"
check "sim:icx stat -M mem_bw_total: socket 0's mem_bw_peak_share 25 % ($(grep share "$W/out" | head -1))" \
	'grep -qE "^socket0 +mem_bw_total +51\.2000 GB/s$" "$W/out" && grep -qE "^socket0 +mem_bw_peak_share +25\.0000 %$" "$W/out"'
$UNCORE --backend "sim:icx,clock=manual,edac=off,profile=$W/profile" stat -M mem_bw_total --duration 1 >"$W/out" 2>"$W/err"
check "sim:icx,edac=off: no share where the peak is unknown" '! grep -q mem_bw_peak_share "$W/out" && grep -q mem_bw_total "$W/out"'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
