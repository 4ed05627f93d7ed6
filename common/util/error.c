#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "uncore.h"
#include "error.h"

static _Thread_local char errbuf[2048]; /* (a reason is said whole: the memory population's notes run long) */
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

static const char full_line[] = "(further warnings left out: the list is full)\n";

/* A line more, where it fits whole with room left for the line that says the list is full; else that line, once. */
void uc_warn(const char *fmt, ...)
{
	size_t n = strlen(warnbuf), room = sizeof(warnbuf) - sizeof(full_line);
	char line[sizeof(warnbuf)];
	va_list ap;
	if (n >= room)
		return; /* full, and said */
	va_start(ap, fmt);
	int k = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if (n + (size_t)k + 1 <= room) {
		memcpy(warnbuf + n, line, (size_t)k);
		memcpy(warnbuf + n + k, "\n", 2);
	} else {
		memcpy(warnbuf + n, full_line, sizeof(full_line)); /* fits: n < room */
	}
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
void uncore_warnings_clear(void) { uc_clear_warnings(); }
