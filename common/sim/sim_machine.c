/* The simulated machine: building its boxes and devices, faults, and what tests inspect. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include "sim.h"
#include "sim_disc.h"
#include "sim_devdma.h"
#include "util/error.h"
#include "sim_only.h"
#include "sim_numa.h"
/* A build with LeakSanitizer (in AddressSanitizer) scans the heap, stacks and globals for pointers, not a mapping
 * of one's own: the machine's state is one (sim_alloc), so it is named to it as a root. */
#if defined(__SANITIZE_ADDRESS__)
#define SIM_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_LSAN 1
#endif
#endif
#ifdef SIM_LSAN
#include <sanitizer/lsan_interface.h>
#endif

static int gstatus_any(const struct sim *s, int sock)
{
	for (int w = 0; w < SIM_MAX_GLOB_STATUS; w++)
		if (s->gstatus[sock][w])
			return 1;
	return 0;
}

int sim_changed_registers(struct sim *s, char *why, size_t len)
{
	int n = 0;
	if (why && len)
		why[0] = 0;
	sim_shared_in(s, NULL);
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i], *o = &s->snap[i];
		sim_shared_in(s, b);
		sim_box_advance(s, b);
		sim_shared_out(s, b);
		int diff = b->box_ctl != o->box_ctl || b->fixed_ctl != o->fixed_ctl || b->fixed.v != o->fixed.v ||
			   b->status != o->status || s->gfrz[sim_box_scope(s, b)] != s->gfrz_boot[sim_box_scope(s, b)] || gstatus_any(s, sim_box_scope(s, b)) ||
			   memcmp(b->ctl, o->ctl, sizeof(b->ctl)) || memcmp(b->filt, o->filt, sizeof(b->filt));
		for (int c = 0; c < SIM_MAX_CTR; c++)
			diff |= b->cnt[c].v != o->cnt[c].v;
		if (diff) {
			if (why && !n)
				snprintf(why, len, "%s %d socket %d", b->u->name, b->idx, b->socket);
			n++;
		}
	}
	sim_shared_out(s, NULL);
	return n;
}

/* Is word one of the comma-separated names of list ("a, b, c")? */
static int name_in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == wl && !strncmp(p, word, wl))
			return 1;
		p += l;
		p += strspn(p, ", ");
	}
	return 0;
}

/* missing:discovery:N: logical die N's discovery device (0x09A7, on NUMA node N) is not there. */
static int hide_table(struct sim *s, const char *kind, int die)
{
	int hit = 0;
	if (strcmp(kind, "missing"))
		return uc_err("simulator fault %s:discovery: only 'missing' applies to a discovery table", kind);
	for (int d = 0; d < s->ndevs; d++)
		if (s->devs[d].info.device == 0x09a7 && (die < 0 || s->devs[d].info.node == sim_node_of_scope(s, die)))
			s->devs[d].present = 0, hit++;
	return hit ? 0 : uc_err("simulator fault missing:discovery:%d: no such discovery table (logical dies 0..%d)",
				die, sim_scopes(s) - 1);
}

/* swapped:busmap: the UBox GIDNIDMAP of every bus names socket 0's node as group 1 and socket 1's as group 0,
 * so that whoever maps buses to sockets by it (Linux snbep_pci2phy_map_init, the library) swaps them. */
static int swap_busmap(struct sim *s, const char *kind)
{
	int hit = 0;
	if (strcmp(kind, "swapped"))
		return uc_err("simulator fault %s:busmap: only 'swapped' applies to the bus map", kind);
	for (int d = 0; s->ubox && s->nsockets * s->dies >= 2 && d < s->ndevs; d++) {
		uint32_t m;
		if (s->devs[d].info.device != s->ubox->devid)
			continue;
		memcpy(&m, s->devs[d].cfg + s->ubox->gidnidmap, 4);
		m = (m & ~0x3fu) | (m & 7) << 3 | (m >> 3 & 7); /* groups 0 and 1: bits 2:0 and 5:3 */
		memcpy(s->devs[d].cfg + s->ubox->gidnidmap, &m, 4);
		hit++;
	}
	return hit ? 0 : uc_err("simulator fault swapped:busmap: %s has no UBox bus map of two sockets", s->name);
}

/* missing: firmware hid the box, its traffic still flows (the workload model's channels and links stay as
 * built).  A PCI box's functions are gone; a discovered MSR or MMIO unit's table entry reads 0, which Linux
 * (uncore_insert_box_info: no unit control) and the library leave out.  A box the platform's own layout
 * places (the MSR boxes of the fixed platforms, ICX's MMIO channels) is listed nowhere: it cannot be hidden. */
