/*
 * The simulated node changing under a running process (changes=FILE, issue 99 point 2): a test appends lines
 * to FILE, each a change the simulated kernel makes once, in order, when the machine is next looked at (a
 * read's start, a sleep, the library's node check).  One line a change:
 *   cpu N offline | cpu N online      a CPU taken offline or brought back (its MSRs refuse reads meanwhile)
 *   device BDF remove | device BDF add a PCI function (a GPU falling off the bus, a hot-plugged NVMe) and what
 *                                     is below it gone from the tree, or back
 *   dimms DIGITS[/DIGITS]             the memory population EDAC shows, as the dimms= option gives it
 *   ufreq MIN_MHZ MAX_MHZ             the uncore clock's limits rewritten
 *   pmu reload                        the uncore PMU driver reloaded: the simulated kernel's new type numbers
 *   clock +SECONDS                    the manual clock (clock=manual) goes on that long: no change of the node,
 *                                     the way a program whose library runs inside another's (a PAPI program:
 *                                     the component's handle) passes its simulated time
 *   realtime SECONDS                  the wall clock (CLOCK_REALTIME as the library reads it) set to SECONDS of
 *                                     Unix time, as settimeofday or a step of NTP does; it runs on with the
 *                                     machine's clock (before any such line: the host's).  A process that opens
 *                                     a new machine later makes the file's lines again at its clock's start: a
 *                                     test sets the time then as well, for its clock to go on
 * Each process naming the file makes every line itself: processes sharing a machine see one node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sim.h"
#include "util/error.h"

int sim_cpu_online(const struct sim *s, int cpu)
{
	return cpu < 0 || cpu >= UC_MAX_CPUS || !(s->cpu_off[cpu / 8] >> (cpu % 8) & 1);
}

int sim_first_online(const struct sim *s, int first, int n)
{
	for (int c = first; c < first + n; c++)
		if (sim_cpu_online(s, c))
			return c;
	return -1;
}

int sim_pci_gone(const struct sim *s, const char *path)
{
	for (int i = 0; path && i < s->ngone; i++) {
		const char *p = strstr(path, s->gone[i]);
		size_t n = strlen(s->gone[i]);
		if (p && p > path && p[-1] == '/' && (!p[n] || p[n] == '/'))
			return 1;
	}
	return 0;
}

int sim_cpu_sysfs(const struct sim *s, struct memfs *m)
{
	char t[1024];
	size_t n = 0;
	int ncpus = sim_scopes(s) * s->cores;
	t[0] = 0;
	for (int c = 0; c < ncpus && c < UC_MAX_CPUS && n < sizeof(t) - 16; c++) {
		if (!sim_cpu_online(s, c) || (c > 0 && sim_cpu_online(s, c - 1)))
			continue;
		int e = c;
		while (e + 1 < ncpus && e + 1 < UC_MAX_CPUS && sim_cpu_online(s, e + 1))
			e++;
		n += (size_t)snprintf(t + n, sizeof(t) - n, e > c ? "%s%d-%d" : "%s%d", n ? "," : "", c, e);
	}
	return memfs_put(m, "/sys/devices/system/cpu/online", t, 0) ? uc_err("out of memory") : 0;
}

static int cpu_change(struct sim *s, const char *arg)
{
	int cpu, len = 0;
	char how[16];
	if (sscanf(arg, "%d %15s%n", &cpu, how, &len) != 2 || arg[len] || cpu < 0 || cpu >= sim_scopes(s) * s->cores ||
	    cpu >= UC_MAX_CPUS || (strcmp(how, "offline") && strcmp(how, "online")))
		return uc_err("cpu N offline|online, N a CPU of the machine (0..%d)", sim_scopes(s) * s->cores - 1);
	if (!strcmp(how, "offline"))
		s->cpu_off[cpu / 8] |= (uint8_t)(1u << cpu % 8);
	else
		s->cpu_off[cpu / 8] &= (uint8_t)~(1u << cpu % 8);
	return 0;
}

static int device_change(struct sim *s, const char *arg)
{
	char bdf[16], how[16];
	int len = 0, i;
	if (sscanf(arg, "%15s %15s%n", bdf, how, &len) != 2 || arg[len] || strlen(bdf) != 12 ||
	    (strcmp(how, "remove") && strcmp(how, "add")))
		return uc_err("device BDF remove|add, BDF as 0000:17:00.0");
	for (i = 0; i < s->ngone && strcmp(s->gone[i], bdf); i++)
		;
	if (!strcmp(how, "add")) {
		if (i < s->ngone)
			memmove(s->gone[i], s->gone[i + 1], (size_t)(--s->ngone - i) * sizeof(s->gone[0]));
		return 0;
	}
	if (i == s->ngone && s->ngone == (int)(sizeof(s->gone) / sizeof(s->gone[0])))
		return uc_err("at most %zu devices removed at once", sizeof(s->gone) / sizeof(s->gone[0]));
	if (i == s->ngone)
		snprintf(s->gone[s->ngone++], sizeof(s->gone[0]), "%s", bdf);
	return 0;
}

static int ufreq_change(struct sim *s, const char *arg)
{
	int lo, hi, len = 0;
	if (sscanf(arg, "%d %d%n", &lo, &hi, &len) != 2 || arg[len] || lo % 100 || hi % 100 || lo < 100 || lo > hi)
		return uc_err("ufreq MIN_MHZ MAX_MHZ, multiples of 100, the minimum at most the maximum");
	return sim_ufreq_set(s, lo / 100, hi / 100);
}

static int clock_change(struct sim *s, const char *arg)
{
	char *end;
	double sec = arg[0] == '+' ? strtod(arg + 1, &end) : -1;
	if (!(sec > 0 && sec <= 1e9) || *end)
		return uc_err("clock +SECONDS, a positive number of seconds (at most 1e9) the manual clock goes on");
	if (!s->manual_clock)
		return uc_err("clock +SECONDS needs clock=manual: the real clock goes on by itself");
	sim_advance(s, (uint64_t)(sec * 1e9 + 0.5));
	return 0;
}

/* SECONDS[.FRACTION] to the nanosecond (a double would lose the last digits of a Unix time's) */
static int realtime_change(struct sim *s, const char *arg)
{
	unsigned long long sec = 0, ns = 0;
	int len = 0, flen = 0;
	if (*arg < '0' || *arg > '9' || sscanf(arg, "%10llu%n", &sec, &len) != 1 || (arg[len] && arg[len] != '.'))
		return uc_err("realtime SECONDS[.FRACTION], a Unix time");
	if (arg[len] == '.' && (arg[len + 1] < '0' || arg[len + 1] > '9' || sscanf(arg + len + 1, "%9llu%n", &ns, &flen) != 1 ||
				arg[len + 1 + flen]))
		return uc_err("realtime SECONDS[.FRACTION], at most 9 digits of fraction");
	for (int k = flen; k < 9 && arg[len] == '.'; k++)
		ns *= 10;
	s->wall_set = 1;
	s->wall_ns = sec * 1000000000ull + ns;
	s->wall_at = sim_clock(s);
	return 0;
}

