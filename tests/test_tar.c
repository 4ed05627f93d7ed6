/*
 * The snapshot archive (util/tar.h): what the writer writes reads back byte for byte, GNU tar agrees
 * with it both ways, and every hostile archive (each built here by hand, header by header) is refused
 * with a message naming the problem and the member, with nothing created beside the directory it is
 * extracted into.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness.h"
#include "util/tar.h"
#include "uncore.h"

static const struct tar_limits small = { .max_member = 1 << 20, .max_total = 4 << 20, .max_members = 100 };

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
	int rc = tar_remove_tree(s->base);
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

static int x_entries; /* what the last refused archive left in x */

/* Extract b (then emptied): refused with expect in the message, nothing beside s->x, no link in it.  x is
 * emptied after. */
static void refused_lim(struct scratch *s, struct buf *b, const struct tar_limits *lim, const char *expect)
{
	write_buf(s->archive, b);
	int rc = tar_extract(s->archive, s->x, lim);
	int sib = entries(s->sibling), base = entries(s->base), files = files_below(s->x);
	if (rc != -1 || !strstr(uncore_error(), expect) || sib || base != 3 || files < 0)
		fprintf(stderr, "FAIL want '%s': rc %d, message '%s', sibling %d entries, base %d, x %d files\n", expect, rc,
			uncore_error(), sib, base, files);
	CU_ASSERT(rc == -1);
	CU_ASSERT(strstr(uncore_error(), expect) != NULL);
	CU_ASSERT(sib == 0 && base == 3 && files >= 0);
	x_entries = entries(s->x);
	CU_ASSERT(tar_remove_tree(s->x) == 0 && mkdir(s->x, 0700) == 0 && unlink(s->archive) == 0);
	reset(b);
}

static void refused(struct scratch *s, struct buf *b, const char *expect) { refused_lim(s, b, &small, expect); }

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
	struct tar_writer *w;
	if (tar_create(&w, path))
		return -1;
	for (int i = 0; i < NFILES; i++)
		if (tar_add(w, f[i].name, f[i].data, f[i].len)) {
			tar_abort(w);
			return -1;
		}
	return tar_finish(w);
}

static int all_same(const char *dir, const struct file *f)
{
	int ok = files_below(dir) == NFILES;
	for (int i = 0; i < NFILES; i++)
		ok &= same_file(dir, f[i].name, f[i].data, f[i].len);
	return ok;
}

