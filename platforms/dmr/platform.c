/*
 * Diamond Rapids (Xeon, family 0x13 model 0x01: Linux INTEL_DIAMONDRAPIDS_X, uncore.c intel_uncore_match ->
 * dmr_uncore_init, 6daf2c35b835), as Linux 7.0 drives it; every fact and its commit: platforms/dmr/README.md.
 * Provisional: Intel has published no DMR event file, so the catalog holds only what the driver names
 * (driver_events.json) and raw specs do the rest.
 *
 * Two discovery domains (e75462f6c7ea): the I/O and memory hubs' (IMH) tables behind PCI device 0x09A1
 * (DMR_UNCORE_DISCOVERY_TABLE_DEVICE), type 0x13 (MSE) ignored as broken (dmr_uncore_imh_units_ignore); the
 * compute building blocks' (CBB) tables whose addresses MSR 0x710 gives on each die (CBB_UNCORE_DISCOVERY_MSR,
 * 66e2075426f3), type 0x25 (SB2UCIE) ignored (dmr_uncore_cbb_units_ignore), their global control frozen at
 * power-on (b575fc0e3357: discover_global.c clears it while counting and sets it again after).
 *
 * Unit types by discovery type as dmr_uncores[] names them, with the driver's formats.  The driver gives
 * ops to the iMC alone (spr_uncore_mmio_ops); every other type gets Linux's generic ops of its discovery entry's
 * access (dmr_uncore_pci_init/dmr_uncore_mmio_init: uncore_get_uncores(UNCORE_ACCESS_PCI/MMIO, ..)), so here too
 * (access_from_entry): MMIO units with the generic MMIO layout, PCI units the generic PCI one.  dmr_uncore_init
 * has no .cpu_init: Linux registers no MSR-access unit; this library still drives one a table lists, from its
 * entry (the generic MSR layout), but counts no IIO free-running box for an MSR-access ITC, as Linux does not.
 * Types dmr_uncores[] has no entry for are the driver's generic uncore_type_<N> PMUs (disc_unnamed).
 */
#include <stddef.h>
#include "discover/discover.h"
#include "platform/xeon_disc.h"
#include "util/error.h"

UC_PLATFORM_TABLES(dmr);

#define N(a) UC_ARRAY_LEN(a)

/* Counter control fields (Linux 7.0 uncore_snbep.c format attributes; rst 17 and frz_ovf 20 as the discovery
 * generation's unit, seed 001 T1-5).  dmr_sca/hamvf/cbo...: event 0-7, umask_ext5 (umask 8-15 with 32-63),
 * edge 18, inv 23, thresh8 24-31 (DMR_HAMVF_EVENT_MASK_EXT 0xffffffff). */
#define F_BASE [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }, [CR_RST] = { 17, 1 }, [CR_EDGE] = { 18, 1 }
static const struct ctl_layout lay_sca = { .name = "dmr-sca",
	.f = { F_BASE, [CR_OV_EN] = { 20, 1 }, [CR_INV] = { 23, 1 }, [CR_THRESH] = { 24, 8 }, [CR_UMASK_EXT] = { 32, 32 } } };
/* dmr_imc_uncore_formats_attr: inv 23 and thresh10 23-32 (the driver's two formats share bit 23) */
static const struct ctl_layout lay_imc = { .name = "dmr-imc",
	.f = { F_BASE, [CR_OV_EN] = { 20, 1 }, [CR_INV] = { 23, 1 }, [CR_THRESH] = { 23, 10 } } };
/* dmr_cxlcm_uncore_formats_attr: inv2 21, thresh9_2 23-31, port_en 32-35 (DMR_CXLCM_EVENT_MASK_EXT 0xf);
 * no frz_ovf offered (as SPR's CXL CM, xd_lay_cxl) */
static const struct ctl_layout lay_cxlcm = { .name = "dmr-cxlcm",
	.f = { F_BASE, [CR_INV] = { 21, 1 }, [CR_THRESH] = { 23, 9 } } };
