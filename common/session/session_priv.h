/*
 * What the session files share (session.c plans, session_claims.c claims and restores,
 * session_program.c programs, session_read.c reads and stops, session_overflow.c samples,
 * session_values.c reports): the session's structures and the steps one file takes for another.
 */
#ifndef UNCORE_SESSION_PRIV_H
#define UNCORE_SESSION_PRIV_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "regs/regs.h"
#include "perf/perf.h"
#include "claims.h"
#include "util/error.h"

struct slot {
	/* what every read touches, together, in one cache line (64 bytes, the slots aligned to it: a read at
	 * 100 Hz after a sleep finds its caches cold, and a slot that straddled two lines cost two) */
	_Alignas(64) uint64_t addr; /* its counter's address ... */
	uint64_t mask;              /* ... and width mask */
	uint64_t last, acc;
	uint64_t prev; /* acc at the read before the last: the last interval is acc - prev */
	uint64_t mark; /* acc at the last read by the caller (samples in between only add to acc) */
	int ev, box, prog, ctr; /* a general counter, UC_CTR_FIXED or UC_CTR_FREERUN */
	int fr;           /* free-running counter index */
	struct pmon_reg ctl; /* its control register (not of a free-running counter) ... */
	uint64_t ctl_mask;   /* ... and the bits of it a read back compares (not the reset command) */
	int shared;       /* its counter is one another session programmed the same way: never written */
	int fd;        /* perf backend: its event's fd (-1: none) */
	uint64_t en, run, en0, run0; /* perf backend: its group's time enabled and running, now and at start */
	uint64_t raw;  /* perf backend: counted since start, unscaled */
	uint64_t mraw, men, mrun; /* perf backend: raw and its group's times since start, at the caller's last read */
	uint64_t ien, irun;       /* ... and the group's times over the last interval */
	uint64_t id;   /* perf backend: its event's id, by which a group read gives its value */
};

/* How a box is read: the baseline at start, a read by the caller (it closes an interval), or a sample the
 * library takes on its own so that no counter wraps twice unseen (it only accumulates). */
enum read_kind { READ_BASELINE, READ_USER, READ_SAMPLE };

/* The fastest any counter can count, for how often it must be sampled: no uncore clock runs above
 * 5 GHz, and no event adds more than 64 in a cycle (occupancy counts); fixed and free-running counters
 * (clocks, 32-byte bandwidth units) add at most 1. */
#define MAX_CLOCK_HZ 5e9
#define MAX_INC_PER_CYCLE 64

#define SAMPLE_SLACK_NS 1000000 /* a box read taking longer than this is repeated ... */
#define SAMPLE_TRIES 4          /* ... at most this often */

/* A box's programming: one per box, but on the perf backend one per group when its events were split. */
struct prog {
	/* what every read looks at, together in one cache line (64 bytes, the progs aligned to it: a read at 100 Hz
	 * after a sleep finds its caches cold, and a read of 168 boxes that touched three lines each paid for 500) */
	_Alignas(64) int box;
	int first;          /* its slots: schedule_all places a prog's slots together ... */
	int16_t nslots;     /* ... this many (at most UC_MAX_SLOTS) */
	int16_t batch_at;   /* where its counters lie in its turn's MSR list (turn_msrs; -1: not in it) */
	int cpu;            /* its box's CPU (box->cpu), and ... */
	uint8_t msr;        /* ... whether its registers are MSRs (read on that CPU: in its batch) */
	uint8_t moved;      /* a counter of it counted in the interval the caller's last read closed */
	uint8_t all_moved;  /* ... every one (sess_read_box says both as it reads) */
	uint8_t hflags;     /* what the reads up to the caller's last saw (SESS_BOX_ALLONES, SESS_BOX_BEYOND: session.h) */
	uint8_t hseen;      /* ... and those since */
	uint8_t taken;      /* another agent reprogrammed it (it failed): its registers are that agent's, not restored */
	uint32_t vmask;     /* the slots whose control words this read reads back (sess_plan_readback), bit k: slot k */
	char *failed;       /* why reading the box failed: its counts stopped there and are not reported */
	uint64_t t_prev, t_last; /* its last two samples ... */
	uint64_t t_read;    /* ... when it was last read or sampled */
	/* (what reads use now and then, and starting and stopping) */
	uint64_t t_start; /* when it began counting */
	int told;       /* failed, and a read or sample of the caller's said so (uncore_sleep_ns()'s samples cannot) */
	int turn;       /* when a read reads it: its CPU's place among the read's CPUs, after them when any CPU may */
	int programmed; /* has a slot other than free-running counters */
	int held;       /* this session holds the box's claim */
	int owner;      /* ... and programmed it (else it shares another session's programming) */
	int adopted;    /* ... from a record that was there before (a dead owner's, or one not restored) */
	int joined;     /* ... or shares it with other sessions, on its own counters or theirs */
	int lead[2];    /* perf backend: leaders of its counter group and its free-running group (-1: none) */
	int nmem[2];    /* ... and how many events each has */
	int mux;        /* perf backend: one of several groups the box's events were split into because they do not
			 * fit its counters together, or a group of a box the handle's sessions crowd together
			 * (sess_perf_crowd); the kernel rotates them and their counts are always scaled */
	/* (what only starting and stopping use, after what every read does) */
	struct claim_saved *own; /* the owner's own copy of the registers as found (the file may lose it) */
	int nown;
	struct claim_saved *found; /* the owner's copy once it restored the box: what uncore_session_verify reads back */
	int nfound;
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
};

