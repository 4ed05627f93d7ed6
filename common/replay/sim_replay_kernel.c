/*
 * perf+replay:FILE[,options] (doc/snapshot.md): the perf backend on a node's snapshot.  What the backend reads
 * of the kernel's trees (its PMUs, their types, cpumasks, formats, event aliases, perf_event_paranoid) is the
 * node's, in the snapshot; the events it opens are counted by the simulated kernel of a machine
 * like the node (sim_kernel.c), a PMU's type number translated to the simulated PMU of the same name, or the
 * one whose alias it is (a kernel that names a discovery type uncore_type_N).  A PMU the node's kernel has
 * and the simulated one does not cannot be opened (ENOENT, as for a type no PMU has).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim_replay.h"
#include "sim_kernel/sim_kernel.h"
#include "util/error.h"
#include "util/memfs.h"

#define PMU_DIR "/sys/bus/event_source/devices"

struct replay_kernel {
	struct perf_kernel k;
	struct perf_kernel *sim;   /* counts */
	const struct memfs *files; /* the node's trees: the replay's files (access_files of acc) */
	struct access *acc;        /* the host and clock: the node's host over the simulated machine */
	struct { char name[128]; unsigned node, sim; } *map; /* the node's PMUs and their simulated types */
	int nmap;
};

static struct replay_kernel *rk(struct perf_kernel *k) { return (struct replay_kernel *)k; }

static int add_pmu(void *arg, const char *name)
{
	struct replay_kernel *r = arg;
	char path[400], line[64];
	void *m = realloc(r->map, (size_t)(r->nmap + 1) * sizeof(*r->map));
	if (!m)
		return 1;
	r->map = m;
	snprintf(r->map[r->nmap].name, sizeof(r->map[0].name), "%s", name);
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	if (r->k.ops->read_line(&r->k, path, line, sizeof(line)))
		return 0; /* no type: not a PMU perf can open */
	r->map[r->nmap].node = (unsigned)strtoul(line, NULL, 10);
	r->map[r->nmap].sim = 0;
	r->nmap++;
	return 0;
}

struct alias_find { struct replay_kernel *r; const char *want; unsigned type; };

/* A simulated PMU whose alias is the node's name for it (uncore_type_N[_M]). */
static int by_alias(void *arg, const char *name)
{
	struct alias_find *f = arg;
	char path[400], line[128];
	snprintf(path, sizeof(path), PMU_DIR "/%s/alias", name);
	if (f->r->sim->ops->read_line(f->r->sim, path, line, sizeof(line)) || strcmp(line, f->want))
		return 0;
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	if (!f->r->sim->ops->read_line(f->r->sim, path, line, sizeof(line)))
		f->type = (unsigned)strtoul(line, NULL, 10);
	return 1;
}

/* The simulated type of the node's PMU of type t (0: none). */
static unsigned sim_type(struct replay_kernel *r, unsigned t)
{
	for (int i = 0; i < r->nmap; i++) {
		if (r->map[i].node != t)
			continue;
		if (!r->map[i].sim) {
			char path[400], line[64];
			snprintf(path, sizeof(path), PMU_DIR "/%s/type", r->map[i].name);
			if (!r->sim->ops->read_line(r->sim, path, line, sizeof(line))) {
				r->map[i].sim = (unsigned)strtoul(line, NULL, 10);
			} else {
				struct alias_find f = { r, r->map[i].name, 0 };
				r->sim->ops->list_dir(r->sim, PMU_DIR, by_alias, &f);
				r->map[i].sim = f.type;
			}
		}
		return r->map[i].sim;
	}
	return 0;
}

static int rk_open(struct perf_kernel *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		   unsigned long flags)
{
	struct replay_kernel *r = rk(k);
	struct perf_event_attr a = *attr;
	if (a.type >= PERF_TYPE_MAX) { /* a dynamic PMU type: the node's number */
		unsigned t = sim_type(r, a.type);
		if (!t)
			return -ENOENT;
		a.type = t;
	}
	r->sim->syscalls = r->k.syscalls;
	int fd = r->sim->ops->open(r->sim, &a, pid, cpu, group_fd, flags);
	r->k.syscalls = r->sim->syscalls;
	return fd;
}
static ssize_t rk_read(struct perf_kernel *k, int fd, void *buf, size_t len) { return rk(k)->sim->ops->read(rk(k)->sim, fd, buf, len); }
static int rk_ioctl(struct perf_kernel *k, int fd, unsigned long req, unsigned long arg)
{
	return rk(k)->sim->ops->ioctl(rk(k)->sim, fd, req, arg);
}
static int rk_close(struct perf_kernel *k, int fd) { return rk(k)->sim->ops->close(rk(k)->sim, fd); }
static void rk_caps(struct perf_kernel *k, int *perfmon, int *sys_admin) { rk(k)->sim->ops->caps(rk(k)->sim, perfmon, sys_admin); }
/* The node's trees as the kernel's: a file's first line (links among its directories followed), a directory's
 * names (the replay read them once, bounded: replay_files.c) */
static int rk_read_line(struct perf_kernel *k, const char *path, char *buf, size_t len)
{
	const struct memfs_file *f = memfs_find_through(rk(k)->files, path);
	if (!f || memfs_read(f, buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}
static int rk_list_dir(struct perf_kernel *k, const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	return memfs_list(rk(k)->files, dir, fn, arg);
}

static void rk_free(struct perf_kernel *k)
{
	struct replay_kernel *r = rk(k);
	if (r->acc)
		r->acc->ops->close(r->acc); /* frees the snapshot and its files; the simulated kernel closes the machine */
	if (r->sim)
		r->sim->ops->free(r->sim);
	free(r->map);
	free(r);
}

static const struct perf_kernel_ops replay_kernel_ops = { rk_open, rk_read, rk_ioctl, rk_close, rk_caps,
							  rk_read_line, rk_list_dir, rk_free };

struct perf_kernel *replay_kernel_open(const char *spec, struct access **acc)
{
	struct replay_node nd;
	struct access *sim_acc = NULL;
	struct replay_kernel *r = calloc(1, sizeof(*r));
	if (!r) {
		uc_err("out of memory");
		return NULL;
	}
	r->k.ops = &replay_kernel_ops;
	r->k.name = "the node's kernel (replayed)";
	r->k.simulated = 1;
	if (replay_unpack(spec, &nd))
		goto fail;
	snprintf(r->k.root, sizeof(r->k.root), "%s", nd.file);
	if (!(r->sim = sim_kernel_open(nd.simspec, &sim_acc))) {
		uc_err_prefix("perf+replay %s: the simulated %s kernel: ", nd.file, nd.kind);
		goto fail;
	}
	if (!(r->acc = replay_access(&nd, sim_acc, 0)) || access_files(r->acc, &r->files))
		goto fail;
	if (!r->files || memfs_list(r->files, PMU_DIR, add_pmu, r)) {
		uc_err("perf+replay %s: the snapshot has no perf PMUs (%s): the node's kernel was not read", nd.file, PMU_DIR);
		goto fail;
	}
	*acc = r->acc;
	return &r->k;
fail:
	replay_node_free(&nd);
	rk_free(&r->k);
	return NULL;
}
