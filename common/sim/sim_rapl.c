/*
 * The simulated machine's energy counters (issue 68; sim_rapl.h).  Each socket consumes the profile's power:
 * pkg_watts in its package, and in its DRAM dram_idle_watts plus dram_watts_per_gbps for each GB/s its memory
 * moves (the bytes resctrl's view keeps, sim_traffic.c), so DRAM energy rises with the traffic; psys (SPR,
 * EMR; GNR and SRF in MSR 0x64D alone) counts the whole platform on socket 0: every socket's package and DRAM
 * and psys_rest_watts.  The
 * counters count that energy in the part's units as 32-bit MSRs, wrapping at 2^32 as the hardware does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"

/* A part's RAPL as its datasheet and Linux 6.12 give it. */
struct rapl_part {
	int family, model;
	uint8_t esu;      /* MSR_RAPL_POWER_UNIT bits 12:8: energy in 2^-esu J (0xA1003 on SNB-EP and IVB-EP, 0xA0E03
			   * from HSX on; power 1/8 W in bits 3:0, time 2^-10 s in 19:16) */
	uint8_t dram_esu; /* the DRAM counter's own unit where it has one: 2^-16 J, Linux rapl.c's reading of the
			   * datasheet's "fixed to 15.3 uJ" on HSX, BDX, SKX, ICX (Xeon E5 v3 datasheet vol. 2, 330784-001,
			   * sections 5.3.2-3); pcm getDRAMConsumedJoules and likwid power.c take 15.3e-6 J itself, 0.27 %
			   * more */
	uint8_t psys;     /* MSR_PLATFORM_ENERGY_STATUS, in 1 J: PSYS_KERNEL the kernel shows it too (rapl.c
			   * RAPL_UNIT_QUIRK_INTEL_SPR; powercap rapl_defaults_spr_server.psys_domain_energy_unit =
			   * 1000000000 nJ); PSYS_MSR the MSR alone (GNR, SRF: PCM cpucounters.h
			   * systemEnergyMetricAvailable, getSystemConsumedJoules' unit 1.0, intel/pcm 0fae0de1; Linux 6.12's
			   * TPMI shows a psys domain only where the firmware gives one, which the simulator's does not) */
	uint8_t kernel;   /* enum sim_rapl_kernel */
	uint8_t perf_dram16;   /* rapl.c applies RAPL_UNIT_QUIRK_INTEL_HSW (model_hsx, model_knl) */
	uint8_t powercap_15300; /* intel_rapl_common.c rapl_ids gives rapl_defaults_hsw_server: DRAM 15300 nJ */
	uint16_t tdp_w;   /* MSR_PKG_POWER_INFO thermal spec power: the line's top SKU's TDP (Intel ARK) */
};

/* Linux 6.12 arch/x86/events/rapl.c rapl_model_match and drivers/powercap/intel_rapl_common.c rapl_ids.  GNR,
 * SRF and CWF are in neither: their energy is TPMI's (intel_rapl_tpmi.c), whose unit register has its own
 * layout, the energy unit in bits 10:6 where 0x606 has it in 12:8 (intel_rapl_common.c rapl_check_unit_tpmi,
 * TPMI_ENERGY_UNIT_MASK 0x7C0: sim_rapl_tpmi_unit), and no DRAM quirk (defaults_tpmi).  Diamond Rapids (family 0x13 model 1):
 * no Linux table names it either; taken as TPMI's like GNR (provisional: intel_rapl_tpmi binds by TPMI feature,
 * not by model).  Nehalem-EP and Montecito have no RAPL. */
