/*
 * The Sapphire Rapids family (4th Gen Xeon Scalable SPR, 5th Gen EMR): Linux drives both with
 * spr_uncore_init (uncore_snbep.c spr_uncores[]) and the register layout is the same, so the box
 * types, control layouts, filters, free-running counters and discovery quirks live here once; each
 * platform's folder holds only its descriptor (platforms/{spr,emr}/platform.c).  Register facts are
 * from the EMR guide, seed 001 (Intel 817509-001), and the Linux driver -- see
 * ../shared/notes/emr.md sections 3-7 for every source.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "discover/discover.h"
#include "discover/spr_family.h"
#include "platform/xeon_disc.h"
#include "util/error.h"

#define N(a) UC_ARRAY_LEN(a)


/* The unit control, the control layouts, the DISC/step macros and the CHA, PCU and IIO filters are the discovery
 * generation's (platform/xeon_disc.c), which GNR, SRF and CWF share too. */

/* M2M match registers (T2-231..T2-234), 32-bit, at 0x490..0x4A0 = unit control 0x438 + 0x58... */
static const struct filter_reg m2m_filt[] = {
	{ "M2Mn_PCI_PMON_ADDRMATCH0", 0x58, 0, 32 }, { "M2Mn_PCI_PMON_ADDRMATCH1", 0x5c, 0, 32 },
	{ "M2Mn_PCI_PMON_ADDRMASK0", 0x60, 0, 32 },  { "M2Mn_PCI_PMON_ADDRMASK1", 0x64, 0, 32 },
	{ "M2Mn_PCI_PMON_OPCODE_MM", 0x68, 0, 32 },
};
static const struct filter_field m2m_fields[] = {
	{ "addr_lo", 0, 0, 32, "physical address bits 31:0 to match" },
	{ "addr_hi", 1, 0, 14, "physical address bits 45:32 to match" },
	{ "mask_lo", 2, 0, 32, "address mask bits 31:0" },
	{ "mask_hi", 3, 0, 14, "address mask bits 45:32" },
	{ "opc_mm", 4, 0, 28, "OPCODE_MM: opc 3:0, opc_mask 7:4, mc 11:8, mc_mask 15:12, mcopc 21:16, mcopc_mask 27:22" },
};

/* Free-running counters (not in discovery, L848).  IIO: T1-10/T1-11 and T2-185..187, per stack n at
 * base 0x10 * n; IMC: T2-131..133, per IMC at its MEMn base.  Their Linux umasks follow the driver's
 * spr_iio_freerunning and spr_imc_freerunning groups: 0x10 x (group + 1) + index in the group. */
static const struct freerun iio_fr[] = {
	{ "ioclk", 0x340e, 48, 0x10, 0, NULL },
	{ "bw_in_port0", 0x3800, 48, 0x20, 0, NULL }, { "bw_in_port1", 0x3801, 48, 0x21, 0, NULL }, { "bw_in_port2", 0x3802, 48, 0x22, 0, NULL },
	{ "bw_in_port3", 0x3803, 48, 0x23, 0, NULL }, { "bw_in_port4", 0x3804, 48, 0x24, 0, NULL }, { "bw_in_port5", 0x3805, 48, 0x25, 0, NULL },
	{ "bw_in_port6", 0x3806, 48, 0x26, 0, NULL }, { "bw_in_port7", 0x3807, 48, 0x27, 0, NULL },
	{ "bw_out_port0", 0x3808, 48, 0x30, 0, NULL }, { "bw_out_port1", 0x3809, 48, 0x31, 0, NULL }, { "bw_out_port2", 0x380a, 48, 0x32, 0, NULL },
	{ "bw_out_port3", 0x380b, 48, 0x33, 0, NULL }, { "bw_out_port4", 0x380c, 48, 0x34, 0, NULL }, { "bw_out_port5", 0x380d, 48, 0x35, 0, NULL },
	{ "bw_out_port6", 0x380e, 48, 0x36, 0, NULL }, { "bw_out_port7", 0x380f, 48, 0x37, 0, NULL },
};
static const struct freerun imc_fr[] = {
	{ "dclk", 0x22b0, 48, 0x10, 0, NULL }, { "rpq_cycles", 0x2318, 48, 0x20, 0, NULL }, { "wpq_cycles", 0x2320, 48, 0x21, 0, NULL },
};

