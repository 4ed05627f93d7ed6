/*
 * Discovery tables as the direct backend finds them: a fake sysroot holds what the simulated EMR shows
 * the kernel (PCI config spaces, /dev/mem with the tables at the BAR, MSR files), and each input flips
 * bits of socket 0's table (an empty input leaves it whole, so mutations start from a valid table).  The handle is opened, a raw event counted on every unit found, and closed:
 * whatever the table says, no write may leave the boxes it validly names.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include "fuzz_common.h"

static char root[300];
static uint64_t table_phys;
static size_t table_len;
static uint8_t *table0; /* socket 0's table as the simulator made it */

static void put(const char *rel, const void *data, size_t len, off_t off, off_t size)
{
	char path[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || (size && ftruncate(fd, size)) || (len && pwrite(fd, data, len, off) != (ssize_t)len))
		abort();
	close(fd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uncore_t *su;
	char rel[160], txt[256];
	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/uncore-fuzz-root-%d", test_tmpdir(), (int)getpid());
	mkdir(root, 0755);
	if (uncore_open("sim:emr,clock=manual", &su))
		abort();
	struct sim *s = sim_of(su->acc);
	snprintf(txt, sizeof(txt), "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\n"
		 "model name\t: INTEL(R) XEON(R) PLATINUM 8592+\nflags\t\t: fpu msr\n\n", s->model);
	put("/proc/cpuinfo", txt, strlen(txt), 0, 0);
	for (int cpu = 0; cpu < s->nsockets * s->cores; cpu++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		snprintf(txt, sizeof(txt), "%d\n", cpu / s->cores);
		put(rel, txt, strlen(txt), 0, 0);
		snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", cpu);
		put(rel, NULL, 0, 0, 0x4000);
	}
	for (int i = 0; i < s->ndevs; i++) {
		const struct sim_dev *d = &s->devs[i];
		uint8_t cfg[4096];
		if (!d->present || su->acc->ops->pci_read(su->acc, &d->info.loc, 0, cfg, sizeof(cfg)))
			continue;
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:%02x.%d/", d->info.loc.bus, d->info.loc.dev,
			 d->info.loc.fn);
		size_t n = strlen(rel);
		snprintf(rel + n, sizeof(rel) - n, "config");
		put(rel, cfg, sizeof(cfg), 0, 0);
		snprintf(rel + n, sizeof(rel) - n, "vendor");
		put(rel, "0x8086\n", 7, 0, 0);
		snprintf(rel + n, sizeof(rel) - n, "device");
		snprintf(txt, sizeof(txt), "0x%04x\n", d->info.device);
		put(rel, txt, strlen(txt), 0, 0);
	}
	uint64_t memsize = 0;
	for (int b = 0; b < s->nblobs; b++)
		if (s->blobs[b].phys + s->blobs[b].len > memsize)
			memsize = s->blobs[b].phys + s->blobs[b].len;
	put("/dev/mem", NULL, 0, 0, (off_t)memsize);
	for (int b = 0; b < s->nblobs; b++)
		put("/dev/mem", s->blobs[b].data, s->blobs[b].len, (off_t)s->blobs[b].phys, 0);
	table_phys = s->blobs[0].phys;
	table_len = s->blobs[0].len;
	if (!(table0 = malloc(table_len)))
		abort();
	memcpy(table0, s->blobs[0].data, table_len);
	uncore_close(su);
	setenv("UNCORE_SYSROOT", root, 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uncore_t *u;
	uint8_t *table = malloc(table_len);
	if (!table)
		abort();
	memcpy(table, table0, table_len);
	for (size_t i = 0; i < size && i < table_len; i++) /* the input flips bits of the real table */
		table[i] ^= data[i];
	put("/dev/mem", table, table_len, (off_t)table_phys, 0);
	free(table);
	if (uncore_open("direct", &u))
		return 0;
	for (int t = 0; t < uncore_num_units(u); t++) {
		struct uncore_unit_info ui;
		uncore_session_t *s;
		char spec[64];
		uncore_unit_info(u, t, &ui);
		snprintf(spec, sizeof(spec), "%s/event=0x1/", ui.name);
		if (uncore_session_new(u, &s))
			abort();
		if (uncore_session_add(s, spec) >= 0 && !uncore_session_start(s))
			uncore_session_read(s);
		uncore_session_free(s);
	}
	fuzz_check(u);
	uncore_close(u);
	return 0;
}
