/* uncore job: what begin, its counting process and end know of a job (cli_job.c), and how the job is found on
 * the node, or waited for until Slurm makes its cgroup (cli_job_find.c). */
#ifndef CLI_JOB_H
#define CLI_JOB_H
#include <stdint.h>
#include "uncore.h"

#define NEXTRAS 8 /* the metrics a summary holds beside the bytes (cli_job.c extras) */

struct job_run {
	const char *id;
	char spool[1024];
	int sock[64], nsock;       /* the sockets the job holds whole */
	double interval;
	int whole_node;            /* --whole-node: the scheduler gave it this node (every socket) */
	double peak_rd[64], peak_wr[64];
	uint64_t read_at[2][64];   /* when each socket's read and write counts were last read (0: not yet) */
	int extra_m[NEXTRAS];      /* session metric index, -1: not on this platform */
	/* the device groups it holds whole (doc/jobs.md "Devices"): their port's bytes written and read */
	int dg[32], ndg;
	int dg_m[32][2];           /* session metric index, -1: the platform counts not its port */
	double dg_scale[32][2];    /* the metric's count since start of one byte */
	double wait;               /* --wait S: how long begin waits for a job not there yet (its cgroup) */
	int waited;                /* 1: the job was not there at begin, and was waited for */
	double begun_at, counted_from; /* when begin ran, when the count started (Unix time; 0: never) */
};

/* The time now, Unix seconds. */
double job_unix_now(void);
/* The job on this node and the sockets it holds whole (into r); -1 with a message when there is none, -2
 * (nothing said) when the job is not there and waiting. */
int job_find(uncore_t *u, struct job_run *r, int waiting);
/* The job begin did not find, waited for (the counting process): 0 once it is there and holds a socket
 * whole, with *u opened anew; -1 said why not. */
int job_wait(uncore_t **u, struct job_run *r);

#endif
