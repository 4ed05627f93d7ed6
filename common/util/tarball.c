/* tarball.h: the snapshot's archive through libarchive, and what of a stranger's archive is written where. */
#define _POSIX_C_SOURCE 200809L /* openat, mkdirat, O_NOFOLLOW, O_CLOEXEC */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "tarball.h"
#include "error.h"

enum {
	BLOCK = 512,                 /* POSIX.1-2001, pax(1), "ustar Interchange Format": a header block */
	NAME_MAX_LEN = 255,          /* a ustar name: prefix + '/' + name could be 256; 255 is what we write */
	SHOWN = 4 * NAME_MAX_LEN + 8 /* a name escaped for a message */
};

static const char *why_of(struct archive *a)
{
	const char *s = archive_error_string(a);
	return s ? s : "libarchive gave no reason";
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

/* --- the writer --- */

struct tarball_writer {
	struct archive *a;
	int fd;
	int broken; /* a write failed: the archive is not whole */
	char path[];
};

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n >= k && !strcmp(s + n - k, end);
}

/* Close and remove what was written, free w. */
static void drop(struct tarball_writer *w)
{
	/* closed, not archive_write_fail()ed: only the close ends the gzip filter's zlib stream (libarchive
	 * 3.6's free of a failed archive leaks it); what the close writes goes with the file */
	archive_write_close(w->a);
	archive_write_free(w->a);
	close(w->fd);
	unlink(w->path); /* half an archive is no archive */
	free(w);
}

int tarball_create(struct tarball_writer **w, const char *path)
{
	struct tarball_writer *t = malloc(sizeof(*t) + strlen(path) + 1);
	int gz = ends_with(path, ".gz") || ends_with(path, ".tgz");
	*w = NULL;
	if (!t || !(t->a = archive_write_new())) {
		free(t);
		return uc_err("archive %s: out of memory", path);
	}
	strcpy(t->path, path);
	t->broken = 0;
	/* ustar: what every tar reads.  "!timestamp": a gzip header without the time (RFC 1952 MTIME 0), so
	 * that the same facts give the same bytes.  One byte in the last block: no padding of the file to
	 * tar's 10240-byte records. */
	if (archive_write_set_format_ustar(t->a) != ARCHIVE_OK ||
	    (gz && (archive_write_add_filter_gzip(t->a) != ARCHIVE_OK ||
		    archive_write_set_filter_option(t->a, "gzip", "timestamp", NULL) != ARCHIVE_OK)) ||
	    archive_write_set_bytes_in_last_block(t->a, 1) != ARCHIVE_OK) {
		int rc = uc_err("archive %s: libarchive cannot write a %s: %s", path, gz ? "gzip tar" : "tar", why_of(t->a));
		archive_write_free(t->a);
		free(t);
		return rc;
	}
	/* O_EXCL: never overwrite, and never write through a symbolic link planted at path */
	t->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (t->fd < 0) {
		int e = errno;
		archive_write_free(t->a);
		free(t);
		return uc_err("archive %s: cannot create it: %s", path,
			      e == EEXIST ? "it exists already (an archive is never overwritten)" : strerror(e));
	}
	if (archive_write_open_fd(t->a, t->fd) != ARCHIVE_OK) {
		int rc = uc_err("archive %s: cannot start it: %s", path, why_of(t->a));
		drop(t);
		return rc;
	}
	*w = t;
	return 0;
}

int tarball_add(struct tarball_writer *w, const char *name, const void *data, size_t len)
{
	char why[128], esc[SHOWN];
	const char *bad = name_problem(name, why, sizeof(why));
	if (bad)
		return uc_err("archive %s: member '%s': %s", w->path, shown(name, esc, sizeof(esc)), bad);
	if (w->broken)
		return uc_err("archive %s: member '%s': not added: an earlier write failed", w->path, name);
	struct archive_entry *e = archive_entry_new();
	if (!e)
		return uc_err("archive %s: member '%s': out of memory", w->path, name);
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)len);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_uname(e, "root");
	archive_entry_set_gname(e, "root");
	archive_entry_set_mtime(e, 0, 0); /* reproducible: the same facts give the same bytes */
	int r = archive_write_header(w->a, e);
	archive_entry_free(e);
	/* ARCHIVE_FAILED: this entry only (a name that does not fit ustar's fields), nothing of it written */
	if (r == ARCHIVE_FAILED)
		return uc_err("archive %s: member '%s': %s", w->path, name, why_of(w->a));
	if (r != ARCHIVE_OK || archive_write_data(w->a, data, len) != (la_ssize_t)len) {
		w->broken = 1;
		return uc_err("archive %s: member '%s': cannot write it: %s", w->path, name, why_of(w->a));
	}
	return 0;
}

