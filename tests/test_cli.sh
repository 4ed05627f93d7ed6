#!/bin/sh
# The uncore CLI on the simulator: listing, counting against the profile's truth, and refusals.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore

tsv=$($UNCORE list --backend sim:snbep --format tsv)
check "tsv header" '[ "$(echo "$tsv" | grep -v "^#" | head -1)" = "$(printf "unit\tname\tcode\tumask\tumask_ext\tcounters\tdescription\tqualifiers")" ]'
# qualifiers as the library lists them, with the ranges of the manuals' control registers
quals() { echo "$1" | awk -F'\t' -v e="$2" '$2 == e { print $8 }'; }
check "UBox thresh is 5 bits (Table 2-2)" '[ "$(quals "$tsv" UNC_U_LOCK_CYCLES)" = "socket=0..1 cpu=0..15 box=0..0 thresh=0..31 edge inv" ]'
check "an opcode event lists opc as required" 'quals "$tsv" UNC_C_TOR_INSERTS.OPCODE | grep -q "opc=0..511(required)"'
check "PCU lists occ_inv and occ_edge" 'quals "$tsv" UNC_P_CLOCKTICKS | grep -q " occ_inv occ_edge"'
ivb=$($UNCORE list --backend sim:ivbep --format tsv)
check "IVB-EP lists no inv (no invert bit)" '! echo "$ivb" | awk -F"\t" "{ print \$8 }" | grep -qw inv'
rows=$(echo "$tsv" | grep -v '^#' | tail -n +2 | wc -l)
check "at least 400 event/umask rows ($rows)" '[ "$rows" -ge 400 ]'
check "CAS_COUNT.RD row" 'echo "$tsv" | grep -q "^imc	UNC_M_CAS_COUNT.RD	0x04	0x03	0x0	0,1,2,3	"'
check "tsv says simulated" 'echo "$tsv" | head -1 | grep -q SIMULATED'

out=$(UNCORE_BACKEND=sim:snbep,clock=manual $UNCORE stat -e UNC_M_CAS_COUNT.RD,UNC_M_CAS_COUNT.WR --duration 2)
# default profile: socket s reads 12.8e9*(1+s) B/s and writes 4.8e9*(1+s) B/s; 64 bytes per CAS
check "stat says simulated" 'echo "$out" | grep -q SIMULATED'
check "socket0 reads" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD *400000000$"'
check "socket1 reads" 'echo "$out" | grep -q "^socket1 *UNC_M_CAS_COUNT.RD *800000000$"'
check "socket1 writes" 'echo "$out" | grep -q "^socket1 *UNC_M_CAS_COUNT.WR *300000000$"'

out=$($UNCORE --backend sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:socket=0 -I 500 --duration 1.5)
check "three intervals of 500 ms" '[ "$(echo "$out" | grep -c "socket0 *UNC_M_CAS_COUNT.RD:socket=0 *100000000$")" -eq 3 ]'

# cpu=N (perf -C N, PAPI's :cpu=N): the socket of CPU N; the simulated SNB-EP numbers 8 CPUs per socket
out=$($UNCORE --backend sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:cpu=9,UNC_M_CAS_COUNT.RD:cpu=7 --duration 1)
check "cpu=9 counts socket 1 only" '[ "$(echo "$out" | grep -c "CAS_COUNT.RD:cpu=9")" -eq 1 ] && echo "$out" | grep -q "^socket1 *UNC_M_CAS_COUNT.RD:cpu=9 *400000000$"'
check "cpu=7 counts socket 0 only" '[ "$(echo "$out" | grep -c "CAS_COUNT.RD:cpu=7")" -eq 1 ] && echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD:cpu=7 *200000000$"'
err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD:cpu=9:socket=0 --duration 1 2>&1)
check "cpu= and socket= that disagree are refused ($err)" 'echo "$err" | grep -q "CPU 9 is on socket 1, not socket 0"'
err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD:cpu=16 --duration 1 2>&1)
check "a CPU the machine lacks is refused ($err)" 'echo "$err" | grep -q "out of range (0..15)"'
out=$($UNCORE --backend sim:snbep,clock=manual stat -M mem_bw_read:cpu=9 --duration 1 2>&1)
check "a metric with cpu=9 is socket 1's (25.6 GB/s), and socket 1 alone" \
	'echo "$out" | grep -q "^socket1 *mem_bw_read *25.6000 GB/s$" && ! echo "$out" | grep -q "^socket0"'

out=$($UNCORE --backend sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:socket=1 --per-box --duration 1)
# socket 1 reads 25.6e9 B/s: 1e8 CAS per second on each of its 4 channels
check "per-box rows" '[ "$(echo "$out" | grep -c "box[0-3] *UNC_M_CAS_COUNT.RD:socket=1 *100000000$")" -eq 4 ]'

# perf's event names (Linux's snbep_uncore_imc_events): cas_count_read counts 64-byte CASes, printed in MiB
# by its .scale 6.103515625e-5 as perf stat prints it; socket 0 reads 25.6e9 B in 2 s = 24414.0625 MiB, one
# channel (uncore_imc_0) a quarter of it; uncore_cbox_0/event=0x0/ is one CBo's clock (2.7 GHz x 2 s)
for be in sim:snbep perf+sim:snbep; do
	out=$($UNCORE --backend $be,clock=manual stat -e uncore_imc/cas_count_read/,uncore_imc_0/cas_count_read/,imc/cas_count_write/,uncore_cbox_0/event=0x0/ --duration 2 2>&1)
	check "$be: uncore_imc/cas_count_read/ in MiB" 'echo "$out" | grep -q "^socket0 *uncore_imc/cas_count_read/ *24414.06 MiB$"'
	check "$be: uncore_imc_0 is one channel of four" 'echo "$out" | grep -q "^socket1 *uncore_imc_0/cas_count_read/ *12207.03 MiB$"'
	check "$be: imc/cas_count_write/ without the prefix" 'echo "$out" | grep -q "^socket0 *imc/cas_count_write/ *9155.27 MiB$"'
	check "$be: uncore_cbox_0/event=0x0/ is one CBo's clock" 'echo "$out" | grep -q "^socket0 *uncore_cbox_0/event=0x0/ *5400000000$"'
	out=$($UNCORE --backend $be,clock=manual stat -e uncore_imc/cas_count_read/ --duration 2 --json)
	check "$be: JSON carries the scaled value and its unit" \
		'echo "$out" | grep -q "\"event\": \"uncore_imc/cas_count_read/\", \"value\": 24414.0625, \"unit\": \"MiB\""'
	out=$($UNCORE --backend $be,clock=manual stat -e uncore_imc/cas_count_read/ --duration 2 -x ,)
	check "$be: CSV carries the scaled value and its unit" 'echo "$out" | grep -q ",0,,uncore_imc/cas_count_read/,24414.0625,MiB,"'
done
err=$($UNCORE --backend sim:snbep stat -e uncore_foo/event=0x1/ --duration 1 2>&1); rc=$?
check "an unknown PMU is refused by name" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown PMU .uncore_foo."'
err=$($UNCORE --backend perf+sim:snbep stat -e uncore_imc/cas_count_reads/ --duration 1 2>&1); rc=$?
check "an unknown alias is refused by name" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown term .cas_count_reads..*has no such event alias; its aliases: .*cas_count_write"'
err=$($UNCORE --backend sim:snbep stat -e uncore_cbox/event=0x34,filter_link=1/ --duration 1 2>&1); rc=$?
check "a term the unit lacks is refused by name" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown term .filter_link."'
err=$($UNCORE --backend sim:snbep stat -e uncore_imc_4/cas_count_read/ --duration 1 2>&1); rc=$?
check "a box the machine lacks is refused" '[ $rc -ne 0 ] && echo "$err" | grep -q "no imc box 4"'

out=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -- true 2>&1)
check "stat -- cmd" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD"'

err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.NOPE --duration 1 2>&1); rc=$?
check "bad event refused (rc $rc)" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown event .UNC_M_CAS_COUNT.NOPE."'
err=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD:sock=1 --duration 1 2>&1); rc=$?
check "bad qualifier refused" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown qualifier .sock."'
err=$($UNCORE --backend sim:nope info 2>&1); rc=$?
check "unknown simulated platform" '[ $rc -ne 0 ] && echo "$err" | grep -q "unknown simulated platform .nope."'
err=$($UNCORE --backend sim:snbep,fault=eio:imc:2 stat -e UNC_M_CAS_COUNT.RD --duration 1 2>&1); rc=$?
check "I/O error on one box is reported" '[ $rc -ne 0 ] && echo "$err" | grep -q "I/O error on simulated imc 2"'
# a box that fails mid-run (imc 0 of each socket, from 0.5 s on): the values that do not involve it are
# printed with the truth (the profile's 2.7 GHz uncore clock on every CHA), the sums over it are marked
fault=sim:emr,clock=manual,fault=eio:imc:0@0.5
chas=$($UNCORE --backend sim:emr info | awk '$1 == "cha" { for (i = 2; i <= NF; i++) if ($i ~ /^s0:/) print substr($i, 4) }')
clk() { awk -v n="$chas" -v t="$1" 'BEGIN { printf "%.0f", 2.7e9 * n * t }'; }
out=$($UNCORE --backend "$fault" stat -M mem_bw_read,uncore_freq -e UNC_CHA_CLOCKTICKS --duration 1.2 2>"$W/err"); rc=$?
check "a box failing mid-run: exit 1 ($rc), the failure said once ($(cat "$W/err"))" \
	'[ $rc -eq 1 ] && [ "$(grep -c "no longer counted" "$W/err")" -eq 1 ] && grep -q "imc 0 (socket 0): reading MMIO: I/O error" "$W/err"'
