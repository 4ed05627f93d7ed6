/*
 * The simulated kernel's PMUs and the sysfs tree it shows them in, as the driver registers them:
 * uncore_<name>[_<box>] (the box number only when the type has several), "uncore" for Nehalem's
 * nameless type, uncore_type_<type>[_<box>] for a discovered type it does not name (and for every type
 * with generic=1, a kernel without the model's entry), an alias file on named discovery types, the
 * free-running PMUs, type numbers as dynamic as the kernel's, a cpumask with one CPU per die, the
 * format and event files, the CPU topology and perf_event_paranoid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_kernel_priv.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/perf_format.h"
#include "sim/sim_only.h"
#include "sim/sim_disc.h"
#include "sim/sim_numa.h"

/* GENERIC_PMON_RAW_EVENT_MASK (uncore_discovery.h): what the generic driver keeps of config */
#define GENERIC_RAW_MASK (0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24)

/* uncore_discovery.c generic formats, and the free-running PMUs' (skx_uncore_iio_freerunning_formats_attr) */
static const char *const generic_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					   "thresh=config:24-31", NULL };
static const char *const fr_fmt[] = { "event=config:0-7", "umask=config:8-15", NULL };

static const char *const *formats_of(const struct sk_pmu *p)
{
	return p->fr ? fr_fmt : p->generic ? generic_fmt : p->t->formats;
}

/* The bits each format names, per word; filter fields (config1/config2) kept one by one. */
static int parse_formats(struct sk_pmu *p)
{
	for (const char *const *f = formats_of(p); *f; f++) {
		struct perf_format pf;
		const char *eq = strchr(*f, '=');
		if (!eq || perf_format_parse(*f, eq + 1, &pf))
			return uc_err("simulated kernel: bad format '%s'", *f);
		uint64_t m = 0;
		for (int r = 0; r < pf.nranges; r++)
			m |= uc_width_mask(pf.r[r].hi - pf.r[r].lo + 1) << pf.r[r].lo;
		p->keep[pf.word] |= m;
		if (pf.word && p->nfld < SK_MAX_FIELDS) {
			p->fld[p->nfld].word = pf.word;
			p->fld[p->nfld++].mask = m;
		}
	}
	if (!p->fr) /* the driver's event mask decides what it keeps of config, not the format list */
		p->keep[0] = p->generic ? GENERIC_RAW_MASK : p->t->raw_mask;
	return 0;
}

static struct sk_pmu *add_pmu(struct sim_kernel *k)
{
	struct sk_pmu *n = uc_grow(k->pmus, k->npmus, &k->cap_pmus, sizeof(*n), 64);
	if (!n)
		return NULL;
	k->pmus = n;
	memset(&n[k->npmus], 0, sizeof(*n));
	return &n[k->npmus++];
}

static void name_pmu(struct sk_pmu *p, int nboxes)
{
	const struct sim_perf_type *t = p->t;
	const char *stem = p->generic ? NULL : t->name;
	char base[48];
	if (p->fr)
		snprintf(base, sizeof(base), "uncore_%s", t->fr_name);
	else if (stem && !*stem)
		snprintf(base, sizeof(base), "uncore");
	else if (stem)
		snprintf(base, sizeof(base), "uncore_%s", stem);
	else
		snprintf(base, sizeof(base), "uncore_type_%d", t->disc_type);
	if (nboxes > 1)
		snprintf(p->name, sizeof(p->name), "%s_%d", base, p->idx);
	else
		snprintf(p->name, sizeof(p->name), "%s", base);
}

/* Whether the driver finds box b: not where fault missing hid it; where its discovery entry gives its unit
 * control (missing zeroes it: Linux leaves out such an entry, uncore_discovery.c uncore_insert_box_info)
 * and, for a PCI unit, names a device the machine has:
 * Linux registers a PCI unit of the table only then (uncore.c uncore_pci_pmus_register).  Always, for a
 * unit the driver does not find through the table, and for free-running PMUs (fr), which it places from
 * its own descriptors.  The box's table is the machine's blob b->disc_blob. */
/* The access (0 MSR, 1 MMIO, 2 PCI) box b's discovery entry gives, -1 where it has none. */
static int entry_access(const struct sim *s, const struct sim_box *b)
{
	uint64_t w;
	if (b->disc_entry < 0 || b->disc_blob >= s->nblobs)
		return -1;
	memcpy(&w, s->blobs[b->disc_blob].data + ((size_t)b->disc_entry + 1) * SIM_DISC_STRIDE * 8, 8);
	return (int)(w >> 62);
}

