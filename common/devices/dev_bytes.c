/*
 * A PCI function's own byte counters, from the class devices the kernel puts in its sysfs directory: net/
 * (a network interface), infiniband/ (an RDMA device) and nvme/ (an NVMe controller and its namespaces).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_bytes.h"

struct names {
	char v[32][64];
	int n;
};

static void add_name(void *arg, const char *name)
{
	struct names *l = arg;
	if (l->n < 32 && strlen(name) < sizeof(l->v[0]))
		strcpy(l->v[l->n++], name);
}

/* A decimal counter file (one unsigned number, as the kernel prints them): 0, or -1 */
static int read_u64(const struct dev_fs *fs, const char *path, uint64_t *v)
{
	char line[64], *end;
	if (dev_fs_line(fs, path, line, sizeof(line)) || line[0] < '0' || line[0] > '9')
		return -1;
	errno = 0;
	*v = strtoull(line, &end, 10);
	return errno || (*end && *end != ' ') ? -1 : 0;
}

/* Each network interface of the function: rx is into memory, tx out of it */
static int net(const struct dev_fs *fs, const char *dir, struct dev_bytes *b)
{
	struct names l = { .n = 0 };
	char p[4096 + 256];
	int found = 0;
	snprintf(p, sizeof(p), "%s/net", dir);
	if (dev_fs_list(fs, p, add_name, &l))
		return 0;
	for (int i = 0; i < l.n; i++) {
		static const char *const f[4] = { "rx_bytes", "tx_bytes", "rx_packets", "tx_packets" };
		uint64_t v[4] = { 0, 0, 0, 0 };
		int ok = 1;
		for (int k = 0; k < 4 && ok; k++) {
			snprintf(p, sizeof(p), "%s/net/%s/statistics/%s", dir, l.v[i], f[k]);
			ok = !read_u64(fs, p, &v[k]) || k >= 2; /* (no packets: no headers taken off the bytes) */
		}
		if (!ok)
			continue; /* an interface without statistics (being renamed, gone): not counted */
		b->in += v[0], b->out += v[1], b->in_pkts += v[2], b->out_pkts += v[3];
		found = 1;
	}
	return found ? DEV_CNT_NET : 0;
}

/* Each port of each InfiniBand device of the function: data in 4-byte words */
static int ib(const struct dev_fs *fs, const char *dir, struct dev_bytes *b)
{
	struct names devs = { .n = 0 };
	char p[4096 + 256];
	int found = 0;
	snprintf(p, sizeof(p), "%s/infiniband", dir);
	if (dev_fs_list(fs, p, add_name, &devs))
		return 0;
	for (int i = 0; i < devs.n; i++) {
		struct names ports = { .n = 0 };
		snprintf(p, sizeof(p), "%s/infiniband/%s/ports", dir, devs.v[i]);
		if (dev_fs_list(fs, p, add_name, &ports))
			continue;
		for (int j = 0; j < ports.n; j++) {
			static const char *const f[4] = { "port_rcv_data", "port_xmit_data", "port_rcv_packets",
							  "port_xmit_packets" };
			uint64_t v[4] = { 0, 0, 0, 0 };
			int ok = 1;
			for (int k = 0; k < 4 && ok; k++) {
				snprintf(p, sizeof(p), "%s/infiniband/%s/ports/%s/counters/%s", dir, devs.v[i], ports.v[j], f[k]);
				ok = !read_u64(fs, p, &v[k]) || k >= 2;
			}
			if (!ok)
				continue;
			b->saturated |= v[0] == DEV_IB_SATURATED || v[1] == DEV_IB_SATURATED;
			b->in += v[0] * DEV_IB_DATA_UNIT, b->out += v[1] * DEV_IB_DATA_UNIT;
			b->in_pkts += v[2], b->out_pkts += v[3];
			found = 1;
		}
	}
	return found ? DEV_CNT_IB : 0;
}

/* A namespace's stat line: fields 3 and 7 (read and write sectors) */
static int block_stat(const struct dev_fs *fs, const char *path, uint64_t *rd, uint64_t *wr)
{
	char line[512], *s = line, *end;
	uint64_t f[7];
	if (dev_fs_line(fs, path, line, sizeof(line)))
		return -1;
	for (int k = 0; k < 7; k++) {
		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		f[k] = strtoull(s, &end, 10);
		if (errno || (*end && *end != ' '))
			return -1;
		s = end;
	}
	*rd = f[2], *wr = f[6];
	return 0;
}

/* Each namespace of each NVMe controller of the function (nvme/nvme0/nvme0n1): its sectors in /sys/block,
 * or, for a multipath path device the kernel keeps out of /sys/block (nvme0c0n1), in its own directory */
static int nvme(const struct dev_fs *fs, const char *dir, struct dev_bytes *b)
{
	struct names ctl = { .n = 0 };
	char p[4096 + 256];
	int found = 0;
	snprintf(p, sizeof(p), "%s/nvme", dir);
	if (dev_fs_list(fs, p, add_name, &ctl))
		return 0;
	for (int i = 0; i < ctl.n; i++) {
		struct names ns = { .n = 0 };
		size_t n = strlen(ctl.v[i]);
		snprintf(p, sizeof(p), "%s/nvme/%s", dir, ctl.v[i]);
		if (strncmp(ctl.v[i], "nvme", 4) || dev_fs_list(fs, p, add_name, &ns))
			continue;
		for (int j = 0; j < ns.n; j++) {
			uint64_t rd, wr;
			if (strncmp(ns.v[j], ctl.v[i], n) || (ns.v[j][n] != 'n' && ns.v[j][n] != 'c'))
				continue; /* an attribute of the controller, not a namespace */
			snprintf(p, sizeof(p), "/sys/block/%s/stat", ns.v[j]);
			if (block_stat(fs, p, &rd, &wr)) {
				snprintf(p, sizeof(p), "%s/nvme/%s/%s/stat", dir, ctl.v[i], ns.v[j]);
				if (block_stat(fs, p, &rd, &wr))
					continue;
			}
			b->in += rd * DEV_SECTOR_BYTES, b->out += wr * DEV_SECTOR_BYTES;
			found = 1;
		}
	}
	return found ? DEV_CNT_BLOCK : 0;
}

int dev_bytes_read(const struct dev_fs *fs, const char *dir, struct dev_bytes *out)
{
	memset(out, 0, sizeof(*out));
	out->kinds = (unsigned)ib(fs, dir, out);
	if (!out->kinds)
		out->kinds = (unsigned)net(fs, dir, out);
	out->kinds |= (unsigned)nvme(fs, dir, out);
	return 0;
}

int dev_bytes_delta(const struct dev_bytes *a, const struct dev_bytes *b, struct dev_bytes *d)
{
	memset(d, 0, sizeof(*d));
	if (a->kinds != b->kinds || b->in < a->in || b->out < a->out || b->in_pkts < a->in_pkts || b->out_pkts < a->out_pkts)
		return -1;
	d->in = b->in - a->in, d->out = b->out - a->out;
	d->in_pkts = b->in_pkts - a->in_pkts, d->out_pkts = b->out_pkts - a->out_pkts;
	d->kinds = b->kinds;
	d->saturated = a->saturated || b->saturated;
	return 0;
}
