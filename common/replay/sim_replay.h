/* A snapshot replayed (sim_replay.c: its registers; sim_replay_kernel.c: its perf tree). */
#ifndef UNCORE_SIM_REPLAY_H
#define UNCORE_SIM_REPLAY_H

#include "access/access.h"
#include "util/memfs.h"

/* The snapshot of "FILE[,options]" in memory, the node's host, and the simulator spec of a machine like it (the
 * platform of its CPU, its sockets, dies and cores, then the options). */
struct replay_node {
	char file[512], simspec[900];
	struct memfs snap; /* the archive's members, "/NAME" (replay_files.c) */
	const char *kind;
	struct host_info host;
};
int replay_unpack(const char *spec, struct replay_node *nd);
void replay_node_free(struct replay_node *nd);
/* The replay's access over the simulator's sim_acc, taking nd's snapshot (owns: closes sim_acc too). */
struct access *replay_access(struct replay_node *nd, struct access *sim_acc, int owns);
/* The snapshot into snap (replay_files.c): a directory unpacked by hand (replay:DIR), bounded as an archive is;
 * or, one member at a time, an archive's members through tarball_read (arg: a struct replay_take), then
 * replay_snap_sort, which orders them as the directory's would be.  0, or -1 with the reason. */
int replay_snap_dir(const char *dir, struct memfs *snap);
struct replay_take {
	struct memfs *snap;
	const char *archive;
};
int replay_snap_take(void *arg, const char *name, const void *data, size_t len, int dir);
int replay_snap_sort(struct memfs *snap);
/* The node's files of its snapshot, gathered once when a replay opens (replay_files.c): what it keeps of the
 * node's file system and its device map's tree, and what it does not keep said (memfs_put_unknown): 0, or -1
 * with the reason. */
int replay_node_files(const struct memfs *snap, struct memfs *m);
/* perf+replay:FILE[,options]: the simulated kernel of a machine like the node's, its perf tree the node's
 * (PMU names, types, cpumasks, formats, aliases), a PMU's type translated to the simulated one of its name.
 * *acc: the access the perf backend reads the host and clock through (the kernel owns it). */
struct perf_kernel *replay_kernel_open(const char *spec, struct access **acc);

#endif
