/*
 * The SNB-EP event tables against Intel's Jaketown perfmon JSON: every code,
 * umask, extra-select bit and counter list must match, except the deliberate
 * differences listed (with reasons) in platforms/snbep/json_differences.txt.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "eventtables.h"
#include "sim_helpers.h"
#include "open/uncore_priv.h"
#include "regs/regs.h"

static char diffs[64][128];
static int ndiffs;

static int deliberate(const char *kind, const char *name)
{
	char key[128];
	snprintf(key, sizeof(key), "%s %s", kind, name);
	for (int i = 0; i < ndiffs; i++)
		if (!strcmp(diffs[i], key))
			return 1;
	return 0;
}

static void load_diffs(const char *file)
{
	char line[1024];
	FILE *f = fopen(file, "r");
	ndiffs = 0;
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f) && ndiffs < 64) {
		char kind[32], name[96];
		if (line[0] == '#' || sscanf(line, "%31s %95s", kind, name) != 2)
			continue;
		CU_ASSERT(strlen(line) > strlen(kind) + strlen(name) + 10); /* every entry has a reason */
		snprintf(diffs[ndiffs++], sizeof(diffs[0]), "%s %s", kind, name);
	}
	fclose(f);
}

static unsigned json_counters(const char *s)
{
	unsigned m = 0;
	for (; *s; s++)
		if (*s >= '0' && *s <= '7')
			m |= 1u << (*s - '0');
	return m;
}

/* Platform p's generated catalog as events (its rows decoded: common/platform/platform.h), made once a platform
 * and kept for the run. */
static const struct uc_event *catalog_of(const struct platform_desc *p)
{
	static const struct platform_desc *done[64];
	static struct uc_event *tables[64];
	int i = 0;
	while (i < 64 && done[i] && done[i] != p)
		i++;
	CU_ASSERT_FATAL(i < 64 && p->events);
	if (!done[i]) {
		tables[i] = calloc((size_t)p->events->n + 1, sizeof(**tables));
		CU_ASSERT_FATAL(tables[i] != NULL);
		for (int k = 0; k < p->events->n; k++)
			uc_catalog_event(p->events, k, &tables[i][k]);
		done[i] = p;
	}
	return tables[i];
}
static int catalog_n(const struct platform_desc *p) { return p->events ? p->events->n : 0; }

