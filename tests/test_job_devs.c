/*
 * A job's devices (issue 66 point 3, doc/jobs.md "A job's devices"): the GPU indexes of its spool entry and the
 * device nodes of its cgroup v1 made the PCI functions the node's own files say they are -- on a fake sysroot
 * built as a node shows them (the NVIDIA driver's /proc/driver/nvidia/gpus/<bdf>/information, /sys/class/drm,
 * gres.conf), and on the simulator against its own device set (sim_pci_devices, not the library's walk).  A
 * hostile entry loses its own job's devices and nothing of another job's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake_tree.h"
#include "uncore.h"
#include "handle/handle.h"
#include "sim/sim.h"
#include "sim/sim_pcitree.h"
#include "util/memfs.h"

#define SP "/run/intel-uncore/jobs/"
#define V2 "/sys/fs/cgroup/system.slice/slurmstepd.scope/"

/* A one-socket node of 4 CPUs (Skylake-SP: the topology alone is read) with four GPUs, as the NVIDIA driver
 * shows them: the minors deliberately not in the order of their buses, the separator a tab as the driver's */
static void node(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n", "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++) {
		char p[96];
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put_str("0\n", p);
	}
	static const char *const gpus[][2] = { { "0000:17:00.0", "2" }, { "0000:3b:00.0", "0" }, { "0000:86:00.0", "3" },
					       { "0000:af:00.0", "1" } };
	for (int g = 0; g < 4; g++) {
		char text[300], p[128];
		snprintf(text, sizeof(text), "Model: \t\t NVIDIA A100-SXM4-80GB\nIRQ:   \t\t 150\nBus Type: \t PCIe\n"
			 "DMA Size: \t 47 bits\nBus Location: \t %s\nDevice Minor: \t %s\nGPU Excluded:\t No\n", gpus[g][0], gpus[g][1]);
		snprintf(p, sizeof(p), "/proc/driver/nvidia/gpus/%s/information", gpus[g][0]);
		put_str(text, p);
	}
	char sp[400];
	snprintf(sp, sizeof(sp), "%s/run/intel-uncore/jobs", root);
	mkdirs(sp);
	CU_ASSERT(chmod(sp, 0755) == 0);
}

static void entry(const char *id, const char *text)
{
	char p[128], path[512];
	snprintf(p, sizeof(p), SP "%s", id);
	put_str(text, p);
	snprintf(path, sizeof(path), "%s%s", root, p);
	CU_ASSERT(chmod(path, 0644) == 0);
}

static int job_of(uncore_t *u, const char *id, struct uncore_job_info *ji)
{
	for (int j = 0; j < uncore_num_jobs(u); j++)
		if (!uncore_job_info(u, j, ji) && !strcmp(ji->id, id))
			return 0;
	return -1;
}

/* The devices of job id, or "(none)" for a job not listed */
static const char *devs(uncore_t *u, const char *id)
{
	static struct uncore_job_info ji;
	return job_of(u, id, &ji) ? "(none)" : ji.devices;
}

static void test_spool_gpus(void)
{
	uncore_t *u;
	node();
	entry("11", "0-1\ngpus=0\n");          /* minor 0: 0000:3b:00.0 */
	entry("12", "2\ngpus=1,3\n");          /* minors 1 and 3 */
	entry("13", "3\n");                    /* no GPU */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_jobs_scan(u) == 3);
	CU_ASSERT_STRING_EQUAL(devs(u, "11"), "0000:3b:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "12"), "0000:86:00.0,0000:af:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "13"), "");
	/* a GPU index the node has not: said, the job's others kept */
	entry("12", "2\ngpus=1,7\n");
	CU_ASSERT(uncore_jobs_scan(u) == 3);
	CU_ASSERT_STRING_EQUAL(devs(u, "12"), "0000:af:00.0");
	CU_ASSERT(strstr(uncore_warnings(), "job 12: GPU index 7 is /dev/nvidia7, and no GPU of /proc/driver/nvidia/gpus/*/"
					    "information has Device Minor 7") != NULL);
	uncore_close(u);
}

