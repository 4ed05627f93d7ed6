/* Metric expressions: recursive-descent parser into a node array, and its evaluator. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "metric_expr.h"

struct parser {
	struct mx_expr *e;
	const char *src, *p;
	mx_resolve_fn resolve;
	void *arg;
	char *err;
	size_t len;
	int first_ev;           /* first event named directly in this expression: what 'boxes' counts */
	int boxes[16], nboxes;  /* 'boxes' nodes waiting for it */
	int failed;
	int depth;              /* nesting, bounded so a hostile file cannot exhaust the stack */
};

#define MX_MAX_DEPTH 200

static int fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (ps->failed)
		return -1;
	ps->failed = 1;
	n = snprintf(ps->err, ps->len, "position %d: ", (int)(at - ps->src) + 1);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->len)
		vsnprintf(ps->err + n, ps->len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int node(struct mx_expr *e, int op, double num, int a, int b)
{
	if (e->nn >= MX_MAX_NODES)
		return -1;
	if (e->nn == e->capn) {
		int cap = e->capn ? 2 * e->capn : 16;
		struct mx_node *n = realloc(e->n, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		e->n = n;
		e->capn = cap;
	}
	e->n[e->nn] = (struct mx_node){ op, num, a, b, -1, -1 };
	return e->nn++;
}

/* The index of an event spec in the expression, added when new. */
static int event_index(struct mx_expr *e, const char *spec)
{
	int i;
	for (i = 0; i < e->nev && strcmp(e->events[i], spec); i++)
		;
	if (i == e->nev) {
		char **ev = realloc(e->events, (size_t)(e->nev + 1) * sizeof(*ev));
		if (!ev)
			return -1;
		e->events = ev;
		if (!(ev[e->nev] = strdup(spec)))
			return -1;
		e->nev++;
	}
	return i;
}

int mx_add_event(struct mx_expr *e, const char *spec)
{
	int i = event_index(e, spec);
	if (i < 0)
		return -1;
	int n = node(e, MX_EVENT, 0, -1, -1);
	if (n >= 0)
		e->n[n].ev = i;
	return n;
}

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int expr(struct parser *ps);
static int cond(struct parser *ps);

/* NAME[:q[=v]...][{mod[=v],...}] -> "NAME:q=v:mod=v"; perf's PMU@terms@ keeps its '@'s, drops its '\'s */
static int name_token(struct parser *ps, char *out, size_t len)
{
	const char *start = ps->p;
	size_t n = 0;
	if (*ps->p == '#')
		out[n++] = *ps->p++;
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.' ||
	       (*ps->p == ':' && (isalnum((unsigned char)ps->p[1]) || ps->p[1] == '_')) ||
	       (*ps->p == '=' && ps->p > start && isalnum((unsigned char)ps->p[1]))) {
		if (n + 1 >= len)
			return fail(ps, start, "name too long");
		out[n++] = *ps->p++;
	}
	if (*ps->p == '@' && n) {
		const char *at = ps->p;
		do {
			if (*ps->p == '\\' && ps->p[1])
				ps->p++;
			if (n + 1 >= len)
				return fail(ps, start, "name too long");
			out[n++] = *ps->p++;
		} while (*ps->p && *ps->p != '@');
		if (*ps->p != '@')
			return fail(ps, at, "'@' without its closing '@'");
		if (n + 1 >= len)
			return fail(ps, start, "name too long");
		out[n++] = *ps->p++;
	}
	out[n] = 0;
	if (*ps->p != '{')
		return 0;
	/* the seeds' modifier notation: event{edge_det,thresh=0x1} */
	const char *brace = ps->p++;
	for (;;) {
		char mod[32];
		size_t m = 0;
		skip(ps);
		while ((isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '=') && m + 1 < sizeof(mod))
			mod[m++] = *ps->p++;
		mod[m] = 0;
		if (!m)
			return fail(ps, ps->p, "expected a modifier inside {}");
		if (m >= 8 && !strncmp(mod, "edge_det", 8) && (m == 8 || mod[8] == '='))
			memmove(mod + 4, mod + 8, strlen(mod + 8) + 1); /* edge_det -> edge */
		if (n + strlen(mod) + 2 >= len)
			return fail(ps, brace, "name too long");
		n += (size_t)snprintf(out + n, len - n, ":%s", mod);
		skip(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == '}') {
			ps->p++;
			return 0;
		}
		return fail(ps, ps->p, "expected ',' or '}' after a modifier");
	}
}

/* An expression followed by the character c (consumed); the message names what was expected. */
static int expr_then(struct parser *ps, char c, const char *expected, const char *name)
{
	int r = cond(ps);
	if (r < 0)
		return -1;
	skip(ps);
	if (*ps->p != c)
		return fail(ps, ps->p, expected, name);
	ps->p++;
	return r;
}

/* perf's source_count(EV): how many boxes (per package) EV is counted on; EV must be an event. */
static int source_count(struct parser *ps, const char *at)
{
	char name[256], why[256] = "";
	ps->p++;
	skip(ps);
	if (name_token(ps, name, sizeof(name)))
		return -1;
	skip(ps);
	if ((!isalpha((unsigned char)*name) && *name != '_') || *ps->p != ')')
		return fail(ps, ps->p, "source_count() takes one event name");
	ps->p++;
	int ev = ps->resolve(ps->arg, ps->e, name, why, sizeof(why));
	if (ev < 0)
		return fail(ps, at, "%s", why);
	if (ps->e->n[ev].op != MX_EVENT)
		return fail(ps, at, "source_count() takes an event, and '%s' is not one", name);
	int n = node(ps->e, MX_SRCCOUNT, 0, -1, -1);
	if (n >= 0)
		ps->e->n[n].ev = ps->e->n[ev].ev;
	return n;
}

static int primary(struct parser *ps)
{
	const char *at;
	skip(ps);
	at = ps->p;
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) {
		char *end;
		double v = strtod(ps->p, &end);
		ps->p = end;
		return node(ps->e, MX_NUM, v, -1, -1);
	}
	if (*ps->p == '(') {
		ps->p++;
		return expr_then(ps, ')', "expected ')'%s", "");
	}
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_' && *ps->p != '#')
		return fail(ps, at, *ps->p ? "unexpected '%c'" : "expression ends too early", *ps->p);
	char name[256];
	if (name_token(ps, name, sizeof(name)))
		return -1;
	skip(ps);
	if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "d_ratio")) && *ps->p == '(') {
		int a, b;
		ps->p++;
		if ((a = expr_then(ps, ',', "%s() takes two arguments: expected ','", name)) < 0 ||
		    (b = expr_then(ps, ')', "expected ')' after the arguments of %s()", name)) < 0)
			return -1;
		return node(ps->e, name[0] == 'd' ? MX_DRATIO : name[1] == 'i' ? MX_MIN : MX_MAX, 0, a, b);
	}
	if (!strcmp(name, "source_count") && *ps->p == '(')
		return source_count(ps, at);
	if (!strcmp(name, "duration") || !strcmp(name, "duration_time"))
		return node(ps->e, MX_DURATION, 0, -1, -1);
	if (!strcmp(name, "tsc_hz") || !strcasecmp(name, "#system_tsc_freq"))
		return node(ps->e, MX_TSC, 0, -1, -1);
	if (!strcasecmp(name, "#num_packages"))
		return node(ps->e, MX_PACKAGES, 0, -1, -1);
	if (!strcmp(name, "boxes")) {
		if (ps->nboxes == (int)(sizeof(ps->boxes) / sizeof(ps->boxes[0])))
			return fail(ps, at, "too many 'boxes' terms");
		int n = node(ps->e, MX_BOXES, 0, -1, -1);
		if (n >= 0)
			ps->boxes[ps->nboxes++] = n;
		return n;
	}
	char why[256] = "";
	int n = ps->resolve(ps->arg, ps->e, name, why, sizeof(why));
	if (n < 0)
		return fail(ps, at, "%s", why);
	if (ps->first_ev < 0 && ps->e->n[n].op == MX_EVENT)
		ps->first_ev = ps->e->n[n].ev;
	return n;
}

