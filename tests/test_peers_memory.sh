#!/bin/sh
# Memory bandwidth: the machine's time stamp, the library's direct backend through the device files (item 3),
# and pcm-memory of both releases, on one socket and (PCM 202302) two (D6)
# One piece of the peer test (issue 90; cut so that make check runs the pieces side by side, issue 99): what
# every piece checks and how, and what they share, tests/peers/peer_test.sh.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/peers/peer_test.sh"

# the host's TSC rate, every piece's, judged here once (machines.sh)
check "the machine's TSC rate $TSC Hz is 10 % or more apart from the host's ($HOST_TSC Hz)" apart

# ---- item 3: the direct backend through the device files ----
direct() { # NAME SPEC SOCKETS SPACES
	NAME=$1 SPEC=$2 sockets=$3 spaces=$4
	start_host "$1" "$2" || return
	ours direct "$W/$1.direct" mem_bw_read,mem_bw_write,llc_miss_ratio PEER_HOST_DIR="$HOSTDIR" LD_PRELOAD="$PRELOAD" \
		UNCORE_CLAIMS="$W/$1.claims"
	rc=$?
	ours "$SIM" "$W/$1.sim" mem_bw_read,mem_bw_write,llc_miss_ratio
	stop_host
	check "direct backend on sim:$2 through the device files: exit 0 ($(head -c 300 "$W/$1.direct.err"))" '[ $rc -eq 0 ]'
	s=0
	while [ $s -lt "$sockets" ]; do
		eval "rd=\$RD$s wr=\$WR$s"
		miss=$(awk -v s=$s 'BEGIN { print s ? 35 : 20 }')
		for m in "mem_bw_read $(mul "$rd" 1e-9)" "mem_bw_write $(mul "$wr" 1e-9)" "llc_miss_ratio $miss"; do
			metric=${m% *} t=${m#* }
			d=$(value "$W/$NAME.direct" $s "$metric") o=$(value "$W/$NAME.sim" $s "$metric")
			check "direct sim:$SPEC socket $s $metric: $d against the truth $t and uncore stat's $o (1 %)" \
				'near "$d" "$t" && near "$d" "$o"'
		done
		s=$((s + 1))
	done
	# the library freezes a box before it programs it and touches no register the machine lacks
	check "direct sim:$SPEC: protocol checks bad_accesses $(count bad_accesses), unfrozen_ctl_writes $(count unfrozen_ctl_writes) (both 0)" \
		'[ "$(count bad_accesses)" = 0 ] && [ "$(count unfrozen_ctl_writes)" = 0 ]'
	for sp in $spaces; do
		check "direct sim:$SPEC programmed its units through the $sp device ($sp writes $(count ${sp}_writes))" \
			'[ "$(count ${sp}_writes)" -gt 0 ]'
	done
}
direct skx1 skx,sockets=1 1 "msr pci"
direct skx2 skx,sockets=2 2 "msr pci"
direct icx2 icx,sockets=2 2 "msr mmio"

if release12; then
	if [ -z "$PCM_MEMORY" ]; then
		skip "pcm-memory: $PCM_WHY"
	else
		# PCM 202302 knows SKX, ICX, SPR and BDX; qemu 7.2's models by CPUID (ICX-SP is model 106, its
		# Icelake-Server 134; no Sapphire Rapids model: Icelake-Server as model 143 stepping 8); one core a socket,
		# since qemu-user's CPUID gives every CPU one APIC id (PCM's topology otherwise counts one core of many
		# threads, and pcm-pcie refuses it as offlined cores)
		pcm_memory pm_skx skx,sockets=1,cores=1 Skylake-Server 1
		pcm_memory pm_icx icx,sockets=1,cores=1 Icelake-Server,model=106 1
		pcm_memory pm_spr spr,sockets=1,cores=1 Icelake-Server,model=143,stepping=8 1
		pcm_memory pm_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1 1
		# the Xeon E5 generations before it and Cascade Lake (issue 97): qemu 7.2's client models as the server
		# parts' numbers (Sandy Bridge-EP 45, Ivy Bridge-EP 62, Haswell-EP 63); Cascadelake-Server is model 85
		# stepping 6, which PCM takes for CLX
		pcm_memory pm_snbep snbep,sockets=1,cores=1 SandyBridge,model=45 1
		pcm_memory pm_ivbep ivbep,sockets=1,cores=1 IvyBridge,model=62 1
		pcm_memory pm_hsx hsx,sockets=1,cores=1 Haswell,model=63 1
		pcm_memory pm_clx clx,sockets=1,cores=1 Cascadelake-Server 1
		# what PCM 202302's pcm-memory does not know: Nehalem-EP (its memory view is pcm's, which needs the core PMU
		# qemu-user's CPUID leaf 0xA does not give) and Emerald Rapids (model 207, after its release)
		refused pr_nhm nhm,sockets=1,cores=1 "Nehalem$PCM_CPU" "pcm-memory $PCM_VER" "Unsupported processor model ([0-9]*)" \
			"$PCM_MEMORY" 2 -i=1 -nc
		refused pr_emr emr,sockets=1,cores=1 "Icelake-Server,model=207$PCM_CPU" "pcm-memory $PCM_VER" \
			"Unsupported processor model ([0-9]*)" "$PCM_MEMORY" 2 -i=1 -nc
	fi
	if [ -n "$PCM_MEMORY" ]; then pcm_memory2 pm_skx2 skx,sockets=2,cores=1 Skylake-Server; fi
fi

if release13; then
	if [ -z "$PCM_MEMORY" ]; then skip "pcm-memory of Debian 13: $PCM_WHY"; else
		# PCM 202502 finds the Sapphire Rapids family's units in its discovery tables (uncore_pmu_discovery.cpp), the
		# iMC channels among them; qemu 10's SapphireRapids model, as model 207 for Emerald Rapids (it has none)
		pcm_memory pm13_spr spr,sockets=1,cores=1 SapphireRapids 1
		pcm_memory pm13_emr emr,sockets=1,cores=1 SapphireRapids,model=207 1
		# Clearwater Forest (model 221, qemu 10's ClearwaterForest) is after PCM 202502
		refused pr13_cwf cwf,sockets=1,cores=1 "ClearwaterForest$PCM_CPU" "pcm-memory $PCM_VER" \
			"Unsupported processor model ([0-9a-fx]*)" "$PCM_MEMORY" 2 -i=1 -nc
		# Granite Rapids and Sierra Forest (Birch Stream): PCM 202502 takes their iMC channels from the UBox 3251 at
		# 00.1 of the UBox bus, SCF BAR (0xD0, 0xD4) + 0x24E800 + 0x4000 a channel, as many as it finds B2CMIs 324a at
		# 05.1-06.5, and its CHAs from MSR 0x3FED (platforms/gnr/sim.c); qemu 10's own models
		pcm_memory pm13_gnr gnr,sockets=1,cores=1 GraniteRapids 1
		pcm_memory pm13_srf srf,sockets=1,cores=1 SierraForest 1
		# a mistake planted in the simulated board: the UBox 3251's SCF BAR a page off (fault scfbar,
		# platforms/gnr/sim.c) while the discovery table still names the channels; the library reads the table and
		# counts, PCM reads the channels through the SCF BAR, as on a real Birch Stream, and must not
		start_host pm13_gnr_bad gnr,sockets=1,cores=1,fault=scfbar:imc:0 && {
			peer "$W/pm13_gnr_bad.pcm" "GraniteRapids$PCM_CPU" "$PCM_MEMORY" 4 -i=1 -nc
			ours "$SIM" "$W/pm13_gnr_bad.sim" mem_bw_read
			stop_host
			r=$(awk -F'[:-]+' '/SKT +0 Mem Read/ { v = $3 } END { print v + 0 }' "$W/pm13_gnr_bad.pcm")
			o=$(value "$W/pm13_gnr_bad.sim" 0 mem_bw_read)
			check "pcm-memory $PCM_VER catches a planted board mistake (sim:gnr, its SCF BAR a page off the table's channels): it reads $r MB/s, not the truth $(mul "$RD0" 1e-6); uncore stat, from the table, $o GB/s" \
				'grep -q "SKT *0 Mem Read" "$W/pm13_gnr_bad.pcm" && ! near "$r" "$(mul "$RD0" 1e-6)" && near "$o" "$(mul "$RD0" 1e-9)"'
		}
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
