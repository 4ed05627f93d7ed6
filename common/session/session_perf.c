/*
 * Sessions on the perf_event backend: each box's events form one perf group on the box's PMU (its
 * free-running events one more on the free-running PMU; events that do not fit the box's counters
 * together several groups, one per prog, which the kernel rotates and whose counts are scaled),
 * opened per socket on the CPU the PMU's
 * cpumask gives, enabled together and read with one read(2) per group (PERF_FORMAT_GROUP with the
 * times enabled and running, each value with its event's id, and its lost count where the kernel has
 * PERF_FORMAT_LOST, Linux 6.0).  Values are matched by id, never by position.  The kernel owns the
 * registers: nothing here touches them.
 */
#include <errno.h>
#include "session_priv.h"

#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		     PERF_FORMAT_ID | PERF_FORMAT_LOST)

static struct perf_kernel *kern(const uncore_session_t *s) { return s->u->perf->k; }

int sess_perf_check(uncore_session_t *s, const struct encoded *e)
{
	uint64_t cfg[3];
	const struct box *last = NULL;
	if (e->period)
		return uc_err("%s: sample=N cannot be used with the perf backend: the kernel's uncore PMUs do not sample "
			      "(count, or use the direct backend)", e->name);
	unsigned band = (unsigned)(e->ctl & 0xff) - e->bt->band_ev;
	if (e->bt->band_ev && e->fmask[0] && band > 3) /* snbep_pcu_hw_config: event selects 0xb-0xe only */
		return uc_err("%s: Linux's driver writes the %s for the band events 0x%02x-0x%02x only and would ignore "
			      "this filter (count it with the direct backend)", e->name, e->bt->filt_regs[0].name,
			      e->bt->band_ev, e->bt->band_ev + 3);
	for (int i = 0; i < s->u->nboxes; i++) { /* the boxes of a unit share their PMUs' formats */
		const struct box *b = &s->u->boxes[i];
		if (b->type_idx != e->type_idx)
			continue;
		int ctr = e->fr >= 0 ? UC_CTR_FREERUN : e->fixed ? UC_CTR_FIXED : 0;
		last = b;
		if (e->fr >= 0 && b->fr_pmu < 0)
			continue;
		return perf_encode(s->u, b, e, ctr, e->fr, cfg);
	}
	/* free-running, and no box of the unit has a free-running PMU: perf_encode says why */
	return last ? perf_encode(s->u, last, e, UC_CTR_FREERUN, e->fr, cfg) : 0;
}

/* Open one group: the slots of prog p that go to free-running counters (fr) or not. */
static int open_group(uncore_session_t *s, struct prog *p, int fr)
{
	const struct box *b = box_of(s, p->box);
	int pi = fr ? b->fr_pmu : b->pmu;
	if (pi < 0)
		return 0; /* no such group: sess_perf_check refused free-running events without a PMU */
	const struct perf_pmu *pmu = &s->u->perf->pmus[pi];
	int cpu = b->cpu; /* the box's die's CPU in the PMU's cpumask (perf_backend.c) */
	for (int k = 0; k < p->nslots; k++) {
		struct slot *sl = &s->slots[p->first + k];
		if ((sl->ctr == UC_CTR_FREERUN) != fr)
			continue;
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = pmu->type;
		a.read_format = s->perf_rf;
		a.disabled = p->lead[fr] < 0; /* the leader holds the group until all of it is there */
		uint64_t cfg[3];
		if (perf_encode(s->u, b, &s->evs[sl->ev], sl->ctr, sl->fr, cfg))
			return -1;
		a.config = cfg[0];
		a.config1 = cfg[1];
		a.config2 = cfg[2];
		int group = p->lead[fr] < 0 ? -1 : s->slots[p->lead[fr]].fd;
		int fd = kern(s)->ops->open(kern(s), &a, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);
		if (fd == -EINVAL && (s->perf_rf & PERF_FORMAT_LOST) && group < 0) { /* a kernel before 6.0 */
			s->perf_rf &= ~(uint64_t)PERF_FORMAT_LOST;
			a.read_format = s->perf_rf;
			fd = kern(s)->ops->open(kern(s), &a, -1, cpu, group, PERF_FLAG_FD_CLOEXEC);
		}
		if (fd >= 0 && kern(s)->ops->ioctl(kern(s), fd, PERF_EVENT_IOC_ID, (unsigned long)&sl->id)) {
			kern(s)->ops->close(kern(s), fd);
			return uc_err("%s: the kernel gave no id for its event (PERF_EVENT_IOC_ID)", s->evs[sl->ev].name);
		}
		if (fd < 0) {
			perf_errno_error(s->u->perf, -fd, pmu->name, cpu);
			return uc_err_prefix("%s: ", s->evs[sl->ev].name);
		}
		sl->fd = fd;
		p->nmem[fr]++;
		if (p->lead[fr] < 0)
			p->lead[fr] = p->first + k;
	}
	return 0;
}