static const struct filter_field cxlcm_fields[] = {
	{ "port_en", UC_FIELD_CTL, 32, 4, "ports counted: bit n = port n (Linux 7.0 format port_en, config:32-35)" },
};
/* dmr_pcie4_uncore_formats_attr: event, umask, edge, inv, thresh8, then thresh_ext 32-35, rs3_sel 36,
 * rx_sel 37, tx_sel 38, iep_sel 39, vc_sel 40-47, port_sel 48-55 (DMR_PCIE4_EVENT_MASK_EXT 0xffffff) */
static const struct ctl_layout lay_pcie = { .name = "dmr-pcie",
	.f = { F_BASE, [CR_OV_EN] = { 20, 1 }, [CR_INV] = { 23, 1 }, [CR_THRESH] = { 24, 8 } } };
static const struct filter_field pcie_fields[] = {
	{ "thresh_ext", UC_FIELD_CTL, 32, 4, "threshold bits 11:8 (Linux 7.0 format thresh_ext, config:32-35)" },
	{ "rs3_sel", UC_FIELD_CTL, 36, 1, "Linux 7.0 format rs3_sel (config:36)" },
	{ "rx_sel", UC_FIELD_CTL, 37, 1, "receive side (Linux 7.0 format rx_sel, config:37)" },
	{ "tx_sel", UC_FIELD_CTL, 38, 1, "transmit side (Linux 7.0 format tx_sel, config:38)" },
	{ "iep_sel", UC_FIELD_CTL, 39, 1, "Linux 7.0 format iep_sel (config:39)" },
	{ "vc_sel", UC_FIELD_CTL, 40, 8, "virtual channels (Linux 7.0 format vc_sel, config:40-47)" },
	{ "port_sel", UC_FIELD_CTL, 48, 8, "ports (Linux 7.0 format port_sel, config:48-55)" },
};

/* One type: name (the PMU's), discovery type, description, event prefix, counters, layout.  Every type but the
 * iMC takes its access from its discovery entry, as Linux 7.0's generic ops do (XD_ENTRY_ACCESS: the generic
 * MMIO layout, another access's where a table lists the type so). */
#define T(nm, ty, d, pre, n, l) .name = nm, .perf = nm, .desc = d, .prefix = pre, .nctr = (n), XD_DISC(ty), \
	.lay = (l), XD_ENTRY_ACCESS
#define GEN_T(nm, ty, d, pre, l) { T(nm, ty, d, pre, 4, l), .max_boxes = 64 }

static const struct box_type pcu = { T("pcu", 4, "power control unit (PCU), I/O hub", "UNC_P", 4, &xd_lay_base),
				     .max_boxes = 1 }; /* spr_uncore_pcu: no .ops */
static const struct box_type ubox = { T("ubox", 5, "system configuration controller (UBox), I/O hub", "UNC_U", 2, &xd_lay_base),
				      .max_boxes = 1 }; /* gnr_uncore_ubox: the generic format, no .ops */
/* MMIO, controls 4 apart and counters 8 (spr_uncore_mmio_ops, no OFFS8); the fixed DCLK counter at +0x18, its
 * control at +0x10 (DMR_IMC_PMON_FIXED_CTR/CTL), 48 bits, en 22 (SNBEP_PMON_CTL_EN, uncore_mmio_enable_event).
 * Unit ids of the secondary hub (IMH2) start at 0x8000 (d8987048f665): max_boxes holds them.  The one type with
 * .ops of its own: MMIO whatever its entry says. */
static const struct box_type imc = { .name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC), I/O hub",
				     .prefix = "UNC_M", .nctr = 4, XD_DISC(6), .lay = &lay_imc, .space = UC_MMIO, .ctl_stride = 4,
				     .ctr_stride = 8, .ctl_bytes = 4, .max_boxes = 0x8000 + 32, .perfmon = "IMC", .has_fixed = 1,
				     .fixed_ctl = 0x10, .fixed_ctr = 0x18, .fixed_width = 48, .fixed_en = 1u << 22,
				     .perf_mask = 0xff84ffff /* no event_mask(_ext): thresh10's bit 32 dropped */ };
/* 8 counters; dmr_uncore_cxlcm sets no .ops: Linux's generic MMIO ops, controls 4 apart written 32 bits
 * (intel_generic_uncore_mmio_enable_event: writel at ctl_offset + 4 i), not SPR's 8-byte OFFS8 steps */
