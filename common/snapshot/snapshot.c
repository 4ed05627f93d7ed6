/*
 * uncore_snapshot (uncore.h, doc/snapshot.md): a node's facts in one tar archive (gzip for FILE.tar.gz).  The library opens the
 * machine once through a recorder (snap_record.c) and keeps what the discovery read: the PCI configuration
 * space of the uncore's devices (sparse: the dwords read, zeros between), the MMIO ranges of the discovery
 * tables, the MSRs read; then the files of the host below the sysroot (snap_files.c) and the kernel's perf
 * tree.  What the boxes' PMON registers held is dropped: those are another user's counts and controls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "snapshot.h"
#include "open/open.h"
#include "regs/pmon_regs.h"
#include "devices/dev_map.h"
#include "util/env.h"
#include "util/error.h"
#include "util/memfs_text.h"
#include "util/tarball.h"

static struct access *record(struct access *inner, void *ctx) { return snap_recorder(inner, ctx); }

/* Whether [addr, addr + len) of a box's space (PCI: at l) overlaps one of its PMON registers or free-running
 * counters. */
static int pmon_at(const uncore_t *u, enum uc_space sp, const struct pci_loc *l, uint64_t addr, uint64_t len)
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		struct pmon_reg r[PMON_MAX_REGS];
		if (b->t->space != sp)
			continue;
		int n = pmon_regs_all(b, r, PMON_MAX_REGS);
		for (int k = 0; k < n && k < PMON_MAX_REGS; k++) {
			const struct pci_loc *on = r[k].companion ? &b->comp : &b->pci;
			if (sp == UC_PCI && memcmp(on, l, sizeof(*l)))
				continue;
			if (addr < r[k].addr + (uint64_t)r[k].bytes && r[k].addr < addr + len)
				return 1;
		}
		for (int f = 0; f < b->t->nfr && f < b->nfr; f++) { /* free-running counters: their 8 bytes */
			uint64_t a = b->fr_base + b->t->fr[f].addr;
			if ((sp != UC_PCI || !memcmp(&b->pci, l, sizeof(*l))) && addr < a + 8 && a < addr + len)
				return 1;
		}
	}
	return 0;
}

/* Which dwords of the PCI device at l are a box's PMON registers (counters, controls, filters, status). */
static void device_pmon(const uncore_t *u, const struct pci_loc *l, uint8_t pmon[4096 / 4])
{
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		struct pmon_reg r[PMON_MAX_REGS];
		if (b->t->space != UC_PCI || (memcmp(&b->pci, l, sizeof(*l)) && (!b->has_comp || memcmp(&b->comp, l, sizeof(*l)))))
			continue;
		int n = pmon_regs_all(b, r, PMON_MAX_REGS);
		for (int k = 0; k < n && k < PMON_MAX_REGS; k++)
			for (uint64_t a = r[k].addr & ~3ull; a < r[k].addr + (uint64_t)r[k].bytes && a < 4096; a += 4)
				if (!memcmp(r[k].companion ? &b->comp : &b->pci, l, sizeof(*l)))
					pmon[a / 4] = 1;
		for (int f = 0; f < b->t->nfr && f < b->nfr && !memcmp(&b->pci, l, sizeof(*l)); f++)
			for (uint64_t a = (b->fr_base + b->t->fr[f].addr) & ~3ull; a < b->fr_base + b->t->fr[f].addr + 8 && a < 4096; a += 4)
				pmon[a / 4] = 1;
	}
}

static int by_loc(const void *x, const void *y)
{
	const struct snap_pci *a = x, *b = y;
	int d = memcmp(&a->l, &b->l, sizeof(a->l));
	return d ? d : (a->off > b->off) - (a->off < b->off);
}

