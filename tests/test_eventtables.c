/*
 * The SNB-EP event tables against Intel's Jaketown perfmon JSON: every code,
 * umask, extra-select bit and counter list must match, except the deliberate
 * differences listed (with reasons) in eventtables/snbep/json_differences.txt.
 */
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "harness.h"
#include "uncore_priv.h"

#define JSON SRCDIR "/../shared/reference/perfmon/Jaketown_uncore.json"
#define DIFFS SRCDIR "/eventtables/snbep/json_differences.txt"

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

static void load_diffs(void)
{
	char line[1024];
	FILE *f = fopen(DIFFS, "r");
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

static void test_cross_check(void)
{
	json_error_t err;
	json_t *root = json_load_file(JSON, 0, &err), *events, *ev;
	size_t i;
	int checked = 0, bad = 0;
	const struct uc_event *cat = platform_snbep.events;
	int ncat = *platform_snbep.nevents;
	int *seen = calloc((size_t)ncat, sizeof(int));
	if (!root)
		fprintf(stderr, "%s:%d: %s\n", JSON, err.line, err.text);
	CU_ASSERT_FATAL(root != NULL);
	load_diffs();
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
		if (!seen[k]) {
			fprintf(stderr, "not in the JSON: %s\n", cat[k].name);
			bad++;
		}
	printf("\ncross-checked %d events against the JSON, %d differences outside the list\n", checked, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(checked >= 400);
	free(seen);
	json_decref(root);
}

static unsigned hex(json_t *ev, const char *key)
{
	const char *s = json_string_value(json_object_get(ev, key));
	return s ? (unsigned)strtoul(s, NULL, 16) : 0;
}

/*
 * EMR: every perfmon event (both files) of a unit EMR XCC has is in the tables with the same code,
 * umask and umask_ext (PortMask/FCMask folded in as the IIO control word has them).  Counter lists
 * are not compared: the seed's restrictions are kept where the two disagree (notes emr.md 11).
 */
static void test_emr_cross_check(void)
{
	static const char *const files[] = { "emeraldrapids_uncore.json", "emeraldrapids_uncore_experimental.json" };
	const struct uc_event *cat = platform_emr.events;
	int ncat = *platform_emr.nevents, checked = 0, bad = 0;
	for (int f = 0; f < 2; f++) {
		char path[512];
		json_error_t err;
		json_t *root, *ev;
		size_t i;
		snprintf(path, sizeof(path), SRCDIR "/../shared/reference/perfmon/%s", files[f]);
		root = json_load_file(path, 0, &err);
		CU_ASSERT_FATAL(root != NULL);
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
	const struct uc_event *cat = p->events;
	for (int k = 0; k < *p->nevents; k++) {
		const struct box_type *bt = NULL;
		for (int t = 0; t < p->ntypes; t++)
			if (!strcmp(p->types[t]->name, cat[k].unit))
				bt = p->types[t];
		CU_ASSERT_FATAL(bt != NULL);
		CU_ASSERT(strlen(cat[k].desc) > 10);
		CU_ASSERT(cat[k].src[0] != 0);
		CU_ASSERT(strncmp(cat[k].name, bt->prefix, strlen(bt->prefix)) == 0);
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
	check_rows(&platform_snbep);
	check_rows(&platform_emr);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "codes, umasks, ext and counters match the JSON", test_cross_check },
		{ "EMR codes, umasks and umask_ext match the JSON", test_emr_cross_check },
		{ "rows are well formed", test_rows_well_formed },
		{ NULL, NULL },
	};
	return run_suite("eventtables", tests);
}
