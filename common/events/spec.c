/*
 * Event specs -> encoded events.
 *   NAME[:socket=N][:box=N][:thresh=N][:edge][:inv][:<filter field>=V]...
 *   unit/event=0x4,umask=0x3[,edge][,inv][,thresh=N][,ext][,<field>=V]/[:socket=N][:box=N]
 * and perf's spellings (PMU/terms/, EVENT@terms@), which perf_spell.c puts in these words first.
 * The qualifiers accepted are exactly those qual_list() gives for the event; each may be given once.
 * Every refusal names the bad part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "events.h"
#include "util/error.h"
#include "qualifiers.h"
#include "perf_spell.h"

static int parse_u64(const char *spec, const char *key, const char *val, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!val || !*val)
		return uc_err("'%s' in '%s' needs a value (%s=N)", key, spec, key);
	if (*val == '-')
		return uc_err("'%s=%s' in '%s': value must not be negative", key, val, spec);
	v = strtoull(val, &end, 0);
	if (*end)
		return uc_err("'%s=%s' in '%s': '%s' is not a number", key, val, spec, val);
	if (v > max)
		return uc_err("'%s=%s' in '%s' is out of range (0..%llu)", key, val, spec, (unsigned long long)max);
	*out = v;
	return 0;
}

static void set_field(struct encoded *e, const struct filter_field *f, uint64_t v)
{
	uint64_t m = uc_width_mask(f->width) << f->lo;
	if (f->reg == UC_FIELD_CTL) { /* a field of the control word itself (IIO ch_mask) */
		e->ctl = (e->ctl & ~m) | (v << f->lo);
		return;
	}
	e->fmask[f->reg] |= m;
	e->fval[f->reg] = (e->fval[f->reg] & ~m) | (v << f->lo);
}

static void list_names(const struct qual *q, int n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", q[i].name);
}

static int box_exists(const uncore_t *u, int type_idx, int socket, int box)
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->type_idx == type_idx && (socket < 0 || b->socket == socket) && (box < 0 || b->idx == box))
			return 1;
	}
	return 0;
}

/* Why a name that is not in the event's list is refused: a field the event does not use, a control
 * field its counter or box lacks, or a name nobody knows. */
static int refuse(const uncore_t *u, const struct encoded *e, const char *spec, const char *q, const struct qual *ql, int n)
{
	const struct box_type *bt = e->bt;
	char names[400];
	for (int i = 0; i < bt->nfields; i++)
		if (!strcmp(bt->fields[i].name, q))
			return uc_err("qualifier '%s' does not apply to %s (it uses no %s filter)", q, e->name, q);
	for (int r = 0; r < CR_NROLES; r++) {
		if (!ctl_roles[r].qualifier || strcmp(ctl_roles[r].qualifier, q))
			continue;
		if (e->fixed || e->fr >= 0)
			return uc_err("%s counts on a %s counter, which takes no '%s'", e->name,
				      e->fixed ? "fixed" : "free-running", q);
		return uc_err("'%s' in '%s': the %s control register has no such bit", q, spec, bt->name);
	}
	if (!strcmp(q, "sample"))
		return uc_err("'sample' in '%s': %s counters cannot be sampled on %s (their overflows reach no "
			      "documented status register); count it and poll instead", spec, bt->name, u->plat->name);
	list_names(ql, n, names, sizeof(names));
	return uc_err("unknown qualifier '%s' in '%s'; %s accepts: %s", q, spec, e->name, names);
}

/* "band" names the frequency band a FREQ_BANDn event reads: the one band field it uses. */
static int band_alias(const struct qual *ql, int n, const struct encoded *e)
{
	for (int i = 0; e->ev && i < n; i++)
		if (ql[i].kind == QK_FIELD && !strncmp(ql[i].name, "band", 4) && ql[i].name[4])
			return i;
	return -1;
}

/* The qualifiers a spec may give, and what it has said so far. */
struct given {
	struct qual ql[UC_MAX_QUALS];
	int n;
	uint32_t seen; /* bit k: qualifier k of the list */
	int thresh;    /* a threshold was given */
	int raw;       /* raw form: event=, umask=, umask_ext= seen (bits 0-2) */
	int cpu;       /* cpu=N given: N + 1 */
};

/* The qualifiers the spec's event (or raw unit) takes, listed once for all of them. */
static void given_list(const uncore_t *u, const struct encoded *e, struct given *g)
{
	g->n = qual_list(u, e->bt, e->ev, g->ql, UC_MAX_QUALS);
	if (g->n > UC_MAX_QUALS)
		g->n = UC_MAX_QUALS;
}