/* Slurm's IDX: the order of gres.conf's File= (here the node's GPUs 2 and 3 first, then 0 and 1) */
static void test_gres_conf(void)
{
	uncore_t *u;
	node();
	put_str("# the node's GPUs\nAutoDetect=off\nName=gpu Type=a100 File=/dev/nvidia[2-3]\nName=gpu Type=a100 "
		"File=/dev/nvidia0\nName=gpu File=/dev/nvidia1 Cores=0-1\n", "/etc/slurm/gres.conf");
	entry("21", "0\ngpus=0\n");   /* /dev/nvidia2: 0000:17:00.0 */
	entry("22", "1\ngpus=2-3\n"); /* /dev/nvidia0 and 1 */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_jobs_scan(u) == 2);
	CU_ASSERT_STRING_EQUAL(devs(u, "21"), "0000:17:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "22"), "0000:3b:00.0,0000:af:00.0");
	entry("22", "1\ngpus=4\n");
	CU_ASSERT(uncore_jobs_scan(u) == 2 && !strcmp(devs(u, "22"), ""));
	CU_ASSERT(strstr(uncore_warnings(), "job 22: GPU index 4: gres.conf names 4 GPU device files") != NULL);
	/* a cluster-wide file as slurmd reads it (gres.conf(5)): another node's line skipped, keys in any case, the
	 * MPS line no GPU, File= a list in the order written: this node's index 0 is /dev/nvidia3 (0000:86:00.0),
	 * index 1 /dev/nvidia1 (0000:af:00.0) */
	put_str("NodeName=gpu[01-03,05] Name=gpu File=/dev/nvidia[0-3]\nnodename=gpu04 name=gpu file=/dev/nvidia[3,1]\n"
		"NodeName=gpu04 Name=mps Count=200 File=/dev/nvidia[0,2]\n", "/etc/slurm/gres.conf");
	setenv("SLURMD_NODENAME", "gpu04", 1);
	entry("21", "0\ngpus=0\n");
	entry("22", "1\ngpus=1\n");
	CU_ASSERT(uncore_jobs_scan(u) == 2);
	CU_ASSERT_STRING_EQUAL(devs(u, "21"), "0000:86:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "22"), "0000:af:00.0");
	unsetenv("SLURMD_NODENAME");
	uncore_close(u);
}

/* A Slurm job: its CPUs from its cgroup, its GPUs from the prolog's entry ("-": the cgroup's CPUs); cgroup v1
 * devices.list naming /dev/nvidia0 and a DRM card; "a *:* rwm" (default allow) names none */
static void test_cgroup(void)
{
	uncore_t *u;
	char p[512];
	node();
	put_str("0-1\n", V2 "job_31/cpuset.cpus.effective");
	entry("31", "-\ngpus=3\n");
	entry("32", "-\ngpus=2\n"); /* no cgroup of job 32 */
	put_str("2\n", "/sys/fs/cgroup/cpuset/slurm/uid_1000/job_33/cpuset.cpus");
	put_str("c 1:3 rwm\nc 195:255 rw\nc 195:0 rw\nc 226:1 rw\n", "/sys/fs/cgroup/devices/slurm/uid_1000/job_33/devices.list");
	put_str("226:1\n", "/sys/class/drm/card1/dev");
	snprintf(p, sizeof(p), "%s/sys/class/drm/card1/device", root);
	CU_ASSERT(symlink("../../../0000:5e:00.0", p) == 0);
	put_str("3\n", "/sys/fs/cgroup/cpuset/slurm/uid_1000/job_34/cpuset.cpus");
	put_str("a *:* rwm\n", "/sys/fs/cgroup/devices/slurm/uid_1000/job_34/devices.list");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_jobs_scan(u) == 3);
	struct uncore_job_info ji;
	CU_ASSERT(job_of(u, "31", &ji) == 0 && !strcmp(ji.source, "slurm-cgroup2") && !strcmp(ji.cpus, "0-1") &&
		  !strcmp(ji.devices, "0000:86:00.0") && ji.ndevices == 1);
	CU_ASSERT(job_of(u, "32", &ji) < 0);
	CU_ASSERT(strstr(uncore_warnings(), "job 32 (spool): ") && strstr(uncore_warnings(), "gives its CPUs as '-'"));
	CU_ASSERT_STRING_EQUAL(devs(u, "33"), "0000:3b:00.0,0000:5e:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "34"), "");
	uncore_close(u);
}

/* Hostile entries: each loses its own devices (or is left out), said; the other jobs keep theirs */
static void test_hostile(void)
{
	uncore_t *u;
	char p[512];
	node();
	entry("41", "0\ngpus=0\n");
	entry("42", "1\ngpus=0-x\n");
	entry("43", "2\ngpus=9999\n");
	entry("44", "3\nrm -rf /\ngpus=3\n");
	put("3\ngpus=1\0gpus=2\n", 16, SP "45");
	snprintf(p, sizeof(p), "%s" SP "45", root);
	chmod(p, 0644);
	char *big = malloc(50000);
	CU_ASSERT_FATAL(big != NULL);
	memset(big, '0', 50000);
	memcpy(big, "3\ngpus=", 7);
	big[49999] = '\n';
	put(big, 50000, SP "46");
	free(big);
	snprintf(p, sizeof(p), "%s" SP "46", root);
	chmod(p, 0644);
	entry("47", "3\ngpus=2\n");
	snprintf(p, sizeof(p), "%s" SP "47", root);
	chmod(p, 0664); /* anyone of its group may change it */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_jobs_scan(u) == 4);
	const char *w = uncore_warnings();
	CU_ASSERT_STRING_EQUAL(devs(u, "41"), "0000:3b:00.0");
	CU_ASSERT_STRING_EQUAL(devs(u, "42"), "");
	CU_ASSERT(strstr(w, "job 42 (spool): ") && strstr(w, "gpus=0-x is not a list of GPU indexes 0-1023"));
	CU_ASSERT_STRING_EQUAL(devs(u, "43"), "");
	CU_ASSERT(strstr(w, "job 43 (spool): ") && strstr(w, "gpus=9999 is not a list of GPU indexes 0-1023"));
	CU_ASSERT_STRING_EQUAL(devs(u, "44"), "0000:86:00.0");
	CU_ASSERT(strstr(w, "the line 'rm?-rf?/' is not gpus=LIST: ignored") != NULL);
	CU_ASSERT(strstr(w, "job 45 (spool): cannot read") && strstr(w, "NUL byte"));
	CU_ASSERT(strstr(w, "job 46 (spool): cannot read") && strstr(w, "more than 40959"));
	CU_ASSERT(strstr(w, "job 47 (spool): ") && strstr(w, "mode 0664"));
	CU_ASSERT_STRING_EQUAL(devs(u, "45"), "(none)");
	uncore_close(u);
}