/* The recorded PCI dwords as each device's config file: the dwords read, zeros between, up to the last. */
static int pci_members(struct snap_out *o, const uncore_t *u, struct snap_rec *r)
{
	qsort(r->pci, (size_t)r->npci, sizeof(*r->pci), by_loc);
	for (int i = 0; i < r->npci;) {
		const struct pci_loc *l = &r->pci[i].l;
		uint8_t cfg[4096] = { 0 }, pmon[4096 / 4] = { 0 }; /* the device's dwords that are a box's */
		size_t len = 0;
		int j = i;
		device_pmon(u, l, pmon);
		for (; j < r->npci && !memcmp(&r->pci[j].l, l, sizeof(*l)); j++) {
			const struct snap_pci *p = &r->pci[j];
			if (p->off + 4 > sizeof(cfg) || pmon[p->off / 4])
				continue;
			memcpy(cfg + p->off, &p->val, 4);
			len = p->off + 4 > len ? p->off + 4 : len;
		}
		char name[96];
		snprintf(name, sizeof(name), "sys/bus/pci/devices/%04x:%02x:%02x.%x/config", (unsigned)l->dom, (unsigned)l->bus,
			 (unsigned)l->dev, (unsigned)l->fn);
		if (len && snap_put(o, name, cfg, len, "the device's configuration space as the discovery read it "
				    "(bus maps, capabilities, discovery DVSEC); PMON registers and unread bytes are zeros"))
			return -1;
		i = j;
	}
	return 0;
}

/* The recorded MMIO ranges (the discovery tables and what they point to), PMON registers left out. */
static int mmio_members(struct snap_out *o, const uncore_t *u, const struct snap_rec *r)
{
	for (int i = 0; i < r->nmmio; i++) {
		const struct snap_mmio *m = &r->mmio[i];
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = r->mmio[j].phys == m->phys && r->mmio[j].len == m->len;
		if (dup || pmon_at(u, UC_MMIO, NULL, m->phys, m->len))
			continue;
		char name[64];
		snprintf(name, sizeof(name), "mmio/%016llx", (unsigned long long)m->phys);
		if (snap_put(o, name, m->data, m->len, "physical memory the discovery read (a PMON discovery table)"))
			return -1;
	}
	return 0;
}

/* The recorded MSRs that are not a box's, one file each: mmsr/cpuN/0xREG holding the value in hex. */
static int msr_members(struct snap_out *o, const uncore_t *u, const struct snap_rec *r)
{
	for (int i = 0; i < r->nmsr; i++) {
		const struct snap_msr *m = &r->msr[i];
		int dup = 0;
		for (int j = 0; j < i && !dup; j++)
			dup = r->msr[j].cpu == m->cpu && r->msr[j].reg == m->reg;
		if (dup || pmon_at(u, UC_MSR, NULL, m->reg, 1))
			continue;
		char name[64], text[32];
		snprintf(name, sizeof(name), "msr/cpu%d/%#x", m->cpu, m->reg);
		snprintf(text, sizeof(text), "%#llx\n", (unsigned long long)m->val);
		if (snap_put(o, name, text, strlen(text), "an MSR the discovery read (not a PMON register)"))
			return -1;
	}
	return 0;
}

/* The register side: the library opens regspec through the recorder. */
static int registers(struct snap_out *o, const char *regspec, int simulated)
{
	struct snap_rec rec = { 0 };
	uncore_t *u = NULL;
	if (uncore_open_hooked(regspec, record, &rec, &u)) {
		snap_note(o, "registers (%s): not read: %s", regspec, uncore_error());
		snap_rec_free(&rec);
		return 0;
	}
	/* every PCI box's device whole (its PMON registers are dropped below): what the library reads of it when
	 * it programs the box (a device's other registers) is then there too */
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		uint8_t cfg[4096];
		if (b->t->space != UC_PCI)
			continue;
		for (int c = 0; c <= b->has_comp; c++)
			if (u->acc->ops->pci_read(u->acc, c ? &b->comp : &b->pci, 0, cfg, sizeof(cfg)))
				snap_note(o, "PCI %02x:%02x.%d: its configuration space: %s", b->pci.bus, b->pci.dev, b->pci.fn,
					  uncore_error());
	}
	int rc = pci_members(o, u, &rec) || mmio_members(o, u, &rec) || msr_members(o, u, &rec);
	if (!rc && simulated) { /* the files a kernel would show of the simulated host */
		struct pci_devinfo *devs = NULL;
		int n = 0;
		rc = u->acc->ops->pci_list(u->acc, &devs, &n) || snap_sim_host_files(o, &u->host, devs, n);
		free(devs);
	}
	if (!rc && rec.writes_refused)
		rc = uc_err("internal error: the library tried %d register writes while taking a snapshot", rec.writes_refused);
	uncore_close(u);
	snap_rec_free(&rec);
	return rc ? -1 : 0;
}

/* What the device map reads (doc/devices.md): the PCI tree below each root bus, the kernel's
 * uncore_iio_<n>/die<d>, the stack-to-bus registers' config spaces, as one member (dev_capture.c). */
