/* The simulated machine's registers, raw (uncore_sim_raw.h): its access backend's register calls, one each,
 * counted by space, with its protocol checks and its kernel's files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore_sim_raw.h"
#include "sim.h"
#include "util/error.h"
#include "util/memfs.h"
#include "sim_only.h"

struct uncore_sim_raw {
	struct access *a;
	struct uncore_sim_raw_counts n;
	char *file; /* the bytes uncore_sim_raw_file made last */
};

uncore_sim_raw_t *uncore_sim_raw_open(const char *spec)
{
	uncore_sim_raw_t *r;
	if (!spec)
		spec = "";
	if (!strncmp(spec, "sim:", 4))
		spec += 4;
	if (!(r = calloc(1, sizeof(*r)))) {
		uc_err("out of memory");
		return NULL;
	}
	if (!(r->a = access_sim_open(spec))) {
		free(r);
		return NULL;
	}
	return r;
}

void uncore_sim_raw_close(uncore_sim_raw_t *r)
{
	if (!r)
		return;
	r->a->ops->close(r->a);
	free(r->file);
	free(r);
}

int uncore_sim_raw_cpu(uncore_sim_raw_t *r, struct uncore_sim_raw_cpu *out)
{
	const struct sim *s = sim_of(r->a);
	memset(out, 0, sizeof(*out));
	snprintf(out->vendor, sizeof(out->vendor), "GenuineIntel");
	out->family = s->family;
	out->model = s->model;
	out->stepping = s->stepping;
	out->nsockets = s->nsockets;
	out->cores_per_socket = s->cores * s->dies;
	out->ncpus = s->nsockets * out->cores_per_socket;
	out->tsc_hz = s->prof.tsc_hz;
	return 0;
}

int uncore_sim_raw_msr_read(uncore_sim_raw_t *r, int cpu, uint32_t msr, uint64_t *val)
{
	r->n.msr_reads++;
	return r->a->ops->msr_read(r->a, cpu, msr, val);
}

int uncore_sim_raw_msr_write(uncore_sim_raw_t *r, int cpu, uint32_t msr, uint64_t val)
{
	r->n.msr_writes++;
	return r->a->ops->msr_write(r->a, cpu, msr, val);
}

static int pci_offset(uint32_t off)
{
	if ((off & 3) || off >= 4096)
		return uc_err("PCI configuration offset 0x%x: a dword's, 4-aligned and below 0x1000", off);
	return 0;
}

int uncore_sim_raw_pci_read(uncore_sim_raw_t *r, int dom, int bus, int dev, int fn, uint32_t off, uint32_t *val)
{
	struct pci_loc l = { dom, bus, dev, fn };
	r->n.pci_reads++;
	return pci_offset(off) ? -1 : r->a->ops->pci_read(r->a, &l, off, val, 4);
}

int uncore_sim_raw_pci_write(uncore_sim_raw_t *r, int dom, int bus, int dev, int fn, uint32_t off, uint32_t val)
{
	struct pci_loc l = { dom, bus, dev, fn };
	r->n.pci_writes++;
	return pci_offset(off) ? -1 : r->a->ops->pci_write32(r->a, &l, off, val);
}

int uncore_sim_raw_mmio_read(uncore_sim_raw_t *r, uint64_t phys, void *buf, size_t len)
{
	r->n.mmio_reads++;
	if (!len || len > 4096)
		return uc_err("MMIO read of %zu bytes at 0x%llx: 1 to 4096", len, (unsigned long long)phys);
	return r->a->ops->mmio_read(r->a, phys, buf, len);
}

int uncore_sim_raw_mmio_write(uncore_sim_raw_t *r, uint64_t phys, uint64_t val, int bytes)
{
	r->n.mmio_writes++;
	if (bytes != 4 && bytes != 8)
		return uc_err("MMIO write of %d bytes at 0x%llx: 4 or 8", bytes, (unsigned long long)phys);
	return r->a->ops->mmio_write(r->a, phys, val, bytes);
}

int uncore_sim_raw_pci_device(uncore_sim_raw_t *r, int i, struct uncore_sim_raw_pci *out)
{
	const struct sim *s = sim_of(r->a);
	for (int d = 0, k = 0; d < s->ndevs; d++) {
		const struct pci_devinfo *p = &s->devs[d].info;
		if (!s->devs[d].present || k++ != i)
			continue;
		*out = (struct uncore_sim_raw_pci){ p->loc.dom, p->loc.bus, p->loc.dev, p->loc.fn, p->vendor, p->device,
						    p->node };
		return 0;
	}
	return -1;
}

int uncore_sim_raw_file(uncore_sim_raw_t *r, int i, const char **path, const char **data, size_t *len, int *kind)
{
	const struct memfs *m;
	if (access_files(r->a, &m))
		return -1; /* its reason said */
	if (!m || i < 0 || i >= m->n)
		return 1;
	const struct memfs_file *f = &m->f[i];
	*path = f->path;
	*kind = f->link ? 1 : f->dir ? 2 : 0;
	*data = f->text ? f->text : "";
	*len = f->text ? f->len : 0;
	if (*kind == 0 && f->make_text) { /* made at read time: a counter's file */
		size_t cap = 65536;
		char *buf = malloc(cap);
		if (!buf || memfs_read(f, buf, cap)) {
			free(buf);
			return uc_err("%s: cannot be made", f->path);
		}
		free(r->file);
		r->file = buf;
		*data = buf;
		*len = strlen(buf);
	}
	return 0;
}

int uncore_sim_raw_counts(uncore_sim_raw_t *r, struct uncore_sim_raw_counts *out)
{
	const struct sim *s = sim_of(r->a);
	*out = r->n;
	out->bad_accesses = s->bad_accesses;
	out->unfrozen_ctl_writes = s->unfrozen_ctl_writes;
	return 0;
}
