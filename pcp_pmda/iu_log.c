/* The agent's log, escaped (iu_log.h). */
#include <stdarg.h>
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
