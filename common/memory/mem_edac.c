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

/* What was left out, and why: the first of each kind (NOTE_*), appended while there is room. */
enum { NOTE_MANY, NOTE_NAME, NOTE_ODD, NOTE_SOCKET, NOTE_TWICE, NOTE_DIMMS, NOTE_LOCATION, NOTE_CTRL };
static void note(struct mem_pop *p, int kind, const char *fmt, ...)
{
	size_t n = strlen(p->notes);
	va_list ap;
	if (p->noted & 1u << kind || n + 4 >= sizeof(p->notes))
		return;
	p->noted |= 1u << kind;
	if (n)
		n += (size_t)snprintf(p->notes + n, sizeof(p->notes) - n, "; ");
	va_start(ap, fmt);
	vsnprintf(p->notes + n, sizeof(p->notes) - n, fmt, ap);
	va_end(ap);
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

/* mc_name as the layout's driver writes it: 0 with the socket and controller, or -1. */
static int mc_name(const char *s, const struct mem_layout *lay, int *sock, int *ctrl)
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

/* The DIMMs of controller directory dir, on channels ch[0 .. nchan). */
static void read_dimms(const struct dev_fs *fs, const char *dir, int nchan, struct mem_chan *ch, struct mem_pop *p)
{
	struct dev_names l;
	int more = 0, ndimm = 0;
	char path[512], line[128];
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
		struct mem_chan *c = &ch[chan];
		c->state = UNCORE_CHAN_POPULATED;
		c->dimms++;
		snprintf(path, sizeof(path), "%s/%s/size", dir, l.v[i]);
		if (!dev_fs_line(fs, path, line, sizeof(line)) && !uc_parse_u64(line, (uint64_t)1 << 40, &mib))
			c->mib += mib;
		snprintf(path, sizeof(path), "%s/%s/dimm_mem_type", dir, l.v[i]);
		if (!c->type[0] && !dev_fs_line(fs, path, line, sizeof(line)))
			snprintf(c->type, sizeof(c->type), "%.*s", (int)sizeof(c->type) - 1, line);
		snprintf(path, sizeof(path), "%s/%s/dimm_label", dir, l.v[i]);
		if (!dev_fs_line(fs, path, line, sizeof(line)))
			append(c->labels, sizeof(c->labels), line);
	}
	free(l.v);
}

int mem_edac_read(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p)
{
	struct dev_names l;
	int more = 0;
	unsigned char seen[UC_MAX_SOCKETS][MEM_MAX_BOXES] = { { 0 } }, seen_hbm[UC_MAX_SOCKETS][MEM_MAX_HBM] = { { 0 } };
	char dir[256], path[320], line[128];
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
	for (int i = 0; i < l.n; i++) {
		int sock, ctrl;
		if (numbered(l.v[i], "mc") < 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", MEM_EDAC_DIR, l.v[i]);
		snprintf(path, sizeof(path), "%s/mc_name", dir);
		if (dev_fs_line(fs, path, line, sizeof(line))) {
			note(p, NOTE_NAME, "%s: no mc_name", dir);
			continue;
		}
		if (mc_name(line, lay, &sock, &ctrl)) {
			note(p, NOTE_ODD, "%s: mc_name '%.40s' is not %sN%sM", dir, line, lay->edac_socket, lay->edac_ctrl);
			continue;
		}
		if (sock >= nsockets || sock >= UC_MAX_SOCKETS) {
			note(p, NOTE_SOCKET, "%s names socket %d of %d", dir, sock, nsockets);
			continue;
		}
		if (ctrl >= lay->ddr_mcs) { /* an HBM controller (i10nm: after the DDR ones), its channels apart */
			int h0 = (ctrl - lay->ddr_mcs) * lay->hbm_chans;
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
			for (int c = 0; c < lay->hbm_chans; c++)
				p->hbm[sock][h0 + c] = (struct mem_chan){ UNCORE_CHAN_EMPTY, ctrl, c, 0, 0, "", "" };
			read_dimms(fs, dir, lay->hbm_chans, p->hbm[sock] + h0, p);
			continue;
		}
		int box0 = ctrl * lay->boxes_per_mc;
		if (box0 + lay->boxes_per_mc > MEM_MAX_BOXES)
			continue; /* (ddr_mcs x boxes_per_mc of every layout fits) */
		if (seen[sock][box0]++) {
			note(p, NOTE_TWICE, "%s: a second controller %d of socket %d, left out", dir, ctrl, sock);
			continue;
		}
		p->edac_mcs++;
		struct mem_chan *ch = p->ch[sock] + box0;
		for (int c = 0; c < lay->boxes_per_mc; c++) {
			ch[c] = (struct mem_chan){ c < lay->chans_per_mc ? UNCORE_CHAN_EMPTY : UNCORE_CHAN_NONE, ctrl,
						   c < lay->chans_per_mc ? c : -1, 0, 0, "", "" };
		}
		read_dimms(fs, dir, lay->chans_per_mc, ch, p);
	}
	free(l.v);
	if (!p->edac_mcs && !p->hbm_mcs) {
		snprintf(p->edac_why, sizeof(p->edac_why), "%s shows no controller named %sN%sM%s%.80s", MEM_EDAC_DIR,
			 lay->edac_socket, lay->edac_ctrl, p->notes[0] ? ": " : "", p->notes);
		return -1;
	}
	return 0;
}
