/*
 * Metric expressions: a small parser and evaluator.
 *   cond    := logic ['if' logic 'else' cond] | logic '?' cond ':' cond
 *   logic   := lxor (('|' | '||') lxor)*
 *   lxor    := land ('^' land)*
 *   land    := cmp (('&' | '&&') cmp)*
 *   cmp     := expr [('<' | '>' | '<=' | '>=' | '==' | '!=') expr]
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := '-' unary | primary
 *   primary := NUMBER | '(' cond ')' | ('min' | 'max' | 'd_ratio') '(' cond ',' cond ')'
 *            | 'source_count' '(' NAME ')' | 'has_event' '(' NAME ')' | 'strcmp_cpuid_str' '(' NAME ')'
 *            | 'duration' | 'duration_time' | 'boxes' | 'tsc_hz' | 'peak_bw'
 *            | '#num_packages' | '#num_dies' | '#num_cores' | '#system_tsc_freq' | NAME
 * NAME is an event spec (qualifiers after ':', the seed's "{edge_det,thresh=0x1}" modifiers,
 * or perf's PMU@terms@; perf's '\-', '\,' and '\=' escapes anywhere), '#'-fact or another metric;
 * the caller resolves it. The if/else, '?:', comparisons, '%', '^', d_ratio, source_count, has_event,
 * strcmp_cpuid_str, duration_time and '#' facts are the perf metric-file dialect (tools/perf/util/expr.y,
 * expr.l), so perf's metric JSON loads as shipped.
 */
#ifndef UNCORE_METRIC_EXPR_H
#define UNCORE_METRIC_EXPR_H

#include <stddef.h>

enum mx_op {
	MX_NUM, MX_EVENT, MX_DURATION, MX_BOXES, MX_TSC, MX_ADD, MX_SUB, MX_MUL, MX_DIV, MX_NEG, MX_MIN, MX_MAX,
	MX_PACKAGES, MX_SRCCOUNT, MX_DRATIO, MX_SELECT, MX_LT, MX_GT, MX_LE, MX_GE, MX_EQ, MX_NE, MX_AND, MX_OR,
	MX_MOD, MX_XOR, MX_DIES, MX_CORES, MX_PEAK
};

struct mx_node {
	int op;
	double num;
	int a, b, c; /* operands (node indices); MX_SELECT: a if c else b */
	int ev;      /* MX_EVENT: event index; MX_BOXES, MX_SRCCOUNT: the event whose boxes are counted */
};

struct mx_expr {
	struct mx_node *n;
	int nn, capn;
	char **events; /* event specs, each once */
	int nev;
};

/* Resolves NAME, met at nesting depth: returns a node index (an event added with mx_add_event, or a
 * whole sub-expression, parsed with mx_parse from depth on), or -1 with a message in err. */
typedef int (*mx_resolve_fn)(void *arg, struct mx_expr *e, const char *name, int depth, char *err, size_t len);
/* has_event(NAME) and strcmp_cpuid_str(ID) ask the resolver with depth MX_PROBE_EVENT or MX_PROBE_CPUID
 * instead: it answers 1 or 0 (NAME is an event this machine counts; the CPU id matches the regular
 * expression ID, as perf's strcmp_cpuid_str), or -1 with a message, and adds nothing. Their value is
 * fixed when parsed, as perf computes them once. */
#define MX_PROBE_EVENT (-1)
#define MX_PROBE_CPUID (-2)

/* Parse src into e, nested depth levels deep already (0 at the top); returns the root node or -1 with
 * "position N: why" in err. Nesting, of expressions parsed within expressions too, stops at
 * MX_MAX_DEPTH: the deepest fits a 128 KiB thread stack with room to spare, sanitizers on. */
int mx_parse(struct mx_expr *e, const char *src, int depth, mx_resolve_fn resolve, void *arg, char *err, size_t len);
#define MX_MAX_DEPTH 100
/* Add an event leaf (specs are kept once). */
int mx_add_event(struct mx_expr *e, const char *spec);
/* Add a constant (a fact the resolver knows when parsing, such as perf's #has_pmem). */
int mx_add_num(struct mx_expr *e, double v);
/* Append src's nodes to dst (events by spec); returns where src's root landed, or -1. */
int mx_copy(struct mx_expr *dst, const struct mx_expr *src, int root);
#define MX_MAX_NODES 65536 /* an expression, every metric it refers to included */
void mx_free(struct mx_expr *e);

/* Values of the leaves: event counts, boxes of an event, the window, the TSC, the packages (sockets),
 * the dies and the cores the value covers (perf's #num_packages, #num_dies and #num_cores); source_count(EV)
 * is EV's boxes per package, as perf counts it. */
struct mx_env {
	double (*event)(void *arg, int ev);
	double (*boxes)(void *arg, int ev);
	double duration_s, tsc_hz;
	void *arg;
	double packages, dies;
	double cores; /* 0: unknown (NaN) */
	/* 'peak_bw': the peak DRAM bandwidth, bytes a second, of what the value covers (a channel box, a socket, the
	 * machine), as the node's memory population handed it down (handle.h mem_peak); 0 where no DIMM is; NaN where
	 * not known, or NULL */
	double (*peak)(void *arg);
};
/* NaN when a value is missing or a divisor is zero. */
double mx_eval(const struct mx_expr *e, int root, const struct mx_env *env);

#endif
