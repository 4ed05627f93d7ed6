/* The process's RSS and open files, as the simulated years check them (tests/year.h, and the PAPI program's year,
 * papi_component/intel_uncore/tests/intel_uncore_year.c, built outside the test harness). */
#ifndef TEST_YEAR_PROC_H
#define TEST_YEAR_PROC_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline long year_rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

static inline int year_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *de; d && (de = readdir(d));)
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n - 1; /* (the listing's own) */
}

#endif