enum { PSYS_NONE, PSYS_KERNEL, PSYS_MSR };
static const struct rapl_part parts[] = {
	{ 6, 0x2d, 16, 16, 0, SIM_RAPL_BY_MSR, 0, 0, 135 }, /* SNB-EP: model_snbep, rapl_defaults_core */
	{ 6, 0x3e, 16, 16, 0, SIM_RAPL_BY_MSR, 0, 0, 130 }, /* IVB-EP: model_snbep, rapl_defaults_core */
	{ 6, 0x3f, 14, 16, 0, SIM_RAPL_BY_MSR, 1, 1, 145 }, /* HSX: model_hsx, rapl_defaults_hsw_server */
	{ 6, 0x4f, 14, 16, 0, SIM_RAPL_BY_MSR, 1, 1, 145 }, /* BDX: model_hsx, rapl_defaults_hsw_server */
	{ 6, 0x56, 14, 16, 0, SIM_RAPL_BY_MSR, 1, 0, 45 },  /* BDX-DE: model_hsx, but rapl_defaults_core (powercap
							     * takes DRAM's unit from 0x606: 4 x its energy) */
	{ 6, 0x55, 14, 16, 0, SIM_RAPL_BY_MSR, 1, 1, 205 }, /* SKX, CLX: model_hsx, rapl_defaults_hsw_server */
	{ 6, 0x6a, 14, 16, 0, SIM_RAPL_BY_MSR, 1, 1, 270 }, /* ICX: model_hsx, rapl_defaults_hsw_server */
	{ 6, 0x8f, 14, 14, PSYS_KERNEL, SIM_RAPL_BY_MSR, 0, 0, 350 }, /* SPR: model_spr, rapl_defaults_spr_server */
	{ 6, 0xcf, 14, 14, PSYS_KERNEL, SIM_RAPL_BY_MSR, 0, 0, 350 }, /* EMR: model_spr, rapl_defaults_spr_server */
	{ 6, 0xad, 14, 14, PSYS_MSR, SIM_RAPL_BY_TPMI, 0, 0, 500 }, /* GNR */
	{ 6, 0xaf, 14, 14, PSYS_MSR, SIM_RAPL_BY_TPMI, 0, 0, 330 }, /* SRF */
	{ 6, 0xdd, 14, 14, 0, SIM_RAPL_BY_TPMI, 0, 0, 500 }, /* CWF */
	{ 0x13, 0x01, 14, 14, 0, SIM_RAPL_BY_TPMI, 0, 0, 500 }, /* DMR (provisional) */
};

#define COUNTER_MASK 0xffffffffull /* the counters' 32 bits (rapl.c RAPL_CNTR_WIDTH, ENERGY_STATUS_MASK) */
#define BADUNIT_SHIFT 4             /* fault badunit: the unit register says 2^4 x the unit counted in */

static const struct rapl_part *part_of(const struct sim *s)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].family == s->family && parts[i].model == s->model)
			return &parts[i];
	return NULL;
}

int sim_rapl_present(const struct sim *s) { return part_of(s) != NULL; }

int sim_rapl_has(const struct sim *s, int d)
{
	const struct rapl_part *p = part_of(s);
	return p && (d == SIM_RAPL_PKG || d == SIM_RAPL_DRAM || (d == SIM_RAPL_PSYS && p->psys));
}

enum sim_rapl_kernel sim_rapl_kernel(const struct sim *s)
{
	const struct rapl_part *p = part_of(s);
	return p ? (enum sim_rapl_kernel)p->kernel : SIM_RAPL_BY_MSR;
}

/* The joules a counter counts per count (the hardware's unit, whatever 0x606 says). */
static double unit_j(const struct rapl_part *p, int d)
{
	return d == SIM_RAPL_PSYS ? 1.0 : ldexp(1.0, -(d == SIM_RAPL_DRAM ? p->dram_esu : p->esu));
}

/* The energy unit 0x606 (bits 12:8) and TPMI's unit register (bits 10:6) show. */
static int shown_esu(const struct sim *s, const struct rapl_part *p)
{
	return p->esu - (s->rapl.badunit ? BADUNIT_SHIFT : 0);
}

/* Joules of domain d of socket sock at time t (ns): the profile's watts times t, DRAM's part per GB/s times
 * the bytes its memory moved by t (those up to the last change of the rates, s->mbm, and the current rates'
 * since; a t before that change is taken at the current rates, exact while they have not changed since). */
static double joules_at(const struct sim *s, int sock, int d, uint64_t t)
{
	const struct sim_profile *p = &s->prof;
	double secs = (double)t / 1e9, e = 0;
	if (d == SIM_RAPL_PSYS) {
		if (sock)
			return 0; /* the platform's energy is socket 0's to count */
		for (int k = 0; k < s->nsockets; k++)
			e += joules_at(s, k, SIM_RAPL_PKG, t) + joules_at(s, k, SIM_RAPL_DRAM, t);
		return e + p->psys_rest_w * secs;
	}
	if (d == SIM_RAPL_PKG)
		return p->pkg_w[sock] * secs;
	double bytes = s->mbm[sock] + (p->mem_read_bps[sock] + p->mem_write_bps[sock]) * ((double)t - (double)s->mbm_ns) / 1e9;
	return p->dram_idle_w[sock] * secs + p->dram_w_per_gbps[sock] * bytes / 1e9;
}

