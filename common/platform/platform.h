/*
 * Platforms and box types as data.  A box type describes where a box's
 * registers live and how its control word is laid out; code exists only
 * where hardware deviates.
 */
#ifndef UNCORE_PLATFORM_H
#define UNCORE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include "access/access.h"
#include "ctl_layout.h"
#include "perfmon_filter.h"
#include "platform_facts.h"
#include "util/uc_defs.h"

enum uc_space { UC_MSR, UC_PCI, UC_MMIO };

#define UC_MAX_FILT 8 /* filter registers per box (EMR M2M has 5) */
#define UC_MAX_CTR 12 /* general counters per box (Montecito PMD4-15) */

/* Event flags. */
#define UC_EV_FIXED 0x01   /* counted by the box's fixed counter */
#define UC_EV_FREERUN 0x02 /* a free-running counter: umask = index into box_type.fr */
#define UC_EV_SOCKET 0x04  /* socket-wide, seen alike by every box of the socket: counted on box 0 only */
/* Intel's deprecated name (perfmon "Deprecated": "1") of the event src names, its replacement, whose encoding the
 * row has: such rows end a generated table (tools/gen/gen_perfmon), and the catalog takes them as aliases, not as
 * events of its own (events/catalog.c) */
#define UC_EV_DEPRECATED 0x08

/* One event/umask pair of the catalog (generated from the platform's .evt files). */
struct uc_event {
	const char *name;    /* full Intel name */
	const char *unit;    /* box type name */
	uint8_t code, umask, ext; /* ext: the extra event-select bit (SNB-EP bit 21) */
	uint16_t ctr_mask;
	uint8_t maxinc;
	uint8_t flags;
	uint32_t umext;      /* umask extension, control bits 63:32 (EMR) */
	const char *filters; /* "state:0x1f", "opc,nid", "band0?" ("" = none) */
	const char *desc;
	const char *src;     /* where the facts come from */
};

/* A row of a generated catalog: struct uc_event with its strings as offsets into the catalog's pool, so that
 * the tables need no relocation at a program's start (their pointers were 275,000 relocations, and under
 * AddressSanitizer as many globals registered and scanned: half of what loading the library cost). */
struct uc_event_row {
	uint32_t name, unit, filters, desc, src; /* offsets into uc_catalog.pool */
	uint32_t umext;
	uint16_t ctr_mask;
	uint8_t code, umask, ext, maxinc, flags;
};
/* A generated catalog (tools/gen/gen_events, gen_perfmon): n rows, grouped by unit. */
struct uc_catalog {
	const struct uc_event_row *rows;
	const char *pool;
	int n;
};
/* Row i of c as an event (its strings in the pool, which lives as long as the program). */
void uc_catalog_event(const struct uc_catalog *c, int i, struct uc_event *out);
static inline const char *uc_catalog_name(const struct uc_catalog *c, int i) { return c->pool + c->rows[i].name; }

/* A filter/match register and the qualifier fields inside it. */
struct filter_reg {
	const char *name;
	uint32_t addr;        /* MSR: relative to the box base; PCI: config offset */
	uint8_t companion;    /* PCI: register sits on the box's companion function */
	uint8_t bits;         /* 32 or 64 */
};

#define UC_FIELD_CTL 0xff /* filter_field.reg: the field lives in the counter control word */

struct filter_field {
	const char *name;     /* qualifier name users write, "state" */
	uint8_t reg;          /* index into box_type.filt_regs, or UC_FIELD_CTL */
	uint8_t lo, width;
	const char *help;
};

/* How a style of box control freezes, resumes and resets a box (box_ctl.c): one entry per style the
 * hardware has, so that no code recognises a platform to know how to stop its boxes. */
