/*
 * The snapshot archive (util/tarball.h, through libarchive): what the writer writes, plain or gzip,
 * reads back byte for byte, GNU tar and gzip agree with it both ways, and every hostile archive (each built
 * here by hand, header by header, some then gzipped) is refused with a message naming the problem and the
 * member, with nothing created beside the directory it is extracted into and nothing over the limits in it;
 * read into memory as a replay reads it (tarball_read), each is refused for the same reason, and an archive
 * extracted is read as the same bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "replay/sim_replay.h"
#include "util/memfs.h"
#include "util/remove_tree.h"
#include "util/tarball.h"
#include "uncore.h"

static const struct tarball_limits small = { .max_member = 1 << 20, .max_total = 4 << 20, .max_members = 100 };

/* A test's scratch: BASE/a.tar, BASE/x (extracted into), BASE/sibling (must stay empty). */
struct scratch {
	char base[256], archive[300], x[300], sibling[300];
};

static void scratch_make(struct scratch *s)
{
	snprintf(s->base, sizeof(s->base), "%s/uncore-tar-XXXXXX", test_tmpdir());
	CU_ASSERT_FATAL(mkdtemp(s->base) != NULL);
	snprintf(s->archive, sizeof(s->archive), "%s/a.tar", s->base);
	snprintf(s->x, sizeof(s->x), "%s/x", s->base);
	snprintf(s->sibling, sizeof(s->sibling), "%s/sibling", s->base);
	CU_ASSERT_FATAL(mkdir(s->x, 0700) == 0 && mkdir(s->sibling, 0700) == 0);
}

static void scratch_drop(struct scratch *s)
{
	int rc = remove_tree(s->base);
	if (rc)
		fprintf(stderr, "FAIL removing %s: %s\n", s->base, uncore_error());
	CU_ASSERT(rc == 0 && access(s->base, F_OK) != 0);
}

/* Entries in dir (without . and ..), or -1. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Regular files below dir, or -1 when anything else than files and directories is there. */
static int files_below(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; n >= 0 && (e = readdir(d));) {
		char p[1024];
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st))
			n = -1;
		else if (S_ISDIR(st.st_mode)) {
			int k = files_below(p);
			n = k < 0 ? -1 : n + k;
		} else
			n = S_ISREG(st.st_mode) ? n + 1 : -1;
	}
	closedir(d);
	return n;
}

/* dir/name holds exactly len bytes of data. */
static int same_file(const char *dir, const char *name, const void *data, size_t len)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "rb");
	if (!f)
		return 0;
	unsigned char *got = malloc(len + 1);
	size_t n = fread(got, 1, len + 1, f);
	int same = n == len && !memcmp(got, data, len);
	free(got);
	fclose(f);
	if (!same)
		fprintf(stderr, "FAIL %s: %zu bytes, want %zu\n", p, n, len);
	return same;
}

/* --- archives built by hand --- */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		CU_ASSERT_FATAL(b->p != NULL);
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void put_zeros(struct buf *b, size_t n)
{
	static const unsigned char z[1024];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		put(b, z, k);
		n -= k;
	}
}

/* The header's checksum (POSIX: the unsigned sum, the field taken as spaces): six digits, NUL, space. */
static void checksum(unsigned char *h)
{
	unsigned s = 0;
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		s += h[i];
	snprintf((char *)h + 148, 8, "%06o", s);
}

/* A ustar header as a well-behaved writer makes it; name up to 100 characters. */
static void header(unsigned char *h, const char *name, char type, unsigned long long size)
{
	memset(h, 0, 512);
	memcpy(h, name, strlen(name) < 100 ? strlen(name) : 100);
	snprintf((char *)h + 100, 8, "%07o", 0644);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	char sz[16];
	snprintf(sz, sizeof(sz), size > 077777777777ull ? "%012llo" : "%011llo", size); /* 12 digits: no NUL */
	memcpy(h + 124, sz, strlen(sz));
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	checksum(h);
}

/* A member: its header, its data, zeros to the block's end. */
static void member(struct buf *b, const char *name, char type, const void *data, size_t n)
{
	unsigned char h[512];
	header(h, name, type, n);
	put(b, h, 512);
	put(b, data, n);
	put_zeros(b, (512 - n % 512) % 512);
}

static void linked(struct buf *b, const char *name, char type, const char *target)
{
	unsigned char h[512];
	header(h, name, type, 0);
	memcpy(h + 157, target, strlen(target));
	checksum(h);
	put(b, h, 512);
}

static void end(struct buf *b) { put_zeros(b, 1024); }

static void reset(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void write_buf(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(b->n == 0 || fwrite(b->p, 1, b->n, f) == b->n);
	CU_ASSERT(fclose(f) == 0);
}

/* path gzipped in place (gzip -n: no name or time in its header) */
static void gzip_file(const char *path)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "gzip -9n <'%s' >'%s.z' && mv '%s.z' '%s'", path, path, path, path);
	CU_ASSERT_FATAL(system(cmd) == 0);
}

/* Bytes of the regular files below dir. */
static long long bytes_below(const char *dir)
{
	DIR *d = opendir(dir);
	long long n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		char p[1024];
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !lstat(p, &st))
			n += S_ISDIR(st.st_mode) ? bytes_below(p) : st.st_size;
	}
	closedir(d);
	return n;
}

static int x_entries; /* what the last refused archive left in x */
static int gz;        /* refused_lim: gzip the archive first */

/* Extract b (then emptied; gzipped first when gz): refused with expect in the message, nothing beside s->x,
 * no link in it, no more bytes in it than the limit.  x is emptied after. */
/* The archive read into memory as a replay reads it (tarball_read, replay_snap_take): its result, the message
 * in why (len bytes), its members' bytes in *bytes. */
static int read_in_memory(const char *archive, const struct tarball_limits *lim, char *why, size_t len, long long *bytes)
{
	struct memfs m = { 0 };
	struct replay_take t = { &m, archive };
	int rc = tarball_read(archive, lim, replay_snap_take, &t);
	snprintf(why, len, "%s", rc ? uncore_error() : "");
	*bytes = 0;
	for (int i = 0; i < m.n; i++)
		*bytes += (long long)m.f[i].len;
	memfs_free(&m);
	return rc;
}

