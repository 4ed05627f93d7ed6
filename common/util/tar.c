/* tar.h: a ustar writer, and a reader that extracts a stranger's archive without leaving its directory. */
#define _POSIX_C_SOURCE 200809L /* openat, mkdirat, unlinkat, fdopendir, O_NOFOLLOW, O_CLOEXEC */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tar.h"
#include "error.h"

/* The header block: POSIX.1-2001, pax(1), "ustar Interchange Format", Table: ustar Header Block. */
enum {
	BLOCK = 512,
	H_NAME = 0, NAME_LEN = 100,
	H_MODE = 100,     /* 8 */
	H_UID = 108,      /* 8 */
	H_GID = 116,      /* 8 */
	H_SIZE = 124,     /* 12 */
	H_MTIME = 136,    /* 12 */
	H_CHKSUM = 148,   /* 8 */
	H_TYPEFLAG = 156, /* 1 */
	H_LINKNAME = 157, /* 100 */
	H_MAGIC = 257,    /* 6: "ustar\0" */
	H_VERSION = 263,  /* 2: "00" */
	H_UNAME = 265,    /* 32 */
	H_GNAME = 297,    /* 32 */
	H_DEVMAJOR = 329, /* 8 */
	H_DEVMINOR = 337, /* 8 */
	H_PREFIX = 345, PREFIX_LEN = 155,
	NAME_MAX_LEN = 255,         /* prefix + '/' + name could be 256; 255 is PATH_MAX-safe and what we write */
	SHOWN = 4 * NAME_MAX_LEN + 8 /* a name escaped for a message */
};
#define SIZE_MAX_USTAR 077777777777ULL /* 11 octal digits and a NUL: 8 GiB - 1 */

static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int write_full(int fd, const void *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO; /* (not expected of a file: no errno of its own) */
		if (w <= 0)
			return -1;
		buf = (const char *)buf + w;
		n -= (size_t)w;
	}
	return 0;
}

/* s as a message may quote it: a byte outside printable ASCII, a quote or a backslash as \xNN, so that a
 * hostile name cannot forge lines or terminal escapes in a log. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t o = 0;
	for (; *s && o + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c > 0x7e || c == '\'' || c == '\\')
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = 0;
	return buf;
}

static int name_char_ok(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c && strchr("._:,+=@-", c));
}

/* Why name (a directory's without its trailing '/') may not be a member, or NULL.  The writer obeys the
 * same rules, so that every archive it writes can be read back. */
static const char *name_problem(const char *name, char *why, size_t size)
{
	size_t len = strlen(name);
	if (!len)
		return "an empty name is refused";
	if (len > NAME_MAX_LEN)
		return "a name longer than 255 characters is refused";
	if (name[0] == '/')
		return "an absolute path is refused";
	if (name[len - 1] == '/')
		return "a trailing '/' is refused (only a directory's name may end in one)";
	for (const char *c = name;; c++) {
		size_t n = strcspn(c, "/");
		if (n == 0)
			return "an empty path component ('//') is refused";
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return "a path with '..' is refused";
		if (n == 1 && c[0] == '.')
			return "a '.' path component is refused";
		c += n;
		if (!*c)
			break;
	}
	for (const char *p = name; *p; p++)
		if (*p != '/' && !name_char_ok((unsigned char)*p)) {
			snprintf(why, size, "character 0x%02x is refused (a name may have only A-Z a-z 0-9 . _ : , + = @ - and /)",
				 (unsigned char)*p);
			return why;
		}
	return NULL;
}

/* The header's sum with its checksum field taken as eight spaces; POSIX sums unsigned bytes, some old tars
 * summed signed ones, and POSIX allows a reader to accept either. */
static long header_sum(const unsigned char *h, int is_signed)
{
	long s = 0;
	for (int i = 0; i < BLOCK; i++) {
		int c = i >= H_CHKSUM && i < H_CHKSUM + 8 ? ' ' : h[i];
		s += is_signed && c >= 128 ? c - 256 : c;
	}
	return s;
}

/* A number field: octal digits, then NUL or space to the field's end; or digits filling the whole field,
 * as GNU tar and star write a size of 8 GiB or more (so that such a size is refused for being too big, not
 * as garbage).  spaces: leading spaces allowed (old writers pad the checksum so).  0, or -1. */