static int found_by_driver(const struct sim_kernel *k, const struct sim_perf_type *t, const struct sim_box *b, int fr)
{
	const struct sim *s = k->s;
	for (int i = 0; i < s->ndevs; i++) /* fault missing hid its function: the driver never probes it */
		if (s->devs[i].box == b && !s->devs[i].companion && !s->devs[i].present)
			return 0;
	if (!fr && t->no_msr && !k->generic && entry_access(s, b) == 0)
		return 0; /* no .cpu_init: the MSR units are never registered */
	if ((fr && b->u->space != SIM_PCI) || b->disc_entry < 0 || b->disc_blob >= s->nblobs ||
	    (t->by_devid && !k->generic))
		return 1;
	const struct sim_blob *bl = &s->blobs[b->disc_blob];
	uint64_t g, a;
	memcpy(&g, bl->data, 8);
	size_t off = ((size_t)b->disc_entry + 1) * ((g >> 8) & 0xff) * 8 + 8; /* the entry's unit control */
	if (off + 8 > bl->len)
		return 0;
	memcpy(&a, bl->data + off, 8);
	if (b->u->space != SIM_PCI)
		return a != 0;
	for (int i = 0; i < s->ndevs; i++) {
		const struct pci_loc *l = &s->devs[i].info.loc;
		if (l->bus == (int)(a >> 20 & 0xff) && (l->dev << 3 | l->fn) == (int)(a >> 12 & 0xff))
			return 1;
	}
	return 0;
}

/* Whether the driver's enable_event writes 32 bits of config (sim_perf.h ctl_write): a type it does not name, and
 * every type of the generic driver, has the generic discovery ops of its unit's access (uncore_discovery.c
 * uncore_update_uncore_type: wrmsrl, pci_write_config_dword, writel); a named type without ops of its own too
 * (uncore_type_customized_copy copies ops only where the model's type has them: Diamond Rapids' but the iMC). */
static int writes_dword(const struct sim_kernel *k, const struct sim_perf_type *t, const struct sim_unit *u)
{
	if (k->generic || !t->name || t->ctl_write == SK_CTL_BY_ACCESS)
		return u->space != SIM_MSR;
	return t->ctl_write == SK_CTL_DWORD;
}

/* The PCI function whose BAR holds table blob, or -1 (a table an MSR names: Linux 7.0 places it by die). */
static int table_dev(const struct sim *s, int blob)
{
	for (int i = 0; i < s->ndevs; i++) {
		uint32_t lo, hi;
		memcpy(&lo, s->devs[i].cfg + 0x10, 4);
		memcpy(&hi, s->devs[i].cfg + 0x14, 4);
		uint64_t bar = (lo & 0x6) == 0x4 ? (uint64_t)hi << 32 | (lo & ~0xfffu) : lo & ~0xfffu; /* 64- or 32-bit */
		if (s->devs[i].present && s->devs[i].info.device != 0 && !(lo & 1) && bar && bar == s->blobs[blob].phys)
			return i;
	}
	return -1;
}

/* The logical die the driver gives box b (its pmu->boxes[] slot), -1 none.  A unit the driver takes from a
 * PCI discovery table goes where the table goes (uncore_discovery.c get_device_die_id): the die of its
 * device's NUMA node (the simulator gives each table device its die's node); without a node (numa=off) the
 * next die in the order the tables are found, bus by bus as the PCI device list is, none beyond
 * uncore_max_dies() (7b568e9eba2f).  An MSR unit is read on a CPU of the die the table went to, which answers
 * with its own die's registers at the same address: it keeps its own die, as do the units a type finds by
 * device id (SPR's UPI, Linux spr_update_device_location) and the free-running ones. */