struct box_ctl_bits;
struct box_ctl_style {
	const char *name;
	uint64_t (*frozen)(const struct box_ctl_bits *bc);  /* the value that stops counting */
	uint64_t (*running)(const struct box_ctl_bits *bc); /* the value that counts */
	uint64_t (*in_use)(const struct box_ctl_bits *bc);  /* bits that show a box counting (0: it cannot tell) */
	int status_in_ctl; /* overflow bits live in the box control itself and clear when it is written running */
};
/* SNB-EP: frz_en + frz freeze, rst_ctrl/rst_ctrs reset (seed 000 Table 2-9). */
extern const struct box_ctl_style bc_style_frz_en;
/* frz alone freezes: IVB-EP (Linux IVBEP_PMON_BOX_CTL_INT) and the discovery-era unit control (seed 001
 * Table 1-3), beside a per-socket global control. */
extern const struct box_ctl_style bc_style_frz;
/* Enable style: counting while the run bits are set (Nehalem MSR_UNCORE_PERF_GLOBAL_CTRL). */
extern const struct box_ctl_style bc_style_enable;
/* Montecito PMC0: fr (bit 0) freezes, and the overflow bits 15:4 sit beside it (308065 Table 3-8). */
extern const struct box_ctl_style bc_style_pmc0;

/* Box control bits of one platform generation. */
struct box_ctl_bits {
	const struct box_ctl_style *style;
	uint32_t rst_ctrl, rst_ctrs, frz, frz_en;
	uint64_t run; /* enable style: counting = these bits set, stopped = 0 */
};
/* SNB-EP: seed 000 Tables 2-9, 2-34, 2-60, 2-74, 2-85. */
extern const struct box_ctl_bits box_ctl_snbep;
/* Discovery-era units, seed 001 Table 1-3. */
extern const struct box_ctl_bits box_ctl_discovery;

/* A free-running counter: read-only, never frozen or reset (seed 001 section 2.3.2, 2.4.2). */
struct freerun {
	const char *name;     /* "bw_in_port0" */
	uint32_t addr;        /* relative to the box's free-running base */
	int width;
	uint8_t perf_umask;   /* the Linux free-running PMU's umask for it (event 0xff): 0x10 x (group + 1) + index */
	uint32_t box_step;    /* + the box's unit id x this (GNR: each group has its own box stride; 0: none) */
	const uint32_t *box_offs; /* + this by unit id instead, where the stacks are not evenly spaced (Linux
				   * freerunning_counters.box_offsets: Ice Lake-SP IIO); NULL: box_step */
};

