/*
 * Which bits of a control word reach the register through a kernel PMU.  Linux's uncore_pmu_event_init
 * (uncore.c) keeps config & (event_mask | event_mask_ext << 32) and drops the rest without an error; the
 * type's enable_event then writes the whole word (wrmsrl; spr_uncore_pci_enable_event's two dwords) or bits
 * 31:0 alone (pci_write_config_dword, writel).  An event that needs a bit lost on the way would count another
 * event, so the perf backend refuses it, naming the qualifiers and why.
 */
#include <stdio.h>
#include <string.h>
#include "perf.h"
#include "util/error.h"

/* GENERIC_PMON_RAW_EVENT_MASK (uncore_discovery.h): what a type the driver does not name keeps */
#define GENERIC_RAW_MASK 0xff84ffffull

static int generic_pmu(const struct perf_pmu *p) { return !strncmp(p->name, "uncore_type_", 12); }

/* The generic discovery ops write 32 bits on PCI and MMIO (uncore_discovery.c uncore_update_uncore_type), as
 * do the named types' own ops there but spr_uncore_pci_ops.  A unit the library knows only by its PMU has no
 * known access: its formats alone decide. */
int perf_writes_dword(const struct box_type *t, int generic)
{
	return !t->kernel_places && t->space != UC_MSR && (generic || !t->perf_ctl_qword);
}

static int writes_dword(const struct box_type *t, const struct perf_pmu *p)
{
	return perf_writes_dword(t, generic_pmu(p));
}

static uint64_t event_mask(const struct box_type *t, const struct perf_pmu *p)
{
	return generic_pmu(p) ? GENERIC_RAW_MASK : t->perf_mask ? t->perf_mask : ~0ull;
}

void perf_name_bits(const struct box_type *t, uint64_t bits, char *buf, size_t len)
{
	static const char *const field[CR_NROLES] = { [CR_EVENT] = "the event select", [CR_UMASK] = "the umask",
		[CR_UMASK_EXT] = "the umask extension", [CR_EV_EXT] = "the extended event select bit",
		[CR_TID_EN] = "tid_en", [CR_OCC_SEL] = "occ_sel" };
	size_t n = 0;
	buf[0] = 0;
	for (int r = 0; r < CR_NROLES && n < len; r++)
		if (ctl_mask(t->lay, r) & bits)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      field[r] ? field[r] : ctl_roles[r].qualifier ? ctl_roles[r].qualifier : "a field");
	for (int i = 0; i < t->nfields && n < len; i++)
		if (t->fields[i].reg == UC_FIELD_CTL && (uc_width_mask(t->fields[i].width) << t->fields[i].lo) & bits)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", t->fields[i].name);
	if (!n)
		snprintf(buf, len, "bits 0x%llx", (unsigned long long)bits);
}

int perf_lost_bits(const struct box_type *t, const struct perf_pmu *p, uint64_t ctl, char *buf, size_t len)
{
	uint64_t mask = event_mask(t, p), outside = ctl & ~mask;
	uint64_t high = writes_dword(t, p) ? ctl & mask & ~0xffffffffull : 0;
	size_t n = 0;
	char what[160];
	buf[0] = 0;
	if (outside) {
		perf_name_bits(t, outside, what, sizeof(what));
		n += (size_t)snprintf(buf, len, "%s (bits 0x%llx: outside the driver's event mask, %s)", what,
				      (unsigned long long)outside,
				      generic_pmu(p) ? "GENERIC_PMON_RAW_EVENT_MASK" : "event_mask | event_mask_ext << 32");
	}
	if (high && n < len) {
		perf_name_bits(t, high, what, sizeof(what));
		snprintf(buf + n, len - n, "%s%s (bits 0x%llx: it writes bits 31:0 of config alone to the %s control, %s)",
			 n ? "; " : "", what, (unsigned long long)high, t->space == UC_PCI ? "PCI" : "MMIO",
			 t->space == UC_PCI ? "pci_write_config_dword" : "writel");
	}
	return (outside | high) != 0;
}

uint64_t perf_reachable(const struct box_type *t, const struct perf_pmu *p)
{
	return event_mask(t, p) & (writes_dword(t, p) ? 0xffffffffull : ~0ull);
}

/* The bits of word 0 the PMU's formats name. */
static uint64_t format_bits(const struct perf_pmu *p)
{
	uint64_t m = 0;
	for (int i = 0; i < p->nfmt; i++)
		for (int r = 0; !p->fmt[i].f.word && r < p->fmt[i].f.nranges; r++)
			m |= uc_width_mask(p->fmt[i].f.r[r].hi - p->fmt[i].f.r[r].lo + 1) << p->fmt[i].f.r[r].lo;
	return m;
}

int uncore_unit_perf_dropped(const uncore_t *u, int unit, char *buf, size_t len)
{
	if (unit < 0 || unit >= u->plat->ntypes)
		return uc_err("no unit %d", unit);
	const struct box_type *t = u->plat->types[unit];
	buf[0] = 0;
	/* free-running counters alone take no qualifier; a unit known by its PMU alone has the formats as its fields */
	for (int i = 0; u->perf && t->nctr && !t->kernel_places && i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->type_idx != unit || b->pmu < 0)
			continue;
		const struct perf_pmu *p = &u->perf->pmus[b->pmu];
		uint64_t user = 0; /* the bits a qualifier or field sets: not enable, reset, overflow or other bits */
		for (int r = 0; r < CR_NROLES; r++)
			user |= r == CR_RST || r == CR_OV_EN ? 0 : ctl_mask(t->lay, (enum ctl_role)r);
		for (int f = 0; f < t->nfields; f++)
			user |= t->fields[f].reg == UC_FIELD_CTL ? uc_width_mask(t->fields[f].width) << t->fields[f].lo : 0;
		user &= box_ctl_valid(t);
		uint64_t unnamed = user & ~format_bits(p);
		char what[160] = "", lost[400];
		size_t n = 0;
		if (unnamed) {
			perf_name_bits(t, unnamed, what, sizeof(what));
			n = (size_t)snprintf(buf, len, "%s (bits 0x%llx: no format names them)", what, (unsigned long long)unnamed);
		}
		if (perf_lost_bits(t, p, user & ~unnamed, lost, sizeof(lost)) && n < len)
			snprintf(buf + n, len - n, "%s%s", n ? "; " : "", lost);
		break;
	}
	return 0;
}
