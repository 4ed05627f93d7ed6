/*
 * The uncore clock's limits, as Linux 6.12's drivers/platform/x86/intel/uncore-frequency/ show them (the files
 * and their rules: common/sim/sim_ufreq.c's comment), else from the MSRs those drivers read.
 * - Both drivers put their entries in one directory: on a TPMI part (uncore-frequency-tpmi.c) an uncoreNN entry
 *   per power domain and fabric cluster, beside a package_PP_die_00 root entry whose limits are its clusters'
 *   envelope (uncore_probe's root_cluster): where uncoreNN entries are, package entries are those roots and are
 *   left out, so that no cluster is counted twice.
 * - current_freq_khz, package_id, domain_id and fabric_cluster_id are 0400 (init_attribute_root_ro): another
 *   user reads the limits alone.
 * - The MSRs are read only on the parts of the MSR driver's intel_uncore_cpu_ids (uncore-frequency.c), where no
 *   driver's files are: the driver not loaded, as in a guest (intel_uncore_init refuses a hypervisor).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ufreq.h"
#include "access/access.h"
#include "devices/dev_fs.h"
#include "handle/handle.h"
#include "util/error.h"
#include "util/guarded_read.h"
#include "node/node.h"
#include "platform/platform.h"

#define DIR_PATH "/sys/devices/system/cpu/intel_uncore_frequency"
#define MAX_ENTRIES 256

struct names {
	char name[MAX_ENTRIES][24];
	int n;
};

static void add_name(void *arg, const char *name)
{
	struct names *l = arg;
	if (l->n < MAX_ENTRIES && strlen(name) < sizeof(l->name[0]) &&
	    (!strncmp(name, "uncore", 6) || !strncmp(name, "package_", 8)))
		snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", name);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The highest clock a limit can give: the ratio fields' 7 bits of 100 MHz, in kHz */
#define UFREQ_KHZ_MAX ((uint64_t)UFREQ_RATIO_MASK * (uint64_t)(UFREQ_RATIO_HZ / 1e3))

/* A file of the entry as a plain number up to max (digits alone: strtoul took "-1" and " 5"), or -1: missing
 * (silently: root's alone), or refused with a warning naming it. */
static int64_t num_file(const struct dev_fs *fs, const char *entry, const char *file, uint64_t max)
{
	char p[256], buf[32];
	uint64_t v;
	snprintf(p, sizeof(p), DIR_PATH "/%s/%s", entry, file);
	if (dev_fs_line(fs, p, buf, sizeof(buf)))
		return -1;
	if (uc_parse_u64(buf, max, &v)) {
		uc_warn("%s: '%.24s' is not a number from 0 to %llu: taken as unread", p, buf, (unsigned long long)max);
		return -1;
	}
	return (int64_t)v;
}

/* A file of the entry in hertz (kHz in the file), or NAN */
static double khz_file(const struct dev_fs *fs, const char *entry, const char *file)
{
	int64_t v = num_file(fs, entry, file, UFREQ_KHZ_MAX);
	return v < 0 ? NAN : (double)v * 1e3;
}

static int int_file(const struct dev_fs *fs, const char *entry, const char *file)
{
	return (int)num_file(fs, entry, file, 1 << 20);
}

/* The per-die form's name, package_PP_die_DD (uncore-frequency-common.c "package_%02d_die_%02d"): digits alone
 * (sscanf's %d took "package_-1_die_00"), 0 with them; -1 for any other name. */
static int die_name(const char *e, int *pkg, long *die_id)
{
	char num[2][16];
	uint64_t v[2];
	size_t a, b;
	if (strncmp(e, "package_", 8) || (a = strspn(e + 8, "0123456789")) == 0 || a >= sizeof(num[0]) ||
	    strncmp(e + 8 + a, "_die_", 5) || (b = strspn(e + 13 + a, "0123456789")) == 0 || b >= sizeof(num[0]) ||
	    e[13 + a + b])
		return -1;
	snprintf(num[0], sizeof(num[0]), "%.*s", (int)a, e + 8);
	snprintf(num[1], sizeof(num[1]), "%.*s", (int)b, e + 13 + a);
	if (uc_parse_u64(num[0], UC_MAX_SOCKETS - 1, &v[0]) || uc_parse_u64(num[1], 1u << 20, &v[1]))
		return -1;
	*pkg = (int)v[0], *die_id = (long)v[1];
	return 0;
}

