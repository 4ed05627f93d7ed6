/*
 * Which PCI functions a job holds (issue 66 point 3, doc/jobs.md "A job's devices"): its GPU indexes (the
 * spool's gpus=, as the batch system numbers them) and the device nodes its cgroup v1 allows, made PCI
 * functions from the node's own files:
 *   index -> device node: the index-th device file of this node's Name=gpu lines of gres.conf, as slurmd numbers
 *     them (gres_conf.c), else /dev/nvidia<index> (one node per GPU, numbered as the driver's minors, what
 *     Slurm's AutoDetect=nvml writes);
 *   device node -> major:minor: /dev/nvidiaN is 195:N (Linux Documentation/admin-guide/devices.txt "195 char
 *     Nvidia graphics devices"), /dev/dri/cardN and renderDN 226:N (DRM_MAJOR, include/drm/drm_ioctl.h),
 *     /dev/accel/accelN 261:N (ACCEL_MAJOR, include/drm/drm_accel.h);
 *   195:minor -> the function: /proc/driver/nvidia/gpus/<bdf>/information, whose "Device Minor:" line names
 *     the minor of the GPU at <bdf>; 226:N and 261:N -> /sys/class/drm/<name>/dev or /sys/class/accel/..., whose
 *     "device" link ends in the function's BDF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jobs.h"
#include "gres_conf.h"
#include "devices/dev_fs.h"
#include "devices/dev_nvidia.h"
#include "util/error.h"
#include "util/guarded_read.h"

#define NV_MAJOR 195
#define DRM_MAJOR 226
#define ACCEL_MAJOR 261

/* The node's GPU minors and their functions (/proc/driver/nvidia/gpus/<bdf>/information). */
struct nv_gpu {
	unsigned minor;
	char bdf[16];
};
static int nv_gpus(const struct dev_fs *fs, struct nv_gpu *out, int max)
{
	struct dev_names s;
	int n = 0;
	dev_fs_names(fs, "/proc/driver/nvidia/gpus", &s);
	for (int i = 0; i < s.n && n < max; i++) {
		unsigned minor;
		if (strlen(s.v[i]) >= sizeof(out->bdf) || dev_nvidia_gpu(fs, s.v[i], &minor, NULL, 0))
			continue;
		out[n].minor = minor;
		snprintf(out[n++].bdf, sizeof(out->bdf), "%s", s.v[i]);
	}
	free(s.v);
	return n;
}

/* The function of a DRM or accel node maj:min (its class device's dev, its device link): 0, or -1. */
static int class_bdf(const struct dev_fs *fs, unsigned maj, unsigned min, char *bdf, size_t len)
{
	const char *cls = maj == ACCEL_MAJOR ? "/sys/class/accel" : "/sys/class/drm";
	struct dev_names s;
	int rc = -1;
	char want[32];
	snprintf(want, sizeof(want), "%u:%u", maj, min);
	dev_fs_names(fs, cls, &s);
	for (int i = 0; i < s.n && rc; i++) {
		char p[256], dev[32];
		snprintf(p, sizeof(p), "%s/%s/dev", cls, s.v[i]);
		if (dev_fs_line(fs, p, dev, sizeof(dev)) || strcmp(dev, want))
			continue;
		snprintf(p, sizeof(p), "%s/%s/device", cls, s.v[i]);
		rc = dev_fs_link_name(fs, p, bdf, len);
	}
	free(s.v);
	return rc;
}

/* gres.conf's GPU device nodes in Slurm's index order (gres_conf.c), the node's file (fs: a simulated node's own
 * where the sysroot holds none): how many, 0 without one, -1 when it is there and cannot be read (said: the
 * indexes are then nobody's, not /dev/nvidia<i>'s). */
static int gres_files(const struct dev_fs *fs, char (*out)[64], int max)
{
	static const char path[] = "/etc/slurm/gres.conf";
	char node[256];
	struct gres_conf *c = calloc(1, sizeof(*c));
	struct stat st;
	int n = 0;
	if (!c)
		return uc_err("out of memory");
	if (dev_fs_stat(fs, path, &st) && errno == ENOENT) {
		free(c);
		return 0;
	}
	if (gres_conf_read(fs, path, gres_node_name(fs, node, sizeof(node)), c)) {
		uc_warn("%s: the jobs' GPU indexes are left without devices", uncore_error());
		free(c);
		return -1;
	}
	if (c->autodetect[0]) /* Slurm numbers them from the vendor's library, which this program does not ask */
		uc_warn("gres.conf: AutoDetect=%s for node %s: Slurm numbers its GPUs as the %s library finds them, "
			"which this program cannot ask; the indexes are taken as %s", c->autodetect, node, c->autodetect,
			c->n ? "gres.conf's File= order (Slurm drains a node whose File= disagrees)"
			     : "/dev/nvidia<index> (NVML's order of minors)");
	for (; n < c->n && n < max; n++)
		snprintf(out[n], 64, "%s", c->gpu[n].file);
	free(c);
	return n;
}

