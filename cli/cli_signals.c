/* The signals that end a command which programs boxes (stat, check): each is caught, so that the command
 * stops at its next wait, restores the registers and exits 128 + the signal, as a shell would report it.
 * And those that come while any command opens its handle: held off until it is open, then the handle is
 * closed and the signal ends the process as it would have. */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static volatile sig_atomic_t stop_signal; /* the first signal that would have ended the process */

static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig; /* the first: writing after a SIGUSR1 may raise SIGPIPE */
}

/* Every signal whose default action ends the process, but those reporting a fault of the process itself
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT), which keep their core dump: the i-th, or 0
 * past the last. */
static int ending_signal(int i)
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
	int n = (int)(sizeof(sigs) / sizeof(sigs[0]));
	return i < n ? sigs[i] : i < n + SIGRTMAX - SIGRTMIN + 1 ? SIGRTMIN + i - n : 0;
}

static void catch_one(int sig)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a wait returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* Each ending signal.  One ignored when the command starts stays ignored (nohup), but SIGINT and SIGQUIT,
 * which a shell ignores in every background job it starts, and SIGPIPE: its reader gone, the run ends all
 * the same. */
void cli_catch_signals(void)
{
	struct sigaction old;
	for (int i = 0, sig; (sig = ending_signal(i)); i++) {
		int keep_ignored = sig != SIGINT && sig != SIGQUIT && sig != SIGPIPE;
		if (!sigaction(sig, NULL, &old) && !(keep_ignored && old.sa_handler == SIG_IGN))
			catch_one(sig);
	}
}

static sigset_t deferred, before, unignored; /* the signals cli_defer_signals blocks; the mask before; those it
						* caught that were ignored */

/* While the library opens a handle (a replay reads its archive's members): every ending signal is blocked,
 * so that the library sees it pending and stops the read at the next member (tarball.c), and delivered once the open is done.  SIGINT, SIGQUIT and
 * SIGPIPE ignored (a shell's background job) are caught, as cli_catch_signals does: an ignored signal is
 * never pending. */
void cli_defer_signals(void)
{
	struct sigaction old;
	sigemptyset(&deferred);
	sigemptyset(&unignored);
	for (int i = 0, sig; (sig = ending_signal(i)); i++) {
		int take_ignored = sig == SIGINT || sig == SIGQUIT || sig == SIGPIPE;
		if (sigaction(sig, NULL, &old) || (old.sa_handler == SIG_IGN && !take_ignored))
			continue;
		if (old.sa_handler == SIG_IGN) {
			catch_one(sig);
			sigaddset(&unignored, sig);
		}
		sigaddset(&deferred, sig);
	}
	sigprocmask(SIG_BLOCK, &deferred, &before);
}

void cli_deliver_signals(uncore_t *u)
{
	sigset_t pending;
	int sig = 0;
	sigpending(&pending);
	for (int i = 0, s; !sig && (s = ending_signal(i)); i++)
		if (sigismember(&deferred, s) && sigismember(&pending, s) == 1)
			sig = s;
	if (!sig && stop_signal && sigismember(&deferred, stop_signal))
		sig = stop_signal;
	if (sig) {
		uncore_close(u); /* its directory removed, then the signal's default action: the end */
		signal(sig, SIG_DFL);
		sigdelset(&before, sig);
		sigprocmask(SIG_SETMASK, &before, NULL); /* delivered here: the process ends by it */
		raise(sig);
		_exit(128 + sig); /* (not reached) */
	}
	for (int i = 0, s; (s = ending_signal(i)); i++)
		if (sigismember(&unignored, s) == 1)
			signal(s, SIG_IGN); /* as it was: none came */
	sigemptyset(&deferred);
	sigprocmask(SIG_SETMASK, &before, NULL);
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