static int hide_box(struct sim *s, struct sim_box *b)
{
	int hit = 0;
	for (int d = 0; d < s->ndevs; d++)
		if (s->devs[d].box == b)
			s->devs[d].present = 0, hit++;
	if (hit)
		return 0;
	if (b->disc_entry >= 0)
		return sim_disc_hide(s, b);
	return uc_err("simulator fault missing:%s:%d on sim:%s: %s boxes are %s registers the platform's own layout "
		      "places, which no PCI function or discovery table entry lists for firmware to hide (missing applies "
		      "to PCI boxes and to the units of discovery tables)", b->u->name, b->idx, s->name, b->u->name,
		      b->u->space == SIM_MMIO ? "MMIO" : "MSR");
}

/* swapped:stackmap[:N]: IIO stacks N and N+1 show each other's root bus (the kernel's uncore_iio_<n>/die<d>
 * and the simulator's answer, sim_iio_root_bus), their devices staying where they are: a wrong stack map. */
static int swap_stackmap(struct sim *s, const char *kind, int a, uint64_t from_ns)
{
	if (strcmp(kind, "swapped"))
		return uc_err("unknown simulator fault '%s:stackmap' (swapped:stackmap[:N])", kind);
	if (from_ns)
		return uc_err("simulator fault swapped:stackmap cannot be delayed (@SECONDS)");
	if (a < 0 || a + 1 >= sim_iio_stacks(s))
		return uc_err("simulator fault swapped:stackmap:%d: sim:%s has IIO stacks 0 to %d: N and N+1 must be two of "
			      "them", a, s->name, sim_iio_stacks(s) - 1);
	s->stack_swap = a + 1;
	return 0;
}

/* portmap: the box's free-running port counters each count the next port's traffic. */
static int has_port_counters(const struct sim_box *b)
{
	for (int k = 0; k < b->nfr; k++)
		if (!strncmp(b->u->fr[k].name, "bw_in_port", 10))
			return 1;
	return 0;
}

/* frhalf: the box's free-running counters count half of what they should (a controller's counter that sums
 * half its channels, or runs off a clock at half the rate), so that they and their general twins disagree:
 * the kind's rate, wrapped once for the machine, halves theirs. */
static double frhalf_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	double r = s->rate_unfaulted(s, b, ctl, ctr);
	return SIM_CTR_IS_FR(ctr) && b->fr_scale > 0 ? r * b->fr_scale : r;
}

