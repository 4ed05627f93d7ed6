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
	char name[256], why[256]; /* a name and the resolver's answer: here, not in each nested frame */
};

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

/* A node could not be added: the limit, or memory. */
static int too_big(struct parser *ps)
{
	if (ps->e->nn >= MX_MAX_NODES)
		return fail(ps, ps->p, "the expression has more than %d nodes", MX_MAX_NODES);
	return fail(ps, ps->p, "out of memory");
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

int mx_add_num(struct mx_expr *e, double v) { return node(e, MX_NUM, v, -1, -1); }

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

static int cond(struct parser *ps);

/* perf's escapes in a name (expr.l "spec"): '\-', '\,', '\=' stand for the character */
static int escaped(const char *p) { return p[0] == '\\' && p[1] && strchr("-,=", p[1]); }

/* NAME[:q[=v]...][{mod[=v],...}] -> "NAME:q=v:mod=v"; perf's PMU@terms@ keeps its '@'s, drops its '\'s */
static int name_token(struct parser *ps, char *out, size_t len)
{
	const char *start = ps->p;
	size_t n = 0;
	if (*ps->p == '#')
		out[n++] = *ps->p++;
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.' || escaped(ps->p) ||
	       (*ps->p == ':' && (isalnum((unsigned char)ps->p[1]) || ps->p[1] == '_')) ||
	       (*ps->p == '=' && ps->p > start && isalnum((unsigned char)ps->p[1]))) {
		if (n + 1 >= len)
			return fail(ps, start, "name too long");
		ps->p += *ps->p == '\\';
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

/* The one name in fn(NAME), after the '(' at ps->p: into ps->name; -1 when it is not one name. */
static int one_name(struct parser *ps, const char *fn, const char *what)
{
	char *name = ps->name;
	ps->p++;
	skip(ps);
	if (name_token(ps, name, sizeof(ps->name)))
		return -1;
	skip(ps);
	if ((!isalpha((unsigned char)*name) && *name != '_') || *ps->p != ')')
		return fail(ps, ps->p, "%s() takes one %s", fn, what);
	ps->p++;
	return 0;
}

/* perf's has_event(EV) and strcmp_cpuid_str(ID): the resolver's answer, a constant. */
static int probe(struct parser *ps, const char *at, int kind)
{
	char *why = ps->why;
	*why = 0;
	if (one_name(ps, kind == MX_PROBE_EVENT ? "has_event" : "strcmp_cpuid_str", kind == MX_PROBE_EVENT ? "event name" : "CPU id"))
		return -1;
	int r = ps->resolve(ps->arg, ps->e, ps->name, kind, why, sizeof(ps->why));
	if (r < 0)
		return fail(ps, at, "%s", *why ? why : "out of memory");
	return node(ps->e, MX_NUM, r > 0, -1, -1);
}

/* perf's source_count(EV): how many boxes (per package) EV is counted on; EV must be an event. */
static int source_count(struct parser *ps, const char *at)
{
	char *name = ps->name, *why = ps->why;
	*why = 0;
	if (one_name(ps, "source_count", "event name"))
		return -1;
	int ev = ps->resolve(ps->arg, ps->e, name, ps->depth, why, sizeof(ps->why));
	if (ev < 0)
		return *why ? fail(ps, at, "%s", why) : too_big(ps);
	if (ps->e->n[ev].op != MX_EVENT)
		return fail(ps, at, "source_count() takes an event, and '%s' is not one", name);
	int n = node(ps->e, MX_SRCCOUNT, 0, -1, -1);
	if (n >= 0)
		ps->e->n[n].ev = ps->e->n[ev].ev;
	return n;
}

/* Out of line: its end pointer would otherwise take stack in every nesting level. */
static __attribute__((noinline)) int number(struct parser *ps)
{
	char *end;
	double v = strtod(ps->p, &end);
	ps->p = end;
	return node(ps->e, MX_NUM, v, -1, -1);
}

static int primary(struct parser *ps)
{
	const char *at;
	skip(ps);
	at = ps->p;
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1])))
		return number(ps);
	if (*ps->p == '(') {
		ps->p++;
		return expr_then(ps, ')', "expected ')'%s", "");
	}
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_' && *ps->p != '#')
		return fail(ps, at, *ps->p ? "unexpected '%c'" : "expression ends too early", *ps->p);
	char *name = ps->name; /* overwritten by the arguments of a function */
	if (name_token(ps, name, sizeof(ps->name)))
		return -1;
	skip(ps);
	if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "d_ratio")) && *ps->p == '(') {
		int a, b, op = name[0] == 'd' ? MX_DRATIO : name[1] == 'i' ? MX_MIN : MX_MAX;
		const char *fn = op == MX_DRATIO ? "d_ratio" : op == MX_MIN ? "min" : "max";
		ps->p++;
		if ((a = expr_then(ps, ',', "%s() takes two arguments: expected ','", fn)) < 0 ||
		    (b = expr_then(ps, ')', "expected ')' after the arguments of %s()", fn)) < 0)
			return -1;
		return node(ps->e, op, 0, a, b);
	}
	if (!strcmp(name, "source_count") && *ps->p == '(')
		return source_count(ps, at);
	if (!strcmp(name, "has_event") && *ps->p == '(')
		return probe(ps, at, MX_PROBE_EVENT);
	if (!strcmp(name, "strcmp_cpuid_str") && *ps->p == '(')
		return probe(ps, at, MX_PROBE_CPUID);
	if (!strcmp(name, "duration") || !strcmp(name, "duration_time"))
		return node(ps->e, MX_DURATION, 0, -1, -1);
	if (!strcmp(name, "tsc_hz") || !strcasecmp(name, "#system_tsc_freq"))
		return node(ps->e, MX_TSC, 0, -1, -1);
	if (!strcmp(name, "#num_packages")) /* perf compares these two with regard to case (expr.c) */
		return node(ps->e, MX_PACKAGES, 0, -1, -1);
	if (!strcmp(name, "#num_dies"))
		return node(ps->e, MX_DIES, 0, -1, -1);
	if (!strcmp(name, "#num_cores")) /* Intel's HSX, BDX and SKX files divide CBo/CHA clocks by it */
		return node(ps->e, MX_CORES, 0, -1, -1);
	if (!strcmp(name, "peak_bw")) /* the DRAM peak of what the value covers (mx_env.peak) */
		return node(ps->e, MX_PEAK, 0, -1, -1);
	if (!strcmp(name, "boxes")) {
		if (ps->nboxes == (int)(sizeof(ps->boxes) / sizeof(ps->boxes[0])))
			return fail(ps, at, "too many 'boxes' terms");
		int n = node(ps->e, MX_BOXES, 0, -1, -1);
		if (n >= 0)
			ps->boxes[ps->nboxes++] = n;
		return n;
	}
	char *why = ps->why;
	*why = 0;
	int n = ps->resolve(ps->arg, ps->e, name, ps->depth, why, sizeof(ps->why));
	if (n < 0)
		return *why ? fail(ps, at, "%s", why) : too_big(ps);
	if (ps->first_ev < 0 && ps->e->n[n].op == MX_EVENT)
		ps->first_ev = ps->e->n[n].ev;
	return n;
}

