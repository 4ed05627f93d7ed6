/*
 * The library's register facts held against the Linux uncore driver's (tests/reference/linux_regs.txt):
 * every address, stride, width, counter count, control and filter bit position and PCI device ID the
 * file names must agree, or be listed with its reason in platforms/<platform>/regs_differences.txt.
 * A listed difference must still be one (stale entries fail), and must name the library's value, so
 * a later change of that value is caught too.  The simulated kernel's PMU types (platforms/<p>/sim_perf.c) are
 * held against the event_mask, event_mask_ext and perf_write rows too, with no differences allowed: they are
 * what Linux keeps of config and how much of it reaches the register.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "platform/platform.h"
#include "perf/perf.h"
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "devices/dev_map.h"

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

/* Linux's free-running group N (freerunning_counters[N]) as the library has it: the counters whose umask is
 * 0x10 x (N + 1) + idx (uncore_freerunning_type, uncore_freerunning_idx), "bits:address of idx 0,1,.." for
 * fr_group.N ("gap" for an idx the library lacks, width 0 where the counters' widths differ), their box step
 * for fr_box_step.N; "none" without such counters. */
static int fr_group(const struct box_type *t, const char *key, char *out, size_t len)
{
	int g = atoi(strchr(key, '.') + 1), n = 0, width = -1;
	uint32_t addr[16], step = 0;
	int have[16] = { 0 }, steps = 0;
	for (int i = 0; i < t->nfr; i++) {
		const struct freerun *r = &t->fr[i];
		if (r->perf_umask < 0x10 || (r->perf_umask - 0x10) >> 4 != g)
			continue;
		int idx = r->perf_umask & 0xf;
		addr[idx] = r->addr, have[idx] = 1, n = idx + 1 > n ? idx + 1 : n;
		width = width < 0 || width == r->width ? r->width : 0;
		steps += !steps || step != r->box_step;
		step = r->box_step;
	}
	if (!n)
		return 0;
	if (key[3] == 'b') {
		snprintf(out, len, steps == 1 ? "0x%" PRIx32 : "mixed", step);
		return 0;
	}
	size_t k = (size_t)snprintf(out, len, "%d:", width);
	for (int i = 0; i < n && k < len; i++)
		k += have[i] ? (size_t)snprintf(out + k, len - k, "%s0x%" PRIx32, i ? "," : "", addr[i])
			     : (size_t)snprintf(out + k, len - k, "%sgap", i ? "," : "");
	return 0;
}

/* The library's value of a key, as text ("none" when it has no such thing); -1 for a key this test
 * does not know. */
static int lib_value(const struct platform_desc *p, const char *unit, const char *key, char *out, size_t len)
{
	const struct box_type *t = strcmp(unit, "-") ? type_of(p, unit) : NULL;
	uint64_t v = 0;
	snprintf(out, len, "none");
	if (!strcmp(unit, "-") && !strncmp(key, "iio_bus_", 8)) { /* the device map's stack-to-bus MSR (devices/) */
		static const struct { const char *key; uint64_t v; } bus[] = {
			{ "iio_bus_msr", DEV_SKX_BUS_MSR }, { "iio_bus_valid", DEV_SKX_BUS_VALID },
			{ "iio_bus_stride", DEV_SKX_BUS_STRIDE }, { "iio_bus_stacks", DEV_SKX_IIO_STACKS },
		};
		for (size_t i = 0; i < sizeof(bus) / sizeof(bus[0]); i++)
			if (!strcmp(key, bus[i].key)) {
				snprintf(out, len, "0x%" PRIx64, bus[i].v);
				return 0;
			}
		return -1;
	}
	if (!strcmp(unit, "-") && !strncmp(key, "iio_sad_", 8)) { /* ICX's stack-to-bus register (devices/dev_regs.c) */
		static const struct { const char *key; uint64_t v; } sad[] = {
			{ "iio_sad_did", DEV_ICX_SAD_DID }, { "iio_sad_cfg", DEV_ICX_SAD_CONTROL_CFG },
			{ "iio_sad_stack_shift", DEV_ICX_SAD_STACK_SHIFT }, { "iio_sad_stack_mask", DEV_ICX_SAD_STACK_MASK },
			{ "iio_sad_stacks", DEV_ICX_IIO_STACKS },
		};
		if (!strcmp(key, "iio_sad_pmon")) {
			size_t k = 0;
			for (int i = 0; i < DEV_ICX_IIO_STACKS; i++)
				k += (size_t)snprintf(out + k, len - k, "%s%d", i ? "," : "", dev_icx_sad_pmon[i]);
			return 0;
		}
		for (size_t i = 0; i < sizeof(sad) / sizeof(sad[0]); i++)
			if (!strcmp(key, sad[i].key)) {
				snprintf(out, len, "0x%" PRIx64, sad[i].v);
				return 0;
			}
		return -1;
	}
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
	else if (!strcmp(key, "event_mask")) /* where the library knows Linux's mask is narrower: that (perf_reach.c) */
		v = (t->perf_mask ? t->perf_mask : user) & 0xffffffffull;
	else if (!strcmp(key, "event_mask_ext"))
		v = (t->perf_mask ? t->perf_mask : user) >> 32;
	else if (!strcmp(key, "perf_write")) /* bits of config the driver's enable_event writes, as the perf backend takes it */
		v = perf_writes_dword(t, 0) ? 32 : 64;
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
	} else if (!strncmp(key, "fr_group.", 9) || !strncmp(key, "fr_box_step.", 12))
		return fr_group(t, key, out, len);
	else
		return -1;
