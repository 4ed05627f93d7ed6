/* Internal state shared by the library's modules. */
#ifndef UNCORE_PRIV_H
#define UNCORE_PRIV_H

#include "uncore.h"
#include "access.h"
#include "platform.h"

struct uncore {
	struct access *acc;
	char backend[160];
	struct host_info host;
	const struct platform_desc *plat;
	struct box *boxes;
	int nboxes;
};


/* An event spec resolved against the platform: what to write where. */
struct encoded {
	const struct box_type *bt;
	int type_idx;
	const struct uc_event *ev; /* NULL for a raw event */
	uint64_t ctl;              /* control word, enable bit included */
	unsigned ctr_mask;         /* allowed counters; unused when fixed */
	int fixed;
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
	int socket, box;           /* -1 = all */
	char name[200];
};

int spec_parse(const uncore_t *u, const char *spec, struct encoded *out);

/* Counter assignment inside one box. */
struct sched_req {
	const struct encoded *enc;
	int ctr; /* result: counter index, -1 = fixed */
};
/* Assign counters and merge filters; returns 0 or -1 with a message naming the conflict. */
int sched_box(const struct box *b, struct sched_req *reqs, int n, uint64_t *fval, uint64_t *fmask);

/* Register helpers used by sessions (counter widths and PCI dword pairs handled here). */
int reg_read_ctl(uncore_t *u, const struct box *b, uint32_t addr, int companion, uint64_t *v);
int reg_write_ctl(uncore_t *u, const struct box *b, uint32_t addr, int companion, uint64_t v);
int reg_read_counter(uncore_t *u, const struct box *b, uint32_t addr, uint64_t *v);
int reg_write_counter(uncore_t *u, const struct box *b, uint32_t addr, uint64_t v);
/* Read several counters of one box consistently (PCI: 2x32-bit halves). */
int reg_read_counters(uncore_t *u, const struct box *b, const uint32_t *addr, int n, uint64_t *v);

#endif
