/*
 * perf's spellings -> our event specs (perf_spell.h).  The PMU names follow the driver's
 * uncore_get_pmu_name() (Linux 6.12 uncore.c): uncore_<type>[_<box>] where the box number is the PMU's
 * index, or on discovery platforms its discovery unit id (uncore_get_box_id), which is our box number on
 * every backend (the perf backend takes it from the PMU's name).  The driver's format names that are
 * not ours come from the platform's perf_terms table; filter_<x> is our field x.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "perf_spell.h"
#include "events.h"
#include "qualifiers.h"
#include "util/error.h"

#define MAX_TERMS 24

/* The PMU a spelling names: a unit, which of its boxes, and whether its free-running counters. */
struct pmu_ref {
	int t;
	const struct box_type *bt;
	int box;   /* -1: every box */
	int fr;    /* uncore_<x>_free_running */
	char stem[48]; /* how the driver names the type, as perf_alias.pmu */
};

/* What the terms said, in our words. */
struct said {
	uint64_t event, umask;
	int has_event, has_umask, tid_en, has_tid, alias;
	const char *evname; /* a catalog event named instead of event=/umask= */
	char q[MAX_TERMS][64];
	int nq;
	struct { const char *ours; uint64_t v; } sub[8]; /* bits gathered into one of our fields */
	int nsub;
	double scale;
	const char *unit;
};

/* The names type t answers to (the driver's and ours); fr[k] says stem k is its free-running PMU. */
static int type_stems(const struct box_type *t, char st[4][48], int fr[4])
{
	int n = 0;
	if (t->perf) {
		fr[n] = 0;
		snprintf(st[n++], 48, "%s", t->perf);
	}
	if (t->disc_type >= 0) {
		fr[n] = 0;
		snprintf(st[n++], 48, "type_%d", t->disc_type);
	}
	fr[n] = 0;
	snprintf(st[n++], 48, "%s", t->name);
	if (t->nfr && t->perf && *t->perf) {
		fr[n] = 1;
		snprintf(st[n++], 48, "%s_free_running", t->perf);
	}
	return n;
}

/* s is stem ("imc": -1) or stem_N (N); -2: neither. */
static int stem_box(const char *s, const char *stem)
{
	size_t n = strlen(stem);
	char *end;
	if (!strcasecmp(s, stem))
		return -1;
	if (!n || strncasecmp(s, stem, n) || s[n] != '_' || s[n + 1] < '0' || s[n + 1] > '9')
		return -2;
	long v = strtol(s + n + 1, &end, 10);
	return *end || v > 4095 ? -2 : (int)v;
}

/* Box number of the n-th box with free-running counters (the driver numbers its free-running PMUs
 * apart, one per box that has them, in box order), on the first socket with any; -1: none. */
static int fr_box(const uncore_t *u, int t, int n)
{
	int sock = -1;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->type_idx != t || !b->nfr || (sock >= 0 && b->socket != sock))
			continue;
		sock = b->socket;
		if (!n--)
			return b->idx;
	}
	return -1;
}

static int has_box(const uncore_t *u, int t, int box)
{
	for (int i = 0; i < u->nboxes; i++)
		if (u->boxes[i].type_idx == t && u->boxes[i].idx == box)
			return 1;
	return 0;
}

/* The PMU named name; an exact name wins over a numbered one (perf matches the whole name first).
 * 0 found, 1 not one of ours, -1 ours but no such box. */
