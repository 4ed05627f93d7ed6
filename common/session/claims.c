/*
 * The claims file: a header and an array of struct claim, read and written
 * whole under flock (it holds a few records: one per box in use).  A handle
 * whose backend names no file (a private simulator), or whose file is refused
 * as unsafe, keeps its claims in memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "claims.h"
#include "util/proc_start.h"
#include "util/safe_file.h"
#include "session_priv.h"
#include "util/error.h"

struct claims {
	int fd; /* -1: in memory only */
	char path[540]; /* the file this process keeps its claims in */
	int priv;       /* a privileged process: path is root's own file, and the group's is read for conflicts */
	struct claim *c, *peer; /* the claims loaded; the group's, for a privileged process */
	int n, cap, npeer, peer_cap;
	uint64_t my_start; /* this process's start time */
	/* sessions of this process that left while the lock was held elsewhere: their boxes are restored,
	 * and their records are dropped at the next lock, as a dead holder's would be */
	uint32_t *gone;
	int ngone;
	int copy; /* the copy of the records in force in the file (claims_hdr) */
};

_Static_assert(CLAIM_SAVED >= PMON_MAX_REGS, "a claim must hold every register of a box");

/* The file holds two copies of the records, the header naming the one in force: a writer fills the other
 * and then rewrites the header, which lies inside one page, so a kill during a write (the kernel stops
 * a write between pages) leaves the file as it was or as it was meant to be, never torn. */
struct claims_hdr {
	char magic[8];
	uint32_t n, rec_size;
	uint32_t copy, pad; /* the copy in force, 0 or 1 */
	uint64_t sum;       /* claims_sum() of its records */
};

#define CLAIMS_MAGIC "UCCLM04"

/* A privileged process trusts its claims file only if no other user can open it: a group member who
 * could write a record could make root restore values of the member's choosing. */
static int root_only(int fd, const char *path)
{
	struct stat st;
	if (fstat(fd, &st))
		return uc_err("%s: %s", path, strerror(errno));
	if (st.st_uid != 0 || (st.st_mode & 0077))
		return uc_err("%s may be opened by other users (owner %u, mode %04o): a privileged process keeps its "
			      "claims only in a file no one else can open (chown root %s; chmod 0600 %s); other users' "
			      "sessions keep theirs in %s" CLAIMS_GROUP_SUFFIX, path, (unsigned)st.st_uid,
			      (unsigned)(st.st_mode & 07777), path, path, path);
	return 0;
}

/* ... and keeps it only in a directory no other user may write into (unless the sticky bit keeps them from
 * removing others' files): a user who could would swap root's file for an empty one, losing the records
 * of root's sessions, and its killed sessions' boxes would never be restored. */
static int root_dir(const char *path)
{
	char dir[540];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0; /* "/x" -> "/" */
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(dir, &st))
		return uc_err("%s: %s", dir, strerror(errno));
	if ((st.st_mode & 0022) && !(st.st_mode & S_ISVTX))
		return uc_err("%s is in directory %s, which %s may write into (mode %04o, group %u): another user could "
			      "replace it; a privileged process keeps its claims only where no one else can (chmod go-w "
			      "%s; doc/safety.md)", path, dir, (st.st_mode & 0002) ? "every user" : "its group",
			      (unsigned)(st.st_mode & 07777), (unsigned)st.st_gid, dir);
	return 0;
}

/* Root's room taken back from the group's file: bytes past what its format holds are never read by
 * anyone, and a file that holds no whole copy of records (garbage, or only allocated) holds nothing a
 * session needs.  Whatever a member wrote there is what filled the file system in the msr-safe set-up
 * (the directory is root's; claims.group is the one file a member may write), so root's first count
 * is not refused for it.  Returns whether anything was freed. */
static int reclaim_group(uncore_t *u, const struct claims *cl)
{
	char path[560];
	struct stat st;
	struct claims_hdr h;
	snprintf(path, sizeof(path), "%s" CLAIMS_GROUP_SUFFIX, cl->path);
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), freed = 0;
	if (fd < 0)
		return 0;
	off_t bound = claims_copy_offset(u, 2);
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_nlink == 1) {
		int whole = pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && !memcmp(h.magic, CLAIMS_MAGIC, 8);
		off_t keep = whole ? bound : 0;
		if (st.st_size > keep && !ftruncate(fd, keep)) {
			uc_warn("%s held %lld bytes (%s): cut to %lld to make room for root's claims in a full file "
				"system", path, (long long)st.st_size, whole ? "more than its format holds" : "no records",
				(long long)keep);
			freed = 1;
		}
	}
	close(fd);
	return freed;
}

