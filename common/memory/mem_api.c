/* The population's public face (uncore.h): each channel box's state, where it comes from, a socket's peak. */
#include <math.h>
#include <stdio.h>
#include "memory.h"
#include "handle/handle.h"
#include "util/error.h"

const char *uncore_channel_state_name(int state)
{
	static const char *const names[] = { "unknown", "empty", "populated", "none" };
	return state >= 0 && state <= UNCORE_CHAN_NONE ? names[state] : "unknown";
}

int uncore_memory_channel(uncore_t *u, int socket, int box, struct uncore_channel *out)
{
	const struct mem_pop *p = mem_pop_get(u);
	if (!p)
		return -1;
	if (socket < 0 || socket >= uncore_num_sockets(u) || socket >= UC_MAX_SOCKETS)
		return uc_err("memory channel of socket %d: the machine has %d", socket, uncore_num_sockets(u));
	if (box < 0 || box >= MEM_MAX_BOXES)
		return uc_err("memory channel box %d: boxes are numbered 0..%d", box, MEM_MAX_BOXES - 1);
	const struct mem_chan *c = &p->ch[socket][box];
	*out = (struct uncore_channel){ c->state, c->ctrl, c->chan, c->dimms, c->mib,
					c->state == UNCORE_CHAN_POPULATED && p->smbios_read ? p->smbios.mts_min : 0,
					c->type, c->labels };
	return 0;
}

int uncore_memory_hbm_channel(uncore_t *u, int socket, int box, struct uncore_channel *out)
{
	const struct mem_pop *p = mem_pop_get(u);
	if (!p)
		return -1;
	if (socket < 0 || socket >= uncore_num_sockets(u) || socket >= UC_MAX_SOCKETS)
		return uc_err("HBM channel of socket %d: the machine has %d", socket, uncore_num_sockets(u));
	if (box < 0 || box >= MEM_MAX_HBM)
		return uc_err("HBM channel box %d: boxes are numbered 0..%d", box, MEM_MAX_HBM - 1);
	const struct mem_chan *c = &p->hbm[socket][box];
	*out = (struct uncore_channel){ c->state, c->ctrl, c->chan, c->dimms, c->mib, 0, c->type, c->labels };
	return 0;
}

int uncore_memory_hbm_only(uncore_t *u, int socket)
{
	const struct mem_pop *p = mem_pop_get(u);
	int unit = uncore_unit_find(u, "imc"), boxes[MEM_MAX_BOXES], n = 0;
	if (!p || unit < 0 || socket < 0 || socket >= uncore_num_sockets(u) || socket >= UC_MAX_SOCKETS)
		return 0;
	for (int k = 0; k < uncore_unit_boxes(u, unit, socket) && n < MEM_MAX_BOXES; k++)
		boxes[n++] = uncore_box_number(u, unit, socket, k);
	return mem_pop_hbm_only(p, socket, boxes, n);
}

const char *uncore_memory_source(uncore_t *u)
{
	const struct mem_pop *p = mem_pop_get(u);
	return p ? p->source : NULL;
}

int uncore_memory_peak(uncore_t *u, int socket, double *bytes_per_s)
{
	const struct mem_pop *p = mem_pop_get(u);
	*bytes_per_s = 0;
	if (!p)
		return -1;
	if (socket == -1) { /* the node's: every socket's summed, known only where each socket's is */
		double sum = 0, p;
		for (int k = 0; k < uncore_num_sockets(u) && k < UC_MAX_SOCKETS; k++) {
			int rc = uncore_memory_peak(u, k, &p);
			if (rc)
				return rc;
			sum += p;
		}
		*bytes_per_s = sum;
		return 0;
	}
	if (socket < 0 || socket >= uncore_num_sockets(u) || socket >= UC_MAX_SOCKETS)
		return uc_err("memory peak of socket %d: the machine has %d", socket, uncore_num_sockets(u));
	if (isnan(u->mem_peak_socket[socket])) /* (worked out with the population: mem_pop.c hand_down) */
		return uc_err("memory peak of socket %d: %s", socket, u->mem_peak_why[socket]), 1;
	*bytes_per_s = u->mem_peak_socket[socket];
	return 0;
}
