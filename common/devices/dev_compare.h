/*
 * Each device group's bytes as its IIO port counted them, held against the bytes its devices say they moved
 * (issue 66 point 2; doc/health.md "Devices against their ports" gives the bound and why).  Pure: the
 * windows are the caller's (health_devices.c, uncore check).
 */
#ifndef UNCORE_DEV_COMPARE_H
#define UNCORE_DEV_COMPARE_H

#include <stdint.h>

/* A window is judged only from this long and with this many device bytes in a direction: a driver may
 * refresh its statistics from the hardware a second or two late, which over 10 s is at most 40 % of a
 * steady rate (2 s at each end), inside the factor below; 1 GB over 10 s is 100 MB/s, far above what
 * descriptors and doorbells of an idle device move. */
#define DEV_CMP_MIN_NS 10000000000ull
#define DEV_CMP_MIN_BYTES 1e9
/* Bytes a packet may carry on the wire that it does not move through memory, an upper bound over the
 * protocols counted: RoCEv2 over IPv6 with a VLAN (Ethernet 14 + 802.1Q 4 + IPv6 40 + UDP 8 + BTH 12 + RETH
 * 16 + ICRC 4 + FCS 4 = 102), InfiniBand (LRH 8 + GRH 40 + BTH 12 + RETH 16 + ICRC 4 + VCRC 2 = 82), the
 * headers TSO repeats in each segment a netdev counts (Ethernet 14 + 802.1Q 4 + IPv6 40 + TCP 60 = 118). */
#define DEV_CMP_WIRE_HEADER 128
/* The port counts every byte of a device's payload and more (descriptors, doorbells, completions): devices'
 * payload above this times the port's count is traffic the port does not count.  2: room for the drivers'
 * late statistics (40 %, above) and whatever a bound of headers misses, far below what a port that misses
 * the traffic shows (PCM #923: 44 GB/s of RDMA writes counted as under 1 GB/s). */
#define DEV_CMP_FACTOR 2.0

enum dev_verdict {
	DEV_CMP_OK,           /* within the bound */
	DEV_CMP_IDLE,         /* too short a window or too few bytes to judge */
	DEV_CMP_NO_COUNTERS,  /* a device of the group keeps no byte counters (a GPU): not compared */
	DEV_CMP_NO_PORT,      /* the session does not count the group's port */
	DEV_CMP_UNUSABLE,     /* a counter went backward (a reset, a driver reloaded) or saturated: the window says nothing */
	DEV_CMP_UNCOUNTED,    /* the devices moved more than the port counted: traffic the port does not count */
	DEV_CMP_STOPPED,      /* the devices' counters did not move while the port moved bytes */
	DEV_CMP_ELSEWHERE,    /* the devices' bytes are on another port (other): the stack-to-bus map is wrong */
	DEV_CMP_VERDICTS
};
extern const char *const dev_verdict_names[DEV_CMP_VERDICTS];

/* One IIO port over one window: its count, and its group's devices' where the map puts a group there */
struct dev_cmp {
	int socket, stack, port;
	int group;                /* the device group on the port (-1: none: a port the map puts no device on) */
	int devices;              /* ... how many devices it has (0: an empty port) */
	int has_iio;              /* the session counts the port's bytes */
	double iio_in, iio_out;   /* bytes the port counted: into memory, out of it (NAN: a direction not counted,
				   * not judged) */
	int counters;             /* every device of the group keeps byte counters */
	int usable;               /* ... and none went backward or saturated over the window */
	double dev_in, dev_out;   /* the devices' bytes over the window */
	double pkts_in, pkts_out; /* ... and their packets */
	uint64_t ns;              /* the window */
	/* what dev_compare decides */
	int verdict;              /* enum dev_verdict */
	int other;                /* DEV_CMP_ELSEWHERE: the index of the port that counted the bytes */
	double pay_in, pay_out;   /* the least payload the devices moved through memory (bytes less headers) */
};

/* Each port's verdict (c[i].verdict, .other, .pay_*), ports of a window judged together: a device's bytes that
 * its port missed are looked for on the other ports of its socket. */
void dev_compare(struct dev_cmp *c, int n);

#endif