/* Allocate the claims file's first len bytes; a privileged process short of room takes it back from the
 * group's file first.  0 or an errno. */
static int reserve(uncore_t *u, const struct claims *cl, off_t len)
{
	int err = posix_fallocate(cl->fd, 0, len);
	if (err == ENOSPC && cl->priv && reclaim_group(u, cl))
		err = posix_fallocate(cl->fd, 0, len);
	return err;
}

int claims_open(uncore_t *u)
{
	struct claims *cl = calloc(1, sizeof(*cl));
	if (!cl)
		return uc_err("out of memory");
	cl->fd = -1;
	cl->my_start = uc_proc_start((int)getpid(), NULL);
	cl->priv = geteuid() == 0;
	if (u->acc->claims[0]) {
		char dflt[512];
		int is_default = !strcmp(u->acc->claims, sysroot_path(dflt, sizeof(dflt), CLAIMS_DEFAULT));
		snprintf(cl->path, sizeof(cl->path), "%s%s", u->acc->claims, cl->priv ? "" : CLAIMS_GROUP_SUFFIX);
		cl->fd = safe_open_rw(cl->path, 1, cl->priv ? 0600 : 0660, is_default);
		if (cl->fd >= 0 && cl->priv && (root_only(cl->fd, cl->path) || root_dir(cl->path))) {
			close(cl->fd);
			cl->fd = -1;
		}
		if (cl->fd < 0)
			uc_warn("claims file refused: %s; sessions of other processes are not coordinated with this one (its "
				"boxes are tracked in this process only)", uncore_error());
		/* the file's whole size, header and both copies, is allocated once: a later write never needs a
		 * block, so a file system another user filled (a member of the group filling claims.group in the
		 * same /run) cannot refuse it.  Where this fails, the first write says why and refuses the start. */
		else
			(void)reserve(u, cl, claims_copy_offset(u, 2));
	}
	u->claims = cl;
	return 0;
}

static int grow(struct claim **arr, int *cap, int n)
{
	if (n <= *cap)
		return 0;
	int nc = *cap ? *cap * 2 : 8;
	while (nc < n)
		nc *= 2;
	struct claim *c = realloc(*arr, (size_t)nc * sizeof(*c));
	if (!c)
		return uc_err("out of memory");
	*arr = c;
	*cap = nc;
	return 0;
}

/* " by process PID (COMM)" when /proc/locks names the process that holds a lock on fd's file, else "". */
static void lock_holder(int fd, char *buf, size_t len)
{
	struct stat st;
	char line[256], want[64], comm[64] = "", path[64];
	int pid = 0;
	buf[0] = 0;
	FILE *f = fstat(fd, &st) ? NULL : fopen("/proc/locks", "re");
	if (!f)
		return;
	snprintf(want, sizeof(want), "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino);
	while (!pid && fgets(line, sizeof(line), f)) {
		char type[16], id[64];
		int p;
		/* "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10952996 0 EOF"; "->" marks a waiter, not the holder */
		if (!strstr(line, "->") && sscanf(line, "%*d: %15s %*s %*s %d %63s", type, &p, id) == 3 &&
		    !strcmp(type, "FLOCK") && !strcmp(id, want) && p != (int)getpid())
			pid = p;
	}
	fclose(f);
	if (!pid)
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if ((f = fopen(path, "re"))) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(buf, len, " by process %d%s%s%s", pid, comm[0] ? " (" : "", comm, comm[0] ? ")" : "");
}

/* flock with a deadline: a process that keeps the lock must not hang every session on the machine. */
static int lock_within(int fd, const char *path)
{
	struct timespec pause = { 0, 5000000 };
	for (int waited = 0;; waited += 5) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return uc_err("locking %s: %s", path, strerror(errno));
		if (waited >= CLAIMS_LOCK_TIMEOUT_MS) {
			char who[128];
			lock_holder(fd, who, sizeof(who));
			return uc_err("%s has been locked%s for %d s (%s%s)", path, who[0] ? who : " by another process",
				      CLAIMS_LOCK_TIMEOUT_MS / 1000, who[0] ? "see it with: fuser -v " : "find it with: fuser -v ",
				      path);
		}
		nanosleep(&pause, NULL);
	}
}

static const struct box *box_of_claim(const uncore_t *u, const struct claim *c)
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->idx == c->idx && b->socket == c->socket && !strcmp(b->t->name, c->unit))
			return b;
	}
	return NULL;
}