number:
	snprintf(out, len, "0x%" PRIx64, v);
	return 0;
}

/* The simulated kernel's value of an event_mask, event_mask_ext or perf_write row for the named driver type over
 * the simulator's unit (1), or 0 when the key is another or its kind has no such type. */
static int sim_value(const char *kind, const char *unit, const char *key, char *out, size_t len)
{
	const struct sim_kind *k = NULL;
	for (int i = 0; sim_kinds[i]; i++)
		if (!strcmp(sim_kinds[i]->name, kind))
			k = sim_kinds[i];
	if (!k || !k->perf || (strcmp(key, "event_mask") && strcmp(key, "event_mask_ext") && strcmp(key, "perf_write")))
		return 0;
	for (int i = 0; i < *k->nperf; i++) {
		const struct sim_perf_type *t = &k->perf[i];
		if (strcmp(t->unit, unit) || !t->name)
			continue;
		uint64_t v = key[10] == '_' ? t->raw_mask >> 32 : t->raw_mask & 0xffffffffull;
		if (key[0] == 'p') { /* sim_kernel_tree.c writes_dword, for a named type */
			const struct sim_unit *su = NULL;
			for (int j = 0; j < *k->nunits; j++)
				if (!strcmp(k->units[j].name, unit))
					su = &k->units[j];
			if (!su)
				return 0;
			v = (t->ctl_write == SK_CTL_BY_ACCESS ? su->space != SIM_MSR : t->ctl_write == SK_CTL_DWORD) ? 32 : 64;
		}
		snprintf(out, len, "0x%" PRIx64, v);
		return 1;
	}
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

/* Whether linux_regs.txt has the row tag unit key. */
static int has_row(const char *tag, const char *unit, const char *key)
{
	char line[1024], plat[16], u[32], k[48];
	int found = 0;
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%15s %31s %47s", plat, u, k) == 3 && !strcmp(plat, tag) && !strcmp(u, unit) && !strcmp(k, key);
	fclose(f);
	return found;
}

/* The lists the rows must cover whole, so that no entry of them is read by the library alone: a type's PCI
 * device ids and their companions', and every free-running group (its counters' umask 0x10 x (N + 1) + idx:
 * each counter's address, width and umask, not a sample of them). */
static void lists_covered(const struct platform_desc *p, const char *rows_tag)
{
	for (int t = 0; t < p->ntypes; t++) {
		const struct box_type *bt = p->types[t];
		char key[64];
		int n = 0;
		const char *keys[2];
		if (bt->pci_ids)
			keys[n++] = "pci_ids";
		if (bt->companion_ids)
			keys[n++] = "companion_ids";
		for (int k = 0; k < n; k++) {
			int found = has_row(rows_tag, bt->name, keys[k]);
			if (!found)
				fprintf(stderr, "FAIL %s %s: the library's %s have no row in linux_regs.txt\n", p->name, bt->name, keys[k]);
			CU_ASSERT(found);
		}
		for (int i = 0; i < bt->nfr; i++) {
			snprintf(key, sizeof(key), "fr_group.%d", (bt->fr[i].perf_umask - 0x10) >> 4);
			int found = has_row(rows_tag, bt->name, key);
			if (!found)
				fprintf(stderr, "FAIL %s %s: free-running counter %s (umask 0x%02x) has no %s row in linux_regs.txt\n",
					p->name, bt->name, bt->fr[i].name, bt->fr[i].perf_umask, key);
			CU_ASSERT(found);
		}
	}
}

/* Platform name's data against the rows of linux_regs.txt tagged rows (SPR reads EMR's: both are
 * Linux's spr_uncore_init constants), of which there must be min_rows at least; its PCI id and
 * free-running lists must have rows tagged lists_tag. */
static void check_rows(const char *name, const char *rows_tag, const char *lists_tag, int min_rows)
{
	const struct platform_desc *p = platform_by_name(name);
	char line[1024];
	int lineno = 0, rows = 0, agreed = 0, documented = 0, sim_rows = 0;
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
		char sim[64];
		if (sim_value(name, unit, key, sim, sizeof(sim))) {
			sim_rows++;
			if (!same(sim, linux_v)) {
				fprintf(stderr, "FAIL linux_regs.txt:%d: %s %s %s: the simulated kernel keeps %s, Linux %s (%s)\n", lineno,
					name, unit, key, sim, linux_v, line + n);
				CU_FAIL("the simulated kernel's driver type differs from Linux");
			}
		}
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
	lists_covered(p, lists_tag);
	for (int i = 0; i < ndiffs; i++)
		if (!diffs[i].used) {
			fprintf(stderr, "FAIL %s regs_differences.txt: %s %s matches no row of linux_regs.txt\n", name, diffs[i].unit,
				diffs[i].key);
			CU_FAIL("regs_differences.txt entry without a Linux row");
		}
	printf("  %s: %d Linux facts, %d agree, %d documented differences; %d held against the simulated kernel\n", name,
	       rows, agreed, documented, sim_rows);
	CU_ASSERT(rows >= min_rows);
}

static void check_platform_rows(const char *name, const char *rows_tag) { check_rows(name, rows_tag, rows_tag, 10); }

static void check_platform(const char *name) { check_platform_rows(name, name); }

static void test_snbep(void) { check_platform("snbep"); }
static void test_ivbep(void) { check_platform("ivbep"); }
static void test_hsx(void) { check_platform("hsx"); }
static void test_bdx(void) { check_platform("bdx"); }
/* Broadwell-DE: Broadwell-EP's types (bdx_uncore_init) less what bdx_uncore_cpu_init drops on INTEL_BROADWELL_D;
 * its PCI ids are bdx_uncore_pci_ids' (the bdx rows) */
static void test_bdxde(void) { check_rows("bdxde", "bdxde", "bdx", 1); }
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
		{ "BDX-DE has no SBox (bdx_uncore_cpu_init drops it on INTEL_BROADWELL_D)", test_bdxde },
		{ "Nehalem-EP register facts agree with Linux uncore_snb.c", test_nhm },
		{ "EMR register facts agree with Linux (SPR code EMR uses)", test_emr },
		{ "SPR register facts agree with Linux spr_uncore_init's", test_spr },
		{ "SKX register facts agree with Linux skx_uncore_init's", test_skx },
		{ "CLX register facts agree with Linux skx_uncore_init's", test_clx },
		{ "ICX register facts agree with Linux icx_uncore_init's", test_icx },
		{ "GNR register facts agree with Linux gnr_uncore_init's (no UBox bus map)", test_gnr },
		{ "SRF register facts agree with Linux gnr_uncore_init's, which drives it", test_srf },
		{ "CWF register facts agree with Linux gnr_uncore_init's, which drives it", test_cwf },
		{ "DMR register facts and event masks agree with Linux 7.0's dmr_uncore_init, dmr_uncores[] (each type's access its entry's but the iMC's)",
		  test_dmr },
		{ NULL, NULL },
	};
	return run_suite("linux_regs", tests);
}