static int parse_octal(const unsigned char *f, size_t len, int spaces, unsigned long long *v)
{
	size_t i = 0, digits;
	*v = 0;
	while (spaces && i < len && f[i] == ' ')
		i++;
	for (digits = i; i < len && f[i] >= '0' && f[i] <= '7'; i++)
		*v = *v * 8 + (unsigned)(f[i] - '0'); /* 12 digits at most: no overflow */
	if (i == digits)
		return -1;
	for (; i < len; i++)
		if (f[i] && f[i] != ' ')
			return -1;
	return 0;
}

/* --- the writer --- */

struct tar_writer {
	int fd;
	int broken; /* a write failed: the archive is not whole */
	char path[];
};

int tar_create(struct tar_writer **w, const char *path)
{
	struct tar_writer *t = malloc(sizeof(*t) + strlen(path) + 1);
	*w = NULL;
	if (!t)
		return uc_err("archive %s: out of memory", path);
	strcpy(t->path, path);
	t->broken = 0;
	/* O_EXCL: never overwrite, and never write through a symbolic link planted at path */
	t->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (t->fd < 0) {
		int e = errno;
		free(t);
		return uc_err("archive %s: cannot create it: %s", path,
			      e == EEXIST ? "it exists already (an archive is never overwritten)" : strerror(e));
	}
	*w = t;
	return 0;
}

/* len - 1 zero-filled octal digits and a NUL (POSIX: "leading zero-filled octal numbers"). */
static void put_octal(unsigned char *f, size_t len, unsigned long long v)
{
	for (size_t i = len - 1; i-- > 0; v >>= 3)
		f[i] = (unsigned char)('0' + (v & 7));
	f[len - 1] = 0;
}

int tar_add(struct tar_writer *w, const char *name, const void *data, size_t len)
{
	static const unsigned char zeros[BLOCK];
	unsigned char h[BLOCK] = { 0 };
	char why[128], esc[SHOWN];
	const char *bad = name_problem(name, why, sizeof(why));
	size_t n = strlen(name), split = 0;
	if (bad)
		return uc_err("archive %s: member '%s': %s", w->path, shown(name, esc, sizeof(esc)), bad);
	if (w->broken)
		return uc_err("archive %s: member '%s': not added: an earlier write failed", w->path, name);
	if ((unsigned long long)len > SIZE_MAX_USTAR)
		return uc_err("archive %s: member '%s': %zu bytes is more than a ustar size field holds", w->path, name, len);
	if (n > NAME_LEN) {
		/* the shortest prefix that leaves at most 100 characters to the name field */
		const char *slash = strchr(name + n - NAME_LEN - 1, '/');
		if (!slash || slash - name > PREFIX_LEN)
			return uc_err("archive %s: member '%s': a name over 100 characters must split at a '/' into at most "
				      "155 + 100", w->path, name);
		split = (size_t)(slash - name);
		memcpy(h + H_PREFIX, name, split);
		memcpy(h + H_NAME, slash + 1, n - split - 1);
	} else
		memcpy(h + H_NAME, name, n);
	put_octal(h + H_MODE, 8, 0644);
	put_octal(h + H_UID, 8, 0);
	put_octal(h + H_GID, 8, 0);
	put_octal(h + H_SIZE, 12, len);
	put_octal(h + H_MTIME, 12, 0); /* reproducible: the same facts give the same bytes */
	h[H_TYPEFLAG] = '0';
	memcpy(h + H_MAGIC, "ustar", 6); /* with its NUL */
	memcpy(h + H_VERSION, "00", 2);
	memcpy(h + H_UNAME, "root", 4);
	memcpy(h + H_GNAME, "root", 4);
	put_octal(h + H_DEVMAJOR, 8, 0);
	put_octal(h + H_DEVMINOR, 8, 0);
	put_octal(h + H_CHKSUM, 7, (unsigned long long)header_sum(h, 0)); /* six digits, NUL, space */
	h[H_CHKSUM + 7] = ' ';
	if (write_full(w->fd, h, BLOCK) || write_full(w->fd, data, len) ||
	    write_full(w->fd, zeros, (BLOCK - len % BLOCK) % BLOCK)) {
		w->broken = 1;
		return uc_err("archive %s: member '%s': cannot write it: %s", w->path, name, strerror(errno));
	}
	return 0;
}

