/* The agent's log, escaped (iu_log.h). */
#include <stdarg.h>
#include <string.h>
#include "iu_pmda.h"
#include "iu_log.h"
#include "util/term_text.h"

void iu_log(int pri, const char *fmt, ...)
{
	char shown[8192];
	va_list ap;
	va_start(ap, fmt);
	uc_term_vformat(shown, sizeof(shown), fmt, ap);
	va_end(ap);
	pmNotifyErr(pri, "%s", shown);
}

void iu_log_warnings(const char *what)
{
	for (const char *w = uncore_warnings_drain(NULL); *w;) {
		size_t n = strcspn(w, "\n");
		iu_log(LOG_WARNING, "%s%.*s", what, (int)n, w);
		w += n + (w[n] == '\n');
	}
}
