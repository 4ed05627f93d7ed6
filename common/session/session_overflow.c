/* Sessions: overflow sampling, through the box and global status registers. */
#include "session_priv.h"

int sess_sampled(const uncore_session_t *s, int socket, int die)
{
	for (int i = 0; i < s->nslots; i++) {
		const struct box *b = box_of(s, s->slots[i].box);
		if (s->evs[s->slots[i].ev].period && b->socket == socket && b->die == die)
			return 1;
	}
	return 0;
}

int sess_dies(const uncore_session_t *s, int socket)
{
	return s->u->host.socket_dies[socket] > 1 ? s->u->host.socket_dies[socket] : 1;
}

/* The die's global status words (each die has its own: its table's Global Status Positions); returns
 * whether any bit is set (1), 0, or -1.  A platform without one reports 1: every sampled box is then
 * looked at. */
int sess_glob_status(uncore_session_t *s, int socket, int die, uint64_t v[UC_MAX_GLOB_STATUS])
{
	struct access *a = s->u->acc;
	const struct platform_desc *p = s->u->plat;
	int any = !p->glob_status;
	for (int k = 0; k < UC_MAX_GLOB_STATUS; k++) {
		v[k] = 0;
		if (k < platform_glob_status_regs(p) &&
		    a->ops->msr_read(a, host_die_cpu(&s->u->host, socket, die), p->glob_status + (uint32_t)k, &v[k]))
			return uc_err_prefix("reading the global overflow status of socket %d: ", socket);
		any |= v[k] != 0;
	}
	return any;
}

/* Whether the global status names the box (by its discovery Global Status Position); boxes without
 * one are always looked at, their bit being unpublished. */
static int glob_names(const struct box *b, const uint64_t g[UC_MAX_GLOB_STATUS], const struct platform_desc *p)
{
	if (!p->glob_status || b->gsp < 0 || b->gsp >= 64 * platform_glob_status_regs(p))
		return 1;
	return (int)(g[b->gsp / 64] >> (b->gsp % 64) & 1);
}

/* Clear the die's global status (write 1 to clear) and let every box of it count again. */
int sess_glob_resume(uncore_session_t *s, int socket, int die, const uint64_t g[UC_MAX_GLOB_STATUS])
{
	struct access *a = s->u->acc;
	const struct platform_desc *p = s->u->plat;
	int cpu = host_die_cpu(&s->u->host, socket, die);
	if (!p->glob_ctl)
		return 0;
	for (int k = 0; k < platform_glob_status_regs(p); k++)
		if (g[k] && guarded_msr_write(a, cpu, p->glob_status + (uint32_t)k, g[k]))
			return uc_err_prefix("resuming socket %d after an overflow: ", socket);
	if (guarded_msr_write(a, cpu, p->glob_ctl, p->glob_unfrz_all))
		return uc_err_prefix("resuming socket %d after an overflow: ", socket);
	return 0;
}

/* Where a box's status bits are cleared (write 1 to clear): its status register, or a register of its own. */
static uint64_t status_clr_reg(const struct box *b) { return b->t->status_clr ? b->r.rel + b->t->status_clr : b->r.status; }

int sess_box_status_clear(uncore_t *u, const struct box *b, uint32_t ctrs)
{
	uint64_t st;
	if (!b->r.status || b->t->bc->style->status_in_ctl) /* (Montecito's sit in PMC0, which a restore writes) */
		return 0;
	uint64_t clr = status_clr_reg(b);
	if (reg_read(u, b, b->r.status, 0, reg_box_ctl_bytes(b->t), &st))
		return -1;
	st = (st >> b->t->status_shift) & uc_width_mask(b->r.nctr) & ctrs;
	return st ? reg_write(u, b, clr, 0, reg_box_ctl_bytes(b->t), st << b->t->status_shift) : 0;
}

