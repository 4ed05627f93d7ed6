/* What an event spec may say after the event name: the library's one list of qualifiers. */
#ifndef UNCORE_QUALIFIERS_H
#define UNCORE_QUALIFIERS_H

#include <stdint.h>
#include "platform/platform.h"

#define UC_MAX_QUALS 32

enum qual_kind { QK_SOCKET, QK_CPU, QK_BOX, QK_ROLE, QK_SAMPLE, QK_FIELD };

struct qual {
	enum qual_kind kind;
	int role;                        /* QK_ROLE: the control-word field it sets */
	const struct filter_field *field; /* QK_FIELD */
	const char *name;
	int flag;                        /* 1: given alone, 0: name=value */
	uint64_t min, max;               /* the range listed: for socket and box, where the unit has boxes */
	uint64_t amin, amax;             /* the range the parser takes (a box the unit lacks there is then
					  * refused by name, not as out of range) */
	int required, has_dflt;
	uint64_t dflt;
	const char *desc;
};

struct uncore;
/* The qualifiers of catalog event ev (NULL: a raw event of type bt, which may set every field), in
 * listing order; returns how many there are (more than max when out was too small). */
int qual_list(const struct uncore *u, const struct box_type *bt, const struct uc_event *ev, struct qual *out, int max);
/* The event's rule for a filter field: 0 none, 'r' required, 'd' with default *dflt, 'o' optional. */
int qual_filter_rule(const struct uc_event *ev, const char *field, uint64_t *dflt);

#endif
