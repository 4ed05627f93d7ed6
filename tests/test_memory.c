/*
 * Which memory channels hold DIMMs (issue 91, common/memory): the EDAC parser on trees shaped as each generation's
 * Linux 6.12 driver writes them -- i10nm_edac (Ice Lake-SP, Sapphire Rapids with HBM), skx_edac (Skylake-SP) and
 * sb_edac (Haswell-EP) -- whose expected channels are worked out here from the drivers' own formats (mc_name
 * "%s#%d IMC#%d" / "<Gen> SrcID#%d_Ha#%d", dimm directory dimm<channel * slots + slot> with "channel C slot S ",
 * slots 2 for skx_common's layers and 3 for sb_edac's MAX_DIMMS) and the uncore driver's box order, never from the
 * parser; hostile trees (missing files, odd mc_name, 10,000 entries, FIFOs where files belong); and SMBIOS type 17
 * from a hand-built table of known speeds, with the peak it gives: 8 channels of DDR4-3200 move 204.8 GB/s.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "harness.h"
#include "fake_tree.h"
#include "edac_tree.h"
#include "memory/memory.h"
#include "platform/platform_facts.h"

/* The layouts as platforms/<p>/platform.c give them, restated from the sources they cite. */
static const struct mem_layout icx = { "Intel_10nm Socket#", " IMC#", 3, 2, 4, .source = "test" };
static const struct mem_layout spr = { "Intel_10nm Socket#", " IMC#", 2, 2, 4, .source = "test" };
static const struct mem_layout skx = { "Skylake Socket#", " IMC#", 3, 3, 2, .source = "test" };
static const struct mem_layout hsx = { "Haswell SrcID#", "_Ha#", 4, 4, 2, .source = "test" };
static const struct mem_layout snb = { "Sandy Bridge SrcID#", "_Ha#", 4, 4, 1, .source = "test" };
static const struct mem_layout bdx = { "Broadwell SrcID#", "_Ha#", 4, 4, 2, .source = "test" };
/* Xeon Max: i10nm_base.c spr_cfg hbm_imc_num 16, hbm_chan_num 2 after the 4 DDR controllers */
static const struct mem_layout spr_max = { "Intel_10nm Socket#", " IMC#", 2, 2, 4, .source = "test", .hbm_mcs = 16,
					   .hbm_chans = 2 };

static struct mem_pop pop;
static void fifo(const char *rel);
static const struct dev_fs host = { 0 }; /* below UNCORE_SYSROOT: the fake tree */

/* i10nm on Ice Lake-SP: socket 0 as the SR630 V2 fills it (4 controllers x 2 channels x 2 DIMMs); socket 1 with
 * controller 2's channel 1 empty and controller 3 absent from EDAC. */