/* A device node's major:minor by its name: 0, or -1 for a name of none of the kinds above. */
static int node_of(const char *path, unsigned *maj, unsigned *min)
{
	static const struct {
		const char *prefix;
		unsigned major;
	} kinds[] = { { "/dev/nvidia", NV_MAJOR }, { "/dev/dri/card", DRM_MAJOR }, { "/dev/dri/renderD", DRM_MAJOR },
		      { "/dev/accel/accel", ACCEL_MAJOR } };
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t n = strlen(kinds[k].prefix);
		char *end;
		if (strncmp(path, kinds[k].prefix, n) || path[n] < '0' || path[n] > '9')
			continue;
		unsigned long v = strtoul(path + n, &end, 10);
		if (*end || v > 1u << 20)
			return -1;
		*maj = kinds[k].major, *min = (unsigned)v;
		return 0;
	}
	return -1;
}

static void add_dev(struct uc_job *jb, const char *bdf)
{
	for (int i = 0; i < jb->ndev; i++)
		if (!strcmp(jb->dev[i], bdf))
			return;
	if (jb->ndev < UC_JOB_MAX_DEVS)
		snprintf(jb->dev[jb->ndev++], sizeof(jb->dev[0]), "%s", bdf);
}

/* Device node maj:min of job jb made a function; what names none is said once (the node's control devices,
 * /dev/nvidiactl 195:255 and the like, quietly: no GPU of its own) */
static void resolve_node(struct uc_job *jb, const struct dev_fs *fs, const struct nv_gpu *nv, int nnv, unsigned maj,
			 unsigned min, const char *what)
{
	char bdf[64];
	if (maj == NV_MAJOR) {
		for (int i = 0; i < nnv; i++)
			if (nv[i].minor == min) {
				add_dev(jb, nv[i].bdf);
				return;
			}
		if (what) /* an index the spool gave: it should be a GPU */
			uc_warn("job %s: %s is /dev/nvidia%u, and no GPU of /proc/driver/nvidia/gpus/*/information has "
				"Device Minor %u: left out of its devices", jb->id, what, min, min);
	} else if (maj == DRM_MAJOR || maj == ACCEL_MAJOR) {
		if (!class_bdf(fs, maj, min, bdf, sizeof(bdf)) && strlen(bdf) < sizeof(jb->dev[0]))
			add_dev(jb, bdf);
		else if (what)
			uc_warn("job %s: %s is %u:%u, which no %s device of this node is: left out of its devices", jb->id,
				what, maj, min, maj == DRM_MAJOR ? "DRM" : "accel");
	}
}

static int by_bdf(const void *a, const void *b) { return strcmp(a, b); }

void job_devs_resolve(struct uc_jobs *js, const struct dev_fs *view)
{
	const struct dev_fs fs = *view;
	struct nv_gpu nv[256];
	char(*files)[64] = NULL;
	int nnv = -1, nfiles = -1;
	for (int j = 0; j < js->n; j++) {
		struct uc_job *jb = &js->v[j];
		jb->ndev = 0;
		if (jb->ngpus <= 0 && !jb->nnodes)
			continue;
		if (nnv < 0) { /* read once a scan, for the first job with devices */
			nnv = nv_gpus(&fs, nv, (int)(sizeof(nv) / sizeof(nv[0])));
			if ((files = calloc(UC_JOB_MAX_GPU + 1, sizeof(*files))))
				nfiles = gres_files(&fs, files, UC_JOB_MAX_GPU + 1);
		}
		for (int g = 0; jb->ngpus > 0 && g <= UC_JOB_MAX_GPU; g++) {
			char node[80], what[48];
			unsigned maj, min;
			if (!cpu_in(jb->gpus, g))
				continue;
			snprintf(what, sizeof(what), "GPU index %d", g);
			if (nfiles < 0)
				continue;
			if (nfiles > 0 && g >= nfiles) {
				uc_warn("job %s: %s: gres.conf names %d GPU device files: left out of its devices", jb->id, what,
					nfiles);
				continue;
			}
			if (nfiles > 0)
				snprintf(node, sizeof(node), "%s", files[g]);
			else
				snprintf(node, sizeof(node), "/dev/nvidia%d", g);
			if (node_of(node, &maj, &min)) {
				uc_warn("job %s: %s is %s (gres.conf), not a GPU device node: left out of its devices", jb->id,
					what, node);
				continue;
			}
			resolve_node(jb, &fs, nv, nnv, maj, min, what);
		}
		for (int i = 0; i < jb->nnodes; i++)
			resolve_node(jb, &fs, nv, nnv, jb->node_major[i], jb->node_minor[i], NULL);
		qsort(jb->dev, (size_t)jb->ndev, sizeof(jb->dev[0]), by_bdf); /* in bus order, however given */
	}
	free(files);
}
