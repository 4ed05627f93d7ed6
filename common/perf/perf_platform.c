/*
 * perf on an Intel CPU without a built-in platform (issue 33 point 6): the kernel's uncore PMUs are the
 * units.  Each PMU name stem (uncore_cha_0..N: "cha"; uncore_type_3_0..N: discovery type 3;
 * uncore_iio_free_running_0..N: "iio_free_running") becomes a box type whose control word is read from
 * its format files, one box per numbered PMU.  The kernel places the events on its counters: the library
 * does not know them, so each event is a perf group of its own, as perf stat opens events.  The events:
 * Intel's JSON for the CPU's mapfile row when this build has it, else the kernel's events/ aliases and raw
 * pmu/event=...,umask=.../ specs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "perf_pmus.h"
#include "discover/discover.h"
#include "util/arena.h"
#include "util/error.h"

#define MAX_STEMS 64

/* perf's Unit -> PMU rule (tools/perf/pmu-events/jevents.py unit_to_pmu): uncore_<unit in lower case>, but
 * for these; the reverse gives a stem its perfmon Unit name. */
static const char *const unit_exceptions[][2] = { { "cbox", "CBO" }, { "qpi", "QPI LL" }, { "sbox", "SBO" },
						  { "upi", "UPI LL" } };

/* The control-word roles by the driver's format names; a second range of event or umask is the extra
 * select bit or the umask extension ("event=config:0-7,21", "umask=config:8-15,32-55"). */
static const struct {
	const char *fmt;
	enum ctl_role role, second;
} roles[] = {
	{ "event", CR_EVENT, CR_EV_EXT }, { "umask", CR_UMASK, CR_UMASK_EXT }, { "umask_ext", CR_UMASK_EXT, CR_NROLES },
	{ "edge", CR_EDGE, CR_NROLES },   { "inv", CR_INV, CR_NROLES },       { "thresh", CR_THRESH, CR_NROLES },
	{ "tid_en", CR_TID_EN, CR_NROLES }, { "occ_sel", CR_OCC_SEL, CR_NROLES }, { "occ_invert", CR_OCC_INV, CR_NROLES },
	{ "occ_edge", CR_OCC_EDGE, CR_NROLES },
};

static const struct filter_reg attr_words[] = { { .name = "config1", .bits = 64 }, { .name = "config2", .bits = 64 } };

/* A PMU name's box number (the kernel's are small; -1: not one) */
static int box_number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s < '0' || *s > '9' || *end || v > 4095 ? -1 : (int)v;
}

/* The stem of a PMU name, its box number (0: none) and, for uncore_type_<t>[_N], the discovery type (-1
 * otherwise); 0, or -1 when the name is no uncore PMU's. */
static int stem_of(const char *name, char *stem, size_t len, int *disc, int *box)
{
	const char *s = !strcmp(name, "uncore") ? "" : !strncmp(name, "uncore_", 7) ? name + 7 : NULL;
	char *end;
	*disc = -1;
	*box = 0;
	if (!s)
		return -1;
	if (!strncmp(s, "type_", 5) && s[5] >= '0' && s[5] <= '9') { /* uncore_type_<t>[_<box>] */
		long t = strtol(s + 5, &end, 10);
		if ((*end && *end != '_') || t > 0xffff)
			return -1;
		*disc = (int)t;
		*box = *end ? box_number(end + 1) : 0;
		snprintf(stem, len, "type_%ld", t);
		return *box < 0 ? -1 : 0;
	}
	size_t n = strlen(s);
	const char *u = strrchr(s, '_');
	if (u && u[1] && strspn(u + 1, "0123456789") == strlen(u + 1) && u > s) {
		n = (size_t)(u - s); /* uncore_<stem>_<box> */
		*box = box_number(u + 1);
	}
	snprintf(stem, len, "%.*s", (int)n, s);
	return *box < 0 ? -1 : 0;
}

/* One format as one contiguous field: its lowest bit and width; 0 when it is scattered. */
static int one_range(const struct perf_format *f, int k, uint8_t *lo, uint8_t *width)
{
	if (k >= f->nranges)
		return 0;
	*lo = f->r[k].lo;
	*width = (uint8_t)(f->r[k].hi - f->r[k].lo + 1);
	return 1;
}

