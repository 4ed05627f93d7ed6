/* Discovery domains (issue 50 point 1; Linux 7.0 e75462f6c7ea, 66e2075426f3, b575fc0e3357): a machine laid out as
 * Diamond Rapids is -- an I/O hub table per socket behind PCI device 0x09A1, a compute-die table per die whose
 * address MSR 0x710 gives, its global control frozen at power-on -- counts under the generic platform through
 * its tables alone.  The truth is the simulator's profile (sim_domains.c places the units, the library
 * finds them). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "tmpdir.h"
#include "util/error.h"

#define SPEC "sim:generic,layout=domains,dies=2,clock=manual"

static int boxes_of(uncore_t *u, const char *unit, int socket) { return uncore_unit_boxes(u, unit_named(u, unit), socket); }

/* Both domains' units, each on the die its table serves: the hub's on the socket's first die, the compute
 * units on their own die; the two unit types Linux ignores as broken are listed too (the generic driver
 * keeps every listed type, as this generic platform does). */
static void test_enumerates_domains(void)
{
	uncore_t *u = open_sim(SPEC);
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "generic");
	for (int s = 0; s < 2; s++) {
		CU_ASSERT_EQUAL(boxes_of(u, "type4", s), 1);  /* PCU, hub */
		CU_ASSERT_EQUAL(boxes_of(u, "type5", s), 1);  /* UBox, hub */
		CU_ASSERT_EQUAL(boxes_of(u, "type6", s), 4);  /* iMC channels, hub */
		CU_ASSERT_EQUAL(boxes_of(u, "type31", s), 8); /* CBOs: 4 on each of the two compute dies */
		CU_ASSERT_EQUAL(boxes_of(u, "type38", s), 4); /* SBOs: 2 a die */
		CU_ASSERT_EQUAL(boxes_of(u, "type19", s), 1); /* MSE (listed) */
		CU_ASSERT_EQUAL(boxes_of(u, "type37", s), 2); /* SB2UCIE (listed, a die each) */
		CU_ASSERT_EQUAL(boxes_of(u, "type32", s), 2); /* SANTA, a die each */
		CU_ASSERT_EQUAL(boxes_of(u, "type51", s), 1); /* PCIe 6, hub */
	}
	CU_ASSERT_EQUAL(boxes_of(u, "type24", 0), 1); /* CXL CM on socket 0 only */
	CU_ASSERT_EQUAL(boxes_of(u, "type24", 1), 0);
	int die1 = 0;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		die1 += b->die == 1;
		if (b->t->disc_type == 6 || b->t->disc_type == 4)
			CU_ASSERT_EQUAL(b->die, 0); /* the hub table's NUMA node is the socket's first die's */
	}
	/* each socket's second compute die: its CBOs, SBOs, SANTA, cNCU, sNCU, DDA and SB2UCIE */
	CU_ASSERT_EQUAL(die1, 2 * (4 + 2 + 4 + 1));
	CU_ASSERT_EQUAL(u->ngctl, 4);           /* a frozen-at-power-on control per compute table */
	uncore_close(u);
}

/* Counting: nothing would count before the compute tables' global controls are cleared (the whole die is
 * frozen, the hub's units on it too); a session clears them, and puts them back frozen when it ends. */
static void test_counts_after_unfreeze(void)
{
	static const char *const specs[] = { "type31/event=0x1/", "type38/event=0x1/", "type6/event=0x1/", "type4/event=0x1/" };
	uncore_t *u = open_sim(SPEC);
	struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	for (int sc = 0; sc < 4; sc++)
		CU_ASSERT_EQUAL(sim->gfrz[sc], 1); /* power-on */
	uncore_session_t *s = start_session(u, specs, 4);
	for (int sc = 0; sc < 4; sc++)
		CU_ASSERT_EQUAL(sim->gfrz[sc], 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int sk = 0; sk < 2; sk++) {
		CU_ASSERT(check_truth("CBO clocks", (double)val(s, 0, sk), 8 * p->uncore_hz * secs));
		CU_ASSERT(check_truth("SBO clocks", (double)val(s, 1, sk), 4 * p->uncore_hz * secs));
		CU_ASSERT(check_truth("iMC clocks", (double)val(s, 2, sk), 4 * p->dram_hz * secs));
		CU_ASSERT(check_truth("PCU clocks", (double)val(s, 3, sk), p->pcu_hz * secs));
	}
	finish(u, s); /* frozen again, every register as found */
}

