/*
 * replay:FILE[,simulator options] (doc/snapshot.md): a node's snapshot run here.  The archive's members are
 * read into memory (util/tarball.c checks each as it would unpacking it; nothing is written anywhere); the
 * host, its PCI devices and its perf tree are read from them as from the node's own sysfs, and every register read that
 * is not a PMON register (bus maps, capabilities, discovery tables) gets the node's bytes.  The PMON
 * registers are the simulator's: a machine of the platform the snapshot's CPU is, with the node's sockets,
 * dies and cores, whose rate model gives the counts.  A box the node's tables or devices name at a place
 * the simulated machine has no register reads as nothing there (zeros) and refuses writes, as a part whose
 * firmware lists a unit it does not have.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "platform/platform.h"
#include "sim/sim.h"
#include "sim/sim_rapl.h"
#include "replay_units.h"
#include "sim_replay.h"
#include "util/error.h"
#include "util/memfs.h"
#include "util/tarball.h"

/* What an archive may hold: the largest real snapshot is a few MB (a PCI config file is 4 KB, a discovery
 * table a few KB; a 2-socket machine has some hundred uncore devices and a thousand sysfs files). */
static const struct tarball_limits replay_limits = { .max_member = 1u << 20, .max_total = 64u << 20, .max_members = 65536 };

/* A node's PCI function whose PMON registers are the simulated machine's function of the same device id on
 * the same socket, at another place (real firmware puts an IVB-EP's uncore on buses 3f and 7f, the
 * simulator on ff and 7f; its iMC at 10.4 where the simulator has 0f.2). */
struct pci_alias {
	struct pci_loc node, sim;
};

struct replay {
	struct replay_node nd;
	struct memfs node; /* the node's files, read once at open (replay_files.c) */
	int owns; /* closes the simulated machine (a->inner) with itself; else the simulated kernel does */
	struct pci_alias *alias;
	int nalias;
	struct unit_aliases units; /* the node's discovery units the simulated machine has elsewhere (replay_units.c) */
};

static struct replay *rp(struct access *a) { return a->priv; }
static struct sim *sim(struct access *a) { return a->inner->priv; }

/* The simulator's access reads where the handle's thread is, and what it costs is the handle's. */
static struct access *in(struct access *a)
{
	a->inner->here = a->here;
	a->inner->home = a->home;
	a->inner->place_ok = a->place_ok;
	a->inner->batch_ok = a->batch_ok;
	return a->inner;
}
static int pass_back(struct access *a, int rc) /* the inner access's stats handed out */
{
	struct uncore_stats *f = &a->inner->stats, *t = &a->stats;
	t->reads += f->reads, t->writes += f->writes, t->syscalls += f->syscalls, t->remote_reads += f->remote_reads;
	t->batches += f->batches, t->migrations += f->migrations, t->modelled_ns += f->modelled_ns;
	memset(f, 0, sizeof(*f));
	return rc;
}

/* ---- what the simulated machine has a register for ---- */

static int sim_msr(struct sim *s, int cpu, uint32_t reg)
{
	if (cpu < 0 || cpu / s->cores >= sim_scopes(s))
		return 0;
	const struct sim_global *g = s->glob;
	if (g && (reg == g->ctl || (reg >= g->status && reg < g->status + (uint32_t)g->status_regs)))
		return 1;
	for (int i = 0; i < s->nromsr; i++)
		if (s->romsr[i].addr == reg)
			return 1;
	int kind, idx;
	return sim_map_get(s, sim_reg_key(SIM_MSR, (unsigned)(cpu / s->cores), reg), &kind, &idx) != NULL;
}

/* The simulated machine's function of a PMON box at l, -1 where it has none. */
static int sim_pci_dev(const struct sim *s, const struct pci_loc *l)
{
	for (int i = 0; i < s->ndevs; i++)
		if (s->devs[i].present && s->devs[i].box && !memcmp(&s->devs[i].info.loc, l, sizeof(*l)))
			return i;
	return -1;
}

/* Where the simulated machine has the registers of the node's function at l: its own place, or that of its
 * alias (pci_aliases). */
static const struct pci_loc *sim_loc(struct access *a, const struct pci_loc *l)
{
	for (int i = 0; i < rp(a)->nalias; i++)
		if (!memcmp(&rp(a)->alias[i].node, l, sizeof(*l)))
			return &rp(a)->alias[i].sim;
	return l;
}

