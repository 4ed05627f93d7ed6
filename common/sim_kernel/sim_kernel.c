/*
 * The simulated kernel's system calls: perf_event_open, read, ioctl and close with the rules of
 * Linux's perf core and intel_uncore driver (kernel/events/core.c, arch/x86/events/intel/uncore.c):
 * per-CPU events only, no sampling, no exclude bits, groups within one PMU and one die that fit its
 * counters and agree on shared filters, unknown config bits dropped without an error, the
 * perf_event_paranoid and capability checks, and multiplexing of what does not fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "sim_kernel_priv.h"
#include "sim_kernel.h"
#include "util/error.h"
#include "sim/sim_only.h"

static struct sk_event *event_of(struct sim_kernel *k, int fd)
{
	int i = fd - SK_FD0;
	return i >= 0 && i < k->nev && k->ev[i].used ? &k->ev[i] : NULL;
}

static int pmu_of_type(const struct sim_kernel *k, unsigned type)
{
	for (int i = 0; i < k->npmus; i++)
		if (k->pmus[i].type == type && !k->pmus[i].missing)
			return i;
	return -1;
}

/* What a config selects on a PMU: the fixed counter, a free-running counter or a general one. */
static int decode(const struct sk_pmu *p, struct sk_event *e)
{
	uint64_t c = e->config[0];
	unsigned umask = (unsigned)(c >> 8) & 0xff;
	e->fr = -1;
	if (p->fr) { /* uncore_freerunning_hw_config: event 0xff, umask 0x10 x (type + 1) + index */
		unsigned g = (umask - 0x10) >> 4, idx = umask & 0xf;
		if ((c & 0xff) != 0xff || umask < 0x10 || g >= SK_MAX_FR_GROUPS || idx >= p->t->fr_n[g])
			return -EINVAL;
		e->fr = p->t->fr_first[g] + (int)idx;
		return e->fr < e->box->nfr ? 0 : -EINVAL;
	}
	if (c == 0xff) { /* UNCORE_FIXED_EVENT: the generic driver sets no fixed_ctl, so EINVAL there */
		if (!p->t->fixed || p->generic || !e->box->u->fixed_ctl)
			return -EINVAL;
		e->fixed = 1;
		return 0;
	}
	if ((c & 0xff) == 0xff && umask >= 0x10)
		return -EINVAL; /* a free-running encoding on a PMU without free-running counters */
	for (int w = 0; w < 3; w++)
		e->config[w] &= p->keep[w]; /* the driver masks what it does not know, silently */
	e->xidx = sk_extra_fields(p->t, e->config[0]);
	if (p->t->band_bug && e->xidx) /* hswep_pcu_hw_config's mask */
		e->config[1] &= 0xffull << __builtin_ctz(e->xidx);
	return 0;
}

static int permitted(const struct sim_kernel *k)
{
	if (k->paranoid > 2 && !k->sys_admin)
		return -EACCES;
	if (k->paranoid > 0 && !k->perfmon && !k->sys_admin)
		return -EACCES;
	return 0;
}