int sim_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns)
{
	int hit = 0;
	sim_rate_changed(s); /* a fault can change what a box counts (portmap, onesched, tidless) */
	if (!strcmp(unit, "discovery"))
		return from_ns ? uc_err("simulator fault %s:discovery cannot be delayed (@SECONDS)", kind)
			       : hide_table(s, kind, idx);
	if (!strcmp(unit, "sncmap") || !strcmp(unit, "snc"))
		return from_ns ? uc_err("simulator fault %s:%s cannot be delayed (@SECONDS)", kind, unit)
			       : sim_snc_fault(s, kind, unit);
	if (!strncmp(unit, "uclk", 4) && (!unit[4] || unit[4] == '=')) /* the uncore clock's limits: sim_ufreq.c */
		return from_ns ? uc_err("simulator fault %s:uclk cannot be delayed (@SECONDS)", kind)
			       : sim_ufreq_fault(s, kind, unit + 4);
	if (!strcmp(unit, "busmap"))
		return from_ns ? uc_err("simulator fault %s:busmap cannot be delayed (@SECONDS)", kind)
			       : swap_busmap(s, kind);
	if (!strcmp(unit, "stackmap"))
		return swap_stackmap(s, kind, idx < 0 ? 1 : idx, from_ns);
	int dev = sim_dev_fault(s, kind, unit, from_ns); /* a device by its name: uncounted, frozen */
	if (dev)
		return dev < 0 ? -1 : 0;
	int energy = sim_rapl_fault(s, kind, unit, idx, from_ns); /* stuck:energy-pkg, badunit:rapl (sim_rapl.c) */
	if (energy)
		return energy < 0 ? -1 : 0;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (strcmp(b->u->name, unit) || (idx >= 0 && b->idx != idx))
			continue;
		hit++;
		b->fault_from_ns = from_ns;
		/* delayed: a box that was fine when programmed and fails while counting (what health watches) */
		if (from_ns && strcmp(kind, "eio") && strcmp(kind, "eacces") && strcmp(kind, "agent") &&
		    strcmp(kind, "borrow") && strcmp(kind, "allones") && strcmp(kind, "dead"))
			return uc_err("simulator fault %s cannot be delayed (@SECONDS): only eio, eacces, agent, borrow, allones "
				      "and dead can", kind);
		if (!strcmp(kind, "eio"))
			b->fault = EIO;
		else if (!strcmp(kind, "eacces"))
			b->fault = EACCES;
		else if (!strcmp(kind, "allones"))
			b->allones = 1;
		else if (!strcmp(kind, "dead"))
			b->dead = 1;
		else if (!strcmp(kind, "phantom")) /* 1e11 a second: more than any channel moves or clock ticks, yet */
			b->phantom = 1e11;          /* within what a counter can count (64 a cycle at 5 GHz) */
		else if (!strcmp(kind, "stuck")) { /* holds a value no reset gives: ever the same, never 0 */
			b->stuck = 1;
			for (int c = 0; c < SIM_MAX_CTR; c++)
				b->cnt[c].v = 0x5a5a5a5aull & uc_width_mask(b->width);
		} else if (!strcmp(kind, "narrow")) /* wraps at 32 bits, where the manuals give 44 or 48 */
			b->width = b->width > 32 ? 32 : b->width;
		else if (!strcmp(kind, "agent"))
			b->agent = 1;
		else if (!strcmp(kind, "borrow")) {
			b->agent = SIM_BORROW_DUE;
			sim_box_stale(b);
		}
		else if (!strcmp(kind, "tidless") && b->u->tid_en)
			b->tidless = 1;
		else if (!strcmp(kind, "tidless"))
			return uc_err("simulator fault tidless: %s %d has no thread-id filter", unit, b->idx);
		else if (!strcmp(kind, "portmap") && has_port_counters(b))
			b->port_skew = 1;
		else if (!strcmp(kind, "portmap"))
			return uc_err("simulator fault portmap: %s %d has no free-running port counters", unit, b->idx);
		else if (!strcmp(kind, "frhalf") && b->nfr) {
			b->fr_scale = 0.5;
			if (s->rate != frhalf_rate)
				s->rate_unfaulted = s->rate, s->rate = frhalf_rate;
		} else if (!strcmp(kind, "frhalf") && idx >= 0)
			return uc_err("simulator fault frhalf: %s %d has no free-running counters", unit, b->idx);
		else if (!strcmp(kind, "frhalf"))
			continue; /* every box of the unit: those with free-running counters */
		else if (!strcmp(kind, "missing")) {
			if (hide_box(s, b))
				return -1;
		} else if (s->kind->faults && name_in_list(s->kind->faults, kind)) {
			if (s->kind->fault(s, kind, b))
				return -1;
		} else
			return uc_err("unknown simulator fault '%s' on %s (eio, eacces, allones, missing, dead, phantom, stuck, narrow, "
				      "agent, borrow, portmap, frhalf, tidless%s%s; swapped:busmap, swapped:stackmap; uncounted or "
				      "frozen on a device by its name)", kind, s->name,
				      s->kind->faults ? ", " : "", s->kind->faults ? s->kind->faults : "");
	}
	if (!hit && idx < 0)
		return uc_err("simulator fault %s:%s: sim:%s has no %s box", kind, unit, s->name, unit);
	if (!hit)
		return uc_err("simulator fault: no %s box %d", unit, idx);
	return 0;
}

uint64_t sim_field(const struct sim_box *b, const char *name)
{
	for (int i = 0; i < b->u->nfld; i++) {
		const struct sim_fld *f = &b->u->fld[i];
		if (!strcmp(f->name, name))
			return (b->filt[f->reg] >> f->lo) & uc_width_mask(f->width);
	}
	return 0;
}

void sim_set_counter(struct sim *s, const char *unit, int socket, int idx, int ctr, uint64_t val)
{
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (!strcmp(b->u->name, unit) && b->socket == socket && b->idx == idx) {
			sim_shared_in(s, b);
			sim_box_advance(s, b);
			if (ctr < 0)
				b->fixed.v = val & uc_width_mask(b->u->fixed_width);
			else
				b->cnt[ctr].v = val & uc_width_mask(b->width);
			sim_shared_out(s, b);
		}
	}
}

struct sim_box *sim_add_box(struct sim *s, const struct sim_unit *u, int socket, int idx)
{
	struct sim_box *b;
	if (s->nboxes == SIM_MAX_BOXES)
		return NULL;
	b = &s->boxes[s->nboxes++];
	memset(b, 0, sizeof(*b));
	b->u = u;
	b->socket = socket;
	b->die = s->build_die;
	b->idx = idx;
	b->base = u->box_offs ? u->box_offs[idx] : (uint64_t)idx * u->box_stride;
	b->width = u->width;
	b->disc_entry = -1;
	b->gsp = -1;
	/* leftovers of an earlier user, so that "restored on close" means something */
	for (int c = 0; c < u->nctr; c++)
		b->cnt[c].v = (0x1000ull * (uint64_t)(s->nboxes) + (uint64_t)c * 7) & uc_width_mask(u->width);
	for (int f = 0; f < u->nfilt; f++) /* the lowest implemented bit: an earlier user's setting */
		b->filt[f] = u->filt[f].writable & (~u->filt[f].writable + 1);
	b->fixed.v = 0x5555;
	return b;
}