check "a box failing mid-run: the CHA clocks ($chas CHAs: $(clk 1.2)) and uncore_freq (2.7 GHz) of each socket are printed" \
	'(for k in 0 1; do echo "$out" | grep -q "^socket$k *UNC_CHA_CLOCKTICKS *$(clk 1.2)$" &&
		echo "$out" | grep -qE "^socket$k +uncore_freq +2\.7000 GHz$" || exit 1; done)'
check "a box failing mid-run: each socket's mem_bw_read, a sum over it, is marked" \
	'(for k in 0 1; do echo "$out" | grep -qE "^socket$k +mem_bw_read +<not counted: imc 0 \(socket $k\) failed>$" || exit 1; done)'
out=$($UNCORE --backend "$fault" stat -M mem_bw_read,uncore_freq -e UNC_CHA_CLOCKTICKS -I 400 --duration 1.2 2>"$W/err"); rc=$?
check "-I 400 with a box failing at 0.5 s: exit 1 ($rc); every interval has the CHA clocks ($(clk 0.4)) and 2.7 GHz" \
	'[ $rc -eq 1 ] && [ "$(echo "$out" | grep -cE "^ +(0\.400|0\.800|1\.200) socket[01] +UNC_CHA_CLOCKTICKS +$(clk 0.4)$")" -eq 6 ] &&
	 [ "$(echo "$out" | grep -cE "^ +(0\.400|0\.800|1\.200) socket[01] +uncore_freq +2\.7000 GHz$")" -eq 6 ]'
check "-I 400: mem_bw_read is the truth before the fault (12.8, 25.6 GB/s), marked in the two intervals after" \
	'echo "$out" | grep -qE "^ +0\.400 socket0 +mem_bw_read +12\.8000 GB/s$" && echo "$out" | grep -qE "^ +0\.400 socket1 +mem_bw_read +25\.6000 GB/s$" &&
	 [ "$(echo "$out" | grep -cE "^ +(0\.800|1\.200) socket[01] +mem_bw_read +<not counted: imc 0 \(socket [01]\) failed>$")" -eq 4 ]'
$UNCORE --backend sim:emr,fault=eio:imc:0@0.5 stat -e UNC_M_CAS_COUNT.RD,UNC_CHA_CLOCKTICKS -- sh -c 'sleep 1; exit 3' \
	>"$W/out" 2>"$W/err"; rc=$?
check "a box failing while a command runs: the command's own status still wins ($rc)" \
	'[ $rc -eq 3 ] && grep -q "no longer counted" "$W/err" && grep -qE "^socket1 +UNC_CHA_CLOCKTICKS +[1-9]" "$W/out"'
out=$($UNCORE --backend sim:emr,fault=eio:imc:0@0.5 stat -e UNC_M_CAS_COUNT.RD,UNC_CHA_CLOCKTICKS -- sleep 1 2>&1); rc=$?
check "... and when it succeeds, exit 1 ($rc)" '[ $rc -eq 1 ] && echo "$out" | grep -qE "^socket0 +UNC_CHA_CLOCKTICKS +[1-9]"'
out=$($UNCORE --backend sim:snbep,fault=missing:imc:3,clock=manual stat -e UNC_M_CAS_COUNT.RD --per-box --duration 1 2>&1)
check "missing channel: three boxes counted per socket" '[ "$(echo "$out" | grep -c "box[0-2] *UNC_M_CAS_COUNT.RD *50000000$")" -eq 3 ] && ! echo "$out" | grep -q "box3 "'
# every QPI/UPI link layer device hidden by the firmware (issue 65 point 8): one line says so, not 0 links
# silently; the perf backend's own line (no uncore_qpi PMU) is the only one there.  A machine of one socket has
# no link to hide: its line says that instead, and no firmware is blamed
for b in sim:hsx,fault=missing:qpi sim:ivbep,sockets=1,fault=missing:qpi sim:hsx,sockets=1,fault=missing:qpi \
	sim:skx,fault=missing:upi perf+sim:hsx,fault=missing:qpi; do
	err=$($UNCORE --backend "$b" info 2>&1 >/dev/null); u=${b##*:}
	check "$b: one line names the missing $u link layer devices ($(echo "$err" | grep -c .) lines)" \
		'[ "$(echo "$err" | grep -c .)" -eq 1 ] && case $b in perf+*) echo "$err" | grep -q "^uncore: warning: qpi: the kernel has no PMU uncore_qpi" ;;
		 *sockets=1*) echo "$err" | grep -qx "uncore: warning: $u: no QPI link layer PCI device, and this machine has one socket: there is no link to another socket to count" ;;
		 *) echo "$err" | grep -qx "uncore: warning: $u: no [QU]PI link layer PCI device on any socket: the firmware hides them (a BIOS setting); no link is counted" ;; esac'
done
err=$($UNCORE --backend sim:hsx,sockets=1 info 2>&1 >/dev/null)
check "... and where they are there, nothing is said" '[ -z "$err" ]'
err=$(UNCORE_BACKEND= UNCORE_SYSROOT=/nonexistent $UNCORE info 2>&1); rc=$?
check "no sysroot: clear error" '[ $rc -ne 0 ] && echo "$err" | grep -q "does not exist"'
out=$($UNCORE --backend sim:snbep,fault=allones:imc:0,clock=manual stat -e UNC_M_CAS_COUNT.RD:box=1 --duration 1 2>&1)
check "all-ones box does not disturb another" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD:box=1 *50000000$"'
# health (issue 48): a box whose device goes mid-run is raised once, in each format; a clean run says nothing
out=$($UNCORE --backend sim:snbep,fault=allones:imc:1@2,clock=manual stat -e UNC_M_CAS_COUNT.RD -I 1000 --duration 4 2>&1)
check "stat -I: 'health raised allones' once per socket, at the read after the fault, with what to do" \
	'[ "$(echo "$out" | grep -c "^# 2.000 health raised allones: imc 1 (socket [01]): a counter read all ones: .*lspci")" -eq 2 ] &&
	 [ "$(echo "$out" | grep -c "health")" -eq 2 ]'
out=$($UNCORE --backend sim:snbep,fault=dead:imc:2,clock=manual stat -M mem_bw_read --duration 2 --json 2>/dev/null)
check "stat --json: a health object naming the condition, socket, unit and box" \
	'echo "$out" | grep -q "^{\"time\":2.000,\"health\":\"stopped\",\"raised\":true,\"socket\":0,\"unit\":\"imc\",\"box\":2,"'
err=$($UNCORE --backend sim:snbep,fault=dead:imc:2,clock=manual stat -M mem_bw_read --duration 2 -x, 2>&1 >/dev/null)
check "stat -x: health on stderr, every CSV row a value" '[ "$(echo "$err" | grep -c "health raised stopped: imc 2")" -eq 2 ]'
out=$($UNCORE --backend sim:gnr,clock=manual stat --metric-group memory,clock,llc -I 500 --duration 5 2>&1)
check "a clean run raises nothing" '! echo "$out" | grep -q health'
info=$($UNCORE --backend sim:snbep,sockets=4 info)
check "info: 4 sockets, 4 iMC channels each" 'echo "$info" | grep -q "^imc .* s0:4 s1:4 s2:4 s3:4"'