struct box_type {
	const char *name;     /* "cbo" */
	const char *desc;
	const char *prefix;   /* event-name prefix, "UNC_C" */
	const char *perfmon;  /* the Unit names Intel's perfmon JSON gives its events, '|'-separated ("UPI LL|UPI") */
	/* the Linux perf PMU: uncore_<perf>[_N] ("" = the lone "uncore" of Nehalem; NULL with a discovery type:
	 * only uncore_type_<disc_type>[_N]; NULL otherwise: the kernel has none).  Free-running counters are
	 * uncore_<perf>_free_running_N. */
	const char *perf;
	enum uc_space space;
	int disc_type;        /* unit type in the discovery table; -1 = not discovered */
	const struct box_ctl_bits *bc;
	const struct ctl_layout *lay; /* the counter control word's fields */
	int ctl_bytes;        /* width of a counter control register on PCI/MMIO (4 or 8) */
	int max_boxes;
	int nctr, width;
	uint32_t box_stride;  /* MSR address distance between boxes */
	const uint32_t *box_offs; /* MSR offset of box i instead of i x box_stride, max_boxes entries (Linux
				   * msr_offsets: Ice Lake-SP CHA, IIO, IRP, M2PCIe); NULL: box_stride */
	const struct mmio_place *mmio; /* MMIO boxes placed by a PCI device's config registers (Ice Lake-SP iMC) */
	int has_box_ctl;      /* UBox has none */
	int box_ctl_resets;   /* rst_ctrs/rst_ctrl exist (not on HA, iMC) */
	uint32_t box_ctl, ctl0, ctl_stride, ctr0, ctr_stride;
	/* fixed counter */
	int has_fixed;
	uint32_t fixed_ctl, fixed_ctr;
	int fixed_width;
	uint64_t fixed_en, fixed_rst;
	/* PCI identity of box i and of its companion function (match/mask) */
	const uint16_t *pci_ids;
	const uint16_t *companion_ids;
	const struct filter_reg *filt_regs;
	int nfilt_regs;
	const struct filter_field *fields;
	int nfields;
	/* events band_ev .. band_ev + 3 count against filter fields 0-3 (the SNB-EP/IVB-EP PCU's frequency
	 * bands); one whose band another event holds with another threshold moves to a free band, as Linux's
	 * driver moves it (snbep_pcu_get_constraint).  0: none */
	uint8_t band_ev;
	const struct freerun *fr; /* free-running counters of a box */
	int nfr;
	const uint32_t *ctr_offs; /* counters not evenly spaced (IVB-EP IRP): offset of each */
	/* overflow sampling (seed 002 2.1.2-2.1.3): the box status register (W1C, bit n = counter n,
	 * from status_shift); the counter bit that reports an overflow is the layout's CR_OV_EN */
	uint32_t status;
	int status_shift;
	uint32_t status_clr; /* where status bits are cleared, writing 1s, when not the status register itself */
	/* a unit known only by its kernel PMU (perf_platform.c): its counters are unknown, so each event is a
	 * perf group of its own and the kernel places it, as perf stat opens events */
	int kernel_places;
	/* PCI boxes whose device ids repeat (Skylake-SP): box i is also at device/function pci_devfn[i]
	 * (dev << 3 | fn); NULL: the id alone names the box */
	const uint8_t *pci_devfn;
	/* how many boxes of an MSR type a socket has (NULL: max_boxes, at most one per core) */
	const struct box_count *count;
	/* an event with tid_en holds every filter field of the box, 0 unless given, as Linux's driver makes it
	 * (Skylake-SP skx_cha_hw_config: the index SKX_CHA_MSR_PMON_BOX_FILTER_TID claims all fields) */
	int tid_holds_all;
	/* What Linux's driver passes of a control word to this type's register (common/perf/perf_reach.c).  Its
	 * enable_event writes bits 31:0 alone on PCI and MMIO (pci_write_config_dword, writel: the generic
	 * discovery ops, snbep_uncore_pci_enable_event, spr_uncore_mmio_enable_event) unless perf_ctl_qword: ops
	 * that write both dwords (spr_uncore_pci_enable_event: SPR/EMR M2M, UPI, M3UPI, GNR's PCI types).
	 * perf_mask: the driver's event_mask | event_mask_ext << 32 where it keeps fewer bits than its formats
	 * name (Diamond Rapids' CXL CM: inv2 at bit 21 is outside it); 0: every bit a format names. */
	int perf_ctl_qword;
	uint64_t perf_mask;
	/* only some parts of the platform have it (Sapphire Rapids' HBM channels, Xeon Max's): a machine without
	 * its boxes is no cause to warn */
	int some_parts;
	/* its units' access is their discovery entry's, as Linux's generic ops take it for a type its table gives
	 * no .ops (Diamond Rapids' dmr_uncores[], 6daf2c35b835): the fields above are the generic MMIO layout, and
	 * where the type's first unit is listed through MSR or PCI, the type takes the generic layout of that
	 * access instead (platform_generic.c platform_entry_access) */
	int access_from_entry;
	/* the kernels that register a PMU for it, where older ones register none (GNR's UPI: "Linux 6.14, and
	 * 6.12.y after March 2026 (6d642735cdb6)"), for the perf backend's refusal on a kernel without one */
	const char *perf_since;
};

