/*
 * Metric expressions: a small parser and evaluator.
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := '-' unary | primary
 *   primary := NUMBER | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
 *            | 'duration' | 'boxes' | 'tsc_hz' | NAME
 * NAME is an event spec (qualifiers after ':', or the seed's "{edge_det,thresh=0x1}"
 * modifiers) or another metric; the caller resolves it.
 */
#ifndef UNCORE_METRIC_EXPR_H
#define UNCORE_METRIC_EXPR_H

#include <stddef.h>

enum mx_op { MX_NUM, MX_EVENT, MX_DURATION, MX_BOXES, MX_TSC, MX_ADD, MX_SUB, MX_MUL, MX_DIV, MX_NEG, MX_MIN, MX_MAX };

struct mx_node {
	int op;
	double num;
	int a, b; /* operands (node indices) */
	int ev;   /* MX_EVENT: event index; MX_BOXES: the event whose boxes are counted */
};

struct mx_expr {
	struct mx_node *n;
	int nn, capn;
	char **events; /* event specs, each once */
	int nev;
};

/* Resolves NAME: returns a node index (an event added with mx_add_event, or a
 * whole sub-expression), or -1 with a message in err. */
typedef int (*mx_resolve_fn)(void *arg, struct mx_expr *e, const char *name, char *err, size_t len);

/* Parse src into e; returns the root node or -1 with "position N: why" in err. */
int mx_parse(struct mx_expr *e, const char *src, mx_resolve_fn resolve, void *arg, char *err, size_t len);
/* Add an event leaf (specs are kept once). */
int mx_add_event(struct mx_expr *e, const char *spec);
/* Append src's nodes to dst (events by spec); returns where src's root landed, or -1. */
int mx_copy(struct mx_expr *dst, const struct mx_expr *src, int root);
#define MX_MAX_NODES 65536 /* an expression, every metric it refers to included */
void mx_free(struct mx_expr *e);

/* Values of the leaves: event counts, boxes of an event, the window and the TSC. */
struct mx_env {
	double (*event)(void *arg, int ev);
	double (*boxes)(void *arg, int ev);
	double duration_s, tsc_hz;
	void *arg;
};
/* NaN when a value is missing or a divisor is zero. */
double mx_eval(const struct mx_expr *e, int root, const struct mx_env *env);

#endif
