/*
 * The simulated machine's PCI devices behind its IIO stacks (issue 66 point 1): the set the devices=
 * option names (a default one otherwise), each stack's root bus, and the sysfs tree a kernel shows of them.
 */
#ifndef UNCORE_SIM_PCITREE_H
#define UNCORE_SIM_PCITREE_H

#include <stdint.h>
#include "util/memfs.h"

struct sim;
/* devices=LIST: items "KIND@SOCKET.STACK.PORT" joined by '+', KIND nic, ib, nvme, gpu, gpusw (a PCIe switch
 * with two GPUs), vga (a BMC's VGA behind its PCIe-to-PCI bridge), usb (a USB controller) or empty (a root port
 * with nothing below), and on a board's accelerator stack dsa, iaa (port 0), qat (4), dlb (5), root-complex
 * endpoints at pcm's places; "none": no device.  A board's DMI stack takes its items behind the PCH's root port,
 * and usb (there the PCH's xHCI at 14.0 of bus 0), at the DMI part.  The default when no devices= is given (a board's own
 * where the machine is laid out by one, sim_board), a two-socket GPU node's (its items on sockets and stacks
 * the machine has): an Ethernet NIC and two NVMe drives, a switch with two GPUs beside an empty port, an InfiniBand HCA on socket 0; a
 * switch with two GPUs and an NVMe drive, an HCA, a GPU and an Ethernet NIC on socket 1 */
#define SIM_DEVICES_DEFAULT                                                                                      \
	"nic@0.1.0+nvme@0.1.1+nvme@0.1.2+gpusw@0.2.0+empty@0.2.1+ib@0.3.0+gpusw@1.1.0+nvme@1.1.1+ib@1.2.0+"        \
	"gpu@1.3.0+nic@1.4.0"
/* devices=VALUE checked and kept: 0, or -1 with a message. */
int sim_devices_option(struct sim *s, const char *v);

/* What an endpoint is: its DMA rates and counters go by it (sim_devdma.c) */
enum { SIM_DEV_NIC, SIM_DEV_IB, SIM_DEV_NVME, SIM_DEV_GPU, SIM_DEV_DSA, SIM_DEV_IAA, SIM_DEV_QAT, SIM_DEV_DLB, SIM_DEV_USB,
       SIM_DEV_CBDMA, SIM_DEV_KINDS };

/* One endpoint of the set: the truth tests hold the map against */
struct sim_pcidev {
	int socket, die, stack, port; /* the IIO stack and the root port's place on it */
	char bdf[16];
	uint16_t vendor, device;
	uint32_t class_code;
	const char *driver;
	char name[24];
	int behind_switch, node;
	const char *behind; /* what holds it below its root port, as uncore_device_group says it ("": nothing) */
	int kind; /* SIM_DEV_* */
	/* the machine's table (sim_devdma.c): DMA payload bytes/s the device writes into memory (in) and reads
	 * from it (out), the descriptor and completion bytes per payload byte its port also counts, and its faults:
	 * uncounted (its port counts none of its DMA), frozen from frozen_ns on (its own counters stop) */
	double in_bps, out_bps, overhead;
	int uncounted, frozen;
	uint64_t frozen_ns;
};
/* The endpoints, up to max: how many, or -1 with a message (a stack or port the machine does not have). */
int sim_pci_devices(const struct sim *s, struct sim_pcidev *out, int max);
/* The stack's root bus where its devices are, whatever a fault makes the machine show (sim_iio_root_bus) */
int sim_iio_tree_bus(const struct sim *s, int socket, int die, int stack);
/* The root bus of the stack-th IIO box of a socket's die as the machine shows it (the kernel's
 * uncore_iio_<n>/die<d>, the simulator's answer; with fault swapped:stackmap two stacks show each other's):
 * the bus, or -1 when there is no such box. */
int sim_iio_root_bus(const struct sim *s, int socket, int die, int stack);
/* The IIO boxes of one die (the stacks). */
int sim_iio_stacks(const struct sim *s);
/* The sysfs files a kernel shows of the set (/sys/devices/pci*, /sys/bus/pci/devices), and the uncore
 * driver's stack-to-bus attributes (/sys/devices/uncore_iio_<n>/die<d>) where Linux has them: 0, or -1. */
int sim_pci_sysfs(const struct sim *s, struct memfs *m);

#endif
