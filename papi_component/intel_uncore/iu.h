/*
 * intel_uncore PAPI component: shared declarations.
 *
 * Event codes (always below bit 31, so PAPI never reads them as errors):
 *   base     index into the library's events, then the integral metrics
 *   variant  IU_VARIANT | v << IU_VSHIFT | base: the v-th qualifier listed for a base event
 *   named    IU_NAMED | k: any other qualified name the user asked for, kept in a table
 */
#ifndef IU_H
#define IU_H

#include <uncore.h>

#define IU_VARIANT (1u << 28)
#define IU_VSHIFT 20
#define IU_VMAX 63 /* a mask: variant numbers live in bits 20-25 */
#define IU_NAMED (1u << 29)
#define IU_BASE_MASK ((1u << IU_VSHIFT) - 1)

/* What a code counts: a library event spec, or an integral metric ("name[:socket=N]"). */
struct iu_target {
	int metric;      /* 0: event spec, 1: metric */
	char spec[256];
	int socket;      /* a metric's socket, -1 = all */
};

/* Event naming over an open library handle (iu_names.c). */
int iu_names_init(uncore_t *u);
void iu_names_fini(void);
int iu_num_native(void);
int iu_enum(unsigned *code, int modifier);
int iu_name_to_code(const char *name, unsigned *code);
int iu_code_to_name(unsigned code, char *buf, int len);
int iu_code_to_descr(unsigned code, char *buf, int len);
int iu_code_to_units(unsigned code, char *buf, int len);
int iu_target_of(unsigned code, struct iu_target *t);

#endif