/* Two hubs a socket: the secondary's units have ids from 0x8000 (Linux d8987048f665: "on DMR IMH2, the unit
 * id starts from 0x8000"), on the same die as the primary's; every channel of both counts. */
static void test_secondary_hub(void)
{
	static const char *const specs[] = { "type6/event=0x1/", "type6/event=0x1,box=32769/" };
	uncore_t *u = open_sim("sim:generic,layout=domains2,clock=manual");
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	CU_ASSERT_EQUAL(boxes_of(u, "type6", 0), 8);
	CU_ASSERT_EQUAL(boxes_of(u, "type4", 0), 1); /* the PCU is the primary hub's */
	CU_ASSERT_PTR_NOT_NULL(box_named(u, "type6", 1, 0x8003));
	uncore_session_t *s = start_session(u, specs, 2);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int sk = 0; sk < 2; sk++) {
		CU_ASSERT(check_truth("iMC clocks, both hubs", (double)val(s, 0, sk), 8 * p->dram_hz * secs));
		CU_ASSERT(check_truth("iMC 0x8001 clocks", (double)val(s, 1, sk), p->dram_hz * secs));
	}
	finish(u, s);
}

/* The default generic machine (one PCI table per socket, 0x09A7) is untouched by the MSR domains: its
 * CPUs have no discovery MSR, nothing is frozen, nothing is kept. */
static void test_pci_only_machine(void)
{
	uncore_t *u = open_sim("sim:generic,clock=manual");
	CU_ASSERT_EQUAL(u->ngctl, 0);
	CU_ASSERT_EQUAL(boxes_of(u, "type0", 0), 4);
	uncore_close(u);
}

/* Diamond Rapids (platforms/dmr): Linux 7.0's names on both domains' units, the units its ignore lists leave out
 * (IMH type 0x13 MSE, CBB type 0x25 SB2UCIE) absent -- with disc_unnamed they would be type19 and type37 -- and a
 * frozen-at-power-on control kept per compute table. */
static void test_dmr_names_and_ignored(void)
{
	static const char *const hub[] = { "pcu", "ubox", "sca", "hamvf", "ula", "ubr", "pcie4", "crs", "cpc", "otc", "cms",
					   "pcie6" };
	static const char *const die[] = { "santa", "cncu", "sncu", "dda" };
	uncore_t *u = open_sim("sim:dmr,dies=2,clock=manual");
	struct uncore_unit_info ui;
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "dmr");
	for (int i = 0; i < uncore_num_units(u); i++)
		CU_ASSERT(!uncore_unit_info(u, i, &ui) && strncmp(ui.name, "type", 4)); /* every listed type is named */
	for (int sk = 0; sk < 2; sk++) {
		for (size_t k = 0; k < sizeof(hub) / sizeof(hub[0]); k++)
			CU_ASSERT_EQUAL(boxes_of(u, hub[k], sk), 1);
		for (size_t k = 0; k < sizeof(die) / sizeof(die[0]); k++)
			CU_ASSERT_EQUAL(boxes_of(u, die[k], sk), 2); /* one a compute die */
		CU_ASSERT_EQUAL(boxes_of(u, "imc", sk), 4);
		CU_ASSERT_EQUAL(boxes_of(u, "itc", sk), 4);
		CU_ASSERT_EQUAL(boxes_of(u, "cbo", sk), 16); /* 8 a die */
		CU_ASSERT_EQUAL(boxes_of(u, "sbo", sk), 4);
	}
	CU_ASSERT_EQUAL(boxes_of(u, "cxlcm", 0), 1);
	CU_ASSERT_EQUAL(u->ngctl, 4);
	for (int i = 0; i < u->nboxes; i++)
		CU_ASSERT(u->boxes[i].t->disc_type != 0x13 && u->boxes[i].t->disc_type != 0x25);
	uncore_close(u);
}

