/* The jobs of a node, from Slurm's cgroup trees (v2, v1) and from the spool directory (jobs.h), read through the
 * node's files (dev_fs.h): the machine's below the sysroot, or a simulated node's with the sysroot's beside. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jobs.h"
#include "util/error.h"
#include "util/guarded_read.h"
#include "devices/dev_fs.h"

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

/* A node's directories of jobs hold one entry a job (a few thousand on a node of 4096 CPUs): a listing longer
 * than this is no node's (a planted tree, a broken file system) and is read no further, said, so that the
 * scan ends in a time bounded by what it reads rather than by the directory. */
#define JOBS_DIR_MAX 65536

void jobs_free(struct uc_jobs *j)
{
	free(j->v);
	name_index_free(&j->ids);
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

static const char *id_of(const void *ctx, int i) { return ((const struct uc_jobs *)ctx)->v[i].id; }

static struct uc_job *job_named(struct uc_jobs *j, const char *id)
{
	int i = name_index_find(&j->ids, id, id_of, j);
	if (i < 0 || !strcmp(j->v[i].id, id))
		return i < 0 ? NULL : &j->v[i];
	for (i = 0; i < j->n; i++) /* the index ignores case, an id does not: "A1" and "a1" are two jobs */
		if (!strcmp(j->v[i].id, id))
			return &j->v[i];
	return NULL;
}

/* A spool entry's lines after the first: "gpus=LIST" (the job's GPU indexes).  What cannot be used leaves the
 * job's devices out, said: a bad entry loses its own job's devices alone. */
static void entry_devices(struct uc_job *jb, const char *rest, const char *file)
{
	char why[160];
	for (const char *l = rest; *l;) {
		size_t n = strcspn(l, "\n");
		if (n > 5 && !strncmp(l, "gpus=", 5)) {
			char *list = strndup(l + 5, n - 5);
			uint8_t g[UC_MAX_CPUS / 8] = { 0 };
			int k = list ? cpulist_parse(list, g, why, sizeof(why)) : -1;
			int high = 0;
			for (int i = UC_JOB_MAX_GPU + 1; k > 0 && i < UC_MAX_CPUS; i++)
				high |= cpu_in(g, i);
			free(list);
			if (k <= 0 || high) {
				char v[40];
				uc_warn("job %s (%s): %s: gpus=%s is not a list of GPU indexes 0-%d (numbers, ranges low-high, "
					"commas between): its devices are left out", jb->id, jb->source, file,
					shown(l + 5, v, n - 5 + 1 < sizeof(v) ? n - 5 + 1 : sizeof(v)), UC_JOB_MAX_GPU);
				memset(jb->gpus, 0, sizeof(jb->gpus));
				jb->ngpus = -1; /* said: no later line adds to it */
				return;
			}
			for (size_t i = 0; i < sizeof(g) && jb->ngpus >= 0; i++)
				jb->gpus[i] |= g[i];
			if (jb->ngpus >= 0)
				jb->ngpus += k;
		} else if (n) {
			char shown_line[80];
			uc_warn("job %s (%s): %s: the line '%s' is not gpus=LIST: ignored", jb->id, jb->source, file,
				shown(l, shown_line, n + 1 < sizeof(shown_line) ? n + 1 : sizeof(shown_line)));
		}
		l += n + (l[n] == '\n');
	}
}

/* A job named id from text, the entry's contents (the first line its CPU list; a spool entry's may be "-",
 * and its further lines give its devices): added, or its devices added to the job another source named;
 * 0, or -1 out of memory.  What cannot be used is a warning. */
static int add_text(struct uc_jobs *j, const char *id, const char *source, const char *file, const char *text, int spool)
{
	char why[160];
	size_t n = strcspn(text, "\n");
	const char *rest = text + n + (text[n] == '\n');
	struct uc_job *jb = job_named(j, id);
	if (jb) { /* the first source that names it stands: a spool entry adds its devices */
		if (spool)
			entry_devices(jb, rest, file);
		return 0;
	}
	if (spool && n == 1 && text[0] == '-') {
		uc_warn("job %s (%s): %s gives its CPUs as '-' (its cgroup's), and no cgroup of the job was found: left out",
			id, source, file);
		return 0;
	}
	if (!(jb = job_new(j)))
		return uc_err("out of memory");
	char *line = strndup(text, n);
	int k = line ? cpulist_parse(line, jb->cpus, why, sizeof(why)) : 0;
	free(line);
	if (!line)
		return uc_err("out of memory");
	if (k <= 0) {
		uc_warn("job %s (%s): %s: %s: left out", id, source, file, k < 0 ? why : "no CPU in it");
		return 0;
	}
	snprintf(jb->id, sizeof(jb->id), "%s", id);
	jb->source = source;
	jb->ncpus = k;
	if (name_index_add(&j->ids, j->n, id_of, j))
		return -1;
	j->n++;
	if (spool)
		entry_devices(jb, rest, file);
	return 0;
}

/* The file's text into buf (at most max - 1 bytes): its first line, or for a spool entry all of it; 0, or -1
 * with errno and st (dev_fs_text's; EOVERFLOW: a first line longer than the buffer). */
static int read_entry(const struct dev_fs *fs, const char *file, char *buf, size_t max, struct stat *st, int spool)
{
	size_t got;
	if (dev_fs_text(fs, file, buf, max, &got, st))
		return -1;
	if (strlen(buf) != got) { /* a NUL in it: no text */
		errno = EILSEQ;
		return -1;
	}
	if (!spool && !strchr(buf, '\n') && got == max - 1) { /* a line cut would read as another list */
		errno = EOVERFLOW;
		return -1;
	}
	if (!spool)
		buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* A job named id whose CPU list is the first line of file (spool: the file must be root's or this user's,
 * writable by its owner alone, and may give devices): added; 0, or -1 out of memory.  What cannot be used is
 * a warning. */
static int add(struct uc_jobs *j, const struct dev_fs *fs, const char *id, const char *source, const char *file,
	       int spool)
{
	/* 4096 CPUs listed one by one: 19,444 characters; a spool entry's gpus= line as many again */
	const size_t max = spool ? 40960 : 20480;
	char name[80], why[160], shown_file[4096], *text = NULL;
	struct stat st;
	int rc = 0;
	dev_fs_shown(fs, file, shown_file, sizeof(shown_file));
	if (!job_id_ok(id)) {
		uc_warn("%s: a job named '%s' is left out: a job id is 1..%d of A-Z a-z 0-9 . _ - [ ]", source,
			shown(id, name, sizeof(name)), UC_JOB_ID_MAX);
		return 0;
	}
	if (!spool && job_named(j, id))
		return 0; /* the first source that names it stands */
	if (!(text = malloc(max)))
		return uc_err("out of memory");
	if (read_entry(fs, file, text, max, &st, spool)) {
		int e = errno;
		if (e == ENOENT) /* listed, then gone: the job ended while we read */
			uc_warn("job %s (%s): %s vanished while it was read (the job ended): left out", id, source, shown_file);
		else
			uc_warn("job %s (%s): cannot read %s: %s: left out", id, source, shown_file,
				e == EILSEQ ? "it holds a NUL byte, not text"
					    : uc_guarded_why(e, &st, (off_t)max - 1, max, why, sizeof(why)));
		goto out;
	}
	/* a spool file is trusted only when root (or this user) wrote it and no one else may change it */
	if (spool && ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022))) {
		uc_warn("job %s (%s): %s belongs to uid %u with mode %04o: a spool file must be root's (or this user's) "
			"and writable by its owner alone: left out", id, source, shown_file, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 07777));
		goto out;
	}
	rc = add_text(j, id, source, shown_file, text, spool);
