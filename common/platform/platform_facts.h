/*
 * A platform's facts beyond its boxes, as data of its descriptor (struct platform_desc, platform.h): its RAPL
 * energy domains and units, the clocks its boxes run at, the count that tells a core's memory reads apart, its
 * sub-NUMA clustering geometry, the MSRs read outside the boxes.  Each platform's folder gives its own
 * (platforms/<p>/platform.c); common/ reads them through the descriptor and never by the platform's name.
 */
#ifndef UNCORE_PLATFORM_FACTS_H
#define UNCORE_PLATFORM_FACTS_H

#include <stdint.h>
#include "uncore.h" /* UNCORE_ENERGY_PKG, _DRAM, _PSYS */

/* ---- energy: which RAPL domains a part has, their fixed units, the power no domain exceeds ----
 *
 * Domains and units as Linux 6.12 reads them: arch/x86/events/rapl.c rapl_model_match and
 * drivers/powercap/intel_rapl_common.c rapl_ids (each platform's row cites its entry).  The fixed DRAM unit of
 * the Haswell-EP generation's servers is "15.3 uJ" in the Haswell-EP datasheet (330784-001 vol. 2,
 * DRAM_ENERGY_STATUS): 2^-16 J (15.2588 uJ) rounded, which rapl.c's quirk takes (RAPL_UNIT_QUIRK_INTEL_HSW:
 * rapl_hw_unit[PERF_RAPL_RAM] = 16) and so does the library; powercap multiplies by 15300 nJ
 * (rapl_defaults_hsw_server dram_domain_energy_unit), 0.27 % more, which energy_powercap.c takes back.  PCM and
 * likwid take 15.3 uJ itself (pcm cpucounters.h getDRAMConsumedJoules 0.0000153 on HSX, BDX, SKX, ICX; likwid
 * power.c 15.3E-6): their DRAM joules are 0.27 % above the library's (doc/energy.md).  Intel PCM reads MSR 0x64D
 * (MSR_SYS_ENERGY_STATUS) on SKX, ICX, SPR, EMR, GNR and SRF (systemEnergyMetricAvailable), on a CPU of socket 0
 * alone, at 1 J on SPR, EMR, GNR and SRF and at MSR_RAPL_POWER_UNIT's unit elsewhere (getSystemConsumedJoules;
 * intel/pcm 0fae0de1): SKX and ICX list no psys (no Linux table reads it there and PCM's unit is the package's).
 *
 * max_w bounds the wrap time: twice the highest TDP of the family (Intel ARK, in each row), above any PL2 (which
 * Intel sets at 1.2 x TDP on servers), and a bound for DRAM too, which draws less than its package.
 */
#define PLAT_RAPL_PKG_DRAM ((1u << UNCORE_ENERGY_PKG) | (1u << UNCORE_ENERGY_DRAM))
#define PLAT_RAPL_PKG_DRAM_PSYS (PLAT_RAPL_PKG_DRAM | (1u << UNCORE_ENERGY_PSYS))
/* J: the datasheet's 15.3 uJ, 2^-16 J as rapl.c RAPL_UNIT_QUIRK_INTEL_HSW (PCM and likwid: 15.3e-6 J, 0.27 % more) */
#define PLAT_RAPL_DRAM_15_3 (1.0 / 65536)

/* who reads a part's RAPL MSRs: none (the kernel's interfaces only), Linux on a CPU of each die (rapl.c
 * get_rapl_pmu_idx), PCM on a CPU of each socket */
enum { ENERGY_MSR_NONE, ENERGY_MSR_DIE, ENERGY_MSR_SOCKET };

struct energy_part {
	unsigned domains;      /* bit UNCORE_ENERGY_x: the domains Linux reads on it */
	double dram_unit_j;    /* the DRAM domain's fixed energy unit in J; 0: MSR_RAPL_POWER_UNIT's */
	double psys_unit_j;    /* the psys domain's fixed unit in J where a public source reads MSR 0x64D (SPR, EMR:
				* Linux rapl.c; GNR, SRF: PCM); 0: the MSR source reads no psys */
	int msr;               /* ENERGY_MSR_x: who reads its RAPL MSRs */
	double max_w;          /* the power no domain of a socket exceeds, for the wrap time */
	const char *source;    /* where these facts come from */
};

