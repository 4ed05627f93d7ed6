/*
 * Memory as a real node populates it (issue 91): the DIMMs on each iMC channel, from the kind's board
 * (struct sim_mem_board, platforms/<p>/board.c) or dimms=, so that traffic goes to populated channels alone
 * (sim_chan_populated), and the files Linux shows of them: the EDAC tree its driver of the generation writes
 * (edac_mc_sysfs.c: mcN/mc_name and size_mb, dimmM/dimm_location "channel C slot S ", size in MiB, dimm_mem_type,
 * dimm_label; a DIMM directory only where a DIMM is) and the SMBIOS structure table with a type-17 Memory Device a
 * slot (DSP0134 3.3 section 7.18, as /sys/firmware/dmi/tables/DMI holds it).
 *
 * dimms=DIGITS[/DIGITS]: the DIMMs on each channel of a socket in box order (the boxes that are no channel
 * skipped), one group for every socket or one a socket: sim:icx,dimms=21212121, sim:spr,dimms=10101010/11110000.
 * edac=off: the node has no EDAC driver loaded (its tree absent, the population unknown to a reader), the SMBIOS
 * table still there.
 * EDAC names a socket by its node id; the simulated sockets' are written as their numbers, which real boards'
 * node ids are (the simulated UBox's CPUNODEID, filled to test the bus map, is not read for it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "util/memfs.h"

#define EDAC "/sys/devices/system/edac/mc"
#define SMBIOS "/sys/firmware/dmi/tables/DMI"
#define T17_LEN 0x28 /* a type-17 structure of SMBIOS 2.8 */

int sim_dimms_option(struct sim *s, const char *v)
{
	if (strlen(v) >= sizeof(s->dimms_opt) || !*v || strspn(v, "0123/") != strlen(v))
		return uc_err("simulator option dimms=%s: the DIMMs on each channel, a digit 0-3 each, a group for every "
			      "socket or one a socket split by '/' (dimms=22220000)", v);
	snprintf(s->dimms_opt, sizeof(s->dimms_opt), "%s", v);
	return 0;
}

/* Channels of a socket on the board (its boxes that are one). */
static int board_channels(const struct sim_mem_board *m)
{
	int n = 0;
	for (const char *c = m->dimms; *c; c++)
		n += *c != '-';
	return n;
}

int sim_dimms_build(struct sim *s)
{
	const struct sim_mem_board *m = s->kind->mem;
	const char *opt = s->dimms_opt;
	if (!m) {
		if (*opt)
			return uc_err("simulator option dimms=%s: sim:%s models no memory board (every iMC box a channel)", opt,
				      s->name);
		return 0;
	}
	int nimc = 0; /* the machine's iMC boxes a socket: a board is of a shape (dies=2 doubles them: no board's) */
	for (int i = 0; i < s->nboxes; i++)
		nimc += s->boxes[i].socket == 0 && !strcmp(s->boxes[i].u->name, "imc");
	if (nimc != (int)strlen(m->dimms)) {
		if (*opt)
			return uc_err("simulator option dimms=%s: this sim:%s has %d iMC boxes a socket, its board %zu: no board "
				      "of that shape", opt, s->name, nimc, strlen(m->dimms));
		return 0; /* every box a channel, no EDAC files, as a kind without a board */
	}
	if (s->hbm_mode == SIM_HBM_ONLY && *opt && strspn(opt, "0/") != strlen(opt))
		return uc_err("simulator option dimms=%s: sim:%s,hbm=only has no DDR DIMM (HBM is the node's only memory)",
			      opt, s->name);
	int nch = board_channels(m), nbox = (int)strlen(m->dimms);
	for (int sock = 0; sock < s->nsockets; sock++) {
		const char *g = opt; /* this socket's group of dimms= */
		for (int k = 0; k < sock && strchr(g, '/'); k++)
			g = strchr(g, '/') + 1;
		size_t glen = *opt ? strcspn(g, "/") : 0;
		if (*opt && (int)glen != nch)
			return uc_err("simulator option dimms=%s: sim:%s has %d channels a socket, a digit each (%.*s has %zu)", opt,
				      s->name, nch, (int)glen, g, glen);
		for (int b = 0, c = 0; b < SIM_DIMM_BOXES; b++) {
			int d = b < nbox && m->dimms[b] != '-' ? (*opt ? g[c++] : m->dimms[b]) - '0' : -1;
			if (d > 0 && s->hbm_mode == SIM_HBM_ONLY) /* a Xeon Max without DDR: its channels empty */
				d = 0;
			if (d > m->slots)
				return uc_err("simulator option dimms=%s: a channel of sim:%s holds at most %d DIMMs", opt, s->name,
					      m->slots);
			s->dimms[sock][b] = (signed char)d;
		}
	}
	s->dimms_on = 1;
	memset(s->mem_channels, 0, sizeof(s->mem_channels));
	for (int i = 0; i < s->nboxes; i++) /* the traffic is spread over the populated channels */
		s->mem_channels[s->boxes[i].socket] += !strcmp(s->boxes[i].u->name, "imc") && sim_chan_populated(s, &s->boxes[i]);
	return 0;
}