static const struct box_type cha = {
	.name = "cha", .perf = "cha", .desc = "caching and home agent with its LLC slice and mesh stop (CHA)", .prefix = "UNC_CHA", .perfmon = "CHA", .nctr = 4,
	XD_DISC(0), XD_MSR_STEP, .max_boxes = 64, .lay = &xd_lay_cha,
	XD_CHA_FILTERS,
};
static const struct box_type iio = {
	.name = "iio", .perf = "iio", .desc = "integrated I/O stack (IIO)", .prefix = "UNC_IIO", .perfmon = "IIO", .nctr = 4,
	XD_DISC(1), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_iio,
	XD_IIO_FIELDS, .fr = iio_fr, .nfr = N(iio_fr),
};
static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "I/O coherency ring port of an IIO stack (IRP)", .prefix = "UNC_I", .perfmon = "IRP", .nctr = 2,
	XD_DISC(2), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_ext24,
};
static const struct box_type m2pcie = {
	.name = "m2pcie", .perf = "m2pcie", .desc = "mesh to IIO interface (M2PCIe)", .prefix = "UNC_M2P", .perfmon = "M2PCIe", .nctr = 4,
	XD_DISC(3), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_ext24,
};
static const struct box_type pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU", .nctr = 4,
	XD_DISC(4), XD_MSR_STEP, .max_boxes = 1, .lay = &xd_lay_base,
	XD_PCU_FILTERS,
};
/* UBox: discovery type 5 is not named by Linux; PCM places the UBox PMON at 0x2FD0 with two counters and
 * the UCLK fixed counter at 0x2FDE/0x2FDF (T1-8), enable bit 22 (PCM UCLK_FIXED_CTL_EN). [unverified] */
static const struct box_type ubox = {
	.name = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX", .nctr = 2,
	XD_DISC(5), XD_MSR_STEP, .max_boxes = 1, .lay = &xd_lay_ext24,
	.has_fixed = 1, .fixed_ctl = 0xe, .fixed_ctr = 0xf, .fixed_width = 48, .fixed_en = 1u << 22,
};
/* IMC channel, MMIO: controls 4 bytes apart, counters 8 (T1-12 / notes 3.5); fixed DCLK counter at
 * +0x38, its control at +0x54 with en 22 and rst 19 (T2-129; offsets from Linux SNR_IMC_MMIO_PMON_FIXED_*). */
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC", .nctr = 4,
	XD_DISC(6), .space = UC_MMIO, .ctl_stride = 4, .ctr_stride = 8, .ctl_bytes = 4, .max_boxes = 16,
	.lay = &xd_lay_base,
	.has_fixed = 1, .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48, .fixed_en = 1u << 22,
	.fixed_rst = 1u << 19, .fr = imc_fr, .nfr = N(imc_fr),
};
static const struct box_type m2m = {
	.name = "m2m", .perf = "m2m", .desc = "mesh to memory controller agent (M2M)", .prefix = "UNC_M2M", .perfmon = "M2M", .nctr = 4,
	XD_DISC(7), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 4, .lay = &xd_lay_ext24,
	.filt_regs = m2m_filt, .nfilt_regs = N(m2m_filt), .fields = m2m_fields, .nfields = N(m2m_fields),
};
static const struct box_type upi = {
	.name = "upi", .perf = "upi", .desc = "UPI link layer (UPI LL)", .prefix = "UNC_UPI", .perfmon = "UPI LL|UPI", .nctr = 4,
	XD_DISC(8), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 4, .lay = &xd_lay_ext24,
};
static const struct box_type m3upi = {
	.name = "m3upi", .perf = "m3upi", .desc = "mesh to UPI interface (M3UPI)", .prefix = "UNC_M3UPI", .perfmon = "M3UPI", .nctr = 4,
	XD_DISC(9), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 4, .lay = &xd_lay_ext24,
};
static const struct box_type mdf = {
	.name = "mdf", .perf = "mdf", .desc = "multi-die fabric stop (MDF)", .prefix = "UNC_MDF", .perfmon = "MDF", .nctr = 4,
	XD_DISC(11), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_ext24,
};
/* CXL: MMIO through discovery only (L14319-14329); 8 byte register step as PCM uses for non-IMC MMIO.
 * Not sampled: CXL CM unit 1 sends no overflow message and is not frozen (L14329). */
