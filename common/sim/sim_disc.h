/*
 * Building a simulated discovery-table machine (SPR, EMR and generic: spr_family_sim.c; GNR, SRF,
 * CWF: platforms/gnr/sim.c): per socket a discovery device whose DVSEC names a 64-bit BAR holding
 * the table (seed 001 Tables 1-13, 1-14; Linux uncore_discovery.h), the UBox node-id device, and
 * units appended to the table as they are placed.  The faults every such table can carry are here too.
 */
#ifndef UNCORE_SIM_DISC_H
#define UNCORE_SIM_DISC_H

#include <stdint.h>
#include "sim/sim.h"

#define SIM_DISC_STRIDE 4 /* 8-byte words per table block */

struct sim_disc_table {
	uint8_t *data;
	int n;    /* units so far */
	int gsp;  /* the next Global Status Position */
	int blob; /* its index in the machine's tables (s->blobs) */
	int max;  /* units it has room for: one more is refused, not written past its end */
	uint64_t pci_enable; /* ORed into each PCI unit's address (sim_disc_pci): bit 31 where the part sets it */
};

void sim_disc_put64(uint8_t *p, uint64_t v);
uint64_t sim_disc_get64(const uint8_t *p);
/* The table entry of unit slot i (0 = the first unit). */
uint8_t *sim_disc_entry(const struct sim_disc_table *t, int i);
/* The table of logical die scope (sim_box_scope; the socket where it has one die), room for max units, at
 * BAR bar; its discovery device at bus:0.2 and its UBox device (node id node, GIDNIDMAP gidnidmap), both
 * on NUMA node scope.  Tables are made in scope order: blob k is scope k's. */
int sim_disc_socket(struct sim *s, struct sim_disc_table *t, int scope, int bus, uint64_t bar, int max, uint32_t node,
		    uint32_t gidnidmap);
/* Close socket sock's table: the global block (access MSR, units, stride, global control and status). */
void sim_disc_finish(struct sim *s, struct sim_disc_table *t);
/* The same with the global control's access (0 MSR, 1 MMIO), address and the status' offset from it. */
void sim_disc_finish_at(struct sim_disc_table *t, int access, uint64_t ctl, unsigned status_off);
/* A table alone: room for max units at physical address bar, readable as plain bytes. */
int sim_disc_table_new(struct sim *s, struct sim_disc_table *t, uint64_t bar, int max);
/* A discovery device of PCI id id at bus:0.2 on NUMA node scope whose DVSEC names bar (0x09A7: Linux
 * UNCORE_DISCOVERY_TABLE_DEVICE; 0x09A1: DMR_UNCORE_DISCOVERY_TABLE_DEVICE, 6daf2c35b835). */
int sim_disc_device(struct sim *s, int bus, uint64_t bar, int scope, uint16_t id);
/* A unit at an MSR or MMIO address ctl (its unit control); NULL when the machine is full (error set). */
struct sim_box *sim_disc_placed(struct sim *s, struct sim_disc_table *t, const struct sim_unit *u, int sock, int id,
				uint64_t ctl);
/* An entry for unit id of u at ctl that no box answers (tables listing more units than there are): 0, or -1
 * with a message when the table is full. */
int sim_disc_listed(struct sim_disc_table *t, const struct sim_unit *u, int id, uint64_t ctl);
/* A PCI unit on bus:dev.fn with the unit's device id of box id; its registers are config offsets. */
struct sim_box *sim_disc_pci(struct sim *s, struct sim_disc_table *t, const struct sim_unit *u, int sock, int id,
			     int bus, int dev, int fn);
/* Once every socket is built: each socket's memory channels (the boxes of unit imc), for the workload model. */
void sim_disc_count_channels(struct sim *s, const struct sim_unit *imc);
/* Fault missing of a discovered unit: its entry reads 0, as firmware leaves out a unit it hides. */
int sim_disc_hide(struct sim *s, struct sim_box *b);
/* Faults of a discovery entry: corrupt, badaddr, dupid, badwidth, nctr, width64. */
#define SIM_DISC_FAULTS "corrupt, badaddr, dupid, badwidth, nctr, width64"
int sim_disc_fault(struct sim *s, const char *kind, struct sim_box *b);

/* The shared workload model (sim_disc_rates.c): events per second of one box (a CHA's I/O requests the
 * traffic of its socket's nstacks IIO stacks, the profile's where nstacks is 0). */
double sim_disc_cha_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int nstacks);
double sim_disc_upi_rate(const struct sim_profile *p, int sock, unsigned ev, unsigned um, int links);
/* IIO box b's traffic, one of its socket's nstacks: its ports' bytes/s (devices' DMA where they have devices),
 * DATA_REQ_OF_CPU counts, and free-running counter n's counts of bytes each (port skew of fault portmap) */
double sim_disc_iio_ports_bps(const struct sim *s, const struct sim_box *b, int in, unsigned mask, int nstacks);
double sim_disc_iio_req_rate(const struct sim *s, const struct sim_box *b, unsigned um, uint32_t ext, int nstacks);
double sim_disc_iio_fr_rate(const struct sim *s, const struct sim_box *b, const char *n, int nstacks, double bytes);

/* What sets a machine's model apart: its UPI links and IIO stacks, and its own units' events (own returns
 * the rate, or -1 for the shared model's). */
struct sim_disc_model {
	int links, stacks;
	double (*own)(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl);
};
/* A programmed counter's events per second (not the fixed or free-running ones): edge and invert forms
 * count 0, CHA, thresholds, then m->own, then UPI, IIO DATA_REQ_OF_CPU, PCU C-state occupancy, clockticks. */
double sim_disc_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, const struct sim_disc_model *m);

#endif