static void test_round_trip(void)
{
	struct scratch s;
	struct file f[NFILES];
	struct stat st;
	char again[320], leaf[1024];
	scratch_make(&s);
	files_make(f);
	int rc = write_archive(s.archive, f);
	if (rc)
		fprintf(stderr, "FAIL writing: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(stat(s.archive, &st) == 0 && (st.st_mode & 0777) == 0600 && st.st_size % 512 == 0);
	rc = tar_extract(s.archive, s.x, &small);
	if (rc)
		fprintf(stderr, "FAIL extracting: %s\n", uncore_error());
	CU_ASSERT(rc == 0);
	CU_ASSERT(all_same(s.x, f));
	snprintf(leaf, sizeof(leaf), "%s/%s", s.x, f[1].name);
	CU_ASSERT(stat(leaf, &st) == 0 && (st.st_mode & 0777) == 0600); /* the archive's modes are not obeyed */
	/* reproducible: the same members give the same bytes */
	snprintf(again, sizeof(again), "%s/b.tar", s.base);
	CU_ASSERT_FATAL(write_archive(again, f) == 0);
	char cmd[800];
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", s.archive, again);
	CU_ASSERT(system(cmd) == 0);
	files_free(f);
	scratch_drop(&s);
}

static void test_writer_refuses(void)
{
	struct scratch s;
	struct tar_writer *w;
	char name[300], link[320];
	scratch_make(&s);
	CU_ASSERT_FATAL(tar_create(&w, s.archive) == 0);
	CU_ASSERT(tar_add(w, "../up", "x", 1) == -1 && strstr(uncore_error(), "member '../up': a path with '..' is refused"));
	memset(name, 'a', 256);
	name[256] = 0;
	name[100] = '/';
	CU_ASSERT(tar_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "longer than 255 characters is refused"));
	memset(name, 'a', 150); /* one component of 150: no '/' to split at */
	name[150] = 0;
	CU_ASSERT(tar_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "must split at a '/'"));
	name[40] = '/'; /* 40 + 109: the name field would overflow */
	CU_ASSERT(tar_add(w, name, "x", 1) == -1 && strstr(uncore_error(), "must split at a '/'"));
	CU_ASSERT(tar_add(w, "a b", "x", 1) == -1 && strstr(uncore_error(), "member 'a b': character 0x20 is refused"));
	CU_ASSERT(tar_add(w, "ok", "x", 1) == 0); /* a refused name left the archive whole */
	CU_ASSERT(tar_finish(w) == 0);
	CU_ASSERT(tar_extract(s.archive, s.x, &small) == 0 && same_file(s.x, "ok", "x", 1) && entries(s.x) == 1);
	/* never overwritten, never through a link */
	CU_ASSERT(tar_create(&w, s.archive) == -1 && w == NULL && strstr(uncore_error(), "exists already"));
	snprintf(link, sizeof(link), "%s/link.tar", s.base);
	CU_ASSERT(symlink("sibling/planted.tar", link) == 0);
	CU_ASSERT(tar_create(&w, link) == -1 && strstr(uncore_error(), "exists already") && entries(s.sibling) == 0);
	CU_ASSERT(unlink(link) == 0);
	/* an aborted archive is gone */
	CU_ASSERT_FATAL(tar_create(&w, link) == 0);
	CU_ASSERT(tar_add(w, "half", "x", 1) == 0);
	tar_abort(w);
	CU_ASSERT(access(link, F_OK) != 0);
	tar_abort(NULL);
	scratch_drop(&s);
}

/* GNU tar lists and extracts the writer's archive; the reader extracts GNU tar's ustar archive (with its
 * directory members, real modes and owners, and its record padding). */
