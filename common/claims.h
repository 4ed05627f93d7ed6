/*
 * Claims: which boxes are programmed, by whom, and what they held before.
 * Sessions of every process on a machine share one claims file (locked with
 * flock while a session starts or stops), so a box is programmed once, later
 * sessions with the same programming attach to it without touching it, and
 * the last one to leave puts back the registers the first one found.
 */
#ifndef UNCORE_CLAIMS_H
#define UNCORE_CLAIMS_H

#include <stdint.h>

#define CLAIM_HOLDERS 64
#define CLAIM_SAVED 48

struct claim_saved {
	uint64_t addr, val;
	int32_t companion, counter, bytes, pad;
};

struct claim {
	char unit[16];
	int32_t socket, idx;
	uint64_t sig; /* hash of the box's programming: counters, control words, filters */
	int32_t nholders, nsaved;
	struct {
		int32_t pid;
		uint32_t token;
	} h[CLAIM_HOLDERS];
	struct claim_saved sv[CLAIM_SAVED]; /* the registers as found, in the order they were saved */
};

struct uncore;
struct box;
/* Take the machine-wide lock and load the claims (the file is opened on first use). */
int claims_lock(struct uncore *u);
/* Write the claims back and release the lock. */
int claims_unlock(struct uncore *u);
/* The claim on a box, holders that no longer run removed; with create, a new empty one if none. */
struct claim *claims_get(struct uncore *u, const struct box *b, int create);
int claims_hold(struct claim *c, uint32_t token);
/* Returns the number of holders left. */
int claims_drop(struct claim *c, uint32_t token);
void claims_remove(struct uncore *u, struct claim *c);
/* The process id of a holder other than this session, for messages. */
int claims_other_pid(const struct claim *c, uint32_t token);
void claims_free(struct uncore *u);

#endif