static void cross_check(const struct platform_desc *p, const char *json, int min)
{
	char path[512], dpath[512];
	json_error_t err;
	json_t *root, *events, *ev;
	size_t i;
	int checked = 0, bad = 0;
	const struct uc_event *cat = catalog_of(p);
	int ncat = catalog_n(p);
	int *seen = calloc((size_t)ncat, sizeof(int));
	snprintf(path, sizeof(path), SRCDIR "/eventtables/%s", json);
	snprintf(dpath, sizeof(dpath), SRCDIR "/platforms/%s/json_differences.txt", p->name);
	root = json_load_file(path, 0, &err);
	if (!root)
		fprintf(stderr, "%s:%d: %s\n", path, err.line, err.text);
	CU_ASSERT_FATAL(root != NULL);
	load_diffs(dpath);
	events = json_object_get(root, "Events");
	CU_ASSERT_FATAL(json_is_array(events));
	json_array_foreach(events, i, ev) {
		const char *name = json_string_value(json_object_get(ev, "EventName"));
		const char *unit = json_string_value(json_object_get(ev, "Unit"));
		unsigned code = (unsigned)strtoul(json_string_value(json_object_get(ev, "EventCode")), NULL, 16);
		unsigned umask = (unsigned)strtoul(json_string_value(json_object_get(ev, "UMask")), NULL, 16);
		unsigned ext = (unsigned)atoi(json_string_value(json_object_get(ev, "ExtSel")));
		unsigned ctrs = json_counters(json_string_value(json_object_get(ev, "Counter")));
		const struct uc_event *mine = NULL;
		if (deliberate("unit", unit))
			continue;
		for (int k = 0; k < ncat; k++)
			if (!strcmp(cat[k].name, name)) {
				mine = &cat[k];
				seen[k] = 1;
			}
		if (!mine) {
			fprintf(stderr, "missing from the tables: %s\n", name);
			bad++;
			continue;
		}
		checked++;
		if (mine->code != code || mine->umask != umask) {
			fprintf(stderr, "%s: code/umask 0x%x/0x%x, JSON 0x%x/0x%x\n", name, mine->code, mine->umask, code, umask);
			bad++;
		}
		if (mine->ext != ext && !deliberate("ext", name)) {
			fprintf(stderr, "%s: ext %u, JSON %u\n", name, mine->ext, ext);
			bad++;
		}
		unsigned myctrs = (mine->flags & UC_EV_FIXED) ? 0 : mine->ctr_mask;
		if (myctrs != ctrs && !deliberate("counters", name)) {
			fprintf(stderr, "%s: counters 0x%x, JSON 0x%x\n", name, myctrs, ctrs);
			bad++;
		}
	}
	for (int k = 0; k < ncat; k++)
		if (!seen[k] && !deliberate("extra", cat[k].name)) {
			fprintf(stderr, "not in the JSON: %s\n", cat[k].name);
			bad++;
		}
	printf("\n%s: cross-checked %d events against %s, %d differences outside the list\n", p->name, checked, json,
	       bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(checked >= min);
	free(seen);
	json_decref(root);
}

static void test_cross_check(void) { cross_check(platform_by_name("snbep"), "JKT/events/Jaketown_uncore.json", 400); }
static void test_ivbep_cross_check(void) { cross_check(platform_by_name("ivbep"), "IVT/events/ivytown_uncore.json", 1000); }

static const struct uc_event *find_event(const struct platform_desc *p, const char *name)
{
	for (int k = 0; k < catalog_n(p); k++)
		if (!strcmp(catalog_of(p)[k].name, name))
			return &catalog_of(p)[k];
	return NULL;
}

/* Prefix of a name up to the first '.': the event a seed row belongs to. */
static void base_of(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%.*s", (int)strcspn(name, "."), name);
}

/*
 * Nehalem-EP against seed 003's own tables: every row that parses ("NAME <tab> definition <tab> umask
 * <tab> [event]", the event code carried down a table) has the same code and umask in the catalog,
 * except the repairs in seed_differences.txt; every catalog event is named in the seed or listed as filled.
 */
static void test_nhm_seed_check(void)
{
	char line[4096], seedtext[200000] = "";
	FILE *f = fopen(REFDIR "/seed003_names.txt", "r");
	int lineno = 0, checked = 0, bad = 0, code = -1, at = 0;
	size_t have = 0;
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) /* every UNC_ word the seed uses */
		if (have + strlen(line) < sizeof(seedtext)) {
			memcpy(seedtext + have, line, strlen(line) + 1);
			have += strlen(line);
		}
	fclose(f);
	f = fopen(REFDIR "/seed003_nhm_rows.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	load_diffs(SRCDIR "/platforms/nhm/seed_differences.txt");
	while (fgets(line, sizeof(line), f)) {
		char name[128], um[8], ev[8];
		int n;
		if (sscanf(line, "%d\t%n", &lineno, &at) != 1 || !at)
			continue; /* "LINE<TAB>the seed's row" */
		n = sscanf(line + at, "%127[A-Z0-9_.]\t%*[^\t]\t%2[0-9A-F]\t%2[0-9A-F]", name, um, ev);
		if (n < 2 || name[strlen(name) - 1] == '.')
			continue;
		if (n == 3)
			code = (int)strtol(ev, NULL, 16);
		const struct uc_event *e = find_event(platform_by_name("nhm"), name);
		if (!e) {
			if (!deliberate("form", name)) {
				fprintf(stderr, "seed 003 L%d: %s is not in the tables\n", lineno, name);
				bad++;
			}
			continue;
		}
		checked++;
		if ((e->code != code || e->umask != strtol(um, NULL, 16)) && !deliberate("value", name)) {
			fprintf(stderr, "seed 003 L%d: %s 0x%x/0x%lx, tables 0x%x/0x%x\n", lineno, name, code,
				strtol(um, NULL, 16), e->code, e->umask);
			bad++;
		}
	}
	fclose(f);
	for (int k = 0; k < catalog_n(platform_by_name("nhm")); k++) {
		char base[96];
		base_of(catalog_of(platform_by_name("nhm"))[k].name, base, sizeof(base));
		if (!strstr(seedtext, catalog_of(platform_by_name("nhm"))[k].name) && !deliberate("filled", base) &&
		    !strstr(seedtext, base)) {
			fprintf(stderr, "%s is named nowhere in seed 003\n", catalog_of(platform_by_name("nhm"))[k].name);
			bad++;
		}
	}
	printf("\nnhm: %d seed rows cross-checked, %d differences outside the list\n", checked, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(checked >= 90);
}

/* Montecito against seed 004 Table 4-37 (and Table 4-1 for CPU_OP_CYCLES): every "NAME 0xNN Y/N Y/N Y/N max"
 * entry of the system bus table is in the catalog with that code and Max Inc/Cyc, and every catalog
 * event is such an entry. */
static void test_montecito_seed_check(void)
{
	char line[8192];
	FILE *f = fopen(REFDIR "/seed004_bus_events.txt", "r");
	int lineno = 0, checked = 0, bad = 0, at = 0;
	char names[64][64];
	int nnames = 0;
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %n", &lineno, &at) != 1 || !at)
			continue; /* "LINE entry" */
		for (char *p = line + at; *p; p++) {
			char name[64], yn[3][4];
			unsigned code;
			int max, used = 0;
			if ((p != line + at && p[-1] != ' ') || !(*p >= 'A' && *p <= 'Z'))
				continue;
			if (sscanf(p, "%63[A-Z0-9_] 0x%2x %3s %3s %3s %d%n", name, &code, yn[0], yn[1], yn[2], &max, &used) != 6)
				continue;
			if (strcmp(name, "CPU_OP_CYCLES") && strncmp(name, "BUS_", 4) && strncmp(name, "SI_", 3) &&
			    strncmp(name, "ER_", 3) && strcmp(name, "MEM_READ_CURRENT"))
				continue;
			int found = 0;
			for (int k = 0; k < catalog_n(platform_by_name("montecito")); k++) {
				const struct uc_event *e = &catalog_of(platform_by_name("montecito"))[k];
				char base[96];
				base_of(e->name, base, sizeof(base));
				if (strcmp(base, name))
					continue;
				found = 1;
				if (e->code != code || e->maxinc != max) {
					fprintf(stderr, "seed 004 L%d: %s 0x%x max %d, tables 0x%x max %d\n", lineno, name,
						code, max, e->code, e->maxinc);
					bad++;
				}
			}
			if (!found) {
				fprintf(stderr, "seed 004 L%d: %s is not in the tables\n", lineno, name);
				bad++;
			}
			if (nnames < 64)
				snprintf(names[nnames++], sizeof(names[0]), "%s", name);
			checked++;
			p += used - 1;
		}
	}
	fclose(f);
	for (int k = 0; k < catalog_n(platform_by_name("montecito")); k++) {
		char base[96];
		int named = 0;
		base_of(catalog_of(platform_by_name("montecito"))[k].name, base, sizeof(base));
		for (int i = 0; i < nnames; i++)
			named |= !strcmp(names[i], base);
		if (!named) {
			fprintf(stderr, "%s is not in seed 004's tables\n", catalog_of(platform_by_name("montecito"))[k].name);
			bad++;
		}
		/* bus, SI and ER events only on PMC/PMD4-9 (seed L1359) */
		if (catalog_of(platform_by_name("montecito"))[k].code >= 0x80)
			CU_ASSERT_EQUAL(catalog_of(platform_by_name("montecito"))[k].ctr_mask, 0x3f);
	}
	printf("\nmontecito: %d seed entries cross-checked, %d differences\n", checked, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(checked, 49); /* the 48 bus-table events and CPU_OP_CYCLES */
}

static unsigned hex(json_t *ev, const char *key)
{
	const char *s = json_string_value(json_object_get(ev, key));
	return s ? (unsigned)strtoul(s, NULL, 16) : 0;
}

/*
 * EMR: every perfmon event (both files) of a unit EMR XCC has is in the tables with the same code,
 * umask and umask_ext (PortMask/FCMask folded in as the IIO control word has them), and never on a
 * counter the JSON does not list: where the seed and the JSON disagree, the tables keep the counters
 * both allow (platforms/emr/json_differences.txt; notes emr.md 11).
 */
static void test_emr_cross_check(void)
{
	static const char *const files[] = { "EMR/events/emeraldrapids_uncore.json",
						  "EMR/events/emeraldrapids_uncore_experimental.json" };
	const struct uc_event *cat = catalog_of(platform_by_name("emr"));
	int ncat = catalog_n(platform_by_name("emr")), checked = 0, bad = 0;
	for (int f = 0; f < 2; f++) {
		json_t *root = eventtable(files[f]), *ev;
		size_t i;
		json_array_foreach(json_object_get(root, "Events"), i, ev) {
			const char *name = json_string_value(json_object_get(ev, "EventName"));
			const char *unit = json_string_value(json_object_get(ev, "Unit"));
			const char *type = json_string_value(json_object_get(ev, "CounterType"));
			unsigned ext = hex(ev, "UMaskExt"), port = hex(ev, "PortMask"), fc = hex(ev, "FCMask");
			const struct uc_event *mine = NULL;
			if (!strcmp(unit, "MCHBM") || !strcmp(unit, "M2HBM"))
				continue; /* HBM units of SPR-HBM, not on EMR XCC (notes emr.md 1) */
			if (!ext && (port || fc))
				ext = fc << 16 | port << 4;
			for (int k = 0; k < ncat && !mine; k++)
				if (!strcmp(cat[k].name, name))
					mine = &cat[k];
			if (!mine) {
				fprintf(stderr, "missing from the EMR tables: %s\n", name);
				bad++;
				continue;
			}
			checked++;
			if (type && !strcmp(type, "FREERUN")) {
				if (!(mine->flags & UC_EV_FREERUN) || mine->umask != (unsigned)atoi(json_string_value(
										     json_object_get(ev, "Counter")))) {
					fprintf(stderr, "%s: free-running counter index differs\n", name);
					bad++;
				}
				continue;
			}
			unsigned jmask = 0;
			for (const char *c = json_string_value(json_object_get(ev, "Counter")); c && *c; c++)
				if (*c >= '0' && *c <= '9')
					jmask |= 1u << (*c - '0');
			if (mine->ctr_mask & ~jmask) {
				fprintf(stderr, "%s: counters 0x%x, JSON allows only 0x%x\n", name, mine->ctr_mask, jmask);
				bad++;
			}
			if (mine->code != hex(ev, "EventCode") || mine->umask != hex(ev, "UMask") || mine->umext != ext) {
				fprintf(stderr, "%s: 0x%x/0x%x/0x%x, JSON 0x%x/0x%x/0x%x\n", name, mine->code, mine->umask,
					mine->umext, hex(ev, "EventCode"), hex(ev, "UMask"), ext);
				bad++;
			}
		}
		json_decref(root);
	}
	printf("\nEMR: %d rows in the tables, %d cross-checked against the JSON, %d differences\n", ncat, checked, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(checked >= 2000);
	CU_ASSERT(ncat >= 2500);
}

/* Every catalog row is well formed: a description, a source, counters inside the box. */
static void check_rows(const struct platform_desc *p)
{
	const struct uc_event *cat = catalog_of(p);
	for (int k = 0; k < catalog_n(p); k++) {
		const struct box_type *bt = NULL;
		for (int t = 0; t < p->ntypes; t++)
			if (!strcmp(p->types[t]->name, cat[k].unit))
				bt = p->types[t];
		CU_ASSERT_FATAL(bt != NULL);
		/* our own words say enough; Intel's, kept as the JSON has them, may be as short as "VR Hot" or "-"
		 * (a few GNR IIO events) */
		CU_ASSERT(strlen(cat[k].desc) > 10 || (!strcmp(cat[k].src, "json") && cat[k].desc[0]));
		CU_ASSERT(cat[k].src[0] != 0);
		/* a deprecated alias keeps Intel's old name (UNC_H_* on the CHA): its replacement's has the prefix */
		CU_ASSERT(strncmp((cat[k].flags & UC_EV_DEPRECATED) ? cat[k].src : cat[k].name, bt->prefix, strlen(bt->prefix)) == 0);
		if (cat[k].flags & UC_EV_FIXED) {
			CU_ASSERT(bt->has_fixed);
		} else if (cat[k].flags & UC_EV_FREERUN) {
			CU_ASSERT(cat[k].umask < bt->nfr);
		} else {
			CU_ASSERT(cat[k].ctr_mask && !(cat[k].ctr_mask >> bt->nctr));
		}
	}
}

static void test_rows_well_formed(void)
{
	for (int i = 0; uc_platforms[i]; i++)
		check_rows(uc_platforms[i]);
}

/* A one-event perfmon file in $TMPDIR; the caller removes it. */
static const char *event_file(const char *unit, const char *counter_field)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/uncore-counter-%ld.json", test_tmpdir(), (long)getpid());
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "{ \"Events\": [\n  { \"Unit\": \"%s\", \"EventCode\": \"0x01\", \"UMask\": \"0x00\",\n"
		   "    \"EventName\": \"UNC_TEST_EVENT\"%s%s }\n] }\n", unit, *counter_field ? ", " : "", counter_field);
	fclose(f);
	return path;
}

/* Intel's files load whole, every Counter form in them accepted; a malformed Counter (which once meant
 * every counter) is refused naming file, line and field. */
static void test_counter_field(void)
{
	static const struct { const char *plat, *file; } intel[] = {
		{ "sim:snbep", "JKT/events/Jaketown_uncore.json" }, { "sim:ivbep", "IVT/events/ivytown_uncore.json" },
		{ "sim:emr", "EMR/events/emeraldrapids_uncore.json" },
		{ "sim:emr", "EMR/events/emeraldrapids_uncore_experimental.json" },
		{ "sim:generic", "EMR/events/emeraldrapids_uncore.json" },
	};
	for (size_t i = 0; i < sizeof(intel) / sizeof(intel[0]); i++) {
		char path[512];
		uncore_t *u = open_sim(intel[i].plat);
		snprintf(path, sizeof(path), SRCDIR "/eventtables/%s", intel[i].file);
		int n = uncore_load_events(u, path);
		if (n <= 0)
			fprintf(stderr, "%s on %s: %d: %s\n", intel[i].file, intel[i].plat, n, uncore_error());
		CU_ASSERT(n > 0);
		uncore_close(u);
	}
	/* the forms Intel uses, and what each means on an SNB-EP CBo (4 counters) */
	static const struct { const char *field; unsigned mask; int fixed; } good[] = {
		{ "\"Counter\": \"0,1,2,3\"", 0xf, 0 }, { "\"Counter\": \"0,1\"", 0x3, 0 }, { "\"Counter\": \"0\"", 0x1, 0 },
		{ "\"Counter\": \"2,3\"", 0xc, 0 },     { "\"Counter\": \"1,2,3\"", 0xe, 0 }, { "\"Counter\": \"FIXED\"", 0, 1 },
		{ "\"Counter\": \"Fixed\"", 0, 1 },      { "", 0xf, 0 },
	};
	uncore_t *u = open_sim("sim:snbep");
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int n = uncore_load_events(u, event_file("CBO", good[i].field));
		int k = uncore_event_find(u, "UNC_TEST_EVENT");
		if (n != 1)
			fprintf(stderr, "{%s}: %s\n", good[i].field, uncore_error());
		CU_ASSERT_FATAL(n == 1 && k >= 0);
		CU_ASSERT_EQUAL(u->events[k].ctr_mask, good[i].fixed ? 0 : good[i].mask);
		CU_ASSERT_EQUAL(!!(u->events[k].flags & UC_EV_FIXED), good[i].fixed);
	}
	static const char *const bad[] = { "\"15\"", "\"4\"", "\"abc\"", "\"-1\"", "\"\"", "\"0x1\"", "\"0,\"",
					   "\",1\"", "\"0,,1\"", "\"0 1\"", "\"0-3\"", "\"99999999999\"", "0", "null",
					   "[0]" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char field[64], want[128];
		snprintf(field, sizeof(field), "\"Counter\": %s", bad[i]);
		const char *path = event_file("CBO", field);
		CU_ASSERT(uncore_load_events(u, path) < 0);
		snprintf(want, sizeof(want), "%s:3: event UNC_TEST_EVENT: field \"Counter\" is ", path);
		if (strncmp(uncore_error(), want, strlen(want)) || !strstr(uncore_error(), "cbo counters 0..3"))
			fprintf(stderr, "{%s}: '%s'\n", field, uncore_error());
		CU_ASSERT(!strncmp(uncore_error(), want, strlen(want)) && strstr(uncore_error(), "cbo counters 0..3"));
	}
	remove(event_file("CBO", ""));
	uncore_close(u);
}


