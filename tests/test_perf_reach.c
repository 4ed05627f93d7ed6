/*
 * Bits Linux drops (issue 65 point 3).  The simulated kernel keeps what Linux's driver keeps of a config, the
 * type's event_mask | event_mask_ext << 32 (uncore.c uncore_pmu_event_init, silently), and its enable_event
 * writes 32 bits of it on PCI and MMIO (the generic discovery ops, spr_uncore_mmio_enable_event's writel), all 64
 * with wrmsrl or spr_uncore_pci_enable_event: checked on the simulator's control registers, against masks and
 * write widths read from Linux (tests/reference/linux_regs.txt), not from the simulated kernel's tables.  The
 * library refuses an event that needs a bit lost on the way, naming it and why, and uncore_unit_perf_dropped
 * (uncore list) names them per unit; the direct backend counts the same specs.
 */
#include <stdlib.h>
#include "sim_helpers.h"

#define EN (1ull << 22) /* SNBEP_PMON_CTL_EN, which the driver sets on a counter it enables */
#define TH (0x3ull << 23) /* inv and thresh bit 0 of the generic layout, both kept */

/* Open config on PMU pmu (CPU 0) alone; returns the descriptor. */
static int kopen(uncore_t *u, const char *pmu, uint64_t config)
{
	struct perf_kernel *k = u->perf->k;
	const struct perf_pmu *p = perf_pmu_named(u->perf, pmu);
	if (!p)
		fprintf(stderr, "no PMU %s\n", pmu);
	CU_ASSERT_FATAL(p != NULL);
	struct perf_event_attr a = { .type = p->type, .size = sizeof(a), .config = config };
	int fd = k->ops->open(k, &a, -1, 0, -1, 0);
	CU_ASSERT_FATAL(fd >= 0);
	return fd;
}

/* The programmed counter control of socket 0's box idx of unit, as the simulator holds it, less the enable bit
 * (whether a unit keeps that bit is the simulator's own matter); 0: none programmed. */
static uint64_t programmed(uncore_t *u, const char *unit, int idx)
{
	struct sim *s = sim_of(u->acc);
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (strcmp(b->u->name, unit) || b->socket != 0 || b->idx != idx)
			continue;
		for (int c = 0; c < b->u->nctr; c++) {
			uint64_t v = sim_reg_get(s, b, R_CTL, c);
			if (v)
				return v & ~EN;
		}
	}
	return 0;
}

/* What the register gets of config opened on pmu: want, or fail naming the case. */
static void reaches(const char *backend, const char *pmu, const char *unit, uint64_t config, uint64_t want)
{
	uncore_t *u = open_sim(backend);
	int fd = kopen(u, pmu, config);
	uint64_t c;
	CU_ASSERT(u->perf->k->ops->read(u->perf->k, fd, &c, sizeof(c)) == (ssize_t)sizeof(c)); /* the box settled */
	uint64_t got = programmed(u, unit, 0);
	if (got != want)
		fprintf(stderr, "%s %s config 0x%llx: register 0x%llx, Linux would write 0x%llx\n", backend, pmu,
			(unsigned long long)config, (unsigned long long)got, (unsigned long long)want);
	CU_ASSERT(got == want);
	u->perf->k->ops->close(u->perf->k, fd);
	uncore_close(u);
}

/* dmr_uncore_cxlcm keeps GENERIC_PMON_RAW_EVENT_MASK | DMR_CXLCM_EVENT_MASK_EXT 0xf << 32 (6daf2c35b835): inv2's bit
 * 21 is dropped, and the generic MMIO ops' writel loses port_en (32-35); dmr_uncore_imc keeps no bit above 31. */
static void test_dmr_kernel(void)
{
	uint64_t ev = 0x02 | 0x01 << 8;
	reaches("perf+sim:dmr,clock=manual", "uncore_cxlcm", "cxlcm", ev | 1ull << 21, ev);
	reaches("perf+sim:dmr,clock=manual", "uncore_cxlcm", "cxlcm", ev | 1ull << 32, ev);
	reaches("perf+sim:dmr,clock=manual", "uncore_cxlcm", "cxlcm", ev | 1ull << 18 | TH, ev | 1ull << 18 | TH);
	reaches("perf+sim:dmr,clock=manual", "uncore_imc_0", "imc", 0x01 | 1ull << 32, 0x01);
}

/* Granite Rapids (Linux 6.12): B2CXL steps 8 bytes (spr_uncore_mmio_offs8_ops) but writes with writel, so its
 * umask extension never arrives; the UPI's spr_uncore_pci_ops write both dwords; SPR's iMC (spr_uncore_mmio_ops)
 * writel as well. */
static void test_gnr_spr_kernel(void)
{
	uint64_t ev = 0x01 | 0x01 << 8;
	reaches("perf+sim:gnr,clock=manual", "uncore_b2cxl", "b2cxl", ev | 1ull << 32, ev);
	reaches("perf+sim:gnr,clock=manual", "uncore_cxlcm", "cxlcm", ev | 1ull << 40, ev);
	reaches("perf+sim:gnr,clock=manual", "uncore_upi_0", "upi", ev | 1ull << 32, ev | 1ull << 32);
	reaches("perf+sim:spr,clock=manual", "uncore_imc_0", "imc", ev | 1ull << 32, ev);
	reaches("perf+sim:spr,clock=manual", "uncore_m2m_0", "m2m", ev | 1ull << 32, ev | 1ull << 32);
}