static void test_gnu_tar(void)
{
	struct scratch s;
	struct file f[NFILES];
	char cmd[4096], list[300], gx[300], src[300], path[4096];
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
	int rc = tar_extract(s.archive, s.x, &small);
	if (rc)
		fprintf(stderr, "FAIL extracting GNU tar's archive: %s\n", uncore_error());
	CU_ASSERT(rc == 0 && all_same(s.x, f));
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
	CU_ASSERT(tar_extract(s.archive, s.x, &small) == -1);
	CU_ASSERT(strstr(uncore_error(), "member 'link/passwd': directory 'link': a symbolic link or not a directory") != NULL);
	CU_ASSERT(entries(s.sibling) == 0);
	reset(&b);
	member(&b, "link", '0', "x", 1), end(&b); /* nor written through as a file */
	write_buf(s.archive, &b);
	CU_ASSERT(tar_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "member 'link': cannot create it"));
	CU_ASSERT(entries(s.sibling) == 0);
	free(b.p);
	scratch_drop(&s);
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
		{ 'x', "PaxHeaders.0/a", "member 'PaxHeaders.0/a': a pax extended header is refused" },
		{ 'g', "pax_global_header", "member 'pax_global_header': a pax global header is refused" },
		{ 'L', "././@LongLink", "member '././@LongLink': a GNU long name is refused" },
		{ 'K', "././@LongLink", "member '././@LongLink': a GNU long link name is refused" },
		{ '7', "contig", "member 'contig': type 0x37 is refused" },
		{ 'S', "sparse", "member 'sparse': type 0x53 is refused" },
	};
	struct scratch s;
	struct buf b = { 0 };
	scratch_make(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (bad[i].type == '1' || bad[i].type == '2')
			linked(&b, bad[i].name, bad[i].type, "/etc/passwd");
		else if (bad[i].type == 'x' || bad[i].type == 'L') { /* with the data that would rename the next member */
			const char *d = bad[i].type == 'x' ? "30 path=../sibling/pwned\n" : "../sibling/pwned";
			member(&b, bad[i].name, bad[i].type, d, strlen(d) + 1);
		} else
			member(&b, bad[i].name, bad[i].type, NULL, 0);
		member(&b, "x", '0', "x", 1), end(&b);
		refused(&s, &b, bad[i].expect);
	}
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
	refused(&s, &b, "member 'b`d' (header at byte 1024): a wrong header checksum");
	header(h, "magic", '0', 0);
	memcpy(h + 257, "ustar  ", 8); /* GNU tar's old magic: not POSIX */
	checksum(h);
	put(&b, h, 512), end(&b);
	refused(&s, &b, "member 'magic' (header at byte 0): no POSIX ustar magic");
	member(&b, "ok", '0', "x", 1);
	header(h, "cut", '0', 1);
	put(&b, h, 300);
	refused(&s, &b, "truncated header at byte 1024 (300 of 512 bytes)");
	header(h, "short", '0', 2000);
	put(&b, h, 512);
	put_zeros(&b, 700);
	refused(&s, &b, "member 'short': truncated data (700 of 2000 bytes)");
	header(h, "nopad", '0', 700);
	put(&b, h, 512);
	put_zeros(&b, 700);
	refused(&s, &b, "member 'nopad': truncated data (its padding is missing)");
	member(&b, "ok", '0', "x", 1);
	refused(&s, &b, "truncated: it ends without the two zero blocks");
	member(&b, "ok", '0', "x", 1), put_zeros(&b, 512), member(&b, "hidden", '0', "x", 1), end(&b);
	refused(&s, &b, "a lone zero block at byte 1024 is followed by more data");
	/* accepted: a signed checksum (POSIX allows either), one zero block then the end, a record's padding */
	header(h, "signed", '0', 1);
	h[265] = 0xe9; /* a byte of the owner's name over 127 */
	unsigned u = 0;
	int sig = 0;
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		u += h[i], sig += h[i] > 127 ? h[i] - 256 : h[i];
	CU_ASSERT(u != (unsigned)sig);
	snprintf((char *)h + 148, 8, "%06o", sig);
	put(&b, h, 512), put(&b, "s", 1), put_zeros(&b, 511 + 512);
	write_buf(s.archive, &b);
	int rc = tar_extract(s.archive, s.x, &small);
	if (rc)
		fprintf(stderr, "FAIL the signed checksum: %s\n", uncore_error());
	CU_ASSERT(rc == 0 && same_file(s.x, "signed", "s", 1));
	free(b.p);
	scratch_drop(&s);
}

