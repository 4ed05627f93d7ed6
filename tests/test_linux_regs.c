/*
 * The library's register facts held against the Linux uncore driver's (tests/reference/linux_regs.txt):
 * every address, stride, width, counter count, control and filter bit position and PCI device ID the
 * file names must agree, or be listed with its reason in eventtables/<platform>/regs_differences.txt.
 * A listed difference must still be one (stale entries fail), and must name the library's value, so
 * a later change of that value is caught too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "platform.h"

#define MAXROW 512

struct diff {
	char unit[32], key[48], lib[160];
	int used;
};

static struct diff diffs[MAXROW];
static int ndiffs;

static void load_diffs(const char *platform)
{
	char path[512], line[1024];
	snprintf(path, sizeof(path), SRCDIR "/eventtables/%s/regs_differences.txt", platform);
	ndiffs = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return; /* none: every row must agree */
	while (fgets(line, sizeof(line), f) && ndiffs < MAXROW) {
		struct diff *d = &diffs[ndiffs];
		char reason[8];
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%31s %47s %159s %7s", d->unit, d->key, d->lib, reason) != 4) {
			fprintf(stderr, "%s: a line without unit, key, library value and reason: %s", path, line);
			CU_FAIL("malformed regs_differences.txt line");
			continue;
		}
		d->used = 0;
		ndiffs++;
	}
	fclose(f);
}

static const struct box_type *type_of(const struct platform_desc *p, const char *unit)
{
	return platform_type_named(p, unit);
}

static void put_list16(char *out, size_t len, const uint16_t *ids, int n)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s0x%" PRIx16, i ? "," : "", ids[i]);
}

/* The library's value of a key, as text ("none" when it has no such thing); -1 for a key this test
 * does not know. */
static int lib_value(const struct platform_desc *p, const char *unit, const char *key, char *out, size_t len)
{
	const struct box_type *t = strcmp(unit, "-") ? type_of(p, unit) : NULL;
	uint64_t v = 0;
	snprintf(out, len, "none");
	if (!strcmp(unit, "-")) {
		if (!strcmp(key, "ubox_devid"))
			v = p->ubox_devid;
		else if (!strcmp(key, "cpunodeid"))
			v = p->cpunodeid;
		else if (!strcmp(key, "gidnidmap"))
			v = p->gidnidmap;
		else if (!strcmp(key, "glob_ctl"))
			v = p->glob_ctl;
		else if (!strcmp(key, "glob_frz_all"))
			v = p->glob_frz_all;
		else if (!strcmp(key, "glob_unfrz_all"))
			v = p->glob_unfrz_all;
		else
			return -1;
		snprintf(out, len, "0x%" PRIx64, v);
		return 0;
	}
	if (!t)
		return 0; /* the library has no such unit: "none" */
	/* bits a user may set: not the enable, counter-reset (17) or overflow (20) bits Linux keeps out */
	uint64_t user = t->ctl_valid & ~(t->ctl_en | t->ov_en | 1ull << 17 | 1ull << 20);
	if (!strcmp(key, "box_ctl"))
		v = t->has_box_ctl ? t->box_ctl : 0;
	else if (!strcmp(key, "ctl0"))
		v = t->ctl0;
	else if (!strcmp(key, "ctr0"))
		v = t->ctr_offs ? t->ctr_offs[0] : t->ctr0;
	else if (!strcmp(key, "ctl_stride"))
		v = t->ctl_stride;
	else if (!strcmp(key, "ctr_stride"))
		v = t->ctr_stride;
	else if (!strcmp(key, "box_stride"))
		v = t->box_stride;
	else if (!strcmp(key, "counters"))
		v = (uint64_t)t->nctr;
	else if (!strcmp(key, "width"))
		v = (uint64_t)t->width;
	else if (!strcmp(key, "boxes"))
		v = (uint64_t)t->max_boxes;
	else if (!strncmp(key, "fixed_", 6)) {
		if (!t->has_fixed)
			return 0;
		if (!strcmp(key, "fixed_ctl"))
			v = t->fixed_ctl;
		else if (!strcmp(key, "fixed_ctr"))
			v = t->fixed_ctr;
		else if (!strcmp(key, "fixed_width"))
			v = (uint64_t)t->fixed_width;
		else if (!strcmp(key, "fixed_en"))
			v = t->fixed_en;
		else
			return -1;
	} else if (!strcmp(key, "event_mask"))
		v = user & 0xffffffffull;
	else if (!strcmp(key, "event_mask_ext"))
		v = user >> 32;
	else if (!strcmp(key, "bc.frz"))
		v = t->bc->frz;
	else if (!strcmp(key, "bc.frz_en"))
		v = t->bc->frz_en;
	else if (!strcmp(key, "bc.rst_ctrs"))
		v = t->bc->rst_ctrs;
	else if (!strcmp(key, "bc.rst_ctrl"))
		v = t->bc->rst_ctrl;
	else if (!strcmp(key, "bc.run"))
		v = t->bc->run;
	else if (!strcmp(key, "box_resets"))
		v = (uint64_t)t->box_ctl_resets;
	else if (!strncmp(key, "filter", 6)) {
		int i = atoi(key + 6);
		if (i >= t->nfilt_regs)
			return 0;
		v = t->filt_regs[i].addr;
	} else if (!strcmp(key, "ctr_offsets")) {
		size_t k = 0;
		if (!t->ctr_offs)
			return 0;
		for (int i = 0; i < t->nctr && k < len; i++)
			k += (size_t)snprintf(out + k, len - k, "%s0x%" PRIx32, i ? "," : "", t->ctr_offs[i]);
		return 0;
	} else if (!strcmp(key, "pci_ids") || !strcmp(key, "companion_ids")) {
		const uint16_t *ids = key[0] == 'p' ? t->pci_ids : t->companion_ids;
		if (ids)
			put_list16(out, len, ids, t->max_boxes);
		return 0;
	} else if (!strncmp(key, "field.", 6)) {
		for (int i = 0; i < t->nfields; i++)
			if (!strcmp(t->fields[i].name, key + 6)) {
				const struct filter_field *f = &t->fields[i];
				if (f->reg == UC_FIELD_CTL)
					snprintf(out, len, "ctl:%d-%d", f->lo, f->lo + f->width - 1);
				else
					snprintf(out, len, "%d:%d-%d", f->reg, f->lo, f->lo + f->width - 1);
			}
		return 0;
	} else if (!strncmp(key, "fr.", 3)) {
		for (int i = 0; i < t->nfr; i++)
			if (!strcmp(t->fr[i].name, key + 3))
				snprintf(out, len, "0x%" PRIx32, t->fr[i].addr);
		return 0;
	} else
		return -1;
	snprintf(out, len, "0x%" PRIx64, v);
	return 0;
}