static const struct box_type cxlcm = {
	.name = "cxlcm", .perf = "cxlcm", .desc = "CXL cache/mem protocol stack (CXL CM)", .prefix = "UNC_CXLCM", .perfmon = "CXLCM", .nctr = 8,
	XD_DISC(12), .space = UC_MMIO, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .max_boxes = 8,
	.lay = &xd_lay_cxl,
};
static const struct box_type cxldp = {
	.name = "cxldp", .perf = "cxldp", .desc = "CXL data path (CXL DP)", .prefix = "UNC_CXLDP", .perfmon = "CXLDP", .nctr = 4,
	XD_DISC(13), .space = UC_MMIO, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .max_boxes = 8,
	.lay = &xd_lay_cxl,
};

/* HBM channel of Xeon Max (SPR with HBM): discovery type 14, which Linux 6.12 names hbm (spr_uncores[14],
 * spr_uncore_hbm: SPR_UNCORE_COMMON_FORMAT, the generic MMIO ops, everything else from the table; Linux
 * f8a86a9bb5f7).  Its events are Intel's MCHBM unit (sapphirerapids_uncore{,_experimental}.json: CAS_COUNT
 * 0x05, RPQ/WPQ as the iMC's); its controls 4 bytes apart and counters 8 apart as any MMIO unit of the
 * generic ops (uncore_discovery.c intel_generic_uncore_mmio_*).  Up to 32 a socket: 16 HBM controllers x
 * 2 channels (PCM's HBM map, src/types.h; likwid's SPR map has 32 HBM units).  Linux gives it no fixed
 * counter, so neither does this type (likwid places one at +0x54/+0x38 as the iMC's [unverified]). */
static const struct box_type hbm = {
	.name = "hbm", .perf = "hbm", .desc = "HBM memory controller channel of Xeon Max (MCHBM)", .prefix = "UNC_MCHBM",
	.perfmon = "MCHBM", .nctr = 4, XD_DISC(14), .space = UC_MMIO, .ctl_stride = 4, .ctr_stride = 8, .ctl_bytes = 4,
	.max_boxes = 32, .lay = &xd_lay_ext24, .some_parts = 1,
};

/* ---- quirks (notes 6) ---- */

/* Quirk 1: UPI and M3UPI discovery entries are broken on some parts (Linux 65248a9a); use their PCI
 * functions instead: UPI link k at D(1+k):F1 0x3241, M3UPI link k at D(5+k):F1 0x3246 (T1-12). */
static const struct { const struct box_type *t; uint16_t device; int dev0; uint32_t box_ctl, ctl0, ctr0, status; }
	spr_pci_units[] = {
		{ &upi, 0x3241, 1, 0x318, 0x350, 0x320, 0x38c },
		{ &m3upi, 0x3246, 5, 0xa0, 0xd8, 0xa8, 0xf8 },
	};

/* The IMC config device B:D0:F1 (section 1.10.3): MMIO base at 0xD0 (bits 28:0 = address 51:23), MEMn at
 * 0xD8 + 4n (bits 10:0 = address 22:12); channel k at MEMn + 0x22800 + 0x8000 k. */
static const struct mmio_place spr_imc_place = { .devid = 0x3251, .base_off = 0xd0, .mem_off = 0xd8, .mem_step = 4,
						 .base_mask = 0x1fffffff, .mem_mask = 0x7ff, .base_shift = 23,
						 .mem_shift = 12, .nctrl = 4 /* base[] in imc_bases */, .nchan = 2, .box_off = 0x22800,
						 .chan_step = 0x8000 };

static int type_index(const struct platform_desc *p, const struct box_type *t)
{
	for (int i = 0; i < p->ntypes; i++)
		if (p->types[i] == t)
			return i;
	return -1;
}

