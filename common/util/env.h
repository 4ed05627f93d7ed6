/* The UNCORE_* environment variables, read in one place: a process that runs with more privilege than
 * its caller (AT_SECURE: setuid, setgid, file capabilities) ignores every one of them. */
#ifndef UNCORE_ENV_H
#define UNCORE_ENV_H

/* The variable's value, or NULL when unset or when the process is privileged. */
const char *uc_env(const char *name);
/* 1 when the environment is not trusted (getauxval(AT_SECURE), unless a test overrode it). */
int uc_env_secure(void);
/* When privileged and some UNCORE_* variable is set, one warning naming those ignored (uncore_open). */
void uc_env_warn_ignored(void);
/* Tests only: 1 or 0 decides uc_env_secure(); -1 gives the decision back to AT_SECURE. */
void uc_env_secure_override(int secure);

#endif
