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
 * node ids are (the simulated UBox's CPUNODEID, filled to test the bus map, is not read for it).  sb_edac numbers
 * its controllers home agent first, sockets descending (a two-socket Broadwell-EP lists mc0 "SrcID#1_Ha#0": real
 * listings, doc/memory.md, "Shapes real nodes show"); skx_edac and i10nm_edac socket-major, as they register them.
 *
 * The shapes real nodes show besides (issue 98):
 *   edac=old     sb_edac's names before Linux 4.9: one controller a socket, "<Gen> Socket#N" with N its index
 *                (sockets ascending, as the PCI scan of that driver found them), channels of both home agents
 *                numbered 0-7 (the second home agent's 4-7);
 *   edac=csrow   the legacy layout alone: a csrowK a DIMM with size_mb, mem_type, ch0_dimm_label and ch0_ce_count,
 *                no dimmN directory (Linux 3.3's sb_edac, its label naming the channel);
 *   edac=repeat  skx_edac's node ids repeating on an 8-socket board (sockets=8): the machine's last three
 *                controllers name socket 0, 1 and 1 again (an HPE listing of 16 controllers, MC13-15);
 *   mapout=S     the BIOS mapped socket S's DIMMs out: EDAC still lists them, its NUMA node has CPUs and no memory
 *                (sim_numa.c), SMBIOS lists no DIMM in its slots;
 *   smbios=2.6   type 17 of 28 bytes, without Configured Speed (0x20): the rated Speed (0x15) alone;
 *   a profile's pmem: an Intel Optane PMem module on every channel, a type 17 of its own beside the DRAM's.
 * The type-17 length, the rated speed and the slots' names are the board's (struct sim_mem_board).
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
#define T17_LEN 0x28    /* a type-17 structure of SMBIOS 2.8: a board's unless it says */
#define T17_LEN_26 0x1c /* ... of SMBIOS 2.6 (smbios=2.6) */
#define T17_MAX 0x5c    /* ... of SMBIOS 3.3 on, the longest written */

int sim_memory_option(struct sim *s, const char *opt, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!strcmp(opt, "edac") && (!strcmp(v, "old") || !strcmp(v, "csrow") || !strcmp(v, "repeat")))
		s->edac_form = !strcmp(v, "old") ? SIM_EDAC_OLD : !strcmp(v, "csrow") ? SIM_EDAC_CSROW : SIM_EDAC_REPEAT;
	else if (!strcmp(opt, "mapout") && *v && !*end && n >= 0 && n < UC_MAX_SOCKETS)
		s->mapout = (int)n + 1;
	else if (!strcmp(opt, "smbios") && !strcmp(v, "2.6"))
		s->smbios26 = 1;
	else if (!strcmp(opt, "edac") || !strcmp(opt, "mapout") || !strcmp(opt, "smbios"))
		return uc_err("bad simulator option '%s=%s' (edac=off|on|old|csrow|repeat, mapout=SOCKET, smbios=2.6)", opt, v);
	else
		return 1;
	return 0;
}

/* The shapes asked for, held against the machine: 0, or -1 with the error. */
static int shapes_fit(const struct sim *s, const struct sim_mem_board *m)
{
	if (s->edac_form == SIM_EDAC_OLD && !strstr(m->mc_name, "_Ha#"))
		return uc_err("simulator option edac=old: sim:%s's EDAC driver has no older names (sb_edac's, SNB-EP to BDX, have)",
			      s->name);
	if (s->edac_form == SIM_EDAC_REPEAT && (!strstr(m->mc_name, " IMC#") || s->nsockets != 8))
		return uc_err("simulator option edac=repeat: node ids repeat on 8-socket skx_edac or i10nm_edac machines "
			      "(sim:%s,sockets=8)", s->name);
	if (s->mapout > s->nsockets)
		return uc_err("simulator option mapout=%d: the machine has %d sockets", s->mapout - 1, s->nsockets);
	return 0;
}

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
	const struct sim_mem_board *m = s->mem;
	const char *opt = s->dimms_opt;
	if (!m) {
		if (*opt)
			return uc_err("simulator option dimms=%s: sim:%s models no memory board (every iMC box a channel)", opt,
				      s->name);
		if (s->edac_form || s->mapout || s->smbios26)
			return uc_err("simulator option %s: sim:%s models no memory board (every iMC box a channel)",
				      s->edac_form ? "edac=" : s->mapout ? "mapout=" : "smbios=", s->name);
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
	if (shapes_fit(s, m))
		return -1;
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

/* One DIMM of a controller's directory dir: dimmK/ (edac_mc_sysfs.c), or with edac=csrow the legacy csrowK/ of it
 * alone (*row: the controller's next row). */
static int edac_dimm(const struct sim *s, struct memfs *m, const char *dir, int chan, int d, const char *label, int *row)
{
	const struct sim_mem_board *b = s->mem;
	char d_dir[128];
	if (s->edac_form == SIM_EDAC_CSROW) {
		snprintf(d_dir, sizeof(d_dir), "%s/csrow%d", dir, (*row)++);
		return put(m, d_dir, "size_mb", "%d\n", b->mib) || put(m, d_dir, "mem_type", "%s\n", b->type) ||
		       put(m, d_dir, "ch0_dimm_label", "%s\n", label) || put(m, d_dir, "ch0_ce_count", "0\n") ? -1 : 0;
	}
	snprintf(d_dir, sizeof(d_dir), "%s/dimm%d", dir, chan * b->layer_slots + d);
	return put(m, d_dir, "dimm_location", "channel %d slot %d \n", chan, d) || put(m, d_dir, "size", "%d\n", b->mib) ||
	       put(m, d_dir, "dimm_mem_type", "%s\n", b->type) || put(m, d_dir, "dimm_label", "%s\n", label) ? -1 : 0;
}

/* One controller's directory mcN: mc_name, size_mb and its DIMMs -- controller ctrl of socket sock, or with whole
 * every controller of the socket as one (edac=old: channel numbers running on over its home agents). */
static int edac_mc(const struct sim *s, struct memfs *m, int mc, int sock, int ctrl, int whole, int named_sock)
{
	const struct sim_mem_board *b = s->mem;
	int mcs = ((int)strlen(b->dimms) + b->boxes_per_mc - 1) / b->boxes_per_mc, row = 0;
	char dir[96], name[96], label[96];
	unsigned mib = 0;
	snprintf(dir, sizeof(dir), EDAC "/mc%d", mc);
	for (int k = whole ? 0 : ctrl; k < (whole ? mcs : ctrl + 1); k++)
		for (int c = 0; c < b->boxes_per_mc; c++) {
			int box = k * b->boxes_per_mc + c, chan = 0;
			for (int j = k * b->boxes_per_mc; j < box; j++) /* its channel: the boxes before it that are one */
				chan += s->dimms[sock][j] >= 0;
			for (int d = 0; d < s->dimms[sock][box]; d++) {
				snprintf(label, sizeof(label), b->label, sock, k, chan, d);
				mib += (unsigned)b->mib;
				if (edac_dimm(s, m, dir, whole ? box : chan, d, label, &row))
					return -1;
			}
		}
	if (whole) /* sb_edac before Linux 4.9: kasprintf("%s Socket#%d", mci->mc_idx) of the generation */
		snprintf(name, sizeof(name), "%.*sSocket#%d", (int)(strstr(b->mc_name, "SrcID#") - b->mc_name), b->mc_name, mc);
	else
		snprintf(name, sizeof(name), b->mc_name, named_sock, ctrl);
	return put(m, dir, "mc_name", "%s\n", name) || put(m, dir, "size_mb", "%u\n", mib) ? -1 : 0;
}

/* One HBM controller's directory (i10nm_base.c i10nm_get_hbm_munits, after the DDR ones: its logical number lmc
 * ddr controllers + h, skx_register_mci's mc_name with it): a channel's one DIMM at slot 0, directory
 * dimm<channel * layer_slots>, skx_get_dimm_info's HBM label "CPU_SrcID#%u_HBMC#%u_Chan#%u" and MEM_HBM2. */
static int edac_hbm_mc(const struct sim *s, struct memfs *m, int mc, int sock, int lmc)
{
	const struct sim_mem_board *b = s->mem;
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

/* A slot's locator and bank locator as the board names it (SIM_LOC_*): socket p, channel ch (its letter), slot d
 * of the channel, n of the board (1-based), pn of the processor (1-based). */
static void locators(const struct sim_mem_board *b, int p, int ch, int d, int n, int pn, char *loc, char *bank, size_t len)
{
	char c = (char)('A' + ch);
	switch (b->locators) {
	case SIM_LOC_SUPERMICRO: /* Supermicro X11DPi: "P1-DIMMA1", bank "P0_Node0_Channel0_Dimm0" */
		snprintf(loc, len, "P%d-DIMM%c%d", p + 1, c, d + 1);
		snprintf(bank, len, "P%d_Node%d_Channel%d_Dimm%d", p, p, ch, d);
		break;
	case SIM_LOC_DELL: /* Dell PowerEdge R720: socket 0's slots A1-A12, socket 1's B1-B12 */
		snprintf(loc, len, "%c%d", 'A' + p, pn);
		snprintf(bank, len, "Not Specified");
		break;
	case SIM_LOC_LENOVO: { /* ThinkSystem SR630 V2 / SR650 V2 (linuxhw/DMI, platforms/icx/sim_memory.c): a
				* processor's 16 slots in the table's order, a channel's two together, slot 0 first */
		static const unsigned char lenovo_v2[16] = { 3, 4, 1, 2, 7, 8, 5, 6, 14, 13, 16, 15, 10, 9, 12, 11 };
		snprintf(loc, len, "DIMM %d", 16 * p + (pn <= 16 ? lenovo_v2[pn - 1] : pn));
		snprintf(bank, len, "CPU %d", p + 1);
		break;
	}
	case SIM_LOC_PROLIANT: /* ProLiant DL380 Gen11 (linuxhw/DMI, platforms/emr/sim_memory.c): DIMMs 1-8 a channel's
				* odd slot first, 9-16 its even one (the listing's four DIMMs in 3, 7, 10, 14) */
		snprintf(loc, len, "PROC %d DIMM %d", p + 1, d > 1 || pn > 16 ? pn : ch < 4 ? 2 * ch + d + 1 : 2 * ch + 2 - d);
		snprintf(bank, len, "Not Specified");
		break;
	default: /* filled: a board whose silkscreen numbers its slots so */
		snprintf(loc, len, "DIMM %d", n);
		snprintf(bank, len, "BANK 0");
	}
}

/* A type-17 structure at t (room for T17_MAX and its strings) of len bytes: the slot's locators, a DIMM or none. */
static size_t memory_device(const struct sim *s, uint8_t *t, size_t len, int handle, int present, const char *loc,
			    const char *bank, int pmem)
{
	const struct sim_mem_board *b = s->mem;
	if (pmem) { /* an Intel Optane persistent memory module beside the DRAM: 128 GiB, no DRAM speed of its own */
		size_t n = memory_device(s, t, len, handle, 1, loc, bank, 0);
		uint32_t mib = 131072;
		t[0x0c] = 0xff, t[0x0d] = 0x7f;          /* Size: the Extended Size at 0x1C */
		if (len > 0x1f)
			memcpy(t + 0x1c, &mib, 4);
		t[0x12] = 0x1f;                          /* Logical non-volatile device */
		t[0x13] = 0x80, t[0x14] = 0x30;          /* synchronous, registered, non-volatile (bit 12) */
		if (len > 0x28)
			t[0x28] = 0x07;                  /* Intel Optane persistent memory (SMBIOS 3.2) */
		return n;
	}
	memset(t, 0, T17_MAX);
	t[0] = 17, t[1] = (uint8_t)len, t[2] = (uint8_t)handle, t[3] = (uint8_t)(handle >> 8);
	t[0x04] = 0x00, t[0x05] = 0x10;            /* its memory array's handle */
	t[0x06] = 0xfe, t[0x07] = 0xff;            /* no error information */
	t[0x08] = 72, t[0x0a] = 64;                /* total and data width: ECC */
	unsigned size = present ? (b->mib < 0x7fff ? (unsigned)b->mib : 0x7fff) : 0;
	t[0x0c] = (uint8_t)size, t[0x0d] = (uint8_t)(size >> 8);
	t[0x0e] = 0x09;                            /* DIMM */
	t[0x10] = 1, t[0x11] = 2;                  /* locator and bank locator strings */
	t[0x12] = strstr(b->type, "DDR5") ? 0x22 : strstr(b->type, "DDR3") ? 0x18 : 0x1a; /* DDR5, DDR3, DDR4 */
	t[0x13] = 0x80, t[0x14] = 0x20;            /* synchronous, registered */
	/* Speed: the DIMMs' rated (SMBIOS 2.6 wording: the maximum), MT/s; Configured Memory Speed from 2.7 */
	unsigned rated = present ? (unsigned)(b->rated_mts ? b->rated_mts : b->mts) : 0, mts = present ? (unsigned)b->mts : 0;
	t[0x15] = (uint8_t)rated, t[0x16] = (uint8_t)(rated >> 8);
	if (len > 0x1c && present && b->mib >= 0x7fff)
		memcpy(t + 0x1c, &(uint32_t){ (uint32_t)b->mib }, 4); /* Extended Size, MiB (little-endian as the host) */
	if (len > 0x21)
		t[0x20] = (uint8_t)mts, t[0x21] = (uint8_t)(mts >> 8);
	if (len > 0x28)
		t[0x28] = 0x03; /* Memory Technology (3.2 on): DRAM */
	size_t n = len;
	memcpy(t + n, loc, strlen(loc) + 1);
	n += strlen(loc) + 1;
	memcpy(t + n, bank, strlen(bank) + 1);
	n += strlen(bank) + 1;
	t[n++] = 0;
	return n;
}

/* The structures a real table holds before its memory devices (DSP0134 3.3): BIOS Information (type 0, 0x18 bytes,
 * vendor, version and date strings), System Information (type 1, 0x1b bytes, its strings) and the Physical Memory
 * Array the devices belong to (type 16, 0x17 bytes: system board, system memory, multi-bit ECC, 2 TiB in KiB
 * 0x80000000, no error information, its devices a slot of every channel), each with its strings.  Their contents
 * are what dmidecode shows of a board; the population reads none of them.  Returns the bytes written at t. */
static size_t other_structures(const struct sim *s, uint8_t *t)
{
	const struct sim_mem_board *b = s->mem;
	static const char bios[] = "Simulated\0" "1.0.0\0" "01/01/2026\0", sys[] = "Simulated\0" "intel-uncore sim\0";
	size_t n = 0;
	int slots = 0;
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int box = 0; box < SIM_DIMM_BOXES; box++)
			slots += s->dimms[sock][box] >= 0 ? b->slots + (s->prof.pmem > 0) : 0;
	memset(t, 0, 0x18);
	t[0] = 0, t[1] = 0x18, t[2] = 0x00, t[3] = 0x00;
	t[0x04] = 1, t[0x05] = 2, t[0x08] = 3; /* vendor, version, release date */
	memcpy(t + 0x18, bios, sizeof(bios)); /* (the strings, and the set's closing NUL) */
	n += 0x18 + sizeof(bios);
	memset(t + n, 0, 0x1b);
	t[n] = 1, t[n + 1] = 0x1b, t[n + 2] = 0x01, t[n + 3] = 0x00;
	t[n + 4] = 1, t[n + 5] = 2; /* manufacturer, product name */
	memcpy(t + n + 0x1b, sys, sizeof(sys));
	n += 0x1b + sizeof(sys);
	memset(t + n, 0, 0x17);
	t[n] = 16, t[n + 1] = 0x17, t[n + 2] = 0x00, t[n + 3] = 0x10; /* handle 0x1000: the devices' array */
	t[n + 4] = 0x03, t[n + 5] = 0x03, t[n + 6] = 0x06;
	t[n + 7] = 0x00, t[n + 8] = 0x00, t[n + 9] = 0x00, t[n + 10] = 0x80; /* Maximum Capacity, KiB */
	t[n + 11] = 0xfe, t[n + 12] = 0xff;
	t[n + 13] = (uint8_t)slots, t[n + 14] = (uint8_t)(slots >> 8);
	n += 0x17 + 2; /* no strings: two NULs */
	return n;
}

/* The structure table: the structures before the memory devices, a type-17 a slot of every channel, the end of
 * table (type 127). */
static int smbios_table(const struct sim *s, struct memfs *m)
{
	const struct sim_mem_board *b = s->mem;
	size_t len = s->smbios26 ? T17_LEN_26 : b->t17_len ? (size_t)b->t17_len : T17_LEN;
	size_t cap = (size_t)s->nsockets * SIM_DIMM_BOXES * ((size_t)b->slots + 1) * (T17_MAX + 2 * 80 + 1) + 4096, n = 0;
	uint8_t *t = calloc(1, cap);
	int slot_no = 0;
	char loc[80], bank[80];
	if (!t)
		return uc_err("out of memory");
	n = other_structures(s, t);
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int box = 0, ch = 0, pn = 1; box < SIM_DIMM_BOXES; box++, ch += s->dimms[sock][box - 1] >= 0)
			for (int d = 0; s->dimms[sock][box] >= 0 && d < b->slots; d++, slot_no++, pn++) {
				int present = d < s->dimms[sock][box] && s->mapout != sock + 1; /* (mapped out: none listed) */
				locators(b, sock, ch, d, slot_no + 1, pn, loc, bank, sizeof(loc));
				n += memory_device(s, t + n, len, 0x1100 + slot_no, present, loc, bank, 0);
			}
	/* a machine with persistent memory (the profile's pmem, perf's #has_pmem): a PMem module on each channel of
	 * every socket, as a Cascade Lake or Ice Lake board fills one slot a channel with it, listed after the DRAM */
	for (int sock = 0; s->prof.pmem > 0 && sock < s->nsockets; sock++)
		for (int box = 0, ch = 0; box < SIM_DIMM_BOXES; box++)
			if (s->dimms[sock][box] >= 0) {
				slot_no++;
				locators(b, sock, ch++, b->slots, slot_no, slot_no, loc, bank, sizeof(loc));
				n += memory_device(s, t + n, len, 0x1100 + slot_no, s->mapout != sock + 1, loc, bank, 1);
			}
	t[n] = 127, t[n + 1] = 4, t[n + 2] = 0xff, t[n + 3] = 0xfe; /* end of table, no strings */
	n += 6;
	int rc = memfs_put_bytes(m, SMBIOS, t, n, 0);
	free(t);
	return rc;
}

int sim_dimms_sysfs(const struct sim *s, struct memfs *m)
{
	const struct sim_mem_board *b = s->mem;
	if (!b || !s->dimms_on)
		return 0;
	int mcs = ((int)strlen(b->dimms) + b->boxes_per_mc - 1) / b->boxes_per_mc, mc = 0, n = s->nsockets;
	int sb = strstr(b->mc_name, "_Ha#") != NULL;
	for (int sock = 0; sock < n && !s->edac_off && s->edac_form == SIM_EDAC_OLD; sock++)
		if (edac_mc(s, m, sock, sock, 0, 1, sock)) /* one a socket, ascending */
			return -1;
	for (int k = 0; k < n * mcs && !s->edac_off && s->edac_form != SIM_EDAC_OLD; k++) {
		/* sb_edac: home agent first, sockets descending; the others socket-major */
		int sock = sb ? n - 1 - k % n : k / mcs, ctrl = sb ? k / n : k % mcs;
		int named = s->edac_form == SIM_EDAC_REPEAT && k >= n * mcs - 3 ? sock % 6 : sock;
		if (edac_mc(s, m, mc++, sock, ctrl, 0, named))
			return -1;
		for (int h = 0; s->hbm_mode && ctrl == mcs - 1 && h < b->hbm_mcs; h++) /* Xeon Max: its HBM controllers */
			if (edac_hbm_mc(s, m, mc++, sock, mcs + h))
				return -1;
	}
	return smbios_table(s, m);
}
