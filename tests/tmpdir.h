/* Where a test or fuzzer puts its scratch files: $TMPDIR (scripts/test gives each run a private one and
 * reports whatever is left in it), else /tmp. */
#ifndef TEST_TMPDIR_H
#define TEST_TMPDIR_H
#include <stdlib.h>
static inline const char *test_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}
#endif
