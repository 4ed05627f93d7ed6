/* The simulated Haswell-EP: the Xeon E5 machine (common/sim/sim_xeon_ep.c) with HSX's PCI places, register
 * map (sim_map.c) and the clock events HSX counts on general counters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "sim_hsx.h"

SIM_PERF_DECL(hsx);

/* Device:function of the PCI boxes: likwid's haswellEP_pci_devices (HA 12.1/12.5, iMC 14.0-15.1 and 17.0-18.1,
 * IRP 05.6, QPI 08.2/09.2 with match/mask on .6, R2PCIe 10.1, R3QPI 0b.1/0b.2); QPI port 2 (and BDX's match/mask
 * function of it) and R3QPI link 2, which likwid does not place, at 0a.2 (0a.6) and 0b.5 on more than two
 * sockets (sim_hsx_build).  Boxes are found by device id, so only the ids matter. */
const struct sim_pci_place sim_hsx_places[] = {
	{ "ha", 0, 0x12, 1, 0 }, { "ha", 1, 0x12, 5, 0 },
	{ "imc", 0, 0x14, 0, 0 }, { "imc", 1, 0x14, 1, 0 }, { "imc", 2, 0x15, 0, 0 }, { "imc", 3, 0x15, 1, 0 },
	{ "imc", 4, 0x17, 0, 0 }, { "imc", 5, 0x17, 1, 0 }, { "imc", 6, 0x18, 0, 0 }, { "imc", 7, 0x18, 1, 0 },
	{ "irp", 0, 0x05, 6, 0 },
	{ "qpi", 0, 0x08, 2, 0 }, { "qpi", 1, 0x09, 2, 0 }, { "qpi", 2, 0x0a, 2, 0 }, { "qpi", 0, 0x08, 6, 1 }, { "qpi", 1, 0x09, 6, 1 },
	{ "qpi", 2, 0x0a, 6, 1 }, /* BDX's port 2 match/mask function (HSX has none: no device) */
	{ "r2pcie", 0, 0x10, 1, 0 }, { "r3qpi", 0, 0x0b, 1, 0 }, { "r3qpi", 1, 0x0b, 2, 0 }, { "r3qpi", 2, 0x0b, 5, 0 },
	/* the UBox (2f1e, 6f1e: CPUNODEID, GIDNIDMAP) at 10.5, where Dell R730s list it (linuxhw/LsPCI 926a35a557e6,
	 * c0a4a3a6b6c1: tests/snapshots/field/hsx-r730-1s.source, bdx-r730-2ch.source), not IVB-EP's 0b.0 */
	{ "ubox", 0, 0x10, 5, 0 },
	{ NULL, 0, 0, 0, 0 },
};

SIM_MAP_DECL(hsx);
extern const struct sim_ubox_dev sim_hsx_ubox;
extern const struct sim_unit sim_hsx_units_chop0[];
extern const int sim_hsx_nunits_chop0;

/* What HSX counts beyond the generation's model (haswellx_uncore.json): event 0x00 on a general counter is a
 * clock (UNC_M_DCLOCKTICKS and the driver's imc clockticks alias the DRAM clock, UNC_U_CLOCKTICKS and
 * UNC_S_CLOCKTICKS the uncore clock); QPI sends non-data flits (UNC_Q_TxL_FLITS_G0.NON_DATA, 0x00/0x04) to fill
 * the link to its profile use; the CBos' TOR sees local and remote data-read misses
 * (MISS_LOCAL_OPCODE 0x23, MISS_REMOTE_OPCODE 0x83, inserts 0x35 and occupancy 0x36) and the devices' reads (PCIRdCur 0x19e) and writes
 * (ItoM 0x1c8), 64 bytes each, spread over the CBos as every TOR event is. */
