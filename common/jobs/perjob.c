/*
 * Per-job accounting for a front end (uncore.h uncore_perjob_*, doc/jobs.md "Shared nodes"): the node's
 * jobs found, their traffic attributed by each source of perjob_source (jobs.h), the rows added to the
 * front end's tally, and everything started over on the new set when jobs come or go.  The exporter's
 * --per-job, collectd's PerJob and uncore stat --per-job all go this one way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "jobs.h"
#include "util/error.h"

/* Who owns the bytes, in the order they attribute them (jobs.h): the cores first, then the devices. */
static const struct perjob_source *const sources[] = { &attrib_source, &devices_source };
#define NSOURCES (sizeof(sources) / sizeof(sources[0]))

struct uncore_perjob {
	uncore_t *u;
	/* the jobs its sources attribute, written whole (jobs_set_text), and the last follow's scan beside: a
	 * buffer that grows, so that a change anywhere in a set of any size is seen (one of 4 KiB cut the set at
	 * some 240 jobs, and every change past it went unseen: issue 89 point 1) */
	char *set, *now;
	size_t set_cap, set_len, now_cap, now_len;
	/* what the last scan warned (the entries it left out, and why): a scan that warns the same again takes its
	 * warnings back, so that the front ends, which log what a follow warned, say a hostile entry once while it
	 * stays rather than at every read, and the warnings do not fill with repeats of it */
	char *warned;
	void *ctx[NSOURCES];
	int planned, started;
	unsigned lost_said;      /* the sockets whose rows a read has left out, said once (uncore_perjob_read) */
	struct perjob_rows rows; /* the last read's */
};

int perjob_rows_add(struct perjob_rows *rows, const struct uncore_attrib_row *r, int n)
{
	struct uncore_attrib_row *v = realloc(rows->v, (size_t)(rows->n + n + 1) * sizeof(*v));
	if (!v)
		return uc_err("out of memory");
	rows->v = v;
	memcpy(v + rows->n, r, (size_t)n * sizeof(*v));
	rows->n += n;
	return 0;
}

int uncore_perjob_new(uncore_t *u, uncore_perjob_t **out)
{
	if (!(*out = calloc(1, sizeof(**out))))
		return uc_err("out of memory");
	(*out)->u = u;
	return 0;
}

/* The sources let go (each restores what it programmed): the next start plans anew. */
static void drop(struct uncore_perjob *p)
{
	for (size_t i = 0; i < NSOURCES; i++) {
		if (p->ctx[i])
			sources[i]->free(p->ctx[i]);
		p->ctx[i] = NULL;
	}
	p->planned = p->started = 0;
	p->rows.n = 0;
	p->rows.t_ns = 0;
}

/* Whether text holds line (its n bytes, up to and with its '\n') as one of its lines. */
static int has_line(const char *text, const char *line, size_t n)
{
	for (const char *at = text; *at;) {
		const char *end = strchr(at, '\n');
		size_t k = end ? (size_t)(end - at + 1) : strlen(at);
		if (k == n && !memcmp(at, line, n))
			return 1;
		at += k;
	}
	return 0;
}

/* The warnings of the scan that began when the next warning's number was mark: each the last scan said (kept in
 * *said: the tally's where the front end carries one over its reloads, else the object's) taken back, the new
 * ones said, and all of this scan's kept as the last's -- so that an entry that stays is said once, however the
 * others around it come and go (two hostile jobs overlapping), and not again after a reload. */
static void warned_once(struct uncore_perjob *p, struct uncore_job_tally *t, uint64_t mark)
{
	char **said = t ? &t->said : &p->warned;
	char *now = strdup(uc_warnings_from(mark));
	if (!now) /* out of memory: this scan's said again */
		return;
	uc_warn_rewind(mark);
	for (char *line = now, *end; *line; line = end + 1) {
		end = strchr(line, '\n'); /* (every kept warning ends in one) */
		if (!end)
			break;
		if (!*said || !has_line(*said, line, (size_t)(end - line + 1))) {
			*end = 0;
			uc_warn("%s", line);
			*end = '\n';
		}
	}
	if (!*now) { /* a scan that said nothing keeps nothing (a tally no one frees holds no memory) */
		free(now);
		now = NULL;
	}
	free(*said);
	*said = now;
}

/* The sources planned over the jobs of the handle's last scan (the one p->set holds): 0, or -1. */
static int plan_sources(struct uncore_perjob *p)
{
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->plan(p->u, &p->ctx[i])) {
			drop(p);
			return -1;
		}
	p->planned = 1;
	return 0;
}

