/* Discovery domains (issue 50 point 1; Linux 7.0 e75462f6c7ea, 66e2075426f3, b575fc0e3357): a machine laid out as
 * Diamond Rapids is -- an I/O hub table per socket behind PCI device 0x09A1, a compute-die table per die whose
 * address MSR 0x710 gives, its global control frozen at power-on -- counts under the generic platform through
 * its tables alone.  The truth is the simulator's profile (sim_domains.c places the units, the library
 * finds them). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_helpers.h"
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
	CU_ASSERT_EQUAL(die1, 2 * (4 + 2 + 1)); /* each socket's second compute die: its CBOs, SBOs, SB2UCIE */
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

int main(void)
{
	static const struct test_case tests[] = {
		{ "a domain-laid machine under generic enumerates both domains, die by die", test_enumerates_domains },
		{ "a session unfreezes the compute tables' global controls and freezes them again", test_counts_after_unfreeze },
		{ "a second hub's units (ids from 0x8000) count beside the first's", test_secondary_hub },
		{ "a PCI-only machine keeps no global control", test_pci_only_machine },
		{ NULL, NULL },
	};
	return run_suite("domains", tests);
}
