/* The simulated PCI devices' DMA: rates from the profile, what each IIO port counts of them, faults (sim_devdma.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "sim_devdma.h"
#include "util/error.h"
#include "sim_only.h"

static const char *const kinds[SIM_DEV_KINDS] = { "nic", "ib", "nvme", "gpu", "dsa", "iaa", "qat", "dlb", "usb", "cbdma" };

/* A node's devices at a steady share of what their links carry (bytes/s of payload):
 * - nic: a 100 GbE port (Intel E810, 12.5 GB/s each way) receiving 5 and sending 3 GB/s; a 16-byte descriptor
 *   read and a 16-byte write-back per 1500-byte packet, about 2 %, and doorbells: 3 % overhead;
 * - ib: an HDR InfiniBand HCA (ConnectX-6, 200 Gb/s = 25 GB/s) at 12 in and 9 out; 64-byte work-queue
 *   entries and completions per 4 KiB message, about 2 %;
 * - nvme: a PCIe 4 x4 drive (7.9 GB/s link, about 7 GB/s sequential reads) at 2.4 read from the disk into
 *   memory and 1.2 written; a 64-byte command and a 16-byte completion per 128 KiB transfer, under 0.1 %;
 * - gpu: a PCIe 5 x16 GPU (64 GB/s) copying 6 device-to-host and 9 host-to-device; 0.5 % for its command
 *   buffers and semaphores.
 * - the accelerators of an HC stack (the simulator's choice, no measurement behind it): a DSA copying 4 GB/s
 *   (reading and writing memory alike), an IAA decompressing 1 GB/s read into 3 written, QAT at 2 each way, a DLB
 *   passing 0.2 GB/s of 16-byte events; 64-byte descriptors and completion records, 1 % (2 % the DLB);
 * - usb: the PCH's xHCI (a board's DMI stack) with a USB 3 drive at 200 MB/s in, 100 out, 2 % in its TRBs;
 * - cbdma: each engine (channel) of the DMI stack's DMA controller copying 0.5 GB/s, reading memory and writing it
 *   alike, its 64-byte descriptors and completion writes per 4 KiB copy 2 % (the simulator's choice).
 * Sizes: NVMe base specification 2.0 (64-byte submission, 16-byte completion entries); Intel E810 datasheet
 * (16- and 32-byte descriptors). */
void sim_devdma_defaults(struct sim_profile *p)
{
	static const double in[SIM_DEV_KINDS] = { 5e9, 12e9, 2.4e9, 6e9, 4e9, 3e9, 2e9, 0.2e9, 0.2e9, 0.5e9 },
			    out[SIM_DEV_KINDS] = { 3e9, 9e9, 1.2e9, 9e9, 4e9, 1e9, 2e9, 0.2e9, 0.1e9, 0.5e9 },
			    ovh[SIM_DEV_KINDS] = { 0.03, 0.02, 0.001, 0.005, 0.01, 0.01, 0.01, 0.02, 0.02, 0.02 };
	for (int k = 0; k < SIM_DEV_KINDS; k++)
		p->dev_in_bps[k] = in[k], p->dev_out_bps[k] = out[k], p->dev_overhead[k] = ovh[k];
	p->ndevrate = 0;
}

int sim_devdma_key(struct sim_profile *p, const char *key, double v, const char *file, int lineno)
{
	char who[24], what[32];
	int n = 0;
	if (strncmp(key, "device.", 7))
		return 0;
	if (sscanf(key, "device.%23[a-z0-9_].%31s%n", who, what, &n) != 2 || key[n])
		return uc_err("simulator profile %s:%d: '%s': a device key is device.KIND.KEY (KIND nic, ib, nvme, gpu, dsa, "
			      "iaa, qat, dlb, usb, cbdma) or "
			      "device.NAME.KEY (NAME as uncore devices shows it: ens0f0, mlx5_0, nvme0, card0)", file, lineno, key);
	int in = !strcmp(what, "in_bytes_per_s"), out = !strcmp(what, "out_bytes_per_s"),
	    ovh = !strcmp(what, "overhead_ratio");
	for (int k = 0; k < SIM_DEV_KINDS; k++)
		if (!strcmp(who, kinds[k])) {
			if (!in && !out && !ovh)
				return uc_err("simulator profile %s:%d: unknown device key '%s' (in_bytes_per_s, out_bytes_per_s, "
					      "overhead_ratio)", file, lineno, what);
			if (ovh && v > 1)
				return uc_err("simulator profile %s:%d: '%s' is a ratio: it needs a number from 0 to 1", file,
					      lineno, key);
			*(in ? &p->dev_in_bps[k] : out ? &p->dev_out_bps[k] : &p->dev_overhead[k]) = v;
			return 1;
		}
	if (!in && !out)
		return uc_err("simulator profile %s:%d: unknown key '%s' of device %s (in_bytes_per_s, out_bytes_per_s; "
			      "overhead_ratio is its kind's)", file, lineno, what, who);
	int i = 0;
	while (i < p->ndevrate && strcmp(p->devrate[i].name, who))
		i++;
	if (i == p->ndevrate) {
		if (i == SIM_MAX_DEVRATES)
			return uc_err("simulator profile %s:%d: more than %d devices with rates", file, lineno, SIM_MAX_DEVRATES);
		p->ndevrate++;
		snprintf(p->devrate[i].name, sizeof(p->devrate[i].name), "%s", who);
		p->devrate[i].in_bps = p->devrate[i].out_bps = NAN;
	}
	*(in ? &p->devrate[i].in_bps : &p->devrate[i].out_bps) = v;
	return 1;
}