static const struct box_type cxlcm = { T("cxlcm", 24, "CXL cache/mem protocol stack (CXL CM), I/O hub", "UNC_CXLCM", 8, &lay_cxlcm),
				       .max_boxes = 16, .fields = cxlcm_fields, .nfields = N(cxlcm_fields),
				       /* dmr_uncore_cxlcm: GENERIC_PMON_RAW_EVENT_MASK | DMR_CXLCM_EVENT_MASK_EXT << 32 (6daf2c35b835):
					* inv2 (bit 21) is outside it, so perf cannot pass inv */
				       .perf_mask = 0xff84ffffull | 0xfull << 32 };
static const struct box_type sca = GEN_T("sca", 23, "SCA, I/O hub (dmr_uncore_sca)", "UNC_SCA", &lay_sca);
static const struct box_type hamvf = GEN_T("hamvf", 30, "HAMVF, I/O hub (dmr_uncore_hamvf)", "UNC_HAMVF", &lay_sca);
static const struct box_type cbo = { T("cbo", 31, "caching box (CBO), compute die", "UNC_CBO", 4, &lay_sca), .max_boxes = 256 };
static const struct box_type santa = GEN_T("santa", 32, "SANTA, compute die (dmr_uncore_santa, generic format)", "UNC_SANTA", &xd_lay_base);
static const struct box_type cncu = GEN_T("cncu", 33, "cNCU, compute die (dmr_uncore_cncu, generic format)", "UNC_CNCU", &xd_lay_base);
static const struct box_type sncu = GEN_T("sncu", 34, "sNCU, compute die (dmr_uncore_sncu, generic format)", "UNC_SNCU", &xd_lay_base);
static const struct box_type ula = GEN_T("ula", 35, "D2D ULA, I/O hub (dmr_uncore_ula)", "UNC_ULA", &lay_sca);
static const struct box_type dda = GEN_T("dda", 36, "D2D DDA, compute die (dmr_uncore_dda)", "UNC_DDA", &lay_sca);
static const struct box_type sbo = GEN_T("sbo", 38, "SBO mesh stop, compute die (dmr_uncore_sbo)", "UNC_SBO", &lay_sca);
static const struct box_type ubr = GEN_T("ubr", 43, "UBR, I/O hub (dmr_uncore_ubr)", "UNC_UBR", &lay_sca);
static const struct box_type pcie4 = { T("pcie4", 45, "PCIe gen 4 controller, I/O hub (dmr_uncore_pcie4)", "UNC_PCIE4", 4, &lay_pcie),
				       .max_boxes = 64, .fields = pcie_fields, .nfields = N(pcie_fields) };
static const struct box_type crs = GEN_T("crs", 46, "CRS, I/O hub (dmr_uncore_crs, generic format)", "UNC_CRS", &xd_lay_base);
static const struct box_type cpc = GEN_T("cpc", 47, "CPC, I/O hub (dmr_uncore_cpc)", "UNC_CPC", &lay_sca);
#define UNCORE_DMR_ITC 0x30 /* Linux 7.0 uncore_snbep.c (d8987048f665) */
static const struct box_type itc = GEN_T("itc", UNCORE_DMR_ITC, "inbound traffic controller (ITC), I/O hub (dmr_uncore_itc)", "UNC_ITC",
					 &lay_sca);
static const struct box_type otc = GEN_T("otc", 49, "outbound traffic controller (OTC), I/O hub (dmr_uncore_otc)", "UNC_OTC", &lay_sca);
static const struct box_type cms = GEN_T("cms", 50, "CMS mesh stop, I/O hub (dmr_uncore_cms, generic format)", "UNC_CMS", &xd_lay_base);
static const struct box_type pcie6 = { T("pcie6", 51, "PCIe gen 6 controller, I/O hub (dmr_uncore_pcie6)", "UNC_PCIE6", 4, &lay_pcie),
				       .max_boxes = 64, .fields = pcie_fields, .nfields = N(pcie_fields) };

