/*
 * Memory as real nodes report it (issue 98): the EDAC trees and SMBIOS tables of the shapes real servers show,
 * laid out here as the public listings give them, and the population each must give, written from the listings
 * before the reader ran (doc/memory.md "Shapes real nodes show"):
 *
 *  - an 8-socket Skylake-SP of 16 controllers whose node ids repeat: the skx_edac listing quoted in a Linux
 *    kernel commit for an HPE machine names MC13-15 "Skylake Socket#0 IMC#1", "Skylake Socket#1 IMC#0" and
 *    "Skylake Socket#1 IMC#1" again (doc/memory.md, "Shapes real nodes show"); mc2 sorts after mc14 as text;
 *  - sb_edac's numbering, home agent first and sockets descending: a two-socket Broadwell-EP of one home agent a
 *    die lists mc0 "Broadwell SrcID#1_Ha#0" and mc1 "Broadwell SrcID#0_Ha#0", channels 0-3 on Ha#0;
 *  - sb_edac's names before Linux 4.9: "Sandy Bridge Socket#0" (3.3), "Ivy Bridge Socket#1" (3.13) with the second
 *    home agent's channels 4-7 in one controller, and boot logs' "Haswell Socket#0 HA#1";
 *  - the legacy csrow layout alone: Linux 3.3's sb_edac made one csrow a DIMM, its channel in the label
 *    ("CPU_SrcID#0_Channel#2_DIMM#0", ch0_dimm_label), later kernels a row a slot with chC_dimm_label a channel;
 *  - DIMMs EDAC lists that the node does not have: a BIOS that mapped socket 1's DIMMs out (its NUMA node has CPUs
 *    and no memory) and a dimm directory of size 0;
 *  - SMBIOS type 17 as 2.6 (28 bytes: the rated Speed alone, 92 of 96 such SNB/IVB-EP tables carry it), 3.2 (84
 *    bytes, DDR4-3200 configured at 2666 as an SR650 V2's two DIMMs a channel run), "Unknown" speeds, and Intel
 *    Optane PMem and Flash devices beside DRAM.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "sim_helpers.h"
#include "access/access.h"
#include "util/memfs.h"
#include "fake_tree.h"
#include "edac_tree.h"
#include "memory/memory.h"
#include "platform/platform_facts.h"

/* The layouts as platforms/<p>/platform.c give them. */
static const struct mem_layout skx = { "Skylake Socket#", " IMC#", 3, 3, 2, .source = "test" };
static const struct mem_layout bdx = { "Broadwell SrcID#", "_Ha#", 4, 4, 2, .source = "test" };
static const struct mem_layout hsx = { "Haswell SrcID#", "_Ha#", 4, 4, 2, .source = "test" };
static const struct mem_layout ivb = { "Ivy Bridge SrcID#", "_Ha#", 4, 4, 2, .source = "test" };
static const struct mem_layout snb = { "Sandy Bridge SrcID#", "_Ha#", 4, 4, 1, .source = "test" };
static const struct mem_layout icx = { "Intel_10nm Socket#", " IMC#", 3, 2, 4, .source = "test" };

static struct mem_pop pop;
static const struct dev_fs host = { 0 }; /* below UNCORE_SYSROOT: the fake tree */

static void csrow_ch(int n, int row, int ch, const char *size_mb, const char *label)
{
	char p[128], v[128];
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/csrow%d/size_mb", n, row);
	snprintf(v, sizeof(v), "%s\n", size_mb);
	put_str(v, p);
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/csrow%d/mem_type", n, row);
	put_str("Registered-DDR3\n", p);
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/csrow%d/ch%d_dimm_label", n, row, ch);
	snprintf(v, sizeof(v), "%s\n", label);
	put_str(v, p);
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/csrow%d/ch%d_ce_count", n, row, ch);
	put_str("0\n", p);
}

static const struct mem_chan *ch(int s, int b) { return &pop.ch[s][b]; }

/* 8 sockets, 16 controllers; MC13-15 repeat the node ids of sockets 0 and 1 (an HPE listing) */
static void test_repeated_node_ids(void)
{
	char name[64], label[64];
	clear_tree();
	for (int m = 0; m < 16; m++) {
		int named = m == 13 ? 0 : m >= 14 ? 1 : m / 2;
		snprintf(name, sizeof(name), "Skylake Socket#%d IMC#%d", named, m % 2);
		mc(m, name);
		snprintf(label, sizeof(label), "mc%d", m); /* each controller's DIMMs known by their label */
		dimm(m, 0, 0, 0, "32768", "Registered-DDR4", label);
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &skx, 8, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 16);
	/* socket 1 is mc2's and mc3's (not the 8th socket's mc14/mc15), socket 6's second controller mc13's, socket 7 mc14-15's */
	CU_ASSERT_STRING_EQUAL(ch(1, 0)->labels, "mc2");
	CU_ASSERT_STRING_EQUAL(ch(1, 3)->labels, "mc3");
	CU_ASSERT_STRING_EQUAL(ch(0, 3)->labels, "mc1");
	CU_ASSERT_STRING_EQUAL(ch(6, 3)->labels, "mc13");
	CU_ASSERT_STRING_EQUAL(ch(7, 0)->labels, "mc14");
	CU_ASSERT_STRING_EQUAL(ch(7, 3)->labels, "mc15");
	for (int s = 0; s < 8; s++)
		for (int b = 0; b < 6; b++)
			CU_ASSERT_EQUAL(ch(s, b)->state, b % 3 ? UNCORE_CHAN_EMPTY : UNCORE_CHAN_POPULATED);
	/* each controller placed by order said, every one of them, and counted */
	CU_ASSERT_EQUAL(pop.nnotes, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc13 names socket 0 controller 1, as mc1: placed by its order as socket 6's"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc14 names socket 1 controller 0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc15 names socket 1 controller 1"));
	/* a controller missing (mc9 gone): the order no longer says which is which: a conflict, named, never the
	 * first one's -- socket 0's second controller and socket 1's unknown, not mc1's or mc13's */
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/system/edac/mc/mc9'", root);
	CU_ASSERT(system(cmd) == 0);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &skx, 8, &pop), 0);
	CU_ASSERT_EQUAL(ch(0, 3)->state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_EQUAL(ch(1, 0)->state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_STRING_EQUAL(ch(0, 0)->labels, "mc0");
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc1 names socket 0 controller 1, as mc13: which socket it is is not known"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc13 names socket 0 controller 1, as mc1: which socket"));
	CU_ASSERT(pop.nnotes >= 6);
}