/* The simulator's jobs hold GPUs of its device set: its spool and /proc/driver/nvidia as a node's, the GPU of
 * index i the i-th of the set (sim_pci_devices) */
static void test_sim(void)
{
	uncore_t *u;
	char prof[512], spec[700];
	struct sim_pcidev truth[16];
	snprintf(prof, sizeof(prof), "%s/profile", root);
	FILE *f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("job.1001.cpus = 0-3\njob.1001.gpus = 0\njob.1001.mem_read_bytes_per_s = 1e9\n"
	      "job.1002.cpus = 4-7\njob.1002.gpus = 1-2\njob.1002.mem_read_bytes_per_s = 1e9\njob.1003.cpus = 8\n", f);
	fclose(f);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/run' '%s/proc'", root, root);
	CU_ASSERT(system(cmd) == 0);
	/* PCIe stacks 2, 4 and 6 of the board sim:spr is laid out as (platforms/spr/board.c) */
	snprintf(spec, sizeof(spec), "sim:spr,profile=%s,devices=gpu@0.2.0+gpusw@0.4.0+nic@0.6.0", prof);
	CU_ASSERT_FATAL(uncore_open_topology(spec, &u) == 0);
	int n = sim_pci_devices(sim_of(u->acc), truth, 16);
	CU_ASSERT_FATAL(n == 4);
	CU_ASSERT_FATAL(uncore_jobs_scan(u) == 2); /* 1003 holds no GPU: the simulated node's spool has it not */
	struct uncore_job_info ji;
	char want[64];
	CU_ASSERT(job_of(u, "1001", &ji) == 0 && !strcmp(ji.source, "spool") && !strcmp(ji.cpus, "0-3") &&
		  !strcmp(ji.devices, truth[0].bdf));
	snprintf(want, sizeof(want), "%s,%s", truth[1].bdf, truth[2].bdf);
	/* each GPU's /proc/driver/nvidia/gpus/<bdf>/information as the driver prints it: its fields in the driver's
	 * order (NVIDIA open-gpu-kernel-modules, kernel-open/nvidia/nv-procfs.c), the model 10de:2330 is (an H100
	 * SXM5: "NVIDIA H100 80GB HBM3" on a real node), a UUID GPU-8-4-4-4-12 hex digits of its own, its BDF, and
	 * its minor the card number (cardN is /dev/nvidiaN: DRM and the driver count the GPUs alike) */
	static const char *const fields[] = { "Model: \t\t NVIDIA H100 80GB HBM3\n", "IRQ:   \t\t ", "GPU UUID: \t GPU-",
					      "Video BIOS: \t ", "Bus Type: \t PCIe\n", "DMA Size: \t ", "DMA Mask: \t 0x",
					      "Bus Location: \t ", "Device Minor: \t ", "GPU Firmware: \t ", "GPU Excluded:\t No\n" };
	struct memfs m = { 0 };
	char uuids[4][64] = { "" };
	CU_ASSERT_FATAL(sim_pci_sysfs(sim_of(u->acc), &m) == 0);
	for (int g = 0; g < 3; g++) {
		char p[96], line[64];
		snprintf(p, sizeof(p), "/proc/driver/nvidia/gpus/%s/information", truth[g].bdf);
		const struct memfs_file *fi = memfs_find(&m, p);
		CU_ASSERT_FATAL(fi != NULL && !fi->link && !strcmp(truth[g].driver, "nvidia"));
		const char *at = fi->text;
		for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
			const char *f = strstr(at, fields[k]);
			CU_ASSERT(f != NULL && (f == fi->text || f[-1] == '\n'));
			at = f ? f : at; /* in this order */
		}
		unsigned a, b, c, d;
		unsigned long long e;
		char rest;
		const char *id = strstr(fi->text, "GPU UUID: \t ");
		CU_ASSERT_FATAL(id != NULL);
		CU_ASSERT(sscanf(id + 12, "%63[^\n]", uuids[g]) == 1 && strlen(uuids[g]) == 40 &&
			  sscanf(uuids[g], "GPU-%8x-%4x-%4x-%4x-%12llx%c", &a, &b, &c, &d, &e, &rest) == 5);
		snprintf(line, sizeof(line), "Bus Location: \t %s\n", truth[g].bdf);
		CU_ASSERT(strstr(fi->text, line) != NULL);
		snprintf(line, sizeof(line), "Device Minor: \t %s\n", truth[g].name + 4);
		CU_ASSERT(!strncmp(truth[g].name, "card", 4) && strstr(fi->text, line) != NULL);
		for (int h = 0; h < g; h++)
			CU_ASSERT(strcmp(uuids[g], uuids[h]) != 0);
	}
	memfs_free(&m);
	uncore_close(u);
	/* an index of no GPU of the set is said */
	f = fopen(prof, "w");
	fputs("job.1001.cpus = 0-3\njob.1001.gpus = 5\n", f);
	fclose(f);
	CU_ASSERT_FATAL(uncore_open_topology(spec, &u) == 0);
	CU_ASSERT(uncore_jobs_scan(u) == 1 && !strcmp(devs(u, "1001"), ""));
	CU_ASSERT(strstr(uncore_warnings(), "job 1001: GPU index 5 is /dev/nvidia5") != NULL);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "GPU indexes of the spool made PCI functions", test_spool_gpus },
		{ "indexes in gres.conf's File= order", test_gres_conf },
		{ "a Slurm job's cgroup and its spool entry", test_cgroup },
		{ "hostile entries lose their own devices alone", test_hostile },
		{ "simulated jobs hold GPUs of the device set", test_sim },
		{ NULL, NULL },
	};
	return run_in_fake_tree("job devices", tests);
}