static int devices(struct snap_out *o, const char *regspec)
{
	uncore_t *u = NULL;
	char *text = NULL;
	size_t len = 0;
	if (uncore_open_topology(regspec, &u) || dev_map_capture(u, &text, &len)) {
		snap_note(o, "the PCI device tree: not read: %s", uncore_error());
		uncore_close(u);
		return 0;
	}
	int rc = snap_put(o, SNAP_DEVICE_TREE, text, len, "the PCI devices below each IIO stack's root bus and the stack "
			  "map's files and registers (the device map's tree: doc/devices.md)");
	free(text);
	uncore_close(u);
	return rc;
}

/* The kernel's perf tree: the simulated kernel of a simulated machine, else the running one's. */
static int kernel(struct snap_out *o, const char *simspec)
{
	struct access *sim = NULL;
	struct perf_kernel *k = simspec ? kernel_maker_of("perf+sim:")->open(simspec, &sim) : perf_kernel_syscalls();
	if (!k) {
		snap_note(o, "perf PMUs: not read: %s", uncore_error());
		return 0;
	}
	int rc = snap_kernel_files(o, k);
	k->ops->free(k);
	return rc;
}

static int write_archive(const struct snap_out *o, const char *path, const char *backend)
{
	struct tarball_writer *w;
	char *manifest = NULL, head[3200];
	size_t mlen = 0;
	FILE *m = open_memstream(&manifest, &mlen);
	if (!m)
		return uc_err("out of memory");
	fprintf(m, "# every member of this snapshot: path, bytes, why it is there\n");
	for (int i = 0; i < o->n; i++)
		fprintf(m, "%s\t%zu\t%s\n", o->m[i].name, o->m[i].len, o->m[i].why);
	fclose(m);
	snprintf(head, sizeof(head),
		 "intel-uncore snapshot 1\nversion %s\nbackend %s\n# not read (the replay has none of it):\n%s",
		 uncore_version(), backend, o->nnotes ? o->notes : "# nothing\n");
	char *text = snap_hide_paths(backend, head); /* the user's paths are not sent with a bug report */
	if (!text) {
		free(manifest);
		return -1;
	}
	int rc = tarball_create(&w, path);
	rc = rc || tarball_add(w, "snapshot.txt", text, strlen(text)) || tarball_add(w, "MANIFEST", manifest, mlen);
	for (int i = 0; !rc && i < o->n; i++)
		rc = tarball_add(w, o->m[i].name, o->m[i].data, o->m[i].len);
	free(text);
	free(manifest);
	if (rc) {
		tarball_abort(w);
		return uc_err_prefix("writing the snapshot %s: ", path);
	}
	return tarball_finish(w) ? uc_err_prefix("writing the snapshot %s: ", path) : 0;
}

int uncore_snapshot(const char *backend, const char *path, char *notes, size_t len)
{
	struct snap_out o = { 0 };
	char simspec[512] = "", regspec[600];
	if (!backend || !*backend)
		backend = uc_env("UNCORE_BACKEND");
	if (!backend || !*backend)
		backend = "auto";
	if (len)
		notes[0] = 0;
	int sim = !strncmp(backend, "sim:", 4), perfsim = !strncmp(backend, "perf+sim:", 9);
	if (!strncmp(backend, "replay:", 7) || !strncmp(backend, "perf+replay:", 12))
		return uc_err("a snapshot of a replay is the snapshot it replays: copy that file");
	if (sim || perfsim) {
		if (perfsim ? kernel_maker_of(backend)->machine_spec(backend + 9, simspec, sizeof(simspec)) : 0)
			return -1;
		if (sim)
			snprintf(simspec, sizeof(simspec), "%s", backend + 4);
		snprintf(regspec, sizeof(regspec), "sim:%s", simspec);
	} else { /* a real node: its registers where this process may read them, its files and its kernel */
		snprintf(regspec, sizeof(regspec), "direct");
	}
	int rc = registers(&o, regspec, sim || perfsim) || devices(&o, regspec) ||
		 (!(sim || perfsim) && snap_host_files(&o)) ||
		 snap_numa(&o, regspec) || snap_memory(&o, regspec) ||
		 kernel(&o, sim || perfsim ? (perfsim ? backend + 9 : simspec) : NULL) ||
		 write_archive(&o, path, backend);
	if (!rc && len)
		snprintf(notes, len, "%s", o.notes);
	snap_out_free(&o);
	return rc ? -1 : 0;
}