static void test_i10nm_icx(void)
{
	char label[64];
	int n = 0;
	clear_tree();
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < 4; m++) {
			char name[64];
			if (s == 1 && m == 3)
				continue;
			snprintf(name, sizeof(name), "Intel_10nm Socket#%d IMC#%d", s, m);
			mc(n, name);
			for (int c = 0; c < 2; c++)
				for (int d = 0; d < 2 && !(s == 1 && m == 2 && c == 1); d++) {
					snprintf(label, sizeof(label), "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", s, m, c, d);
					dimm(n, c * 2 + d, c, d, "32768", "Registered-DDR4", label);
				}
			n++;
		}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_STRING_EQUAL(pop.edac_why, "");
	CU_ASSERT_EQUAL(pop.edac_mcs, 7);
	/* socket 0: boxes 0,1 3,4 6,7 9,10 the channels, 2 5 8 11 no channel (ICX_NUMBER_IMC_CHN 3, PCM's 2) */
	for (int b = 0; b < 12; b++) {
		CU_ASSERT_EQUAL(pop.ch[0][b].state, b % 3 == 2 ? UNCORE_CHAN_NONE : UNCORE_CHAN_POPULATED);
		if (b % 3 != 2) {
			CU_ASSERT_EQUAL(pop.ch[0][b].dimms, 2);
			CU_ASSERT_EQUAL(pop.ch[0][b].mib, 65536);
			CU_ASSERT_EQUAL(pop.ch[0][b].ctrl, b / 3);
			CU_ASSERT_EQUAL(pop.ch[0][b].chan, b % 3);
		}
	}
	CU_ASSERT_STRING_EQUAL(pop.ch[0][4].labels, "CPU_SrcID#0_MC#1_Chan#1_DIMM#0, CPU_SrcID#0_MC#1_Chan#1_DIMM#1");
	CU_ASSERT_STRING_EQUAL(pop.ch[0][4].type, "Registered-DDR4");
	CU_ASSERT_EQUAL(pop.ch[1][6].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[1][7].state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(pop.ch[1][9].state, UNCORE_CHAN_UNKNOWN); /* controller 3: EDAC says nothing of it */
	CU_ASSERT_EQUAL(pop.ch[1][10].state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_EQUAL(pop.ch[1][11].state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_EQUAL(mem_pop_state(&pop, 1, 7), UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(mem_pop_state(&pop, 1, 64), UNCORE_CHAN_UNKNOWN); /* out of range: unknown, no read past */
	CU_ASSERT_EQUAL(mem_pop_state(&pop, 8, 0), UNCORE_CHAN_UNKNOWN);
}

/* i10nm on Sapphire Rapids with HBM: the HBM controllers (lmc 4 on, "High-bandwidth-memory-Gen2") are left out of
 * the DDR channels; DDR channel 1 of controller 0 has one DIMM in slot 1. */
static void test_i10nm_spr_hbm(void)
{
	clear_tree();
	mc(0, "Intel_10nm Socket#0 IMC#0");
	dimm(0, 2 * 1 + 1, 1, 1, "65536", "Registered-DDR5", "CPU_SrcID#0_MC#0_Chan#1_DIMM#1");
	mc(1, "Intel_10nm Socket#0 IMC#4");
	dimm(1, 0, 0, 0, "16384", "High-bandwidth-memory-Gen2", "CPU_SrcID#0_HBMC#4_Chan#0");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &spr_max, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 1);
	CU_ASSERT_EQUAL(pop.hbm_mcs, 1);
	CU_ASSERT_EQUAL(pop.hbm[0][0].state, UNCORE_CHAN_POPULATED); /* HBM controller 0's channel 0: hbm box 0 */
	CU_ASSERT_EQUAL(pop.hbm[0][0].mib, 16384);
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(pop.ch[0][1].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[0][1].mib, 65536);
	CU_ASSERT_EQUAL(pop.ch[0][2].state, UNCORE_CHAN_UNKNOWN); /* controller 1 not shown */
	CU_ASSERT_EQUAL(pop.ch[0][8].state, UNCORE_CHAN_UNKNOWN); /* nothing of HBM lands on a DDR box */
}

/* skx_edac: "Skylake Socket#1 IMC#1", three channels, one DIMM on channels 0 and 2 (boxes 3 and 5). */
static void test_skx(void)
{
	clear_tree();
	mc(0, "Skylake Socket#0 IMC#0");
	mc(1, "Skylake Socket#1 IMC#1");
	dimm(1, 0 * 2 + 0, 0, 0, "16384", "Registered-DDR4", "CPU_SrcID#1_MC#1_Chan#0_DIMM#0");
	dimm(1, 2 * 2 + 0, 2, 0, "16384", "Registered-DDR4", "CPU_SrcID#1_MC#1_Chan#2_DIMM#0");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &skx, 2, &pop), 0);
	for (int b = 0; b < 3; b++)
		CU_ASSERT_EQUAL(pop.ch[0][b].state, UNCORE_CHAN_EMPTY); /* a controller without DIMMs: all empty */
	CU_ASSERT_EQUAL(pop.ch[1][3].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[1][4].state, UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(pop.ch[1][5].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[1][0].state, UNCORE_CHAN_UNKNOWN);
	/* the same tree read as Ice Lake-SP's: no controller named so, every channel unknown, and why */
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_EQUAL(pop.ch[1][3].state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.edac_why, "no controller named Intel_10nm Socket#N IMC#M"));
}