static void refused_lim(struct scratch *s, struct buf *b, const struct tarball_limits *lim, const char *expect)
{
	char why[1024];
	long long in_memory;
	write_buf(s->archive, b);
	if (gz)
		gzip_file(s->archive);
	/* read into memory: refused with the same reason, nothing over the limit taken */
	int rc_read = read_in_memory(s->archive, lim, why, sizeof(why), &in_memory);
	if (rc_read != -1 || !strstr(why, expect) || (unsigned long long)in_memory > lim->max_total)
		fprintf(stderr, "FAIL read into memory, want '%s': rc %d, message '%s', %lld bytes\n", expect, rc_read, why,
			in_memory);
	CU_ASSERT(rc_read == -1 && strstr(why, expect) != NULL && (unsigned long long)in_memory <= lim->max_total);
	int rc = tarball_extract(s->archive, s->x, lim);
	long long bytes = bytes_below(s->x);
	int sib = entries(s->sibling), base = entries(s->base), files = files_below(s->x);
	if (rc != -1 || !strstr(uncore_error(), expect) || sib || base != 3 || files < 0 || (unsigned long long)bytes > lim->max_total)
		fprintf(stderr, "FAIL want '%s': rc %d, message '%s', sibling %d entries, base %d, x %d files, %lld bytes\n",
			expect, rc, uncore_error(), sib, base, files, bytes);
	CU_ASSERT(rc == -1);
	CU_ASSERT(strstr(uncore_error(), expect) != NULL);
	CU_ASSERT(sib == 0 && base == 3 && files >= 0 && bytes >= 0 && (unsigned long long)bytes <= lim->max_total);
	x_entries = entries(s->x);
	CU_ASSERT(remove_tree(s->x) == 0 && mkdir(s->x, 0700) == 0 && unlink(s->archive) == 0);
	reset(b);
}

static void refused(struct scratch *s, struct buf *b, const char *expect) { refused_lim(s, b, &small, expect); }

/* Extract b (then emptied), which libarchive may read as it likes: accepted or refused, only files and
 * directories in x, nothing beside it, no more bytes than the limit.  x is emptied after.  The
 * extraction's result. */
static int contained(struct scratch *s, struct buf *b)
{
	char why[1024];
	long long in_memory;
	write_buf(s->archive, b);
	int rc_read = read_in_memory(s->archive, &small, why, sizeof(why), &in_memory);
	int rc = tarball_extract(s->archive, s->x, &small);
	/* read into memory: the same result, the same bytes taken where it is accepted */
	if (rc_read != rc || (rc && strcmp(why, uncore_error())) || in_memory > (long long)small.max_total ||
	    (!rc && in_memory != bytes_below(s->x)))
		fprintf(stderr, "FAIL read into memory: rc %d (%s), extracted: rc %d (%s); %lld bytes\n", rc_read, why, rc,
			rc ? uncore_error() : "", in_memory);
	CU_ASSERT(rc_read == rc && (!rc || !strcmp(why, uncore_error())) && in_memory <= (long long)small.max_total &&
		  (rc || in_memory == bytes_below(s->x)));
	int sib = entries(s->sibling), base = entries(s->base), files = files_below(s->x);
	long long bytes = bytes_below(s->x);
	if (sib || base != 3 || files < 0 || bytes < 0 || bytes > (long long)small.max_total)
		fprintf(stderr, "FAIL contained: rc %d (%s), sibling %d entries, base %d, x %d files, %lld bytes\n", rc,
			rc ? uncore_error() : "", sib, base, files, bytes);
	CU_ASSERT(sib == 0 && base == 3 && files >= 0 && bytes >= 0 && bytes <= (long long)small.max_total);
	x_entries = files;
	CU_ASSERT(remove_tree(s->x) == 0 && mkdir(s->x, 0700) == 0 && unlink(s->archive) == 0);
	reset(b);
	return rc;
}

/* --- the writer, and reading its archives back --- */

struct file {
	char name[300];
	unsigned char *data;
	size_t len;
};

enum { NFILES = 7 };

/* Members of every kind the writer meets: nested directories, a name split into prefix and name, names
 * of exactly 100 and 255 characters, an empty file, a 70 KB file. */
static void files_make(struct file *f)
{
	static const char *nested = "devices/system/node/node0/cpu0/topology/core_id";
	memset(f, 0, NFILES * sizeof(*f));
	strcpy(f[0].name, "a.txt");
	strcpy(f[1].name, nested);
	snprintf(f[2].name, sizeof(f[2].name), "bus/pci/devices/0000:00:05.0/uncore_imc_0/events/%s/%s",
		 "cas_count_read.scale_and_unit=MiB@64B,more", "a_rather_long_file_name_for_the_name_field_of_the_header");
	strcpy(f[3].name, "empty");
	strcpy(f[4].name, "big/seventy_k.bin");
	memset(f[5].name, 'n', 100); /* the name field full, without its NUL */
	memset(f[6].name, 'p', 155); /* the prefix field full, and the name field */
	f[6].name[155] = '/';
	memset(f[6].name + 156, 'q', 99);
	f[0].len = 6, f[1].len = 300, f[2].len = 5, f[3].len = 0, f[4].len = 70 * 1024, f[5].len = 513, f[6].len = 1;
	for (int i = 0; i < NFILES; i++) {
		f[i].data = malloc(f[i].len + 1);
		for (size_t j = 0; j < f[i].len; j++)
			f[i].data[j] = (unsigned char)(j * 7 + j / 251 + (size_t)i);
	}
	memcpy(f[0].data, "hello\n", 6);
	CU_ASSERT(strlen(f[2].name) > 100 && strlen(f[2].name) <= 255 && strlen(f[6].name) == 255);
}

static void files_free(struct file *f)
{
	for (int i = 0; i < NFILES; i++)
		free(f[i].data);
}

