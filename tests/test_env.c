/*
 * A privileged process (AT_SECURE: setuid, setgid, file capabilities) ignores every UNCORE_* variable
 * and says so in one warning.  The decision is overridden here; tests/test_exec_env.sh runs a
 * setcap copy of the program for real when the tests run as root.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include "harness.h"
#include "uncore.h"
#include "open/uncore_priv.h"
#include "util/env.h"

#define WARNING "does not trust the environment"

static const char *const vars[][2] = {
	{ "UNCORE_FORCE", "1" },
	{ "UNCORE_SCALE", "1" },
	{ "UNCORE_SYSROOT", "/nonexistent-uncore-sysroot" },
	{ "UNCORE_EVENTS", "/nonexistent-uncore-events.json" },
	{ "UNCORE_METRICS", "/nonexistent-uncore-metrics.json" },
	{ "UNCORE_CLAIMS", "/nonexistent-uncore-claims" },
};
#define NVARS (sizeof(vars) / sizeof(vars[0]))

static void set_all(void)
{
	for (size_t i = 0; i < NVARS; i++)
		setenv(vars[i][0], vars[i][1], 1);
}

static void unset_all(void)
{
	for (size_t i = 0; i < NVARS; i++)
		unsetenv(vars[i][0]);
	unsetenv("UNCORE_BACKEND");
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_secure_ignores_all(void)
{
	char buf[256];
	uncore_t *u;
	set_all();
	uc_env_secure_override(1);
	CU_ASSERT(uc_env_secure());
	for (size_t i = 0; i < NVARS; i++)
		CU_ASSERT_PTR_NULL(uc_env(vars[i][0]));
	CU_ASSERT_STRING_EQUAL(sysroot_path(buf, sizeof(buf), "/proc/cpuinfo"), "/proc/cpuinfo");
	/* UNCORE_EVENTS and UNCORE_METRICS name files that do not exist: taken, they would fail the open */
	int rc = uncore_open("sim:snbep", &u);
	if (rc)
		fprintf(stderr, "sim:snbep: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(!u->force && !u->scale);
	CU_ASSERT(uncore_metric_find(u, "mem_bw_read") >= 0);
	const char *w = uncore_warnings();
	CU_ASSERT_EQUAL(count(w, WARNING), 1); /* once, however often the variables are read */
	for (size_t i = 0; i < NVARS; i++)
		if (!strstr(w, vars[i][0])) {
			fprintf(stderr, "warning does not name %s: %s\n", vars[i][0], w);
			CU_FAIL("a variable ignored without being named");
		}
	CU_ASSERT(strstr(w, "setuid, setgid or file capabilities") != NULL);
	uncore_close(u);
	/* the direct backend's claims file: the default, not UNCORE_CLAIMS (where this machine has one) */
	struct access *a = access_direct_open();
	if (a) {
		CU_ASSERT_STRING_EQUAL(a->claims, "/run/intel-uncore/claims");
		a->ops->close(a);
	}
	/* UNCORE_BACKEND: an open without a backend does not take it (it is auto on this machine) */
	setenv("UNCORE_BACKEND", "sim:nope", 1);
	rc = uncore_open(NULL, &u);
	CU_ASSERT(!strstr(uncore_error(), "nope"));
	CU_ASSERT(strstr(uncore_warnings(), "UNCORE_BACKEND") != NULL);
	if (!rc) {
		CU_ASSERT(!uncore_is_simulated(u));
		uncore_close(u);
	}
	uc_env_secure_override(-1);
	unset_all();
}

static void test_not_secure_reads_all(void)
{
	uncore_t *u;
	set_all();
	uc_env_secure_override(0);
	for (size_t i = 0; i < NVARS; i++)
		CU_ASSERT(uc_env(vars[i][0]) && !strcmp(uc_env(vars[i][0]), vars[i][1]));
	unsetenv("UNCORE_SYSROOT");
	unsetenv("UNCORE_EVENTS");
	int rc = uncore_open("sim:snbep", &u);
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(u->force && u->scale);
	CU_ASSERT(!strstr(uncore_warnings(), WARNING));
	CU_ASSERT(uncore_metric_find(u, "mem_bw_read") < 0 && strstr(uncore_error(), "UNCORE_METRICS"));
	uncore_close(u);
	setenv("UNCORE_BACKEND", "sim:nope", 1);
	CU_ASSERT(uncore_open(NULL, &u) < 0 && strstr(uncore_error(), "unknown simulated platform 'nope'"));
	uc_env_secure_override(-1);
	unset_all();
}

/* Privileged with no UNCORE_* set (or set empty): nothing to say.  Not overridden, AT_SECURE decides. */
static void test_secure_quiet_without_variables(void)
{
	uncore_t *u;
	unset_all();
	setenv("UNCORE_SYSROOT", "", 1); /* empty means unset: nothing is ignored */
	uc_env_secure_override(1);
	CU_ASSERT_FATAL(uncore_open("sim:snbep", &u) == 0);
	CU_ASSERT(!strstr(uncore_warnings(), WARNING));
	uncore_close(u);
	uc_env_secure_override(-1);
	unsetenv("UNCORE_SYSROOT");
	CU_ASSERT_EQUAL(uc_env_secure(), getauxval(AT_SECURE) != 0);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "privileged: every UNCORE_* variable ignored, said once", test_secure_ignores_all },
		{ "not privileged: the variables are read", test_not_secure_reads_all },
		{ "privileged without variables: no warning", test_secure_quiet_without_variables },
		{ NULL, NULL },
	};
	return run_suite("env", tests);
}
