/* The public API's word on a socket's CPUs (uncore.h uncore_socket_cpus; its dies: handle/handle_units.c): the host does
 * not change after open, so no lock. */
#include "uncore_priv.h"
#include "util/cpulist.h"

int uncore_socket_cpus(const uncore_t *u, int socket, char *buf, size_t len)
{
	uint8_t bits[UC_MAX_CPUS / 8] = { 0 };
	int n = 0;
	if (len)
		buf[0] = 0;
	if (socket < 0 || socket >= u->host.nsockets)
		return -1;
	for (int c = 0; c < u->host.ncpus && c < UC_MAX_CPUS; c++)
		if (u->host.cpu_socket[c] == socket) {
			bits[c / 8] |= (uint8_t)(1u << (c % 8));
			n++;
		}
	if (len)
		cpulist_format(bits, buf, len);
	return n;
}