out:
	free(text);
	return rc;
}

/* A directory's names, at most JOBS_DIR_MAX (said once, naming dir): 0, or -1 when there is none (l empty). */
static int names(const struct dev_fs *fs, const char *dir, struct dev_names *l)
{
	char where[4096];
	int more = 0, rc = dev_fs_names_upto(fs, dir, JOBS_DIR_MAX, l, &more);
	if (more)
		uc_warn("%s holds more than %d entries, no node's jobs: the rest are left out",
			dev_fs_shown(fs, dir, where, sizeof(where)), JOBS_DIR_MAX);
	return rc;
}

/* DIR/NAME into out; 0, or -1 when it does not fit (such an entry is not a job of ours: skipped) */
static int child_path(char *out, size_t n, const char *dir, const char *name)
{
	int k = snprintf(out, n, "%s/%s", dir, name);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* Whether a directory of a batch system's cgroup tree may name jobs: root's (slurmstepd makes the scope, the
 * slurm, uid_ and job_ directories as root: Slurm's cgroup/v1 and cgroup/v2 plugins), or this user's (a tree of
 * its own below UNCORE_SYSROOT fools no one else).  A user who owns one (a delegated cgroup, a chown) could make
 * job_ directories of any id and CPUs, and rename a job's directory to another id: such a directory is left out,
 * said, with everything below it (what names it: the job, or "the jobs below it"). */
static int owned_ok(const struct dev_fs *fs, const char *dir, const char *what)
{
	struct stat st;
	char where[4096];
	if (dev_fs_stat(fs, dir, &st))
		return 1; /* gone while read: what is below it says so */
	if (st.st_uid == 0 || st.st_uid == geteuid())
		return 1;
	uc_warn("%s: %s belongs to uid %u, not root: a batch system's cgroup is made by root, one a user made may name "
		"any job and CPUs: %s left out", what, dev_fs_shown(fs, dir, where, sizeof(where)), (unsigned)st.st_uid,
		strncmp(what, "job ", 4) ? "the jobs below it are" : "it is");
	return 0;
}

/* Each job_ID directory of dir: its CPU file (the first of files that exists). */
static int job_dirs(struct uc_jobs *j, const struct dev_fs *fs, const char *dir, const char *source,
		    const char *const files[])
{
	struct dev_names l;
	char path[4096];
	struct stat st;
	int rc = 0;
	names(fs, dir, &l);
	for (int i = 0; !rc && i < l.n; i++) {
		const char *e = l.v[i];
		if (strncmp(e, "job_", 4))
			continue;
		char name[80], who[120];
		snprintf(who, sizeof(who), "job %s (%s)", shown(e + 4, name, sizeof(name)), source);
		if (child_path(path, sizeof(path), dir, e) || !owned_ok(fs, path, who))
			continue;
		const char *f = files[0];
		for (int k = 0; files[k]; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, e, files[k]);
			if (!dev_fs_stat(fs, path, &st)) {
				f = files[k];
				break;
			}
		}
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e, f);
		rc = add(j, fs, e + 4, source, path, 0);
	}
	free(l.v);
	return rc;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && !strcmp(s + n - k, end);
}