/* The library's refusal names the qualifier and why; the direct backend counts the same spec. */
static void refused(const char *platform, const char *spec, const char *why)
{
	char be[64];
	snprintf(be, sizeof(be), "perf+sim:%s,clock=manual", platform);
	uncore_t *u = open_sim(be);
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int rc = uncore_session_add(s, spec);
	if (rc >= 0 || !strstr(uncore_error(), why))
		fprintf(stderr, "%s %s: %d '%s', want a refusal with '%s'\n", be, spec, rc, rc < 0 ? uncore_error() : "", why);
	CU_ASSERT(rc < 0 && strstr(uncore_error(), why));
	uncore_session_free(s);
	uncore_close(u);
	snprintf(be, sizeof(be), "sim:%s,clock=manual", platform);
	u = open_sim(be);
	CU_ASSERT(count_once(u, spec) == 0);
	uncore_close(u);
}

static void test_library_refuses(void)
{
	refused("dmr", "cxlcm/event=0x2,umask=0x1/:inv", "drops inv (bits 0x200000: outside the driver's event mask");
	/* DMR's CXL CM controls are 4 bytes apart (Linux's generic MMIO layout, dmr_uncore_cxlcm has no .ops): port_en
	 * (config:32-35) has no place in them, refused on either backend before perf's own check */
	uncore_t *d = open_sim("perf+sim:dmr,clock=manual");
	for (int k = 0; k < 2; k++) {
		uncore_session_t *s;
		CU_ASSERT_FATAL(uncore_session_new(d, &s) == 0);
		int rc = uncore_session_add(s, "cxlcm/event=0x2,umask=0x1/:port_en=3");
		if (rc >= 0 || !strstr(uncore_error(), "bits 0x300000000 are beyond the 32 bits of the cxlcm control register"))
			fprintf(stderr, "dmr port_en: %d '%s'\n", rc, rc < 0 ? uncore_error() : "");
		CU_ASSERT(rc < 0 && strstr(uncore_error(), "bits 0x300000000 are beyond the 32 bits of the cxlcm control register"));
		uncore_session_free(s);
		uncore_close(d);
		d = k ? NULL : open_sim("sim:dmr,clock=manual");
	}
	refused("gnr", "b2cxl/event=0x1,umask=0x1,umask_ext=0x1/",
		"uncore_b2cxl drops the umask extension (bits 0x100000000: it writes bits 31:0 of config alone to the MMIO control");
	refused("gnr", "cxlcm/event=0x1,umask=0x1,umask_ext=0x10/", "drops the umask extension (bits 0x1000000000: it writes");
	/* the UPI's spr_uncore_pci_ops pass the extension: counted through perf */
	uncore_t *u = open_sim("perf+sim:gnr,clock=manual");
	CU_ASSERT(count_once(u, "upi/event=0x1,umask=0x1,umask_ext=0x1/") == 0);
	uncore_close(u);
}

/* What uncore list prints per unit on the perf backend, and nothing on the registers. */
static void dropped(const char *backend, const char *unit, const char *want)
{
	uncore_t *u = open_sim(backend);
	char buf[1024] = "x";
	int found = 0;
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		if (uncore_unit_info(u, i, &ui) || strcmp(ui.name, unit))
			continue;
		found = 1;
		CU_ASSERT(uncore_unit_perf_dropped(u, i, buf, sizeof(buf)) == 0);
	}
	CU_ASSERT_FATAL(found);
	if (strcmp(buf, want))
		fprintf(stderr, "%s %s: '%s', want '%s'\n", backend, unit, buf, want);
	CU_ASSERT(!strcmp(buf, want));
	uncore_close(u);
}

static void test_unit_dropped(void)
{
	dropped("perf+sim:dmr", "cxlcm",
		"inv (bits 0x200000: outside the driver's event mask, event_mask | event_mask_ext << 32)");
	dropped("sim:dmr", "cxlcm", "");
	dropped("perf+sim:dmr", "imc", "");
	dropped("perf+sim:gnr", "b2cxl",
		"the umask extension (bits 0xffffff00000000: it writes bits 31:0 of config alone to the MMIO control, writel)");
	dropped("perf+sim:gnr", "upi", "");
	dropped("perf+sim:skx", "upi",
		"the umask extension (bits 0xffefff00000000: it writes bits 31:0 of config alone to the PCI control, "
		"pci_write_config_dword)");
	dropped("perf+sim:emr,generic=1", "irp", "the umask extension (bits 0xffffff00000000: no format names them)");
	dropped("perf+sim:gnr,cpu=6-B6-0", "pcu", ""); /* a unit known by its PMU alone: its fields are the formats */
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "DMR: the simulated kernel drops cxlcm inv2 and keeps 32 bits, as Linux 7.0", test_dmr_kernel },
		{ "GNR B2CXL and CXL CM, SPR iMC: 32-bit writes; UPI, M2M: both dwords", test_gnr_spr_kernel },
		{ "the perf backend refuses what the kernel drops, naming it; the registers count it", test_library_refuses },
		{ "uncore_unit_perf_dropped names per unit what cannot reach the registers through perf", test_unit_dropped },
		{ NULL, NULL },
	};
	return run_suite("perf_reach", tests);
}