/* uncore_perjob_plan, what the scan warns held against what t (NULL: the object) said last */
static int plan_said(uncore_perjob_t *p, struct uncore_job_tally *t)
{
	uint64_t mark = uc_warn_mark();
	drop(p);
	int n = jobs_set_text(p->u, &p->set, &p->set_cap, &p->set_len);
	warned_once(p, t, mark);
	return n < 0 || plan_sources(p) ? -1 : n;
}

int uncore_perjob_plan(uncore_perjob_t *p) { return plan_said(p, NULL); }

int uncore_perjob_tally_jobs(const uncore_perjob_t *p, struct uncore_job_tally *t)
{
	return p->started && t ? job_tally_jobs(t, p->u) : 0;
}

int uncore_perjob_start(uncore_perjob_t *p, struct uncore_job_tally *t)
{
	if (p->started)
		return uc_err("per-job attribution: already started");
	if (!p->planned && plan_said(p, t) < 0)
		return -1;
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->start(p->ctx[i])) {
			drop(p); /* a start that failed leaves nothing programmed: the next plans and starts again */
			return -1;
		}
	p->started = 1;
	return uncore_perjob_tally_jobs(p, t);
}

int uncore_perjob_started(const uncore_perjob_t *p) { return p && p->started; }

int uncore_perjob_step(uncore_perjob_t *p)
{
	if (!p->started)
		return uc_err("per-job attribution: not started");
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->step(p->ctx[i]))
			return -1;
	return 0;
}

int uncore_perjob_read(uncore_perjob_t *p, int window, struct uncore_job_tally *t)
{
	if (!p->started)
		return uc_err("per-job attribution: not started");
	p->rows.n = 0;
	p->rows.t_ns = 0;
	p->rows.lost = 0;
	for (size_t i = 0; i < NSOURCES; i++)
		if (sources[i]->read(p->ctx[i], window, &p->rows))
			return -1;
	/* a socket left out is said once while this object lasts (its attribution starts over at every change of
	 * the jobs, and finds the socket's boxes held again each time) */
	for (int k = 0; k < UC_MAX_SOCKETS; k++)
		if (p->rows.lost >> k & 1 && !(p->lost_said >> k & 1))
			uc_warn("per-job attribution: socket %d's memory controllers are not counted (another agent holds "
				"them, or they failed): the jobs' bytes on it are left out, those on the other sockets still "
				"counted", k);
	p->lost_said |= p->rows.lost;
	return t && job_tally_add(t, p->rows.v, p->rows.n) ? -1 : p->rows.n;
}

int uncore_perjob_row(const uncore_perjob_t *p, int i, struct uncore_attrib_row *out)
{
	if (i < 0 || i >= p->rows.n)
		return uc_err("no per-job row %d (the last read made %d)", i, p->rows.n);
	*out = p->rows.v[i];
	return 0;
}

uint64_t uncore_perjob_read_time_ns(const uncore_perjob_t *p) { return p->rows.t_ns; }

int uncore_perjob_follow(uncore_perjob_t *p, struct uncore_job_tally *t)
{
	uint64_t mark = uc_warn_mark();
	if (!p->started)
		return 0;
	int n = jobs_set_text(p->u, &p->now, &p->now_cap, &p->now_len);
	warned_once(p, t, mark);
	/* a scan that fails leaves the attribution as it is: the next read looks again */
	if (n < 0 || (p->now_len == p->set_len && !memcmp(p->now, p->set, p->set_len)))
		return 0;
	/* the new set is the one the handle's scan holds: planned on it, without a scan that could see another */
	char *b = p->set;
	size_t cap = p->set_cap;
	p->set = p->now;
	p->set_cap = p->now_cap;
	p->set_len = p->now_len;
	p->now = b;
	p->now_cap = cap;
	drop(p);
	return plan_sources(p) || uncore_perjob_start(p, t) ? -1 : 1;
}

int uncore_perjob_stop(uncore_perjob_t *p)
{
	int rc = 0;
	for (size_t i = 0; i < NSOURCES; i++)
		if (p->ctx[i] && sources[i]->stop(p->ctx[i]))
			rc = -1;
	return rc;
}

void uncore_perjob_free(uncore_perjob_t *p)
{
	if (!p)
		return;
	drop(p);
	free(p->rows.v);
	free(p->set);
	free(p->now);
	free(p->warned);
	free(p);
}
