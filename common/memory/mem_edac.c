/*
 * The EDAC tree Linux's memory-controller driver writes (Documentation/ABI/testing/sysfs-devices-edac): one
 * directory mcN a controller with its mc_name, and one dimmM a DIMM with memory (edac_mc_sysfs.c creates a DIMM's
 * device only where it has pages) holding dimm_location, size (MiB), dimm_mem_type and dimm_label.  mc_name and the
 * controller-to-box numbering are the platform's (platform_facts.h struct mem_layout).
 *
 * The socket in mc_name is the socket's node id (skx_common.c skx_get_node_id: the utility device's config 0xF4;
 * sb_edac.c: SAD_TARGET's source id), taken here as the socket's number, which it is on the boards whose BIOS
 * numbers its nodes as its sockets; one naming no socket of the machine is left out and said.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memory.h"
#include "platform/platform_facts.h"
#include "util/guarded_read.h"

#define MEM_MAX_NAMES 4096 /* names of one directory looked at (a controller's own files and its DIMMs') */

/* What was left out or placed other than named, and why: every note, each counted (nnotes), appended while there
 * is room (notes_cut counts those that found none).  Kinds name what a note is about, for the reader of the code. */
enum { NOTE_MANY, NOTE_NAME, NOTE_ODD, NOTE_SOCKET, NOTE_TWICE, NOTE_DIMMS, NOTE_LOCATION, NOTE_CTRL, NOTE_ORDER,
       NOTE_SIZE, NOTE_MAPPED, NOTE_CSROW };
static void note(struct mem_pop *p, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(struct mem_pop *p, int kind, const char *fmt, ...)
{
	char one[512];
	size_t n = strlen(p->notes);
	va_list ap;
	(void)kind;
	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	p->nnotes++;
	if (n + (n ? 2 : 0) + strlen(one) >= sizeof(p->notes)) { /* a note is said whole or counted as cut */
		p->notes_cut++;
		return;
	}
	snprintf(p->notes + n, sizeof(p->notes) - n, "%s%s", n ? "; " : "", one);
}

/* 1-4 decimal digits at *s, the value into *v and *s past them: 0, or -1. */
static int small_number(const char **s, int *v)
{
	int n = 0, k = 0;
	while (k < 5 && (*s)[k] >= '0' && (*s)[k] <= '9')
		n = n * 10 + ((*s)[k++] - '0');
	if (k < 1 || k > 4)
		return -1;
	*s += k;
	*v = n;
	return 0;
}

/* "mcN", "dimmN": N, or -1 for any other name. */
static int numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	int v;
	const char *s = name + n;
	return !strncmp(name, prefix, n) && !small_number(&s, &v) && !*s ? v : -1;
}

/* A controller's mc_name read (mc_name), its socket and controller, or the whole socket's channels (whole). */
struct mc_entry {
	int mc;            /* N of mcN */
	int sock, ctrl;    /* as named */
	int whole;         /* 1: one controller of all the socket's channels (sb_edac before Linux 4.9) */
	int at;            /* where it is placed: socket * (ddr_mcs) + ctrl, -1 not placed */
};

/* mc_name as the layout's driver writes it: 0 with the socket and controller, or -1. */
static int mc_name_now(const char *s, const struct mem_layout *lay, int *sock, int *ctrl)
{
	size_t a = strlen(lay->edac_socket), b = strlen(lay->edac_ctrl);
	if (strncmp(s, lay->edac_socket, a))
		return -1;
	s += a;
	if (small_number(&s, sock) || strncmp(s, lay->edac_ctrl, b))
		return -1;
	s += b;
	return small_number(&s, ctrl) || *s ? -1 : 0;
}

/*
 * sb_edac's older names (the layouts whose controller part is "_Ha#"): before its controllers were made one a home
 * agent (Linux 4.9), sb_edac.c named one controller a socket kasprintf("Sandy Bridge Socket#%d", mci->mc_idx) --
 * Sandy Bridge from Linux 3.3, "Ivy Bridge Socket#%d" from 3.13, "Haswell Socket#%d" from 3.15, "Broadwell
 * Socket#%d" from 4.0 -- its dimm_location channels those of all the socket's home agents (Ivy Bridge's second
 * home agent's channels 4-7).  Boot logs quoted in bug reports also show the form with the home agent after it,
 * "Haswell Socket#0 HA#1": that controller is the named home agent's alone.  The family is the layout's name up to
 * its "SrcID#" ("Ivy Bridge SrcID#").  0 with the socket, the controller (0 for the whole socket) and whole; -1.
 */
