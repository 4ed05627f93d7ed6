/*
 * gres.conf as slurmd reads it (gres_conf.h).  From gres.conf(5) and slurm.conf(5) of Slurm 22.05:
 *   - "Parameter names are case insensitive"; text after '#' is a comment; a line ending in '\' goes on;
 *   - NodeName= (a hostlist) limits a line to those nodes; a line without it is every node's;
 *   - Name= is the GRES's name, compared whole (slurmd: xstrcmp(name, "gpu")): Name=mps is not a GPU;
 *   - File= is a hostlist of device files, each one index in the order written (common_node_config_load:
 *     hostlist_create, then hostlist_shift, index++); MultipleFiles= is one index for the whole line;
 *   - Include PATH reads another file there, a relative PATH from this file's directory (slurm.conf(5));
 *   - AutoDetect= on a line of its own is every node's, with NodeName= that node's, which wins.
 * Type= and Cores= are kept for the caller: Slurm uses them to schedule, not to number the GPUs.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "gres_conf.h"
#include "devices/dev_fs.h"
#include "util/env.h"
#include "util/error.h"
#include "util/guarded_read.h"

#define GRES_FILE_MAX ((off_t)1 << 20)

/* The ranges of a bracket "[a-b,c]" at s (after '['): next number range; 1 while there is one. */
struct range {
	unsigned long lo, hi;
	int width; /* digits of lo when it is zero-padded ("01"), else 0 */
};
static int next_range(const char **s, struct range *r)
{
	const char *p = *s, *q;
	if (!isdigit((unsigned char)*p))
		return 0;
	r->lo = strtoul(p, (char **)&q, 10);
	r->width = p[0] == '0' && q - p > 1 ? (int)(q - p) : 0;
	r->hi = r->lo;
	if (*q == '-') {
		p = q + 1;
		if (!isdigit((unsigned char)*p))
			return 0;
		r->hi = strtoul(p, (char **)&q, 10);
	}
	if (r->hi < r->lo || r->hi - r->lo > 1u << 20 || (*q != ',' && *q != ']'))
		return 0;
	*s = *q == ',' ? q + 1 : q;
	return 1;
}

/* The end of the hostlist element starting at s (a ',' outside brackets, or the end). */
static const char *element_end(const char *s)
{
	int depth = 0;
	for (; *s && (depth || *s != ','); s++)
		depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
	return s;
}

/* Whether name matches the element pat[0..n). */
static int elem_match(const char *pat, size_t n, const char *name)
{
	const char *open = memchr(pat, '[', n);
	if (!open)
		return strlen(name) == n && !strncmp(pat, name, n);
	size_t pre = (size_t)(open - pat);
	if (strncmp(pat, name, pre))
		return 0;
	const char *close = memchr(open, ']', n - pre), *digits = name + pre, *s = open + 1;
	if (!close)
		return 0;
	size_t nd = strspn(digits, "0123456789");
	struct range r;
	while (s < close && next_range(&s, &r)) {
		for (size_t k = 1; k <= nd; k++) { /* which run of the name's digits is the number */
			char num[24];
			if (k >= sizeof(num) || (r.width && (int)k != r.width) || (!r.width && k > 1 && digits[0] == '0'))
				continue;
			memcpy(num, digits, k), num[k] = 0;
			unsigned long v = strtoul(num, NULL, 10);
			if (v >= r.lo && v <= r.hi && elem_match(close + 1, n - (size_t)(close + 1 - pat), digits + k))
				return 1;
		}
		if (*s == ']')
			break;
	}
	return 0;
}

int hostlist_has(const char *list, const char *name)
{
	for (const char *s = list; *s;) {
		const char *e = element_end(s);
		if (elem_match(s, (size_t)(e - s), name))
			return 1;
		s = *e ? e + 1 : e;
	}
	return 0;
}

