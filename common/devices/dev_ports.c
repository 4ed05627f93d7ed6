/*
 * Which iio_*_port<n> counter a root port feeds: n is the lane group ("part") of the stack's PCIe
 * controller, and the root port of a part sits at a fixed device number of the stack's root bus, by
 * generation (pcm-iio-topology.cpp, intel/pcm 2026-06, the tables pcm-iio prints its device map from):
 *
 *   Skylake-SP, Cascade Lake, Cooper Lake (PurleyPlatformMapping): parts 0-3 at devices 0-3, function 0.
 *     Stack 0 (CBDMA/DMI) has the DMI port at 00.0, the DMI3 registers 8086:2020, which is no bridge: pcm
 *     reads its secondary and subordinate bus as 0 and lists every function of the root bus as part 0's
 *     ("FIXME: for 0:0.0, we may need to scan from secondary switch down"), the PCH's SATA, USB and root
 *     ports (00:1c.x, and the LOM NIC and BMC below them on a Dell R440) with them: all the DMI link's.
 *   Ice Lake-SP (WhitleyPlatformMapping): PCIe stacks' parts 0-3 at devices 2-5 ("part_id = slot - 2");
 *     on the CBDMA/DMI stack (PMU 5) the PCH's port at device 0 is part 0 (ICX_PCH_PART_ID) and the CBDMA
 *     at device 1 part 3 (ICX_CBDMA_PART_ID).
 *   Sapphire Rapids, Emerald Rapids (EagleStreamPlatformMapping): parts 0-7 at devices 1-8 ("part_id =
 *     slot - 1"); the DMI stack's port at device 0 is part 7 (SPR_DMI_PART_ID).
 *   Granite Rapids, Sierra Forest, Clearwater Forest (BirchStreamPlatform): "Bifurcated Root Ports A-H
 *     appear as devices 2-9", part = device - 2.
 *
 * A x16 root port is one part: the port's lanes are all the controller's, counted at the part of its
 * device (a x16 port at ICX device 2 is part 0).  Any other place (a function other than 0, a device
 * outside the table, a CPU without a table) has no known counter port: said, never guessed.
 */
#include <string.h>
#include "dev_map.h"

int dev_counter_port(const struct host_info *h, int stack, int dev, int fn, const char **why)
{
	*why = "";
	if (strcmp(h->vendor, "GenuineIntel") || h->family != 6) {
		*why = "no table of this CPU's root ports and counter ports (pcm-iio has none)";
		return DEV_PORT_UNKNOWN;
	}
	int lo, hi, base;
	switch (h->model) {
	case 0x55: /* INTEL_SKYLAKE_X */
		if (stack == 0 && (fn != 0 || dev > 3))
			return 0; /* the PCH's root ports, behind the DMI port: part 0 */
		lo = 0, hi = 3, base = 0;
		break;
	case 0x6a: /* INTEL_ICELAKE_X */
		if (stack == 5 && fn == 0 && dev <= 1) /* ICX_CBDMA_DMI_PMON_ID */
			return dev ? 3 : 0;
		lo = 2, hi = 5, base = 2;
		break;
	case 0x8f: /* INTEL_SAPPHIRERAPIDS_X */
	case 0xcf: /* INTEL_EMERALDRAPIDS_X */
		if (dev == 0 && fn == 0)
			return 7; /* SPR_DMI_PART_ID */
		lo = 1, hi = 8, base = 1;
		break;
	case 0xad: /* INTEL_GRANITERAPIDS_X */
	case 0xaf: /* INTEL_ATOM_CRESTMONT_X (Sierra Forest) */
	case 0xdd: /* INTEL_ATOM_DARKMONT_X (Clearwater Forest) */
		lo = 2, hi = 9, base = 2;
		break;
	default:
		*why = "no table of this CPU's root ports and counter ports (pcm-iio has none)";
		return DEV_PORT_UNKNOWN;
	}
	if (fn != 0 || dev < lo || dev > hi) {
		*why = "a root port where this generation has none of its counter ports (pcm-iio's table: function 0 "
		       "of the part's device)";
		return DEV_PORT_UNKNOWN;
	}
	return dev - base;
}

int dev_own_port(const struct host_info *h, int stack, int dmi, int *dev)
{
	*dev = 0; /* the DMI port 00.0 */
	if (!strcmp(h->vendor, "GenuineIntel") && h->family == 6 && h->model == 0x55 && stack == 0 && dmi)
		return 0; /* Skylake-SP: the PCH's functions on stack 0's root bus, part 0 as pcm lists them */
	return -1;
}
