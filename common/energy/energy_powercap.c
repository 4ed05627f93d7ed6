/*
 * Energy from powercap's intel-rapl zones (drivers/powercap/intel_rapl_common.c over the MSRs, or
 * intel_rapl_tpmi.c on Granite Rapids and later): /sys/class/powercap/intel-rapl:N named "package-P" (or
 * "package-P-die-D") and "psys"/"psys-P", their sub-zones intel-rapl:N:M named "dram"; energy_uj counts
 * microjoules up to max_energy_range_uj and wraps to 0 (Documentation/power/powercap/powercap.rst) when the
 * 32-bit count under it does.
 * energy_uj is root-only since Linux 5.10 (CVE-2020-8694, "Platypus").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "energy.h"
#include "handle/handle.h"
#include "util/error.h"
#include "util/guarded_read.h"

#define ROOT "/sys/class/powercap"

struct zones {
	char name[64][24];
	int n;
};

static void add_zone(void *arg, const char *name)
{
	struct zones *z = arg;
	if (!strncmp(name, "intel-rapl:", 11) && z->n < 64)
		snprintf(z->name[z->n++], sizeof(z->name[0]), "%s", name);
}

static int zone_line(struct uncore_energy *e, const char *zone, const char *file, char *buf, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), ROOT "/%s/%s", zone, file);
	return dev_fs_line(&e->fs, path, buf, len);
}

/* The socket and domain a zone counts: 0; -1 for a zone of another kind (core, uncore) */
static int zone_kind(struct uncore_energy *e, const char *zone, int *socket, int *die, int *dom)
{
	char name[64], parent[24];
	int p = 0, d = 0;
	const char *sub = strchr(zone + 11, ':');
	if (zone_line(e, zone, "name", name, sizeof(name)))
		return -1;
	if (sub) { /* a sub-zone: DRAM of its package's zone */
		snprintf(parent, sizeof(parent), "%.*s", (int)(sub - zone), zone);
		if (strcmp(name, "dram") || zone_kind(e, parent, socket, die, dom) || *dom != UNCORE_ENERGY_PKG)
			return -1;
		*dom = UNCORE_ENERGY_DRAM;
		return 0;
	}
	if (sscanf(name, "package-%d-die-%d", &p, &d) >= 1)
		*dom = UNCORE_ENERGY_PKG;
	else if (!strcmp(name, "psys") || sscanf(name, "psys-%d", &p) == 1)
		*dom = UNCORE_ENERGY_PSYS;
	else
		return -1;
	if (p < 0 || p >= e->u->host.nsockets || d < 0 || d >= UC_MAX_DIES)
		return -1;
	*socket = p, *die = d;
	return 0;
}

/* The joules one microjoule of energy_uj is.  The kernel counts energy_uj as the raw count x its unit in whole
 * nanojoules (intel_rapl_common.c rapl_unit_xlate; rapl_check_unit_core: 1e9 >> ESU), and its range is 2^32 - 1
 * of them (ENERGY_STATUS_MASK), so the range gives the kernel's unit; the part's own is 1/2^ESU J
 * (MSR_RAPL_POWER_UNIT), the power of two nearest it, or the part's fixed DRAM unit, which powercap takes as
 * 15300 nJ (rapl_defaults_hsw_server; 0.27 % more than 2^-16 J) or, on BDX-DE, as the package's unit
 * (rapl_ids gives BROADWELL_D rapl_defaults_core: 4 x).  energy_uj x this is the part's joules. */
static double uj_joules(const struct uncore_energy *e, int dom, unsigned long long range)
{
	double kernel = (double)range * 1e-6 / 4294967295.0;
	double part = dom == UNCORE_ENERGY_DRAM && e->part->dram_unit_j ? e->part->dram_unit_j
		      : ldexp(1.0, (int)lround(log2(kernel)));
	return 1e-6 * part / kernel;
}

static int pc_open(struct uncore_energy *e)
{
	struct zones z = { .n = 0 };
	char line[64], names[64] = "";
	if (e->u->acc->simulated && !e->fs.mem) /* never the host's own zones under a simulated machine */
		return uc_err("powercap: the simulator shows no powercap tree");
	if (dev_fs_list(&e->fs, ROOT, add_zone, &z) || !z.n)
		return uc_err("powercap: no intel-rapl zone in %s (the intel_rapl_msr or intel_rapl_tpmi module is not "
			      "loaded)", ROOT);
	for (int i = 0; i < z.n; i++) {
		int s, d, dom;
		uint64_t range;
		struct energy_counter *c;
		if (zone_kind(e, z.name[i], &s, &d, &dom) || !(e->part->domains & (1u << dom)))
			continue;
		if (zone_line(e, z.name[i], "max_energy_range_uj", line, sizeof(line)) ||
		    uc_parse_u64(line, UINT64_MAX / 2, &range) || !range)
			continue;
		if (zone_line(e, z.name[i], "energy_uj", line, sizeof(line)))
			return uc_err("powercap: %s%s/%s/energy_uj cannot be read: it is root-only since Linux 5.10 "
				      "(CVE-2020-8694); run as root, or use the perf power PMU (CAP_PERFMON)",
				      e->fs.mem ? "the simulator's " : "", ROOT, z.name[i]);
		/* the count wraps at 2^32 of the kernel's units, range x 2^32 / (2^32 - 1) microjoules: one unit above
		 * the range (a whole joule where the unit is 1 J, SPR's psys) */
		if (!(c = energy_add(e, s, d, dom, uj_joules(e, dom, range),
				     (uint64_t)llround((double)range * 4294967296.0 / 4294967295.0))))
			return uc_err("powercap: too many zones");
		snprintf(c->path, sizeof(c->path), "%s", z.name[i]);
		c->max_raw = range; /* energy_uj is never above it: a value that is is refused (energy_api.c) */
		if (!strstr(names, uncore_energy_domain_name(dom)))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", *names ? ", " : "",
				 uncore_energy_domain_name(dom));
	}
	if (!e->n)
		return uc_err("powercap: no package, dram or psys zone among %d intel-rapl zones of %s", z.n, ROOT);
	snprintf(e->source, sizeof(e->source), "powercap %s/intel-rapl:*: %s", ROOT, names);
	return 0;
}

static int pc_read(struct uncore_energy *e, struct energy_counter *c, uint64_t *raw)
{
	char line[64];
	if (zone_line(e, c->path, "energy_uj", line, sizeof(line)))
		return uc_err("powercap: %s/%s/energy_uj cannot be read", ROOT, c->path);
	if (uc_parse_u64(line, UINT64_MAX, raw)) /* a sign, a blank, text: no value, refused for this read alone */
		*raw = UINT64_MAX;
	return 0;
}

static void pc_close(struct uncore_energy *e) { (void)e; /* the tree is the object's (uncore_energy_free) */ }

const struct energy_source_ops energy_powercap_ops = { "powercap", pc_open, pc_read, pc_close };
