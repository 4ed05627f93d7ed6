/*
 * Simulated Sapphire Rapids (Xeon Platinum 8480+: 56 cores, stepping 8 = E5): the Sapphire Rapids
 * family's machine (common/sim/spr_family_sim.c) with the firmware bug Linux 38776cc4 works around:
 * the discovery table lists 60 CHAs (the four dies' slots) while 56 exist, and MSR 0x2FFE reads 56.
 */
#include "sim/spr_family_sim.h"
#include "sim/sim_only.h"
#include <string.h>
#include "util/error.h"

static int build(struct sim *s)
{
	static const struct spr_sim_variant spr = { .cbo_count = 1, .extra_chas = 4 };
	s->hbm_mode = s->variant > 0 ? s->variant : 0;
	return spr_family_build(s, &spr);
}

/* hbm=flat|cache|only (1: flat, 0: none): a Xeon Max (the 9480's 56 cores, 64 GB HBM2e a socket) whose HBM is
 * NUMA nodes of their own (flat), a cache of DDR (cache) or the only memory, no DDR DIMM installed (only: Intel's
 * "HBM-only mode", the sockets' own nodes HBM's); its HBM channels are discovery type 14. */
static int spr_option(struct sim *s, const char *key, const char *value)
{
	static const char *const modes[] = { "0", "flat", "cache", "only" };
	for (int i = 0; !strcmp(key, "hbm") && i < 4; i++)
		if (!strcmp(value, modes[i]) || (i == SIM_HBM_FLAT && !strcmp(value, "1"))) {
			s->variant = i;
			return 0;
		}
	return uc_err("bad simulator option '%s=%s' (spr: hbm=0|1|flat|cache|only, a Xeon Max whose HBM is NUMA "
		      "nodes of their own (1, flat), a cache of DDR or its only memory)", key, value);
}

/* Eagle Stream: root ports at devices 1-8 (pcm-iio-topology.cpp); without a board the CPU bus of IIO PMU n is pcm's
 * spr_xcc_sad_to_pmu_id_mapping inverted; the PCU CR3 beside the MSM says the die (XCC) in CAPID4 and the CHAs in
 * CAPID6/7, where PCM 202302 counts them on SPR (getMaxNumOfCBoxes; seed 001 section 1.7.1, sim_pcicfg.c) */
static const int spr_cpubus[6] = { 8, 0, 1, 9, 2, 10 };
static const struct sim_iio_regs spr_regs = { .port_dev = 1, .cpubus = spr_cpubus, .eagle_fns = 1, .pcu_cr3 = 1 };
/* four compute tiles: SNC4 a tile a domain, SNC2 two tiles a domain; DDR channel pair p on tile p */
static const struct sim_snc_layout spr_snc = { .allowed = "1, 2, 4", .why = "four compute tiles: a domain of two or of one",
					       .ddr = { [2] = { 0, 1 }, [4] = { 0, 1, 2, 3 } } };

extern const struct sim_mem_board sim_spr_mem; /* sim_memory.c */
const struct sim_kind sim_kind_spr = { .name = "spr", .cores = 56, .max_cores = 60 /* Xeon Platinum 8490H */, .family = 6, .model = 0x8f, .stepping = 8,
				       .build = build, SPR_FAMILY_SIM_KIND, .option_help = "hbm=0|1|flat|cache|only",
				       .option = spr_option, .board = &sim_spr_board,
				       .iio_regs = &spr_regs, .snc_layout = &spr_snc,
				       .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 8 /* 0.8 GHz floor: sim_ufreq.c */,
				       .mem = &sim_spr_mem };
