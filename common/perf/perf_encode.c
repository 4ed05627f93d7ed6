/*
 * An encoded event as the kernel's perf attr words, through the PMU's format files: the control word
 * the hardware would get (less the bits the kernel owns: enable, reset, overflow) is handed to the
 * formats that name its bits, and a filter qualifier goes to the format of its name.  A bit or a
 * qualifier no format names is refused: the kernel would drop it without an error; so is one its event mask
 * leaves out or its 32-bit write loses (perf_reach.c).
 */
#include <stdio.h>
#include <string.h>
#include "perf.h"
#include "perf_pmus.h"
#include "util/error.h"

#define UNCORE_FIXED_EVENT 0xff /* the kernel's config for a box's fixed counter (uncore.h) */

/* The value a format takes from a word: its bits gathered lowest first (the inverse of a scatter). */
static uint64_t gather(const struct perf_format *f, uint64_t word, uint64_t *bits)
{
	uint64_t v = 0;
	int pos = 0;
	for (int i = 0; i < f->nranges && pos < 64; i++) {
		int n = f->r[i].hi - f->r[i].lo + 1;
		uint64_t m = uc_width_mask(n);
		v |= ((word >> f->r[i].lo) & m) << pos;
		*bits |= m << f->r[i].lo;
		pos += n;
	}
	return v;
}

static int put_named(const struct perf_pmu *p, const char *name, uint64_t v, uint64_t cfg[3])
{
	const struct perf_format *f = perf_pmu_format(p, name);
	if (!f)
		return uc_err("the kernel's %s has no '%s' format", p->name, name);
	return perf_format_put(name, f, v, cfg);
}

static int control_word(const struct perf_pmu *p, const struct box_type *t, uint64_t ctl, uint64_t cfg[3])
{
	const struct ctl_layout *l = t->lay;
	uint64_t want = ctl & ~(l->enable | ctl_mask(l, CR_RST) | ctl_mask(l, CR_OV_EN)), covered = 0;
	for (int i = 0; i < p->nfmt; i++) {
		const struct perf_format *f = &p->fmt[i].f;
		if (f->word)
			continue;
		uint64_t v = gather(f, want, &covered);
		if (v && perf_format_put(p->fmt[i].name, f, v, cfg))
			return -1;
	}
	char lost[400];
	if (!(want & ~covered) && perf_lost_bits(t, p, want, lost, sizeof(lost)))
		return uc_err("the kernel's %s drops %s, so its counter would count another event: count it with the "
			      "direct backend", p->name, lost);
	if (want & ~covered) {
		char what[160];
		perf_name_bits(t, want & ~covered, what, sizeof(what));
		return uc_err("the kernel's %s has no format for %s: it would drop those bits, so the event cannot be "
			      "counted through perf", p->name, what);
	}
	return 0;
}

/* Filter qualifiers, each to its format: filter_<name> (CBo, PCU bands) or <name> (QPI match/mask). */
static int filters(const struct perf_pmu *p, const struct box_type *t, const struct encoded *e, uint64_t cfg[3])
{
	for (int i = 0; i < t->nfields; i++) {
		const struct filter_field *fd = &t->fields[i];
		if (fd->reg == UC_FIELD_CTL)
			continue;
		uint64_t m = uc_width_mask(fd->width) << fd->lo;
		if (!(e->fmask[fd->reg] & m))
			continue;
		uint64_t v = (e->fval[fd->reg] & m) >> fd->lo;
		char name[48];
		snprintf(name, sizeof(name), "filter_%s", fd->name);
		const struct perf_format *f = perf_pmu_format(p, name);
		if (!f)
			f = perf_pmu_format(p, fd->name);
		if (!f && !v)
			continue; /* held at 0 (Skylake-SP's CHA link): config1 has 0 there without a format */
		if (!f)
			return uc_err("the kernel's %s has no format for the '%s' qualifier (no %s or %s file): the kernel "
				      "does not pass that filter, so count it with the direct backend", p->name, fd->name,
				      name, fd->name);
		if (perf_format_put(fd->name, f, v, cfg))
			return -1;
	}
	return 0;
}

int perf_encode(const uncore_t *u, const struct box *b, const struct encoded *e, int ctr, int fr, uint64_t cfg[3])
{
	const struct perf_sys *ps = u->perf;
	cfg[0] = cfg[1] = cfg[2] = 0;
	if (ctr == UC_CTR_FREERUN) {
		if (b->fr_pmu < 0) /* Linux's generic discovery driver (no model entry) registers none */
			return uc_err("%s: the kernel has no free-running PMU for %s (uncore_%s_free_running_N; a kernel "
				      "without this CPU's uncore entry, on the generic discovery driver, has none): count it "
				      "with the direct backend", e->name, b->t->name, b->t->perf ? b->t->perf : b->t->name);
		const struct perf_pmu *p = &ps->pmus[b->fr_pmu];
		return put_named(p, "event", UNCORE_FIXED_EVENT, cfg) || put_named(p, "umask", b->t->fr[fr].perf_umask, cfg)
			       ? uc_err_prefix("%s: ", e->name)
			       : 0;
	}
	const struct perf_pmu *p = &ps->pmus[b->pmu];
	/* a type the driver does not name has the generic driver's setup, without a fixed counter: config 0xff
	 * is EINVAL there (uncore.c uncore_pmu_event_init: no fixed_ctl) */
	if (ctr == UC_CTR_FIXED && !strncmp(p->name, "uncore_type_", 12))
		return uc_err("%s: the kernel's %s is a type its driver does not name, which has no fixed counter (Linux "
			      "refuses config 0xff there): count it with the direct backend", e->name, p->name);
	if (ctr == UC_CTR_FIXED)
		return put_named(p, "event", UNCORE_FIXED_EVENT, cfg) ? uc_err_prefix("%s: ", e->name) : 0;
	if (control_word(p, b->t, e->ctl, cfg) || filters(p, b->t, e, cfg))
		return uc_err_prefix("%s: ", e->name);
	return 0;
}