# Emerald Rapids through its discovery tables
tsv=$($UNCORE list --backend sim:emr --format tsv)
rows=$(echo "$tsv" | grep -v '^#' | tail -n +2 | wc -l)
check "emr: at least 2500 event/umask rows ($rows)" '[ "$rows" -ge 2500 ]'
check "emr: TOR_INSERTS.IA_MISS_DRD row" 'echo "$tsv" | grep -q "^cha	UNC_CHA_TOR_INSERTS.IA_MISS_DRD	0x35	0x01	0xc817fe	"'
info=$($UNCORE --backend sim:emr info 2>&1)
check "emr info: units per socket" 'echo "$info" | grep -q "^cha .* s0:60 s1:60" && echo "$info" | grep -q "^imc *mmio .* s0:8 s1:8" && echo "$info" | grep -q "^upi *pci .* s0:4 s1:4" && echo "$info" | grep -q "^cxlcm .* s0:1 s1:0"'
check "emr info: no warnings" '! echo "$info" | grep -q warning'
# Bits Linux drops (issue 65 point 3): on perf, uncore list names per unit the qualifiers that cannot reach the
# registers and why (DMR CXL CM: inv outside dmr_uncore_cxlcm's event mask; GNR B2CXL: the
# umask extension lost to writel); on the registers it has no such line
out=$($UNCORE --backend perf+sim:dmr list 2>&1)
check "perf+sim:dmr list: cxlcm's inv cannot reach the registers (port_en has no place in its 32-bit controls on either backend)" 'echo "$out" | grep -q "^# through this kernel'"'"'s perf PMUs, cxlcm cannot have: inv (bits 0x200000: outside the driver'"'"'s event mask, event_mask | event_mask_ext << 32)$"'
out=$($UNCORE --backend perf+sim:gnr list 2>&1)
check "perf+sim:gnr list: b2cxl's umask extension cannot reach the registers" 'echo "$out" | grep -q "^# through this kernel'"'"'s perf PMUs, b2cxl cannot have: the umask extension (bits 0xffffff00000000: it writes bits 31:0 of config alone to the MMIO control, writel)$" && ! echo "$out" | grep -q "perf PMUs, upi cannot"'
out=$($UNCORE --backend sim:dmr list 2>&1)
check "sim:dmr list: no unit is limited on the registers" '! echo "$out" | grep -q "cannot have"'
# GNR's discovery types Linux names none for (3, 7, 9-11, 14, 19): listed as the generic types type<N>, on both
# backends (perf: the kernel's uncore_type_<N>[_<box>] PMUs)
for be in sim:gnr perf+sim:gnr; do
	info=$($UNCORE --backend $be info 2>&1)
	check "$be info: the unnamed types" '(for t in 3 7 9 10 11 14 19; do echo "$info" | grep -q "^type$t  *[a-z]" || exit 1; done) && ! echo "$info" | grep -q warning'
done
# CXL memory (issue 50): sim:gnr,cxl=1 reads 6.4e9 B/s from socket 0's CXL memory (12.8e9 on socket 1) and
# writes 2.4e9 (4.8e9), port k of 2 carrying (k + 1) / 3: over 3 s of the manual clock, exactly
for be in sim:gnr,cxl=1 perf+sim:gnr,cxl=1; do
	out=$($UNCORE --backend $be,clock=manual stat -M cxl_read_bytes,cxl_write_bytes --per-box --duration 3 2>&1)
	check "$be: CXL bytes by socket and port equal the truth" 'echo "$out" | grep -q "^socket0 *cxl_read_bytes *19200000000 B$" &&
		echo "$out" | grep -q "^  cxlcm1 *cxl_read_bytes *25600000000 B$" && echo "$out" | grep -q "^socket1 *cxl_write_bytes *14400000000 B$" &&
		echo "$out" | grep -q "^  cxldp0 *cxl_write_bytes *2400000000 B$"'
done
# Xeon Max HBM (issue 50): sim:spr,hbm=1 reads 25.6e9 B/s from socket s's HBM x (s + 1) and writes 9.6e9 x (s + 1)
# (sim_profile.c), spread over its 32 channels, DDR's 12.8e9 x (s + 1) apart: over 3 s of the manual clock, exactly
for be in sim:spr,hbm=1 perf+sim:spr,hbm=1; do
	out=$($UNCORE --backend $be,clock=manual stat -M hbm_read_bytes,hbm_write_bytes,mem_read_bytes --per-box --duration 3 2>&1)
	check "$be: HBM bytes by socket and channel equal the truth, DDR's apart" 'echo "$out" | grep -q "^socket0 *hbm_read_bytes *76800000000 B$" &&
		echo "$out" | grep -q "^socket1 *hbm_write_bytes *57600000000 B$" && echo "$out" | grep -q "^  hbm31 *hbm_read_bytes *2400000000 B$" &&
		echo "$out" | grep -q "^socket1 *mem_read_bytes *76800000000 B$"'
done
out=$($UNCORE --backend sim:emr,clock=manual,devices=none stat -e UNC_M_CAS_COUNT.RD,UNC_IIO_BANDWIDTH_IN.PART0_FREERUN --duration 2)
check "emr: socket1 reads" 'echo "$out" | grep -q "^socket1 *UNC_M_CAS_COUNT.RD *800000000$"'
# no devices (devices=none): port 0 of each of the 10 IIO stacks of the board sim:emr is laid out as (PMUs 0-9)
# carries 8/36 (default iio_port<N>_share 8..1) of its tenth of socket 0's 1.6e9 B/s in (iio_in_bytes_per_s,
# common/sim/sim_profile.c), over 2 s in 32-byte units: 10 x floor(2222222.2) (each stack's count is floored)
n=$(echo "$out" | awk '$1 == "socket0" && $2 == "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN" { print $3 }')
check "emr: socket0 IIO inbound of port 0, 32-byte units ($n)" '[ "$n" = 22222220 ]'
err=$($UNCORE --backend sim:emr,fault=corrupt:cha:7 info 2>&1)
check "emr: corrupt entry named" 'echo "$err" | grep -q "warning: discovery table of socket 1, entry 7 (cha unit 7): the entry reads all ones" && echo "$err" | grep -q "^cha .* s0:59 s1:59"'
nine=$(for i in 0 1 2 3 4 5 6 7 8; do printf ',fault=eio:cha:%s' $i; done)
err=$($UNCORE --backend "sim:emr$nine" info 2>&1); rc=$?
check "emr: a ninth fault is refused by name" '[ $rc -ne 0 ] && echo "$err" | grep -q "too many simulator faults: at most 8"'
err=$($UNCORE --backend "sim:emr,profile=$(printf '%0600d' 0)" info 2>&1); rc=$?
check "sim spec too long refused" '[ $rc -ne 0 ] && echo "$err" | grep -q "simulator spec is 6[0-9][0-9] characters long"'
out=$($UNCORE --backend sim:generic,clock=manual --events "$top_srcdir/tests/fixtures/generic_events.json" stat -e UNC_CHA_CLOCKTICKS:socket=0 --duration 1 2>&1)
check "generic: event from --events counted" 'echo "$out" | grep -q "^socket0 *UNC_CHA_CLOCKTICKS:socket=0 *10800000000$"'
err=$($UNCORE --backend sim:emr --events "$top_srcdir/tests/fixtures/bad_syntax.json" list 2>&1); rc=$?
check "bad JSON refused with file and line" '[ $rc -ne 0 ] && echo "$err" | grep -q "bad_syntax.json:3:"'

