/*
 * What a metric's value covers, in one call (session_cover.h): the metric code is handed its sockets, cores,
 * duration and peak with the session's metric instead of asking the session for each, event by event.
 */
#include "session_cover.h"

/* Whether any of the metric's nev events is counted on socket sock (name:socket=N measures one only). */
static int measured_on(const uncore_session_t *s, const struct session_metric *sm, int nev, int sock)
{
	for (int i = 0; i < nev; i++)
		if (uncore_session_event_boxes_impl(s, sm->ev[i], sock) > 0)
			return 1;
	return 0;
}

void session_metric_cover(const uncore_session_t *s, const struct session_metric *sm, int nev, int timed, int socket,
			  int box, int window, struct session_cover *out)
{
	const uncore_t *u = session_owner(s);
	const struct host_info *h = &u->host;
	int on = 0;
	/* perf's #num_packages: the sockets the value covers (one for a socket's or a box's value), so that
	 * source_count(EV) * #num_packages is the boxes counted, as in perf's system-wide sums; #num_cores their
	 * cores (a socket's, as the last call found them for it: a node's sum asks box by box) */
	if (out->socket != socket || socket < 0) {
		out->socket = socket;
		out->measured = socket < 0 || nev <= 0 || measured_on(s, sm, nev, socket);
		out->cores = 0;
		for (int sock = 0; sock < h->nsockets; sock++)
			if (socket >= 0 ? sock == socket : measured_on(s, sm, nev, sock))
				on++, out->cores += h->socket_cores[sock];
	}
	out->peak = 0, out->duration_s = 0;
	/* the DRAM peak as the node's memory population handed it down (handle.h mem_peak: NaN until set) */
	if (!u->mem_peak_set)
		out->peak = NAN;
	else if (socket >= 0 && socket < UC_MAX_SOCKETS)
		out->peak = box < 0 ? u->mem_peak_socket[socket] : box < HANDLE_PEAK_BOXES ? u->mem_peak[socket][box] : NAN;
	else
		for (int sock = 0; sock < h->nsockets && sock < UC_MAX_SOCKETS; sock++)
			if (measured_on(s, sm, nev, sock))
				out->peak += u->mem_peak_socket[sock];
	out->packages = socket >= 0 || box >= 0 ? 1 : on ? on : h->nsockets;
	/* 'duration': the mean time its boxes counted over the window (each box has its own sample times), or 1 s
	 * for UNCORE_SINCE_START_COUNT so that a per-second metric gives its count */
	if (timed) {
		uint64_t ns = 0;
		int n = 0;
		if (window == UNCORE_SINCE_START_COUNT)
			out->duration_s = 1;
		else {
			for (int i = 0; i < nev; i++)
				ns += session_event_window_ns(s, sm->ev[i], socket, box, window, &n);
			out->duration_s = n ? (double)ns / n / 1e9 : (double)session_window_ns(s, window) / 1e9;
		}
	}
}
