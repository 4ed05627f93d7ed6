/*
 * Which driver Linux gives the CPU a simulated machine reports: the models of Linux 6.12's
 * intel_uncore_match[] (arch/x86/events/intel/uncore.c; model numbers from
 * arch/x86/include/asm/intel-family.h) with the init each gets.  A model not listed gets the generic
 * discovery driver when the machine has discovery tables, and no uncore PMU otherwise.
 */
#include <string.h>
#include "sim_kernel_priv.h"
#include "util/error.h"

static const struct {
	uint8_t model;
	const char *init;
} linux_612[] = {
	{ 0x1e, "nhm_uncore_init" }, { 0x1a, "nhm_uncore_init" }, { 0x25, "nhm_uncore_init" },
	{ 0x2c, "nhm_uncore_init" }, { 0x2a, "snb_uncore_init" }, { 0x3a, "ivb_uncore_init" },
	{ 0x3c, "hsw_uncore_init" }, { 0x45, "hsw_uncore_init" }, { 0x46, "hsw_uncore_init" },
	{ 0x3d, "bdw_uncore_init" }, { 0x47, "bdw_uncore_init" }, { 0x2d, "snbep_uncore_init" },
	{ 0x2e, "nhmex_uncore_init" }, { 0x2f, "nhmex_uncore_init" }, { 0x3e, "ivbep_uncore_init" },
	{ 0x3f, "hswep_uncore_init" }, { 0x4f, "bdx_uncore_init" }, { 0x56, "bdx_uncore_init" },
	{ 0x57, "knl_uncore_init" }, { 0x85, "knl_uncore_init" }, { 0x4e, "skl_uncore_init" },
	{ 0x5e, "skl_uncore_init" }, { 0x55, "skx_uncore_init" }, { 0x8e, "skl_uncore_init" },
	{ 0x9e, "skl_uncore_init" }, { 0xa6, "skl_uncore_init" }, { 0xa5, "skl_uncore_init" },
	{ 0x7e, "icl_uncore_init" }, { 0x9d, "icl_uncore_init" }, { 0x7d, "icl_uncore_init" },
	{ 0x6c, "icx_uncore_init" }, { 0x6a, "icx_uncore_init" }, { 0x8c, "tgl_l_uncore_init" },
	{ 0x8d, "tgl_uncore_init" }, { 0xa7, "rkl_uncore_init" }, { 0x97, "adl_uncore_init" },
	{ 0x9a, "adl_uncore_init" }, { 0xb7, "adl_uncore_init" }, { 0xba, "adl_uncore_init" },
	{ 0xbf, "adl_uncore_init" }, { 0xac, "mtl_uncore_init" }, { 0xaa, "mtl_uncore_init" },
	{ 0xc6, "mtl_uncore_init" }, { 0xb5, "mtl_uncore_init" }, { 0xc5, "mtl_uncore_init" },
	{ 0xbd, "lnl_uncore_init" }, { 0x8f, "spr_uncore_init" }, { 0xcf, "spr_uncore_init" },
	{ 0xad, "gnr_uncore_init" }, { 0xae, "gnr_uncore_init" }, { 0x86, "snr_uncore_init" },
	{ 0xbe, "adl_uncore_init" }, { 0xaf, "gnr_uncore_init" }, { 0xb6, "gnr_uncore_init" },
	{ 0xdd, "gnr_uncore_init" },
};

/* Linux 7.0's entry for Diamond Rapids (INTEL_DIAMONDRAPIDS_X, family 0x13 model 0x01: 6daf2c35b835), the one
 * model of another family the simulated kernel drives (platforms/dmr) */
#define DMR_FAMILY 0x13
#define DMR_MODEL 0x01

/* Clearwater Forest (INTEL_ATOM_DARKMONT_X) got its entry with b6ccddd6fe1f: Linux 6.13, 6.12.y from 6.12.8 */
#define CWF_MODEL 0xdd

/* Linux 6.12's init for family/model (every entry is family 6; with linux_6120, 6.12.0's, which has no CWF
 * entry), Linux 7.0's for DMR, or NULL: neither has it. */
static const char *linux_init(int family, int model, int linux_6120)
{
	if (family == DMR_FAMILY && model == DMR_MODEL)
		return "dmr_uncore_init";
	if (linux_6120 && family == 6 && model == CWF_MODEL)
		return NULL;
	for (size_t i = 0; family == 6 && i < sizeof(linux_612) / sizeof(linux_612[0]); i++)
		if (linux_612[i].model == model)
			return linux_612[i].init;
	return NULL;
}

/* What the driver does to the machine as it loads: Linux 7.0's dmr_uncore_init clears the compute dies' global
 * controls, frozen at power-on, with a write of 0 (uncore_mmio_global_init, the CBB domain's global_init,
 * b575fc0e3357) and never sets them again; the generic driver reads no MSR 0x710 and leaves them frozen. */
static void driver_loads(struct sim_kernel *k)
{
	struct sim *s = k->s;
	const char *own = linux_init(s->kind->family, s->kind->model, 0);
	if (k->generic || !own || strcmp(own, "dmr_uncore_init"))
		return;
	for (int i = 0; i < s->nmglob; i++)
		s->gfrz[s->mglob[i].scope] = s->gfrz_boot[s->mglob[i].scope] = 0; /* the state a session finds */
}

int sk_choose_driver(struct sim_kernel *k)
{
	const struct sim *s = k->s;
	const char *cpu = linux_init(s->family, s->model, k->linux_6120);
	const char *own = linux_init(s->kind->family, s->kind->model, 0);
	/* kernel=6.12.0 models what 6.12.0 had before 6.12.y's backports for the GNR family only */
	if (k->linux_6120 && (!own || strcmp(own, "gnr_uncore_init")))
		return uc_err("simulated kernel option kernel=6.12.0 is modelled for the machines of gnr_uncore_init (gnr, "
			      "srf, cwf), not for %s: leave it out (the simulated kernel is Linux 6.12.117's)", s->kind->name);
	if (k->generic >= 0) { /* generic=0: a kernel that drives this machine as its kind; 1: the generic driver */
		driver_loads(k);
		return 0;
	}
	if (!cpu) { /* uncore.c intel_uncore_init: no match, so discovery tables or nothing */
		k->generic = 1;
		return 0;
	}
	if (own && !strcmp(cpu, own)) {
		k->generic = 0;
		driver_loads(k);
		return 0;
	}
	return uc_err("the simulated %s machine reports CPU %d-%X, which Linux 6.12 drives with %s, a driver the "
		      "simulated kernel does not have: give generic=0 (a kernel that drives it as %s) or generic=1 (the "
		      "generic discovery driver)", s->kind->name, s->family, (unsigned)s->model, cpu, s->kind->name);
}
