/*
 * The direct backend on an Emerald Rapids found only through its discovery
 * tables.  A fake sysroot holds what the simulated EMR shows the kernel: the
 * config space of every PCI function (UBox node ids, the discovery device's
 * DVSEC and its 32-bit BAR (as a real SPR lists it), the IMC base registers, the PMON blocks of
 * M2M/UPI/M3UPI) and /dev/mem with the discovery tables at the BAR.  So the
 * sysfs, /dev/mem and msr paths walk the same tables the simulator tests use,
 * and must find the same boxes and write the same control words.  Files do not
 * count: the test moves counters itself.
 */
#include <string.h>
#include "fake_tree.h"
#include "sim_helpers.h"

#define DEVMEM "/dev/mem"
#define FIXTURES SRCDIR "/tests/fixtures/"

/* Write the tree the simulated machine of su shows; the CPUs of logical die offline (-1: none) offline, as
 * Linux shows them: a cpuN directory without topology, the die's NUMA node with no CPU. */
static void build_tree_offline(uncore_t *su, int offline)
{
	struct sim *s = sim_of(su->acc);
	char rel[160], cmd[600];
	uint64_t memsize = 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\n"
		 "model name\t: INTEL(R) XEON(R) PLATINUM 8592+\nflags\t\t: fpu msr\n\n", s->model);
	put_str(cmd, "/proc/cpuinfo");
	for (int cpu = 0; cpu < sim_scopes(s) * s->cores; cpu++) { /* die by die (dies=N) */
		if (cpu / s->cores == offline) {
			snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/online", cpu);
			put_str("0\n", rel);
			continue;
		}
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		snprintf(cmd, sizeof(cmd), "%d\n", cpu / s->cores / s->dies);
		put_str(cmd, rel);
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
		snprintf(cmd, sizeof(cmd), "%ld\n", sim_cpu_die_id(s, cpu));
		put_str(cmd, rel);
		snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", cpu);
		sparse(rel, 0x4000); /* reads 0: MSR 0x2FFE too, as on EMR XCC */
	}
	for (int i = 0; i < s->ndevs; i++) {
		const struct sim_dev *d = &s->devs[i];
		uint8_t cfg[4096];
		if (!d->present)
			continue;
		CU_ASSERT_FATAL(su->acc->ops->pci_read(su->acc, &d->info.loc, 0, cfg, sizeof(cfg)) == 0);
		make_pci_dev(d->info.loc.bus, d->info.loc.dev, d->info.loc.fn, d->info.device, sizeof(cfg));
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:%02x.%d/config", d->info.loc.bus,
			 d->info.loc.dev, d->info.loc.fn);
		put_bytes(rel, 0, cfg, sizeof(cfg));
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:%02x.%d/numa_node", d->info.loc.bus,
			 d->info.loc.dev, d->info.loc.fn);
		snprintf(cmd, sizeof(cmd), "%d\n", d->info.node);
		put_str(cmd, rel);
	}
	for (int n = 0; n < (s->numa_off ? 1 : sim_scopes(s)); n++) { /* a NUMA node per die, as the simulator's
									 * devices say; numa=off: node 0, every CPU */
		snprintf(rel, sizeof(rel), "/sys/devices/system/node/node%d/cpulist", n);
		if (n == offline)
			snprintf(cmd, sizeof(cmd), "\n");
		else
			snprintf(cmd, sizeof(cmd), "%d-%d\n", n * s->cores,
				 (s->numa_off ? sim_scopes(s) : n + 1) * s->cores - 1);
		put_str(cmd, rel);
	}
	for (int b = 0; b < s->nblobs; b++)
		if (s->blobs[b].phys + s->blobs[b].len > memsize)
			memsize = s->blobs[b].phys + s->blobs[b].len;
	if (memsize < 1ull << 32)
		memsize = 1ull << 32; /* (sparse) the IMC windows too, below 4 GiB: 0xc8000000 on (spr_family_sim.c) */
	sparse(DEVMEM, (off_t)memsize);
	for (int b = 0; b < s->nblobs; b++)
		put_bytes(DEVMEM, (off_t)s->blobs[b].phys, s->blobs[b].data, s->blobs[b].len);
}

static void build_tree_from(uncore_t *su) { build_tree_offline(su, -1); }

/* Control register k of box b as the direct backend left it in the files, and as the simulator has it. */
static uint64_t file_ctl(const struct box *b, int k)
{
	char rel[96];
	int bytes = reg_ctl_bytes(b->t);
	if (b->t->space == UC_MMIO)
		return get_at(DEVMEM, (off_t)box_ctl_addr(b, k), bytes);
	snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:%02x.%d/config", b->pci.bus, b->pci.dev, b->pci.fn);
	return get_at(rel, (off_t)box_ctl_addr(b, k), bytes);
}

