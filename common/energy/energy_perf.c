/*
 * Energy from the kernel's perf `power` PMU (arch/x86/events/rapl.c): events energy-pkg, energy-ram and
 * energy-psys on each CPU its cpumask names (rapl.c: one of each die; the TPMI driver's PMU on Granite Rapids
 * and later, intel_rapl_common.c get_pmu_cpu: one of each package), counted CPU-wide (perf_event_paranoid <= 0, or
 * CAP_PERFMON).  The kernel extends the 32-bit MSRs into a 64-bit count (rapl_event_update, with an hrtimer
 * faster than any wrap), in units of events/<name>.scale joules (2^-32 J), so no wrap reaches the reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "energy.h"
#include "handle/handle.h"
#include "perf/perf.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/perf_format.h"

#define PMU "/sys/bus/event_source/devices/power"
static const char *const event_name[UNCORE_ENERGY_DOMAINS] = { "energy-pkg", "energy-ram", "energy-psys" };

/* events/<name>: "event=0x02" into the config through format/event */
static int event_config(struct perf_kernel *k, const char *name, uint64_t cfg[3])
{
	char path[256], line[128], fmt[64];
	struct perf_format f;
	unsigned long long v;
	snprintf(path, sizeof(path), PMU "/events/%s", name);
	if (k->ops->read_line(k, path, line, sizeof(line)) || sscanf(line, "event=%lli", &v) != 1)
		return -1;
	if (k->ops->read_line(k, PMU "/format/event", fmt, sizeof(fmt)) || perf_format_parse("event", fmt, &f))
		return uc_err("%s%s/format/event: missing or unreadable", k->root, PMU);
	cfg[0] = cfg[1] = cfg[2] = 0;
	return perf_format_put("event", &f, v, cfg);
}

static double event_scale(struct perf_kernel *k, const char *name)
{
	char path[256], line[64];
	double s;
	snprintf(path, sizeof(path), PMU "/events/%s.scale", name);
	if (k->ops->read_line(k, path, line, sizeof(line)) || sscanf(line, "%lf", &s) != 1 || !(s > 0))
		return 0;
	return s;
}

/* The kernel over which the handle counts (perf, perf+sim:), else the machine's own (direct); none for sim: */
static struct perf_kernel *kernel_of(struct uncore_energy *e)
{
	if (e->k)
		return e->k;
	if (e->u->perf)
		return e->k = e->u->perf->k;
	if (e->u->acc->simulated)
		return NULL;
	e->own_kernel = 1;
	return e->k = perf_kernel_syscalls();
}

static int perf_open(struct uncore_energy *e)
{
	struct perf_kernel *k = kernel_of(e);
	const struct host_info *h = &e->u->host;
	char line[4096], why[128], names[96] = "";
	uint8_t mask[UC_MAX_CPUS / 8];
	long type;
	if (!k)
		return uc_err("perf power PMU: a simulator without its kernel (perf+sim: has one)");
	if (k->ops->read_line(k, PMU "/type", line, sizeof(line)))
		return uc_err("perf power PMU: %s%s does not exist (the kernel's rapl PMU is not loaded, or does not "
			      "know this part)", k->root, PMU);
	type = strtol(line, NULL, 0);
	if (k->ops->read_line(k, PMU "/cpumask", line, sizeof(line)) || cpulist_parse(line, mask, why, sizeof(why)) <= 0)
		return uc_err("perf power PMU: %s%s/cpumask: missing or not a CPU list", k->root, PMU);
	for (int dom = 0; dom < UNCORE_ENERGY_DOMAINS; dom++) {
		uint64_t cfg[3];
		double scale;
		if (!(e->part->domains & (1u << dom)))
			continue;
		if (event_config(k, event_name[dom], cfg) || !(scale = event_scale(k, event_name[dom]))) {
			snprintf(e->missing[dom], sizeof(e->missing[dom]), "the power PMU has no %s event", event_name[dom]);
			continue;
		}
		for (int cpu = 0; cpu < UC_MAX_CPUS && cpu < h->ncpus; cpu++) {
			struct perf_event_attr a;
			struct energy_counter *c;
			int s = h->cpu_socket[cpu], d = h->cpu_die[cpu] > 0 ? h->cpu_die[cpu] : 0, fd;
			if (!(mask[cpu / 8] & (1u << (cpu % 8))) || s < 0 || (dom == UNCORE_ENERGY_PSYS && d > 0))
				continue; /* psys: the platform's, counted once a socket */
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = (unsigned)type;
			a.config = cfg[0];
			if ((fd = k->ops->open(k, &a, -1, cpu, -1, 0)) < 0)
				return uc_err("perf power PMU: %s on CPU %d: %s%s", event_name[dom], cpu, strerror(-fd),
					      -fd == EACCES || -fd == EPERM ? " (needs perf_event_paranoid <= 0, CAP_PERFMON "
					      "or root)" : "");
			if (!(c = energy_add(e, s, d, dom, scale, 0))) {
				k->ops->close(k, fd);
				return uc_err("perf power PMU: too many counters");
			}
			c->fd = fd;
			c->cpu = cpu;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", *names ? ", " : "", event_name[dom]);
	}
	if (!e->n)
		return uc_err("perf power PMU: none of %s, %s, %s on %s%s", event_name[0], event_name[1], event_name[2],
			      k->root, PMU);
	snprintf(e->source, sizeof(e->source), "perf power PMU (type %ld): %s", type, names);
	return 0;
}

static int perf_read(struct uncore_energy *e, struct energy_counter *c, uint64_t *raw)
{
	ssize_t n = e->k->ops->read(e->k, c->fd, raw, sizeof(*raw));
	if (n != (ssize_t)sizeof(*raw))
		return uc_err("perf power PMU: reading %s of socket %d: %s", event_name[c->domain], c->socket,
			      n < 0 ? strerror((int)-n) : "short read");
	return 0;
}

static void perf_close(struct uncore_energy *e)
{
	for (int i = 0; i < e->n; i++)
		if (e->c[i].fd >= 0 && e->k)
			e->k->ops->close(e->k, e->c[i].fd);
	if (e->own_kernel && e->k)
		e->k->ops->free(e->k);
	e->k = NULL;
	e->own_kernel = 0;
}

const struct energy_source_ops energy_perf_ops = { "perf", perf_open, perf_read, perf_close };
