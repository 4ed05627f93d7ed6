/* The snapshot's recorder: an access that passes every read on and keeps what came back, and writes nothing. */
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"
#include "util/error.h"

static struct snap_rec *rec_of(struct access *a) { return a->priv; }

/* Room for one more element in *v of n, capacity *cap. */
static int grow(void **v, int n, int *cap, size_t size)
{
	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 64;
	void *nv = realloc(*v, (size_t)c * size);
	if (!nv)
		return uc_err("out of memory recording the snapshot");
	*v = nv;
	*cap = c;
	return 0;
}

static int r_host(struct access *a, struct host_info *h) { return a->inner->ops->host(a->inner, h); }

static int r_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	struct snap_rec *r = rec_of(a);
	if (a->inner->ops->msr_read(a->inner, cpu, reg, val))
		return -1;
	if (grow((void **)&r->msr, r->nmsr, &r->cmsr, sizeof(*r->msr)))
		return -1;
	r->msr[r->nmsr++] = (struct snap_msr){ cpu, reg, *val };
	return 0;
}

static int r_pci_read(struct access *a, const struct pci_loc *d, uint32_t off, void *buf, size_t len)
{
	struct snap_rec *r = rec_of(a);
	if (a->inner->ops->pci_read(a->inner, d, off, buf, len))
		return -1;
	for (size_t k = 0; k + 4 <= len; k += 4) {
		if (grow((void **)&r->pci, r->npci, &r->cpci, sizeof(*r->pci)))
			return -1;
		uint32_t v;
		memcpy(&v, (const uint8_t *)buf + k, 4);
		r->pci[r->npci++] = (struct snap_pci){ *d, off + (uint32_t)k, v };
	}
	return 0;
}

static int r_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	struct snap_rec *r = rec_of(a);
	if (a->inner->ops->mmio_read(a->inner, phys, buf, len))
		return -1;
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy || grow((void **)&r->mmio, r->nmmio, &r->cmmio, sizeof(*r->mmio))) {
		free(copy);
		return uc_err("out of memory recording the snapshot");
	}
	memcpy(copy, buf, len);
	r->mmio[r->nmmio++] = (struct snap_mmio){ phys, len, copy };
	return 0;
}

static int r_pci_list(struct access *a, struct pci_devinfo **out, int *n) { return a->inner->ops->pci_list(a->inner, out, n); }

/* a snapshot changes nothing: a write would be a bug of ours, refused and counted */
static int refused(struct access *a, const char *what)
{
	rec_of(a)->writes_refused++;
	return uc_err("internal error: a snapshot writes no register (%s refused)", what);
}
static int r_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	(void)cpu, (void)reg, (void)val;
	return refused(a, "an MSR write");
}
static int r_pci_write32(struct access *a, const struct pci_loc *d, uint32_t off, uint32_t val)
{
	(void)d, (void)off, (void)val;
	return refused(a, "a PCI configuration write");
}
static int r_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	(void)phys, (void)val, (void)bytes;
	return refused(a, "an MMIO write");
}
static int r_sleep_ns(struct access *a, uint64_t ns) { return a->inner->ops->sleep_ns(a->inner, ns); }
static uint64_t r_now_ns(struct access *a) { return a->inner->ops->now_ns(a->inner); }

static uint64_t r_hold_clock(struct access *a, int on) { return access_clock_hold_on(a->inner, on); }

static void r_close(struct access *a)
{
	a->inner->ops->close(a->inner);
	free(a);
}

static const struct access_ops recorder_ops = {
	.name = "snapshot recorder",
	.host = r_host,
	.msr_read = r_msr_read,
	.msr_write = r_msr_write,
	.pci_read = r_pci_read,
	.pci_write32 = r_pci_write32,
	.pci_list = r_pci_list,
	.mmio_read = r_mmio_read,
	.mmio_write = r_mmio_write,
	.sleep_ns = r_sleep_ns,
	.now_ns = r_now_ns,
	.hold_clock = r_hold_clock,
	.close = r_close,
};

struct access *snap_recorder(struct access *inner, struct snap_rec *rec)
{
	struct access *a = calloc(1, sizeof(*a));
	if (!a) {
		uc_err("out of memory");
		return NULL;
	}
	a->ops = &recorder_ops;
	a->priv = rec;
	a->inner = inner; /* a simulator under the recorder is found through it */
	a->simulated = inner->simulated;
	a->virtual_clock = inner->virtual_clock;
	memcpy(a->claims, inner->claims, sizeof(a->claims));
	return a;
}

void snap_rec_free(struct snap_rec *rec)
{
	for (int i = 0; i < rec->nmmio; i++)
		free(rec->mmio[i].data);
	free(rec->pci);
	free(rec->mmio);
	free(rec->msr);
	memset(rec, 0, sizeof(*rec));
}