static int write_archive(const char *path, const struct file *f)
{
	struct tarball_writer *w;
	if (tarball_create(&w, path))
		return -1;
	for (int i = 0; i < NFILES; i++)
		if (tarball_add(w, f[i].name, f[i].data, f[i].len)) {
			tarball_abort(w);
			return -1;
		}
	return tarball_finish(w);
}

static int all_same(const char *dir, const struct file *f)
{
	int ok = files_below(dir) == NFILES;
	for (int i = 0; i < NFILES; i++)
		ok &= same_file(dir, f[i].name, f[i].data, f[i].len);
	return ok;
}

/* The first bytes of path (n of them), or -1. */
static int head_of(const char *path, unsigned char *h, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(h, 1, n, f) : 0;
	if (f)
		fclose(f);
	return got == n ? 0 : -1;
}

static void test_round_trip(void)
{
	struct scratch s;
	struct file f[NFILES];
	scratch_make(&s);
	files_make(f);
	for (int gzip = 0; gzip < 2; gzip++) {
		struct stat st;
		char path[320], again[320], leaf[1024], cmd[800];
		unsigned char h[10];
		snprintf(path, sizeof(path), "%s/a%s", s.base, gzip ? ".tar.gz" : ".tar");
		snprintf(again, sizeof(again), "%s/b%s", s.base, gzip ? ".tar.gz" : ".tar");
		int rc = write_archive(path, f);
		if (rc)
			fprintf(stderr, "FAIL writing %s: %s\n", path, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
		CU_ASSERT(head_of(path, h, sizeof(h)) == 0);
		if (gzip) {
			/* RFC 1952: ID1 ID2 0x1f 0x8b, CM 8 (deflate), MTIME 0 ("no time stamp"); gzip checks its CRC */
			CU_ASSERT(h[0] == 0x1f && h[1] == 0x8b && h[2] == 8);
			CU_ASSERT(h[4] == 0 && h[5] == 0 && h[6] == 0 && h[7] == 0);
			snprintf(cmd, sizeof(cmd), "gzip -t '%s' && [ $(( $(gzip -dc '%s' | wc -c) %% 512 )) -eq 0 ]", path, path);
			CU_ASSERT(system(cmd) == 0);
			CU_ASSERT(st.st_size < 20 * 1024); /* 72 KB of members, the 70 KB one of a short cycle */
		} else
			CU_ASSERT(st.st_size % 512 == 0 && h[0] == 'a' && !memcmp(h, "a.txt", 6));
		rc = tarball_extract(path, s.x, &small);
		if (rc)
			fprintf(stderr, "FAIL extracting %s: %s\n", path, uncore_error());
		CU_ASSERT(rc == 0);
		CU_ASSERT(all_same(s.x, f));
		snprintf(leaf, sizeof(leaf), "%s/%s", s.x, f[1].name);
		CU_ASSERT(stat(leaf, &st) == 0 && (st.st_mode & 0777) == 0600); /* the archive's modes are not obeyed */
		CU_ASSERT(remove_tree(s.x) == 0 && mkdir(s.x, 0700) == 0);
		/* reproducible: the same members give the same bytes */
		CU_ASSERT_FATAL(write_archive(again, f) == 0);
		snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", path, again);
		CU_ASSERT(system(cmd) == 0);
	}
	files_free(f);
	scratch_drop(&s);
}

/* The name's suffix chooses: .gz and .tgz are gzip, anything else a plain tar. */
static void test_suffix(void)
{
	static const struct {
		const char *name;
		int gzip;
	} names[] = { { "n.tar.gz", 1 }, { "n.tgz", 1 }, { "n.gz", 1 }, { "n.tar", 0 }, { "n", 0 }, { "n.tar.gz.old", 0 } };
	struct scratch s;
	scratch_make(&s);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[400];
		unsigned char h[2];
		struct tarball_writer *w;
		snprintf(path, sizeof(path), "%s/%s", s.base, names[i].name);
		CU_ASSERT_FATAL(tarball_create(&w, path) == 0);
		CU_ASSERT(tarball_add(w, "f", "x", 1) == 0 && tarball_finish(w) == 0);
		int is_gzip = head_of(path, h, 2) == 0 && h[0] == 0x1f && h[1] == 0x8b;
		if (is_gzip != names[i].gzip)
			fprintf(stderr, "FAIL %s: gzip %d, want %d\n", names[i].name, is_gzip, names[i].gzip);
		CU_ASSERT(is_gzip == names[i].gzip);
		CU_ASSERT(tarball_extract(path, s.x, &small) == 0 && same_file(s.x, "f", "x", 1));
		CU_ASSERT(remove_tree(s.x) == 0 && mkdir(s.x, 0700) == 0 && unlink(path) == 0);
	}
	scratch_drop(&s);
}

static void test_writer_refuses(void)
{
	struct scratch s;
	struct tarball_writer *w;
	char name[300], link[320];
	scratch_make(&s);
	CU_ASSERT_FATAL(tarball_create(&w, s.archive) == 0);
	CU_ASSERT(tarball_add(w, "../up", "x", 1) == -1 && strstr(uncore_error(), "member '../up': a path with '..' is refused"));
	memset(name, 'a', 256);
	name[256] = 0;
	name[100] = '/';
	CU_ASSERT(tarball_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "longer than 255 characters is refused"));
	/* what does not fit ustar's 155 + '/' + 100 (libarchive's archive_write_set_format_ustar.c: ENAMETOOLONG) */
	memset(name, 'a', 150); /* one component of 150: no '/' to split at */
	name[150] = 0;
	CU_ASSERT(tarball_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "aaaa': Pathname too long"));
	name[40] = '/'; /* 40 + 109: the name field would overflow */
	CU_ASSERT(tarball_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "aaaa': Pathname too long"));
	CU_ASSERT(tarball_add(w, "a b", "x", 1) == -1 && strstr(uncore_error(), "member 'a b': character 0x20 is refused"));
	CU_ASSERT(tarball_add(w, "ok", "x", 1) == 0); /* a refused name left the archive whole */
	CU_ASSERT(tarball_finish(w) == 0);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == 0 && same_file(s.x, "ok", "x", 1) && entries(s.x) == 1);
	/* never overwritten, never through a link */
	CU_ASSERT(tarball_create(&w, s.archive) == -1 && w == NULL && strstr(uncore_error(), "exists already"));
	snprintf(link, sizeof(link), "%s/link.tar.gz", s.base);
	CU_ASSERT(symlink("sibling/planted.tar.gz", link) == 0);
	CU_ASSERT(tarball_create(&w, link) == -1 && strstr(uncore_error(), "exists already") && entries(s.sibling) == 0);
	CU_ASSERT(unlink(link) == 0);
	/* an aborted archive is gone */
	CU_ASSERT_FATAL(tarball_create(&w, link) == 0);
	CU_ASSERT(tarball_add(w, "half", "x", 1) == 0);
	tarball_abort(w);
	CU_ASSERT(access(link, F_OK) != 0);
	tarball_abort(NULL);
	scratch_drop(&s);
}

