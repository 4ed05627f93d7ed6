/* Opening the uncore: backend, host, platform, boxes; information and catalog queries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "uncore_priv.h"
#include "util/arena.h"
#include "util/env.h"
#include "util/error.h"
#include "util/cpulist.h"
#include "open.h"
#include "node/node.h"
#include "access/access.h"

static int open_access(uncore_t *u, const char *backend)
{
	if (!strcmp(backend, "perf") || !strncmp(backend, "perf+sim:", 9) || !strncmp(backend, "perf+replay:", 12))
		return perf_backend_open(u, backend, kernel_maker_of(backend));
	if (!strncmp(backend, "sim:", 4) || !strcmp(backend, "sim"))
		u->acc = access_sim_open(backend[3] ? backend + 4 : ""); /* "": the simulator's default machine */
	else if (!strncmp(backend, "replay:", 7))
		u->acc = access_replay_open(backend + 7);
	else if (!strcmp(backend, "direct"))
		u->acc = access_direct_open();
	else
		return uc_err("unknown backend '%s': use auto, perf, direct, sim:<platform>[,options], "
			      "perf+sim:<platform>[,options], replay:SNAPSHOT[,options] or perf+replay:SNAPSHOT[,options]",
			      backend);
	return u->acc ? 0 : -1;
}

/* auto: the kernel's perf PMUs when they exist for this platform and may be used, else the registers
 * directly.  When it falls back, perf_why says why perf was not taken (uncore_open gives it beside direct's
 * own failure, if direct fails too); otherwise it stays "". */
static int open_auto(uncore_t *u, char *perf_why, size_t len)
{
	if (!perf_backend_open(u, "auto", NULL) && !u->acc->ops->host(u->acc, &u->host)) {
		const struct platform_desc *p = platform_by_cpu(u->host.family, u->host.model, u->host.stepping);
		if ((!p || !p->sim_only) && perf_backend_usable(u)) { /* no platform: the kernel's PMUs are the units */
			snprintf(u->backend, sizeof(u->backend), "perf");
			return 0;
		}
	} else {
		snprintf(u->why, sizeof(u->why), "%s", uncore_error());
	}
	snprintf(perf_why, len, "%s", u->why);
	if (u->acc)
		u->acc->ops->close(u->acc);
	u->acc = NULL;
	perf_backend_close(u);
	snprintf(u->backend, sizeof(u->backend), "direct");
	snprintf(u->why, sizeof(u->why), "registers directly: perf is not usable (%.440s)", perf_why);
	return (u->acc = access_direct_open()) ? 0 : -1;
}

/* A unit with fewer boxes on one socket than on another, though some: a device the firmware hid, a fused-off
 * unit, a PMU the kernel did not register.  The counts still go on, but that socket's totals lack the missing boxes'
 * share of its traffic, so it is said (a replayed snapshot of such a node says it too: doc/snapshot.md). */
static void warn_uneven(const uncore_t *u)
{
	for (int s = 0; s < u->host.nsockets; s++) {
		char list[512] = "";
		size_t n = 0;
		for (int t = 0; t < uncore_num_units(u); t++) {
			int most = 0, have = uncore_unit_boxes(u, t, s);
			for (int o = 0; o < u->host.nsockets; o++)
				most = uncore_unit_boxes(u, t, o) > most ? uncore_unit_boxes(u, t, o) : most;
			if (have > 0 && have < most && n < sizeof(list)) /* none at all: a unit only some sockets have (CXL) */
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s %d of %d", n ? ", " : "",
						      u->plat->types[t]->name, have, most);
		}
		if (n)
			uc_warn("socket %d has fewer boxes than another socket (%s): a device hidden by the firmware, a "
				"fused-off unit, an offline die or a PMU the kernel did not register; its totals lack the "
				"missing boxes' share", s, list);
	}
}

