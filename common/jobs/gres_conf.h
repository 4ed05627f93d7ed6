/*
 * Slurm's gres.conf, read as slurmd reads it (gres.conf(5), Slurm 22.05; gres_common.c
 * common_node_config_load): the GPUs of this node in Slurm's index order, which SLURM_JOB_GPUS and the
 * IDX of `scontrol show job -d` number.
 */
#ifndef UNCORE_GRES_CONF_H
#define UNCORE_GRES_CONF_H

#include <stddef.h>

/* gres.conf(5): "When specifying File, Count is limited in size (currently 1024) for each node" */
#define GRES_MAX_GPUS 1024
#define GRES_MAX_DEPTH 8 /* Include nesting: a file including itself is refused past this */
/* What one read takes in all, the Includes' files with their includer (issue 89 point 4): a fan-out of Includes
 * within the depth (8 deep, 10 a file: 10^8 files) would otherwise hold every scan for hours.  A node's
 * gres.conf is a few lines and files; a site that writes a line per node of 10,000 stays well inside. */
#define GRES_MAX_FILES 64
#define GRES_MAX_LINES 65536
#define GRES_MAX_BYTES ((size_t)8 << 20)

struct gres_gpu {
	char file[64];  /* its device node (the first of a MultipleFiles= line) */
	char type[32];  /* Type=, "" none */
	char cores[64]; /* Cores=, as written ("" none): Slurm's logical core indexes, not CPU numbers */
};

struct gres_conf {
	int n;                    /* GPUs, index 0..n-1 */
	struct gres_gpu gpu[GRES_MAX_GPUS];
	char autodetect[16];      /* AutoDetect= in force for this node ("" none, "off" as none) */
	int lines_other_nodes;    /* Name=gpu lines whose NodeName= is not this node, skipped */
};

/* The file at path of the node's files fs (dev_fs.h: the machine's below the sysroot, a simulated node's), and
 * what it includes, for node `node`: 0, or -1 with the file named in uncore_error() (not a regular file, larger
 * than 1 MiB, cannot be opened without blocking, an Include too deep, more than GRES_MAX_FILES files,
 * GRES_MAX_LINES lines or GRES_MAX_BYTES bytes in all, a NodeName= past hostlist.h's budgets: its file and line
 * named). What it cannot take (a File= of more
 * than GRES_MAX_GPUS, a malformed bracket) is a warning and the line is skipped. */
struct dev_fs;
int gres_conf_read(const struct dev_fs *fs, const char *path, const char *node, struct gres_conf *out);

/* This node's name as slurmd takes it (SLURMD_NODENAME, else the short host name: fs's
 * /proc/sys/kernel/hostname, else gethostname), into buf. */
const char *gres_node_name(const struct dev_fs *fs, char *buf, size_t len);

#endif
