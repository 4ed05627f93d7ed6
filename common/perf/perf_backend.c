/*
 * The perf_event backend: which kernel (the real one, or the simulator's), the boxes its PMUs give
 * (by the kernel's own names: uncore_<name>[_N], the lone "uncore", uncore_type_<type>[_N] for a type
 * the kernel does not name, uncore_<name>_free_running_N), and whether the caller may use them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf.h"
#include "perf_pmus.h"
#include "util/error.h"

int perf_backend_open(uncore_t *u, const char *backend, const struct kernel_maker *maker)
{
	struct perf_kernel *k = NULL;
	struct access *inner = NULL;
	if (maker)
		k = maker->open(backend + strlen(maker->prefix), &inner);
	else if (!strcmp(backend, "perf") || !strcmp(backend, "auto"))
		k = perf_kernel_syscalls();
	else
		return uc_err("unknown backend '%s'", backend);
	if (!k) /* the simulated kernel said why */
		return strncmp(backend, "perf+", 5) ? uc_err("out of memory") : -1;
	if (!(u->perf = calloc(1, sizeof(*u->perf))) || !(u->acc = access_perf_open(inner))) {
		k->ops->free(k);
		free(u->perf);
		u->perf = NULL;
		return uc_err("out of memory");
	}
	if (perf_sys_scan(u->perf, k) || perf_sys_aliases(u->perf))
		return -1;
	static const struct perf_alias none = { 0 };
	u->kernel_aliases = u->perf->aliases ? u->perf->aliases : &none; /* perf knows only the kernel's */
	return 0;
}

void perf_backend_close(uncore_t *u)
{
	if (!u->perf)
		return;
	perf_sys_free(u->perf);
	u->kernel_aliases = NULL;
	if (u->perf->k)
		u->perf->k->ops->free(u->perf->k);
	free(u->perf);
	u->perf = NULL;
}

/* The box number N in name when it is base or base_N (-1: not this base). */
static int numbered(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (strncmp(name, base, n))
		return -1;
	if (!name[n])
		return 0;
	if (name[n] != '_' || !name[n + 1])
		return -1;
	char *end;
	long v = strtol(name + n + 1, &end, 10);
	return *end || v < 0 || v > 4095 || name[n + 1] < '0' || name[n + 1] > '9' ? -1 : (int)v;
}

struct found {
	int n, pmu;
};

static int by_n(const void *a, const void *b) { return ((const struct found *)a)->n - ((const struct found *)b)->n; }

/* The PMUs named base[_N], by N. */
static int collect(const struct perf_sys *ps, const char *base, struct found *out, int max)
{
	int k = 0;
	for (int i = 0; i < ps->npmus && k < max; i++) {
		int n = numbered(ps->pmus[i].name, base);
		if (n >= 0)
			out[k++] = (struct found){ n, i };
	}
	qsort(out, (size_t)k, sizeof(*out), by_n);
	return k;
}

/* A type's box PMUs: its kernel name, else the discovery type's generic name (a kernel without the
 * model's entry names none). */
static int type_pmus(const struct perf_sys *ps, const struct box_type *t, struct found *out, int max, char *base,
		     size_t len)
{
	int n = 0;
	if (t->perf) {
		snprintf(base, len, *t->perf ? "uncore_%s" : "uncore", t->perf);
		n = collect(ps, base, out, max);
	}
	if (!n && t->disc_type >= 0) {
		snprintf(base, len, "uncore_type_%d", t->disc_type);
		n = collect(ps, base, out, max);
	}
	return n;
}

static int add_box(uncore_t *u, const struct box *b)
{
	struct box *nb = realloc(u->boxes, (size_t)(u->nboxes + 1) * sizeof(*nb));
	if (!nb)
		return uc_err("out of memory");
	u->boxes = nb;
	u->boxes[u->nboxes++] = *b;
	return 0;
}

/* The CPU a PMU counts on for die d of socket s, or -1: its cpumask's CPU of that die as the host's
 * topology places it (a PMU with no box on some die leaves that die out of its cpumask, as 6.12 does),
 * else, where the host does not know the CPU's die, the mask's d-th die of the socket. */
