#!/bin/sh
# PCM's other tools: pcm, the main tool, on two sockets (PCM 202302), pcm-pcie of both releases, pcm-power
# (PCM 202502)
# One piece of the peer test (issue 90; cut so that make check runs the pieces side by side, issue 99): what
# every piece checks and how, and what they share, tests/peers/peer_test.sh.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/peers/peer_test.sh"

if release12; then
	if [ -n "$PCM_PCIE" ]; then
		pcm_pcie pp_skx skx,sockets=1,cores=1,$IO_DEVS Skylake-Server
		pcm_pcie pp_icx icx,sockets=1,cores=1,$IO_DEVS Icelake-Server,model=106
		pcm_pcie pp_spr spr,sockets=1,cores=1,$IO_DEVS_SPR Icelake-Server,model=143,stepping=8
		pcm_pcie pp_bdx bdx,sockets=1,cores=1 Broadwell,model=79,stepping=1
	else skip "pcm-pcie: $PCM_WHY"; fi
	# pcm (the main tool): memory and UPI on two sockets, with gdb answering CPUID leaves 0xA and 0xB
	if [ -n "$PCM_MEMORY" ]; then
		pcm_main pcm_skx2 skx,sockets=2,cores=1 Skylake-Server 2042 0a.2 2058 0e.0
		# Ice Lake-SP: the iMC's MMIO windows found from the UBox's 3451 (00.1), UPI 3441 at 02.1-04.1
		pcm_main pcm_icx2 icx,sockets=2,cores=1 Icelake-Server,model=106 3451 00.1 3441 02.1
		# Sapphire Rapids: the same places, its own ids (3251, UPI 3241 at 01.1-04.1)
		pcm_main pcm_spr2 spr,sockets=2,cores=1 Icelake-Server,model=143,stepping=8 3251 00.1 3241 01.1
		# Broadwell-EP: iMC 0's channel 0 (6fb0 at 14.0), QPI link 0 (6f32 at 08.2), as the X10DRi's listing has them
		pcm_main pcm_bdx2 bdx,sockets=2,cores=1 Broadwell,model=79,stepping=1 6fb0 14.0 6f32 08.2
	else skip "pcm: $PCM_WHY"; fi
fi

if release13; then
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
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
