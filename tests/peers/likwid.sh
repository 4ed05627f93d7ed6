# Sourced by peer_test.sh: likwid-perfctr's groups on two sockets, each metric over the window the simulator
# counted (the trace: counted)

# likwid-perfctr -g GROUP on the first CPU of each of two sockets, direct access: METRIC's value on each
# counted CPU REG: the seconds a likwid run's counters of CPU counted, from the simulator's trace of the run
# (HOSTDIR/trace, sim_host.c): REG 0x700, from the last unfreeze (bit 61) of the UBox global control to the freeze
# (bit 63) after it; REG 0x611, the package energy's, from its last read before that unfreeze to its first after
# (where it freezes no UBox, likwid 5.4.1's CLOCK on the Sapphire Rapids family: around the cores' global control
# IA32_PERF_GLOBAL_CTRL 0x38F, its last read before the enable to its first after the write of 0);
# REG 0x391, Nehalem-EP's uncore global control (enable-style: EN_PC0-7 bits 0-7), from the last write that enables
# a counter to the write of 0 after it; REG 0x2ff0, the Sapphire Rapids family's U_MSR_PMON_GLOBAL_CTL, from the
# last write of 0 (frz_all clear: seed 001 L1290) to the write that sets frz_all (bit 0) after it
# (REG pci:BUS:DEV.FN:OFF, a counter of a PCI box that likwid starts and stops with its event controls, without a
# freeze (Sandy Bridge-EP's iMC channels): from its last write of 0 to the read of it after); REG 0xc00, Ivy
# Bridge-EP's U_MSR_PMON_GLOBAL_CTL, from its unfrz_all command (bit 29) to its frz_all (bit 31) after it (seed 002)
counted() {
	awk -v cpu="$1" -v reg="$2" '
	reg ~ /^pci:/ && $3 == "pci" && "pci:" substr($4, 6) ":" $5 == reg {
		if ($2 == "w" && $6 == "0x0") on = $1; else if ($2 == "r" && on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0xc00" && $3 == "msr" && $4 == cpu && $5 == "0xc00" && $2 == "w" {
		if ($6 == "0x20000000") on = $1; else if ($6 == "0x80000000" && on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0x2ff0" && $3 == "msr" && $4 == cpu && $5 == "0x2ff0" && $2 == "w" {
		if ($6 == "0x0") on = $1; else if (on != "") { w = ($1 - on) / 1e9; on = "" } }
	reg == "0x391" && $3 == "msr" && $4 == cpu && $5 == "0x391" && $2 == "w" {
		if ($6 != "0x0") on = $1; else if (on != "") { w = ($1 - on) / 1e9; on = "" } }
	$3 == "msr" && $4 == cpu && $5 == "0x700" && $2 == "w" {
		if ($6 == "0x2000000000000000") { un = $1; if (reg == "0x611") e0 = last }
		else if ($6 == "0x8000000000000000" && un != "") { if (reg == "0x700") w = ($1 - un) / 1e9; fr = $1; un = "" } }
	$3 == "msr" && $4 == cpu && $5 == "0x38f" && $2 == "w" && reg == "0x611" {
		if ($6 != "0x0") { c0 = last; cfr = "" } else if (c0 != "") cfr = $1 }
	$3 == "msr" && $4 == cpu && $5 == "0x611" && $2 == "r" {
		if (fr != "" && e0 != "") { w = ($1 - e0) / 1e9; fr = e0 = "" }
		if (cfr != "" && c0 != "") { cw = ($1 - c0) / 1e9; cfr = c0 = "" }
		last = $1 }
	END { if (w == "") w = cw; if (w != "") printf "%.6f", w }' "$HOSTDIR/trace"
}

likwid() { # NAME SPEC QEMU-CPU GROUP "METRIC;TRUTH0;TRUTH1"...
	name=$1 spec=$2 cpu=$3 group=$4
	shift 4
	machine "$name" "$spec"
	if [ "$spec" != "$need_of" ]; then # what the machine lacks, found once a machine
		need_of=$spec
		need=
		case $spec in spr* | emr* | gnr* | srf* | cwf* | bdx* | hsx* | nhm* | snbep* | ivbep*) ;; *) # (where it counts; no UBox global control before Skylake-SP)
			has msr 0 0x700 || need="$need, MSR 0x700 (the UBox global control likwid freezes with: issue 90 D2)"
			has msr 0 0xce || need="$need, MSR 0xce (PLATFORM_INFO: D5)" ;;
		esac
		start_host "$name" "$spec" || return
		# hwloc places a function by its NUMA node; likwid 5.2.2 walks hwloc's parents to a package with no check
		# (likwid issue 435): one with none (-1) is the whole machine's, hwloc's root, and likwid crashes
		nonode=0
		while read -r bdf _; do # the functions of the configuration space (/proc/bus/pci/devices: bus, devfn)
			devfn=$((0x${bdf#??}))
			f=$(printf '%s/0000:%s:%02x.%x/numa_node' "$HOSTDIR/root/sys/bus/pci/devices" "${bdf%??}" $((devfn >> 3)) $((devfn & 7)))
			[ "$(cat "$f" 2>/dev/null)" = -1 ] && nonode=$((nonode + 1))
		done <"$HOSTDIR/root/proc/bus/pci/devices"
		# (the Xeon E5 boards' uncore buses show none: their listings, -1, kept; likwid crashes there, below;
		# likwid 5.2.2 refuses Sapphire Rapids before it looks)
		case $spec in snbep* | ivbep*) # the Dell R720's listing gives its uncore buses their socket's node
			check "sim:$spec gives its uncore functions their socket's NUMA node, as the Dell R720 lists them ($nonode at -1; ivbep-r720-2s.source)" '[ "$nonode" = 0 ]' ;;
		esac
		case $spec in bdx* | hsx* | spr* | emr* | gnr* | srf* | cwf*) ;; *) [ "$nonode" -gt 0 ] &&
			need="$need, the uncore functions' NUMA node (D9: $nonode of them show -1 on sim:$spec, where a real board gives each its socket's)" ;;
		esac
		stop_host
	fi
	if [ -n "$need" ]; then
		skip "likwid-perfctr -g $group on sim:$spec: needs ${need#, }"
		return
	fi
	rm -rf "$HOSTDIR" "$W/$name.machine"
	start_host "$name" "$spec" || return
	peer "$W/$name.likwid" "$cpu" "$LUA" "$LIKWID" -M 0 -c S0:0@S1:0 -g "$group" -S 4s
	rc=$?
	stop_host
	# the release says what it knows: likwid 5.2.2 refuses Sapphire Rapids (its perfmon.c maps end at Ice Lake-SP),
	# 5.4.1 (Debian 13) knows it and is checked as on any other part
	why=$(grep -m1 "Unsupported .*Processor" "$W/$name.likwid.err")
	if [ -n "$why" ]; then
		case $spec in spr* | emr* | gnr* | srf* | cwf*) ;; *) no "likwid $LIKWID_VER refuses sim:$spec, which its releases know ($why)" ;; esac
		skip "likwid-perfctr -g $group on sim:$spec: likwid $LIKWID_VER does not know the part ($why)"
		return
	fi
	wrote=$(($(count msr_writes) + $(count pci_writes) + $(count mmio_writes)))
	swapped=0 disc=0
	case $LIKWID_VER:$spec in 5.4*:spr* | 5.4*:gnr* | 5.4*:srf*)
		# likwid 5.4.1 finds the Sapphire Rapids family's boxes in the discovery tables and numbers the tables'
		# sockets in the order their devices are found on the buses (intel_perfmon_uncore_discovery.c
		# perfmon_uncore_discovery: socket_id++, the device's NUMA node unread).  On a real board that is the
		# sockets' order (the DL380 Gen11's 09a7 at 75:03.1 and f2:03.1); sim:spr keeps D6's trap, socket 0's
		# device on its UBox bus fe above socket 1's 7e, so likwid's socket 0 is the simulator's socket 1: each
		# of its numbers is checked against the other socket's truth, over the window that socket's global
		# control (U_MSR_PMON_GLOBAL_CTL 0x2FF0, written by the other CPU) counted.  sim:gnr and sim:srf list
		# socket 0's device first (7e below fe), as Birch Stream does (00:03.1, 80:03.1): in order there
		disc=1
		case $spec in spr*)
			swapped=1
			UNFROZEN_WHY="likwid programs each table's boxes after freezing its own CPU's socket, which holds the other table (D6)" ;;
		esac
		# It writes no register where it finds no PMON DVSEC: its walk looks only at the first DVSEC of a
		# function, which real boards list first (0x100) and sim_disc.c too (test_peer_regs).  On Sierra Forest
		# likwid 5.4.1 turns its uncore off itself (topology.c: case SIERRAFORREST, supportUncore = 0, where
		# Granite Rapids' is 1), so it opens no uncore access and its MBOXes read '-'
		if [ "$wrote" = 0 ] && [ "$group" = MEM ]; then
			case $spec in
			srf*) skip "likwid $LIKWID_VER -g $group on sim:$spec: it writes no register (msr, pci and mmio writes 0) and its MBOXes read '-': likwid 5.4.1 does not support Sierra Forest's uncore (topology.c, SIERRAFORREST: supportUncore = 0)" ;;
			*) no "likwid $LIKWID_VER -g $group on sim:$spec programs its boxes (msr, pci and mmio writes 0: it found no PMON DVSEC, $(grep -m1 "ERROR" "$W/$name.likwid.err"))" ;;
			esac
			return
		fi ;;
	esac
	case $spec in
	bdx* | hsx*) # the uncore functions show no NUMA node (their buses 7f and ff: the listings of the Supermicro
		# X10DRi and Dell R730, tests/snapshots/field/bdx-*.source, -1 each), so hwloc puts them at its root,
		# and likwid 5.2.2 walks from there to a package with no check and crashes (pci_hwloc.c hwloc_pci_init;
		# likwid issue 435, on a Haswell-EP): the simulator keeps the boards' -1
		check "sim:$spec keeps the Xeon E5 boards' uncore functions without a NUMA node ($nonode of them at -1)" '[ "$nonode" -gt 0 ]'
		skip "likwid-perfctr -g $group on sim:$spec: likwid 5.2.2 is wrong on the boards' -1 (issue 90 D9; its issue 435): it stops with status $rc ($(grep -m1 -o "uncaught target signal [0-9]* ([A-Za-z ]*)" "$W/$name.likwid.err"))"
		return ;;
	esac
	# likwid 5.4.1 on the Sapphire Rapids family ends on SIGSEGV at a heap address once its tables are printed: its
	# discovery clean-up (perfmon_uncore_discovery_free) walks num_sockets entries, which perfmon_uncore_discovery
	# sets to the tables found plus one, one past the array it allocated (intel_perfmon_uncore_discovery.c, v5.4.1).
	# It munmaps the io_addr it finds there and writes NULL over it: what lies past the array is the heap's, so some
	# runs end 0, some on a fault (at a heap address, or at 0), some in glibc's abort on the heap it overwrote.  The
	# signal is known by the status (128 + 11, 128 + 6): qemu-user names it only where it could dump a core (ulimit -c)
	crash=
	case $rc in
	139) crash="SIGSEGV, $(grep -m1 -o "a fault at 0x[0-9a-f]*" "$W/$name.likwid.err" || echo "no fault address said")" ;;
	134) crash=$(grep -m1 -oE "(free|malloc|munmap_chunk)\(\): [a-z ]*|double free[a-z ]*|corrupted [a-z ]*" "$W/$name.likwid.err") ;;
	esac
	if [ "$disc" = 1 ] && [ -n "$crash" ] && grep -q "Runtime (RDTSC) \[s\] STAT" "$W/$name.likwid"; then
		skip "likwid $LIKWID_VER -g $group on sim:$spec: status $rc ($crash) after its results, outside the /dev/mem windows: its discovery clean-up reads one socket past its table (perfmon_uncore_discovery_free, num_sockets = tables + 1)"
	else
		check "likwid-perfctr -g $group on sim:$spec: exit 0, status $rc ($(tail -2 "$W/$name.likwid.err" | tr '\n' ' '))" '[ $rc -eq 0 ]'
	fi
	# likwid 5.2.2 opens a socket's PCI boxes on one bus, the bus of its SKX test device 8086:2042 (iMC channel 0,
	# 0a.2) that hwloc places on the socket's package (access_x86_pci.c access_x86_pci_init, pci_hwloc.c
	# hwloc_pci_init: by the function's NUMA node, not by bus order)
	m0=$(fn_bus 2042 0a.2 0) m1=$(fn_bus 2042 0a.2 1)
	sbox_uncounted=0
	case $group:$spec in
	MEM:skx*) # D6: the simulator puts socket 0 above socket 1 (a real board's UBox node map), so a peer that took
		# sockets in bus order would swap the two sockets' numbers below
		check "sim:$spec keeps D6's trap: socket 0's iMC 8086:2042 on bus $m0, above socket 1's $m1" \
			'[ -n "$m0" ] && [ -n "$m1" ] && [ $((0x$m0)) -gt $((0x$m1)) ]' ;;
	UPI:skx*) # D11: likwid looks for UPI 8086:2058 at 0e.0, 0f.0 and 10.0 of that same bus (perfmon_skylakeX_counters.h
		# skylakeX_pci_devices), where Skylake-SP has none: the UPI functions sit on stack 3's bus, the iMC's on stack
		# 2's (the Dell R440, tests/snapshots/field/skx-r440-ubox00: iMC 3a and ae, UPI 5d and d7; Linux
		# skx_uncore_pci_ids matches each by id and dev.fn on whatever bus); likwid prints '-' for a counter whose
		# device it did not find, and programs no UPI box
		u0=$(fn_bus 2058 0e.0 0) u1=$(fn_bus 2058 0e.0 1)
		check "sim:$spec keeps Skylake-SP's places: each socket's UPI 8086:2058 0e.0 on another bus than its iMC 8086:2042 (socket 0: $u0 and $m0, socket 1: $u1 and $m1; the R440: 5d and 3a, d7 and ae)" \
			'[ -n "$u0" ] && [ -n "$u1" ] && [ "$u0" != "$m0" ] && [ "$u1" != "$m1" ]'
		sbox_uncounted=$(awk -F'|' '$3 ~ /SBOX[0-9]C[0-9]/ && $2 !~ /STAT/ { n++; if ($4 ~ /^ *- *$/ && $5 ~ /^ *- *$/) d++ }
			END { print (n > 0 && n == d) ? 1 : 0 }' "$W/$name.likwid") ;;
	esac
	# likwid divides its counts by its own clock, the TSC over a rate it measures at start (timer.c getCpuSpeed:
	# the least of two TSC spans over the second 500 ms sleep's gettimeofday span: a sleep a loaded machine
	# overruns by 6 ms reads the rate 1.2 % low); so each metric is taken back to its counts (times the runtime
	# likwid printed) over the window the simulator counted them in (its trace, sim_host.c): the UBox global
	# control's unfreeze to its freeze (MSR 0x700 bits 61 and 63), or the package energy's reads before and after
	runtime=$(awk -F'|' 'index($2, "Runtime (RDTSC) [s]") && $2 !~ /STAT/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4; exit }' "$W/$name.likwid")
	cpus=$(awk -F'|' 'index($2, "Metric") && $3 ~ /HWThread/ { gsub(/[^0-9]/, "", $3); gsub(/[^0-9]/, "", $4); print $3, $4; exit }' "$W/$name.likwid")
	for m in "$@"; do
		metric=${m%%;*} t=${m#*;}
		t0=${t%;*} t1=${t#*;}
		reg=0x700
		case $spec in nhm*) reg=0x391 ;; spr* | emr* | gnr* | srf*) reg=0x2ff0 ;; esac
		# the Xeon E5's: each socket's iMC channel 0 (D16:F0, seed 000 L2162) and its first counter (0xA0)
		# (Sandy Bridge-EP has no global control: likwid starts each counter by its enable and zeroes it; on Ivy
		# Bridge-EP it unfreezes and freezes through U_MSR_PMON_GLOBAL_CTL 0xC00)
		case $spec in snbep*) reg="pci:BUS:10.0:0xa0" ch0=3cb0 ;; ivbep*) reg=0xc00 ;; esac
		# a package's energy: a core's register (MSR 0x611), which the discovery tables' socket order does not touch
		case $metric in Power*|Energy*) reg=0x611 ;; esac
		# its metric table: | NAME | CPU 0's | CPU 1's | (socket 0's first CPU, socket 1's)
		row=$(awk -F'|' -v k="$metric" 'index($2, k) && $2 !~ /STAT/ { gsub(/ /, "", $3); gsub(/ /, "", $4); print $3, $4; exit }' "$W/$name.likwid")
		v0=${row%% *} v1=${row##* }
		if [ "$sbox_uncounted" = 1 ]; then
			skip "likwid $group sim:$spec: $metric $v0 and $v1 where the truth is $t0 and $t1: likwid 5.2.2 is wrong on Skylake-SP (issue 90 D11): it looks for UPI at 0e.0/0f.0/10.0 of the iMC's bus ($m0, $m1), the UPI functions are on $u0 and $u1 as on a real board; its SBOX counters read '-' (pci_writes $(count pci_writes))"
			continue
		fi
		case $reg in pci:*)
			r0=$(echo "$reg" | sed "s/BUS/$(fn_bus $ch0 10.0 0)/") r1=$(echo "$reg" | sed "s/BUS/$(fn_bus $ch0 10.0 1)/")
			w0=$(counted - "$r0") w1=$(counted - "$r1") reg="$r0 and $r1" ;;
		*) w0=$(counted "${cpus% *}" $reg) w1=$(counted "${cpus#* }" $reg) ;;
		esac
		[ "$swapped" = 0 ] || [ "$reg" = 0x611 ] || { t=$t0 t0=$t1 t1=$t w=$w0 w0=$w1 w1=$w; }
		c0=$(awk -v v="$v0" -v r="${runtime% *}" -v w="$w0" 'BEGIN { if (w > 0) printf "%.6g", v * r / w }')
		c1=$(awk -v v="$v1" -v r="${runtime#* }" -v w="$w1" 'BEGIN { if (w > 0) printf "%.6g", v * r / w }')
		check "likwid $group sim:$spec: $metric socket 0 $v0 over its ${runtime% *} s, $c0 over the $w0 s the simulator counted (CPU ${cpus% *}, MSR $reg), against $t0; socket 1 $v1, $c1 over $w1 s against $t1 (1 %)" \
			'near "$c0" "$t0" && near "$c1" "$t1"'
	done
	case $group:$spec in
	MEM:snbep*) UNFROZEN_WHY="Sandy Bridge-EP has no global control (seed 000: a box freezes by its own control, or a counter stops with its enable bit 22): likwid starts each iMC counter by its control's enable, the box unfrozen, and stops it so after its reads" ;;
	MEM:icx*) UNFROZEN_WHY="the events it writes to Ice Lake-SP's MMIO channels (+0x840, +0x844) before any freeze; it zeroes their counters next and unfreezes through MSR 0x700, so the counts hold" ;;
	esac
	protocol "likwid -g $group sim:$spec"
}
