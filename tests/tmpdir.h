/* Where a test or fuzzer puts its scratch files: $TMPDIR (scripts/test gives each run a private one and
 * reports whatever is left in it), else /tmp. */
#ifndef TEST_TMPDIR_H
#define TEST_TMPDIR_H
#include <stdlib.h>
#include <unistd.h>
/* What a claims file's name adds to a shared simulator's file: root keeps its claims in FILE.claims, any
 * other user in FILE.claims.group (claims.h) */
static inline const char *claims_ext(void) { return geteuid() == 0 ? ".claims" : ".claims.group"; }
static inline const char *test_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}
#endif