# The IVB-EP, Nehalem-EP and Montecito rows: tables listed, raw counts and metrics equal the truth.
for spec in "ivbep 1000 imc	UNC_M_CAS_COUNT.RD	0x04	0x03	0x0	0,1,2,3	" \
	    "nhm 150 unc	UNC_IMC_NORMAL_READS.ANY	0x2c	0x07	0x0	0,1,2,3,4,5,6,7	" \
	    "montecito 150 pmu	BUS_MEM_READ.BRL.SELF	0x8b	0x06	0x0	0,1,2,3,4,5	"; do
	plat=${spec%% *} rest=${spec#* } min=${rest%% *} row=${rest#* }
	tsv=$($UNCORE list --backend sim:$plat --format tsv)
	rows=$(echo "$tsv" | grep -v '^#' | tail -n +2 | wc -l)
	check "$plat: list shows $rows rows (at least $min)" '[ "$rows" -ge "$min" ]'
	check "$plat: list row $(echo "$row" | cut -f2)" 'echo "$tsv" | grep -qF "$row"'
done
# 2 s of socket 0's 12.8e9 B/s: 64-byte CAS / Nehalem reads, 128-byte Itanium bus lines
out=$($UNCORE --backend sim:ivbep,clock=manual stat -e UNC_M_CAS_COUNT.RD --duration 2)
check "ivbep: stat CAS reads over 8 channels" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD *400000000$"'
out=$($UNCORE --backend sim:nhm,clock=manual stat -e UNC_IMC_NORMAL_READS.ANY,UNC_CLK_UNHALTED --duration 2)
check "nhm: stat normal reads and uncore clocks" 'echo "$out" | grep -q "^socket0 *UNC_IMC_NORMAL_READS.ANY *400000000$" && echo "$out" | grep -q "^socket1 *UNC_CLK_UNHALTED *5400000000$"'
out=$($UNCORE --backend sim:montecito,clock=manual stat -e BUS_MEM_READ.ALL.EITHER,BUS_MEM_READ.ALL.SELF --per-box --duration 2)
check "montecito: socket-wide event counted once, SELF per core" 'echo "$out" | grep -q "^socket0 *BUS_MEM_READ.ALL.EITHER *200000000$" && [ "$(echo "$out" | grep -c "box[01] *BUS_MEM_READ.ALL.SELF *100000000$")" -eq 2 ]'
out=$($UNCORE --backend sim:ivbep,clock=manual stat -M mem_read_latency_ns,llc_miss_latency_ns,uncore_freq --duration 1 2>&1)
check "ivbep: -M latencies 50/100 ns and 2.7 GHz on socket 1" 'echo "$out" | grep -qE "^socket1 +mem_read_latency_ns +50\.0000 ns$" && echo "$out" | grep -qE "^socket1 +llc_miss_latency_ns +100\.0000 ns$" && echo "$out" | grep -qE "^socket1 +uncore_freq +2\.7000 GHz$"'
out=$($UNCORE --backend sim:nhm,clock=manual stat -M mem_read_latency_ns,llc_miss_ratio --duration 1 2>&1)
check "nhm: -M QHL latency 40 ns and miss ratio 25 %" 'echo "$out" | grep -qE "^socket0 +mem_read_latency_ns +40\.0000 ns$" && echo "$out" | grep -qE "^socket1 +llc_miss_ratio +25\.0000 %$"'
check "nhm: the occupancy caveat is shown" 'echo "$out" | grep -q "^# note: occupancy events .* bus lock"'
out=$($UNCORE --backend sim:montecito,clock=manual stat -M mem_read_latency_ns --duration 1 2>&1)
check "montecito: -M Little's-law latency 40 ns" 'echo "$out" | grep -qE "^socket0 +mem_read_latency_ns +40\.0000 ns$"'
out=$($UNCORE --backend sim:montecito,clock=manual stat -M bus_hitm_ratio,bus_partial_ratio --duration 1 2>&1)
check "montecito: -M bus ratios: HITM 8 %, partial 10 % on socket 1" 'echo "$out" | grep -qE "^socket1 +bus_hitm_ratio +8\.0000 %$" && echo "$out" | grep -qE "^socket1 +bus_partial_ratio +10\.0000 %$"'
out=$($UNCORE --backend sim:montecito,clock=manual stat -M mem_read_latency_ns,bus_hitm_ratio --duration 1 2>&1); rc=$?
check "montecito: more bus events than PMC4-9 refused" '[ $rc -ne 0 ] && echo "$out" | grep -q "12 counters, and their counter restrictions overlap"'
out=$($UNCORE --backend sim:montecito info)
check "montecito: info says simulator only" 'echo "$out" | grep -q "^# note: simulator only: Linux no longer runs on IA-64"'
out=$($UNCORE --backend sim:ivbep,clock=manual stat -e UNC_Q_RxL_FLITS_G0.DATA:socket=0:box=0:sample=1000 --duration 1 2>&1)
# each 50 ms slice of the simulated second ends with the overflow serviced: 20 periods of 1000 flits, each
# with the ~13 that pass in the model's 100 ns freeze latency (1.33e8 flits/s); unserviced: about 1013
v=$(echo "$out" | awk '/^socket0 +UNC_Q_RxL_FLITS_G0.DATA:socket=0:box=0:sample=1000 / { print $3 }')
check "ivbep: sample=N accepted by stat, serviced every 50 ms ($v)" '[ -n "$v" ] && [ "$v" -ge 20000 ] && [ "$v" -le 20400 ]'

# Derived metrics.  near VALUE TRUTH: within 0.5%.
near() { awk -v v="$1" -v t="$2" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= 0.005 * t) }'; }
# every "socket S NAME V UNIT" line of $out must be near the truth for its socket (TRUTH0 / TRUTH1)
all_near() { # name unit truth0 truth1 expected-lines
	lines=$(echo "$out" | grep -E "socket[01] +$1 +[0-9.]+ $2\$" || true)
	[ "$(echo "$lines" | grep -c .)" -eq "$5" ] || return 1
	echo "$lines" | while read -r t sock name v unit; do
		case $sock in socket0) near "$v" "$3" || exit 1 ;; *) near "$v" "$4" || exit 1 ;; esac
	done
}
for plat in snbep emr ivbep nhm montecito; do
	# the real clock: the simulator's rates against the session's own elapsed time
	out=$($UNCORE stat --backend sim:$plat -M mem_bw_read,mem_bw_write -I 1000 --duration 3 2>&1)
	check "$plat: -M mem_bw_read -I 1000: three intervals equal the truth in GB/s" 'all_near mem_bw_read GB/s 12.8 25.6 6'
	check "$plat: -M mem_bw_write: three intervals equal the truth" 'all_near mem_bw_write GB/s 4.8 9.6 6'
	check "$plat: metric output says simulated" 'echo "$out" | grep -q SIMULATED'
done
# Intel's deprecated names (issue 50): aliases of their replacements, counted alike, listed only with --deprecated
plain=$($UNCORE --backend sim:skx list --format tsv | awk -F'\t' '{ print $2 }')
dep=$($UNCORE --backend sim:skx list --deprecated --format tsv)
check "skx: plain list leaves the deprecated names out" '! echo "$plain" | grep -qE "^UNC_(H|C)_" && echo "$plain" | grep -qx UNC_CHA_CLOCKTICKS'
check "skx: list --deprecated adds them, each encoded as its replacement" \
	'[ "$(echo "$dep" | awk -F"\t" "\$2 ~ /^UNC_(H|C)_/" | wc -l)" -ge 500 ] &&
	 [ "$(echo "$dep" | awk -F"\t" "\$2 == \"UNC_H_REQUESTS.READS\" || \$2 == \"UNC_CHA_REQUESTS.READS\" { print \$1, \$3, \$4, \$5, \$6 }" | sort -u | wc -l)" -eq 1 ] &&
	 echo "$dep" | grep -q "UNC_H_REQUESTS.READS	.*Refer to new event UNC_CHA_REQUESTS.READS"'
check "skx: list --deprecated --json is JSON too" '$UNCORE --backend sim:skx list --deprecated --json | python3 -c "import json,sys; n=sum(1 for l in sys.stdin if json.loads(l)[\"name\"].startswith(\"UNC_H_\")); sys.exit(n < 400)"'
out=$($UNCORE --backend sim:skx,clock=manual stat -e UNC_H_REQUESTS.READS,UNC_CHA_REQUESTS.READS --duration 1 2>&1)
check "skx: a deprecated name counts what its replacement counts" '[ "$(echo "$out" | awk "/^socket1 +UNC_(H|CHA)_REQUESTS.READS/ { print \$3 }" | sort -u | wc -l)" -eq 1 ] && echo "$out" | grep -q "^socket1 *UNC_H_REQUESTS.READS"'
out=$($UNCORE --backend sim:emr,clock=manual stat --metric-group memory --per-box --duration 1)
check "emr: --metric-group memory per channel (8 x 1.6 GB/s on socket 0)" '[ "$(echo "$out" | grep -cE "^  imc[0-9]+ +mem_bw_read +1\.6000 GB/s$")" -eq 8 ] && echo "$out" | grep -qE "^socket1 +mem_bw_total +35\.2000 GB/s$"'
out=$($UNCORE --backend sim:snbep,clock=manual stat -M llc_miss_ratio,llc_miss_latency_ns,qpi_rx_util --duration 1 2>&1); rc=$?
check "snbep: LLC ratio and latency need CBo counters 0-1 at once: refused" '[ $rc -ne 0 ] && echo "$out" | grep -q "cannot be measured together"'
out=$($UNCORE --backend sim:snbep,clock=manual stat -M llc_miss_latency_ns,qpi_rx_util,uncore_freq --duration 1 2>&1)
check "snbep: latency 100 ns, link use 40 %, uncore 2.7 GHz on socket 1" 'echo "$out" | grep -qE "^socket1 +llc_miss_latency_ns +100\.0000 ns$" && echo "$out" | grep -qE "^socket1 +qpi_rx_util +40\.0000 %$" && echo "$out" | grep -qE "^socket0 +uncore_freq +2\.7000 GHz$"'
err=$($UNCORE --backend sim:emr stat -M llc_miss_ratio,llc_miss_latency_ns --duration 1 2>&1); rc=$?
check "emr: metrics that do not fit together are refused with the reason" '[ $rc -eq 1 ] && echo "$err" | grep -q "metric llc_miss_latency_ns cannot be measured together with the session.s other events: cannot place .* in cha box 0 (socket 0): 4 counters"'
err=$($UNCORE --backend sim:emr stat -M mem_bw_raed --duration 1 2>&1); rc=$?
check "unknown metric refused" '[ $rc -eq 1 ] && echo "$err" | grep -q "unknown metric .mem_bw_raed. on emr"'
err=$($UNCORE --backend sim:emr stat --metric-group nope --duration 1 2>&1); rc=$?
check "unknown metric group refused" '[ $rc -ne 0 ] && echo "$err" | grep -q "no metric group .nope."'
lst=$($UNCORE --backend sim:emr list --metrics --format tsv)
check "list --metrics: name, unit, group, per-box unit, formula" 'echo "$lst" | grep -q "^mem_bw_read	GB/s	memory	imc	UNC_M_CAS_COUNT.RD \* 64 / duration	" && [ "$(echo "$lst" | grep -vc "^#")" -ge 18 ]'
lst=$($UNCORE --backend sim:snbep list --metrics)
check "list --metrics text shows the formula" 'echo "$lst" | grep -q "^qpi_rx_util .*% .*interconnect .*per qpi .*(UNC_Q_RxL_FLITS_G0.DATA + UNC_Q_RxL_FLITS_G0.NON_DATA) / (2 \* UNC_Q_CLOCKTICKS)"'
tmp=$W/broken-metric.json
echo '[{"MetricName": "broken", "MetricExpr": "(UNC_M_CAS_COUNT.RD * 64"}]' > "$tmp"
err=$($UNCORE --backend sim:snbep --metric-file "$tmp" list --metrics 2>&1); rc=$?
check "malformed metric file refused with metric and position" '[ $rc -ne 0 ] && echo "$err" | grep -q "metric broken: position 25: expected .)."'
err=$(UNCORE_METRICS="$tmp" $UNCORE --backend sim:snbep list --metrics 2>&1); rc=$?
check "UNCORE_METRICS with a bad file: refused, naming the variable" '[ $rc -ne 0 ] && echo "$err" | grep -q "UNCORE_METRICS: .*metric broken: position 25"'
rm -f "$tmp"
# perf's own metric file, as Intel ships it: its uncore metrics load, its core ones are left out with one warning
out=$(UNCORE_BACKEND=sim:emr,clock=manual $UNCORE --metric-file "$top_srcdir/eventtables/EMR/metrics/perf/emeraldrapids_metrics_perf.json" \
	stat -M memory_bandwidth_read,llc_demand_data_read_miss_latency --duration 1 2>&1)
