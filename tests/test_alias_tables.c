/*
 * The platforms' perf alias tables (platform_desc.perf_aliases: what PMU/alias/ spells on sim: and direct,
 * where no kernel gives events/ files) held against the Linux driver's own: the sysfs listings
 * platforms/<p>/linux_pmus*.txt, written by tools/vectors/linux_pmus.py (dmr_linux_pmus.py for DMR) from the
 * driver's source, not from the library.  Every alias of a table must be an events/ file of every PMU of its
 * name in the platform's linux_pmus.txt, and every events/ file of every listing must be in the table (or in
 * not_in_table, with why not), with the same encoding (both terms put through the PMU's format/ files into
 * config words, so spelling, order and a term's zero value do not matter), .scale and .unit; an alias of a
 * free-running PMU must be the library's counter of its name, with its umask.  Then every format/ name of those
 * PMUs must be a term perf's spelling takes on sim:<p> (formats_not_taken says which not, and why), and the
 * perfmon folds must put PortMask and FCMask where the IIO's ch_mask and fc_mask formats are.  Each difference
 * is a line of its own.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include "pmu_listing.h"
#include "sim_helpers.h"
#include "events/perf_spell.h"

/* Aliases a listing has that a platform's table leaves out, and why.  An entry no listing needs fails, so
 * that the list stays true. */
static struct {
	const char *plat, *pmu, *name, *why;
	int used;
} not_in_table[] = {
	{ "gnr", "imc", "cas_count_read", "Linux 6.12.0's spr_uncore_imc_events on GNR (linux_pmus_6.12.0.txt, before 6a8a48644c4b): event 0x05 counts scheduler 0 alone; the table keeps the per-scheduler sch0/sch1 encodings, which the perf backend spells through the formats on such a kernel", 0 },
	{ "gnr", "imc", "cas_count_write", "as cas_count_read", 0 },
	{ "srf", "imc", "cas_count_read", "as gnr's (gnr_uncore_init drives Sierra Forest)", 0 },
	{ "srf", "imc", "cas_count_write", "as gnr's", 0 },
	{ NULL, NULL, NULL, NULL, 0 },
};

/* A PMU's name as the tables spell it: no "uncore_" and no box number ("uncore_imc_3" -> "imc", the
 * lone "uncore" of Nehalem -> ""). */
static void pmu_stem(const char *pmu, size_t len, char *out, size_t outlen)
{
	const char *s = pmu;
	if (len >= 7 && !strncmp(pmu, "uncore_", 7))
		s += 7, len -= 7;
	else if (len == 6 && !strncmp(pmu, "uncore", 6))
		s += 6, len = 0;
	size_t e = len;
	while (e > 0 && s[e - 1] >= '0' && s[e - 1] <= '9')
		e--;
	if (e > 0 && e < len && s[e - 1] == '_')
		len = e - 1;
	snprintf(out, outlen, "%.*s", (int)len, s);
}

/* One term value put into config words as the format text ("config:0-7,21", "config1:0-8") places it;
 * 0, or -1 and why in err. */
static int place(const char *format, uint64_t v, uint64_t cfg[3], char *err, size_t errlen)
{
	int word = !strncmp(format, "config1:", 8) ? 1 : !strncmp(format, "config2:", 8) ? 2
		   : !strncmp(format, "config:", 7) ? 0 : -1;
	if (word < 0) {
		snprintf(err, errlen, "format '%s' names no config word", format);
		return -1;
	}
	const char *p = strchr(format, ':') + 1;
	while (*p) {
		char *end;
		unsigned lo = (unsigned)strtoul(p, &end, 10), hi = lo;
		if (*end == '-')
			hi = (unsigned)strtoul(end + 1, &end, 10);
		if (end == p || hi < lo || hi > 63 || (*end && *end != ',')) {
			snprintf(err, errlen, "format '%s' is not a list of bit ranges", format);
			return -1;
		}
		for (unsigned b = lo; b <= hi; b++, v >>= 1)
			cfg[word] |= (v & 1) << b;
		p = *end ? end + 1 : end;
	}
	if (v) {
		snprintf(err, errlen, "a value wider than format '%s'", format);
		return -1;
	}
	return 0;
}