/* Every unit's clock (event 0x01) on every box, and the iMC's fixed DCLK, equal the truth through the library on
 * both backends: the registers (the compute dies unfrozen by the session) and the simulated Linux 7.0 kernel
 * (dmr_uncore_init unfroze them as it loaded).  Two hubs a socket: IMH2's channels count too. */
static void dmr_clocks(const char *spec)
{
	static const char *const units[] = { "pcu", "ubox", "imc", "sca", "cxlcm", "hamvf", "cbo", "santa", "cncu", "sncu", "ula",
					     "dda", "sbo", "ubr", "pcie4", "crs", "cpc", "itc", "otc", "cms", "pcie6" };
	enum { NU = sizeof(units) / sizeof(units[0]) };
	const char *specs[NU + 1];
	char buf[NU][48], what[96];
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	for (int k = 0; k < NU; k++) {
		snprintf(buf[k], sizeof(buf[k]), "%s/event=0x1/", units[k]);
		specs[k] = buf[k];
	}
	specs[NU] = "UNC_M_FIXED_DCLK";
	uncore_session_t *s = start_session(u, specs, NU + 1);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	int boxes = 0;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		int k = 0;
		uint64_t v = 0;
		if (!b->t->nctr && b->t->nfr)
			continue; /* free-running counters alone (iio): test_dmr_iio_free_running */
		while (k < NU && strcmp(units[k], b->t->name))
			k++;
		CU_ASSERT_FATAL(k < NU);
		double hz = k == 2 ? p->dram_hz : k == 0 ? p->pcu_hz : p->uncore_hz;
		CU_ASSERT(uncore_session_value(s, k, b->socket, b->idx, &v) == 0);
		snprintf(what, sizeof(what), "%s: %s %d socket %d clocks", spec, b->t->name, b->idx, b->socket);
		CU_ASSERT(near_truth(what, (double)v, hz * secs));
		if (k == 2) {
			CU_ASSERT(uncore_session_value(s, NU, b->socket, b->idx, &v) == 0);
			snprintf(what, sizeof(what), "%s: imc %d socket %d fixed DCLK", spec, b->idx, b->socket);
			CU_ASSERT(near_truth(what, (double)v, p->dram_hz * secs));
		}
		boxes++;
	}
	CU_ASSERT(boxes >= 2 * (NU + 7 + 3 + 1 + 3) - 1); /* every unit, 8 CBOs, 4 channels, 2 SBOs, 4 ITCs a socket */
	close_checked(u, s, sim);
}

static void test_dmr_clocks(void)
{
	dmr_clocks("sim:dmr,clock=manual");
	dmr_clocks("sim:dmr,imh=2,dies=2,clock=manual");
	dmr_clocks("perf+sim:dmr,clock=manual");
	dmr_clocks("perf+sim:dmr,imh=2,clock=manual");
}

/* Each unit's access is its discovery entry's (Linux 7.0: dmr_uncore_init has .pci_init and .mmio_init and no
 * .cpu_init, 6daf2c35b835; iio_free_running's num_boxes is uncore_type_max_boxes(uncore_mmio_uncores,
 * UNCORE_DMR_ITC), d8987048f665).  The simulator's tables list the units as MMIO: every one is found, with the
 * generic MMIO steps, and 4 free-running boxes.  msr=itc and msr=pcu list those through MSR: the registers are
 * still driven from the entry, but no free-running box goes with an MSR ITC, and the simulated 7.0 kernel
 * registers no PMU for either.  pci=pcie4 lists the PCIe 4 units through PCI: Linux's generic PCI layout (controls
 * 8 apart), a PMU each. */