/* One qualifier "key[=value]" of either spec form, looked up in the event's qualifier list. */
static int apply_qualifier(const uncore_t *u, const char *spec, struct encoded *e, char *q, struct given *g)
{
	int k = -1;
	char *val = strchr(q, '=');
	uint64_t v = 0;
	if (val)
		*val++ = 0;
	if (!*q)
		return uc_err("empty qualifier in '%s'", spec);
	for (int i = 0; i < g->n && k < 0; i++)
		if (!strcmp(g->ql[i].name, q))
			k = i;
	if (k < 0 && !strcmp(q, "band") && (k = band_alias(g->ql, g->n, e)) < 0)
		return uc_err("'band' in '%s': %s reads no frequency band", spec, e->name);
	if (k < 0)
		return refuse(u, e, spec, q, g->ql, g->n);
	const struct qual *x = &g->ql[k];
	if (g->seen & (1u << k))
		return uc_err("qualifier '%s' is given twice in '%s'; give it once", x->name, spec);
	g->seen |= 1u << k;
	if (x->flag) {
		if (val && parse_u64(spec, q, val, 1, &v))
			return -1;
		v = val ? v : 1;
	} else if (parse_u64(spec, q, val, x->amax, &v)) {
		return -1;
	} else if (x->kind == QK_SAMPLE && !v) {
		return uc_err("'sample=0' in '%s': the period must be at least 1 event", spec);
	} else if (v < x->amin) {
		return uc_err("'%s=%s' in '%s' is out of range (%llu..%llu)", q, val, spec, (unsigned long long)x->amin,
			      (unsigned long long)x->amax);
	}
	switch (x->kind) {
	case QK_SOCKET: e->socket = (int)v; break;
	case QK_CPU:
		if (u->host.cpu_socket[v] < 0)
			return uc_err("'cpu=%llu' in '%s': CPU %llu is offline or absent", (unsigned long long)v, spec,
				      (unsigned long long)v);
		g->cpu = (int)v + 1;
		break;
	case QK_BOX: e->box = (int)v; break;
	case QK_SAMPLE:
		e->period = v;
		e->ctl |= ctl_mask(e->bt->lay, CR_OV_EN);
		break;
	case QK_ROLE:
		e->ctl = (e->ctl & ~ctl_mask(e->bt->lay, (enum ctl_role)x->role)) | ctl_put(e->bt->lay, (enum ctl_role)x->role, v);
		g->thresh |= x->role == CR_THRESH;
		break;
	case QK_FIELD:
		set_field(e, x->field, v);
		if (!strcmp(x->name, "tid"))
			e->ctl |= ctl_mask(e->bt->lay, CR_TID_EN);
		break;
	}
	return 0;
}

static const struct box_type *find_unit(const uncore_t *u, const char *name, int *idx)
{
	if (!strncmp(name, "uncore_", 7))
		name += 7;
	for (int t = 0; t < u->plat->ntypes; t++)
		if (!strcasecmp(u->plat->types[t]->name, name)) {
			*idx = t;
			return u->plat->types[t];
		}
	return NULL;
}

/* A raw event's "event=", "umask=" or "umask_ext=" (bit of g->raw: 1, 2, 4), each at most once. */
static int raw_select(const char *spec, struct encoded *e, const char *key, const char *val, struct given *g)
{
	const struct ctl_layout *l = e->bt->lay;
	enum ctl_role r = key[1] == 'v' ? CR_EVENT : strcmp(key, "umask") ? CR_UMASK_EXT : CR_UMASK;
	int bit = r == CR_EVENT ? 1 : r == CR_UMASK ? 2 : 4;
	uint64_t v;
	if (g->raw & bit)
		return uc_err("'%s' is given twice in '%s'; give it once", key, spec);
	g->raw |= bit;
	if (!ctl_has(l, r))
		return uc_err("'%s' in '%s': the %s control register has no %s field", key, spec, e->bt->name, key);
	if (parse_u64(spec, key, val, r == CR_UMASK_EXT ? ctl_max(l, r) : 0xff, &v))
		return -1;
	e->ctl |= ctl_put(l, r, v);
	return 0;
}