static uint64_t sim_ctl(uncore_t *su, const struct box *b, int k)
{
	struct access *a = su->acc;
	uint64_t v = 0;
	size_t bytes = (size_t)reg_ctl_bytes(b->t);
	int rc = b->t->space == UC_MMIO ? a->ops->mmio_read(a, box_ctl_addr(b, k), &v, bytes)
					: a->ops->pci_read(a, &b->pci, (uint32_t)box_ctl_addr(b, k), &v, bytes);
	CU_ASSERT(rc == 0);
	return v;
}

static const char *const spec_events[] = {
	"UNC_M_CAS_COUNT.RD:socket=1:box=3",     /* MMIO, at the address the IMC config registers give */
	"UNC_M2M_IMC_READS.NORMAL:socket=0:box=1", /* PCI config space, from discovery */
	"UNC_UPI_TxL_FLITS.ALL_DATA:socket=1:box=2", /* PCI, from the fallback table (quirk 1) */
	"UNC_M_DCLK_FREERUN:socket=0:box=0",     /* free-running, MEM0 base + 0x22B0 */
};
#define NEV ((int)(sizeof(spec_events) / sizeof(spec_events[0])))

/* Both handles see the same boxes at the same places, unit by unit and socket by socket; returns the boxes. */
static int same_boxes(uncore_t *u, uncore_t *su)
{
	char a[96], b[96];
	int boxes = 0;
	CU_ASSERT_EQUAL_FATAL(uncore_num_units(u), uncore_num_units(su));
	for (int t = 0; t < uncore_num_units(u); t++)
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			int n = uncore_unit_boxes(u, t, sock);
			CU_ASSERT_EQUAL(n, uncore_unit_boxes(su, t, sock));
			for (int k = 0; k < n && n == uncore_unit_boxes(su, t, sock); k++, boxes++) {
				uncore_box_location(u, t, sock, uncore_box_number(u, t, sock, k), a, sizeof(a));
				uncore_box_location(su, t, sock, uncore_box_number(su, t, sock, k), b, sizeof(b));
				CU_ASSERT_STRING_EQUAL(a, b);
			}
		}
	return boxes;
}

static uncore_t *open_direct(void)
{
	uncore_t *u = NULL;
	int rc = uncore_open("direct", &u);
	if (rc)
		fprintf(stderr, "%s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(!uncore_is_simulated(u));
	return u;
}

static void test_direct_emr(void)
{
	uncore_t *su = open_sim("sim:emr,clock=manual"), *u;
	uncore_session_t *ss, *s;
	build_tree_from(su);
	uint64_t cfg_before = get_at("/sys/bus/pci/devices/0000:fe:0d.0/config", 0x438, 4);
	u = open_direct();
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "emr");
	CU_ASSERT_EQUAL(uncore_num_sockets(u), 2);
	int boxes = same_boxes(u, su);
	CU_ASSERT_EQUAL(boxes, 2 * (60 + 10 * 3 + 1 + 1 + 8 + 4 * 3 + 4) + 2); /* CXL on socket 0 only */
	CU_ASSERT(uncore_unit_boxes(u, 8, 1) == 4); /* every UPI link, the broken entry replaced */

	/* the same control words as the simulator receives */
	ss = start_session(su, spec_events, NEV);
	s = start_session(u, spec_events, NEV);
	const struct box *imc = box_named(u, "imc", 1, 3), *m2m = box_named(u, "m2m", 0, 1), *upi = box_named(u, "upi", 1, 2);
	const struct box *imc0 = box_named(u, "imc", 0, 0);
	CU_ASSERT_FATAL(imc && m2m && upi && imc0);
	const struct box *progd[] = { imc, m2m, upi };
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < progd[i]->r.nctr; k++)
			CU_ASSERT_EQUAL(file_ctl(progd[i], k), sim_ctl(su, progd[i], k));
	CU_ASSERT_EQUAL(file_ctl(imc, 0), 0x0000cf05u); /* CAS_COUNT.RD: event 0x05 umask 0xcf */

	/* counters move in the "hardware"; reads see exactly that */
	char m2mcfg[64];
	snprintf(m2mcfg, sizeof(m2mcfg), "/sys/bus/pci/devices/0000:%02x:%02x.%d/config", m2m->pci.bus, m2m->pci.dev,
		 m2m->pci.fn);
	/* (the box reset bits do not clear a file: counters move from whatever they held at start) */
	uint64_t imc_at = get_at(DEVMEM, (off_t)box_ctr_addr(imc, 0), 8);
	uint64_t m2m_at = get_at(m2mcfg, (off_t)box_ctr_addr(m2m, 0), 8);
	uint64_t dclk_at = get_at(DEVMEM, (off_t)(imc0->fr_base + 0x22b0), 8);
	put_at64(DEVMEM, (off_t)box_ctr_addr(imc, 0), imc_at + 123456789);
	put_at64(m2mcfg, (off_t)box_ctr_addr(m2m, 0), m2m_at + 4242);
	put_at64(DEVMEM, (off_t)(imc0->fr_base + 0x22b0), dclk_at + 1600000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	CU_ASSERT_EQUAL(val(s, 0, 1), 123456789);
	CU_ASSERT_EQUAL(val(s, 1, 0), 4242);
	CU_ASSERT_EQUAL(val(s, 2, 1), 0);
	CU_ASSERT_EQUAL(val(s, 3, 0), 1600000000);
	/* a 48-bit wrap of the MMIO counter */
	put_at64(DEVMEM, (off_t)box_ctr_addr(imc, 0), (1ull << 48) - 10);
	CU_ASSERT(uncore_session_read(s) == 0);
	put_at64(DEVMEM, (off_t)box_ctr_addr(imc, 0), 5);
	CU_ASSERT(uncore_session_read(s) == 0);
	CU_ASSERT_EQUAL(val(s, 0, 1), (1ull << 48) + 5 - imc_at);

	/* left as found */
	uncore_session_free(s);
	uncore_session_free(ss);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < progd[i]->r.nctr; k++)
			CU_ASSERT_EQUAL(file_ctl(progd[i], k), 0);
	CU_ASSERT_EQUAL(get_at("/sys/bus/pci/devices/0000:fe:0d.0/config", 0x438, 4), cfg_before);
	assert_left_as_found(sim_of(su->acc));
	uncore_close(u);
	uncore_close(su);
}