/* sb_edac on Haswell-EP: "Haswell SrcID#0_Ha#1", dimm<channel * 3 + slot>; home agent 1's channel 2 is box 6. */
static void test_sb_edac(void)
{
	clear_tree();
	mc(0, "Haswell SrcID#0_Ha#0");
	dimm(0, 0 * 3 + 0, 0, 0, "8192", "Registered-DDR4", "CPU_SrcID#0_Ha#0_Chan#0_DIMM#0");
	mc(1, "Haswell SrcID#0_Ha#1");
	dimm(1, 2 * 3 + 1, 2, 1, "8192", "Registered-DDR4", "CPU_SrcID#0_Ha#1_Chan#2_DIMM#1");
	dimm(1, 2 * 3 + 2, 2, 2, "8192", "Registered-DDR4", "CPU_SrcID#0_Ha#1_Chan#2_DIMM#2");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_POPULATED);
	for (int b = 1; b < 8; b++)
		CU_ASSERT_EQUAL(pop.ch[0][b].state, b == 6 ? UNCORE_CHAN_POPULATED : UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(pop.ch[0][6].dimms, 2);
	CU_ASSERT_EQUAL(pop.ch[0][6].ctrl, 1);
	CU_ASSERT_EQUAL(pop.ch[0][6].chan, 2);
}

/* sb_edac on Sandy Bridge-EP (one home agent of four channels) and Broadwell-EP (two; a Dell R730's population:
 * each agent's channels 0 and 1, as its listing shows them, boxes 0, 1, 4, 5), the DIMM directories
 * dimm<channel * MAX_DIMMS 3 + slot> as sb_edac.c's layers make them, the third slot of a channel included. */
static void test_sb_edac_gens(void)
{
	char label[64];
	clear_tree();
	mc(0, "Sandy Bridge SrcID#0_Ha#0");
	for (int c = 0; c < 4; c++) {
		snprintf(label, sizeof(label), "CPU_SrcID#0_Ha#0_Chan#%d_DIMM#0", c);
		dimm(0, c * 3, c, 0, "16384", "Registered-DDR3", label);
	}
	dimm(0, 3 * 3 + 2, 3, 2, "16384", "Registered-DDR3", "CPU_SrcID#0_Ha#0_Chan#3_DIMM#2");
	mc(1, "Sandy Bridge SrcID#1_Ha#0"); /* socket 1's agent with no DIMM */
	CU_ASSERT_EQUAL(mem_pop_build(&host, &snb, 2, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 2);
	for (int b = 0; b < 4; b++) {
		CU_ASSERT_EQUAL(pop.ch[0][b].state, UNCORE_CHAN_POPULATED);
		CU_ASSERT_EQUAL(pop.ch[0][b].dimms, b == 3 ? 2 : 1);
		CU_ASSERT_EQUAL(pop.ch[1][b].state, UNCORE_CHAN_EMPTY);
	}
	CU_ASSERT_EQUAL(pop.ch[0][3].mib, 32768);
	/* in the order of the directories' names: dimm11 before dimm9 */
	CU_ASSERT_STRING_EQUAL(pop.ch[0][3].labels, "CPU_SrcID#0_Ha#0_Chan#3_DIMM#2, CPU_SrcID#0_Ha#0_Chan#3_DIMM#0");
	CU_ASSERT_STRING_EQUAL(pop.ch[0][0].type, "Registered-DDR3");
	CU_ASSERT_EQUAL(pop.ch[0][4].state, UNCORE_CHAN_UNKNOWN); /* past the one agent's boxes: nothing said */
	clear_tree();
	for (int s = 0; s < 2; s++)
		for (int h = 0; h < 2; h++) {
			char name[64];
			snprintf(name, sizeof(name), "Broadwell SrcID#%d_Ha#%d", s, h);
			mc(2 * h + s, name); /* sb_edac numbers mcN in the order it finds the agents' devices */
			for (int c = 0; c < 2; c++) {
				snprintf(label, sizeof(label), "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#0", s, h, c);
				dimm(2 * h + s, c * 3, c, 0, "32768", "Registered-DDR4", label);
			}
		}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &bdx, 2, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 4);
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < 8; b++) {
			CU_ASSERT_EQUAL(pop.ch[s][b].state, b % 4 < 2 ? UNCORE_CHAN_POPULATED : UNCORE_CHAN_EMPTY);
			CU_ASSERT_EQUAL(pop.ch[s][b].ctrl, b / 4);
			CU_ASSERT_EQUAL(pop.ch[s][b].chan, b % 4);
		}
	CU_ASSERT_STRING_EQUAL(pop.ch[1][5].labels, "CPU_SrcID#1_Ha#1_Chan#1_DIMM#0");
	CU_ASSERT_EQUAL(pop.hbm_mcs, 0);
}

