/*
 * The job's counting process as the spool names it (uncore job, cli_job.c).  ID.pid (0600) holds its pid,
 * its start time and the boot's id ("4242 1234567 <boot_id>"): a pid is reused once its process is gone,
 * so end signals and waits for that process only when all three still name it, and whatever process holds
 * a lock on the file changes nothing.  The spool's own lock file, .lock (0600: no other user can open it,
 * so none can hold it), orders a begin's look at ID.pid and its write, and the removal of one left behind.
 */
#ifndef UNCORE_CLI_JOB_PID_H
#define UNCORE_CLI_JOB_PID_H

#include <stddef.h>

struct job_proc {
	long pid;
	unsigned long long start; /* clock ticks after boot (/proc/PID/stat field 22) */
	char boot[40];            /* /proc/sys/kernel/random/boot_id */
};

/* This process; -1 where /proc does not say (then it could not be told from a later one). */
int job_proc_self(struct job_proc *p);
/* "pid start boot\n" into buf. */
void job_proc_format(const struct job_proc *p, char *buf, size_t len);
/* The first line of a pid file read: 0, or -1 when it does not hold all three (an older uncore's file,
 * which gave the pid alone). */
int job_proc_parse(const char *text, struct job_proc *p);
/* 1 while the process it names runs (started then, in this boot, not exited), else 0. */
int job_proc_alive(const struct job_proc *p);
/* SIGTERM to the process p names, and a wait of at most timeout_ms for it to exit: 0 it exited, 1 it was
 * gone before the signal (nothing signalled), -1 it could not be signalled (errno), -2 it still runs. */
int job_proc_stop(const struct job_proc *p, int timeout_ms);
/* The spool's lock held (the descriptor; close lets go), or -1 with why. */
int job_spool_lock(const char *dir, char *why, size_t len);

#endif
