/* Platform registry and register addressing of a box. */
#include <string.h>
#include "platform.h"

const struct platform_desc *const uc_platforms[] = { &platform_snbep, NULL };

const struct platform_desc *platform_by_name(const char *name)
{
	for (int i = 0; uc_platforms[i]; i++)
		if (!strcmp(uc_platforms[i]->name, name))
			return uc_platforms[i];
	return NULL;
}

const struct platform_desc *platform_by_cpu(int family, int model)
{
	for (int i = 0; uc_platforms[i]; i++) {
		const struct platform_desc *p = uc_platforms[i];
		if (p->family != family)
			continue;
		for (const int *m = p->models; *m; m++)
			if (*m == model)
				return p;
	}
	return NULL;
}

uint32_t box_ctl_addr(const struct box *b, int ctr)
{
	return b->msr_off + b->t->ctl0 + (uint32_t)ctr * b->t->ctl_stride;
}

uint32_t box_ctr_addr(const struct box *b, int ctr)
{
	return b->msr_off + b->t->ctr0 + (uint32_t)ctr * b->t->ctr_stride;
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