/* The filter registers of box 0 on socket 0 of the event's type while a session counts it there, in v;
 * 0 when it cannot be counted so (a filter field it requires, a unit this machine lacks). */
static int programmed_filters(uncore_t *u, const char *name, uint64_t v[UC_MAX_FILT])
{
	char spec[256];
	uncore_session_t *s;
	int k = uncore_event_find(u, name), ok = 0;
	snprintf(spec, sizeof(spec), "%s:socket=0:box=0", name);
	CU_ASSERT_FATAL(k >= 0 && uncore_session_new(u, &s) == 0);
	if (uncore_session_add(s, spec) == 0 && uncore_session_start(s) == 0) {
		for (int i = 0; i < u->nboxes; i++) {
			const struct box *b = &u->boxes[i];
			if (strcmp(b->t->name, u->events[k].unit) || b->socket || b->idx)
				continue;
			for (int f = 0; f < UC_MAX_FILT; f++) {
				struct pmon_reg r;
				v[f] = 0;
				if (!pmon_reg(b, PK_FILT, f, &r))
					CU_ASSERT(pmon_read(u, b, &r, &v[f]) == 0);
			}
			ok = 1;
		}
	}
	uncore_session_free(s);
	return ok;
}

/* Intel's events with a Filter, loaded from a file under other names, carry what the built-in events of
 * the same rows got from the platform's unit map: the same filter spec, and the same filter register
 * values programmed (Skylake-SP's FILTER_VALUE cut into FILTER1's fields, the CBo state of Haswell- and
 * Broadwell-EP).  Once they were loaded without any, counting what no filter selects. */