double sim_hsx_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff;
	int sock = b->socket, cbos = s->cores < b->u->nboxes ? s->cores : b->u->nboxes;
	if (ctr == SIM_CTR_FIXED || (ctl & (SIM_EDGE | SIM_INV | SIM_EV_EXT | 0xff000000ull)))
		return sim_xeon_ep_rate(s, b, ctl, ctr);
	if (ev == 0x00 && um == 0x00 && !strcmp(u, "imc"))
		return p->dram_hz;
	if (ev == 0x00 && um == 0x00 && (!strcmp(u, "ubox") || !strcmp(u, "sbox")))
		return p->uncore_hz;
	if (ev == 0x00 && (um & 0x04) && !strcmp(u, "qpi")) { /* TxL_FLITS_G0: DATA 2, NON_DATA 4 (PCM counts both) */
		double data = p->qpi_tx_bps[sock] / sim_xeon_ep_peers(s, b) / 8;
		return (um & 0x02 ? data : 0) + sim_link_nondata(p, sock, 2, data);
	}
	if ((ev == 0x35 || ev == 0x36) && !strcmp(u, "cbo") && b->idx < cbos) {
		uint64_t opc = sim_field(b, "opc");
		double tid = sim_tid_share(s, b, ctl), dev = sim_tid_devices(b, ctl);
		double misses = p->llc_lookups[sock] * p->llc_miss_ratio[sock] / cbos * tid, r = p->remote_ratio[sock];
		/* an occupancy is its inserts x their residency in uncore clocks (Little's law) */
		double per = ev == 0x36 ? p->llc_miss_lat_ns[sock] * p->uncore_hz / 1e9 : 1;
		if ((um == 0x23 || um == 0x83) && opc == 0x182)
			return (um == 0x83 ? misses * r : misses * (1 - r)) * per;
		if (ev == 0x36)
			return sim_xeon_ep_rate(s, b, ctl, ctr);
		if (um == 0x01 && opc == 0x19e)
			return p->iio_out_bps[sock] / 64 / cbos * dev;
		if (um == 0x01 && opc == 0x1c8)
			return p->iio_in_bps[sock] / 64 / cbos * dev;
	}
	return sim_xeon_ep_rate(s, b, ctl, ctr);
}

/* QPI link 2 (0a.2, its match/mask 0a.6) and R3QPI link 2 (0b.5) are the E7 parts' third link: two-socket E5
 * boards list links 0 and 1 alone (08.x, 09.x, 0b.1, 0b.2: tests/snapshots/field/bdx-x10dri-2s.source,
 * bdx-r730-2ch.source), so a machine of up to two sockets leaves it out; more sockets model the E7 (the 4-socket
 * E5-4600 has two links too: the simulator does not model it). */
static int third_link(const struct sim_pci_place *pl)
{
	return pl->idx == 2 && (!strcmp(pl->unit, "qpi") || !strcmp(pl->unit, "r3qpi"));
}
static int has_third_link(const struct sim *s) { return s->nsockets > 2; }

/* Home agent 1 (12.5, 2f38/6f38) and its iMC's channel functions (17.0-18.1, 2fd0-2fd5/6fd0-6fd5 of
 * hswep_uncore_pci_ids, bdx_uncore_pci_ids), which a die with one home agent (ha=1) has not */
static int second_ha(const struct sim_pci_place *pl)
{
	return (!strcmp(pl->unit, "ha") && pl->idx == 1) || (!strcmp(pl->unit, "imc") && pl->idx >= 4);
}

int sim_hsx_build(struct sim *s)
{
	struct sim_pci_place places[sizeof sim_hsx_places / sizeof *sim_hsx_places];
	size_t n = 0;
	for (const struct sim_pci_place *pl = sim_hsx_places; pl->unit; pl++)
		if ((!third_link(pl) || has_third_link(s)) && !(s->one_ha && second_ha(pl)))
			places[n++] = *pl;
	places[n] = (struct sim_pci_place){ NULL, 0, 0, 0, 0 };
	int rc = sim_xeon_ep_build(s, places);
	s->rate = sim_hsx_rate;
	return rc;
}

/* chop=N (hsx, bdx): the die's chop in the PCU's CAPID4 (config 0x94, bits 7:6: Linux HSWEP_PCU_CAPID4_OFFET,
 * hswep_get_chop); 0 limits the SBoxes (hswep_has_limit_sbox: two on HSX's 6-8 core die, none on BDX).  The
 * parts' own chop is the simulator's choice (3): Linux tells 0 alone apart.
 * ha=1|2: the die's home agents.  The low-core-count dies (HSX's of up to 8 cores, its chop 0: E5-2620 v3,
 * E5-1650 v3; BDX's of up to 10: E5-2620 v4) have home agent 0 alone, its iMC's four channels (14.0-15.1): no
 * HA 1 or iMC 1 function to find (ha=1 with chop=0 is HSX's whole LCC part); sb_edac lists one controller a socket,
 * "Haswell SrcID#N_Ha#0", channels 0-3 (doc/memory.md, "Shapes real nodes show").  2, both home agents of two
 * channels each, is the default (the 18-core die's). */