/* sb_edac trees gone wrong: another generation's or a mangled name, an agent the part has not, a channel past the
 * agent's four (sb_edac's layer is NUM_CHANNELS 6 wide), a slot past MAX_DIMMS, a FIFO, 10,000 DIMM entries. */

/* A fresh tree of one controller mc0 named name with 10,000 empty dimmN directories below it (a hostile EDAC tree). */
static void many_dimm_dirs(const char *name)
{
	char p[512];
	clear_tree();
	mc(0, name);
	for (int i = 0; i < 10000; i++) {
		snprintf(p, sizeof(p), "%s/sys/devices/system/edac/mc/mc0/dimm%d", root, i);
		mkdirs(p);
	}
}

static void test_sb_edac_hostile(void)
{
	clear_tree();
	mc(0, "Haswell SrcID#0_Ha#0");
	dimm(0, 0, 0, 0, "8192", "Registered-DDR4", "a");
	dimm(0, 4 * 3, 4, 0, "8192", "Registered-DDR4", "channel 4"); /* no channel of a Haswell-EP agent */
	dimm(0, 13, 1, 9, "8192", "Registered-DDR4", "slot 9"); /* a slot past MAX_DIMMS: its channel still holds it */
	fifo("/sys/devices/system/edac/mc/mc0/dimm6/dimm_label");
	put_str("channel 2 slot 0 \n", "/sys/devices/system/edac/mc/mc0/dimm6/dimm_location");
	mc(1, "Ivy Bridge SrcID#0_Ha#1");   /* another generation's name */
	mc(2, "Haswell SrcID#0_Ha#");       /* no agent */
	mc(3, "Haswell SrcID#0_Ha#1 ");     /* trailing blank */
	mc(4, "Haswell SrcID#0_Ha#7");      /* an agent the part has not (2 a socket) */
	mc(5, "Haswell SrcID#9_Ha#1");      /* a socket the machine has not */
	mc(6, "Haswell Socket#0 IMC#1");    /* skx_edac's shape */
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 1);
	CU_ASSERT_EQUAL(pop.hbm_mcs, 0); /* Ha#7 is no HBM controller */
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[0][1].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[0][2].state, UNCORE_CHAN_POPULATED); /* its label a FIFO: counted, unlabelled */
	CU_ASSERT_STRING_EQUAL(pop.ch[0][2].labels, "");
	CU_ASSERT_EQUAL(pop.ch[0][3].state, UNCORE_CHAN_EMPTY);
	for (int b = 4; b < 8; b++)
		CU_ASSERT_EQUAL(pop.ch[0][b].state, UNCORE_CHAN_UNKNOWN); /* agent 1 named by no readable controller */
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "is not Haswell SrcID#N_Ha#M"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "no channel of the controller"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "names controller 7: the platform has 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "names socket 9 of 1"));
	if (!strstr(pop.notes, "no channel of the controller"))
		fprintf(stderr, "notes: %s\n", pop.notes);
	/* 10,000 DIMM entries in one agent: bounded and said */
	many_dimm_dirs("Haswell SrcID#0_Ha#1");
	dimm(0, 3, 1, 0, "8192", "Registered-DDR4", "b");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &hsx, 1, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "more than"));
	CU_ASSERT_EQUAL(pop.ch[0][4].state, UNCORE_CHAN_EMPTY);
	CU_ASSERT(pop.ch[0][5].dimms <= 1);
}

