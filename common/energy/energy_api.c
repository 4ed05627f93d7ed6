/* The energy object's public face (uncore.h): the source chosen, reads with their wraps, joules and watts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "energy.h"
#include "handle/handle.h"
#include "node/node.h"
#include "access/access.h"
#include "util/error.h"

static const char *const domain_names[UNCORE_ENERGY_DOMAINS] = { "pkg", "dram", "psys" };
static const struct energy_source_ops *const sources[] = { &energy_perf_ops, &energy_powercap_ops, &energy_msr_ops };
#define NSOURCES (int)(sizeof(sources) / sizeof(sources[0]))

const char *uncore_energy_domain_name(int domain)
{
	return domain >= 0 && domain < UNCORE_ENERGY_DOMAINS ? domain_names[domain] : NULL;
}

struct energy_counter *energy_add(struct uncore_energy *e, int socket, int die, int domain, double unit_j,
				  uint64_t modulus)
{
	struct energy_counter *c;
	if (e->n >= (int)(sizeof(e->c) / sizeof(e->c[0])))
		return NULL;
	c = &e->c[e->n++];
	memset(c, 0, sizeof(*c));
	c->socket = socket, c->die = die, c->domain = domain, c->unit_j = unit_j, c->modulus = modulus;
	c->fd = -1;
	c->max_raw = modulus ? modulus - 1 : UINT64_MAX;
	return c;
}

static void reset(struct uncore_energy *e)
{
	if (e->ops)
		e->ops->close(e);
	if (e->msr && e->ops != &energy_msr_ops) /* psys read from the MSRs beside a kernel source */
		energy_msr_ops.close(e);
	e->ops = NULL;
	e->n = 0;
	e->source[0] = 0;
	memset(e->missing, 0, sizeof(e->missing));
}

static const struct platform_desc *platform_of(const uncore_t *u)
{
	return u->plat && strcmp(u->plat->name, "none") ? u->plat
							: platform_by_cpu(u->host.family, u->host.model, u->host.stepping);
}

const struct energy_part *energy_part_of(const struct platform_desc *p, char *why, size_t len)
{
	if (p && p->energy)
		return p->energy;
	if (p && p->no_energy)
		snprintf(why, len, "%s", p->no_energy);
	else
		snprintf(why, len, "platform %s: no public source says which RAPL energy domains it has: its energy is "
			 "not read", p ? p->name : "unknown");
	return NULL;
}

/* Energy with one source, or each in turn (source NULL or "auto"): 0, or -1 with every source's reason */
int energy_open_source(struct uncore_energy *e, const char *source)
{
	char why[1024] = "";
	int any = 0;
	for (int i = 0; i < NSOURCES; i++) {
		if (source && strcmp(source, "auto") && strcmp(source, sources[i]->name))
			continue;
		any = 1;
		e->ops = sources[i];
		if (!sources[i]->open(e)) {
			int psys = 0;
			for (int k = 0; k < e->n; k++)
				psys |= e->c[k].domain == UNCORE_ENERGY_PSYS;
			/* chosen, not named: a kernel source without psys takes it from MSR 0x64D where it reads */
			if (!psys && sources[i] != &energy_msr_ops && (!source || !strcmp(source, "auto")))
				energy_msr_psys(e);
			return 0;
		}
		snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s", *why ? "; " : "", uncore_error());
		reset(e);
	}
	if (!any)
		return uc_err("energy source %s: not one of auto, perf, powercap, msr", source);
	return uc_err("energy of %s cannot be read: %s", e->plat, why);
}

/* The node's energy domains (its platform's RAPL part), found once and kept by the handle's node (node/node.h):
 * NULL with the reason. */
static const struct energy_part *node_part(uncore_t *u)
{
	char why[256];
	struct node_slot *s = node_slot(u, NODE_ENERGY);
	if (!s)
		return NULL;
	if (!node_ready(s)) {
		const struct energy_part *p = energy_part_of(platform_of(u), why, sizeof(why));
		if (!p)
			uc_err("%s", why);
		s->fact = (void *)p; /* the platform's data: nothing to let go */
		node_built(u, s, NODE_ENERGY, p ? 0 : -1);
	}
	return s->state > 0 ? s->fact : NULL;
}

int energy_node_build(uncore_t *u)
{
	node_part(u); /* (a failure kept with its reason) */
	return 0;
}

int uncore_energy_new(uncore_t *u, const char *source, uncore_energy_t **out)
{
	struct uncore_energy *e;
	int rc = -1;
	*out = NULL;
	pthread_mutex_lock(&u->lock);
	const struct energy_part *part = node_part(u);
	if (part && !(e = calloc(1, sizeof(*e))))
		uc_err("out of memory");
	else if (part) {
		e->u = u;
		e->part = part;
		e->plat = platform_of(u)->name;
		const struct memfs *mem = NULL; /* a simulated machine's powercap zones among its files */
		if (!access_files(u->acc, &mem))
			e->fs.mem = mem;
		if (!(rc = energy_open_source(e, source)))
			*out = e;
		else
			uncore_energy_free(e);
	}
	pthread_mutex_unlock(&u->lock);
	return rc;
}

