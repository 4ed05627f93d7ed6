/* One count over a window (cli_window.h): the lifecycle --per-device, --per-node and --per-job share. */
#include <stdio.h>
#include "cli.h"
#include "cli_window.h"

/* Slept through the window, each -I read and each step made: 0, or -1 */
static int count(uncore_t *u, const struct cli_window *w, void *arg, uint64_t *t)
{
	uint64_t since = 0;
	while (*t < w->total_ns && !cli_stopped()) {
		uint64_t d = w->total_ns - *t;
		if (d > w->step_ns)
			d = w->step_ns;
		if (d > w->every_ns - since)
			d = w->every_ns - since;
		if (cli_sleep(u, d) < 0)
			return -1;
		*t += d;
		since += d;
		if (since >= w->every_ns || (w->last_partial && w->every_ns != UINT64_MAX && *t >= w->total_ns)) {
			if (w->interval(arg, *t))
				return -1;
			fflush(stdout);
			since = 0;
		} else if (*t < w->total_ns && w->step && w->step(arg))
			return -1;
	}
	return 0;
}

int cli_window_run(const struct cli_window *w, void *arg)
{
	uncore_t *u = NULL;
	uint64_t t = 0;
	int rc = 1, planned;
	if (cli_open(&u))
		return 1;
	if ((planned = w->plan(u, arg)) == -2) { /* a usage error, said */
		rc = 2;
		goto out;
	}
	if (planned < 0)
		goto err;
	if (planned > 0) {
		rc = 0;
		goto out;
	}
	cli_catch_signals();
	if (w->start(arg) || count(u, w, arg, &t) || w->stop(arg, t))
		goto err;
	rc = cli_stopped() ? 128 + cli_stopped() : 0;
	goto out;
err:
	fprintf(stderr, "uncore: %s\n", uncore_error());
out:
	w->release(arg);
	uncore_close(u);
	return rc;
}