/* Every QPI/UPI link layer device missing on every socket leaves the unit with no box, which would show as 0
 * links and no traffic without a word, so one line says why (the perf backend's missing-PMU warning already
 * does).  On a machine of one socket there is nothing hidden to regret: its links lead to no other socket, and
 * real one-socket boards list no link layer device (a Dell R730 with one Xeon E5 v3, issue 65 point 8); on more
 * sockets the firmware hides them (a real R720 does, with both sockets populated). */
static void warn_no_links(const uncore_t *u)
{
	for (int t = 0; t < uncore_num_units(u) && !u->perf; t++) {
		const struct box_type *bt = u->plat->types[t];
		const char *link = !strcmp(bt->name, "qpi") ? "QPI" : "UPI";
		int any = 0;
		if (bt->space != UC_PCI || (strcmp(bt->name, "qpi") && strcmp(bt->name, "upi")))
			continue;
		for (int s = 0; s < u->host.nsockets; s++)
			any += uncore_unit_boxes(u, t, s);
		if (any)
			continue;
		if (u->host.nsockets == 1)
			uc_warn("%s: no %s link layer PCI device, and this machine has one socket: there is no link to "
				"another socket to count", bt->name, link);
		else
			uc_warn("%s: no %s link layer PCI device on any socket: the firmware hides them (a BIOS setting); "
				"no link is counted", bt->name, link);
	}
}

/* A first register read, so a missing module or permission shows up at open, not mid-run. */
static int probe(uncore_t *u)
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		uint64_t v;
		if (b->t->space != UC_MSR)
			continue;
		if (reg_read(u, b, box_ctl_addr(b, 0), 0, 8, &v))
			return uc_err_prefix("cannot read the %s registers: ", b->t->name);
		return 0;
	}
	return 0;
}

/* uncore_open_hooked's hook, for the open running on this thread */
static _Thread_local struct access *(*open_hook)(struct access *, void *);
static _Thread_local void *open_hook_ctx;

int uncore_open_hooked(const char *backend, struct access *(*hook)(struct access *acc, void *ctx), void *ctx,
		       uncore_t **out)
{
	open_hook = hook;
	open_hook_ctx = ctx;
	int rc = uncore_open(backend, out);
	open_hook = NULL;
	open_hook_ctx = NULL;
	return rc;
}

/* A handle of nothing yet, for the backend named (NULL: UNCORE_BACKEND, else auto): its lock, name and the
 * settings of the environment; NULL with a message when out of memory. */
static uncore_t *handle_new(const char **backend)
{
	uc_clear_warnings();
	uc_env_warn_ignored();
	if (!*backend)
		*backend = uc_env("UNCORE_BACKEND");
	if (!*backend || !**backend)
		*backend = "auto";
	uncore_t *u = calloc(1, sizeof(*u));
	if (!u) {
		uc_err("out of memory");
		return NULL;
	}
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&u->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	snprintf(u->backend, sizeof(u->backend), "%s", *backend);
	snprintf(u->why, sizeof(u->why), "named by the caller (--backend or UNCORE_BACKEND)");
	const char *force = uc_env("UNCORE_FORCE");
	u->force = force && *force && strcmp(force, "0");
	const char *scale = uc_env("UNCORE_SCALE");
	u->scale = scale && *scale && strcmp(scale, "0");
	return u;
}

/* A topology handle's platform: no unit, event or metric. */
static const struct platform_desc no_uncore = { .name = "none", .desc = "no uncore opened: the machine's sockets and CPUs only" };

int uncore_open_topology(const char *backend, uncore_t **out)
{
	*out = NULL;
	uncore_t *u = handle_new(&backend);
	if (!u)
		return -1;
	/* the machine's own backends all take the kernel's topology: the perf backend's access alone gives it,
	 * and opens no device and no PMU; a simulator or a replayed snapshot gives its own */
	if (!strcmp(backend, "auto") || !strcmp(backend, "perf") || !strcmp(backend, "direct")) {
		if (!(u->acc = access_perf_open(NULL)))
			goto fail;
	} else if (open_access(u, backend)) {
		goto fail;
	}
	if (u->acc->ops->host(u->acc, &u->host))
		goto fail;
	u->plat = &no_uncore;
	snprintf(u->why, sizeof(u->why), "the machine's sockets and CPUs only (uncore_open_topology): no uncore opened");
	*out = u;
	return 0;
fail:
	uncore_close(u);
	return -1;
}