int uncore_energy_here(uncore_t *u, int domain)
{
	pthread_mutex_lock(&u->lock);
	const struct energy_part *p = node_part(u);
	pthread_mutex_unlock(&u->lock);
	const struct platform_desc *pd = platform_of(u);
	if (!p)
		return 0;
	if (domain < 0 || domain >= UNCORE_ENERGY_DOMAINS || !(p->domains & (1u << domain)))
		return uc_err("%s has no %s energy domain", pd->name, uncore_energy_domain_name(domain) ?
			      uncore_energy_domain_name(domain) : "such"), 0;
	return 1;
}

const char *uncore_energy_source(const uncore_energy_t *e) { return e->source; }

int uncore_energy_has(const uncore_energy_t *e, int socket, int domain)
{
	for (int i = 0; i < e->n; i++)
		if (e->c[i].socket == socket && e->c[i].domain == domain)
			return 1;
	if (domain < 0 || domain >= UNCORE_ENERGY_DOMAINS)
		return uc_err("no energy domain %d", domain), 0;
	if (!(e->part->domains & (1u << domain)))
		return uc_err("%s has no %s energy domain (%s)", e->plat, domain_names[domain], e->part->source), 0;
	return uc_err("socket %d %s: %s", socket, domain_names[domain],
		      e->missing[domain][0] ? e->missing[domain] : "not among what the source reads"), 0;
}

uint64_t uncore_energy_max_interval_ns(const uncore_energy_t *e)
{
	double least = 0;
	for (int i = 0; i < e->n; i++) {
		double w = energy_wrap_seconds(e->c[i].modulus, e->c[i].unit_j, e->part->max_w);
		if (w > 0 && (least == 0 || w < least))
			least = w;
	}
	return (uint64_t)(least * 1e9);
}

/* The counter whose wrap time is shortest, for the refusal's words */
static const struct energy_counter *fastest(const struct uncore_energy *e)
{
	const struct energy_counter *f = NULL;
	for (int i = 0; i < e->n; i++)
		if (e->c[i].modulus && (!f || (double)e->c[i].modulus * e->c[i].unit_j < (double)f->modulus * f->unit_j))
			f = &e->c[i];
	return f;
}

static int too_late(const struct uncore_energy *e, uint64_t ns, const char *what)
{
	uint64_t max = uncore_energy_max_interval_ns(e);
	const struct energy_counter *f = fastest(e);
	if (!max || ns <= max || !f)
		return 0;
	return uc_err("%s of %.1f s is longer than the %.1f s in which %s's %s energy counter (%.0f units of %.4g uJ) "
		      "can wrap at %.0f W, the most %s draws (doc/energy.md): a second wrap would go unseen; read at least "
		      "every %.0f s", what, (double)ns / 1e9, (double)max / 1e9, e->source, domain_names[f->domain],
		      (double)f->modulus, f->unit_j * 1e6, e->part->max_w, e->plat, floor((double)max / 1e9));
}

/* The joules from c's last raw value to raw, read at now, or -1 with why in c->bad_why_cur when they are more
 * than the part can draw in the time since the last read (a counter reset, a value of another counter, a
 * hostile file): never added. */
static double step_j(const struct uncore_energy *e, struct energy_counter *c, uint64_t raw, uint64_t now)
{
	uint64_t step = energy_wrap_delta(c->last, raw, c->modulus);
	double j = (double)step * c->unit_j, s = (double)(now - e->t_last) / 1e9;
	if (step != UINT64_MAX && j <= ENERGY_STEP_MARGIN * e->part->max_w * (s + ENERGY_STEP_SLACK_S))
		return j;
	snprintf(c->bad_why_cur, sizeof(c->bad_why_cur), "socket %d %s energy: a step of %.4g J in %.3g s is far more "
		 "than %s draws (%.0f W): dropped", c->socket, uncore_energy_domain_name(c->domain), j, s,
		 e->plat, e->part->max_w);
	return -1;
}

/* c's read refused (why in c->bad_why_cur): warned once an interval, kept for health (energystuck) */
static void refuse(struct energy_counter *c)
{
	if (!c->bad_cur)
		uc_warn("%s", c->bad_why_cur);
	c->bad_cur = 1;
}