/* GNU tar lists and extracts the writer's archives, plain and gzip; the reader extracts GNU tar's archives
 * (with their directory members, real modes and owners, and record padding): ustar, GNU (a long name in an
 * 'L' record), pax (a long name in a pax header) and gzip; and refuses its sparse files. */
static void test_gnu_tar(void)
{
	struct scratch s;
	struct file f[NFILES];
	char cmd[4096], list[300], gx[300], src[300], path[4096], zpath[320];
	scratch_make(&s);
	files_make(f);
	snprintf(list, sizeof(list), "%s/list", s.base);
	snprintf(gx, sizeof(gx), "%s/gx", s.base);
	snprintf(src, sizeof(src), "%s/src", s.base);
	CU_ASSERT_FATAL(write_archive(s.archive, f) == 0);
	snprintf(cmd, sizeof(cmd), "TZ=UTC tar -tvf '%s' >'%s' 2>&1", s.archive, list);
	CU_ASSERT(system(cmd) == 0);
	FILE *l = fopen(list, "r");
	char text[8192] = "";
	CU_ASSERT_FATAL(l != NULL);
	text[fread(text, 1, sizeof(text) - 1, l)] = 0;
	fclose(l);
	for (int i = 0; i < NFILES; i++)
		CU_ASSERT(strstr(text, f[i].name) != NULL);
	CU_ASSERT(strstr(text, "-rw-r--r-- root/root") != NULL && strstr(text, "1970-01-01") != NULL);
	CU_ASSERT(strstr(text, "71680") != NULL);
	CU_ASSERT(mkdir(gx, 0700) == 0);
	snprintf(cmd, sizeof(cmd), "tar -xf '%s' -C '%s'", s.archive, gx);
	CU_ASSERT(system(cmd) == 0);
	CU_ASSERT(all_same(gx, f));
	snprintf(zpath, sizeof(zpath), "%s/a.tar.gz", s.base);
	CU_ASSERT_FATAL(write_archive(zpath, f) == 0);
	snprintf(cmd, sizeof(cmd), "rm -r '%s' && mkdir '%s' && tar -xzf '%s' -C '%s'", gx, gx, zpath, gx);
	CU_ASSERT(system(cmd) == 0);
	CU_ASSERT(all_same(gx, f));
	CU_ASSERT(unlink(zpath) == 0);
	/* the other way: a tree tar made (not the 155-character directory, which ustar cannot hold with its '/') */
	CU_ASSERT(mkdir(src, 0700) == 0);
	for (int i = 0; i < NFILES; i++) {
		snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir -p \"$(dirname '%s')\"", src, f[i].name);
		CU_ASSERT(system(cmd) == 0);
		snprintf(path, sizeof(path), "%s/%s", src, f[i].name);
		FILE *o = fopen(path, "wb");
		CU_ASSERT_FATAL(o != NULL);
		CU_ASSERT(fwrite(f[i].data, 1, f[i].len, o) == f[i].len);
		fclose(o);
	}
	CU_ASSERT(unlink(s.archive) == 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && tar --format=ustar -cf '%s' a.txt devices bus empty big nnnn* pppp*/*", src,
		 s.archive);
	CU_ASSERT(system(cmd) == 0);
	static const char *const how[] = { "", "--format=gnu -c", "--format=pax -c", "--format=gnu -cz" };
	for (size_t i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		if (i) { /* (the first: the ustar archive above) */
			snprintf(cmd, sizeof(cmd), "cd '%s' && tar %sf '%s' a.txt devices bus empty big nnnn* pppp*", src, how[i],
				 s.archive);
			CU_ASSERT(system(cmd) == 0);
		}
		int rc = tarball_extract(s.archive, s.x, &small);
		if (rc || !all_same(s.x, f))
			fprintf(stderr, "FAIL extracting GNU tar's archive (%s): %s\n", i ? how[i] : "ustar", rc ? uncore_error() : "");
		CU_ASSERT(rc == 0 && all_same(s.x, f));
		CU_ASSERT(remove_tree(s.x) == 0 && mkdir(s.x, 0700) == 0 && unlink(s.archive) == 0);
	}
	/* a sparse file (a hole, then a byte): its hole would be made of nothing in the archive */
	static const char *const sparse[] = { "--format=gnu", "--format=pax" };
	for (size_t i = 0; i < sizeof(sparse) / sizeof(sparse[0]); i++) {
		snprintf(cmd, sizeof(cmd), "cd '%s' && rm -f holes && truncate -s 65536 holes && echo x >>holes && tar %s -S -cf '%s' holes",
			 src, sparse[i], s.archive);
		CU_ASSERT(system(cmd) == 0);
		CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "member 'holes': a sparse file is refused"));
		CU_ASSERT(files_below(s.x) == 0);
		CU_ASSERT(remove_tree(s.x) == 0 && mkdir(s.x, 0700) == 0 && unlink(s.archive) == 0);
	}
	files_free(f);
	scratch_drop(&s);
}