/* A socket's box count: the set bits of (a PCI config dword of device devid on the socket's buses & mask)
 * (Skylake-SP CHAs: CAPID6), with the dword at off_hi as bits 63:32 where one is given (Ice Lake-SP:
 * CAPID7); devid 0: max_boxes whatever the cores.  With limit_if_clear, a capability instead: a part whose
 * masked bits are all clear has limited boxes, any other (and a socket without the device) as many as without
 * a rule (Haswell-EP's SBoxes: CAPID4's chop, Linux hswep_has_limit_sbox).  ubox_below: the device sits on
 * the bus just above its socket's UBox, a bus the UBox map may give another socket or none (Ice Lake-SP: UBox
 * fe:00.0, PCU ff:1e.3 on a Lenovo SR630 V2; Linux icx_count_chabox takes the 345B wherever it is). */
struct box_count {
	uint16_t devid, off, off_hi;
	uint64_t mask;
	uint8_t limit_if_clear, limited, ubox_below;
};

/* MMIO boxes whose window a PCI device of each socket gives (Linux snr_uncore_mmio_map: Ice Lake-SP, and
 * the Sapphire Rapids family's free-running IMC counters): controller c's base is (config dword base_off &
 * base_mask) << base_shift | (config dword mem_off + mem_step x c & mem_mask) << mem_shift, and its channel
 * k's box control that base + box_off + chan_step x k; box c x nchan + k.  The controller's free-running
 * counters are at its base and go with its channel 0. */
struct mmio_place {
	uint16_t devid;
	uint16_t base_off, mem_off, mem_step;
	uint32_t base_mask, mem_mask;
	uint8_t base_shift, mem_shift;
	int nctrl, nchan;
	uint32_t box_off, chan_step;
};


/* One event alias of the Linux driver (sysfs events/<name>, its .scale and .unit), for perf's spelling
 * PMU/alias/ where the kernel's own list cannot be read (the simulator, the direct backend). */
struct perf_alias {
	const char *pmu;   /* the PMU's name without "uncore_" and box number: "imc", "iio_free_running" ("" Nehalem) */
	const char *name;  /* "cas_count_read" */
	const char *terms; /* "event=0x04,umask=0x03" */
	double scale;      /* .scale (0: none, 1) */
	const char *unit;  /* .unit (NULL: none) */
};

/* snr_uncore_iio_freerunning_events, which Ice Lake-SP, SPR/EMR and GNR share: the IIO free-running
 * clock and the inbound bandwidth of ports 0-7 (a count is 32 bytes: 32 / 2^20 MiB). */
#define IIO_BW_IN_ALIAS(n) { "iio_free_running", "bw_in_port" #n, "event=0xff,umask=0x2" #n, 3.0517578125e-5, "MiB" }
#define SNR_IIO_FREERUNNING_ALIASES                                                                  \
	{ "iio_free_running", "ioclk", "event=0xff,umask=0x10", 0, NULL }, IIO_BW_IN_ALIAS(0), IIO_BW_IN_ALIAS(1), \
	IIO_BW_IN_ALIAS(2), IIO_BW_IN_ALIAS(3), IIO_BW_IN_ALIAS(4), IIO_BW_IN_ALIAS(5), IIO_BW_IN_ALIAS(6),         \
	IIO_BW_IN_ALIAS(7)

/* One of the driver's format names (PMU format/<perf>) that is not our qualifier of the same name or
 * filter_<ours>: its value goes into our qualifier ours at bit lo (width bits; width 0: the whole value,
 * ours NULL: accepted, implied by another term).  perf "config1": a slice of the raw config1 word, bits
 * lo .. lo + width - 1 being our field ours, as the driver cuts config1 into its filter registers. */
struct perf_term {
	const char *unit;  /* our unit name, NULL: every unit */
	const char *perf, *ours;
	uint8_t lo, width;
};

#define UC_MAX_GLOB_STATUS 2 /* global status MSRs per socket (EMR 0x2FF2-0x2FF3: 128 positions) */

struct disc_ctx;
/* A PMON discovery domain (Linux 7.0 struct uncore_discovery_domain, commit e75462f6c7ea): where a group of
 * discovery tables is found.  A platform without any has one, PCI, any device with the DVSEC (device 0x09A7
 * first where there is one), as Linux 6.12 and SPR to CWF. */