check "perf's metric file: one warning for its 22 core metrics" '[ "$(echo "$out" | grep -c "warning: .*22 of 54 metrics left out: they use core events")" -eq 1 ]'
check "perf's memory_bandwidth_read: 12800 MB/s on socket 0" 'echo "$out" | grep -q "^socket0 *memory_bandwidth_read *12800.0000 MB/s$"'
check "perf's LLC miss latency: 100 ns on socket 1" 'echo "$out" | grep -q "^socket1 *llc_demand_data_read_miss_latency *100.0000 ns$"'

out=$($UNCORE --backend sim:snbep --events /nonexistent stat -e UNC_M_CAS_COUNT.RD --duration 0.1 2>&1); rc=$?
check "a missing --events file: refused by name and reason, no crash ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore: cannot open /nonexistent: No such file or directory" ]'
out=$(UNCORE_EVENTS=/nonexistent $UNCORE --backend sim:snbep info 2>&1); rc=$?
check "a missing UNCORE_EVENTS file: the same, naming the variable ($rc: $out)" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore: UNCORE_EVENTS: cannot open /nonexistent: No such file or directory" ]'
out=$($UNCORE --backend sim:snbep --metric-file /nonexistent stat -M mem_bw_read --duration 0.1 2>&1); rc=$?
check "a missing --metric-file: refused by name and reason ($rc: $out)" \
	'[ $rc -eq 1 ] && echo "$out" | grep -qx "uncore: cannot open /nonexistent: No such file or directory" && ! echo "$out" | grep -q JSON'

# --- safe on a shared machine: the msr-safe allowlist, another agent's box, --force
al=$($UNCORE --backend sim:snbep allowlist)
# seed 000: PCU_MSR_PMON_BOX_CTL 0xC24 (rst_ctrl 0, rst_ctrs 1, frz 8, frz_en 16); C0_MSR_PMON_CTL0 0xD10
# (Table 2-10: ev_sel 7:0, umask 15:8, rst 17, edge_det 18, tid_en 19, en 22, invert 23, thresh 31:24)
check "allowlist: PCU box control 0xC24 with its four bits" 'echo "$al" | grep -q "^0x00000C24 0x0000000000010103 # "'
check "allowlist: CBo 0 CTL0 0xD10 with the CBo control fields" 'echo "$al" | grep -q "^0x00000D10 0x00000000FFCEFFFF # "'
check "allowlist: msr-safe format, each MSR once" \
	'[ -z "$(echo "$al" | grep -v "^#" | grep -vE "^0x[0-9A-F]{8} 0x[0-9A-F]{16} # ")" ] && [ -z "$(echo "$al" | grep -v "^#" | cut -d" " -f1 | sort | uniq -d)" ]'
al=$($UNCORE --backend sim:emr allowlist --sampling)
# seed 001 Table 1-1: U_MSR_PMON_GLOBAL_CTL 0x2FF0, frz_all bit 0; 0x2FFE is read, never written
check "allowlist --sampling: EMR global control 0x2FF0 (frz_all), 0x2FFE read only" \
	'echo "$al" | grep -q "^0x00002FF0 0x0000000000000001 # global control" && echo "$al" | grep -q "^0x00002FFE 0x0000000000000000 # .*(read only)"'
# the group's list by default: nothing that stops a die (issue 45) -- the global control and status read
# only, each counter control without its overflow enable (seed 002: IVB-EP CBo ov_en bit 20; Linux
# IVBEP_U_PMON_GLOBAL_FRZ_ALL bit 31, UNFRZ_ALL bit 29)
al=$($UNCORE --backend sim:emr allowlist)
check "allowlist: EMR global control 0x2FF0 and status 0x2FF2 without a bit" \
	'echo "$al" | grep -q "^0x00002FF0 0x0000000000000000 # global control" && echo "$al" | grep -q "^0x00002FF2 0x0000000000000000 # global overflow status"'
al=$($UNCORE --backend sim:ivbep allowlist)
als=$($UNCORE --backend sim:ivbep allowlist --sampling)
check "allowlist: IVB-EP global control 0xC00 and CBo 0 CTL0 0xD10 without frz_all, unfrz_all, ov_en" \
	'echo "$al" | grep -q "^0x00000C00 0x0000000000000000 # " && echo "$al" | grep -q "^0x00000C01 0x0000000000000000 # " &&
	 echo "$al" | grep -q "^0x00000D10 0x00000000FF4EFFFF # "'
check "allowlist --sampling: IVB-EP 0xC00 frz_all|unfrz_all, 0xD10 with ov_en" \
	'echo "$als" | grep -q "^0x00000C00 0x00000000A0000000 # global control$" && echo "$als" | grep -q "^0x00000D10 0x00000000FF5EFFFF # "'
out=$($UNCORE --backend sim:ivbep allowlist --nosuch 2>&1); rc=$?
check "allowlist: an unknown argument refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "unexpected argument .--nosuch."'
out=$($UNCORE --backend sim:montecito allowlist 2>&1); rc=$?
check "allowlist: Montecito has no MSRs, said so" '[ $rc -ne 0 ] && echo "$out" | grep -q "no MSRs for msr-safe"'
SIMSTATE=${top_builddir:-.}/tests/sim_state
shm=$W/agent
agent="sim:snbep,shared=$shm"
$SIMSTATE "$agent" ctl imc 0 0 0 0x400304 >/dev/null # another agent counts CAS reads on imc 0 of socket 0
out=$($UNCORE --backend "$agent" stat -e UNC_M_CAS_COUNT.RD:socket=0 --duration 0.1 2>&1); rc=$?
check "another agent's box: refused with the register and value ($rc)" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "imc 0 (socket 0) is in use by another agent: CTL0 = 0x400304"'
out=$($UNCORE --backend "$agent" stat -e UNC_M_CAS_COUNT.RD:socket=0:box=1 --duration 0.1 2>&1)
check "another agent's box: the free channels count" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD:socket=0:box=1 *[1-9]"'
out=$($UNCORE --force --backend "$agent" stat -e UNC_M_CAS_COUNT.RD:socket=0 --duration 0.1 2>&1); rc=$?
check "--force: counted, with a warning" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "warning: imc 0 (socket 0) was in use by another agent" && echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD:socket=0 *[1-9]"'
check "--force: the agent's programming is back afterwards" '[ "$($SIMSTATE "$agent" ctl imc 0 0 0)" = "0x400304" ]'
rm -f "$shm$CLAIMS" && mkdir "$shm$CLAIMS"
out=$($UNCORE --backend "$agent" stat -e UNC_M_CAS_COUNT.RD:socket=1 --duration 0.1 2>&1); rc=$?
check "a directory planted at the claims path: a warning naming it, counting goes on" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "warning: claims file refused: $shm$CLAIMS is a directory"'
rmdir "$shm$CLAIMS"
rm -f "$shm" "$shm$CLAIMS"

# --- arguments: spans must be finite numbers, repeated options add up, the command's status is ours
for d in nan inf 1e300 -1 0 abc; do
	out=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD --duration $d 2>&1); rc=$?
	check "--duration $d refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "need a positive number of seconds"'
done
for i in inf nan 0.5; do
	out=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -I $i -- true 2>&1); rc=$?
	check "-I $i refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "need an interval of at least 1 ms"'
