/*
 * The simulated kernel's `power` PMU (issue 68): the energy counters of each package (sim/sim_rapl.c) as Linux
 * 6.12 counts them -- arch/x86/events/rapl.c on the parts it knows, intel_rapl_common.c's PMU over TPMI RAPL on
 * GNR, SRF and CWF.  Not an uncore PMU: one PMU, its events per package (its cpumask a CPU of each; an event
 * opened on any CPU of the package counts the package, rapl_pmu_event_init / is_rp_pmu_cpu), each event adding
 * its counter's increases in 2^-32 J (rapl_scale, or pmu_data.scale), its hrtimer reading it before a wrap so
 * that none is lost.  Its files: type, cpumask, format/event, events/energy-{pkg,ram,psys}[.unit,.scale].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "sim_kernel_priv.h"
#include "util/error.h"
#include "sim/sim_only.h"

#define POWER_FD0 (1 << 20) /* its fds, apart from the uncore events' (SK_FD0 + index) */
#define POWER_DIR "/sys/bus/event_source/devices/power"

struct power_event {
	int used, socket, domain, leader, enabled;
	uint64_t count, prev;        /* 2^-32 J counted; the counter's count (unwrapped) when last brought up */
	uint64_t enabled_ns, mark_ns, id, read_format;
};

struct sk_power {
	unsigned type;
	int missing; /* missing=power: the kernel registered no power PMU */
	struct power_event *ev;
	int nev, cap;
};

int sk_power_build(struct sim_kernel *k, unsigned type)
{
	if (!sim_rapl_present(k->s))
		return 0; /* Nehalem-EP, Montecito: no RAPL, rapl_pmu_init's x86_match_cpu finds no model */
	if (!(k->power = calloc(1, sizeof(*k->power))))
		return uc_err("out of memory");
	k->power->type = type;
	return 0;
}

void sk_power_missing(struct sim_kernel *k)
{
	if (k->power)
		k->power->missing = 1;
}

int sk_power_is_type(const struct sim_kernel *k, unsigned type)
{
	return k->power && !k->power->missing && type == k->power->type;
}

static struct power_event *event_of(struct sim_kernel *k, int fd)
{
	int i = fd - POWER_FD0;
	return k->power && i >= 0 && i < k->power->nev && k->power->ev[i].used ? &k->power->ev[i] : NULL;
}

int sk_power_fd(struct sim_kernel *k, int fd) { return event_of(k, fd) != NULL; }

/* An event brought up to now: its counter's increase since, in 2^-32 J, while it is enabled. */
static void update(struct sim_kernel *k, struct power_event *e)
{
	uint64_t now = sk_now(k), raw = sim_rapl_count(k->s, e->socket, e->domain);
	if (e->enabled) {
		e->count += (raw - e->prev) * sim_rapl_perf_scale(k->s, e->domain);
		e->enabled_ns += now - e->mark_ns;
	}
	e->prev = raw;
	e->mark_ns = now;
}

