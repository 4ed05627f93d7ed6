/* `uncore check` (cli_check.c): its traffic generators (check_gen.c) and its verdict table (check_verdict.c). */
#ifndef UNCORE_CHECK_H
#define UNCORE_CHECK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t */
#endif
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

enum gen_kind { GEN_READ, GEN_WRITE, GEN_COPY };
struct gen {
	enum gen_kind kind;
	size_t bytes;
	void *a, *b;
	int pinned;        /* the CPU it runs on, -1: not pinned (a simulated socket has no CPU here) */
	cpu_set_t saved;   /* the caller's affinity, given back by gen_free */
	uint64_t read_bytes, write_bytes, ns; /* what the run moved, and how long it took */
	uint64_t sink;
};
const char *gen_name(enum gen_kind k);
/* Buffers of bytes (rounded down to a cache line) touched from cpu (-1: any): 0, or -1 with err. */
int gen_prepare(struct gen *g, enum gen_kind k, int cpu, size_t bytes, char *err, size_t len);
/* The measured run. */
void gen_go(struct gen *g);
void gen_free(struct gen *g);

/* One row of the verdict: the check, what was expected and measured, PASS / FAIL / SKIP and why. */
enum verdict { V_PASS, V_FAIL, V_SKIP };
struct verdict_row {
	char check[96], expected[96], measured[96], why[200];
	enum verdict v;
};
struct verdicts {
	struct verdict_row *rows;
	int n, cap;
};
/* Add a row (printf-style why); -1 out of memory. */
int verdict_add(struct verdicts *t, enum verdict v, const char *check, const char *expected, const char *measured,
		const char *why_fmt, ...) __attribute__((format(printf, 6, 7)));
/* The table as text columns, or one JSON object a row; how many rows failed. */
int verdict_print(const struct verdicts *t, int json, const char *backend);
void verdict_free(struct verdicts *t);

#endif