static int mc_name_old(const char *s, const struct mem_layout *lay, int *sock, int *ctrl, int *whole)
{
	const char *src = strstr(lay->edac_socket, "SrcID#");
	size_t fam = src ? (size_t)(src - lay->edac_socket) : 0;
	if (!src || strcmp(lay->edac_ctrl, "_Ha#") || strncmp(s, lay->edac_socket, fam) || strncmp(s + fam, "Socket#", 7))
		return -1;
	s += fam + 7;
	if (small_number(&s, sock))
		return -1;
	*ctrl = 0, *whole = 1;
	if (!strncmp(s, " HA#", 4)) {
		s += 4;
		if (small_number(&s, ctrl))
			return -1;
		*whole = 0;
	}
	return *s ? -1 : 0;
}

/* dimm_location "channel C slot S " (its newline gone): 0 with both, or -1. */
static int dimm_location(const char *s, int *chan, int *slot)
{
	if (strncmp(s, "channel ", 8))
		return -1;
	s += 8;
	if (small_number(&s, chan) || strncmp(s, " slot ", 6))
		return -1;
	s += 6;
	if (small_number(&s, slot))
		return -1;
	while (*s == ' ')
		s++;
	return *s ? -1 : 0;
}

static void append(char *dst, size_t len, const char *s)
{
	size_t n = strlen(dst);
	if (*s && n + 3 < len) /* what does not fit is cut: labels are for people */
		snprintf(dst + n, len - n, "%s%.*s", n ? ", " : "", (int)(len - n - 3), s);
}

/* One DIMM on channel c: counted, its size, type and label kept. */
static void count_dimm(struct mem_chan *c, uint64_t mib, const char *type, const char *label)
{
	c->state = UNCORE_CHAN_POPULATED;
	c->dimms++;
	c->mib += mib;
	if (!c->type[0] && type)
		snprintf(c->type, sizeof(c->type), "%.*s", (int)sizeof(c->type) - 1, type);
	if (label)
		append(c->labels, sizeof(c->labels), label);
}

/* The channel a legacy csrow label names: sb_edac's "CPU_SrcID#0_Channel#1_DIMM#0" (Linux 3.3, one csrow a DIMM, its
 * one channel ch0) or "CPU_SrcID#0_Ha#0_Chan#1_DIMM#0" (later): the channel, or -1. */
static int label_channel(const char *s)
{
	const char *k = strstr(s, "_Channel#");
	int v;
	if (k)
		k += 9;
	else if ((k = strstr(s, "_Chan#")))
		k += 6;
	return k && !small_number(&k, &v) ? v : -1;
}

/*
 * The legacy layout (Documentation/ABI/testing/sysfs-devices-edac, edac_mc_sysfs.c csrow_attr_groups): csrowK/ a
 * chip-select row with size_mb and mem_type, and chC_dimm_label and chC_ce_count for each of its channels with
 * memory (csrow_dev_is_visible: a channel without pages is not shown; a row without pages not made).  Real trees show
 * it beside dimmN/ or, on older kernels, instead of it.  Read where the controller has no dimmN/: a row's channel
 * C (from the label where it names one, else the attribute's number) holds one DIMM of the row's size split over
 * its channels.  Returns the DIMMs found.
 */
