/* LD_PRELOAD shim for tests/test_exporter.sh: MHD_get_connection_info as libmicrohttpd 1.0 (Debian 13)
 * answers, every query of a connection copied into one union, so an answer read after the next query is
 * that query's.  On Debian 12's 0.9.x each query has its own storage and the exporter's order of reading
 * never showed; on Debian 13 the deadline shut down a pointer's low bits instead of the socket. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <microhttpd.h>
#include <stddef.h>

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c, enum MHD_ConnectionInfoType t, ...)
{
	static __thread union MHD_ConnectionInfo one; /* one connection at a time per thread, as the exporter queries */
	const union MHD_ConnectionInfo *(*real)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
		(const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...))dlsym(RTLD_NEXT, "MHD_get_connection_info");
	const union MHD_ConnectionInfo *r = real ? real(c, t) : NULL;
	if (!r)
		return NULL;
	one = *r;
	return &one;
}