/* cgroup v2: system.slice/[NODE_]slurmstepd.scope/job_ID/cpuset.cpus.effective */
static int slurm_v2(struct uc_jobs *j, const struct dev_fs *fs)
{
	static const char *const files[] = { "cpuset.cpus.effective", NULL };
	static const char dir[] = "/sys/fs/cgroup/system.slice";
	char sub[4096];
	struct dev_names l;
	int rc = 0;
	names(fs, dir, &l);
	for (int i = 0; !rc && i < l.n; i++)
		if (ends_with(l.v[i], "slurmstepd.scope") && l.v[i][0] != '.' && !child_path(sub, sizeof(sub), dir, l.v[i]) &&
		    owned_ok(fs, sub, "slurm-cgroup2"))
			rc = job_dirs(j, fs, sub, "slurm-cgroup2", files);
	free(l.v);
	return rc;
}

/* fn(j, fs, dir) for each slurm[_NODE]/uid_UID directory of a cgroup v1 controller's tree top */
static int slurm_v1_uids(struct uc_jobs *j, const struct dev_fs *fs, const char *top,
			 int (*fn)(struct uc_jobs *j, const struct dev_fs *fs, const char *dir))
{
	char sub[4096], uid[4096];
	struct dev_names l, ul;
	int rc = 0;
	names(fs, top, &l);
	for (int i = 0; !rc && i < l.n; i++) {
		if ((strcmp(l.v[i], "slurm") && strncmp(l.v[i], "slurm_", 6)) || child_path(sub, sizeof(sub), top, l.v[i]) ||
		    !owned_ok(fs, sub, "slurm-cgroup1"))
			continue;
		names(fs, sub, &ul);
		for (int k = 0; !rc && k < ul.n; k++)
			if (!strncmp(ul.v[k], "uid_", 4) && !child_path(uid, sizeof(uid), sub, ul.v[k]) &&
			    owned_ok(fs, uid, "slurm-cgroup1"))
				rc = fn(j, fs, uid);
		free(ul.v);
	}
	free(l.v);
	return rc;
}