#define HSX_CHOP_DEFAULT 3
int sim_hsx_option(struct sim *s, const char *key, const char *value)
{
	char *end;
	long n = strtol(value, &end, 0);
	if (!strcmp(key, "ha") && (!strcmp(value, "1") || !strcmp(value, "2"))) {
		s->one_ha = *value == '1';
		return 0;
	}
	if (!strcmp(key, "ha"))
		return uc_err("bad simulator option '%s=%s' (%s: ha=1|2, the die's home agents: 1 on the smaller dies, "
			      "its iMC's 4 channels)", key, value, s->kind->name);
	if (strcmp(key, "chop") || *end || !*value || n < 0 || n > 3)
		return uc_err("bad simulator option '%s=%s' (%s: chop=0..3, the die's chop in the PCU's CAPID4; 0 limits "
			      "the SBoxes: two on hsx, the 6-8 core die, none on bdx)", key, value, s->kind->name);
	s->variant = (int)n;
	return 0;
}

/* The machine of sim_hsx_build, with chop0_units where the chop is 0 (their SBoxes limited), one_ha_mem its
 * memory with ha=1, and per socket the PCU function pcu_devid holding CAPID4 (1E.3, where a Dell R730 has BDX's;
 * the driver finds it by device id alone), its other bits set (placed here) so that only bits 7:6 tell. */
int sim_hsx_build_capid4(struct sim *s, uint16_t pcu_devid, const struct sim_unit *chop0_units, int chop0_nunits,
			 const struct sim_mem_board *one_ha_mem)
{
	int chop = s->variant < 0 ? HSX_CHOP_DEFAULT : s->variant;
	if (s->one_ha)
		s->mem = one_ha_mem;
	if (chop == 0) {
		s->units = chop0_units;
		s->nunits = chop0_nunits;
	}
	if (sim_hsx_build(s))
		return -1;
	for (int sock = 0; sock < s->nsockets; sock++) {
		int bus = -1;
		for (int i = 0; i < s->ndevs && bus < 0; i++) /* the socket's uncore bus: that of its PCI boxes */
			if (s->devs[i].box && s->devs[i].box->socket == sock)
				bus = s->devs[i].info.loc.bus;
		if (bus < 0)
			return uc_err("simulator: socket %d has no uncore bus", sock);
		if (sim_put_cfg32(sim_add_dev(s, bus, 0x1e, 3, pcu_devid), 0x94, (uint32_t)chop << 6 | 0x3cu))
			return -1;
		/* the QPI links' own functions at 08.0 and 09.0 beside their counters' 08.2 and 09.2 (the generation's
		 * 2f80/2f90, 6f80/6f90: the Dell R730 and Supermicro X10DRi listings, tests/snapshots/field/bdx-*.source),
		 * QPI_RATE_STATUS at 0xd4 holding the link's rate in bits 2:0 as PCM 202302 decodes it
		 * (cpucounters.cpp computeQPISpeed: 4.0 + 0.8 x value GT/s; it stops where the function is missing):
		 * the profile's qpi_hz x 8 transfers (8 GT/s by default: 5) */
		double gts = s->prof.qpi_hz * 8 / 1e9;
		long rate = lround((gts - 4.0) / 0.8);
		uint32_t status = rate >= 1 && rate <= 7 ? (uint32_t)rate : 0;
		uint16_t gen = pcu_devid & 0xff00;
		if (sim_put_cfg32(sim_add_dev(s, bus, 0x08, 0, gen | 0x80), 0xd4, status) ||
		    sim_put_cfg32(sim_add_dev(s, bus, 0x09, 0, gen | 0x90), 0xd4, status))
			return -1;
		/* the E7's third link at 0a.0 (2f40, 6f40 "QPI Link 2": pci.ids), where its counters are placed */
		if (has_third_link(s) &&
		    sim_put_cfg32(sim_add_dev(s, bus, 0x0a, 0, gen | 0x40), 0xd4, status))
			return -1;
	}
	return 0;
}

/* HSX's PCU is 0x2fc0 (HSWEP_PCU_DID); its chop-0 die has two SBoxes */
extern const struct sim_mem_board sim_hsx_mem, sim_hsx_mem_one_ha; /* sim_memory.c */
static int hsx_build(struct sim *s)
{
	return sim_hsx_build_capid4(s, 0x2fc0, sim_hsx_units_chop0, sim_hsx_nunits_chop0, &sim_hsx_mem_one_ha);
}

/* 18 cores: the E5-2699 v3, HSX's largest part (hswep_uncore_cbox.num_boxes 18); stepping 2 (C1, 0x306F2) */
const struct sim_kind sim_kind_hsx = { .name = "hsx", .cores = 18, .max_cores = 18, .family = 6, .model = 63, .stepping = 2, .build = hsx_build,
				       .units = sim_hsx_units, .nunits = &sim_hsx_nunits, .ubox = &sim_hsx_ubox, .glob = &sim_hsx_global,
				       .perf = sim_hsx_perf, .nperf = &sim_hsx_nperf, .option_help = "chop=0..3, ha=1|2",
				       .option = sim_hsx_option,
				       .mem = &sim_hsx_mem };