static void test_sizes_and_limits(void)
{
	struct scratch s;
	struct buf b = { 0 };
	unsigned char h[512];
	struct tar_limits lim = small;
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
	refused_lim(&s, &b, &lim, "member 'huge': truncated data (1024 of 10737418240 bytes)");
	header(h, "b256", '0', 0);
	memset(h + 124, 0, 12);
	h[124] = 0x80, h[135] = 0x10; /* base-256: 16 bytes */
	checksum(h);
	put(&b, h, 512), put_zeros(&b, 512), end(&b);
	refused(&s, &b, "member 'b256': a base-256 size field is refused");
	static const char *const sizes[] = { "0000000001x\0", " 0000000001\0", "\0\0\0\0\0\0\0\0\0\0\0\0", "-0000000001\0",
					     "0000000001\0\x31" };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		header(h, "sz", '0', 0);
		memcpy(h + 124, sizes[i], 12);
		checksum(h);
		put(&b, h, 512), end(&b);
		refused(&s, &b, "member 'sz': the size field is not an octal number");
	}
	member(&b, "d", '5', "xx", 2), end(&b);
	refused(&s, &b, "member 'd': a directory with data is refused");
	member(&b, "a", '0', "1", 1), member(&b, "a", '0', "2", 1), end(&b);
	refused(&s, &b, "member 'a': a duplicate member name is refused");
	member(&b, "d/", '5', NULL, 0), member(&b, "d/", '5', NULL, 0), end(&b);
	refused(&s, &b, "member 'd/': a duplicate member name is refused");
	member(&b, "d/", '5', NULL, 0), member(&b, "d", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'd': a duplicate member name is refused");
	member(&b, "f", '0', "x", 1), member(&b, "f/g", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'f/g': directory 'f': a symbolic link or not a directory");
	member(&b, "d/f", '0', "x", 1), member(&b, "d", '0', "x", 1), end(&b);
	refused(&s, &b, "member 'd': cannot create it: a member of that name, or a directory of one, was extracted already");
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
		{ "a/", "member 'a/': a trailing '/' is refused", '0' },
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
	/* accepted: a directory member, the whole character set */
	member(&b, "dir/", '5', NULL, 0), member(&b, "dir/AZaz09._:,+=@-", '0', "x", 1), end(&b);
	write_buf(s.archive, &b);
	int rc = tar_extract(s.archive, s.x, &small);
	CU_ASSERT(rc == 0 && same_file(s.x, "dir/AZaz09._:,+=@-", "x", 1));
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
	CU_ASSERT(tar_extract(link, s.x, &small) == -1);
	CU_ASSERT(strstr(uncore_error(), "link.tar: cannot open it: a symbolic link is refused") != NULL);
	CU_ASSERT(mkfifo(fifo, 0600) == 0); /* refused, not waited on */
	CU_ASSERT(tar_extract(fifo, s.x, &small) == -1 && strstr(uncore_error(), "fifo.tar: not a regular file (refused)"));
	CU_ASSERT(tar_extract(s.sibling, s.x, &small) == -1 && strstr(uncore_error(), "not a regular file (refused)"));
	reset(&b);
	write_buf(s.archive, &b);
	CU_ASSERT(tar_extract(s.archive, s.x, &small) == -1 && strstr(uncore_error(), "a.tar: empty"));
	CU_ASSERT(tar_extract(real, link, &small) == -1 &&
		  strstr(uncore_error(), "link.tar: a symbolic link or not a directory (refused)"));
	CU_ASSERT(tar_extract(real, s.x, NULL) == -1 && strstr(uncore_error(), "no limits given"));
	CU_ASSERT(entries(s.x) == 0);
	CU_ASSERT(tar_remove_tree(link) == -1 && strstr(uncore_error(), "a symbolic link or not a directory (refused)"));
	CU_ASSERT(unlink(link) == 0 && unlink(fifo) == 0 && unlink(real) == 0 && unlink(s.archive) == 0);
	free(b.p);
	scratch_drop(&s);
}

/* tar_remove_tree removes links, not what they point at. */
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
	CU_ASSERT(tar_remove_tree(s.x) == 0 && access(s.x, F_OK) != 0);
	CU_ASSERT(access(keep, F_OK) == 0 && entries(s.sibling) == 1);
	CU_ASSERT(tar_remove_tree(s.x) == -1 && strstr(uncore_error(), "cannot remove") != NULL);
	scratch_drop(&s);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "members read back byte for byte, reproducibly", test_round_trip },
		{ "the writer refuses what the reader would", test_writer_refuses },
		{ "GNU tar reads our archives, and we read its ustar", test_gnu_tar },
		{ "paths and links that leave the directory are refused", test_escapes },
		{ "links, devices, FIFOs and extension headers are refused", test_types },
		{ "damaged and truncated archives are refused", test_damaged },
		{ "sizes, duplicates and limits are checked from the header", test_sizes_and_limits },
		{ "names outside the character set or shape are refused", test_names },
		{ "the archive must be a regular file, not a link", test_archive_file },
		{ "removing a tree never follows a link", test_remove_tree },
		{ NULL, NULL },
	};
	return run_suite("tar", tests);
}