/* sb_edac numbers home agent first, sockets descending: mc0 is socket 1's (a two-socket Broadwell, one home agent) */
static void test_sb_numbering(void)
{
	clear_tree();
	mc(0, "Broadwell SrcID#1_Ha#0");
	mc(1, "Broadwell SrcID#0_Ha#0");
	for (int c = 0; c < 4; c++) {
		char l[64];
		snprintf(l, sizeof(l), "CPU_SrcID#1_Ha#0_Chan#%d_DIMM#0", c);
		dimm(0, c * 3, c, 0, "16384", "Registered-DDR4", l);
		if (c < 2) { /* socket 0 with two channels filled */
			snprintf(l, sizeof(l), "CPU_SrcID#0_Ha#0_Chan#%d_DIMM#0", c);
			dimm(1, c * 3, c, 0, "16384", "Registered-DDR4", l);
		}
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &bdx, 2, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 2);
	for (int c = 0; c < 4; c++) {
		CU_ASSERT_EQUAL(ch(1, c)->state, UNCORE_CHAN_POPULATED);
		CU_ASSERT_EQUAL(ch(0, c)->state, c < 2 ? UNCORE_CHAN_POPULATED : UNCORE_CHAN_EMPTY);
		CU_ASSERT_EQUAL(ch(0, 4 + c)->state, UNCORE_CHAN_UNKNOWN); /* no second home agent on the die */
	}
	CU_ASSERT_STRING_EQUAL(ch(1, 2)->labels, "CPU_SrcID#1_Ha#0_Chan#2_DIMM#0");
	CU_ASSERT_EQUAL(pop.nnotes, 0);
}

/* sb_edac's names before Linux 4.9, and a reason said whole */
static void test_old_names(void)
{
	char l[64], odd[200];
	clear_tree();
	/* Ivy Bridge-EP, Linux 3.13 to 4.8: one controller a socket, both home agents' channels 0-7 */
	mc(0, "Ivy Bridge Socket#0");
	mc(1, "Ivy Bridge Socket#1");
	for (int c = 0; c < 8; c++) {
		snprintf(l, sizeof(l), "CPU_SrcID#0_Ha#%d_Chan#%d_DIMM#0", c / 4, c % 4);
		dimm(0, c * 3, c, 0, "8192", "Registered-DDR4", l);
		if (c != 5)
			dimm(1, c * 3, c, 0, "8192", "Registered-DDR4", l);
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &ivb, 2, &pop), 0);
	for (int b = 0; b < 8; b++) {
		CU_ASSERT_EQUAL(ch(0, b)->state, UNCORE_CHAN_POPULATED);
		CU_ASSERT_EQUAL(ch(1, b)->state, b == 5 ? UNCORE_CHAN_EMPTY : UNCORE_CHAN_POPULATED);
	}
	CU_ASSERT_EQUAL(ch(0, 6)->ctrl, 1);
	CU_ASSERT_EQUAL(ch(0, 6)->chan, 2);
	/* Sandy Bridge-EP, Linux 3.3 */
	clear_tree();
	mc(0, "Sandy Bridge Socket#0");
	dimm(0, 0, 0, 0, "8192", "Registered-DDR4", "CPU_SrcID#0_Channel#0_DIMM#0");
	dimm(0, 3, 1, 0, "8192", "Registered-DDR4", "CPU_SrcID#0_Channel#1_DIMM#0");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &snb, 1, &pop), 0);
	CU_ASSERT_EQUAL(ch(0, 0)->state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(ch(0, 2)->state, UNCORE_CHAN_EMPTY);
	/* a boot log's Haswell form with its home agent: that agent's four channels */
	clear_tree();
	mc(0, "Haswell Socket#0 HA#1");
	dimm(0, 0, 0, 0, "16384", "Registered-DDR4", "CPU_SrcID#0_Ha#1_Chan#0_DIMM#0");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_EQUAL(ch(0, 4)->state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(ch(0, 5)->state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(ch(0, 0)->state, UNCORE_CHAN_UNKNOWN);
	/* a name of no form: refused, its reason whole (once cut at 80 characters) */
	clear_tree();
	snprintf(odd, sizeof(odd), "Haswell-EP memory controller of socket zero, as some vendor kernel might name it%s",
		 " with more words after the eightieth character: SEEN");
	mc(0, odd);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.edac_why, "SEEN"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.source, "SEEN"));
}

