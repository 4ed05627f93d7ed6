/* A row of tests/reference/linux_regs.txt ("TAG UNIT KEY VALUE source"): its value, -1 where it has none
 * (a test includes it with -DREFDIR). */
#ifndef UNCORE_TEST_REF_ROW_H
#define UNCORE_TEST_REF_ROW_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline long ref_row(const char *tag, const char *key)
{
	char line[512], t[16], unit[16], k[48], v[64];
	long val = -1;
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	while (f && val < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %15s %47s %63s", t, unit, k, v) == 4 && !strcmp(t, tag) && !strcmp(k, key))
			val = strtol(v, NULL, 0);
	if (f)
		fclose(f);
	if (val < 0)
		fprintf(stderr, "linux_regs.txt: no %s row %s\n", tag, key);
	return val;
}

#endif