static int kernel_die(const struct sim_kernel *k, const struct sim_perf_type *t, const struct sim_box *b, int fr)
{
	const struct sim *s = k->s;
	int dev = fr || b->u->space == SIM_MSR || b->disc_entry < 0 || b->disc_blob >= s->nblobs ||
			  (t->by_devid && !k->generic) ? -1 : table_dev(s, b->disc_blob), order = 0;
	if (dev < 0)
		return sim_box_scope(s, b);
	if (s->devs[dev].info.node >= 0) /* its die's node (sim_disc_device): the die of the node */
		return sim_scope_of_node(s, s->devs[dev].info.node);
	const struct pci_loc *l = &s->devs[dev].info.loc;
	for (int bl = 0; bl < s->nblobs; bl++) { /* the tables found before it without a node */
		int o = table_dev(s, bl);
		const struct pci_loc *m = o >= 0 ? &s->devs[o].info.loc : NULL;
		order += m && o != dev && s->devs[o].info.node < 0 &&
			 (m->dom < l->dom || (m->dom == l->dom && (m->bus < l->bus || (m->bus == l->bus &&
			  (m->dev << 3 | m->fn) < (l->dev << 3 | l->fn)))));
	}
	return order < sim_scopes(s) ? order : -1;
}

/* Linux 6.12.0's gnr_uncore_init (kernel=6.12.0) leaves a type NULL in gnr_uncores[]: uncore_type_<t>. */
static int unnamed(const struct sim_kernel *k, const struct sim_perf_type *t)
{
	return k->linux_6120 && t->linux_6120 == SK_6120_UNNAMED;
}

/* The PMUs of one driver type: a box PMU per box index the machine has, a free-running PMU per box with
 * free-running counters (numbered in order on each die); the generic driver has no free-running PMUs.  A unit
 * of free-running counters alone (Diamond Rapids' IIO, dmr_uncore_iio_free_running) has no box PMU. */
/* uncore_type_max_boxes(uncore_mmio_uncores, type) as the driver counts it: the largest id below 0x8000 (IMH2's
 * start there) of the units of that type it registered as MMIO, plus 1 (0: none) */
static int mmio_max_boxes(const struct sim_kernel *k, int type)
{
	int max = -1;
	for (int i = 0; i < k->s->nboxes; i++) {
		const struct sim_box *b = &k->s->boxes[i];
		if (b->u->disc_type == type && entry_access(k->s, b) == 1 && b->idx < 0x8000 && b->idx > max)
			max = b->idx;
	}
	return max + 1;
}

/* The unit a type drives, or its twin listed through another access (sim:dmr's msr=): one unit to the driver */
static int same_unit(const struct sim_unit *a, const struct sim_unit *b)
{
	return a == b || (a->disc_type == b->disc_type && a->disc_type >= 0 && !strcmp(a->name, b->name));
}

