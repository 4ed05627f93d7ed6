/*
 * Claims: which boxes are programmed, by whom, and what they held before.
 * Sessions of every process on a machine share one claims file (locked with
 * flock while a session starts or stops), so sessions share a box counter by
 * counter: a later session attaches to a counter programmed the same way or
 * takes a free one, and the last one to leave puts back the registers found.
 *
 * The file is trusted only as far as its owner: it must be a regular file
 * that every user may not open (root's, or the caller's; root's only root may
 * open, see CLAIMS_GROUP_SUFFIX), reached without
 * following a link, through directories nobody else can write to.  Whatever
 * a record says, it names registers by kind and index inside its own box
 * (never by address), and every record is checked against the boxes of this
 * machine when it is loaded.
 */
#ifndef UNCORE_CLAIMS_H
#define UNCORE_CLAIMS_H

#include <stdint.h>
#include <sys/types.h>
#include "regs/regs.h"
#include "platform/platform.h"

#define CLAIM_HOLDERS 64
#define CLAIM_SAVED 48 /* at least PMON_MAX_REGS */
#define CLAIMS_LOCK_TIMEOUT_MS 3000
/* Who trusts which file: a privileged process (euid 0) keeps its claims in the claims file, which only
 * root may open; every other process in the file of that name with this suffix (the group's, in a
 * msr-safe deployment).  Root reads the group's file only to leave alone the MSR boxes a live member
 * session counts on (members cannot program PCI or MMIO boxes), and never restores from it. */
#define CLAIMS_GROUP_SUFFIX ".group"

struct claim_saved {
	uint8_t kind, idx; /* enum pmon_kind and index, in the claim's box */
	uint8_t pad[6];
	uint64_t val;
};

#define CLAIM_FIXED UC_MAX_CTR /* the fixed counter's bit in a holder's counters */

struct claim_holder {
	int32_t pid;
	uint32_t token;
	uint64_t start; /* the process's start time (/proc/PID/stat field 22): a reused pid is not a holder */
	uint32_t ctrs;  /* the counters its events use, programmed by it or shared (bit CLAIM_FIXED: the fixed one) */
	uint32_t pad;
	uint64_t fmask[UC_MAX_FILT]; /* the filter bits its events need */
};

/* A box in use: sessions hold counters, not the whole box (the kernel's way).  Counters nobody holds are
 * free for the next session; the box control and filters are shared, and put back by the last holder. */
struct claim {
	char unit[16];
	int32_t socket, idx;
	int32_t nholders, nsaved;
	uint64_t ctl[UC_MAX_CTR + 1]; /* what each counter held is programmed with (the fixed one last) */
	uint64_t fval[UC_MAX_FILT];   /* the filter registers' values while held */
	struct claim_holder h[CLAIM_HOLDERS];
	struct claim_saved sv[CLAIM_SAVED]; /* the registers as found, in the order they were saved */
};

struct uncore;
struct box;
/* Open (or create) the claims file, refusing an unsafe one with a warning: the claims then stay in memory. */
int claims_open(struct uncore *u);
/* Take the machine-wide lock (waiting at most CLAIMS_LOCK_TIMEOUT_MS) and load the claims. */
int claims_lock(struct uncore *u);
/* Write the claims to the file, keeping the lock: before a register is written, so that a process killed
 * at any instant leaves a record of what it found (the next session restores it). */
int claims_write(struct uncore *u);
void claims_unlock(struct uncore *u);
/* The claims as the file holds them, read without the lock (a stop that could not have it): the header
 * names a complete copy checked by its sum, so this sees the records before or after a writer's change;
 * -1 when no whole copy could be read.  Nothing may be written from it. */
int claims_peek(struct uncore *u);
/* A session that could not have the lock to leave: its records are dropped at the next lock. */
int claims_gone(struct uncore *u, uint32_t token);
int claims_pending(const struct uncore *u);
/* Remove the holders that no longer run; returns the pid of one of them (0: none left), and in *gone_ctrs
 * (NULL: not wanted) the counters only they held. */
int claims_prune(struct uncore *u, struct claim *c, uint32_t *gone_ctrs);
/* A holder's process state as /proc/PID/stat gives it ('R', 'S', 'T' stopped, 't' traced ...; '?' where
 * /proc does not say; 'R' this process), or 0 when the holder no longer runs. */
char claims_holder_state(const struct uncore *u, const struct claim_holder *h);
/* The claims loaded (every record names a box of this machine), one by one. */
int claims_count(const struct uncore *u);
struct claim *claims_at(struct uncore *u, int i);
const struct box *claims_box(const struct uncore *u, const struct claim *c);
/* The claim on a box (holders are as loaded: claims_prune drops the dead); with create, a new empty one
 * if none. */
struct claim *claims_get(struct uncore *u, const struct box *b, int create);
int claims_hold(struct uncore *u, struct claim *c, uint32_t token, uint32_t ctrs, const uint64_t *fmask);
/* The counters the holders use (but the session token's own hold), and the filter bits they need. */
uint32_t claims_busy(const struct claim *c, uint32_t token);
void claims_filter_bits(const struct claim *c, uint64_t fmask[UC_MAX_FILT]);
/* The counters session token holds. */
uint32_t claims_ctrs_of(const struct claim *c, uint32_t token);
/* Returns the number of holders left. */
int claims_drop(struct claim *c, uint32_t token);
void claims_remove(struct uncore *u, struct claim *c);
/* Removing many records one by one moves the records after each (some 6 kB apiece) every time, quadratic
 * in the boxes a session held: claims_remove_later marks one (it names no box any more, so claims_get and
 * claims_box pass it by) and claims_compact drops the marked ones in one pass, keeping the others' order. */
void claims_remove_later(struct claim *c);
void claims_compact(struct uncore *u);
/* Privileged processes: the pid of a live holder of box b in the group's file (MSR boxes only; *rec its
 * record), or 0. */
int claims_peer_pid(struct uncore *u, const struct box *b, const struct claim **rec);
/* The file's format, for tests that forge one: FNV-1a of the records, and where copy 0 or 1 of them lies. */
uint64_t claims_sum(const void *p, size_t len);
/* (copy 2: the end of copy 1, the whole file's size) */
off_t claims_copy_offset(const struct uncore *u, int copy);
/* The file this process keeps its claims in ("": none). */
const char *claims_file(const struct uncore *u);
void claims_free(struct uncore *u);

#endif