int tarball_finish(struct tarball_writer *w)
{
	int rc = 0;
	if (w->broken)
		rc = uc_err("archive %s: not finished: an earlier write failed", w->path);
	else if (archive_write_close(w->a) != ARCHIVE_OK) /* the end: two zero blocks, the gzip trailer */
		rc = uc_err("archive %s: cannot write its end: %s", w->path, why_of(w->a));
	else if (fsync(w->fd))
		rc = uc_err("archive %s: cannot write its end: %s", w->path, strerror(errno));
	if (rc) {
		drop(w);
		return rc;
	}
	archive_write_free(w->a);
	if (close(w->fd)) {
		rc = uc_err("archive %s: cannot close it: %s", w->path, strerror(errno));
		unlink(w->path);
	}
	free(w);
	return rc;
}

void tarball_abort(struct tarball_writer *w)
{
	if (w)
		drop(w);
}

/* --- the reader --- */

struct reader {
	const char *path;
	struct archive *a;
	int dir; /* the directory extracted into */
	const struct tarball_limits *lim;
	unsigned long long total; /* the members' sizes so far */
	la_int64_t end;           /* where the last member (its data and padding) ends in the tar */
	int members;
	char last[SHOWN]; /* the last member's name, escaped */
	/* the last regular file's directory, kept open: a snapshot's files come directory by directory, and
	 * opening every component of every name again cost six openat(2) a member.  Nothing extracted can
	 * move or replace a directory (members are only created, O_EXCL), so the descriptor stays right. */
	char parent[NAME_MAX_LEN + 1];
	int parent_fd; /* -1: none kept */
	tarball_take_fn take; /* tarball_read: each member to it, none extracted */
	void *take_arg;
};

/* Why a member of this kind is not extracted, or NULL for a regular file or a directory. */
static const char *type_problem(struct archive_entry *e, char *why, size_t size)
{
	if (archive_entry_hardlink(e))
		return "a hard link is refused";
	if (archive_entry_symlink(e))
		return "a symbolic link is refused";
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
		/* a sparse file's holes would be made of nothing in the archive */
		return archive_entry_sparse_count(e) > 0 ? "a sparse file is refused" : NULL;
	case AE_IFDIR: return NULL;
	case AE_IFLNK: return "a symbolic link is refused";
	case AE_IFCHR: return "a character device is refused";
	case AE_IFBLK: return "a block device is refused";
	case AE_IFIFO: return "a FIFO is refused";
	case AE_IFSOCK: return "a socket is refused";
	case 0: return "a member of no file type (a hard link without its target) is refused";
	}
	snprintf(why, size, "file type 0%o is refused (only regular files and directories are extracted)",
		 (unsigned)archive_entry_filetype(e));
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

/* The member's data (size bytes, as its header says), block by block as libarchive unpacks it, written to out
 * (a file) or copied to mem (size bytes of room): 0, or -1 with the reason. */
static int copy_data(struct reader *r, const char *esc, la_int64_t size, int out, char *mem)
{
	la_int64_t got = 0;
	int rc = 0;
	for (;;) {
		const void *buf;
		size_t n;
		la_int64_t at;
		int rd = archive_read_data_block(r->a, &buf, &n, &at);
		if (rd == ARCHIVE_EOF) /* (its padding read too) */
			break;
		if (rd != ARCHIVE_OK)
			rc = uc_err("archive %s: member '%s': truncated or damaged data (%lld of %lld bytes): %s", r->path, esc,
				    (long long)got, (long long)size, why_of(r->a));
		else if (at != got || (unsigned long long)n > (unsigned long long)(size - got)) /* (sparse files are refused) */
			rc = uc_err("archive %s: member '%s': data beyond its header's %lld bytes", r->path, esc, (long long)size);
		else if (mem)
			memcpy(mem + got, buf, n);
		else if (write_full(out, buf, n))
			rc = uc_err("archive %s: member '%s': cannot write it: %s", r->path, esc, strerror(errno));
		if (rc)
			return rc;
		got += (la_int64_t)n;
	}
	if (got != size)
		return uc_err("archive %s: member '%s': truncated data (%lld of %lld bytes)", r->path, esc, (long long)got,
			      (long long)size);
	return 0;
}