/* Xeon Max: i10nm_edac's HBM controllers (lmc 4-19) land on the hbm unit's boxes 2 (lmc - 4) + channel, apart from
 * DDR; an HBM-only socket (every DDR channel empty) is said to be one, and its DDR peak is 0. */
static void test_hbm_channels(void)
{
	int boxes[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	double bps = -1;
	char why[320];
	clear_tree();
	for (int m = 0; m < 4; m++) {
		char name[64];
		snprintf(name, sizeof(name), "Intel_10nm Socket#0 IMC#%d", m);
		mc(m, name);
	}
	mc(4, "Intel_10nm Socket#0 IMC#4");
	dimm(4, 0, 0, 0, "2048", "High-bandwidth-memory-Gen2", "CPU_SrcID#0_HBMC#4_Chan#0");
	dimm(4, 2, 1, 0, "2048", "High-bandwidth-memory-Gen2", "CPU_SrcID#0_HBMC#4_Chan#1");
	mc(5, "Intel_10nm Socket#0 IMC#19");
	dimm(5, 2, 1, 0, "2048", "High-bandwidth-memory-Gen2", "CPU_SrcID#0_HBMC#19_Chan#1");
	mc(6, "Intel_10nm Socket#0 IMC#20"); /* past the 16 HBM controllers */
	CU_ASSERT_EQUAL(mem_pop_build(&host, &spr_max, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 4);
	CU_ASSERT_EQUAL(pop.hbm_mcs, 2);
	CU_ASSERT_EQUAL(pop.hbm[0][0].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.hbm[0][1].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.hbm[0][1].ctrl, 4);
	CU_ASSERT_EQUAL(pop.hbm[0][1].chan, 1);
	CU_ASSERT_STRING_EQUAL(pop.hbm[0][1].type, "High-bandwidth-memory-Gen2");
	CU_ASSERT_EQUAL(pop.hbm[0][2].state, UNCORE_CHAN_UNKNOWN); /* lmc 5 not shown */
	CU_ASSERT_EQUAL(pop.hbm[0][30].state, UNCORE_CHAN_EMPTY);   /* lmc 19 channel 0: box 2 x 15 */
	CU_ASSERT_EQUAL(pop.hbm[0][31].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.hbm[0][31].mib, 2048);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "names controller 20: the platform has 4 and its HBM's"));
	for (int b = 0; b < 8; b++)
		CU_ASSERT_EQUAL(pop.ch[0][b].state, UNCORE_CHAN_EMPTY); /* no HBM channel on a DDR box */
	CU_ASSERT_EQUAL(mem_pop_hbm_only(&pop, 0, boxes, 8), 1);
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 0, boxes, 8, &bps, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(bps, 0);
	/* one DDR DIMM: no longer HBM-only; the same tree read as plain Sapphire Rapids: HBM left out, unknown */
	dimm(0, 0, 0, 0, "32768", "Unbuffered-DDR5", "CPU_SrcID#0_MC#0_Chan#0_DIMM#0");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &spr_max, 1, &pop), 0);
	CU_ASSERT_EQUAL(mem_pop_hbm_only(&pop, 0, boxes, 8), 0);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &spr, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.hbm[0][0].state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_EQUAL(mem_pop_hbm_only(&pop, 0, boxes, 8), 0);
}

