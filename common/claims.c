/*
 * The claims file: a header and an array of struct claim, read and written
 * whole under flock (it holds a few records: one per box in use).  A handle
 * whose backend names no file (a private simulator) keeps its claims in memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "claims.h"
#include "uncore_priv.h"
#include "error.h"

struct claims {
	int fd; /* -1: in memory only */
	struct claim *c;
	int n, cap;
};

struct claims_hdr {
	char magic[8];
	uint32_t n, rec_size;
};

static int claims_open(uncore_t *u)
{
	struct claims *cl = calloc(1, sizeof(*cl));
	if (!cl)
		return uc_err("out of memory");
	cl->fd = -1;
	if (u->acc->claims[0]) {
		cl->fd = open(u->acc->claims, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (cl->fd >= 0)
			(void)!fchmod(cl->fd, 0666); /* every user with uncore access shares it (fails harmlessly if not ours) */
		if (cl->fd < 0)
			uc_warn("cannot open %s (%s): sessions of other processes are not coordinated with this one",
				u->acc->claims, strerror(errno));
	}
	u->claims = cl;
	return 0;
}

static int grow(struct claims *cl, int n)
{
	if (n <= cl->cap)
		return 0;
	int nc = cl->cap ? cl->cap * 2 : 8;
	while (nc < n)
		nc *= 2;
	struct claim *c = realloc(cl->c, (size_t)nc * sizeof(*c));
	if (!c)
		return uc_err("out of memory");
	cl->c = c;
	cl->cap = nc;
	return 0;
}

int claims_lock(uncore_t *u)
{
	struct claims_hdr h;
	if (!u->claims && claims_open(u))
		return -1;
	struct claims *cl = u->claims;
	if (cl->fd < 0)
		return 0;
	while (flock(cl->fd, LOCK_EX))
		if (errno != EINTR)
			return uc_err("locking %s: %s", u->acc->claims, strerror(errno));
	ssize_t r = pread(cl->fd, &h, sizeof(h), 0);
	cl->n = 0;
	if (r == 0)
		return 0; /* a new file */
	if (r != (ssize_t)sizeof(h) || memcmp(h.magic, "UCCLM01", 8) || h.rec_size != sizeof(struct claim) ||
	    h.n > 65536 || grow(cl, (int)h.n) ||
	    pread(cl->fd, cl->c, h.n * sizeof(struct claim), sizeof(h)) != (ssize_t)(h.n * sizeof(struct claim))) {
		/* unreadable: treat as empty rather than refusing every session on the machine */
		uc_warn("%s is damaged or from another version; starting it afresh", u->acc->claims);
		return 0;
	}
	cl->n = (int)h.n;
	return 0;
}

int claims_unlock(uncore_t *u)
{
	struct claims *cl = u->claims;
	int rc = 0;
	if (!cl || cl->fd < 0)
		return 0;
	struct claims_hdr h = { "UCCLM01", (uint32_t)cl->n, sizeof(struct claim) };
	size_t len = (size_t)cl->n * sizeof(struct claim);
	if (pwrite(cl->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    (len && pwrite(cl->fd, cl->c, len, sizeof(h)) != (ssize_t)len) || ftruncate(cl->fd, (off_t)(sizeof(h) + len)))
		rc = uc_err("writing %s: %s", u->acc->claims, strerror(errno));
	flock(cl->fd, LOCK_UN);
	return rc;
}

static int alive(int pid) { return pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH; }

struct claim *claims_get(uncore_t *u, const struct box *b, int create)
{
	struct claims *cl = u->claims;
	for (int i = 0; i < cl->n; i++) {
		struct claim *c = &cl->c[i];
		if (strcmp(c->unit, b->t->name) || c->socket != b->socket || c->idx != b->idx)
			continue;
		int k = 0; /* a holder that died without releasing no longer counts */
		for (int j = 0; j < c->nholders && j < CLAIM_HOLDERS; j++)
			if (alive(c->h[j].pid))
				c->h[k++] = c->h[j];
		c->nholders = k;
		return c;
	}
	if (!create || grow(cl, cl->n + 1))
		return NULL;
	struct claim *c = &cl->c[cl->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->unit, sizeof(c->unit), "%s", b->t->name);
	c->socket = b->socket;
	c->idx = b->idx;
	return c;
}

int claims_hold(struct claim *c, uint32_t token)
{
	if (c->nholders >= CLAIM_HOLDERS)
		return uc_err("%s %d (socket %d) is already shared by %d sessions", c->unit, c->idx, c->socket,
			      CLAIM_HOLDERS);
	c->h[c->nholders].pid = (int32_t)getpid();
	c->h[c->nholders++].token = token;
	return 0;
}

int claims_drop(struct claim *c, uint32_t token)
{
	int pid = (int)getpid();
	for (int j = 0; j < c->nholders; j++)
		if (c->h[j].pid == pid && c->h[j].token == token) {
			c->h[j] = c->h[--c->nholders];
			break;
		}
	return c->nholders;
}

int claims_other_pid(const struct claim *c, uint32_t token)
{
	for (int j = 0; j < c->nholders; j++)
		if (c->h[j].pid != (int32_t)getpid() || c->h[j].token != token)
			return c->h[j].pid;
	return 0;
}

void claims_remove(uncore_t *u, struct claim *c)
{
	struct claims *cl = u->claims;
	int i = (int)(c - cl->c);
	memmove(c, c + 1, (size_t)(cl->n - i - 1) * sizeof(*c));
	cl->n--;
}

void claims_free(uncore_t *u)
{
	struct claims *cl = u->claims;
	if (!cl)
		return;
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->c);
	free(cl);
	u->claims = NULL;
}