/* The box type of the PMUs with this stem, from the formats of one of them (p). */
static int stem_type(uncore_t *u, const struct perf_pmu *p, const char *stem, int disc, struct box_type *t)
{
	struct ctl_layout *l = arena_alloc(&u->arena, sizeof(*l));
	struct filter_field *fields = arena_alloc(&u->arena, PP_MAX_FMT * sizeof(*fields));
	char buf[160];
	if (!l || !fields)
		return uc_err("out of memory");
	for (int i = 0; i < p->nfmt; i++) {
		const struct perf_format *f = &p->fmt[i].f;
		const char *fname = p->fmt[i].name;
		size_t r = 0;
		while (r < sizeof(roles) / sizeof(roles[0]) && (f->word || strcmp(roles[r].fmt, fname)))
			r++;
		if (r < sizeof(roles) / sizeof(roles[0]) && !l->f[roles[r].role].width) {
			one_range(f, 0, &l->f[roles[r].role].lo, &l->f[roles[r].role].width);
			if (roles[r].second != CR_NROLES && !l->f[roles[r].second].width)
				one_range(f, 1, &l->f[roles[r].second].lo, &l->f[roles[r].second].width);
			continue;
		}
		/* any other format is a qualifier of its own name: in the control word (ch_mask), or a filter in
		 * config1/config2 (filter_tid: the qualifier tid, as perf_spell takes it) */
		struct filter_field *fd = &fields[t->nfields];
		if (f->nranges != 1 || !(fd->name = arena_strdup(&u->arena, strncmp(fname, "filter_", 7) ? fname : fname + 7)))
			continue; /* scattered: not a qualifier, the event aliases still set it */
		fd->reg = f->word ? (uint8_t)(f->word - 1) : UC_FIELD_CTL;
		one_range(f, 0, &fd->lo, &fd->width);
		fd->help = "a field of the kernel's format of that name";
		t->nfields++;
		if (f->word)
			t->nfilt_regs = f->word > t->nfilt_regs ? f->word : t->nfilt_regs;
	}
	/* an extension Intel's files give apart from the umask (IIO PortMask, FCMask) sits in control bits
	 * 63:32, where the formats that hold it (ch_mask, fc_mask) take it; bits no format holds are refused
	 * when the event is encoded (perf_encode) */
	if (!l->f[CR_UMASK_EXT].width)
		l->f[CR_UMASK_EXT] = (struct ctl_field){ 32, 32 };
	l->name = "the kernel's formats";
	t->lay = l;
	t->fields = fields;
	t->filt_regs = attr_words;
	t->disc_type = disc;
	t->perf = disc >= 0 ? NULL : arena_strdup(&u->arena, stem);
	if (disc >= 0)
		snprintf(buf, sizeof(buf), "type%d", disc);
	else
		snprintf(buf, sizeof(buf), "%.47s", *stem ? stem : "uncore");
	t->name = arena_strdup(&u->arena, buf);
	t->perfmon = t->name;
	for (size_t i = 0; i < sizeof(unit_exceptions) / sizeof(unit_exceptions[0]); i++)
		if (!strcmp(stem, unit_exceptions[i][0]))
			t->perfmon = unit_exceptions[i][1];
	snprintf(buf, sizeof(buf), "the kernel's uncore_%.47s PMUs", stem);
	t->desc = arena_strdup(&u->arena, buf);
	if (!t->name || !t->desc || (disc < 0 && !t->perf))
		return uc_err("out of memory");
	t->prefix = "";
	t->space = UC_MSR; /* unknown and unused: the kernel owns the registers */
	t->nctr = UC_MAX_CTR; /* any counter mask fits; the kernel places the event */
	t->width = 64;
	t->kernel_places = 1;
	/* the kernel's fixed counter is config 0xff; a type its driver does not name has none (perf_encode) */
	t->has_fixed = disc < 0;
	return 0;
}

/* The kernel's uncore PMUs by name stem: each stem's discovery type (-1: named), first PMU and box count. */
struct stems {
	char name[MAX_STEMS][48];
	int disc[MAX_STEMS], first[MAX_STEMS], nbox[MAX_STEMS], n;
};

static int collect_stems(const struct perf_sys *ps, struct stems *st)
{
	st->n = 0;
	for (int i = 0; i < ps->npmus; i++) {
		char name[48];
		int d, box, k = 0;
		if (stem_of(ps->pmus[i].name, name, sizeof(name), &d, &box))
			continue;
		while (k < st->n && strcmp(st->name[k], name))
			k++;
		if (k < st->n) {
			st->nbox[k] = box >= st->nbox[k] ? box + 1 : st->nbox[k];
			continue;
		}
		if (st->n == MAX_STEMS)
			return uc_err("the kernel has uncore PMUs of more than %d kinds", MAX_STEMS);
		snprintf(st->name[st->n], sizeof(st->name[0]), "%s", name);
		st->disc[st->n] = d;
		st->nbox[st->n] = box + 1;
		st->first[st->n++] = i;
	}
	return 0;
}