static void test_loaded_filters(void)
{
	static const struct { const char *plat, *file; } cases[] = {
		{ "skx", "SKX/events/skylakex_uncore.json" },
		{ "bdx", "BDX/events/broadwellx_uncore.json" },
		{ "hsx", "HSX/events/haswellx_uncore.json" },
	};
	char path[512];
	snprintf(path, sizeof(path), "%s/uncore-filters-%ld.json", test_tmpdir(), (long)getpid());
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char spec[64];
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual", cases[c].plat);
		uncore_t *u = open_sim(spec);
		json_t *root = eventtable(cases[c].file), *out = json_array(), *ev;
		size_t i;
		json_array_foreach(json_object_get(root, "Events"), i, ev) {
			const char *filt = json_string_value(json_object_get(ev, "Filter"));
			const char *name = json_string_value(json_object_get(ev, "EventName"));
			char loaded[256];
			if (!filt || !*filt || !strcmp(filt, "na") || uncore_event_find(u, name) < 0)
				continue;
			json_t *copy = json_deep_copy(ev);
			snprintf(loaded, sizeof(loaded), "%s_LOADED", name);
			json_object_set_new(copy, "EventName", json_string(loaded));
			json_array_append_new(out, copy);
		}
		json_t *doc = json_pack("{s:o}", "Events", out);
		CU_ASSERT_FATAL(doc && json_dump_file(doc, path, JSON_INDENT(1)) == 0);
		int n = uncore_load_events(u, path), programmed = 0, nonzero = 0;
		if (n != (int)json_array_size(out))
			fprintf(stderr, "%s: %d of %zu loaded: %s %s\n", cases[c].plat, n, json_array_size(out), uncore_error(),
				uncore_warnings());
		CU_ASSERT(n == (int)json_array_size(out) && n > 0);
		json_array_foreach(out, i, ev) {
			const char *loaded = json_string_value(json_object_get(ev, "EventName"));
			char name[256];
			snprintf(name, sizeof(name), "%.*s", (int)(strlen(loaded) - strlen("_LOADED")), loaded);
			int k0 = uncore_event_find(u, name), k1 = uncore_event_find(u, loaded);
			CU_ASSERT_FATAL(k0 >= 0 && k1 >= 0);
			if (strcmp(u->events[k0].filters, u->events[k1].filters))
				fprintf(stderr, "%s %s: Filter \"%s\": built in '%s', loaded '%s'\n", cases[c].plat, name,
					json_string_value(json_object_get(ev, "Filter")), u->events[k0].filters,
					u->events[k1].filters);
			CU_ASSERT_STRING_EQUAL(u->events[k0].filters, u->events[k1].filters);
			uint64_t want[UC_MAX_FILT], got[UC_MAX_FILT];
			if (!programmed_filters(u, name, want))
				continue;
			if (!programmed_filters(u, loaded, got)) {
				fprintf(stderr, "%s %s: the built-in event counts, the loaded one not: %s\n", cases[c].plat,
					loaded, uncore_error());
				CU_FAIL("loaded event not counted");
				continue;
			}
			if (memcmp(want, got, sizeof(want)))
				fprintf(stderr, "%s %s: filter registers 0x%llx 0x%llx built in, 0x%llx 0x%llx loaded\n",
					cases[c].plat, name, (unsigned long long)want[0], (unsigned long long)want[1],
					(unsigned long long)got[0], (unsigned long long)got[1]);
			CU_ASSERT(!memcmp(want, got, sizeof(want)));
			programmed++;
			for (int f = 0; f < UC_MAX_FILT; f++)
				nonzero += !!want[f];
		}
		printf("\n%s: %d events with a Filter loaded, %d programmed alike, %d filter registers set\n",
		       cases[c].plat, n, programmed, nonzero);
		CU_ASSERT(programmed > 0 && nonzero > 0);
		json_decref(doc);
		json_decref(root);
		uncore_close(u);
	}
	/* a Filter the platform's unit map does not name: the event is left out, with a warning, not loaded
	 * without its filter; "null" (JKT's, IVT's) and "na" mean none; a FILTER_VALUE that is not a number */
	uncore_t *u = open_sim("sim:snbep");
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "[ { \"Unit\": \"CBO\", \"EventCode\": \"0x34\", \"UMask\": \"0x03\", \"EventName\": \"UNC_TEST_A\",\n"
		   "    \"Filter\": \"CBoFilter[22:18]\" },\n"
		   "  { \"Unit\": \"CBO\", \"EventCode\": \"0x34\", \"UMask\": \"0x03\", \"EventName\": \"UNC_TEST_B\",\n"
		   "    \"Filter\": \"null\" } ]\n");
	fclose(f);
	CU_ASSERT_EQUAL(uncore_load_events(u, path), 1);
	CU_ASSERT(uncore_event_find(u, "UNC_TEST_A") < 0 && uncore_event_find(u, "UNC_TEST_B") >= 0);
	CU_ASSERT(warned("1 events were skipped: what their Filter \"CBoFilter[22:18]\" means on snbep is not known"));
	uncore_close(u);
	u = open_sim("sim:skx");
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "[ { \"Unit\": \"CHA\", \"EventCode\": \"0x35\", \"UMask\": \"0x21\", \"EventName\": \"UNC_TEST_C\",\n"
		   "    \"Filter\": \"Filter1\", \"FILTER_VALUE\": \"0x4z433\" } ]\n");
	fclose(f);
	CU_ASSERT(uncore_load_events(u, path) < 0);
	if (!strstr(uncore_error(), ":1: event UNC_TEST_C: field \"Filter\" FILTER_VALUE \"0x4z433\" is not a hexadecimal"))
		fprintf(stderr, "bad FILTER_VALUE: %s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), ":1: event UNC_TEST_C: field \"Filter\" FILTER_VALUE \"0x4z433\" is not a hexadecimal") != NULL);
	uncore_close(u);
	remove(path);
}

