/* Everything of the library's layers, for the public API on top (uncore.c, api.c) and the tests. */
#ifndef UNCORE_PRIV_H
#define UNCORE_PRIV_H

#include "handle/handle.h"
#include "regs/regs.h"
#include "discover/discover.h"
#include "events/events.h"
#include "perf/perf.h"
#include "session/session.h"
#include "metrics/metrics.h"

/* uncore_open with the register access the backend opened handed to hook first, which gives the access the
 * handle uses from then on (the snapshot's recorder wraps it), or NULL with a message: the open fails. */
int uncore_open_hooked(const char *backend, struct access *(*hook)(struct access *acc, void *ctx), void *ctx,
		       uncore_t **out);

#endif
