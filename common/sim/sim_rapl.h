/*
 * The simulated machine's energy (issue 68): the RAPL MSRs of each socket, the energy the profile's power
 * makes them count (package watts; DRAM watts an idle part plus a part per GB/s of the memory traffic), their
 * faults, and what Linux 6.12 shows of them -- powercap's /sys/class/powercap/intel-rapl:* files and the units
 * its `power` perf PMU counts in (the PMU itself: sim_kernel/sim_kernel_power.c).
 */
#ifndef UNCORE_SIM_RAPL_H
#define UNCORE_SIM_RAPL_H

#include <stdint.h>
#include "access/access.h" /* UC_MAX_SOCKETS */
#include "util/memfs.h"

struct sim;

/* Linux arch/x86/include/asm/msr-index.h */
#define SIM_MSR_RAPL_POWER_UNIT 0x606        /* MSR_RAPL_POWER_UNIT */
#define SIM_MSR_PKG_ENERGY_STATUS 0x611      /* MSR_PKG_ENERGY_STATUS */
#define SIM_MSR_PKG_POWER_INFO 0x614         /* MSR_PKG_POWER_INFO */
#define SIM_MSR_DRAM_ENERGY_STATUS 0x619     /* MSR_DRAM_ENERGY_STATUS */
#define SIM_MSR_PLATFORM_ENERGY_STATUS 0x64d /* MSR_PLATFORM_ENERGY_STATUS */
/* (a test of an address cheap enough for every MSR of a batch: the block they are in) */
#define SIM_RAPL_REG(reg) (((reg) & ~0x7fu) == 0x600u)

/* The domains, in the order of the perf events' ids less 2 (rapl.c energy-pkg 0x02, energy-ram 0x03; psys is
 * 0x05: sim_rapl_perf_event). */
enum sim_rapl_domain { SIM_RAPL_PKG, SIM_RAPL_DRAM, SIM_RAPL_PSYS, SIM_RAPL_DOMAINS };

/* Which of Linux 6.12's drivers shows a part's energy: the MSR ones (arch/x86/events/rapl.c's `power` PMU,
 * drivers/powercap/intel_rapl_msr.c), or TPMI's (intel_rapl_tpmi.c, whose `power` PMU intel_rapl_common.c
 * registers: rapl_package_add_pmu). */
enum sim_rapl_kernel { SIM_RAPL_BY_MSR, SIM_RAPL_BY_TPMI };

/* The fault state (fault=stuck:energy-pkg[:SOCKET][@S], badunit:rapl), kept in struct sim. */
struct sim_rapl_state {
	uint64_t stuck_from[SIM_RAPL_DOMAINS][UC_MAX_SOCKETS]; /* stuck from this time + 1 (0: counts) */
	double held[SIM_RAPL_DOMAINS][UC_MAX_SOCKETS];         /* ... at these joules, taken when first seen */
	uint8_t taken[SIM_RAPL_DOMAINS][UC_MAX_SOCKETS];
	uint32_t start[SIM_RAPL_DOMAINS][UC_MAX_SOCKETS];     /* each counter's value when the machine was made */
	int badunit;                                           /* 0x606 (and TPMI's unit) say 16 x the unit counted */
};

/* Whether the machine's CPU (its family and model, cpu= included) has RAPL: 1, or 0 (Nehalem-EP, Montecito
 * and parts this table does not know), and whether it has domain d. */
int sim_rapl_present(const struct sim *s);
int sim_rapl_has(const struct sim *s, int d);
enum sim_rapl_kernel sim_rapl_kernel(const struct sim *s);
/* Once the machine is built: each counter's start (near the wrap with prewrap=S). */
void sim_rapl_init(struct sim *s);

/* The joules domain d of socket sock consumed from the machine's making to its clock's now: the truth, whatever
 * a fault makes the counter show. */
double sim_rapl_joules(const struct sim *s, int sock, int d);
/* The counter's count of its units up to now, not wrapped (its MSR shows the low 32 bits): a stuck counter's
 * count stands still. */
uint64_t sim_rapl_count(struct sim *s, int sock, int d);

/* An MSR read on a CPU of scope (die) scope: 1 with *val where reg is a RAPL MSR the part has, -1 with a
 * message where the part lacks it (rdmsr's EIO), 0 for every other register. */
int sim_rapl_msr(struct sim *s, int scope, uint32_t reg, uint64_t *val);
/* fault=KIND:UNIT: 1 a fault of energy (stuck:energy-pkg|energy-ram|energy-psys, badunit:rapl) applied, 0 not
 * one, -1 with a message. */
int sim_rapl_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns);

/* What Linux 6.12 makes of domain d's counter: the nanojoules powercap multiplies it by (rapl_unit_xlate), and
 * the 2^-32 J the perf event adds for each count (rapl.c rapl_scale's shift, or intel_rapl_common.c's
 * pmu_data.scale under TPMI); 0 where Linux shows no such domain. */
uint64_t sim_rapl_powercap_nj(const struct sim *s, int d);
/* TPMI's RAPL unit register of a part Linux reads through TPMI (its energy unit in bits 10:6, not 0x606's
 * 12:8), 0 on every other part. */
uint32_t sim_rapl_tpmi_unit(const struct sim *s);
uint64_t sim_rapl_perf_scale(const struct sim *s, int d);
/* The perf event id of domain d (energy-pkg 0x02, energy-ram 0x03, energy-psys 0x05), its name, and the domain
 * of an event id (-1: none). */
int sim_rapl_perf_event(int d);
const char *sim_rapl_name(int d);
int sim_rapl_domain_of_event(uint64_t config);
/* Whether socket sock shows domain d to the kernel: psys on socket 0 alone (powercap's rapl_check_domain skips a
 * counter that reads 0 at boot; rapl.c does not probe SPR's, intel_rapl_spr_msrs' psys no_check, and counts it
 * on its package), and not at all on GNR and SRF, whose psys is in MSR 0x64D alone here. */
int sim_rapl_shown(const struct sim *s, int sock, int d);

/* powercap's files of the machine (/sys/class/powercap/intel-rapl:N[:M]/{name,energy_uj,max_energy_range_uj,
 * enabled,...}), their energy read at each read: 0, or -1 out of memory.  The machine must outlive m. */
int sim_rapl_sysfs(struct sim *s, struct memfs *m);

#endif