/* One box's overflowed counters: recorded, re-armed, their status cleared.  Returns how many. */
static int box_overflows(uncore_session_t *s, struct prog *p, uncore_overflow_t *out, int room)
{
	const struct box *b = box_of(s, p->box);
	uint64_t st, mask = uc_width_mask(b->r.nctr);
	int n = 0, pmc0 = b->t->bc->style->status_in_ctl;
	if (reg_read(s->u, b, b->r.status, 0, reg_box_ctl_bytes(b->t), &st))
		return -1;
	st = (st >> b->t->status_shift) & mask;
	if (!st)
		return 0;
	if (sess_read_box(s, p, READ_SAMPLE)) /* the counts up to the overflow */
		return -1;
	for (int k = 0; k < p->nslots; k++) {
		struct slot *sl = &s->slots[p->first + k];
		if (sl->ctr < 0 || !(st >> sl->ctr & 1) || !s->evs[sl->ev].period)
			continue;
		if (n < room)
			out[n] = (uncore_overflow_t){ .event = sl->ev, .socket = b->socket, .box = b->idx, .counter = sl->ctr };
		n++;
		sl->last = sess_preload(s, sl);
		if (reg_write_counter(s->u, b, sl->addr, sl->last))
			return -1;
	}
	/* status bits are write-1-to-clear; Montecito's sit in PMC0 beside fr, cleared by writing it running */
	uint64_t clr = status_clr_reg(b);
	if (pmc0 ? sess_write_box_ctl(s->u, b, sess_bc_running(b))
		 : reg_write(s->u, b, clr, 0, reg_box_ctl_bytes(b->t), st << b->t->status_shift))
		return -1;
	return n;
}

static int samples(const uncore_session_t *s)
{
	for (int i = 0; i < s->nevs; i++)
		if (s->evs[i].period)
			return 1;
	return 0;
}

int sess_service_overflows(uncore_session_t *s)
{
	if (s->u->perf || !samples(s))
		return 0;
	for (int sock = 0; sock < s->u->host.nsockets; sock++) {
		for (int die = 0; die < sess_dies(s, sock); die++) {
			uint64_t g[UC_MAX_GLOB_STATUS];
			int any;
			if (!sess_sampled(s, sock, die))
				continue;
			if ((any = sess_glob_status(s, sock, die, g)) < 0)
				return -1;
			if (!any)
				continue; /* global first: no box of this die overflowed */
			for (int p = 0; p < s->nprogs; p++) {
				struct prog *pg = &s->progs[p];
				const struct box *b = box_of(s, pg->box);
				if (b->socket != sock || b->die != die || !pg->owner || !b->r.status || pg->failed ||
				    !glob_names(b, g, s->u->plat))
					continue;
				int room = s->novq < SESS_OVQ ? SESS_OVQ - s->novq : 0;
				int n = box_overflows(s, pg, room ? s->ovq + s->novq : NULL, room);
				if (n < 0)
					return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
				s->novq += n; /* past SESS_OVQ only counted */
			}
			if (sess_glob_resume(s, sock, die, g))
				return -1;
		}
	}
	return 0;
}

int uncore_session_overflows_impl(uncore_session_t *s, uncore_overflow_t *out, int max)
{
	if (!s->running)
		return uc_err("the session is not running: start it first");
	if (sess_service_overflows(s))
		return -1;
	int total = s->novq, kept = total < SESS_OVQ ? total : SESS_OVQ;
	for (int i = 0; out && i < kept && i < max; i++)
		out[i] = s->ovq[i];
	s->novq = 0;
	return total;
}

int sess_glob_thaw(uncore_t *u, int socket, int die, int alone)
{
	struct access *a = u->acc;
	const struct platform_desc *p = u->plat;
	int cpu = host_die_cpu(&u->host, socket, die);
	if (!p->glob_ctl)
		return 0;
	for (int k = 0; alone && k < platform_glob_status_regs(p); k++) { /* write 1 to clear */
		uint64_t v;
		if (a->ops->msr_read(a, cpu, p->glob_status + (uint32_t)k, &v) ||
		    (v && guarded_msr_write(a, cpu, p->glob_status + (uint32_t)k, v)))
			return uc_err_prefix("clearing the overflow status of socket %d: ", socket);
	}
	if (guarded_msr_write(a, cpu, p->glob_ctl, p->glob_unfrz_all))
		return uc_err_prefix("lifting the freeze of socket %d: ", socket);
	return 0;
}