static int pmu_cpu(const uncore_t *u, const struct perf_pmu *p, int s, int d)
{
	for (int k = 0; k < UC_MAX_DIES; k++) {
		int cpu = p->cpu[s][k], known = cpu >= 0 && cpu < UC_MAX_CPUS && u->host.cpu_die[cpu] >= 0;
		if (cpu >= 0 && (known ? u->host.cpu_die[cpu] == d : k == d))
			return cpu;
	}
	return -1;
}

/* Why only counter 0 of a box counts right, or NULL: a unit with controls 8 bytes apart in MMIO (CXL CM and DP) on
 * an uncore_type_<t> PMU has the generic driver's MMIO ops, which place counter i's control at event_ctl + 4 i
 * (uncore.h uncore_pci_event_ctl: intel_generic_uncore_mmio_init_box sets no UNCORE_BOX_FLAG_CTL_OFFS8, where the
 * generic PCI init_box and spr_uncore_mmio_offs8_init_box do), and no constraints: Linux 6.12.0's types 12 and 13
 * on GNR (NULL in gnr_uncores[] before 6d642735cdb6), and every kernel without the model's entry. */
static const char *one_ctr(const struct box_type *t, const struct perf_pmu *p)
{
	if (!t->perf || strncmp(p->name, "uncore_type_", 12) || t->space != UC_MMIO || t->ctl_stride != 8)
		return NULL;
	return "this kernel drives it as the generic driver's uncore_type_<t> PMU (Linux 6.14, and 6.12.y after its "
	       "March 2026 backport (6d642735cdb6), name it), whose MMIO ops put counter i's control 4 i bytes after "
	       "the first where this unit's are 8 apart, and which knows no counter restrictions: only counter 0 "
	       "counts right, so a box takes one event, and only one that counter 0 counts; count the rest on such "
	       "a kernel, or with the direct backend";
}

/* The boxes of one type on die d of socket s; free-running PMUs go to every ratio-th box (the kernel
 * numbers them per controller: IMC channels per controller = channel PMUs / free-running PMUs). */
static int die_boxes(uncore_t *u, int ti, int s, int d, const struct found *f, int n, const struct found *fr, int nfr)
{
	const struct box_type *t = u->plat->types[ti];
	const struct perf_sys *ps = u->perf;
	int nb = 0, j = 0;
	for (int i = 0; i < n; i++)
		nb += pmu_cpu(u, &ps->pmus[f[i].pmu], s, d) >= 0;
	int ratio = nfr && nb >= nfr ? nb / nfr : 1;
	for (int i = 0; i < n; i++) {
		int cpu = pmu_cpu(u, &ps->pmus[f[i].pmu], s, d);
		if (cpu < 0)
			continue;
		struct box b = { .t = t, .type_idx = ti, .socket = s, .die = d, .idx = f[i].n, .unit_id = f[i].n,
				 .cpu = cpu, .pmu = f[i].pmu, .fr_pmu = -1, .gsp = -1,
				 .r = { .nctr = t->nctr, .width = t->width } };
		if ((b.one_ctr = one_ctr(t, &ps->pmus[f[i].pmu])))
			b.r.nctr = 1;
		int k = j / ratio;
		if (nfr && j % ratio == 0 && k < nfr && pmu_cpu(u, &ps->pmus[fr[k].pmu], s, d) >= 0) {
			b.fr_pmu = fr[k].pmu;
			b.nfr = t->nfr;
		}
		j++;
		if (add_box(u, &b))
			return -1;
	}
	return 0;
}