/* Copy the member's data to a new file name (copy_data): the header's size is never allocated. */
static int extract_file(struct reader *r, char *name, const char *esc, la_int64_t size)
{
	const char *leaf, *slash = strrchr(name, '/');
	size_t dirlen = slash ? (size_t)(slash - name) : 0;
	int rc, parent;
	if (r->parent_fd >= 0 && slash && strlen(r->parent) == dirlen && !memcmp(r->parent, name, dirlen)) {
		parent = r->parent_fd;
		leaf = slash + 1;
	} else {
		char dir[NAME_MAX_LEN + 1];
		memcpy(dir, name, dirlen); /* (open_parent cuts name at its '/') */
		dir[dirlen] = 0;
		parent = open_parent(r, name, esc, 0, &leaf);
		if (parent < 0)
			return -1;
		if (parent != r->dir) {
			if (r->parent_fd >= 0)
				close(r->parent_fd);
			r->parent_fd = parent;
			memcpy(r->parent, dir, dirlen + 1);
		}
	}
	int out = openat(parent, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int e = errno;
	if (out < 0)
		return uc_err("archive %s: member '%s': cannot create it: %s", r->path, esc,
			      e == EEXIST ? "a member of that name, or a directory of one, was extracted already" : strerror(e));
	rc = copy_data(r, esc, size, out, NULL);
	if (close(out) && !rc)
		rc = uc_err("archive %s: member '%s': cannot write it: %s", r->path, esc, strerror(errno));
	return rc;
}

/* tarball_read: the member's data (size bytes, at most max_member) in memory, then to r->take */
static int take_member(struct reader *r, const char *name, const char *esc, la_int64_t size, int is_dir)
{
	if (is_dir) {
		if (archive_read_data_skip(r->a) != ARCHIVE_OK)
			return uc_err("archive %s: member '%s': %s", r->path, esc, why_of(r->a));
		return r->take(r->take_arg, name, NULL, 0, 1);
	}
	char *data = malloc((size_t)size + 1);
	if (!data)
		return uc_err("archive %s: member '%s': out of memory", r->path, esc);
	int rc = copy_data(r, esc, size, -1, data);
	if (!rc)
		rc = r->take(r->take_arg, name, data, (size_t)size, 0);
	free(data);
	return rc;
}

/* One member, from its header e: checked, then extracted. */
static int member(struct reader *r, struct archive_entry *e)
{
	char name[NAME_MAX_LEN + 1], why[128];
	const char *p = archive_entry_pathname(e), *bad;
	if (!p) /* a pax name in UTF-8 that this locale cannot hold */
		return uc_err("archive %s: the member after '%s': a name outside this locale's character set is refused",
			      r->path, r->last);
	const char *esc = shown(p, r->last, sizeof(r->last));
	int is_dir = archive_entry_filetype(e) == AE_IFDIR;
	size_t len = strlen(p);
	if ((bad = type_problem(e, why, sizeof(why))))
		return uc_err("archive %s: member '%s': %s", r->path, esc, bad);
	if (++r->members > r->lim->max_members)
		return uc_err("archive %s: member '%s': more than %d members are refused", r->path, esc, r->lim->max_members);
	if (is_dir && len > 1 && p[len - 1] == '/')
		len--;
	if (len > NAME_MAX_LEN)
		bad = "a name longer than 255 characters is refused";
	else {
		memcpy(name, p, len);
		name[len] = 0;
		bad = name_problem(name, why, sizeof(why));
	}
	if (bad)
		return uc_err("archive %s: member '%s': %s", r->path, esc, bad);
	/* the limits, from the header alone: nothing of an oversized member is unpacked */
	la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
	if (size < 0)
		return uc_err("archive %s: member '%s': no size is refused", r->path, esc);
	if (is_dir && size)
		return uc_err("archive %s: member '%s': a directory with data is refused", r->path, esc);
	if ((unsigned long long)size > r->lim->max_member)
		return uc_err("archive %s: member '%s': its size, %lld bytes, is over the limit of %zu bytes a member",
			      r->path, esc, (long long)size, r->lim->max_member);
	if ((unsigned long long)size > r->lim->max_total - r->total)
		return uc_err("archive %s: member '%s': the members' total size would be over the limit of %zu bytes",
			      r->path, esc, r->lim->max_total);
	r->total += (unsigned long long)size;
	if (r->take)
		return take_member(r, name, esc, size, is_dir);
	if (!is_dir)
		return extract_file(r, name, esc, size);
	const char *leaf;
	int fd = open_parent(r, name, esc, 1, &leaf);
	if (fd < 0)
		return -1;
	if (fd != r->dir)
		close(fd);
	if (archive_read_data_skip(r->a) != ARCHIVE_OK)
		return uc_err("archive %s: member '%s': %s", r->path, esc, why_of(r->a));
	return 0;
}

/* A signal pending that would end the process (its caller blocks them while it opens: cli_signals.c), or 0:
 * the unpack stops at the member it is at, rather than unpack the rest (a 70,000-member archive took 78 s) */
static int ending_pending(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ };
	sigset_t set;
	if (sigpending(&set))
		return 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigismember(&set, sigs[i]) == 1)
			return sigs[i];
	return 0;
}