/* Why loaded record c[i] cannot be used (NULL: it can): it must name a box of this machine once (among
 * the n kept so far), with counts in range and registers that box has. */
static const char *bad_record(const uncore_t *u, const struct claim *all, int i, int n)
{
	const struct claim *c = &all[i];
	struct pmon_reg r;
	if (!memchr(c->unit, 0, sizeof(c->unit)))
		return "its unit name is not terminated";
	const struct box *b = box_of_claim(u, c);
	if (!b)
		return "it names no box of this machine";
	for (int j = 0; j < n; j++)
		if (all[j].idx == c->idx && all[j].socket == c->socket && !strcmp(all[j].unit, c->unit))
			return "a record for the box came before it";
	if (c->nholders < 0 || c->nholders > CLAIM_HOLDERS)
		return "its holder count is out of range";
	if (c->nsaved < 0 || c->nsaved > CLAIM_SAVED)
		return "its saved-register count is out of range";
	for (int k = 0; k < c->nholders; k++)
		if (c->h[k].ctrs & ~((1u << b->r.nctr) - 1) & ~(1u << CLAIM_FIXED))
			return "a holder uses counters its box does not have";
	for (int k = 0; k < c->nsaved; k++)
		if (c->sv[k].kind >= PK_NKINDS || pmon_reg(b, (enum pmon_kind)c->sv[k].kind, c->sv[k].idx, &r))
			return "it names a register its box does not have";
	return NULL;
}

/* The records of a claims file, each checked (a bad one is named and left out); the number kept. */
uint64_t claims_sum(const void *p, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ ((const uint8_t *)p)[i]) * 1099511628211ull;
	return h;
}

off_t claims_copy_offset(const uncore_t *u, int copy)
{
	uint64_t room = ((uint64_t)u->nboxes * sizeof(struct claim) + 4095) / 4096 * 4096;
	return (off_t)(4096 + (uint64_t)copy * room);
}

/* The records of the copy the header names; -1 when the file is damaged or from another version. */
static int load(const uncore_t *u, int fd, const char *path, struct claim **arr, int *cap, int *copy)
{
	struct claims_hdr h;
	int n = 0;
	ssize_t r = pread(fd, &h, sizeof(h), 0);
	static const struct claims_hdr blank;
	/* a new file: empty, or only allocated (claims_open reserves its space before anything is written) */
	if (r == 0 || (r == (ssize_t)sizeof(h) && !memcmp(&h, &blank, sizeof(h))))
		return 0;
	/* one record per box at most: a header claiming more is not read */
	if (r != (ssize_t)sizeof(h) || memcmp(h.magic, CLAIMS_MAGIC, 8) || h.rec_size != sizeof(struct claim) ||
	    h.n > (uint32_t)u->nboxes || h.copy > 1 || grow(arr, cap, (int)h.n) ||
	    pread(fd, *arr, h.n * sizeof(struct claim), claims_copy_offset(u, (int)h.copy)) !=
		    (ssize_t)(h.n * sizeof(struct claim)) ||
	    claims_sum(*arr, h.n * sizeof(struct claim)) != h.sum)
		return -1; /* damaged, or from another version: the caller says what it does without it */
	if (copy)
		*copy = (int)h.copy;
	for (int i = 0; i < (int)h.n; i++) {
		const char *why = bad_record(u, *arr, i, n);
		if (why) {
			uc_warn("%s: record %d is ignored: %s", path, i, why);
			continue;
		}
		(*arr)[n++] = (*arr)[i];
	}
	return n;
}

static int loaded(int n, const char *path)
{
	if (n < 0)
		uc_warn("%s is damaged or from another version: its records are ignored", path);
	return n < 0 ? 0 : n;
}

/* A privileged process reads the group's file for conflicts only, without its lock (a member may hold
 * it): what a record says there is never acted on. */
static void load_peer(uncore_t *u)
{
	struct claims *cl = u->claims;
	char path[560];
	struct stat st;
	cl->npeer = 0;
	snprintf(path, sizeof(path), "%s" CLAIMS_GROUP_SUFFIX, cl->path);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	/* the group may write the file at will: root reads no more of it than its format holds */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > claims_copy_offset(u, 2))
		uc_warn("%s is larger than its format allows (%lld bytes, at most %lld for %d boxes): its records are "
			"ignored; remove it (see doc/safety.md for isolating it)", path, (long long)st.st_size,
			(long long)claims_copy_offset(u, 2), u->nboxes);
	else if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		cl->npeer = loaded(load(u, fd, path, &cl->peer, &cl->peer_cap, NULL), path);
	close(fd);
}

