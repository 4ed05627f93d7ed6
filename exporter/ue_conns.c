/*
 * Each HTTP connection's deadline, and the memory a crowd of them leaves.  libmicrohttpd's timeout is an
 * idle one: a client sending a header line every few seconds holds its connection for ever, and a few
 * thousand such fill the connection limit (libmicrohttpd then stops accepting: every scrape waits).  Here
 * a connection must complete a request within the deadline of its opening or of its last answer; a thread
 * sleeps until the earliest deadline and shuts the late connection's socket down, which libmicrohttpd
 * sees as the client gone and closes.  The connections are kept in the order of their deadlines (a new
 * deadline is always the latest), so the earliest is the head.
 *
 * libmicrohttpd's notification of a closed connection comes before it closes the socket (daemon.c of
 * 0.9.75 and 1.0.1, MHD_cleanup_connections), so a socket still listed here is still that connection's.
 *
 * Memory: every connection has its own pool (32 KiB); once a crowd of them has gone, glibc keeps the freed
 * pages wherever a live allocation sits above them (a scraper's keep-alive connection opened during the
 * attack kept 108 MB of 4,032 trickling connections' pools), so the pages are handed back with malloc_trim.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "ue.h"

/* A sanitizer build has an allocator of its own, with its own way of handing the memory back
 * (compiler-rt's allocator_interface.h; the header is not in every compiler's installation). */
#if defined(__SANITIZE_ADDRESS__)
#define UE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UE_ASAN 1
#endif
#endif
#ifdef UE_ASAN
void __sanitizer_purge_allocator(void);
#endif

/* a crowd: the connections open at once, above which their going hands the memory back */
#define TRIM_CROWD 64

struct ue_conn {
	struct ue_conn *prev, *next;
	int fd;
	int listed;        /* in the deadline list (not yet cut) */
	uint64_t deadline; /* CLOCK_MONOTONIC ns */
};

struct ue_conns {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* on CLOCK_MONOTONIC */
	pthread_t thread;
	struct ue_conn *head, *tail;
	uint64_t timeout_ns;
	unsigned open, peak; /* open now; the most open since memory was last handed back */
	int trim, stop;
	uint64_t cut;        /* connections closed at their deadline */
};

static void unlink_conn(struct ue_conns *cs, struct ue_conn *c)
{
	*(c->prev ? &c->prev->next : &cs->head) = c->next;
	*(c->next ? &c->next->prev : &cs->tail) = c->prev;
	c->prev = c->next = NULL;
	c->listed = 0;
}

/* the connection's deadline from now, the latest of all: at the tail */
static void append(struct ue_conns *cs, struct ue_conn *c)
{
	int was_empty = !cs->head;
	c->deadline = ue_mono_ns() + cs->timeout_ns;
	c->prev = cs->tail;
	c->next = NULL;
	*(cs->tail ? &cs->tail->next : &cs->head) = c;
	cs->tail = c;
	c->listed = 1;
	if (was_empty) /* the sweeper sleeps without a deadline */
		pthread_cond_signal(&cs->cv);
}

static void *sweeper(void *arg)
{
	struct ue_conns *cs = arg;
	pthread_mutex_lock(&cs->mu);
	while (!cs->stop) {
		uint64_t now = ue_mono_ns();
		while (cs->head && cs->head->deadline <= now) {
			struct ue_conn *c = cs->head;
			shutdown(c->fd, SHUT_RDWR); /* libmicrohttpd reads the end and closes it */
			unlink_conn(cs, c);
			cs->cut++;
		}
		if (cs->trim) {
			cs->trim = 0;
			cs->peak = cs->open;
			pthread_mutex_unlock(&cs->mu);
#if defined(UE_ASAN)
			__sanitizer_purge_allocator();
#elif defined(__GLIBC__)
			malloc_trim(0); /* every arena, and the free pages below live allocations */
#endif
			pthread_mutex_lock(&cs->mu);
			continue;
		}
		if (!cs->head) {
			pthread_cond_wait(&cs->cv, &cs->mu);
			continue;
		}
		struct timespec ts = { (time_t)(cs->head->deadline / 1000000000u), (long)(cs->head->deadline % 1000000000u) };
		pthread_cond_timedwait(&cs->cv, &cs->mu, &ts);
	}
	pthread_mutex_unlock(&cs->mu);
	return NULL;
}

struct ue_conns *ue_conns_start(double timeout_s, char *err, size_t len)
{
	struct ue_conns *cs = calloc(1, sizeof(*cs));
	pthread_condattr_t ca;
	if (!cs) {
		ue_fail(err, len, "out of memory");
		return NULL;
	}
	cs->timeout_ns = (uint64_t)(timeout_s * 1e9);
	pthread_mutex_init(&cs->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cs->cv, &ca);
	pthread_condattr_destroy(&ca);
	int rc = pthread_create(&cs->thread, NULL, sweeper, cs);
	if (rc) {
		ue_fail(err, len, "cannot start the thread that closes late connections: %s", strerror(rc));
		pthread_cond_destroy(&cs->cv);
		pthread_mutex_destroy(&cs->mu);
		free(cs);
		return NULL;
	}
	return cs;
}

void *ue_conns_opened(struct ue_conns *cs, int fd)
{
	struct ue_conn *c = calloc(1, sizeof(*c));
	pthread_mutex_lock(&cs->mu);
	cs->open++;
	if (cs->open > cs->peak)
		cs->peak = cs->open;
	if (c) { /* else the idle timeout alone holds it */
		c->fd = fd;
		append(cs, c);
	}
	pthread_mutex_unlock(&cs->mu);
	return c;
}

void ue_conns_answered(struct ue_conns *cs, void *conn)
{
	struct ue_conn *c = conn;
	if (!c)
		return;
	pthread_mutex_lock(&cs->mu);
	if (c->listed) { /* the next request has the whole deadline again */
		unlink_conn(cs, c);
		append(cs, c);
	}
	pthread_mutex_unlock(&cs->mu);
}

void ue_conns_closed(struct ue_conns *cs, void *conn)
{
	struct ue_conn *c = conn;
	pthread_mutex_lock(&cs->mu);
	if (c && c->listed)
		unlink_conn(cs, c);
	cs->open -= cs->open > 0;
	if (cs->peak >= TRIM_CROWD && cs->open * 4 <= cs->peak) { /* most of a crowd has gone */
		cs->trim = 1;
		pthread_cond_signal(&cs->cv);
	}
	pthread_mutex_unlock(&cs->mu);
	free(c);
}

uint64_t ue_conns_cut(struct ue_conns *cs)
{
	pthread_mutex_lock(&cs->mu);
	uint64_t n = cs->cut;
	pthread_mutex_unlock(&cs->mu);
	return n;
}

/* After the HTTP server has stopped: every connection has been notified closed. */
void ue_conns_stop(struct ue_conns *cs)
{
	if (!cs)
		return;
	pthread_mutex_lock(&cs->mu);
	cs->stop = 1;
	pthread_cond_signal(&cs->cv);
	pthread_mutex_unlock(&cs->mu);
	pthread_join(cs->thread, NULL);
	pthread_cond_destroy(&cs->cv);
	pthread_mutex_destroy(&cs->mu);
	free(cs);
}