/* Each node function of a PMON device id that the simulated machine has elsewhere: the simulated function of
 * that id on the socket of the function's NUMA node (as the node's sysfs gives it, independent of the bus map
 * the library reads), the one at the same device and function where ids repeat.  Without a NUMA node, or
 * where the simulated machine has no such function, the function stays where it is (reads as zeros). */
static int pci_aliases(struct replay *r, struct sim *s)
{
	struct pci_devinfo *devs = NULL;
	int n = 0;
	if (!memfs_find(&r->nd.snap, "/sys/bus/pci/devices")) /* a node without PCI devices (Nehalem, Itanium) */
		return 0;
	if (pci_list_tree(&r->nd.snap, &devs, &n))
		return -1;
	for (int i = 0; i < n; i++) {
		const struct pci_devinfo *d = &devs[i];
		int nd = d->node, best = -1;
		if (sim_pci_dev(s, &d->loc) >= 0 || nd < 0 || nd >= UC_MAX_NODES || r->nd.host.node_die[nd] < 0)
			continue;
		int sock = r->nd.host.node_die[nd] / UC_MAX_DIES;
		for (int k = 0; k < s->ndevs; k++) {
			const struct sim_dev *sd = &s->devs[k];
			if (!sd->present || !sd->box || sd->info.device != d->device || sd->info.vendor != d->vendor ||
			    sd->box->socket != sock)
				continue;
			if (best < 0 || (sd->info.loc.dev == d->loc.dev && sd->info.loc.fn == d->loc.fn))
				best = k;
		}
		if (best < 0)
			continue;
		struct pci_alias *na = realloc(r->alias, (size_t)(r->nalias + 1) * sizeof(*na));
		if (!na) {
			free(devs);
			return uc_err("out of memory");
		}
		r->alias = na;
		r->alias[r->nalias++] = (struct pci_alias){ .node = d->loc, .sim = s->devs[best].info.loc };
	}
	free(devs);
	return 0;
}

static int sim_pci(struct sim *s, const struct pci_loc *l, uint32_t off)
{
	for (int i = 0; i < s->ndevs; i++) {
		const struct sim_dev *d = &s->devs[i];
		int kind, idx;
		if (d->present && !memcmp(&d->info.loc, l, sizeof(*l)))
			return d->box && sim_map_get(s, sim_reg_key(SIM_PCI, (unsigned)i + 1, off), &kind, &idx) != NULL;
	}
	return 0;
}

static int sim_mmio(struct sim *s, uint64_t phys)
{
	int kind, idx;
	return sim_map_get(s, sim_reg_key(SIM_MMIO, 0, phys), &kind, &idx) != NULL;
}

/* ---- the node's bytes ---- */

/* The snapshot's regular file of the member name, or NULL. */
static const struct memfs_file *member_of(const struct memfs *snap, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "/%s", name);
	const struct memfs_file *f = memfs_find(snap, path);
	return f && !f->dir && !f->link ? f : NULL;
}

/* len bytes at off of the archive's member name: 0, 1 when it has no such bytes. */
static int node_bytes(struct access *a, const char *name, uint64_t off, void *buf, size_t len)
{
	const struct memfs_file *f = member_of(&rp(a)->nd.snap, name);
	if (!f || off > f->len || len > f->len - off)
		return 1;
	memcpy(buf, f->text + off, len);
	return 0;
}

static int rp_host(struct access *a, struct host_info *h)
{
	*h = rp(a)->nd.host;
	return 0;
}

static int rp_pci_list(struct access *a, struct pci_devinfo **out, int *n)
{
	return pci_list_tree(&rp(a)->nd.snap, out, n);
}

/* The simulated machine's CPU of the node's: the same die and core (it has one thread a core, numbered die by
 * die, socket by socket), whatever the node's numbering (a hyperthread, sockets interleaved). */
static int sim_cpu(struct access *a, int cpu)
{
	const struct host_info *h = &rp(a)->nd.host;
	const struct sim *s = sim(a);
	if (cpu < 0 || cpu >= UC_MAX_CPUS || h->cpu_socket[cpu] < 0)
		return cpu;
	int die = h->cpu_die[cpu] > 0 ? h->cpu_die[cpu] : 0, core = h->cpu_core[cpu] > 0 ? h->cpu_core[cpu] : 0;
	return (h->cpu_socket[cpu] * s->dies + die) * s->cores + core % s->cores;
}

