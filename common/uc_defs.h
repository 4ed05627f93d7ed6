/* Definitions every part of the project shares, the simulator included. */
#ifndef UNCORE_UC_DEFS_H
#define UNCORE_UC_DEFS_H

#define UC_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define UC_PCI_VENDOR_INTEL 0x8086

#endif