/* Types from the stems keep(stem) takes, after p's first nkeep types. */
static int stem_types(uncore_t *u, struct platform_desc *p, int nkeep, const struct stems *st, const int *keep)
{
	int ntypes = nkeep;
	const struct box_type **types = arena_alloc(&u->arena, (size_t)(st->n + nkeep ? st->n + nkeep : 1) * sizeof(*types));
	if (!types)
		return uc_err("out of memory");
	for (int k = 0; k < nkeep; k++)
		types[k] = p->types[k];
	for (int k = 0; k < st->n; k++) {
		if (!keep[k])
			continue;
		struct box_type *t = arena_alloc(&u->arena, sizeof(*t));
		if (!t || stem_type(u, &u->perf->pmus[st->first[k]], st->name[k], st->disc[k], t))
			return t ? -1 : uc_err("out of memory");
		t->max_boxes = st->nbox[k];
		types[ntypes++] = t;
	}
	if (nkeep) /* after a named platform's own types: by type, as Linux lists them */
		platform_types_sort(types + nkeep, ntypes - nkeep);
	p->types = types;
	p->ntypes = ntypes;
	return 0;
}

int perf_platform_open(uncore_t *u)
{
	struct stems st;
	int keep[MAX_STEMS];
	if (platform_generic_open(u) || collect_stems(u->perf, &st))
		return -1;
	struct platform_desc *p = u->own_plat;
	char desc[128];
	snprintf(desc, sizeof(desc), "Intel family %d model 0x%x (the kernel's uncore PMUs)", u->host.family,
		 u->host.model);
	p->desc = arena_strdup(&u->arena, desc);
	p->discovery = 0;
	if (!p->desc)
		return uc_err("out of memory");
	for (int k = 0; k < st.n; k++)
		keep[k] = 1;
	return stem_types(u, p, 0, &st, keep);
}

int perf_platform_unnamed(uncore_t *u)
{
	struct stems st;
	int keep[MAX_STEMS], any = 0;
	if (collect_stems(u->perf, &st))
		return -1;
	for (int k = 0; k < st.n; k++) { /* uncore_type_<t> of a type the platform does not name */
		keep[k] = st.disc[k] >= 0;
		for (int i = 0; keep[k] && i < u->plat->ntypes; i++)
			keep[k] = u->plat->types[i]->disc_type != st.disc[k];
		any |= keep[k];
	}
	if (!any)
		return 0;
	struct platform_desc *p = platform_types_target(u);
	if (!p)
		return uc_err("out of memory");
	u->plat = p;
	return stem_types(u, p, p->ntypes, &st, keep);
}

int perf_platform_events(uncore_t *u, const struct uc_catalog **ev)
{
	const struct uc_mapfile_row *row = mapfile_row(u->host.family, u->host.model, u->host.stepping);
	int naliases = 0;
	char buf[512];
	*ev = NULL;
	const struct uc_generic_catalog *c = row ? generic_catalog(row->dir) : NULL;
	if (c) {
		char left[96] = "";
		*ev = c->events;
		if (c->left)
			snprintf(left, sizeof(left), " (%d that need a filter register left out: give it by format name)",
				 c->left);
		snprintf(buf, sizeof(buf), "events from Intel's %s %s (mapfile row %s)%s, on the kernel's uncore PMUs; "
			 "the kernel's event aliases and raw specs too%s", c->file, c->version, row->dir, left,
			 c->metrics_json ? "; metrics from Intel's perf metric file" : "");
		u->own_plat->metrics_json = c->metrics_json; /* its uncore metrics, the core ones left out */
	}
	for (const struct perf_alias *a = u->kernel_aliases; a && a->name; a++)
		naliases++;
	if (!*ev)
		snprintf(buf, sizeof(buf), "no event tables for this CPU (%s): the kernel's %d event aliases "
			 "(PMU/alias/) and raw specs PMU/event=N,umask=N/ on its uncore PMUs",
			 row ? "its mapfile row's files are not in this build" : "not in Intel's mapfile", naliases);
	return (u->own_plat->caveat = arena_strdup(&u->arena, buf)) ? 0 : uc_err("out of memory");
}