/* The RAPL MSRs (Linux arch/x86/include/asm/msr-index.h; tests/reference/linux_regs.txt, rows "rapl"). */
#define MSR_RAPL_POWER_UNIT 0x606        /* msr-index.h MSR_RAPL_POWER_UNIT */
#define MSR_PKG_ENERGY_STATUS 0x611      /* msr-index.h MSR_PKG_ENERGY_STATUS */
#define MSR_DRAM_ENERGY_STATUS 0x619     /* msr-index.h MSR_DRAM_ENERGY_STATUS */
#define MSR_PLATFORM_ENERGY_STATUS 0x64d /* msr-index.h MSR_PLATFORM_ENERGY_STATUS */

/* Whether the MSR source reads domain dom of part p on die d of a socket: psys is one platform counter a
 * socket, read where a public source gives its unit.  The reader (energy_msr.c) and the allowlist
 * (write_guard.c) both ask this. */
static inline int energy_msr_reads(const struct energy_part *p, int dom, int d)
{
	return p && p->msr != ENERGY_MSR_NONE && (p->domains & (1u << dom)) &&
	       (dom != UNCORE_ENERGY_PSYS || (p->psys_unit_j && d == 0));
}

/* ---- the uncore clock's limits in MSRs ----
 * MSR_UNCORE_RATIO_LIMIT and MSR_UNCORE_PERF_STATUS (Linux 6.12 uncore-frequency.c; msr-index.h has neither),
 * read on a CPU of each die where a platform's ufreq_msr says its limits are there. */
#define UFREQ_MSR_LIMIT 0x620
#define UFREQ_MSR_STATUS 0x621

/* ---- clocks: the range each kind of clock of the platform's boxes runs in (health's clock condition) ---- */
enum { PLAT_CLK_UNCORE, PLAT_CLK_DRAM, PLAT_CLK_LINK, PLAT_CLK_RANGED };
struct clock_range {
	double lo, hi;      /* hertz: a clock below lo or above hi counts something else */
	const char *source; /* where the bounds come from, for the condition's message */
};
/* a kind left 0 (hi 0) takes health's broad range */
struct plat_clocks {
	struct clock_range r[PLAT_CLK_RANGED];
};
#define PLAT_GHZ 1e9
/* DCLK is half the DDR transfer rate (seed 000 L2255: "dclks - half of DDR speed").  Where a DDR5 channel's
 * DCLK is half or a quarter of its transfer rate no seed says (seed 001 section 2.3 only that it "never
 * changes frequency"), so a DDR5 range spans both: from a quarter of DDR5-3200, the lowest JEDEC speed bin
 * (JESD79-5), to half the platform's top speed. */
#define PLAT_DDR_HALF(lo_mts, hi_mts) (lo_mts) * 0.5e6, (hi_mts) * 0.5e6
#define PLAT_DDR5(hi_mts) 3200 * 0.25e6, (hi_mts) * 0.5e6
/* A QPI/UPI link layer clocks at 1/8 of the link's transfer rate (seed 000 L3732: "1/8th the GT/s speed";
 * seed 001's UPI_SPEED metric, L7957: GT/s = clockticks a second x 8 / 1000 MHz). */
#define PLAT_LINK_GTS(lo_gts, hi_gts) (lo_gts) / 8.0 * PLAT_GHZ, (hi_gts) / 8.0 * PLAT_GHZ
/* The mesh's (SKX and later) and the ring's (HSX, BDX) uncore clock is set between the ratio limits of MSR
 * 0x620 per part; no seed gives them.  The one figure at hand, Linux's intel-uncore-frequency driver (the
 * commit adding it, 2019: a two-socket Skylake server's initial limits 1.2-2.4 GHz), lies well inside the
 * conservative 0.8-3 GHz (ratios 8 to 30) used here. */
#define PLAT_MESH 0.8 * PLAT_GHZ, 3.0 * PLAT_GHZ

/* ---- per-job attribution: the count that tells a core's memory reads apart (common/jobs/attrib.c) ----
 * a CBo/CHA TOR insert of the core's requests that missed the LLC, filtered by the thread id in the box's
 * filter, and where the core id sits in that tid */
struct attrib_plat {
	const char *event;     /* the TOR count of one thread's misses, with any filter it needs */
	int tid_core_lo;       /* the core id starts at this bit of the tid, the thread below it */
	int tid_bits;          /* the tid field's width: a core id above it cannot be named */
	const char *counts;    /* what it counts, for the docs and messages */
};