static void close_all(uncore_session_t *s)
{
	for (int p = 0; p < s->nprogs; p++) /* members first, then their leaders */
		for (int pass = 0; pass < 2; pass++)
			for (int k = 0; k < s->progs[p].nslots; k++) {
				struct slot *sl = &s->slots[s->progs[p].first + k];
				int lead = s->progs[p].first + k == s->progs[p].lead[0] ||
					   s->progs[p].first + k == s->progs[p].lead[1];
				if (sl->fd >= 0 && lead == pass) {
					kern(s)->ops->close(kern(s), sl->fd);
					sl->fd = -1;
				}
			}
}

int sess_perf_start(uncore_session_t *s)
{
	s->perf_rf = READ_FORMAT;
	for (int i = 0; i < s->nslots; i++)
		s->slots[i].fd = -1;
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		pg->lead[0] = pg->lead[1] = -1;
		pg->nmem[0] = pg->nmem[1] = 0;
		if (open_group(s, pg, 0) || open_group(s, pg, 1))
			goto fail;
	}
	for (int p = 0; p < s->nprogs; p++)
		for (int g = 0; g < 2; g++) {
			int lead = s->progs[p].lead[g];
			if (lead < 0)
				continue;
			int fd = s->slots[lead].fd, rc = kern(s)->ops->ioctl(kern(s), fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
			if (!rc)
				rc = kern(s)->ops->ioctl(kern(s), fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
			if (rc) {
				uc_err("enabling %s's group: %s", s->evs[s->slots[lead].ev].name, strerror(-rc));
				goto fail;
			}
		}
	s->perf_cpu = -2; /* each box's own (read_boxes sets them a turn at a time) */
	s->perf_t = 0;
	/* the baselines at one instant of a simulator's clock, as every later read (read_all): a box's first
	 * window is then the time its counts were counted over, not the middle of a span the scheduler stretched */
	access_clock_hold(s->u->acc);
	int rc = 0;
	for (int p = 0; p < s->nprogs && !rc; p++)
		rc = sess_perf_read_box(s, &s->progs[p], READ_BASELINE);
	access_clock_release(s->u->acc);
	s->perf_t = 0;
	if (!rc)
		return 0;
fail:
	close_all(s);
	return -1;
}

/* The general counters session s's events take on box bi (its split groups' together). */
static int box_demand(const uncore_session_t *s, int bi)
{
	int n = 0;
	for (int i = 0; i < s->nslots; i++)
		n += s->slots[i].box == bi && s->slots[i].ctr >= 0;
	return n;
}

/* The handle's own sessions, s starting beside those running, together need more of a box's general
 * counters than it has (the default set and the per-job attribution's memory-controller count, whose same
 * CAS events share counters on direct through the claims but not in the kernel): the kernel multiplexes
 * their groups, and a count left unscaled would be a share of the truth.  Such a box's groups, in every one
 * of those sessions, are scaled from then on as the library's own split ones are (prog.mux; where nothing
 * multiplexes, time running equals time enabled and the count is as counted), said once a start. */
void sess_perf_crowd(uncore_session_t *s)
{
	uncore_t *u = s->u;
	int nbox = 0, need0 = 0, have = 0;
	const struct box *first = NULL;
	for (int bi = 0; bi < u->nboxes; bi++) {
		int need = box_demand(s, bi), crowded = 0;
		if (!need)
			continue;
		for (int r = 0; r < u->nrunning; r++)
			if (u->running[r] != s)
				need += box_demand(u->running[r], bi);
		for (int r = -1; r < u->nrunning && need > box_of(s, bi)->r.nctr; r++) {
			uncore_session_t *o = r < 0 ? s : u->running[r];
			for (int p = 0; p < o->nprogs; p++)
				if (o->progs[p].box == bi && !o->progs[p].mux)
					crowded = o->progs[p].mux = 1;
		}
		if (!crowded)
			continue;
		if (!nbox++) {
			first = box_of(s, bi);
			need0 = need;
			have = first->r.nctr;
		}
	}
	if (nbox) /* naming the first box: a unit's boxes mostly count the same events */
		uc_warn("%s %d (socket %d)%s: this process's sessions count %d events on its %d counters together; the "
			"kernel multiplexes them, and their counts are scaled by time enabled / running (estimates, exact "
			"for steady rates)", first->t->name, first->idx, first->socket,
			nbox > 1 ? " and other boxes" : "", need0, have);
}

/* The slot of group g of prog p whose event has id, or NULL. */
static struct slot *slot_of_id(uncore_session_t *s, const struct prog *p, int g, uint64_t id)
{
	for (int k = 0; k < p->nslots; k++) {
		struct slot *sl = &s->slots[p->first + k];
		if ((sl->ctr == UC_CTR_FREERUN) == g && sl->fd >= 0 && sl->id == id)
			return sl;
	}
	return NULL;
}

/* A count over the share of the time enabled that its group was counting, as perf stat scales it (on: scale). */
static uint64_t scaled(uint64_t raw, uint64_t en, uint64_t run, int on)
{
	return on && run && run < en ? (uint64_t)llround((double)raw * (double)en / (double)run) : raw;
}

/* The CPU a read(2) of the box's groups interrupts, -1: none.  The kernel reads an uncore event from any CPU
 * of its package without an interrupt (PERF_EV_CAP_READ_ACTIVE_PKG, Linux uncore.c uncore_pmu_event_init). */
int sess_perf_read_cpu(const uncore_session_t *s, const struct box *b)
{
	int here = access_here(s->u->acc);
	return here >= 0 && here < UC_MAX_CPUS && s->u->host.cpu_socket[here] == b->socket ? -1 : b->cpu;
}

/* One read(2) of a group: {nr, time enabled, time running, {value, id[, lost]} per member}.  Each value
 * goes to the slot of its id, whatever the order the kernel gives them in; *moved counts the members that
 * counted in the interval (a read that closes one). */
static int read_group(uncore_session_t *s, struct prog *p, int g, enum read_kind kind, int cpu, int *moved)
{
	uint64_t buf[3 + 3 * UC_MAX_SLOTS];
	const struct slot *lead = &s->slots[p->lead[g]];
	size_t stride = s->perf_rf & PERF_FORMAT_LOST ? 3 : 2;
	int members = p->nmem[g], scale = s->u->scale || p->mux;
	ssize_t n = kern(s)->ops->read(kern(s), lead->fd, buf, sizeof(buf));
	s->u->acc->stats.reads++;
	s->u->acc->stats.syscalls++;
	access_cost(s->u->acc, COST_PERF, cpu, n >= 8 && buf[0] < UC_MAX_SLOTS ? (int)buf[0] : 1);
	if (n == 0)
		return uc_err("the kernel could not put %s's group on the box's counters (another user pinned them)",
			      s->evs[lead->ev].name);
	if (n < 0)
		return uc_err("reading %s's group: %s", s->evs[lead->ev].name, strerror((int)-n));
	if (n < 24 || buf[0] != (uint64_t)members || (size_t)n != (3 + buf[0] * stride) * 8)
		return uc_err("reading %s's group: the kernel returned %zd bytes for %llu values (%d members)",
			      s->evs[lead->ev].name, n, (unsigned long long)buf[0], members);
	for (uint64_t m = 0; m < buf[0]; m++) {
		/* (the kernel gives the members in the order they were made, which is the slots': tried first) */
		struct slot *sl = &s->slots[p->first + m];
		if (m >= (uint64_t)p->nslots || (sl->ctr == UC_CTR_FREERUN) != g || sl->fd < 0 || sl->id != buf[3 + m * stride + 1])
			sl = slot_of_id(s, p, g, buf[3 + m * stride + 1]);
		if (!sl)
			return uc_err("reading %s's group: a value with id %llu, which no member has", s->evs[lead->ev].name,
				      (unsigned long long)buf[3 + m * stride + 1]);
		uint64_t v = buf[3 + m * stride];
		if (kind == READ_BASELINE) {
			sl->en0 = buf[1];
			sl->run0 = buf[2];
			sl->raw = sl->mraw = sl->men = sl->mrun = sl->ien = sl->irun = 0;
		} else {
			sl->raw += v - sl->last;
		}
		uint64_t en = buf[1] - sl->en0, run = buf[2] - sl->run0;
		sl->acc = scaled(sl->raw, en, run, scale);
		sl->last = v;
		sl->en = buf[1];
		sl->run = buf[2];
		if (kind == READ_SAMPLE)
			continue;
		/* the interval's count as perf stat -I scales it: by the interval's own times, so that it is
		 * never negative (acc - prev is the interval's count, in modular arithmetic) */
		sl->ien = en - sl->men;
		sl->irun = run - sl->mrun;
		sl->prev = scale ? sl->acc - scaled(sl->raw - sl->mraw, sl->ien, sl->irun, 1) : sl->mark;
		sl->mark = sl->acc;
		sl->mraw = sl->raw;
		sl->men = en;
		sl->mrun = run;
		*moved += sl->acc != sl->prev;
	}
	return 0;
}

int sess_perf_read_box(uncore_session_t *s, struct prog *p, enum read_kind kind)
{
	const struct box *b = box_of(s, p->box);
	struct access *a = s->u->acc;
	uint64_t t0 = s->perf_t ? s->perf_t : a->ops->now_ns(a);
	int cpu = s->perf_cpu >= -1 ? s->perf_cpu : sess_perf_read_cpu(s, b), moved = 0;
	for (int g = 0; g < 2; g++)
		if (p->lead[g] >= 0 && read_group(s, p, g, kind, cpu, &moved)) {
			s->perf_t = 0;
			return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
		}
	uint64_t t1 = s->perf_t = a->ops->now_ns(a), now = t0 + (t1 - t0) / 2;
	if (kind != READ_SAMPLE) {
		p->t_prev = kind == READ_BASELINE ? now : p->t_last;
		p->t_last = now;
		p->moved = moved > 0; /* (every slot is a member of one of its groups) */
		p->all_moved = moved == p->nslots;
	}
	if (kind == READ_BASELINE)
		p->t_start = now;
	return 0;
}

void sess_perf_stop(uncore_session_t *s)
{
	for (int p = 0; p < s->nprogs; p++)
		for (int g = 0; g < 2; g++)
			if (s->progs[p].lead[g] >= 0)
				kern(s)->ops->ioctl(kern(s), s->slots[s->progs[p].lead[g]].fd, PERF_EVENT_IOC_DISABLE,
						    PERF_IOC_FLAG_GROUP);
	close_all(s);
}