static int read_csrows(const struct dev_fs *fs, const char *dir, const struct dev_names *l, int nchan,
		       struct mem_chan *ch, struct mem_pop *p)
{
	char path[512], line[128], type[64], label[128];
	int found = 0;
	for (int i = 0; i < l->n; i++) {
		int chans[8], nc = 0;
		uint64_t mb = 0;
		if (numbered(l->v[i], "csrow") < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/size_mb", dir, l->v[i]);
		if (dev_fs_line(fs, path, line, sizeof(line)) || uc_parse_u64(line, (uint64_t)1 << 40, &mb))
			continue;
		if (!mb) {
			note(p, NOTE_SIZE, "%s/%s: size_mb 0, no DIMM counted", dir, l->v[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/mem_type", dir, l->v[i]);
		if (dev_fs_line(fs, path, type, sizeof(type)))
			type[0] = 0;
		for (int c = 0; c < 8; c++) {
			snprintf(path, sizeof(path), "%s/%s/ch%d_dimm_label", dir, l->v[i], c);
			if (!dev_fs_line(fs, path, label, sizeof(label)))
				chans[nc++] = c;
		}
		for (int k = 0; k < nc; k++) {
			snprintf(path, sizeof(path), "%s/%s/ch%d_dimm_label", dir, l->v[i], chans[k]);
			if (dev_fs_line(fs, path, label, sizeof(label)))
				continue;
			int c = label_channel(label) >= 0 ? label_channel(label) : chans[k];
			if (c >= nchan) {
				note(p, NOTE_CSROW, "%s/%s: channel %d, the controller has %d", dir, l->v[i], c, nchan);
				continue;
			}
			count_dimm(&ch[c], mb / (uint64_t)nc, type[0] ? type : NULL, label);
			found++;
		}
	}
	return found;
}

/* The DIMMs of controller directory dir, on channels ch[0 .. nchan). */
static void read_dimms(const struct dev_fs *fs, const char *dir, int nchan, struct mem_chan *ch, struct mem_pop *p)
{
	struct dev_names l;
	int more = 0, ndimm = 0;
	char path[512], line[128], type[64], label[128];
	if (dev_fs_names_upto(fs, dir, MEM_MAX_NAMES, &l, &more)) {
		free(l.v);
		return;
	}
	if (more)
		note(p, NOTE_MANY, "%s holds more than %d entries: the rest left out", dir, MEM_MAX_NAMES);
	for (int i = 0; i < l.n; i++) {
		int chan, slot;
		uint64_t mib = 0;
		if (numbered(l.v[i], "dimm") < 0)
			continue;
		if (++ndimm > MEM_MAX_DIMM_DIRS) {
			note(p, NOTE_DIMMS, "%s lists more than %d DIMMs: the rest left out", dir, MEM_MAX_DIMM_DIRS);
			break;
		}
		snprintf(path, sizeof(path), "%s/%s/dimm_location", dir, l.v[i]);
		if (dev_fs_line(fs, path, line, sizeof(line)) || dimm_location(line, &chan, &slot) ||
		    chan >= nchan) {
			note(p, NOTE_LOCATION, "%s/%s: no channel of the controller in its dimm_location", dir, l.v[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/size", dir, l.v[i]);
		int sized = !dev_fs_line(fs, path, line, sizeof(line)) && !uc_parse_u64(line, (uint64_t)1 << 40, &mib);
		snprintf(path, sizeof(path), "%s/%s/dimm_label", dir, l.v[i]);
		if (dev_fs_line(fs, path, label, sizeof(label)))
			label[0] = 0;
		if (sized && !mib) { /* listed without memory: no DIMM the node has */
			note(p, NOTE_SIZE, "%s/%s (%s): size 0, not counted", dir, l.v[i], label[0] ? label : "no label");
			p->uncounted++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/dimm_mem_type", dir, l.v[i]);
		if (dev_fs_line(fs, path, type, sizeof(type)))
			type[0] = 0;
		count_dimm(&ch[chan], mib, type[0] ? type : NULL, label[0] ? label : NULL);
	}
	if (!ndimm && read_csrows(fs, dir, &l, nchan, ch, p))
		note(p, NOTE_CSROW, "%s: read from its csrows (no dimm directories: the legacy layout)", dir);
	free(l.v);
}

static int by_mc(const void *a, const void *b)
{
	return ((const struct mc_entry *)a)->mc - ((const struct mc_entry *)b)->mc;
}

/* The controllers' sockets, established (issue 98): a (socket, controller) one controller names is its own; where
 * several name the same -- skx_edac names a controller by its socket's node id, which repeats on 8-socket boards
 * (an HPE machine of 16 controllers lists MC13-15 as "Skylake Socket#0/#1 IMC#n" again) -- each is placed by its
 * order among the controllers (numeric, socket-major as skx_edac and i10nm register them: its socket order /
 * ddr_mcs, its controller order % ddr_mcs), where that agrees with the controller it names, no controller names
 * that place, and the socket's NUMA node has memory; a claim no order settles is a conflict, named, the place left
 * unknown (never the first one's). */
static void place(struct mc_entry *e, int n, const struct mem_layout *lay, int nsockets, const int *mem,
		  struct mem_pop *p)
{
	int per = lay->ddr_mcs, slots = nsockets * per, claims[MEM_MAX_MCS + 1];
	for (int i = 0; i < n; i++) { /* how many name each one's place; one alone named is placed there */
		claims[i] = 0;
		for (int j = 0; j < n; j++)
			claims[i] += e[j].sock == e[i].sock && e[j].ctrl == e[i].ctrl && e[j].whole == e[i].whole;
		e[i].at = claims[i] == 1 ? e[i].sock * per + e[i].ctrl : -1;
	}
	for (int i = 0; i < n; i++) {
		if (claims[i] == 1)
			continue;
		int os = i / per, oc = i % per, owned = 0;
		char who[128] = ""; /* the others that name it */
		for (int j = 0; j < n; j++) {
			owned |= claims[j] == 1 && e[j].sock == os && e[j].ctrl == oc; /* the order's place: one's alone */
			if (j != i && e[j].sock == e[i].sock && e[j].ctrl == e[i].ctrl)
				snprintf(who + strlen(who), sizeof(who) - strlen(who), "%smc%d", who[0] ? ", " : "", e[j].mc);
		}
		if (n == slots && !e[i].whole && oc == e[i].ctrl && os < nsockets && !owned && (!mem || mem[os] != 0)) {
			e[i].at = os * per + oc;
			if (os != e[i].sock)
				note(p, NOTE_ORDER, "mc%d names socket %d controller %d, as %s: placed by its order as socket %d's",
				     e[i].mc, e[i].sock, e[i].ctrl, who, os);
			continue;
		}
		note(p, NOTE_TWICE, "mc%d names socket %d controller %d, as %s: which socket it is is not known, left "
		     "unknown%s", e[i].mc, e[i].sock, e[i].ctrl, who, mem && os < nsockets && mem[os] == 0 ?
		     " (its order's socket has no memory)" : "");
	}
	for (int i = 0; i < n; i++) /* two placed in one place (one by name, one by order): neither */
		for (int j = i + 1; j < n && e[i].at >= 0; j++)
			if (e[j].at == e[i].at) {
				note(p, NOTE_TWICE, "mc%d and mc%d both land on socket %d controller %d: left unknown", e[i].mc,
				     e[j].mc, e[i].at / per, e[i].at % per);
				e[i].at = e[j].at = -2;
			}
}

int mem_edac_read(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p)
{
	return mem_edac_read_on(fs, lay, nsockets, NULL, p);
}

int mem_edac_read_on(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, const int *mem,
		     struct mem_pop *p)
{
	struct dev_names l;
	int more = 0, n = 0;
	unsigned char seen_hbm[UC_MAX_SOCKETS][MEM_MAX_HBM] = { { 0 } };
	char dir[256], path[320], line[256]; /* (an mc_name of any length said whole where it is refused) */
	struct mc_entry *e;
	if (!lay) {
		snprintf(p->edac_why, sizeof(p->edac_why), "which EDAC controller is which channel box is not known for "
			 "this platform");
		return -1;
	}
	const char *unknown = dev_fs_unknown(fs, MEM_EDAC_DIR);
	if (unknown) { /* a replayed snapshot that holds no EDAC tree: unknown, not a node without a driver */
		snprintf(p->edac_why, sizeof(p->edac_why), "unknown: %s", unknown);
		return -1;
	}
	if (dev_fs_names_upto(fs, MEM_EDAC_DIR, MEM_MAX_MCS, &l, &more)) {
		free(l.v);
		snprintf(p->edac_why, sizeof(p->edac_why), "no %s (no EDAC driver loaded: modprobe %s)", MEM_EDAC_DIR,
			 lay->boxes_per_mc == 4 ? "sb_edac" : strstr(lay->edac_socket, "10nm") ? "i10nm_edac" : "skx_edac");
		return -1;
	}
	if (more)
		note(p, NOTE_MANY, "%s holds more than %d entries: the rest left out", MEM_EDAC_DIR, MEM_MAX_MCS);
	if (!(e = calloc((size_t)l.n + 1, sizeof(*e)))) {
		free(l.v);
		snprintf(p->edac_why, sizeof(p->edac_why), "out of memory");
		return -1;
	}
	/* the controllers in numeric order (mc2 before mc14; the directory's names come sorted as text) */
	for (int i = 0; i < l.n; i++)
		if ((e[n].mc = numbered(l.v[i], "mc")) >= 0)
			n++;
	free(l.v);
	qsort(e, (size_t)n, sizeof(*e), by_mc);
	int k = 0;
	for (int i = 0; i < n; i++) {
		struct mc_entry c = { e[i].mc, 0, 0, 0, -1 };
		snprintf(dir, sizeof(dir), "%s/mc%d", MEM_EDAC_DIR, c.mc);
		snprintf(path, sizeof(path), "%s/mc_name", dir);
		if (dev_fs_line(fs, path, line, sizeof(line))) {
			note(p, NOTE_NAME, "%s: no mc_name", dir);
			continue;
		}
		if (mc_name_now(line, lay, &c.sock, &c.ctrl) && mc_name_old(line, lay, &c.sock, &c.ctrl, &c.whole)) {
			note(p, NOTE_ODD, "%s: mc_name '%s' is not %sN%sM", dir, line, lay->edac_socket, lay->edac_ctrl);
			continue;
		}
		if (c.sock >= nsockets || c.sock >= UC_MAX_SOCKETS) {
			note(p, NOTE_SOCKET, "%s names socket %d of %d", dir, c.sock, nsockets);
			continue;
		}
		if (c.ctrl >= lay->ddr_mcs) { /* an HBM controller (i10nm: after the DDR ones), its channels apart */
			int h0 = (c.ctrl - lay->ddr_mcs) * lay->hbm_chans, sock = c.sock, ctrl = c.ctrl;
			if (ctrl - lay->ddr_mcs >= lay->hbm_mcs || h0 + lay->hbm_chans > MEM_MAX_HBM) {
				note(p, NOTE_CTRL, "%s names controller %d: the platform has %d%s", dir, ctrl, lay->ddr_mcs,
				     lay->hbm_mcs ? " and its HBM's" : "");
				continue;
			}
			p->hbm_mcs++;
			if (seen_hbm[sock][h0]++) {
				note(p, NOTE_TWICE, "%s: a second controller %d of socket %d, left out", dir, ctrl, sock);
				continue;
			}
			for (int ch = 0; ch < lay->hbm_chans; ch++)
				p->hbm[sock][h0 + ch] = (struct mem_chan){ UNCORE_CHAN_EMPTY, ctrl, ch, 0, 0, "", "" };
			read_dimms(fs, dir, lay->hbm_chans, p->hbm[sock] + h0, p);
			continue;
		}
		e[k++] = c;
	}
	place(e, k, lay, nsockets, mem, p);
	for (int i = 0; i < k; i++) {
		if (e[i].at < 0)
			continue;
		int sock = e[i].at / lay->ddr_mcs, ctrl = e[i].at % lay->ddr_mcs;
		int box0 = e[i].whole ? 0 : ctrl * lay->boxes_per_mc, nbox = e[i].whole ? lay->ddr_mcs * lay->boxes_per_mc :
											 lay->boxes_per_mc;
		if (box0 + nbox > MEM_MAX_BOXES)
			continue; /* (ddr_mcs x boxes_per_mc of every layout fits) */
		snprintf(dir, sizeof(dir), "%s/mc%d", MEM_EDAC_DIR, e[i].mc);
		p->edac_mcs++;
		struct mem_chan *ch = p->ch[sock] + box0;
		for (int c = 0; c < nbox; c++) { /* a box past a controller's channels is no channel (ICX's third) */
			int is = c % lay->boxes_per_mc < lay->chans_per_mc;
			ch[c] = (struct mem_chan){ is ? UNCORE_CHAN_EMPTY : UNCORE_CHAN_NONE, e[i].whole ? c / lay->boxes_per_mc : ctrl,
						   is ? c % lay->boxes_per_mc : -1, 0, 0, "", "" };
		}
		/* (a whole socket's channel C is box C: sb_edac's layouts have as many channels as boxes) */
		read_dimms(fs, dir, e[i].whole ? nbox : lay->chans_per_mc, ch, p);
	}
	free(e);
	/* a socket whose NUMA node has CPUs and no memory: the BIOS mapped its DIMMs out; EDAC, reading the
	 * controllers' registers, still lists them.  None counted, each named. */
	for (int s = 0; mem && s < nsockets && s < UC_MAX_SOCKETS; s++) {
		char labels[256] = "";
		int dimms = 0;
		if (mem[s] != 0)
			continue;
		for (int b = 0; b < MEM_MAX_BOXES; b++) {
			struct mem_chan *c = &p->ch[s][b];
			if (c->state != UNCORE_CHAN_POPULATED)
				continue;
			dimms += c->dimms;
			append(labels, sizeof(labels), c->labels);
			c->state = UNCORE_CHAN_EMPTY;
			c->dimms = 0;
			c->mib = 0;
		}
		if (dimms) {
			p->uncounted += dimms;
			note(p, NOTE_MAPPED, "socket %d: EDAC lists %d DIMM%s (%s) but its NUMA node has CPUs and no memory "
			     "(mapped out by the BIOS): not counted", s, dimms, dimms == 1 ? "" : "s", labels);
		}
	}
	if (!p->edac_mcs && !p->hbm_mcs) {
		snprintf(p->edac_why, sizeof(p->edac_why), "%s shows no controller named %sN%sM%s%s", MEM_EDAC_DIR,
			 lay->edac_socket, lay->edac_ctrl, p->notes[0] ? ": " : "", p->notes);
		return -1;
	}
	return 0;
}