/* (the fields every read looks at fill the prog's first cache line, and no more) */
_Static_assert(offsetof(struct prog, t_start) == 64, "struct prog: a read's fields outgrew one cache line");

#define SESS_OVQ 64

struct uncore_session {
	uncore_t *u;
	struct encoded *evs;
	int nevs;
	struct slot *slots;
	int nslots;
	struct prog *progs;
	int nprogs;
	int *ev_slots, *ev_first; /* slots of event e on socket k: ev_slots[ev_first[e * nsockets + k] ..
				   * ev_first[e * nsockets + k + 1]), in box order */
	uint32_t token; /* tells this session's claims from others of the same process */
	uint64_t max_read_ns; /* sample at least this often while running: half the fastest wrap */
	uint64_t t_sampled;   /* when every box was last read or sampled */
	int running, started;
	int allow_refused; /* uncore_session_allow_refused: a box refused at start is left out, not the start */
	int nrefused;      /* ... how many were */
	uint64_t perf_rf; /* perf backend: the read_format of its groups */
	int cpu_socket; /* uncore_session_set_cpu: the socket events without socket= count on, + 1 (0: all) */
	uint64_t t0, t1, tprev;
	struct session_metric *metrics; /* metrics added (metrics.c) */
	int nmetrics;
	/* overflows each read serviced (a sampled counter's overflow freezes its die until then), kept for
	 * uncore_session_overflows(): the first SESS_OVQ, and how many there were */
	uncore_overflow_t ovq[SESS_OVQ];
	int novq;
	struct health *health; /* what health/ watches on its reads (it allocates and frees it) */
	uint64_t batch_ns; /* the instant the batch read of the CPU whose boxes are being read is of (0: none) */
	/* perf backend, the turn being read: the CPU its groups' reads interrupt (sess_perf_read_cpu: its boxes share
	 * their package), -2 where each box says its own (the boxes any CPU reads); and when the last box's read
	 * ended, 0: none yet (the next box's starts there: one clock reading a box) */
	int perf_cpu;
	uint64_t perf_t;
	int *read_order;   /* the progs by their turn in a read (read_boxes), turn c's from read_from[c] on */
	int read_from[UC_MAX_SOCKETS * UC_MAX_DIES + 2], read_order_cap;
	/* the plan above is of these progs and this placement (read_boxes works it out again when either changes) */
	int read_cpus[UC_MAX_SOCKETS * UC_MAX_DIES], read_ncpus, plan_nprogs, plan_place_ok;
	const struct prog *plan_progs;
	uint32_t *batch_reg; /* a turn's MSRs (turn_msrs) and what its batch read (MAX_TURN_MSRS each,
			      * session_read.c), kept from read to read */
	uint64_t *batch_val;
	struct msr_prefetch batch;
	int read_quiet; /* the caller's last read: every counter counted, no box flagged, failed or taken */
	struct session_frozen frozen[UC_MAX_SOCKETS * UC_MAX_DIES]; /* dies the caller's last read found frozen */
	int nfrozen;
	/* the control words read back in rotation (session_readback.c): the next one (its prog and slot), the
	 * credit the reads earned (in fifths of an access, times RB_ROTATION_NS) and when they last earned it,
	 * and the accesses the counters and the control words of the boxes still read take (kept while rb_ok) */
	int rb_prog, rb_slot, rb_ok;
	uint64_t rb_credit, rb_t, rb_ctr_units, rb_ctl_units;
};

static inline const struct box *box_of(const uncore_session_t *s, int bi) { return &s->u->boxes[bi]; }
static inline const struct prog *prog_of(const uncore_session_t *s, const struct slot *sl) { return &s->progs[sl->prog]; }

/* The ev_slots range [*lo, *hi) of event ev's slots on socket (-1: every socket; none out of range). */
static inline void ev_range(const uncore_session_t *s, int ev, int socket, int *lo, int *hi)
{
	int ns = s->u->host.nsockets > 0 ? s->u->host.nsockets : 1;
	if (socket >= ns) {
		*lo = *hi = 0;
		return;
	}
	*lo = s->ev_first[ev * ns + (socket < 0 ? 0 : socket)];
	*hi = s->ev_first[socket < 0 ? (ev + 1) * ns : ev * ns + socket + 1];
}