/* The file dir/name holding the text fmt makes. */
static int put(struct memfs *m, const char *dir, const char *name, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int put(struct memfs *m, const char *dir, const char *name, const char *fmt, ...)
{
	char v[128], path[192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return memfs_put(m, path, v, 0);
}

/* One controller's directory: mc_name, size_mb and a dimm directory a DIMM. */
static int edac_mc(const struct sim *s, struct memfs *m, int mc, int sock, int ctrl)
{
	const struct sim_mem_board *b = s->kind->mem;
	char dir[96], d_dir[128], name[96];
	unsigned mib = 0;
	snprintf(dir, sizeof(dir), EDAC "/mc%d", mc);
	for (int c = 0; c < b->boxes_per_mc; c++) {
		int box = ctrl * b->boxes_per_mc + c, chan = 0;
		for (int k = ctrl * b->boxes_per_mc; k < box; k++) /* its channel number: the boxes before it that are one */
			chan += s->dimms[sock][k] >= 0;
		for (int d = 0; d < s->dimms[sock][box]; d++) {
			snprintf(d_dir, sizeof(d_dir), "%s/dimm%d", dir, chan * b->layer_slots + d);
			snprintf(name, sizeof(name), b->label, sock, ctrl, chan, d);
			mib += (unsigned)b->mib;
			if (put(m, d_dir, "dimm_location", "channel %d slot %d \n", chan, d) ||
			    put(m, d_dir, "size", "%d\n", b->mib) || put(m, d_dir, "dimm_mem_type", "%s\n", b->type) ||
			    put(m, d_dir, "dimm_label", "%s\n", name))
				return -1;
		}
	}
	snprintf(name, sizeof(name), b->mc_name, sock, ctrl);
	return put(m, dir, "mc_name", "%s\n", name) || put(m, dir, "size_mb", "%u\n", mib) ? -1 : 0;
}

/* One HBM controller's directory (i10nm_base.c i10nm_get_hbm_munits, after the DDR ones: its logical number lmc
 * ddr controllers + h, skx_register_mci's mc_name with it): a channel's one DIMM at slot 0, directory
 * dimm<channel * layer_slots>, skx_get_dimm_info's HBM label "CPU_SrcID#%u_HBMC#%u_Chan#%u" and MEM_HBM2. */
static int edac_hbm_mc(const struct sim *s, struct memfs *m, int mc, int sock, int lmc)
{
	const struct sim_mem_board *b = s->kind->mem;
	char dir[96], d_dir[128], name[96];
	snprintf(dir, sizeof(dir), EDAC "/mc%d", mc);
	for (int c = 0; c < b->hbm_chans; c++) {
		snprintf(d_dir, sizeof(d_dir), "%s/dimm%d", dir, c * b->layer_slots);
		snprintf(name, sizeof(name), b->hbm_label, sock, lmc, c);
		if (put(m, d_dir, "dimm_location", "channel %d slot 0 \n", c) || put(m, d_dir, "size", "%d\n", b->hbm_mib) ||
		    put(m, d_dir, "dimm_mem_type", "%s\n", b->hbm_type) || put(m, d_dir, "dimm_label", "%s\n", name))
			return -1;
	}
	snprintf(name, sizeof(name), b->mc_name, sock, lmc);
	return put(m, dir, "mc_name", "%s\n", name) || put(m, dir, "size_mb", "%d\n", b->hbm_chans * b->hbm_mib) ? -1 : 0;
}

/* A type-17 structure at t (room for T17_LEN and its strings): the slot's locator, a DIMM or none. */
static size_t memory_device(uint8_t *t, const struct sim_mem_board *b, int handle, int present, int slot_no)
{
	char loc[32];
	memset(t, 0, T17_LEN);
	t[0] = 17, t[1] = T17_LEN, t[2] = (uint8_t)handle, t[3] = (uint8_t)(handle >> 8);
	t[0x04] = 0x00, t[0x05] = 0x10;            /* its memory array's handle */
	t[0x06] = 0xfe, t[0x07] = 0xff;            /* no error information */
	t[0x08] = 72, t[0x0a] = 64;                /* total and data width: ECC */
	unsigned size = present ? (b->mib < 0x7fff ? (unsigned)b->mib : 0x7fff) : 0;
	t[0x0c] = (uint8_t)size, t[0x0d] = (uint8_t)(size >> 8);
	t[0x0e] = 0x09;                            /* DIMM */
	t[0x10] = 1, t[0x11] = 2;                  /* locator and bank locator strings */
	t[0x12] = strstr(b->type, "DDR5") ? 0x22 : 0x1a; /* DDR5, DDR4 */
	t[0x13] = 0x80, t[0x14] = 0x20;            /* synchronous, registered */
	unsigned mts = present ? (unsigned)b->mts : 0;
	t[0x15] = (uint8_t)mts, t[0x16] = (uint8_t)(mts >> 8);
	if (present && b->mib >= 0x7fff)
		memcpy(t + 0x1c, &(uint32_t){ (uint32_t)b->mib }, 4); /* Extended Size, MiB (little-endian as the host) */
	t[0x20] = (uint8_t)mts, t[0x21] = (uint8_t)(mts >> 8); /* Configured Memory Speed, MT/s */
	size_t n = T17_LEN;
	snprintf(loc, sizeof(loc), "DIMM %d", slot_no); /* filled: the board's silkscreen numbers its slots so */
	memcpy(t + n, loc, strlen(loc) + 1);
	n += strlen(loc) + 1;
	memcpy(t + n, "BANK 0", 7);
	n += 7;
	t[n++] = 0;
	return n;
}

/* The structure table: a type-17 a slot of every channel, the end of table (type 127). */
static int smbios_table(const struct sim *s, struct memfs *m)
{
	const struct sim_mem_board *b = s->kind->mem;
	size_t cap = (size_t)s->nsockets * SIM_DIMM_BOXES * (size_t)b->slots * (T17_LEN + 48) + 8, n = 0;
	uint8_t *t = calloc(1, cap);
	int slot_no = 0;
	if (!t)
		return uc_err("out of memory");
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int box = 0; box < SIM_DIMM_BOXES; box++)
			for (int d = 0; s->dimms[sock][box] >= 0 && d < b->slots; d++, slot_no++)
				n += memory_device(t + n, b, 0x1100 + slot_no, d < s->dimms[sock][box], slot_no + 1);
	t[n] = 127, t[n + 1] = 4, t[n + 2] = 0xff, t[n + 3] = 0xfe; /* end of table, no strings */
	n += 6;
	int rc = memfs_put_bytes(m, SMBIOS, t, n, 0);
	free(t);
	return rc;
}

int sim_dimms_sysfs(const struct sim *s, struct memfs *m)
{
	const struct sim_mem_board *b = s->kind->mem;
	if (!b || !s->dimms_on)
		return 0;
	int mcs = ((int)strlen(b->dimms) + b->boxes_per_mc - 1) / b->boxes_per_mc, mc = 0;
	for (int sock = 0; sock < s->nsockets && !s->edac_off; sock++) {
		for (int ctrl = 0; ctrl < mcs; ctrl++)
			if (edac_mc(s, m, mc++, sock, ctrl))
				return -1;
		for (int h = 0; s->hbm_mode && h < b->hbm_mcs; h++) /* Xeon Max: its HBM controllers after them */
			if (edac_hbm_mc(s, m, mc++, sock, mcs + h))
				return -1;
	}
	return smbios_table(s, m);
}