/* The simulated machine's MSR of the node's reg on the simulated CPU sc: reg, or where an aliased unit has it */
static uint32_t sim_reg(struct access *a, int sc, uint32_t reg)
{
	uint32_t to;
	return sc >= 0 && unit_alias_msr(&rp(a)->units, sc / sim(a)->cores, reg, &to) ? to : reg;
}

static int rp_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	int sc = sim_cpu(a, cpu);
	uint32_t sr = sim_reg(a, sc, reg);
	if (sim_msr(sim(a), sc, sr))
		return pass_back(a, in(a)->ops->msr_read(a->inner, sc, sr, val));
	char name[64], text[32], *end;
	snprintf(name, sizeof(name), "msr/cpu%d/%#x", cpu, reg);
	memset(text, 0, sizeof(text));
	const struct memfs_file *f = member_of(&rp(a)->nd.snap, name);
	if (!f || !f->len || f->len >= sizeof(text) || node_bytes(a, name, 0, text, f->len))
		return uc_err("MSR 0x%x on CPU %d: I/O error (not in the snapshot, and no PMON register of the simulated "
			      "machine)", reg, cpu);
	*val = strtoull(text, &end, 0);
	return 0;
}

static int rp_msr_read_batch(struct access *a, int cpu, const uint32_t *regs, int n, uint64_t *vals, uint64_t *at)
{
	uint32_t sr[256];
	int sc = sim_cpu(a, cpu);
	if (n > (int)(sizeof(sr) / sizeof(sr[0])))
		return -1; /* each read alone then */
	for (int i = 0; i < n; i++)
		if (!sim_msr(sim(a), sc, sr[i] = sim_reg(a, sc, regs[i])))
			return -1; /* each read alone then, each saying its own error */
	return pass_back(a, in(a)->ops->msr_read_batch(a->inner, sc, sr, n, vals, at));
}

static int rp_pci_read(struct access *a, const struct pci_loc *l, uint32_t off, void *buf, size_t len)
{
	char name[96];
	snprintf(name, sizeof(name), "sys/bus/pci/devices/%04x:%02x:%02x.%x/config", (unsigned)l->dom, (unsigned)l->bus,
		 (unsigned)l->dev, (unsigned)l->fn);
	const struct pci_loc *sl = sim_loc(a, l);
	for (size_t k = 0; k < len; k += 4) {
		uint32_t o = off + (uint32_t)k, v = 0, uo;
		struct pci_loc ul;
		if (unit_alias_pci(&rp(a)->units, l, o, &ul, &uo) && sim_pci(sim(a), &ul, uo)) {
			if (pass_back(a, in(a)->ops->pci_read(a->inner, &ul, uo, &v, 4)))
				return -1;
		} else if (sim_pci(sim(a), sl, o)) {
			if (pass_back(a, in(a)->ops->pci_read(a->inner, sl, o, &v, 4)))
				return -1;
		} else if (node_bytes(a, name, o, &v, 4)) {
			v = 0; /* a byte the node's discovery did not read: nothing of ours depends on it */
			if (!member_of(&rp(a)->nd.snap, name))
				return uc_err("reading PCI config space %04x:%02x:%02x.%d offset 0x%x: the device's configuration "
					      "is not in the snapshot", l->dom, l->bus, l->dev, l->fn, o);
		}
		memcpy((uint8_t *)buf + k, &v, 4);
	}
	a->stats.syscalls++;
	return 0;
}

/* The snapshot's MMIO members are mmio/<phys, 16 hex digits>: fn(arg, its address, its file) for each, until fn
 * returns nonzero. */
struct mmio_walk {
	const struct memfs *snap;
	int (*fn)(void *arg, uint64_t base, const struct memfs_file *f);
	void *arg;
};
static int mmio_member(void *arg, const char *name)
{
	const struct mmio_walk *w = arg;
	char *end, path[300];
	uint64_t base = strtoull(name, &end, 16);
	if (*end || end == name)
		return 0;
	snprintf(path, sizeof(path), "mmio/%s", name);
	const struct memfs_file *f = member_of(w->snap, path);
	return f ? w->fn(w->arg, base, f) : 0;
}
static void mmio_members(const struct memfs *snap, int (*fn)(void *arg, uint64_t base, const struct memfs_file *f),
			 void *arg)
{
	struct mmio_walk w = { snap, fn, arg };
	memfs_list(snap, "/mmio", mmio_member, &w);
}