int uncore_open(const char *backend, uncore_t **out)
{
	char perf_why[512] = ""; /* auto fell back to direct: why not perf */
	*out = NULL;
	uncore_t *u = handle_new(&backend);
	if (!u)
		return -1;
	if (!strcmp(backend, "auto") ? open_auto(u, perf_why, sizeof(perf_why)) : open_access(u, backend))
		goto fail;
	if (open_hook && !u->perf) {
		struct access *h = open_hook(u->acc, open_hook_ctx);
		if (!h)
			goto fail;
		u->acc = h;
	}
	if (u->acc->ops->host(u->acc, &u->host))
		goto fail;
	/* reads run on their boxes' CPUs (access_cost.c); a simulated caller starts on CPU 0, as a daemon's
	 * thread starts on some CPU of some socket */
	u->acc->place_ok = u->acc->batch_ok = 1;
	u->acc->here = u->acc->home = u->acc->simulated ? 0 : -1;
	if (strcmp(u->host.vendor, "GenuineIntel")) {
		uc_err("this CPU (%s family %d model %d) has no supported Intel uncore%s; "
		       "run on the simulator with --backend sim:snbep%s",
		       u->host.vendor[0] ? u->host.vendor : "unknown vendor", u->host.family, u->host.model,
		       u->host.hypervisor ? " (and a hypervisor hides uncore PMUs)" : "",
		       uc_env_secure() ? "" : " (or UNCORE_BACKEND=sim:snbep)");
		goto fail;
	}
	u->plat = platform_by_cpu(u->host.family, u->host.model, u->host.stepping);
	platform_cpu_match(u->host.vendor, u->host.family, u->host.model, u->host.stepping, u->cpu_match,
			   sizeof(u->cpu_match));
	if (u->plat && u->plat->sim_only && !u->acc->simulated) {
		uc_err("%s has no hardware backend (Linux no longer runs on it): use --backend sim:%s", u->plat->desc,
		       u->plat->name);
		goto fail;
	}
	if (u->perf) {
		if ((!u->plat && perf_platform_open(u)) || perf_boxes(u))
			goto fail;
	} else if (!u->plat) {
		/* no tables for this CPU: usable if it publishes PMON discovery tables */
		if (platform_generic_open(u))
			goto fail;
		if (boxes_from_discovery(u)) {
			char why[512];
			snprintf(why, sizeof(why), "%s", uncore_error());
			char known[512];
			platform_supported(known, sizeof(known));
			uc_err("Intel family %d model %d (0x%x) is not a supported platform (%s; supported: %s) and cannot "
			       "be used generically: %s", u->host.family, u->host.model, u->host.model, u->cpu_match, known,
			       why);
			goto fail;
		}
	} else if (u->plat->discovery ? boxes_from_discovery(u)
				       : boxes_discover(u->acc, &u->host, u->plat, &u->boxes, &u->nboxes)) {
		goto fail;
	}
	if (!u->nboxes) {
		const char *w = uc_warnings();
		uc_err("no usable uncore unit was found on this %s%s%.*s", u->plat->desc, *w ? ": " : "",
		       (int)strcspn(w, "\n"), w);
		goto fail;
	}
	warn_uneven(u);
	warn_no_links(u);
	const struct uc_catalog *near = NULL; /* the generic platform's: the nearest platform's events */
	if ((u->own_plat && (u->perf ? perf_platform_events(u, &near) : platform_generic_nearest(u, &near))) ||
	    catalog_init(u, near) ||
	    (!u->perf && write_guard_build(u)))
		goto fail;
	if (!u->acc->simulated && !u->perf && probe(u))
		goto fail;
	*out = u;
	return 0;
fail:
	if (perf_why[0]) { /* auto's second choice failed too: both reasons */
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		uc_err("no backend can count here.  perf: %.400s.  direct: %s", perf_why, msg);
	}
	uncore_close(u);
	return -1;
}