/* mode: READ_FIRST at the start, READ_CLOSE a caller's read (an interval ends), READ_SAMPLE between them */
enum { READ_FIRST, READ_CLOSE, READ_SAMPLE };
static int read_all(struct uncore_energy *e, int mode)
{
	uint64_t now = uncore_now_ns(e->u), raw;
	int late = mode != READ_FIRST && too_late(e, now - e->t_last, "the time since the last read");
	char why[512] = "";
	if (late)
		snprintf(why, sizeof(why), "%s", uncore_error());
	for (int i = 0; i < e->n; i++) {
		struct energy_counter *c = &e->c[i];
		if ((c->ops ? c->ops : e->ops)->read(e, c, &raw))
			return uc_err_prefix("energy: ");
		double j = 0;
		if (raw > c->max_raw) { /* a value the counter cannot show: refused for this read, the last one kept */
			char v[24] = "no number"; /* (UINT64_MAX: the source found none, powercap.c) */
			if (raw != UINT64_MAX)
				snprintf(v, sizeof(v), "%llu", (unsigned long long)raw);
			snprintf(c->bad_why_cur, sizeof(c->bad_why_cur), "socket %d %s energy: raw value %s is outside "
				 "[0, %llu]: this read is refused", c->socket, uncore_energy_domain_name(c->domain), v,
				 (unsigned long long)c->max_raw);
			refuse(c);
		} else if (mode != READ_FIRST && (j = step_j(e, c, raw, now)) < 0) {
			refuse(c);
			c->last = raw; /* counted on from here */
		} else {
			c->total_j += j;
			c->last = raw;
		}
		if (mode == READ_CLOSE) {
			c->prev_j = c->mark_j;
			c->mark_j = c->total_j;
			c->bad_last = c->bad_cur;
			memcpy(c->bad_why, c->bad_why_cur, sizeof(c->bad_why));
			c->bad_cur = 0;
			c->bad_why_cur[0] = 0;
		}
	}
	if (mode == READ_FIRST)
		e->t_start = e->t_prev = e->t_mark = now;
	e->t_last = now;
	e->gap |= late;
	e->gap_cur |= late;
	if (mode == READ_CLOSE) {
		e->t_prev = e->t_mark;
		e->t_mark = now;
		e->gap_last = e->gap_cur;
		e->gap_cur = 0;
	}
	return late ? uc_err("energy: %s; this interval's joules are a lower bound", why) : 0;
}

int uncore_energy_start(uncore_energy_t *e, uint64_t interval_ns)
{
	int rc;
	if (too_late(e, interval_ns, "an interval"))
		return -1;
	pthread_mutex_lock(&e->u->lock);
	for (int i = 0; i < e->n; i++)
		e->c[i].total_j = e->c[i].prev_j = e->c[i].mark_j = 0;
	e->gap = e->gap_last = e->gap_cur = 0;
	rc = read_all(e, READ_FIRST);
	e->started = !rc;
	pthread_mutex_unlock(&e->u->lock);
	return rc;
}

static int read_locked(uncore_energy_t *e, int mode)
{
	int rc;
	if (!e->started)
		return uc_err("energy: read before uncore_energy_start()");
	pthread_mutex_lock(&e->u->lock);
	rc = read_all(e, mode);
	pthread_mutex_unlock(&e->u->lock);
	return rc;
}

int uncore_energy_read(uncore_energy_t *e) { return read_locked(e, READ_CLOSE); }
int uncore_energy_sample(uncore_energy_t *e) { return read_locked(e, READ_SAMPLE); }

int uncore_energy_value(const uncore_energy_t *e, int socket, int domain, int window, double *joules)
{
	double sum = 0;
	int any = 0;
	*joules = NAN;
	if (!e->started)
		return uc_err("energy: not started");
	for (int i = 0; i < e->n; i++) {
		const struct energy_counter *c = &e->c[i];
		if (c->domain != domain || (socket >= 0 && c->socket != socket))
			continue;
		sum += window == UNCORE_LAST_INTERVAL ? c->mark_j - c->prev_j : c->total_j;
		any = 1;
	}
	if (!any)
		return socket >= 0 ? (uncore_energy_has(e, socket, domain), -1)
				   : uc_err("no socket's %s energy is read", uncore_energy_domain_name(domain) ?
					    uncore_energy_domain_name(domain) : "?");
	*joules = sum;
	return (window == UNCORE_LAST_INTERVAL ? e->gap_last : e->gap) ? 1 : 0;
}

double uncore_energy_seconds(const uncore_energy_t *e, int window)
{
	if (!e->started)
		return 0;
	return (double)(window == UNCORE_LAST_INTERVAL ? e->t_mark - e->t_prev : e->t_last - e->t_start) / 1e9;
}

int uncore_energy_power(const uncore_energy_t *e, int socket, int domain, int window, double *watts)
{
	double j, s = uncore_energy_seconds(e, window);
	int rc = uncore_energy_value(e, socket, domain, window, &j);
	*watts = rc >= 0 && s > 0 ? j / s : NAN;
	return rc;
}

uint64_t uncore_energy_read_time_ns(const uncore_energy_t *e) { return e->started ? e->t_mark : 0; }

void uncore_energy_free(uncore_energy_t *e)
{
	if (!e)
		return;
	reset(e);
	free(e);
}
