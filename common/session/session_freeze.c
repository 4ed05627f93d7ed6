/*
 * Sessions: a die frozen by an overflow nobody services.  A sampled counter's overflow freezes its whole die
 * (IVB-EP's and the discovery era's global control) until the session that sampled it services it; a
 * sampler killed (SIGKILL, the OOM killer, a crash) or stopped (SIGSTOP) before it does leaves every other
 * session of the die counting nothing.  A read that sees none of the session's counters on a die move looks
 * at the die's global overflow status (the freeze's read-back: the status bit that froze it stays until it
 * is serviced): a dead sampler is reaped (its boxes restored) and the die counts again; a live one that
 * holds the freeze is noted for health's `frozen` condition, naming it; one no claim explains, for
 * `stopped` on the socket.
 */
#include <unistd.h>
#include "session_priv.h"
#include "platform/ctl_layout.h"

/* The session counts on the die with a general counter, and none of them moved in the interval just read
 * (free-running counters ignore the freeze). */
static int die_still(const uncore_session_t *s, int sock, int die)
{
	int any = 0;
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		const struct prog *pg = prog_of(s, sl);
		if (b->socket != sock || b->die != die || sl->ctr == UC_CTR_FREERUN || pg->failed || !pg->held)
			continue;
		if (sl->acc != sl->prev)
			return 0;
		any = 1;
	}
	return any;
}

/* A holder other than this session of a counter armed for an overflow (its control word's overflow enable)
 * on a box of the die, in the claims loaded: its claim (*h its holder), or NULL. */
static const struct claim *die_sampler(uncore_session_t *s, int sock, int die, const struct claim_holder **h)
{
	uncore_t *u = s->u;
	for (int i = 0; i < claims_count(u); i++) {
		const struct claim *c = claims_at(u, i);
		const struct box *b = claims_box(u, c);
		if (!b || b->socket != sock || b->die != die)
			continue;
		uint64_t ov = ctl_mask(b->t->lay, CR_OV_EN);
		for (int j = 0; j < c->nholders; j++) {
			if (c->h[j].pid == (int32_t)getpid() && c->h[j].token == s->token)
				continue;
			for (int k = 0; k < UC_MAX_CTR; k++)
				if ((c->h[j].ctrs >> k & 1) && (c->ctl[k] & ov)) {
					*h = &c->h[j];
					return c;
				}
		}
	}
	return NULL;
}

/* A privileged process: a live member session's sampler on the die, in the group's file (MSR boxes): its
 * holder, or NULL.  Root never writes what that file says, so such a freeze is only named. */
static const struct claim_holder *peer_sampler(uncore_session_t *s, int sock, int die)
{
	uncore_t *u = s->u;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		const struct claim *c;
		int pid = b->socket == sock && b->die == die ? claims_peer_pid(u, b, &c) : 0;
		uint64_t ov = pid ? ctl_mask(b->t->lay, CR_OV_EN) : 0;
		for (int j = 0; ov && j < c->nholders; j++)
			for (int k = 0; c->h[j].pid == pid && k < UC_MAX_CTR; k++)
				if ((c->h[j].ctrs >> k & 1) && (c->ctl[k] & ov))
					return &c->h[j];
	}
	return NULL;
}

/* The die's first global status word with a bit set (0: none: not frozen by an overflow), or -1. */
static int64_t frozen_status(uncore_session_t *s, int sock, int die, uint64_t *first)
{
	uint64_t g[UC_MAX_GLOB_STATUS];
	int any = sess_glob_status(s, sock, die, g);
	*first = 0;
	for (int k = 0; any > 0 && k < UC_MAX_GLOB_STATUS && !*first; k++)
		*first = g[k];
	return any < 0 ? -1 : *first != 0;
}

/* One die found frozen: the claims looked at under their lock, a dead sampler reaped (sess_reap_dead
 * restores its boxes and lifts the freeze), and what holds it noted. */
static void frozen_die(uncore_session_t *s, int sock, int die, uint64_t status)
{
	uncore_t *u = s->u;
	struct session_frozen f = { .socket = sock, .die = die, .status = status };
	const struct claim_holder *h = NULL;
	if (claims_lock(u)) {
		uc_warn("socket %d is frozen by an overflow nobody serviced, and the claims that say whose cannot be "
			"read: %s", sock, uncore_error());
		return;
	}
	const struct claim *c = die_sampler(s, sock, die, &h);
	f.pid = c ? h->pid : 0;
	f.state = c ? claims_holder_state(u, h) : 0;
	if (c && !f.state) { /* it died: its boxes are put back, and the die thawed */
		sess_reap_dead(u);
		if (claims_write(u))
			uc_warn("after restoring a dead sampler's boxes: %s", uncore_error());
		uint64_t still;
		if (frozen_status(s, sock, die, &still) > 0 && !die_sampler(s, sock, die, &h) &&
		    sess_glob_thaw(u, sock, die, 1)) /* its status left set (others hold the die): nobody needs it */
			uc_warn("%s", uncore_error());
	} else if (!c && (h = peer_sampler(s, sock, die)) != NULL) {
		f.pid = h->pid;
		f.state = claims_holder_state(u, h);
	}
	claims_unlock(u);
	if (s->nfrozen < (int)(sizeof(s->frozen) / sizeof(s->frozen[0])))
		s->frozen[s->nfrozen++] = f;
}

void sess_check_frozen(uncore_session_t *s)
{
	const struct platform_desc *p = s->u->plat;
	s->nfrozen = 0;
	if (s->u->perf || !p->glob_ctl || !p->glob_status)
		return;
	for (int sock = 0; sock < s->u->host.nsockets && sock < UC_MAX_SOCKETS; sock++)
		for (int die = 0; die < sess_dies(s, sock) && die < UC_MAX_DIES; die++) {
			uint64_t status;
			/* a die this session samples on was serviced (and resumed) at the start of the read */
			if (sess_sampled(s, sock, die) || !die_still(s, sock, die) || frozen_status(s, sock, die, &status) <= 0)
				continue;
			frozen_die(s, sock, die, status);
		}
}

int session_frozen(const uncore_session_t *s, int i, struct session_frozen *out)
{
	if (i < 0 || i >= s->nfrozen)
		return -1;
	*out = s->frozen[i];
	return 0;
}