/*
 * Catalogs generated from Intel's JSON (tools/gen/gen_perfmon) equal the JSON event for event.  The test
 * reads the JSON itself with jansson and the platform's unit map (our only input: which files, which
 * Unit is which box, what a Filter means, where PortMask/FCMask go), and derives each event's code,
 * umask, umask_ext, ExtSel, counters, fixed/free-running flag, filters and description on its own.
 */
struct unit_map {
	char json[8][256];
	char unit[64][2][128]; /* box, perfmon Unit */
	char filter[24][2][128]; /* ours ("-": none), JSON Filter (HSX's QPI string is 64 characters) */
	char fold[4][128];
	int shift[4], njson, nunit, nfilter, nfold;
	char keep_dep[260]; /* "deprecated UNIT": that Unit's deprecated events are in the catalog too */
	char narrow_box[8][128]; /* narrow BOX CODE MASK: the driver's counter restriction, declared in the map */
	unsigned narrow_code[8], narrow_mask[8];
	int nnarrow;
	char freerun_unit[4][128]; /* freerun UNIT N: that Unit's free-running counters N and up are left out */
	int freerun_n[4], nfreerun;
};

/* One map file's lines into m; "include FILE" reads FILE (relative to the map's folder) in place. */
static void read_map_file(const char *dir, const char *file, struct unit_map *m)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		char kw[16], a[128], b[128];
		int n = sscanf(line, "%15s %127s %127[^\n]", kw, a, b);
		if (n < 2 || kw[0] == '#')
			continue;
		if (!strcmp(kw, "include")) {
			char sub[512], *slash;
			snprintf(sub, sizeof(sub), "%s/%s", dir, a);
			slash = strrchr(sub, '/');
			*slash = 0;
			read_map_file(sub, slash + 1, m);
		} else if (!strcmp(kw, "json") && m->njson < 8)
			snprintf(m->json[m->njson++], sizeof(m->json[0]), "%s", a);
		else if (!strcmp(kw, "unit") && n == 3 && m->nunit < 64) {
			snprintf(m->unit[m->nunit][0], sizeof(m->unit[0][0]), "%s", a);
			snprintf(m->unit[m->nunit++][1], sizeof(m->unit[0][1]), "%s", b);
		} else if (!strcmp(kw, "filter") && n == 3 && m->nfilter < 24) {
			memcpy(m->filter[m->nfilter][0], strcmp(a, "-") ? a : "", strcmp(a, "-") ? sizeof(a) : 1);
			memcpy(m->filter[m->nfilter++][1], b, sizeof(b));
		} else if (!strcmp(kw, "deprecated") && n >= 2) {
			snprintf(m->keep_dep, sizeof(m->keep_dep), "%s%s%s", a, n == 3 ? " " : "", n == 3 ? b : "");
		} else if (!strcmp(kw, "narrow") && n == 3 && m->nnarrow < 8 &&
			   sscanf(b, "%x %x", &m->narrow_code[m->nnarrow], &m->narrow_mask[m->nnarrow]) == 2) {
			snprintf(m->narrow_box[m->nnarrow++], sizeof(m->narrow_box[0]), "%s", a);
		} else if (!strcmp(kw, "freerun") && n == 3 && m->nfreerun < 4) {
			snprintf(m->freerun_unit[m->nfreerun], sizeof(m->freerun_unit[0]), "%s", a);
			m->freerun_n[m->nfreerun++] = atoi(b);
		} else if (!strcmp(kw, "fold") && n == 3 && m->nfold < 4) {
			snprintf(m->fold[m->nfold], sizeof(m->fold[0]), "%s", a);
			m->shift[m->nfold++] = atoi(b);
		}
	}
	fclose(f);
}

static void read_unit_map(const char *platform, struct unit_map *m)
{
	char dir[512];
	snprintf(dir, sizeof(dir), SRCDIR "/platforms/%s", platform);
	memset(m, 0, sizeof(*m));
	read_map_file(dir, "perfmon_units.txt", m);
	CU_ASSERT(m->njson > 0 && m->nunit > 0);
}

/* The JSON's counter list as a mask, read digit group by digit group. */
static unsigned counter_list(const char *s)
{
	char copy[64], *save = NULL;
	unsigned mask = 0;
	snprintf(copy, sizeof(copy), "%s", s);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		mask |= 1u << atoi(t);
	return mask;
}