done
out=$($UNCORE --backend sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:socket=0 -e UNC_M_CAS_COUNT.WR:socket=0 --duration 1)
check "repeated -e: both counted" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD:socket=0 *200000000$" && echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.WR:socket=0 *75000000$"'
# 70 free-running events (no counter limit) spread over the IIO stacks: every one is counted
evs=$(awk 'BEGIN { for (i = 0; i < 70; i++) printf "%sUNC_IIO_BANDWIDTH_IN.PART%d_FREERUN:socket=%d:box=%d", i ? "," : "", i % 8, int(i / 8) % 2, int(i / 16) }')
out=$($UNCORE --backend sim:emr,clock=manual stat -e "$evs" --duration 1 2>&1)
check "70 events in one -e: all 70 counted, none cut" '[ "$(echo "$out" | grep -c "^socket")" -eq 70 ]'
out=$($UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -- /nonexistent-command 2>&1); rc=$?
check "a command that cannot run: its status 127" '[ $rc -eq 127 ] && echo "$out" | grep -q "cannot run ./nonexistent-command."'
$UNCORE --backend sim:snbep stat -e UNC_M_CAS_COUNT.RD -- sh -c 'exit 3' >/dev/null 2>&1; rc=$?
check "the command's exit status is passed on ($rc)" '[ $rc -eq 3 ]'

# a 44-bit counter at 2.7 GHz wraps every 6515 s: two hours read once at the end lose nothing
out=$($UNCORE --backend sim:snbep,clock=manual stat -e UNC_C_CLOCKTICKS:socket=0:box=3 --duration 7200)
check "two hours on a 44-bit counter read once: 2.7e9 x 7200 exactly" 'echo "$out" | grep -q "^socket0 *UNC_C_CLOCKTICKS:socket=0:box=3 *19440000000000$"'

# --- simulator options and profiles that would give garbage are refused; a failed open leaks nothing
for opt in tick=9223372036854775807 prewrap=inf prewrap=nan profile=/tmp; do
	out=$($UNCORE --backend "sim:snbep,$opt" info 2>&1); rc=$?
	check "sim option $opt refused ($rc)" '[ $rc -ne 0 ] && echo "$out" | grep -q "bad simulator option\|Is a directory"'
done

# --- a FIFO (or a device) named as an input file is refused at once, not read until a writer comes
fifo=$W/fifo
mkfifo "$fifo" "$W/shared$CLAIMS"
chmod 600 "$fifo" "$W/shared$CLAIMS"
nonreg() { # name, what it says, then the command; a hang ends after 60 s (rc 124)
	what=$1 says=$2
	shift 2
	out=$(timeout 60 "$@" 2>&1 </dev/null); rc=$?
	check "$what: refused at once ($rc: $out)" '[ $rc -ne 124 ] && echo "$out" | grep -q "$says"'
}
nonreg "a FIFO as profile=" "simulator profile: cannot open $fifo: it is a FIFO, not a regular file" \
	$UNCORE --backend "sim:snbep,profile=$fifo" info
nonreg "a device as profile=" "cannot open /dev/null: it is a character device, not a regular file" \
	$UNCORE --backend "sim:snbep,profile=/dev/null" info
nonreg "a FIFO as --events" "cannot open $fifo: it is a FIFO, not a regular file" $UNCORE --backend sim:snbep --events "$fifo" info
nonreg "a FIFO as UNCORE_EVENTS" "UNCORE_EVENTS: cannot open $fifo: it is a FIFO" env UNCORE_EVENTS="$fifo" $UNCORE --backend sim:snbep info
nonreg "a FIFO as --metric-file" "cannot open $fifo: it is a FIFO, not a regular file" \
	$UNCORE --backend sim:snbep --metric-file "$fifo" info
nonreg "a FIFO as shared=" "$fifo is a FIFO, not a regular file" $UNCORE --backend "sim:snbep,shared=$fifo" info
nonreg "a FIFO as the claims file" "claims file refused: $W/shared$CLAIMS is a FIFO, not a regular file" \
	$UNCORE --backend "sim:snbep,shared=$W/shared" stat -e UNC_M_CAS_COUNT.RD --duration 0.1
rm -f "$fifo" "$W/shared" "$W/shared$CLAIMS"
# --- a fake kernel tree (UNCORE_SYSROOT) with a FIFO, a huge sparse file or an endless CPU list where the
# perf backend reads its files: refused at once, naming the file and what it is (a hang ends after 20 s: 124)
R=$W/sysroot
PMU=$R/sys/bus/event_source/devices/uncore_imc_0
mkdir -p "$R/proc/sys/kernel" "$R/sys/devices/system/cpu/cpu0/topology" "$PMU/format"
printf 'vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nmodel name\t: Xeon @ 2.70GHz\n' >"$R/proc/cpuinfo"
echo 0 >"$R/sys/devices/system/cpu/cpu0/topology/physical_package_id"
echo -1 >"$R/proc/sys/kernel/perf_event_paranoid"
echo 17 >"$PMU/type"
echo 0 >"$PMU/cpumask"
echo config:0-7 >"$PMU/format/event"
echo config:8-15 >"$PMU/format/umask"
in_sysroot() { # what; the file put in place of a kernel file (moved back after); what the message says
	what=$1 file=$2 says=$3
	shift 3
	out=$(UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend perf info 2>&1 </dev/null); rc=$?
	check "sysroot: $what: refused at once ($rc: $(echo "$out" | head -3))" \
		'[ $rc -ne 124 ] && [ $rc -ne 0 ] && echo "$out" | grep -qF "$says"'
	mv "$file.real" "$file"
}
out=$(UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend perf info 2>&1 </dev/null); rc=$?
check "sysroot: the fake tree itself opens on perf ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -q "platform snbep"'
mv "$PMU/type" "$PMU/type.real" && mkfifo "$PMU/type"
in_sysroot "a FIFO as a PMU's type" "$PMU/type" "uncore_imc_0: cannot read $PMU/type: it is a FIFO, not a regular file"
mv "$PMU/type" "$PMU/type.real" && truncate -s 100M "$PMU/type"
in_sysroot "a 100 MB type file" "$PMU/type" "cannot read $PMU/type: it is 104857600 bytes, more than 16777216"
mv "$PMU/format/event" "$PMU/format/event.real" && mkfifo "$PMU/format/event"
in_sysroot "a FIFO as a format file" "$PMU/format/event" "cannot read $PMU/format/event: it is a FIFO"
mv "$R/proc/sys/kernel/perf_event_paranoid" "$R/proc/sys/kernel/perf_event_paranoid.real" &&
	mkfifo "$R/proc/sys/kernel/perf_event_paranoid"
in_sysroot "a FIFO as perf_event_paranoid" "$R/proc/sys/kernel/perf_event_paranoid" \
	"cannot read $R/proc/sys/kernel/perf_event_paranoid: it is a FIFO"
# /proc/cpuinfo is read to its end: 1 TiB of holes took hours
mv "$R/proc/cpuinfo" "$R/proc/cpuinfo.real"
if truncate -s 1T "$R/proc/cpuinfo" 2>/dev/null; then
	in_sysroot "a 1 TiB /proc/cpuinfo" "$R/proc/cpuinfo" \
		"reading the CPU identity: cannot open $R/proc/cpuinfo: it is 1099511627776 bytes, more than 16777216"
else
	mv "$R/proc/cpuinfo.real" "$R/proc/cpuinfo"
	echo "SKIP: sysroot: a 1 TiB /proc/cpuinfo: $W's file system holds no 1 TiB sparse file"
fi
# each CPU of a cpumask costs two file reads: 4000 characters of 0-4095 ranges were 2.4 million CPUs
mv "$PMU/cpumask" "$PMU/cpumask.real"
for i in $(seq 1 570); do printf '0-4095,'; done >"$PMU/cpumask"
echo 0 >>"$PMU/cpumask"
in_sysroot "a cpumask of 570 ranges 0-4095" "$PMU/cpumask" \
	"cannot read a CPU list from $PMU/cpumask: it names more than the 4096 CPUs the library knows"
mv "$PMU/cpumask" "$PMU/cpumask.real"
for i in $(seq 1 2100); do printf "0,"; done >"$PMU/cpumask" # 4200 characters: a line longer than read
echo 0 >>"$PMU/cpumask"
in_sysroot "a cpumask line longer than the 4095 characters read" "$PMU/cpumask" \
	"cannot read $PMU/cpumask: its first line is longer than 4095 characters"
# an event alias whose name holds a tab and a newline: left out with a warning, never listed
mkdir -p "$PMU/events"
echo "event=0x01" >"$PMU/events/$(printf 'cas\tX\nY')"
out=$(UNCORE_SYSROOT=$R timeout 20 $UNCORE --backend perf list 2>&1 </dev/null); rc=$?
check "sysroot: an alias named with a tab and a newline left out, with a warning ($rc)" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "uncore_imc_0: an event alias whose name holds control character 0x09: left out" &&
	 ! echo "$out" | grep -q "	X"'
