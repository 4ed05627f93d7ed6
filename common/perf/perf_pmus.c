/* Reading the kernel's uncore PMUs from sysfs, and whether the caller may use them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "perf_pmus.h"
#include "util/grow.h"
#include "util/error.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* 0, or what read_line returns: -1 no such file, -2 refused with the reason in uncore_error() */
static int read_long(struct perf_kernel *k, const char *path, long *val)
{
	char line[64], *end;
	int rc = k->ops->read_line(k, path, line, sizeof(line));
	if (rc)
		return rc;
	errno = 0;
	*val = strtol(line, &end, 0);
	return end == line || errno ? -1 : 0;
}

/* The package and die_id of a CPU, from the topology the kernel's tree shows (-1: unknown; no die_id
 * file, before Linux 5.3: die 0); -2 when a file of it is refused (uncore_error()). */
static int cpu_place(struct perf_kernel *k, long cpu, long *die_id)
{
	char path[128];
	long pkg;
	int rc;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", cpu);
	if ((rc = read_long(k, path, &pkg)) == -2)
		return -2;
	if (rc < 0 || pkg < 0 || pkg >= UC_MAX_SOCKETS)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/die_id", cpu);
	if ((rc = read_long(k, path, die_id)) == -2)
		return -2;
	if (rc < 0)
		*die_id = 0;
	return (int)pkg;
}

/* cpumask "0,18" or "0-1" (file, for messages): the kernel's CPU for each logical die the PMU has a box on
 * (Linux uncore.c: one per die), kept per socket in die_id order; the backend places each on the host's
 * dies.  0; -1 when it is not a CPU list; -2 with uncore_error(): a CPU above UC_MAX_CPUS or more CPUs than
 * that (each costs two file reads: a planted list of overlapping ranges would take hours), or a topology
 * file refused. */
static int parse_cpumask(struct perf_kernel *k, const char *mask, const char *file, struct perf_pmu *p)
{
	const char *s = mask;
	long ids[UC_MAX_SOCKETS][UC_MAX_DIES], listed = 0;
	int n[UC_MAX_SOCKETS] = { 0 };
	for (int i = 0; i < UC_MAX_SOCKETS; i++)
		for (int d = 0; d < UC_MAX_DIES; d++)
			p->cpu[i][d] = -1;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s || lo < 0)
			return -1;
		if (*end == '-' && (hi = strtol(end + 1, &end, 10)) < lo)
			return -1;
		if (hi >= UC_MAX_CPUS || (listed += hi - lo + 1) > UC_MAX_CPUS) {
			uc_err("cannot read a CPU list from %s%s: it names %s %d CPUs the library knows", k->root, file,
			       hi >= UC_MAX_CPUS ? "a CPU beyond the" : "more than the", UC_MAX_CPUS);
			return -2;
		}
		for (long c = lo; c <= hi; c++) {
			long id;
			int sock = cpu_place(k, c, &id), d = 0;
			if (sock == -2)
				return -2;
			if (sock < 0)
				continue;
			while (d < n[sock] && ids[sock][d] != id)
				d++;
			if (d == n[sock] && d < UC_MAX_DIES) { /* a die not seen yet: in die_id order among the others */
				int at = d;
				while (at > 0 && ids[sock][at - 1] > id) {
					ids[sock][at] = ids[sock][at - 1];
					p->cpu[sock][at] = p->cpu[sock][at - 1];
					at--;
				}
				ids[sock][at] = id;
				p->cpu[sock][at] = (int)c;
				n[sock]++;
			}
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

struct fmt_walk {
	struct perf_kernel *k;
	struct perf_pmu *p;
	int rc;
};

static int read_format(void *arg, const char *name)
{
	struct fmt_walk *w = arg;
	struct perf_pmu *p = w->p;
	char path[256], line[128];
	int rc;
	if (name[0] == '.')
		return 0;
	if (p->nfmt == PP_MAX_FMT || strlen(name) >= sizeof(p->fmt[0].name))
		w->rc = uc_err("%s: too many or too long format names (%s)", p->name, name);
	else if (snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", p->name, name),
		 (rc = w->k->ops->read_line(w->k, path, line, sizeof(line))))
		w->rc = rc == -2 ? uc_err_prefix("%s: ", p->name)
				 : uc_err("%s: cannot read %s%s", p->name, w->k->root, path);
	else {
		snprintf(p->fmt[p->nfmt].name, sizeof(p->fmt[0].name), "%s", name);
		if (perf_format_parse(name, line, &p->fmt[p->nfmt].f))
			w->rc = uc_err_prefix("%s: ", p->name);
		p->nfmt++;
	}
	return w->rc;
}

/* 0 read, 1 not an uncore PMU (left out with a warning), -1 with a message. */
static int read_pmu(struct perf_kernel *k, const char *name, struct perf_pmu *p)
{
	char path[256], line[4096];
	char *end;
	int rc;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	if ((rc = k->ops->read_line(k, path, line, sizeof(line))))
		return rc == -2 ? uc_err_prefix("%s: ", name) : uc_err("%s: cannot read %s%s", name, k->root, path);
	unsigned long t = strtoul(line, &end, 10);
	if (end == line || *end || t > 0xffffffffu)
		return uc_err("%s: bad type '%.20s' in %s%s", name, line, k->root, path);
	p->type = (unsigned)t;
	/* enum perf_type_id (<linux/perf_event.h>): hardware 0, software 1, tracepoint 2, hw_cache 3, raw 4,
	 * breakpoint 5 are the core's own types; a PMU the driver registers gets a dynamic type above them */
	if (p->type < PERF_TYPE_MAX) {
		uc_warn("%s: type %u in %s%s is one of the kernel's generic event types (0..%d: hardware, software, "
			"tracepoint, cache, raw, breakpoint), not an uncore PMU's: left out", name, p->type, k->root, path,
			PERF_TYPE_MAX - 1);
		return 1;
	}
	snprintf(path, sizeof(path), PMU_DIR "/%s/cpumask", name);
	if ((rc = k->ops->read_line(k, path, line, sizeof(line))) || (rc = parse_cpumask(k, line, path, p)))
		return rc == -2 ? uc_err_prefix("%s: ", name)
				: uc_err("%s: cannot read a CPU list from %s%s", name, k->root, path);
	/* a PMU without formats takes only raw configs: every field will be refused */
	snprintf(path, sizeof(path), PMU_DIR "/%s/format", name);
	struct fmt_walk w = { k, p, 0 };
	k->ops->list_dir(k, path, read_format, &w);
	return w.rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct perf_pmu *)a)->name, ((const struct perf_pmu *)b)->name);
}