/* A map's "split(name@lo[.width],...)" applied to the JSON's FILTER_VALUE, read here on its own: every field
 * as "name:0xV", in the map's order (NULL when a set bit has no field). */
static const char *split_filter(const char *spec, json_t *ev, char *out, size_t len)
{
	const char *fv = json_string_value(json_object_get(ev, "FILTER_VALUE"));
	unsigned long long v = fv ? strtoull(fv, NULL, 16) : 0, left = v;
	char copy[128], *save = NULL;
	size_t n = 0;
	snprintf(copy, sizeof(copy), "%s", spec + 6);
	copy[strcspn(copy, ")")] = 0;
	out[0] = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *at = strchr(t, '@'), *dot = at ? strchr(at, '.') : NULL;
		int lo = at ? atoi(at + 1) : 0, w = dot ? atoi(dot + 1) : 1;
		unsigned long long f = (v >> lo) & ((1ull << w) - 1);
		left &= ~(((1ull << w) - 1) << lo);
		if (at)
			*at = 0;
		n += (size_t)snprintf(out + n, len - n, "%s%s:0x%llx", n ? "," : "", t, f);
	}
	return left ? NULL : out;
}

/* The event a deprecated one names as its replacement, as Intel's descriptions word it ("Refer to new event X",
 * "[This event is alias to X]"), in buf ("" when none), read here on its own. */
static const char *replacement_of(json_t *ev, char *buf, size_t len)
{
	static const char *const keys[] = { "BriefDescription", "PublicDescription" };
	static const char *const says[] = { "Refer to new event ", "This event is alias to " };
	buf[0] = 0;
	for (int k = 0; k < 2 && !buf[0]; k++)
		for (int w = 0; w < 2 && !buf[0]; w++) {
			const char *d = json_string_value(json_object_get(ev, keys[k])), *at = d ? strstr(d, says[w]) : NULL;
			if (!at)
				continue;
			at += strlen(says[w]);
			size_t n = 0;
			while (at[n] && at[n] != ' ' && at[n] != ']' && at[n] != '\n')
				n++;
			while (n && at[n - 1] == '.')
				n--;
			snprintf(buf, len, "%.*s", (int)n, at);
		}
	return buf;
}

/* The box the map gives perfmon Unit unit, or NULL. */
static const char *box_of(const struct unit_map *m, const char *unit)
{
	for (int u = 0; u < m->nunit; u++)
		if (unit && !strcmp(m->unit[u][1], unit))
			return m->unit[u][0];
	return NULL;
}

/* The live (not deprecated) event named name in the map's files, on a box the catalog has, or NULL. */
static json_t *live_event(const struct unit_map *m, json_t *const *roots, const char *name)
{
	for (int j = 0; j < m->njson; j++) {
		size_t i;
		json_t *ev;
		json_array_foreach(json_object_get(roots[j], "Events"), i, ev) {
			const char *dep = json_string_value(json_object_get(ev, "Deprecated"));
			const char *box = box_of(m, json_string_value(json_object_get(ev, "Unit")));
			if (!strcmp(json_string_value(json_object_get(ev, "EventName")), name) && !(dep && !strcmp(dep, "1")) &&
			    box && strcmp(box, "-"))
				return ev;
		}
	}
	return NULL;
}

/* How many events differ between cat and the JSON documents roots (the map's files, in order).  A deprecated
 * event that names a replacement the catalog has must be a row of its own name with exactly the replacement's
 * encoding, flagged UC_EV_DEPRECATED, after every live row (the catalog's alias); other deprecated events are
 * left out but those of a Unit the map keeps. */
static int json_differences(const struct uc_event *cat, int ncat, const struct unit_map *m, json_t *const *roots)
{
	int bad = 0, seen = 0;
	for (int j = 0; j < m->njson; j++) {
		size_t i;
		json_t *ev;
		json_array_foreach(json_object_get(roots[j], "Events"), i, ev) {
			const char *name = json_string_value(json_object_get(ev, "EventName"));
			const char *unit = json_string_value(json_object_get(ev, "Unit"));
			const char *ctr = json_string_value(json_object_get(ev, "Counter"));
			const char *type = json_string_value(json_object_get(ev, "CounterType"));
			type = type ? type : ""; /* the HSX, SKX and CLX files have no CounterType */
			const char *filt = json_string_value(json_object_get(ev, "Filter"));
			const char *dep = json_string_value(json_object_get(ev, "Deprecated"));
			const char *box = NULL, *want_filter = "?";
			char split[256];
			const struct uc_event *mine = NULL;
			for (int u = 0; u < m->nunit && !box; u++)
				if (!strcmp(m->unit[u][1], unit))
					box = m->unit[u][0];
			if (!box) {
				fprintf(stderr, "%s: unit %s not in the unit map\n", name, unit);
				bad++;
				continue;
			}
			json_t *src = ev; /* whose encoding the row has: a deprecated name's replacement's */
			char repl[256] = "";
			if (!strcmp(box, "-"))
				continue;
			if (dep && !strcmp(dep, "1")) {
				src = *replacement_of(ev, repl, sizeof(repl)) ? live_event(m, roots, repl) : NULL;
				if (!src && (*repl || strcmp(m->keep_dep, unit)))
					continue;
				src = src ? src : ev;
				box = box_of(m, json_string_value(json_object_get(src, "Unit")));
				ctr = json_string_value(json_object_get(src, "Counter"));
				type = json_string_value(json_object_get(src, "CounterType"));
				type = type ? type : "";
				filt = json_string_value(json_object_get(src, "Filter"));
			}
			int alias = src != ev;
			int beyond = 0; /* a free-running counter the map says the box does not have */
			for (int k = 0; k < m->nfreerun; k++)
				beyond |= !strcmp(m->freerun_unit[k], unit) && !strcmp(type, "FREERUN") && atoi(ctr) >= m->freerun_n[k];
			if (beyond)
				continue;
			for (int k = 0; k < ncat && !mine; k++)
				if (!strcmp(cat[k].name, name))
					mine = &cat[k];
			if (!mine) {
				fprintf(stderr, "%s: missing from the generated catalog\n", name);
				bad++;
				continue;
			}
			seen++;
			unsigned long long umask = strtoull(json_string_value(json_object_get(src, "UMask")), NULL, 16);
			unsigned long long umext = hex(src, "UMaskExt");
			if (umask > 0xff) {
				umext = umask >> 8;
				umask &= 0xff;
			}
			for (int f = 0; f < m->nfold && !hex(src, "UMaskExt"); f++)
				umext |= (unsigned long long)hex(src, m->fold[f]) << m->shift[f];
			unsigned flags = !strcmp(type, "FREERUN") ? UC_EV_FREERUN : !strcmp(ctr, "FIXED") ? UC_EV_FIXED : 0;
			unsigned mask = flags ? 0 : counter_list(ctr);
			for (int k = 0; k < m->nnarrow; k++)
				if (!strcmp(m->narrow_box[k], box) && m->narrow_code[k] == hex(src, "EventCode"))
					mask &= m->narrow_mask[k];
			if (flags == UC_EV_FREERUN)
				umask = (unsigned)atoi(ctr);
			if (!filt || !strcmp(filt, "na"))
				want_filter = "";
			for (int f = 0; f < m->nfilter; f++)
				if (filt && !strcmp(m->filter[f][1], filt))
					want_filter = m->filter[f][0];
			if (!strncmp(want_filter, "split(", 6) && !(want_filter = split_filter(want_filter, src, split, sizeof(split))))
				want_filter = "?"; /* a FILTER_VALUE bit no field takes */
			if (alias)
				flags |= UC_EV_DEPRECATED;
			if (strcmp(mine->unit, box) || mine->code != hex(src, "EventCode") || mine->umask != umask ||
			    mine->umext != umext || mine->ext != (unsigned)atoi(json_string_value(json_object_get(src, "ExtSel"))) ||
			    mine->ctr_mask != mask || (mine->flags & (UC_EV_FIXED | UC_EV_FREERUN | UC_EV_DEPRECATED)) != flags ||
			    strcmp(mine->filters, want_filter) || strcmp(mine->src, alias ? repl : "json") ||
			    strcmp(mine->desc, json_string_value(json_object_get(ev, "BriefDescription")))) {
				fprintf(stderr, "%s: %s 0x%x/0x%x/0x%x ctrs 0x%x flags 0x%x '%s' (%s), JSON %s 0x%x/0x%llx/0x%llx "
					"ctrs 0x%x flags 0x%x '%s' (%s)\n", name, mine->unit, mine->code, mine->umask, mine->umext,
					mine->ctr_mask, mine->flags, mine->filters, mine->src, box, hex(src, "EventCode"), umask,
					umext, mask, flags, want_filter, alias ? repl : "json");
				bad++;
			}
		}
	}
	if (seen != ncat) {
		fprintf(stderr, "the catalog has %d events, the JSON %d\n", ncat, seen);
		bad += abs(ncat - seen);
	}
	for (int k = 1; k < ncat; k++) /* the aliases end the table: the catalog copies the rows before them */
		if ((cat[k - 1].flags & UC_EV_DEPRECATED) && !(cat[k].flags & UC_EV_DEPRECATED)) {
			fprintf(stderr, "%s: a live event after the deprecated %s\n", cat[k].name, cat[k - 1].name);
			bad++;
		}
	return bad;
}