/* ---- sub-NUMA clustering: which SNC domain each iMC channel serves ----
 * Linux's perf tool keeps the only public tables (tools/perf/arch/x86/util/pmu.c, init_snc_map, after 6.12),
 * indexed by the uncore_imc_N PMU number -- the channel's unit id, our box number -- modulo the table's length.
 * A list ends with snc 0; an SNC mode a platform does not list is refused, not guessed. */
struct snc_geom {
	int snc, period;
	signed char dom[8];
	const char *source;
};

/* ---- memory channels as Linux's EDAC driver of the generation names them (common/memory/mem_edac.c) ----
 * mc_name is "<name>#<socket> <ctrl>#<controller>": skx_common.c skx_register_mci "%s#%d IMC#%d" with "Skylake
 * Socket" (skx_base.c) or "Intel_10nm Socket" (i10nm_base.c), the socket its node id and the controller its
 * logical number (lmc); sb_edac.c sbridge_register_mci "<Gen> SrcID#%d_Ha#%d" (source id, home agent).  A DIMM's
 * dimm_location is "channel C slot S " (edac_mc.c edac_dimm_info_location, both drivers' layers CHANNEL and SLOT).
 * Controller m's channel c is the uncore's iMC box m * boxes_per_mc + c: the uncore driver's box order
 * (uncore_snbep.c: ICX_NUMBER_IMC_CHN 3 boxes a controller, SPR's two, SKX's three, HSX's and IVB-EP's four). */
struct mem_layout {
	const char *edac_socket; /* mc_name up to the socket's number: "Intel_10nm Socket#" */
	const char *edac_ctrl;   /* between it and the controller's: " IMC#", "_Ha#" */
	int boxes_per_mc;        /* iMC channel boxes a controller */
	int chans_per_mc;        /* its DDR channels, its first boxes; a box past them is no channel (ICX's third) */
	int ddr_mcs;             /* DDR controllers a socket: EDAC's later ones are HBM's (i10nm spr_cfg) */
	const char *source;
	/* Xeon Max's HBM controllers after them (i10nm_base.c spr_cfg hbm_imc_num, hbm_chan_num): HBM controller h's
	 * channel c is the hbm unit's box h * hbm_chans + c; 0: none */
	int hbm_mcs, hbm_chans;
};

/* ---- the IIO stacks as pcm-iio maps them (pcm-iio-topology.cpp, intel/pcm 0fae0de1): which counter port a root
 * port feeds, the DMI link's stack, and each stack's root bus read from the uncore's registers where the kernel
 * shows no mapping (common/devices/dev_ports.c and dev_regs.c say where each fact comes from) ---- */
#define IIO_MSM_CPUBUSES 32 /* CPUBUSNO_VALID's bits: CPU buses an MSM function lists */
struct iio_layout {
	const int *models;     /* the CPU models pcm's tables are for (0-terminated): not every model of the platform */
	int port_lo, port_hi;  /* function 0 of devices lo..hi of a stack's root bus: counter port device - lo */
	int ndmi;              /* IIO PMUs (0-2) whose stack has bus 0 of domain 0, the DMI link: */
	int dmi_stacks[2];     /* ... which, */
	int dmi_part;          /* ... and the counter port everything on that bus counts at */
	int accel;             /* accelerator (HC) stacks' endpoints as Birch Stream's: DSA, IAA, QAT, DLB */
	int cbdma_dev;         /* the DMI stack's DMA engines: the functions at this device of its root bus, on every
				* socket (0: none) ... */
	int cbdma_part;        /* ... count at this part */
	int sad_stack_id;      /* root buses from 8086:09a2's SAD_CONTROL_CFG stack id (Ice Lake-SP) */
	/* root buses from the MSM's CPU buses (Sapphire Rapids and later): CPU bus i -> IIO PMU (-1: none), and a
	 * second die's table (Sapphire Rapids' MCC: PCU CR3's CAPID4 tells them apart; NULL: one table) */
	const signed char *cpubus_pmu, *cpubus_pmu_mcc;
	uint32_t hc_cpubuses;  /* bit i: CPU bus i is an accelerator stack's (its root bus and the three after) */
};

#endif
