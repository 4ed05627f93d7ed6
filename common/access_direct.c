/* Direct hardware access: MSR device + PCI config space (+ MMIO windows on demand). */
#include <stdlib.h>
#include <time.h>
#include "access.h"
#include "error.h"

struct direct {
	struct msr_backend *msr;
	struct pci_backend *pci;
};

static int d_host(struct access *a, struct host_info *h) { (void)a; return host_from_sysfs(h); }

static int d_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	struct direct *d = a->priv;
	return msr_backend_read(d->msr, cpu, reg, val, &a->stats);
}

static int d_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	struct direct *d = a->priv;
	return msr_backend_write(d->msr, cpu, reg, val, &a->stats);
}

static int d_pci_read(struct access *a, const struct pci_loc *l, uint32_t off, void *buf, size_t len)
{
	struct direct *d = a->priv;
	return pci_backend_read(d->pci, l, off, buf, len, &a->stats);
}

static int d_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val)
{
	struct direct *d = a->priv;
	return pci_backend_write32(d->pci, l, off, val, &a->stats);
}

static int d_pci_list(struct access *a, struct pci_devinfo **out, int *n)
{
	(void)a;
	return pci_list_sysfs(out, n);
}

static int d_sleep(struct access *a, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	(void)a;
	while (nanosleep(&ts, &ts))
		;
	return 0;
}

static uint64_t d_now(struct access *a)
{
	struct timespec ts;
	(void)a;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void d_close(struct access *a)
{
	struct direct *d = a->priv;
	msr_backend_close(d->msr);
	pci_backend_close(d->pci);
	free(d);
	free(a);
}

static const struct access_ops direct_ops = {
	.name = "direct",
	.host = d_host,
	.msr_read = d_msr_read,
	.msr_write = d_msr_write,
	.pci_read = d_pci_read,
	.pci_write32 = d_pci_write32,
	.pci_list = d_pci_list,
	.sleep_ns = d_sleep,
	.now_ns = d_now,
	.close = d_close,
};

struct access *access_direct_open(void)
{
	struct access *a = calloc(1, sizeof(*a));
	struct direct *d = calloc(1, sizeof(*d));
	if (!a || !d) {
		free(a);
		free(d);
		uc_err("out of memory");
		return NULL;
	}
	d->msr = msr_backend_open();
	d->pci = d->msr ? pci_backend_open() : NULL;
	if (!d->pci) {
		msr_backend_close(d->msr);
		free(d);
		free(a);
		return NULL;
	}
	a->ops = &direct_ops;
	a->priv = d;
	return a;
}