static void load_map_json(const char *platform, struct unit_map *m, json_t **roots)
{
	read_unit_map(platform, m);
	for (int j = 0; j < m->njson; j++)
		roots[j] = eventtable(m->json[j]);
}

static void test_generated_equal_json(void)
{
	struct unit_map m;
	json_t *roots[8];
	int checked = 0;
	/* every built-in platform whose catalog is generated (SPR: 289 + 1993 events, less the HBM units') */
	CU_ASSERT(catalog_n(platform_by_name("spr")) > 2000);
	for (int i = 0; uc_platforms[i]; i++) {
		char path[512];
		snprintf(path, sizeof(path), SRCDIR "/platforms/%s/perfmon_units.txt", uc_platforms[i]->name);
		if (access(path, R_OK))
			continue;
		load_map_json(uc_platforms[i]->name, &m, roots);
		int bad = json_differences(catalog_of(uc_platforms[i]), catalog_n(uc_platforms[i]), &m, roots);
		printf("\n%s: %d generated events, %d differences from the JSON\n", uc_platforms[i]->name,
		       catalog_n(uc_platforms[i]), bad);
		CU_ASSERT_EQUAL(bad, 0);
		checked++;
		for (int j = 0; j < m.njson; j++)
			json_decref(roots[j]);
	}
	printf("\n%d built-in platforms with generated catalogs checked\n", checked);
}

/* The comparison sees a change of any one JSON value it compares (so a stale or wrong catalog fails). */
static void test_generated_mutations(void)
{
	static const struct { const char *key, *value; } muts[] = {
		{ "EventCode", "0x7e" }, { "UMask", "0x5a" }, { "UMaskExt", "0x00000100" }, { "Counter", "0,1,2" },
		{ "CounterType", "FREERUN" }, { "Counter", "FIXED" }, { "ExtSel", "1" },
		{ "Filter", "CBoFilter0[23:17]" }, { "BriefDescription", "changed" }, { "Unit", "IRP" },
		{ "EventName", "UNC_CHA_NO_SUCH_EVENT" }, { "Deprecated", "1" }, { "PortMask", "0x02" },
	};
	struct unit_map m;
	json_t *roots[8];
	const struct platform_desc *spr = platform_by_name("spr");
	load_map_json("spr", &m, roots);
	/* an event with a zero UMaskExt, so that PortMask folds in */
	json_t *events = json_object_get(roots[0], "Events"), *ev = NULL;
	size_t i;
	json_array_foreach(events, i, ev)
		if (!strcmp(json_string_value(json_object_get(ev, "Unit")), "IIO") && !hex(ev, "UMaskExt") &&
		    !hex(ev, "PortMask") && strcmp(json_string_value(json_object_get(ev, "CounterType")), "FREERUN"))
			break;
	CU_ASSERT_FATAL(ev != NULL && i < json_array_size(events));
	for (size_t k = 0; k < sizeof(muts) / sizeof(muts[0]); k++) {
		json_t *was = json_deep_copy(json_object_get(ev, muts[k].key));
		json_object_set_new(ev, muts[k].key, json_string(muts[k].value));
		int bad = json_differences(catalog_of(spr), catalog_n(spr), &m, roots);
		if (bad < 1)
			fprintf(stderr, "%s=%s went unnoticed\n", muts[k].key, muts[k].value);
		CU_ASSERT(bad >= 1);
		json_object_set_new(ev, muts[k].key, was);
	}
	CU_ASSERT_EQUAL(json_differences(catalog_of(spr), catalog_n(spr), &m, roots), 0);
	for (int j = 0; j < m.njson; j++)
		json_decref(roots[j]);
	/* Skylake-SP's Filter1 events: their FILTER_VALUE, cut into the CHA's FILTER1 fields, is compared too */
	const struct platform_desc *skx = platform_by_name("skx");
	load_map_json("skx", &m, roots);
	events = json_object_get(roots[0], "Events");
	json_array_foreach(events, i, ev)
		if (!strcmp(json_string_value(json_object_get(ev, "EventName")), "UNC_CHA_TOR_INSERTS.IA_MISS_DRD"))
			break;
	CU_ASSERT_FATAL(i < json_array_size(events));
	static const char *const values[] = { "0x40431", "0x40633", "0x80000000" };
	for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
		json_object_set_new(ev, "FILTER_VALUE", json_string(values[k]));
		int bad = json_differences(catalog_of(skx), catalog_n(skx), &m, roots);
		if (bad < 1)
			fprintf(stderr, "FILTER_VALUE=%s went unnoticed\n", values[k]);
		CU_ASSERT(bad >= 1);
	}
	json_object_set_new(ev, "FILTER_VALUE", json_string("0x40433"));
	CU_ASSERT_EQUAL(json_differences(catalog_of(skx), catalog_n(skx), &m, roots), 0);
	for (int j = 0; j < m.njson; j++)
		json_decref(roots[j]);
}

