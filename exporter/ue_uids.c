/*
 * The unix socket's clients by their user, which the kernel gives (SO_PEERCRED, unix(7)): the socket's mode lets
 * in the exporter's user and group, and any one member of that group could take every one of its
 * --reserved-connections and fill the listen backlog behind them (144 trickling connections of one member left
 * root's scrapes 0 of 15: issue 96).  Each user holds at most half of them, so one user's connections always
 * leave another's scraper room; one more is closed at once.  Each user also has a budget of bcrypts of its own
 * (ue_auth.c), so one member's wrong passwords spend neither the thread nor another user's budget.
 *
 * A user's entry outlives its connections until its budget is full again, so that reconnecting does not
 * refill it; entries are few (the users the socket's mode lets in), and those of users gone are dropped when
 * a new one is made.  The unix server's one thread uses them, and its stop: a mutex all the same.
 */
#include <stdlib.h>
#include <sys/socket.h>
#include "ue.h"

struct ue_uid {
	struct ue_uid *next;
	uid_t uid;
	unsigned open;
	struct ue_budget budget;
};

struct ue_uids {
	pthread_mutex_t mu;
	unsigned share;
	struct ue_uid *head;
};

struct ue_uids *ue_uids_new(unsigned reserved)
{
	struct ue_uids *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	pthread_mutex_init(&u->mu, NULL);
	u->share = UE_UID_SHARE(reserved);
	return u;
}

/* the entries of no connection whose budget has filled again: as a new one would be */
static void drop_idle(struct ue_uids *u)
{
	for (struct ue_uid **pp = &u->head; *pp;) {
		struct ue_uid *e = *pp;
		if (!e->open && ue_budget_full(&e->budget)) {
			*pp = e->next;
			free(e);
		} else
			pp = &e->next;
	}
}

void *ue_uids_opened(struct ue_uids *u, int fd, int *full, uid_t *uid)
{
	struct ucred cr;
	socklen_t n = sizeof(cr);
	*full = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) || n != sizeof(cr))
		return NULL;
	*uid = cr.uid;
	pthread_mutex_lock(&u->mu);
	struct ue_uid *e = u->head;
	while (e && e->uid != cr.uid)
		e = e->next;
	if (!e) {
		drop_idle(u);
		if ((e = calloc(1, sizeof(*e)))) {
			e->uid = cr.uid;
			ue_budget_init(&e->budget);
			e->next = u->head;
			u->head = e;
		}
	}
	if (e && e->open >= u->share) {
		*full = 1;
		e = NULL;
	} else if (e)
		e->open++;
	pthread_mutex_unlock(&u->mu);
	return e;
}

struct ue_budget *ue_uids_budget(void *entry) { return &((struct ue_uid *)entry)->budget; }

void ue_uids_closed(struct ue_uids *u, void *entry)
{
	struct ue_uid *e = entry;
	if (!e)
		return;
	pthread_mutex_lock(&u->mu);
	e->open--;
	pthread_mutex_unlock(&u->mu);
}

void ue_uids_free(struct ue_uids *u)
{
	if (!u)
		return;
	while (u->head) {
		struct ue_uid *e = u->head;
		u->head = e->next;
		free(e);
	}
	pthread_mutex_destroy(&u->mu);
	free(u);
}
