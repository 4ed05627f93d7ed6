/*
 * The uncore clock's limits as gauges (doc/prometheus.md): uncore_frequency_limit_min_hertz and _max_hertz, the
 * limits the kernel found at boot (uncore_frequency_initial_limit_*_hertz) and the current clock
 * (uncore_frequency_current_hertz, root's alone to read), per die or per TPMI power domain and fabric cluster
 * (uncore_freq_domains), read at every read, with the default set or --groups clock (uncore_freq_selected).
 * Labels: entry (the kernel's directory: unique on the node),
 * socket, and die or domain and cluster where known.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

#define UE_UFREQ_MAX 256

struct ue_ufreq {
	struct uncore_freq_domain d[UE_UFREQ_MAX];
	int n;
	int said; /* why none can be read was logged */
};

static const struct {
	const char *name, *help;
	size_t off;
} fams[] = {
	{ "uncore_frequency_limit_min_hertz", "The uncore clock's lower limit now, per die or cluster (intel_uncore_frequency "
	  "min_freq_khz, else MSR 0x620)", offsetof(struct uncore_freq_domain, min_hz) },
	{ "uncore_frequency_limit_max_hertz", "The uncore clock's upper limit now, per die or cluster (intel_uncore_frequency "
	  "max_freq_khz, else MSR 0x620)", offsetof(struct uncore_freq_domain, max_hz) },
	{ "uncore_frequency_initial_limit_min_hertz", "The uncore clock's lower limit the kernel found at boot (the BIOS's: "
	  "initial_min_freq_khz)", offsetof(struct uncore_freq_domain, initial_min_hz) },
	{ "uncore_frequency_initial_limit_max_hertz", "The uncore clock's upper limit the kernel found at boot (the BIOS's: "
	  "initial_max_freq_khz)", offsetof(struct uncore_freq_domain, initial_max_hz) },
	{ "uncore_frequency_current_hertz", "The uncore clock now, per die or cluster (current_freq_khz: root's alone to "
	  "read; else MSR 0x621)", offsetof(struct uncore_freq_domain, current_hz) },
};

int ue_ufreq_plan(struct ue_state *st, const struct uncore_selection *sel)
{
	if (uncore_freq_selected(sel) && !(st->ufreq = calloc(1, sizeof(*st->ufreq))))
		return -1;
	return 0;
}

void ue_ufreq_read(struct ue_state *st)
{
	struct ue_ufreq *f = st->ufreq;
	if (!f)
		return; /* not asked for */
	int n = uncore_freq_read(st->u, f->d, UE_UFREQ_MAX); /* (the entries found when it planned) */
	if (n < 0 && !f->said++)
		ue_log("the uncore clock's limits are not exported: %s", uncore_error());
	f->n = n < 0 ? 0 : n < UE_UFREQ_MAX ? n : UE_UFREQ_MAX;
}

void ue_ufreq_free(struct ue_state *st)
{
	free(st->ufreq);
	st->ufreq = NULL;
}

int ue_ufreq_family(int i, struct ue_family *f)
{
	if (i < 0 || i >= (int)(sizeof(fams) / sizeof(fams[0])))
		return -1;
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", fams[i].name);
	snprintf(f->help, sizeof(f->help), "%s", fams[i].help);
	f->unit = "hertz";
	return 0;
}

int ue_ufreq_sample(const struct ue_state *st, int fam, int i, char *labels, size_t len, double *v)
{
	const struct ue_ufreq *f = st->ufreq;
	if (!f || i >= f->n)
		return 1;
	const struct uncore_freq_domain *d = &f->d[i];
	*v = *(const double *)(const void *)((const char *)d + fams[fam].off);
	if (isnan(*v))
		return -1;
	int n = snprintf(labels, len, "entry=\"%s\"", d->name);
	if (d->socket >= 0)
		n += snprintf(labels + n, len - (size_t)n, ",socket=\"%d\"", d->socket);
	if (d->die >= 0)
		snprintf(labels + n, len - (size_t)n, ",die=\"%d\"", d->die);
	else if (d->domain >= 0)
		snprintf(labels + n, len - (size_t)n, ",domain=\"%d\",cluster=\"%d\"", d->domain, d->cluster);
	return 0;
}