int claims_lock(uncore_t *u)
{
	if (!u->claims && claims_open(u))
		return -1;
	struct claims *cl = u->claims;
	if (cl->fd < 0)
		return 0;
	if (lock_within(cl->fd, cl->path))
		return -1;
	cl->copy = 1; /* a new file's first write goes to copy 0 */
	cl->n = loaded(load(u, cl->fd, cl->path, &cl->c, &cl->cap, &cl->copy), cl->path);
	if (cl->priv)
		load_peer(u);
	return 0;
}

int claims_peek(uncore_t *u)
{
	struct claims *cl = u->claims;
	if (!cl || cl->fd < 0)
		return uc_err("no claims file to read");
	int copy, n = load(u, cl->fd, cl->path, &cl->c, &cl->cap, &copy);
	if (n < 0) {
		cl->n = 0;
		return uc_err("%s could not be read whole without its lock", cl->path);
	}
	cl->n = n;
	return 0;
}

/* The space is taken first: a full file system (ENOSPC) or a file size limit refuses the write before
 * a byte of the file changes.  Then the copy not in force, then the header that puts it in force. */
int claims_write(uncore_t *u)
{
	struct claims *cl = u->claims;
	if (!cl || cl->fd < 0)
		return 0;
	size_t len = (size_t)cl->n * sizeof(struct claim);
	int next = !cl->copy;
	off_t at = claims_copy_offset(u, next);
	struct claims_hdr h = { CLAIMS_MAGIC, (uint32_t)cl->n, sizeof(struct claim), (uint32_t)next, 0,
				claims_sum(cl->c, len) };
	int err = reserve(u, cl, len ? at + (off_t)len : (off_t)sizeof(h));
	if (err)
		return uc_err("writing %s: %s", cl->path, strerror(err));
	if ((len && pwrite(cl->fd, cl->c, len, at) != (ssize_t)len) || pwrite(cl->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return uc_err("writing %s: %s", cl->path, strerror(errno));
	cl->copy = next;
	return 0;
}

void claims_unlock(uncore_t *u)
{
	struct claims *cl = u->claims;
	if (cl && cl->fd >= 0)
		flock(cl->fd, LOCK_UN);
}

int claims_gone(uncore_t *u, uint32_t token)
{
	struct claims *cl = u->claims;
	uint32_t *g = realloc(cl->gone, (size_t)(cl->ngone + 1) * sizeof(*g));
	if (!g)
		return uc_err("out of memory");
	cl->gone = g;
	cl->gone[cl->ngone++] = token;
	return 0;
}

int claims_pending(const uncore_t *u) { return u->claims ? u->claims->ngone : 0; }

/* A holder still runs: its pid exists, started when the holder did (a reused pid is someone else) and is not
 * a zombie ('Z', or 'X' on its way out): a killed process keeps its pid until its parent reaps it (1.5 s
 * seen), and it will never service or restore its boxes. */
static int alive(const struct claims *cl, const struct claim_holder *h)
{
	if (h->pid <= 0)
		return 0;
	if (h->pid == (int32_t)getpid()) {
		for (int i = 0; i < cl->ngone; i++)
			if (cl->gone[i] == h->token)
				return 0;
		return h->start == cl->my_start;
	}
	if (kill(h->pid, 0) && errno == ESRCH)
		return 0;
	char state = 0;
	uint64_t start = uc_proc_start(h->pid, &state);
	if (start && (state == 'Z' || state == 'X'))
		return 0;
	return !start || start == h->start; /* no /proc to ask: trust the pid */
}

int claims_prune(uncore_t *u, struct claim *c, uint32_t *gone_ctrs)
{
	int k = 0, gone = 0;
	uint32_t dead = 0, live = 0;
	for (int j = 0; j < c->nholders && j < CLAIM_HOLDERS; j++)
		if (alive(u->claims, &c->h[j])) {
			live |= c->h[j].ctrs;
			c->h[k++] = c->h[j];
		} else {
			dead |= c->h[j].ctrs;
			gone = c->h[j].pid;
		}
	c->nholders = k;
	if (gone_ctrs)
		*gone_ctrs = dead & ~live;
	return gone;
}

char claims_holder_state(const uncore_t *u, const struct claim_holder *h)
{
	char state;
	if (!alive(u->claims, h))
		return 0;
	if (h->pid == (int32_t)getpid())
		return 'R';
	return uc_proc_start(h->pid, &state) ? state : '?';
}

int claims_count(const uncore_t *u) { return u->claims ? u->claims->n : 0; }
struct claim *claims_at(uncore_t *u, int i) { return &u->claims->c[i]; }
const struct box *claims_box(const uncore_t *u, const struct claim *c) { return box_of_claim(u, c); }

struct claim *claims_get(uncore_t *u, const struct box *b, int create)
{
	struct claims *cl = u->claims;
	/* (the numbers first: a session of every CHA of a socket looks up each of its hundred claims among the others) */
	for (int i = 0; i < cl->n; i++) {
		struct claim *c = &cl->c[i];
		if (c->idx == b->idx && c->socket == b->socket && !strcmp(c->unit, b->t->name))
			return c;
	}
	if (!create || grow(&cl->c, &cl->cap, cl->n + 1))
		return NULL;
	struct claim *c = &cl->c[cl->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->unit, sizeof(c->unit), "%s", b->t->name);
	c->socket = b->socket;
	c->idx = b->idx;
	return c;
}

int claims_hold(struct uncore *u, struct claim *c, uint32_t token, uint32_t ctrs, const uint64_t *fmask)
{
	if (c->nholders >= CLAIM_HOLDERS)
		return uc_err("%s %d (socket %d) is already shared by %d sessions", c->unit, c->idx, c->socket,
			      CLAIM_HOLDERS);
	struct claim_holder *h = &c->h[c->nholders++];
	memset(h, 0, sizeof(*h));
	*h = (struct claim_holder){ (int32_t)getpid(), token, u->claims->my_start, ctrs, 0, { 0 } };
	memcpy(h->fmask, fmask, sizeof(h->fmask));
	return 0;
}

static int mine(const struct claim_holder *h, uint32_t token)
{
	return h->pid == (int32_t)getpid() && h->token == token;
}

uint32_t claims_busy(const struct claim *c, uint32_t token)
{
	uint32_t m = 0;
	for (int j = 0; j < c->nholders; j++)
		if (!mine(&c->h[j], token))
			m |= c->h[j].ctrs;
	return m;
}

void claims_filter_bits(const struct claim *c, uint64_t fmask[UC_MAX_FILT])
{
	for (int f = 0; f < UC_MAX_FILT; f++) {
		fmask[f] = 0;
		for (int j = 0; j < c->nholders; j++)
			fmask[f] |= c->h[j].fmask[f];
	}
}

uint32_t claims_ctrs_of(const struct claim *c, uint32_t token)
{
	for (int j = 0; j < c->nholders; j++)
		if (mine(&c->h[j], token))
			return c->h[j].ctrs;
	return 0;
}

int claims_drop(struct claim *c, uint32_t token)
{
	for (int j = 0; j < c->nholders; j++)
		if (mine(&c->h[j], token)) {
			c->h[j] = c->h[--c->nholders];
			break;
		}
	return c->nholders;
}

void claims_remove(uncore_t *u, struct claim *c)
{
	struct claims *cl = u->claims;
	int i = (int)(c - cl->c);
	memmove(c, c + 1, (size_t)(cl->n - i - 1) * sizeof(*c));
	cl->n--;
}

void claims_remove_later(struct claim *c) { c->unit[0] = 0; }

void claims_compact(uncore_t *u)
{
	struct claims *cl = u->claims;
	int k = 0;
	if (!cl)
		return;
	for (int i = 0; i < cl->n; i++)
		if (cl->c[i].unit[0] && k++ != i)
			cl->c[k - 1] = cl->c[i];
	cl->n = k;
}

int claims_peer_pid(uncore_t *u, const struct box *b, const struct claim **rec)
{
	struct claims *cl = u->claims;
	for (int i = 0; cl && b->t->space == UC_MSR && i < cl->npeer; i++) {
		const struct claim *c = &cl->peer[i];
		if (strcmp(c->unit, b->t->name) || c->socket != b->socket || c->idx != b->idx)
			continue;
		for (int j = 0; j < c->nholders; j++)
			if (c->h[j].pid != (int32_t)getpid() && alive(cl, &c->h[j])) {
				*rec = c;
				return c->h[j].pid;
			}
	}
	return 0;
}

const char *claims_file(const uncore_t *u) { return u->claims ? u->claims->path : ""; }

void claims_free(uncore_t *u)
{
	struct claims *cl = u->claims;
	if (!cl)
		return;
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->c);
	free(cl->peer);
	free(cl->gone);
	free(cl);
	u->claims = NULL;
}
