/* Opening a simulated machine: sim:<platform>[,options], its kind, profile, faults and sharing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"
#include "sim_pcitree.h"
#include "sim_devdma.h"
#include "sim_numa.h"

static const struct sim_kind *sim_kind_of(const char *name)
{
	for (int i = 0; sim_kinds[i]; i++)
		if (!strcmp(sim_kinds[i]->name, name))
			return sim_kinds[i];
	return NULL;
}

const char *access_sim_platform(int i)
{
	for (int k = 0; k <= i; k++)
		if (i < 0 || !sim_kinds[k])
			return NULL;
	return sim_kinds[i]->name;
}

/* "snbep, ivbep, ..." */
static void sim_kind_names(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; sim_kinds[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sim_kinds[i]->name);
}

/* sim:<platform>[,sockets=N][,cores=N][,dies=N][,numa=off][,profile=FILE][,clock=manual][,tick=NS][,prewrap=S][,fault=KIND:UNIT[:IDX][@S]]
 *    [,shared=FILE][,changes=FILE][,kill_at=N][,cpu=FAMILY-MODEL-STEPPING][,devices=LIST|none][,iio_mapping=off|on][,snc=N]
 *    [,the platform's own option (sim_kind.option_help)] */
#define SIM_MAX_FAULTS 8

/* What the options after the platform name ask for besides the machine's own settings. */
struct sim_opts {
	char profile[512], shared[400]; /* shared: room for ".claims" in access.claims */
	char faults[SIM_MAX_FAULTS][64];
	int nfaults;
	uint64_t hash; /* FNV-1a of the options other than shared=: processes sharing a file must agree */
};

/* A path or spec option whole into buf, or refused: cut short, it would name another file. */
static int opt_copy(char *buf, size_t len, const char *opt, const char *v)
{
	size_t n = strlen(v);
	if (n >= len)
		return uc_err("simulator option %s= is %zu characters long: at most %zu", opt, n, len - 1);
	memcpy(buf, v, n + 1);
	return 0;
}

int sim_kind_takes(const struct sim_kind *k, const char *key) { return k && sim_kind_takes_help(k->option_help, key); }

/* Whether the kind's options (option_help, "imh=1|2, msr=itc|pcu") have key. */
int sim_kind_takes_help(const char *help, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = help; p && *p; p += strcspn(p, ","), p += strspn(p, ", "))
		if (!strncmp(p, key, n) && p[n] == '=')
			return 1;
	return 0;
}

