/*
 * gen_perfmon: turn Intel's perfmon uncore JSON (eventtables/) into a platform's C event catalog at
 * build time, the same array gen_events makes from .evt files (struct uc_event, platform/platform.h).
 * Usage: gen_perfmon SYMBOL EVENTTABLES_DIR UNIT_MAP > out.c
 *
 * The unit map (platforms/<p>/perfmon_units.txt, format in platforms/README.md) is the only thing we
 * write: which JSON files, which perfmon Unit is which of our box types, what a JSON Filter means for
 * our boxes, and where PortMask/FCMask sit in the umask extension.  Every value of an event (code,
 * umask, umask extension, counters, free-running index, description) is Intel's, copied as the JSON
 * has it, so updating a platform is replacing its JSON files and rebuilding.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 64

struct unit_row { char perfmon[256], box[256]; };
struct filter_row { char json[256], ours[256]; };
struct fold_row { char field[256]; int shift; };

static struct unit_row units[MAX_ROWS];
static struct filter_row filters[MAX_ROWS];
static struct fold_row folds[4];
static char jsons[8][256];
static int nunits, nfilters, nfolds, njsons, rows;

static void die(const char *where, const char *msg, const char *what)
{
	fprintf(stderr, "gen_perfmon: %s: %s%s%s\n", where, msg, what ? ": " : "", what ? what : "");
	exit(1);
}

/* The map's keyword lines; the last field of unit/filter lines may hold spaces ("UPI LL"). */
static void read_map(const char *path)
{
	char line[512];
	int lineno = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		die(path, "cannot open", NULL);
	while (fgets(line, sizeof(line), f)) {
		char kw[16], a[256], b[256];
		int n;
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		n = sscanf(line, "%15s %255s %255[^\n]", kw, a, b);
		if (!strcmp(kw, "json") && n == 2 && njsons < 8)
			snprintf(jsons[njsons++], sizeof(jsons[0]), "%s", a);
		else if (!strcmp(kw, "unit") && n == 3 && nunits < MAX_ROWS) {
			snprintf(units[nunits].box, sizeof(units[0].box), "%s", a);
			snprintf(units[nunits++].perfmon, sizeof(units[0].perfmon), "%s", b);
		} else if (!strcmp(kw, "filter") && n == 3 && nfilters < MAX_ROWS) {
			snprintf(filters[nfilters].ours, sizeof(filters[0].ours), "%s", strcmp(a, "-") ? a : "");
			snprintf(filters[nfilters++].json, sizeof(filters[0].json), "%s", b);
		} else if (!strcmp(kw, "fold") && n == 3 && nfolds < 4) {
			snprintf(folds[nfolds].field, sizeof(folds[0].field), "%s", a);
			folds[nfolds++].shift = atoi(b);
		} else {
			fprintf(stderr, "gen_perfmon: %s:%d: expected json FILE, unit BOX PERFMON_UNIT, "
				"filter OURS|- JSON_FILTER or fold FIELD SHIFT\n", path, lineno);
			exit(1);
		}
	}
	fclose(f);
	if (!njsons || !nunits)
		die(path, "names no json file or no unit", NULL);
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

static void cstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		if (*s == '\n')
			fputs("\\n", stdout);
		else if ((unsigned char)*s >= 0x20)
			putchar(*s);
	}
	putchar('"');
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

static void emit(json_t *ev, const char *box)
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
			umext |= hexval(ev, folds[i].field, name) << folds[i].shift;
	if (umext > 0xffffffffULL || code > 0xff)
		die(name, "code or umask extension out of range", NULL);
	if (freerun) /* the free-running counter's number in the box's list, as the .evt files have it */
		umask = (unsigned)atoi(ctr);
	else if (!fixed)
		mask = ctr_mask(ctr, name);
	if (!*filt || !strcmp(filt, "na"))
		ours = "";
	for (int i = 0; i < nfilters && !ours; i++)
		if (!strcmp(filters[i].json, filt))
			ours = filters[i].ours;
	if (!ours)
		die(name, "a Filter the unit map does not name", filt);

	printf("\t{ ");
	cstr(name);
	printf(", ");
	cstr(box);
	printf(", 0x%02x, 0x%02x, %d, 0x%04x, 1, %s, 0x%llx, ", code, (unsigned)umask, atoi(str(ev, "ExtSel")), mask,
	       fixed ? "UC_EV_FIXED" : freerun ? "UC_EV_FREERUN" : "0", umext);
	cstr(ours);
	printf(", ");
	cstr(str(ev, "BriefDescription"));
	printf(", \"json\" },\n");
	rows++;
}

int main(int argc, char **argv)
{
	json_t *roots[8];
	if (argc != 4) {
		fprintf(stderr, "usage: gen_perfmon SYMBOL EVENTTABLES_DIR UNIT_MAP\n");
		return 2;
	}
	read_map(argv[3]);
	for (int j = 0; j < njsons; j++) {
		char path[1024];
		json_error_t err;
		snprintf(path, sizeof(path), "%s/%s", argv[2], jsons[j]);
		if (!(roots[j] = json_load_file(path, 0, &err)))
			die(path, "not valid JSON", err.text);
		if (!json_is_array(json_object_get(roots[j], "Events")))
			die(path, "no Events array", NULL);
	}
	/* every Unit must be named, so that a unit new in an updated file is a build error, not a loss */
	for (int j = 0; j < njsons; j++) {
		size_t i;
		json_t *ev;
		json_array_foreach(json_object_get(roots[j], "Events"), i, ev) {
			int known = 0;
			for (int u = 0; u < nunits && !known; u++)
				known = !strcmp(units[u].perfmon, str(ev, "Unit"));
			if (!known)
				die(jsons[j], "a Unit the unit map does not name", str(ev, "Unit"));
		}
	}
	printf("/* Generated by tools/gen_perfmon from %s: do not edit. */\n#include \"platform/platform.h\"\n\n",
	       argv[3]);
	printf("const struct uc_event %s[] = {\n", argv[1]);
	/* grouped by unit in the map's order; in each, the files' order; deprecated events left out */
	for (int u = 0; u < nunits; u++) {
		if (!strcmp(units[u].box, "-"))
			continue;
		for (int j = 0; j < njsons; j++) {
			size_t i;
			json_t *ev;
			json_array_foreach(json_object_get(roots[j], "Events"), i, ev)
				if (!strcmp(str(ev, "Unit"), units[u].perfmon) && strcmp(str(ev, "Deprecated"), "1"))
					emit(ev, units[u].box);
		}
	}
	printf("};\nconst int %s_n = %d;\n", argv[1], rows);
	for (int j = 0; j < njsons; j++)
		json_decref(roots[j]);
	return 0;
}