/* --- hostile archives --- */

static void test_escapes(void)
{
	struct scratch s;
	struct buf b = { 0 };
	char name[400];
	scratch_make(&s);
	member(&b, "../sibling/escape", '0', "x", 1), end(&b);
	refused(&s, &b, "member '../sibling/escape': a path with '..' is refused");
	member(&b, "/abs", '0', "x", 1), end(&b);
	refused(&s, &b, "member '/abs': an absolute path is refused");
	snprintf(name, sizeof(name), "%s/abs", s.sibling); /* absolute, into the sibling */
	if (strlen(name) < 100) {
		member(&b, name, '0', "x", 1), end(&b);
		refused(&s, &b, "an absolute path is refused");
	}
	member(&b, "a/../../b", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'a/../../b': a path with '..' is refused");
	member(&b, "ok", '0', "x", 1), member(&b, "a/../../sibling/c", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'a/../../sibling/c': a path with '..' is refused");
	member(&b, "d/..", '5', NULL, 0), end(&b);
	refused(&s, &b, "member 'd/..': a path with '..' is refused");
	/* a link to /etc, then a file through it: the link is refused before anything is made */
	linked(&b, "link", '2', "/etc"), member(&b, "link/passwd", '0', "root::0:0::/:/bin/sh\n", 21), end(&b);
	refused(&s, &b, "member 'link': a symbolic link is refused");
	CU_ASSERT(x_entries == 0);
	/* a link the caller's directory should not have: never followed */
	char planted[400];
	snprintf(planted, sizeof(planted), "%s/link", s.x);
	CU_ASSERT_FATAL(symlink("../sibling", planted) == 0);
	member(&b, "link/passwd", '0', "x", 1), end(&b);
	write_buf(s.archive, &b);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1);
	CU_ASSERT(strstr(uncore_error(), "member 'link/passwd': directory 'link': a symbolic link or not a directory") != NULL);
	CU_ASSERT(entries(s.sibling) == 0);
	reset(&b);
	member(&b, "link", '0', "x", 1), end(&b); /* nor written through as a file */
	write_buf(s.archive, &b);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "member 'link': cannot create it"));
	CU_ASSERT(entries(s.sibling) == 0);
	free(b.p);
	scratch_drop(&s);
}

/* A pax extended header ('x') of one record "LEN key=value\n" (POSIX.1-2001 pax, "pax Extended Header"). */
static void pax(struct buf *b, const char *key, const char *value)
{
	char rec[300];
	size_t body = strlen(key) + strlen(value) + 3, n = body; /* ' ', '=', '\n'; LEN counts its own digits */
	while (n != body + (size_t)snprintf(NULL, 0, "%zu", n))
		n = body + (size_t)snprintf(NULL, 0, "%zu", n);
	snprintf(rec, sizeof(rec), "%zu %s=%s\n", n, key, value);
	CU_ASSERT(strlen(rec) == n);
	member(b, "PaxHeaders.0/x", 'x', rec, n);
}

static void test_types(void)
{
	static const struct {
		char type;
		const char *name, *expect;
	} bad[] = {
		{ '1', "hard", "member 'hard': a hard link is refused" },
		{ '2', "soft", "member 'soft': a symbolic link is refused" },
		{ '3', "tty", "member 'tty': a character device is refused" },
		{ '4', "sda", "member 'sda': a block device is refused" },
		{ '6', "fifo", "member 'fifo': a FIFO is refused" },
	};
	struct scratch s;
	struct buf b = { 0 };
	scratch_make(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bad[i].type == '1' || bad[i].type == '2')
			linked(&b, bad[i].name, bad[i].type, "/etc/passwd");
		else
			member(&b, bad[i].name, bad[i].type, NULL, 0);
		member(&b, "x", '0', "x", 1), end(&b);
		refused(&s, &b, bad[i].expect);
		CU_ASSERT(x_entries == 0);
	}
	/* the headers that change the next member (libarchive applies them): what they make of it is checked */
	pax(&b, "path", "../sibling/pwned"), member(&b, "x", '0', "x", 1), end(&b);
	refused(&s, &b, "member '../sibling/pwned': a path with '..' is refused");
	member(&b, "././@LongLink", 'L', "../sibling/pwned", 17), member(&b, "x", '0', "x", 1), end(&b);
	refused(&s, &b, "member '../sibling/pwned': a path with '..' is refused");
	pax(&b, "linkpath", "/etc/passwd"), linked(&b, "x", '1', "x"), end(&b);
	refused(&s, &b, "member 'x': a hard link is refused");
	pax(&b, "linkpath", "/etc/passwd"), linked(&b, "x", '1', ""), end(&b); /* libarchive 3.6: no link, no type */
	refused(&s, &b, "member 'x': ");
	pax(&b, "size", "10737418240"), member(&b, "x", '0', "x", 1), end(&b); /* 10 GB from a pax header */
	refused(&s, &b, "member 'x': its size, 10737418240 bytes, is over the limit of 1048576 bytes a member");
	member(&b, "PaxHeaders.0/x", 'x', "30 path=../sibling/pwned\n", 25), member(&b, "x", '0', "x", 1), end(&b);
	refused(&s, &b, "the header at byte 0: Ignoring malformed pax extended attribute"); /* a record's length wrong */
	/* harmless: what the next member is does not change, or the type is a regular file's (POSIX: a reader
	 * takes a type it does not know, or '7' contiguous, as a regular file) */
	member(&b, "pax_global_header", 'g', NULL, 0), member(&b, "x", '0', "x", 1), end(&b);
	CU_ASSERT(contained(&s, &b) == 0 && x_entries == 1);
	member(&b, "contig", '7', "c", 1), member(&b, "x", '0', "x", 1), end(&b);
	CU_ASSERT(contained(&s, &b) == 0 && x_entries == 2);
	/* whatever libarchive makes of these, nothing but files and directories in x */
	member(&b, "././@LongLink", 'K', "/etc/passwd", 12), member(&b, "x", '0', "x", 1), end(&b);
	contained(&s, &b);
	member(&b, "sparse", 'S', NULL, 0), member(&b, "x", '0', "x", 1), end(&b);
	contained(&s, &b);
	member(&b, "acl", 'A', "x", 1), member(&b, "x", '0', "x", 1), end(&b);
	contained(&s, &b);
	member(&b, "vol", 'V', NULL, 0), member(&b, "x", '0', "x", 1), end(&b);
	contained(&s, &b);
	member(&b, "multi", 'M', "x", 1), member(&b, "x", '0', "x", 1), end(&b);
	contained(&s, &b);
	scratch_drop(&s);
}

