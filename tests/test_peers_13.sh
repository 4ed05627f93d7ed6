#!/bin/sh
# Debian 13's peers: PCM 202502 (pcm-memory, pcm-pcie, pcm-power, pcm-iio) and likwid 5.4.1
# One piece of the peer test (issue 90; cut so that make check runs the pieces side by side, issue 99): what
# every piece checks and how, and what they share, tests/peers/peer_test.sh.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/peers/peer_test.sh"

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
	# pcm-pcie 202502: the CHAs' TOR inserts of the IO queue by opcode (pcm-pcie.h EagleStreamPlatform), as 202302
	if [ -z "$PCM_PCIE" ]; then skip "pcm-pcie of Debian 13: $PCM_WHY"; else
		pcm_pcie pp13_spr spr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids
		pcm_pcie pp13_emr emr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids,model=207
	fi
	# pcm-power 202502: each part's package and DRAM energy
	if [ -z "$PCM_POWER" ]; then skip "pcm-power of Debian 13: $PCM_WHY"; else
		pcm_power pw13_spr spr,sockets=1,cores=1 SapphireRapids
		pcm_power pw13_emr emr,sockets=1,cores=1 SapphireRapids,model=207
		pcm_power pw13_gnr gnr,sockets=1,cores=1 GraniteRapids
		pcm_power pw13_srf srf,sockets=1,cores=1 SierraForest
	fi
	# pcm-iio 202502: the IIO stacks' inbound and outbound bytes by port, as 202302's on Sapphire Rapids
	if [ -z "$PCM_IIO" ]; then skip "pcm-iio of Debian 13: $PCM_WHY"; else
		pcm_iio pi13_spr spr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids 2
		pcm_iio pi13_emr emr,sockets=1,cores=1,$IO_DEVS_SPR SapphireRapids,model=207 2
	fi
	if [ -z "$LIKWID" ] || [ -z "$LUA" ]; then skip "likwid of Debian 13: not in the $RELEASE root"; else
		# likwid 5.4.1 on Sapphire Rapids: the iMC channels' MMIO boxes from the discovery tables, under the
		# global control 0x2FF0 (its sockets in the tables' bus order, D6, above)
		likwid lw13_spr spr,sockets=2,cores=2 SapphireRapids MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# each package's energy (RAPL, MSR 0x611) in its CLOCK group: 5.4.1's has no uncore clock on Sapphire Rapids,
		# and reads its UBOX0 through MSR 0 on Granite Rapids (above: 0, not checked)
		likwid lw13_spr_clock spr,sockets=2,cores=2 SapphireRapids CLOCK "Power [W];150;95"
		likwid lw13_gnr_clock gnr,sockets=2,cores=2 GraniteRapids CLOCK "Power [W];150;95"
		# likwid 5.4.1 does not know Emerald Rapids ("Unsupported Intel Processor")
		likwid lw13_emr emr,sockets=2,cores=2 SapphireRapids,model=207 MEM
		# nor Clearwater Forest
		likwid lw13_cwf cwf,sockets=2,cores=2 ClearwaterForest MEM
		# Granite Rapids: the iMC channels of the tables (at the SCF BAR), its sockets in order; Sierra Forest: below
		likwid lw13_gnr gnr,sockets=2,cores=2 GraniteRapids MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw13_srf srf,sockets=2,cores=2 SierraForest MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
