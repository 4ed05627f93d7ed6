/* The signals that end a command which programs boxes (stat, check): each is caught, so that the command
 * stops at its next wait, restores the registers and exits 128 + the signal, as a shell would report it. */
#include <signal.h>
#include <string.h>
#include "cli.h"

static volatile sig_atomic_t stop_signal; /* the first signal that would have ended the process */

static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig; /* the first: writing after a SIGUSR1 may raise SIGPIPE */
}

/* Every signal whose default action ends the process, but those reporting a fault of the process itself
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT), which keep their core dump.  One ignored
 * when the command starts stays ignored (nohup), but SIGINT and SIGQUIT, which a shell ignores in every
 * background job it starts, and SIGPIPE: its reader gone, the run ends all the same. */
void cli_catch_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGPROF,
				    SIGVTALRM, SIGXCPU, SIGXFSZ,
#ifdef SIGIO
				    SIGIO,
#endif
#ifdef SIGPWR
				    SIGPWR,
#endif
#ifdef SIGSTKFLT
				    SIGSTKFLT,
#endif
	};
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a wait returns at once */
	sigemptyset(&sa.sa_mask);
	for (int i = 0, n = (int)(sizeof(sigs) / sizeof(sigs[0])); i < n + SIGRTMAX - SIGRTMIN + 1; i++) {
		int sig = i < n ? sigs[i] : SIGRTMIN + i - n;
		int keep_ignored = sig != SIGINT && sig != SIGQUIT && sig != SIGPIPE;
		if (!sigaction(sig, NULL, &old) && !(keep_ignored && old.sa_handler == SIG_IGN))
			sigaction(sig, &sa, NULL);
	}
}

int cli_stopped(void) { return stop_signal; }

void cli_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

int cli_sleep(uncore_t *u, uint64_t ns)
{
	const uint64_t slice = 50000000; /* a signal is seen within 50 ms */
	while (ns && !stop_signal) {
		uint64_t dt = ns < slice ? ns : slice;
		if (uncore_sleep_ns(u, dt))
			return -1;
		ns -= dt;
	}
	return stop_signal;
}