static void test_damaged(void)
{
	struct scratch s;
	struct buf b = { 0 };
	unsigned char h[512];
	scratch_make(&s);
	member(&b, "ok", '0', "x", 1), member(&b, "bad", '0', "y", 1), end(&b);
	b.p[1024 + 1] ^= 1; /* the second header's name changed after its checksum */
	refused(&s, &b, "the header at byte 1024 (after member 'ok'): Damaged tar archive");
	CU_ASSERT(x_entries == 1);
	member(&b, "bad", '0', "y", 1), end(&b);
	b.p[130] ^= 1; /* a digit of the first header's size */
	refused(&s, &b, "the header at byte 0: Damaged tar archive (not a tar archive, plain or gzip, or its first header is damaged)");
	member(&b, "ok", '0', "x", 1);
	header(h, "cut", '0', 1);
	put(&b, h, 300);
	refused(&s, &b, "the header at byte 1024 (after member 'ok'): Truncated tar archive");
	header(h, "short", '0', 2000);
	put(&b, h, 512);
	put_zeros(&b, 700);
	refused(&s, &b, "member 'short': truncated or damaged data (700 of 2000 bytes): Truncated tar archive");
	header(h, "nopad", '0', 700);
	put(&b, h, 512);
	put_zeros(&b, 700);
	refused(&s, &b, "member 'nopad': truncated or damaged data (700 of 700 bytes): Truncated input file");
	/* cut at a block boundary: libarchive takes that as an end, the last members lost; refused here */
	member(&b, "ok", '0', "x", 1);
	refused(&s, &b, "truncated: it ends at byte 1024 without the two zero blocks that end an archive");
	member(&b, "ok", '0', "x", 1), put_zeros(&b, 512);
	refused(&s, &b, "a lone zero block at byte 1024 is not followed by a second one");
	member(&b, "ok", '0', "x", 1), put_zeros(&b, 512), member(&b, "hidden", '0', "x", 1), end(&b);
	refused(&s, &b, "a lone zero block at byte 1024 is not followed by a second one");
	/* accepted: a signed checksum (POSIX allows either), GNU tar's old magic, a record's padding after the end */
	header(h, "signed", '0', 1);
	h[265] = 0xe9; /* a byte of the owner's name over 127 */
	unsigned u = 0;
	int sig = 0;
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		u += h[i], sig += h[i] > 127 ? h[i] - 256 : h[i];
	CU_ASSERT(u != (unsigned)sig);
	snprintf((char *)h + 148, 8, "%06o", sig);
	put(&b, h, 512), put(&b, "s", 1), put_zeros(&b, 511);
	header(h, "magic", '0', 1);
	memcpy(h + 257, "ustar  ", 8); /* GNU tar's: "ustar  \0" */
	checksum(h);
	put(&b, h, 512), put(&b, "m", 1), put_zeros(&b, 511), end(&b), put_zeros(&b, 10240 - 4 * 512);
	write_buf(s.archive, &b);
	int rc = tarball_extract(s.archive, s.x, &small);
	if (rc)
		fprintf(stderr, "FAIL the signed checksum, the old magic: %s\n", uncore_error());
	CU_ASSERT(rc == 0 && same_file(s.x, "signed", "s", 1) && same_file(s.x, "magic", "m", 1));
	free(b.p);
	scratch_drop(&s);
}

