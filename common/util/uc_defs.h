/* Definitions every part of the project shares, the simulator included. */
#ifndef UNCORE_UC_DEFS_H
#define UNCORE_UC_DEFS_H

#include <stdint.h>

#define UC_MAX_CPUS 4096 /* CPU numbers a CPU list or the host topology takes */
#define UC_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define UC_PCI_VENDOR_INTEL 0x8086

/* The bits of a w-bit counter or field (w may be 64). */
static inline uint64_t uc_width_mask(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* The first control character of s (below 0x20, or DEL), or 0: a name holding one would break the rows
 * of tab-separated, CSV and text output, and could rewrite a terminal's screen. */
static inline int uc_ctl_char(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return (unsigned char)*s;
	return 0;
}

#endif