/* Every recursion passes through cond() or a unary minus: each counts one level. */
static int enter(struct parser *ps)
{
	if (++ps->depth <= MX_MAX_DEPTH)
		return 0;
	return fail(ps, ps->p, "nested more than %d deep", MX_MAX_DEPTH);
}

static int unary(struct parser *ps)
{
	skip(ps);
	if (*ps->p != '-')
		return primary(ps);
	ps->p++;
	if (enter(ps))
		return -1;
	int a = unary(ps);
	ps->depth--;
	return a < 0 ? -1 : node(ps->e, MX_NEG, 0, a, -1);
}

enum { P_OR = 1, P_XOR, P_AND, P_CMP, P_ADD, P_MUL }; /* binary operators, loosest first (perf's expr.y) */

/* The binary operator at p: its length (0 when none), node and precedence. '&'/'&&', '|'/'||' and '^'
 * are logical and '%' the remainder of the integer parts, as in perf's expr.y. */
static int binop(const char *p, int *code, int *prec)
{
	static const struct { char s[3]; char code, prec; } ops[] = {
		{ "||", MX_OR, P_OR },   { "|", MX_OR, P_OR },    { "&&", MX_AND, P_AND }, { "&", MX_AND, P_AND },
		{ "<=", MX_LE, P_CMP },  { ">=", MX_GE, P_CMP },  { "==", MX_EQ, P_CMP },  { "!=", MX_NE, P_CMP },
		{ "<", MX_LT, P_CMP },   { ">", MX_GT, P_CMP },   { "+", MX_ADD, P_ADD },  { "-", MX_SUB, P_ADD },
		{ "*", MX_MUL, P_MUL },  { "/", MX_DIV, P_MUL },  { "%", MX_MOD, P_MUL },  { "^", MX_XOR, P_XOR } };
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].s);
		if (!strncmp(p, ops[i].s, n)) {
			*code = ops[i].code;
			*prec = ops[i].prec;
			return (int)n;
		}
	}
	return 0;
}

/* Operands joined by binary operators, left associative, at most one comparison in a row (perf's
 * grammar). A loop over a stack of pending operators (one per precedence at most), not a recursion. */
static int binary(struct parser *ps)
{
	struct { int a, code, prec; } st[P_MUL];
	int n = 0, a = unary(ps);
	while (a >= 0) {
		int code = 0, prec = 0;
		skip(ps);
		int len = binop(ps->p, &code, &prec);
		while (n && st[n - 1].prec >= prec) { /* prec 0 (none) reduces all */
			n--;
			if (st[n].prec == P_CMP && prec == P_CMP)
				return fail(ps, ps->p, "unexpected '%c'", *ps->p);
			if ((a = node(ps->e, st[n].code, 0, st[n].a, a)) < 0)
				return -1;
		}
		if (!len)
			return a;
		st[n].a = a;
		st[n].code = code;
		st[n++].prec = prec;
		ps->p += len;
		a = unary(ps);
	}
	return -1;
}

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
static int cond_body(struct parser *ps)
{
	int a = binary(ps);
	if (a < 0)
		return -1;
	skip(ps);
	if (keyword(ps, "if")) {
		int c = binary(ps);
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

static int cond(struct parser *ps)
{
	if (enter(ps))
		return -1;
	int r = cond_body(ps);
	ps->depth--;
	return r;
}

int mx_parse(struct mx_expr *e, const char *src, int depth, mx_resolve_fn resolve, void *arg, char *err, size_t len)
{
	struct parser ps = { .e = e, .src = src, .p = src, .resolve = resolve, .arg = arg, .err = err, .len = len,
			     .first_ev = -1, .depth = depth };
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
	if (root < 0)
		too_big(&ps);
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
		case MX_DIES: v[i] = env->dies > 0 ? env->dies : NAN; break;
		case MX_CORES: v[i] = env->cores > 0 ? env->cores : NAN; break;
		case MX_PEAK: v[i] = env->peak ? env->peak(env->arg) : NAN; break;
		case MX_MOD: v[i] = trunc(b) == 0 ? NAN : fmod(trunc(a), trunc(b)); break; /* NaN stays NaN */
		case MX_XOR: v[i] = ab_nan ? NAN : (a != 0) != (b != 0); break;
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
