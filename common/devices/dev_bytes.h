/*
 * A PCI function's own byte counters (issue 66 point 2): what the device says it moved, to hold against its
 * IIO port's count (dev_compare.h).  Read through dev_fs, so that a machine's sysfs and a simulated one are
 * read the same way.  Directions are the IIO's: "in" is what the device wrote into memory (a NIC's
 * received bytes, sectors read from a disk), "out" what it read from memory (transmitted, written to disk).
 */
#ifndef UNCORE_DEV_BYTES_H
#define UNCORE_DEV_BYTES_H

#include <stdint.h>
#include "dev_fs.h"

/* Which counters a function has */
enum {
	DEV_CNT_NET = 1,   /* net/<if>/statistics/rx_bytes, tx_bytes (and rx_packets, tx_packets) */
	DEV_CNT_IB = 2,    /* infiniband/<dev>/ports/<p>/counters/port_rcv_data, port_xmit_data (and _packets) */
	DEV_CNT_BLOCK = 4, /* nvme/<ctrl>/<ns>: /sys/block/<ns>/stat, read and write sectors */
};

/* InfiniBand's PortRcvData and PortXmitData count "data octets, divided by 4 (lanes)"
 * (Documentation/ABI/stable/sysfs-class-infiniband); the kernel prints the PMA field as it is
 * (drivers/infiniband/core/sysfs.c show_pma_counter, PORT_PMA_ATTR(port_xmit_data, 12, 32, 192)). */
#define DEV_IB_DATA_UNIT 4
/* Without the extended PortCounters the fields are 32 bits wide (PORT_PMA_ATTR ... 32) and, as every PMA
 * counter, stop at their top rather than wrap: such a counter no longer moves. */
#define DEV_IB_SATURATED 0xffffffffull
/* /sys/block/<dev>/stat counts "standard UNIX 512-byte sectors" (Documentation/block/stat.rst), fields 3
 * (read sectors) and 7 (write sectors); block/genhd.c part_stat_show prints them. */
#define DEV_SECTOR_BYTES 512

/* A function's counters at one instant, since they started (all 0 where kinds is 0) */
struct dev_bytes {
	uint64_t in, out;           /* bytes into memory (received, read from disk) and out of it */
	uint64_t in_pkts, out_pkts; /* packets (network and InfiniBand; 0 for a disk, or where the files are
				     * missing): each may carry wire headers the device counts and does not move */
	unsigned kinds;             /* DEV_CNT_*: which counters were read; 0: the function keeps none */
	int saturated;              /* a 32-bit InfiniBand counter stuck at its top: it says nothing more */
};

/* The counters of the function whose sysfs directory is dir ("/sys/devices/pci0000:16/0000:16:02.0/
 * 0000:17:00.0"): an InfiniBand device's where the function has one (its port counters count the RDMA a
 * netdev of the same function does not; both would count IPoIB twice), else its network interfaces', and
 * its NVMe namespaces'.  Each interface, port and namespace added.  0 (kinds 0 when there are none). */
int dev_bytes_read(const struct dev_fs *fs, const char *dir, struct dev_bytes *out);

/* What moved between two readings a and b of one function, in d: 0, or -1 when a counter went backward (a
 * reset, a driver reloaded, the interface renamed) or the set of counters changed: the interval says
 * nothing, and is not a huge step. */
int dev_bytes_delta(const struct dev_bytes *a, const struct dev_bytes *b, struct dev_bytes *d);

#endif
