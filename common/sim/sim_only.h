/* Included last by every simulator source file (not by tests, which see both sides). */
/* The simulator is the second source the library is checked against: it must decode accesses
 * with its own register map (sim_model.h), never with the library's platform tables. */
#ifdef UNCORE_PLATFORM_H
#error "the simulator must not include platform.h"
#endif