static void dmr_access(const char *spec, int itc_msr, int pcu_msr, int pcie4_pci)
{
	uncore_t *u = open_sim(spec);
	uncore_session_t *s;
	int perf = u->perf != NULL;
	for (int sk = 0; sk < 2; sk++) {
		CU_ASSERT_EQUAL(boxes_of(u, "itc", sk), perf && itc_msr ? 0 : 4);
		CU_ASSERT_EQUAL(boxes_of(u, "pcu", sk), perf && pcu_msr ? 0 : 1);
		CU_ASSERT_EQUAL(boxes_of(u, "cbo", sk), 8);
		CU_ASSERT_EQUAL(boxes_of(u, "cxlcm", sk), !sk);
		CU_ASSERT_EQUAL(boxes_of(u, "pcie4", sk), 1);
	}
	CU_ASSERT_EQUAL(boxes_of(u, "iio", 0), itc_msr ? 0 : 4);
	for (int i = 0; !perf && i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		int msr = (itc_msr && b->t->disc_type == 48) || (pcu_msr && b->t->disc_type == 4);
		int pci = pcie4_pci && b->t->disc_type == 45;
		if (!b->t->nctr)
			continue; /* iio */
		CU_ASSERT_EQUAL(b->t->space, msr ? UC_MSR : pci ? UC_PCI : UC_MMIO);
		CU_ASSERT_EQUAL(b->r.ctl_stride, msr ? 1u : pci ? 8u : 4u);
		CU_ASSERT_EQUAL(b->r.ctr_stride, msr ? 1u : 8u);
	}
	/* a 32-bit control has no umask_ext (config 32-63): refused by the registers' backend */
	CU_ASSERT(uncore_session_new(u, &s) == 0);
	if (!perf) {
		CU_ASSERT(uncore_session_add(s, "cbo/event=0x2,umask_ext=0x5/") < 0);
		CU_ASSERT(strstr(uncore_error(), "32 bits") != NULL);
	}
	uncore_session_free(s);
	uncore_close(u);
}

static void test_dmr_entry_access(void)
{
	dmr_access("sim:dmr,clock=manual", 0, 0, 0);
	dmr_access("perf+sim:dmr,clock=manual", 0, 0, 0);
	dmr_access("sim:dmr,msr=itc,clock=manual", 1, 0, 0);
	dmr_access("perf+sim:dmr,msr=itc,clock=manual", 1, 0, 0);
	dmr_access("sim:dmr,msr=pcu,pci=pcie4,clock=manual", 0, 1, 1);
	dmr_access("perf+sim:dmr,msr=pcu,pci=pcie4,clock=manual", 0, 1, 1);
	/* the MSR-access units count from their entries; the compute tables' global blocks saying MSR, their controls
	 * are unfrozen all the same (uncore_mmio_global_init maps the address whatever the block says, b575fc0e3357) */
	dmr_clocks("sim:dmr,msr=itc,msr=pcu,pci=pcie4,gctl=msr,clock=manual");
	dmr_clocks("perf+sim:dmr,pci=pcie4,clock=manual"); /* a PCI PMU counts as Linux's generic PCI ops program it */
}

/* The IIO free-running counters (Linux 7.0 d8987048f665): a box per ITC unit of the primary hub, ids below 0x8000
 * -- 4 here, HIOP0/1/3/4 -- and none for the secondary hub's (imh=2: 4 more ITCs, ids 0x8000-0x8003).  The driver
 * maps one fixed window set on every die; it reaches socket 0's hub (the simulator's, and the library's, reading),
 * so socket 1 has none.  Every counter of every box -- inb_data, bw_in and bw_out by port (4 bytes a count), the
 * clock -- equals the truth: the socket's IIO traffic split over its HIOPs and, by the profile, over its ports
 * (uneven, some idle), on both backends. */
