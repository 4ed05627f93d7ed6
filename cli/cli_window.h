/*
 * One count over a window, as uncore stat --per-device, --per-node and --per-job make it: the handle opened,
 * what to count planned and started, slept through --duration S (or until a signal) with a read every -I MS
 * and a step between, stopped, printed, and let go, the error said as "uncore: ..." (cli_window.c).
 */
#ifndef CLI_WINDOW_H
#define CLI_WINDOW_H

#include <stdint.h>
#include "uncore.h"

struct cli_window {
	uint64_t total_ns;  /* the window (UINT64_MAX: until a signal) */
	uint64_t every_ns;  /* an interval read every this (UINT64_MAX: none) */
	uint64_t step_ns;   /* the longest sleep between two steps (UINT64_MAX: no steps) */
	int last_partial;   /* an interval read also when the window ends between two (--per-device's -I) */
	/* After the open: what to count planned, the banner printed: 0, 1 when there is nothing to count (the
	 * command ends with 0), -1 on an error, -2 on a usage error already said (it ends with 2) */
	int (*plan)(uncore_t *u, void *arg);
	/* Counting started (signals are caught by then): 0, or -1 */
	int (*start)(void *arg);
	/* An interval read at t_ns of the window, printed: 0, or -1 */
	int (*interval)(void *arg, uint64_t t_ns);
	/* Between two sleeps where no interval read is due (NULL: none): 0, or -1 */
	int (*step)(void *arg);
	/* Counting stopped, and what is printed at the end, at t_ns: 0, or -1 */
	int (*stop)(void *arg, uint64_t t_ns);
	/* What plan made, let go before the handle closes (also after an error) */
	void (*release)(void *arg);
};

/* w over the handle cli_open gives, arg handed to each call: the command's exit status (0; 1 with the error
 * said; 128 + the signal that ended the window). */
int cli_window_run(const struct cli_window *w, void *arg);

#endif
