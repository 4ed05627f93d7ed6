/*
 * The simulated devices' own byte counters, as a kernel shows them, made at each read from the simulated
 * clock (sim_devdma.h sim_dev_counter_files): what the device-map cross-check compares with the IIO ports.
 * Their units are the kernel's (Linux 6.12):
 * - netdev net/<if>/statistics/rx_bytes, tx_bytes: bytes (net/core/net-sysfs.c NETSTAT_ENTRY);
 * - InfiniBand infiniband/<dev>/ports/1/counters/port_rcv_data, port_xmit_data: "data octets, divided by 4
 *   (lanes)" (Documentation/ABI/stable/sysfs-class-infiniband), 64 bits wide where the HCA has the extended
 *   counters, as mlx5 has (drivers/infiniband/core/sysfs.c PORT_PMA_ATTR_EXT);
 * - block <disk>/stat: 17 fields, read I/Os, merges, sectors, ticks, the same for writes, in flight, io_ticks,
 *   time in queue, discards' four, flushes' two, sectors of 512 bytes (Documentation/block/stat.rst;
 *   block/genhd.c part_stat_show's format).
 * A device receives (rx, port_rcv_data) and reads from its disk (read sectors) what it writes into memory, the
 * IIO inbound DMA; it transmits and writes to its disk what it reads from memory, the outbound.
 */
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "sim_devdma.h"
#include "sim_only.h"

enum { NET_RX, NET_TX, IB_RCV, IB_XMIT, BLK_STAT, WHATS };

/* A simulated NVMe transfer: 128 KiB, a request of 256 sectors, served in 100 us (a PCIe 4 drive's) */
#define BLK_IO_SECTORS 256
#define BLK_IO_US 100

static int counter_text(const void *ctx, int arg, char *buf, size_t len)
{
	const struct sim *s = ctx;
	int i = arg / WHATS, what = arg % WHATS, n;
	uint64_t now = sim_clock(s);
	unsigned long long in = (unsigned long long)sim_dev_counter_bytes(s, i, 1, now),
			   out = (unsigned long long)sim_dev_counter_bytes(s, i, 0, now);
	switch (what) {
	case NET_RX: n = snprintf(buf, len, "%llu\n", in); break;
	case NET_TX: n = snprintf(buf, len, "%llu\n", out); break;
	case IB_RCV: n = snprintf(buf, len, "%llu\n", in / 4); break;
	case IB_XMIT: n = snprintf(buf, len, "%llu\n", out / 4); break;
	default: {
		unsigned long long rs = in / 512, ws = out / 512, rio = rs / BLK_IO_SECTORS, wio = ws / BLK_IO_SECTORS;
		unsigned rt = (unsigned)(rio * BLK_IO_US / 1000), wt = (unsigned)(wio * BLK_IO_US / 1000);
		n = snprintf(buf, len, "%8llu %8lu %8llu %8u %8llu %8lu %8llu %8u %8u %8u %8u %8lu %8lu %8llu %8u %8lu %8u\n",
			     rio, 0ul, rs, rt, wio, 0ul, ws, wt, 0u, rt + wt, rt + wt, 0ul, 0ul, 0ull, 0u, 0ul, 0u);
	}
	}
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int counter_file(struct memfs *m, const char *dir, const char *file, const struct sim *s, int i, int what)
{
	char p[1024];
	if (snprintf(p, sizeof(p), "%s/%s", dir, file) >= (int)sizeof(p))
		return -1;
	return memfs_put_gen(m, p, counter_text, s, i * WHATS + what);
}

/* the class directory's link to the device's own: /sys/class/net/<if> -> its directory below the function */
static int class_link(struct memfs *m, const char *from, const char *name, const char *to)
{
	char p[256];
	if (snprintf(p, sizeof(p), "%s/%s", from, name) >= (int)sizeof(p))
		return -1;
	return memfs_put(m, p, to, 1);
}

int sim_dev_counter_files(const struct sim *s, struct memfs *m, const char *dir, int kind, const char *name, int i)
{
	char d[1024];
	switch (kind) {
	case SIM_DEV_NIC:
		snprintf(d, sizeof(d), "%s/net/%s", dir, name);
		return counter_file(m, d, "statistics/rx_bytes", s, i, NET_RX) ||
		       counter_file(m, d, "statistics/tx_bytes", s, i, NET_TX) || class_link(m, "/sys/class/net", name, d);
	case SIM_DEV_IB:
		snprintf(d, sizeof(d), "%s/infiniband/%s", dir, name);
		return counter_file(m, d, "ports/1/counters/port_rcv_data", s, i, IB_RCV) ||
		       counter_file(m, d, "ports/1/counters/port_xmit_data", s, i, IB_XMIT) ||
		       class_link(m, "/sys/class/infiniband", name, d);
	case SIM_DEV_NVME: { /* the controller's namespace 1, its block device (nvme0n1 below nvme/nvme0) */
		char disk[40];
		snprintf(disk, sizeof(disk), "%sn1", name);
		snprintf(d, sizeof(d), "%s/nvme/%s/%s", dir, name, disk);
		return counter_file(m, d, "stat", s, i, BLK_STAT) || class_link(m, "/sys/block", disk, d);
	}
	default:
		return 0; /* a GPU keeps no byte counter in sysfs */
	}
}