static int type_pmus(struct sim_kernel *k, const struct sim_perf_type *t, const struct sim_unit *u)
{
	int first = k->npmus, nbox = 0, nfr = 0, fr_max = t->fr_count_type ? mmio_max_boxes(k, t->fr_count_type) : -1;
	for (int fr = 0; fr < 2; fr++) {
		int start = k->npmus;
		for (int i = 0; i < k->s->nboxes; i++) {
			struct sim_box *b = &k->s->boxes[i];
			if (!same_unit(b->u, u) || (t->max_boxes && b->idx >= t->max_boxes) || (t->cap_by_cores && b->idx >= k->s->cores) ||
			    (fr && (!t->fr_name || !b->nfr || k->generic || (fr_max >= 0 && b->idx >= fr_max))) ||
			    (!fr && !u->nctr && u->nfr) ||
			    !found_by_driver(k, t, b, fr) || kernel_die(k, t, b, fr) < 0)
				continue;
			int idx = b->idx;
			if (fr) { /* its ordinal among the die's boxes with free-running counters */
				idx = 0;
				for (int j = 0; j < i; j++)
					idx += k->s->boxes[j].u == u &&
					       sim_box_scope(k->s, &k->s->boxes[j]) == sim_box_scope(k->s, b) && k->s->boxes[j].nfr;
			}
			struct sk_pmu *p = NULL;
			for (int j = start; j < k->npmus; j++)
				if (k->pmus[j].idx == idx)
					p = &k->pmus[j];
			if (!p) {
				if (!(p = add_pmu(k)))
					return uc_err("out of memory");
				p->t = t;
				p->fr = fr;
				p->idx = idx;
				p->generic = k->generic || unnamed(k, t);
			}
			p->box[kernel_die(k, t, b, fr)] = b; /* by logical die, as the kernel's pmu->boxes[] */
		}
		if (fr)
			nfr = k->npmus - start;
		else
			nbox = k->npmus - start;
	}
	/* a type of known size is named by the driver's num_boxes (uncore_get_pmu_name), not by the boxes found:
	 * Broadwell-DE's one HA is uncore_ha_0 */
	if (t->max_boxes && !k->generic)
		nbox = t->cap_by_cores && t->max_boxes > k->s->cores ? k->s->cores : t->max_boxes;
	for (int j = first; j < k->npmus; j++) {
		k->pmus[j].dword = writes_dword(k, t, u);
		name_pmu(&k->pmus[j], k->pmus[j].fr ? nfr : nbox);
		if (parse_formats(&k->pmus[j]))
			return -1;
	}
	return 0;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

int sk_build_pmus(struct sim_kernel *k)
{
	const struct sim_kind *kind = k->s->kind;
	for (int i = 0; i < *kind->nperf; i++) {
		const struct sim_unit *u = sim_unit_named(k->s, kind->perf[i].unit);
		if (k->generic && kind->perf[i].disc_type < 0)
			continue; /* the generic driver knows only discovered units: none without tables (ENODEV) */
		if (!k->generic && k->linux_6120 && kind->perf[i].linux_6120 == SK_6120_IGNORED)
			continue; /* in Linux 6.12.0's gnr_uncore_units_ignore: uncore_insert_box_info skips it */
		if (u && type_pmus(k, &kind->perf[i], u))
			return -1;
	}
	/* dynamic type numbers, in an order of their own (perf_pmu_register hands out the next free id): a
	 * stride prime to the count, so that no two PMUs share one */
	int stride = 7;
	while (k->npmus > 1 && gcd(stride, k->npmus) != 1)
		stride += 2;
	for (int i = 0; i < k->npmus; i++)
		k->pmus[i].type = 24 + (unsigned)((i * stride + 3) % k->npmus) + (unsigned)k->npmus * (unsigned)(i % 2);
	return sk_power_build(k, 24 + 2 * (unsigned)k->npmus); /* a number past every uncore PMU's */
}

/* One file of the tree: its path ("/sys/...") and its text, in one allocation. */
static int put(struct sim_kernel *k, const char *path, const char *text)
{
	return sk_tree_put(k, path, text);
}

int sk_tree_put(struct sim_kernel *k, const char *path, const char *text)
{
	if (k->nfiles == k->fcap) {
		int cap = k->fcap ? 2 * k->fcap : 256;
		char **n = realloc(k->files, (size_t)cap * sizeof(*n));
		if (!n)
			return uc_err("out of memory");
		k->files = n;
		k->fcap = cap;
	}
	size_t lp = strlen(path) + 1, lt = strlen(text) + 1;
	char *f = malloc(lp + lt);
	if (!f)
		return uc_err("out of memory");
	memcpy(f, path, lp);
	memcpy(f + lp, text, lt);
	k->files[k->nfiles++] = f;
	return 0;
}

#define PMU_DIR "/sys/bus/event_source/devices/"

/* The boxes of p's driver type: its PMUs (free-running ones apart). */
static int type_boxes(const struct sim_kernel *k, const struct sk_pmu *p)
{
	int n = 0;
	for (int i = 0; i < k->npmus; i++)
		n += k->pmus[i].t == p->t && k->pmus[i].fr == p->fr;
	return n;
}

void sk_cpumask(const struct sim_kernel *k, int per, int nscopes, struct sim_box *const *has, char *text, size_t len)
{
	size_t n = 0;
	text[0] = 0;
	for (int s = 0; s < nscopes && n < len; s++) {
		int cpu = !has || has[s] ? sim_first_online(k->s, s * per, per) : -1;
		if (cpu >= 0)
			n += (size_t)snprintf(text + n, len - n, "%s%d", n ? "," : "", cpu);
	}
}

/* p's cpumask: the first online CPU of each die it has a box on.  Linux moves a die's collecting CPU to another of
 * the die when it goes offline, and leaves out a die with none (uncore.c uncore_event_cpu_offline,
 * uncore_change_context). */
static void pmu_cpumask(const struct sim_kernel *k, const struct sk_pmu *p, char *text, size_t len)
{
	sk_cpumask(k, k->s->cores, UC_MAX_SOCKETS, p->box, text, len);
}

static int write_pmu(struct sim_kernel *k, const struct sk_pmu *p)
{
	char path[256], text[256];
	int rc;
	snprintf(path, sizeof(path), PMU_DIR "%s/type", p->name);
	snprintf(text, sizeof(text), "%u", p->type);
	rc = put(k, path, text);
	pmu_cpumask(k, p, text, sizeof(text));
	snprintf(path, sizeof(path), PMU_DIR "%s/cpumask", p->name);
	rc = rc ? rc : put(k, path, text);
	for (const char *const *f = formats_of(p); *f && !rc; f++) {
		const char *eq = strchr(*f, '=');
		snprintf(path, sizeof(path), PMU_DIR "%s/format/%.*s", p->name, (int)(eq - *f), *f);
		rc = put(k, path, eq + 1);
	}
	const char *const *ev = p->generic ? NULL : p->fr ? p->t->fr_events : p->t->events;
	if (!p->generic && !p->fr && k->linux_6120 && p->t->events_6120)
		ev = p->t->events_6120;
	for (; ev && *ev && !rc; ev++) {
		const char *eq = strchr(*ev, '=');
		int scale = eq - *ev > 6 && !strncmp(eq - 6, ".scale", 6);
		snprintf(path, sizeof(path), PMU_DIR "%s/events/%.*s", p->name, (int)(eq - *ev), *ev);
		snprintf(text, sizeof(text), k->scale_quotes && scale ? "\"%s\"" : "%s", eq + 1);
		rc = put(k, path, text);
	}
	if (!rc && !p->fr && !p->generic && p->t->name && p->t->disc_type >= 0) { /* uncore_alias_groups */
		/* uncore_get_alias_name: no box number when the type has one box */
		snprintf(path, sizeof(path), PMU_DIR "%s/alias", p->name);
		if (type_boxes(k, p) == 1)
			snprintf(text, sizeof(text), "uncore_type_%d", p->t->disc_type);
		else
			snprintf(text, sizeof(text), "uncore_type_%d_%d", p->t->disc_type, p->idx);
		rc = put(k, path, text);
	}
	return rc;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The tree is kept in memory, sorted by path, and read through the kernel's read_line and list_dir:
 * nothing is written to disk, so it costs no time to make and nothing is left if the process dies. */
int sk_write_tree(struct sim_kernel *k)
{
	char path[128], text[32];
	snprintf(text, sizeof(text), "%ld", k->paranoid);
	if (put(k, "/proc/sys/kernel/perf_event_paranoid", text))
		return -1;
	for (int c = 0; c < sim_scopes(k->s) * k->s->cores; c++) { /* CPUs die by die (sim.h sim_scopes) */
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		snprintf(text, sizeof(text), "%d", c / k->s->cores / k->s->dies);
		if (put(k, path, text))
			return -1;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", c);
		snprintf(text, sizeof(text), "%ld", sim_cpu_die_id(k->s, c));
		if (put(k, path, text))
			return -1;
		/* the core id in the socket, one thread a core (sim_jobs.c's tid filter) */
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
		snprintf(text, sizeof(text), "%d", c % (k->s->cores * k->s->dies));
		if (put(k, path, text))
			return -1;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
		snprintf(text, sizeof(text), "%d", c);
		if (put(k, path, text))
			return -1;
	}
	for (int i = 0; i < k->npmus; i++)
		if (!k->pmus[i].missing && write_pmu(k, &k->pmus[i]))
			return -1;
	if (sk_power_tree(k) || sim_rapl_sysfs(k->s, &k->powercap))
		return -1;
	qsort(k->files, (size_t)k->nfiles, sizeof(*k->files), by_path);
	memcpy(k->cpus_off, k->s->cpu_off, sizeof(k->cpus_off)); /* (the cpumasks above are of these) */
	return 0;
}

/* The first entry whose path is not below key in sort order. */
static int lower_bound(const struct sim_kernel *k, const char *key)
{
	int lo = 0, hi = k->nfiles;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(k->files[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int sk_tree_replace(struct sim_kernel *k, const char *path, const char *text)
{
	int i = lower_bound(k, path);
	size_t lp = strlen(path) + 1, lt = strlen(text) + 1;
	char *f;
	if (i == k->nfiles || strcmp(k->files[i], path) || !(f = malloc(lp + lt)))
		return -1;
	memcpy(f, path, lp);
	memcpy(f + lp, text, lt);
	free(k->files[i]);
	k->files[i] = f;
	return 0;
}

/* The uncore driver reloaded (the simulator's changes=FILE, "pmu reload"): perf_pmu_register hands its PMUs
 * new type numbers, past every one it gave before (the power PMU's, another driver's, kept); an event opened
 * with an old number finds no PMU.  Each PMU's type file says its new number. */
static void follow_reload(struct sim_kernel *k)
{
	if (k->pmu_gen == k->s->pmu_gen)
		return;
	unsigned step = 2 * (unsigned)k->npmus + 1;
	for (; k->pmu_gen != k->s->pmu_gen; k->pmu_gen++)
		for (int p = 0; p < k->npmus; p++)
			k->pmus[p].type += step;
	for (int p = 0; p < k->npmus; p++) {
		char path[256], text[16];
		snprintf(path, sizeof(path), PMU_DIR "%s/type", k->pmus[p].name);
		snprintf(text, sizeof(text), "%u", k->pmus[p].type);
		sk_tree_replace(k, path, text);
	}
}

/* CPUs taken offline or brought back (changes=FILE, "cpu N offline"): each cpumask names the first online CPU of
 * each die (the power PMU's, of each package), as the drivers' hotplug callbacks move it; the events already open
 * move with it (perf_pmu_migrate_context) and count on. */
static void follow_cpus(struct sim_kernel *k)
{
	if (!memcmp(k->cpus_off, k->s->cpu_off, sizeof(k->cpus_off)))
		return;
	memcpy(k->cpus_off, k->s->cpu_off, sizeof(k->cpus_off));
	for (int p = 0; p < k->npmus; p++) {
		char path[256], text[256];
		snprintf(path, sizeof(path), PMU_DIR "%s/cpumask", k->pmus[p].name);
		pmu_cpumask(k, &k->pmus[p], text, sizeof(text));
		sk_tree_replace(k, path, text);
	}
	sk_power_follow_cpus(k);
}

void sk_follow(struct sim_kernel *k)
{
	follow_reload(k);
	follow_cpus(k);
}

int sk_read_line(struct perf_kernel *pk, const char *path, char *buf, size_t len)
{
	sk_follow(sk_of(pk));
	const struct sim_kernel *k = sk_of(pk);
	int i = lower_bound(k, path);
	const struct memfs_file *f = memfs_find(&k->powercap, path); /* made at the read (sim_rapl.c) */
	if (f)
		return memfs_read(f, buf, len);
	if (i == k->nfiles || strcmp(k->files[i], path) || !len)
		return -1;
	snprintf(buf, len, "%s", k->files[i] + strlen(k->files[i]) + 1);
	return 0;
}

/* A path below the directory (prefix, n characters): its child's name to fn, unless it is the child last given
 * (name); 1 once fn says stop. */
static int child(const char *path, size_t n, char *name, size_t size, int (*fn)(void *arg, const char *name), void *arg)
{
	const char *c = path + n;
	size_t len = strcspn(c, "/");
	if (len >= size || (!strncmp(name, c, len) && !name[len]))
		return 0;
	memcpy(name, c, len);
	name[len] = 0;
	return fn(arg, name) != 0;
}

int sk_list_dir(struct perf_kernel *pk, const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	sk_follow(sk_of(pk));
	const struct sim_kernel *k = sk_of(pk);
	char prefix[256], name[256];
	int n = snprintf(prefix, sizeof(prefix), "%s/", dir), found = 0;
	if (n < 0 || (size_t)n >= sizeof(prefix))
		return -1;
	name[0] = 0;
	for (int i = 0; i < k->powercap.n; i++) /* /sys/class/powercap: its entries in the order made */
		if (!strncmp(k->powercap.f[i].path, prefix, (size_t)n)) {
			found = 1;
			if (child(k->powercap.f[i].path, (size_t)n, name, sizeof(name), fn, arg))
				return 0;
		}
	/* everything below dir is one run of the sorted paths, each child's entries side by side */
	for (int i = lower_bound(k, prefix); i < k->nfiles && !strncmp(k->files[i], prefix, (size_t)n); i++) {
		found = 1;
		if (child(k->files[i], (size_t)n, name, sizeof(name), fn, arg))
			return 0;
	}
	return found ? 0 : -1;
}

void sk_free_tree(struct sim_kernel *k)
{
	for (int i = 0; i < k->nfiles; i++)
		free(k->files[i]);
	free(k->files);
	k->files = NULL;
	k->nfiles = k->fcap = 0;
}
