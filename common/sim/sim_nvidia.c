/*
 * /proc/driver/nvidia/gpus/<bdf>/information as the NVIDIA driver prints it for a simulated GPU (the
 * simulator's GPUs are 10de:2330, an H100 SXM5): the fields in the driver's order and layout (its procfs
 * code: a tab after each name's colon, "Model:" and "IRQ:" two, "GPU Excluded:" none before it) -- Model,
 * IRQ, GPU UUID, Video BIOS, Bus Type, DMA Size, DMA Mask, Bus Location, Device Minor, GPU Firmware (printed
 * where the GPU runs GSP firmware, as Hopper does), GPU Excluded -- with the values a real H100 80GB HBM3
 * shows there (driver 535.129.03: VBIOS 96.00.99.00.01, 52-bit DMA).  Readers find a field by its name:
 * the jobs' devices "Device Minor:" (common/jobs/job_devs.c), the exporter's GPU labels "GPU UUID:" too.
 */
#include <stdio.h>
#include "sim_nvidia.h"

int sim_nvidia_info(char *buf, size_t len, const char *bdf, int minor)
{
	unsigned dom, bus, dev, fn;
	char end;
	if (sscanf(bdf, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) != 4)
		return -1;
	/* the UUID: "GPU-" and 128 bits as 8-4-4-4-12 hex digits, as the driver prints them; the simulator's own,
	 * made of the BDF so that each GPU of a machine has its own, the same at every start */
	int n = snprintf(buf, len,
			 "Model: \t\t NVIDIA H100 80GB HBM3\n"
			 "IRQ:   \t\t %u\n"
			 "GPU UUID: \t GPU-51a0c0de-%04x-%04x-8000-%012x\n"
			 "Video BIOS: \t 96.00.99.00.01\n"
			 "Bus Type: \t PCIe\n"
			 "DMA Size: \t 52 bits\n"
			 "DMA Mask: \t 0xfffffffffffff\n"
			 "Bus Location: \t %04x:%02x:%02x.%x\n"
			 "Device Minor: \t %d\n"
			 "GPU Firmware: \t 535.129.03\n"
			 "GPU Excluded:\t No\n",
			 16 + bus % 200, dom & 0xffff, bus << 8 | dev << 3 | fn, (unsigned)minor, dom, bus, dev, fn, minor);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
