/* What a test's code writes to stderr (an agent's log: pmNotifyErr writes there before pmdaOpenLog) while fn(arg)
 * runs, through the file path, into out. */
#ifndef TEST_STDERR_DURING_H
#define TEST_STDERR_DURING_H

#include <stdio.h>
#include <unistd.h>
#include "harness.h"

static inline void stderr_during(void (*fn)(int), int arg, const char *path, char *out, size_t len)
{
	fflush(stderr);
	int saved = dup(2);
	FILE *f = fopen(path, "w+");
	CU_ASSERT_FATAL(f != NULL && saved >= 0);
	dup2(fileno(f), 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
}

#endif
