/* The exporter's log, escaped (ue_log.h). */
#include <stdio.h>
#include <string.h>
#include "uncore.h"
#include "ue_log.h"
#include "util/term_text.h"

void ue_vlog(const char *what, const char *fmt, va_list ap)
{
	char shown[8192];
	uc_term_vformat(shown, sizeof(shown), fmt, ap);
	fprintf(stderr, "uncore-exporter: %s%s\n", what, shown); /* one call: the line whole among other threads' */
}

void ue_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ue_vlog("", fmt, ap);
	va_end(ap);
}

void ue_log_warnings(const char *what)
{
	for (const char *w = uncore_warnings_drain(NULL); *w;) {
		size_t n = strcspn(w, "\n");
		ue_log("%s%.*s", what, (int)n, w);
		w += n + (w[n] == '\n');
	}
}