/* The terms ("event=0x04,umask=0x03"; a term without a value is 1, as perf reads it) through the formats
 * of pmu in the listing. */
static int encode(const struct lines *l, const char *pmu, const char *terms, uint64_t cfg[3], char *err,
		  size_t errlen)
{
	char buf[256], path[512];
	cfg[0] = cfg[1] = cfg[2] = 0;
	snprintf(buf, sizeof(buf), "%s", terms);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *end;
		uint64_t v = 1;
		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, &end, 0);
			if (!eq[1] || *end) {
				snprintf(err, errlen, "term '%s=%s' is not a number", t, eq + 1);
				return -1;
			}
		}
		snprintf(path, sizeof(path), "%s/format/%s", pmu, t);
		const char *format = listing_text(l, path);
		if (!format) {
			snprintf(err, errlen, "term '%s': %s has no such format", t, pmu);
			return -1;
		}
		if (place(format, v, cfg, err, errlen))
			return -1;
	}
	return 0;
}

static const struct perf_alias *table_alias(const struct perf_alias *table, const char *stem, const char *name)
{
	for (const struct perf_alias *a = table; a && a->name; a++)
		if (!strcmp(a->pmu, stem) && !strcmp(a->name, name))
			return a;
	return NULL;
}

/* The alias a against events/<name> of pmu in the listing (plat/file); the number of differences. */
static int same_alias(const char *where, const struct lines *l, const char *pmu, const struct perf_alias *a)
{
	char path[512], err[160] = "";
	uint64_t want[3], have[3];
	int diffs = 0;
	snprintf(path, sizeof(path), "%s/events/%s", pmu, a->name);
	const char *terms = listing_text(l, path);
	if (encode(l, pmu, terms, want, err, sizeof(err))) {
		fprintf(stderr, "%s: %s '%s': %s\n", where, path, terms, err);
		return 1;
	}
	if (encode(l, pmu, a->terms, have, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: the table's '%s': %s\n", where, path, a->terms, err);
		return 1;
	}
	if (memcmp(want, have, sizeof(want))) {
		fprintf(stderr, "%s: %s: the table's '%s' is config 0x%" PRIx64 " config1 0x%" PRIx64 ", Linux's '%s' 0x%" PRIx64
			" 0x%" PRIx64 "\n", where, path, a->terms, have[0], have[1], terms, want[0], want[1]);
		diffs++;
	}
	/* .scale: none is 1 (perf's default), as the table's 0 */
	snprintf(path, sizeof(path), "%s/events/%s.scale", pmu, a->name);
	const char *scale = listing_text(l, path), *unit;
	double ws = scale ? strtod(scale, NULL) : 1, hs = a->scale ? a->scale : 1;
	if (ws != hs) {
		fprintf(stderr, "%s: %s: the table's scale %.10g, Linux's %s\n", where, path, hs, scale ? scale : "none (1)");
		diffs++;
	}
	snprintf(path, sizeof(path), "%s/events/%s.unit", pmu, a->name);
	unit = listing_text(l, path);
	if (strcmp(unit ? unit : "", a->unit ? a->unit : "")) {
		fprintf(stderr, "%s: %s: the table's unit '%s', Linux's '%s'\n", where, path, a->unit ? a->unit : "",
			unit ? unit : "");
		diffs++;
	}
	return diffs;
}

/* Whether the listing line is an alias (<pmu>/events/<name>, not its .scale or .unit): its PMU and name. */
static int alias_line(const char *line, char pmu[128], char name[128])
{
	const char *ev = strstr(line, "/events/");
	size_t plen = path_len(line);
	if (!ev || (size_t)(ev - line) > plen)
		return 0;
	snprintf(pmu, 128, "%.*s", (int)(ev - line), line);
	snprintf(name, 128, "%.*s", (int)(plen - (size_t)(ev + 8 - line)), ev + 8);
	return !strchr(name, '.');
}

/* Every events/ file of the listing (no .scale, .unit) is in the table with the same encoding, scale and
 * unit, or a stated exception; the number of differences, the aliases seen in *seen. */
static int listing_in_table(const char *plat, const char *file, const struct lines *l, const struct perf_alias *table,
			    int *seen)
{
	char where[160];
	int diffs = 0;
	snprintf(where, sizeof(where), "%.32s %.120s", plat, file); /* (a platform's name, a listing's: 63 at most) */
	for (int i = 0; i < l->n; i++) {
		char pmu[128], stem[128], name[128];
		if (!alias_line(l->v[i], pmu, name))
			continue;
		pmu_stem(pmu, strlen(pmu), stem, sizeof(stem));
		++*seen;
		const struct perf_alias *a = table_alias(table, stem, name);
		if (a) {
			diffs += same_alias(where, l, pmu, a);
			continue;
		}
		int stated = 0;
		for (size_t k = 0; not_in_table[k].plat; k++)
			if (!strcmp(not_in_table[k].plat, plat) && !strcmp(not_in_table[k].pmu, stem) &&
			    !strcmp(not_in_table[k].name, name))
				stated = not_in_table[k].used = 1;
		if (!stated) {
			fprintf(stderr, "%s: %s/events/%s ('%s'): not in the platform's alias table, and no reason stated\n",
				where, pmu, name, l->v[i] + path_len(l->v[i]) + 1);
			diffs++;
		}
	}
	return diffs;
}

/* Every alias of the table is an events/ file of each PMU of its name in the listing (the driver gives a
 * type's events to every box); the number of differences. */
static int table_in_listing(const char *plat, const struct lines *l, const struct perf_alias *table)
{
	int diffs = 0;
	for (const struct perf_alias *a = table; a && a->name; a++) {
		char last[128] = "", path[512];
		int pmus = 0;
		for (int i = 0; i < l->n; i++) {
			const char *slash = strchr(l->v[i], '/');
			char stem[128];
			size_t len = slash ? (size_t)(slash - l->v[i]) : 0;
			if (!slash || (strlen(last) == len && !strncmp(last, l->v[i], len)))
				continue;
			snprintf(last, sizeof(last), "%.*s", (int)len, l->v[i]);
			pmu_stem(last, len, stem, sizeof(stem));
			if (strcmp(stem, a->pmu))
				continue;
			pmus++;
			snprintf(path, sizeof(path), "%s/events/%s", last, a->name);
			if (!listing_text(l, path)) {
				fprintf(stderr, "%s linux_pmus.txt: the table's %s/%s ('%s'): %s has no such event\n", plat,
					a->pmu, a->name, a->terms, last);
				diffs++;
			}
		}
		if (!pmus) {
			fprintf(stderr, "%s linux_pmus.txt: the table's %s/%s ('%s'): Linux has no PMU uncore_%s\n", plat,
				a->pmu, a->name, a->terms, a->pmu);
			diffs++;
		}
	}
	return diffs;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The type whose free-running PMU is stem ("iio_free_running": the type whose perf name is "iio" and which has
 * free-running counters), or NULL. */
static const struct box_type *fr_type(const struct platform_desc *pd, const char *stem)
{
	for (int t = 0; t < pd->ntypes; t++) {
		const struct box_type *bt = pd->types[t];
		size_t n = bt->perf ? strlen(bt->perf) : 0;
		if (bt->nfr && n && !strncmp(stem, bt->perf, n) && !strcmp(stem + n, "_free_running"))
			return bt;
	}
	return NULL;
}

/* The free-running counters (box_type.fr: their names and the umask of event 0xff that selects them) against
 * the listing's <perf>_free_running PMUs: every alias of such a PMU is the library's counter of that name, with
 * its umask; the number of differences.  A counter Linux names no alias for (SPR's and GNR's bw_out_port*, in
 * their groups of spr_iio_freerunning and gnr_iio_freerunning) is held by test_linux_regs's fr_group rows. */
static int fr_counters(const struct platform_desc *pd, const struct lines *l)
{
	int diffs = 0;
	for (int i = 0; i < l->n; i++) {
		char pmu[128], stem[128], name[128], path[512], err[160], terms[64];
		if (!alias_line(l->v[i], pmu, name) || !strstr(pmu, "_free_running"))
			continue;
		pmu_stem(pmu, strlen(pmu), stem, sizeof(stem));
		const struct box_type *bt = fr_type(pd, stem);
		const struct freerun *r = NULL;
		for (int k = 0; bt && k < bt->nfr; k++)
			if (!strcmp(bt->fr[k].name, name))
				r = &bt->fr[k];
		if (!r) {
			fprintf(stderr, "%s linux_pmus.txt: %s/events/%s: no free-running counter of that name in the library\n",
				pd->name, pmu, name);
			diffs++;
			continue;
		}
		uint64_t want[3], have[3];
		snprintf(path, sizeof(path), "%s/events/%s", pmu, name);
		snprintf(terms, sizeof(terms), "event=0xff,umask=0x%02x", r->perf_umask);
		if (encode(l, pmu, listing_text(l, path), want, err, sizeof(err)) ||
		    encode(l, pmu, terms, have, err, sizeof(err)) || memcmp(want, have, sizeof(want))) {
			fprintf(stderr, "%s linux_pmus.txt: %s: Linux's '%s', the %s counter's umask 0x%02x\n", pd->name, path,
				listing_text(l, path), bt->name, r->perf_umask);
			diffs++;
		}
	}
	return diffs;
}

/* The platform's listings: linux_pmus.txt first (the table holds against it both ways), then its variants
 * (linux_pmus_<what>.txt: another kernel or part, whose aliases must be in the table too). */
static int listings(const char *plat, char names[][64], int max)
{
	char dir[1024];
	int n = 0;
	snprintf(dir, sizeof(dir), "%s/platforms/%s", listing_top(), plat);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "linux_pmus", 10) || len < 14 || len >= 64 || strcmp(e->d_name + len - 4, ".txt") || n == max)
			continue;
		memcpy(names[n++], e->d_name, len + 1);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name); /* '.' sorts before '_': linux_pmus.txt first */
	return n;
}