static int unary(struct parser *ps)
{
	int r;
	skip(ps);
	if (++ps->depth > MX_MAX_DEPTH)
		return fail(ps, ps->p, "nested more than %d deep", MX_MAX_DEPTH);
	if (*ps->p == '-') {
		ps->p++;
		int a = unary(ps);
		r = a < 0 ? -1 : node(ps->e, MX_NEG, 0, a, -1);
	} else {
		r = primary(ps);
	}
	ps->depth--;
	return r;
}

static int binary(struct parser *ps, int (*operand)(struct parser *), char op1, int code1, char op2, int code2)
{
	int a = operand(ps);
	while (a >= 0) {
		skip(ps);
		if (*ps->p != op1 && *ps->p != op2)
			break;
		int code = *ps->p++ == op1 ? code1 : code2;
		int b = operand(ps);
		if (b < 0)
			return -1;
		a = node(ps->e, code, 0, a, b);
	}
	return a;
}

static int term(struct parser *ps) { return binary(ps, unary, '*', MX_MUL, '/', MX_DIV); }
static int expr(struct parser *ps) { return binary(ps, term, '+', MX_ADD, '-', MX_SUB); }

/* A comparison: at most one operator, as in perf's grammar. */
static int cmp(struct parser *ps)
{
	static const struct { const char *op; int code; } ops[] = { { "<=", MX_LE }, { ">=", MX_GE }, { "==", MX_EQ },
								     { "!=", MX_NE }, { "<", MX_LT },  { ">", MX_GT } };
	int a = expr(ps);
	if (a < 0)
		return -1;
	skip(ps);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(ps->p, ops[i].op, strlen(ops[i].op))) {
			ps->p += strlen(ops[i].op);
			int b = expr(ps);
			return b < 0 ? -1 : node(ps->e, ops[i].code, 0, a, b);
		}
	return a;
}