static int extract_all(struct reader *r)
{
	for (;;) {
		struct archive_entry *e;
		int rc = archive_read_next_header(r->a, &e);
		if (rc == ARCHIVE_EOF)
			break;
		/* a warning too: a pax attribute it could not take, a name it could not convert */
		if (rc != ARCHIVE_OK)
			return uc_err("archive %s: the header at byte %lld%s%s%s: %s%s", r->path, (long long)r->end,
				      r->members ? " (after member '" : "", r->members ? r->last : "", r->members ? "')" : "",
				      why_of(r->a), r->end || rc == ARCHIVE_WARN ? "" :
				      " (not a tar archive, plain or gzip, or its first header is damaged)");
		if (member(r, e))
			return -1;
		/* the unpacked tar's bytes read so far: this member's header, data and padding are */
		r->end = archive_filter_bytes(r->a, 0);
		if (r->lim->each)
			r->lim->each(r->lim->arg, r->members);
		int sig = ending_pending();
		if (sig)
			return uc_err("archive %s: stopped after %d members: signal %d (%s) came", r->path, r->members, sig,
				      strsignal(sig));
	}
	/* libarchive takes an archive that stops after a member, or after one zero block, as ended (some
	 * writers omit the end); a snapshot cut at a block boundary would then lose its last members unsaid.
	 * What it read past the last member is the end it found. */
	la_int64_t tail = archive_filter_bytes(r->a, 0) - r->end;
	if (tail == 0)
		return uc_err("archive %s: truncated: it ends at byte %lld without the two zero blocks that end an archive",
			      r->path, (long long)r->end);
	if (tail != 2 * BLOCK)
		return uc_err("archive %s: a lone zero block at byte %lld is not followed by a second one (truncated, or "
			      "more data follows)", r->path, (long long)r->end);
	return 0;
}

/* A reader of tar archives, plain or gzip, and of nothing else: no other format is bid for, and no
 * filter but gzip (in libarchive's zlib, never an external program) is tried. */
