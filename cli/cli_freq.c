/* uncore freq: the uncore clock's limits and current clock per die or cluster (uncore_freq_domains). */
#include <math.h>
#include <stdio.h>
#include "cli.h"

#define MAX_DOMAINS 256

/* MHz, or "-" where not known */
static const char *mhz(double hz, char *buf, size_t len)
{
	if (isnan(hz))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", hz / 1e6);
	return buf;
}

static void json_mhz(const char *key, double hz)
{
	if (isnan(hz))
		printf(",\"%s\":null", key);
	else
		printf(",\"%s\":%.0f", key, hz / 1e6);
}

/* "socket 0 die 1", "socket 0 domain 2 cluster 0", "socket ?" where the ids are root's alone */
static void where(const struct uncore_freq_domain *d, char *buf, size_t len)
{
	int n = d->socket >= 0 ? snprintf(buf, len, "socket %d", d->socket) : snprintf(buf, len, "socket ?");
	if (d->die >= 0)
		snprintf(buf + n, len - (size_t)n, " die %d", d->die);
	else if (d->domain >= 0)
		snprintf(buf + n, len - (size_t)n, " domain %d cluster %d", d->domain, d->cluster);
}

int cmd_freq(int argc, char **argv)
{
	static struct uncore_freq_domain d[MAX_DOMAINS];
	uncore_t *u;
	int json;
	if (cli_json_args("freq", argc, argv, &json))
		return 2;
	if (cli_open(&u))
		return 1;
	int n = uncore_freq_domains(u, d, MAX_DOMAINS);
	if (n < 0) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		uncore_close(u);
		return 1;
	}
	if (!json && n)
		printf("# uncore clock limits from %s, in MHz\n%-18s %-26s %6s %6s %12s %12s %8s\n", d[0].source, "# entry",
		       "where", "min", "max", "initial_min", "initial_max", "current");
	for (int i = 0; i < n && i < MAX_DOMAINS; i++) {
		char w[64], a[16], b[16], c[16], e[16], f[16];
		if (json) {
			printf("{\"entry\":\"%s\",\"socket\":%d,\"die\":%d,\"domain\":%d,\"cluster\":%d", d[i].name, d[i].socket,
			       d[i].die, d[i].domain, d[i].cluster);
			json_mhz("min_mhz", d[i].min_hz);
			json_mhz("max_mhz", d[i].max_hz);
			json_mhz("initial_min_mhz", d[i].initial_min_hz);
			json_mhz("initial_max_mhz", d[i].initial_max_hz);
			json_mhz("current_mhz", d[i].current_hz);
			printf(",\"source\":\"%s\"}\n", d[i].source);
			continue;
		}
		where(&d[i], w, sizeof(w));
		printf("%-18s %-26s %6s %6s %12s %12s %8s\n", d[i].name, w, mhz(d[i].min_hz, a, sizeof(a)),
		       mhz(d[i].max_hz, b, sizeof(b)), mhz(d[i].initial_min_hz, c, sizeof(c)),
		       mhz(d[i].initial_max_hz, e, sizeof(e)), mhz(d[i].current_hz, f, sizeof(f)));
	}
	if (!json && n && isnan(d[0].current_hz) && d[0].source[0] == 'i')
		printf("# current: current_freq_khz is readable by root alone\n");
	uncore_close(u);
	return 0;
}
