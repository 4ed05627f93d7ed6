/* Energy in 'uncore stat' (doc/energy.md): the energy metrics taken out of -M and --metric-group energy, read
 * beside the session (sampled between its reads, so no wrap goes unseen) and printed as its metrics are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Drop from the comma list s the items pick() takes, setting their bits in *want: how many were taken. */
static int take(char *s, int (*pick)(const char *item, unsigned *want), unsigned *want)
{
	int n = 0;
	char *w = s, *item = s;
	if (!s)
		return 0;
	for (char *p = s;; p++) {
		if (*p != ',' && *p)
			continue;
		int end = !*p;
		*p = 0;
		if (*item && pick(item, want))
			n++;
		else if (*item) {
			size_t len = strlen(item);
			if (w != s)
				*w++ = ',';
			memmove(w, item, len);
			w += len;
		}
		if (end)
			break;
		item = p + 1;
	}
	*w = 0;
	return n;
}

static int pick(const char *item, unsigned *want, int group)
{
	unsigned bits = uncore_energy_named(item, group);
	*want |= bits;
	return bits != 0;
}
static int pick_metric(const char *item, unsigned *want) { return pick(item, want, 0); }
static int pick_group(const char *item, unsigned *want) { return pick(item, want, 1); }

int cli_energy_take(char *metrics, char *groups, struct cli_energy *ce)
{
	return take(metrics, pick_metric, &ce->want) + take(groups, pick_group, &ce->want);
}

int cli_energy_start(uncore_t *u, struct cli_energy *ce, double sample_s)
{
	if (!ce->want)
		return 0;
	if (uncore_energy_new(u, NULL, &ce->e) || uncore_energy_start(ce->e, (uint64_t)(sample_s * 1e9)))
		return -1;
	/* a metric named whose domain no socket has (psys outside SPR and EMR) is refused, not left out in silence */
	struct uncore_energy_metric em;
	for (int m = 0; !uncore_energy_metric(m, &em); m++) {
		int any = 0;
		for (int sock = 0; (ce->want & (1u << m)) && sock < uncore_num_sockets(u); sock++)
			any |= uncore_energy_has(ce->e, sock, em.domain) > 0;
		if ((ce->want & (1u << m)) && !any) {
			fprintf(stderr, "uncore: %s: no socket of this node has RAPL's %s domain (doc/energy.md lists each "
				"part's domains)\n", em.name, uncore_energy_domain_name(em.domain));
			return -2;
		}
	}
	return 0;
}

int cli_energy_sample(struct cli_energy *ce) { return ce->e ? uncore_energy_sample(ce->e) : 0; }
int cli_energy_read(struct cli_energy *ce) { return ce->e ? uncore_energy_read(ce->e) : 0; }

void cli_energy_print(const struct out *o, const struct cli_energy *ce, uncore_t *u, int window, double t)
{
	struct uncore_energy_metric em;
	for (int m = 0; ce->e && !uncore_energy_metric(m, &em); m++)
		for (int sock = 0; (ce->want & (1u << m)) && sock < uncore_num_sockets(u); sock++) {
			double v;
			if (!uncore_energy_has(ce->e, sock, em.domain) ||
			    uncore_energy_metric_value(ce->e, m, sock, window, &v) < 0)
				continue;
			struct out_rec r = { .interval = window == UNCORE_LAST_INTERVAL, .t = t, .socket = sock, .box = -1,
					     .box_label = "", .die = -1, .name = em.name, .metric = 1, .value = v,
					     .unit = em.unit };
			out_record(o, &r);
		}
}

double cli_energy_elapsed(const struct cli_energy *ce)
{
	return ce->e ? uncore_energy_seconds(ce->e, UNCORE_SINCE_START) : 0;
}

void cli_energy_free(struct cli_energy *ce)
{
	uncore_energy_free(ce->e);
	ce->e = NULL;
}