int sk_power_open(struct sim_kernel *k, const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, int perm)
{
	struct sk_power *p = k->power;
	int ncpus = sim_scopes(k->s) * k->s->cores;
	int d = sim_rapl_domain_of_event(attr->config & 0xff);
	if (attr->config & ~0xffull) /* rapl_pmu_event_init: bits beyond RAPL_EVENT_MASK */
		return -EINVAL;
	if (pid != -1 || cpu < 0 || cpu >= ncpus) /* a per-CPU event of a CPU the machine has */
		return -EINVAL;
	int sock = cpu / k->s->cores / k->s->dies;
	if (d < 0 || !sim_rapl_shown(k->s, 0, d) || attr->sample_period) /* an event it does not list; no sampling */
		return -EINVAL;
	if (attr->exclude_user || attr->exclude_kernel || attr->exclude_hv || attr->exclude_idle || attr->exclude_host ||
	    attr->exclude_guest)
		return -EINVAL; /* PERF_PMU_CAP_NO_EXCLUDE */
	if (perm)
		return perm;
	if (k->nfds >= k->maxfds)
		return -EMFILE;
	struct power_event *g = group_fd != -1 ? event_of(k, group_fd) : NULL;
	if (group_fd != -1 && (!g || g->leader != g - p->ev || g->socket != sock))
		return -EINVAL; /* a group of this PMU's events of one package */
	int i;
	for (i = 0; i < p->nev && p->ev[i].used; i++)
		;
	if (i == p->cap) {
		int cap = p->cap ? 2 * p->cap : 16;
		struct power_event *n = realloc(p->ev, (size_t)cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->ev = n;
		p->cap = cap;
	}
	int lead = g ? (int)(g - p->ev) : i; /* (the table may have moved) */
	if (i == p->nev)
		p->nev++;
	p->ev[i] = (struct power_event){ .used = 1, .socket = sock, .domain = d, .leader = lead, .enabled = !attr->disabled,
					 .id = 0x100 + ++k->next_id, .read_format = attr->read_format };
	p->ev[i].prev = sim_rapl_count(k->s, sock, d); /* counting from now */
	p->ev[i].mark_ns = sk_now(k);
	k->nfds++;
	return POWER_FD0 + i;
}

ssize_t sk_power_read(struct sim_kernel *k, int fd, void *buf, size_t len)
{
	struct sk_power *p = k->power;
	struct power_event *e = event_of(k, fd);
	struct sk_value v[SK_READ_VALUES];
	int nv = 0, nr = 0, lead = (int)(e - p->ev);
	update(k, e);
	if (!(e->read_format & PERF_FORMAT_GROUP))
		v[nv++] = (struct sk_value){ e->count, e->id };
	for (int i = 0; (e->read_format & PERF_FORMAT_GROUP) && i < p->nev; i++) {
		if (!p->ev[i].used || p->ev[i].leader != lead)
			continue;
		update(k, &p->ev[i]);
		nr++;
		if (nv < SK_READ_VALUES)
			v[nv++] = (struct sk_value){ p->ev[i].count, p->ev[i].id };
	}
	/* never multiplexed: running as long as enabled */
	return sk_read_image(e->read_format, e->enabled_ns, e->enabled_ns, v, nr, nv, buf, len);
}

int sk_power_ioctl(struct sim_kernel *k, int fd, unsigned long req, unsigned long arg)
{
	struct sk_power *p = k->power;
	struct power_event *e = event_of(k, fd);
	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)(uintptr_t)arg = e->id;
		return 0;
	}
	if (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE && req != PERF_EVENT_IOC_RESET)
		return -ENOTTY;
	for (int i = 0; i < p->nev; i++) {
		struct power_event *x = &p->ev[i];
		if (!x->used || (x != e && !((arg & PERF_IOC_FLAG_GROUP) && x->leader == e->leader)))
			continue;
		update(k, x);
		if (req == PERF_EVENT_IOC_RESET)
			x->count = 0;
		else
			x->enabled = req == PERF_EVENT_IOC_ENABLE;
	}
	return 0;
}

int sk_power_close(struct sim_kernel *k, int fd)
{
	struct sk_power *p = k->power;
	struct power_event *e = event_of(k, fd);
	int self = (int)(e - p->ev);
	e->used = 0;
	for (int i = 0; i < p->nev; i++) /* its members go on alone */
		if (p->ev[i].used && p->ev[i].leader == self)
			p->ev[i].leader = i;
	k->nfds--;
	return 0;
}

/* The first online CPU of each package (rapl.c rapl_cpu_offline moves the package's CPU to another of it, and leaves
 * out a package with none) */
static void cpumask(const struct sim_kernel *k, char *text, size_t len)
{
	sk_cpumask(k, k->s->dies * k->s->cores, k->s->nsockets, NULL, text, len);
}

void sk_power_follow_cpus(struct sim_kernel *k)
{
	char text[256];
	if (!k->power || k->power->missing)
		return;
	cpumask(k, text, sizeof(text));
	sk_tree_replace(k, POWER_DIR "/cpumask", text);
}

/* rapl.c's (and intel_rapl_common.c's) attributes: the events the package's counters give */
int sk_power_tree(struct sim_kernel *k)
{
	char path[160], text[256];
	int rc;
	if (!k->power || k->power->missing)
		return 0;
	snprintf(text, sizeof(text), "%u", k->power->type);
	rc = sk_tree_put(k, POWER_DIR "/type", text);
	cpumask(k, text, sizeof(text));
	rc = rc ? rc : sk_tree_put(k, POWER_DIR "/cpumask", text);
	rc = rc ? rc : sk_tree_put(k, POWER_DIR "/format/event", "config:0-7");
	for (int d = 0; d < SIM_RAPL_DOMAINS && !rc; d++) {
		if (!sim_rapl_shown(k->s, 0, d))
			continue;
		snprintf(path, sizeof(path), POWER_DIR "/events/energy-%s", sim_rapl_name(d));
		snprintf(text, sizeof(text), "event=0x%02x", sim_rapl_perf_event(d));
		rc = sk_tree_put(k, path, text);
		snprintf(path, sizeof(path), POWER_DIR "/events/energy-%s.unit", sim_rapl_name(d));
		rc = rc ? rc : sk_tree_put(k, path, "Joules");
		snprintf(path, sizeof(path), POWER_DIR "/events/energy-%s.scale", sim_rapl_name(d));
		rc = rc ? rc : sk_tree_put(k, path, "2.3283064365386962890625e-10");
	}
	return rc;
}

void sk_power_free(struct sim_kernel *k)
{
	if (k->power)
		free(k->power->ev);
	free(k->power);
	k->power = NULL;
}
