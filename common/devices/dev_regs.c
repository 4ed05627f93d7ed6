/*
 * Each IIO stack's root bus read from the uncore's own registers in PCI configuration space, where the kernel
 * shows no uncore_iio_<n>/die<d> (a kernel older than the mapping, a stripped one, a replayed node's):
 *
 * Ice Lake-SP, as Linux 6.12 reads it (uncore_snbep.c sad_cfg_iio_topology, icx_iio_get_topology): every
 * function of device id 0x09a2 (SNR_ICX_MESH2IIO_MMAP_DID) sits on a stack's root bus; its SAD_CONTROL_CFG
 * dword at 0x3f4 (SNR_ICX_SAD_CONTROL_CFG) holds the stack's id in bits 6:4 (SAD_CONTROL_STACK_ID), which
 * icx_sad_pmon_mapping turns into the IIO PMU's number.  The socket: Linux takes the die of the function's
 * bus (uncore_pcibus_to_dieid); bits 3:0 of the same dword are the socket's node id (pcm-iio-topology.cpp
 * IPlatformMapping10Nm::getSadIdRootBusMap compares them with the socket), which this reads, needing no bus
 * map.  Linux leaves Ice Lake-D out (icx_iio_set_mapping), and so does this.
 *
 * Sapphire Rapids and later: Linux 6.12 reads no stack-to-bus register (spr_uncore_iio has no set_mapping,
 * and a discovery table's unit carries its box id, die and control address, no bus: uncore_discovery.h
 * struct intel_uncore_discovery_unit).  pcm reads them (src/types.h, utils.cpp get_cpu_bus,
 * pcm-iio-topology.cpp getRootBuses, intel/pcm 0fae0de1 of 2026-06-03): the MSM function 8086:09a6 at device 3 function 0
 * has CPUBUSNO_VALID at 0x1a0 (bit i: CPU bus i in use, 32 of them) and the CPU buses' numbers 4 a dword,
 * CPUBUSNO0-3 at 0x190 (CPU buses 0-15) and CPUBUSNO4-7 at 0x1c0 (16-31); the package is bits 3:0 of
 * SAD_CONTROL_CFG (0x3f4) of function 0 on the first valid CPU bus.  A CPU bus's index is an IIO PMU by
 * generation's table (*_sad_to_pmu_id_mapping); Sapphire Rapids has two, its XCC and MCC dies, told apart
 * by CAPID4 (0x94) bits 7:6 of PCU CR3, 8086:325b at device 0x1e function 3 (0b11 XCC, 0b01 MCC).  Granite
 * Rapids and Sierra Forest share one (BirchStreamPlatform: srf_sad_to_pmu_id_mapping); pcm has none for
 * Clearwater Forest, and neither does this.
 */
#include <stdio.h>
#include <string.h>
#include "dev_map.h"
#include "handle/handle.h"
#include "util/error.h"

/* SAD_CONTROL_CFG's stack id -> the IIO PMU (icx_sad_pmon_mapping: ICX_CBDMA_DMI_PMON_ID first) */
const unsigned char dev_icx_sad_pmon[DEV_ICX_IIO_STACKS] = { 5, 0, 1, 2, 3, 4 };

_Static_assert(DEV_MSM_CPUBUSES == IIO_MSM_CPUBUSES, "the MSM's CPU buses, as the platforms' tables count them");

/* A dword of a function's config space: 0, or -1 (said once through *said) */
static int cfg32(const struct dev_fs *fs, const char *bdf, unsigned off, uint32_t *v, int *said)
{
	char p[96];
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/config", bdf);
	if (!dev_fs_bytes(fs, p, off, v, 4))
		return 0;
	char why[64];
	if (!(*said)++)
		uc_warn("%s: offset 0x%x cannot be read (%s): the IIO stacks' root buses are unknown", p, off,
			dev_fs_bytes_why(fs, p, off, 4, why, sizeof(why)));
	return -1;
}

/* The tables (CPU bus -> IIO PMU, which CPU buses are accelerator stacks) are data of each platform's descriptor,
 * struct iio_layout (platforms/<p>/platform.c: spr, emr, gnr for Granite Rapids and Sierra Forest).
 *
 * Granite Rapids' and Sierra Forest's accelerator (HC) stacks, CPU buses 8, 12, 16 and 20 (SRF_HC0-3_SAD_BUS_ID):
 * pcm probes QAT at device 0 of the next PCI bus and DLB at device 0 of the bus three on
 * (birchStreamAcceleratorStackProbe); on Intel's Birch Stream board (linuxhw/LsPCI
 * Server/Intel/BIRCHSTREAM/BIRCHSTREAM/1F03C9158405/.../F71EAE46A6, commit b6f7d8f2) they are root-complex
 * integrated endpoints on root buses of their own, 01:00.0 and 03:00.0, and the stack's event collector 00:00.4
 * lists "AssociatedBusNumbers: 01-03": the stack's root bus and the three after it are all the stack's. */