static void test_sizes_and_limits(void)
{
	struct scratch s;
	struct buf b = { 0 };
	unsigned char h[512];
	struct tarball_limits lim = small;
	scratch_make(&s);
	/* 10 GB claimed by a 1.5 KB archive: refused from the header, before any file is made or byte read */
	header(h, "huge", '0', 10ull << 30);
	CU_ASSERT(!memcmp(h + 124, "120000000000", 12));
	put(&b, h, 512), end(&b);
	refused(&s, &b, "member 'huge': its size, 10737418240 bytes, is over the limit of 1048576 bytes a member");
	CU_ASSERT(x_entries == 0);
	lim.max_member = lim.max_total = (size_t)-1; /* even when the limits would allow it, nothing is allocated */
	header(h, "huge", '0', 10ull << 30);
	put(&b, h, 512), end(&b);
	refused_lim(&s, &b, &lim, "member 'huge': truncated or damaged data (1024 of 10737418240 bytes): Truncated tar archive");
	/* base-256 sizes (GNU tar, star): 2^62 over the limit, a negative one refused by libarchive */
	header(h, "b256", '0', 0);
	memset(h + 124, 0, 12);
	h[124] = 0x80, h[128] = 0x40; /* 0x40 << 56 */
	checksum(h);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "member 'b256': its size, 4611686018427387904 bytes, is over the limit");
	header(h, "neg", '0', 0);
	memset(h + 124, 0xff, 12); /* -1 */
	checksum(h);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "the header at byte 0: Tar entry has negative size");
	/* size fields libarchive reads its own way (the digits before the 'x', ...): nothing leaves x */
	static const char *const sizes[] = { "0000000001x\0", " 0000000001\0", "\0\0\0\0\0\0\0\0\0\0\0\0", "-0000000001\0",
					     "0000000001\0\x31", "77777777777777" };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		header(h, "sz", '0', 0);
		memcpy(h + 124, sizes[i], 12);
		checksum(h);
		put(&b, h, 512), end(&b);
		contained(&s, &b);
	}
	member(&b, "d", '5', "xx", 2), end(&b); /* libarchive skips no data of a directory: "xx" read as a header */
	refused(&s, &b, "the header at byte 512 (after member 'd'): Damaged tar archive");
	member(&b, "a", '0', "1", 1), member(&b, "a", '0', "2", 1), end(&b);
	refused(&s, &b, "member 'a': cannot create it: a member of that name, or a directory of one, was extracted already");
	member(&b, "d/", '5', NULL, 0), member(&b, "d", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'd': cannot create it: a member of that name, or a directory of one, was extracted already");
	member(&b, "f", '0', "x", 1), member(&b, "f/g", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'f/g': directory 'f': a symbolic link or not a directory");
	member(&b, "d/f", '0', "x", 1), member(&b, "d", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'd': cannot create it: a member of that name, or a directory of one, was extracted already");
	member(&b, "d/", '5', NULL, 0), member(&b, "d/", '5', NULL, 0), end(&b); /* a directory twice: harmless */
	CU_ASSERT(contained(&s, &b) == 0);
	lim = small;
	lim.max_members = 3;
	for (int i = 0; i < 4; i++)
		member(&b, (const char *[]){ "m0", "m1", "m2", "m3" }[i], '0', "x", 1);
	end(&b);
	refused_lim(&s, &b, &lim, "member 'm3': more than 3 members are refused");
	lim = small;
	lim.max_total = 1000;
	member(&b, "t0", '0', (char[400]){ 0 }, 400), member(&b, "t1", '0', (char[400]){ 0 }, 400);
	member(&b, "t2", '0', (char[400]){ 0 }, 400), end(&b);
	refused_lim(&s, &b, &lim, "member 't2': the members' total size would be over the limit of 1000 bytes");
	lim = small;
	lim.max_member = 100;
	member(&b, "m", '0', (char[101]){ 0 }, 101), end(&b);
	refused_lim(&s, &b, &lim, "member 'm': its size, 101 bytes, is over the limit of 100 bytes a member");
	free(b.p);
	scratch_drop(&s);
}

/* gzip archives: the same guards on what they unpack to; a bomb stops at the limits; a damaged or cut
 * stream is refused. */
static void test_gzip(void)
{
	struct scratch s;
	struct buf b = { 0 };
	unsigned char h[512];
	char cmd[1024];
	struct stat st;
	scratch_make(&s);
	gz = 1;
	member(&b, "../sibling/escape", '0', "x", 1), end(&b);
	refused(&s, &b, "member '../sibling/escape': a path with '..' is refused");
	linked(&b, "link", '2', "/etc"), member(&b, "link/passwd", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'link': a symbolic link is refused");
	header(h, "huge", '0', 10ull << 30);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "member 'huge': its size, 10737418240 bytes, is over the limit of 1048576 bytes a member");
	/* a bomb: 5 MB of zeros in five members, some kB gzipped, over the 4 MB total: 4 MB unpacked, no more */
	static char mb[1 << 20];
	for (int i = 0; i < 5; i++)
		member(&b, (const char *[]){ "z0", "z1", "z2", "z3", "z4" }[i], '0', mb, sizeof(mb));
	end(&b);
	write_buf(s.archive, &b);
	reset(&b);
	gzip_file(s.archive);
	CU_ASSERT(stat(s.archive, &st) == 0 && st.st_size < 64 * 1024);
	/* stopped by the gzip check's inflate (tarball.c gzip_checked) before a member is unpacked */
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "it unpacks to more than"));
	CU_ASSERT(bytes_below(s.x) == 0 && entries(s.sibling) == 0);
	CU_ASSERT(remove_tree(s.x) == 0 && mkdir(s.x, 0700) == 0 && unlink(s.archive) == 0);
	/* ... and one of many small members */
	for (int i = 0; i < 101; i++) {
		char name[16];
		snprintf(name, sizeof(name), "m%d", i);
		member(&b, name, '0', NULL, 0);
	}
	end(&b);
	refused(&s, &b, "member 'm100': more than 100 members are refused");
	CU_ASSERT(x_entries == 100);
	gz = 0;
	/* a damaged stream: the first deflate block's type 3, reserved (RFC 1951 3.2.3: "11 - reserved (error)") */
	member(&b, "a", '0', "x", 1), end(&b);
	write_buf(s.archive, &b);
	reset(&b);
	gzip_file(s.archive);
	FILE *f = fopen(s.archive, "r+b");
	CU_ASSERT_FATAL(f != NULL);
	int c = (fseek(f, 10, SEEK_SET), fgetc(f)); /* after the 10-byte header (gzip -n: no name) */
	CU_ASSERT(fseek(f, 10, SEEK_SET) == 0 && fputc(c | 6, f) == (c | 6));
	fclose(f);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "damaged gzip data at byte"));
	CU_ASSERT(files_below(s.x) == 0 && entries(s.sibling) == 0 && unlink(s.archive) == 0);
	/* a cut stream: the half of a gzipped snapshot-like archive */
	static char noise[64 * 1024];
	for (size_t i = 0; i < sizeof(noise); i++)
		noise[i] = (char)((i * 2654435761u) >> 13);
	member(&b, "a", '0', noise, sizeof(noise)), end(&b);
	write_buf(s.archive, &b);
	reset(&b);
	gzip_file(s.archive);
	CU_ASSERT(stat(s.archive, &st) == 0);
	snprintf(cmd, sizeof(cmd), "truncate -s %lld '%s'", (long long)st.st_size / 2, s.archive);
	CU_ASSERT(system(cmd) == 0);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "truncated gzip data"));
	CU_ASSERT(entries(s.sibling) == 0 && unlink(s.archive) == 0);
	scratch_drop(&s);
}

