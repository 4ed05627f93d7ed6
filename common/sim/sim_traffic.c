/*
 * Traffic a program reports it moved, taken as the simulated machine's workload (issue 35: `uncore check`
 * runs its generators, then has the simulator count what they moved, on the socket they ran on):
 * sim_traffic replaces a socket's steady rates from now on (every box brought up to now first, so that
 * the counts before stay at the old rates); sim_workload moves a number of bytes over a stretch of the
 * simulator's time that the clock then skips, so they are counted exactly.  Both keep what each socket's
 * memory moved (resctrl's view, sim_mbm_bytes) with the uncore's.
 */
#include "sim.h"
#include "util/error.h"

/* The current rates' bytes up to time now. */
static void mbm_settle_to(struct sim *s, uint64_t now)
{
	for (int k = 0; now > s->mbm_ns && k < s->nsockets; k++)
		s->mbm[k] += (s->prof.mem_read_bps[k] + s->prof.mem_write_bps[k]) * (double)(now - s->mbm_ns) / 1e9;
	s->mbm_ns = now > s->mbm_ns ? now : s->mbm_ns;
}

int sim_mbm_bytes(struct sim *s, int socket, uint64_t *bytes)
{
	if (socket < 0 || socket >= s->nsockets)
		return uc_err("resctrl of socket %d: the machine has %d", socket, s->nsockets);
	mbm_settle_to(s, sim_now(s));
	*bytes = (uint64_t)s->mbm[socket];
	return 0;
}

int sim_traffic(struct sim *s, int socket, double read_bps, double write_bps)
{
	if (socket < 0 || socket >= s->nsockets)
		return uc_err("simulated traffic on socket %d: the machine has %d", socket, s->nsockets);
	if (!(read_bps >= 0 && write_bps >= 0 && read_bps < 1e15 && write_bps < 1e15))
		return uc_err("simulated traffic on socket %d: rates must be 0..1e15 bytes/s", socket);
	/* the machine's traffic: on a shared machine every process's boxes count it (resctrl's view stays
	 * this process's) */
	sim_shared_in(s, NULL);
	sim_advance_scope(s, -1);
	mbm_settle_to(s, sim_now(s));
	s->prof.mem_read_bps[socket] = read_bps;
	s->prof.mem_write_bps[socket] = write_bps;
	sim_shared_out(s, NULL);
	return 0;
}


int sim_workload(struct sim *s, int socket, double read_bytes, double write_bytes, uint64_t ns)
{
	if (!ns || ns > 3600000000000ull)
		return uc_err("simulated workload on socket %d: its time must be 1 ns .. 1 h", socket);
	if (s->shm)
		return uc_err("simulated workload on socket %d: the clock of a machine shared with other processes "
			      "(shared=) cannot skip its time; give the workload a machine of its own", socket);
	double rd0 = s->prof.mem_read_bps[socket], wr0 = s->prof.mem_write_bps[socket];
	/* the clock stands still from before the rates change until the bytes are in, then goes on ns later:
	 * nothing of the host's own timing (a preempted process, a late wake-up) adds to or takes from them */
	uint64_t t = sim_now(s);
	s->held = 1;
	s->hold_ns = t;
	if (sim_traffic(s, socket, read_bytes * 1e9 / (double)ns, write_bytes * 1e9 / (double)ns)) {
		s->held = 0;
		return -1;
	}
	s->hold_ns = t + ns;
	sim_advance_scope(s, -1);
	s->prof.mem_read_bps[socket] = rd0;
	s->prof.mem_write_bps[socket] = wr0;
	/* resctrl's view of the stretch the clock skips: the workload's bytes, the other sockets' steady ones */
	for (int k = 0; k < s->nsockets; k++)
		s->mbm[k] += k == socket ? read_bytes + write_bytes
					 : (s->prof.mem_read_bps[k] + s->prof.mem_write_bps[k]) * (double)ns / 1e9;
	s->mbm_ns = t + ns;
	if (s->manual_clock)
		s->now_ns = t + ns;
	else
		s->epoch_ns -= ns;
	s->held = 0;
	return 0;
}
