/*
 * The node's memory population in a snapshot (doc/snapshot.md, doc/memory.md): the EDAC files the library reads
 * (mem_edac.c, through a recording file view: each controller's mc_name, each DIMM's dimm_location, size,
 * dimm_mem_type and dimm_label, no more) and the SMBIOS structure table (root's alone on a real node), kept at their
 * sysfs paths so that a replay reads the node's population as the node did.  What could not be read is said.
 */
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"
#include "handle/handle.h"
#include "memory/memory.h"
#include "platform/platform.h"
#include "util/error.h"

static const char edac_why[] = "the memory population Linux's EDAC driver shows: controllers' names, DIMMs' places, "
			       "sizes, types and labels (doc/memory.md)";

/* A file read as a line (dev_fs_line keeps it without its newline), as the kernel shows it: with one. */
static int put_line(struct snap_out *o, const struct memfs_file *f)
{
	char *text = malloc(f->len + 1);
	if (!text)
		return uc_err("out of memory");
	memcpy(text, f->text, f->len);
	text[f->len] = '\n';
	int rc = snap_put(o, f->path + 1, text, f->len + 1, edac_why);
	free(text);
	return rc;
}

/* The population as this library read it (memory_population.txt, doc/snapshot.md): a line a socket, "S BOXES HBM":
 * a character an iMC channel box, its DIMMs (0-9, 9 for more), '?' unknown, '-' no channel; then its populated HBM
 * channels.  A replay runs the simulator's traffic on those channels (common/replay/sim_replay.c), and reads it
 * here because the replay, a backend, sits below the layer that reads EDAC. */
static int put_population(struct snap_out *o, const struct mem_pop *p, int nsockets)
{
	char text[UC_MAX_SOCKETS * (MEM_MAX_BOXES + 24)];
	size_t n = 0;
	for (int s = 0; s < nsockets && s < UC_MAX_SOCKETS; s++) {
		int hbm = 0, last = -1;
		for (int b = 0; b < MEM_MAX_BOXES; b++)
			if (p->ch[s][b].state != UNCORE_CHAN_UNKNOWN)
				last = b;
		for (int h = 0; h < MEM_MAX_HBM; h++)
			hbm += p->hbm[s][h].state == UNCORE_CHAN_POPULATED;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%d ", s);
		for (int b = 0; b <= last && n + 1 < sizeof(text); b++) {
			const struct mem_chan *c = &p->ch[s][b];
			text[n++] = c->state == UNCORE_CHAN_POPULATED ? (char)('0' + (c->dimms < 9 ? c->dimms : 9)) :
				    c->state == UNCORE_CHAN_EMPTY ? '0' : c->state == UNCORE_CHAN_NONE ? '-' : '?';
		}
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s %d\n", last < 0 ? "?" : "", hbm);
		if (n >= sizeof(text))
			return uc_err("the memory population's record overflows");
	}
	return snap_put(o, "memory_population.txt", text, n, "the memory population as the library read it from EDAC: "
			"a replay moves the simulated traffic on these channels (doc/memory.md)");
}

int snap_memory(struct snap_out *o, const char *regspec)
{
	uncore_t *u = NULL;
	struct memfs rec = { 0 };
	struct dev_fs fs = { .rec = &rec };
	struct mem_pop *p = malloc(sizeof(*p));
	uint8_t *t = NULL;
	size_t len = 0;
	char why[192];
	int rc = 0;
	if (!p)
		return uc_err("out of memory");
	memset(p, 0, sizeof(*p));
	if (uncore_open_topology(regspec, &u) || access_files(u->acc, &fs.mem)) {
		snap_note(o, "the EDAC tree and SMBIOS table: not read: %s", uncore_error());
		goto out;
	}
	/* the CPU's platform (a topology handle has none of its own): the EDAC names its driver writes */
	const struct platform_desc *pd = platform_by_cpu(u->host.family, u->host.model, u->host.stepping);
	if (!pd || !pd->mem)
		snap_note(o, "the EDAC tree: which controller is which channel box is not known for %s",
			  pd ? pd->name : "this CPU");
	else if (mem_edac_read(&fs, pd->mem, uncore_num_sockets(u), p))
		snap_note(o, "the EDAC tree: %s", p->edac_why);
	else
		rc = put_population(o, p, uncore_num_sockets(u));
	if (fs.rec_failed)
		rc = uc_err("out of memory");
	for (int i = 0; i < rec.n && !rc; i++) {
		const struct memfs_file *f = &rec.f[i];
		if (!f->dir && !f->link && f->path[0] == '/')
			rc = put_line(o, f);
	}
	if (!rc && mem_smbios_table(&fs, &t, &len, why, sizeof(why)))
		snap_note(o, "the SMBIOS table: %s", why);
	else if (!rc)
		rc = snap_put(o, MEM_SMBIOS_PATH + 1, t, len, "the SMBIOS structure table: each DIMM slot's type-17 Memory "
			      "Device and its configured speed (doc/memory.md)");
out:
	free(t);
	free(p);
	memfs_free(&rec);
	uncore_close(u);
	return rc;
}
