/* The jobs of a node, from Slurm's cgroup trees (v2, v1) and from the spool directory (jobs.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jobs.h"
#include "util/error.h"
#include "util/guarded_read.h"

int job_id_ok(const char *id)
{
	size_t n = strlen(id);
	if (!n || n > UC_JOB_ID_MAX || id[0] == '.' || id[0] == '-')
		return 0;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("._-[]", *p)))
			return 0;
	return 1;
}

/* A name for messages: printable ASCII kept, anything else '?', at most 64 characters. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	for (; s[i] && i + 1 < len && i < 64; i++)
		buf[i] = s[i] > ' ' && s[i] < 127 ? s[i] : '?';
	buf[i] = 0;
	return buf;
}

void jobs_free(struct uc_jobs *j)
{
	free(j->v);
	*j = (struct uc_jobs){ 0 };
}

static struct uc_job *job_new(struct uc_jobs *j)
{
	if (j->n == j->cap) {
		int cap = j->cap ? 2 * j->cap : 16;
		struct uc_job *v = realloc(j->v, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		j->v = v;
		j->cap = cap;
	}
	memset(&j->v[j->n], 0, sizeof(j->v[0]));
	return &j->v[j->n];
}

/* A job named id whose CPU list is the first line of file (spool: the file must be root's or this user's,
 * writable by its owner alone): added; 0, or -1 out of memory.  What cannot be used is a warning. */
static int add(struct uc_jobs *j, const char *id, const char *source, const char *file, int spool)
{
	const size_t max = 20480; /* 4096 CPUs listed one by one: 19,444 characters */
	char name[80], why[160], *line = NULL;
	struct stat st;
	int rc = 0;
	if (!job_id_ok(id)) {
		uc_warn("%s: a job named '%s' is left out: a job id is 1..%d of A-Z a-z 0-9 . _ - [ ]", source,
			shown(id, name, sizeof(name)), UC_JOB_ID_MAX);
		return 0;
	}
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->v[i].id, id))
			return 0; /* the first source that names it stands */
	if (!(line = malloc(max)))
		return uc_err("out of memory");
	if (uc_read_first_line(file, line, max, &st)) {
		int e = errno;
		if (e == ENOENT) /* listed, then gone: the job ended while we read */
			uc_warn("job %s (%s): %s vanished while it was read (the job ended): left out", id, source, file);
		else
			uc_warn("job %s (%s): cannot read %s: %s: left out", id, source, file,
				uc_guarded_why(e, &st, UC_SYSFILE_MAX, max, why, sizeof(why)));
		goto out;
	}
	/* a spool file is trusted only when root (or this user) wrote it and no one else may change it */
	if (spool && ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022))) {
		uc_warn("job %s (%s): %s belongs to uid %u with mode %04o: a spool file must be root's (or this user's) "
			"and writable by its owner alone: left out", id, source, file, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 07777));
		goto out;
	}
	struct uc_job *jb = job_new(j);
	if (!jb) {
		rc = uc_err("out of memory");
		goto out;
	}
	int n = cpulist_parse(line, jb->cpus, why, sizeof(why));
	if (n <= 0) {
		uc_warn("job %s (%s): %s: %s: left out", id, source, file, n < 0 ? why : "no CPU in it");
		goto out;
	}
	snprintf(jb->id, sizeof(jb->id), "%s", id);
	jb->source = source;
	jb->ncpus = n;
	j->n++;
out:
	free(line);
	return rc;
}

/* Each job_ID directory of dir: its CPU file (the first of files that exists). */
static int job_dirs(struct uc_jobs *j, const char *dir, const char *source, const char *const files[])
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "job_", 4))
			continue;
		const char *f = files[0];
		for (int k = 0; files[k]; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, files[k]);
			if (!access(path, F_OK)) {
				f = files[k];
				break;
			}
		}
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, f);
		if (add(j, e->d_name + 4, source, path, 0)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/* DIR/NAME into out; 0, or -1 when it does not fit (such an entry is not a job of ours: skipped) */
static int child_path(char *out, size_t n, const char *dir, const char *name)
{
	int k = snprintf(out, n, "%s/%s", dir, name);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && !strcmp(s + n - k, end);
}

/* cgroup v2: system.slice/[NODE_]slurmstepd.scope/job_ID/cpuset.cpus.effective */
static int slurm_v2(struct uc_jobs *j)
{
	static const char *const files[] = { "cpuset.cpus.effective", NULL };
	char dir[4096], sub[4096];
	DIR *d = opendir(sysroot_path(dir, sizeof(dir), "/sys/fs/cgroup/system.slice"));
	struct dirent *e;
	int rc = 0;
	if (!d)
		return 0;
	while (!rc && (e = readdir(d)))
		if (ends_with(e->d_name, "slurmstepd.scope") && e->d_name[0] != '.' &&
		    !child_path(sub, sizeof(sub), dir, e->d_name))
			rc = job_dirs(j, sub, "slurm-cgroup2", files);
	closedir(d);
	return rc;
}

/* cgroup v1: cpuset/slurm[_NODE]/uid_UID/job_ID/cpuset.effective_cpus, or cpuset.cpus */
static int slurm_v1(struct uc_jobs *j)
{
	static const char *const files[] = { "cpuset.effective_cpus", "cpuset.cpus", NULL };
	char dir[4096], sub[4096], uid[4096];
	DIR *d = opendir(sysroot_path(dir, sizeof(dir), "/sys/fs/cgroup/cpuset"));
	struct dirent *e, *u;
	int rc = 0;
	if (!d)
		return 0;
	while (!rc && (e = readdir(d))) {
		if ((strcmp(e->d_name, "slurm") && strncmp(e->d_name, "slurm_", 6)) ||
		    child_path(sub, sizeof(sub), dir, e->d_name))
			continue;
		DIR *ud = opendir(sub);
		while (!rc && ud && (u = readdir(ud)))
			if (!strncmp(u->d_name, "uid_", 4) && !child_path(uid, sizeof(uid), sub, u->d_name))
				rc = job_dirs(j, uid, "slurm-cgroup1", files);
		if (ud)
			closedir(ud);
	}
	closedir(d);
	return rc;
}

/* The spool: a file per job, named by its id, its first line the CPU list; the directory itself must not
 * let others plant files (writable by its owner alone, or sticky). */
static int spool(struct uc_jobs *j)
{
	char dir[4096], path[4096];
	struct stat st;
	sysroot_path(dir, sizeof(dir), "/run/intel-uncore/jobs");
	if (lstat(dir, &st))
		return 0;
	if (!S_ISDIR(st.st_mode) || ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		uc_warn("the job spool %s is not a directory of root (or this user) writable by its owner alone: its jobs "
			"are left out", dir);
		return 0;
	}
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;
	while (!rc && d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (child_path(path, sizeof(path), dir, e->d_name) || lstat(path, &st) || !S_ISREG(st.st_mode)) {
			char name[80];
			uc_warn("job spool: %s is not a regular file: left out", shown(e->d_name, name, sizeof(name)));
			continue;
		}
		rc = add(j, e->d_name, "spool", path, 1);
	}
	if (d)
		closedir(d);
	return rc;
}

int jobs_scan(struct uc_jobs *j)
{
	j->n = 0;
	return slurm_v2(j) || slurm_v1(j) || spool(j) ? -1 : 0;
}