/* The names of the element pat[0..n) after prefix, appended to out: -1 when malformed or past max. */
static int elem_expand(const char *prefix, const char *pat, size_t n, char (*out)[64], int *cnt, int max)
{
	const char *open = memchr(pat, '[', n);
	char head[64];
	size_t pre = open ? (size_t)(open - pat) : n;
	if (snprintf(head, sizeof(head), "%s%.*s", prefix, (int)pre, pat) >= (int)sizeof(head))
		return -1;
	if (!open) {
		if (*cnt >= max || memchr(pat, ']', n))
			return -1;
		snprintf(out[(*cnt)++], 64, "%s", head);
		return 0;
	}
	const char *close = memchr(open, ']', n - pre), *s = open + 1;
	struct range r;
	if (!close || close == s)
		return -1;
	while (s < close) {
		if (!next_range(&s, &r))
			return -1;
		for (unsigned long v = r.lo; v <= r.hi; v++) {
			char name[64];
			if (snprintf(name, sizeof(name), "%s%0*lu", head, r.width, v) >= (int)sizeof(name) ||
			    elem_expand(name, close + 1, n - (size_t)(close + 1 - pat), out, cnt, max))
				return -1;
		}
		if (*s == ']')
			break;
	}
	return 0;
}

int hostlist_expand(const char *list, char (*out)[64], int max)
{
	int cnt = 0;
	for (const char *s = list; *s;) {
		const char *e = element_end(s);
		if (e == s || elem_expand("", s, (size_t)(e - s), out, &cnt, max))
			return -1;
		s = *e ? e + 1 : e;
	}
	return cnt;
}

const char *gres_node_name(const struct dev_fs *fs, char *buf, size_t len)
{
	const char *env = uc_env("SLURMD_NODENAME");
	buf[0] = 0;
	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (dev_fs_line(fs, "/proc/sys/kernel/hostname", buf, len) && gethostname(buf, len))
		buf[0] = 0;
	buf[len - 1] = 0;
	buf[strcspn(buf, ".")] = 0; /* slurmd's default NodeName: the short host name */
	return buf;
}

/* A file's whole text (NUL-terminated, malloc'd): opened without blocking, a regular file of at most 1 MiB. */
static char *slurp(const struct dev_fs *fs, const char *path)
{
	struct stat st;
	char why[160], where[4096];
	size_t got;
	char *text = malloc((size_t)GRES_FILE_MAX + 1);
	if (!text) {
		uc_err("out of memory");
		return NULL;
	}
	if (dev_fs_text(fs, path, text, (size_t)GRES_FILE_MAX + 1, &got, &st)) {
		int err = errno;
		uc_err("gres.conf: %s: %s", dev_fs_shown(fs, path, where, sizeof(where)),
		       uc_guarded_why(err, &st, GRES_FILE_MAX, 0, why, sizeof(why)));
		free(text);
		errno = err;
		return NULL;
	}
	return text;
}

struct kv {
	const char *node, *name, *file, *mfile, *type, *cores, *autodetect;
};

/* Key=value words of line (changed in place) into kv; keys of no interest (Count, Links, Flags) pass. */
static void words(char *line, struct kv *kv)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = { { "NodeName", offsetof(struct kv, node) }, { "Name", offsetof(struct kv, name) },
		     { "File", offsetof(struct kv, file) }, { "MultipleFiles", offsetof(struct kv, mfile) },
		     { "Type", offsetof(struct kv, type) }, { "Cores", offsetof(struct kv, cores) },
		     { "AutoDetect", offsetof(struct kv, autodetect) } };
	memset(kv, 0, sizeof(*kv));
	for (char *save = NULL, *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(w, '=');
		if (!eq)
			continue;
		*eq = 0;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcasecmp(w, keys[k].key))
				*(const char **)((char *)kv + keys[k].off) = eq + 1;
	}
}

struct reader {
	const struct dev_fs *fs;
	const char *node;
	struct gres_conf *c;
	char global_ad[16], node_ad[16];
	int files, lines;     /* read so far, with the Includes: bounded in all (gres_conf.h) */
	size_t bytes;
};

static int read_file(struct reader *r, const char *path, int depth);

