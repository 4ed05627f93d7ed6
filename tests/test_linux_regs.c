/*
 * The library's register facts held against the Linux uncore driver's (tests/reference/linux_regs.txt):
 * every address, stride, width, counter count, control and filter bit position and PCI device ID the
 * file names must agree, or be listed with its reason in platforms/<platform>/regs_differences.txt.
 * A listed difference must still be one (stale entries fail), and must name the library's value, so
 * a later change of that value is caught too.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "platform/platform.h"

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
	snprintf(path, sizeof(path), SRCDIR "/platforms/%s/regs_differences.txt", platform);
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

static void put_list32(char *out, size_t len, const uint32_t *v, int n)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s0x%" PRIx32, i ? "," : "", v[i]);
}

/* Keys that are one numeric field of a struct. */
struct num_key {
	const char *key;
	size_t off, size;
};
#define NK(type, k, f) { k, offsetof(type, f), sizeof(((type *)0)->f) }
static const struct num_key plat_keys[] = {
	NK(struct platform_desc, "ubox_devid", ubox_devid), NK(struct platform_desc, "cpunodeid", cpunodeid),
	NK(struct platform_desc, "gidnidmap", gidnidmap),   NK(struct platform_desc, "glob_ctl", glob_ctl),
	NK(struct platform_desc, "glob_frz_all", glob_frz_all), NK(struct platform_desc, "glob_unfrz_all", glob_unfrz_all),
	NK(struct platform_desc, "busmap_forward", busmap_forward),
};
static const struct num_key type_keys[] = {
	NK(struct box_type, "ctl0", ctl0),		 NK(struct box_type, "ctl_stride", ctl_stride),
	NK(struct box_type, "ctr_stride", ctr_stride),	 NK(struct box_type, "box_stride", box_stride),
	NK(struct box_type, "counters", nctr),		 NK(struct box_type, "width", width),
	NK(struct box_type, "boxes", max_boxes),	 NK(struct box_type, "box_resets", box_ctl_resets),
};
static const struct num_key fixed_keys[] = {
	NK(struct box_type, "fixed_ctl", fixed_ctl), NK(struct box_type, "fixed_ctr", fixed_ctr),
	NK(struct box_type, "fixed_width", fixed_width), NK(struct box_type, "fixed_en", fixed_en),
};
static const struct num_key mmio_keys[] = {
	NK(struct mmio_place, "mmio.devid", devid),	      NK(struct mmio_place, "mmio.base_off", base_off),
	NK(struct mmio_place, "mmio.mem_off", mem_off),	      NK(struct mmio_place, "mmio.mem_step", mem_step),
	NK(struct mmio_place, "mmio.base_mask", base_mask),   NK(struct mmio_place, "mmio.mem_mask", mem_mask),
	NK(struct mmio_place, "mmio.base_shift", base_shift), NK(struct mmio_place, "mmio.mem_shift", mem_shift),
	NK(struct mmio_place, "mmio.nctrl", nctrl),	      NK(struct mmio_place, "mmio.nchan", nchan),
	NK(struct mmio_place, "mmio.box_off", box_off),	      NK(struct mmio_place, "mmio.chan_step", chan_step),
};
static const struct num_key bc_keys[] = {
	NK(struct box_ctl_bits, "bc.frz", frz),		  NK(struct box_ctl_bits, "bc.frz_en", frz_en),
	NK(struct box_ctl_bits, "bc.rst_ctrs", rst_ctrs), NK(struct box_ctl_bits, "bc.rst_ctrl", rst_ctrl),
	NK(struct box_ctl_bits, "bc.run", run),
};
#undef NK

/* The field named key of the struct at base, if keys has it (every field is unsigned or a count >= 0). */
static int num_key_value(const void *base, const struct num_key *keys, size_t n, const char *key, uint64_t *v)
{
	for (size_t i = 0; i < n; i++) {
		const char *f = (const char *)base + keys[i].off;
		if (strcmp(keys[i].key, key))
			continue;
		switch (keys[i].size) {
		case 1: *v = *(const uint8_t *)(const void *)f; break;
		case 2: *v = *(const uint16_t *)(const void *)f; break;
		case 4: *v = *(const uint32_t *)(const void *)f; break;
		default: *v = *(const uint64_t *)(const void *)f; break;
		}
		return 1;
	}
	return 0;
}
#define NUM_KEY(base, keys, key, v) num_key_value(base, keys, sizeof(keys) / sizeof(keys[0]), key, v)

