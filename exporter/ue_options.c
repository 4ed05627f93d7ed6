/*
 * Options: the command line, and the file --config names (one option a line, as on the command line
 * without its dashes: "groups memory llc", "# ..." a comment), read first so that the command line has the
 * last word; SIGHUP reads the file again.  The selection options are the collectd plugin's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>
#include "ue.h"

int ue_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

const char *ue_usage(void)
{
	return "usage: uncore-exporter [OPTION...]\n"
	       "Serves the uncore's metrics to Prometheus at http://LISTEN/metrics (text 0.0.4, or OpenMetrics\n"
	       "when the scraper asks for it).\n"
	       "  --listen HOST:PORT   where to listen (default 127.0.0.1:9739; port 0: any free port)\n"
	       "  --listen unix:PATH   a unix socket too (mode 0660: only the exporter's user and group may connect),\n"
	       "                       the local scraper's way in that no other user can take; --reserved-connections\n"
	       "                       connections there (given alone: the only place it listens)\n"
	       "  --backend B          auto, direct, perf, sim:PLATFORM[,...], perf+sim:PLATFORM (default: auto)\n"
	       "  --interval S         seconds between reads, 0.01 to 60 (default 1); a scrape gets the last read\n"
	       "  --metrics M[,M...]   metrics to export (uncore list --metrics)\n"
	       "  --groups G[,G...]    metric groups (default: memory llc interconnect clock, within 1024 counters)\n"
	       "  --events SPEC        a raw event, exported as uncore_event_total{event=\"SPEC\"} (repeatable)\n"
	       "  --per-box all|U[,U]  each box of these units too (imc, hbm boxes as channel=\"N\")\n"
	       "  --sockets LIST       only these sockets (\"0\", \"0-1\", \"0,2\")\n"
	       "  --per-job            each job's memory traffic and its devices' DMA\n"
	       "                       (uncore_job_memory_*_bytes_total, uncore_job_device_*_bytes_total{job_id=...})\n"
	       "  --force              take over boxes another agent counts on\n"
	       "  --max-connections N  HTTP connections at once (default 4096)\n"
	       "  --max-connections-per-ip N  of them from one client: an address, 127.0.0.0/8 or an IPv6 /64\n"
	       "                       (default 16; 0: no limit)\n"
	       "  --allow CIDR[,CIDR]  the scrapers (e.g. 10.1.2.3/32): --reserved-connections are theirs alone,\n"
	       "                       and no per-client limit (repeatable)\n"
	       "  --reserved-connections N  connections only --allow's addresses may use (default 16)\n"
	       "  --request-timeout S  seconds each request has, from the connection's opening or last answer\n"
	       "                       to the end of its answer; a later one is closed (default 10)\n"
	       "  --web.config.file FILE  TLS and basic authentication: Prometheus exporter-toolkit's web\n"
	       "                       configuration (tls_server_config, basic_auth_users), read at start\n"
	       "  --no-timestamps      samples without their read time (doc/prometheus.md: why they carry it)\n"
	       "  --config FILE        options from FILE, one a line without the dashes; SIGHUP reads it again\n"
	       "  --check-config       check the options against this machine, print what would be exported, exit\n"
	       "  --help, --version\n";
}

static int list(const char *opt, const char *v, char **out, int *n, int split, char *err, size_t len)
{
	char *copy = strdup(v), *save = NULL;
	if (!copy)
		return ue_fail(err, len, "out of memory");
	for (char *w = split ? strtok_r(copy, ", ", &save) : copy; w; w = split ? strtok_r(NULL, ", ", &save) : NULL) {
		if (!w[0])
			continue;
		if (*n >= UE_MAX_LIST) {
			free(copy);
			return ue_fail(err, len, "%s: more than %d names", opt, UE_MAX_LIST);
		}
		if (!(out[(*n)++] = strdup(w))) {
			free(copy);
			return ue_fail(err, len, "out of memory");
		}
	}
	free(copy);
	return 0;
}

/* "0", "0-1", "0,2" */
static int sockets(const char *v, unsigned *mask, char *err, size_t len)
{
	const char *p = v;
	*mask = 0;
	while (*p) {
		char *end;
		errno = 0;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || errno)
			break;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				break;
		}
		if (lo < 0 || hi < lo || hi > 31)
			return ue_fail(err, len, "--sockets '%s': sockets go from 0 to 31", v);
		for (long s = lo; s <= hi; s++)
			*mask |= 1u << s;
		if (!*end)
			return 0;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return ue_fail(err, len, "--sockets '%s' is not a socket list (e.g. \"0\", \"0-1\" or \"0,2\")", v);
}

