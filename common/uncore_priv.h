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

#endif
