/*
 * The simulated uncore clock limits (sim_ufreq.h).  Linux 6.12's drivers/platform/x86/intel/uncore-frequency/:
 * - uncore-frequency.c reads MSR_UNCORE_RATIO_LIMIT 0x620 (UNCORE_MAX_RATIO_MASK bits 6:0, UNCORE_MIN_RATIO_MASK
 *   bits 14:8) and MSR_UNCORE_PERF_STATUS 0x621 (UNCORE_CURRENT_RATIO_MASK bits 6:0), ratios of
 *   UNCORE_FREQ_KHZ_MULTIPLIER 100000 kHz, on the CPUs of intel_uncore_cpu_ids (of the servers here: Broadwell-X
 *   and -D, Skylake-X -- Cascade Lake is its model --, Ice Lake-X, Sapphire and Emerald Rapids), one entry per
 *   die named "package_%02d_die_%02d" of topology_physical_package_id and topology_die_id
 *   (uncore-frequency-common.c uncore_freq_add_entry);
 * - uncore-frequency-tpmi.c, the TPMI form (Granite Rapids and later: the intel_vsec.tpmi-uncore device), an
 *   entry "uncore%02d" per power domain and fabric cluster with package_id, domain_id and fabric_cluster_id
 *   (uncore_probe), and, on a part of one die a package, a root entry package_%02d_die_00 whose limits are the
 *   clusters' lowest minimum and highest maximum and which has no current_freq_khz (uncore_read_control_freq,
 *   uncore_read_freq's -ENODATA, create_attr_group adds current_freq_khz only where it reads).
 * Each entry holds max_freq_khz, min_freq_khz, initial_min_freq_khz, initial_max_freq_khz (the limits the
 * driver read when it loaded) and current_freq_khz (create_attr_group).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_ufreq.h"
#include "util/error.h"

#define MSR_UNCORE_RATIO_LIMIT 0x620
#define MSR_UNCORE_PERF_STATUS 0x621
#define RATIO_HZ 100e6 /* UNCORE_FREQ_KHZ_MULTIPLIER: 100000 kHz a ratio */
#define RATIO_MAX 0x7f /* the fields' 7 bits (GENMASK_ULL(6, 0)) */
#define UFREQ_DIR "/sys/devices/system/cpu/intel_uncore_frequency"

/* The parts that show their limits, and how, are data of their sim_kind (ufreq_mode, ufreq_min_ratio), with the
 * lowest limit of the simulated part: Linux's commit adding the driver (2019) gives a two-socket Skylake server's
 * initial limits as 1.2-2.4 GHz (clock_ranges.c), Broadwell's taken alike; for the others no public table gives
 * the floor: 0.8 GHz, the lowest clock clock_ranges.c gives their mesh.  The highest limit is the profile's uncore
 * clock: under memory load the hardware runs the uncore at its maximum (uncore frequency scaling), and the
 * simulator counts that clock. */

int sim_ufreq_option(struct sim *s, const char *v)
{
	static const char *const modes[] = { "off", "msr", "sysfs" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, modes[i])) {
			s->ufreq.asked = i + 1;
			return 0;
		}
	return uc_err("simulator option ufreq=%s: off (no uncore frequency driver nor MSR), msr (the MSRs 0x620/0x621 "
		      "alone: the driver not loaded) or sysfs (the driver's files, the default)", v);
}

static int ratio_of(double hz) { return (int)lround(hz / RATIO_HZ); }

/* MSR reg's read-only value (added where there is none) */
static int set_msr(struct sim *s, uint32_t reg, uint64_t val)
{
	int i = 0;
	while (i < s->nromsr && s->romsr[i].addr != reg)
		i++;
	if (i == SIM_MAX_ROMSR)
		return uc_err("simulator: no room for MSR 0x%x (SIM_MAX_ROMSR %d)", reg, SIM_MAX_ROMSR);
	if (i == s->nromsr)
		s->nromsr++;
	s->romsr[i].addr = reg;
	s->romsr[i].val = val;
	s->romsr[i].step = 0; /* every die alike */
	return 0;
}

