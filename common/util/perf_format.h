/*
 * The kernel's perf PMU format files (/sys/bus/event_source/devices/<pmu>/format/<name>): one line
 * naming an attr word and the bits a field occupies there, "config:0-7", "config:8-15,32-55",
 * "config1:0-4".  The ranges may be scattered and may overlap; a value is scattered over them
 * lowest bit first (ABI sysfs-bus-event_source-devices-format).  The perf_event backend reads the
 * bit positions from these files at run time instead of assuming them.
 */
#ifndef UNCORE_PERF_FORMAT_H
#define UNCORE_PERF_FORMAT_H

#include <stdint.h>
#include "uc_defs.h"

#define PF_MAX_RANGES 8

struct perf_format {
	int word;                        /* 0 config, 1 config1, 2 config2 */
	int nranges;
	struct { uint8_t lo, hi; } r[PF_MAX_RANGES];
};

/* Parse one format line (a trailing newline is allowed): 0, or -1 with a message naming name. */
int perf_format_parse(const char *name, const char *text, struct perf_format *f);
/* How many value bits the field holds (the sum of its ranges, at most 64). */
int perf_format_width(const struct perf_format *f);
/* Scatter v over the field's bits in cfg[word], lowest bit first; -1 with a message when v has a bit
 * the field cannot hold (the kernel would drop it without an error). */
int perf_format_put(const char *name, const struct perf_format *f, uint64_t v, uint64_t cfg[3]);

#endif
