/* The handle's own questions: its lock, its sockets, a CPU's socket, and lists of files to load. */
#include <string.h>
#include "handle.h"
#include "util/error.h"

void handle_lock(const uncore_t *u) { pthread_mutex_lock((pthread_mutex_t *)&u->lock); }
void handle_unlock(const uncore_t *u) { pthread_mutex_unlock((pthread_mutex_t *)&u->lock); }

int uncore_num_sockets(const uncore_t *u) { return u->host.nsockets; }

int uncore_cpu_socket(const uncore_t *u, int cpu)
{
	if (cpu < 0 || cpu >= u->host.ncpus)
		return uc_err("there is no CPU %d (CPUs 0..%d)", cpu, u->host.ncpus - 1);
	if (u->host.cpu_socket[cpu] < 0)
		return uc_err("CPU %d is offline: bring it online or name another CPU of its socket", cpu);
	return u->host.cpu_socket[cpu];
}

int uc_load_list(uncore_t *u, const char *list, int (*load)(uncore_t *u, const char *file))
{
	int total = 0;
	while (list && *list) {
		char file[4096];
		size_t n = strcspn(list, ":");
		if (n >= sizeof(file))
			return uc_err("a file name of %zu characters is too long (at most %zu)", n, sizeof(file) - 1);
		snprintf(file, sizeof(file), "%.*s", (int)n, list);
		int r = n ? load(u, file) : 0;
		if (r < 0)
			return -1;
		total += r;
		list += n + (list[n] == ':');
	}
	return total;
}
