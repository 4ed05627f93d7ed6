/*
 * gen_events: turn the .evt files of platforms/<platform>/ into a C array (build time).
 * Format: see platforms/README.md.  Usage: gen_events SYMBOL file.evt... > out.c
 * Every string reaches the C output through gen_c.h's escaping (names, units, descriptions, embedded
 * files, file names in comments): data in those files must not become code.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen_c.h"
#include "gen_catalog.h"

struct attrs {
	char ctrs[32];
	char filter[64];
	char src[64];
	int ext, maxinc, fixed, freerun, socket;
	unsigned umask; /* event line: the umask of an event without umask rows */
	unsigned long umext;
};

static const char *file;
static int lineno;

static void die(const char *msg, const char *what)
{
	fprintf(stderr, "%s:%d: %s%s%s\n", file, lineno, msg, what ? ": " : "", what ? what : "");
	exit(1);
}

static unsigned ctr_mask(const char *s)
{
	unsigned m = 0;
	if (!strcmp(s, "fixed") || !strcmp(s, "freerun"))
		return 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			die("bad counter list", s);
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b >= 12 || a > b)
			die("counter out of range", s);
		for (long i = a; i <= b; i++)
			m |= 1u << i;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			die("bad counter list", s);
	}
	return m;
}

/* Split a line into tokens; a double-quoted token is the description. */
static int tokenize(char *p, char **tok, int max, char **desc)
{
	int n = 0;
	*desc = NULL;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (*p == '"') {
			char *e = strchr(p + 1, '"');
			if (!e)
				die("unterminated description", NULL);
			*e = 0;
			*desc = p + 1;
			p = e + 1;
			continue;
		}
		if (n == max)
			die("too many fields", NULL);
		tok[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
	}
	return n;
}

static void parse_attrs(char **tok, int n, struct attrs *a)
{
	for (int i = 0; i < n; i++) {
		char *v = strchr(tok[i], '=');
		if (v)
			*v++ = 0;
		if (!strcmp(tok[i], "ctrs") && v) {
			snprintf(a->ctrs, sizeof(a->ctrs), "%s", v);
			ctr_mask(v);
			a->fixed = !strcmp(v, "fixed");
			a->freerun = !strcmp(v, "freerun");
		} else if (!strcmp(tok[i], "filter") && v)
			snprintf(a->filter, sizeof(a->filter), "%s", v);
		else if (!strcmp(tok[i], "src") && v)
			snprintf(a->src, sizeof(a->src), "%s", v);
		else if (!strcmp(tok[i], "maxinc") && v)
			a->maxinc = atoi(v);
		else if (!strcmp(tok[i], "ext") && !v)
			a->ext = 1;
		else if (!strcmp(tok[i], "scope") && v && !strcmp(v, "socket"))
			a->socket = 1;
		else if (!strcmp(tok[i], "umask") && v) {
			char *end;
			a->umask = (unsigned)strtoul(v, &end, 0);
			if (*end || a->umask > 0xff)
				die("bad umask", v);
		} else if (!strcmp(tok[i], "umext") && v) {
			char *end;
			a->umext = strtoul(v, &end, 0);
			if (*end || a->umext > 0xffffffffUL)
				die("bad umext", v);
		}
		else
			die("unknown attribute", tok[i]);
	}
}

static struct gen_catalog cat;

static void emit(const char *unit, const char *name, unsigned code, unsigned umask, const struct attrs *a,
		 const char *desc)
{
	char flags[40];
	if (!a->ctrs[0])
		die("no ctrs= for", name);
	snprintf(flags, sizeof(flags), "%s%s", a->fixed ? "UC_EV_FIXED" : a->freerun ? "UC_EV_FREERUN" : "0",
		 a->socket ? " | UC_EV_SOCKET" : "");
	gen_catalog_row(stdout, &cat, name, unit, code, umask, a->ext, ctr_mask(a->ctrs), a->maxinc ? a->maxinc : 1, flags,
			a->umext, a->filter, desc, a->src);
}

static unsigned num(const char *s, unsigned max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (*end || v > max)
		die("bad number", s);
	return (unsigned)v;
}

/* The JSON array of path without its brackets, appended to out after a ',' when *any (a body of nothing but
 * white space adds nothing); the build stops on a file that is not one array. */
static void join_array(FILE *out, const char *path, int *any)
{
	FILE *in = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	file = path;
	lineno = 0;
	if (!in)
		die("cannot open", path);
	do {
		if (len == cap && !(buf = realloc(buf, cap = cap ? cap * 2 : 65536)))
			die("out of memory", NULL);
		got = fread(buf + len, 1, cap - len, in);
		len += got;
	} while (got);
	if (ferror(in))
		die("cannot read", path);
	fclose(in);
	size_t a = 0, b = len;
	while (a < len && isspace((unsigned char)buf[a]))
		a++;
	while (b > a && isspace((unsigned char)buf[b - 1]))
		b--;
	if (b - a < 2 || buf[a] != '[' || buf[b - 1] != ']')
		die("not one JSON array (metric definitions): it must start with '[' and end with ']'", NULL);
	size_t s = a + 1, e = b - 1;
	while (s < e && isspace((unsigned char)buf[s]))
		s++;
	if (s < e) {
		fputs(*any ? ",\n" : "", out);
		fwrite(buf + a + 1, 1, b - a - 2, out);
		*any = 1;
	}
	free(buf);
}