double sim_rapl_joules(const struct sim *s, int sock, int d)
{
	if (sock < 0 || sock >= s->nsockets || !sim_rapl_has(s, d))
		return NAN;
	return joules_at(s, sock, d, sim_clock(s));
}

/* The watts a domain draws while the rates stay as they are now. */
static double watts(const struct sim *s, int sock, int d)
{
	return joules_at(s, sock, d, 1000000000ull + s->mbm_ns) - joules_at(s, sock, d, s->mbm_ns);
}

void sim_rapl_init(struct sim *s)
{
	const struct rapl_part *p = part_of(s);
	for (int k = 0; k < s->nsockets && p; k++)
		if (isnan(s->prof.pkg_w[k])) /* the profile gave none: the part's own, socket 1 busier */
			s->prof.pkg_w[k] = p->tdp_w * (0.55 + 0.1 * k);
	for (int d = 0; d < SIM_RAPL_DOMAINS && p; d++)
		for (int k = 0; k < s->nsockets; k++) {
			/* a counter has counted since the node booted: never 0 (perf_msr_probe and rapl_check_domain drop
			 * a counter that reads 0), and unlike each other; prewrap=S: wrapping S seconds on */
			double n = s->prewrap_s * watts(s, k, d) / unit_j(p, d);
			s->rapl.start[d][k] = (uint32_t)(0x3c6ef372u + 0x01234567u * (uint32_t)(k * SIM_RAPL_DOMAINS + d));
			if (s->prewrap_s > 0 && n >= 1 && n < (double)COUNTER_MASK)
				s->rapl.start[d][k] = (uint32_t)(COUNTER_MASK + 1 - (uint64_t)n);
		}
}

uint64_t sim_rapl_count(struct sim *s, int sock, int d)
{
	const struct rapl_part *p = part_of(s);
	if (!p || sock < 0 || sock >= s->nsockets || !sim_rapl_has(s, d))
		return 0;
	uint64_t now = sim_clock(s), from = s->rapl.stuck_from[d][sock];
	double e;
	if (from && now + 1 >= from) { /* stuck: at the energy of its time, taken when first seen */
		if (!s->rapl.taken[d][sock]) {
			s->rapl.held[d][sock] = joules_at(s, sock, d, from - 1);
			s->rapl.taken[d][sock] = 1;
		}
		e = s->rapl.held[d][sock];
	} else
		e = joules_at(s, sock, d, now);
	if (d == SIM_RAPL_PSYS && sock)
		return 0; /* reads 0: nothing for the kernel to show there */
	return s->rapl.start[d][sock] + (uint64_t)floor(e / unit_j(p, d));
}

int sim_rapl_msr(struct sim *s, int scope, uint32_t reg, uint64_t *val)
{
	const struct rapl_part *p = part_of(s);
	int sock = scope / s->dies; /* one RAPL package a socket, whatever its dies= */
	if (reg != SIM_MSR_RAPL_POWER_UNIT && reg != SIM_MSR_PKG_ENERGY_STATUS && reg != SIM_MSR_PKG_POWER_INFO &&
	    reg != SIM_MSR_DRAM_ENERGY_STATUS && reg != SIM_MSR_PLATFORM_ENERGY_STATUS)
		return 0;
	if (!p || (reg == SIM_MSR_PLATFORM_ENERGY_STATUS && !p->psys)) {
		uc_err("MSR 0x%x: I/O error (the simulated %s has no %s)", reg, s->name,
		       p ? "MSR_PLATFORM_ENERGY_STATUS" : "RAPL");
		return -1;
	}
	if (reg == SIM_MSR_RAPL_POWER_UNIT)
		*val = 0xa0003ull | (uint64_t)shown_esu(s, p) << 8;
	else if (reg == SIM_MSR_PKG_POWER_INFO)
		*val = (uint64_t)p->tdp_w * 8; /* thermal spec power, bits 14:0, in the power unit 1/8 W */
	else
		*val = sim_rapl_count(s, sock, reg == SIM_MSR_PKG_ENERGY_STATUS ? SIM_RAPL_PKG : reg == SIM_MSR_DRAM_ENERGY_STATUS
						       ? SIM_RAPL_DRAM : SIM_RAPL_PSYS) & COUNTER_MASK;
	return 1;
}

static const char *const names[SIM_RAPL_DOMAINS] = { "pkg", "ram", "psys" };

const char *sim_rapl_name(int d) { return d >= 0 && d < SIM_RAPL_DOMAINS ? names[d] : NULL; }
int sim_rapl_perf_event(int d) { return d == SIM_RAPL_PSYS ? 0x05 : d + 0x02; }