/* Missing files and odd names: each left out and said, nothing else changed. */
static void test_hostile_names(void)
{
	clear_tree();
	mc(0, "Intel_10nm Socket#0 IMC#0");
	dimm(0, 0, 0, 0, "1024", "Registered-DDR4", "ok");
	put_str("channel 1 slot 0 \n", "/sys/devices/system/edac/mc/mc0/dimm2/dimm_location"); /* no size: counted */
	put_str("32768\n", "/sys/devices/system/edac/mc/mc0/dimm3/size");              /* no location: left out */
	put_str("channel 2 slot 0 \n", "/sys/devices/system/edac/mc/mc0/dimm4/dimm_location"); /* ICX's third: no channel */
	put_str("channel 0 slot 0 junk\n", "/sys/devices/system/edac/mc/mc0/dimm5/dimm_location");
	mc(1, "Intel_10nm Socket#0 IMC#1 and more");
	mc(2, "Intel_10nm Socket#7 IMC#0");      /* a socket the machine has not */
	mc(3, "Intel_10nm Socket#-1 IMC#2");
	mc(4, "Intel_10nm Socket#00000001 IMC#2"); /* too many digits */
	mc(5, "");
	mc(6, "Intel_10nm Socket#0 IMC#9");      /* a controller the platform has not */
	char p[512];
	snprintf(p, sizeof(p), "%s/sys/devices/system/edac/mc/mc7", root); /* a controller without mc_name */
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/sys/devices/system/edac/mc/mcX", root); /* not a controller's name */
	mkdirs(p);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_EQUAL(pop.edac_mcs, 1);
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[0][0].dimms, 1);
	CU_ASSERT_EQUAL(pop.ch[0][1].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_EQUAL(pop.ch[0][1].mib, 0);
	CU_ASSERT_EQUAL(pop.ch[0][2].state, UNCORE_CHAN_NONE);
	for (int b = 3; b < 12; b++)
		CU_ASSERT_EQUAL(pop.ch[0][b].state, UNCORE_CHAN_UNKNOWN);
	for (int b = 0; b < 12; b++)
		CU_ASSERT_EQUAL(pop.ch[1][b].state, UNCORE_CHAN_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "is not Intel_10nm Socket#N IMC#M"));
	if (!strstr(pop.notes, "is not Intel_10nm Socket#N IMC#M"))
		fprintf(stderr, "notes: %s\n", pop.notes);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.source, "left out"));
	/* nothing there at all */
	clear_tree();
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.edac_why, "no /sys/devices/system/edac/mc"));
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_UNKNOWN);
	/* no layout: the platform's controllers are not known */
	CU_ASSERT_EQUAL(mem_pop_build(&host, NULL, 2, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.edac_why, "not known for this platform"));
}

static void fifo(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	*strrchr(p, '/') = 0;
	mkdirs(p);
	snprintf(p, sizeof(p), "%s%s", root, rel);
	unlink(p); /* in place of the file there */
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0644), 0);
}

/* FIFOs where mc_name, dimm_location and the SMBIOS table belong: read without blocking, taken as absent. */
static void test_fifos(void)
{
	clear_tree();
	fifo("/sys/devices/system/edac/mc/mc0/mc_name");
	mc(1, "Intel_10nm Socket#0 IMC#1");
	fifo("/sys/devices/system/edac/mc/mc1/dimm0/dimm_location");
	dimm(1, 2, 1, 0, "4096", "Registered-DDR4", "x");
	fifo("/sys/devices/system/edac/mc/mc1/dimm2/dimm_label");
	fifo(MEM_SMBIOS_PATH);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.ch[0][0].state, UNCORE_CHAN_UNKNOWN); /* mc0 unreadable */
	CU_ASSERT_EQUAL(pop.ch[0][3].state, UNCORE_CHAN_EMPTY);   /* mc1's channel 0: its DIMM's location a FIFO */
	CU_ASSERT_EQUAL(pop.ch[0][4].state, UNCORE_CHAN_POPULATED);
	CU_ASSERT_STRING_EQUAL(pop.ch[0][4].labels, "");
	CU_ASSERT_EQUAL(pop.smbios_read, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.smbios_why, "FIFO"));
}

