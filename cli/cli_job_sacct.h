/* A job's summary in Slurm's job record (AdminComment) and back (doc/jobs.md "In Slurm's accounting"). */
#ifndef CLI_JOB_SACCT_H
#define CLI_JOB_SACCT_H

/* Print the record ("uncore1:" and compact JSON) of the summary at sum_path; 1 with the problem said. */
int job_sacct_record(const char *sum_path, const char *id);
/* Read the job's AdminComment through sacct, decode it and print the summary; 1 with the problem said. */
int job_sacct_report(const char *id);

#endif