static void dmr_iio_free_running(const char *backend, const char *prof, int imh2)
{
	enum { NE = 3 * SIM_IIO_PORTS + 1 };
	static const char *const grp[] = { "inb_data_port", "bw_in_port", "bw_out_port" };
	char spec[400], buf[NE][48], what[600];
	const char *specs[NE];
	snprintf(spec, sizeof(spec), "%s,clock=manual,profile=%s", backend, prof);
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	CU_ASSERT_EQUAL(boxes_of(u, "iio", 0), 4);
	CU_ASSERT_EQUAL(boxes_of(u, "iio", 1), 0);
	for (int i = 0; i < uncore_num_units(u); i++) { /* no general counter; 48 bits (dmr_iio_freerunning's) */
		struct uncore_unit_info ui;
		if (!uncore_unit_info(u, i, &ui) && !strcmp(ui.name, "iio"))
			CU_ASSERT(ui.counters == 0 && ui.width == 48);
	}
	/* the registers show IMH2's ITCs too; Linux 7.0 counts boxes up to the largest id below 0x8000 (the iMC's too) */
	CU_ASSERT_EQUAL(boxes_of(u, "itc", 0), imh2 && !u->perf ? 8 : 4);
	for (int g = 0; g < 3; g++)
		for (int k = 0; k < SIM_IIO_PORTS; k++) {
			snprintf(buf[g * SIM_IIO_PORTS + k], sizeof(buf[0]), "iio_free_running/%s%d/", grp[g], k);
			specs[g * SIM_IIO_PORTS + k] = buf[g * SIM_IIO_PORTS + k];
		}
	specs[NE - 1] = "iio_free_running/clockticks/";
	uncore_session_t *s = start_session(u, specs, NE);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	int nb = 0;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (strcmp(b->t->name, "iio"))
			continue;
		nb++;
		CU_ASSERT(b->socket == 0 && b->unit_id < 4);
		for (int e = 0; e < NE; e++) {
			uint64_t v = 0;
			double want = e == NE - 1 ? p->iio_hz * secs
						  : truth_box(iio_truth(sim_of(u->acc), 0, e < 2 * SIM_IIO_PORTS, 1u << e % SIM_IIO_PORTS, 1),
							      nb - 1, 0) / 4 * secs;
			CU_ASSERT(uncore_session_value(s, e, 0, b->idx, &v) == 0);
			snprintf(what, sizeof(what), "%s: iio %d %s", spec, b->idx, specs[e]);
			if (want == 0) {
				CU_ASSERT_EQUAL(v, 0); /* an idle port counts nothing */
			} else {
				CU_ASSERT(near_truth(what, (double)v, want));
			}
		}
	}
	CU_ASSERT_EQUAL(nb, 4);
	close_checked(u, s, sim);
	/* a raw spec has no counter to go on: refused, saying what to name instead */
	u = open_sim(spec);
	CU_ASSERT(uncore_session_new(u, &s) == 0 && uncore_session_add(s, "iio/event=0x1/") < 0);
	CU_ASSERT(strstr(uncore_error(), "iio has free-running counters alone") != NULL);
	uncore_session_free(s);
	uncore_close(u);
}

static void test_dmr_iio_free_running(void)
{
	char prof[300];
	snprintf(prof, sizeof(prof), "%s/dmr_ports.%d.prof", test_tmpdir(), (int)getpid());
	FILE *f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("iio_port0_share = 0\niio_port1_share = 5\niio_port2_share = 0\niio_port3_share = 2\niio_port4_share = 0\n"
	      "iio_port5_share = 0\niio_port6_share = 1\niio_port7_share = 3\n", f);
	fclose(f);
	dmr_iio_free_running("sim:dmr", prof, 0);
	dmr_iio_free_running("sim:dmr,imh=2,dies=2", prof, 1);
	dmr_iio_free_running("perf+sim:dmr", prof, 0);
	dmr_iio_free_running("perf+sim:dmr,imh=2", prof, 1);
	remove(prof);
}

/* The simulated Linux 7.0 kernel cleared the compute dies' frozen controls as its driver loaded; the generic
 * driver (generic=1) reads no MSR 0x710 and leaves them frozen. */
static void test_dmr_kernel_unfreezes(void)
{
	uncore_t *u = open_sim("perf+sim:dmr,clock=manual");
	CU_ASSERT_EQUAL(sim_of(u->acc)->gfrz[0], 0);
	uncore_close(u);
	u = open_sim("perf+sim:dmr,generic=1,clock=manual");
	CU_ASSERT_EQUAL(sim_of(u->acc)->gfrz[0], 1);
	uncore_close(u);
}