static void test_every_table(void)
{
	int tables = 0;
	for (int p = 0; uc_platforms[p]; p++) {
		const struct platform_desc *pd = uc_platforms[p];
		char names[8][64], rel[160];
		int n = listings(pd->name, names, 8), aliases = 0, diffs = 0, seen = 0;
		for (const struct perf_alias *a = pd->perf_aliases; a && a->name; a++)
			aliases++;
		if (!n || strcmp(names[0], "linux_pmus.txt")) {
			/* no Linux driver for it (Montecito): nothing to hold a table against, so it must have none */
			fprintf(stderr, "%s: no platforms/%s/linux_pmus.txt, %d aliases\n", pd->name, pd->name, aliases);
			CU_ASSERT_EQUAL(aliases, 0);
			continue;
		}
		for (int i = 0; i < n; i++) {
			struct lines l = { 0 };
			snprintf(rel, sizeof(rel), "%.64s/%.63s", pd->name, names[i]); /* (names kept: 63 bytes at most) */
			CU_ASSERT_FATAL(read_listing(rel, &l) == 0);
			if (!i)
				diffs += table_in_listing(pd->name, &l, pd->perf_aliases) + fr_counters(pd, &l);
			diffs += listing_in_table(pd->name, names[i], &l, pd->perf_aliases, &seen);
			free_lines(&l);
		}
		fprintf(stderr, "%s: %d aliases in the table, %d events/ files in %d listings, %d differences\n", pd->name,
			aliases, seen, n, diffs);
		CU_ASSERT_EQUAL(diffs, 0);
		tables += aliases > 0;
	}
	CU_ASSERT(tables >= 15); /* every platform Linux has a driver with aliases for */
	for (size_t k = 0; not_in_table[k].plat; k++) {
		if (!not_in_table[k].used)
			fprintf(stderr, "not_in_table: %s %s/%s is in no listing any more: remove it\n", not_in_table[k].plat,
				not_in_table[k].pmu, not_in_table[k].name);
		CU_ASSERT(not_in_table[k].used);
	}
}

