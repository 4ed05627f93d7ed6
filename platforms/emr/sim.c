/*
 * Simulated Emerald Rapids: the Sapphire Rapids family's machine (common/sim/spr_family_sim.c) with
 * EMR's CPUID and 60 CHAs per socket, whose MSR 0x2FFE reads 0 (EMR XCC, Linux 6f7f984f) and whose
 * discovery tables list the CHAs there are.
 */
#include "sim/spr_family_sim.h"
#include "sim/sim_only.h"

static int build(struct sim *s)
{
	static const struct spr_sim_variant emr = { .cbo_count = 0, .extra_chas = 0 };
	return spr_family_build(s, &emr);
}

/* Eagle Stream: root ports at devices 1-8 (pcm-iio-topology.cpp); without a board the CPU bus of IIO PMU n is pcm's
 * emr_sad_to_pmu_id_mapping inverted.  The PCU CR3 at D30 F3 with the CHAs in CAPID6/7 (seed 001 section 1.7.1, this
 * part's guide), device id 325b as Sapphire Rapids' (PCM getMaxNumOfCBoxesInternal reads 8086:325b on SPR and EMR,
 * intel/pcm 0fae0de1; its CAPID4 says XCC, the die seed 001 describes) */
static const int emr_cpubus[6] = { 8, 1, 2, 3, 9, 10 };
static const struct sim_iio_regs emr_regs = { .port_dev = 1, .cpubus = emr_cpubus, .eagle_fns = 1, .pcu_cr3 = 1 };
/* two dies, a die a domain: DDR channel pair p on die p % 2 */
static const struct sim_snc_layout emr_snc = { .allowed = "1, 2", .why = "two dies: a die a domain", .ddr = { [2] = { 0, 1 } } };

extern const struct sim_mem_board sim_emr_mem; /* sim_memory.c */
const struct sim_kind sim_kind_emr = { .name = "emr", .cores = 60, .max_cores = 64 /* Xeon Platinum 8592+; seed 001 T1-3: CHA "up to 64" */, .family = 6, .model = 0xcf, .stepping = 2,
				       .build = build, SPR_FAMILY_SIM_KIND,
				       .board = &sim_emr_board, .iio_regs = &emr_regs, .snc_layout = &emr_snc,
				       .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 8 /* 0.8 GHz floor: sim_ufreq.c */,
				       .mem = &sim_emr_mem };
