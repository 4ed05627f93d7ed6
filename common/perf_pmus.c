/* Reading the kernel's uncore PMUs from sysfs, and whether the caller may use them. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf_pmus.h"
#include "error.h"

#define PMU_DIR "/sys/bus/event_source/devices"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* The socket of a CPU, from the topology the kernel's tree shows (-1: unknown). */
static int cpu_socket(const struct perf_kernel *k, long cpu)
{
	char path[700];
	long pkg;
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", k->root, cpu);
	return sysroot_read_long(path, &pkg) < 0 || pkg < 0 || pkg >= UC_MAX_SOCKETS ? -1 : (int)pkg;
}

/* cpumask "0,18" or "0-1": the first CPU of each socket. */
static int parse_cpumask(const struct perf_kernel *k, const char *mask, struct perf_pmu *p)
{
	const char *s = mask;
	for (int i = 0; i < UC_MAX_SOCKETS; i++)
		p->cpu[i] = -1;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s || lo < 0)
			return -1;
		if (*end == '-' && ((hi = strtol(end + 1, &end, 10)) < lo || hi - lo > 4096))
			return -1;
		for (long c = lo; c <= hi; c++) {
			int sock = cpu_socket(k, c);
			if (sock >= 0 && p->cpu[sock] < 0)
				p->cpu[sock] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

static int read_formats(const struct perf_kernel *k, struct perf_pmu *p)
{
	char dir[700], path[1000], line[128];
	snprintf(dir, sizeof(dir), "%s" PMU_DIR "/%s/format", k->root, p->name);
	DIR *d = opendir(dir);
	if (!d)
		return 0; /* a PMU without formats takes only raw configs: every field will be refused */
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d)) && !rc) {
		if (de->d_name[0] == '.')
			continue;
		if (p->nfmt == PP_MAX_FMT || strlen(de->d_name) >= sizeof(p->fmt[0].name)) {
			rc = uc_err("%s: too many or too long format names (%s)", p->name, de->d_name);
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (read_line(path, line, sizeof(line))) {
			rc = uc_err("%s: cannot read %s", p->name, path);
			break;
		}
		snprintf(p->fmt[p->nfmt].name, sizeof(p->fmt[0].name), "%s", de->d_name);
		if (perf_format_parse(de->d_name, line, &p->fmt[p->nfmt].f))
			rc = uc_err_prefix("%s: ", p->name);
		p->nfmt++;
	}
	closedir(d);
	return rc;
}

static int read_pmu(const struct perf_kernel *k, const char *name, struct perf_pmu *p)
{
	char path[700], line[4096];
	char *end;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(path, sizeof(path), "%s" PMU_DIR "/%s/type", k->root, name);
	if (read_line(path, line, sizeof(line)))
		return uc_err("%s: cannot read %s", name, path);
	unsigned long t = strtoul(line, &end, 10);
	if (end == line || *end || t > 0xffffffffu)
		return uc_err("%s: bad type '%.20s' in %s", name, line, path);
	p->type = (unsigned)t;
	snprintf(path, sizeof(path), "%s" PMU_DIR "/%s/cpumask", k->root, name);
	if (read_line(path, line, sizeof(line)) || parse_cpumask(k, line, p))
		return uc_err("%s: cannot read a CPU list from %s", name, path);
	return read_formats(k, p);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct perf_pmu *)a)->name, ((const struct perf_pmu *)b)->name);
}

int perf_sys_scan(struct perf_sys *ps, struct perf_kernel *k)
{
	char dir[700], path[700];
	memset(ps, 0, sizeof(*ps));
	ps->k = k;
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/perf_event_paranoid", k->root);
	if (sysroot_read_long(path, &ps->paranoid) < 0)
		ps->paranoid = PERF_PARANOID_UNKNOWN;
	k->ops->caps(k, &ps->perfmon, &ps->sys_admin);
	snprintf(dir, sizeof(dir), "%s" PMU_DIR, k->root);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "uncore", 6) || strlen(de->d_name) >= sizeof(ps->pmus[0].name))
			continue;
		struct perf_pmu *np = realloc(ps->pmus, (size_t)(ps->npmus + 1) * sizeof(*np));
		if (!np) {
			closedir(d);
			return uc_err("out of memory");
		}
		ps->pmus = np;
		if (read_pmu(k, de->d_name, &ps->pmus[ps->npmus])) {
			closedir(d);
			return -1;
		}
		ps->npmus++;
	}
	closedir(d);
	if (ps->npmus)
		qsort(ps->pmus, (size_t)ps->npmus, sizeof(*ps->pmus), by_name);
	return 0;
}

void perf_sys_free(struct perf_sys *ps)
{
	free(ps->pmus);
	ps->pmus = NULL;
	ps->npmus = 0;
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
	if (p == PERF_PARANOID_UNKNOWN) {
		snprintf(why, len, "%s/proc/sys/kernel/perf_event_paranoid cannot be read: the kernel has no perf_event "
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
	case EMFILE:
	case ENFILE:
		return uc_err("%s on CPU %d: out of file descriptors (each event per box per socket takes one): raise "
			      "the limit (ulimit -n)", pmu, cpu);
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
