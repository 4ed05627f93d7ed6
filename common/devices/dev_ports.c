/*
 * Which iio_*_port<n> counter a root port feeds: n is the lane group ("part") of the stack's PCIe
 * controller, and the root port of a part sits at a fixed device number of the stack's root bus, by
 * generation (pcm-iio-topology.cpp, intel/pcm 0fae0de1 of 2026-06-03, the tables pcm-iio prints its device map from):
 *
 *   Skylake-SP, Cascade Lake, Cooper Lake (PurleyPlatformMapping): parts 0-3 at devices 0-3, function 0.
 *     Stack 0 (CBDMA/DMI) has the DMI port at 00.0, the DMI3 registers 8086:2020, which is no bridge: pcm
 *     reads its secondary and subordinate bus as 0 and lists every function of the root bus as part 0's
 *     ("FIXME: for 0:0.0, we may need to scan from secondary switch down"), the PCH's SATA, USB and root
 *     ports (00:1c.x, and the LOM NIC and BMC below them on a Dell R440) with them: all the DMI link's.
 *   Ice Lake-SP (WhitleyPlatformMapping): PCIe stacks' parts 0-3 at devices 2-5 ("part_id = slot - 2").
 *     The CBDMA/DMI stack (SAD id 0, PMU 5: icx_sad_to_pmu_id_mapping, as Linux 6.12 uncore_snbep.c
 *     icx_sad_pmon_mapping's ICX_CBDMA_DMI_PMON_ID; its bus 0 the mapping attribute shows for PMU 5 alone,
 *     icx_iio_mapping_visible) has no root port of its own: pcm takes the stack's 00.0 as the "PCH part" 0
 *     (ICX_PCH_PART_ID) on socket 0 and, on every socket ("There is one DMA Controller on each socket"), the
 *     stack's 01.0 as the CBDMA's part 3 (ICX_CBDMA_PART_ID).  On a real board 00:00.0 is the Mesh2IIO function
 *     8086:09a2, no bridge, the PCH's root ports are 00:1c.x and the CBDMA engines 8086:0b00 at 01.0-7 are
 *     endpoints (Lenovo SR630 V2, SR650 V2: linuxhw/LsPCI 28198bc0, 92efda81; platforms/icx/board.c), socket 1's
 *     at 80:01.0-7.  What crosses the DMI link counts at part 0 (dev_dmi_port); the engines, whose DMA enters
 *     the stack's traffic controller without crossing the link, at part 3 on either socket (dev_cbdma_port).
 *     Neither Linux (a stack's bus, no port) nor perfmon (ICX's PART0-7 name lanes of a x16 controller, never
 *     the CBDMA or the DMI link) says otherwise: issue 90 D7, doc/platforms.md.
 *   Sapphire Rapids, Emerald Rapids (EagleStreamPlatformMapping): parts 0-7 at devices 1-8 ("part_id =
 *     slot - 1", eagleStreamPciStackProbe probes slots 1-8 only).  The DMI stack is one part, 7
 *     (SPR_DMI_PART_ID): eagleStreamDmiStackProbe takes the stack's 00.0 as its "PCH port" whatever it is, and
 *     on real boards that is the Memory Map/VT-d function 8086:09a2, not a bridge; the PCH's own root port
 *     (00:0d.0, 8086:1bbd) and its functions (USB 00:14.0, 00:1f.x) sit on bus 0 beside it (HPE ProLiant
 *     DL380 Gen11, linuxhw/LsPCI c0a4a3a6 Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E/.../47A35ED32C).
 *     Everything on that stack crosses the DMI link: dev_dmi_port.
 *   Granite Rapids, Sierra Forest (BirchStreamPlatform, which pcm uses for these two alone: its
 *     getPlatformMapping gives Clearwater Forest its default mapping, "without attribution to PCIe
 *     devices"): "Bifurcated Root Ports A-H appear as devices 2-9", part = device - 2, parts 0-7 as perfmon's
 *     UNC_IIO_*.PART0-PART7.  birchStreamPciStackProbe's loop (slot < 9) stops at device 8, so pcm-iio lists
 *     nothing of port H; Intel's Birch Stream board has a root port there (14:09.0, a USB controller below it),
 *     and this follows pcm's stated rule: part 7.  Clearwater Forest: taken as these (the same Linux driver and
 *     counters), which no pcm table confirms.
 *   Their accelerator (HC) stacks (birchStreamAcceleratorStackProbe): DSA at device 1 and IAA at device 2 of
 *     the stack's root bus are part 0 (SRF_DSA_IAX_PART_NUMBER), QAT at device 0 of the next bus part 4
 *     (SRF_QAT_PART_NUMBER), DLB (HQM) at device 0 three buses on part 5 (SRF_HQM_PART_NUMBER), each function
 *     0 of an Intel device; they are root-complex integrated endpoints, no root port above them.
 *
 * A x16 root port is one part: the port's lanes are all the controller's, counted at the part of its
 * device (a x16 port at ICX device 2 is part 0).  Any other place (a function other than 0, a device
 * outside the table, a CPU without a table) has no known counter port: said, never guessed.
 */