/* The member whose range holds [phys, phys + len): its bytes into buf */
struct mmio_read {
	uint64_t phys;
	void *buf;
	size_t len;
	int found;
};
static int mmio_bytes(void *arg, uint64_t base, const struct memfs_file *f)
{
	struct mmio_read *m = arg;
	if (m->phys < base || m->phys - base > f->len || m->len > f->len - (m->phys - base))
		return 0;
	memcpy(m->buf, f->text + (m->phys - base), m->len);
	return m->found = 1;
}
static int node_mmio(struct access *a, uint64_t phys, void *buf, size_t len)
{
	struct mmio_read m = { phys, buf, len, 0 };
	mmio_members(&rp(a)->nd.snap, mmio_bytes, &m);
	return m.found ? 0 : 1;
}

static int rp_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	uint64_t to;
	if ((len == 4 || len == 8) && unit_alias_mmio(&rp(a)->units, phys, &to) && sim_mmio(sim(a), to))
		return pass_back(a, in(a)->ops->mmio_read(a->inner, to, buf, len));
	if ((len == 4 || len == 8) && sim_mmio(sim(a), phys))
		return pass_back(a, in(a)->ops->mmio_read(a->inner, phys, buf, len));
	if (!node_mmio(a, phys, buf, len))
		return 0;
	if (len == 4 || len == 8) { /* a register the node's table names where the simulated part has none */
		memset(buf, 0, len);
		return 0;
	}
	return uc_err("MMIO 0x%llx (%zu bytes): not in the snapshot (a discovery table that points outside what "
		      "was taken)", (unsigned long long)phys, len);
}

static int refuse(const char *what, uint64_t addr)
{
	return uc_err("%s 0x%llx: no PMON register of the simulated machine there (the node's tables name it; the "
		      "replay writes only the simulator's registers)", what, (unsigned long long)addr);
}
static int rp_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	int sc = sim_cpu(a, cpu);
	uint32_t sr = sim_reg(a, sc, reg);
	return sim_msr(sim(a), sc, sr) ? pass_back(a, in(a)->ops->msr_write(a->inner, sc, sr, val)) : refuse("MSR", reg);
}
static int rp_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val)
{
	const struct pci_loc *sl = sim_loc(a, l);
	struct pci_loc ul;
	uint32_t uo;
	if (unit_alias_pci(&rp(a)->units, l, off, &ul, &uo) && sim_pci(sim(a), &ul, uo))
		return pass_back(a, in(a)->ops->pci_write32(a->inner, &ul, uo, val));
	return sim_pci(sim(a), sl, off) ? pass_back(a, in(a)->ops->pci_write32(a->inner, sl, off, val)) : refuse("PCI config offset", off);
}
static int rp_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	uint64_t to;
	if (unit_alias_mmio(&rp(a)->units, phys, &to) && sim_mmio(sim(a), to))
		return pass_back(a, in(a)->ops->mmio_write(a->inner, to, val, bytes));
	return sim_mmio(sim(a), phys) ? pass_back(a, in(a)->ops->mmio_write(a->inner, phys, val, bytes)) : refuse("MMIO", phys);
}
static int rp_sleep_ns(struct access *a, uint64_t ns) { return a->inner->ops->sleep_ns(a->inner, ns); }
static uint64_t rp_now_ns(struct access *a) { return a->inner->ops->now_ns(a->inner); }

static uint64_t rp_hold_clock(struct access *a, int on) { return access_clock_hold_on(a->inner, on); }

/* The node's files, with what the simulated machine's workload makes of its own: powercap's energy, counted
 * by the simulator's RAPL model (a snapshot keeps no counter), and the jobs the simulator is told to run
 * (their spool, cgroups, gres.conf, GPUs).  The node's PCI tree, NUMA nodes and clock limits are its own. */
static int rp_files(struct access *a, struct memfs *m)
{
	return sim_rapl_sysfs(sim(a), m) || sim_jobs_files(sim(a), m) || memfs_put_all(m, &rp(a)->node)
		       ? uc_err("out of memory") : 0;
}

/* The drive is the simulated machine's, but for its IIO stacks: the node's are in its files (the kernel's
 * attributes, its registers, the MSR its snapshot kept), not the simulated machine's. */