int sim_rapl_domain_of_event(uint64_t config)
{
	for (int d = 0; d < SIM_RAPL_DOMAINS; d++)
		if (config == (uint64_t)sim_rapl_perf_event(d))
			return d;
	return -1;
}

int sim_rapl_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns)
{
	int d;
	if (!strcmp(unit, "rapl") && !strcmp(kind, "badunit")) {
		if (!sim_rapl_present(s))
			return uc_err("simulator fault badunit:rapl: the simulated %s has no RAPL", s->name);
		if (from_ns)
			return uc_err("simulator fault badunit:rapl cannot be delayed (@SECONDS): the kernel reads the unit once, at boot");
		s->rapl.badunit = 1;
		return 1;
	}
	if (strncmp(unit, "energy-", 7))
		return 0;
	for (d = 0; d < SIM_RAPL_DOMAINS && strcmp(unit + 7, names[d]); d++)
		;
	if (d == SIM_RAPL_DOMAINS || strcmp(kind, "stuck"))
		return uc_err("simulator fault %s:%s: the energy faults are stuck:energy-pkg, stuck:energy-ram, "
			      "stuck:energy-psys ([:SOCKET][@SECONDS]) and badunit:rapl", kind, unit);
	if (!sim_rapl_has(s, d))
		return uc_err("simulator fault stuck:%s: the simulated %s has no such counter", unit, s->name);
	if (idx >= s->nsockets)
		return uc_err("simulator fault stuck:%s:%d: the machine has %d sockets", unit, idx, s->nsockets);
	for (int k = 0; k < s->nsockets; k++)
		if (idx < 0 || idx == k)
			s->rapl.stuck_from[d][k] = from_ns + 1;
	return 1;
}

/* TPMI's RAPL unit register (intel_rapl_common.c, Linux 6.12): power unit bits 3:0 (TPMI_POWER_UNIT_MASK 0xf,
 * 1/8 W), energy unit bits 10:6 (TPMI_ENERGY_UNIT_MASK 0x7c0), time unit bits 15:12 (TPMI_TIME_UNIT_MASK
 * 0xf000, 2^-10 s), each as the MSR's value */
#define TPMI_ENERGY_UNIT_SHIFT 6
#define TPMI_ENERGY_UNIT_MASK 0x7c0u
uint32_t sim_rapl_tpmi_unit(const struct sim *s)
{
	const struct rapl_part *p = part_of(s);
	if (!p || p->kernel != SIM_RAPL_BY_TPMI)
		return 0;
	return 0xa003u | (uint32_t)shown_esu(s, p) << TPMI_ENERGY_UNIT_SHIFT;
}

uint64_t sim_rapl_powercap_nj(const struct sim *s, int d)
{
	const struct rapl_part *p = part_of(s);
	if (!p || !sim_rapl_has(s, d))
		return 0;
	if (p->kernel == SIM_RAPL_BY_MSR && d == SIM_RAPL_DRAM && p->powercap_15300)
		return 15300; /* rapl_defaults_hsw_server.dram_domain_energy_unit, in nJ: 15.3 uJ, 0.27 % over 2^-16 J */
	if (p->kernel == SIM_RAPL_BY_MSR && d == SIM_RAPL_PSYS)
		return 1000000000; /* rapl_defaults_spr_server.psys_domain_energy_unit */
	/* rapl_check_unit_core/_tpmi: ENERGY_UNIT_SCALE * 1000000 / (1 << esu), nJ (its "picoJoules" are those x
	 * ENERGY_UNIT_SCALE), the unit read from 0x606 or, under TPMI, from TPMI's unit register as Linux reads it */
	int esu = p->kernel == SIM_RAPL_BY_TPMI ? (int)((sim_rapl_tpmi_unit(s) & TPMI_ENERGY_UNIT_MASK) >> TPMI_ENERGY_UNIT_SHIFT)
						: shown_esu(s, p);
	return 1000000000ull >> esu;
}

uint64_t sim_rapl_perf_scale(const struct sim *s, int d)
{
	const struct rapl_part *p = part_of(s);
	if (!p || !sim_rapl_has(s, d))
		return 0;
	if (p->kernel == SIM_RAPL_BY_TPMI) /* rapl_package_add_pmu's scale: energy_unit * 2^32 / (ENERGY_UNIT_SCALE * 1e6) */
		return (sim_rapl_powercap_nj(s, d) << 32) / 1000000000ull;
	int unit = d == SIM_RAPL_PSYS ? 0 : d == SIM_RAPL_DRAM && p->perf_dram16 ? 16 : shown_esu(s, p); /* rapl_check_hw_unit */
	return 1ull << (32 - unit); /* rapl_scale */
}