/* IIO free-running counters (Linux 7.0 dmr_uncore_iio_free_running, d8987048f665): no table lists them; box n is
 * the MMIO window DMR_IMH1_HIOP_MMIO_BASE 0x1ffff6ae7000 + dmr_iio_freerunning_box_offsets[n] (HIOP0, HIOP1, HIOP3,
 * HIOP4), one per ITC unit of the primary hub (num_boxes = uncore_type_max_boxes(.., UNCORE_DMR_ITC): ids below
 * 0x8000, so IMH2 has none).  dmr_iio_freerunning: ITC_INB_DATA_BW 0x4d40, ITC_BW_IN 0x6b00, OTC_BW_OUT 0x6b60 (8
 * ports, 8 bytes apart), OTC_CLOCK_TICKS 0x6bb0, 48 bits; umasks dmr_uncore_iio_freerunning_events (0x10 x
 * (group + 1) + port). */
#define HIOP_BASE 0x1ffff6ae7000ull /* DMR_IMH1_HIOP_MMIO_BASE */
static const uint32_t hiop_offs[] = { 0x0, 0x8000, 0x18000, 0x20000 };
#define FRP(s, n, a, um) { s #n, (a) + 8 * (n), 48, (um) + (n), 0, hiop_offs }
#define FR8(s, a, um) FRP(s, 0, a, um), FRP(s, 1, a, um), FRP(s, 2, a, um), FRP(s, 3, a, um), FRP(s, 4, a, um), \
	FRP(s, 5, a, um), FRP(s, 6, a, um), FRP(s, 7, a, um)
static const struct freerun iio_fr[] = { FR8("inb_data_port", 0x4d40, 0x10), FR8("bw_in_port", 0x6b00, 0x20),
					 FR8("bw_out_port", 0x6b60, 0x30), { "clockticks", 0x6bb0, 48, 0x40, 0, hiop_offs } };
static const struct box_type iio = { .name = "iio", .perf = "iio", .desc = "IIO free-running counters of an I/O hub port (HIOP)",
				     .prefix = "UNC_IIO", .perfmon = "IIO", .space = UC_MMIO, .disc_type = -1, .lay = &xd_lay_base,
				     .max_boxes = N(hiop_offs), .fr = iio_fr, .nfr = N(iio_fr) };

static const struct box_type *const dmr_types[] = { &pcu, &ubox, &imc, &sca, &cxlcm, &hamvf, &cbo, &santa, &cncu, &sncu, &ula,
						    &dda, &sbo, &ubr, &pcie4, &crs, &cpc, &itc, &otc, &cms, &pcie6, &iio };
/* Linux intel-family.h INTEL_DIAMONDRAPIDS_X: family 0x13 (19), model 0x01 */
static const int dmr_models[] = { 0x01, 0 };

static const int imh_ignore[] = { 0x13, -1 }; /* dmr_uncore_imh_units_ignore: MSE */
static const int cbb_ignore[] = { 0x25, -1 }; /* dmr_uncore_cbb_units_ignore: SB2UCIE */
static const struct disc_domain dmr_domains[] = {
	{ "imh", 0, 0x09a1, imh_ignore, 0 }, /* domain[0]: base_is_pci, DMR_UNCORE_DISCOVERY_TABLE_DEVICE */
	{ "cbb", 1, 0x710, cbb_ignore, 1 },  /* domain[1]: CBB_UNCORE_DISCOVERY_MSR, global_init (b575fc0e3357) */
};
static const uint32_t dmr_ro_msrs[] = { 0x710, 0 }; /* read at open on each die, never written */

/* The free-running boxes: as many as the driver's num_boxes, uncore_type_max_boxes(uncore_mmio_uncores,
 * UNCORE_DMR_ITC) = the largest id of an MMIO ITC below 0x8000 + 1 (an ITC a table leaves out leaves its window
 * in place; an MSR-access ITC is no MMIO unit: dmr_uncore_mmio_init, d8987048f665), each at its HIOP
 * window.  The driver maps the same physical windows on every die (dmr_uncore_freerunning_init_box: no die term);
 * a physical address reaches one hub, taken here to be socket 0's, so the boxes go there alone, on the die of
 * its hub's ITCs. */
