/*
 * The handle's units, boxes and dies (uncore.h): questions any layer may ask of an opened handle, answered from its
 * platform and boxes alone.  Boxes and the host do not change after open, so no lock.
 */
#include <string.h>
#include "handle.h"
#include "util/error.h"

int uncore_num_units(const uncore_t *u) { return u->plat->ntypes; }

int uncore_unit_find(const uncore_t *u, const char *name)
{
	for (int i = 0; i < u->plat->ntypes; i++)
		if (!strcmp(u->plat->types[i]->name, name))
			return i;
	return -1;
}

int uncore_unit_boxes(const uncore_t *u, int unit, int socket)
{
	int n = 0;
	for (int i = 0; i < u->nboxes; i++)
		if (u->boxes[i].type_idx == unit && u->boxes[i].socket == socket)
			n++;
	return n;
}

int uncore_box_number(const uncore_t *u, int unit, int socket, int k)
{
	for (int i = 0; i < u->nboxes; i++)
		if (u->boxes[i].type_idx == unit && u->boxes[i].socket == socket && k-- == 0)
			return u->boxes[i].idx;
	return uc_err("no box %d of unit %d on socket %d", k, unit, socket);
}

int uncore_unit_info(const uncore_t *u, int unit, struct uncore_unit_info *o)
{
	const struct box_type *t;
	static const char *const spaces[] = { "msr", "pci", "mmio" };
	if (unit < 0 || unit >= u->plat->ntypes)
		return uc_err("no unit %d", unit);
	t = u->plat->types[unit];
	o->name = t->name;
	o->desc = t->desc;
	o->space = spaces[t->space];
	o->counters = t->nctr;
	o->width = t->width;
	for (int i = 0; i < u->nboxes; i++) /* discovery may report fewer counters than the type has */
		if (u->boxes[i].type_idx == unit) {
			o->counters = u->boxes[i].r.nctr;
			o->width = u->boxes[i].r.width;
			break;
		}
	if (!t->nctr && t->nfr) /* free-running counters alone (Diamond Rapids' IIO): theirs */
		o->width = t->fr[0].width;
	o->has_fixed = t->has_fixed;
	if (t->kernel_places) { /* known by its kernel PMU only */
		o->space = "perf";
		o->counters = 0;
	}
	o->boxes_per_socket = uncore_unit_boxes(u, unit, 0);
	return 0;
}

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