rm -rf "$PMU/events"
# an option longer than the simulator keeps (within a spec it accepts) is refused, not cut
long=$W/$(printf '%0420d' 0)
for opt in "shared=$long" "fault=eio:imc:0@$(printf '%070d' 1)"; do
	key=${opt%%=*} val=${opt#*=}
	out=$($UNCORE --backend "sim:snbep,$opt" info 2>&1); rc=$?
	check "sim option $key= of ${#val} characters refused ($rc: $out)" \
		'[ $rc -ne 0 ] && echo "$out" | grep -q "simulator option $key= is ${#val} characters long"'
done
prof=$W/profile
for v in nan inf 1e300 -1; do
	echo "mem_read_bytes_per_s = $v" > "$prof"
	out=$($UNCORE --backend "sim:snbep,profile=$prof" info 2>&1); rc=$?
	check "profile rate $v refused ($rc)" '[ $rc -ne 0 ] && echo "$out" | grep -q "needs a number from 0 to 1e15"'
done
# a socket prefix without a number, a line longer than the parser reads at once (its rest once parsed as
# a line of its own) and a ratio above 1: each refused naming the file, the line and what is wrong
profile_refused() { # what, the message expected; the profile in $prof
	out=$($UNCORE --backend "sim:snbep,profile=$prof" info 2>&1); rc=$? says="simulator profile $prof:$2"
	check "profile: $1 refused ($rc: $(echo "$out" | head -1))" '[ $rc -ne 0 ] && echo "$out" | grep -qF "$says"'
}
printf 'tsc_hz = 2.6e9\nsocketfoo.mem_read_bytes_per_s = 1\n' > "$prof"
profile_refused "socketfoo.KEY" "2: 'socketfoo.mem_read_bytes_per_s': a socket prefix is socketN. with N a socket number"
{ printf '#%0600d\n' 0; echo "mem_read_bytes_per_s = 1"; } > "$prof"
profile_refused "a 601-character comment" "1: the line is longer than 511 characters"
{ printf '#%0510d' 0; echo "mem_read_bytes_per_s = 1"; } > "$prof" # the rest a valid line of its own
profile_refused "a comment whose rest past 511 characters is a key" "1: the line is longer than 511 characters"
for k in llc_miss_ratio socket1.remote_ratio upi_link_util pcu_power_limited cores_c6_ratio mem_sch0_ratio; do
	echo "$k = 1.5" > "$prof"
	profile_refused "ratio $k = 1.5" "1: '$k' is a ratio: it needs a number from 0 to 1"
done
printf 'llc_miss_ratio = 1\nsocket1.cores_c0_ratio = 0\niio_port3_share = 9\nllc_miss_parallel = 4\n' > "$prof"
out=$($UNCORE --backend "sim:emr,profile=$prof" info 2>&1); rc=$?
check "profile: ratios 0 and 1, a port weight and a parallelism above 1 taken ($rc)" '[ $rc -eq 0 ]' ||
	echo "$out" | grep -v "^box "
# IIO port weights: ports 0-7 only, and a socket's traffic must go through some port
echo "iio_port8_share = 1" > "$prof"
out=$($UNCORE --backend "sim:emr,profile=$prof" info 2>&1); rc=$?
check "profile: no port 8 ($rc)" '[ $rc -ne 0 ] && echo "$out" | grep -q "unknown key .iio_port8_share."'
for k in 0 1 2 3 4 5 6 7; do echo "socket1.iio_port${k}_share = 0"; done > "$prof"
out=$($UNCORE --backend "sim:emr,profile=$prof" info 2>&1); rc=$?
check "profile: all ports of a socket 0 refused ($rc)" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "socket 1.s iio_port0_share..iio_port7_share are all 0"'
rm -f "$prof"
out=$($UNCORE --backend "sim:emr,fault=eio:nosuch" info 2>&1); rc=$?
check "a failed simulator open: refused by name, nothing leaked" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "no nosuch box" && ! echo "$out" | grep -q "LeakSanitizer"'

# --- signals: stop, restore, exit 128+N; a killed run's boxes are restored by the next one
shm=$W/sig
sim="sim:snbep,shared=$shm"
programmed() { # wait until a process has programmed the shared machine (a loaded machine: up to 60 s)
	for i in $(seq 1 1200); do
		case "$($SIMSTATE "$sim")" in *"changed 0"*) sleep 0.05 ;; *) return 0 ;; esac
	done
	echo "waited 60 s for a process to program $sim: it did not"
	return 1
}
ulimit -c 0 2>/dev/null # the signals that dump core by default, before they were caught: no core files
# every signal whose default action ends the process, but those of a fault in it (SEGV, BUS, ...)
# A run under nohup (or a CI runner that ignores SIGHUP) starts every child with SIGHUP ignored, and stat
# keeps a signal ignored at its start ignored, as it should: so each run starts with every signal at its
# default (env --default-signal), and this script ignores SIGHUP itself to be such a run.
# Each command that programs boxes gets each signal: stat between its intervals, check in its idle window.
trap '' HUP
for cmd in "stat -e UNC_M_CAS_COUNT.RD -I 100 --duration 30" "check --seconds 30"; do
	for name in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PIPE IO PWR RTMIN; do
		env --default-signal $UNCORE --backend "$sim" $cmd >/dev/null 2>&1 &
		pid=$!
		programmed
		kill -$name $pid
		wait $pid; rc=$?
		check "SIG$name during ${cmd%% *}: exit 128 + SIG$name ($rc: $(kill -l $rc)), registers as found" \
			'[ $rc -gt 128 ] && [ "$(kill -l $rc)" = $name ] && $SIMSTATE "$sim" | grep -q "changed 0$"'
		$SIMSTATE "$sim" | grep -q "changed 0$" || $UNCORE --backend "$sim" stat -e UNC_C_CLOCKTICKS --duration 0.01 >/dev/null 2>&1
	done
done
trap - HUP
# another agent reprograms a counted box mid-run (the kernel's driver for a perf user, a second tool): from
# the read that sees its control word changed, the box's values are not printed, a line says why, the exit
# is 1, and the agent's programming is left as it is (issue 45)
shm=$W/takeover sim="sim:snbep,shared=$shm"
$UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD:socket=0:box=0 -I 100 -- \
	sh -c "while [ ! -e $shm.go ]; do sleep 0.05; done" >"$shm.out" 2>"$shm.err" &
pid=$!
programmed
$SIMSTATE "$sim" ctl imc 0 0 0 0x400c04 >/dev/null # CAS writes, raw: not through the library
for i in $(seq 1 600); do grep -q "taken over" "$shm.err" && break; sleep 0.1; done
touch "$shm.go"
wait $pid; rc=$?
check "a box reprogrammed mid-run: exit 1, the register named ($rc: $(head -c 300 "$shm.err"))" \
	'[ $rc -eq 1 ] && grep -q "^uncore: taken over by another agent (a perf user, a second tool): imc 0 (socket 0) CTL0 = 0x400c04, not 0x400304" "$shm.err"'
check "... its values stop at that read, none printed after" \
	'[ "$(sed -n "/not counted: imc 0 (socket 0) failed/,\$p" "$shm.out" | grep -c "UNC_M_CAS_COUNT.RD.* [0-9][0-9]*$")" -eq 0 ] &&
	 grep -q "not counted: imc 0 (socket 0) failed" "$shm.out"'
check "... and the agent's programming is left as it wrote it" '[ "$($SIMSTATE "$sim" ctl imc 0 0 0)" = "0x400c04" ]'
rm -f "$shm" "$shm".*
# a sampled counter's overflow freezes its die (IVB-EP: every box of the socket, the PCI IMC too) until
# serviced: stat services it within 50 ms and at every read, so that each interval counts, not only those
# before the first overflow (about 0.3 s here: 4e7 flits at the profile's 1.3e8 a second) (issue 45)
out=$($UNCORE --backend sim:ivbep stat -x, -I 200 --duration 1.6 -e UNC_M_CAS_COUNT.RD:socket=0 \
	-e UNC_Q_RxL_FLITS_G0.DATA:socket=0:box=0:sample=40000000 2>&1); rc=$?
counted=$(echo "$out" | awk -F, '$4 == "UNC_M_CAS_COUNT.RD:socket=0" { n++; if ($5 > 0) c++ } END { print c + 0 "/" n + 0 }')
check "a sampled counter overflowing every 0.3 s: every 200 ms interval counts the socket's reads ($rc, $counted)" \
	'[ $rc -eq 0 ] && [ "${counted%/*}" = "${counted#*/}" ] && [ "${counted#*/}" -ge 7 ]'
