/*
 * Who may open a connection.  The per-address limit counts the addresses one client can use at will as one:
 * any local user binds any of 127.0.0.0/8 (RFC 1122 3.2.1.3: the whole block is loopback), a host or pod
 * given an IPv6 /64 picks any address in it (RFC 4291 2.5.1: a /64 is one subnet's interface identifiers),
 * and a v4-mapped address (::ffff:a.b.c.d, RFC 4291 2.5.5.2) is its IPv4 client on a dual-stack socket.
 * The addresses of --allow are not limited that way: they may use every connection, and the others together
 * leave --reserved-connections of them to those (doc/safety.md says why reserved, not only those admitted).
 * Nor are the clients of the unix socket (ue_unix.c): its file's mode says who they are, and its server has
 * a connection limit of its own, and a share of it for each user (ue_uids.c).
 *
 * libmicrohttpd asks admit (its accept policy) and then notifies the connection's start in the same thread
 * (daemon.c of 0.9.75, internal_add_connection), so a count checked is still the count when it is raised.
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "ue.h"

#define NBUCKETS 4096

struct peer {
	struct peer *next;
	unsigned char key[9]; /* 4 or 6, then the block's first 8 bytes (an IPv4 address in 4) */
	int allowed;
	unsigned open;
};

struct ue_peers {
	pthread_mutex_t mu;
	struct ue_cidr allow[UE_MAX_LIST];
	int nallow;
	unsigned max, per_block, reserved;
	unsigned others; /* connections open from addresses not allowed */
	struct peer *b[NBUCKETS];
};

/* the IPv4 address of a v4-mapped IPv6 one (::ffff:0:0/96), else NULL */
static const unsigned char *mapped_v4(const struct sockaddr_in6 *s6)
{
	static const unsigned char pre[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return memcmp(s6->sin6_addr.s6_addr, pre, 12) ? NULL : s6->sin6_addr.s6_addr + 12;
}

/* the address's family (4 or 6) and bytes; 0: neither */
static int bytes_of(const void *sa, const unsigned char **a)
{
	const struct sockaddr *s = sa;
	if (s->sa_family == AF_INET) {
		*a = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
		return 4;
	}
	if (s->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = sa;
		if ((*a = mapped_v4(s6)))
			return 4;
		*a = s6->sin6_addr.s6_addr;
		return 6;
	}
	return 0;
}

int ue_cidr_match(const struct ue_cidr *b, const void *sa)
{
	const unsigned char *a;
	int fam = bytes_of(sa, &a);
	if (!fam || (fam == 4) != (b->family == AF_INET))
		return 0;
	unsigned whole = b->prefix / 8, rest = b->prefix % 8;
	if (memcmp(a, b->addr, whole))
		return 0;
	return !rest || !((a[whole] ^ b->addr[whole]) & (0xffu << (8 - rest)));
}

static void key_of(const void *sa, unsigned char key[9])
{
	const unsigned char *a;
	memset(key, 0, 9);
	key[0] = (unsigned char)bytes_of(sa, &a);
	if (key[0] == 4 && a[0] == 127)
		key[1] = 127; /* the whole loopback block */
	else if (key[0] == 4)
		memcpy(key + 1, a, 4);
	else if (key[0] == 6)
		memcpy(key + 1, a, 8); /* the /64 */
}

static unsigned hash(const unsigned char key[9])
{
	unsigned h = 2166136261u; /* FNV-1a */
	for (int i = 0; i < 9; i++)
		h = (h ^ key[i]) * 16777619u;
	return h % NBUCKETS;
}

static struct peer *find(struct ue_peers *p, const unsigned char key[9])
{
	for (struct peer *e = p->b[hash(key)]; e; e = e->next)
		if (!memcmp(e->key, key, 9))
			return e;
	return NULL;
}

int ue_peers_allowed(const struct ue_peers *p, const void *sa)
{
	if (((const struct sockaddr *)sa)->sa_family == AF_UNIX)
		return 1; /* a client of --listen unix:PATH: whom the socket's mode lets in, as --allow's scrapers */
	for (int i = 0; i < p->nallow; i++)
		if (ue_cidr_match(&p->allow[i], sa))
			return 1;
	return 0;
}

struct ue_peers *ue_peers_new(const struct ue_config *c)
{
	struct ue_peers *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	pthread_mutex_init(&p->mu, NULL);
	memcpy(p->allow, c->allow, sizeof(p->allow));
	p->nallow = c->nallow;
	p->max = c->max_conns;
	p->per_block = c->max_conns_ip;
	p->reserved = c->nallow ? c->reserved : 0;
	return p;
}

int ue_peers_admit(struct ue_peers *p, const void *sa)
{
	unsigned char key[9];
	if (ue_peers_allowed(p, sa))
		return 1; /* libmicrohttpd's --max-connections alone bounds them */
	key_of(sa, key);
	pthread_mutex_lock(&p->mu);
	struct peer *e = find(p, key);
	int ok = p->others + p->reserved < p->max && (!p->per_block || !e || e->open < p->per_block);
	pthread_mutex_unlock(&p->mu);
	return ok;
}

void *ue_peers_opened(struct ue_peers *p, const void *sa)
{
	unsigned char key[9];
	int allow = ue_peers_allowed(p, sa);
	key_of(sa, key);
	key[0] |= allow ? 0x80 : 0; /* an allowed address is counted apart from its block */
	pthread_mutex_lock(&p->mu);
	struct peer *e = find(p, key);
	if (!e && (e = calloc(1, sizeof(*e)))) {
		memcpy(e->key, key, 9);
		e->allowed = allow;
		unsigned h = hash(key);
		e->next = p->b[h];
		p->b[h] = e;
	}
	if (e) {
		e->open++;
		p->others += !allow;
	}
	pthread_mutex_unlock(&p->mu);
	return e;
}

void ue_peers_closed(struct ue_peers *p, void *peer)
{
	struct peer *e = peer;
	if (!e)
		return;
	pthread_mutex_lock(&p->mu);
	p->others -= !e->allowed;
	if (--e->open == 0) {
		struct peer **pp = &p->b[hash(e->key)];
		while (*pp != e)
			pp = &(*pp)->next;
		*pp = e->next;
		free(e);
	}
	pthread_mutex_unlock(&p->mu);
}

void ue_peers_free(struct ue_peers *p)
{
	if (!p)
		return;
	for (int i = 0; i < NBUCKETS; i++)
		while (p->b[i]) {
			struct peer *e = p->b[i];
			p->b[i] = e->next;
			free(e);
		}
	pthread_mutex_destroy(&p->mu);
	free(p);
}
