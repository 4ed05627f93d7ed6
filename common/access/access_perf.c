/*
 * The perf_event backend's access: the host and its clock, and no register.  Over a simulator it
 * takes the simulator's host and clock (the simulated kernel programs the simulated registers);
 * otherwise the machine's own.  Any register access is refused: with this backend the kernel owns
 * the uncore, and nothing in the library may write it behind the kernel's back.
 */
#include <stdlib.h>
#include "access.h"
#include "util/error.h"

static int refuse(const char *what) { return uc_err("the perf backend does not %s: the kernel programs the uncore", what); }
static int p_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *v)
{
	(void)a, (void)cpu, (void)reg, (void)v;
	return refuse("read MSRs");
}
static int p_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t v)
{
	(void)a, (void)cpu, (void)reg, (void)v;
	return refuse("write MSRs");
}
static int p_pci_read(struct access *a, const struct pci_loc *d, uint32_t off, void *buf, size_t len)
{
	(void)a, (void)d, (void)off, (void)buf, (void)len;
	return refuse("read PCI configuration space");
}
static int p_pci_write32(struct access *a, const struct pci_loc *d, uint32_t off, uint32_t v)
{
	(void)a, (void)d, (void)off, (void)v;
	return refuse("write PCI configuration space");
}
static int p_pci_list(struct access *a, struct pci_devinfo **out, int *n)
{
	(void)a, (void)out, (void)n;
	return refuse("list PCI devices");
}
static int p_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	(void)a, (void)phys, (void)buf, (void)len;
	return refuse("read MMIO");
}
static int p_mmio_write(struct access *a, uint64_t phys, uint64_t v, int bytes)
{
	(void)a, (void)phys, (void)v, (void)bytes;
	return refuse("write MMIO");
}

static int p_host(struct access *a, struct host_info *h)
{
	return a->inner ? a->inner->ops->host(a->inner, h) : access_host_info(a, h);
}
static int p_sleep(struct access *a, uint64_t ns)
{
	return a->inner ? a->inner->ops->sleep_ns(a->inner, ns) : access_host_sleep_ns(a, ns);
}
static uint64_t p_now(struct access *a) { return a->inner ? a->inner->ops->now_ns(a->inner) : access_host_now_ns(a); }

/* the simulated kernel's clock is its simulator's: held there (none: the host's clock runs) */
static uint64_t p_hold_clock(struct access *a, int on) { return a->inner ? access_clock_hold_on(a->inner, on) : 0; }
/* the inner simulator belongs to the simulated kernel, which closes it */
static void p_close(struct access *a) { free(a); }

static const struct access_ops perf_ops = {
	.name = "perf",
	.host = p_host,
	.msr_read = p_msr_read,
	.msr_write = p_msr_write,
	.pci_read = p_pci_read,
	.pci_write32 = p_pci_write32,
	.pci_list = p_pci_list,
	.mmio_read = p_mmio_read,
	.mmio_write = p_mmio_write,
	.sleep_ns = p_sleep,
	.now_ns = p_now,
	.hold_clock = p_hold_clock,
	.close = p_close,
};

struct access *access_perf_open(struct access *inner)
{
	struct access *a = calloc(1, sizeof(*a));
	if (!a) {
		uc_err("out of memory");
		return NULL;
	}
	a->ops = &perf_ops;
	a->inner = inner;
	if (inner) {
		a->simulated = inner->simulated;
		a->virtual_clock = inner->virtual_clock;
	}
	return a;
}
