/* uncore list: the platform's events or metrics, as text, tab-separated rows or JSON lines. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

enum list_fmt { L_TEXT, L_TSV, L_JSON };

static void ctr_list(unsigned m, char *buf, size_t len)
{
	size_t n = 0;
	if (!m) {
		snprintf(buf, len, "fixed");
		return;
	}
	buf[0] = 0;
	for (int i = 0; i < 8; i++)
		if (m & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", i);
}

/* One row of tab-separated fields, a control character inside a field escaped (out_text), so that a row
 * stays one line of its columns (the descriptions and formulas of a user's JSON files may hold them; names
 * may not). */
static void tsv_row(const char *const *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			putchar('\t');
		out_text(stdout, v[i]);
	}
	putchar('\n');
}

/* {"k0": "v0", ...[, "counters": [..]]} on one line. */
static void json_line(const char *const *k, const char *const *v, int n, const unsigned *counters)
{
	putchar('{');
	for (int i = 0; i < n; i++) {
		printf("%s", i ? ", " : "");
		out_json_str(stdout, k[i]);
		printf(": ");
		out_json_str(stdout, v[i]);
	}
	if (counters) {
		printf(", \"counters\": [");
		for (int i = 0, first = 1; i < 32; i++)
			if (*counters & (1u << i)) {
				printf("%s%d", first ? "" : ", ", i);
				first = 0;
			}
		putchar(']');
	}
	printf("}\n");
}

/* The kernel's event aliases (perf backend), after the events in the text listing: counted as written,
 * "uncore_imc/clockticks/" */
static void list_aliases(uncore_t *u)
{
	struct uncore_alias_info a;
	for (int i = 0; !uncore_alias_info(u, i, &a); i++) {
		printf("%s%-44s kernel alias: %s", i ? "" : "# the kernel's event aliases, counted as written:\n", a.spec,
		       a.terms);
		if (a.scale != 1)
			printf(" (x %.12g%s%s)", a.scale, *a.unit ? " " : "", a.unit);
		printf("\n");
	}
}

/* Perf backend: per unit, the qualifiers and fields the kernel never passes to the registers, as comment lines of
 * the text listing, so that a listed qualifier the kernel drops is not taken for one it counts. */
static void list_perf_dropped(uncore_t *u)
{
	char why[1024];
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		if (uncore_unit_info(u, i, &ui) || uncore_unit_perf_dropped(u, i, why, sizeof(why)) || !*why)
			continue;
		printf("# through this kernel's perf PMUs, %s cannot have: %s\n", ui.name, why);
	}
}

static int list_metrics(uncore_t *u, enum list_fmt f)
{
	int n = uncore_num_metrics(u);
	if (n < 0) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		return 1;
	}
	if (f == L_TSV)
		printf("name\tunit\tgroup\tper_box\tformula\tdescription\n");
	for (int i = 0; i < n; i++) {
		struct uncore_metric_info m;
		struct uncore_unit_info ui = { .name = "-" };
		uncore_metric_info(u, i, &m);
		if (m.box_unit >= 0)
			uncore_unit_info(u, m.box_unit, &ui);
		if (f == L_JSON) {
			const char *k[] = { "name", "unit", "group", "per_box", "formula", "description" };
			const char *v[] = { m.name, m.unit, m.group, m.box_unit >= 0 ? ui.name : "", m.expr, m.desc };
			json_line(k, v, 6, NULL);
		} else if (f == L_TSV) {
			const char *v[] = { m.name, m.unit, m.group, ui.name, m.expr, m.desc };
			tsv_row(v, 6);
		} else
			printf("%-22s %-8s %-13s per %-7s %s\n    %s\n", m.name, m.unit, m.group,
			       m.box_unit >= 0 ? ui.name : "socket", m.expr, m.desc);
	}
	/* the energy metrics (doc/energy.md): read from RAPL beside the uncore, in the group "energy" */
	struct uncore_energy_metric em;
	for (int i = 0; !uncore_energy_metric(i, &em); i++) {
		char expr[64];
		if (!uncore_energy_here(u, em.domain))
			continue;
		snprintf(expr, sizeof(expr), "RAPL %s energy%s", uncore_energy_domain_name(em.domain), em.power ? " / duration" : "");
		if (f == L_JSON) {
			const char *k[] = { "name", "unit", "group", "per_box", "formula", "description" };
			const char *v[] = { em.name, em.unit, "energy", "", expr, em.desc };
			json_line(k, v, 6, NULL);
		} else if (f == L_TSV) {
			const char *v[] = { em.name, em.unit, "energy", "-", expr, em.desc };
			tsv_row(v, 6);
		} else
			printf("%-22s %-8s %-13s per %-7s %s\n    %s\n", em.name, em.unit, "energy", "socket", expr, em.desc);
	}
	return 0;
}

