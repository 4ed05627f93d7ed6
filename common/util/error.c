#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "uncore.h"
#include "error.h"

static _Thread_local char errbuf[512];
static _Thread_local char warnbuf[2048];

int uc_err_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(errbuf, sizeof(errbuf), fmt, ap);
	va_end(ap);
	return -1;
}

int uc_err_prefix_set(const char *fmt, ...)
{
	char old[sizeof(errbuf)], pre[256];
	va_list ap;
	memcpy(old, errbuf, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	snprintf(errbuf, sizeof(errbuf), "%s%s", pre, old);
	return -1;
}

void uc_warn(const char *fmt, ...)
{
	size_t n = strlen(warnbuf);
	va_list ap;
	if (n + 2 >= sizeof(warnbuf))
		return;
	va_start(ap, fmt);
	vsnprintf(warnbuf + n, sizeof(warnbuf) - n - 1, fmt, ap);
	va_end(ap);
	n = strlen(warnbuf);
	warnbuf[n] = '\n';
	warnbuf[n + 1] = 0;
}

const char *uc_warnings(void) { return warnbuf; }
void uc_clear_warnings(void) { warnbuf[0] = 0; }
void uc_warn_rewind(size_t at)
{
	if (at < strlen(warnbuf))
		warnbuf[at] = 0;
}
const char *uncore_error(void) { return errbuf; }

const char *uncore_warnings(void) { return uc_warnings(); }
