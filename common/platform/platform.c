/* Platform registry and register addressing of a box. */
#include <stdio.h>
#include <string.h>
#include "platform.h"

void platform_supported(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; uc_platforms[i] && n < len; i++) {
		const struct platform_desc *p = uc_platforms[i];
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", p->desc);
		for (int m = 0; p->models && p->models[m] && n < len; m++)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", m ? "/" : " model ", p->models[m]);
	}
}

const struct platform_desc *platform_by_name(const char *name)
{
	for (int i = 0; uc_platforms[i]; i++)
		if (!strcmp(uc_platforms[i]->name, name))
			return uc_platforms[i];
	return NULL;
}

const struct box_type *platform_type_named(const struct platform_desc *p, const char *name)
{
	for (int t = 0; t < p->ntypes; t++)
		if (!strcmp(p->types[t]->name, name))
			return p->types[t];
	return NULL;
}

void uc_catalog_event(const struct uc_catalog *c, int i, struct uc_event *out)
{
	const struct uc_event_row *r = &c->rows[i];
	*out = (struct uc_event){ .name = c->pool + r->name, .unit = c->pool + r->unit, .code = r->code,
				  .umask = r->umask, .ext = r->ext, .ctr_mask = r->ctr_mask, .maxinc = r->maxinc,
				  .flags = r->flags, .umext = r->umext, .filters = c->pool + r->filters,
				  .desc = c->pool + r->desc, .src = c->pool + r->src };
}

const struct uc_generic_catalog *generic_catalog(const char *dir)
{
	for (int i = 0; dir && uc_generic_catalogs[i].dir; i++)
		if (!strcmp(uc_generic_catalogs[i].dir, dir))
			return &uc_generic_catalogs[i];
	return NULL;
}

const struct uc_mapfile_row *mapfile_row(int family, int model, int stepping)
{
	for (int i = 0; i < uc_mapfile_n; i++)
		if (uc_mapfile[i].family == family && uc_mapfile[i].model == model && stepping >= 0 && stepping < 16 &&
		    (uc_mapfile[i].steppings >> stepping & 1))
			return &uc_mapfile[i];
	return NULL;
}

const struct platform_desc *platform_by_cpu(int family, int model, int stepping)
{
	const struct uc_mapfile_row *row = mapfile_row(family, model, stepping);
	if (row) /* the mapfile knows the CPU: its platform, or none built in */
		return platform_by_name(row->platform);
	for (int i = 0; uc_platforms[i]; i++) {
		const struct platform_desc *p = uc_platforms[i];
		if (p->family != family)
			continue;
		if (!p->models) /* every model of the family */
			return p;
		for (const int *m = p->models; *m; m++)
			if (*m == model)
				return p;
	}
	return NULL;
}

const struct iio_layout *platform_iio_layout(const char *vendor, int family, int model, int stepping)
{
	const struct platform_desc *p = strcmp(vendor, "GenuineIntel") ? NULL : platform_by_cpu(family, model, stepping);
	for (const int *m = p && p->iio ? p->iio->models : NULL; m && *m; m++)
		if (*m == model)
			return p->iio;
	return NULL;
}

void platform_cpu_match(const char *vendor, int family, int model, int stepping, char *buf, size_t len)
{
	const struct uc_mapfile_row *row = mapfile_row(family, model, stepping);
	const struct platform_desc *p = platform_by_cpu(family, model, stepping);
	char id[64], what[96];
	/* perf's spelling of the CPU id: decimal family, hex model and stepping */
	snprintf(id, sizeof(id), "%s-%d-%X-%X", vendor, family, (unsigned)model, (unsigned)stepping);
	if (p)
		snprintf(what, sizeof(what), "platform %s", p->name);
	else if (row && row->platform[0])
		snprintf(what, sizeof(what), "platform %s, not built in", row->platform);
	else
		snprintf(what, sizeof(what), "no platform of ours");
	if (row)
		snprintf(buf, len, "cpu %s: mapfile row %s (%s %s): %s", id, row->dir, row->file, row->version, what);
	else
		snprintf(buf, len, "cpu %s: not in the perfmon mapfile: %s", id, what);
}

const struct box_ctl_bits box_ctl_snbep = { &bc_style_frz_en, .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8, .frz_en = 1u << 16 };

uint64_t box_ctl_addr(const struct box *b, int ctr) { return b->r.ctl0 + (uint64_t)ctr * b->r.ctl_stride; }

uint64_t regs_ctr_addr(const struct box_type *t, const struct box_regs *r, int ctr)
{
	return t->ctr_offs ? r->rel + t->ctr_offs[ctr] : r->ctr0 + (uint64_t)ctr * r->ctr_stride;
}

uint64_t box_ctr_addr(const struct box *b, int ctr) { return regs_ctr_addr(b->t, &b->r, ctr); }

uint64_t ctl_event(const struct box_type *t, unsigned code, unsigned umask)
{
	return ctl_put(t->lay, CR_EVENT, code) | ctl_put(t->lay, CR_UMASK, umask);
}

int box_ctl_bytes(const struct box_type *t) { return t->space == UC_MSR ? 8 : t->ctl_bytes ? t->ctl_bytes : 4; }

/* The bits of a counter control word software may set: the layout's and the unit's own fields', within the
 * register (a 32-bit control takes none above bit 31, whatever its format says: Diamond Rapids' iMC thresh
 * runs to bit 32, Linux 7.0 dmr_imc_uncore_formats_attr, in a 32-bit MMIO register). */
uint64_t box_ctl_valid(const struct box_type *t)
{
	uint64_t m = ctl_valid(t->lay);
	for (int i = 0; i < t->nfields; i++)
		if (t->fields[i].reg == UC_FIELD_CTL)
			m |= uc_width_mask(t->fields[i].width) << t->fields[i].lo;
	return m & uc_width_mask(8 * box_ctl_bytes(t));
}

void box_regs_static(const struct box_type *t, int idx, struct box_regs *r)
{
	r->rel = t->space != UC_MSR ? 0 : t->box_offs ? t->box_offs[idx] : (uint64_t)idx * t->box_stride;
	r->box_ctl = r->rel + t->box_ctl;
	r->ctl0 = r->rel + t->ctl0;
	r->ctr0 = r->rel + t->ctr0;
	r->status = t->status ? r->rel + t->status : 0;
	r->ctl_stride = t->ctl_stride;
	r->ctr_stride = t->ctr_stride;
	r->nctr = t->nctr;
	r->width = t->width;
}

const struct uc_event *catalog_unit_slice(const struct uc_event *all, int n, const char *unit, int *cnt)
{
	int i = 0, j;
	while (i < n && strcmp(all[i].unit, unit))
		i++;
	for (j = i; j < n && !strcmp(all[j].unit, unit); j++)
		;
	*cnt = j - i;
	return all + i;
}
