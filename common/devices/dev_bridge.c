/*
 * What holds a root port's devices when a bridge sits below the port: a PCIe switch, or a PCIe-to-PCI bridge with a
 * conventional PCI bus behind it (a BMC's video behind its bridge: the ASPEED AST1150 1a03:1150, the Pilot4 19a2:0120
 * a Lenovo SR650 V2 lists, "Express (v2) PCI-Express to PCI/PCI-X Bridge").  Both are class 0x0604; the PCI Express
 * Base Specification's device/port type tells them apart: bits 7:4 of the PCI Express Capabilities register, at
 * offset 2 of the capability of id 0x10, found through the capability list that starts at 0x34 where bit 4 of the
 * status register (0x06) says there is one (Linux include/uapi/linux/pci_regs.h: PCI_STATUS_CAP_LIST,
 * PCI_CAPABILITY_LIST, PCI_CAP_ID_EXP, PCI_EXP_FLAGS_TYPE; PCI_EXP_TYPE_UPSTREAM 0x5 a switch's upstream port,
 * PCI_EXP_TYPE_PCI_BRIDGE 0x7 a PCI Express to PCI/PCI-X bridge; pci_find_capability's walk: offsets from 0x40 on,
 * dword-aligned, at most 48 hops).
 *
 * Where that cannot be read (a user other than root reads the first 64 bytes of a config space; a snapshot that kept
 * no config bytes), the tree's shape says what it can: a switch's internal bus holds its downstream ports, which are
 * bridges, and no endpoint (the specification's Switch: endpoints do not appear there as peers of the downstream
 * ports), so a bridge with an endpoint directly below it is no switch, but a bridge to a PCI bus; one with bridges
 * alone below it is taken for a switch; one with nothing below it is "a bridge", its kind unknown.
 */
#include <stdio.h>
#include <stdint.h>
#include "dev_map.h"

#define CFG_STATUS 0x06
#define CFG_STATUS_CAP_LIST 0x10
#define CFG_CAP_LIST 0x34
#define CAP_ID_EXP 0x10
#define EXP_TYPE_UPSTREAM 0x5
#define EXP_TYPE_PCI_BRIDGE 0x7
#define CAP_TTL 48

const char DEV_BEHIND_SWITCH[] = "a PCIe switch";
const char DEV_BEHIND_PCI_BRIDGE[] = "a PCIe-to-PCI bridge";
const char DEV_BEHIND_BRIDGE[] = "a bridge";

/* The function's PCI Express device/port type (0-15), or -1 where its config space does not say */
static int port_type(const struct dev_fs *fs, const char *bdf)
{
	char p[96];
	uint8_t b[2];
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/config", bdf);
	if (dev_fs_bytes(fs, p, CFG_STATUS, b, 1) || !(b[0] & CFG_STATUS_CAP_LIST) || dev_fs_bytes(fs, p, CFG_CAP_LIST, b, 1))
		return -1;
	unsigned at = b[0];
	for (int hops = 0; hops < CAP_TTL && at >= 0x40; hops++) {
		at &= ~3u;
		if (dev_fs_bytes(fs, p, (long)at, b, 2))
			return -1;
		if (b[0] == CAP_ID_EXP)
			return dev_fs_bytes(fs, p, (long)at + 2, b, 1) ? -1 : b[0] >> 4;
		at = b[1];
	}
	return -1;
}

const char *dev_bridge_kind(const struct dev_fs *fs, const struct dev_tree *t, int bridge)
{
	int type = port_type(fs, t->v[bridge].d.bdf), endpoints = 0, bridges = 0;
	if (type == EXP_TYPE_UPSTREAM)
		return DEV_BEHIND_SWITCH;
	if (type == EXP_TYPE_PCI_BRIDGE)
		return DEV_BEHIND_PCI_BRIDGE;
	for (int i = 0; i < t->n; i++)
		if (t->v[i].parent == bridge)
			*(t->v[i].bridge ? &bridges : &endpoints) += 1;
	return endpoints ? DEV_BEHIND_PCI_BRIDGE : bridges ? DEV_BEHIND_SWITCH : DEV_BEHIND_BRIDGE;
}
