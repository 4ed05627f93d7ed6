/* uncore stat's metrics as the user names them (-M METRIC,... and --metric-group GROUP,...), for every mode of
 * the command (cli_stat.c, cli_pernode.c). */
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

static int groups_to_metrics(uncore_session_t *s, uncore_t *u, char **list, int n)
{
	for (int g = 0; g < n; g++) {
		int found = 0, nm = uncore_num_metrics(u);
		for (int i = 0; i < nm; i++) {
			struct uncore_metric_info mi;
			uncore_metric_info(u, i, &mi);
			if (strcmp(mi.group, list[g]) || uncore_metric_here(u, i) <= 0) /* of a unit this machine lacks */
				continue;
			found = 1;
			if (uncore_session_add_metric(s, mi.name) < 0)
				return -1;
		}
		if (!found) {
			fprintf(stderr, "uncore: no metric group '%s' on %s (see 'uncore list --metrics')\n", list[g],
				uncore_platform_name(u));
			return -2;
		}
	}
	return 0;
}

/* -M names and --metric-group groups into session metrics; -1 with the library's reason. */
int cli_add_metrics(uncore_session_t *s, uncore_t *u, char *names, char *groups)
{
	int n, rc = 0;
	char **list = cli_split_list(names, &n);
	for (int i = 0; list && i < n && !rc; i++)
		if (uncore_session_add_metric(s, list[i]) < 0)
			rc = -1;
	free(list);
	if (rc)
		return rc;
	if (!(list = cli_split_list(groups, &n)))
		return -1;
	rc = groups_to_metrics(s, u, list, n);
	free(list);
	return rc;
}