void uncore_close(uncore_t *u)
{
	if (!u)
		return;
	if (u->acc) {
		session_claims_settle(u);
		disc_globals_restore(u); /* a global control found frozen is frozen again (discover_global.c) */
		write_guard_free(u->acc);
		u->acc->ops->close(u->acc);
	}
	perf_backend_close(u); /* after its access: a simulated kernel owns the simulator under it */
	free(u->boxes);
	free(u->running);
	free(u->events);
	name_index_free(&u->event_names);
	metrics_free(u);
	claims_free(u);
	if (u->jobs_release) /* jobs/ hangs them on the handle and says how they go */
		u->jobs_release(u);
	node_free(u); /* the node's facts */
	arena_free(u->arena);
	free(u->own_plat);
	pthread_mutex_destroy(&u->lock);
	free(u);
}

const char *uncore_platform_name(const uncore_t *u) { return u->plat->name; }
const char *uncore_platform_desc(const uncore_t *u) { return u->plat->desc; }
const char *uncore_platform_caveat(const uncore_t *u) { return u->plat->caveat; }
const char *uncore_backend_name(const uncore_t *u) { return u->backend; }
const char *uncore_cpu_match(const uncore_t *u) { return u->cpu_match; }
const char *uncore_backend_reason(const uncore_t *u) { return u->why; }
int uncore_is_simulated(const uncore_t *u) { return u->acc->simulated; }

/* The simulated machine's drive (access.h), reached through the backend: the library calls no simulator. */
int uncore_sim_traffic_impl(uncore_t *u, int socket, double read_bps, double write_bps)
{
	struct access *a = access_driven(u->acc, u->backend);
	return a ? a->ops->drive->traffic(a, socket, read_bps, write_bps) : -1;
}

int uncore_sim_workload_impl(uncore_t *u, int socket, double read_bytes, double write_bytes, uint64_t ns)
{
	struct access *a = access_driven(u->acc, u->backend);
	return a ? a->ops->drive->workload(a, socket, read_bytes, write_bytes, ns) : -1;
}
int uncore_sim_workload_on_impl(uncore_t *u, int socket, const char *memory, double read_bytes, double write_bytes,
				uint64_t ns)
{
	struct access *a = access_driven(u->acc, u->backend);
	return a ? a->ops->drive->workload_on(a, socket, memory, read_bytes, write_bytes, ns) : -1;
}
int uncore_sim_workload_cpus_impl(uncore_t *u, int n, const char *const *cpus, const double *read_bytes,
				  const double *write_bytes, uint64_t ns)
{
	struct access *a = access_driven(u->acc, u->backend);
	char why[160];
	if (!a)
		return -1;
	if (n < 1 || n > 8)
		return uc_err("simulated workload: 1 to 8 CPU sets, not %d", n);
	uint8_t bits[8][UC_MAX_CPUS / 8];
	const uint8_t *sets[8];
	for (int i = 0; i < n; i++) {
		if (cpulist_parse(cpus[i], bits[i], why, sizeof(why)) <= 0)
			return uc_err("simulated workload, CPU set %d: %s", i, cpus[i][0] ? why : "no CPU in it");
		sets[i] = bits[i];
	}
	return a->ops->drive->workload_cpus(a, n, sets, read_bytes, write_bytes, ns);
}