/* Values agree when they are the same text, or the same numbers (lists element by element). */
static int same(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 1;
	while (*a && *b) {
		char *ea, *eb;
		unsigned long long x = strtoull(a, &ea, 0), y = strtoull(b, &eb, 0);
		if (ea == a || eb == b || x != y || *ea != *eb)
			return 0;
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
	return !*a && !*b;
}

static void check_platform(const char *name)
{
	const struct platform_desc *p = platform_by_name(name);
	char line[1024];
	int lineno = 0, rows = 0, agreed = 0, documented = 0;
	CU_ASSERT_FATAL(p != NULL);
	load_diffs(name);
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		char plat[16], unit[32], key[48], linux_v[160], lib[160];
		int n = 0;
		lineno++;
		if (line[0] == '#' || line[0] == '\n' || sscanf(line, "%15s %31s %47s %159s %n", plat, unit, key, linux_v, &n) < 4 ||
		    strcmp(plat, name))
			continue;
		rows++;
		if (lib_value(p, unit, key, lib, sizeof(lib))) {
			fprintf(stderr, "linux_regs.txt:%d: unknown key %s\n", lineno, key);
			CU_FAIL("unknown key in linux_regs.txt");
			continue;
		}
		line[strcspn(line, "\n")] = 0;
		struct diff *d = NULL;
		for (int i = 0; i < ndiffs; i++)
			if (!strcmp(diffs[i].unit, unit) && !strcmp(diffs[i].key, key))
				d = &diffs[i];
		if (same(lib, linux_v)) {
			agreed++;
			if (d) {
				d->used = 1;
				fprintf(stderr, "FAIL %s %s %s: listed as a difference, but the library now agrees with Linux (%s)\n",
					name, unit, key, linux_v);
				CU_FAIL("stale entry in regs_differences.txt");
			}
			continue;
		}
		if (d && same(d->lib, lib)) {
			d->used = 1;
			documented++;
			printf("  documented: %s %s %s: library %s, Linux %s\n", name, unit, key, lib, linux_v);
			continue;
		}
		if (d)
			d->used = 1;
		fprintf(stderr, "FAIL linux_regs.txt:%d: %s %s %s: library %s, Linux %s (%s)%s\n", lineno, name, unit, key, lib,
			linux_v, line + n, d ? " -- regs_differences.txt names another library value" : "");
		CU_FAIL("register fact differs from Linux");
	}
	fclose(f);
	for (int i = 0; i < ndiffs; i++)
		if (!diffs[i].used) {
			fprintf(stderr, "FAIL %s regs_differences.txt: %s %s matches no row of linux_regs.txt\n", name, diffs[i].unit,
				diffs[i].key);
			CU_FAIL("regs_differences.txt entry without a Linux row");
		}
	printf("  %s: %d Linux facts, %d agree, %d documented differences\n", name, rows, agreed, documented);
	CU_ASSERT(rows >= 10);
}

static void test_snbep(void) { check_platform("snbep"); }
static void test_ivbep(void) { check_platform("ivbep"); }
static void test_nhm(void) { check_platform("nhm"); }
static void test_emr(void) { check_platform("emr"); }

int main(void)
{
	static const struct test_case tests[] = {
		{ "SNB-EP register facts agree with Linux uncore_snbep.c", test_snbep },
		{ "IVB-EP register facts agree with Linux uncore_snbep.c", test_ivbep },
		{ "Nehalem-EP register facts agree with Linux uncore_snb.c", test_nhm },
		{ "EMR register facts agree with Linux (SPR code EMR uses)", test_emr },
		{ NULL, NULL },
	};
	return run_suite("linux_regs", tests);
}
