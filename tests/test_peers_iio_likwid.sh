#!/bin/sh
# pcm-iio of both releases, and likwid-perfctr of both (5.2.2, 5.4.1) on two sockets
# One piece of the peer test (issue 90; cut so that make check runs the pieces side by side, issue 99): what
# every piece checks and how, and what they share, tests/peers/peer_test.sh.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/peers/peer_test.sh"

if release12; then
	if [ -n "$PCM_IIO" ]; then
		pcm_iio pi_skx skx,sockets=1,cores=1,$IO_DEVS Skylake-Server 1
		pcm_iio pi_icx icx,sockets=1,cores=1,$IO_DEVS Icelake-Server,model=106 1
		pcm_iio pi_spr spr,sockets=1,cores=1,$IO_DEVS_SPR Icelake-Server,model=143,stepping=8 2
		pcm_iio pi_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1
	else skip "pcm-iio: $PCM_WHY"; fi
	if [ -z "$LIKWID" ] || [ -z "$LUA" ]; then
		skip "likwid-perfctr: likwid (and lua5.3) are not installed (Debian's likwid, scripts/install-deps)"
	else
		# two sockets: with one, hwloc places every uncore function at its root and likwid 5.2.2 crashes (issue 435)
		likwid lw_mem skx,sockets=2,cores=2 Skylake-Server MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_upi skx,sockets=2,cores=2 Skylake-Server UPI \
			"Received data bandwidth [MByte/s];4000;3000" "Sent data bandwidth [MByte/s];3000;4000"
		# one more group, of an uncore box likwid 5.2.2 reaches on SKX: CLOCK, the UBox's UCLK fixed counter (MSR
		# 0x703/0x704, UNCORE_CLOCK) over its run, and each package's RAPL energy (0x611) over it
		likwid lw_clock skx,sockets=2,cores=2 Skylake-Server CLOCK "Uncore Clock [MHz];2400;2400" "Power [W];150;95"
		# Ice Lake-SP: the iMC's MMIO channels (likwid's perfmon_icelakeX), the UBox's clock and RAPL
		likwid lw_icx_mem icx,sockets=2,cores=2 Icelake-Server,model=106 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_icx_clock icx,sockets=2,cores=2 Icelake-Server,model=106 CLOCK "Uncore Clock [MHz];2400;2400" "Power [W];150;95"
		# Cascade Lake (Skylake-SP's uncore, which likwid 5.2.2 takes it for: model 85 stepping 6)
		likwid lw_clx clx,sockets=2,cores=2 Cascadelake-Server MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# where likwid 5.2.2 does not count: Sapphire Rapids (unknown to it; 5.4.1 counts it), Broadwell-EP (the
		# boards' NUMA nodes)
		likwid lw_spr spr,sockets=2,cores=2 Icelake-Server,model=143,stepping=8 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_bdx bdx,sockets=2,cores=2 Broadwell,model=79,stepping=1 MEM
		likwid lw_hsx hsx,sockets=2,cores=2 Haswell,model=63 MEM # (the R730's and X10DRi's -1, as on Broadwell-EP)
		# Nehalem-EP (seed 003): the uncore's eight MSR counters (0x3b0) under the global control 0x391, which the
		# harness's core PMU registers must leave to the uncore there (sim_host.c uncore_owned)
		likwid lw_nhm nhm,sockets=2,cores=2 Nehalem MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		# Sandy Bridge-EP and Ivy Bridge-EP (seeds 000, 002): the iMC channels' PCI boxes, on the uncore buses the
		# Dell R720 gives a NUMA node (D9); qemu 7.2's client models as the server parts' numbers
		likwid lw_snbep snbep,sockets=2,cores=2 SandyBridge,model=45 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
		likwid lw_ivbep ivbep,sockets=2,cores=2 IvyBridge,model=62 MEM \
			"Memory read bandwidth [MBytes/s];$(mul $RD0 1e-6);$(mul $RD1 1e-6)" \
			"Memory write bandwidth [MBytes/s];$(mul $WR0 1e-6);$(mul $WR1 1e-6)"
	fi
fi

if release13; then
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