static const struct access_drive *under(struct access *a) { return a->inner->ops->drive; }
static int rd_traffic(struct access *a, int socket, double read_bps, double write_bps)
{
	return under(a)->traffic(a->inner, socket, read_bps, write_bps);
}
static int rd_workload(struct access *a, int socket, double read_bytes, double write_bytes, uint64_t ns)
{
	return under(a)->workload(a->inner, socket, read_bytes, write_bytes, ns);
}
static int rd_workload_on(struct access *a, int socket, const char *memory, double read_bytes, double write_bytes,
			  uint64_t ns)
{
	return under(a)->workload_on(a->inner, socket, memory, read_bytes, write_bytes, ns);
}
/* The CPU sets are the machine's jobs: the replay's files hold their spool and cgroups. */
static int rd_workload_cpus(struct access *a, int n, const uint8_t *const *sets, const double *read_bytes,
			    const double *write_bytes, uint64_t ns)
{
	return under(a)->workload_cpus(a->inner, n, sets, read_bytes, write_bytes, ns) || access_files_refresh(a) ? -1 : 0;
}
static int rd_mbm_bytes(struct access *a, int socket, uint64_t *bytes) { return under(a)->mbm_bytes(a->inner, socket, bytes); }
static int rd_iio_stacks(struct access *a, int *nsockets, int *dies)
{
	(void)a;
	*nsockets = *dies = 0;
	return 0;
}
static int rd_iio_root_bus(struct access *a, int socket, int die, int stack)
{
	(void)a, (void)socket, (void)die, (void)stack;
	return -1;
}
static const struct access_drive replay_drive = {
	.traffic = rd_traffic,
	.workload = rd_workload,
	.workload_on = rd_workload_on,
	.workload_cpus = rd_workload_cpus,
	.mbm_bytes = rd_mbm_bytes,
	.iio_stacks = rd_iio_stacks,
	.iio_root_bus = rd_iio_root_bus,
};

static void rp_close(struct access *a)
{
	struct replay *r = rp(a);
	access_files_free(a); /* its powercap files read the machine */
	if (r->owns)
		a->inner->ops->close(a->inner);
	replay_node_free(&r->nd);
	memfs_free(&r->node);
	free(r->alias);
	unit_aliases_free(&r->units);
	free(r);
	free(a);
}

static const struct access_ops replay_ops = {
	.name = "replay",
	.host = rp_host,
	.msr_read = rp_msr_read,
	.msr_write = rp_msr_write,
	.pci_read = rp_pci_read,
	.pci_write32 = rp_pci_write32,
	.pci_list = rp_pci_list,
	.mmio_read = rp_mmio_read,
	.mmio_write = rp_mmio_write,
	.msr_read_batch = rp_msr_read_batch,
	.sleep_ns = rp_sleep_ns,
	.now_ns = rp_now_ns,
	.hold_clock = rp_hold_clock,
	.close = rp_close,
	.files = rp_files,
	.drive = &replay_drive,
};

/* The simulated platform of the node's CPU: its family and model, the stepping nearest below (Skylake-SP
 * and Cascade Lake share a model). */
static const struct sim_kind *kind_of(const struct host_info *h)
{
	const struct sim_kind *best = NULL;
	for (int i = 0; sim_kinds[i]; i++) {
		const struct sim_kind *k = sim_kinds[i];
		if (k->family != h->family || k->model != h->model)
			continue;
		if (!best || (k->stepping <= h->stepping && (best->stepping > h->stepping || k->stepping > best->stepping)))
			best = k;
	}
	return best;
}

/* The spec of kind's machine with the node's shape (the machine whole: a socket with a die offline has fewer
 * dies online; the fullest socket says what one has), the CPU id the node's, then opts. */