/* One option key=value into the machine or the options; -1 with a message when it is bad. */
static int sim_option(struct sim *s, struct sim_opts *o, char *opt)
{
	char *v = strchr(opt, '='), *end;
	long n;
	int len = 0, fam = 0;
	unsigned mod = 0, step = 0;
	if (!v)
		return uc_err("simulator option '%s' needs a value (key=value)", opt);
	*v++ = 0;
	n = strtol(v, &end, 0);
	/* the machine, not how one process sees it: its faults and its end are its own */
	if (strcmp(opt, "shared") && strcmp(opt, "kill_at") && strcmp(opt, "fault") && strcmp(opt, "changes"))
		for (const char *c = opt; c < v + strlen(v); c++)
			o->hash = (o->hash ^ (uint8_t)*c) * 1099511628211ull;
	if (!strcmp(opt, "sockets") && !*end && n >= 1 && n <= UC_MAX_SOCKETS)
		s->nsockets = (int)n;
	else if (!strcmp(opt, "cores") && !*end && n >= 1 && n <= SIM_MAX_CORES)
		s->cores = (int)n;
	else if (!strcmp(opt, "dies") && !*end && n >= 1 && n <= UC_MAX_DIES)
		s->dies = (int)n;
	else if (!strcmp(opt, "numa") && (!strcmp(v, "off") || !strcmp(v, "on")))
		s->numa_off = !strcmp(v, "off");
	else if (!strcmp(opt, "profile"))
		return opt_copy(o->profile, sizeof(o->profile), opt, v);
	else if (!strcmp(opt, "clock") && (!strcmp(v, "manual") || !strcmp(v, "real")))
		s->manual_clock = !strcmp(v, "manual");
	else if (!strcmp(opt, "tick") && !*end && n >= 0 && n <= 1000000000) /* at most 1 s per access */
		s->tick_ns = (uint64_t)n;
	else if (!strcmp(opt, "prewrap") && (s->prewrap_s = strtod(v, &end)) > 0 && !*end && s->prewrap_s <= 1e6)
		; /* counters reset to wrap after this many seconds (tests of wrap handling) */
	else if (!strcmp(opt, "shared") && *v) /* one machine for every process naming this file */
		return opt_copy(o->shared, sizeof(o->shared), opt, v);
	else if (!strcmp(opt, "changes") && *v) /* the node's changes under a running process (sim_changes.c) */
		return opt_copy(s->changes, sizeof(s->changes), opt, v);
	else if (!strcmp(opt, "kill_at") && !*end && n >= 1) /* crash tests: SIGKILL before access N */
		s->kill_at = (uint64_t)n;
	else if (!strcmp(opt, "cpu") && sscanf(v, "%d-%x-%x%n", &fam, &mod, &step, &len) == 3 && !v[len] && fam > 0 &&
		 mod <= 0xff && step < 16) { /* the CPU id as perf spells it (decimal family, hex model and stepping) */
		s->family = fam;
		s->model = (int)mod;
		s->stepping = (int)step;
	}
	else if (!strcmp(opt, "snc"))
		return sim_snc_option(s, v);
	else if (!strcmp(opt, "ufreq")) /* how the uncore clock's limits show (sim_ufreq.c) */
		return sim_ufreq_option(s, v);
	else if (!strcmp(opt, "devices"))
		return sim_devices_option(s, v);
	else if (!strcmp(opt, "dimms")) /* the DIMMs on each memory channel (sim_dimms.c) */
		return sim_dimms_option(s, v);
	else if (!strcmp(opt, "edac") && (!strcmp(v, "off") || !strcmp(v, "on")))
		s->edac_off = !strcmp(v, "off");
	else if (!strcmp(opt, "edac") || !strcmp(opt, "mapout") || !strcmp(opt, "smbios")) /* real shapes (sim_dimms.c) */
		return sim_memory_option(s, opt, v);
	else if (!strcmp(opt, "iio_mapping") && (!strcmp(v, "off") || !strcmp(v, "on")))
		s->iio_mapping_off = !strcmp(v, "off");
	else if (!strcmp(opt, "fault") && o->nfaults < SIM_MAX_FAULTS)
		return opt_copy(o->faults[o->nfaults++], sizeof(o->faults[0]), opt, v);
	else if (!strcmp(opt, "fault"))
		return uc_err("too many simulator faults: at most %d fault= options", SIM_MAX_FAULTS);
	else if (sim_kind_takes_help(s->kind->option_help, opt))
		return s->kind->option(s, opt, v);
	else
		return uc_err("bad simulator option '%s=%s' (sockets=1..%d, cores=1..%d, dies=1..8, numa=off|on, profile=FILE, clock=manual|real, "
			      "tick=0..1e9 NS, prewrap=0..1e6 SECONDS, fault=KIND:UNIT[:IDX][@SECONDS], shared=FILE, changes=FILE, kill_at=N, "
			      "cpu=FAMILY-MODEL-STEPPING, devices=LIST|none, dimms=DIGITS[/DIGITS], edac=off|on|old|csrow|repeat, mapout=S, smbios=2.6, iio_mapping=off|on, snc=1..4%s%s)", opt, v,
			      UC_MAX_SOCKETS, SIM_MAX_CORES, s->kind->option_help ? ", " : "", s->kind->option_help ? s->kind->option_help : "");
	return 0;
}

/* The machine of a kind, with its defaults before the options. */
static void sim_init(struct sim *s, const struct sim_kind *k)
{
	s->kind = k;
	s->name = k->name;
	s->family = k->family;
	s->model = k->model;
	s->stepping = k->stepping;
	s->units = k->units;
	s->nunits = *k->nunits;
	s->glob = k->glob;
	s->ubox = k->ubox;
	s->nsockets = k->sockets ? k->sockets : 2;
	s->msr_hook = sim_new_msr_hook;
	s->msr_hook_ctx = sim_new_msr_hook_ctx;
	s->cores = k->cores;
	s->dies = 1;
	s->variant = -1;
	s->mem = k->mem;
}

/* fault=KIND:UNIT[:IDX][@SECONDS]: the box starts failing that many seconds after open (mid-run). */
static int sim_apply_fault(struct sim *s, char *spec)
{
	char *kind = spec, *unit, *idx, *at = strchr(kind, '@'), *end;
	double from_s = 0;
	if (at) {
		*at++ = 0;
		from_s = strtod(at, &end);
		if (*end || !(from_s > 0 && from_s < 1e6))
			return uc_err("simulator fault '%s': @SECONDS must be a positive number of seconds", spec);
	}
	if (!(unit = strchr(kind, ':')))
		return uc_err("simulator fault '%s': expected KIND:UNIT[:IDX][@SECONDS]", kind);
	*unit++ = 0;
	idx = strchr(unit, ':');
	if (idx)
		*idx++ = 0;
	return sim_fault(s, kind, unit, idx ? atoi(idx) : -1, (uint64_t)(from_s * 1e9));
}

