/*
 * Golden register vectors (platforms/<platform>/vectors.vec), in the spirit of libpfm4's validate_x86:
 * each case names events and, written by hand from the manuals, the exact ordered register writes
 * of programming them (start), the registers a read samples (read), and the ordered writes that
 * put the machine back (stop).  The cases are replayed through the public API on the simulator with
 * every register access recorded at the access layer; any difference fails with both lists printed.
 * See platforms/VECTORS.md for the format and the protocol the writes follow.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "sim_helpers.h"

#define MAXACC 8192 /* the read phase records a rotation of reads */
#define MAXEV 16
#define READS_A_ROTATION 14 /* see run_case */

struct acc {
	char kind;       /* 'r' or 'w' */
	char where[24];  /* msr:SOCKET, pci:BB:DD.F, mmio */
	uint64_t addr, val;
};

struct phase {
	struct acc a[MAXACC];
	int n;
};

enum { P_NONE = -1, P_START, P_READ, P_STOP, P_N };
static const char *const phase_name[P_N] = { "start", "read", "stop" };

static struct phase got[P_N], want[P_N];
static int cur = P_NONE;
static const struct access_ops *real;
static struct access_ops traced;
static int cores = 1;

static void record(char kind, const char *where, uint64_t addr, uint64_t val)
{
	struct phase *p;
	if (cur == P_NONE)
		return;
	p = &got[cur];
	if (p->n == MAXACC)
		return;
	p->a[p->n] = (struct acc){ kind, "", addr, val };
	snprintf(p->a[p->n].where, sizeof(p->a[p->n].where), "%s", where);
	p->n++;
}

static void pci_where(char *w, size_t len, const struct pci_loc *l)
{
	snprintf(w, len, "pci:%02x:%02x.%d", l->bus, l->dev, l->fn);
}

static int t_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	char w[24];
	snprintf(w, sizeof(w), "msr:%d", cpu / cores);
	record('r', w, reg, 0);
	return real->msr_read(a, cpu, reg, val);
}

/* a CPU's MSRs in one batch (the library's reads on their CPU): each register read, as one by one */
static int t_msr_read_batch(struct access *a, int cpu, const uint32_t *regs, int n, uint64_t *vals, uint64_t *at)
{
	char w[24];
	snprintf(w, sizeof(w), "msr:%d", cpu / cores);
	for (int i = 0; i < n; i++)
		record('r', w, regs[i], 0);
	return real->msr_read_batch(a, cpu, regs, n, vals, at);
}

static int t_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	char w[24];
	snprintf(w, sizeof(w), "msr:%d", cpu / cores);
	record('w', w, reg, val);
	return real->msr_write(a, cpu, reg, val);
}

static int t_pci_read(struct access *a, const struct pci_loc *l, uint32_t off, void *buf, size_t len)
{
	char w[24];
	pci_where(w, sizeof(w), l);
	for (size_t k = 0; k < len; k += 4) /* registers are dwords: a block read reads each */
		record('r', w, off + k, 0);
	return real->pci_read(a, l, off, buf, len);
}

static int t_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val)
{
	char w[24];
	pci_where(w, sizeof(w), l);
	record('w', w, off, val);
	return real->pci_write32(a, l, off, val);
}

static int t_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	record('r', "mmio", phys, 0);
	return real->mmio_read(a, phys, buf, len);
}

static int t_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	record('w', "mmio", phys, val);
	return real->mmio_write(a, phys, val, bytes);
}

/* ---- the vector file ---- */

struct vcase {
	char name[64], open[128];
	char ev[MAXEV][160];
	int nev, line;
};

static void print_acc(const char *tag, const struct acc *a)
{
	if (a->kind == 'w')
		fprintf(stderr, "      %s w %s 0x%" PRIx64 " 0x%" PRIx64 "\n", tag, a->where, a->addr, a->val);
	else
		fprintf(stderr, "      %s r %s 0x%" PRIx64 "\n", tag, a->where, a->addr);
}

static void print_phase(const char *tag, const struct phase *p)
{
	for (int i = 0; i < p->n; i++)
		print_acc(tag, &p->a[i]);
}

static int acc_eq(const struct acc *x, const struct acc *y)
{
	return x->kind == y->kind && !strcmp(x->where, y->where) && x->addr == y->addr && (x->kind == 'r' || x->val == y->val);
}

/* writes of a phase, in order */
static void writes_of(const struct phase *in, struct phase *out)
{
	out->n = 0;
	for (int i = 0; i < in->n; i++)
		if (in->a[i].kind == 'w')
			out->a[out->n++] = in->a[i];
}

