/* The population of a handle's memory channels (memory.h): EDAC's, the SMBIOS speed beside it, kept by the node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memory.h"
#include "handle/handle.h"
#include "node/node.h"
#include "platform/platform.h"
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

/* What the population comes from, in words. */
static void say_source(struct mem_pop *p)
{
	size_t n = 0, len = sizeof(p->source);
	if (p->edac_why[0])
		n += (size_t)snprintf(p->source + n, len - n, "EDAC: %s", p->edac_why);
	else
		n += (size_t)snprintf(p->source + n, len - n, "EDAC: %d DDR controller%s%s", p->edac_mcs,
				      p->edac_mcs == 1 ? "" : "s", p->hbm_mcs ? " (and HBM's)" : "");
	if (n < len && p->smbios_read)
		n += (size_t)snprintf(p->source + n, len - n, "; SMBIOS type 17: %d of %d slots hold a DIMM, configured "
				      "at %d MT/s", p->smbios.present, p->smbios.devices, p->smbios.mts_min);
	else if (n < len)
		n += (size_t)snprintf(p->source + n, len - n, "; SMBIOS: %s", p->smbios_why);
	if (n < len && p->notes[0])
		snprintf(p->source + n, len - n, "; left out: %.*s", (int)(len - n), p->notes);
}

int mem_pop_build(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p)
{
	memset(p, 0, sizeof(*p));
	for (int s = 0; s < UC_MAX_SOCKETS; s++) {
		for (int b = 0; b < MEM_MAX_BOXES; b++)
			p->ch[s][b] = (struct mem_chan){ UNCORE_CHAN_UNKNOWN, -1, -1, 0, 0, "", "" };
		for (int b = 0; b < MEM_MAX_HBM; b++)
			p->hbm[s][b] = p->ch[s][0];
	}
	mem_edac_read(fs, lay, nsockets, p); /* (its why kept: the channels stay unknown) */
	p->smbios_read = !mem_smbios_read(fs, &p->smbios, p->smbios_why, sizeof(p->smbios_why));
	if (p->smbios_read && !p->smbios.mts_min)
		p->smbios_read = 0, snprintf(p->smbios_why, sizeof(p->smbios_why), "no DIMM with a configured speed");
	say_source(p);
	return 0;
}

static void release(void *p) { free(p); }

static struct mem_pop *make(uncore_t *u)
{
	struct dev_fs fs = { 0 };
	struct mem_pop *p;
	if (access_files(u->acc, &fs.mem)) /* a simulated machine's own files, a replayed node's */
		return NULL;
	if (!(p = malloc(sizeof(*p))))
		return uc_err("out of memory"), NULL;
	mem_pop_build(&fs, u->plat->mem, uncore_num_sockets(u), p);
	return p;
}

const struct mem_pop *mem_pop_get(uncore_t *u)
{
	struct node_slot *s = node_slot(u, NODE_MEMORY);
	if (!s)
		return NULL;
	if (!node_ready(s)) { /* built once, kept by the node (node.h) */
		s->fact = make(u);
		s->release = release;
		node_built(u, s, NODE_MEMORY, s->fact ? 0 : -1);
	}
	return s->state > 0 ? s->fact : NULL;
}
