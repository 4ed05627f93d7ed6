/* A snapshot replayed (sim_replay.c: its registers; sim_replay_kernel.c: its perf tree). */
#ifndef UNCORE_SIM_REPLAY_H
#define UNCORE_SIM_REPLAY_H

#include "access/access.h"

/* The unpacked archive of "FILE[,options]": its private directory, the node's host, and the simulator spec of
 * a machine like it (the platform of its CPU, its sockets, dies and cores, then the options). */
struct replay_node {
	char file[512], dir[600], simspec[900];
	int own_dir; /* the directory is the archive unpacked here (removed at the end), not one given */
	int lock;    /* the descriptor holding its lock (replay_dir.h), or -1 */
	const char *kind;
	struct host_info host;
};
int replay_unpack(const char *spec, struct replay_node *nd);
void replay_node_free(struct replay_node *nd); /* removes the directory */
/* The replay's access over the simulator's sim_acc, taking nd's directory (owns: closes sim_acc too). */
struct access *replay_access(struct replay_node *nd, struct access *sim_acc, int owns);
/* The node's files of its unpacked snapshot dir, read once when a replay opens (replay_files.c): what it keeps
 * of the node's file system and its device map's tree, and what it does not keep said (memfs_put_unknown):
 * 0, or -1 with the reason. */
int replay_node_files(const char *dir, struct memfs *m);
/* perf+replay:FILE[,options]: the simulated kernel of a machine like the node's, its perf tree the node's
 * (PMU names, types, cpumasks, formats, aliases), a PMU's type translated to the simulated one of its name.
 * *acc: the access the perf backend reads the host and clock through (the kernel owns it). */
struct perf_kernel *replay_kernel_open(const char *spec, struct access **acc);

#endif
