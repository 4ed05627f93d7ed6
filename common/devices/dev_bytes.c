/*
 * A PCI function's own byte counters, from the class devices the kernel puts in its sysfs directory: net/
 * (a network interface), infiniband/ (an RDMA device) and nvme/ (an NVMe controller and its namespaces).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_bytes.h"

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

/* A kind of counters: where they are below the function's directory (each '*' a level of entries:
 * interfaces, devices, ports, controllers, namespaces), and how each directory the pattern names is read */
struct kind {
	const char *where;       /* a '*' stands for each entry of the directory before it */
	int (*read)(const struct dev_fs *fs, const struct kind *k, const char *dir, char (*name)[64], struct dev_bytes *b);
	const char *file[4];     /* counters: bytes in, bytes out, packets in, packets out (packets may be missing) */
	uint64_t unit;           /* bytes a count of the bytes' files stands for */
	int saturates;           /* a 32-bit counter that stops at its top */
};

/* A directory of counter files (k->file): added to b, 1; 0 when its bytes cannot be read (an interface
 * being renamed or gone: not counted) */
static int counters(const struct dev_fs *fs, const struct kind *k, const char *dir, char (*name)[64], struct dev_bytes *b)
{
	char p[4096 + 256];
	uint64_t v[4] = { 0, 0, 0, 0 };
	(void)name;
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, k->file[i]);
		if (read_u64(fs, p, &v[i]) && i < 2)
			return 0; /* (no packets: no headers taken off the bytes) */
	}
	if (k->saturates)
		b->saturated |= v[0] == DEV_IB_SATURATED || v[1] == DEV_IB_SATURATED;
	b->in += v[0] * k->unit, b->out += v[1] * k->unit, b->in_pkts += v[2], b->out_pkts += v[3];
	return 1;
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

/* An NVMe controller's entry name[1] (nvme/nvme0/nvme0n1), when it is a namespace: its sectors in /sys/block,
 * or, for a multipath path device the kernel keeps out of /sys/block (nvme0c0n1), in its own directory */
static int namespace(const struct dev_fs *fs, const struct kind *k, const char *dir, char (*name)[64], struct dev_bytes *b)
{
	char p[4096 + 256];
	uint64_t rd, wr;
	size_t n = strlen(name[0]);
	if (strncmp(name[0], "nvme", 4) || strncmp(name[1], name[0], n) || (name[1][n] != 'n' && name[1][n] != 'c'))
		return 0; /* an attribute of the controller, not a namespace */
	snprintf(p, sizeof(p), "/sys/block/%s/stat", name[1]);
	if (block_stat(fs, p, &rd, &wr)) {
		snprintf(p, sizeof(p), "%s/stat", dir);
		if (block_stat(fs, p, &rd, &wr))
			return 0;
	}
	b->in += rd * k->unit, b->out += wr * k->unit;
	return 1;
}

enum { NET, IB, BLOCK };
static const struct kind kinds[] = {
	/* each network interface: rx is into memory, tx out of it */
	[NET] = { "/net/*/statistics", counters, { "rx_bytes", "tx_bytes", "rx_packets", "tx_packets" }, 1, 0 },
	/* each port of each InfiniBand device: data in 4-byte words */
	[IB] = { "/infiniband/*/ports/*/counters", counters,
		 { "port_rcv_data", "port_xmit_data", "port_rcv_packets", "port_xmit_packets" }, DEV_IB_DATA_UNIT, 1 },
	/* each namespace of each NVMe controller */
	[BLOCK] = { "/nvme/*/*", namespace, { 0 }, DEV_SECTOR_BYTES, 0 },
};

/* Each directory below dir that where (the rest of k's pattern) names, read into b: whether one was. */
static int expand(const struct dev_fs *fs, const struct kind *k, const char *dir, const char *where, char (*name)[64],
		  int level, struct dev_bytes *b)
{
	char p[4096 + 256];
	const char *star = strchr(where, '*');
	if (!star) { /* a directory of counters */
		snprintf(p, sizeof(p), "%s%s", dir, where);
		return k->read(fs, k, p, name, b);
	}
	struct dev_names l;
	int found = 0;
	snprintf(p, sizeof(p), "%s%.*s", dir, (int)(star - where - 1), where);
	if (dev_fs_names(fs, p, &l))
		return 0;
	for (int i = 0; i < l.n; i++) {
		char q[sizeof(p) + 64];
		snprintf(q, sizeof(q), "%s/%s", p, l.v[i]);
		snprintf(name[level], sizeof(name[level]), "%s", l.v[i]);
		found |= expand(fs, k, q, star + 1, name, level + 1, b);
	}
	free(l.v);
	return found;
}

/* The counters of kind of the function at dir: its DEV_CNT_ bit when any were read, else 0 */
static unsigned read_kind(const struct dev_fs *fs, int kind, const char *dir, struct dev_bytes *b)
{
	static const unsigned bit[] = { [NET] = DEV_CNT_NET, [IB] = DEV_CNT_IB, [BLOCK] = DEV_CNT_BLOCK };
	char name[2][64];
	return expand(fs, &kinds[kind], dir, kinds[kind].where, name, 0, b) ? bit[kind] : 0;
}

int dev_bytes_read(const struct dev_fs *fs, const char *dir, struct dev_bytes *out)
{
	memset(out, 0, sizeof(*out));
	out->kinds = read_kind(fs, IB, dir, out);
	if (!out->kinds)
		out->kinds = read_kind(fs, NET, dir, out);
	out->kinds |= read_kind(fs, BLOCK, dir, out);
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
