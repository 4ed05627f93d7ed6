/*
 * The uncore's own functions on a simulated stack's root bus and the configuration space the device map
 * reads of them (sim_pcicfg.c), and where the simulated root ports sit.
 */
#ifndef UNCORE_SIM_PCICFG_H
#define UNCORE_SIM_PCICFG_H

#include "util/memfs.h"

struct sim;
/* The device number of a stack's port-th root port: where the platform's servers have it (pcm-iio's
 * per-generation tables), so that the map's counter port is the simulator's port. */
int sim_root_port_dev(const struct sim *s, int port);
/* The register functions of stack's root bus (dir: /sys/devices/pciDDDD:BB), with their config files
 * (/sys/bus/pci/devices/<bdf>/config), into m: 0, or -1 out of memory. */
int sim_pcicfg_root(const struct sim *s, struct memfs *m, int socket, int stack, const char *dir);
/* How many such functions a socket's stacks hold (for tests: they are the stacks' own group). */
int sim_pcicfg_functions(const struct sim *s);

#endif