struct disc_domain {
	const char *name;   /* for messages ("imh", "cbb") */
	int msr;            /* 1: base is an MSR holding the physical address of a table, read once on each die
			     * (Linux uncore_discovery_msr); 0: base is the PCI device id of the table devices */
	uint32_t base;      /* PCI: DISC_ANY_DEVICE = any Intel device with the DVSEC */
	const int *ignore;  /* discovery types of this domain's tables left out (-1 ends; NULL: none) */
	/* the global control of its tables (their global block's address, MMIO) may be frozen at power-on (Linux
	 * 7.0 domain global_init, b575fc0e3357): a frozen one is cleared while this library counts and set again
	 * when it lets go (discover_global.c) */
	int unfreeze;
};
#define DISC_ANY_DEVICE 0xffffu
#define UC_MAX_DISC_DOMAINS 4
#define UC_MAX_DISC_GCTL 32 /* global controls a handle may unfreeze: a table each (discover_global.c) */
/* An inclusive range of Intel PCI device ids; {0, 0} ends a list */
struct pci_id_range {
	uint16_t lo, hi;
};

struct platform_desc {
	const char *name, *desc;
	int family;
	const int *models;          /* 0-terminated */
	const struct box_type *const *types;
	int ntypes;
	uint16_t ubox_devid;        /* UBox PCI device used for bus -> socket */
	uint32_t cpunodeid, gidnidmap;
	/* a bus without a UBox belongs to the socket of the next lower bus with one (Skylake-SP); 0: of the
	 * next higher one (the others) */
	int busmap_forward;
	const struct uc_catalog *events; /* catalog, grouped by unit (NULL: none) */
	/* what a Filter of Intel's JSON means here: the filter rows of the unit map the catalog was generated
	 * with (tools/gen/gen_perfmon), for the JSON a user loads; NULL: none, and an event with a Filter is skipped */
	const struct uc_perfmon_filter *perfmon_filters;
	const struct uc_perfmon_fold *perfmon_folds; /* and where its PortMask and FCMask go; NULL: T2-184's */
	/* platforms that publish discovery tables */
	int discovery;
	int ecore_only; /* a Xeon of E-cores only (SRF, CWF): the generic platform never borrows its events */
	uint32_t pmon_msr_lo, pmon_msr_hi;  /* the PMON MSR range entries must fall in */
	const int *disc_ignore;             /* discovery types never trusted (-1 ends) */
	const struct disc_domain *disc_domains; /* where the tables are (NULL: one PCI domain, as above) */
	int ndisc_domains;                  /* at most UC_MAX_DISC_DOMAINS */
	/* events from Linux's aliases alone, no perfmon JSON yet (DMR): the generic platform never borrows them */
	int provisional;
	/* discovery types the platform does not name become generic types "type<N>" (raw specs, the generic
	 * control format; perf: uncore_type_<N>[_<box>]), as Linux's uncore_get_uncores keeps every discovered
	 * type and names those without an entry in the model's table so (uncore.c uncore_get_alias_name);
	 * 0: such units are left out with a warning */
	int disc_unnamed;
	const char *metrics_json;   /* platforms/<p>/metrics.json, embedded; NULL: none */
	/* platform quirks applied after discovery (NULL: none) */
	int (*fixup)(struct disc_ctx *c);
	/* per-socket global control and overflow status MSRs (IVB-EP, EMR UBox), 0: none.  The status
	 * spans glob_status_regs consecutive MSRs (0 = 1); with no unfreeze command (EMR), clearing
	 * frz_all resumes. */
	uint32_t glob_ctl, glob_status;
	int glob_status_regs; /* at most UC_MAX_GLOB_STATUS */
	uint64_t glob_frz_all, glob_unfrz_all;
	int sim_only;      /* no hardware backend exists (IA-64): the simulator is the only one */
	const char *caveat; /* shown by 'uncore info' */
	const uint32_t *ro_msrs; /* MSRs read outside any box (0-terminated; NULL: none) */
	/* perf's spellings: the driver's event aliases and format names (both end with a NULL name; NULL: none) */
	const struct perf_alias *perf_aliases;
	const struct perf_term *perf_terms;
	/* the uncore's own register functions on the root buses (NULL: none known): read for registers, they
	 * move no data, so the PCI map puts them in no device group (common/devices/dev_map.c) */
	const struct pci_id_range *own_fns;
	/* the platform's facts beyond its boxes (platform_facts.h), each NULL or 0 where it has none */
	const struct energy_part *energy; /* its RAPL domains; NULL: none read */
	const char *no_energy;            /* why it has none, where that is known (no RAPL before Sandy Bridge) */
	const struct plat_clocks *clocks; /* the ranges its clocks run in; NULL: health's broad range */
	const struct attrib_plat *attrib; /* the count that tells a core's memory reads apart; NULL: none */
	const struct snc_geom *snc;       /* its SNC modes' channel-to-domain tables (ends with snc 0); NULL: none */
	double iio_fr_bytes;              /* bytes a count of the IIO free-running port bandwidth counters; 0: none */
	int ufreq_msr;                    /* its uncore clock limits are in MSR 0x620 (UFREQ_MSR_LIMIT) */
	const struct iio_layout *iio;     /* its IIO stacks' ports and root-bus registers; NULL: no table */
	const struct mem_layout *mem;     /* its memory controllers as EDAC names them; NULL: not known */
};