/* The boxes of one type on every socket and die, numbered over a socket's dies (box_number_dies). */
static int type_boxes(uncore_t *u, int ti)
{
	const struct box_type *t = u->plat->types[ti];
	const struct perf_sys *ps = u->perf;
	struct found f[256], fr[64];
	char base[64], frbase[80];
	int n = type_pmus(ps, t, f, 256, base, sizeof(base)), nfr = 0, first = u->nboxes;
	if (t->nfr && t->perf && *t->perf) {
		snprintf(frbase, sizeof(frbase), "uncore_%s_free_running", t->perf);
		nfr = collect(ps, frbase, fr, 64);
	}
	if (!n && !t->nctr && nfr) { /* free-running counters alone (Diamond Rapids' IIO): a box per such PMU */
		memcpy(f, fr, (size_t)nfr * sizeof(*f));
		n = nfr;
	}
	if (!n && t->perf_since)
		return 0; /* said once for all such types (perf_boxes) */
	if (!n) {
		/* a type some parts lack is no cause to warn, nor one a capability can remove (Broadwell-EP's SBoxes
		 * where CAPID4's chop is 0: bdx_uncore_cpu_init registers none) */
		int may_lack = t->some_parts || (t->count && t->count->limit_if_clear && !t->count->limited);
		if ((t->perf || t->disc_type >= 0) && !may_lack)
			uc_warn("%s: the kernel has no PMU %s%s: left out (its PCI device was not probed, or the driver does "
				"not know it)", t->name, base, t->perf && *t->perf ? "[_N]" : "");
		return 0;
	}
	for (int s = 0; s < u->host.nsockets; s++)
		for (int d = 0; d < UC_MAX_DIES; d++) /* Linux: a box per PMU on every die its cpumask names */
			if (die_boxes(u, ti, s, d, f, n, fr, nfr))
				return -1;
	box_number_dies(u->boxes + first, u->nboxes - first);
	return 0;
}

int perf_boxes(uncore_t *u)
{
	char why[512];
	if (perf_permission(u->perf, why, sizeof(why)))
		return uc_err("the perf backend cannot be used: %s", why);
	if (!u->perf->npmus)
		return uc_err("%s shows no uncore PMUs in %s/sys/bus/event_source/devices%s", u->perf->k->name,
			      u->perf->k->root, u->host.hypervisor ? ": this is a virtual machine, and a hypervisor hides the "
			      "uncore from its guests" : ": is the intel_uncore module loaded (modprobe intel_uncore)?");
	if (u->plat->disc_unnamed && perf_platform_unnamed(u))
		return -1;
	char none[256] = "";
	const char *since = NULL;
	for (int t = 0; t < u->plat->ntypes; t++) {
		int before = u->nboxes;
		if (type_boxes(u, t))
			return -1;
		const struct box_type *bt = u->plat->types[t];
		if (u->nboxes == before && bt->perf_since && strlen(none) + strlen(bt->name) + 3 < sizeof(none)) {
			snprintf(none + strlen(none), sizeof(none) - strlen(none), "%s%s", *none ? ", " : "", bt->name);
			since = bt->perf_since;
		}
	}
	if (since) /* a kernel older than the platform's table (GNR on Linux 6.12.0) */
		uc_warn("this kernel registers no PMU for %s: left out (%s register them)", none, since);
	if (!u->nboxes)
		return uc_err("none of the kernel's %d uncore PMUs belongs to %s (the kernel does not know this CPU's "
			      "uncore)", u->perf->npmus, u->plat->desc);
	return 0;
}

/* auto: the kernel's PMUs when they exist for this platform and the caller may use them. */
int perf_backend_usable(uncore_t *u)
{
	char why[400];
	if (!u->perf->npmus) {
		snprintf(u->why, sizeof(u->why), "no uncore PMUs in %.400s/sys/bus/event_source/devices%s", u->perf->k->root,
			 u->host.hypervisor ? " (a hypervisor hides them)" : "");
		return 0;
	}
	if (perf_permission(u->perf, why, sizeof(why))) {
		snprintf(u->why, sizeof(u->why), "the kernel has %d uncore PMUs, but %.400s", u->perf->npmus, why);
		return 0;
	}
	snprintf(u->why, sizeof(u->why), "the kernel has %d uncore PMUs and perf_event_paranoid %ld%s lets this process "
		 "use them", u->perf->npmus, u->perf->paranoid,
		 u->perf->sys_admin ? " with CAP_SYS_ADMIN" : u->perf->perfmon ? " with CAP_PERFMON" : "");
	return 1;
}