static int one_line(struct reader *r, char *line, const char *path, int depth)
{
	struct kv kv;
	char *s = line + strspn(line, " \t");
	if (!strncasecmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t')) {
		char inc[4096], *f = s + 7;
		f += strspn(f, " \t");
		f[strcspn(f, " \t\r\n")] = 0;
		const char *slash = strrchr(path, '/');
		if (f[0] == '/') /* an absolute path is the node's: the view's own */
			snprintf(inc, sizeof(inc), "%s", f);
		else if (slash) /* a relative one: from the including file's directory (slurm.conf(5) "Include") */
			snprintf(inc, sizeof(inc), "%.*s/%s", (int)(slash - path), path, f);
		else
			snprintf(inc, sizeof(inc), "%s", f);
		return read_file(r, inc, depth + 1);
	}
	words(s, &kv);
	if (kv.node && !hostlist_has(kv.node, r->node)) {
		r->c->lines_other_nodes += kv.name && !strcmp(kv.name, "gpu");
		return 0;
	}
	if (kv.autodetect)
		snprintf(kv.node ? r->node_ad : r->global_ad, sizeof(r->node_ad), "%s", kv.autodetect);
	if (!kv.name || strcmp(kv.name, "gpu") || !(kv.file || kv.mfile))
		return 0;
	char(*files)[64] = calloc(GRES_MAX_GPUS, sizeof(*files));
	int n = files ? hostlist_expand(kv.file ? kv.file : kv.mfile, files, GRES_MAX_GPUS) : -1;
	if (!files)
		return uc_err("out of memory");
	if (n < 0)
		uc_warn("gres.conf %s: Name=gpu %s=%.200s is not a list of device files Slurm takes (or names more than "
			"%d): its GPUs are left out, and the indexes after it may not be Slurm's", path,
			kv.file ? "File" : "MultipleFiles", kv.file ? kv.file : kv.mfile, GRES_MAX_GPUS);
	for (int i = 0; i < (kv.mfile && n > 0 ? 1 : n) && r->c->n < GRES_MAX_GPUS; i++) {
		struct gres_gpu *g = &r->c->gpu[r->c->n++];
		snprintf(g->file, sizeof(g->file), "%s", files[i]);
		snprintf(g->type, sizeof(g->type), "%s", kv.type ? kv.type : "");
		snprintf(g->cores, sizeof(g->cores), "%s", kv.cores ? kv.cores : "");
	}
	free(files);
	return 0;
}

static int read_file(struct reader *r, const char *path, int depth)
{
	if (depth > GRES_MAX_DEPTH)
		return uc_err("gres.conf: %s: Include nested deeper than %d (a file that includes itself?)", path,
			      GRES_MAX_DEPTH);
	if (++r->files > GRES_MAX_FILES)
		return uc_err("gres.conf: %s: more than %d files read with its Includes (a fan-out of Includes?): refused",
			      path, GRES_MAX_FILES);
	char *text = slurp(r->fs, path);
	if (!text)
		return -1;
	int rc = 0;
	if ((r->bytes += strlen(text)) > GRES_MAX_BYTES)
		rc = uc_err("gres.conf: %s: more than %zu MiB read with its Includes: refused", path, GRES_MAX_BYTES >> 20);
	for (char *line = text, *next; !rc && line && *line; line = next) {
		if (++r->lines > GRES_MAX_LINES) {
			rc = uc_err("gres.conf: %s: more than %d lines read with its Includes: refused", path, GRES_MAX_LINES);
			break;
		}
		char *end = line;
		while ((end = strchr(end, '\n')) && end > line && end[-1] == '\\') /* continued: joined */
			end[-1] = ' ', end[0] = ' ';
		next = end ? end + 1 : NULL;
		if (end)
			*end = 0;
		line[strcspn(line, "#")] = 0;
		rc = one_line(r, line, path, depth);
	}
	free(text);
	return rc;
}

int gres_conf_read(const struct dev_fs *fs, const char *path, const char *node, struct gres_conf *out)
{
	struct reader r = { .fs = fs, .node = node, .c = out };
	memset(out, 0, sizeof(*out));
	int rc = read_file(&r, path, 0);
	const char *ad = r.node_ad[0] ? r.node_ad : r.global_ad;
	snprintf(out->autodetect, sizeof(out->autodetect), "%s", strcasecmp(ad, "off") ? ad : "");
	return rc;
}