static int parse_raw(const uncore_t *u, const char *spec, char *body, struct encoded *e, struct given *g)
{
	char *slash = strchr(body, '/'), *tok, *save = NULL;
	*slash = 0;
	e->bt = find_unit(u, body, &e->type_idx);
	if (!e->bt) {
		char units[256];
		size_t n = 0;
		units[0] = 0;
		for (int t = 0; t < u->plat->ntypes && n < sizeof(units); t++)
			n += (size_t)snprintf(units + n, sizeof(units) - n, "%s%s", t ? ", " : "", u->plat->types[t]->name);
		return uc_err("unknown unit '%s' in '%s'; %s has: %s", body, spec, u->plat->name, units);
	}
	if (!e->bt->nctr && e->bt->nfr) /* Diamond Rapids' iio: its free-running counters are named, not programmed */
		return uc_err("'%s': %s has free-running counters alone, no counter to program: name one of its events "
			      "('uncore list' shows them)", spec, e->bt->name);
	snprintf(e->name, sizeof(e->name), "%s", spec);
	e->ctr_mask = (1u << e->bt->nctr) - 1;
	e->ctl = e->bt->lay->enable;
	given_list(u, e, g);
	if (slash[1] == ',' || strstr(slash + 1, ",,") || (slash[1] && slash[strlen(slash + 1)] == ','))
		return uc_err("empty term in '%s' (two ',' in a row, or one next to a '/')", spec);
	for (tok = strtok_r(slash + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t kl = strcspn(tok, "=");
		char key[16];
		snprintf(key, sizeof(key), "%.*s", (int)(kl < sizeof(key) ? kl : sizeof(key) - 1), tok);
		if (tok[kl] == '=' && (!strcmp(key, "event") || !strcmp(key, "umask") || !strcmp(key, "umask_ext"))) {
			if (raw_select(spec, e, key, tok + kl + 1, g))
				return -1;
		} else if (apply_qualifier(u, spec, e, tok, g)) {
			return -1;
		}
	}
	if (!(g->raw & 1))
		return uc_err("raw event '%s' has no event=<code>", spec);
	return 0;
}

/* A catalog event's control word: its code, umask and extension bits placed by the box's layout. */
static int event_ctl(const char *spec, struct encoded *e)
{
	const struct ctl_layout *l = e->bt->lay;
	const struct uc_event *ev = e->ev;
	if ((ev->ext && !ctl_has(l, CR_EV_EXT)) || (ev->umext && (!ctl_has(l, CR_UMASK_EXT) || ev->umext > ctl_max(l, CR_UMASK_EXT))))
		return uc_err("'%s': %s needs control bits the %s control register does not have", spec, ev->name,
			      e->bt->name);
	e->ctl = l->enable | ctl_event(e->bt, ev->code, ev->umask) | ctl_put(l, CR_EV_EXT, ev->ext) |
		 ctl_put(l, CR_UMASK_EXT, ev->umext);
	return 0;
}

/* Our spec (perf's already translated) encoded; e->name is what the user wrote. */
static int encode(const uncore_t *u, const char *user, const char *spec, struct encoded *e)
{
	char buf[512], *q, *save = NULL, *first;
	int quals; /* a ':' says qualifiers follow */
	struct given g;
	const struct ctl_layout *l;
	memset(e, 0, sizeof(*e));
	memset(&g, 0, sizeof(g));
	e->socket = e->box = -1;
	e->fr = -1;
	if (!spec || !*spec)
		return uc_err("empty event name");
	if (strlen(spec) >= sizeof(buf))
		return uc_err("event spec is too long (%zu characters, at most %zu)", strlen(spec), sizeof(buf) - 1);
	if (user && strlen(user) >= sizeof(e->name))
		return uc_err("event spec is too long (%zu characters, at most %zu)", strlen(user), sizeof(e->name) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	if (strchr(buf, '/')) {
		char *close = strchr(buf, '/');
		close = strchr(close + 1, '/');
		if (!close)
			return uc_err("raw event '%s' is missing its closing '/'", spec);
		*close = 0;
		if (parse_raw(u, spec, buf, e, &g))
			return -1;
		first = close + 1;
		if (*first && *first != ':')
			return uc_err("unexpected '%s' after the raw event in '%s'", first, spec);
		quals = *first == ':';
		first += quals;
	} else {
		char *colon = strchr(buf, ':');
		int n;
		const struct uc_event *all = u->events;
		if (colon)
			*colon = 0;
		n = catalog_find(u, buf);
		e->ev = n >= 0 ? &all[n] : NULL;
		if (!e->ev && !u->nevents && u->plat->caveat) /* a CPU with no tables: say what it has instead */
			return uc_err("unknown event '%s' on %s: %s", buf, u->plat->name, u->plat->caveat);
		if (!e->ev)
			return uc_err("unknown event '%s' on %s (see 'uncore list')", buf, u->plat->name);
		e->bt = find_unit(u, e->ev->unit, &e->type_idx);
		snprintf(e->name, sizeof(e->name), "%s", e->ev->name);
		if (!e->bt)
			return uc_err("%s belongs to unit '%s', which this machine does not have", e->ev->name, e->ev->unit);
		e->ev_flags = e->ev->flags;
		e->fixed = !!(e->ev->flags & UC_EV_FIXED);
		if (e->ev->flags & UC_EV_FREERUN)
			e->fr = e->ev->umask;
		e->ctr_mask = e->ev->ctr_mask;
		if (event_ctl(spec, e))
			return -1;
		given_list(u, e, &g);
		first = colon ? colon + 1 : buf + strlen(buf);
		quals = colon != NULL;
	}
	if (strstr(first, "::") || (quals && (!*first || first[strlen(first) - 1] == ':')) || *first == ':')
		return uc_err("empty qualifier in '%s' (two ':' in a row or a trailing ':')", spec);
	for (q = strtok_r(first, ":", &save); q; q = strtok_r(NULL, ":", &save))
		if (apply_qualifier(u, spec, e, q, &g))
			return -1;
	if (g.cpu) {
		int sk = u->host.cpu_socket[g.cpu - 1];
		if (e->socket >= 0 && e->socket != sk)
			return uc_err("'%s': CPU %d is on socket %d, not socket %d; give one of cpu= and socket=", spec,
				      g.cpu - 1, sk, e->socket);
		e->socket = sk;
	}
	l = e->bt->lay;
	/* edge/invert act on the threshold comparison, which needs a non-zero threshold (seed 000 L118-131) */
	if ((e->ctl & (ctl_mask(l, CR_EDGE) | ctl_mask(l, CR_INV))) && !g.thresh)
		e->ctl |= ctl_put(l, CR_THRESH, 1);
	if (e->fr < 0 && (e->ctl & ~box_ctl_valid(e->bt)))
		return uc_err("'%s': bits 0x%llx are %s the %s control register", spec,
			      (unsigned long long)(e->ctl & ~box_ctl_valid(e->bt)),
			      e->ctl >> (8 * box_ctl_bytes(e->bt) - 1) >> 1 ? "beyond the 32 bits of" : "reserved in",
			      e->bt->name);
	/* filters the event needs */
	if (e->ev) {
		for (int i = 0; i < e->bt->nfields; i++) {
			const struct filter_field *f = &e->bt->fields[i];
			uint64_t d = 0;
			int rule = qual_filter_rule(e->ev, f->name, &d);
			int given = f->reg == UC_FIELD_CTL || ((e->fmask[f->reg] >> f->lo) & 1);
			if (given || !rule || rule == 'o')
				continue;
			if (rule == 'r')
				return uc_err("%s needs the '%s' qualifier (%s), e.g. %s:%s=0x...", e->name, f->name, f->help,
					      e->name, f->name);
			set_field(e, f, d);
		}
	}
	if (e->bt->tid_holds_all && (e->ctl & ctl_mask(l, CR_TID_EN)))
		for (int i = 0; i < e->bt->nfields; i++) {
			const struct filter_field *f = &e->bt->fields[i];
			if (f->reg != UC_FIELD_CTL && !((e->fmask[f->reg] >> f->lo) & 1))
				set_field(e, f, 0);
		}
	/* two uses of one event with different qualifiers stay distinguishable */
	snprintf(e->name, sizeof(e->name), "%s", user);
	return 0;
}

int spec_encode(const uncore_t *u, const char *spec, struct encoded *e)
{
	struct perf_spelled sp;
	if (uc_ctl_char(spec)) /* not echoed: the messages below quote the spec */
		return uc_err("an event spec holds control character 0x%02x", uc_ctl_char(spec));
	int rc = perf_spell(u, spec ? spec : "", &sp);
	if (rc < 0 || (rc > 0 && spec && strpbrk(spec, "/@")))
		return -1;
	if (encode(u, spec, rc ? spec : sp.spec, e))
		return rc ? -1 : uc_err_prefix("'%s' (perf's spelling of '%s'): ", spec, sp.spec);
	e->scale = sp.scale;
	e->unit = sp.unit;
	return 0;
}

int spec_parse_on(const uncore_t *u, const char *spec, int socket, struct encoded *e)
{
	if (spec_encode(u, spec, e))
		return -1;
	if (e->socket < 0)
		e->socket = socket;
	if (!box_exists(u, e->type_idx, e->socket, e->box)) {
		if (u->perf && e->bt->perf_since && !box_exists(u, e->type_idx, -1, -1)) /* perf_backend.c type_boxes */
			return uc_err("'%s': this kernel registers no PMU for %s (uncore_%s[_N], discovery type %d); %s register "
				      "it: count it on such a kernel, or with the direct backend", spec, e->bt->name,
				      e->bt->perf ? e->bt->perf : e->bt->name, e->bt->disc_type, e->bt->perf_since);
		if (e->box >= 0)
			return uc_err("'%s': there is no %s box %d%s on this machine", spec, e->bt->name, e->box,
				      e->socket >= 0 ? " on that socket" : "");
		return uc_err("'%s': no %s box was found on this machine%s", spec, e->bt->name,
			      e->socket >= 0 ? " on that socket" : "");
	}
	return 0;
}

int spec_parse(const uncore_t *u, const char *spec, struct encoded *e) { return spec_parse_on(u, spec, -1, e); }
