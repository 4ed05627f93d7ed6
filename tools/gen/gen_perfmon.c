/*
 * gen_perfmon: turn Intel's perfmon uncore JSON (eventtables/) into a platform's C event catalog at
 * build time, the same array gen_events makes from .evt files (struct uc_event, platform/platform.h).
 * Usage: gen_perfmon SYMBOL EVENTTABLES_DIR UNIT_MAP > out.c
 *        gen_perfmon --mapfile EVENTTABLES_DIR DIR_MAP > out.c     (CPU detection table, below)
 *        gen_perfmon --generic EVENTTABLES_DIR DIR_MAP PLATFORM... > out.c   (generic catalogs, below)
 *
 * The unit map (platforms/<p>/perfmon_units.txt, format in platforms/README.md) is the only thing we
 * write: which JSON files, which perfmon Unit is which of our box types, what a JSON Filter means for
 * our boxes, and where PortMask/FCMask sit in the umask extension.  Every value of an event (code,
 * umask, umask extension, counters, free-running index, description) is Intel's, copied as the JSON
 * has it, so updating a platform is replacing its JSON files and rebuilding.
 *
 * That data is not trusted as C: every string reaches the output through gen_c.h's escaping, and the
 * map's and mapfile's names (files, directories, platforms, versions) must be plain ones.
 */
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_c.h"
#include "gen_catalog.h"
#include "platform/perfmon_filter.h"

#define MAX_ROWS 64

struct unit_row { char perfmon[256], box[256]; };
struct filter_row { char json[256], ours[256]; };
struct fold_row { char field[256]; int shift; char dirs[200]; /* "": every directory without a row of its own */ };
struct dir_row { char dir[256], platform[64]; int discovery; };
/* a counter restriction of the Linux driver narrower than Intel's Counter: events of box with this code
 * go only on the counters of mask (the platform's perf backend must never place what the driver refuses) */
struct narrow_row { char box[256]; unsigned code, mask; };

static struct unit_row units[MAX_ROWS];
static struct filter_row filters[MAX_ROWS];
static struct uc_perfmon_filter frows[MAX_ROWS + 1]; /* filters[] as the library's rows, NULL-ended */
static struct fold_row folds[8];
static struct dir_row dirs[MAX_ROWS];
static struct narrow_row narrows[MAX_ROWS];
static int nnarrows;
static char jsons[8][256];
static int nunits, nfilters, nfolds, njsons, ndirs;
static struct gen_catalog cat; /* the catalog being written */
/* "deprecated UNIT": that Unit's deprecated events that name no replacement stay in the catalog as events (perf
 * keeps them usable); those that name one are its aliases on every Unit (catalog(): SKX's io_bandwidth_write
 * reads UNC_IIO_PAYLOAD_BYTES_IN.*, aliases of UNC_IIO_DATA_REQ_OF_CPU.*) */
static char keep_dep[8][256];
static int nkeep_dep;
/* "freerun UNIT N": that Unit's free-running counters are its first N, the driver's; the JSON's others (ICX IIO
 * BANDWIDTH_OUT, which no driver reads and no source places) are left out */
static struct { char unit[256]; int n; } freeruns[8];
static int nfreeruns;
/* --generic: the directory being generated (for its folds), and events left out because their Filter is
 * not one the map names (counted, not fatal: those catalogs serve CPUs without a platform) */
static const char *cur_dir = "";
static int lenient, left_out;

static void die(const char *where, const char *msg, const char *what)
{
	fprintf(stderr, "gen_perfmon: %s: %s%s%s\n", where, msg, what ? ": " : "", what ? what : "");
	exit(1);
}

/* A map or mapfile field that names a file or reaches the C output: [A-Za-z0-9._/-] (and extra) only, else
 * the build stops naming the file, its line (0: a name read from a directory listing) and the field
 * (the value shown escaped). */
