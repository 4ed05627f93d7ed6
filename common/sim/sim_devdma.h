/*
 * The simulated PCI devices' DMA (issue 66 point 5): each device of the set (sim_pcitree.h) writes into memory
 * (in) and reads from it (out) at its profile's rates; an IIO port with devices counts their bytes plus their
 * descriptor and completion overhead, a port without counts the profile's share of the stack's traffic
 * (iio_in/out_bytes_per_s, iio_port<N>_share): traffic of devices the set does not list.  The devices' own byte
 * counters (netdev statistics, InfiniBand port counters, block stat) count the payload (sim_devcount.c).
 */
#ifndef UNCORE_SIM_DEVDMA_H
#define UNCORE_SIM_DEVDMA_H

#include <stdint.h>
#include "util/memfs.h"

struct sim;
struct sim_box;
struct sim_profile;

/* The per-kind defaults (sim_profile_defaults). */
void sim_devdma_defaults(struct sim_profile *p);
/* A profile key device.KIND.KEY or device.NAME.KEY with its value: 1 taken, 0 not a device key, -1 with a
 * message (file:line in it). */
int sim_devdma_key(struct sim_profile *p, const char *key, double v, const char *file, int lineno);
/* The machine's device table (s->pdev) laid out and given its rates, once the machine is built: 0, or -1 with
 * a message (a device.NAME key naming no device).  A set the machine cannot hold leaves the table empty: the
 * device map says why when it is asked (sim_pci_devices). */
int sim_devdma_table(struct sim *s);

/* The ports (bit k: port k) of IIO box b that hold devices. */
unsigned sim_dev_ports(const struct sim *s, const struct sim_box *b);
/* Bytes/s into memory (in 1) or out of it that the ports of mask of box b count of their devices: each
 * device's payload times 1 + its kind's overhead, none of a device whose port misses it (fault uncounted). */
double sim_dev_ports_bps(const struct sim *s, const struct sim_box *b, int in, unsigned mask);

/* ---- the truth tests hold the counts against (device i of s->pdev) ---- */
/* Its DMA payload, bytes/s. */
double sim_dev_dma_bps(const struct sim *s, int i, int in);
/* What its port counts of it, bytes/s (payload and overhead; 0 with fault uncounted). */
double sim_dev_iio_bps(const struct sim *s, int i, int in);
/* What its own counters say at simulated time ns: the payload bytes moved since the machine was made, up to
 * the freeze with fault frozen. */
double sim_dev_counter_bytes(const struct sim *s, int i, int in, uint64_t ns);
/* What the ports of a device group (socket, die, stack, root port) count over secs seconds, bytes. */
double sim_group_iio_bytes(const struct sim *s, int socket, int die, int stack, int port, int in, double secs);

/* Faults on a device by its name (ens0f0, mlx5_0, nvme0, card0): "uncounted" (RDMA-style: its port does not
 * count its DMA), "frozen" (its counters stop, at from_ns): 1 done, 0 no device of that name, -1 with a
 * message (an unknown kind). */
int sim_dev_fault(struct sim *s, const char *kind, const char *name, uint64_t from_ns);

/* The device's counter files below its PCI function's directory dir (sim_devcount.c): a netdev's
 * net/<if>/statistics/rx_bytes and tx_bytes, an InfiniBand device's infiniband/<dev>/ports/1/counters/
 * port_rcv_data and port_xmit_data, an NVMe controller's namespace nvme/<ctrl>/<ctrl>n1/stat, with the class
 * links (/sys/class/net/<if>, /sys/class/infiniband/<dev>, /sys/block/<ctrl>n1); a GPU none.  Device index i
 * of the table.  0, or -1 out of memory. */
int sim_dev_counter_files(const struct sim *s, struct memfs *m, const char *dir, int kind, const char *name, int i);

#endif