/* The kernel's uncore driver names its PMUs "uncore" (Nehalem) or "uncore_*"; no other is taken. */
static int uncore_name(const char *name) { return !strcmp(name, "uncore") || !strncmp(name, "uncore_", 7); }

struct pmu_walk {
	struct perf_sys *ps;
	int rc;
};

static int add_pmu(void *arg, const char *name)
{
	struct pmu_walk *w = arg;
	struct perf_sys *ps = w->ps;
	if (!uncore_name(name) || strlen(name) >= sizeof(ps->pmus[0].name))
		return 0;
	struct perf_pmu *np = uc_grow(ps->pmus, ps->npmus, &ps->cap, sizeof(*np), 64);
	if (!np)
		return w->rc = uc_err("out of memory");
	ps->pmus = np;
	int rc = read_pmu(ps->k, name, &ps->pmus[ps->npmus]);
	if (rc < 0)
		return w->rc = -1;
	ps->npmus += !rc;
	return 0;
}

int perf_sys_scan(struct perf_sys *ps, struct perf_kernel *k)
{
	memset(ps, 0, sizeof(*ps));
	ps->k = k;
	int rc = read_long(k, "/proc/sys/kernel/perf_event_paranoid", &ps->paranoid);
	if (rc == -2)
		return -1;
	if (rc < 0)
		ps->paranoid = PERF_PARANOID_UNKNOWN;
	k->ops->caps(k, &ps->perfmon, &ps->sys_admin);
	struct pmu_walk w = { ps, 0 };
	k->ops->list_dir(k, PMU_DIR, add_pmu, &w); /* no directory: no PMUs, not an error */
	if (w.rc)
		return -1;
	if (ps->npmus)
		qsort(ps->pmus, (size_t)ps->npmus, sizeof(*ps->pmus), by_name);
	return 0;
}

/* A PMU's name stem as perf_alias.pmu has it: "uncore_imc_3" -> "imc", "uncore" -> "". */
static void pmu_stem(const char *name, char *out, size_t len)
{
	const char *s = !strncmp(name, "uncore_", 7) ? name + 7 : "";
	size_t n = strlen(s), k = n;
	while (k && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k < n && k > 1 && s[k - 1] == '_')
		n = k - 1;
	snprintf(out, len, "%.*s", (int)n, s);
}

static char *dup_str(const char *s, int *oom)
{
	char *d = strdup(s);
	*oom |= !d;
	return d;
}

struct alias_walk {
	struct perf_sys *ps;
	const char *pmu, *stem;
	int rc;
};