/* A legacy entry's die in its socket: its die_id (topology_die_id, the name's DD) among the host's dies */
static int die_of(const uncore_t *u, int socket, long die_id, int nth)
{
	for (int d = 0; socket >= 0 && socket < UC_MAX_SOCKETS && d < u->host.socket_dies[socket] && d < UC_MAX_DIES; d++)
		if (u->host.die_id[socket][d] == die_id)
			return d;
	return nth; /* die ids unknown: the entries' order, which is the dies' (host_info) */
}

/* The driver's entries, each with what does not change while the machine runs (its name, socket, die, TPMI
 * domain and cluster): found once and kept by the handle's node (node/node.h); a read reads their limits. */
struct ufreq_entries {
	int n;
	struct uncore_freq_domain d[MAX_ENTRIES];
	struct dev_fs fs; /* the files their limits are read from at each read (a simulated machine's tree, kept) */
};

static struct ufreq_entries *find_entries(uncore_t *u, const struct dev_fs *fs)
{
	struct names *l = calloc(1, sizeof(*l));
	struct ufreq_entries *en = calloc(1, sizeof(*en));
	int tpmi = 0, seen[UC_MAX_SOCKETS] = { 0 };
	if (!l || !en) {
		free(l), free(en);
		return uc_err("out of memory"), NULL;
	}
	if (dev_fs_list(fs, DIR_PATH, add_name, l) || !l->n) {
		free(l);
		return en; /* no driver: none */
	}
	qsort(l->name, (size_t)l->n, sizeof(l->name[0]), by_name);
	for (int i = 0; i < l->n; i++)
		tpmi |= !strncmp(l->name[i], "uncore", 6);
	for (int i = 0; i < l->n; i++) {
		const char *e = l->name[i];
		struct uncore_freq_domain d = { .socket = -1, .die = -1, .domain = -1, .cluster = -1 };
		int pkg = -1;
		long die_id = -1;
		snprintf(d.name, sizeof(d.name), "%s", e);
		if (tpmi && strncmp(e, "uncore", 6))
			continue; /* the TPMI driver's package root: its clusters' envelope */
		if (tpmi && (!e[6] || e[6 + strspn(e + 6, "0123456789")])) { /* uncore-frequency-tpmi.c "uncore%02d" */
			uc_warn(DIR_PATH "/%s: not an entry name the driver gives (uncoreNN): left out", e);
			continue;
		}
		if (!tpmi && die_name(e, &pkg, &die_id)) {
			uc_warn(DIR_PATH "/%s: not an entry name the driver gives (package_PP_die_DD): left out", e);
			continue;
		}
		d.source = tpmi ? "intel_uncore_frequency (TPMI)" : "intel_uncore_frequency";
		if (tpmi) {
			d.socket = int_file(fs, e, "package_id");
			d.domain = int_file(fs, e, "domain_id"), d.cluster = int_file(fs, e, "fabric_cluster_id");
		} else if (pkg >= 0 && pkg < UC_MAX_SOCKETS) {
			d.socket = pkg;
			d.die = die_of(u, pkg, die_id, seen[pkg]++);
		}
		en->d[en->n++] = d;
	}
	free(l);
	return en;
}

static int from_files(const struct ufreq_entries *en, const struct dev_fs *fs, struct uncore_freq_domain *out, int max,
		      int limits_only)
{
	int k = 0;
	for (int i = 0; i < en->n; i++) {
		struct uncore_freq_domain d = en->d[i];
		const char *e = d.name;
		d.initial_min_hz = d.initial_max_hz = d.current_hz = NAN;
		d.min_hz = khz_file(fs, e, "min_freq_khz");
		d.max_hz = khz_file(fs, e, "max_freq_khz");
		if (d.min_hz > d.max_hz) { /* the driver refuses such a write (uncore_write_freq): not its files */
			uc_warn(DIR_PATH "/%s: min_freq_khz %.0f is above max_freq_khz %.0f: both taken as unread", e,
				d.min_hz / 1e3, d.max_hz / 1e3);
			d.min_hz = d.max_hz = NAN;
		}
		if (limits_only)
			d.domain = d.cluster = -1;
		else {
			d.initial_min_hz = khz_file(fs, e, "initial_min_freq_khz");
			d.initial_max_hz = khz_file(fs, e, "initial_max_freq_khz");
			d.current_hz = khz_file(fs, e, "current_freq_khz");
		}
		if (k++ < max && out)
			out[k - 1] = d;
	}
	return k;
}

static void entries_free(void *en) { free(en); }