/* cgroup v1: cpuset/slurm[_NODE]/uid_UID/job_ID/cpuset.effective_cpus, or cpuset.cpus */
static int v1_cpus(struct uc_jobs *j, const struct dev_fs *fs, const char *uid)
{
	static const char *const files[] = { "cpuset.effective_cpus", "cpuset.cpus", NULL };
	return job_dirs(j, fs, uid, "slurm-cgroup1", files);
}

/* A job's cgroup v1 devices.list: the device nodes it may open, "c MAJOR:MINOR ACCESS" a line (Linux
 * security/device_cgroup.c devcgroup_seq_show).  A cgroup that allows every device but those it denies
 * shows "a *:* rwm" alone (the same function lists exceptions only under default deny): it names none. */
static void job_devlist(struct uc_job *jb, const struct dev_fs *fs, const char *file)
{
	char text[8192], why[160], where[4096];
	struct stat st;
	size_t got;
	if (dev_fs_text(fs, file, text, sizeof(text), &got, &st)) {
		if (errno != ENOENT)
			uc_warn("job %s: cannot read %s: %s: its devices there are left out", jb->id,
				dev_fs_shown(fs, file, where, sizeof(where)),
				uc_guarded_why(errno, &st, (off_t)sizeof(text) - 1, sizeof(text), why, sizeof(why)));
		return;
	}
	for (char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		unsigned maj, min;
		char c;
		int end = 0, last = !l[n];
		l[n] = 0;
		if (sscanf(l, "%c %u:%u %*[rwm]%n", &c, &maj, &min, &end) == 3 && end && c == 'c' &&
		    jb->nnodes < UC_JOB_MAX_DEVS) {
			jb->node_major[jb->nnodes] = maj;
			jb->node_minor[jb->nnodes++] = min;
		}
		l += n + !last;
	}
}

/* cgroup v1: devices/slurm[_NODE]/uid_UID/job_ID/devices.list, for each job found (cgroup v2 has no such
 * file: its device controller is a BPF program, which shows no list). */
static int v1_devices(struct uc_jobs *j, const struct dev_fs *fs, const char *uid)
{
	char f[4096];
	char who[120];
	for (int i = 0; i < j->n; i++) {
		snprintf(who, sizeof(who), "job %s (its devices)", j->v[i].id);
		if (snprintf(f, sizeof(f), "%s/job_%s", uid, j->v[i].id) >= (int)sizeof(f) - 13 || !owned_ok(fs, f, who))
			continue;
		strcat(f, "/devices.list");
		job_devlist(&j->v[i], fs, f);
	}
	return 0;
}

/* The spool: a file per job, named by its id, its first line the CPU list; the directory itself must not
 * let others plant files (writable by its owner alone, or sticky). */
static int spool(struct uc_jobs *j, const struct dev_fs *fs)
{
	static const char dir[] = "/run/intel-uncore/jobs";
	char path[4096], where[4096];
	struct stat st;
	struct dev_names l;
	int rc = 0;
	if (dev_fs_stat(fs, dir, &st))
		return 0;
	if (!S_ISDIR(st.st_mode) || ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		uc_warn("the job spool %s is not a directory of root (or this user) writable by its owner alone: its jobs "
			"are left out", dev_fs_shown(fs, dir, where, sizeof(where)));
		return 0;
	}
	names(fs, dir, &l);
	for (int i = 0; !rc && i < l.n; i++) {
		const char *e = l.v[i];
		if (e[0] == '.')
			continue;
		if (child_path(path, sizeof(path), dir, e) || dev_fs_stat(fs, path, &st) || !S_ISREG(st.st_mode)) {
			char name[80];
			uc_warn("job spool: %s is not a regular file: left out", shown(e, name, sizeof(name)));
			continue;
		}
		rc = add(j, fs, e, "spool", path, 1);
	}
	free(l.v);
	return rc;
}

int jobs_scan(struct uc_jobs *j, const struct dev_fs *fs)
{
	j->n = 0;
	name_index_free(&j->ids);
	return slurm_v2(j, fs) || slurm_v1_uids(j, fs, "/sys/fs/cgroup/cpuset", v1_cpus) || spool(j, fs) ||
			       slurm_v1_uids(j, fs, "/sys/fs/cgroup/devices", v1_devices)
		       ? -1
		       : 0;
}
