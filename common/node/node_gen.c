/*
 * Whether the node changed under the handle (uncore.h uncore_node_check, issue 99 point 2): a sum of what sysfs
 * says of each kind of change -- names of directories and a few one-line files, no walk of a tree -- compared
 * with the last (the facts are built again above: api/api_node.c uncore_node_check).  Names are summed, not chained, so that readdir's
 * order does not count.  Read through the backend's files: a simulated machine's tree, else the sysroot's.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "node.h"
#include "perf/perf_pmus.h"
#include "regs/write_guard.h"
#include "util/error.h"
#include "util/memfs.h"

static const char *const kind_name[UNCORE_NODE_KINDS] = { "cpus", "devices", "pmus", "memory", "clock limits" };

#define CPU_ONLINE "/sys/devices/system/cpu/online"
#define PCI_DEVICES "/sys/bus/pci/devices"
#define PMU_DIR "/sys/bus/event_source/devices"
#define EDAC_MC "/sys/devices/system/edac/mc"
#define UFREQ_DIR "/sys/devices/system/cpu/intel_uncore_frequency"

static uint64_t fnv_on(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static uint64_t fnv(const char *s) { return fnv_on(1469598103934665603ull, s); }

/* One sum being made: the tree read (m NULL: the sysroot's), and a directory's names handed to each */
struct sum {
	const struct memfs *m;
	uint64_t h;
	const char *dir;
	uint64_t dir_h; /* "dir/" hashed: each name's path hashed on from it (a PCI bus lists hundreds: no path made) */
	void (*each)(struct sum *s, const char *dir, const char *name);
};

static void add_line(struct sum *s, const char *path)
{
	char p[512], line[256];
	struct stat st;
	if (!sys_first_line(s->m, s->m ? path : sysroot_path(p, sizeof(p), "%s", path), line, sizeof(line), &st))
		s->h += fnv(path) ^ fnv(line);
}

static int one_name(void *arg, const char *name)
{
	struct sum *s = arg;
	if (strcmp(name, ".") && strcmp(name, "..")) {
		s->h += fnv_on(s->dir_h, name);
		if (s->each)
			s->each(s, s->dir, name);
	}
	return 0;
}

static void add_names(struct sum *s, const char *dir, void (*each)(struct sum *s, const char *dir, const char *name))
{
	struct sum sub = { s->m, 0, dir, fnv_on(fnv(dir), "/"), each };
	if (s->m)
		memfs_list(s->m, dir, one_name, &sub);
	else {
		char p[512];
		DIR *d = opendir(sysroot_path(p, sizeof(p), "%s", dir));
		for (struct dirent *e; d && (e = readdir(d));)
			one_name(&sub, e->d_name);
		if (d)
			closedir(d);
	}
	s->h += sub.h;
}

static void limits(struct sum *s, const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s/min_freq_khz", dir, name);
	add_line(s, p);
	snprintf(p, sizeof(p), "%s/%s/max_freq_khz", dir, name);
	add_line(s, p);
}

static void mc(struct sum *s, const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!strncmp(name, "mc", 2))
		add_names(s, p, NULL); /* its DIMMs, ranks or csrows: what EDAC found populated */
}

static void pmu_type(struct sum *s, const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s/type", dir, name);
	if (!strncmp(name, "uncore", 6))
		add_line(s, p);
}

/* The perf backend's kernel: its uncore PMUs' names and type numbers */
struct kernel_sum {
	struct perf_kernel *k;
	uint64_t h;
};

static int kernel_pmu(void *arg, const char *name)
{
	struct kernel_sum *ks = arg;
	char p[512], line[64];
	if (strncmp(name, "uncore", 6))
		return 0;
	snprintf(p, sizeof(p), PMU_DIR "/%s/type", name);
	ks->h += fnv(p) ^ (ks->k->ops->read_line(ks->k, p, line, sizeof(line)) ? 0 : fnv(line));
	return 0;
}

static void sums(uncore_t *u, const struct memfs *m, uint64_t out[UNCORE_NODE_KINDS])
{
	struct sum s[UNCORE_NODE_KINDS] = { { .m = m }, { .m = m }, { .m = m }, { .m = m }, { .m = m } };
	add_line(&s[0], CPU_ONLINE);
	add_names(&s[1], PCI_DEVICES, NULL);
	if (u->perf) {
		struct kernel_sum ks = { u->perf->k, 0 };
		u->perf->k->ops->list_dir(u->perf->k, PMU_DIR, kernel_pmu, &ks);
		s[2].h = ks.h;
	} else
		add_names(&s[2], PMU_DIR, pmu_type);
	add_names(&s[3], EDAC_MC, mc);
	add_names(&s[4], UFREQ_DIR, limits);
	for (int k = 0; k < UNCORE_NODE_KINDS; k++)
		out[k] = s[k].h;
}

/* CPUs went offline or came: the host as it is now, each MSR box on a CPU now offline read from its die's, and
 * the write guard's registers on the CPUs they are now written on (a session started after the change programs
 * its boxes there; the guard built at open knew only the CPUs then) */
static int follow_cpus(uncore_t *u)
{
	struct host_info h;
	if (u->acc->ops->host(u->acc, &h))
		return -1;
	u->host = h;
	for (int i = 0; i < u->nboxes; i++) {
		struct box *b = &u->boxes[i];
		if (b->cpu >= 0 && b->cpu < UC_MAX_CPUS && h.cpu_socket[b->cpu] < 0)
			b->cpu = host_die_cpu(&h, b->socket, b->die);
	}
	return u->perf ? 0 : write_guard_build(u);
}

/* The uncore driver reloaded: each PMU's new type number (a PMU gone keeps its old one: its events fail) */
static void follow_pmus(uncore_t *u)
{
	char p[512], line[64];
	for (int i = 0; u->perf && i < u->perf->npmus; i++) {
		struct perf_pmu *pm = &u->perf->pmus[i];
		unsigned t;
		snprintf(p, sizeof(p), PMU_DIR "/%s/type", pm->name);
		if (!u->perf->k->ops->read_line(u->perf->k, p, line, sizeof(line)) && sscanf(line, "%u", &t) == 1)
			pm->type = t;
	}
}

int node_changes(uncore_t *u, int *mask)
{
	const struct memfs *m;
	uint64_t now[UNCORE_NODE_KINDS];
	*mask = 0;
	if (access_node_poll(u->acc) < 0 || access_files(u->acc, &m))
		return -1;
	sums(u, m, now);
	for (int k = 0; k < UNCORE_NODE_KINDS && u->node_sums_set; k++)
		*mask |= now[k] != u->node_sums[k] ? 1 << k : 0;
	memcpy(u->node_sums, now, sizeof(now));
	u->node_sums_set = 1;
	int rc = *mask & UNCORE_NODE_CPUS ? follow_cpus(u) : 0;
	if (*mask & UNCORE_NODE_PMUS)
		follow_pmus(u);
	return rc;
}

const char *uncore_node_changes(int mask, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	for (int k = 0; k < UNCORE_NODE_KINDS && n < len; k++)
		if (mask & 1 << k)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", kind_name[k]);
	return buf;
}