/* The MSRs as the limits and the counted clock now make them */
static int msrs(struct sim *s)
{
	const struct sim_ufreq *f = &s->ufreq;
	if (f->mode != SIM_UFREQ_LEGACY && f->mode != SIM_UFREQ_MSR)
		return 0;
	int cur = ratio_of(s->prof.uncore_hz);
	return set_msr(s, MSR_UNCORE_RATIO_LIMIT, (uint64_t)(f->min_ratio & RATIO_MAX) << 8 | (uint64_t)(f->max_ratio & RATIO_MAX)) ||
	       set_msr(s, MSR_UNCORE_PERF_STATUS, (uint64_t)(cur & RATIO_MAX));
}

static int limit_ratio(double hz, const char *key, int *out)
{
	if (!(hz > 0))
		return 0; /* not given */
	if (hz < RATIO_HZ || hz > RATIO_MAX * RATIO_HZ || fabs(hz - ratio_of(hz) * RATIO_HZ) > 1)
		return uc_err("simulator profile %s=%g: a multiple of 100 MHz from 100 MHz to %.1f GHz (the limits are "
			      "7-bit ratios of 100 MHz)", key, hz, RATIO_MAX * RATIO_HZ / 1e9);
	*out = ratio_of(hz);
	return 0;
}

int sim_ufreq_build(struct sim *s)
{
	struct sim_ufreq *f = &s->ufreq;
	f->mode = s->kind->ufreq_mode;
	f->min_ratio = s->kind->ufreq_min_ratio;
	if (f->asked == 1 || f->mode == SIM_UFREQ_NONE)
		return f->mode = SIM_UFREQ_NONE, 0;
	if (f->asked == 2) {
		if (f->mode == SIM_UFREQ_TPMI) /* the TPMI parts are not in the MSR driver's intel_uncore_cpu_ids */
			return uc_err("simulator option ufreq=msr: %s keeps its uncore limits in TPMI, not MSR 0x620", s->name);
		f->mode = SIM_UFREQ_MSR;
	}
	f->max_ratio = (int)ceil(s->prof.uncore_hz / RATIO_HZ - 1e-9);
	if (f->min_ratio > (int)floor(s->prof.uncore_hz / RATIO_HZ + 1e-9)) /* a profile's clock below the part's floor */
		f->min_ratio = (int)floor(s->prof.uncore_hz / RATIO_HZ + 1e-9);
	if (f->min_ratio < 1)
		f->min_ratio = 1;
	if (limit_ratio(s->prof.uncore_min_hz, "uncore_min_clock_hz", &f->min_ratio) ||
	    limit_ratio(s->prof.uncore_max_hz, "uncore_max_clock_hz", &f->max_ratio))
		return -1;
	if (f->min_ratio > f->max_ratio)
		return uc_err("simulator: the uncore clock's minimum limit %d00 MHz is above its maximum %d00 MHz",
			      f->min_ratio, f->max_ratio);
	f->init_min = f->min_ratio;
	f->init_max = f->max_ratio;
	return msrs(s);
}

int sim_ufreq_fault(struct sim *s, const char *kind, const char *arg)
{
	struct sim_ufreq *f = &s->ufreq;
	char *end;
	long mhz = *arg == '=' ? strtol(arg + 1, &end, 10) : 0;
	if (*arg == '=' && (*end || mhz < 100 || mhz > RATIO_MAX * 100 || mhz % 100))
		return uc_err("simulator fault %s:uclk%s: MHZ is a multiple of 100 from 100 to %d", kind, arg, RATIO_MAX * 100);
	if (f->mode == SIM_UFREQ_NONE)
		return uc_err("simulator fault %s:uclk: %s shows no uncore clock limits (ufreq=off, or a part Linux's "
			      "uncore frequency drivers do not know)", kind, s->name);
	if (!strcmp(kind, "pinned")) {
		/* the BIOS pinned the uncore clock at a floor below the part's range (500 MHz unless given): both
		 * limits there from boot on, and the clock stays there whatever the load */
		int r = mhz ? (int)(mhz / 100) : 5;
		f->min_ratio = f->max_ratio = f->init_min = f->init_max = r;
		s->prof.uncore_hz = r * RATIO_HZ;
	} else if (!strcmp(kind, "overlimit")) {
		/* the limits read 200 MHz (or down to MHZ) below the clock the counters count: a counter or a
		 * formula off by that much, or limits the firmware misreports */
		int r = mhz ? (int)(mhz / 100) : ratio_of(s->prof.uncore_hz) - 2;
		if (r * RATIO_HZ >= s->prof.uncore_hz)
			return uc_err("simulator fault overlimit:uclk=%ld: the limit must lie below the counted uncore clock "
				      "(%.0f MHz)", mhz, s->prof.uncore_hz / 1e6);
		f->max_ratio = f->init_max = r;
		if (f->min_ratio > r)
			f->min_ratio = f->init_min = r;
	} else
		return uc_err("simulator fault %s:uclk: the uncore clock's faults are pinned and overlimit", kind);
	sim_rate_changed(s);
	return msrs(s);
}