int tar_finish(struct tar_writer *w)
{
	static const unsigned char end[2 * BLOCK]; /* two zero blocks end an archive */
	int rc = 0;
	if (w->broken)
		rc = uc_err("archive %s: not finished: an earlier write failed", w->path);
	else if (write_full(w->fd, end, sizeof(end)) || fsync(w->fd))
		rc = uc_err("archive %s: cannot write its end: %s", w->path, strerror(errno));
	if (close(w->fd) && !rc)
		rc = uc_err("archive %s: cannot close it: %s", w->path, strerror(errno));
	if (rc)
		unlink(w->path); /* half an archive is no archive */
	free(w);
	return rc;
}

void tar_abort(struct tar_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	unlink(w->path);
	free(w);
}

/* --- the reader --- */

/* The member names seen so far (a hash set): a name twice is refused. */
struct names {
	char **slot;
	size_t cap, n;
};

static size_t hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void names_put(char **slot, size_t cap, char *name)
{
	size_t j = hash(name) & (cap - 1);
	while (slot[j])
		j = (j + 1) & (cap - 1);
	slot[j] = name;
}

/* 1: name is new (and kept), 0: seen before, -1: out of memory. */
static int names_add(struct names *x, const char *name)
{
	if (2 * (x->n + 1) > x->cap) { /* at most half full */
		size_t cap = x->cap ? 2 * x->cap : 64;
		char **slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i])
				names_put(slot, cap, x->slot[i]);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	for (size_t j = hash(name) & (x->cap - 1); x->slot[j]; j = (j + 1) & (x->cap - 1))
		if (!strcmp(x->slot[j], name))
			return 0;
	char *copy = strdup(name);
	if (!copy)
		return -1;
	names_put(x->slot, x->cap, copy);
	x->n++;
	return 1;
}

static void names_free(struct names *x)
{
	for (size_t i = 0; i < x->cap; i++)
		free(x->slot[i]);
	free(x->slot);
}

struct reader {
	const char *path;
	int fd, dir; /* the archive; the directory extracted into */
	const struct tar_limits *lim;
	struct names seen;
	unsigned long long offset, total; /* of the current header in the archive; of the members' data */
	int members;
};

static const char *type_problem(unsigned char t, char *why, size_t size)
{
	switch (t) {
	case '1': return "a hard link is refused";
	case '2': return "a symbolic link is refused";
	case '3': return "a character device is refused";
	case '4': return "a block device is refused";
	case '6': return "a FIFO is refused";
	case 'x': return "a pax extended header is refused";
	case 'g': return "a pax global header is refused";
	case 'L': return "a GNU long name is refused";
	case 'K': return "a GNU long link name is refused";
	}
	snprintf(why, size, "type 0x%02x is refused (only regular files and directories are extracted)", t);
	return why;
}

/* Open, below r->dir, the directory holding name's last component, one component at a time and never
 * following a symbolic link (O_NOFOLLOW), making each missing one (0700); all: the last component too.
 * name is cut at its '/'; *leaf is its last component.  The descriptor (r->dir itself for a name without
 * '/'), or -1. */
static int open_parent(struct reader *r, char *name, const char *esc, int all, const char **leaf)
{
	int fd = r->dir;
	for (char *c = name;;) {
		char *slash = strchr(c, '/');
		if (!slash && !all) {
			*leaf = c;
			return fd;
		}
		if (slash)
			*slash = 0;
		int next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && !(mkdirat(fd, c, 0700) && errno != EEXIST))
			next = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		if (fd != r->dir)
			close(fd);
		if (next < 0)
			return uc_err("archive %s: member '%s': directory '%s': %s", r->path, esc, c,
				      e == ELOOP || e == ENOTDIR ? "a symbolic link or not a directory (refused)" : strerror(e));
		fd = next;
		if (!slash) {
			*leaf = NULL;
			return fd;
		}
		c = slash + 1;
	}
}

/* Copy size bytes of member data to a new file name, then skip the padding to the next block.  In chunks:
 * the header's size is never allocated. */
