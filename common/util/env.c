/* uc_env (env.h): getenv for UNCORE_* that a privileged process does not trust. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include "env.h"
#include "error.h"

extern char **environ;

static atomic_int secure_override = -1;

void uc_env_secure_override(int secure) { atomic_store(&secure_override, secure); }

int uc_env_secure(void)
{
	int o = atomic_load(&secure_override);
	return o >= 0 ? o : getauxval(AT_SECURE) != 0;
}

const char *uc_env(const char *name)
{
	/* secure_getenv alone would miss the tests' override; it is kept as a second check */
	return uc_env_secure() ? NULL : secure_getenv(name);
}

void uc_env_warn_ignored(void)
{
	char names[400] = "";
	size_t n = 0;
	int count = 0, more = 0;
	if (!uc_env_secure())
		return;
	for (char **e = environ; e && *e; e++) {
		size_t len = strcspn(*e, "=");
		if (strncmp(*e, "UNCORE_", 7) || !(*e)[len] || !(*e)[len + 1])
			continue; /* set empty, a variable means what it does unset */
		if (n + len + 3 >= sizeof(names)) {
			more = 1;
			continue;
		}
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%.*s", count++ ? ", " : "", (int)len, *e);
	}
	if (count)
		uc_warn("this process runs with more privilege than its user (setuid, setgid or file capabilities), so it "
			"does not trust the environment: %s%s %s ignored", names, more ? " and more UNCORE_* variables" : "",
			count + more > 1 ? "are" : "is");
}