/* NUMA off (imh_node=none): the hubs' table devices have no node, so Linux gives them logical dies in the order it
 * finds them (get_device_die_id: logical_die_id++) and skips those beyond uncore_max_dies() (7b568e9eba2f).  Two
 * hubs on each of two sockets, one die each: socket 0's IMH1 (bus 0x6f) goes to die 0, its IMH2 (0x7f) to die 1,
 * socket 1's two tables are skipped -- socket 1 has no PCU, on both backends; the compute tables (MSR 0x710) are
 * placed by their die's MSR as before. */
static void test_dmr_tables_beyond_dies(void)
{
	static const char *const specs[] = { "sim:dmr,imh=2,imh_node=none,clock=manual",
					     "perf+sim:dmr,imh=2,imh_node=none,clock=manual" };
	for (int i = 0; i < 2; i++) {
		uncore_t *u = open_sim(specs[i]);
		CU_ASSERT_EQUAL(boxes_of(u, "pcu", 0), 1);
		CU_ASSERT_EQUAL(boxes_of(u, "pcu", 1), 0);
		CU_ASSERT_EQUAL(boxes_of(u, "itc", 0), 4);
		CU_ASSERT_EQUAL(boxes_of(u, "imc", 0), 4);
		CU_ASSERT_EQUAL(boxes_of(u, "cbo", 1), 8);
		CU_ASSERT_EQUAL(boxes_of(u, "iio", 0), 4);
		uncore_close(u);
	}
}

/* The IIO free-running aliases' scale, 4 bytes a count in MiB (dmr_uncore_iio_freerunning_events): as Linux 7.0 writes
 * the .scale file, and as a 7.0-rc kernel before 16bcbe6738be wrote it, in literal double quotes (scale_quotes=1):
 * the same scale either way, never 1. */
static void test_dmr_scale_quotes(void)
{
	static const char *const specs[] = { "perf+sim:dmr,clock=manual", "perf+sim:dmr,scale_quotes=1,clock=manual" };
	for (int i = 0; i < 2; i++) {
		uncore_t *u = open_sim(specs[i]);
		uncore_session_t *s;
		const char *unit = NULL;
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		CU_ASSERT_FATAL(uncore_session_add(s, "iio_free_running/bw_in_port3/") == 0);
		CU_ASSERT_DOUBLE_EQUAL(uncore_session_event_scale(s, 0, &unit), 4.0 / 1048576, 1e-15); /* 3.814697266e-6 */
		CU_ASSERT(unit && !strcmp(unit, "MiB"));
		uncore_session_free(s);
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a domain-laid machine under generic enumerates both domains, die by die", test_enumerates_domains },
		{ "a session unfreezes the compute tables' global controls and freezes them again", test_counts_after_unfreeze },
		{ "a second hub's units (ids from 0x8000) count beside the first's", test_secondary_hub },
		{ "a PCI-only machine keeps no global control", test_pci_only_machine },
		{ "dmr: Linux 7.0's names, MSE and SB2UCIE left out, a control kept per compute table", test_dmr_names_and_ignored },
		{ "dmr: every unit's clock and the iMC's fixed DCLK equal the truth on every box, both backends", test_dmr_clocks },
		{ "perf+sim:dmr: the driver unfroze the compute dies as it loaded; the generic one did not", test_dmr_kernel_unfreezes },
		{ "dmr: each unit's access is its entry's; an MSR-access unit has no PMU under Linux 7.0, an MSR ITC no "
		  "free-running box; a CBB global block saying MSR is unfrozen all the same", test_dmr_entry_access },
		{ "perf+sim:dmr: the IIO free-running scale read alike with and without a 7.0-rc kernel's quotes", test_dmr_scale_quotes },
		{ "dmr, NUMA off: hub tables beyond the dies are skipped as Linux 7.0 skips them, both backends",
		  test_dmr_tables_beyond_dies },
		{ "dmr: the IIO free-running counters, on the primary hub's HIOPs of socket 0 alone, equal the truth, both backends",
		  test_dmr_iio_free_running },
		{ NULL, NULL },
	};
	return run_suite("domains", tests);
}