static int add_pci_units(struct disc_ctx *c)
{
	const struct platform_desc *p = c->u->plat;
	for (int i = 0; i < c->ndev; i++) {
		const struct pci_devinfo *d = &c->devs[i];
		for (int k = 0; k < N(spr_pci_units); k++) {
			struct box b = { 0 };
			int link = d->loc.dev - spr_pci_units[k].dev0;
			if (d->vendor != UC_PCI_VENDOR_INTEL || d->device != spr_pci_units[k].device || d->loc.fn != 1 || link < 0 ||
			    link > 3 || d->loc.dom != 0)
				continue;
			b.socket = c->mapped > 0 ? c->map.socket[d->loc.bus] : -1;
			if (b.socket < 0 || b.socket >= c->u->host.nsockets) {
				if (b.socket != BUS_OFFLINE) /* an offline die's: said once, by pci_map_buses */
					uc_warn("%s link %d at %02x:%02x.%d: no UBox maps its bus to a socket; skipped",
					spr_pci_units[k].t->name, link, d->loc.bus, d->loc.dev, d->loc.fn);
				continue;
			}
			b.die = c->map.die[d->loc.bus];
			b.t = spr_pci_units[k].t;
			b.type_idx = type_index(p, b.t);
			b.idx = b.unit_id = link;
			b.gsp = -1;
			b.cpu = -1;
			b.pci = d->loc;
			b.r = (struct box_regs){ .box_ctl = spr_pci_units[k].box_ctl, .rel = spr_pci_units[k].box_ctl,
						 .ctl0 = spr_pci_units[k].ctl0, .ctr0 = spr_pci_units[k].ctr0,
						 .status = spr_pci_units[k].status, .ctl_stride = 8, .ctr_stride = 8,
						 .nctr = 4, .width = 48 };
			if (box_list_add(c, &b))
				return -1;
		}
	}
	return 0;
}

static void drop_box(struct disc_ctx *c, int i)
{
	memmove(&c->v[i], &c->v[i + 1], (size_t)(c->n - i - 1) * sizeof(*c->v));
	c->n--;
}

/* Quirk 2: the CHA count.  MSR 0x2FFE when it reads non-zero (SPR firmware bug, Linux 38776cc4),
 * else the discovery table (EMR XCC returns 0, Linux 6f7f984f). */
static void cha_count(struct disc_ctx *c)
{
	struct access *a = c->u->acc;
	const struct host_info *h = &c->u->host;
	for (int s = 0; s < h->nsockets; s++)
		for (int die = 0; die < h->socket_dies[s]; die++) { /* each die's own MSR */
			uint64_t v = 0;
			if (a->ops->msr_read(a, host_die_cpu(h, s, die), SPR_MSR_UNC_CBO_CONFIG, &v))
				continue; /* not readable: keep what discovery says */
			v &= 0x7f;
			for (int i = c->n - 1; v && i >= 0; i--)
				if (c->v[i].t == &cha && c->v[i].socket == s && c->v[i].die == die &&
				    (uint64_t)c->v[i].unit_id >= v)
					drop_box(c, i);
		}
}

/* Quirk 3: the IMC free-running counters are not in the discovery table: their base is the IMC's MEMn
 * address from the config registers of 0x3251 (section 1.10.3; the seed's code shifts a u32 by 23 --
 * widened here).  The table stays the hardware's word for the channels: where the config registers
 * place a channel elsewhere, the box keeps the table's address and its IMC gets no free-running
 * counters, since nothing says which of the two is right. */
static int imc_bases(struct disc_ctx *c)
{
	const struct mmio_place *m = &spr_imc_place;
	for (int i = 0; i < c->ndev; i++) {
		const struct pci_devinfo *d = &c->devs[i];
		int s, die;
		if (d->vendor != UC_PCI_VENDOR_INTEL || d->device != m->devid || d->loc.dom != 0 || c->mapped <= 0)
			continue;
		s = c->map.socket[d->loc.bus];
		die = c->map.die[d->loc.bus];
		if (s < 0)
			continue;
		uint64_t base[4]; /* each controller's, read once for its first channel */
		int have[4] = { 0 };
		for (int k = 0; k < c->n; k++) {
			struct box *b = &c->v[k];
			int imcn = b->unit_id / m->nchan, ch = b->unit_id % m->nchan;
			uint64_t memn, want;
			if (b->t != &imc || b->socket != s || b->die != die || imcn >= m->nctrl)
				continue;
			if (!have[imcn]++ && mmio_place_base(c->u->acc, m, &d->loc, imcn, &base[imcn]))
				return uc_err_prefix("the IMC %d base of socket %d: ", imcn, s);
			memn = base[imcn];
			want = memn + m->box_off + (uint64_t)m->chan_step * (uint64_t)ch;
			if (want != b->r.box_ctl) {
				uc_warn("discovery table of socket %d: imc unit %d is at 0x%llx, but the IMC config "
					"registers place it at 0x%llx; keeping the table's address%s", s, b->unit_id,
					(unsigned long long)b->r.box_ctl, (unsigned long long)want,
					ch ? "" : ", without the IMC's free-running counters");
				continue;
			}
			if (ch == 0) {
				b->fr_base = memn;
				b->nfr = N(imc_fr);
			}
		}
	}
	return 0;
}