static int pmu_lookup(const uncore_t *u, const char *name, const char *spec, struct pmu_ref *r)
{
	const char *s = !strncmp(name, "uncore_", 7) ? name + 7 : !strcmp(name, "uncore") ? "" : name;
	for (int pass = 0; pass < 2; pass++)
		for (int t = 0; t < u->plat->ntypes; t++) {
			char st[4][48];
			int fr[4], n = type_stems(u->plat->types[t], st, fr);
			for (int k = 0; k < n; k++) {
				int box = stem_box(s, st[k]);
				if (box == -2 || (pass == 0) != (box == -1))
					continue;
				*r = (struct pmu_ref){ .t = t, .bt = u->plat->types[t], .box = box, .fr = fr[k] };
				snprintf(r->stem, sizeof(r->stem), "%s", fr[k] ? st[k] : st[0]); /* aliases go by the driver's name */
				if (box >= 0 && fr[k] && (r->box = fr_box(u, t, box)) < 0)
					return uc_err("unknown PMU '%s' in '%s': %s has no free-running PMU %d", name, spec,
						      r->bt->name, box);
				if (box >= 0 && !fr[k] && !has_box(u, t, box))
					return uc_err("unknown PMU '%s' in '%s': this machine has no %s box %d", name, spec,
						      r->bt->name, box);
				return 0;
			}
		}
	return 1;
}

/* The next of the PMU's event aliases after a (NULL: its first), or NULL. */
static const struct perf_alias *pmu_alias(const uncore_t *u, const struct pmu_ref *r, const struct perf_alias *a)
{
	char type[48]; /* a kernel without the model's names calls the type uncore_type_<t> */
	snprintf(type, sizeof(type), "type_%d", r->bt->disc_type);
	a = a ? a + 1 : u->kernel_aliases ? u->kernel_aliases : u->plat->perf_aliases;
	for (; a && a->name; a++)
		if (!strcmp(a->pmu, r->stem) || (!r->fr && !strcmp(a->pmu, type)))
			return a;
	return NULL;
}

/* The PMU's alias name, in any case as perf matches it. */
static const struct perf_alias *alias_find(const uncore_t *u, const struct pmu_ref *r, const char *name)
{
	const struct perf_alias *a = NULL;
	while ((a = pmu_alias(u, r, a)) && strcasecmp(a->name, name))
		;
	return a;
}

static int number(const char *spec, const char *key, const char *val, uint64_t *v)
{
	char *end;
	if (!val || !*val || *val == '-')
		return uc_err("'%s' in '%s' needs a number (%s=N)", key, spec, key);
	*v = strtoull(val, &end, 0);
	return *end ? uc_err("'%s=%s' in '%s': '%s' is not a number", key, val, spec, val) : 0;
}

/* Is ours a qualifier the unit's raw events (or the named event) take? */
static int ours_known(const uncore_t *u, const struct pmu_ref *r, const struct said *w, const char *ours)
{
	struct qual ql[UC_MAX_QUALS];
	int ev = w->evname ? catalog_find(u, w->evname) : -1;
	int n = qual_list(u, r->bt, ev >= 0 ? &u->events[ev] : NULL, ql, UC_MAX_QUALS);
	if (!strcmp(ours, "umask_ext") || !strcmp(ours, "band") || !strcmp(ours, "sample"))
		return 1;
	/* a control bit or filter field the unit has, but not for this event: the spec parser says why */
	for (int k = 0; k < CR_NROLES; k++)
		if (ctl_roles[k].qualifier && !strcmp(ctl_roles[k].qualifier, ours))
			return 1;
	for (int i = 0; i < r->bt->nfields; i++)
		if (!strcmp(r->bt->fields[i].name, ours))
			return 1;
	for (int i = 0; i < n && i < UC_MAX_QUALS; i++)
		if (!strcmp(ql[i].name, ours))
			return 1;
	return 0;
}

static int terms(const uncore_t *u, const struct pmu_ref *r, const char *spec, char *list, struct said *w, int depth);

/* A raw config1=V, cut into our fields by the platform's config1 slices (perf_term "config1").  Bits no slice
 * takes, and fields the named event's filter rules do not name, are dropped, as the driver keeps only the
 * filter fields its extra registers give the event (Skylake-SP skx_cha_hw_config: config1 &
 * skx_cha_filter_mask(idx)).  1: the unit has no slices; -1: an error. */
