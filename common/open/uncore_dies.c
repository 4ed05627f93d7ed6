/* The public API's word on dies and sockets (uncore.h uncore_box_die, uncore_socket_cpus): boxes and the host do
 * not change after open, so no lock. */
#include "uncore_priv.h"
#include "util/cpulist.h"

int uncore_socket_dies(const uncore_t *u, int socket)
{
	if (socket < 0 || socket >= u->host.nsockets)
		return 0;
	return u->host.socket_dies[socket] > 1 ? u->host.socket_dies[socket] : 1;
}

int uncore_box_die(const uncore_t *u, int unit, int socket, int box)
{
	if (socket < 0 || socket >= u->host.nsockets || u->host.socket_dies[socket] < 2)
		return -1;
	for (int i = 0; i < u->nboxes; i++)
		if (u->boxes[i].type_idx == unit && u->boxes[i].socket == socket && u->boxes[i].idx == box)
			return u->boxes[i].die;
	return -1;
}

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