/* A model without tables: the generic platform over the same paths, with events from a perfmon file. */
static void test_direct_generic(void)
{
	uncore_t *su = open_sim("sim:generic,clock=manual"), *u;
	uncore_session_t *s, *ss;
	build_tree_from(su);
	u = open_direct();
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "generic");
	CU_ASSERT(strstr(uncore_platform_desc(u), "model 0xee") != NULL);
	CU_ASSERT_EQUAL(same_boxes(u, su), 2 * (4 + 1 + 2 + 1));
	CU_ASSERT_EQUAL(uncore_load_events(u, FIXTURES "generic_events.json"), 3);
	CU_ASSERT_EQUAL(uncore_load_events(su, FIXTURES "generic_events.json"), 3);
	static const char *const cas[] = { "UNC_M_CAS_COUNT.RD:socket=1:box=1" };
	s = start_session(u, cas, 1);
	ss = start_session(su, cas, 1);
	const struct box *imc = box_named(u, "type6", 1, 1);
	CU_ASSERT_FATAL(imc != NULL);
	CU_ASSERT_EQUAL(file_ctl(imc, 0), sim_ctl(su, imc, 0));
	CU_ASSERT_EQUAL(file_ctl(imc, 0) & 0xffff, 0xcf05u);
	uint64_t at = get_at(DEVMEM, (off_t)box_ctr_addr(imc, 0), 8);
	put_at64(DEVMEM, (off_t)box_ctr_addr(imc, 0), at + 777);
	CU_ASSERT(uncore_session_read(s) == 0);
	CU_ASSERT_EQUAL(val(s, 0, 1), 777);
	uncore_session_free(s);
	uncore_session_free(ss);
	CU_ASSERT_EQUAL(file_ctl(imc, 0), 0);
	assert_left_as_found(sim_of(su->acc));
	uncore_close(u);
	uncore_close(su);
}

/* Two dies a socket: the generic platform's tables (no UBox) go to their dies by the devices' NUMA nodes in
 * sysfs, EMR's by the UBox node ids; either way the boxes and their CPUs are the simulator's. */