static int config1_slices(const uncore_t *u, const struct pmu_ref *r, const char *spec, const char *val, struct said *w)
{
	uint64_t v;
	int ev = w->evname ? catalog_find(u, w->evname) : -1, any = 0;
	if (number(spec, "config1", val, &v))
		return -1;
	for (const struct perf_term *m = u->plat->perf_terms; m && m->perf; m++) {
		uint64_t mask = uc_width_mask(m->width), f, d;
		if (strcmp(m->perf, "config1") || (m->unit && strcmp(m->unit, r->bt->name)))
			continue;
		any = 1;
		f = (v >> m->lo) & mask;
		if (!f || (ev >= 0 && !qual_filter_rule(&u->events[ev], m->ours, &d)))
			continue;
		if (w->nq == MAX_TERMS)
			return uc_err("'%s': too many terms", spec);
		snprintf(w->q[w->nq++], sizeof(w->q[0]), "%s=0x%llx", m->ours, (unsigned long long)f);
	}
	return !any;
}

/* One term key[=val] of perf's, said in ours. */
static int term(const uncore_t *u, const struct pmu_ref *r, const char *spec, char *tok, struct said *w, int depth)
{
	char *val = strchr(tok, '=');
	uint64_t v = 0;
	if (val)
		*val++ = 0;
	if (!*tok)
		return uc_err("empty term in '%s'", spec);
	if (!val) {
		const struct perf_alias *a = alias_find(u, r, tok);
		int ev = a ? -1 : catalog_find(u, tok);
		if (a) {
			char buf[256];
			if (depth || w->alias++)
				return uc_err("'%s' in '%s': give one event alias", tok, spec);
			w->scale = a->scale ? a->scale : 1;
			w->unit = a->unit ? a->unit : "";
			snprintf(buf, sizeof(buf), "%s", a->terms);
			return terms(u, r, spec, buf, w, depth + 1);
		}
		if (ev >= 0 && !w->evname && !strcasecmp(u->events[ev].unit, r->bt->name)) {
			w->evname = u->events[ev].name;
			return 0;
		}
	}
	if (!strcmp(tok, "event") || !strcmp(tok, "umask")) {
		int e = tok[0] == 'e';
		if (e ? w->has_event : w->has_umask)
			return uc_err("'%s' is given twice in '%s'; give it once", tok, spec);
		if (number(spec, tok, val, e ? &w->event : &v))
			return -1;
		if (!e)
			w->umask |= v;
		*(e ? &w->has_event : &w->has_umask) = 1;
		return 0;
	}
	if (!strcmp(tok, "config1")) {
		int rc = config1_slices(u, r, spec, val, w);
		if (rc <= 0)
			return rc;
	}
	const char *ours = tok;
	for (const struct perf_term *m = u->plat->perf_terms; m && m->perf; m++) {
		if (strcmp(m->perf, tok) || (m->unit && strcmp(m->unit, r->bt->name)))
			continue;
		if (!m->ours) { /* implied by another term: tid_en by filter_tid */
			w->tid_en = 1;
			return 0;
		}
		if (!m->width) {
			ours = m->ours;
			break;
		}
		if (number(spec, tok, val, &v))
			return -1;
		if (v >> m->width)
			return uc_err("'%s=%s' in '%s' is out of range (0..%llu)", tok, val, spec,
				      (unsigned long long)uc_width_mask(m->width));
		if (!strcmp(m->ours, "umask")) {
			w->umask |= v << m->lo;
			w->has_umask = 1;
			return 0;
		}
		int k = 0;
		while (k < w->nsub && strcmp(w->sub[k].ours, m->ours))
			k++;
		if (k == (int)(sizeof(w->sub) / sizeof(w->sub[0])))
			return uc_err("'%s': too many terms", spec);
		w->nsub += k == w->nsub;
		w->sub[k].ours = m->ours;
		w->sub[k].v |= v << m->lo;
		return 0;
	}
	if (ours == tok && !strncmp(tok, "filter_", 7)) /* the driver's filter_<x> is our field x */
		for (int i = 0; i < r->bt->nfields; i++)
			if (!strcmp(r->bt->fields[i].name, tok + 7))
				ours = tok + 7;
	if (!ours_known(u, r, w, ours)) {
		char aliases[300] = "";
		size_t n = 0;
		for (const struct perf_alias *a = NULL; !val && (a = pmu_alias(u, r, a)) && n < sizeof(aliases);)
			n += (size_t)snprintf(aliases + n, sizeof(aliases) - n, "%s%s", n ? ", " : "", a->name);
		return uc_err("unknown term '%s' in '%s': %s%s takes no such format%s%s%s", tok, spec,
			      w->evname ? w->evname : "the PMU of unit ", w->evname ? "" : r->bt->name,
			      val ? "" : " and has no such event alias", n ? "; its aliases: " : "", aliases);
	}
	if (w->nq == MAX_TERMS)
		return uc_err("'%s': too many terms", spec);
	w->has_tid |= !strcmp(ours, "tid"); /* our tid sets tid_en itself */
	if (snprintf(w->q[w->nq++], sizeof(w->q[0]), val ? "%s=%s" : "%s", ours, val ? val : "") >= (int)sizeof(w->q[0]))
		return uc_err("term '%s' in '%s' is too long", tok, spec);
	return 0;
}