/* a whole number from lo to hi */
static int count(const char *opt, const char *v, unsigned lo, unsigned hi, unsigned *out, char *err, size_t len)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (*end || end == v || errno || v[0] == '-' || n < lo || n > hi)
		return ue_fail(err, len, "--%s '%s': give a whole number from %u to %u", opt, v, lo, hi);
	*out = (unsigned)n;
	return 0;
}

/* seconds from lo to hi */
static int seconds(const char *opt, const char *v, double lo, double hi, double *out, char *err, size_t len)
{
	char *end;
	double s = strtod(v, &end);
	if (*end || end == v || !(s >= lo && s <= hi))
		return ue_fail(err, len, "--%s '%s': give seconds from %g to %g", opt, v, lo, hi);
	*out = s;
	return 0;
}

/* "A.B.C.D[/N]" or "V6[/N]" (no prefix: the one address), each of a comma or blank separated list */
static int cidrs(const char *v, struct ue_config *c, char *err, size_t len)
{
	char copy[1024], *save = NULL;
	if (strlen(v) >= sizeof(copy))
		return ue_fail(err, len, "--allow: the list is longer than %zu characters", sizeof(copy) - 1);
	strcpy(copy, v);
	for (char *w = strtok_r(copy, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		struct ue_cidr *b = &c->allow[c->nallow];
		char *slash = strchr(w, '/'), *end = NULL;
		if (c->nallow >= UE_MAX_LIST)
			return ue_fail(err, len, "--allow: more than %d blocks", UE_MAX_LIST);
		if (slash)
			*slash = 0;
		memset(b, 0, sizeof(*b));
		b->family = strchr(w, ':') ? AF_INET6 : AF_INET;
		unsigned max = b->family == AF_INET ? 32 : 128;
		unsigned long n = max;
		if (slash) {
			errno = 0;
			n = strtoul(slash + 1, &end, 10);
			if (!slash[1] || *end || errno || slash[1] == '-' || slash[1] == '+' || n > max)
				return ue_fail(err, len, "--allow '%s/%s': the prefix length goes from 0 to %u", w, slash + 1, max);
		}
		if (inet_pton(b->family, w, b->addr) != 1)
			return ue_fail(err, len, "--allow '%s': not an IPv4 or IPv6 address (give e.g. 10.1.2.3/32 or fd00::/64)", w);
		b->prefix = (unsigned)n;
		c->nallow++;
	}
	return 0;
}

static int set_string(char **dst, const char *v, char *err, size_t len)
{
	free(*dst);
	if (!(*dst = strdup(v)))
		return ue_fail(err, len, "out of memory");
	return 0;
}

static const char *const valued[] = { "listen", "backend", "interval", "metrics", "groups", "events",
				      "per-box", "sockets", "config", "max-connections", "max-connections-per-ip",
				      "request-timeout", "allow", "reserved-connections", "web.config.file" };

static int is_valued(const char *name)
{
	for (size_t i = 0; i < sizeof(valued) / sizeof(*valued); i++)
		if (!strcmp(name, valued[i]))
			return 1;
	return 0;
}

/* One option (name without dashes) with its value (NULL for a flag). */
static int option(struct ue_config *c, const char *name, const char *v, char *err, size_t len)
{
	static const char *const flags[] = { "force", "per-job", "no-timestamps", "check-config" };
	int needs = is_valued(name), known = 0;
	for (size_t i = 0; i < sizeof(flags) / sizeof(*flags); i++)
		known |= !strcmp(name, flags[i]);
	if (!needs && !known)
		return ue_fail(err, len, "unknown option --%s (uncore-exporter --help lists them)", name);
	if (needs && (!v || !v[0]))
		return ue_fail(err, len, "--%s needs a value", name);
	if (!needs && v)
		return ue_fail(err, len, "--%s takes no value", name);
	if (!strcmp(name, "listen") && !strncmp(v, "unix:", 5)) {
		/* the socket's file: absolute, and within sun_path (108 bytes, unix(7)) */
		if (v[5] != '/' || v[strlen(v) - 1] == '/')
			return ue_fail(err, len, "--listen '%s': give the socket's absolute path, e.g. unix:/run/uncore-exporter/metrics.sock", v);
		if (strlen(v + 5) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return ue_fail(err, len, "--listen '%.60s...': a unix socket's path has at most %zu characters", v,
				       sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		return set_string(&c->listen_unix, v + 5, err, len);
	}
	if (!strcmp(name, "listen"))
		return set_string(&c->listen, v, err, len);
	if (!strcmp(name, "backend"))
		return set_string(&c->backend, v, err, len);
	if (!strcmp(name, "config"))
		return set_string(&c->config, v, err, len);
	if (!strcmp(name, "web.config.file"))
		return set_string(&c->web_config, v, err, len);
	if (!strcmp(name, "interval"))
		return seconds(name, v, 0.01, 60, &c->interval, err, len);
	if (!strcmp(name, "request-timeout"))
		return seconds(name, v, 0.1, 600, &c->request_timeout, err, len);
	/* a connection is a descriptor (raised at start to the hard limit: systemd's default is 524,288);
	 * 65536 is far beyond any Prometheus */
	if (!strcmp(name, "max-connections"))
		return count(name, v, 1, 65536, &c->max_conns, err, len);
	if (!strcmp(name, "max-connections-per-ip"))
		return count(name, v, 0, 65536, &c->max_conns_ip, err, len);
	if (!strcmp(name, "reserved-connections"))
		return count(name, v, 1, 65535, &c->reserved, err, len);
	if (!strcmp(name, "allow"))
		return cidrs(v, c, err, len);
	if (!strcmp(name, "metrics"))
		return list("--metrics", v, c->metrics, &c->nmetrics, 1, err, len);
	if (!strcmp(name, "groups"))
		return list("--groups", v, c->groups, &c->ngroups, 1, err, len);
	if (!strcmp(name, "events")) /* a raw spec has commas of its own: one event an option */
		return list("--events", v, c->events, &c->nevents, 0, err, len);
	if (!strcmp(name, "per-box")) {
		if (!strcmp(v, "all")) {
			c->per_box_all = 1;
			return 0;
		}
		return list("--per-box", v, c->box_units, &c->nbox_units, 1, err, len);
	}
	if (!strcmp(name, "sockets"))
		return sockets(v, &c->sockets, err, len);
	if (!strcmp(name, "force"))
		c->force = 1;
	else if (!strcmp(name, "per-job"))
		c->per_job = 1;
	else if (!strcmp(name, "no-timestamps"))
		c->timestamps = 0;
	else
		c->check_only = 1;
	return 0;
}

/* One line of the file (n its number), its comment and blanks left out. */
static int config_line(struct ue_config *c, const char *path, int n, char *line, char *err, size_t len)
{
	char *k = line + strspn(line, " \t");
	if (!*k || *k == '#')
		return 0;
	char *v = k + strcspn(k, " \t");
	if (*v) {
		*v++ = 0;
		v += strspn(v, " \t");
		for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = 0;
	}
	if (!strcmp(k, "config") || !strcmp(k, "check-config") || !strcmp(k, "help") || !strcmp(k, "version"))
		return ue_fail(err, len, "%s:%d: '%s' belongs on the command line", path, n, k);
	char msg[512];
	if (option(c, k, *v ? v : NULL, msg, sizeof(msg)))
		return ue_fail(err, len, "%s:%d: %s", path, n, msg);
	return 0;
}

/* The file as the web configuration and the key are read (ue_files.c): it may name the backend, turn TLS and
 * authentication off and open the port to anyone, so one that another user could change is refused, at start
 * and at every SIGHUP; one another user may read is warned of.  A FIFO there is refused, not waited on. */
static int config_file(struct ue_config *c, const char *path, char *err, size_t len)
{
	struct ue_exposure x;
	size_t size;
	char *text = ue_read_small("--config", path, &size, &x, err, len);
	if (!text)
		return -1;
	int n = 0, rc = 0;
	for (char *p = text, *end = text + size; !rc && p < end;) {
		char line[1024], *nl = memchr(p, '\n', (size_t)(end - p)), *stop = nl ? nl : end;
		size_t k = (size_t)(stop - p);
		n++;
		if (k && stop[-1] == '\r')
			k--;
		if (k > sizeof(line) - 2)
			rc = ue_fail(err, len, "%s:%d: the line is longer than %zu characters", path, n, sizeof(line) - 2);
		else if (memchr(p, 0, k))
			rc = ue_fail(err, len, "%s:%d: the line holds a NUL byte (is it a text file?)", path, n);
		else {
			memcpy(line, p, k);
			line[k] = 0;
			rc = config_line(c, path, n, line, err, len);
		}
		p = stop + (nl != NULL);
	}
	free(text);
	if (!rc)
		ue_warn_exposed("--config", path, &x, "the exporter's options (its scrapers, where its TLS key is)");
	return rc;
}

static int options(struct ue_config *c, int argc, char **argv, char *err, size_t len);

/* On an error nothing stays allocated: the caller exits or keeps its running options. */
int ue_options(struct ue_config *c, int argc, char **argv, char *err, size_t len)
{
	int rc = options(c, argc, argv, err, len);
	if (rc)
		ue_config_free(c);
	return rc;
}

static int options(struct ue_config *c, int argc, char **argv, char *err, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->interval = 1;
	c->timestamps = 1;
	/* a Prometheus server scrapes over one connection (a pair of them, or a curl beside, come from other
	 * addresses or stay well within 16); 10 s is Prometheus' default scrape_timeout, after which no default
	 * scraper still waits for the answer */
	c->max_conns = 4096;
	c->max_conns_ip = 16;
	c->request_timeout = 10;
	/* a Prometheus server's connection, a second one through a reload, a curl beside: 16 is room to spare */
	c->reserved = 16;
	/* the file first, wherever --config stands */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--config") || !strncmp(argv[i], "--config=", 9)) {
			const char *v = argv[i][8] == '=' ? argv[i] + 9 : i + 1 < argc ? argv[i + 1] : "";
			if (!v[0])
				return ue_fail(err, len, "--config needs a file");
			if (set_string(&c->config, v, err, len) || config_file(c, v, err, len))
				return -1;
		}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) || !a[2])
			return ue_fail(err, len, "'%s' is not an option (uncore-exporter --help lists them)", a);
		char name[64];
		const char *eq = strchr(a, '='), *v = NULL;
		size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (n >= sizeof(name))
			return ue_fail(err, len, "unknown option %.40s...", a);
		memcpy(name, a + 2, n);
		name[n] = 0;
		if (eq)
			v = eq + 1;
		else if (is_valued(name) && i + 1 < argc)
			v = argv[++i];
		if (!strcmp(name, "config"))
			continue; /* read above */
		if (option(c, name, v, err, len))
			return -1;
	}
	if (!c->listen && !c->listen_unix && set_string(&c->listen, "127.0.0.1:9739", err, len))
		return -1;
	if (c->nallow && c->reserved >= c->max_conns)
		return ue_fail(err, len, "--reserved-connections %u leaves none of --max-connections %u to the other clients",
			       c->reserved, c->max_conns);
	return 0;
}

static void free_list(char **l, int *n)
{
	for (int i = 0; i < *n; i++)
		free(l[i]);
	*n = 0;
}

void ue_config_free(struct ue_config *c)
{
	free(c->backend);
	free(c->listen);
	free(c->listen_unix);
	free(c->config);
	free(c->web_config);
	free_list(c->metrics, &c->nmetrics);
	free_list(c->groups, &c->ngroups);
	free_list(c->events, &c->nevents);
	free_list(c->box_units, &c->nbox_units);
	memset(c, 0, sizeof(*c));
}