static int machine_spec(struct replay_node *nd, const struct sim_kind *k, const char *opts)
{
	const struct host_info *h = &nd->host;
	int full = 0;
	for (int sk = 1; sk < h->nsockets; sk++)
		full = h->socket_dies[sk] > h->socket_dies[full] ? sk : full;
	int dies = h->socket_dies[full] > 0 ? h->socket_dies[full] : 1, cores = h->socket_cores[full] / dies;
	int len = snprintf(nd->simspec, sizeof(nd->simspec), "%s,sockets=%d,cpu=%d-%x-%x", k->name, h->nsockets,
			   h->family, (unsigned)h->model, (unsigned)h->stepping);
	if (dies > 1)
		len += snprintf(nd->simspec + len, sizeof(nd->simspec) - (size_t)len, ",dies=%d", dies);
	if (cores != k->cores && cores > 0)
		len += snprintf(nd->simspec + len, sizeof(nd->simspec) - (size_t)len, ",cores=%d", cores);
	snprintf(nd->simspec + len, sizeof(nd->simspec) - (size_t)len, "%s", opts);
	nd->kind = k->name;
	return 0;
}

/* The node's NUMA shape as the simulator's options, after opts unless they name it (doc/numa.md): snc=N where its
 * first die holds N nodes with CPUs (sub-NUMA clustering), and its memory-only nodes as the platform has them
 * (Granite Rapids' CXL memory: cxl=1; Xeon Max's HBM in flat mode, a node beside each with CPUs: hbm=flat), so
 * that the simulated machine's
 * channels serve the nodes the snapshot's files show. */
static void numa_options(const struct replay_node *nd, const struct sim_kind *k, char *opts, size_t len)
{
	int per_die = 0, memonly = 0, cpu_nodes = 0;
	size_t o = strlen(opts);
	for (int n = 0; n < UC_MAX_NODES; n++) {
		char p[100];
		snprintf(p, sizeof(p), "/sys/devices/system/node/node%d/cpulist", n);
		per_die += nd->host.node_die[n] == 0;
		cpu_nodes += nd->host.node_die[n] >= 0;
		/* a node whose cpulist names no CPU (an empty line: host_sysfs.c leaves its die unknown) */
		memonly += nd->host.node_die[n] < 0 && memfs_find(&nd->snap, p);
	}
	if (per_die > 1 && !strstr(opts, ",snc="))
		o += (size_t)snprintf(opts + o, o < len ? len - o : 0, ",snc=%d", per_die);
	/* a memory-only node is CXL memory where the kind models it (Granite Rapids), HBM in flat mode where it
	 * models HBM (Xeon Max: an HBM node beside each node with CPUs) */
	if (memonly && sim_kind_takes(k, "cxl") && !strstr(opts, ",cxl="))
		o += (size_t)snprintf(opts + o, o < len ? len - o : 0, ",cxl=1");
	if (memonly && memonly == cpu_nodes && sim_kind_takes(k, "hbm") && !strstr(opts, ",hbm=")) /* an HBM node each */
		snprintf(opts + o, o < len ? len - o : 0, ",hbm=flat");
}

/* The node's memory population as the simulator's options (doc/memory.md), after opts unless they name it: dimms=
 * from the population the snapshot recorded as the library read it from the node's EDAC tree
 * (memory_population.txt, common/snapshot/snap_memory.c: "S BOXES HBM" a socket), so that the simulated traffic
 * moves on the node's populated channels alone, and hbm=only where EDAC lists HBM and no DDR DIMM (hbm=cache where
 * it lists both and no HBM node was seen).  Nothing where the snapshot holds no record or leaves a channel of the
 * board unknown: the board's own population moves the traffic then (the channels a real board of the part
 * populates), which the library, reading the snapshot, does not take for the node's: it says it is unknown. */