static int terms(const uncore_t *u, const struct pmu_ref *r, const char *spec, char *list, struct said *w, int depth)
{
	char *save = NULL;
	if (*list == ',' || strstr(list, ",,") || (*list && list[strlen(list) - 1] == ','))
		return uc_err("empty term in '%s' (two ',' in a row, or one next to a '/')", spec);
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (term(u, r, spec, tok, w, depth))
			return -1;
	return 0;
}

/* The catalog event of unit t that a fixed (flag UC_EV_FIXED) or free-running counter (perf umask) is. */
static const char *counter_event(const uncore_t *u, const struct pmu_ref *r, int fixed, uint64_t umask)
{
	for (int i = 0; i < u->nevents; i++) {
		const struct uc_event *ev = &u->events[i];
		if (strcasecmp(ev->unit, r->bt->name))
			continue;
		if (fixed && (ev->flags & UC_EV_FIXED))
			return ev->name;
		if (!fixed && (ev->flags & UC_EV_FREERUN) && ev->umask < r->bt->nfr && r->bt->fr[ev->umask].perf_umask == umask)
			return ev->name;
	}
	return NULL;
}

static size_t put(char *out, size_t n, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (n < len)
		n += (size_t)vsnprintf(out + n, len - n, fmt, ap);
	va_end(ap);
	return n;
}

/* Our spec from what the terms said: NAME:q..., or unit/event=,umask=,q.../; rest (":socket=N") after. */
static int render(const uncore_t *u, const struct pmu_ref *r, const char *spec, struct said *w, const char *rest,
		  struct perf_spelled *out)
{
	const struct ctl_layout *l = r->bt->lay;
	size_t n = 0, len = sizeof(out->spec);
	char *o = out->spec;
	const char *name = w->evname;
	int fixed = !name && w->has_event && w->event == 0xff && r->bt->has_fixed && !r->fr && !r->bt->kernel_places;
	if (name && (w->has_event || w->has_umask))
		return uc_err("'%s' names event %s and gives event= or umask= too", spec, name);
	if (!name && (fixed || r->fr) && !(name = counter_event(u, r, fixed, w->umask)))
		return uc_err("'%s': %s has no %s counter with umask 0x%llx", spec, r->bt->name,
			      fixed ? "fixed" : "free-running", (unsigned long long)w->umask);
	if (name) {
		n = put(o, n, len, "%s", name);
		for (int i = 0; i < w->nq; i++)
			n = put(o, n, len, ":%s", w->q[i]);
		for (int i = 0; i < w->nsub; i++)
			n = put(o, n, len, ":%s=0x%llx", w->sub[i].ours, (unsigned long long)w->sub[i].v);
	} else {
		uint64_t ev = w->event;
		if (!w->has_event)
			return uc_err("'%s' has no event=<code> and names no event alias", spec);
		n = put(o, n, len, "%s/event=0x%llx", r->bt->name, (unsigned long long)(ev & 0xff));
		if (ev >> 8 == 1 && ctl_has(l, CR_EV_EXT)) /* format event "config:0-7,21": bit 8 is the extra select bit */
			n = put(o, n, len, ",ext");
		else if (ev >> 8)
			return uc_err("'event=0x%llx' in '%s' is out of range (0..255%s)", (unsigned long long)ev, spec,
				      ctl_has(l, CR_EV_EXT) ? ", or 0x100 + code for the extra select bit" : "");
		if (w->has_umask)
			n = put(o, n, len, ",umask=0x%llx", (unsigned long long)(w->umask & 0xff));
		if (w->umask >> 8) /* perf's one umask: bits 8 and up are the umask extension (format config:32-..) */
			n = put(o, n, len, ",umask_ext=0x%llx", (unsigned long long)(w->umask >> 8));
		for (int i = 0; i < w->nq; i++)
			n = put(o, n, len, ",%s", w->q[i]);
		for (int i = 0; i < w->nsub; i++)
			n = put(o, n, len, ",%s=0x%llx", w->sub[i].ours, (unsigned long long)w->sub[i].v);
		n = put(o, n, len, "/");
	}
	if (w->tid_en && !w->has_tid && ours_known(u, r, w, "tid"))
		n = put(o, n, len, ":tid=0"); /* tid_en alone: thread 0, as the driver's filter_tid defaults */
	if (r->box >= 0)
		n = put(o, n, len, ":box=%d", r->box);
	n = put(o, n, len, "%s", rest);
	if (n >= len)
		return uc_err("'%s' is too long", spec);
	out->box = r->box;
	out->scale = w->scale;
	out->unit = w->unit;
	return 0;
}