int sim_put_cfg32(struct sim_dev *d, uint32_t off, uint32_t v)
{
	if (!d)
		return uc_err("simulator: more than %d PCI functions", SIM_MAX_DEVS);
	memcpy(d->cfg + off, &v, 4);
	return 0;
}

uint64_t sim_cha_capid(int chas, int slots)
{
	uint64_t m = 0;
	slots = slots < 1 ? 1 : slots > 64 ? 64 : slots;
	for (int i = 0, k = 0; k < chas && k < slots; i++) /* the even slots, then the odd ones */
		if (!(m >> (i % slots) & 1) && (i >= slots || i % 2 == 0)) {
			m |= 1ull << (i % slots);
			k++;
		}
	return m;
}

int sim_place_functions(struct sim *s, int sock, int bus0, const struct sim_bus_place *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sim_unit *u = sim_unit_named(s, p[i].unit);
		struct sim_box *b = u ? sim_add_box(s, u, sock, p[i].idx) : NULL;
		struct sim_dev *d = b ? sim_add_dev(s, bus0 + p[i].bus, p[i].dev, p[i].fn, u->ids[p[i].idx]) : NULL;
		if (!d)
			return uc_err("simulator: too many boxes or devices");
		d->box = b;
	}
	return 0;
}

int sim_ncu_pmon_config(struct sim *s, int chas)
{
	if (s->nromsr == SIM_MAX_ROMSR)
		return uc_err("simulator: too many read-only MSRs");
	s->romsr[s->nromsr].addr = SIM_MSR_NCU_PMON_CONFIG;
	s->romsr[s->nromsr].val = (uint64_t)chas & 0x3f;
	s->romsr[s->nromsr++].step = 0;
	return 0;
}

int sim_ubox_node_device(struct sim *s, int bus, int dev, int fn, uint32_t node, uint32_t gidnidmap)
{
	struct sim_dev *d = sim_add_dev(s, bus, dev, fn, s->ubox->devid);
	return sim_put_cfg32(d, s->ubox->cpunodeid, node) || sim_put_cfg32(d, s->ubox->gidnidmap, gidnidmap) ? -1 : 0;
}

const struct sim_unit *sim_unit_named(const struct sim *s, const char *name)
{
	for (int i = 0; i < s->nunits; i++)
		if (!strcmp(s->units[i].name, name))
			return &s->units[i];
	return NULL;
}

struct sim_dev *sim_add_dev(struct sim *s, int bus, int dev, int fn, uint16_t id)
{
	struct sim_dev *d;
	if (s->ndevs == SIM_MAX_DEVS)
		return NULL;
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	d->info.loc = (struct pci_loc){ 0, bus, dev, fn };
	d->info.vendor = UC_PCI_VENDOR_INTEL;
	d->info.device = id;
	d->info.node = -1;
	d->present = 1;
	d->cfg[0] = 0x86;
	d->cfg[1] = 0x80;
	d->cfg[2] = (uint8_t)id;
	d->cfg[3] = (uint8_t)(id >> 8);
	return d;
}

long sim_cpu_die_id(const struct sim *s, int cpu)
{
	int scope = cpu / s->cores, width = 0;
	while ((1 << width) < s->dies) /* the die field of the APIC id: enough bits for the dies */
		width++;
	return (long)(scope / s->dies) << width | (scope % s->dies);
}

/* The machine's state is sized for the largest machine (SIM_MAX_BOXES boxes and their snapshot, about 6 MB)
 * and a machine uses a few hundred boxes: mapped, it is zero pages until touched, where clearing it cost every
 * open the whole 6 MB (most of a test's page faults; under AddressSanitizer a map and unmap each time too).
 * Page-aligned, as its boxes need (each starts a cache line). */
struct sim *sim_alloc(void)
{
	void *p = mmap(NULL, sizeof(struct sim), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef SIM_LSAN /* the machine's pointers (its maps, tables, blobs) are found there: not leaks */
	__lsan_register_root_region(p, sizeof(struct sim));
#endif
	return p;
}

/* Everything a machine holds, and the machine (s may be partly built). */
void sim_free(struct sim *s)
{
	if (!s)
		return;
	sim_shared_close(s);
	for (int i = 0; i < s->nblobs; i++) /* discovery tables */
		free(s->blobs[i].data);
	free(s->map);
	free(s->msr_tab);
#ifdef SIM_LSAN
	__lsan_unregister_root_region(s, sizeof(*s));
#endif
	munmap(s, sizeof(*s));
}
