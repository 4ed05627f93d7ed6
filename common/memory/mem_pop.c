/* The population of a handle's memory channels (memory.h): EDAC's, the SMBIOS speed beside it, kept by the node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memory.h"
#include "handle/handle.h"
#include "node/node.h"
#include "platform/platform.h"
#include "util/cpulist.h"
#include "util/error.h"

int mem_pop_state(const struct mem_pop *p, int sock, int box)
{
	if (!p || sock < 0 || sock >= UC_MAX_SOCKETS || box < 0 || box >= MEM_MAX_BOXES)
		return UNCORE_CHAN_UNKNOWN;
	return p->ch[sock][box].state;
}

int mem_pop_hbm_only(const struct mem_pop *p, int sock, const int *boxes, int n)
{
	int hbm = 0;
	for (int k = 0; k < n; k++) {
		int st = mem_pop_state(p, sock, boxes[k]);
		if (st != UNCORE_CHAN_EMPTY && st != UNCORE_CHAN_NONE)
			return 0;
	}
	for (int h = 0; p && sock >= 0 && sock < UC_MAX_SOCKETS && h < MEM_MAX_HBM; h++)
		hbm += p->hbm[sock][h].state == UNCORE_CHAN_POPULATED;
	return n > 0 && hbm > 0;
}

int mem_pop_peak(const struct mem_pop *p, int sock, const int *boxes, int n, double *bps, char *why, size_t len)
{
	int populated = 0;
	*bps = 0;
	for (int k = 0; k < n; k++) {
		int st = mem_pop_state(p, sock, boxes[k]);
		if (st == UNCORE_CHAN_UNKNOWN)
			return snprintf(why, len, "which channels hold DIMMs is unknown (%s)",
					p->edac_why[0] ? p->edac_why : p->notes[0] ? p->notes : "EDAC does not name them all"), -1;
		populated += st == UNCORE_CHAN_POPULATED;
	}
	if (!populated) /* no DDR DIMM (a Xeon Max in HBM-only mode): no DDR bandwidth, whatever the speed */
		return 0;
	if (!p->smbios_read)
		return snprintf(why, len, "the DIMMs' speed is unknown (SMBIOS: %s)", p->smbios_why), -1;
	/* a channel moves 8 bytes a transfer (a 64-bit DDR4 channel; DDR5's two 32-bit subchannels alike), at the
	 * speed of its slowest DIMM, which every channel of the node runs at */
	*bps = (double)populated * p->smbios.mts_min * 1e6 * 8;
	return 0;
}

/* What the population comes from, in words: every note, uncut (the notes say whole what they say). */
static void say_source(struct mem_pop *p)
{
	size_t n = 0, len = sizeof(p->source);
	const struct mem_smbios *t = &p->smbios;
	if (p->edac_why[0])
		n += (size_t)snprintf(p->source + n, len - n, "EDAC: %s", p->edac_why);
	else
		n += (size_t)snprintf(p->source + n, len - n, "EDAC: %d DDR controller%s%s", p->edac_mcs,
				      p->edac_mcs == 1 ? "" : "s", p->hbm_mcs ? " (and HBM's)" : "");
	if (n < len && p->smbios_read)
		n += (size_t)snprintf(p->source + n, len - n, "; SMBIOS type 17: %d of %d slots hold a DIMM, %s %d MT/s%s",
				      t->present, t->devices, t->rated ? "at" : "configured at", t->mts_min,
				      t->rated ? (t->configured ? " (some DIMMs' rated speed: their table entry has no "
						  "configured speed)" : " (the DIMMs' rated speed: the table has no configured "
						  "speed)") : "");
	else if (n < len)
		n += (size_t)snprintf(p->source + n, len - n, "; SMBIOS: %s", p->smbios_why);
	if (n < len && t->unknown)
		n += (size_t)snprintf(p->source + n, len - n, "; %d DIMM%s of speed \"Unknown\"", t->unknown,
				      t->unknown == 1 ? "" : "s");
	if (n < len && t->nonvolatile)
		n += (size_t)snprintf(p->source + n, len - n, "; %d non-volatile device%s (%s) kept out of the DRAM peak",
				      t->nonvolatile, t->nonvolatile == 1 ? "" : "s", t->nv_kind);
	if (n < len && p->nnotes && !p->edac_why[0]) /* (a why holds them) */
		n += (size_t)snprintf(p->source + n, len - n, "; left out or placed other than named (%d note%s): %s%s", p->nnotes,
				      p->nnotes == 1 ? "" : "s",
				      p->notes, p->notes_cut ? "; ..." : "");
	if (n >= len) /* cut only where the buffer ends, and said */
		snprintf(p->source + len - 5, 5, "...");
}

/* The kernel's word on node's memory: has_memory (drivers/base/node.c, N_MEMORY) where it is there, else the memory
 * blocks linked below the node: 1, 0, or -1 unknown. */