/* Intel's deprecated names (issue 50) are aliases of their replacements: found by name, each gives exactly the
 * replacement's encoding (control word, filters, counters, box type) on the registers and through perf, and none is
 * an event of the catalog's own (uncore_num_events() and plain 'uncore list' leave them out). */
static void test_deprecated_aliases(void)
{
	static const struct { const char *spec; int min; } plats[] = {
		{ "sim:skx", 600 }, { "sim:clx", 600 }, { "perf+sim:skx", 600 }, { "sim:icx", 40 }, { "sim:gnr", 1 }, { "sim:bdx", 1 },
		{ "sim:emr", 0 } };
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		uncore_t *u = open_sim(plats[p].spec);
		struct uncore_event_info ei, ri;
		const char *repl;
		int n = 0, same = 0;
		for (; !uncore_deprecated_info(u, n, &ei, &repl); n++) {
			struct encoded a, r;
			int ia = uncore_event_find(u, ei.name), ir = uncore_event_find(u, repl);
			CU_ASSERT_FATAL(ir >= 0 && uncore_event_info(u, ir, &ri) == 0);
			CU_ASSERT(ia == ir);                           /* the name finds the replacement */
			CU_ASSERT(strcasecmp(ri.name, ei.name) != 0);  /* and is no event of its own */
			CU_ASSERT(strstr(ei.desc, repl) != NULL);      /* Intel's words name the replacement */
			char sa[300], sr[300]; /* a filter the event needs (LLC_LOOKUP's state) given to both */
			int need = spec_encode(u, repl, &r) && strstr(uncore_error(), "needs the 'state' qualifier");
			snprintf(sa, sizeof(sa), "%s%s", ei.name, need ? ":state=0x11" : "");
			snprintf(sr, sizeof(sr), "%s%s", repl, need ? ":state=0x11" : "");
			if (spec_encode(u, sa, &a) || spec_encode(u, sr, &r)) {
				fprintf(stderr, "%s %s (%s): %s\n", plats[p].spec, sa, sr, uncore_error());
				CU_FAIL("a deprecated name or its replacement does not encode");
				continue;
			}
			int eq = a.bt == r.bt && a.ctl == r.ctl && a.ctr_mask == r.ctr_mask && a.fixed == r.fixed && a.fr == r.fr &&
				 !memcmp(a.fval, r.fval, sizeof(a.fval)) && !memcmp(a.fmask, r.fmask, sizeof(a.fmask)) &&
				 ei.code == ri.code && ei.umask == ri.umask && ei.umask_ext == ri.umask_ext &&
				 ei.counter_mask == ri.counter_mask && !strcmp(ei.unit, ri.unit);
			if (!eq)
				fprintf(stderr, "%s %s: ctl 0x%llx, its replacement %s 0x%llx\n", plats[p].spec, ei.name,
					(unsigned long long)a.ctl, repl, (unsigned long long)r.ctl);
			same += eq;
		}
		for (int i = 0; i < uncore_num_events(u); i++) { /* the enumerated catalog: live events only */
			CU_ASSERT(uncore_event_info(u, i, &ei) == 0);
			CU_ASSERT(strstr(ei.desc, "This event is deprecated") == NULL || strstr(plats[p].spec, "skx") ||
				  strstr(plats[p].spec, "clx")); /* SKX's kept IIO events that name no replacement */
		}
		printf("\n%s: %d deprecated names, %d encoded exactly as their replacements\n", plats[p].spec, n, same);
		CU_ASSERT(n >= plats[p].min && same == n);
		uncore_close(u);
	}
	/* one by name: Skylake-SP's CBo-era UNC_C_CLOCKTICKS is the CHA's clock ticks */
	uncore_t *u = open_sim("sim:skx");
	struct encoded a, r;
	CU_ASSERT_FATAL(spec_encode(u, "UNC_C_CLOCKTICKS:box=3", &a) == 0 && spec_encode(u, "UNC_CHA_CLOCKTICKS:box=3", &r) == 0);
	CU_ASSERT(a.bt == r.bt && a.ctl == r.ctl && a.box == 3 && !strcmp(a.bt->name, "cha"));
	CU_ASSERT(uncore_event_find(u, "unc_h_requests.reads") == uncore_event_find(u, "UNC_CHA_REQUESTS.READS"));
	CU_ASSERT(uncore_event_find(u, "UNC_H_NO_SUCH_EVENT") < 0);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "codes, umasks, ext and counters match the JSON", test_cross_check },
		{ "EMR codes, umasks and umask_ext match the JSON", test_emr_cross_check },
		{ "IVB-EP codes, umasks, ext and counters match the JSON", test_ivbep_cross_check },
		{ "Nehalem-EP codes and umasks match seed 003's tables", test_nhm_seed_check },
		{ "Montecito codes and Max Inc/Cyc match seed 004's bus table", test_montecito_seed_check },
		{ "rows are well formed", test_rows_well_formed },
		{ "perfmon Counter: Intel's forms load, malformed ones are refused", test_counter_field },
		{ "perfmon Filter: loaded events program the filters the built-in ones do", test_loaded_filters },
		{ "catalogs generated from Intel's JSON equal it event for event", test_generated_equal_json },
		{ "the equality check sees any one JSON value changed", test_generated_mutations },
		{ "Intel's deprecated names are aliases of their replacements, encoded alike, not listed", test_deprecated_aliases },
		{ NULL, NULL },
	};
	return run_suite("eventtables", tests);
}
