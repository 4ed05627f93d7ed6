/* The public API's word on dies (uncore.h uncore_box_die): boxes do not change after open, so no lock. */
#include "uncore_priv.h"

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