static void pop_options(const struct replay_node *nd, const struct sim_kind *k, char *opts, size_t len)
{
	const struct sim_mem_board *b = k->mem;
	const struct memfs_file *f = memfs_find(&nd->snap, "/memory_population.txt");
	char d[sizeof(((struct sim *)0)->dimms_opt)], line[256];
	size_t n = 0, o = strlen(opts), at = 0;
	int ok = 1, ddr = 0, hbm = 0;
	if (!b || !f || f->dir || f->link || !f->text || strstr(opts, ",dimms="))
		return;
	for (int sk = 0; sk < nd->host.nsockets && sk < UC_MAX_SOCKETS && ok; sk++) {
		size_t e = at;
		int s = -1, h = -1;
		char boxes[sizeof(line)];
		while (e < f->len && f->text[e] != '\n')
			e++;
		if (e - at >= sizeof(line)) {
			ok = 0; /* a record this replay cannot read: the board's */
			break;
		}
		memcpy(line, f->text + at, e - at);
		line[e - at] = 0;
		if (sscanf(line, "%d %255s %d", &s, boxes, &h) != 3 || s != sk || h < 0) {
			ok = 0; /* a record this replay cannot read: the board's */
			break;
		}
		at = e + 1;
		if (sk && n + 1 < sizeof(d))
			d[n++] = '/';
		for (int box = 0; b->dimms[box] && box < (int)sizeof(boxes) && ok; box++) {
			char c = box < (int)strlen(boxes) ? boxes[box] : '?';
			if (b->dimms[box] == '-') /* no channel of the board */
				continue;
			int v = c >= '0' && c <= '9' ? c - '0' : 0;
			if (v > b->slots)
				v = b->slots;
			if ((ok = (c == '-' || (c >= '0' && c <= '9')) && n + 1 < sizeof(d)))
				d[n++] = (char)('0' + v);
			ddr += v;
		}
		hbm += h;
	}
	d[n] = 0;
	if (!ok) /* the node's population unknown: the board's (traffic on the channels a real board of the part has) */
		return;
	int hbm_opt = hbm && sim_kind_takes(k, "hbm") && !strstr(opts, ",hbm=");
	if (hbm_opt && !ddr)
		snprintf(opts + o, o < len ? len - o : 0, ",hbm=only");
	else
		snprintf(opts + o, o < len ? len - o : 0, ",dimms=%s%s", d, hbm_opt ? ",hbm=cache" : "");
}

/* Whether the machine of nd->simspec has the node's discovery tables: every mmio/<address> member of the
 * snapshot (what the discovery read of them) is the same bytes of one of its tables, and each of its tables
 * has such a member. */
struct same {
	const struct sim *s;
	int same, seen[SIM_MAX_BLOBS];
};
/* The member at base is the same bytes as a table of the machine's (0), or not (1: the walk stops) */
static int same_table(void *arg, uint64_t base, const struct memfs_file *f)
{
	struct same *c = arg;
	const struct sim *s = c->s;
	int b = -1;
	for (int i = 0; i < s->nblobs && b < 0; i++)
		if (base >= s->blobs[i].phys && base + (uint64_t)f->len <= s->blobs[i].phys + s->blobs[i].len)
			b = i;
	c->same = b >= 0 && !memcmp(f->text, s->blobs[b].data + (base - s->blobs[b].phys), f->len);
	if (c->same)
		c->seen[b] = 1;
	return !c->same;
}
static int same_tables(struct replay_node *nd)
{
	uint64_t mark = uc_warn_mark();
	struct access *a = access_sim_open(nd->simspec);
	if (!a) { /* a shape that kind cannot take (dies on a one-die part): not it, and its warnings unmade */
		uc_warn_rewind(mark);
		return 0;
	}
	struct same c = { .s = a->priv };
	c.same = c.s->nblobs > 0;
	if (c.same)
		mmio_members(&nd->snap, same_table, &c);
	for (int i = 0; i < c.s->nblobs && i < SIM_MAX_BLOBS; i++)
		c.same = c.same && c.seen[i];
	a->ops->close(a);
	return c.same;
}

/* signal_at=N:SIG (tests, doc/snapshot.md): the process sends itself SIG once N members are read (0: before
 * the first), or, where the archive has fewer, once it is read, before the machine is opened. */
struct signal_at {
	int at, sig, sent;
};
static void signal_at(void *arg, int members)
{
	struct signal_at *s = arg;
	if (s->sig && !s->sent && members >= s->at) {
		s->sent = 1;
		raise(s->sig);
	}
}

/* The simulator's options of spec's opts (",k=v,..."), in out; signal_at taken out of them into *s. */
static int replay_options(const char *opts, char *out, size_t len, struct signal_at *s)
{
	size_t o = 0;
	out[0] = 0;
	while (*opts == ',') {
		size_t n = strcspn(opts + 1, ",");
		int at, sig, used = 0;
		if (!strncmp(opts + 1, "signal_at=", 10)) {
			if (sscanf(opts + 11, "%d:%d%n", &at, &sig, &used) != 2 || used != (int)n - 10 || at < 0 || sig < 1 ||
			    sig > SIGRTMAX)
				return uc_err("replay: bad option '%.*s' (signal_at=MEMBERS:SIGNAL, a signal's number)", (int)n,
					      opts + 1);
			*s = (struct signal_at){ .at = at, .sig = sig };
		} else if (o + n + 1 < len) {
			memcpy(out + o, opts, n + 1);
			out[o += n + 1] = 0;
		}
		opts += n + 1;
	}
	return 0;
}