int perf_spell(const uncore_t *u, const char *in, struct perf_spelled *out)
{
	size_t h = strcspn(in, "/@");
	char head[128], body[400];
	const char *close, *rest;
	struct pmu_ref r;
	struct said w = { .scale = 1, .unit = "" };
	*out = (struct perf_spelled){ .box = -1, .scale = 1, .unit = "" };
	if (!in[h]) {
		snprintf(out->spec, sizeof(out->spec), "%s", in);
		return 1;
	}
	if (strlen(in) >= sizeof(out->spec))
		return uc_err("event spec is too long (%zu characters, at most %zu)", strlen(in), sizeof(out->spec) - 1);
	if (!(close = strchr(in + h + 1, in[h])))
		return uc_err("'%s' is missing its closing '%c'", in, in[h]);
	rest = close + 1;
	if (*rest && (*rest != ':' || in[h] == '@')) /* a metric's PMU@terms@ stands alone */
		return uc_err(in[h] == '@' ? "'%2$s' is too long or malformed: '%1$s' follows the closing '@'"
					   : "unexpected '%s' after the event in '%s'", rest, in);
	if (h >= sizeof(head) || (size_t)(close - in - (long)h) > sizeof(body))
		return uc_err("'%s' is too long", in);
	snprintf(head, sizeof(head), "%.*s", (int)h, in);
	size_t b = 0;
	for (const char *p = in + h + 1; p < close; p++) /* metric files escape '=' and ',' with '\' */
		if (*p != '\\')
			body[b++] = *p;
	body[b] = 0;
	int ev = in[h] == '@' ? catalog_find(u, head) : -1;
	if (ev >= 0) { /* EVENT@terms@ (perf's metric files): the event, and terms for it */
		const struct box_type *bt = platform_type_named(u->plat, u->events[ev].unit);
		if (!bt)
			return uc_err("%s belongs to unit '%s', which this machine does not have", head, u->events[ev].unit);
		r = (struct pmu_ref){ .bt = bt, .box = -1 };
		for (int t = 0; t < u->plat->ntypes; t++)
			r.t = u->plat->types[t] == bt ? t : r.t;
		w.evname = u->events[ev].name;
	} else {
		int rc = pmu_lookup(u, head, in, &r);
		if (rc > 0) {
			uc_err("unknown PMU '%s' in '%s': %s has no such uncore PMU (see 'uncore info' for its units; "
			       "perf's names uncore_<unit>[_<box>] and our unit names are taken)", head, in, u->plat->name);
			return 1;
		}
		if (rc < 0)
			return -1;
	}
	if (terms(u, &r, in, body, &w, 0))
		return -1;
	return render(u, &r, in, &w, rest, out);
}