int spr_family_fixup(struct disc_ctx *c)
{
	if (add_pci_units(c))
		return -1;
	cha_count(c);
	if (imc_bases(c))
		return -1;
	for (int k = 0; k < c->n; k++) { /* IIO stack n: free-running counters at base 0x10 * n (T1-10) */
		struct box *b = &c->v[k];
		if (b->t == &iio && b->r.box_ctl >= 0x3000 && b->r.box_ctl <= 0x30f0 && !(b->r.box_ctl & 0xf)) {
			b->fr_base = b->r.box_ctl - 0x3000;
			b->nfr = N(iio_fr);
		}
	}
	return 0;
}

const struct box_type *const spr_family_types[SPR_FAMILY_NTYPES] = { &cha, &iio, &irp, &m2pcie, &pcu, &ubox, &imc,
									  &m2m, &upi, &m3upi, &mdf, &cxlcm, &cxldp, &hbm };
const int spr_family_ignore[] = { 8, 9, -1 }; /* Linux spr_uncore_units_ignore: UPI, M3UPI */

/* The uncore's own functions a real two-socket board lists (HPE ProLiant DL380 Gen11, linuxhw/LsPCI commit
 * c0a4a3a6b6c16310c33dc428ada641fd8d369f6f, Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/
 * 6.8.4-3-PVE/X86_64/47A35ED32C): on every stack's root bus Memory Map/VT-d 09a2 (00.0), Mesh 2 PCIe 09a4
 * (00.1), RAS 09a3 (00.2) and the root complex event collector 0b23 (00.4); on the accelerator stack (75)
 * the MSM 09a6 and PMON MSM 09a7 (03.0, 03.1); on the UBox buses (7e/7f, fe/ff) the UBox 3250 and the rest
 * of 3240-325f (3251 iMC config, 324c/324d the CHAs' and mesh functions, 3258-325f the PCU at 1e.0-7, PCU
 * CR3 325b at 1e.3), 344f and 3457 at 1d.0-1, the integrated error handler 0998 (00.3, a host bridge
 * by class) and 2880 at 1a.0-1d.0 (class 0x1101, one a memory controller: tests/snapshots/field/
 * spr-dl380g11-mcc.source).  The DSA 0b25 on the accelerator stack is not among them: it moves data. */
const struct pci_id_range spr_family_own_fns[] = { { 0x0998, 0x0998 }, { 0x09a2, 0x09a4 }, { 0x09a6, 0x09a7 },
						    { 0x0b23, 0x0b23 }, { 0x2880, 0x2880 }, { 0x3240, 0x325f },
						    { 0x344f, 0x344f }, { 0x3457, 0x3457 }, { 0, 0 } };

/* The driver's aliases (Linux 6.12 uncore_snbep.c, spr_uncores): spr_uncore_imc_events (a CAS
 * moves 64 bytes: 64 / 2^20 MiB), snr_uncore_iio_freerunning_events (a count is 32 bytes: 32 / 2^20 MiB)
 * and spr_uncore_imc_freerunning_events. */
const struct perf_alias spr_family_aliases[] = {
	{ "imc", "clockticks", "event=0x01,umask=0x00", 0, NULL },
	{ "imc", "cas_count_read", "event=0x05,umask=0xcf", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_write", "event=0x05,umask=0xf0", 6.103515625e-5, "MiB" },
	SNR_IIO_FREERUNNING_ALIASES,
	{ "imc_free_running", "dclk", "event=0xff,umask=0x10", 0, NULL },
	{ "imc_free_running", "rpq_cycles", "event=0xff,umask=0x20", 0, NULL },
	{ "imc_free_running", "wpq_cycles", "event=0xff,umask=0x21", 0, NULL },
	{ 0 },
};
/* The CHA's tid_en (format tid_en2, config:16) comes with filter_tid (our tid sets it). */
const struct perf_term spr_family_terms[] = { { "cha", "tid_en", NULL, 0, 0 }, { 0 } };

const uint32_t spr_family_ro_msrs[] = { SPR_MSR_UNC_CBO_CONFIG, 0 }; /* read by spr_family_fixup */