static struct archive *tar_reader(const char *archive)
{
	struct archive *a = archive_read_new();
	if (!a) {
		uc_err("archive %s: out of memory", archive);
		return NULL;
	}
	if (archive_read_support_filter_gzip(a) != ARCHIVE_OK || archive_read_set_format(a, ARCHIVE_FORMAT_TAR) != ARCHIVE_OK) {
		uc_err("archive %s: libarchive cannot read a gzip tar here: %s", archive, why_of(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* A gzip archive's every member inflated with zlib, which checks each trailer's CRC-32 and length (RFC 1952
 * 2.3.1; libarchive 3.6 and 3.7 do not): 0, or -1 naming the damage.  fd is read from its start and left
 * there; a plain tar (no gzip magic 1f 8b) is 0.  At most max bytes are inflated: the archive's limit. */
static int gzip_checked(const char *archive, int fd, unsigned long long max)
{
	unsigned char in[65536], out[65536];
	z_stream z;
	unsigned long long total = 0;
	int rc = Z_OK, done = 0;
	ssize_t n = pread(fd, in, 2, 0);
	if (n != 2 || in[0] != 0x1f || in[1] != 0x8b)
		return 0;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return uc_err("archive %s: zlib cannot start: out of memory", archive);
	for (off_t at = 0; !done;) {
		if ((n = pread(fd, in, sizeof(in), at)) < 0) {
			rc = uc_err("archive %s: cannot read it: %s", archive, strerror(errno));
			break;
		}
		if (n == 0) {
			rc = rc == Z_STREAM_END ? 0 : uc_err("archive %s: truncated gzip data (no trailer)", archive);
			break;
		}
		at += n;
		z.next_in = in;
		z.avail_in = (uInt)n;
		while (z.avail_in && !done) {
			if (rc == Z_STREAM_END) /* another gzip member follows (RFC 1952 2.2) */
				inflateReset(&z);
			z.next_out = out;
			z.avail_out = sizeof(out);
			rc = inflate(&z, Z_NO_FLUSH);
			total += sizeof(out) - z.avail_out;
			if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
				done = 1, rc = uc_err("archive %s: damaged gzip data at byte %lld: %s (refused)", archive,
						      (long long)(at - (off_t)z.avail_in), z.msg ? z.msg : "zlib error");
			else if (total > max)
				done = 1, rc = uc_err("archive %s: it unpacks to more than %llu bytes (refused)", archive, max);
			else if (rc == Z_STREAM_END && z.avail_in && z.next_in[0] == 0)
				z.avail_in = 0; /* zero padding after the last member (in this read) */
		}
		if (ending_pending())
			done = 1, rc = uc_err("archive %s: stopped: a signal came", archive);
	}
	inflateEnd(&z);
	return rc ? -1 : 0;
}

/* Check archive whole (gzip_checked), then each member to extract_all: into dir, or (dir NULL) to r->take */
static int run(struct reader *r, const char *archive, const char *dir, const struct tarball_limits *lim)
{
	struct stat st;
	int rc, fl, fd;
	if (!lim)
		return uc_err("archive %s: no limits given", archive);
	/* O_NONBLOCK: a FIFO put in the archive's place cannot stall the open (it is refused below) */
	fd = open(archive, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return uc_err("archive %s: cannot open it: %s", archive,
			      errno == ELOOP ? "a symbolic link is refused" : strerror(errno));
	if (fstat(fd, &st) || (fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		rc = uc_err("archive %s: cannot open it: %s", archive, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = uc_err("archive %s: not a regular file (refused)", archive);
	else if (st.st_size == 0)
		rc = uc_err("archive %s: empty (no header, not even the end of an archive)", archive);
	else if (gzip_checked(archive, fd, (unsigned long long)lim->max_total + ((unsigned long long)lim->max_members + 2) * 2048))
		rc = -1;
	else if (dir && (r->dir = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		rc = uc_err("archive %s: cannot open directory %s: %s", archive, dir,
			    errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory (refused)" : strerror(errno));
	else if (!(r->a = tar_reader(archive)))
		rc = -1;
	else if (archive_read_open_fd(r->a, fd, 65536) != ARCHIVE_OK)
		rc = uc_err("archive %s: cannot read it: %s", archive, why_of(r->a));
	else
		rc = extract_all(r);
	if (r->a)
		archive_read_free(r->a); /* (closes nothing of ours: fd and r->dir are closed here) */
	if (r->parent_fd >= 0)
		close(r->parent_fd);
	if (r->dir >= 0)
		close(r->dir);
	close(fd);
	return rc;
}

int tarball_extract(const char *archive, const char *dir, const struct tarball_limits *lim)
{
	struct reader r = { .path = archive, .dir = -1, .lim = lim, .parent_fd = -1 };
	return run(&r, archive, dir, lim);
}

int tarball_read(const char *archive, const struct tarball_limits *lim, tarball_take_fn take, void *arg)
{
	struct reader r = { .path = archive, .dir = -1, .lim = lim, .parent_fd = -1, .take = take, .take_arg = arg };
	return run(&r, archive, NULL, lim);
}
