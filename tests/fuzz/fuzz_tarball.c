/* The snapshot archive reader (util/tarball.h: libarchive's tar and gzip, then this project's checks) on a
 * stranger's bytes, with small limits: whatever the input, nothing is made beside the directory extracted
 * into, nothing in it is other than a file or a directory, its files hold no more than the limits, and
 * what is made there can be removed; read into memory instead (tarball_read, as a replay reads it), each
 * member handed over is within the limits, with a name that stays below the directory. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <sys/stat.h>
#include "fuzz_common.h"
#include "util/remove_tree.h"
#include "util/tarball.h"

enum { MAX_MEMBER = 64 * 1024, MAX_TOTAL = 256 * 1024, MAX_MEMBERS = 64 };

/* Only the fuzzers' own scratch (uncore-fuzz-*) may be in the scratch directory: an entry of another
 * name was made by an extraction that left its directory. */
static void check_scratch(void)
{
	DIR *d = opendir(test_tmpdir());
	if (!d)
		abort();
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strncmp(e->d_name, "uncore-fuzz-", 12))
			abort();
	closedir(d);
}

/* The bytes of the regular files below path (each within MAX_MEMBER); abort on anything but a file or a
 * directory. */
static long long contents(const char *path)
{
	DIR *d = opendir(path);
	long long sum = 0;
	if (!d)
		abort();
	for (struct dirent *e; (e = readdir(d));) {
		char p[4096];
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (lstat(p, &st))
			abort();
		if (S_ISDIR(st.st_mode))
			sum += contents(p);
		else if (S_ISREG(st.st_mode) && st.st_size <= MAX_MEMBER)
			sum += st.st_size;
		else
			abort();
	}
	closedir(d);
	return sum;
}

struct taken {
	long long total;
	int members;
};

/* A member tarball_read hands over: within the limits, a relative name without '.' or '..' components */
static int take(void *arg, const char *name, const void *data, size_t len, int dir)
{
	struct taken *t = arg;
	size_t n = strlen(name);
	if (len > MAX_MEMBER || (t->total += (long long)len) > MAX_TOTAL || ++t->members > MAX_MEMBERS ||
	    (dir ? data != NULL || len : !data) || !n || n > 255 || name[0] == '/' || name[n - 1] == '/' ||
	    !strcmp(name, ".") || !strcmp(name, "..") || strstr(name, "/../") || strstr(name, "/./") ||
	    !strncmp(name, "../", 3) || !strncmp(name, "./", 2) || strstr(name, "//") ||
	    (n >= 3 && !strcmp(name + n - 3, "/..")) || (n >= 2 && !strcmp(name + n - 2, "/.")))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tarball_limits lim = { .max_member = MAX_MEMBER, .max_total = MAX_TOTAL, .max_members = MAX_MEMBERS };
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/uncore-fuzz-tarball-XXXXXX", test_tmpdir());
	if (!mkdtemp(dir))
		abort();
	tarball_extract(fuzz_file(data, size), dir, &lim);
	if (contents(dir) > MAX_TOTAL)
		abort();
	if (remove_tree(dir))
		abort();
	check_scratch();
	struct taken t = { 0 };
	tarball_read(fuzz_file(data, size), &lim, take, &t);
	check_scratch();
	return 0;
}