/* The library's value of a key, as text ("none" when it has no such thing); -1 for a key this test
 * does not know. */
static int lib_value(const struct platform_desc *p, const char *unit, const char *key, char *out, size_t len)
{
	const struct box_type *t = strcmp(unit, "-") ? type_of(p, unit) : NULL;
	uint64_t v = 0;
	snprintf(out, len, "none");
	if (!strcmp(unit, "-")) {
		if (!NUM_KEY(p, plat_keys, key, &v))
			return -1;
		snprintf(out, len, "0x%" PRIx64, v);
		return 0;
	}
	if (!t)
		return 0; /* the library has no such unit: "none" */
	/* bits a user may set: not the enable, counter-reset (17) or overflow (20) bits Linux keeps out */
	uint64_t user = box_ctl_valid(t) & ~(t->lay->enable | ctl_mask(t->lay, CR_OV_EN) | 1ull << 17 | 1ull << 20);
	if (NUM_KEY(t, fixed_keys, key, &v)) {
		if (t->has_fixed)
			snprintf(out, len, "0x%" PRIx64, v);
		return 0;
	}
	if (NUM_KEY(t, type_keys, key, &v) || NUM_KEY(t->bc, bc_keys, key, &v))
		goto number;
	if (!strncmp(key, "mmio.", 5)) { /* where a PCI device's config registers place the MMIO windows */
		if (!t->mmio)
			return NUM_KEY(&(struct mmio_place){ 0 }, mmio_keys, key, &v) ? 0 : -1;
		if (!NUM_KEY(t->mmio, mmio_keys, key, &v))
			return -1;
		goto number;
	}
	if (!strcmp(key, "box_ctl"))
		v = t->has_box_ctl ? t->box_ctl : 0;
	else if (!strcmp(key, "init_box_ctl")) { /* the register the counters are reset through when a session starts */
		if (!t->has_box_ctl || !t->box_ctl_resets)
			return 0;
		v = t->box_ctl;
	} else if (!strcmp(key, "access")) { /* entry: the discovery entry's, as Linux's generic ops take it */
		static const char *const space[] = { [UC_MSR] = "msr", [UC_PCI] = "pci", [UC_MMIO] = "mmio" };
		snprintf(out, len, "%s", t->access_from_entry ? "entry" : space[t->space]);
		return 0;
	} else if (!strcmp(key, "ctl_bytes")) { /* bytes of a control word's write on PCI and MMIO */
		if (t->space == UC_MSR)
			return 0;
		v = (uint64_t)t->ctl_bytes;
	} else if (!strcmp(key, "box_offsets")) { /* MSR offsets of box 0, 1, ... (Linux msr_offsets) */
		if (t->box_offs)
			put_list32(out, len, t->box_offs, t->max_boxes);
		return 0;
	} else if (!strcmp(key, "ctr0"))
		v = t->ctr_offs ? t->ctr_offs[0] : t->ctr0;
	else if (!strcmp(key, "event_mask"))
		v = user & 0xffffffffull;
	else if (!strcmp(key, "event_mask_ext"))
		v = user >> 32;
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
	} else if (!strcmp(key, "pci_devfn")) {
		size_t k = 0;
		for (int i = 0; t->pci_devfn && i < t->max_boxes && k < len; i++)
			k += (size_t)snprintf(out + k, len - k, "%s%d.%d", i ? "," : "", t->pci_devfn[i] >> 3, t->pci_devfn[i] & 7);
		return 0;
	} else if (!strncmp(key, "count.", 6)) {
		const struct box_count *c = t->count;
		if (!c || !c->devid)
			return 0;
		if ((!strcmp(key, "count.off_hi") && !c->off_hi) || (!strcmp(key, "count.limit") && !c->limit_if_clear))
			return 0;
		if (!strcmp(key, "count.limit")) {
			v = c->limited;
			goto number;
		}
		v = !strcmp(key, "count.devid") ? c->devid : !strcmp(key, "count.off") ? c->off
							  : !strcmp(key, "count.off_hi") ? c->off_hi : c->mask;
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
	} else if (!strncmp(key, "fr_width.", 9) || !strncmp(key, "fr_umask.", 9) || !strncmp(key, "fr_offsets.", 11)) {
		/* a free-running counter's width, its Linux PMU's umask (event 0xff), its per-box offsets */
		const char *name = strchr(key, '.') + 1;
		for (int i = 0; i < t->nfr; i++) {
			const struct freerun *r = &t->fr[i];
			if (strcmp(r->name, name))
				continue;
			if (key[3] == 'o') {
				if (r->box_offs)
					put_list32(out, len, r->box_offs, t->max_boxes);
			} else
				snprintf(out, len, "0x%x", key[3] == 'w' ? (unsigned)r->width : (unsigned)r->perf_umask);
		}
		return 0;
	} else
		return -1;