/* Where a box's registers are: resolved at discovery, so that sessions never
 * care whether the addresses came from a platform table or a discovery entry. */
struct box_regs {
	uint64_t box_ctl;           /* MSR number, PCI config offset or MMIO physical address */
	uint64_t rel;               /* base of type-relative addresses (filters, fixed counter) */
	uint64_t ctl0, ctr0, status;
	uint32_t ctl_stride, ctr_stride;
	int nctr, width;
};

/* One box found on the machine. */
struct box {
	const struct box_type *t;
	int type_idx;
	int socket, idx;
	int die;                    /* its logical die in the socket (0 where the socket has one); idx counts
				     * on over a socket's dies (discover_pci.c box_list_finish) */
	int cpu;                    /* MSR boxes: a CPU of the socket (of its die) */
	struct box_regs r;
	struct pci_loc pci, comp;   /* PCI boxes: the box and its companion */
	int has_comp;
	int unit_id, gsp;           /* discovery: unit id, global status position (-1 none) */
	uint64_t fr_base;           /* base of the free-running counters */
	int nfr;                    /* free-running counters this box has (0: none) */
	int pmu, fr_pmu;            /* perf backend: its kernel PMU and free-running PMU (perf_pmus.h; -1: none) */
	const char *one_ctr;        /* perf backend: why only counter 0 of the box counts right (r.nctr is 1) */
};

const struct platform_desc *platform_by_name(const char *name);
/* A CPU's platform: as Intel's perfmon mapfile says (a row, then its directory's platform if built in),
 * else by platform_desc.family/models for CPUs the mapfile does not list (Montecito). */
const struct platform_desc *platform_by_cpu(int family, int model, int stepping);
/* An Intel CPU's IIO layout: its platform's, where the layout lists the model; else NULL */
const struct iio_layout *platform_iio_layout(const char *vendor, int family, int model, int stepping);

/* A row of Intel's perfmon mapfile, eventtables/mapfile.csv (tools/gen/gen_perfmon --mapfile): one per CPU id
 * and perfmon directory, naming the uncore file (else the first file) and our platform ("" none). */
struct uc_mapfile_row {
	int family, model;
	unsigned steppings; /* bit s: stepping s */
	const char *dir, *file, *version, *platform;
};
extern const struct uc_mapfile_row uc_mapfile[];
extern const int uc_mapfile_n;
const struct uc_mapfile_row *mapfile_row(int family, int model, int stepping);
/* "cpu GenuineIntel-6-CF-2: mapfile row EMR (emeraldrapids_uncore.json V1.24): platform emr" */
void platform_cpu_match(const char *vendor, int family, int model, int stepping, char *buf, size_t len);

