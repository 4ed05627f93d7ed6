/* The simulated Sapphire Rapids family (spr_family_sim.c, spr_family_map.c, spr_family_perf.c): one
 * builder, register map and driver model for sim:spr, sim:emr and sim:generic. */
#ifndef UNCORE_SPR_FAMILY_SIM_H
#define UNCORE_SPR_FAMILY_SIM_H
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "sim/sim_disc.h"

SIM_MAP_DECL(spr);
SIM_PERF_DECL(spr);
extern const struct sim_ubox_dev sim_spr_ubox;
extern const struct sim_global sim_spr_global;
extern const struct sim_unit sim_generic_type21;
/* The real boards the members are laid out as (platforms/spr/board.c, platforms/emr/board.c) */
extern const struct sim_board sim_spr_board, sim_emr_board;

/* What sets a member apart. */
struct spr_sim_variant {
	int generic;    /* the generic platform's units instead of the family's */
	int cbo_count;  /* MSR 0x2FFE reads the CHA count (SPR); 0: it reads 0 (EMR XCC, Linux 6f7f984f) */
	int extra_chas; /* CHA entries the discovery table lists beyond the CHAs there are (the SPR
			 * firmware bug Linux 38776cc4 works around with MSR 0x2FFE) */
};
int spr_family_build(struct sim *s, const struct spr_sim_variant *v);
/* Xeon Max: HBM channels a socket (16 controllers x 2: PCM's HBM map, likwid's 32 HBM units) and the bytes a
 * CAS moves (32 on SPR: PCM getHBMCASTransferSize, pcm-memory's HBM scaling) */
#define SPR_HBM_CHANNELS 32
#define SPR_HBM_CAS_BYTES 32
int spr_family_fault(struct sim *s, const char *kind, struct sim_box *b);

/* Faults of discovery entries: corrupt (reads all ones), badaddr (outside its space), dupid, badwidth, nctr,
 * width64, and imcbase (the IMC config registers disagree with the table). */
#define SPR_FAMILY_FAULTS SIM_DISC_FAULTS ", imcbase"
/* The sim_kind fields the members share (the map, UBox device, global control and faults). */
#define SPR_FAMILY_SIM_MAP                                                                                 \
	.units = sim_spr_units, .nunits = &sim_spr_nunits, .glob = &sim_spr_global, .ubox = &sim_spr_ubox, \
	.faults = SPR_FAMILY_FAULTS, .fault = spr_family_fault, .multi_die = 1
#define SPR_FAMILY_SIM_KIND SPR_FAMILY_SIM_MAP, .perf = sim_spr_perf, .nperf = &sim_spr_nperf

#endif