static void plain(const char *file, int line, const char *field, const char *v, const char *extra)
{
	if (gen_c_plain(v, extra))
		return;
	fprintf(stderr, "gen_perfmon: %s", file);
	if (line)
		fprintf(stderr, ":%d", line);
	fprintf(stderr, ": %s \"", field);
	gen_c_bytes(stderr, v, strlen(v));
	fprintf(stderr, "\" is empty or has a byte outside [A-Za-z0-9._/-]%s%s%s\n", extra ? " and \"" : "",
		extra ? extra : "", extra ? "\"" : "");
	exit(1);
}

/* The map's keyword lines; the last field of unit/filter lines may hold spaces ("UPI LL").  "include FILE"
 * reads FILE (relative to the map's folder) in its place: Cascade Lake takes Skylake-SP's unit lines. */
static void read_map(const char *path)
{
	char line[512];
	int lineno = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		die(path, "cannot open", NULL);
	while (fgets(line, sizeof(line), f)) {
		char inc[1024], name[256];
		const char *slash = strrchr(path, '/');
		lineno++;
		if (sscanf(line, "include %255s", name) == 1) {
			plain(path, lineno, "include FILE", name, NULL);
			snprintf(inc, sizeof(inc), "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, name);
			read_map(inc);
			continue;
		}
		char kw[16], a[256], b[256];
		int n;
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		n = sscanf(line, "%15s %255s %255[^\n]", kw, a, b);
		if (!strcmp(kw, "json") && n == 2 && njsons < 8) {
			plain(path, lineno, "json FILE", a, NULL);
			snprintf(jsons[njsons++], sizeof(jsons[0]), "%s", a);
		} else if (!strcmp(kw, "unit") && n == 3 && nunits < MAX_ROWS) {
			snprintf(units[nunits].box, sizeof(units[0].box), "%s", a);
			snprintf(units[nunits++].perfmon, sizeof(units[0].perfmon), "%s", b);
		} else if (!strcmp(kw, "filter") && n == 3 && nfilters < MAX_ROWS) {
			snprintf(filters[nfilters].ours, sizeof(filters[0].ours), "%s", strcmp(a, "-") ? a : "");
			snprintf(filters[nfilters].json, sizeof(filters[0].json), "%s", b);
			frows[nfilters] = (struct uc_perfmon_filter){ filters[nfilters].json, filters[nfilters].ours };
			nfilters++;
		} else if (!strcmp(kw, "dir") && n == 3 && ndirs < MAX_ROWS) {
			char plat[64], flag[64] = "";
			snprintf(dirs[ndirs].dir, sizeof(dirs[0].dir), "%s", a);
			sscanf(b, "%63s %63s", plat, flag);
			plain(path, lineno, "dir DIR", a, NULL);
			plain(path, lineno, "dir PLATFORM", plat, NULL);
			snprintf(dirs[ndirs].platform, sizeof(dirs[0].platform), "%s", plat);
			dirs[ndirs++].discovery = !strcmp(flag, "discovery");
		} else if (!strcmp(kw, "deprecated") && n >= 2 && nkeep_dep < 8) {
			sscanf(line, "%*s %255[^\n]", keep_dep[nkeep_dep++]);
		} else if (!strcmp(kw, "narrow") && n == 3 && nnarrows < MAX_ROWS &&
			   sscanf(b, "%x %x", &narrows[nnarrows].code, &narrows[nnarrows].mask) == 2) {
			snprintf(narrows[nnarrows++].box, sizeof(narrows[0].box), "%s", a);
		} else if (!strcmp(kw, "freerun") && n == 3 && nfreeruns < 8) {
			snprintf(freeruns[nfreeruns].unit, sizeof(freeruns[0].unit), "%s", a);
			freeruns[nfreeruns++].n = atoi(b);
		} else if (!strcmp(kw, "fold") && n == 3 && nfolds < 8) {
			snprintf(folds[nfolds].field, sizeof(folds[0].field), "%s", a);
			sscanf(b, "%d %199[^\n]", &folds[nfolds].shift, folds[nfolds].dirs);
			nfolds++;
		} else {
			fprintf(stderr, "gen_perfmon: %s:%d: expected json FILE, unit BOX PERFMON_UNIT, "
				"filter OURS|- JSON_FILTER, fold FIELD SHIFT [DIR...], deprecated UNIT, include FILE, narrow BOX CODE MASK, "
				"freerun UNIT N or dir DIR PLATFORM "
				"[discovery]\n", path,
				lineno);
			exit(1);
		}
	}
	fclose(f);
}

static const char *str(json_t *ev, const char *key)
{
	const char *s = json_string_value(json_object_get(ev, key));
	return s ? s : "";
}

static unsigned long long hexval(json_t *ev, const char *key, const char *name)
{
	const char *s = str(ev, key);
	char *end;
	unsigned long long v = strtoull(s, &end, 16);
	if (*s && *end)
		die(name, "not a hexadecimal number", key);
	return v;
}

/* "0,1,2,3" -> 0xf; "FIXED" and free-running counters have no general-purpose counter. */
static unsigned ctr_mask(const char *s, const char *name)
{
	unsigned m = 0;
	while (*s) {
		char *end;
		long c = strtol(s, &end, 10);
		if (end == s || c < 0 || c > 15)
			die(name, "bad Counter", s);
		m |= 1u << c;
		s = end + (*end == ',');
		if (*end && *end != ',')
			die(name, "bad Counter", s);
	}
	return m;
}

/* Is dir one of the space-separated names in list? */
static int names_dir(const char *list, const char *dir)
{
	size_t n = strlen(dir);
	for (const char *p = list; *dir && (p = strstr(p, dir)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* Does fold row i apply to the current directory: a row naming it, else the row for every directory? */
static int fold_applies(int i)
{
	if (folds[i].dirs[0])
		return names_dir(folds[i].dirs, cur_dir);
	for (int k = 0; k < nfolds; k++)
		if (k != i && !strcmp(folds[k].field, folds[i].field) && names_dir(folds[k].dirs, cur_dir))
			return 0;
	return 1;
}

/* The row of ev on box; dep, a deprecated event whose replacement ev is: the row under dep's name and
 * description, flagged UC_EV_DEPRECATED, src the replacement's name (the catalog's alias). */
static void emit(json_t *ev, const char *box, json_t *dep)
{
	const char *name = str(ev, "EventName"), *ctr = str(ev, "Counter"), *type = str(ev, "CounterType");
	const char *filt = str(ev, "Filter"), *ours = NULL;
	unsigned long long umask = hexval(ev, "UMask", name), umext = hexval(ev, "UMaskExt", name);
	unsigned code = (unsigned)hexval(ev, "EventCode", name), mask = 0;
	int freerun = !strcmp(type, "FREERUN"), fixed = !strcmp(ctr, "FIXED") || !strcmp(type, "FIXED");

	if (umask > 0xff) { /* perf's spelling: the extension above the 8 umask bits */
		if (umext)
			die(name, "both UMaskExt and a UMask above 8 bits", NULL);
		umext = umask >> 8;
		umask &= 0xff;
	}
	if (!umext) /* files that give PortMask/FCMask apart (IIO) rather than inside UMaskExt */
		for (int i = 0; i < nfolds; i++)
			if (fold_applies(i))
				umext |= hexval(ev, folds[i].field, name) << folds[i].shift;
	if (umext > 0xffffffffULL || code > 0xff)
		die(name, "code or umask extension out of range", NULL);
	if (freerun) /* the free-running counter's number in the box's list, as the .evt files have it */
		umask = (unsigned)atoi(ctr);
	else if (!fixed)
		mask = ctr_mask(ctr, name);
	for (int i = 0; i < nnarrows; i++)
		if (!strcmp(narrows[i].box, box) && narrows[i].code == code && mask)
			mask &= narrows[i].mask;
	/* the map's filter rows, as the library applies them to JSON loaded at run time (perfmon_filter.h) */
	char raw[256], why[300];
	int r = uc_perfmon_filter_spec(frows, filt, str(ev, "FILTER_VALUE"), raw, sizeof(raw), why, sizeof(why));
	if (r > 0 && lenient) {
		left_out++;
		return;
	}
	if (r > 0)
		die(name, "a Filter the unit map does not name", filt);
	if (r < 0)
		die(name, why, NULL);
	ours = raw;

	char flags[48];
	snprintf(flags, sizeof(flags), "%s%s", fixed ? "UC_EV_FIXED" : freerun ? "UC_EV_FREERUN" : "0",
		 dep ? " | UC_EV_DEPRECATED" : "");
	gen_catalog_row(stdout, &cat, dep ? str(dep, "EventName") : name, box, code, (unsigned)umask, atoi(str(ev, "ExtSel")),
			mask, 1, flags, umext, ours, str(dep ? dep : ev, "BriefDescription"), dep ? name : "json");
}

/* The event a deprecated one names as its replacement, as Intel writes it in the description ("This event is
 * deprecated. Refer to new event UNC_CHA_CLOCKTICKS", "... [This event is alias to UNC_IIO_...]"), in buf; "" when
 * none is named. */
static const char *replacement_name(json_t *ev, char *buf, size_t len)
{
	static const char *const says[] = { "Refer to new event ", "This event is alias to " };
	buf[0] = 0;
	for (int f = 0; f < 2 && !buf[0]; f++) {
		const char *d = str(ev, f ? "PublicDescription" : "BriefDescription"), *p = NULL;
		for (int k = 0; k < 2 && !p; k++)
			if ((p = strstr(d, says[k])))
				p += strlen(says[k]);
		size_t n = p ? strcspn(p, " ]\t\r\n") : 0;
		while (n && p[n - 1] == '.') /* the sentence's full stop */
			n--;
		if (n && n < len)
			snprintf(buf, len, "%.*s", (int)n, p);
	}
	return buf;
}

static int deprecated(json_t *ev) { return !strcmp(str(ev, "Deprecated"), "1"); }

/* Is the event live, or a deprecated one of a Unit the map keeps that names no replacement (a deprecated event
 * with a replacement is its alias instead: replaced_by)? */
static int kept(json_t *ev)
{
	for (int i = 0; i < nfreeruns; i++)
		if (!strcmp(freeruns[i].unit, str(ev, "Unit")) && !strcmp(str(ev, "CounterType"), "FREERUN") &&
		    atoi(str(ev, "Counter")) >= freeruns[i].n)
			return 0;
	if (!deprecated(ev))
		return 1;
	char repl[256];
	if (*replacement_name(ev, repl, sizeof(repl)) && !lenient)
		return 0;
	for (int i = 0; i < nkeep_dep; i++)
		if (!strcmp(keep_dep[i], str(ev, "Unit")))
			return 1;
	return 0;
}

static int unit_known(const char *perfmon)
{
	for (int u = 0; u < nunits; u++)
		if (!strcmp(units[u].perfmon, perfmon))
			return 1;
	return 0;
}

static json_t *load_events(const char *dir, const char *file)
{
	char path[1024];
	json_error_t err;
	json_t *root;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!(root = json_load_file(path, 0, &err)))
		die(path, "not valid JSON", err.text);
	if (!json_is_array(json_object_get(root, "Events")))
		die(path, "no Events array", NULL);
	return root;
}

/* The live event of roots[0..n) that deprecated event dep names as its replacement, and its box; NULL when it
 * names none, or one the catalog does not hold (then dep is left out, as perf would count something else). */
static json_t *replaced_by(json_t *dep, json_t **roots, int n, const char **box)
{
	char repl[256];
	if (!*replacement_name(dep, repl, sizeof(repl)))
		return NULL;
	for (int j = 0; j < n; j++) {
		size_t i;
		json_t *ev;
		json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
			if (!strcmp(str(ev, "EventName"), repl) && !deprecated(ev) && kept(ev))
				for (int u = 0; u < nunits; u++)
					if (!strcmp(units[u].perfmon, str(ev, "Unit")) && strcmp(units[u].box, "-")) {
						*box = units[u].box;
						return ev;
					}
	}
	return NULL;
}

/* The array SYMBOL of the events of roots[0..n): grouped by unit in units[] order, in each the files'
 * order; then (a platform's catalog, not --generic's) Intel's deprecated names that name a replacement the
 * catalog holds, each that event's row under its own name (UC_EV_DEPRECATED: the catalog takes them as
 * aliases); other deprecated events left out, but those of a Unit the map keeps.  Every Unit must be in
 * units[], so that a unit new in an updated file is a build error, not a silent loss. */
static void catalog(const char *symbol, json_t **roots, int n)
{
	for (int j = 0; j < n; j++) {
		size_t i;
		json_t *ev;
		json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
			if (!unit_known(str(ev, "Unit")))
				die(symbol, "a Unit the unit map does not name", str(ev, "Unit"));
	}
	gen_catalog_begin(stdout, symbol, &cat);
	for (int u = 0; u < nunits; u++) {
		if (!strcmp(units[u].box, "-"))
			continue;
		for (int j = 0; j < n; j++) {
			size_t i;
			json_t *ev;
			json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
				if (!strcmp(str(ev, "Unit"), units[u].perfmon) && kept(ev))
					emit(ev, units[u].box, NULL);
		}
	}
	for (int u = 0; u < nunits && !lenient; u++)
		for (int j = 0; j < n && strcmp(units[u].box, "-"); j++) {
			size_t i;
			json_t *ev, *repl;
			const char *box;
			json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
				if (!strcmp(str(ev, "Unit"), units[u].perfmon) && deprecated(ev) &&
				    (repl = replaced_by(ev, roots, n, &box)))
					emit(repl, box, ev);
		}
	gen_catalog_end(stdout, symbol, &cat);
}

/* The map's filter and fold rows as SYMBOL_filters and SYMBOL_folds (platform_desc.perfmon_filters and
 * perfmon_folds): what a Filter, PortMask or FCMask of Intel's JSON that a user loads means, as it meant
 * for the catalog. */
static void filter_table(const char *symbol)
{
	printf("const struct uc_perfmon_filter %s_filters[] = {\n", symbol);
	for (int i = 0; i < nfilters; i++) {
		printf("\t{ ");
		gen_c_string(stdout, filters[i].json);
		printf(", ");
		gen_c_string(stdout, filters[i].ours);
		printf(" },\n");
	}
	printf("\t{ NULL, NULL },\n};\nconst struct uc_perfmon_fold %s_folds[] = {\n", symbol);
	for (int i = 0; i < nfolds; i++)
		if (fold_applies(i)) {
			printf("\t{ ");
			gen_c_string(stdout, folds[i].field);
			printf(", %d },\n", folds[i].shift);
		}
	printf("\t{ NULL, 0 },\n};\n");
}

/* One mapfile.csv row: "GenuineIntel-6-55-[01234],V1.37,/SKX/events/skylakex_uncore.json,uncore,..." */
struct map_row {
	char vendor[32], dir[256], file[256], version[16], type[32];
	int family, model;
	unsigned steppings; /* bit s: stepping s matches */
};

/* perfmon's CPU id: VENDOR-FAMILY(decimal)-MODEL(hex)[-STEPPINGS], STEPPINGS one hex digit or a
 * bracket list of them (perf matches the column as a regular expression; these are the forms Intel
 * uses, anything else stops the build). */
static int parse_row(char *line, struct map_row *r, const char *file, int lineno)
{
	char id[96], path[256], *f[4];
	int n = 0;
	for (char *t = strtok(line, ",\r\n"); t && n < 4; t = strtok(NULL, ",\r\n"))
		f[n++] = t;
	if (n < 4 || strncmp(f[0], "GenuineIntel-", 13) || f[2][0] != '/')
		return 0;
	plain(file, lineno, "Family-model", f[0], "[]");
	plain(file, lineno, "Version", f[1], NULL);
	plain(file, lineno, "Filename", f[2], NULL);
	plain(file, lineno, "EventType", f[3], " "); /* "uncore experimental" */
	snprintf(id, sizeof(id), "%s", f[0]);
	snprintf(path, sizeof(path), "%s", f[2] + 1);
	char *dash = strchr(id + 13, '-'), *step = dash ? strchr(dash + 1, '-') : NULL, *slash = strchr(path, '/');
	if (!dash || !slash)
		die(f[0], "not a perfmon CPU id", f[2]);
	memset(r, 0, sizeof(*r));
	snprintf(r->vendor, sizeof(r->vendor), "GenuineIntel");
	r->family = atoi(id + 13);
	r->model = (int)strtol(dash + 1, NULL, 16);
	r->steppings = 0xffff;
	if (step) {
		const char *d = step + 1 + (step[1] == '[');
		r->steppings = 0;
		for (; *d && *d != ']'; d++) {
			if (!isxdigit((unsigned char)*d))
				die(f[0], "a stepping form gen_perfmon does not know", step);
			r->steppings |= 1u << (isdigit((unsigned char)*d) ? *d - '0' : toupper((unsigned char)*d) - 'A' + 10);
		}
	}
	*slash = 0;
	snprintf(r->dir, sizeof(r->dir), "%s", path);
	snprintf(r->file, sizeof(r->file), "%s", strrchr(slash + 1, '/') ? strrchr(slash + 1, '/') + 1 : slash + 1);
	snprintf(r->version, sizeof(r->version), "%s", f[1]);
	snprintf(r->type, sizeof(r->type), "%s", f[3]);
	return 1;
}

static int read_mapfile(const char *evdir, struct map_row *rowv, int max)
{
	char path[1024], line[512];
	int n = 0, lineno = 0;
	snprintf(path, sizeof(path), "%s/mapfile.csv", evdir);
	FILE *f = fopen(path, "r");
	if (!f)
		die(path, "cannot open", NULL);
	while (fgets(line, sizeof(line), f) && n < max)
		n += parse_row(line, &rowv[n], path, ++lineno);
	fclose(f);
	return n;
}

static const struct dir_row *dir_named(const char *dir)
{
	for (int d = 0; d < ndirs; d++)
		if (!strcmp(dirs[d].dir, dir))
			return &dirs[d];
	return NULL;
}

/* --mapfile: one row per CPU id and directory, naming the uncore file (else the first file) and the
 * platform the directory is ours (platforms/perfmon_dirs.txt; "" when none), for detection. */
static int mapfile_table(const char *evdir)
{
	static struct map_row r[1024];
	int n = read_mapfile(evdir, r, 1024), out = 0;
	printf("const struct uc_mapfile_row uc_mapfile[] = {\n");
	for (int i = 0; i < n; i++) {
		int first = 1, best = i;
		for (int k = 0; k < n; k++)
			if (!strcmp(r[k].dir, r[i].dir) && r[k].family == r[i].family && r[k].model == r[i].model &&
			    r[k].steppings == r[i].steppings) {
				if (k < i)
					first = 0;
				if (!strcmp(r[k].type, "uncore") && strcmp(r[best].type, "uncore"))
					best = k;
			}
		if (!first)
			continue;
		const struct dir_row *d = dir_named(r[i].dir);
		const char *field[] = { r[i].dir, r[best].file, r[best].version, d ? d->platform : "" };
		printf("\t{ %d, 0x%02x, 0x%04x", r[i].family, r[i].model, r[i].steppings);
		for (int k = 0; k < 4; k++) {
			printf(", ");
			gen_c_string(stdout, field[k]);
		}
		printf(" },\n");
		out++;
	}
	printf("};\nconst int uc_mapfile_n = %d;\n", out);
	return 0;
}

/* The directory's perf metric file (the one .json of its metrics/perf, if it has exactly one) as the C string
 * SYMBOL_metrics, or a NULL one: the perf backend loads its uncore metrics on these CPUs. */
static void embed_metrics(const char *evdir, const char *dir, const char *sym)
{
	char path[1024], file[1400] = "";
	int n = 0;
	if (snprintf(path, sizeof(path), "%s/%s/metrics/perf", evdir, dir) >= (int)sizeof(path))
		die(dir, "its metrics/perf path is longer than the 1023 bytes kept for it", evdir);
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strlen(e->d_name) > 5 && !strcmp(e->d_name + strlen(e->d_name) - 5, ".json") && ++n == 1)
			snprintf(file, sizeof(file), "%s/%.300s", path, e->d_name);
	if (d)
		closedir(d);
	if (n != 1) {
		printf("static const char *const %s_metrics = NULL;\n\n", sym);
		return;
	}
	const char *name = file + strlen(evdir) + 1;
	plain(path, 0, "metric file name", name, NULL);
	FILE *f = fopen(file, "r");
	if (!f)
		die(file, "cannot open", NULL);
	printf("static const char %s_metrics[] = /* ", sym);
	gen_c_bytes(stdout, name, strlen(name));
	printf(" */\n");
	if (gen_c_embed(stdout, f))
		die(file, "cannot read", NULL);
	printf(";\n\n");
	fclose(f);
}

/* --generic: for each directory whose platform is not built in, its uncore files (as the mapfile names
 * them) as a catalog keeping perfmon's Unit names, which the library maps at open: to discovery types on
 * a discovery CPU without a platform (directories marked discovery), to the kernel's PMUs on perf (every
 * one).  Events whose Filter the map does not name are left out and counted. */
static int generic_catalogs(const char *evdir, char **built, int nbuilt)
{
	static struct map_row r[1024];
	int n = read_mapfile(evdir, r, 1024), ncat = 0;
	struct { char sym[96]; int d, left; } done[MAX_ROWS];
	lenient = 1;
	for (int d = 0; d < ndirs; d++) {
		int is_built = 0;
		json_t *roots[8];
		char files[8][256], sym[96], version[16] = "";
		int nf = 0;
		for (int b = 0; b < nbuilt; b++)
			is_built |= !strcmp(built[b], dirs[d].platform);
		if (is_built)
			continue;
		for (int i = 0; i < n; i++) {
			int seen = 0;
			if (strcmp(r[i].dir, dirs[d].dir) || strncmp(r[i].type, "uncore", 6))
				continue;
			snprintf(sym, sizeof(sym), "%s/events/%s", r[i].dir, r[i].file);
			for (int k = 0; k < nf; k++)
				seen |= !strcmp(files[k], sym);
			if (!seen && nf < 8) {
				snprintf(files[nf], sizeof(files[0]), "%s", sym);
				if (!version[0])
					snprintf(version, sizeof(version), "%s", r[i].version);
				roots[nf++] = load_events(evdir, sym);
			}
		}
		if (!nf)
			die(dirs[d].dir, "the mapfile names no uncore file", NULL);
		nunits = 0; /* every Unit as perfmon names it, in order of first appearance */
		for (int j = 0; j < nf; j++) {
			size_t i;
			json_t *ev;
			json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
				if (!unit_known(str(ev, "Unit")) && nunits < MAX_ROWS) {
					snprintf(units[nunits].perfmon, sizeof(units[0].perfmon), "%s", str(ev, "Unit"));
					snprintf(units[nunits++].box, sizeof(units[0].box), "%s", str(ev, "Unit"));
				}
		}
		if (snprintf(sym, sizeof(sym), "uc_generic_%s", dirs[d].dir) >= (int)sizeof(sym))
			die(dirs[d].dir, "a directory name this long makes a C name longer than the 95 bytes kept for it", NULL);
		for (char *c = sym; *c; c++) /* BDW-DE: a C name */
			*c = isalnum((unsigned char)*c) ? *c : '_';
		cur_dir = dirs[d].dir;
		left_out = 0;
		catalog(sym, roots, nf);
		printf("static const char %s_file[] = ", sym);
		gen_c_string(stdout, files[0]);
		printf(", %s_version[] = ", sym);
		gen_c_string(stdout, version);
		printf(";\n\n");
		embed_metrics(evdir, dirs[d].dir, sym);
		snprintf(done[ncat].sym, sizeof(done[0].sym), "%s", sym);
		done[ncat].d = d;
		done[ncat++].left = left_out;
		for (int j = 0; j < nf; j++)
			json_decref(roots[j]);
	}
	printf("const struct uc_generic_catalog uc_generic_catalogs[] = {\n");
	for (int c = 0; c < ncat; c++) {
		printf("\t{ ");
		gen_c_string(stdout, dirs[done[c].d].dir);
		printf(", ");
		gen_c_string(stdout, dirs[done[c].d].platform);
		printf(", %s_file, %s_version, &%s, %d, %d, %s_metrics },\n", done[c].sym, done[c].sym, done[c].sym,
		       dirs[done[c].d].discovery, done[c].left, done[c].sym);
	}
	printf("\t{ NULL, NULL, NULL, NULL, NULL, 0, 0, NULL },\n};\n");
	return 0;
}

int main(int argc, char **argv)
{
	json_t *roots[8];
	if (argc >= 4 && (!strcmp(argv[1], "--mapfile") || !strcmp(argv[1], "--generic"))) {
		read_map(argv[3]);
		/* the paths escaped as strings are, so that no name of a directory can end the comment */
		printf("/* Generated by tools/gen/gen_perfmon %s from ", argv[1]);
		gen_c_bytes(stdout, argv[2], strlen(argv[2]));
		printf("/mapfile.csv and ");
		gen_c_bytes(stdout, argv[3], strlen(argv[3]));
		printf(": do not edit. */\n#include \"platform/platform.h\"\n\n");
		return !strcmp(argv[1], "--mapfile") ? mapfile_table(argv[2]) : generic_catalogs(argv[2], argv + 4, argc - 4);
	}
	if (argc != 4) {
		fprintf(stderr, "usage: gen_perfmon SYMBOL EVENTTABLES_DIR UNIT_MAP\n"
			"       gen_perfmon --mapfile EVENTTABLES_DIR DIR_MAP\n"
			"       gen_perfmon --generic EVENTTABLES_DIR DIR_MAP PLATFORM...\n");
		return 2;
	}
	if (!gen_c_identifier(argv[1]))
		die(argv[1], "SYMBOL is not a C identifier", NULL);
	read_map(argv[3]);
	if (!njsons || !nunits)
		die(argv[3], "names no json file or no unit", NULL);
	for (int j = 0; j < njsons; j++)
		roots[j] = load_events(argv[2], jsons[j]);
	printf("/* Generated by tools/gen/gen_perfmon from ");
	gen_c_bytes(stdout, argv[3], strlen(argv[3]));
	printf(": do not edit. */\n#include \"platform/platform.h\"\n\n");
	catalog(argv[1], roots, njsons);
	filter_table(argv[1]);
	for (int j = 0; j < njsons; j++)
		json_decref(roots[j]);
	return 0;
}