int uncore_resctrl_bytes_impl(uncore_t *u, int socket, uint64_t *bytes)
{
	if (socket < 0 || socket >= u->host.nsockets)
		return uc_err("resctrl of socket %d: the machine has %d", socket, u->host.nsockets);
	if (u->acc->simulated) { /* the simulator's own: what its workload moved */
		struct access *a = access_driven(u->acc, u->backend);
		return a ? a->ops->drive->mbm_bytes(a, socket, bytes) : uc_err("resctrl: no simulator behind %s", u->backend);
	}
	return resctrl_mbm_bytes(u->host.socket_cpu[socket], bytes);
}
const char *uncore_version(void) { return PACKAGE_VERSION; }

void uncore_set_local_reads_impl(uncore_t *u, int on)
{
	access_unplace(u->acc);
	u->acc->place_ok = on;
	u->acc->batch_ok = on;
}

/* Bytes a count of the IIO free-running port bandwidth counters: the platform's (platforms/<p>/platform.c
 * iio_fr_bytes, from the Linux driver's bw_in_port scale); 0 where it has none. */
double uncore_iio_freerun_bytes(const uncore_t *u)
{
	return u->plat ? u->plat->iio_fr_bytes : 0;
}


int uncore_sim_platform(int i, const char **name, const char **desc)
{
	if (!(*name = access_sim_platform(i)))
		return -1;
	*desc = "";
	for (int p = 0; uc_platforms[p]; p++)
		if (!strcmp(uc_platforms[p]->name, *name))
			*desc = uc_platforms[p]->desc;
	return 0;
}

/* A metric whose unit has boxes on this machine (or that needs none): 1, else 0 (Xeon Max's HBM on a plain SPR) */
int uncore_metric_here_impl(uncore_t *u, int idx)
{
	struct uncore_metric_info mi;
	if (uncore_metric_info_impl(u, idx, &mi))
		return -1;
	for (int sock = 0; mi.box_unit >= 0 && sock < u->host.nsockets; sock++)
		if (uncore_unit_boxes(u, mi.box_unit, sock) > 0)
			return 1;
	return mi.box_unit < 0;
}

int uncore_box_location(const uncore_t *u, int unit, int socket, int box, char *buf, size_t len)
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->type_idx != unit || b->socket != socket || b->idx != box)
			continue;
		/* a box of free-running counters alone (Diamond Rapids' IIO): its window, its one PMU */
		int fr_only = !b->t->nctr && b->nfr;
		uint64_t at = b->t->has_box_ctl || fr_only ? b->r.box_ctl : box_ctl_addr(b, 0);
		if (u->perf)
			snprintf(buf, len, "perf %s cpu %d%s%s", u->perf->pmus[b->pmu].name, b->cpu,
				 b->fr_pmu >= 0 && !fr_only ? " + " : "", b->fr_pmu >= 0 && !fr_only ? u->perf->pmus[b->fr_pmu].name : "");
		else if (b->t->space == UC_MSR)
			snprintf(buf, len, "msr 0x%llx cpu %d", (unsigned long long)at, b->cpu);
		else if (b->t->space == UC_MMIO)
			snprintf(buf, len, "mmio 0x%llx", (unsigned long long)at);
		else
			snprintf(buf, len, "pci %04x:%02x:%02x.%d+0x%llx", b->pci.dom, b->pci.bus, b->pci.dev, b->pci.fn,
				 (unsigned long long)at);
		return 0;
	}
	return uc_err("no such box");
}

int uncore_num_events_impl(const uncore_t *u) { return u->nevents; }

int uncore_alias_info_impl(const uncore_t *u, int i, struct uncore_alias_info *o)
{
	const struct perf_alias *a = u->perf ? u->kernel_aliases : NULL;
	for (int k = 0; a && a->name && k < i; k++)
		a++;
	if (i < 0 || !a || !a->name)
		return uc_err("no kernel event alias %d", i);
	if (*a->pmu)
		snprintf(o->spec, sizeof(o->spec), "uncore_%s/%s/", a->pmu, a->name);
	else /* Nehalem's lone PMU */
		snprintf(o->spec, sizeof(o->spec), "uncore/%s/", a->name);
	o->terms = a->terms;
	o->scale = a->scale ? a->scale : 1;
	o->unit = a->unit ? a->unit : "";
	return 0;
}

