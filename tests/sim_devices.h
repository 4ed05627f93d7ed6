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
 * simulator's order, joined by sep ("card0_card1"): how many devices */
static inline int sim_port_list(const struct sim *sim, int socket, int stack, int port, int field, const char *sep,
				char *out, size_t len)
{
	struct sim_pcidev d[64];
	int n = sim_pci_devices(sim, d, 64), k = 0;
	out[0] = 0;
	for (int i = 0; i < n; i++)
		if (d[i].socket == socket && d[i].stack == stack && d[i].port == port) {
			size_t at = strlen(out);
			snprintf(out + at, len - at, "%s%s", k++ ? sep : "",
				 field == 'b' ? d[i].bdf : field == 'd' ? d[i].driver : d[i].name);
		}
	return k;
}
static inline int sim_port_names(const struct sim *sim, int socket, int stack, int port, const char *sep, char *out,
				 size_t len)
{
	return sim_port_list(sim, socket, stack, port, 'n', sep, out, len);
}

/* Bytes a second the port counters of one stack's port carry in (write) or out, nstacks the socket's IIO
 * boxes: the profile's port share, each stack alike (sim_disc_rates.c port_share); Skylake-SP's simulator puts
 * a stack's whole traffic on its port 0 (platforms/skx/sim.c skx_rate) */
static inline double sim_port_bps(const struct sim *sim, int socket, int port, int write, int nstacks)
{
	if (!strcmp(sim->name, "skx"))
		return port ? 0 : (write ? sim->prof.iio_in_bps[socket] : sim->prof.iio_out_bps[socket]) / nstacks;
	struct truth t; /* (the socket's over its stacks, each alike: the devices' DMA is not spread so; see sim_truth.h
			 * iio_box_bps for one box's) */
	return iio_ports_bps(sim, socket, write, 1u << port, &t) / nstacks;
}

#endif