/* '&' / '&&' and '|' / '||': logical, as perf's metric files use them. */
static int logical(struct parser *ps, int (*operand)(struct parser *), char op, int code)
{
	int a = operand(ps);
	while (a >= 0) {
		skip(ps);
		if (*ps->p != op)
			break;
		ps->p += ps->p[1] == op ? 2 : 1;
		int b = operand(ps);
		if (b < 0)
			return -1;
		a = node(ps->e, code, 0, a, b);
	}
	return a;
}

static int land(struct parser *ps) { return logical(ps, cmp, '&', MX_AND); }
static int lor(struct parser *ps) { return logical(ps, land, '|', MX_OR); }

static int keyword(struct parser *ps, const char *kw)
{
	size_t n = strlen(kw);
	if (strncmp(ps->p, kw, n) || isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_')
		return 0;
	ps->p += n;
	return 1;
}

static int select_node(struct parser *ps, int then, int otherwise, int test)
{
	int n = then < 0 || otherwise < 0 || test < 0 ? -1 : node(ps->e, MX_SELECT, 0, then, otherwise);
	if (n >= 0)
		ps->e->n[n].c = test;
	return n;
}

/* perf's "A if C else B" and the C form "C ? A : B" (write ' : ' with spaces: "X:q" is a qualifier). */
static int cond(struct parser *ps)
{
	int a = lor(ps);
	if (a < 0)
		return -1;
	skip(ps);
	if (keyword(ps, "if")) {
		int c = lor(ps);
		skip(ps);
		if (c >= 0 && !keyword(ps, "else"))
			return fail(ps, ps->p, "expected 'else' after 'if'");
		return select_node(ps, a, c < 0 ? -1 : cond(ps), c);
	}
	if (*ps->p == '?') {
		ps->p++;
		int t = cond(ps);
		skip(ps);
		if (t >= 0 && *ps->p != ':')
			return fail(ps, ps->p, "expected ':' after '?'");
		ps->p++;
		return select_node(ps, t, t < 0 ? -1 : cond(ps), a);
	}
	return a;
}

int mx_parse(struct mx_expr *e, const char *src, mx_resolve_fn resolve, void *arg, char *err, size_t len)
{
	struct parser ps = { .e = e, .src = src, .p = src, .resolve = resolve, .arg = arg, .err = err, .len = len,
			     .first_ev = -1 };
	int root = cond(&ps);
	if (root >= 0) {
		skip(&ps);
		if (*ps.p)
			root = fail(&ps, ps.p, "unexpected '%c'", *ps.p);
	}
	if (root >= 0 && ps.nboxes && ps.first_ev < 0)
		root = fail(&ps, src, "'boxes' needs an event in the same expression, whose boxes it counts");
	for (int i = 0; root >= 0 && i < ps.nboxes; i++)
		e->n[ps.boxes[i]].ev = ps.first_ev;
	if (root < 0 && !ps.failed)
		snprintf(err, len, "out of memory");
	return root;
}

void mx_free(struct mx_expr *e)
{
	for (int i = 0; i < e->nev; i++)
		free(e->events[i]);
	free(e->events);
	free(e->n);
	memset(e, 0, sizeof(*e));
}

int mx_copy(struct mx_expr *dst, const struct mx_expr *src, int root)
{
	int off = dst->nn;
	if (root < 0 || root >= src->nn || src->nn > MX_MAX_NODES - dst->nn)
		return -1;
	for (int i = 0; i < src->nn; i++) {
		const struct mx_node *s = &src->n[i];
		int ev = s->ev >= 0 ? event_index(dst, src->events[s->ev]) : -1; /* the same event, its index here */
		int k = node(dst, s->op, s->num, s->a < 0 ? -1 : s->a + off, s->b < 0 ? -1 : s->b + off);
		if (k != off + i || (s->ev >= 0 && ev < 0))
			return -1;
		dst->n[k].c = s->c < 0 ? -1 : s->c + off;
		dst->n[k].ev = ev;
	}
	return root + off;
}

/* Nodes come after their operands (the parser makes them so, copies keep the order): one pass in
 * index order evaluates every node once, however often it is shared. */
double mx_eval(const struct mx_expr *e, int root, const struct mx_env *env)
{
	double small[256], *v = root < 256 ? small : malloc(sizeof(double) * ((size_t)root + 1)), r;
	if (!v || root < 0 || root >= e->nn)
		return v && v != small ? (free(v), NAN) : NAN;
	for (int i = 0; i <= root; i++) {
		const struct mx_node *n = &e->n[i];
		double a = n->a >= 0 && n->a < i ? v[n->a] : NAN, b = n->b >= 0 && n->b < i ? v[n->b] : NAN;
		double c = n->c >= 0 && n->c < i ? v[n->c] : NAN, pk = env->packages > 0 ? env->packages : NAN;
		int ab_nan = isnan(a) || isnan(b); /* a comparison of a missing value has none */
		switch (n->op) {
		case MX_NUM: v[i] = n->num; break;
		case MX_EVENT: v[i] = env->event(env->arg, n->ev); break;
		case MX_BOXES: v[i] = env->boxes(env->arg, n->ev); break;
		case MX_DURATION: v[i] = env->duration_s > 0 ? env->duration_s : NAN; break;
		case MX_TSC: v[i] = env->tsc_hz > 0 ? env->tsc_hz : NAN; break;
		case MX_NEG: v[i] = -a; break;
		case MX_ADD: v[i] = a + b; break;
		case MX_SUB: v[i] = a - b; break;
		case MX_MUL: v[i] = a * b; break;
		case MX_DIV: v[i] = b == 0 ? NAN : a / b; break;
		case MX_MIN: v[i] = isnan(a) || isnan(b) ? NAN : fmin(a, b); break;
		case MX_MAX: v[i] = isnan(a) || isnan(b) ? NAN : fmax(a, b); break;
		case MX_PACKAGES: v[i] = pk; break;
		case MX_SRCCOUNT: v[i] = env->boxes(env->arg, n->ev) / pk; break;
		case MX_DRATIO: v[i] = b == 0 ? 0 : a / b; break; /* perf's d_ratio: 0, not NaN, over 0 */
		case MX_SELECT: v[i] = isnan(c) ? NAN : c != 0 ? a : b; break;
		case MX_LT: v[i] = ab_nan ? NAN : a < b; break;
		case MX_GT: v[i] = ab_nan ? NAN : a > b; break;
		case MX_LE: v[i] = ab_nan ? NAN : a <= b; break;
		case MX_GE: v[i] = ab_nan ? NAN : a >= b; break;
		case MX_EQ: v[i] = ab_nan ? NAN : a == b; break;
		case MX_NE: v[i] = ab_nan ? NAN : a != b; break;
		case MX_AND: v[i] = ab_nan ? NAN : a != 0 && b != 0; break;
		case MX_OR: v[i] = ab_nan ? NAN : a != 0 || b != 0; break;
		default: v[i] = NAN;
		}
	}
	r = v[root];
	if (v != small)
		free(v);
	return r;
}