/* The table of l's CPU (SPR: of its die, from PCU CR3's CAPID4), or NULL */
static const signed char *msm_table(const struct iio_layout *l, const struct dev_fs *fs, const struct dev_tree *t,
				    int *said)
{
	if (!l || !l->cpubus_pmu)
		return NULL;
	if (!l->cpubus_pmu_mcc)
		return l->cpubus_pmu;
	for (int i = 0; i < t->n; i++) {
		const struct dev_node *n = &t->v[i];
		uint32_t capid4;
		if (n->d.vendor != 0x8086 || n->d.device != DEV_SPR_PCU_CR3_DID || n->dev != 0x1e || n->fn != 3 ||
		    cfg32(fs, n->d.bdf, DEV_SPR_CAPID4, &capid4, said))
			continue;
		unsigned chop = capid4 >> 6 & 3;
		if (chop == 3 || chop == 1)
			return chop == 3 ? l->cpubus_pmu : l->cpubus_pmu_mcc;
		uc_warn("%s: CAPID4 0x%08x says neither an XCC nor an MCC die (physical chop %u): the IIO stacks' root "
			"buses are unknown", n->d.bdf, capid4, chop);
		return NULL;
	}
	uc_warn("no PCU CR3 function (8086:%04x at 1e.3) in the PCI tree: which Sapphire Rapids die (XCC or MCC) "
		"this is is unknown, and so are the IIO stacks' root buses", DEV_SPR_PCU_CR3_DID);
	return NULL;
}

/* The stacks of each MSM function's CPU buses */
static int msm_stacks(uncore_t *u, const struct iio_layout *lay, const struct dev_fs *fs, const struct dev_tree *t,
		      struct dev_stack_list *l)
{
	int said = 0, found = 0;
	const signed char *map = NULL;
	for (int i = 0; i < t->n; i++) {
		const struct dev_node *n = &t->v[i];
		uint32_t valid, no[8], ctl;
		if (n->d.vendor != 0x8086 || n->d.device != DEV_MSM_DID || n->dev != 3 || n->fn != 0)
			continue;
		if (!found++ && !(map = msm_table(lay, fs, t, &said)))
			return 0;
		if (cfg32(fs, n->d.bdf, DEV_MSM_CPUBUSNO_VALID, &valid, &said))
			continue;
		int ok = 1;
		for (int k = 0; k < 4 && ok; k++)
			ok = !cfg32(fs, n->d.bdf, DEV_MSM_CPUBUSNO0 + 4u * (unsigned)k, &no[k], &said) &&
			     !cfg32(fs, n->d.bdf, DEV_MSM_CPUBUSNO4 + 4u * (unsigned)k, &no[k + 4], &said);
		if (!ok || !valid)
			continue; /* no CPU bus in use: pcm takes such a function as not the socket's */
		int first = 0;
		while (!(valid >> first & 1))
			first++;
		char bdf[16];
		snprintf(bdf, sizeof(bdf), "%04x:%02x:00.0", (unsigned)n->dom, no[first / 4] >> (first % 4 * 8) & 0xff);
		if (cfg32(fs, bdf, DEV_ICX_SAD_CONTROL_CFG, &ctl, &said))
			continue;
		int sock = (int)(ctl & 0xf);
		if (sock >= u->host.nsockets) {
			uc_warn("%s: SAD_CONTROL_CFG 0x%08x names package %d, which this machine has not: its stacks left out",
				bdf, ctl, sock);
			continue;
		}
		for (int b = 0; b < DEV_MSM_CPUBUSES; b++) {
			if (!(valid >> b & 1) || map[b] < 0)
				continue;
			struct dev_stack s = { .socket = sock, .die = 0, .stack = map[b], .dom = n->dom,
					       .bus = (int)(no[b / 4] >> (b % 4 * 8) & 0xff), .source = "registers" };
			/* an accelerator stack's root buses: its own and the three after it */
			int hc = (int)(lay->hc_cpubuses >> b & 1);
			for (int k = 0; k < (hc ? 4 : 1) && s.bus + k < 256; k++) {
				struct dev_stack x = s;
				x.bus += k, x.hc = hc ? 1 + k : 0;
				if (dev_stack_add(l, &x))
					return -1;
			}
		}
	}
	return 0;
}

int dev_regs_stacks(uncore_t *u, const struct dev_fs *fs, const struct dev_tree *t, struct dev_stack_list *l)
{
	int said = 0;
	const struct host_info *h = &u->host;
	const struct iio_layout *lay = platform_iio_layout(h->vendor, h->family, h->model, h->stepping);
	if (!lay || !lay->sad_stack_id)
		return msm_stacks(u, lay, fs, t, l);
	for (int i = 0; i < t->n; i++) {
		const struct dev_node *n = &t->v[i];
		char p[96];
		uint32_t cfg;
		if (n->d.vendor != 0x8086 || n->d.device != DEV_ICX_SAD_DID)
			continue;
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/config", n->d.bdf);
		if (dev_fs_bytes(fs, p, DEV_ICX_SAD_CONTROL_CFG, &cfg, 4)) {
			char why[64];
			if (!said++)
				uc_warn("%s: SAD_CONTROL_CFG (offset 0x%x) cannot be read (%s): the stacks' root buses are "
					"unknown", p, DEV_ICX_SAD_CONTROL_CFG,
					dev_fs_bytes_why(fs, p, DEV_ICX_SAD_CONTROL_CFG, 4, why, sizeof(why)));
			continue;
		}
		/* SAD_CONTROL_STACK_ID; the node id in bits 3:0 (pcm) */
		unsigned sad = cfg >> DEV_ICX_SAD_STACK_SHIFT & DEV_ICX_SAD_STACK_MASK, sock = cfg & 0xf;
		if (sad >= DEV_ICX_IIO_STACKS || (int)sock >= u->host.nsockets) {
			uc_warn("%s: SAD_CONTROL_CFG 0x%08x names stack %u of socket %u, which this machine has not: left out",
				p, cfg, sad, sock);
			continue;
		}
		struct dev_stack s = { .socket = (int)sock, .die = 0, .stack = dev_icx_sad_pmon[sad], .dom = n->dom,
				       .bus = n->bus, .source = "registers" };
		if (dev_stack_add(l, &s))
			return -1;
	}
	return 0;
}