/* 10,000 controllers and a controller of 10,000 DIMMs: bounded, said, and what was read still right. */
static void test_ten_thousand(void)
{
	char p[512];
	clear_tree();
	for (int i = 0; i < 10000; i++) {
		snprintf(p, sizeof(p), "%s/sys/devices/system/edac/mc/mc%d", root, i);
		mkdirs(p);
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 2, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "more than 256 entries"));
	many_dimm_dirs("Intel_10nm Socket#0 IMC#0");
	dimm(0, 0, 0, 0, "1", "Registered-DDR4", "a");
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 1, &pop), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pop.notes, "more than"));
	CU_ASSERT(pop.ch[0][0].dimms <= MEM_MAX_DIMM_DIRS);
	CU_ASSERT_EQUAL(pop.edac_mcs, 1);
}

/* ---- SMBIOS ---- */

/* A type-17 body (from offset 4) of length len: size (MiB), locator string 1, configured speed (and extended). */
static void memdev(struct blob *t, int len, unsigned size, unsigned conf, uint32_t ext_conf, const char *loc)
{
	uint8_t f[0x5c] = { 0 };
	const char *strs[] = { loc, "BANK 0", NULL };
	f[0x0c] = (uint8_t)size, f[0x0d] = (uint8_t)(size >> 8);
	f[0x10] = 1, f[0x11] = 2;
	f[0x12] = 0x1a; /* DDR4 */
	f[0x20] = (uint8_t)conf, f[0x21] = (uint8_t)(conf >> 8);
	memcpy(f + 0x58, &ext_conf, 4); /* (little-endian, as the table and this machine are) */
	structure(t, 17, len, f + 4, strs);
}

static void table(struct blob *t)
{
	const char *bios[] = { "Lenovo", "U8E1", NULL };
	uint8_t b0[0x14] = { 1, 2 };
	memset(t, 0, sizeof(*t));
	structure(t, 0, 0x18, b0, bios);                 /* BIOS information */
	structure(t, 16, 0x17, (uint8_t[0x13]){ 3 }, NULL); /* the memory array, no strings */
	memdev(t, 0x28, 32768, 3200, 0, "DIMM 1");       /* SMBIOS 2.8 */
	memdev(t, 0x28, 0, 0, 0, "DIMM 2");              /* an empty slot */
	memdev(t, 0x5c, 0x7fff, 0xffff, 2933, "DIMM 3"); /* 3.3: extended size and configured speed */
	memdev(t, 0x1b, 16384, 0, 0, "DIMM 4");          /* 2.3: no configured speed field */
	structure(t, 127, 4, NULL, NULL);
}