/* Build the machine the options describe: profile, boxes and map, the state tests compare with, the
 * shared file and the faults. */
static int sim_build(struct sim *s, struct sim_opts *o, struct access *a)
{
	if (s->dies > 1 && !s->kind->multi_die)
		return uc_err("simulator option dies=%d: %s has one die per socket (dies= applies to the discovery "
			      "platforms)", s->dies, s->name);
	if (s->nsockets * s->dies > UC_MAX_SOCKETS)
		return uc_err("simulator options sockets=%d and dies=%d: at most %d dies in all", s->nsockets, s->dies,
			      UC_MAX_SOCKETS);
	sim_profile_defaults(&s->prof, s->nsockets);
	if (o->profile[0] && (sim_profile_load(&s->prof, o->profile, s->nsockets) || sim_jobs_apply(s, o->profile)))
		return -1;
	if (s->kind->build(s) || sim_dimms_build(s) || sim_ufreq_build(s) || sim_map_build(s) || sim_devdma_table(s) || sim_snc_check(s))
		return -1;
	sim_rapl_init(s); /* the energy counters' starts, from the profile's power */
	s->epoch_ns = sim_mono_ns();
	for (int i = 0; i < s->nboxes; i++) /* free-running counters cannot be reset: start them near the wrap */
		for (int f = 0; s->prewrap_s > 0 && f < s->boxes[i].nfr; f++)
			s->boxes[i].fr[f] = sim_reset_value(s, &s->boxes[i], 0, SIM_CTR_FR(f), s->boxes[i].u->fr[f].width);
	for (int i = 0; i < s->nboxes; i++) /* (a box built programmed) */
		sim_note_armed(s, &s->boxes[i]);
	memcpy(s->snap, s->boxes, (size_t)s->nboxes * sizeof(s->snap[0])); /* (the built boxes: the rest are 0) */
	if (o->shared[0]) {
		if (s->manual_clock)
			return uc_err("simulator option shared= needs the real clock: processes cannot share a manual one");
		if (sim_shared_attach(s, o->shared, o->hash))
			return -1;
		snprintf(a->claims, sizeof(a->claims), "%s.claims", o->shared);
	}
	for (int f = 0; f < o->nfaults; f++)
		if (sim_apply_fault(s, o->faults[f]))
			return -1;
	for (int i = 0; i < s->nboxes; i++) /* (a fault may program one) */
		sim_note_armed(s, &s->boxes[i]);
	for (int d = 0; d < s->ndevs && s->numa_off; d++) /* after the faults: missing:discovery:N finds by node */
		s->devs[d].info.node = -1;
	return sim_changes_poll(s) < 0 ? -1 : 0; /* a machine opened after changes: the node as they left it */
}

struct access *access_sim_open(const char *spec)
{
	char buf[512], *opt, *save = NULL;
	struct sim *s = NULL;
	struct access *a = NULL;
	struct sim_opts o = { .hash = 1469598103934665603ull };
	if (!*spec)
		spec = "snbep"; /* a bare "sim": the first platform the project had */
	if (strlen(spec) >= sizeof(buf)) {
		uc_err("simulator spec is %zu characters long; at most %zu are accepted", strlen(spec), sizeof(buf) - 1);
		goto fail;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	opt = strtok_r(buf, ",", &save);
	const struct sim_kind *k = opt ? sim_kind_of(opt) : NULL;
	if (!k) {
		char names[256];
		sim_kind_names(names, sizeof(names));
		uc_err("unknown simulated platform '%s' (available: %s)", opt ? opt : "", names);
		goto fail;
	}
	/* the machine's state (megabytes: every box's registers and their snapshot) only now */
	if (!(s = sim_alloc()) || !(a = calloc(1, sizeof(*a))))
		goto oom;
	sim_init(s, k);
	while ((opt = strtok_r(NULL, ",", &save)))
		if (sim_option(s, &o, opt))
			goto fail;
	if (sim_build(s, &o, a))
		goto fail;
	a->ops = &sim_access_ops;
	a->priv = s;
	a->simulated = 1;
	a->virtual_clock = s->manual_clock;
	return a;
oom:
	uc_err("out of memory");
fail:
	sim_free(s);
	free(a);
	return NULL;
}
