/*
 * Issue 89 point 4: the cgroup scan trusts only what root made.  slurmstepd makes a job's cgroup directory (and
 * the slurmstepd.scope, slurm and uid_ directories above it) as root; a user who owns one (a delegated cgroup, a
 * chown) could make job_ directories of any id and CPUs there, or rename another job's.  Such a directory is left
 * out with everything below it, and a warning names it and its owner.  On the simulator (job.NAME.cgroup_uid
 * makes a job's directory another user's: any user runs this) for cgroup v2 and v1, and, run as root, on real
 * directories below UNCORE_SYSROOT chowned to another user.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "util/error.h"

static char dir[300];

static void put(const char *rel, const char *text)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void fresh(void)
{
	char cmd[700];
	snprintf(dir, sizeof(dir), "%s/uncore-job-trust-%d", test_tmpdir(), (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	setenv("UNCORE_SYSROOT", dir, 1); /* the host's own jobs (none, or the CI's) kept out */
}

static void done(void)
{
	char cmd[700];
	unsetenv("UNCORE_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

/* The jobs a scan found, as "id=cpus;..." (its warnings in uncore_warnings()) */
static const char *listed(uncore_t *u)
{
	static char out[4096];
	size_t at = 0;
	out[0] = 0;
	uc_clear_warnings(); /* this scan's alone */
	int n = uncore_jobs_scan(u);
	CU_ASSERT(n >= 0);
	for (int j = 0; j < n; j++) {
		struct uncore_job_info ji;
		if (!uncore_job_info(u, j, &ji))
			at += (size_t)snprintf(out + at, sizeof(out) - at, "%s=%s%s%s;", ji.id, ji.cpus, ji.ndevices ? "/" : "",
					       ji.ndevices ? ji.devices : "");
	}
	return out;
}

/* The simulated node of that cgroup version: job a root's, job evil's directory uid 1000's (and, with GPUs, its
 * devices.list granting GPU 0): a alone is listed, evil named in a warning with its owner. */
static void sim_cgroup(int version)
{
	char prof[700], spec[900];
	fresh();
	snprintf(prof, sizeof(prof), "%s/profile", dir);
	FILE *f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "slurm.cgroup = %d\njob.a.cpus = 0-8\njob.a.mem_read_bytes_per_s = 1e9\njob.evil.cpus = 9-17\n"
		   "job.evil.mem_read_bytes_per_s = 1e9\njob.evil.cgroup_uid = 1000\n", version);
	fclose(f);
	snprintf(spec, sizeof(spec), "sim:skx,profile=%s", prof);
	uncore_t *u = open_sim(spec);
	const char *got = listed(u);
	CU_ASSERT_STRING_EQUAL(got, "a=0-8;");
	char want[200];
	snprintf(want, sizeof(want), "job evil (slurm-cgroup%d): /sys/fs/cgroup/%s/job_evil belongs to uid 1000, not root",
		 version, version == 2 ? "system.slice/slurmstepd.scope" : "cpuset/slurm/uid_0");
	if (!strstr(uncore_warnings(), want))
		fprintf(stderr, "cgroup v%d: %s\nwarned: %s\n", version, got, uncore_warnings());
	CU_ASSERT(strstr(uncore_warnings(), want) != NULL);
	CU_ASSERT(strstr(uncore_warnings(), "job a ") == NULL);
	uncore_close(u);
	done();
}

static void test_sim_v2(void) { sim_cgroup(2); }
static void test_sim_v1(void) { sim_cgroup(1); }

/* Real directories chowned (root alone may): a job's, the scope's (every job below it), a uid_ directory of
 * cgroup v1 and a job's devices directory there; the user's own tree (this user's: the test's) is read. */
static void test_chowned(void)
{
	if (geteuid() != 0) {
		printf("(not root: another user's directory cannot be made here; the simulator's cases stand for it) ");
		return;
	}
	const char *v2 = "sys/fs/cgroup/system.slice/slurmstepd.scope";
	const char *v2b = "sys/fs/cgroup/system.slice/cn02_slurmstepd.scope";
	const char *v1 = "sys/fs/cgroup/cpuset/slurm";
	char rel[300], path[800];
	fresh();
	snprintf(rel, sizeof(rel), "%s/job_1/cpuset.cpus.effective", v2);
	put(rel, "0-1\n");
	snprintf(rel, sizeof(rel), "%s/job_2/cpuset.cpus.effective", v2);
	put(rel, "2-3\n");
	snprintf(rel, sizeof(rel), "%s/job_3/cpuset.cpus.effective", v2b);
	put(rel, "4-5\n");
	snprintf(rel, sizeof(rel), "%s/uid_0/job_4/cpuset.cpus", v1);
	put(rel, "6-7\n");
	snprintf(rel, sizeof(rel), "%s/uid_1000/job_5/cpuset.cpus", v1);
	put(rel, "8-9\n");
	uncore_t *u = open_sim("sim:skx");
	const char *all = listed(u); /* cn02_slurmstepd.scope sorts first */
	if (strcmp(all, "3=4-5;1=0-1;2=2-3;4=6-7;5=8-9;"))
		fprintf(stderr, "listed %s; warned %s\n", all, uncore_warnings());
	CU_ASSERT_STRING_EQUAL(all, "3=4-5;1=0-1;2=2-3;4=6-7;5=8-9;");

	snprintf(path, sizeof(path), "%s/%s/job_2", dir, v2);
	CU_ASSERT_FATAL(chown(path, 65534, 65534) == 0);
	snprintf(path, sizeof(path), "%s/%s", dir, v2b);
	CU_ASSERT_FATAL(chown(path, 65534, 65534) == 0);
	snprintf(path, sizeof(path), "%s/%s/uid_1000", dir, v1);
	CU_ASSERT_FATAL(chown(path, 1000, 1000) == 0);
	CU_ASSERT_STRING_EQUAL(listed(u), "1=0-1;4=6-7;");
	const char *w = uncore_warnings();
	snprintf(path, sizeof(path), "job 2 (slurm-cgroup2): %s/%s/job_2 belongs to uid 65534, not root", dir, v2);
	CU_ASSERT(strstr(w, path) != NULL);
	snprintf(path, sizeof(path), "slurm-cgroup2: %s/%s belongs to uid 65534, not root", dir, v2b);
	CU_ASSERT(strstr(w, path) != NULL && strstr(w, "the jobs below it are left out"));
	snprintf(path, sizeof(path), "slurm-cgroup1: %s/%s/uid_1000 belongs to uid 1000, not root", dir, v1);
	CU_ASSERT(strstr(w, path) != NULL);

	/* a job's devices: a devices directory a user owns grants none */
	snprintf(rel, sizeof(rel), "sys/fs/cgroup/devices/slurm/uid_0/job_4/devices.list");
	put(rel, "c 195:0 rwm\n");
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/devices/slurm/uid_0/job_4", dir);
	CU_ASSERT_FATAL(chown(path, 65534, 65534) == 0);
	CU_ASSERT_STRING_EQUAL(listed(u), "1=0-1;4=6-7;");
	snprintf(path, sizeof(path), "job 4 (its devices): %s/sys/fs/cgroup/devices/slurm/uid_0/job_4 belongs to uid 65534", dir);
	CU_ASSERT(strstr(uncore_warnings(), path) != NULL);
	uncore_close(u);
	done();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "simulated cgroup v2: a job directory uid 1000 owns is left out, named", test_sim_v2 },
		{ "simulated cgroup v1: the same", test_sim_v1 },
		{ "real directories chowned: a job's, a scope's, a uid_'s, a job's devices", test_chowned },
		{ NULL, NULL },
	};
	return run_suite("job_trust", tests);
}