static int dmr_fixup(struct disc_ctx *c)
{
	int ti = 0, max = -1, at = -1;
	while (ti < c->u->plat->ntypes && c->u->plat->types[ti] != &iio)
		ti++;
	for (int k = 0; k < c->n; k++) /* the MMIO ITCs alone: uncore_type_max_boxes(uncore_mmio_uncores, ..) */
		if (c->v[k].t->disc_type == UNCORE_DMR_ITC && c->v[k].t->space == UC_MMIO && c->v[k].unit_id < 0x8000) {
			max = c->v[k].unit_id > max ? c->v[k].unit_id : max;
			at = at < 0 || (c->v[k].socket == 0 && c->v[at].socket != 0) ? k : at;
		}
	if (max >= N(hiop_offs)) /* Linux would index past dmr_iio_freerunning_box_offsets */
		uc_warn("itc unit ids run to %d: no HIOP window is known beyond box %d; those have no iio free-running box", max,
			N(hiop_offs) - 1);
	for (int id = 0; id <= max && id < N(hiop_offs); id++) {
		struct box b = { .t = &iio, .type_idx = ti, .socket = 0, .die = c->v[at].socket ? 0 : c->v[at].die, .idx = id,
				 .unit_id = id, .cpu = host_die_cpu(&c->u->host, 0, c->v[at].socket ? 0 : c->v[at].die), .gsp = -1,
				 .fr_base = HIOP_BASE, .nfr = N(iio_fr),
				 .r = { .box_ctl = HIOP_BASE + hiop_offs[id], .rel = HIOP_BASE + hiop_offs[id] } };
		if (box_list_add(c, &b))
			return -1;
	}
	return 0;
}

/* The driver's aliases: none for the iMC (dmr_uncore_imc has no events); its fixed counter is perf's
 * event 0xff (UNCORE_FIXED_EVENT).  dmr_uncore_iio_freerunning_events: a count of inb_data/bw_in/bw_out_portN is
 * 4 bytes (3.814697266e-6 MiB). */
#define FR_ALIAS(s, n, um) { "iio_free_running", s #n, "event=0xff,umask=" um, 3.814697266e-6, "MiB" }
#define FR_ALIAS8(s, h) FR_ALIAS(s, 0, h "0"), FR_ALIAS(s, 1, h "1"), FR_ALIAS(s, 2, h "2"), FR_ALIAS(s, 3, h "3"), \
	FR_ALIAS(s, 4, h "4"), FR_ALIAS(s, 5, h "5"), FR_ALIAS(s, 6, h "6"), FR_ALIAS(s, 7, h "7")
static const struct perf_alias dmr_aliases[] = { FR_ALIAS8("inb_data_port", "0x1"), FR_ALIAS8("bw_in_port", "0x2"),
						  FR_ALIAS8("bw_out_port", "0x3"),
						  { "iio_free_running", "clockticks", "event=0xff,umask=0x40", 0, NULL }, { 0 } };

/* RAPL: through TPMI alone (Linux 6.12 intel_rapl_tpmi.c: package, memory -> dram); no public source reads any
 * RAPL MSR on it.  max_w: the 500 W of the Xeon 6 socket twice, no TDP published yet */
static const struct energy_part dmr_energy = { PLAT_RAPL_PKG_DRAM, 0, 0, ENERGY_MSR_NONE, 1000, "intel_rapl_tpmi.c" };
/* Clocks: none listed (no public figure): health's broad range */

const struct platform_desc platform_dmr = {
	.name = "dmr", .desc = "Diamond Rapids (Xeon; provisional: Linux 7.0's driver, no Intel event file)",
	.family = 0x13, .models = dmr_models, .types = dmr_types, .ntypes = N(dmr_types),
	.events = &uc_events_dmr, .metrics_json = uc_metrics_dmr, .discovery = 1,
	.provisional = 1, .disc_domains = dmr_domains, .ndisc_domains = N(dmr_domains), .disc_unnamed = 1,
	/* the PMON MSR range of the discovery generation (seed 001 T1-8..T1-10), as GNR's */
	.pmon_msr_lo = 0x2000, .pmon_msr_hi = 0x3fff, .ro_msrs = dmr_ro_msrs, .perf_aliases = dmr_aliases,
	.fixup = dmr_fixup,
	.perfmon_filters = uc_events_dmr_filters, .perfmon_folds = uc_events_dmr_folds,
	.caveat = "provisional: Intel has published no Diamond Rapids event file; the catalog is what Linux 7.0's driver "
		  "names (the iMC's fixed DCLK counter), other events by raw spec (unit/event=..,umask=../); no memory "
		  "bandwidth metric: no public source gives the iMC's CAS encoding",
	.energy = &dmr_energy,
};