static int new_slot(struct sim_kernel *k)
{
	for (int i = 0; i < k->nev; i++)
		if (!k->ev[i].used)
			return i;
	if (k->nev == k->cap) {
		int cap = k->cap ? 2 * k->cap : 64;
		struct sk_event *n = realloc(k->ev, (size_t)cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		k->ev = n;
		k->cap = cap;
	}
	return k->nev++;
}

static int exclude_any(const struct perf_event_attr *a)
{
	return a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_idle || a->exclude_host ||
	       a->exclude_guest;
}

static int sk_open_as(struct sim_kernel *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, int check_perm)
{
	sk_follow(k);
	int ncpus = sim_scopes(k->s) * k->s->cores, pi = pmu_of_type(k, attr->type);
	/* in Linux's order: the attribute, the kernel's permission, then the PMU's rules, then the CPU's */
	uint64_t known = k->no_lost ? PERF_FORMAT_LOST - 1 : PERF_FORMAT_LOST * 2 - 1;
	if (attr->read_format & ~known) /* perf_copy_attr: read_format bits it does not know */
		return -EINVAL;
	if (check_perm && !attr->exclude_kernel && k->paranoid > 1 && !k->perfmon && !k->sys_admin)
		return -EACCES; /* perf_allow_kernel, before any PMU sees the event */
	if (sk_power_is_type(k, attr->type)) /* the package's energy (sim_kernel_power.c) */
		return sk_power_open(k, attr, pid, cpu, group_fd, check_perm ? permitted(k) : 0);
	if (pi < 0)
		return -ENOENT;
	if (pid != -1 || cpu < 0) /* uncore PMUs have no task context: per-CPU events only */
		return -EINVAL;
	if (cpu >= ncpus)
		return -EINVAL; /* perf_event_alloc: cpu >= nr_cpu_ids */
	if (attr->sample_period || exclude_any(attr)) /* "Sampling not supported yet"; PERF_PMU_CAP_NO_EXCLUDE */
		return -EINVAL;
	if (check_perm && permitted(k))
		return -EACCES;
	if (k->nfds >= k->maxfds)
		return -EMFILE;
	struct sk_pmu *p = &k->pmus[pi];
	int sock = cpu / k->s->cores;
	if (!p->box[sock])
		return -EINVAL; /* no box of this PMU on that die */
	if (sim_first_online(k->s, sock * k->s->cores, k->s->cores) < 0)
		return -EINVAL; /* uncore_pmu_event_init: the die's box has no CPU (box->cpu < 0), all of the die's offline */
	struct sk_event e = { .used = 1, .pmu = pi, .socket = sock, .box = p->box[sock], .ctr = -1, .fr = -1,
			      .config = { attr->config, attr->config1, attr->config2 }, .read_format = attr->read_format,
			      .pinned = attr->pinned, .enabled = !attr->disabled, .mark_ns = sk_now(k) };
	int rc = decode(p, &e);
	if (rc)
		return rc;
	sk_rotate(k, e.box); /* the rotations due before this call first */
	struct sk_event *g = NULL;
	if (group_fd != -1) {
		g = event_of(k, group_fd);
		if (!g || g->leader != g - k->ev || g->pmu != pi || g->socket != sock)
			return -EINVAL; /* a group stays within one PMU and one die */
		if (attr->pinned)
			return -EINVAL; /* only a group leader can be pinned */
	}
	int i = new_slot(k);
	if (i < 0)
		return i;
	g = group_fd != -1 ? event_of(k, group_fd) : NULL; /* the table may have moved */
	e.leader = g ? (int)(g - k->ev) : i;
	e.seq = ++k->seq;
	e.id = 0x100 + ++k->next_id; /* not an fd: an id is a number of its own */
	struct sk_box *kb = sk_box_of(k, e.box);
	if (kb->nev == kb->cap) {
		int cap = kb->cap ? 2 * kb->cap : 8;
		int *n = realloc(kb->ev, (size_t)cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		kb->ev = n;
		kb->cap = cap;
	}
	k->ev[i] = e;
	kb->ev[kb->nev++] = i;
	if (!sk_group_fits(k, e.leader, i)) { /* uncore_validate_group: the group alone must fit the box */
		k->ev[i].used = 0;
		kb->nev--;
		return -EINVAL;
	}
	k->nfds++;
	if (e.enabled)
		sk_resched(k, e.box);
	return SK_FD0 + i;
}

static int k_open(struct perf_kernel *pk, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		  unsigned long flags)
{
	(void)flags;
	pk->syscalls++;
	return sk_open_as(sk_of(pk), attr, pid, cpu, group_fd, 1);
}

ssize_t sk_read_image(uint64_t rf, uint64_t enabled_ns, uint64_t running_ns, const struct sk_value *v, int nr, int nv,
		      void *buf, size_t len)
{
	uint64_t out[3 + 3 * SK_READ_VALUES];
	size_t n = 0;
	int group = !!(rf & PERF_FORMAT_GROUP);
	out[n++] = group ? (uint64_t)nr : v[0].count;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = enabled_ns;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = running_ns;
	for (int i = 0; i < (group ? nv : 1) && i < SK_READ_VALUES; i++) {
		if (group)
			out[n++] = v[i].count;
		if (rf & PERF_FORMAT_ID)
			out[n++] = v[i].id;
		if (rf & PERF_FORMAT_LOST)
			out[n++] = 0; /* a count of the uncore or the package loses nothing */
	}
	if (len < n * sizeof(uint64_t))
		return -ENOSPC;
	memcpy(buf, out, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

/* {value, [enabled], [running]} of one event, or the group's {nr, [enabled], [running], values}. */
static ssize_t k_read(struct perf_kernel *pk, int fd, void *buf, size_t len)
{
	struct sim_kernel *k = sk_of(pk);
	struct sk_event *e = event_of(k, fd);
	struct sk_value v[SK_READ_VALUES];
	int nv = 0, nr = 0;
	pk->syscalls++;
	if (sk_power_fd(k, fd))
		return sk_power_read(k, fd, buf, len);
	if (!e)
		return -EBADF;
	sk_rotate(k, e->box);
	sk_settle(k, e->box);
	if (e->error)
		return 0; /* a pinned event that could not be scheduled */
	int group = !!(e->read_format & PERF_FORMAT_GROUP), lead = (int)(e - k->ev);
	v[nv++] = (struct sk_value){ e->count, e->id };
	/* the leader, then its members in the order they were made (the box's list keeps that order) */
	if (group)
		nv = 0;
	SK_FOR_BOX(k, e->box, i) {
		if (!group || k->ev[i].leader != lead)
			continue;
		nr++;
		if (nv < SK_READ_VALUES)
			v[nv++] = (struct sk_value){ k->ev[i].count, k->ev[i].id };
	}
	return sk_read_image(e->read_format, e->enabled_ns, e->running_ns, v, nr, nv, buf, len);
}

static int k_ioctl(struct perf_kernel *pk, int fd, unsigned long req, unsigned long arg)
{
	struct sim_kernel *k = sk_of(pk);
	struct sk_event *e = event_of(k, fd);
	pk->syscalls++;
	if (sk_power_fd(k, fd))
		return sk_power_ioctl(k, fd, req, arg);
	if (!e)
		return -EBADF;
	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)(uintptr_t)arg = e->id;
		return 0;
	}
	if (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE && req != PERF_EVENT_IOC_RESET)
		return -ENOTTY;
	sk_rotate(k, e->box); /* the rotations due before this call first */
	sk_settle(k, e->box);
	int lead = e->leader, self = (int)(e - k->ev);
	SK_FOR_BOX(k, e->box, i) {
		struct sk_event *x = &k->ev[i];
		if (i != self && !((arg & PERF_IOC_FLAG_GROUP) && x->leader == lead))
			continue;
		if (req == PERF_EVENT_IOC_RESET) {
			x->count = 0;
		} else {
			x->enabled = req == PERF_EVENT_IOC_ENABLE;
			x->error = 0;
		}
	}
	if (req != PERF_EVENT_IOC_RESET)
		sk_resched(k, e->box);
	return 0;
}

static int k_close(struct perf_kernel *pk, int fd)
{
	struct sim_kernel *k = sk_of(pk);
	struct sk_event *e = event_of(k, fd);
	pk->syscalls++;
	if (sk_power_fd(k, fd))
		return sk_power_close(k, fd);
	if (!e)
		return -EBADF;
	int self = (int)(e - k->ev);
	struct sim_box *b = e->box;
	sk_rotate(k, b);
	sk_settle(k, b);
	e->enabled = 0;
	sk_resched(k, b); /* off its counter first */
	e->used = 0;
	struct sk_box *kb = sk_box_of(k, b);
	for (int j = 0; j < kb->nev; j++) /* the others keep their order: a group reads in creation order */
		if (kb->ev[j] == self) {
			memmove(&kb->ev[j], &kb->ev[j + 1], (size_t)(kb->nev - j - 1) * sizeof(kb->ev[0]));
			kb->nev--;
			break;
		}
	SK_FOR_BOX(k, b, i) /* its members go on alone, as the kernel ungroups them */
		if (k->ev[i].leader == self)
			k->ev[i].leader = i;
	k->nfds--;
	sk_resched(k, b);
	return 0;
}

static void k_caps(struct perf_kernel *pk, int *perfmon, int *sys_admin)
{
	*perfmon = sk_of(pk)->perfmon;
	*sys_admin = sk_of(pk)->sys_admin;
}

static void k_free(struct perf_kernel *pk)
{
	struct sim_kernel *k = sk_of(pk);
	for (int i = 0; i < k->nev; i++) /* what the process left open closes with it */
		if (k->ev[i].used)
			k_close(pk, SK_FD0 + i);
	sk_free_tree(k);
	sk_power_free(k);
	memfs_free(&k->powercap);
	for (int i = 0; k->kbox && i < k->s->nboxes; i++)
		free(k->kbox[i].ev);
	free(k->kbox);
	if (k->acc)
		k->acc->ops->close(k->acc);
	free(k->ev);
	free(k->pmus);
	free(k);
}

static const struct perf_kernel_ops sim_kernel_ops = { k_open, k_read, k_ioctl, k_close, k_caps, sk_read_line,
							sk_list_dir, k_free };

static int pmu_named(const struct sim_kernel *k, const char *name)
{
	for (int i = 0; i < k->npmus; i++)
		if (!strcmp(k->pmus[i].name, name))
			return i;
	return -1;
}

/* An event select that no counter constraint of type t names: another user's events take any counter. */
static uint64_t any_counter_event(const struct sim_perf_type *t)
{
	for (unsigned code = 1;; code++) {
		int named = 0;
		for (const struct sim_perf_constraint *c = t->constraints; c && c->mask; c++)
			named |= c->code == code;
		if (!named)
			return 0x0100 | code;
	}
}

/* Another perf user on a PMU: n general events in one group, enabled, on every socket. */
static int busy(struct sim_kernel *k, const char *spec)
{
	char name[64];
	int n = 1;
	if (sscanf(spec, "%63[^:]:%d", name, &n) < 1 || n < 1 || n > SIM_MAX_CTR)
		return uc_err("simulated kernel option busy=%s: expected busy=PMU[:N], N = 1..%d", spec, SIM_MAX_CTR);
	int pi = pmu_named(k, name);
	if (pi < 0)
		return uc_err("simulated kernel option busy=%s: no PMU named %s", spec, name);
	for (int sock = 0; sock < sim_scopes(k->s); sock++) { /* every die */
		int lead = -1;
		for (int j = 0; j < n && k->pmus[pi].box[sock]; j++) {
			struct perf_event_attr a = { .type = k->pmus[pi].type, .size = sizeof(a),
						 .config = any_counter_event(k->pmus[pi].t) };
			int fd = sk_open_as(k, &a, -1, sock * k->s->cores, lead, 0);
			if (fd < 0)
				return uc_err("simulated kernel option busy=%s: cannot open %d events there", spec, n);
			if (lead < 0)
				lead = fd;
		}
	}
	return 0;
}

/* key=value options of the simulated kernel (the rest go to the simulator). */
static int option(struct sim_kernel *k, const char *key, const char *v)
{
	char *end;
	long n = strtol(v, &end, 0);
	if (!strcmp(key, "paranoid") && !*end && *v && n >= -1 && n <= 4)
		k->paranoid = n;
	else if (!strcmp(key, "caps") && (!strcmp(v, "none") || !strcmp(v, "perfmon") || !strcmp(v, "sys_admin"))) {
		k->perfmon = !strcmp(v, "perfmon");
		k->sys_admin = !strcmp(v, "sys_admin");
	} else if (!strcmp(key, "mux_ms") && !*end && n >= 1 && n <= 10000)
		k->mux_ns = (uint64_t)n * 1000000u;
	else if (!strcmp(key, "fds") && !*end && n >= 1 && n <= 1000000)
		k->maxfds = (int)n;
	else if (!strcmp(key, "generic") && !*end && (n == 0 || n == 1))
		k->generic = (int)n;
	else if (!strcmp(key, "lost") && !*end && (n == 0 || n == 1)) /* 0: a kernel before 6.0 */
		k->no_lost = !n;
	else if (!strcmp(key, "scale_quotes") && !*end && (n == 0 || n == 1)) /* 1: a 7.0-rc before 16bcbe6738be */
		k->scale_quotes = (int)n;
	else if (!strcmp(key, "kernel") && (!strcmp(v, "6.12.0") || !strcmp(v, "6.12.117")))
		k->linux_6120 = !strcmp(v, "6.12.0");
	else
		return uc_err("bad simulated kernel option '%s=%s' (paranoid=-1..4, caps=none|perfmon|sys_admin, "
			      "mux_ms=1..10000, fds=N, generic=0|1, lost=0|1, scale_quotes=0|1, kernel=6.12.0|6.12.117, "
			      "busy=PMU[:N], missing=PMU)", key, v);
	return 0;
}

static int is_kernel_key(const char *opt)
{
	static const char *const keys[] = { "paranoid=", "caps=", "mux_ms=", "fds=", "generic=", "lost=", "kernel=",
					    "busy=", "missing=", "scale_quotes=", NULL };
	for (int i = 0; keys[i]; i++)
		if (!strncmp(opt, keys[i], strlen(keys[i])))
			return 1;
	return 0;
}

int sim_kernel_machine_spec(const char *spec, char *out, size_t len)
{
	char buf[512], *save = NULL;
	size_t n = 0;
	if (strlen(spec) >= sizeof(buf) || !len)
		return uc_err("simulated kernel spec is too long (%zu characters)", strlen(spec));
	snprintf(buf, sizeof(buf), "%s", spec);
	out[0] = 0;
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (!is_kernel_key(o) && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "," : "", o);
	return n < len ? 0 : uc_err("simulated kernel spec is too long (%zu characters)", strlen(spec));
}

/* perf+sim:<platform>[,simulator options][,kernel options] */
struct perf_kernel *sim_kernel_open(const char *spec, struct access **sim_acc)
{
	char simspec[512] = "", buf[512], *save = NULL, *kopt[32];
	int nk = 0;
	if (strlen(spec) >= sizeof(buf)) {
		uc_err("simulated kernel spec is too long (%zu characters)", strlen(spec));
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s", spec); /* the kernel's options apart, the rest for the simulator */
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(simspec);
		/* The simulated kernel (its events, counters and multiplexing) lives in this process: a second
		 * process on the same shared machine would schedule its events on counters the first one's
		 * kernel already gave away, and each would read the other's event. */
		if (!strncmp(o, "shared=", 7)) {
			uc_err("simulator option shared= is not available on perf+sim: each process simulates its own "
			       "kernel, so two processes would program each other's counters; share a machine with "
			       "sim:<platform>,shared=FILE (its claims file shares boxes as on hardware), or give each "
			       "process its own perf+sim: machine");
			return NULL;
		}
		if (is_kernel_key(o) && nk < 32)
			kopt[nk++] = o;
		else if (is_kernel_key(o)) {
			uc_err("too many simulated kernel options (at most 32)");
			return NULL;
		} else
			snprintf(simspec + n, sizeof(simspec) - n, "%s%s", n ? "," : "", o);
	}
	struct sim_kernel *k = calloc(1, sizeof(*k));
	if (!k) {
		uc_err("out of memory");
		return NULL;
	}
	k->k.ops = &sim_kernel_ops;
	k->k.name = "the simulated kernel";
	k->k.simulated = 1;
	k->paranoid = 0; /* a site that lets its users count; paranoid=2 is the mainline default */
	k->maxfds = 1024;
	k->mux_ns = 4000000; /* PERF_CPU_HRTIMER at HZ=250 */
	k->generic = -1;
	if (!(k->acc = access_sim_open(simspec)))
		goto fail;
	k->s = sim_of(k->acc);
	if (!k->s->kind->perf) {
		uc_err("Linux has no uncore PMUs for the simulated %s: use sim:%s", k->s->kind->name, k->s->kind->name);
		goto fail;
	}
	for (int i = 0; i < nk; i++) { /* settings first, then what names PMUs: missing ones before the tree, */
		char *v = strchr(kopt[i], '=');  /* another user's events after it */
		*v++ = 0;
		if (strcmp(kopt[i], "busy") && strcmp(kopt[i], "missing") && option(k, kopt[i], v))
			goto fail;
	}
	k->k.fd_limit = k->maxfds;
	if (sk_choose_driver(k))
		goto fail;
	if (!(k->kbox = calloc((size_t)k->s->nboxes, sizeof(*k->kbox))) || sk_build_pmus(k))
		goto fail;
	for (int i = 0; i < nk; i++) {
		const char *v = kopt[i] + strlen(kopt[i]) + 1;
		int p = !strcmp(kopt[i], "missing") && strcmp(v, "power") ? pmu_named(k, v) : 0;
		if (p < 0) {
			uc_err("simulated kernel option missing=%s: no PMU of that name", v);
			goto fail;
		}
		if (!strcmp(kopt[i], "missing") && !strcmp(v, "power"))
			sk_power_missing(k);
		else if (!strcmp(kopt[i], "missing"))
			k->pmus[p].missing = 1;
	}
	if (sk_write_tree(k))
		goto fail;
	for (int i = 0; i < nk; i++)
		if (!strcmp(kopt[i], "busy") && busy(k, kopt[i] + strlen(kopt[i]) + 1))
			goto fail;
	*sim_acc = k->acc;
	return &k->k;
fail:
	k_free(&k->k);
	return NULL;
}

int sim_kernel_open_events(struct perf_kernel *pk)
{
	return pk && pk->ops == &sim_kernel_ops ? sk_of(pk)->nfds : -1;
}