int replay_unpack(const char *spec, struct replay_node *nd)
{
	size_t n = strcspn(spec, ",");
	struct signal_at sig = { 0 };
	char opts[sizeof(nd->simspec)];
	memset(nd, 0, sizeof(*nd));
	if (!n || n >= sizeof(nd->file))
		return uc_err("replay: give the snapshot's file: replay:FILE[,simulator options]");
	memcpy(nd->file, spec, n);
	if (replay_options(spec + n, opts, sizeof(opts), &sig))
		return -1;
	struct stat st;
	if (!stat(nd->file, &st) && S_ISDIR(st.st_mode)) { /* a snapshot unpacked already (tar xf): read in place */
		if (replay_snap_dir(nd->file, &nd->snap))
			return uc_err_prefix("replay %s: ", nd->file);
	} else {
		struct tarball_limits lim = replay_limits;
		struct replay_take take = { &nd->snap, nd->file };
		lim.each = signal_at;
		lim.arg = &sig;
		signal_at(&sig, 0);
		if (tarball_read(nd->file, &lim, replay_snap_take, &take) || replay_snap_sort(&nd->snap))
			return uc_err_prefix("replay: ");
	}
	signal_at(&sig, INT_MAX);
	if (host_from_tree(&nd->snap, &nd->host))
		return uc_err_prefix("replay %s: the node's CPUs: ", nd->file);
	const struct host_info *h = &nd->host;
	const struct sim_kind *k = kind_of(h);
	if (k) {
		numa_options(nd, k, opts, sizeof(opts));
		pop_options(nd, k, opts, sizeof(opts));
	}
	if (k)
		return machine_spec(nd, k, opts);
	/* a CPU model we have no platform of (a new part, a variant): the simulated machine whose discovery
	 * tables are the node's, byte for byte, counts it as the node would (the library takes it generically) */
	for (int i = 0; sim_kinds[i] && !k; i++)
		if (!machine_spec(nd, sim_kinds[i], "") && same_tables(nd))
			k = sim_kinds[i];
	if (!k)
		return uc_err("replay %s: %s family %d model %d (0x%x) has no simulated platform, and no simulated machine "
			      "has its discovery tables: nothing here can count it", nd->file, h->vendor, h->family,
			      h->model, h->model);
	return machine_spec(nd, k, opts);
}

void replay_node_free(struct replay_node *nd) { memfs_free(&nd->snap); }

struct access *replay_access(struct replay_node *nd, struct access *sim_acc, int owns)
{
	struct replay *r = calloc(1, sizeof(*r));
	struct access *a = calloc(1, sizeof(*a));
	if (!r || !a) {
		free(r);
		free(a);
		uc_err("out of memory");
		return NULL;
	}
	r->nd = *nd;
	r->owns = owns;
	memset(&nd->snap, 0, sizeof(nd->snap)); /* the access's now */
	if (replay_node_files(&r->nd.snap, &r->node) || unit_aliases_build(&r->units, &r->nd.snap, sim_acc->priv) ||
	    pci_aliases(r, sim_acc->priv)) {
		uc_err_prefix("replay %s: ", r->nd.file);
		replay_node_free(&r->nd);
		memfs_free(&r->node);
		free(r->alias);
		unit_aliases_free(&r->units);
		free(r);
		free(a);
		return NULL;
	}
	a->ops = &replay_ops;
	a->priv = r;
	a->inner = sim_acc; /* sim_of() finds the simulator, for traffic and tests */
	a->simulated = 1;
	a->virtual_clock = sim_acc->virtual_clock;
	memcpy(a->claims, sim_acc->claims, sizeof(a->claims));
	return a;
}

struct access *access_replay_open(const char *spec)
{
	struct replay_node nd;
	struct access *sim = NULL, *a = NULL;
	if (replay_unpack(spec, &nd))
		goto fail;
	if (!(sim = access_sim_open(nd.simspec))) {
		uc_err_prefix("replay %s: the simulated %s machine: ", nd.file, nd.kind);
		goto fail;
	}
	if (!(a = replay_access(&nd, sim, 1)))
		goto fail;
	return a;
fail:
	if (sim)
		sim->ops->close(sim);
	replay_node_free(&nd);
	return NULL;
}