# a sampler killed while its overflow froze the socket: the next session restores its box and lifts the
# freeze, so that it counts, and leaves the machine as found
shm=$W/thaw sim="sim:ivbep,shared=$shm"
$UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD:socket=0:box=0 --duration 30 >/dev/null 2>&1 &
pid=$!
programmed
kill -KILL $pid
wait $pid
$SIMSTATE "$sim" freeze 0 >/dev/null # its overflow, which the dead process never serviced
out=$($UNCORE --backend "$sim" stat -x, -e UNC_M_CAS_COUNT.RD:socket=0 --duration 0.3 2>&1); rc=$?
check "a dead sampler's frozen socket counts again in the next session ($rc: $(echo "$out" | grep CAS_COUNT))" \
	'[ $rc -eq 0 ] && echo "$out" | awk -F, "\$4 == \"UNC_M_CAS_COUNT.RD:socket=0\" && \$5 > 0 { ok = 1 } END { exit !ok }" &&
	 echo "$out" | grep -q "left programmed by process $pid"'
check "... and the machine is left as found" '$SIMSTATE "$sim" | grep -q "changed 0$"'
rm -f "$shm" "$shm".*
shm=$W/takeover sim="sim:snbep,shared=$shm"
# the reader of the output goes away: SIGPIPE at the next interval's write
{ $UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD -I 200 --duration 60; echo $? >"$shm.rc"; } 2>/dev/null | head -1 >/dev/null
rc=$(cat "$shm.rc")
check "stat -I 200 | head -1: exit 141 ($rc), registers as found" '[ "$rc" -eq 141 ] && $SIMSTATE "$sim" | grep -q "changed 0$"'
$SIMSTATE "$sim" | grep -q "changed 0$" || $UNCORE --backend "$sim" stat -e UNC_C_CLOCKTICKS --duration 0.01 >/dev/null 2>&1
# output that cannot be written stops the run too
out=$($UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD -I 100 --duration 60 2>&1 >/dev/full); rc=$?
check "stat -I 100 >/dev/full: stops, exit 1, says why ($rc: $out), registers as found" \
	'[ $rc -eq 1 ] && [ "$out" = "uncore stat: cannot write the output: No space left on device" ] && $SIMSTATE "$sim" | grep -q "changed 0$"'
# a signal ignored at the start (nohup) stays ignored: the run goes on to its end
sh -c 'trap "" HUP; exec "$@"' sh $UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD --duration 3 >/dev/null 2>&1 &
pid=$!
programmed
kill -HUP $pid
wait $pid; rc=$?
check "SIGHUP ignored at the start (nohup): the run ends on its own, exit 0 ($rc)" '[ $rc -eq 0 ] && $SIMSTATE "$sim" | grep -q "changed 0$"'
$UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD -- sh -c "echo \$\$ > $shm.child; exec sleep 30" >/dev/null 2>&1 &
pid=$!
programmed
for i in $(seq 1 1200); do [ -s "$shm.child" ] && break; sleep 0.05; done
[ -s "$shm.child" ] || echo "waited 60 s for the command of stat -- CMD to start: it did not"
kill -INT $pid
wait $pid; rc=$?
check "SIGINT during stat -- cmd: the command stopped too, exit 130 ($rc), registers as found" \
	'[ $rc -eq 130 ] && $SIMSTATE "$sim" | grep -q "changed 0$" && [ -s "$shm.child" ] && ! kill -0 "$(cat "$shm.child")" 2>/dev/null'
$UNCORE --backend "$sim" stat -e UNC_M_CAS_COUNT.RD:socket=0:box=0 --duration 30 >/dev/null 2>&1 &
pid=$!
programmed
kill -KILL $pid
wait $pid
check "SIGKILL leaves the box programmed" '$SIMSTATE "$sim" | grep -q "changed 1 first: imc 0 socket 0"'
out=$($UNCORE --backend "$sim" stat -e UNC_C_CLOCKTICKS:socket=1:box=2 --duration 0.1 2>&1)
check "the next run restores it, whatever it counts itself, and says so" \
	'echo "$out" | grep -q "warning: imc 0 (socket 0) was left programmed by process $pid, which ended without releasing it" && $SIMSTATE "$sim" | grep -q "changed 0$"'
rm -f "$shm" "$shm$CLAIMS" "$shm.child" "$shm.rc"

# the same counts through the perf backend, over the simulated kernel
out=$($UNCORE --backend perf+sim:snbep,clock=manual stat -e UNC_M_CAS_COUNT.RD,UNC_M_CAS_COUNT.WR --duration 2)
check "perf: socket0 reads" 'echo "$out" | grep -q "^socket0 *UNC_M_CAS_COUNT.RD *400000000$"'
check "perf: socket1 writes" 'echo "$out" | grep -q "^socket1 *UNC_M_CAS_COUNT.WR *300000000$"'
out=$($UNCORE --backend perf+sim:emr,clock=manual info)
check "perf: info says why and where" 'echo "$out" | grep -q "^# backend chosen: named by the caller" && echo "$out" | grep -q "^box imc 2 socket 1: perf uncore_imc_2 cpu 60 + uncore_imc_free_running_1$"'
out=$($UNCORE --backend perf+sim:snbep,clock=manual,busy=uncore_cbox_0:3 stat -e UNC_C_CLOCKTICKS:box=0:socket=0,UNC_C_CLOCKTICKS:box=0:socket=0:thresh=0 --duration 1)
check "perf: multiplexing is shown" 'echo "$out" | grep -q "(multiplexed: counting [0-9.]*% of the time)$"'
out=$($UNCORE --backend perf+sim:emr,clock=manual stat -M llc_miss_ratio,llc_miss_latency_ns --duration 1)
check "perf: a metric set that does not fit the CHAs is multiplexed, scaled to the truth and marked" \
	'echo "$out" | grep -q "^socket0 *llc_miss_latency_ns *80.0000 ns  (multiplexed: counting 50.0% of the time)$"'
out=$($UNCORE --backend sim:emr,clock=manual stat -M llc_miss_ratio,llc_miss_latency_ns --duration 1 2>&1)
check "direct: the same set is refused, pointing to the perf backend" 'echo "$out" | grep -q "the perf backend multiplexes such sets"'
out=$($UNCORE --backend perf+sim:snbep,paranoid=2 info 2>&1)
check "perf: paranoid 2 without CAP_PERFMON is refused, named" 'echo "$out" | grep -q "perf_event_paranoid is 2 and this process has neither CAP_PERFMON"'
out=$($UNCORE --backend perf+sim:ivbep,clock=manual stat -e UNC_M_CAS_COUNT.RD:sample=100 --duration 1 2>&1)
check "perf: sampling refused" 'echo "$out" | grep -q "do not sample"'
# perf+sim: simulates the kernel in each process: two processes on one shared= machine took each other's
# counters (a 3 s count of reads printed the other's 1 s count of writes), so shared= is refused there
$UNCORE --backend "perf+sim:snbep,shared=$W/perf-shared" stat -e UNC_M_CAS_COUNT.WR --duration 1 >"$W/perf-shared.1" 2>&1 &
pid=$!
out=$($UNCORE --backend "perf+sim:snbep,shared=$W/perf-shared" stat -e UNC_M_CAS_COUNT.RD --duration 3 2>&1); rc=$?
wait $pid; rc1=$?
check "perf+sim: shared= refused in both processes, saying what to use ($rc $rc1: $out)" \
	'[ $rc -ne 0 ] && [ $rc1 -ne 0 ] && echo "$out" | grep -q "shared= is not available on perf+sim: each process simulates its own kernel" &&
	echo "$out" | grep -q "sim:<platform>,shared=FILE" && ! echo "$out" | grep -q UNC_M_CAS_COUNT'
out=$($UNCORE --backend perf+sim:snbep allowlist 2>&1)
check "perf: no msr-safe allowlist (it writes no MSR)" 'echo "$out" | grep -q "writes no MSR"'

# scripts/demo's closing commands run as it prints them: from the top of the tree, in a shell without
# UNCORE_BACKEND, naming the simulator when the demo fell back to it (and the plain form on hardware)
abs=$(cd "$(dirname "$UNCORE")" && pwd)/uncore
if $UNCORE info >/dev/null 2>&1; then named=; else named=" --backend sim:snbep"; fi
for be in "" sim:emr; do
	cmds=$(cd "${top_srcdir:-.}" && UNCORE_BACKEND=$be scripts/demo --suggest "$abs" | grep -v '^==' | grep -v '^$')
	want=${be:+ --backend $be}
	check "demo${be:+ with UNCORE_BACKEND=$be} suggests 3 commands, naming the backend as${want:-$named}" \
		'[ "$(echo "$cmds" | wc -l)" -eq 3 ] && echo "$cmds" | grep -qx "$abs${want:-$named} list --metrics"'
	bad= ran=0
	while IFS= read -r cmd; do
		ran=$((ran + 1))
		err=$(cd "${top_srcdir:-.}" && env -u UNCORE_BACKEND sh -c "$cmd" 2>&1 >/dev/null) || bad="$bad [$cmd: $err]"
	done <<-EOF
	$cmds
	EOF
	check "demo${be:+ with UNCORE_BACKEND=$be}: each suggested command runs as printed${bad:+ (failed:$bad)}" \
		'[ -z "$bad" ] && [ $ran -eq 3 ]'
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
