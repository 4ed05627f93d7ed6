/*
 * The warnings of a thread, numbered: kept until a drain hands them out (each once), so that a daemon that
 * drains after each scan says every warning however many come over its life.  What no drain takes is bounded
 * (KEEP_MAX bytes): past it the oldest go, counted, and the next drain says how many.  uncore_warnings()
 * (the list since the last open or clear) shows the kept ones of that span.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "error.h"

#define KEEP_MAX (256u << 10) /* bytes kept undrained: thousands of warnings */
#define LINE_MAX_ 2048        /* one warning (a reason is said whole: the memory population's notes run long) */

struct warnings {
	char *text;        /* the kept warnings, each ending in '\n', then a 0 */
	size_t len, cap;
	size_t *at;        /* at[i]: where warning first + i begins in text */
	size_t n, ncap;
	uint64_t first;    /* the number of the first kept (the thread's first warning is 1) */
	uint64_t view;     /* the first uncore_warnings() shows (the last open's or clear's next) */
	uint64_t lost;     /* the oldest left out since the last drain (KEEP_MAX passed) */
	char *out;         /* the last drain's text */
	size_t out_cap;
};

static _Thread_local struct warnings *tw;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void warnings_free(void *p)
{
	struct warnings *w = p;
	if (!w)
		return;
	free(w->text);
	free(w->at);
	free(w->out);
	free(w);
}

static void key_make(void) { (void)pthread_key_create(&key, warnings_free); }

/* This thread's store (NULL: out of memory, when a warning is dropped unsaid: nothing else can be done) */
static struct warnings *store(void)
{
	if (tw)
		return tw;
	pthread_once(&key_once, key_make);
	struct warnings *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->first = w->view = 1;
	(void)pthread_setspecific(key, w); /* freed when the thread ends */
	return tw = w;
}

static const char empty[] = "";

static int grow(char **b, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 256;
	while (c < need)
		c *= 2;
	char *n = realloc(*b, c);
	if (!n)
		return -1;
	*b = n;
	*cap = c;
	return 0;
}

/* The oldest k kept warnings out of the store. */
static void forget(struct warnings *w, size_t k)
{
	if (k >= w->n) {
		w->first += w->n;
		w->n = w->len = 0;
		if (w->cap > 4 * LINE_MAX_) { /* a burst's room back: a daemon's memory stays what its scans need */
			free(w->text);
			free(w->at);
			w->text = NULL;
			w->at = NULL;
			w->cap = w->ncap = 0;
		}
		return;
	}
	size_t off = w->at[k];
	memmove(w->text, w->text + off, w->len - off + 1);
	w->len -= off;
	for (size_t i = k; i < w->n; i++)
		w->at[i - k] = w->at[i] - off;
	w->n -= k;
	w->first += k;
}

void uc_warn(const char *fmt, ...)
{
	struct warnings *w = store();
	char line[LINE_MAX_];
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!w || k < 0)
		return;
	size_t m = strlen(line); /* (cut to LINE_MAX_) */
	if (w->len + m + 1 > KEEP_MAX && w->n) { /* the oldest go, to make room: counted */
		size_t drop = 0;
		while (drop < w->n && w->len - w->at[drop] + m + 1 > KEEP_MAX)
			drop++;
		w->lost += drop;
		forget(w, drop);
	}
	if (w->n == w->ncap) {
		size_t c = w->ncap ? 2 * w->ncap : 16;
		size_t *a = realloc(w->at, c * sizeof(*a));
		if (!a)
			return;
		w->at = a;
		w->ncap = c;
	}
	if (grow(&w->text, &w->cap, w->len + m + 2))
		return;
	w->at[w->n++] = w->len;
	memcpy(w->text + w->len, line, m);
	w->len += m;
	memcpy(w->text + w->len++, "\n", 2);
}

/* The kept text from warning number seq on (the oldest kept if it went). */
static const char *kept_from(const struct warnings *w, uint64_t seq)
{
	if (!w || !w->n || seq >= w->first + w->n)
		return empty;
	return w->text + (seq <= w->first ? 0 : w->at[seq - w->first]);
}

uint64_t uc_warn_mark(void)
{
	const struct warnings *w = store();
	return w ? w->first + w->n : 0;
}

const char *uc_warnings_from(uint64_t mark) { return kept_from(tw, mark); }

const char *uc_warnings(void) { return tw ? kept_from(tw, tw->view) : empty; }

void uc_clear_warnings(void)
{
	if (tw)
		tw->view = tw->first + tw->n;
}

/* The warnings from mark on taken back (a repeat of what was said before): numbered again as if unmade. */
void uc_warn_rewind(uint64_t mark)
{
	struct warnings *w = tw;
	if (!w || mark >= w->first + w->n)
		return;
	if (mark <= w->first) {
		w->len = 0;
		w->n = 0;
		w->first = mark;
	} else {
		w->n = (size_t)(mark - w->first);
		w->len = w->at[w->n];
	}
	if (w->text)
		w->text[w->len] = 0;
	if (w->view > mark)
		w->view = mark;
}

const char *uncore_warnings(void) { return uc_warnings(); }

void uncore_warnings_clear(void)
{
	struct warnings *w = tw;
	if (!w)
		return;
	w->lost = 0;
	forget(w, w->n);
	w->view = w->first;
}

const char *uncore_warnings_drain(uint64_t *first)
{
	struct warnings *w = store();
	if (!w) {
		if (first)
			*first = 0;
		return empty;
	}
	char note[96] = "";
	if (w->lost)
		snprintf(note, sizeof(note), "(%llu earlier warnings left out: more than %u KiB of them came undrained)\n",
			 (unsigned long long)w->lost, KEEP_MAX >> 10);
	size_t nl = strlen(note);
	if (w->out_cap > 4 * LINE_MAX_ && nl + w->len < LINE_MAX_) { /* a burst's room back */
		free(w->out);
		w->out = NULL;
		w->out_cap = 0;
	}
	if (grow(&w->out, &w->out_cap, nl + w->len + 1)) {
		if (first)
			*first = w->first;
		return empty; /* out of memory: kept for the next drain */
	}
	memcpy(w->out, note, nl);
	if (w->len)
		memcpy(w->out + nl, w->text, w->len);
	w->out[nl + w->len] = 0;
	if (first)
		*first = w->first - w->lost;
	w->lost = 0;
	forget(w, w->n);
	return w->out;
}

uint64_t uncore_warnings_count(void)
{
	const struct warnings *w = tw;
	return w ? w->first + w->n - 1 : 0;
}