number:
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

/* Platform name's data against the rows of linux_regs.txt tagged rows (SPR reads EMR's: both are
 * Linux's spr_uncore_init constants). */
static void check_platform_rows(const char *name, const char *rows_tag)
{
	const struct platform_desc *p = platform_by_name(name);
	char line[1024];
	int lineno = 0, rows = 0, agreed = 0, documented = 0;
	CU_ASSERT_FATAL(p != NULL);
	load_diffs(name);
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		char plat[16], unit[32], key[48], linux_v[512], lib[512]; /* a 40-entry offset table is 290 characters */
		int n = 0;
		lineno++;
		if (line[0] == '#' || line[0] == '\n' || sscanf(line, "%15s %31s %47s %511s %n", plat, unit, key, linux_v, &n) < 4 ||
		    strcmp(plat, rows_tag))
			continue;
		rows++;
		if (strlen(linux_v) == sizeof(linux_v) - 1) { /* %511s stopped: a longer value would be compared in part */
			fprintf(stderr, "linux_regs.txt:%d: value of %s longer than the test reads\n", lineno, key);
			CU_FAIL("value too long in linux_regs.txt");
			continue;
		}
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

static void check_platform(const char *name) { check_platform_rows(name, name); }

static void test_snbep(void) { check_platform("snbep"); }
static void test_ivbep(void) { check_platform("ivbep"); }
static void test_hsx(void) { check_platform("hsx"); }
static void test_bdx(void) { check_platform("bdx"); }
static void test_nhm(void) { check_platform("nhm"); }
static void test_emr(void) { check_platform("emr"); }
static void test_spr(void) { check_platform_rows("spr", "emr"); }
static void test_skx(void) { check_platform("skx"); }
static void test_clx(void) { check_platform_rows("clx", "skx"); } /* the same skx_uncore_init constants */
static void test_icx(void) { check_platform("icx"); }
static void test_gnr(void) { check_platform("gnr"); }
static void test_srf(void) { check_platform("srf"); }
static void test_cwf(void) { check_platform_rows("cwf", "srf"); } /* gnr_uncore_init for INTEL_ATOM_DARKMONT_X too */
static void test_dmr(void) { check_platform("dmr"); }

int main(void)
{
	static const struct test_case tests[] = {
		{ "SNB-EP register facts agree with Linux uncore_snbep.c", test_snbep },
		{ "IVB-EP register facts agree with Linux uncore_snbep.c", test_ivbep },
		{ "HSX register facts agree with Linux uncore_snbep.c (hswep_*)", test_hsx },
		{ "BDX register facts agree with Linux uncore_snbep.c (bdx_*)", test_bdx },
		{ "Nehalem-EP register facts agree with Linux uncore_snb.c", test_nhm },
		{ "EMR register facts agree with Linux (SPR code EMR uses)", test_emr },
		{ "SPR register facts agree with Linux spr_uncore_init's", test_spr },
		{ "SKX register facts agree with Linux skx_uncore_init's", test_skx },
		{ "CLX register facts agree with Linux skx_uncore_init's", test_clx },
		{ "ICX register facts agree with Linux icx_uncore_init's", test_icx },
		{ "GNR register facts agree with Linux gnr_uncore_init's (no UBox bus map)", test_gnr },
		{ "SRF register facts agree with Linux gnr_uncore_init's, which drives it", test_srf },
		{ "CWF register facts agree with Linux gnr_uncore_init's, which drives it", test_cwf },
		{ "DMR register facts agree with Linux 7.0's dmr_uncore_init (each type's access its entry's but the iMC's)",
		  test_dmr },
		{ NULL, NULL },
	};
	return run_suite("linux_regs", tests);
}
