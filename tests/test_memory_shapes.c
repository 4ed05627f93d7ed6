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

/* A type-17 structure of len bytes: size MiB, memory type, rated (0x15) and configured (0x20) speeds, technology
 * (0x28), locators. */
static void memdev(struct blob *t, int len, unsigned size, int type, unsigned rated, unsigned conf, int tech,
		   const char *loc, const char *bank)
{
	uint8_t f[0x5c] = { 0 };
	const char *strs[] = { loc, *bank ? bank : NULL, NULL }; /* (no bank locator: string number 0, as DSP0134) */
	f[0x0c] = (uint8_t)size, f[0x0d] = (uint8_t)(size >> 8);
	f[0x0e] = 0x09;
	f[0x10] = 1, f[0x11] = *bank ? 2 : 0;
	f[0x12] = (uint8_t)type;
	f[0x13] = 0x80, f[0x14] = 0x20;
	f[0x15] = (uint8_t)rated, f[0x16] = (uint8_t)(rated >> 8);
	if (len > 0x21)
		f[0x20] = (uint8_t)conf, f[0x21] = (uint8_t)(conf >> 8);
	if (len > 0x28)
		f[0x28] = (uint8_t)tech;
	structure(t, 17, len, f + 4, strs);
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

/* A type-17 row: length, size (MiB), memory type, rated and configured speed, technology, locators. */
struct t17 {
	int len;
	unsigned size;
	int type;
	unsigned rated, conf;
	int tech;
	const char *loc, *bank;
};

/* The table of rows r[0 .. n) and the end of table, parsed into s. */
static void parse_rows(const struct t17 *r, int n, struct mem_smbios *s)
{
	struct blob t;
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < n; i++)
		memdev(&t, r[i].len, r[i].size, r[i].type, r[i].rated, r[i].conf, r[i].tech, r[i].loc, r[i].bank);
	structure(&t, 127, 4, NULL, NULL);
	CU_ASSERT_EQUAL(parsed(&t, s), 0);
}

static void test_smbios_shapes(void)
{
	/* SMBIOS 2.6, a Dell R720's 28-byte entries: the rated Speed alone */
	static const struct t17 r720[] = { { 0x1c, 8192, 0x18, 1600, 0, 0, "DIMM_A1", "" },
					   { 0x1c, 8192, 0x18, 1333, 0, 0, "DIMM_A2", "" },
					   { 0x1c, 0, 0x02, 0, 0, 0, "DIMM_A3", "" } };
	/* SMBIOS 3.2 (84 bytes, a Supermicro board's "P1-DIMMA1", bank "P0_Node0_Channel0_Dimm0"): DDR4-3200 configured
	 * at 2933 and 2666, an Optane PMem beside them kept out, a Flash device, one DIMM "Unknown" */
	static const struct t17 x11[] = { { 0x54, 32768, 0x1a, 3200, 2933, 3, "P1-DIMMA1", "P0_Node0_Channel0_Dimm0" },
					  { 0x54, 0x7fff, 0x1f, 2666, 2400, 7, "P1-DIMMA2", "P0_Node0_Channel0_Dimm1" },
					  { 0x54, 32768, 0x1a, 3200, 2666, 3, "P1-DIMMB1", "P0_Node0_Channel1_Dimm0" },
					  { 0x54, 16, 0x09, 0, 0, 0, "Flash", "" },
					  { 0x54, 32768, 0x1a, 0, 0, 3, "P1-DIMMC1", "P0_Node0_Channel2_Dimm0" } };
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
		{ "sb_edac's numbering: home agent first, sockets descending", test_sb_numbering },
		{ "sb_edac's names before Linux 4.9, a reason whole", test_old_names },
		{ "csrow-only trees: Linux 3.3's and later", test_csrows },
		{ "DIMMs EDAC lists that the node does not have: mapped out, size 0", test_mapped_out },
		{ "SMBIOS 2.6 and 3.2 type 17: rated, configured, Unknown, PMem and Flash", test_smbios_shapes },
		{ "the simulated boards' tables as their servers' listings: sim:icx's SR630 V2, sim:emr's DL380 Gen11",
		  test_sim_board_tables },
		{ NULL, NULL },
	};
	return run_in_fake_tree("memory_shapes", tests);
}
