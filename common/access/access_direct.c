/* Direct hardware access: MSR device + PCI config space (+ MMIO windows on demand). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "access.h"
#include "util/env.h"
#include "util/error.h"

#define MMIO_WINDOWS 64
#define MMIO_CHUNK 0x10000ull /* windows are mapped 64 KiB at a time, on first use */

struct direct {
	struct msr_backend *msr;
	struct pci_backend *pci;
	struct { uint64_t phys, len; struct mmio_window *w; } win[MMIO_WINDOWS];
	int nwin;
};

/* The window of /dev/mem covering [phys, phys + len), mapped on first use. */
static struct mmio_window *window(struct direct *d, uint64_t phys, size_t len, uint64_t *off)
{
	uint64_t base = phys & ~(MMIO_CHUNK - 1), end = (phys + len + MMIO_CHUNK - 1) & ~(MMIO_CHUNK - 1);
	for (int i = 0; i < d->nwin; i++)
		if (phys >= d->win[i].phys && phys + len <= d->win[i].phys + d->win[i].len) {
			*off = phys - d->win[i].phys;
			return d->win[i].w;
		}
	if (d->nwin == MMIO_WINDOWS) {
		uc_err("too many MMIO windows open (%d)", MMIO_WINDOWS);
		return NULL;
	}
	struct mmio_window *w = mmio_map("/dev/mem", base, (size_t)(end - base));
	if (!w)
		return NULL;
	d->win[d->nwin].phys = base;
	d->win[d->nwin].len = end - base;
	d->win[d->nwin++].w = w;
	*off = phys - base;
	return w;
}

static int d_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	uint64_t off;
	struct mmio_window *w = window(a->priv, phys, len, &off);
	a->stats.reads++;
	access_cost(a, COST_MMIO, -1, 1);
	if (!w)
		return -1;
	if (len == 4)
		return mmio_read32(w, off, buf);
	for (size_t k = 0; k < len; k += 8) /* 64-bit loads: counters are read in one access */
		if (mmio_read64(w, off + k, (uint64_t *)buf + k / 8))
			return -1;
	return 0;
}

static int d_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	uint64_t off;
	struct mmio_window *w = window(a->priv, phys, (size_t)bytes, &off);
	a->stats.writes++;
	if (!w)
		return -1;
	return bytes == 4 ? mmio_write32(w, off, (uint32_t)val) : mmio_write64(w, off, val);
}

int access_host_info(struct access *a, struct host_info *h) { (void)a; return host_from_sysfs(h); }

static int d_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	struct direct *d = a->priv;
	access_cost(a, COST_MSR, cpu, 1);
	return msr_backend_read(d->msr, cpu, reg, val, &a->stats);
}

static int d_msr_read_batch(struct access *a, int cpu, const uint32_t *regs, int n, uint64_t *vals, uint64_t *at)
{
	(void)at; /* the module runs them in one interrupt on the CPU: within the ioctl, no more is known */
	struct direct *d = a->priv;
	if (msr_backend_read_batch(d->msr, cpu, regs, n, vals, &a->stats))
		return -1;
	access_cost(a, COST_MSR_BATCH, cpu, n);
	return 0;
}

static int d_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	struct direct *d = a->priv;
	return msr_backend_write(d->msr, cpu, reg, val, &a->stats);
}

static int d_pci_read(struct access *a, const struct pci_loc *l, uint32_t off, void *buf, size_t len)
{
	struct direct *d = a->priv;
	access_cost(a, COST_PCI, -1, (int)(len / 4));
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

int access_host_sleep_ns(struct access *a, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	(void)a;
	while (nanosleep(&ts, &ts))
		;
	return 0;
}

uint64_t access_host_now_ns(struct access *a)
{
	struct timespec ts;
	(void)a;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t access_real_ns(struct access *a)
{
	uint64_t t = a->ops->real_ns ? a->ops->real_ns(a) : 0;
	struct timespec ts;
	if (t)
		return t;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void d_close(struct access *a)
{
	struct direct *d = a->priv;
	msr_backend_close(d->msr);
	pci_backend_close(d->pci);
	for (int i = 0; i < d->nwin; i++)
		mmio_unmap(d->win[i].w);
	free(d);
	free(a);
}

static const struct access_ops direct_ops = {
	.name = "direct",
	.host = access_host_info,
	.msr_read = d_msr_read,
	.msr_write = d_msr_write,
	.msr_read_batch = d_msr_read_batch,
	.pci_read = d_pci_read,
	.pci_write32 = d_pci_write32,
	.pci_list = d_pci_list,
	.mmio_read = d_mmio_read,
	.mmio_write = d_mmio_write,
	.sleep_ns = access_host_sleep_ns,
	.now_ns = access_host_now_ns,
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
	const char *c = uc_env("UNCORE_CLAIMS");
	if (c && strlen(c) >= sizeof(a->claims)) { /* cut, it would name another file */
		uc_err("UNCORE_CLAIMS is %zu characters long: a claims path may have at most %zu", strlen(c),
		       sizeof(a->claims) - 1);
		d_close(a);
		return NULL;
	}
	if (c && *c)
		snprintf(a->claims, sizeof(a->claims), "%s", c);
	else
		sysroot_path(a->claims, sizeof(a->claims), CLAIMS_DEFAULT);
	return a;
}