int sim_ufreq_set(struct sim *s, int min_ratio, int max_ratio)
{
	struct sim_ufreq *f = &s->ufreq;
	if (f->mode == SIM_UFREQ_NONE)
		return uc_err("%s shows no uncore clock limits", s->name);
	if (max_ratio > RATIO_MAX)
		return uc_err("the limits are 7-bit ratios of 100 MHz: at most %d MHz", RATIO_MAX * 100);
	f->min_ratio = min_ratio;
	f->max_ratio = max_ratio;
	/* the clock the counters count stays within them, as the PCU keeps it */
	double hz = s->prof.uncore_hz, lo = min_ratio * RATIO_HZ, hi = max_ratio * RATIO_HZ;
	s->prof.uncore_hz = hz < lo ? lo : hz > hi ? hi : hz;
	sim_rate_changed(s);
	return msrs(s);
}

void sim_ufreq_truth(const struct sim *s, double *min_hz, double *max_hz, double *cur_hz)
{
	*min_hz = s->ufreq.min_ratio * RATIO_HZ;
	*max_hz = s->ufreq.max_ratio * RATIO_HZ;
	*cur_hz = ratio_of(s->prof.uncore_hz) * RATIO_HZ;
}

static int put(struct memfs *m, const char *dir, const char *file, long v)
{
	char p[256], t[32];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	snprintf(t, sizeof(t), "%ld\n", v);
	return memfs_put(m, p, t, 0);
}

/* An entry's limit files (show_attr, show_uncore_data: "%u\n" kHz); cur < 0: no current_freq_khz */
static int entry(struct memfs *m, const char *dir, const struct sim_ufreq *f, long cur)
{
	const long k = (long)(RATIO_HZ / 1e3);
	return put(m, dir, "max_freq_khz", f->max_ratio * k) || put(m, dir, "min_freq_khz", f->min_ratio * k) ||
	       put(m, dir, "initial_max_freq_khz", f->init_max * k) || put(m, dir, "initial_min_freq_khz", f->init_min * k) ||
	       (cur >= 0 && put(m, dir, "current_freq_khz", cur * k));
}

int sim_ufreq_sysfs(const struct sim *s, struct memfs *m)
{
	const struct sim_ufreq *f = &s->ufreq;
	char dir[160];
	long cur = ratio_of(s->prof.uncore_hz);
	if (f->mode == SIM_UFREQ_LEGACY) /* one entry a die (topology_logical_die_id) */
		for (int sc = 0; sc < sim_scopes(s); sc++) {
			snprintf(dir, sizeof(dir), UFREQ_DIR "/package_%02d_die_%02ld", sc / s->dies,
				 sim_cpu_die_id(s, sc * s->cores));
			if (entry(m, dir, f, cur))
				return -1;
		}
	if (f->mode != SIM_UFREQ_TPMI)
		return 0;
	/* a power domain a die, of one fabric cluster each, numbered in probe order (ida_alloc) */
	for (int sock = 0, n = 0; sock < s->nsockets; sock++) {
		for (int d = 0; d < s->dies; d++, n++) {
			snprintf(dir, sizeof(dir), UFREQ_DIR "/uncore%02d", n);
			if (entry(m, dir, f, cur) || put(m, dir, "package_id", sock) || put(m, dir, "domain_id", d) ||
			    put(m, dir, "fabric_cluster_id", 0))
				return -1;
		}
		if (s->dies > 1) /* topology_max_dies_per_package() > 1: no root entry */
			continue;
		snprintf(dir, sizeof(dir), UFREQ_DIR "/package_%02d_die_00", sock);
		if (entry(m, dir, f, -1))
			return -1;
	}
	return 0;
}