/* A .scale file's number into *v.  Linux 7.0-rc kernels before 16bcbe6738be ("Remove extra double quote mark")
 * wrote the free-running scales of INTEL_UNCORE_FR_EVENT_DESC (8a4bd1c0d6bb; DMR's "3.814697266e-6") with literal
 * double quotes: one pair around the number is taken off.  -1: no positive number (perf could not use it either). */
static int parse_scale(const char *text, double *v)
{
	char buf[64], *end;
	size_t n = strlen(text);
	if (n >= 2 && text[0] == '"' && text[n - 1] == '"' && n - 2 < sizeof(buf)) {
		memcpy(buf, text + 1, n - 2);
		buf[n - 2] = 0;
		text = buf;
	}
	*v = strtod(text, &end);
	return end != text && !*end && *v > 0 && *v < HUGE_VAL ? 0 : -1;
}

/* One events/ file: an alias (NAME) with its NAME.scale and NAME.unit when the driver gives them. */
static int read_alias(void *arg, const char *name)
{
	struct alias_walk *w = arg;
	struct perf_sys *ps = w->ps;
	char path[256], terms[256], scale[64] = "", unit[32] = "";
	int oom = 0, rc;
	if (strchr(name, '.'))
		return 0;
	if (uc_ctl_char(name)) { /* a file planted in a sysroot: no event name holds one */
		uc_warn("%s: an event alias whose name holds control character 0x%02x: left out", w->pmu, uc_ctl_char(name));
		return 0;
	}
	snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s", w->pmu, name);
	if ((rc = ps->k->ops->read_line(ps->k, path, terms, sizeof(terms))) == -1)
		return 0; /* unreadable: perf cannot use it either */
	snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s.scale", w->pmu, name);
	if (!rc && ps->k->ops->read_line(ps->k, path, scale, sizeof(scale)) == -2)
		rc = -2;
	snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s.unit", w->pmu, name);
	if (!rc && ps->k->ops->read_line(ps->k, path, unit, sizeof(unit)) == -2)
		rc = -2;
	if (rc) /* a file planted there: refused, as the PMU's own files are */
		return w->rc = uc_err_prefix("%s: ", w->pmu);
	double sc = 0;
	if (*scale && parse_scale(scale, &sc)) { /* never a value at a wrong scale */
		uc_warn("%s: event alias %s: its scale '%s' is not a number; the alias is left out (give its terms instead: "
			"%s/%s/)", w->pmu, name, scale, w->pmu, terms);
		return 0;
	}
	struct perf_alias *na = realloc(ps->aliases, (size_t)(ps->naliases + 2) * sizeof(*na));
	if (!na)
		return w->rc = uc_err("out of memory");
	ps->aliases = na;
	na[ps->naliases] = (struct perf_alias){ dup_str(w->stem, &oom), dup_str(name, &oom), dup_str(terms, &oom),
						 sc, *unit ? dup_str(unit, &oom) : NULL };
	na[++ps->naliases] = (struct perf_alias){ 0 };
	return oom ? (w->rc = uc_err("out of memory")) : 0;
}

int perf_sys_aliases(struct perf_sys *ps)
{
	char stem[64], prev[64] = "\n", path[256];
	for (int i = 0; i < ps->npmus; i++) { /* sorted by name: a stem's PMUs are together */
		pmu_stem(ps->pmus[i].name, stem, sizeof(stem));
		if (!strcmp(stem, prev))
			continue;
		snprintf(prev, sizeof(prev), "%s", stem);
		struct alias_walk w = { ps, ps->pmus[i].name, stem, 0 };
		snprintf(path, sizeof(path), PMU_DIR "/%s/events", ps->pmus[i].name);
		ps->k->ops->list_dir(ps->k, path, read_alias, &w); /* no events/: no aliases */
		if (w.rc)
			return -1;
	}
	return 0;
}

void perf_sys_free(struct perf_sys *ps)
{
	for (int i = 0; i < ps->naliases; i++) {
		free((char *)ps->aliases[i].pmu);
		free((char *)ps->aliases[i].name);
		free((char *)ps->aliases[i].terms);
		free((char *)ps->aliases[i].unit);
	}
	free(ps->aliases);
	ps->aliases = NULL;
	ps->naliases = 0;
	free(ps->pmus);
	ps->pmus = NULL;
	ps->npmus = ps->cap = 0;
}

const struct perf_pmu *perf_pmu_named(const struct perf_sys *ps, const char *name)
{
	struct perf_pmu key;
	snprintf(key.name, sizeof(key.name), "%s", name);
	return ps->npmus ? bsearch(&key, ps->pmus, (size_t)ps->npmus, sizeof(key), by_name) : NULL;
}

