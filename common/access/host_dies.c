/* The host's logical dies: from each CPU's package and die_id, the dies of every socket (access.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access.h"
#include "util/error.h"

static int by_value(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

void host_dies_from_ids(struct host_info *h, const long *die_id)
{
	memset(h->cpu_die, -1, sizeof(h->cpu_die));
	for (int s = 0; s < h->nsockets; s++) {
		long ids[UC_MAX_DIES];
		int n = 0, warned = 0;
		for (int c = 0; c < h->ncpus && c < UC_MAX_CPUS; c++) {
			int known = 0;
			if (h->cpu_socket[c] != s || die_id[c] < 0)
				continue;
			for (int k = 0; k < n; k++)
				known |= ids[k] == die_id[c];
			if (!known && n < UC_MAX_DIES)
				ids[n++] = die_id[c];
			else if (!known && !warned++) /* more dies than a socket holds here: with the last one */
				uc_warn("socket %d has more than %d dies: die_id %ld and beyond are counted with die %d", s,
					UC_MAX_DIES, die_id[c], UC_MAX_DIES - 1);
		}
		qsort(ids, (size_t)n, sizeof(ids[0]), by_value);
		h->socket_dies[s] = n ? n : 1;
		for (int d = 0; d < UC_MAX_DIES; d++)
			h->die_id[s][d] = d < n ? ids[d] : -1;
		for (int d = 0; d < UC_MAX_DIES; d++)
			h->die_cpu[s][d] = -1;
		for (int c = 0; c < h->ncpus && c < UC_MAX_CPUS; c++) {
			if (h->cpu_socket[c] != s)
				continue;
			int d = 0;
			while (d < n - 1 && ids[d] != die_id[c])
				d++;
			h->cpu_die[c] = (signed char)d;
			if (h->die_cpu[s][d] < 0)
				h->die_cpu[s][d] = c;
		}
	}
}

int host_logical_die(const struct host_info *h, int ld, int *socket, int *die)
{
	for (int s = 0; s < h->nsockets && ld >= 0; s++) {
		if (ld < h->socket_dies[s]) {
			*socket = s;
			*die = ld;
			return 0;
		}
		ld -= h->socket_dies[s];
	}
	return -1;
}

int host_physical_die(const struct host_info *h, int pd, int per_socket, int *socket, int *die)
{
	if (per_socket < 1 || pd < 0 || pd / per_socket >= h->nsockets)
		return -1;
	*socket = pd / per_socket;
	*die = 0;
	/* a die_id says the die's place in its package whether it is the package's own (Linux 6.1) or has the
	 * package's bits above it (6.12): modulo the dies a package has */
	for (int d = 0; d < h->socket_dies[*socket] && d < UC_MAX_DIES; d++)
		if (h->die_id[*socket][d] >= 0 && h->die_id[*socket][d] % per_socket == pd % per_socket) {
			*die = d;
			return 0;
		}
	return h->socket_dies[*socket] == per_socket ? (*die = pd % per_socket, 0) : 1;
}

int host_die_cpu(const struct host_info *h, int socket, int die)
{
	return die >= 0 && die < UC_MAX_DIES && h->die_cpu[socket][die] >= 0 ? h->die_cpu[socket][die] : h->socket_cpu[socket];
}

const char *host_die_name(const struct host_info *h, int socket, int die, char *buf, size_t len)
{
	if (socket >= 0 && socket < UC_MAX_SOCKETS && h->socket_dies[socket] > 1)
		snprintf(buf, len, "socket %d die %d", socket, die);
	else
		snprintf(buf, len, "socket %d", socket);
	return buf;
}