uint64_t sess_bc_frozen(const struct box *b);
uint64_t sess_bc_running(const struct box *b);
int sess_claim(uncore_session_t *s);
int sess_leave(uncore_session_t *s);
/* A die's global overflow status and its resume (each die has its own global registers) */
int sess_glob_resume(uncore_session_t *s, int socket, int die, const uint64_t g[UC_MAX_GLOB_STATUS]);
int sess_glob_status(uncore_session_t *s, int socket, int die, uint64_t v[UC_MAX_GLOB_STATUS]);
uint64_t sess_max_read_interval(const uncore_session_t *s);
uint64_t sess_preload(const uncore_session_t *s, const struct slot *sl);
int sess_program(uncore_session_t *s);
int sess_read_box(uncore_session_t *s, struct prog *p, enum read_kind kind);
void sess_reap_dead(uncore_t *u);
int sess_release(uncore_session_t *s, int restore);
int sess_restore_own(uncore_session_t *s);
int sess_sampled(const uncore_session_t *s, int socket, int die);
/* Find, queue and re-arm every overflow of the session's sampled counters and let their dies count again
 * (0, or -1 with a message); a session that samples nothing returns at once. */
int sess_service_overflows(uncore_session_t *s);
/* Let a die count again after a dead sampler: the freeze lifted and, with no session left on it (alone),
 * its overflow status cleared too.  0, or -1 with a message. */
int sess_glob_thaw(uncore_t *u, int socket, int die, int alone);
int sess_dies(const uncore_session_t *s, int socket); /* dies of a socket, at least 1 */
/* The overflow status bits of counters ctrs (bit k: counter k) of a box cleared (a dead sampler's, which
 * nobody else would clear): 0, or -1 with a message. */
int sess_box_status_clear(uncore_t *u, const struct box *b, uint32_t ctrs);
/* After the caller's read: each die where none of the session's general counters moved, frozen by an overflow
 * no session of this handle services, has its dead sampler reaped and counts again, or is noted in s->frozen
 * with the live sampler that holds it (session_freeze.c).  Nothing to do on the perf backend. */
void sess_check_frozen(uncore_session_t *s);
/* Why joining a box other sessions hold fails (session_clash.c), as the error: filter register f holds other
 * values in bits used (by the holders) than prog pg's events need; or reqs (n of them) do not fit the counters
 * taken leaves them.  Each names the event, the bits or counters, and what holds them; returns -1. */
int sess_clash_filter(const uncore_session_t *s, const struct prog *pg, const struct claim *c, int f,
		      const uint64_t *used);
int sess_clash_counters(const uncore_session_t *s, const struct prog *pg, const struct claim *c,
			const struct sched_req *reqs, int n, uint32_t taken);
int sess_schedule_all(uncore_session_t *s, struct encoded *evs, int nevs);
/* How many of a box's control words (of the slots in which: bit k, slot k) differ from what the session counts
 * there (the first named in buf) */
int sess_ctls_changed(uncore_session_t *s, const struct prog *p, int all, uint32_t which, char *buf, size_t len);
/* Whether another agent reprogrammed the box: its control words in p->vmask read back (and the mask cleared);
 * 0, or -1 with a message that says so (p->taken set: SESS_TAKEN_HEAD, what changed, SESS_TAKEN_TAIL) or why they
 * could not be read (session_box.c).  A read that finds several boxes taken says the head and tail once, over
 * each box's change (read_boxes), so that a socket's six iMCs fit a daemon's log line. */
#define SESS_TAKEN_HEAD "taken over by another agent (a perf user, a second tool): "
#define SESS_TAKEN_TAIL "; its counts are no longer this session's events, and it is left as that agent programmed it"
int sess_verify_ctls(uncore_session_t *s, struct prog *p);
/* Which control words this read reads back (p->vmask), in rotation (session_readback.c) */
void sess_plan_readback(uncore_session_t *s);
/* The accesses one read of every counter takes (a PCI counter's two dwords count two) and those of every
 * control word, of the boxes still read */
void sess_readback_units(const uncore_session_t *s, uint64_t *ctr, uint64_t *ctl);
/* The share of the control words a read reads back, reads interval_s apart (0: not said) */
double sess_readback_share(const uncore_session_t *s, double interval_s);
struct pmon_reg sess_slot_ctl_reg(const struct box *b, const struct slot *sl);
uint64_t sess_slot_ctl(const uncore_session_t *s, const struct box *b, const struct slot *sl);
struct pmon_reg sess_slot_ctr_reg(const struct box *b, const struct slot *sl);
int sess_slot_width(const struct box *b, const struct slot *sl);
void sess_slot_set_ctr(const struct box *b, struct slot *sl, int ctr);
int sess_write_box_ctl(uncore_t *u, const struct box *b, uint64_t v);
/* The perf backend's side of a session (session_perf.c): open and enable a group per box, read it with
 * one read(2), close it; and whether an added event can go through the kernel at all. */
int sess_perf_check(uncore_session_t *s, const struct encoded *e);
int sess_perf_start(uncore_session_t *s);
/* Scale the groups of boxes the handle's running sessions and s, starting, crowd together (session_perf.c). */
void sess_perf_crowd(uncore_session_t *s);
int sess_perf_read_box(uncore_session_t *s, struct prog *p, enum read_kind kind);
int sess_perf_read_cpu(const uncore_session_t *s, const struct box *b);
void sess_perf_stop(uncore_session_t *s);

#endif
