/*
 * The backend registry: which kernel a perf backend's name makes.  The perf backend and the snapshot take the
 * maker from here, so that neither names the simulated kernel or the replay; it lives beside the replay, which
 * sits on the simulated kernel and knows both.
 */
#include <string.h>
#include "access/perf_kernel.h"
#include "replay/sim_replay.h"
#include "sim_kernel/sim_kernel.h"

static const struct kernel_maker makers[] = {
	{ "perf+sim:", sim_kernel_open, sim_kernel_machine_spec },
	{ "perf+replay:", replay_kernel_open, NULL },
};

const struct kernel_maker *kernel_maker_of(const char *backend)
{
	for (size_t i = 0; backend && i < sizeof(makers) / sizeof(makers[0]); i++)
		if (!strncmp(backend, makers[i].prefix, strlen(makers[i].prefix)))
			return &makers[i];
	return NULL;
}