static void test_names(void)
{
	static const struct {
		const char *name, *expect;
		char type;
	} bad[] = {
		{ "a\nb", "member 'a\\x0ab': character 0x0a is refused", '0' },
		{ "a b", "member 'a b': character 0x20 is refused", '0' },
		{ "caf\xc3\xa9", "member 'caf\\xc3\\xa9': character 0xc3 is refused", '0' },
		{ "it's", "member 'it\\x27s': character 0x27 is refused", '0' },
		{ "tab\tx", "character 0x09 is refused", '5' },
		{ "a\\b", "member 'a\\x5cb': character 0x5c is refused", '0' },
		{ "./a", "member './a': a '.' path component is refused", '0' },
		{ "a/./b", "member 'a/./b': a '.' path component is refused", '0' },
		{ ".", "member '.': a '.' path component is refused", '5' },
		{ "..", "member '..': a path with '..' is refused", '0' },
		{ "a//b", "member 'a//b': an empty path component ('//') is refused", '0' },
		{ "a//", "member 'a//': a trailing '/' is refused", '5' },
		{ "", "member '': an empty name is refused", '0' },
		{ "/", "member '/': an absolute path is refused", '5' },
	};
	struct scratch s;
	struct buf b = { 0 };
	unsigned char h[512];
	scratch_make(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		member(&b, bad[i].name, bad[i].type, NULL, 0), end(&b);
		refused(&s, &b, bad[i].expect);
	}
	/* 155 + '/' + 100: one over the limit */
	header(h, "", '0', 0);
	memset(h, 'n', 100);
	memset(h + 345, 'p', 155);
	checksum(h);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "a name longer than 255 characters is refused");
	/* a prefix that brings '..' */
	header(h, "b", '0', 0);
	memcpy(h + 345, "a/..", 4);
	checksum(h);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "member 'a/../b': a path with '..' is refused");
	/* accepted: a directory member, a file's name with a trailing '/' (libarchive: a directory, as old tars
	 * wrote them), the whole character set */
	member(&b, "dir/", '5', NULL, 0), member(&b, "old/", '0', NULL, 0), member(&b, "dir/AZaz09._:,+=@-", '0', "x", 1), end(&b);
	write_buf(s.archive, &b);
	int rc = tarball_extract(s.archive, s.x, &small);
	CU_ASSERT(rc == 0 && same_file(s.x, "dir/AZaz09._:,+=@-", "x", 1) && entries(s.x) == 2 && files_below(s.x) == 1);
	free(b.p);
	scratch_drop(&s);
}

static void test_archive_file(void)
{
	struct scratch s;
	struct buf b = { 0 };
	char link[320], fifo[320], real[320];
	scratch_make(&s);
	snprintf(link, sizeof(link), "%s/link.tar", s.base);
	snprintf(fifo, sizeof(fifo), "%s/fifo.tar", s.base);
	snprintf(real, sizeof(real), "%s/sibling/real.tar", s.base);
	member(&b, "a", '0', "x", 1), end(&b);
	write_buf(real, &b);
	CU_ASSERT(symlink(real, link) == 0);
	CU_ASSERT(tarball_extract(link, s.x, &small) == -1);
	CU_ASSERT(strstr(uncore_error(), "link.tar: cannot open it: a symbolic link is refused") != NULL);
	CU_ASSERT(mkfifo(fifo, 0600) == 0); /* refused, not waited on */
	CU_ASSERT(tarball_extract(fifo, s.x, &small) == -1 && strstr(uncore_error(), "fifo.tar: not a regular file (refused)"));
	CU_ASSERT(tarball_extract(s.sibling, s.x, &small) == -1 && strstr(uncore_error(), "not a regular file (refused)"));
	reset(&b);
	write_buf(s.archive, &b);
	CU_ASSERT(tarball_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "a.tar: empty"));
	CU_ASSERT(tarball_extract(real, link, &small) == -1 &&
		  strstr(uncore_error(), "link.tar: a symbolic link or not a directory (refused)"));
	CU_ASSERT(tarball_extract(real, s.x, NULL) == -1 && strstr(uncore_error(), "no limits given"));
	CU_ASSERT(entries(s.x) == 0);
	CU_ASSERT(remove_tree(link) == -1 && strstr(uncore_error(), "a symbolic link or not a directory (refused)"));
	CU_ASSERT(unlink(link) == 0 && unlink(fifo) == 0 && unlink(real) == 0 && unlink(s.archive) == 0);
	free(b.p);
	scratch_drop(&s);
}

/* remove_tree removes links, not what they point at. */
static void test_remove_tree(void)
{
	struct scratch s;
	char p[400], keep[400];
	scratch_make(&s);
	snprintf(keep, sizeof(keep), "%s/keep", s.sibling);
	FILE *f = fopen(keep, "w");
	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
	snprintf(p, sizeof(p), "%s/d1/d2/d3", s.x);
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && ln -s '%s' '%s/d1/to_sibling' && ln -s '%s' '%s/d1/d2/to_keep' && "
				   "touch '%s/f'", p, s.sibling, s.x, keep, s.x, p);
	CU_ASSERT_FATAL(system(cmd) == 0);
	CU_ASSERT(remove_tree(s.x) == 0 && access(s.x, F_OK) != 0);
	CU_ASSERT(access(keep, F_OK) == 0 && entries(s.sibling) == 1);
	CU_ASSERT(remove_tree(s.x) == -1 && strstr(uncore_error(), "cannot remove") != NULL);
	scratch_drop(&s);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "members read back byte for byte, reproducibly, plain and gzip", test_round_trip },
		{ "the name's suffix chooses gzip", test_suffix },
		{ "the writer refuses what the reader would", test_writer_refuses },
		{ "GNU tar reads our archives, and we read its ustar, GNU, pax and gzip", test_gnu_tar },
		{ "paths and links that leave the directory are refused", test_escapes },
		{ "links and devices are refused, and what extension headers make of a member", test_types },
		{ "damaged and truncated archives are refused", test_damaged },
		{ "sizes, duplicates and limits are checked from the header", test_sizes_and_limits },
		{ "names outside the character set or shape are refused", test_names },
		{ "the archive must be a regular file, not a link", test_archive_file },
		{ "gzip: its guards, a bomb, a damaged or cut stream", test_gzip },
		{ "removing a tree never follows a link", test_remove_tree },
		{ NULL, NULL },
	};
	return run_suite("tar", tests);
}