#include <string.h>
#include "dev_map.h"
#include "platform/platform.h"

/* The tables above are data of each platform's descriptor (struct iio_layout, platforms/<p>/platform.c). */
static const struct iio_layout *layout(const struct host_info *h)
{
	return platform_iio_layout(h->vendor, h->family, h->model, h->stepping);
}

int dev_counter_port(const struct host_info *h, int dev, int fn, const char **why)
{
	const struct iio_layout *l = layout(h);
	*why = "";
	if (!l) {
		*why = "no table of this CPU's root ports and counter ports (pcm-iio has none)";
		return DEV_PORT_UNKNOWN;
	}
	if (fn != 0 || dev < l->port_lo || dev > l->port_hi) {
		*why = "a root port where this generation has none of its counter ports (pcm-iio's table: function 0 "
		       "of the part's device)";
		return DEV_PORT_UNKNOWN;
	}
	return dev - l->port_lo;
}

/* Skylake-SP's and Cascade Lake's CBDMA/DMI stack (PMU 0, part 0), Ice Lake-SP's (PMU 5, part 0:
 * ICX_CBDMA_DMI_PMON_ID, ICX_PCH_PART_ID), Sapphire and Emerald Rapids' DMI stack
 * (pcm-iio-topology.cpp: SPR_XCC_DMI_PMON_ID 1, SPR_MCC_DMI_PMON_ID 10,
 * EMR_DMI_PMON_ID 7) on the PCH's bus 0 of domain 0 (pcm scans behind the PCH on socket 0 alone): every root
 * port and function on it counts at part 7 (SPR_DMI_PART_ID); -1 elsewhere.  The bus tells XCC's PMU 1 (DMI)
 * from MCC's PMU 1 (a PCIe stack), which never has bus 0. */
int dev_dmi_port(const struct host_info *h, int stack, int dom, int bus)
{
	const struct iio_layout *l = dom || bus ? NULL : layout(h);
	for (int i = 0; l && i < l->ndmi; i++)
		if (l->dmi_stacks[i] == stack)
			return l->dmi_part;
	return -1;
}

int dev_cbdma_port(const struct host_info *h, int stack, unsigned vendor, int dev)
{
	const struct iio_layout *l = layout(h);
	for (int i = 0; l && l->cbdma_dev && vendor == 0x8086 && dev == l->cbdma_dev && i < l->ndmi; i++)
		if (l->dmi_stacks[i] == stack)
			return l->cbdma_part;
	return -1;
}

int dev_accel_port(const struct host_info *h, int hc_bus, unsigned vendor, int dev, int fn)
{
	const struct iio_layout *l = layout(h);
	if (!l || !l->accel || vendor != 0x8086 || fn != 0)
		return -1;
	if (hc_bus == 0 && (dev == 1 || dev == 2))
		return 0; /* DSA, IAA: SRF_DSA_IAX_PART_NUMBER */
	if (hc_bus == 1 && dev == 0)
		return 4; /* QAT: SRF_QAT_PART_NUMBER */
	if (hc_bus == 3 && dev == 0)
		return 5; /* DLB: SRF_HQM_PART_NUMBER */
	return -1;
}
