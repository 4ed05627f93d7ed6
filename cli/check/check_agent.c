/*
 * The rows of `uncore check` on the registers themselves: while the memory session runs, every control
 * word and filter it programmed must read back as written (another agent reprogramming a box mid-run
 * counts its own events on our counters), and after its stop every register must read as it was found.
 * The perf backend leaves the registers to the kernel, which keeps other perf users off the counters it
 * gave us: those rows are skipped there, saying so.
 */
#include <stdio.h>
#include <string.h>
#include "check.h"

#define ROW_AGENT "registers untouched by others, "

int check_agent_row(struct check *c, const char *phase)
{
	char what[200], check[96];
	int n = uncore_session_verify(c->s, what, sizeof(what));
	if (n > 0 && !c->agent_seen) { /* one row for the first time it is seen: later reads see the same */
		c->agent_seen = 1;
		snprintf(check, sizeof(check), ROW_AGENT "%s", phase ? phase : "during");
		return verdict_add(c->t, V_FAIL, check, "as programmed", "reprogrammed", "%d register(s) changed behind "
				   "the check's back, first %s: another tool counts on these boxes", n, what);
	}
	if (!phase || c->agent_seen)
		return 0;
	snprintf(check, sizeof(check), ROW_AGENT "%s", phase);
	if (n < 0)
		return verdict_add(c->t, V_SKIP, check, "as programmed", "-", "%s", uncore_error());
	return verdict_add(c->t, V_PASS, check, "as programmed", "as programmed", "%s", "");
}

int check_restored_row(struct check *c)
{
	char what[200];
	const char *check = "registers restored after";
	int n = uncore_session_verify(c->s, what, sizeof(what));
	if (n < 0)
		return verdict_add(c->t, V_SKIP, check, "as found", "-", "%s", uncore_error());
	if (n > 0)
		return verdict_add(c->t, V_FAIL, check, "as found", "changed", "%d register(s) not given back, first %s",
				   n, what);
	return verdict_add(c->t, V_PASS, check, "as found", "as found", "%s", "");
}
