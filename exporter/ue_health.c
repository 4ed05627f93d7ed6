/*
 * The health conditions the library raises and clears on each read (doc/health.md), for Prometheus: each
 * change a line on stderr (the journal), and the count of each kind standing on each socket, which
 * ue_render.c exposes as uncore_health.
 */
#include <stdio.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

void ue_health_read(struct ue_state *st)
{
	struct uncore_health h[UE_HEALTH_MAX];
	int n = uncore_session_health_changes(st->s, h, UE_HEALTH_MAX);
	for (int i = 0; i < n && i < UE_HEALTH_MAX; i++)
		ue_log("health %s %s: %s%s%s", uncore_health_name(h[i].kind),
			h[i].raised ? "raised" : "cleared", h[i].what, h[i].raised ? "; " : "",
			h[i].raised ? uncore_health_advice(h[i].kind) : "");
	memset(st->health, 0, sizeof(st->health));
	n = uncore_session_health(st->s, h, UE_HEALTH_MAX);
	for (int i = 0; i < n && i < UE_HEALTH_MAX; i++)
		st->health[h[i].kind][h[i].socket >= 0 && h[i].socket < UE_HEALTH_SOCKETS ? h[i].socket + 1 : 0]++;
}