static int node_has_memory(const struct dev_fs *fs, int node)
{
	char line[512], path[96], why[64];
	uint8_t bits[UC_MAX_CPUS / 8];
	struct dev_names l;
	int more = 0, mem = 0;
	if (!dev_fs_line(fs, "/sys/devices/system/node/has_memory", line, sizeof(line)))
		return cpulist_parse(line, bits, why, sizeof(why)) < 0 ? -1 : cpu_in(bits, node);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	if (dev_fs_names_upto(fs, path, 65536, &l, &more)) {
		free(l.v);
		return -1;
	}
	for (int i = 0; i < l.n && !mem; i++)
		mem = !strncmp(l.v[i], "memory", 6) && l.v[i][6] >= '0' && l.v[i][6] <= '9';
	free(l.v);
	return mem || more;
}

int mem_socket_memory(const struct dev_fs *fs, int cpu, int *node)
{
	char line[512], path[96], why[64];
	uint8_t bits[UC_MAX_CPUS / 8];
	*node = -1;
	if (cpu < 0)
		return -1;
	for (int n = 0; n < UC_MAX_NODES; n++) { /* the node whose CPUs hold it */
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (dev_fs_line(fs, path, line, sizeof(line)) || cpulist_parse(line, bits, why, sizeof(why)) < 0 ||
		    !cpu_in(bits, cpu))
			continue;
		*node = n;
		return node_has_memory(fs, n);
	}
	return -1;
}

int mem_pop_build(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p)
{
	return mem_pop_build_on(fs, lay, nsockets, NULL, p);
}

int mem_pop_build_on(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, const int *socket_cpu,
		     struct mem_pop *p)
{
	int mem[UC_MAX_SOCKETS], node;
	memset(p, 0, sizeof(*p));
	for (int s = 0; s < UC_MAX_SOCKETS; s++) {
		for (int b = 0; b < MEM_MAX_BOXES; b++)
			p->ch[s][b] = (struct mem_chan){ UNCORE_CHAN_UNKNOWN, -1, -1, 0, 0, "", "" };
		for (int b = 0; b < MEM_MAX_HBM; b++)
			p->hbm[s][b] = p->ch[s][0];
		mem[s] = socket_cpu && s < nsockets ? mem_socket_memory(fs, socket_cpu[s], &node) : -1;
	}
	mem_edac_read_on(fs, lay, nsockets, socket_cpu ? mem : NULL, p); /* (its why kept: the channels stay unknown) */
	p->smbios_read = !mem_smbios_read(fs, &p->smbios, p->smbios_why, sizeof(p->smbios_why));
	if (p->smbios_read && !p->smbios.mts_min)
		p->smbios_read = 0, snprintf(p->smbios_why, sizeof(p->smbios_why), "no DRAM with a speed%s",
					     p->smbios.unknown ? " (every one \"Unknown\")" : "");
	say_source(p);
	return 0;
}

static void release(void *p) { free(p); }

/* The peaks handed down to the metrics' 'peak_bw' and the front ends' shares (handle.h mem_peak): each iMC channel
 * box's and each socket's, NaN where not known (and each socket's why), worked out here once, not at each read. */
static void hand_down(uncore_t *u, const struct mem_pop *p)
{
	int unit = uncore_unit_find(u, "imc");
	for (int s = 0; s < UC_MAX_SOCKETS; s++) {
		int boxes[MEM_MAX_BOXES], n = 0;
		char *why = u->mem_peak_why[s];
		size_t len = sizeof(u->mem_peak_why[s]);
		u->mem_peak_socket[s] = NAN;
		snprintf(why, len, "%s", !p ? "the memory population is not known" : unit < 0 ?
			 "the platform has no iMC channel boxes" : "");
		for (int b = 0; b < HANDLE_PEAK_BOXES; b++)
			u->mem_peak[s][b] = NAN;
		if (!p || unit < 0 || s >= uncore_num_sockets(u))
			continue;
		for (int k = 0; k < uncore_unit_boxes(u, unit, s) && n < MEM_MAX_BOXES; k++) {
			double bps;
			int box = uncore_box_number(u, unit, s, k);
			boxes[n++] = box;
			if (box >= 0 && box < HANDLE_PEAK_BOXES && !mem_pop_peak(p, s, &box, 1, &bps, why, len))
				u->mem_peak[s][box] = bps;
		}
		double bps;
		why[0] = 0;
		if (!mem_pop_peak(p, s, boxes, n, &bps, why, len))
			u->mem_peak_socket[s] = bps;
	}
	u->mem_peak_set = p != NULL;
}

static struct mem_pop *make(uncore_t *u)
{
	struct dev_fs fs = { 0 };
	struct mem_pop *p;
	if (access_files(u->acc, &fs.mem)) /* a simulated machine's own files, a replayed node's */
		return hand_down(u, NULL), NULL;
	if (!(p = malloc(sizeof(*p))))
		return hand_down(u, NULL), uc_err("out of memory"), NULL;
	mem_pop_build_on(&fs, u->plat->mem, uncore_num_sockets(u), u->host.socket_cpu, p);
	hand_down(u, p);
	return p;
}

int mem_pop_node_build(uncore_t *u)
{
	struct node_slot *s = node_slot(u, NODE_MEMORY);
	if (s && !s->state) { /* built once, kept by the node (node.h) */
		s->fact = make(u);
		s->release = release;
		node_built(u, s, NODE_MEMORY, s->fact ? 0 : -1);
	}
	return 0;
}

const struct mem_pop *mem_pop_get(uncore_t *u)
{
	mem_pop_node_build(u);
	return node_fact(u, NODE_MEMORY);
}
