/* uncore jobs: the batch jobs this node runs, the CPUs each holds, and the sockets it holds whole (no uncore
 * needed: the machine's topology alone). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_jobs(int argc, char **argv)
{
	uncore_t *u;
	int json;
	if (cli_json_args("jobs", argc, argv, &json))
		return 2;
	/* the machine's sockets and CPUs alone: listing jobs counts nothing, so it works where no uncore can be
	 * opened (a login node, a VM, a container) */
	if (cli_open_topology(&u))
		return 1;
	int n = uncore_jobs_scan(u);
	cli_warnings(); /* an entry left out, and why */
	if (n < 0) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		uncore_close(u);
		return 1;
	}
	if (!json)
		printf("# %d job%s on this node (Slurm's cgroup tree, the spool /run/intel-uncore/jobs)\n", n, n == 1 ? "" : "s");
	for (int j = 0; j < n; j++) {
		struct uncore_job_info ji;
		uncore_job_info(u, j, &ji);
		if (json) {
			fputs("{\"job\":", stdout);
			out_json_str(stdout, ji.id);
			printf(",\"source\":\"%s\",\"ncpus\":%d,\"cpus\":\"%s\",\"sockets\":[", ji.source, ji.ncpus, ji.cpus);
		} else {
			printf("job %-12s %-13s %4d CPUs %-24s", ji.id, ji.source, ji.ncpus, ji.cpus);
		}
		for (int s = 0; s < uncore_num_sockets(u); s++) {
			int total = 0, mine = uncore_job_socket_cpus(u, j, s, &total);
			if (json)
				printf("%s{\"socket\":%d,\"cpus\":%d,\"of\":%d,\"whole\":%s}", s ? "," : "", s, mine, total,
				       mine == total && total ? "true" : "false");
			else
				printf(" socket%d %d/%d%s", s, mine, total, mine == total && total ? " (whole)" : "");
		}
		if (json) { /* the PCI functions it holds (BDFs: no character to escape) */
			printf("],\"devices\":[");
			for (const char *d = ji.devices; *d;) {
				size_t k = strcspn(d, ",");
				printf("%s\"%.*s\"", d == ji.devices ? "" : ",", (int)k, d);
				d += k + (d[k] == ',');
			}
			puts("]}");
		} else
			printf("%s%s\n", ji.ndevices ? " devices " : "", ji.devices);
	}
	uncore_close(u);
	return 0;
}