int sim_rapl_shown(const struct sim *s, int sock, int d)
{
	const struct rapl_part *p = part_of(s);
	return sim_rapl_has(s, d) && (d != SIM_RAPL_PSYS || (sock == 0 && p->psys == PSYS_KERNEL));
}

/* energy_uj of a zone (arg: socket x SIM_RAPL_DOMAINS + domain): the counter times the unit Linux took, in
 * integers as rapl_unit_xlate computes it. */
static int energy_uj(const void *ctx, int arg, char *buf, size_t len)
{
	struct sim *s = (struct sim *)(uintptr_t)ctx; /* (a read brings the machine up to now, as a kernel's does) */
	int sock = arg / SIM_RAPL_DOMAINS, d = arg % SIM_RAPL_DOMAINS;
	uint64_t raw = sim_rapl_count(s, sock, d) & COUNTER_MASK;
	snprintf(buf, len, "%llu", (unsigned long long)(raw * sim_rapl_powercap_nj(s, d) / 1000));
	return 0;
}

/* A zone's directory: its name, energy and range (drivers/powercap/powercap_sys.c's attributes). */
static int zone(struct sim *s, struct memfs *m, const char *dir, const char *name, int sock, int d)
{
	char path[160], text[64];
	const struct rapl_part *p = part_of(s);
	int rc = 0;
	snprintf(path, sizeof(path), "%s/name", dir);
	rc |= memfs_put(m, path, name, 0);
	snprintf(path, sizeof(path), "%s/enabled", dir);
	rc |= memfs_put(m, path, "1", 0);
	snprintf(path, sizeof(path), "%s/energy_uj", dir);
	rc |= memfs_put_gen(m, path, energy_uj, s, sock * SIM_RAPL_DOMAINS + d);
	snprintf(path, sizeof(path), "%s/max_energy_range_uj", dir);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)(COUNTER_MASK * sim_rapl_powercap_nj(s, d) / 1000));
	rc |= memfs_put(m, path, text, 0); /* get_max_energy_counter */
	if (d == SIM_RAPL_PKG) { /* PL1's maximum: the thermal spec power (MSR_PKG_POWER_INFO) */
		snprintf(path, sizeof(path), "%s/constraint_0_name", dir);
		rc |= memfs_put(m, path, "long_term", 0);
		snprintf(path, sizeof(path), "%s/constraint_0_max_power_uw", dir);
		snprintf(text, sizeof(text), "%llu", (unsigned long long)p->tdp_w * 1000000ull);
		rc |= memfs_put(m, path, text, 0);
	}
	return rc ? uc_err("out of memory") : 0;
}

/* Zones as rapl_package_register_powercap registers them, package by package: the package (a top-level zone:
 * the control type's next id), its DRAM a child (intel-rapl:N:0), psys a top-level zone of its own (parent NULL)
 * named "psys" on package 0 (rapl_init_domains) -- so on SPR psys is intel-rapl:1 and package 1 intel-rapl:2. */
int sim_rapl_sysfs(struct sim *s, struct memfs *m)
{
	char dir[96], name[32];
	int top = 0;
	if (!sim_rapl_present(s))
		return 0;
	if (memfs_put(m, "/sys/class/powercap/intel-rapl/enabled", "1", 0))
		return uc_err("out of memory");
	for (int k = 0; k < s->nsockets; k++) {
		int pkg = top++;
		snprintf(dir, sizeof(dir), "/sys/class/powercap/intel-rapl:%d", pkg);
		snprintf(name, sizeof(name), "package-%d", k);
		if (zone(s, m, dir, name, k, SIM_RAPL_PKG))
			return -1;
		snprintf(dir, sizeof(dir), "/sys/class/powercap/intel-rapl:%d:0", pkg);
		if (zone(s, m, dir, "dram", k, SIM_RAPL_DRAM))
			return -1;
		if (!sim_rapl_shown(s, k, SIM_RAPL_PSYS))
			continue;
		snprintf(dir, sizeof(dir), "/sys/class/powercap/intel-rapl:%d", top++);
		if (zone(s, m, dir, "psys", k, SIM_RAPL_PSYS))
			return -1;
	}
	return 0;
}