/* reads of a phase as a set */
static int in_set(const struct phase *p, const struct acc *a)
{
	for (int i = 0; i < p->n; i++)
		if (acc_eq(&p->a[i], a))
			return 1;
	return 0;
}

static void reads_of(const struct phase *in, struct phase *out)
{
	out->n = 0;
	for (int i = 0; i < in->n; i++)
		if (in->a[i].kind == 'r' && !in_set(out, &in->a[i]))
			out->a[out->n++] = in->a[i];
}

static int compare(const struct vcase *c, int ph)
{
	static struct phase g, w; /* (too large for the stack) */
	int ok = 1;
	if (ph == P_READ) {
		reads_of(&got[ph], &g);
		reads_of(&want[ph], &w);
		ok = g.n == w.n;
		for (int i = 0; ok && i < w.n; i++)
			ok = in_set(&g, &w.a[i]);
	} else {
		writes_of(&got[ph], &g);
		writes_of(&want[ph], &w);
		ok = g.n == w.n;
		for (int i = 0; ok && i < w.n; i++)
			ok = acc_eq(&g.a[i], &w.a[i]);
	}
	if (!ok) {
		fprintf(stderr, "FAIL vector %s (line %d), %s %s differ:\n", c->name, c->line, phase_name[ph],
			ph == P_READ ? "reads (as a set)" : "writes (in order)");
		print_phase("want", &w);
		print_phase("got ", &g);
	}
	return ok;
}

static int run_case(const struct vcase *c)
{
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	int ok = 1;
	memset(got, 0, sizeof(got));
	cur = P_NONE;
	if (uncore_open(c->open, &u)) {
		fprintf(stderr, "FAIL vector %s: open %s: %s\n", c->name, c->open, uncore_error());
		return 0;
	}
	struct sim *sim = sim_of(u->acc);
	cores = sim->cores;
	/* a machine nobody used: the simulator's leftovers of "an earlier user" would make the restore
	 * values the simulator's choice rather than the vector's */
	for (int i = 0; i < sim->nboxes; i++) {
		struct sim_box *b = &sim->boxes[i];
		for (int c = 0; c < SIM_MAX_CTR; c++)
			b->cnt[c].v = 0;
		memset(b->filt, 0, sizeof(b->filt));
		b->fixed.v = 0;
	}
	real = u->acc->ops;
	traced = *real;
	traced.msr_read = t_msr_read;
	traced.msr_read_batch = real->msr_read_batch ? t_msr_read_batch : NULL;
	traced.msr_write = t_msr_write;
	traced.pci_read = t_pci_read;
	traced.pci_write32 = t_pci_write32;
	traced.mmio_read = t_mmio_read;
	traced.mmio_read_many = NULL; /* (each load through t_mmio_read) */
	traced.mmio_write = t_mmio_write;
	u->acc->ops = &traced;
	if (uncore_session_new(u, &s)) {
		ok = 0;
		goto out;
	}
	for (int i = 0; i < c->nev; i++)
		if (uncore_session_add(s, c->ev[i]) < 0) {
			fprintf(stderr, "FAIL vector %s: %s refused: %s\n", c->name, c->ev[i], uncore_error());
			ok = 0;
			goto out;
		}
	cur = P_START;
	if (uncore_session_start(s)) {
		fprintf(stderr, "FAIL vector %s: start: %s\n", c->name, uncore_error());
		ok = 0;
		goto out;
	}
	/* the control words are read back in rotation (common/session/session_readback.c): every one within
	 * ceil((5 C + 9) / F) reads a second apart, C the control words' accesses and F the counters', C <= F,
	 * so 14 reads hold a whole rotation and the reads of the phase are their union */
	cur = P_READ;
	for (int r = 0; ok && r < READS_A_ROTATION; r++) {
		uncore_sleep_ns(u, 1000000000);
		if (uncore_session_read(s)) {
			fprintf(stderr, "FAIL vector %s: read %d: %s\n", c->name, r + 1, uncore_error());
			ok = 0;
		}
	}
	cur = P_STOP;
	if (uncore_session_stop(s)) {
		fprintf(stderr, "FAIL vector %s: stop: %s\n", c->name, uncore_error());
		ok = 0;
	}
	cur = P_NONE;
	for (int ph = 0; ph < P_N; ph++)
		ok &= compare(c, ph);
	if (sim_of(u->acc)->bad_accesses) {
		fprintf(stderr, "FAIL vector %s: %" PRIu64 " accesses outside the simulated registers\n", c->name,
			sim_of(u->acc)->bad_accesses);
		ok = 0;
	}
out:
	cur = P_NONE;
	uncore_session_free(s);
	u->acc->ops = real;
	uncore_close(u);
	return ok;
}

