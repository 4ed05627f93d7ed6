/* uncore stat's metrics as the user names them (-M METRIC,... and --metric-group GROUP,...), for every mode of
 * the command (cli_stat.c, cli_pernode.c), and what they mean in the rows of --per-device and --per-job
 * (cli_perdev.c, cli_perjob.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Split on commas outside raw-event slashes; out (room for max) may be NULL to count.  s is cut up
 * only when out is given. */
static int split_events(char *s, char **out, int max)
{
	int n = 0, slash = 0;
	char *start = s;
	for (char *p = s;; p++) {
		if (*p == '/')
			slash = !slash;
		if ((*p == ',' && !slash) || !*p) {
			int end = !*p;
			if (out)
				*p = 0;
			if (p > start && out && n < max)
				out[n] = start;
			n += p > start;
			if (end)
				break;
			start = p + 1;
		}
	}
	return n;
}

/* Every item of a comma list, as a malloc'd array of pointers into s (NULL when out of memory). */
char **cli_split_list(char *s, int *n)
{
	*n = s ? split_events(s, NULL, 0) : 0;
	char **out = calloc((size_t)*n + 1, sizeof(*out));
	if (out && s)
		split_events(s, out, *n);
	return out;
}

/* Each metric -M names, then each metric of --metric-group's groups this machine has, to fn (from_group 1 for
 * the latter): 0; what fn returned where not 0; -2 already said (no such group).  names and groups are cut up. */
typedef int (*each_fn)(void *arg, uncore_t *u, const char *name, int from_group);
static int each_metric(uncore_t *u, char *names, char *groups, each_fn fn, void *arg)
{
	int n, rc = 0;
	char **list = cli_split_list(names, &n);
	for (int i = 0; list && i < n && !rc; i++)
		rc = fn(arg, u, list[i], 0);
	free(list);
	if (rc)
		return rc;
	if (!(list = cli_split_list(groups, &n)))
		return -1;
	for (int g = 0; g < n && !rc; g++) {
		int found = 0, nm = uncore_num_metrics(u);
		for (int i = 0; i < nm && !rc; i++) {
			struct uncore_metric_info mi;
			uncore_metric_info(u, i, &mi);
			if (strcmp(mi.group, list[g]) || uncore_metric_here(u, i) <= 0) /* of a unit this machine lacks */
				continue;
			found = 1;
			rc = fn(arg, u, mi.name, 1);
		}
		if (!found) {
			fprintf(stderr, "uncore: no metric group '%s' on %s (see 'uncore list --metrics')\n", list[g],
				uncore_platform_name(u));
			rc = -2;
		}
	}
	free(list);
	return rc;
}

static int add_to_session(void *s, uncore_t *u, const char *name, int from_group)
{
	(void)u, (void)from_group;
	return uncore_session_add_metric(s, name) < 0 ? -1 : 0;
}

/* -M names and --metric-group groups into session metrics; -1 with the library's reason. */
int cli_add_metrics(uncore_session_t *s, uncore_t *u, char *names, char *groups)
{
	return each_metric(u, names, groups, add_to_session, s);
}

/* The metrics a mode's rows give (cli_row_metrics' table), as one comma list on f */
static void list_table(FILE *f, const struct cli_row_metric *t, int nt)
{
	for (int i = 0; i < nt; i++)
		fprintf(f, "%s%s", i ? ", " : "", t[i].name);
}

struct row_pick {
	const char *mode, *per; /* "--per-device", "by device" */
	const struct cli_row_metric *t;
	int nt, *out, max, n, taken; /* taken: of the group being taken */
};

static int pick(void *arg, uncore_t *u, const char *name, int from_group)
{
	struct row_pick *p = arg;
	int k = 0;
	while (k < p->nt && strcmp(p->t[k].name, name))
		k++;
	if (k < p->nt) {
		p->taken++;
		for (int i = 0; i < p->n; i++)
			if (p->out[i] == k)
				return 0; /* named twice: one row */
		if (p->n < p->max)
			p->out[p->n++] = k;
		return 0;
	}
	if (from_group) /* a group's other metrics are of no row of this mode: left out, the group's own kept */
		return 0;
	int m = uncore_metric_find(u, name);
	if (m < 0 || uncore_metric_here(u, m) <= 0)
		fprintf(stderr, "uncore stat %s: -M %s: no such metric on %s (see 'uncore list --metrics')", p->mode, name,
			uncore_platform_name(u));
	else
		fprintf(stderr, "uncore stat %s: -M %s: not defined %s (none of a row's bytes)", p->mode, name, p->per);
	fprintf(stderr, "; %s gives ", p->mode);
	list_table(stderr, p->t, p->nt);
	fprintf(stderr, "\n");
	return -2;
}

int cli_row_metrics(uncore_t *u, const char *mode, const char *per, const struct cli_row_metric *table, int ntable,
		    char *names, char *groups, int *out, int max)
{
	struct row_pick p = { .mode = mode, .per = per, .t = table, .nt = ntable, .out = out, .max = max };
	int ng, rc = each_metric(u, names, NULL, pick, &p);
	if (rc)
		return rc;
	char **list = cli_split_list(groups, &ng);
	if (!list)
		return -1;
	for (int g = 0; g < ng && !rc; g++) { /* group by group: one none of whose metrics has a row is refused */
		p.taken = 0;
		if (!(rc = each_metric(u, NULL, list[g], pick, &p)) && !p.taken) {
			fprintf(stderr, "uncore stat %s: --metric-group %s: no metric of it is defined %s; %s gives ", mode,
				list[g], per, mode);
			list_table(stderr, table, ntable);
			fprintf(stderr, "\n");
			rc = -2;
		}
	}
	free(list);
	return rc ? rc : p.n;
}

double cli_row_value(const struct cli_row_metric *m, const struct cli_row_bytes *b)
{
	double v = m->of == CLI_MEM_READ ? b->mem_read : m->of == CLI_MEM_WRITE ? b->mem_write
		 : m->of == CLI_MEM_TOTAL ? b->mem_read + b->mem_write : m->of == CLI_DEV_WRITE ? b->dev_write : b->dev_read;
	return m->rate ? (b->seconds > 0 ? v / b->seconds : NAN) : v;
}

void cli_row_text(char *buf, size_t len, const struct cli_row_metric *m, double v)
{
	if (isnan(v))
		snprintf(buf, len, "%-16s %14s", m->name, "-");
	else if (m->rate)
		snprintf(buf, len, "%-16s %14.4f GB/s", m->name, v / 1e9);
	else
		snprintf(buf, len, "%-16s %14.0f B", m->name, v);
}

void cli_row_json(const struct cli_row_metric *m, double v)
{
	printf("\"metric\": \"%s\", \"unit\": \"%s\", \"value\": ", m->name, m->rate ? "B/s" : "B");
	printf(isnan(v) ? "null" : "%.17g", v);
}
