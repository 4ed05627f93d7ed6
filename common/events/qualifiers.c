/*
 * The qualifiers an event accepts, derived from its box type's control-word layout and filter
 * fields and from the event's filter rules.  The spec parser accepts exactly what this lists, and
 * the CLI and the PAPI component show this list, so the three cannot drift apart.
 */
#include <stdlib.h>
#include <string.h>
#include "events.h"
#include "qualifiers.h"
#include "util/error.h"

/* The event's filter requirement for a field: 0 none, 'r' required, 'd' default, 'o' optional. */
int qual_filter_rule(const struct uc_event *ev, const char *field, uint64_t *dflt)
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

/* Can counters of this type be sampled: an overflow bit and a status register to find it in (a fixed
 * one, or the one each unit's discovery entry gives)? */
static int qual_can_sample(const struct box_type *bt)
{
	return ctl_has(bt->lay, CR_OV_EN) && (bt->status || bt->disc_type >= 0);
}

static int add(struct qual *out, int n, int max, struct qual q)
{
	if (n < max) {
		out[n] = q;
		if (q.kind != QK_SOCKET && q.kind != QK_BOX && q.kind != QK_CPU) {
			out[n].amin = q.min;
			out[n].amax = q.max;
		}
	}
	return n + 1;
}

/* The lowest and highest box number and socket of a type on this machine (the type's ranges when
 * none is found). */
struct span { uint64_t box_lo, box_hi, sock_lo, sock_hi; };
static struct span type_span(const uncore_t *u, const struct box_type *bt)
{
	struct span r = { 0, bt->max_boxes > 0 ? (uint64_t)bt->max_boxes - 1 : 0, 0, (uint64_t)u->host.nsockets - 1 };
	int found = 0;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->t != bt)
			continue;
		if (!found)
			r = (struct span){ (uint64_t)b->idx, (uint64_t)b->idx, (uint64_t)b->socket, (uint64_t)b->socket };
		r.box_lo = (uint64_t)b->idx < r.box_lo ? (uint64_t)b->idx : r.box_lo;
		r.box_hi = (uint64_t)b->idx > r.box_hi ? (uint64_t)b->idx : r.box_hi;
		r.sock_lo = (uint64_t)b->socket < r.sock_lo ? (uint64_t)b->socket : r.sock_lo;
		r.sock_hi = (uint64_t)b->socket > r.sock_hi ? (uint64_t)b->socket : r.sock_hi;
		found = 1;
	}
	return r;
}

int qual_list(const uncore_t *u, const struct box_type *bt, const struct uc_event *ev, struct qual *out, int max)
{
	int n = 0;
	const struct ctl_layout *l = bt->lay;
	struct span sp = type_span(u, bt);
	n = add(out, n, max, (struct qual){ .kind = QK_SOCKET, .name = "socket", .min = sp.sock_lo, .max = sp.sock_hi,
					    .amax = (uint64_t)u->host.nsockets - 1,
					    .desc = "socket to count on (without it every socket is counted and summed)" });
	/* perf's -C N and PAPI's :cpu=N: the uncore of that CPU's socket; listed: the CPUs of the sockets
	 * that have the unit */
	int cpu_lo = -1, cpu_hi = -1;
	for (int c = 0; c < u->host.ncpus; c++)
		if (u->host.cpu_socket[c] >= (int)sp.sock_lo && u->host.cpu_socket[c] <= (int)sp.sock_hi) {
			cpu_lo = cpu_lo < 0 ? c : cpu_lo;
			cpu_hi = c;
		}
	if (cpu_lo >= 0)
		n = add(out, n, max, (struct qual){ .kind = QK_CPU, .name = "cpu", .min = (uint64_t)cpu_lo,
						    .max = (uint64_t)cpu_hi, .amax = (uint64_t)u->host.ncpus - 1,
						    .desc = "count on the socket of this CPU (as perf -C N and PAPI's :cpu=N)" });
	n = add(out, n, max, (struct qual){ .kind = QK_BOX, .name = "box", .min = sp.box_lo, .max = sp.box_hi,
					    .amax = bt->max_boxes > 0 ? (uint64_t)bt->max_boxes - 1 : 0,
					    .desc = "box of the unit to count on (without it every box is summed)" });
	if (ev && (ev->flags & (UC_EV_FIXED | UC_EV_FREERUN)))
		return n; /* a fixed or free-running counter has no control fields */
	for (int r = 0; r < CR_NROLES; r++) {
		const struct ctl_role_info *ri = &ctl_roles[r];
		if (!ri->qualifier || !ctl_has(l, (enum ctl_role)r) || (r == CR_EV_EXT && ev))
			continue;
		n = add(out, n, max, (struct qual){ .kind = QK_ROLE, .role = r, .name = ri->qualifier, .flag = ri->flag,
						    .max = ctl_max(l, (enum ctl_role)r), .desc = ri->desc });
	}
	if (qual_can_sample(bt))
		n = add(out, n, max, (struct qual){ .kind = QK_SAMPLE, .name = "sample", .min = 1,
						    .max = uc_width_mask(bt->width),
						    .desc = "sample: report every N events through the counter's overflow" });
	for (int i = 0; i < bt->nfields; i++) {
		const struct filter_field *f = &bt->fields[i];
		uint64_t d = 0;
		int rule = qual_filter_rule(ev, f->name, &d);
		/* a raw event may set any field; a catalog event the ones it uses, the thread filter (which
		 * the counter enables for itself) and fields of its own control word */
		if (ev && !rule && f->reg != UC_FIELD_CTL && !(ctl_has(l, CR_TID_EN) && !strcmp(f->name, "tid")))
			continue;
		n = add(out, n, max, (struct qual){ .kind = QK_FIELD, .field = f, .name = f->name,
						    .max = uc_width_mask(f->width), .required = rule == 'r',
						    .has_dflt = rule == 'd', .dflt = d, .desc = f->help });
	}
	return n;
}

int uncore_event_qualifiers_impl(const uncore_t *u, int idx, struct uncore_qualifier *out, int max)
{
	struct qual q[UC_MAX_QUALS];
	const struct uc_event *ev;
	const struct box_type *bt;
	int n;
	if (idx < 0 || idx >= u->nevents)
		return uc_err("no event %d", idx);
	ev = &u->events[idx];
	bt = platform_type_named(u->plat, ev->unit);
	if (!bt)
		return uc_err("%s belongs to unit '%s', which this platform does not have", ev->name, ev->unit);
	n = qual_list(u, bt, ev, q, UC_MAX_QUALS);
	int k = 0; /* what can be counted here: the kernel's uncore PMUs do not sample (the parser still knows
		    * sample=, to refuse it by name) */
	for (int i = 0; i < n && i < UC_MAX_QUALS; i++) {
		if (u->perf && q[i].kind == QK_SAMPLE)
			continue;
		if (k < max)
			out[k] = (struct uncore_qualifier){ .name = q[i].name, .flag = q[i].flag, .min = q[i].min,
							    .max = q[i].max, .required = q[i].required,
							    .has_default = q[i].has_dflt, .dflt = q[i].dflt, .desc = q[i].desc };
		k++;
	}
	return k;
}