/* the legacy csrow layout alone */
static void test_csrows(void)
{
	char l[64];
	clear_tree();
	/* Linux 3.3's sb_edac: a csrow a DIMM, its channel in its label, ch0 its only channel */
	mc(0, "Sandy Bridge Socket#0");
	for (int c = 0; c < 4; c++) {
		snprintf(l, sizeof(l), "CPU_SrcID#0_Channel#%d_DIMM#0", c);
		csrow_ch(0, c, 0, c == 3 ? "0" : "8192", l); /* the fourth row without pages */
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &snb, 1, &pop), 0);
	for (int c = 0; c < 4; c++)
		CU_ASSERT_EQUAL(ch(0, c)->state, c < 3 ? UNCORE_CHAN_POPULATED : UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(ch(0, 1)->mib, 8192);
	CU_ASSERT_STRING_EQUAL(ch(0, 2)->labels, "CPU_SrcID#0_Channel#2_DIMM#0");
	/* later kernels: a row a slot, a channel attribute each channel with memory */
	clear_tree();
	mc(0, "Haswell SrcID#0_Ha#0");
	for (int c = 0; c < 4; c += 2) {
		snprintf(l, sizeof(l), "CPU_SrcID#0_Ha#0_Chan#%d_DIMM#0", c);
		csrow_ch(0, 0, c, "32768", l);
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_EQUAL(ch(0, 0)->state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(ch(0, 1)->state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(ch(0, 2)->state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(ch(0, 2)->mib, 16384); /* the row's 32 GiB over its two channels */
}

/* the node's NUMA files: node n's CPUs, with memory blocks or none */
static void node(int n, const char *cpus, int memory)
{
	char p[128];
	snprintf(p, sizeof(p), "/sys/devices/system/node/node%d/cpulist", n);
	put_str(cpus, p);
	if (memory) {
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%d/memory%d/online", n, 16 * n);
		put_str("1\n", p);
	}
}

/* DIMMs EDAC lists that the node does not have */
static void test_mapped_out(void)
{
	static const int socket_cpu[2] = { 0, 20 };
	int boxes[12];
	double bps;
	char why[1024];
	clear_tree();
	for (int m = 0; m < 8; m++) {
		char name[64], l[64];
		snprintf(name, sizeof(name), "Intel_10nm Socket#%d IMC#%d", m / 4, m % 4);
		mc(m, name);
		for (int c = 0; c < 2; c++) {
			snprintf(l, sizeof(l), "CPU%d_DIMM_%c1", m / 4, 'A' + (m % 4) * 2 + c);
			dimm(m, c * 2, c, 0, m == 1 && c == 1 ? "0" : "32768", "Registered-DDR4", l); /* one listed without memory */
		}
	}
	node(0, "0-19\n", 1);
	node(1, "20-39\n", 0); /* socket 1's node: CPUs, no memory */
	CU_ASSERT_EQUAL(mem_pop_build_on(&host, &icx, 2, socket_cpu, &pop), 0);
	CU_ASSERT_EQUAL(ch(0, 3)->state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(ch(0, 4)->state, UNCORE_CHAN_EMPTY); /* mc1's channel 1: size 0 */
	for (int b = 0; b < 12; b++) {
		boxes[b] = b;
		CU_ASSERT_NOT_EQUAL(ch(1, b)->state, UNCORE_CHAN_POPULATED);
	}
	CU_ASSERT_EQUAL(pop.uncounted, 1 + 8);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "size 0, not counted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "socket 1: EDAC lists 8 DIMMs (CPU1_DIMM_A1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "NUMA node has CPUs and no memory"));
	/* no speed needed for a socket of no DIMM: its peak is 0 */
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 1, boxes, 12, &bps, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(bps, 0);
	/* the kernel's has_memory, where it is there, says the same */
	put_str("0\n", "/sys/devices/system/node/has_memory");
	node(1, "20-39\n", 1);
	CU_ASSERT_EQUAL(mem_pop_build_on(&host, &icx, 2, socket_cpu, &pop), 0);
	CU_ASSERT_EQUAL(ch(1, 0)->state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(pop.uncounted, 1 + 8);
	/* no NUMA word on the socket (no node of its CPU): EDAC's DIMMs counted */
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_EQUAL(ch(1, 0)->state, UNCORE_CHAN_POPULATED);
}

/* The HPE listing's 8-socket Skylake-SP again (test_repeated_node_ids), on a node whose socket 6 the BIOS mapped
 * out: its NUMA node has CPUs and no memory.  Written from the listing and the rule (doc/memory.md) before the
 * reader ran: mc12 "Skylake Socket#6 IMC#0" names its place alone, socket 6's, whose DIMM is then listed and not
 * counted; mc13, named "Socket#0 IMC#1" as mc1 is, would be placed by its order as socket 6's second controller --
 * the socket whose node has no memory, so not placed there: a conflict, named, its place left unknown, and mc1
 * (whose order is the place it names) keeping socket 0's; mc14 and mc15 by order socket 7's as before. */
static void test_repeated_ids_numa(void)
{
	int socket_cpu[8];
	char name[64], label[64], cpus[32];
	clear_tree();
	for (int m = 0; m < 16; m++) {
		int named = m == 13 ? 0 : m >= 14 ? 1 : m / 2;
		snprintf(name, sizeof(name), "Skylake Socket#%d IMC#%d", named, m % 2);
		mc(m, name);
		snprintf(label, sizeof(label), "mc%d", m);
		dimm(m, 0, 0, 0, "32768", "Registered-DDR4", label);
	}
	for (int s = 0; s < 8; s++) { /* 20 CPUs a socket, node s of socket s's CPUs */
		socket_cpu[s] = 20 * s;
		snprintf(cpus, sizeof(cpus), "%d-%d\n", 20 * s, 20 * s + 19);
		node(s, cpus, s != 6);
	}
	CU_ASSERT_EQUAL(mem_pop_build_on(&host, &skx, 8, socket_cpu, &pop), 0);
	CU_ASSERT_STRING_EQUAL(ch(0, 3)->labels, "mc1");
	CU_ASSERT_STRING_EQUAL(ch(1, 0)->labels, "mc2");
	CU_ASSERT_STRING_EQUAL(ch(7, 0)->labels, "mc14");
	CU_ASSERT_STRING_EQUAL(ch(7, 3)->labels, "mc15");
	CU_ASSERT_EQUAL(ch(6, 0)->state, UNCORE_CHAN_EMPTY); /* mc12's DIMM: listed, not the node's */
	for (int b = 3; b < 6; b++)
		CU_ASSERT_EQUAL(ch(6, b)->state, UNCORE_CHAN_UNKNOWN); /* mc13's place: not known, not mapped out by guess */
	CU_ASSERT_EQUAL(pop.uncounted, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "mc13 names socket 0 controller 1, as mc1: which socket it is is not "
					      "known, left unknown (its order's socket has no memory)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "socket 6: EDAC lists 1 DIMM (mc12) but its NUMA node has CPUs and no memory"));
	CU_ASSERT_PTR_NULL(strstr(pop.notes, "mc1 names")); /* mc1 stands where it says it is */
	if (ch(6, 3)->state != UNCORE_CHAN_UNKNOWN || pop.uncounted != 1)
		fprintf(stderr, "socket 6 box 3 %s, %d uncounted: %s\n", uncore_channel_state_name(ch(6, 3)->state),
			pop.uncounted, pop.notes);
}

/* A type-17 structure of len bytes: size MiB (from 0x7FFF on in the Extended Size, 0x1C, as SMBIOS 2.7 has it),
 * memory type, rated (0x15) and configured (0x20) speeds, technology (0x28), locators; its Type Detail (0x13) detail,
 * or Synchronous Registered (Buffered) where 0. */
static void memdev_detail(struct blob *t, int len, unsigned size, int type, unsigned detail, unsigned rated,
			  unsigned conf, int tech, const char *loc, const char *bank)
{
	uint8_t f[0x5c] = { 0 };
	const char *strs[] = { loc, *bank ? bank : NULL, NULL }; /* (no bank locator: string number 0, as DSP0134) */
	unsigned sz = size >= 0x7fff && len >= 0x20 ? 0x7fff : size;
	f[0x0c] = (uint8_t)sz, f[0x0d] = (uint8_t)(sz >> 8);
	if (sz == 0x7fff)
		f[0x1c] = (uint8_t)size, f[0x1d] = (uint8_t)(size >> 8), f[0x1e] = (uint8_t)(size >> 16);
	f[0x0e] = 0x09;
	f[0x10] = 1, f[0x11] = *bank ? 2 : 0;
	f[0x12] = (uint8_t)type;
	detail = detail ? detail : 0x2080;
	f[0x13] = (uint8_t)detail, f[0x14] = (uint8_t)(detail >> 8);
	f[0x15] = (uint8_t)rated, f[0x16] = (uint8_t)(rated >> 8);
	if (len > 0x21)
		f[0x20] = (uint8_t)conf, f[0x21] = (uint8_t)(conf >> 8);
	if (len > 0x28)
		f[0x28] = (uint8_t)tech;
	structure(t, 17, len, f + 4, strs);
}

static void memdev(struct blob *t, int len, unsigned size, int type, unsigned rated, unsigned conf, int tech,
		   const char *loc, const char *bank)
{
	memdev_detail(t, len, size, type, 0, rated, conf, tech, loc, bank);
}

/* The table t parsed into s: 0, or -1. */
static int parsed(const struct blob *t, struct mem_smbios *s)
{
	char why[160];
	return mem_smbios_parse(t->b, t->n, s, why, sizeof(why));
}

/* s as want says: devices, present, the lowest and highest speed, configured, rated, Unknown, non-volatile. */
static void expect(const struct mem_smbios *s, const int *want)
{
	const int got[] = { s->devices, s->present, s->mts_min, s->mts_max, s->configured, s->rated, s->unknown,
			    s->nonvolatile };
	for (size_t k = 0; k < sizeof(got) / sizeof(got[0]); k++) {
		CU_ASSERT_EQUAL(got[k], want[k]);
		if (got[k] != want[k])
			fprintf(stderr, "SMBIOS summary field %zu: %d, want %d\n", k, got[k], want[k]);
	}
}

/* A type-17 row: length, size (MiB), memory type, rated and configured speed, technology, locators, Type Detail
 * (0: Synchronous Registered (Buffered)). */
struct t17 {
	int len;
	unsigned size;
	int type;
	unsigned rated, conf;
	int tech;
	const char *loc, *bank;
	unsigned detail;
};

/* The table of rows r[0 .. n) and the end of table into t. */
static void table_of(const struct t17 *r, int n, struct blob *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++)
		memdev_detail(t, r[i].len, r[i].size, r[i].type, r[i].detail, r[i].rated, r[i].conf, r[i].tech, r[i].loc,
			      r[i].bank);
	structure(t, 127, 4, NULL, NULL);
}

/* ... parsed into s. */
static void parse_rows(const struct t17 *r, int n, struct mem_smbios *s)
{
	struct blob t;
	table_of(r, n, &t);
	CU_ASSERT_EQUAL(parsed(&t, s), 0);
}

static void test_smbios_shapes(void)
{
	/* SMBIOS 2.6, a Dell R720's 28-byte entries: the rated Speed alone */
	static const struct t17 r720[] = { { 0x1c, 8192, 0x18, 1600, 0, 0, "DIMM_A1", "", 0 },
					   { 0x1c, 8192, 0x18, 1333, 0, 0, "DIMM_A2", "", 0 },
					   { 0x1c, 0, 0x02, 0, 0, 0, "DIMM_A3", "", 0 } };
	/* SMBIOS 3.2 (84 bytes, a Supermicro board's "P1-DIMMA1", bank "P0_Node0_Channel0_Dimm0"): DDR4-3200 configured
	 * at 2933 and 2666, an Optane PMem beside them kept out, a Flash device, one DIMM "Unknown" */
	static const struct t17 x11[] = { { 0x54, 32768, 0x1a, 3200, 2933, 3, "P1-DIMMA1", "P0_Node0_Channel0_Dimm0", 0 },
					  { 0x54, 0x7fff, 0x1f, 2666, 2400, 7, "P1-DIMMA2", "P0_Node0_Channel0_Dimm1", 0 },
					  { 0x54, 32768, 0x1a, 3200, 2666, 3, "P1-DIMMB1", "P0_Node0_Channel1_Dimm0", 0 },
					  { 0x54, 16, 0x09, 0, 0, 0, "Flash", "", 0 },
					  { 0x54, 32768, 0x1a, 0, 0, 3, "P1-DIMMC1", "P0_Node0_Channel2_Dimm0", 0 } };
	struct mem_smbios s;
	struct blob t;
	char why[160];
	parse_rows(r720, 3, &s);
	expect(&s, (const int[]){ 3, 2, 1333, 1600, 0, 2, 0, 0 });
	parse_rows(x11, 5, &s);
	expect(&s, (const int[]){ 5, 5, 2666, 2933, 2, 0, 1, 2 });
	CU_ASSERT_STRING_EQUAL(s.nv_kind, "Intel Optane persistent memory");
	CU_ASSERT_STRING_EQUAL(s.first_locator, "P1-DIMMA1");
	/* the population says the rated speed where it is what the table holds */
	clear_tree();
	mc(0, "Sandy Bridge SrcID#0_Ha#0");
	dimm(0, 0, 0, 0, "8192", "Registered-DDR4", "CPU_SrcID#0_Ha#0_Chan#0_DIMM#0");
	memset(&t, 0, sizeof(t));
	memdev(&t, 0x1c, 8192, 0x18, 1600, 0, 0, "DIMM_A1", "");
	structure(&t, 127, 4, NULL, NULL);
	put((const char *)t.b, t.n, "%s", MEM_SMBIOS_PATH);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &snb, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.smbios_read, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.source, "the DIMMs' rated speed"));
	int boxes[4] = { 0, 1, 2, 3 };
	double bps;
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 0, boxes, 4, &bps, why, sizeof(why)), 0);
	ASSERT_NEAR(bps, 1600e6 * 8, 1);
}

/*
 * Real servers' type-17 tables as their public dmidecode listings show them (linuxhw/DMI, github.com/linuxhw/DMI,
 * path below), each answer written from its listing before the reader ran:
 *  - Dell PowerEdge R420 (Xeon E5-2430 v2), "Server/Dell/PowerEdge/PowerEdge R420/0BCA974199CD": SMBIOS 2.7, 12
 *    structures of 34 bytes (Configured Memory Speed its last field), "DIMM_A1 " .. "DIMM_A6 ", "DIMM_B1 " ..
 *    "DIMM_B6 " (a space after each), Bank Locator "Not Specified", 8 GB DDR3 rated and configured at 1333 MT/s in
 *    A1-A4 and B1-B4, A5, A6, B5, B6 empty: 12 devices, 8 present, 1333 MT/s, 8 configured;
 *  - Dell PowerEdge R440, "Server/Dell/PowerEdge/PowerEdge R440/4A122AB18262": 16 structures of 84 bytes, "A1" ..
 *    "A10", "B1" .. "B6", "Not Specified", 16 GB DDR4-2666 configured at 2666 in A1 and A2: 16, 2, 2666, 2;
 *  - Supermicro SYS-1029P-WTR (X11DDW-L), "Server/Supermicro/SYS-1029/SYS-1029P-WTR/6B7A3609D8D6": SMBIOS 3.2.1, 12 of
 *    84 bytes, "P1-DIMMA1" with bank "P0_Node0_Channel0_Dimm0" .. "P1-DIMMF1" "P0_Node1_Channel2_Dimm0", "P2-DIMMA1"
 *    "P1_Node0_Channel0_Dimm0" .. "P2-DIMMF1" "P1_Node1_Channel2_Dimm0", 64 GB DDR4-3200 (past 0x7FFF MiB: the
 *    Extended Size) configured at 2400 in P1-DIMMA1 and P2-DIMMA1: 12, 2, 2400, 2, the first locator "P1-DIMMA1".
 */
static void test_vendor_tables(void)
{
	struct t17 r420[12], r440[16], x11[12];
	char loc[12][24], bank[12][48]; /* room for any int in their %d, as gcc checks at -O1 */
	struct mem_smbios s;
	for (int i = 0; i < 12; i++) {
		snprintf(loc[i], sizeof(loc[i]), "DIMM_%c%d ", i < 6 ? 'A' : 'B', i % 6 + 1);
		int filled = i % 6 < 4;
		r420[i] = (struct t17){ 34, filled ? 8192 : 0, 0x18, filled ? 1333 : 0, filled ? 1333 : 0, 0, loc[i], "",
					filled ? 0 : 0x0080 };
	}
	parse_rows(r420, 12, &s);
	expect(&s, (const int[]){ 12, 8, 1333, 1333, 8, 0, 0, 0 });
	CU_ASSERT_STRING_EQUAL(s.first_locator, "DIMM_A1 ");
	static const char *const r440loc[16] = { "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10",
						 "B1", "B2", "B3", "B4", "B5", "B6" };
	for (int i = 0; i < 16; i++)
		r440[i] = (struct t17){ 84, i < 2 ? 16384 : 0, i < 2 ? 0x1a : 0x02, i < 2 ? 2666 : 0, i < 2 ? 2666 : 0,
					i < 2 ? 3 : 0, r440loc[i], "", i < 2 ? 0 : 0x0001 };
	parse_rows(r440, 16, &s);
	expect(&s, (const int[]){ 16, 2, 2666, 2666, 2, 0, 0, 0 });
	CU_ASSERT_STRING_EQUAL(s.first_locator, "A1");
	for (int i = 0; i < 12; i++) {
		int cpu = i / 6, filled = i % 6 == 0;
		snprintf(loc[i], sizeof(loc[i]), "P%d-DIMM%c1", cpu + 1, 'A' + i % 6);
		snprintf(bank[i], sizeof(bank[i]), "P%d_Node%d_Channel%d_Dimm0", cpu, i % 6 / 3, i % 3);
		x11[i] = (struct t17){ 84, filled ? 65536 : 0, filled ? 0x1a : 0x02, filled ? 3200 : 0, filled ? 2400 : 0,
				       filled ? 3 : 0, loc[i], bank[i], filled ? 0 : 0x0004 };
	}
	parse_rows(x11, 12, &s);
	expect(&s, (const int[]){ 12, 2, 2400, 2400, 2, 0, 0, 0 });
	CU_ASSERT_STRING_EQUAL(s.first_locator, "P1-DIMMA1");
}

/*
 * A speed the table does not give, and memory that is no DRAM, from public listings (answers written from them):
 *  - every QEMU/KVM guest's table (qemu/qemu hw/smbios/smbios.c, smbios_build_type_17_table): type 17 of 40 bytes,
 *    "DIMM 0", Memory Type RAM (0x07), Type Detail Other (0x0002), Speed 0 -- dmidecode's "Unknown" -- where no
 *    -smbios type=17,speed= is given, the configured speed the same: 1 present, 1 "Unknown", no speed: named in what
 *    the population says, and no peak;
 *  - an NVDIMM-N as Red Hat lists one ("Managing storage devices", RHEL 9, "Using NVDIMM persistent memory
 *    storage", its NVDIMM memory slot listing): "DMI type 17, 40 bytes", "Size: 125 GB", "Type: Other", "Type
 *    Detail: Non-Volatile Registered (Buffered)" (bits 12 and 13; the listing stops there: its speeds 0 here) -- a
 *    40-byte structure has no Memory Technology (0x28, SMBIOS 3.2), so Type Detail's Non-volatile bit 12 alone says
 *    what it is -- beside an HPE DIMM of a 40-byte table (strizhechenko/netutils-linux issue 210: "PROC  2 DIMM 12 ",
 *    4096 MB DDR3, Synchronous Registered (Buffered), rated 1333, configured 1067): 2 present, 1067 MT/s configured,
 *    1 non-volatile device kept out of the speed and the peak, said apart: one channel of the DIMM, 1067e6 x 8 B/s.
 */
static void test_unknown_and_nvdimm(void)
{
	static const struct t17 qemu[] = { { 40, 16384, 0x07, 0, 0, 0, "DIMM 0", "", 0x0002 } };
	static const struct t17 nv[] = { { 40, 4096, 0x18, 1333, 1067, 0, "PROC  2 DIMM 12 ", "", 0x2080 },
					 { 40, 128000, 0x01, 0, 0, 0, "DIMM-XXX-YYYY", "Bank0", 0x3000 } };
	struct mem_smbios s;
	struct blob t;
	int boxes[4] = { 0, 1, 2, 3 };
	double bps;
	char why[1024];
	parse_rows(qemu, 1, &s);
	expect(&s, (const int[]){ 1, 1, 0, 0, 0, 0, 1, 0 });
	parse_rows(nv, 2, &s);
	expect(&s, (const int[]){ 2, 2, 1067, 1067, 1, 0, 0, 1 });
	CU_ASSERT_STRING_EQUAL(s.nv_kind, "non-volatile memory");
	/* what the population says, and the peak, with one populated channel (sb_edac's Ivy Bridge-EP) */
	for (int k = 0; k < 2; k++) {
		clear_tree();
		mc(0, "Ivy Bridge SrcID#0_Ha#0");
		dimm(0, 0, 0, 0, "4096", "Registered-DDR3", "CPU_SrcID#0_Ha#0_Chan#0_DIMM#0");
		table_of(k ? nv : qemu, k ? 2 : 1, &t);
		put((const char *)t.b, t.n, "%s", MEM_SMBIOS_PATH);
		CU_ASSERT_EQUAL(mem_pop_build(&host, &ivb, 1, &pop), 0);
		int rc = mem_pop_peak(&pop, 0, boxes, 4, &bps, why, sizeof(why));
		int ok = !k ? strstr(pop.source, "; 1 DIMM of speed \"Unknown\"") && rc == -1 && strstr(why, "\"Unknown\"")
			    : strstr(pop.source, "configured at 1067 MT/s; 1 non-volatile device (non-volatile memory) kept out "
					     "of the DRAM peak") && rc == 0 && fabs(bps - 1067e6 * 8) < 1;
		CU_ASSERT(ok);
		if (!ok)
			fprintf(stderr, "%s: %s; peak %d %.0f (%s)\n", k ? "NVDIMM" : "QEMU", pop.source, rc, bps, why);
	}
}

/* A board's slot as its listing names it: the type-17 structure's length, locators, Size (MiB), rated (0x15) and
 * configured (0x20) speed. */
struct slot {
	int len;
	char loc[32], bank[32];
	unsigned mib, rated, conf;
};

/* The type-17 structures of the simulated machine spec's SMBIOS table, in the table's order: how many (at most
 * max), -1 where the table is not there or is cut. */
static int sim_slots(const char *spec, struct slot *out, int max)
{
	uncore_t *u = open_sim(spec);
	const struct memfs *m = NULL;
	const struct memfs_file *f;
	int n = 0;
	if (access_files(u->acc, &m) || !m || !(f = memfs_find(m, MEM_SMBIOS_PATH)) || !f->text) {
		uncore_close(u);
		return -1;
	}
	const uint8_t *t = (const uint8_t *)f->text, *end = t + f->len;
	while (t + 4 <= end && t[0] != 127 && t + t[1] <= end) {
		const uint8_t *s = t + t[1], *str[3] = { NULL, NULL, NULL };
		for (int k = 1; s < end && *s && k < 3; k++, s += strlen((const char *)s) + 1)
			str[k] = s;
		if (t[0] == 17 && n < max) {
			struct slot *o = &out[n++];
			o->len = t[1];
			snprintf(o->loc, sizeof(o->loc), "%s", t[0x10] == 1 && str[1] ? (const char *)str[1] : "?");
			snprintf(o->bank, sizeof(o->bank), "%s", t[0x11] == 2 && str[2] ? (const char *)str[2] : "?");
			o->mib = t[0x0c] | t[0x0d] << 8;
			if (o->mib == 0x7fff && t[1] >= 0x20) /* the Extended Size (SMBIOS 2.7 on) */
				o->mib = t[0x1c] | t[0x1d] << 8 | (unsigned)t[0x1e] << 16 | (unsigned)t[0x1f] << 24;
			o->rated = t[0x15] | t[0x16] << 8;
			o->conf = t[1] > 0x21 ? (unsigned)(t[0x20] | t[0x21] << 8) : 0;
		}
		for (s = t + t[1]; s + 1 < end && (s[0] || s[1]);) /* the string set ends in two NULs */
			s++;
		t = s + 2;
	}
	int whole = t + 4 <= end && t[0] == 127; /* (read before the handle and its files go) */
	uncore_close(u);
	return whole ? n : -1;
}

/* The simulated boards' tables as the public dmidecode listings of their servers show them (expected answers
 * read off the listings, platforms/<p>/sim_memory.c):
 *  - sim:icx, a Lenovo ThinkSystem SR630 V2 (linuxhw/DMI "Server/Lenovo/ThinkSystem/ThinkSystem SR630
 *    V2/ECB5C724E79D", handles 0x0018-0x0037): SMBIOS 3.3, 32 type-17 structures of 92 bytes in the order DIMM 3,
 *    4, 1, 2, 7, 8, 5, 6, 14, 13, 16, 15, 10, 9, 12, 11 with bank "CPU 1", then 19, 20, 17, 18, 23, 24, 21, 22,
 *    30, 29, 32, 31, 26, 25, 28, 27 with "CPU 2"; DDR4 rated 3200 (its DIMMs' Speed); the board's two 32 GB
 *    DIMMs a channel fill every slot, configured at the simulated Platinum 8380's 3200;
 *  - sim:emr, an HPE ProLiant DL380 Gen11 with Emerald Rapids (".../HPE/ProLiant/ProLiant DL380
 *    Gen11/89BBBA931D2E"): SMBIOS 3.4, type 17 of 92 bytes, "PROC 1 DIMM 1" .. "PROC 2 DIMM 16", bank
 *    "Not Specified", DDR5 rated 5600; one DIMM a channel in slot 0, the listing's DIMMs 3, 7, 10 and 14 among
 *    them (1, 3, 5, 7, 10, 12, 14, 16), configured at the simulated Platinum 8592+'s 5600: 8 x 5600e6 x 8 B/s a
 *    socket;
 *  - sim:spr, the same DL380 Gen11 (the listing's slots, single-spaced "PROC 1 DIMM 1"), DDR5-4800 (QuickSpecs). */
static void test_sim_board_tables(void)
{
	static const int icx_order[16] = { 3, 4, 1, 2, 7, 8, 5, 6, 14, 13, 16, 15, 10, 9, 12, 11 };
	static const int emr_filled[8] = { 1, 3, 5, 7, 10, 12, 14, 16 };
	struct slot sl[64];
	char want[32];
	double bps = 0;
	int n = sim_slots("sim:icx", sl, 64);
	CU_ASSERT_EQUAL(n, 32);
	for (int i = 0; i < n && i < 32; i++) {
		snprintf(want, sizeof(want), "DIMM %d", icx_order[i % 16] + 16 * (i / 16));
		CU_ASSERT_EQUAL(sl[i].len, 92);
		CU_ASSERT_STRING_EQUAL(sl[i].loc, want);
		CU_ASSERT_STRING_EQUAL(sl[i].bank, i < 16 ? "CPU 1" : "CPU 2");
		CU_ASSERT(sl[i].mib == 32768 && sl[i].rated == 3200 && sl[i].conf == 3200);
		if (sl[i].len != 92 || strcmp(sl[i].loc, want) || sl[i].rated != 3200)
			fprintf(stderr, "sim:icx slot %d: %d bytes, \"%s\" \"%s\", rated %u (want 92, \"%s\", 3200)\n", i,
				sl[i].len, sl[i].loc, sl[i].bank, sl[i].rated, want);
	}
	/* sim:spr lays out the same DL380 Gen11, with DDR5-4800 DIMMs (the board's QuickSpecs) */
	static const struct { const char *spec; unsigned mts; } hpe[] = { { "sim:emr", 5600 }, { "sim:spr", 4800 } };
	for (int b = 0; b < 2; b++) {
		n = sim_slots(hpe[b].spec, sl, 64);
		CU_ASSERT_EQUAL(n, 32);
		for (int i = 0, k = 0; i < n && i < 32; i++) {
			int filled = sl[i].mib != 0;
			CU_ASSERT_EQUAL(sl[i].len, 92);
			CU_ASSERT_STRING_EQUAL(sl[i].bank, "Not Specified");
			if (!filled)
				continue;
			snprintf(want, sizeof(want), "PROC %d DIMM %d", 1 + i / 16, emr_filled[k++ % 8]);
			CU_ASSERT_STRING_EQUAL(sl[i].loc, want);
			CU_ASSERT(sl[i].rated == hpe[b].mts && sl[i].conf == hpe[b].mts);
			if (strcmp(sl[i].loc, want) || sl[i].len != 92)
				fprintf(stderr, "%s slot %d: %d bytes, \"%s\" (want 92, \"%s\")\n", hpe[b].spec, i, sl[i].len,
					sl[i].loc, want);
		}
	}
	uncore_t *u = open_sim("sim:emr");
	for (int s = 0; s < 2; s++) {
		CU_ASSERT(uncore_memory_peak(u, s, &bps) == 0);
		ASSERT_NEAR(bps, 8 * 5600e6 * 8, 1);
	}
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "an 8-socket Skylake-SP's repeated node ids: placed by order, a conflict named", test_repeated_node_ids },
		{ "... checked against the NUMA node: no placing on a socket whose node has no memory", test_repeated_ids_numa },
		{ "sb_edac's numbering: home agent first, sockets descending", test_sb_numbering },
		{ "sb_edac's names before Linux 4.9, a reason whole", test_old_names },
		{ "csrow-only trees: Linux 3.3's and later", test_csrows },
		{ "DIMMs EDAC lists that the node does not have: mapped out, size 0", test_mapped_out },
		{ "SMBIOS 2.6 and 3.2 type 17: rated, configured, Unknown, PMem and Flash", test_smbios_shapes },
		{ "Dell's 34- and 84-byte and Supermicro's 84-byte type 17 as their listings show them", test_vendor_tables },
		{ "a QEMU guest's \"Unknown\" speed named, an NVDIMM-N of a 40-byte table kept out", test_unknown_and_nvdimm },
		{ "the simulated boards' tables as their servers' listings: sim:icx's SR630 V2, sim:emr's DL380 Gen11",
		  test_sim_board_tables },
		{ NULL, NULL },
	};
	return run_in_fake_tree("memory_shapes", tests);
}