/* A vector file's word into a fixed field: one that does not fit fails the test, not matches cut short. */
static void field(char *dst, size_t len, const char *src)
{
	if (snprintf(dst, len, "%s", src) >= (int)len) {
		fprintf(stderr, "FAIL a vector file's word is longer than its field (%zu bytes): %s\n", len - 1, src);
		CU_FAIL("vector file word too long");
	}
}

/* "0xa0-0xa7": every dword of the range; else one address */
static void add_want(int ph, char kind, const char *where, const char *addr, const char *val)
{
	char *end;
	uint64_t lo = strtoull(addr, &end, 0), hi = lo;
	if (*end == '-')
		hi = strtoull(end + 1, NULL, 0);
	for (uint64_t a = lo; a <= hi && want[ph].n < MAXACC; a += 4) {
		struct acc *x = &want[ph].a[want[ph].n++];
		*x = (struct acc){ kind, "", a, val ? strtoull(val, NULL, 0) : 0 };
		field(x->where, sizeof(x->where), where);
		if (hi == lo)
			break;
	}
}

static void run_file(const char *platform, int min_cases)
{
	char path[512], line[512];
	struct vcase c = { 0 };
	int lineno = 0, ph = P_NONE, cases = 0, passed = 0, in_case = 0;
	snprintf(path, sizeof(path), SRCDIR "/platforms/%s/vectors.vec", platform);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "FAIL cannot read %s\n", path);
		CU_FAIL_FATAL("vector file missing");
	}
	while (fgets(line, sizeof(line), f)) {
		char w0[32] = "", w1[160] = "", w2[48] = "", w3[48] = "";
		lineno++;
		line[strcspn(line, "#\n")] = 0;
		if (sscanf(line, "%31s %159s %47s %47s", w0, w1, w2, w3) < 1)
			continue;
		if (!strcmp(w0, "case")) {
			memset(&c, 0, sizeof(c));
			memset(want, 0, sizeof(want));
			field(c.name, sizeof(c.name), w1);
			snprintf(c.open, sizeof(c.open), "sim:%s,clock=manual", platform);
			c.line = lineno;
			in_case = 1;
			ph = P_NONE;
		} else if (!in_case) {
			fprintf(stderr, "FAIL %s:%d: outside a case: %s\n", path, lineno, line);
			CU_FAIL("vector file syntax");
		} else if (!strcmp(w0, "src")) {
			continue;
		} else if (!strcmp(w0, "open")) {
			field(c.open, sizeof(c.open), w1);
		} else if (!strcmp(w0, "event") && c.nev < MAXEV) {
			snprintf(c.ev[c.nev++], sizeof(c.ev[0]), "%s", w1);
		} else if (!strcmp(w0, "start") || !strcmp(w0, "read") || !strcmp(w0, "stop")) {
			ph = w0[0] == 's' ? (w0[2] == 'a' ? P_START : P_STOP) : P_READ;
		} else if ((!strcmp(w0, "w") && w3[0]) || (!strcmp(w0, "r") && w2[0])) {
			if (ph == P_NONE) {
				fprintf(stderr, "FAIL %s:%d: an access before start/read/stop\n", path, lineno);
				CU_FAIL("vector file syntax");
				continue;
			}
			add_want(ph, w0[0], w1, w2, w0[0] == 'w' ? w3 : NULL);
		} else if (!strcmp(w0, "end")) {
			cases++;
			passed += run_case(&c);
			in_case = 0;
		} else {
			fprintf(stderr, "FAIL %s:%d: cannot read: %s\n", path, lineno, line);
			CU_FAIL("vector file syntax");
		}
	}
	fclose(f);
	printf("  %s: %d of %d vectors pass\n", platform, passed, cases);
	CU_ASSERT(passed == cases);
	CU_ASSERT(cases >= min_cases);
}

/* Every platform ships its vectors (platforms/<p>/vectors.vec): at least ten cases, and two for each of
 * its box types. */
static void test_every_platform(void)
{
	for (int i = 0; uc_platforms[i]; i++) {
		int floor = 2 * uc_platforms[i]->ntypes;
		run_file(uc_platforms[i]->name, floor > 10 ? floor : 10);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "golden register vectors of every platform", test_every_platform },
		{ NULL, NULL },
	};
	return run_suite("vectors", tests);
}
