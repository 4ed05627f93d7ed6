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
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "gres_conf.h"
#include "hostlist.h"
#include "devices/dev_fs.h"
#include "util/env.h"
#include "util/error.h"
#include "util/guarded_read.h"

#define GRES_FILE_MAX ((off_t)1 << 20)

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

/* Whether NodeName= list names this node: 1 or 0, or -1 (said) when the list is past a budget: the names it
 * stands for, or the steps of matching it (hostlist.h). */
static int for_this_node(const struct reader *r, const char *list, const char *path, int lineno)
{
	unsigned long names = hostlist_size(list, HOSTLIST_MAX_NAMES);
	if (names > HOSTLIST_MAX_NAMES)
		return uc_err("gres.conf: %s line %d: its NodeName= stands for more than %lu node names (its bracket "
			      "lists multiplied): refused, as no cluster has that many; write the nodes as fewer or narrower "
			      "ranges", path, lineno, HOSTLIST_MAX_NAMES);
	int m = hostlist_match(list, r->node, HOSTLIST_MAX_STEPS, NULL);
	if (m < 0)
		return uc_err("gres.conf: %s line %d: its NodeName= takes more than %lu steps to match against node "
			      "name '%.64s' (its ranges times the places a number of the name may start): refused; write "
			      "the nodes as fewer ranges", path, lineno, HOSTLIST_MAX_STEPS, r->node);
	return m;
}

static int one_line(struct reader *r, char *line, const char *path, int lineno, int depth)
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
	int mine = kv.node ? for_this_node(r, kv.node, path, lineno) : 1;
	if (mine < 0)
		return -1;
	if (!mine) {
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
	char *line = text, *next;
	for (int lineno = 1, joined = 0; !rc && line && *line; line = next, lineno += 1 + joined, joined = 0) {
		if (++r->lines > GRES_MAX_LINES) {
			rc = uc_err("gres.conf: %s: more than %d lines read with its Includes: refused", path, GRES_MAX_LINES);
			break;
		}
		char *end = line;
		while ((end = strchr(end, '\n')) && end > line && end[-1] == '\\') /* continued: joined */
			end[-1] = ' ', end[0] = ' ', joined++;
		next = end ? end + 1 : NULL;
		if (end)
			*end = 0;
		line[strcspn(line, "#")] = 0;
		rc = one_line(r, line, path, lineno, depth);
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
