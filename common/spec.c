/*
 * Event specs -> encoded events.
 *   NAME[:socket=N][:box=N][:thresh=N][:edge][:inv][:<filter field>=V]...
 *   unit/event=0x4,umask=0x3[,edge][,inv][,thresh=N][,ext][,<field>=V]/[:socket=N][:box=N]
 * Every refusal names the bad part.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "uncore_priv.h"
#include "error.h"

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

static const struct filter_field *find_field(const struct box_type *bt, const char *name)
{
	for (int i = 0; i < bt->nfields; i++)
		if (!strcmp(bt->fields[i].name, name))
			return &bt->fields[i];
	return NULL;
}

static uint64_t field_max(const struct filter_field *f)
{
	return uc_width_mask(f->width);
}

static void set_field(struct encoded *e, const struct filter_field *f, uint64_t v)
{
	uint64_t m = field_max(f) << f->lo;
	if (f->reg == UC_FIELD_CTL) { /* a field of the control word itself (IIO ch_mask) */
		e->ctl = (e->ctl & ~m) | (v << f->lo);
		return;
	}
	e->fmask[f->reg] |= m;
	e->fval[f->reg] = (e->fval[f->reg] & ~m) | (v << f->lo);
}

/* The event's filter requirement for a field: 0 none, 'r' required, 'd' default, 'o' optional. */
static int ev_filter_rule(const struct uc_event *ev, const char *field, uint64_t *dflt)
{
	const char *p = ev ? ev->filters : NULL; /* a raw event has no rules */
	size_t fl = strlen(field);
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len >= fl && !strncmp(p, field, fl) && (len == fl || p[fl] == ':' || p[fl] == '?')) {
			if (len == fl)
				return 'r';
			if (p[fl] == '?')
				return 'o';
			*dflt = strtoull(p + fl + 1, NULL, 0);
			return 'd';
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

static void list_qualifiers(const struct box_type *bt, const struct uc_event *ev, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "socket, box, thresh, edge, inv%s", bt->ov_en && bt->status ? ", sample" : "");
	for (int i = 0; i < bt->nfields && n < len; i++) {
		uint64_t d;
		if (ev && !ev_filter_rule(ev, bt->fields[i].name, &d) && strcmp(bt->fields[i].name, "tid"))
			continue;
		n += (size_t)snprintf(buf + n, len - n, ", %s", bt->fields[i].name);
	}
	if (!strcmp(bt->name, "pcu") && n < len)
		snprintf(buf + n, len - n, ", occ_inv, occ_edge");
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

/* One qualifier "key[=value]" shared by both spec forms. */
static int apply_qualifier(const uncore_t *u, const char *spec, struct encoded *e, char *q, int *thresh_set,
			   int raw)
{
	char *val = strchr(q, '=');
	uint64_t v = 0;
	const struct box_type *bt = e->bt;
	const struct filter_field *f;
	int thresh_bits = bt->thresh_bits ? bt->thresh_bits : (bt->ctl_valid >> 29) & 1 ? 8 : 5;
	if (val)
		*val++ = 0;
	if (!*q)
		return uc_err("empty qualifier in '%s'", spec);
	if (!strcmp(q, "socket")) {
		if (parse_u64(spec, q, val, (uint64_t)u->host.nsockets - 1, &v))
			return -1;
		e->socket = (int)v;
	} else if (!strcmp(q, "box")) {
		if (parse_u64(spec, q, val, (uint64_t)bt->max_boxes - 1, &v))
			return -1;
		e->box = (int)v;
	} else if (!strcmp(q, "sample")) {
		/* overflow sampling needs the overflow report bit and a status register to find it in
		 * (a fixed one, or the one each unit's discovery entry gives) */
		if (!bt->ov_en || !(bt->status || bt->disc_type >= 0))
			return uc_err("'sample' in '%s': %s counters cannot be sampled on %s (their overflows reach no "
				      "documented status register); count it and poll instead", spec, bt->name, u->plat->name);
		if (parse_u64(spec, q, val, uc_width_mask(bt->width), &v))
			return -1;
		if (!v)
			return uc_err("'sample=0' in '%s': the period must be at least 1 event", spec);
		e->period = v;
		e->ctl |= bt->ov_en;
	} else if (!strcmp(q, "thresh")) {
		if (parse_u64(spec, q, val, (1u << thresh_bits) - 1, &v))
			return -1;
		int sh = ctl_thresh_shift(bt);
		e->ctl = (e->ctl & ~(((1ull << thresh_bits) - 1) << sh)) | (v << sh);
		*thresh_set = 1;
	} else if (!strcmp(q, "edge") || !strcmp(q, "inv") || (raw && !strcmp(q, "ext")) ||
		   !strcmp(q, "occ_inv") || !strcmp(q, "occ_edge")) {
		uint64_t bit = !strcmp(q, "edge") ? CTL_EDGE : !strcmp(q, "inv") ? CTL_INVERT :
			       !strcmp(q, "ext") ? CTL_EV_SEL_EXT : !strcmp(q, "occ_inv") ? CTL_OCC_INVERT : CTL_OCC_EDGE;
		if (val && parse_u64(spec, q, val, 1, &v))
			return -1;
		if (!val)
			v = 1;
		if (v && (!(bt->ctl_valid & bit) || bt->umask_shift)) /* another layout: those bits mean else */
			return uc_err("'%s' in '%s': the %s control register has no such bit", q, spec, bt->name);
		e->ctl = v ? (e->ctl | bit) : (e->ctl & ~bit);
	} else if ((f = find_field(bt, q)) || (!strcmp(q, "band") && !raw && e->ev)) {
		uint64_t d;
		if (!f) { /* "band" names the band the FREQ_BANDn event reads */
			for (int i = 0; i < bt->nfields && !f; i++)
				if (ev_filter_rule(e->ev, bt->fields[i].name, &d))
					f = &bt->fields[i];
			if (!f)
				return uc_err("'band' in '%s': %s reads no frequency band", spec, e->name);
		}
		if (!raw && e->ev && strcmp(f->name, "tid") && f->reg != UC_FIELD_CTL && !ev_filter_rule(e->ev, f->name, &d))
			return uc_err("qualifier '%s' does not apply to %s (it uses no %s filter)", f->name, e->name,
				      f->name);
		if (parse_u64(spec, q, val, field_max(f), &v))
			return -1;
		set_field(e, f, v);
		if (!strcmp(f->name, "tid"))
			e->ctl |= bt->tid_en;
	} else {
		char qs[256];
		list_qualifiers(bt, e->ev, qs, sizeof(qs));
		return uc_err("unknown qualifier '%s' in '%s'; %s accepts: %s", q, spec, e->name, qs);
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

static int parse_raw(const uncore_t *u, const char *spec, char *body, struct encoded *e, int *thresh_set)
{
	char *slash = strchr(body, '/'), *tok, *save = NULL;
	uint64_t v;
	int have_event = 0;
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
	snprintf(e->name, sizeof(e->name), "%s", spec);
	e->ctr_mask = (1u << e->bt->nctr) - 1;
	e->ctl = e->bt->ctl_en;
	for (tok = strtok_r(slash + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');
		if (!strncmp(tok, "umask_ext=", 10)) {
			if (parse_u64(spec, "umask_ext", val + 1, 0xffffffffu, &v))
				return -1;
			e->ctl = (e->ctl & 0xffffffffull) | v << 32;
		} else if (!strncmp(tok, "event=", 6) || !strncmp(tok, "umask=", 6)) {
			if (parse_u64(spec, tok[0] == 'e' ? "event" : "umask", val + 1, 0xff, &v))
				return -1;
			if (tok[0] == 'e') {
				e->ctl |= ctl_event(e->bt, (unsigned)v, 0);
				have_event = 1;
			} else {
				e->ctl |= ctl_event(e->bt, 0, (unsigned)v);
			}
		} else if (apply_qualifier(u, spec, e, tok, thresh_set, 1)) {
			return -1;
		}
	}
	if (!have_event)
		return uc_err("raw event '%s' has no event=<code>", spec);
	return 0;
}

int spec_encode(const uncore_t *u, const char *spec, struct encoded *e)
{
	char buf[512], *q, *save = NULL, *first;
	int thresh_set = 0;
	memset(e, 0, sizeof(*e));
	e->socket = e->box = -1;
	e->fr = -1;
	if (!spec || !*spec)
		return uc_err("empty event name");
	if (strlen(spec) >= sizeof(buf))
		return uc_err("event spec is too long (%zu characters, at most %zu)", strlen(spec), sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	first = buf;
	if (strchr(buf, '/')) {
		char *close = strchr(buf, '/');
		close = strchr(close + 1, '/');
		if (!close)
			return uc_err("raw event '%s' is missing its closing '/'", spec);
		*close = 0;
		if (parse_raw(u, spec, buf, e, &thresh_set))
			return -1;
		first = close + 1;
		if (*first && *first != ':')
			return uc_err("unexpected '%s' after the raw event in '%s'", first, spec);
		if (*first)
			first++;
	} else {
		char *colon = strchr(buf, ':');
		int n;
		const struct uc_event *all = u->events;
		if (colon)
			*colon = 0;
		n = catalog_find(u, buf);
		e->ev = n >= 0 ? &all[n] : NULL;
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
		e->ctl = e->bt->ctl_en | ctl_event(e->bt, e->ev->code, e->ev->umask) |
			 (e->ev->ext ? CTL_EV_SEL_EXT : 0) | (uint64_t)e->ev->umext << 32;
		first = colon ? colon + 1 : buf + strlen(buf);
	}
	if (strstr(first, "::") || (*first && first[strlen(first) - 1] == ':') || *first == ':')
		return uc_err("empty qualifier in '%s' (two ':' in a row or a trailing ':')", spec);
	for (q = strtok_r(first, ":", &save); q; q = strtok_r(NULL, ":", &save))
		if (apply_qualifier(u, spec, e, q, &thresh_set, 0))
			return -1;
	/* edge/invert act on the threshold comparison, which needs a non-zero threshold (seed 000 L118-131) */
	if (!e->bt->umask_shift && (e->ctl & (CTL_EDGE | CTL_INVERT)) && !thresh_set)
		e->ctl |= 1ull << ctl_thresh_shift(e->bt);
	if ((e->fixed || e->fr >= 0) && (e->ctl & ~(e->bt->ctl_en | 0xffffull)))
		return uc_err("%s counts on a %s counter, which takes no thresh/edge/inv", e->name,
			      e->fixed ? "fixed" : "free-running");
	if (e->fr < 0 && (e->ctl & ~e->bt->ctl_valid))
		return uc_err("'%s': bits 0x%llx are reserved in the %s control register", spec,
			      (unsigned long long)(e->ctl & ~e->bt->ctl_valid), e->bt->name);
	/* filters the event needs */
	if (e->ev) {
		for (int i = 0; i < e->bt->nfields; i++) {
			const struct filter_field *f = &e->bt->fields[i];
			uint64_t d = 0;
			int rule = ev_filter_rule(e->ev, f->name, &d);
			int given = f->reg == UC_FIELD_CTL || ((e->fmask[f->reg] >> f->lo) & 1);
			if (given || !rule || rule == 'o')
				continue;
			if (rule == 'r')
				return uc_err("%s needs the '%s' qualifier (%s), e.g. %s:%s=0x...", e->name, f->name, f->help,
					      e->name, f->name);
			set_field(e, f, d);
		}
	}
	/* two uses of one event with different qualifiers stay distinguishable */
	snprintf(e->name, sizeof(e->name), "%s", spec);
	return 0;
}

int spec_parse(const uncore_t *u, const char *spec, struct encoded *e)
{
	if (spec_encode(u, spec, e))
		return -1;
	if (!box_exists(u, e->type_idx, e->socket, e->box)) {
		if (e->box >= 0)
			return uc_err("'%s': there is no %s box %d%s on this machine", spec, e->bt->name, e->box,
				      e->socket >= 0 ? " on that socket" : "");
		return uc_err("'%s': no %s box was found on this machine%s", spec, e->bt->name,
			      e->socket >= 0 ? " on that socket" : "");
	}
	return 0;
}
