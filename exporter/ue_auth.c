/*
 * basic_auth_users of --web.config.file: a user and password checked against the user's bcrypt hash with
 * crypt(3) of libxcrypt (Debian's libcrypt1 computes $2a$, $2b$ and $2y$).  A bcrypt at cost 10 takes tens
 * of milliseconds on the one HTTP thread, so, as exporter-toolkit does (web/handler.go), a verified
 * password is remembered: Prometheus' scrapes, which send the same password every time, cost a comparison.
 * An unknown user costs a bcrypt too (of exporter-toolkit's fixed hash), so timing does not tell which users exist.
 * The bcrypts of clients outside --allow draw on one bucket of UE_AUTH_HASHES_PER_S a second: a flood of wrong
 * passwords (each ~70 ms) once held every scrape queued behind it, --allow's too; now it takes at most 14 % of
 * the thread, and the requests over the budget are refused unchecked (a guesser gets 2 guesses a second).
 * Each user of the unix socket has a bucket of its own (ue_uids.c): one member's guesses spend neither the
 * thread nor another user's budget.
 */
#include <crypt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

/* bcrypt of "fakepassword", cost 10 (exporter-toolkit web/handler.go's, for the same purpose) */
static const char fake_hash[] = "$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi";

struct ue_auth {
	const struct ue_web *w;
	char *ok[UE_MAX_USERS]; /* each user's last verified password */
	struct crypt_data cd;   /* crypt_r's state (32 KiB): one per server, used by its one thread */
	struct ue_budget shared; /* the bcrypts of clients outside --allow */
	pthread_mutex_t mu;     /* the counts below, read by the main thread */
	uint64_t hashed, unchecked;
};

void ue_budget_init(struct ue_budget *b)
{
	b->tokens = UE_AUTH_BURST;
	b->last_ns = ue_mono_ns();
}

/* the bcrypts b allows now, topped up for the time since it was last looked at */
static double level(struct ue_budget *b)
{
	uint64_t now = ue_mono_ns();
	b->tokens += (double)(now - b->last_ns) / 1e9 * UE_AUTH_HASHES_PER_S;
	if (b->tokens > UE_AUTH_BURST)
		b->tokens = UE_AUTH_BURST;
	b->last_ns = now;
	return b->tokens;
}

int ue_budget_full(struct ue_budget *b) { return level(b) >= UE_AUTH_BURST; }

struct ue_budget *ue_auth_shared_budget(struct ue_auth *a) { return &a->shared; }

struct ue_auth *ue_auth_new(const struct ue_web *w)
{
	struct ue_auth *a = calloc(1, sizeof(*a));
	if (a) {
		a->w = w;
		ue_budget_init(&a->shared);
		pthread_mutex_init(&a->mu, NULL);
	}
	return a;
}

void ue_auth_free(struct ue_auth *a)
{
	if (!a)
		return;
	for (int i = 0; i < UE_MAX_USERS; i++)
		if (a->ok[i]) {
			explicit_bzero(a->ok[i], strlen(a->ok[i]));
			free(a->ok[i]);
		}
	explicit_bzero(&a->cd, sizeof(a->cd));
	pthread_mutex_destroy(&a->mu);
	free(a);
}

/* equal strings, in a time that depends only on their lengths */
static int same(const char *x, const char *y)
{
	size_t n = strlen(x), m = strlen(y);
	unsigned char d = n != m;
	for (size_t i = 0; i < n && i < m; i++)
		d |= (unsigned char)(x[i] ^ y[i]);
	return !d;
}

/* one bcrypt from the budget: 0 when it is spent */
static int take_token(struct ue_budget *b)
{
	if (level(b) < 1)
		return 0;
	b->tokens -= 1;
	return 1;
}

static int refused(struct ue_auth *a, int hashed)
{
	pthread_mutex_lock(&a->mu);
	if (hashed)
		a->hashed++;
	else
		a->unchecked++;
	pthread_mutex_unlock(&a->mu);
	return 0;
}

int ue_auth_check(struct ue_auth *a, const char *user, const char *pass, struct ue_budget *budget)
{
	int u = -1;
	for (int i = 0; user && i < a->w->nusers; i++)
		if (!strcmp(a->w->user[i], user))
			u = i;
	if (!user || !pass)
		return refused(a, 0);
	if (u >= 0 && a->ok[u] && same(a->ok[u], pass))
		return 1;
	if (budget && !take_token(budget))
		return refused(a, 0);
	const char *hash = u >= 0 ? a->w->hash[u] : fake_hash;
	const char *h = crypt_r(pass, hash, &a->cd);
	int ok = u >= 0 && h && h[0] == '$' && same(h, hash);
	if (!ok)
		return refused(a, 1);
	if (a->ok[u])
		explicit_bzero(a->ok[u], strlen(a->ok[u]));
	free(a->ok[u]);
	a->ok[u] = strdup(pass); /* NULL: the next scrape computes it again */
	return 1;
}

void ue_auth_refusals(struct ue_auth *a, uint64_t *hashed, uint64_t *unchecked)
{
	pthread_mutex_lock(&a->mu);
	*hashed = a->hashed;
	*unchecked = a->unchecked;
	pthread_mutex_unlock(&a->mu);
}
