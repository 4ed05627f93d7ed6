/* The descriptors uncore was started with are its caller's; a command that stat runs gets exactly
 * those, never one that uncore or its libraries opened (a device's config file, an MSR, a claims file). */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli.h"

static int *caller_fds;
static int ncaller;

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int append(int **v, int *n, int *cap, int fd)
{
	if (*n == *cap) {
		int *nv = realloc(*v, (size_t)(*cap *= 2) * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
	}
	(*v)[(*n)++] = fd;
	return 0;
}

/* Every open descriptor, ascending, in a malloc'd array: their count, or -1 out of memory. */
static int open_fds(int **out)
{
	int n = 0, cap = 16, *v = malloc((size_t)cap * sizeof(*v));
	DIR *d = v ? opendir("/proc/self/fd") : NULL;
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			char *end;
			long fd = strtol(de->d_name, &end, 10);
			if (end != de->d_name && !*end && fd != dirfd(d) && append(&v, &n, &cap, (int)fd))
				break;
		}
		closedir(d);
		if (de) /* left early: out of memory */
			n = -1;
	} else if (v) { /* no /proc: ask every descriptor number below the limit */
		struct rlimit rl;
		rlim_t max = getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur > (1 << 20) ? (1 << 20) : rl.rlim_cur;
		for (int fd = 0; fd < (int)max && n >= 0; fd++)
			if (fcntl(fd, F_GETFD) >= 0 && append(&v, &n, &cap, fd))
				n = -1;
	}
	if (!v || n < 0) {
		free(v);
		return -1;
	}
	qsort(v, (size_t)n, sizeof(*v), by_value);
	*out = v;
	return n;
}

int cli_note_caller_fds(void)
{
	free(caller_fds);
	caller_fds = NULL;
	ncaller = open_fds(&caller_fds);
	return ncaller < 0 ? -1 : 0;
}

int cli_foreign_fds(int **out)
{
	int *now, n = open_fds(&now), k = 0;
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (!bsearch(&now[i], caller_fds, (size_t)ncaller, sizeof(int), by_value))
			now[k++] = now[i];
	*out = now;
	return k;
}