/* An event's qualifiers as the library lists them: "socket=0..1 box=0..3 edge opc=0..0x1ff(required)". */
static void qualifier_list(uncore_t *u, int ev, char *buf, size_t len)
{
	struct uncore_qualifier q[32];
	int n = uncore_event_qualifiers(u, ev, q, 32);
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && i < 32 && k < len; i++) {
		const char *sep = k ? " " : "";
		if (q[i].flag)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", sep, q[i].name);
		else
			k += (size_t)snprintf(buf + k, len - k, q[i].max < 4096 ? "%s%s=%llu..%llu%s" : "%s%s=%llu..%#llx%s",
					      sep, q[i].name, q[i].min, q[i].max, q[i].required ? "(required)" : "");
	}
}

/* One event's row, in the format asked (qualifiers: those of catalog event idx). */
static void event_row(uncore_t *u, enum list_fmt f, const struct uncore_event_info *e, int idx)
{
	char ctrs[32], quals[1024], code[8], umask[8], ext[16];
	ctr_list(e->counter_mask, ctrs, sizeof(ctrs));
	if (e->freerun)
		snprintf(ctrs, sizeof(ctrs), "freerun");
	qualifier_list(u, idx, quals, sizeof(quals));
	snprintf(code, sizeof(code), "0x%02x", e->code);
	snprintf(umask, sizeof(umask), "0x%02x", e->umask);
	snprintf(ext, sizeof(ext), "0x%x", e->umask_ext);
	if (f == L_JSON) {
		/* counters: the general-purpose ones it may use; kind: general, fixed or freerun */
		const char *k[] = { "unit", "name", "code", "umask", "umask_ext", "kind", "description", "qualifiers" };
		const char *v[] = { e->unit, e->name, code, umask, ext,
				    e->freerun ? "freerun" : e->counter_mask ? "general" : "fixed", e->desc, quals };
		json_line(k, v, 8, &e->counter_mask);
	} else if (f == L_TSV) {
		const char *v[] = { e->unit, e->name, code, umask, ext, ctrs, e->desc, quals };
		tsv_row(v, 8);
	} else
		printf("%-44s %-6s code %s umask %s ext %s ctrs %s\n    %s\n    qualifiers: %s\n", e->name, e->unit, code,
		       umask, ext, ctrs, e->desc, quals);
}

/* --deprecated: Intel's deprecated names, after the events, each as its replacement is encoded (perf lists
 * them only with --deprecated too) */
static void list_deprecated(uncore_t *u, enum list_fmt f)
{
	struct uncore_event_info e;
	const char *repl;
	for (int i = 0; !uncore_deprecated_info(u, i, &e, &repl); i++) {
		if (f == L_TEXT && !i)
			printf("# Intel's deprecated names, each counted as the event it names:\n");
		event_row(u, f, &e, uncore_event_find(u, repl));
	}
}

int cmd_list(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN); /* as uncore info: a reader gone ends the output, the handle still closes */
	const char *format = "text";
	int metrics = 0, deprecated = 0, rc;
	enum list_fmt f;
	uncore_t *u;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (!strcmp(argv[i], "--json"))
			format = "json";
		else if (!strcmp(argv[i], "--metrics"))
			metrics = 1;
		else if (!strcmp(argv[i], "--deprecated"))
			deprecated = 1;
		else {
			fprintf(stderr, "uncore list: unknown argument '%s' (see 'uncore list --help')\n", argv[i]);
			return 2;
		}
	}
	if (!strcmp(format, "text"))
		f = L_TEXT;
	else if (!strcmp(format, "tsv"))
		f = L_TSV;
	else if (!strcmp(format, "json"))
		f = L_JSON;
	else {
		fprintf(stderr, "uncore list: unknown format '%s' (text, tsv or json)\n", format);
		return 2;
	}
	if (cli_open(&u))
		return 1;
	if (f == L_TSV && uncore_is_simulated(u))
		printf("# backend %s (SIMULATED)\n", uncore_backend_name(u));
	else if (f == L_TEXT)
		cli_banner(stdout, u);
	if (metrics) {
		rc = list_metrics(u, f);
		uncore_close(u);
		return rc;
	}
	if (f == L_TEXT)
		list_perf_dropped(u);
	if (f == L_TSV)
		printf("unit\tname\tcode\tumask\tumask_ext\tcounters\tdescription\tqualifiers\n");
	for (int i = 0; i < uncore_num_events(u); i++) {
		struct uncore_event_info e;
		uncore_event_info(u, i, &e);
		event_row(u, f, &e, i);
	}
	if (deprecated)
		list_deprecated(u, f);
	if (f == L_TEXT)
		list_aliases(u);
	uncore_close(u);
	return 0;
}