/* One line made: 0 a change of the node, 1 a clock alone (the manual clock, the wall clock), -1 with a message */
static int one(struct sim *s, char *line)
{
	char *arg = strchr(line, ' ');
	if (arg)
		*arg++ = 0;
	if (!strcmp(line, "cpu") && arg)
		return cpu_change(s, arg);
	if (!strcmp(line, "device") && arg)
		return device_change(s, arg);
	if (!strcmp(line, "dimms") && arg) {
		signed char was[UC_MAX_SOCKETS][SIM_DIMM_BOXES];
		memcpy(was, s->dimms, sizeof(was));
		if (sim_dimms_option(s, arg) || sim_dimms_build(s))
			return memcpy(s->dimms, was, sizeof(was)), -1;
		sim_rate_changed(s); /* the traffic spreads over the channels now populated */
		return 0;
	}
	if (!strcmp(line, "ufreq") && arg)
		return ufreq_change(s, arg);
	if (!strcmp(line, "realtime") && arg)
		return realtime_change(s, arg) ? -1 : 1;
	if (!strcmp(line, "pmu") && arg && !strcmp(arg, "reload")) {
		s->pmu_gen++;
		return 0;
	}
	if (!strcmp(line, "clock") && arg)
		return clock_change(s, arg) ? -1 : 1;
	return uc_err("not a change (cpu N offline|online, device BDF remove|add, dimms DIGITS, ufreq MIN_MHZ MAX_MHZ, "
		      "pmu reload, clock +SECONDS, realtime SECONDS)");
}

int sim_changes_poll(struct sim *s)
{
	struct stat st;
	if (!s->changes[0] || stat(s->changes, &st) || st.st_size <= s->changes_done)
		return 0; /* (a file not made yet: no change yet) */
	FILE *f = fopen(s->changes, "re");
	char line[256];
	int made = 0;
	if (!f || fseek(f, s->changes_done, SEEK_SET)) {
		if (f)
			fclose(f);
		return uc_err("simulator changes file %s: %s", s->changes, strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		if (!n || line[n - 1] != '\n')
			break; /* a line still being written: made when it is whole */
		s->changes_done += (long)n;
		line[n - 1] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		char said[256];
		snprintf(said, sizeof(said), "%s", line);
		int r = one(s, line);
		if (r < 0) {
			fclose(f);
			return uc_err_prefix("simulator changes file %s, line '%s': ", s->changes, said);
		}
		made |= r == 0; /* (the clock alone changes no file of the node) */
	}
	fclose(f);
	return made;
}
