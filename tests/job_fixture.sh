# Sourced by test_collectd.sh and test_prometheus.sh: three Slurm jobs sharing a simulated SPR (doc/jobs.md,
# "Shared nodes"), their cgroups below $1/jobroot (for UNCORE_SYSROOT) and the profile $1/jobprofile giving
# each job's reads (jobs 101, 102, 103: 30, 60 and 10 GB/s) and 5 GB/s of DMA on socket 0, which no job owns.
job_fixture() {
	V2=$1/jobroot/sys/fs/cgroup/system.slice/slurmstepd.scope
	mkdir -p "$V2/job_101" "$V2/job_102" "$V2/job_103"
	echo 0-13 >"$V2/job_101/cpuset.cpus.effective"
	echo 14-27,56-69 >"$V2/job_102/cpuset.cpus.effective"
	echo 70-83 >"$V2/job_103/cpuset.cpus.effective"
	printf 'job.a.cpus = 0-13\njob.a.mem_read_bytes_per_s = 30e9\njob.b.cpus = 14-27,56-69\njob.b.mem_read_bytes_per_s = 60e9
job.c.cpus = 70-83\njob.c.mem_read_bytes_per_s = 10e9\nsocket0.dma_read_bytes_per_s = 5e9\n' >"$1/jobprofile"
}