static void test_smbios(void)
{
	struct blob t;
	struct mem_smbios s;
	char why[160];
	table(&t);
	CU_ASSERT_EQUAL(mem_smbios_parse(t.b, t.n, &s, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(s.devices, 4);
	CU_ASSERT_EQUAL(s.present, 3);
	CU_ASSERT_EQUAL(s.mts_min, 2933);
	CU_ASSERT_EQUAL(s.mts_max, 3200);
	CU_ASSERT_STRING_EQUAL(s.first_locator, "DIMM 1");
	/* cut anywhere: never a read past the end (ASan), a structure cut short said */
	for (size_t n = 0; n < t.n; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, t.b, n);
		int rc = mem_smbios_parse(cut, n, &s, why, sizeof(why));
		CU_ASSERT(rc == 0 || strstr(why, "past the table's end") || strstr(why, "shorter"));
		free(cut);
	}
	/* a length below the header's */
	t.b[1] = 2;
	CU_ASSERT_EQUAL(mem_smbios_parse(t.b, t.n, &s, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "shorter than its header"));
}

/* The peak from the population and the table: SR630 V2's 8 channels a socket at 3200 MT/s, 8 bytes a transfer. */
static void test_peak(void)
{
	struct blob t;
	int boxes[12];
	double bps;
	char why[320];
	clear_tree();
	for (int m = 0; m < 4; m++) {
		char name[64];
		snprintf(name, sizeof(name), "Intel_10nm Socket#0 IMC#%d", m);
		mc(m, name);
		for (int c = 0; c < 2; c++)
			for (int d = 0; d < 2; d++)
				dimm(m, c * 2 + d, c, d, "32768", "Registered-DDR4", "l");
	}
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 16; i++)
		memdev(&t, 0x28, 32768, 3200, 0, "DIMM");
	structure(&t, 127, 4, NULL, NULL);
	put((const char *)t.b, t.n, "%s", MEM_SMBIOS_PATH);
	for (int b = 0; b < 12; b++)
		boxes[b] = b;
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 1, &pop), 0);
	CU_ASSERT_EQUAL(pop.smbios_read, 1);
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 0, boxes, 12, &bps, why, sizeof(why)), 0);
	ASSERT_NEAR(bps, 204.8e9, 1);
	/* half the channels emptied: half the peak */
	for (int m = 0; m < 4; m++) {
		char p[400];
		for (int d = 0; d < 2; d++) {
			snprintf(p, sizeof(p), "rm -rf '%s/sys/devices/system/edac/mc/mc%d/dimm%d'", root, m, 2 + d);
			CU_ASSERT(system(p) == 0);
		}
	}
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 1, &pop), 0);
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 0, boxes, 12, &bps, why, sizeof(why)), 0);
	ASSERT_NEAR(bps, 102.4e9, 1);
	/* no table: the speed unknown, no peak */
	snprintf(why, sizeof(why), "rm -f '%s%s'", root, MEM_SMBIOS_PATH);
	CU_ASSERT(system(why) == 0);
	CU_ASSERT_EQUAL(mem_pop_build(&host, &icx, 1, &pop), 0);
	CU_ASSERT_EQUAL(mem_pop_peak(&pop, 0, boxes, 12, &bps, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "speed is unknown"));
	CU_ASSERT_EQUAL(bps, 0);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "i10nm_edac on Ice Lake-SP: SR630 V2's population, an empty channel, a controller not shown", test_i10nm_icx },
		{ "i10nm_edac on Sapphire Rapids: HBM controllers left out of the DDR channels", test_i10nm_spr_hbm },
		{ "skx_edac: Skylake Socket#N IMC#M, three channels a controller", test_skx },
		{ "sb_edac on Haswell-EP: SrcID#N_Ha#M, four channels a home agent", test_sb_edac },
		{ "sb_edac on Sandy Bridge-EP and Broadwell-EP (a Dell R730's channels)", test_sb_edac_gens },
		{ "sb_edac trees gone wrong: names, agents, channels, a FIFO, 10,000 DIMMs", test_sb_edac_hostile },
		{ "Xeon Max: HBM channels apart from DDR, HBM-only, its DDR peak 0", test_hbm_channels },
		{ "missing files and odd mc_name: left out and said", test_hostile_names },
		{ "FIFOs in the tree: never a blocked read", test_fifos },
		{ "10,000 entries: bounded", test_ten_thousand },
		{ "SMBIOS type 17: configured speeds of a hand-built table, cut anywhere", test_smbios },
		{ "peak: populated channels x configured MT/s x 8 bytes", test_peak },
		{ NULL, NULL },
	};
	return run_in_fake_tree("memory", tests);
}
