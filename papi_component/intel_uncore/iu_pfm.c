/*
 * intel_uncore PAPI component: the names PAPI's perf_event_uncore component takes (libpfm4's), so
 * code written for it needs only the component name changed:
 *   snbep_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=0   ->   UNC_M_CAS_COUNT.RD:box=0:cpu=0
 * The PMU names a unit and box (libpfm4 4.13's PMU list); an upper-case token after the event is a
 * umask, matched against Intel's event names (EVENT.UMASK); libpfm4's e, i and t modifiers become
 * edge, inv and thresh; anything else is the library's own qualifier and is checked there.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iu.h"

/* libpfm4's uncore PMUs (its 4.13 PMU list): PMU name up to the box number, the library's unit, and whether a
 * box number follows.  libpfm4 has none for EMR or Itanium. */
static const struct pfm_pmu {
	const char *pmu, *unit;
	int numbered;
} pfm_pmus[] = {
	{ "snbep_unc_cbo", "cbo", 1 },    { "snbep_unc_ha", "ha", 0 },
	{ "snbep_unc_imc", "imc", 1 },    { "snbep_unc_pcu", "pcu", 0 },
	{ "snbep_unc_qpi", "qpi", 1 },    { "snbep_unc_ubo", "ubox", 0 },
	{ "snbep_unc_r2pcie", "r2pcie", 0 }, { "snbep_unc_r3qpi", "r3qpi", 1 },
	{ "ivbep_unc_cbo", "cbo", 1 },    { "ivbep_unc_ha", "ha", 1 },
	{ "ivbep_unc_imc", "imc", 1 },    { "ivbep_unc_pcu", "pcu", 0 },
	{ "ivbep_unc_qpi", "qpi", 1 },    { "ivbep_unc_ubo", "ubox", 0 },
	{ "ivbep_unc_r2pcie", "r2pcie", 0 }, { "ivbep_unc_r3qpi", "r3qpi", 1 },
	{ "ivbep_unc_irp", "irp", 0 },
	{ "nhm_unc", "unc", 0 },
};
#define NPFM (sizeof(pfm_pmus) / sizeof(pfm_pmus[0]))

/* Whether a libpfm4 PMU is the platform's: libpfm4 names each "<platform>_unc..." (snbep_unc_cbo, nhm_unc). */
static int of_platform(const struct pfm_pmu *p, const char *platform)
{
	size_t n = strlen(platform);
	return !strncmp(p->pmu, platform, n) && !strncmp(p->pmu + n, "_unc", 4);
}

/* The PMU's table entry on this platform and its box (-1: unnumbered); NULL if it is not one. */
static const struct pfm_pmu *pmu_of(const char *platform, const char *pmu, size_t plen, int *box)
{
	size_t d = plen;
	while (d > 0 && isdigit((unsigned char)pmu[d - 1]))
		d--;
	for (size_t i = 0; i < NPFM; i++) {
		const struct pfm_pmu *p = &pfm_pmus[i];
		size_t n = strlen(p->pmu);
		if (!of_platform(p, platform) || strncmp(pmu, p->pmu, n))
			continue;
		if (!p->numbered && plen == n) {
			*box = -1;
			return p;
		}
		if (p->numbered && d == n && plen > n && plen - n <= 3) {
			*box = atoi(pmu + n);
			return p;
		}
	}
	return NULL;
}

int iu_pfm_pmus(uncore_t *u, char **names, int max)
{
	int n = 0;
	for (int k = 0; k < uncore_num_units(u); k++) {
		struct uncore_unit_info ui;
		if (uncore_unit_info(u, k, &ui))
			continue;
		for (size_t i = 0; i < NPFM; i++) {
			const struct pfm_pmu *p = &pfm_pmus[i];
			if (!of_platform(p, uncore_platform_name(u)) || strcmp(p->unit, ui.name))
				continue;
			for (int b = 0; b < (p->numbered ? uncore_unit_boxes(u, k, 0) : 1) && n < max; b++) {
				char nm[64];
				if (p->numbered)
					snprintf(nm, sizeof(nm), "%s%d", p->pmu, uncore_box_number(u, k, 0, b));
				else
					snprintf(nm, sizeof(nm), "%s", p->pmu);
				if (!(names[n] = strdup(nm)))
					return -1;
				n++;
			}
		}
	}
	return n;
}

static int upper_word(const char *t)
{
	if (!*t)
		return 0;
	for (; *t; t++)
		if (!isupper((unsigned char)*t) && !isdigit((unsigned char)*t) && *t != '_')
			return 0;
	return 1;
}

/* ":q" onto the qualifiers gathered so far; -1 when they no longer fit. */
static int append(char *spec, size_t len, const char *pre, const char *q)
{
	size_t n = strlen(spec);
	int w = snprintf(spec + n, len - n, ":%s%s", pre, q);
	return w < 0 || (size_t)w >= len - n ? -1 : 0;
}

int iu_pfm_spec(uncore_t *u, const char *name, char *spec, size_t len)
{
	const char *sep = strstr(name, "::");
	char buf[256], ev[160], *tok, *save = NULL;
	int box, umasks = 0;
	struct uncore_event_info ei;
	const struct pfm_pmu *p = sep ? pmu_of(uncore_platform_name(u), name, (size_t)(sep - name), &box) : NULL;
	if (!p || strlen(sep + 2) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", sep + 2);
	tok = strtok_r(buf, ":", &save);
	if (!tok || strlen(tok) >= sizeof(ev) - 64)
		return -1;
	snprintf(ev, sizeof(ev), "%s", tok);
	spec[0] = 0;
	while ((tok = strtok_r(NULL, ":", &save))) {
		if (upper_word(tok)) { /* a umask: Intel names the pair EVENT.UMASK */
			char full[sizeof(ev)];
			if (umasks++ || snprintf(full, sizeof(full), "%s.%s", ev, tok) >= (int)sizeof(full) ||
			    uncore_event_find(u, full) < 0)
				return -1;
			snprintf(ev, sizeof(ev), "%s", full);
		} else if (!strcmp(tok, "e") || !strcmp(tok, "e=1")) {
			if (append(spec, len, "edge", ""))
				return -1;
		} else if (!strcmp(tok, "i") || !strcmp(tok, "i=1")) {
			if (append(spec, len, "inv", ""))
				return -1;
		} else if (!strncmp(tok, "t=", 2)) {
			if (append(spec, len, "thresh=", tok + 2))
				return -1;
		} else if (strcmp(tok, "e=0") && strcmp(tok, "i=0") && append(spec, len, "", tok)) {
			return -1;
		}
	}
	int idx = uncore_event_find(u, ev);
	if (idx < 0 || uncore_event_info(u, idx, &ei) || strcasecmp(ei.unit, p->unit))
		return -1; /* no such event, or not one of this PMU's unit */
	char head[sizeof(ev) + 32];
	if (box >= 0)
		snprintf(head, sizeof(head), "%s:box=%d", ev, box);
	else
		snprintf(head, sizeof(head), "%s", ev);
	if (strlen(head) + strlen(spec) >= len)
		return -1;
	memmove(spec + strlen(head), spec, strlen(spec) + 1);
	memcpy(spec, head, strlen(head));
	return 0;
}