static void test_direct_dies(void)
{
	static const char *const specs[] = { "sim:generic,dies=2,clock=manual", "sim:emr,dies=2,clock=manual" };
	for (int i = 0; i < 2; i++) {
		uncore_t *su = open_sim(specs[i]), *u;
		build_tree_from(su);
		u = open_direct();
		CU_ASSERT(u->host.socket_dies[0] == 2 && u->host.socket_dies[1] == 2);
		int boxes = same_boxes(u, su);
		CU_ASSERT_EQUAL(boxes, i ? 2 * 2 * (60 + 10 * 3 + 1 + 1 + 8 + 4 * 3 + 4) + 2 : 2 * 2 * (4 + 1 + 2 + 1));
		const struct box *b = box_named(u, i ? "cha" : "type0", 1, 1);
		int die1 = 0;
		for (int k = 0; k < u->nboxes; k++)
			if (u->boxes[k].t == b->t && u->boxes[k].socket == 1 && u->boxes[k].die == 1 && u->boxes[k].unit_id == 1) {
				CU_ASSERT_EQUAL(u->boxes[k].cpu, 3 * sim_of(su->acc)->cores); /* socket 1's die 1 */
				die1++;
			}
		CU_ASSERT_EQUAL(die1, 1);
		uncore_close(u);
		uncore_close(su);
	}
}

/* The iMC channels of u's socket sock (MMIO: their addresses say which table the socket got) that are die's
 * of the simulator of su, by its own boxes; each one that is not is named. */
static int imc_truth(uncore_t *u, uncore_t *su, int imc, int sock, int die)
{
	const struct sim *sim = sim_of(su->acc);
	char a[96], b[96];
	int n = 0;
	for (int k = 0; k < uncore_unit_boxes(u, imc, sock); k++) {
		int box = uncore_box_number(u, imc, sock, k), found = 0;
		CU_ASSERT(uncore_box_location(u, imc, sock, box, a, sizeof(a)) == 0);
		for (int j = 0; j < sim->nboxes && !found; j++) {
			const struct sim_box *sb = &sim->boxes[j];
			snprintf(b, sizeof(b), "mmio 0x%llx", (unsigned long long)(sb->base + sb->u->box_ctl));
			found = !strcmp(sb->u->name, "imc") && sb->socket == sock && sb->die == die && !strcmp(a, b);
		}
		if (!found)
			fprintf(stderr, "%s: socket %d imc %d at %s is not one of its die %d's channels\n", sim->name, sock,
				box, a, die);
		n += found;
	}
	return n;
}

/* Where the tables go, over fake trees, against what Linux 6.12 does (uncore_discovery.c get_device_die_id): by
 * the NUMA node of the table's device, the UBox map only where no device has a node.  A die whose CPUs are
 * all offline: its node has no CPU, so its table is left out (and the UBox map, swapped, says otherwise: the
 * node decides, the table of the map's offline die -- die 0's -- is kept).  The iMC channels are MMIO: their
 * addresses say which table a socket got. */
static void test_direct_place(void)
{
	static const char *const specs[] = { "sim:emr,dies=2,clock=manual",
					     "sim:emr,dies=2,clock=manual,fault=swapped:busmap" };
	for (int i = 0; i < 2; i++) {
		uncore_t *su = open_sim(specs[i]), *u;
		build_tree_offline(su, 1); /* socket 0's die 1 */
		u = open_direct();
		CU_ASSERT(u->host.socket_dies[0] == 1 && u->host.socket_dies[1] == 2);
		int imc = unit_named(u, "imc");
		CU_ASSERT_FATAL(imc >= 0);
		/* socket 0: die 0's channels alone */
		CU_ASSERT(imc_truth(u, su, imc, 0, 0) == 8 && uncore_unit_boxes(u, imc, 0) == 8);
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, imc, 1), uncore_unit_boxes(su, imc, 1));
		uncore_close(u);
		uncore_close(su);
	}
	/* numa=off: no node; the UBox map places every table where the simulator has it (where Linux would take
	 * the order found: bus 0x7e, socket 1's, first) */
	uncore_t *su = open_sim("sim:emr,clock=manual,numa=off"), *u;
	build_tree_from(su);
	u = open_direct();
	CU_ASSERT(same_boxes(u, su) == 2 * (60 + 10 * 3 + 1 + 1 + 8 + 4 * 3 + 4) + 2);
	int imc = unit_named(u, "imc");
	CU_ASSERT(imc_truth(u, su, imc, 0, 0) == 8 && imc_truth(u, su, imc, 1, 0) == 8);
	uncore_close(u);
	uncore_close(su);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "direct open and session over a fake EMR dumped from the simulator", test_direct_emr },
		{ "direct open of a discovery CPU without tables (generic)", test_direct_generic },
		{ "direct open of two dies a socket: tables by NUMA node (generic) and UBox (emr)", test_direct_dies },
		{ "tables placed by NUMA node as Linux, an offline die's left out, the UBox map where no node", test_direct_place },
		{ NULL, NULL },
	};
	return run_in_fake_tree("direct_emr", tests);
}
