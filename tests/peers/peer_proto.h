/*
 * What the device-file preload (devfiles.c) asks the machine's host (sim_host.c) over its socket: one
 * register access a request, answered before the next.  Both ends are built from this header for this
 * machine (the preload runs in the peer, under qemu-user too: x86-64 either way).
 */
#ifndef PEER_PROTO_H
#define PEER_PROTO_H

#include <stdint.h>

enum peer_op {
	PEER_MSR_READ = 1, /* cpu a, msr addr */
	PEER_MSR_WRITE,    /* ... val */
	PEER_PCI_READ,     /* dom a, bus b, dev c, fn d, dword offset addr */
	PEER_PCI_WRITE,    /* ... val */
	PEER_MMIO_READ,    /* phys addr, len bytes (at most PEER_MAX_DATA) */
	PEER_MMIO_WRITE,   /* ... val, len 4 or 8 */
	PEER_COUNTS,       /* the accesses and the simulator's protocol checks, as text in data */
};

#define PEER_MAX_DATA 512

struct peer_req {
	uint32_t op, len;
	int32_t a, b, c, d;
	int32_t tid;      /* the peer's thread that asked (its kernel id): the trace tells a program's threads apart */
	uint32_t unused_; /* (padding: addr stays 8-aligned) */
	uint64_t addr, val;
};

struct peer_rsp {
	int32_t rc;  /* 0, or the errno the kernel's device would give (EIO: no such register) */
	uint32_t len; /* bytes of data that follow the response */
	uint64_t val;
};

/* Where the ECAM window of the MCFG table lies in physical memory (segment 0 at its base, 1 MiB a bus; each
 * further segment 256 MiB above): a real board's usual base (ACPI MCFG of Purley and Whitley boards). */
#define PEER_ECAM_BASE 0x80000000ull
#define PEER_ECAM_SEG_LEN 0x10000000ull

#endif