/* The comparison itself: a term through a format with a gap, a value too wide, a name the PMU has no
 * format for. */
static void test_encoding(void)
{
	struct lines l = { 0 };
	uint64_t c[3];
	char err[160];
	add_line(&l, "uncore_qpi_0/format/event config:0-7,21");
	add_line(&l, "uncore_qpi_0/format/umask config:8-15");
	qsort(l.v, (size_t)l.n, sizeof(*l.v), by_str);
	CU_ASSERT_EQUAL(encode(&l, "uncore_qpi_0", "event=0x102,umask=0x08", c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c[0], 0x200802u);
	CU_ASSERT_EQUAL(encode(&l, "uncore_qpi_0", "umask=8,event=0x102", c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c[0], 0x200802u);
	CU_ASSERT_EQUAL(encode(&l, "uncore_qpi_0", "event=0x202", c, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(encode(&l, "uncore_qpi_0", "event=0x2,edge", c, err, sizeof(err)), -1);
	char stem[64];
	pmu_stem("uncore_iio_free_running_3", 25, stem, sizeof(stem));
	CU_ASSERT_STRING_EQUAL(stem, "iio_free_running");
	pmu_stem("uncore", 6, stem, sizeof(stem));
	CU_ASSERT_STRING_EQUAL(stem, "");
	pmu_stem("uncore_imc", 10, stem, sizeof(stem));
	CU_ASSERT_STRING_EQUAL(stem, "imc");
	free_lines(&l);
}

/* Format names of Linux's PMUs that perf's spelling on sim: and direct does not take, and why. */
static struct {
	const char *plat, *pmu, *format, *why;
	int used;
} formats_not_taken[] = {
	/* hswep_uncore_sbox_formats_attr has format_attr_tid_en (config:19), but the SBox has no filter register:
	 * the library sets its layout's tid_en bit only with a tid filter, which the SBox has none of */
	{ "hsx", "sbox", "tid_en", "the SBox has no tid filter to enable", 0 },
	{ "bdx", "sbox", "tid_en", "the SBox has no tid filter to enable (bdx_uncore_sbox: hswep's formats)", 0 },
	{ NULL, NULL, NULL, NULL, 0 },
};

/* Every format/ file of a PMU of each platform's listing is a term perf's spelling takes on sim:<p> (the
 * platform's qualifiers, filter_<field>, or its perf_terms table), or a stated exception: a user's perf -e
 * line means on the direct and simulated backends what it means to the kernel. */
static void test_every_format(void)
{
	for (int p = 0; uc_platforms[p]; p++) {
		const struct platform_desc *pd = uc_platforms[p];
		char rel[160], be[64], seen[512][96];
		int nseen = 0, refused = 0;
		struct lines l = { 0 };
		snprintf(rel, sizeof(rel), "%s/linux_pmus.txt", pd->name);
		if (!pd->perf_aliases && !pd->perf_terms)
			continue; /* no Linux driver (Montecito): test_every_table says so */
		CU_ASSERT_FATAL(read_listing(rel, &l) == 0);
		snprintf(be, sizeof(be), "sim:%s", pd->name);
		uncore_t *u = open_sim(be);
		for (int i = 0; i < l.n; i++) {
			const char *f = strstr(l.v[i], "/format/");
			char pmu[128], stem[64], fmt[24], spec[320], key[96];
			struct perf_spelled o;
			if (!f || (size_t)(f - l.v[i]) > path_len(l.v[i]))
				continue;
			snprintf(pmu, sizeof(pmu), "%.*s", (int)(f - l.v[i]), l.v[i]);
			snprintf(fmt, sizeof(fmt), "%.*s", (int)(path_len(l.v[i]) - (size_t)(f + 8 - l.v[i])), f + 8);
			pmu_stem(pmu, strlen(pmu), stem, sizeof(stem));
			/* a free-running PMU's event and umask are its aliases' (test_every_table); one box of a type */
			snprintf(key, sizeof(key), "%s/%s", stem, fmt);
			int dup = strstr(stem, "_free_running") || !strcmp(fmt, "event");
			for (int k = 0; k < nseen && !dup; k++)
				dup = !strcmp(seen[k], key);
			if (dup || nseen == 512)
				continue;
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", key);
			snprintf(spec, sizeof(spec), "%s/event=0x1,%s=0x1/", pmu, fmt);
			if (!perf_spell(u, spec, &o))
				continue;
			int stated = 0;
			for (size_t k = 0; formats_not_taken[k].plat; k++)
				if (!strcmp(formats_not_taken[k].plat, pd->name) && !strcmp(formats_not_taken[k].pmu, stem) &&
				    !strcmp(formats_not_taken[k].format, fmt))
					stated = formats_not_taken[k].used = 1;
			if (!stated) {
				fprintf(stderr, "%s: %s (Linux format %s '%s'): %s\n", pd->name, spec, fmt, l.v[i] + path_len(l.v[i]) + 1,
					uncore_error());
				refused++;
			}
		}
		fprintf(stderr, "%s: %d format names, %d refused without a reason\n", pd->name, nseen, refused);
		CU_ASSERT_EQUAL(refused, 0);
		CU_ASSERT(nseen < 512);
		uncore_close(u);
		free_lines(&l);
	}
	for (size_t k = 0; formats_not_taken[k].plat; k++) {
		if (!formats_not_taken[k].used)
			fprintf(stderr, "formats_not_taken: %s %s/%s is taken now or in no listing: remove it\n",
				formats_not_taken[k].plat, formats_not_taken[k].pmu, formats_not_taken[k].format);
		CU_ASSERT(formats_not_taken[k].used);
	}
}

/* The perfmon folds (perfmon_units.txt "fold FIELD SHIFT": where a PortMask or FCMask of Intel's JSON goes in the
 * umask extension, control bits 63:32) against the IIO PMU's formats ch_mask and fc_mask in the listing: the
 * field's lowest bit is config bit 32 + SHIFT.  (A platform without folds takes the discovery generation's
 * default, T2-184's, in catalog.c.) */
static void test_folds(void)
{
	static const char *const formats[][2] = { { "PortMask", "ch_mask" }, { "FCMask", "fc_mask" } };
	int held = 0;
	for (int p = 0; uc_platforms[p]; p++) {
		const struct platform_desc *pd = uc_platforms[p];
		char rel[160], path[160];
		struct lines l = { 0 };
		if (!pd->perfmon_folds)
			continue;
		snprintf(rel, sizeof(rel), "%s/linux_pmus.txt", pd->name);
		CU_ASSERT_FATAL(read_listing(rel, &l) == 0);
		for (const struct uc_perfmon_fold *f = pd->perfmon_folds; f->field; f++) {
			const char *format = NULL, *text;
			for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++)
				if (!strcmp(formats[k][0], f->field))
					format = formats[k][1];
			snprintf(path, sizeof(path), "uncore_iio_0/format/%s", format ? format : "?");
			text = format ? listing_text(&l, path) : NULL;
			int lo = text && !strncmp(text, "config:", 7) ? atoi(text + 7) : -1;
			if (lo != 32 + f->shift)
				fprintf(stderr, "%s: fold %s at umask extension bit %d (config bit %d), Linux's %s: %s\n", pd->name,
					f->field, f->shift, 32 + f->shift, path, text ? text : "none");
			CU_ASSERT_EQUAL(lo, 32 + f->shift);
			held++;
		}
		free_lines(&l);
	}
	fprintf(stderr, "%d folds held against the IIO formats\n", held);
	CU_ASSERT(held >= 14);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "alias terms go through the PMU's formats", test_encoding },
		{ "every platform's alias table is what its Linux listing says", test_every_table },
		{ "every format name of a Linux PMU is a term perf's spelling takes", test_every_format },
		{ "the perfmon folds put PortMask and FCMask where Linux's ch_mask and fc_mask are", test_folds },
		{ NULL, NULL },
	};
	return run_suite("alias_tables", tests);
}