int uncore_event_info_impl(const uncore_t *u, int idx, struct uncore_event_info *o)
{
	const struct uc_event *e;
	if (idx < 0 || idx >= u->nevents)
		return uc_err("no event %d", idx);
	e = &u->events[idx];
	o->name = e->name;
	o->unit = e->unit;
	o->code = e->code;
	o->umask = e->umask;
	o->umask_ext = e->umext ? e->umext : e->ext;
	o->counter_mask = (e->flags & (UC_EV_FIXED | UC_EV_FREERUN)) ? 0 : e->ctr_mask;
	o->freerun = !!(e->flags & UC_EV_FREERUN);
	o->filters = e->filters;
	o->desc = e->desc;
	return 0;
}

int uncore_deprecated_info_impl(const uncore_t *u, int i, struct uncore_event_info *o, const char **replacement)
{
	struct uc_event d;
	if (!catalog_deprecated(u, i, &d))
		return uc_err("no deprecated event %d", i);
	int r = catalog_find(u, d.name);
	if (r < 0 || uncore_event_info_impl(u, r, o))
		return uc_err("deprecated event %s: its replacement %s is not in the catalog", d.name, d.src);
	o->name = d.name;
	o->desc = d.desc;
	*replacement = d.src;
	return 0;
}

int uncore_event_find_impl(const uncore_t *u, const char *name)
{
	int i = catalog_find(u, name);
	return i >= 0 ? i : uc_err("unknown event '%s'", name);
}

void uncore_set_force_impl(uncore_t *u, int force) { u->force = force != 0; }

/* Sleep in steps no longer than the running sessions' maximum read interval, sampling them in between:
 * however long the sleep, no counter wraps twice unseen. */
int uncore_sleep_ns(uncore_t *u, uint64_t ns)
{
	struct access *a = u->acc;
	int rc = 0;
	handle_lock(u);
	while (!rc) {
		uint64_t step = ns, next = session_next_sample_ns(u, a->ops->now_ns(a));
		if (next < step)
			step = next;
		if (step && a->virtual_clock) {
			rc = a->ops->sleep_ns(a, step);
		} else if (step) { /* other threads go on using the handle while this one sleeps */
			handle_unlock(u);
			rc = a->ops->sleep_ns(a, step);
			handle_lock(u);
		}
		ns -= step;
		session_sample_due(u, a->ops->now_ns(a));
		if (!ns)
			break;
	}
	handle_unlock(u);
	return rc;
}

void uncore_get_stats_impl(const uncore_t *u, struct uncore_stats *o) { *o = u->acc->stats; }

char *uncore_msr_allowlist(const uncore_t *u) { return uncore_msr_allowlist_for(u, 0); }

char *uncore_msr_allowlist_for(const uncore_t *u, unsigned flags)
{
	char title[200];
	if (u->perf) {
		uc_err("the perf backend writes no MSR (the kernel programs the uncore): msr-safe is not needed for it");
		return NULL;
	}
	if (u->plat->sim_only) {
		uc_err("%s has no MSRs for msr-safe: its PMU registers are IA-64 PMC/PMD registers", u->plat->desc);
		return NULL;
	}
	if (flags & ~UNCORE_ALLOWLIST_SAMPLING) {
		uc_err("unknown allowlist flags 0x%x", flags & ~UNCORE_ALLOWLIST_SAMPLING);
		return NULL;
	}
	int sampling = (flags & UNCORE_ALLOWLIST_SAMPLING) != 0;
	snprintf(title, sizeof(title), "intel-uncore %s: MSRs of %s (%s), for msr-safe%s", PACKAGE_VERSION, u->plat->desc,
		 u->acc->simulated ? "as simulated" : "this machine", sampling ? ", sampling bits included" : "");
	return write_guard_msr_allowlist(u->acc, title, sampling);
}