/* The entries found, with the files they are read from: NULL with the reason */
static struct ufreq_entries *make(uncore_t *u)
{
	struct dev_fs fs = { 0 };
	const char *unknown;
	struct ufreq_entries *en;
	if (access_files(u->acc, &fs.mem)) /* a simulated machine's own files, a replayed node's */
		return NULL;
	if ((unknown = dev_fs_unknown(&fs, DIR_PATH))) /* a replayed snapshot that did not keep them */
		return uc_err("%s", unknown), NULL;
	if ((en = find_entries(u, &fs)))
		en->fs = fs;
	return en;
}

int ufreq_build(uncore_t *u)
{
	struct node_slot *s = node_slot(u, NODE_CLOCKS);
	if (s && !s->state) { /* found once (a failure kept with its reason: node_fact says it) */
		s->fact = make(u);
		s->release = entries_free;
		node_built(u, s, NODE_CLOCKS, s->fact ? 0 : -1);
	}
	return 0;
}

static double ratio_hz(uint64_t v, int shift) { return (double)(v >> shift & UFREQ_RATIO_MASK) * UFREQ_RATIO_HZ; }

static int from_msrs(uncore_t *u, struct uncore_freq_domain *out, int max, int limits_only)
{
	int k = 0;
	for (int sock = 0; sock < u->host.nsockets && sock < UC_MAX_SOCKETS; sock++)
		for (int die = 0; die < (u->host.socket_dies[sock] > 0 ? u->host.socket_dies[sock] : 1) && die < UC_MAX_DIES; die++) {
			int cpu = host_die_cpu(&u->host, sock, die);
			uint64_t lim, cur = 0;
			if (access_msr_read(u->acc, cpu, UFREQ_MSR_LIMIT, &lim))
				return -1;
			struct uncore_freq_domain d = { .socket = sock, .die = die, .domain = -1, .cluster = -1,
							.min_hz = ratio_hz(lim, UFREQ_MIN_SHIFT), .max_hz = ratio_hz(lim, UFREQ_MAX_SHIFT),
							.initial_min_hz = NAN, .initial_max_hz = NAN, .current_hz = NAN,
							.source = "MSR 0x620/0x621" };
			snprintf(d.name, sizeof(d.name), "msr");
			if (!limits_only && !access_msr_read(u->acc, cpu, UFREQ_MSR_STATUS, &cur))
				d.current_hz = ratio_hz(cur, UFREQ_CUR_SHIFT);
			if (k++ < max && out)
				out[k - 1] = d;
		}
	return k;
}

int ufreq_read(uncore_t *u, struct uncore_freq_domain *out, int max, int limits_only)
{
	const char *plat = u->plat ? u->plat->name : NULL;
	int rc;
	const struct ufreq_entries *en = node_fact(u, NODE_CLOCKS); /* found when the front end planned */
	if (!en)
		return -1;
	rc = from_files(en, &en->fs, out, max, limits_only);
	if (rc)
		return rc; /* the entries' limits */
	if (!u->plat || !u->plat->ufreq_msr) /* the parts of uncore-frequency.c intel_uncore_cpu_ids */
		return uc_err("no uncore clock limits: %s is missing, and %s keeps none in MSR 0x620 (Linux's "
			      "intel-uncore-frequency knows Broadwell-EP to Emerald Rapids; on Granite Rapids and later load "
			      "intel-uncore-frequency-tpmi)", DIR_PATH, plat ? plat : "this platform");
	if (u->perf)
		return uc_err("no uncore clock limits: %s is missing (load the intel-uncore-frequency module), and the perf "
			      "backend reads no MSR 0x620", DIR_PATH);
	char why[256];
	if ((rc = from_msrs(u, out, max, limits_only)) < 0) {
		snprintf(why, sizeof(why), "%s", uncore_error());
		return uc_err("no uncore clock limits: %s is missing (load the intel-uncore-frequency module) and MSR 0x620 "
			      "cannot be read: %s", DIR_PATH, why);
	}
	return rc;
}

int uncore_freq_read(uncore_t *u, struct uncore_freq_domain *out, int max)
{
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	int n = ufreq_read(u, out, max, 0);
	handle_unlock(u);
	return n;
}

int uncore_freq_domains(uncore_t *u, struct uncore_freq_domain *out, int max)
{
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	ufreq_build(u); /* (a query before the front end planned: uncore freq) */
	int n = uncore_freq_read(u, out, max);
	handle_unlock(u);
	return n;
}

int uncore_freq_selected(const struct uncore_selection *sel)
{
	int clock = 0;
	for (int i = 0; i < sel->ngroups && !clock; i++)
		clock = !strcmp(sel->groups[i], "clock");
	return clock || (!sel->nmetrics && !sel->ngroups && !sel->nevents);
}
