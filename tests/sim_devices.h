/* What a device group's series must be on the simulator: the devices the simulator put behind a port
 * (sim_pci_devices, its own set, not the library's map) and the bytes that port carries. */
#ifndef TEST_SIM_DEVICES_H
#define TEST_SIM_DEVICES_H

#include <stdio.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/sim_pcitree.h"
#include "sim_truth.h"

/* A field of the simulated devices behind port of stack on socket ('n' name, 'b' BDF, 'd' driver), in the
 * simulator's order, joined by sep ("card0_card1"): how many devices.  A device the kernel gives no name (an
 * accelerator) is named by its ids, "8086:0b25", as doc/devices.md says the map names it. */
static inline int sim_port_list(const struct sim *sim, int socket, int stack, int port, int field, const char *sep,
				char *out, size_t len)
{
	struct sim_pcidev d[64];
	int n = sim_pci_devices(sim, d, 64), k = 0;
	out[0] = 0;
	for (int i = 0; i < n; i++)
		if (d[i].socket == socket && d[i].stack == stack && d[i].port == port) {
			size_t at = strlen(out);
			char ids[16];
			snprintf(ids, sizeof(ids), "%04x:%04x", d[i].vendor, d[i].device);
			snprintf(out + at, len - at, "%s%s", k++ ? sep : "",
				 field == 'b' ? d[i].bdf : field == 'd' ? d[i].driver : d[i].name[0] ? d[i].name : ids);
		}
	return k;
}
static inline int sim_port_names(const struct sim *sim, int socket, int stack, int port, const char *sep, char *out,
				 size_t len)
{
	return sim_port_list(sim, socket, stack, port, 'n', sep, out, len);
}

/* How many ports (socket, stack, port) the simulator put devices behind: a switch's devices are one port's */
static inline int sim_device_ports(const struct sim *sim)
{
	struct sim_pcidev d[64];
	int n = sim_pci_devices(sim, d, 64), ports = 0;
	for (int i = 0; i < n; i++) {
		int first = 1;
		for (int j = 0; j < i; j++)
			first &= !(d[j].socket == d[i].socket && d[j].stack == d[i].stack && d[j].port == d[i].port);
		ports += first;
	}
	return ports;
}

/* Bytes a second the counters of port of stack on socket carry in (write) or out: the simulator's truth for
 * that box (sim_truth.h iio_box_bps: its devices' DMA with their overhead, else the stack's share) */
static inline double sim_port_bps(const struct sim *sim, int socket, int stack, int port, int write)
{
	for (int i = 0; i < sim->nboxes; i++) {
		const struct sim_box *b = &sim->boxes[i];
		if (!strcmp(b->u->name, "iio") && b->socket == socket && b->die == 0 && b->idx == stack)
			return iio_box_bps(sim, b, write, 1u << port);
	}
	return NAN;
}

#endif
