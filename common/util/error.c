#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "uncore.h"
#include "error.h"

static _Thread_local char errbuf[2048]; /* (a reason is said whole: the memory population's notes run long) */

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
	/* the prefix whole (it is shorter than errbuf), the old message's end cut where errbuf ends */
	snprintf(errbuf, sizeof(errbuf), "%s%.*s", pre, (int)(sizeof(errbuf) - 1 - strlen(pre)), old);
	return -1;
}

const char *uncore_error(void) { return errbuf; }