static int extract_file(struct reader *r, char *name, const char *esc, unsigned long long size)
{
	char buf[16384];
	const char *leaf;
	int rc = 0, parent = open_parent(r, name, esc, 0, &leaf);
	if (parent < 0)
		return -1;
	int out = openat(parent, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int e = errno;
	if (parent != r->dir)
		close(parent);
	if (out < 0)
		return uc_err("archive %s: member '%s': cannot create it: %s", r->path, esc,
			      e == EEXIST ? "a member of that name, or a directory of one, was extracted already" : strerror(e));
	for (unsigned long long left = size; left && !rc;) {
		size_t n = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		ssize_t got = read_full(r->fd, buf, n);
		if (got < 0)
			rc = uc_err("archive %s: member '%s': cannot read it: %s", r->path, esc, strerror(errno));
		else if ((size_t)got < n)
			rc = uc_err("archive %s: member '%s': truncated data (%llu of %llu bytes)", r->path, esc,
				    size - left + (unsigned long long)got, size);
		else if (write_full(out, buf, n))
			rc = uc_err("archive %s: member '%s': cannot write it: %s", r->path, esc, strerror(errno));
		else
			left -= n;
	}
	if (close(out) && !rc)
		rc = uc_err("archive %s: member '%s': cannot write it: %s", r->path, esc, strerror(errno));
	size_t pad = (size_t)((BLOCK - size % BLOCK) % BLOCK);
	if (!rc && read_full(r->fd, buf, pad) != (ssize_t)pad)
		rc = uc_err("archive %s: member '%s': truncated data (its padding is missing)", r->path, esc);
	r->offset += size + pad;
	return rc;
}

/* One member, from its header h: checked, then extracted. */
static int member(struct reader *r, const unsigned char *h)
{
	char name[PREFIX_LEN + 1 + NAME_LEN + 1], esc[SHOWN], why[128];
	const char *bad;
	unsigned long long sum, size;
	size_t plen = strnlen((const char *)h + H_PREFIX, PREFIX_LEN), nlen = strnlen((const char *)h + H_NAME, NAME_LEN);
	size_t len = plen + !!plen + nlen;
	/* the name: prefix, '/', name (POSIX); each field NUL-terminated only when shorter than its size */
	memcpy(name, h + H_PREFIX, plen);
	if (plen)
		name[plen] = '/';
	memcpy(name + plen + !!plen, h + H_NAME, nlen);
	name[len] = 0;
	shown(name, esc, sizeof(esc));
	if (parse_octal(h + H_CHKSUM, 8, 1, &sum) ||
	    ((long)sum != header_sum(h, 0) && (long)sum != header_sum(h, 1)))
		return uc_err("archive %s: member '%s' (header at byte %llu): a wrong header checksum (damaged, or not a "
			      "tar archive)", r->path, esc, r->offset);
	if (memcmp(h + H_MAGIC, "ustar", 6))
		return uc_err("archive %s: member '%s' (header at byte %llu): no POSIX ustar magic (not a ustar archive)",
			      r->path, esc, r->offset);
	unsigned char type = h[H_TYPEFLAG];
	int is_dir = type == '5';
	if (type != '0' && type != 0 && !is_dir)
		return uc_err("archive %s: member '%s': %s", r->path, esc, type_problem(type, why, sizeof(why)));
	if (++r->members > r->lim->max_members)
		return uc_err("archive %s: member '%s': more than %d members are refused", r->path, esc, r->lim->max_members);
	if (is_dir && len > 1 && name[len - 1] == '/')
		name[--len] = 0;
	if ((bad = name_problem(name, why, sizeof(why))))
		return uc_err("archive %s: member '%s': %s", r->path, esc, bad);
	if (h[H_SIZE] & 0x80)
		return uc_err("archive %s: member '%s': a base-256 size field is refused", r->path, esc);
	if (parse_octal(h + H_SIZE, 12, 0, &size))
		return uc_err("archive %s: member '%s': the size field is not an octal number", r->path, esc);
	/* the limits, from the header alone: nothing of an oversized member is read */
	if (is_dir && size)
		return uc_err("archive %s: member '%s': a directory with data is refused", r->path, esc);
	if (size > r->lim->max_member)
		return uc_err("archive %s: member '%s': its size, %llu bytes, is over the limit of %zu bytes a member",
			      r->path, esc, size, r->lim->max_member);
	if (size > r->lim->max_total - r->total)
		return uc_err("archive %s: member '%s': the members' total size would be over the limit of %zu bytes",
			      r->path, esc, r->lim->max_total);
	r->total += size;
	int fresh = names_add(&r->seen, name);
	if (fresh < 0)
		return uc_err("archive %s: member '%s': out of memory", r->path, esc);
	if (!fresh)
		return uc_err("archive %s: member '%s': a duplicate member name is refused", r->path, esc);
	r->offset += BLOCK;
	if (is_dir) {
		const char *leaf;
		int fd = open_parent(r, name, esc, 1, &leaf);
		if (fd < 0)
			return -1;
		if (fd != r->dir)
			close(fd);
		return 0;
	}
	return extract_file(r, name, esc, size);
}

static int all_zero(const unsigned char *b)
{
	for (int i = 0; i < BLOCK; i++)
		if (b[i])
			return 0;
	return 1;
}

static int extract_all(struct reader *r)
{
	unsigned char h[BLOCK];
	for (;;) {
		ssize_t got = read_full(r->fd, h, BLOCK);
		if (got < 0)
			return uc_err("archive %s: cannot read it: %s", r->path, strerror(errno));
		if (got == 0)
			return uc_err("archive %s: truncated: it ends without the two zero blocks that end an archive", r->path);
		if (got < BLOCK)
			return uc_err("archive %s: truncated header at byte %llu (%zd of 512 bytes)", r->path, r->offset, got);
		if (!all_zero(h)) {
			if (member(r, h))
				return -1;
			if (r->lim->each)
				r->lim->each(r->lim->arg, r->members);
			continue;
		}
		/* the end: two zero blocks, or (accepted) one and the end of the file; what follows (a record's
		 * padding) is not read */
		got = read_full(r->fd, h, BLOCK);
		if (got < 0)
			return uc_err("archive %s: cannot read it: %s", r->path, strerror(errno));
		if (got == 0 || (got == BLOCK && all_zero(h)))
			return 0;
		return uc_err("archive %s: a lone zero block at byte %llu is followed by more data", r->path, r->offset);
	}
}

int tar_extract(const char *archive, const char *dir, const struct tar_limits *lim)
{
	struct reader r = { .path = archive, .fd = -1, .dir = -1, .lim = lim };
	struct stat st;
	int rc, fl;
	if (!lim)
		return uc_err("archive %s: no limits given", archive);
	/* O_NONBLOCK: a FIFO put in the archive's place cannot stall the open (it is refused below) */
	r.fd = open(archive, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (r.fd < 0)
		return uc_err("archive %s: cannot open it: %s", archive,
			      errno == ELOOP ? "a symbolic link is refused" : strerror(errno));
	if (fstat(r.fd, &st) || (fl = fcntl(r.fd, F_GETFL)) < 0 || fcntl(r.fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		rc = uc_err("archive %s: cannot open it: %s", archive, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = uc_err("archive %s: not a regular file (refused)", archive);
	else if (st.st_size == 0)
		rc = uc_err("archive %s: empty (no header, not even the end of an archive)", archive);
	else if ((r.dir = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		rc = uc_err("archive %s: cannot open directory %s: %s", archive, dir,
			    errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory (refused)" : strerror(errno));
	else
		rc = extract_all(&r);
	if (r.dir >= 0)
		close(r.dir);
	close(r.fd);
	names_free(&r.seen);
	return rc;
}

/* Empty the directory open at fd (closed here): a subdirectory is emptied, then removed; anything else,
 * a symbolic link included, is unlinked, never followed. */
static int empty_dir(int fd, const char *top)
{
	DIR *d = fdopendir(fd);
	int rc = 0;
	if (!d) {
		int e = errno;
		close(fd);
		return uc_err("cannot remove %s: %s", top, strerror(e));
	}
	while (!rc) {
		struct stat st;
		struct dirent *de;
		errno = 0;
		if (!(de = readdir(d))) {
			if (errno)
				rc = uc_err("cannot remove %s: %s", top, strerror(errno));
			break;
		}
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW))
			rc = -1;
		else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0 || empty_dir(sub, top))
				rc = sub < 0 ? -1 : -2; /* -2: the message is set */
			else if (unlinkat(dirfd(d), n, AT_REMOVEDIR))
				rc = -1;
		} else if (unlinkat(dirfd(d), n, 0))
			rc = -1;
		if (rc == -1)
			rc = uc_err("cannot remove %s: '%s': %s", top, n, strerror(errno));
	}
	closedir(d);
	return rc ? -1 : 0;
}

int tar_remove_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return uc_err("cannot remove %s: %s", dir,
			      errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory (refused)" : strerror(errno));
	if (empty_dir(fd, dir))
		return -1;
	if (rmdir(dir))
		return uc_err("cannot remove %s: %s", dir, strerror(errno));
	return 0;
}