const struct perf_format *perf_pmu_format(const struct perf_pmu *p, const char *name)
{
	for (int i = 0; i < p->nfmt; i++)
		if (!strcmp(p->fmt[i].name, name))
			return &p->fmt[i].f;
	return NULL;
}

/* Uncore events count CPU-wide: above level 0 they need CAP_PERFMON (or CAP_SYS_ADMIN), and above
 * level 2 (Debian's and Ubuntu's patch) CAP_SYS_ADMIN alone. */
int perf_permission(const struct perf_sys *ps, char *why, size_t len)
{
	long p = ps->paranoid;
	if (p == PERF_PARANOID_UNKNOWN) { /* a sysroot's path cut to 300 bytes: the reason fits its callers' 400 */
		snprintf(why, len, "%.300s/proc/sys/kernel/perf_event_paranoid cannot be read: the kernel has no perf_event "
			 "support", ps->k->root);
		return -1;
	}
	if (p > 2 && !ps->sys_admin) {
		snprintf(why, len, "perf_event_paranoid is %ld: above 2 only CAP_SYS_ADMIN may use perf events; set it to 0 "
			 "(sysctl kernel.perf_event_paranoid=0) or run as root", p);
		return -1;
	}
	if (p > 0 && !ps->perfmon && !ps->sys_admin) {
		snprintf(why, len, "perf_event_paranoid is %ld and this process has neither CAP_PERFMON nor CAP_SYS_ADMIN: "
			 "uncore events count CPU-wide; set kernel.perf_event_paranoid=0 (or -1), or give the program "
			 "CAP_PERFMON (setcap cap_perfmon+ep), or run as root", p);
		return -1;
	}
	return 0;
}

int perf_errno_error(const struct perf_sys *ps, int err, const char *pmu, int cpu)
{
	char why[400];
	switch (err) {
	case EACCES:
	case EPERM:
		if (perf_permission(ps, why, sizeof(why)))
			return uc_err("%s on CPU %d: permission denied: %s", pmu, cpu, why);
		return uc_err("%s on CPU %d: permission denied (a security module refused it; perf_event_paranoid is %ld)",
			      pmu, cpu, ps->paranoid);
	case ENOENT:
		return uc_err("%s: the kernel has no such PMU (its type is not registered)", pmu);
	case ENODEV:
		return uc_err("%s: CPU %d is offline or has no such box", pmu, cpu);
	case EMFILE: {
		/* the library leaves the limit to its caller (a daemon's, a batch job's): raising it is theirs */
		struct rlimit rl = { 0, 0 };
		if (ps->k->fd_limit)
			return uc_err("%s on CPU %d: out of file descriptors: %s lets a process open %d (its fds=N), and each "
				      "event per box per socket takes one: raise it (fds=N) or count fewer events", pmu, cpu,
				      ps->k->name, ps->k->fd_limit);
		if (getrlimit(RLIMIT_NOFILE, &rl))
			return uc_err("%s on CPU %d: out of file descriptors (RLIMIT_NOFILE, each event per box per socket "
				      "takes one): raise the limit (ulimit -n) or count fewer events", pmu, cpu);
		char hard[32], how[160];
		snprintf(hard, sizeof(hard), rl.rlim_max == RLIM_INFINITY ? "unlimited" : "%llu", (unsigned long long)rl.rlim_max);
		if (rl.rlim_cur < rl.rlim_max)
			snprintf(how, sizeof(how), "raise it (ulimit -n %s; LimitNOFILE= for a service)", hard);
		else
			snprintf(how, sizeof(how), "raise both limits as root (ulimit -Hn, limits.conf; LimitNOFILE= for a service)");
		return uc_err("%s on CPU %d: out of file descriptors: this process may open %llu (RLIMIT_NOFILE's soft limit; "
			      "its hard limit %s), and each event per box per socket takes one: %s, or count fewer events",
			      pmu, cpu, (unsigned long long)rl.rlim_cur, hard, how);
	}
	case ENFILE:
		return uc_err("%s on CPU %d: the system's table of open files is full (ENFILE; sysctl fs.file-max): close "
			      "files or count fewer events", pmu, cpu);
	case EINVAL:
		return uc_err("%s on CPU %d: the kernel refused the event (EINVAL): the group does not fit the box's "
			      "counters, two events need different values of one shared filter, or the kernel does not "
			      "know the event", pmu, cpu);
	case EBUSY:
		return uc_err("%s on CPU %d: the counters are busy (another user pinned them)", pmu, cpu);
	default:
		return uc_err("%s on CPU %d: %s", pmu, cpu, strerror(err));
	}
}