int sim_devdma_table(struct sim *s)
{
	const struct sim_profile *p = &s->prof;
	int n = sim_pci_devices(s, s->pdev, SIM_MAX_PCIDEV);
	s->npdev = n < 0 ? 0 : n > SIM_MAX_PCIDEV ? SIM_MAX_PCIDEV : n;
	for (int i = 0; i < s->npdev; i++) {
		struct sim_pcidev *d = &s->pdev[i];
		d->in_bps = p->dev_in_bps[d->kind], d->out_bps = p->dev_out_bps[d->kind], d->overhead = p->dev_overhead[d->kind];
	}
	for (int r = 0; r < p->ndevrate; r++) {
		int hit = 0;
		for (int i = 0; i < s->npdev; i++)
			if (!strcmp(s->pdev[i].name, p->devrate[r].name)) {
				hit = 1;
				if (!isnan(p->devrate[r].in_bps))
					s->pdev[i].in_bps = p->devrate[r].in_bps;
				if (!isnan(p->devrate[r].out_bps))
					s->pdev[i].out_bps = p->devrate[r].out_bps;
			}
		if (!hit)
			return uc_err("simulator profile: device.%s.*: the machine has no device %s (its devices are named as "
				      "uncore devices shows them)", p->devrate[r].name, p->devrate[r].name);
	}
	return 0;
}

static int on_box(const struct sim_pcidev *d, const struct sim_box *b)
{
	return d->socket == b->socket && d->die == b->die && d->stack == b->idx && d->port >= 0 && d->port < 32;
}

unsigned sim_dev_ports(const struct sim *s, const struct sim_box *b)
{
	unsigned m = 0;
	for (int i = 0; i < s->npdev; i++)
		if (on_box(&s->pdev[i], b))
			m |= 1u << s->pdev[i].port;
	return m;
}

double sim_dev_dma_bps(const struct sim *s, int i, int in)
{
	return i >= 0 && i < s->npdev ? (in ? s->pdev[i].in_bps : s->pdev[i].out_bps) : 0;
}

double sim_dev_iio_bps(const struct sim *s, int i, int in)
{
	return i >= 0 && i < s->npdev && !s->pdev[i].uncounted ? sim_dev_dma_bps(s, i, in) * (1 + s->pdev[i].overhead) : 0;
}

double sim_dev_ports_bps(const struct sim *s, const struct sim_box *b, int in, unsigned mask)
{
	double v = 0;
	for (int i = 0; i < s->npdev; i++)
		if (on_box(&s->pdev[i], b) && (mask >> s->pdev[i].port & 1))
			v += sim_dev_iio_bps(s, i, in);
	return v;
}

double sim_dev_counter_bytes(const struct sim *s, int i, int in, uint64_t ns)
{
	if (i < 0 || i >= s->npdev)
		return 0;
	if (s->pdev[i].frozen && ns > s->pdev[i].frozen_ns)
		ns = s->pdev[i].frozen_ns;
	return floor(sim_dev_dma_bps(s, i, in) * ((double)ns / 1e9));
}

double sim_group_iio_bytes(const struct sim *s, int socket, int die, int stack, int port, int in, double secs)
{
	double v = 0;
	for (int i = 0; i < s->npdev; i++) {
		const struct sim_pcidev *d = &s->pdev[i];
		if (d->socket == socket && d->die == die && d->stack == stack && d->port == port)
			v += sim_dev_iio_bps(s, i, in) * secs;
	}
	return v;
}

int sim_dev_fault(struct sim *s, const char *kind, const char *name, uint64_t from_ns)
{
	int hit = 0;
	for (int i = 0; i < s->npdev; i++) {
		struct sim_pcidev *d = &s->pdev[i];
		if (strcmp(d->name, name))
			continue;
		hit = 1;
		if (!strcmp(kind, "uncounted") && !from_ns)
			d->uncounted = 1;
		else if (!strcmp(kind, "uncounted"))
			return uc_err("simulator fault uncounted:%s cannot be delayed (@SECONDS)", name);
		else if (!strcmp(kind, "frozen"))
			d->frozen = 1, d->frozen_ns = from_ns;
		else
			return uc_err("unknown simulator fault '%s' on device %s (uncounted, frozen)", kind, name);
	}
	return hit;
}