/* --embed SYMBOL FILE...: the file as a C string (metric definitions are parsed at run time), byte for byte;
 * several files, each a JSON array, as one array of their elements in order: a platform's own metrics after
 * those it shares (platforms/gnr/metrics.json, shared by gnr, srf and cwf, then platforms/gnr/metrics_gnr.json). */
static int embed(const char *sym, char **paths, int n)
{
	FILE *in = n == 1 ? fopen(paths[0], "r") : tmpfile();
	file = paths[0];
	if (!in)
		die(n == 1 ? "cannot open" : "cannot make a temporary file", paths[0]);
	if (n > 1) {
		int any = 0;
		fputs("[", in);
		for (int i = 0; i < n; i++)
			join_array(in, paths[i], &any);
		fputs("\n]\n", in);
		if (fflush(in) || ferror(in))
			die("cannot write a temporary file", NULL);
		rewind(in);
	}
	printf("/* Generated by tools/gen/gen_events from ");
	for (int i = 0; i < n; i++) {
		printf("%s", i ? " and " : "");
		gen_c_bytes(stdout, paths[i], strlen(paths[i]));
	}
	printf(": do not edit. */\nconst char %s[] =\n", sym);
	if (gen_c_embed(stdout, in))
		die("cannot read", paths[0]);
	printf(";\n");
	fclose(in);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "--embed") && gen_c_identifier(argv[2]))
		return embed(argv[2], argv + 3, argc - 3);
	if (argc < 3 || !gen_c_identifier(argv[1])) {
		fprintf(stderr, "usage: gen_events SYMBOL file.evt...\n       gen_events --embed SYMBOL FILE...\n"
			"(SYMBOL a C identifier)\n");
		return 2;
	}
	printf("/* Generated by tools/gen/gen_events from platforms/: do not edit. */\n#include \"platform/platform.h\"\n\n");
	gen_catalog_begin(stdout, argv[1], &cat);
	for (int f = 2; f < argc; f++) {
		char line[2048], unit[32] = "", prefix[32] = "", ev[96] = "", evdesc[512] = "";
		unsigned code = 0;
		int pending = 0; /* event seen, no umask row yet */
		struct attrs evattr;
		FILE *in = fopen(argv[f], "r");
		file = argv[f];
		lineno = 0;
		if (!in)
			die("cannot open", argv[f]);
		while (fgets(line, sizeof(line), in)) {
			char *tok[16], *desc, name[160];
			int n;
			lineno++;
			n = tokenize(line, tok, 16, &desc);
			if (n == 0)
				continue;
			if (!strcmp(tok[0], "unit")) {
				if (n != 3)
					die("expected: unit NAME PREFIX", NULL);
				if (pending) {
					snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", ev);
					emit(unit, name, code, evattr.umask, &evattr, evdesc);
				}
				pending = 0;
				snprintf(unit, sizeof(unit), "%s", tok[1]);
				/* "-": names without a prefix (Montecito's BUS_ALL...) */
				snprintf(prefix, sizeof(prefix), "%s", strcmp(tok[2], "-") ? tok[2] : "");
			} else if (!strcmp(tok[0], "event")) {
				if (!unit[0])
					die("event before unit", NULL);
				if (n < 3 || !desc)
					die("expected: event CODE NAME [attrs] \"description\"", NULL);
				if (pending) {
					snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", ev);
					emit(unit, name, code, evattr.umask, &evattr, evdesc);
				}
				code = num(tok[1], 0xff);
				snprintf(ev, sizeof(ev), "%s", tok[2]);
				snprintf(evdesc, sizeof(evdesc), "%s", desc);
				memset(&evattr, 0, sizeof(evattr));
				parse_attrs(tok + 3, n - 3, &evattr);
				pending = 1;
			} else if (!strcmp(tok[0], "umask")) {
				struct attrs ua = evattr;
				char full[900];
				if (!ev[0])
					die("umask before event", NULL);
				if (n < 3)
					die("expected: umask VALUE NAME [attrs] [\"description\"]", NULL);
				parse_attrs(tok + 3, n - 3, &ua);
				snprintf(name, sizeof(name), "%s%s%s.%s", prefix, *prefix ? "_" : "", ev, tok[2]);
				if (desc)
					snprintf(full, sizeof(full), "%s: %s", evdesc, desc);
				else
					snprintf(full, sizeof(full), "%s", evdesc);
				emit(unit, name, code, num(tok[1], 0xff), &ua, full);
				pending = 0;
			} else {
				die("unknown keyword", tok[0]);
			}
		}
		if (pending) {
			char name[160];
			snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", ev);
			emit(unit, name, code, evattr.umask, &evattr, evdesc);
		}
		fclose(in);
	}
	gen_catalog_end(stdout, argv[1], &cat);
	return 0;
}