/* The events of a perfmon directory whose platform is not built in, perfmon's Unit names kept, for the
 * generic platform (tools/gen/gen_perfmon --generic): on discovery types where the directory's CPUs publish
 * discovery tables, on the kernel's PMUs on perf.  left: events left out, their Filter not understood;
 * metrics_json: the directory's perf metric file (NULL: none).  Ends with a NULL dir. */
struct uc_generic_catalog {
	const char *dir, *platform, *file, *version;
	const struct uc_catalog *events;
	int discovery, left;
	const char *metrics_json;
};
/* The catalog of the perfmon directory dir, or NULL. */
const struct uc_generic_catalog *generic_catalog(const char *dir);
extern const struct uc_generic_catalog uc_generic_catalogs[];
const struct box_type *platform_type_named(const struct platform_desc *p, const char *name);
/* How many global status MSRs the platform has (0: none). */
static inline int platform_glob_status_regs(const struct platform_desc *p)
{
	return !p->glob_status ? 0 : p->glob_status_regs ? p->glob_status_regs : 1;
}
/* Every platform with tables, NULL-terminated: generated from the platform list (Makefile.am). */
extern const struct platform_desc *const uc_platforms[];
/* "Sandy Bridge-EP (Xeon E5-2600) model 45, ...": the platforms a CPU may be, for messages. */
void platform_supported(char *buf, size_t len);


/* The box control value that freezes a box and resets its counters. */
uint64_t box_ctl_reset(const struct box_ctl_bits *bc);

/* Register addresses of a box. */
static inline uint64_t box_fr_addr(const struct box *b, int k)
{
	const struct freerun *f = &b->t->fr[k];
	return b->fr_base + f->addr + (f->box_offs ? f->box_offs[b->unit_id] : (uint64_t)b->unit_id * f->box_step);
}
uint64_t box_ctl_addr(const struct box *b, int ctr);
uint64_t box_ctr_addr(const struct box *b, int ctr);
uint64_t regs_ctr_addr(const struct box_type *t, const struct box_regs *r, int ctr);
/* A control word: event code and umask placed as the box type lays them out. */
uint64_t ctl_event(const struct box_type *t, unsigned code, unsigned umask);
/* Every bit a counter control word of the type may carry: its layout and the qualifier fields
 * that live in the control word (IIO ch_mask). */
uint64_t box_ctl_valid(const struct box_type *t);
int box_ctl_bytes(const struct box_type *t); /* a counter control register's size */
/* Registers of box idx of a type whose addresses are fixed by the platform tables. */
void box_regs_static(const struct box_type *t, int idx, struct box_regs *r);
/* Number boxes sorted by type, socket, die and unit id: idx = unit id + die * (the largest unit id of the
 * type on the socket + 1), so a socket's boxes of a type have distinct numbers over its dies. */
void box_number_dies(struct box *v, int n);

/* Discovery: fill the list of boxes for a platform. */
int boxes_discover(struct access *a, const struct host_info *h, const struct platform_desc *p,
		   struct box **out, int *n);

/* Platform p's generated catalog and metrics (platforms/<p>/ .evt files and metrics.json -> events_gen.c,
 * metrics_gen.c), declared by the platform's descriptor file. */
#define UC_PLATFORM_TABLES(p)                                                                                  \
	extern const struct uc_catalog uc_events_##p;                                                          \
	extern const struct uc_perfmon_filter uc_events_##p##_filters[]; /* catalogs from Intel's JSON only */  \
	extern const struct uc_perfmon_fold uc_events_##p##_folds[];                                            \
	extern const char uc_metrics_##p[]
const struct uc_event *catalog_unit_slice(const struct uc_event *all, int n, const char *unit, int *cnt);

#endif
