/*
 * Safe on a shared machine: the claims file cannot be turned against the
 * library (links, other users' files, planted directories, forged records,
 * truncation, a held lock), every register write stays inside the PMON
 * registers of boxes this process programs, and a box another agent counts on
 * is left alone unless forced.  The simulator is the witness: it counts
 * accesses outside every modelled register and says which boxes changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "ref_row.h"
#include "session/claims.h"
#include "regs/pmon_regs.h"
#include "regs/write_guard.h"
#include "util/error.h"
#include "util/grow.h"

static char shm[300], claims_path[320], victim[320], group_path[340];

static void fresh(void)
{
	snprintf(shm, sizeof(shm), "%s/uncore-safety-%d", test_tmpdir(), (int)getpid());
	snprintf(claims_path, sizeof(claims_path), "%s%s", shm, claims_ext());
	snprintf(victim, sizeof(victim), "%s.victim", shm);
	snprintf(group_path, sizeof(group_path), "%s" CLAIMS_GROUP_SUFFIX, claims_path);
	unlink(shm);
	unlink(claims_path);
	rmdir(claims_path);
	unlink(victim);
}

static uncore_t *open_shared(void)
{
	char spec[340];
	snprintf(spec, sizeof(spec), "sim:snbep,shared=%s", shm);
	return open_sim(spec);
}

static uint64_t refused(uncore_t *u)
{
	struct uncore_stats st;
	uncore_get_stats(u, &st);
	return st.refused_writes;
}

static uint64_t writes(uncore_t *u)
{
	struct uncore_stats st;
	uncore_get_stats(u, &st);
	return st.writes;
}

static void make_victim(void)
{
	int fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, "precious", 8) == 8);
	close(fd);
}

/* root's own file is as it was: mode 0600, 8 bytes */
static void assert_victim_intact(void)
{
	struct stat st;
	CU_ASSERT_FATAL(stat(victim, &st) == 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	CU_ASSERT_EQUAL(st.st_size, 8);
}

/* A session on a refused claims file still counts, keeps its claims in memory, and leaves the
 * machine as found; the file (or what it points at) is not touched. */
static void assert_refused_but_counts(const char *why)
{
	uncore_t *u = open_shared();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0);
	CU_ASSERT(warned("claims file refused"));
	CU_ASSERT(warned(why));
	assert_left_as_found(sim_of(u->acc));
	CU_ASSERT_EQUAL(refused(u), 0);
	uncore_close(u);
}

static void test_links(void)
{
	fresh();
	make_victim();
	CU_ASSERT_FATAL(symlink(victim, claims_path) == 0); /* a user's link to root's file */
	assert_refused_but_counts("is a symbolic link");
	assert_victim_intact();
	unlink(claims_path);
	char target[320];
	snprintf(target, sizeof(target), "%s.created", shm);
	CU_ASSERT_FATAL(symlink(target, claims_path) == 0); /* dangling: would make root create target */
	assert_refused_but_counts("is a symbolic link");
	CU_ASSERT(access(target, F_OK) == -1 && errno == ENOENT);
	unlink(claims_path);
	CU_ASSERT_FATAL(link(victim, claims_path) == 0); /* a hard link to root's file */
	assert_refused_but_counts("hard links");
	assert_victim_intact();
	unlink(claims_path);
	fresh();
}

static void test_unsafe_files(void)
{
	fresh();
	int fd = open(claims_path, O_RDWR | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(fchmod(fd, 0666) == 0); /* every user could write records or hold the lock */
	close(fd);
	assert_refused_but_counts("may be opened by every user");
	struct stat st;
	CU_ASSERT(stat(claims_path, &st) == 0 && st.st_size == 0 && (st.st_mode & 07777) == 0666); /* untouched */
	unlink(claims_path);
	if (geteuid() == 0) { /* a file of another user: only root can make one to test with */
		fd = open(claims_path, O_RDWR | O_CREAT | O_EXCL, 0600);
		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT(fchown(fd, 65534, 65534) == 0);
		close(fd);
		assert_refused_but_counts("belongs to user 65534");
		unlink(claims_path);
	} else {
		printf("\n  (not run as root: the file-of-another-user case needs root to make such a file)\n");
	}
	CU_ASSERT_FATAL(mkdir(claims_path, 0700) == 0); /* a directory planted at the path */
	assert_refused_but_counts("is a directory");
	rmdir(claims_path);
	/* a shared simulator in a directory every user may write into (no sticky bit) is refused too */
	char dir[320], spec[360];
	uncore_t *u = NULL;
	snprintf(dir, sizeof(dir), "%s.dir", shm);
	mkdir(dir, 0700);
	CU_ASSERT(chmod(dir, 0777) == 0);
	snprintf(spec, sizeof(spec), "sim:snbep,shared=%s/machine", dir);
	CU_ASSERT(uncore_open(spec, &u) == -1);
	CU_ASSERT(strstr(uncore_error(), "is writable by every user") != NULL);
	snprintf(spec, sizeof(spec), "%s/machine", dir);
	CU_ASSERT(access(spec, F_OK) == -1); /* nothing was created there */
	rmdir(dir);
	unlink(shm);
	fresh();
}

struct hdr {
	char magic[8];
	uint32_t n, rec_size, copy, pad;
	uint64_t sum;
};

/* A claims file as a writer with access to it could make one: n records, a header counting hdr_n. */
static void write_claims_to(const char *path, mode_t mode, const struct claim *c, int n, uint32_t hdr_n)
{
	struct hdr h = { "UCCLM04", hdr_n, sizeof(struct claim), 0, 0, claims_sum(c, (size_t)n * sizeof(*c)) };
	uncore_t *u = open_sim("sim:snbep"); /* the layout depends on the machine's boxes */
	off_t at = claims_copy_offset(u, 0);
	uncore_close(u);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(fchmod(fd, mode) == 0);
	CU_ASSERT(pwrite(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h));
	CU_ASSERT(pwrite(fd, c, (size_t)n * sizeof(*c), at) == (ssize_t)((size_t)n * sizeof(*c)));
	close(fd);
}

static void write_claims(const struct claim *c, int n, uint32_t hdr_n)
{
	write_claims_to(claims_path, 0600, c, n, hdr_n);
}

static struct claim record(const char *unit, int socket, int idx)
{
	struct claim c;
	memset(&c, 0, sizeof(c));
	snprintf(c.unit, sizeof(c.unit), "%s", unit);
	c.socket = socket;
	c.idx = idx;
	return c;
}

/* When a process started (/proc/PID/stat field 22), as a claim's holder records it. */
static uint64_t start_of(int pid)
{
	char path[64], buf[1024];
	unsigned long long t = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (p)
		sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &t);
	return t;
}

/* A record naming a box as held by pid (alive or not) with "found" values of the writer's choosing. */
static struct claim forged(const char *unit, int socket, int idx, int pid)
{
	struct claim c = record(unit, socket, idx);
	c.nholders = 1;
	c.h[0] = (struct claim_holder){ .pid = pid, .token = 1, .start = start_of(pid) };
	c.nsaved = 3;
	c.sv[0] = (struct claim_saved){ .kind = PK_BOX_CTL, .val = 0x100 }; /* frozen */
	c.sv[1] = (struct claim_saved){ .kind = PK_CTL, .idx = 0, .val = 0xffc4ffffull };
	c.sv[2] = (struct claim_saved){ .kind = PK_CTR, .idx = 0, .val = ~0ull };
	return c;
}

/* Simulator truth for "as found" after another agent changed a register: what it holds now (the
 * agent's own writes were not ours to check). */
static void snapshot(struct sim *sim)
{
	memcpy(sim->snap, sim->boxes, sizeof(sim->snap));
	sim->unfrozen_ctl_writes = 0;
}

static struct sim_box *sim_box_named(struct sim *sim, const char *unit, int socket, int idx)
{
	for (int i = 0; i < sim->nboxes; i++)
		if (!strcmp(sim->boxes[i].u->name, unit) && sim->boxes[i].socket == socket && sim->boxes[i].idx == idx)
			return &sim->boxes[i];
	return NULL;
}

/* The agent's box still holds its programming (ctl k, or the fixed control for k = -1, or the box
 * control for k = -2) and only its counting changed it; every other box is as found. */
static void assert_agent_kept(struct sim *sim, const char *unit, int socket, int idx, int k, uint64_t v)
{
	char why[128];
	struct sim_box *b = sim_box_named(sim, unit, socket, idx);
	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(k == -2 ? b->box_ctl : k < 0 ? b->fixed_ctl : b->ctl[k], v);
	int n = sim_changed_registers(sim, why, sizeof(why));
	char want[64];
	snprintf(want, sizeof(want), "%s %d socket %d", unit, idx, socket);
	CU_ASSERT(n == 0 || (n == 1 && !strcmp(why, want))); /* its counters moved: the agent counts */
	if (n > 1 || (n == 1 && strcmp(why, want)))
		fprintf(stderr, "changed besides the agent's box: %d, first %s\n", n, why);
	CU_ASSERT_EQUAL(sim->bad_accesses, 0);
	CU_ASSERT_EQUAL(sim->unfrozen_ctl_writes, 0);
}

/* doc/safety.md's group deployment: members of the group may write the group's claims file (and a site that
 * set up an older version gave them the claims file itself, 0660).  Root never restores what such a
 * file says, counts on PCI and MMIO boxes whatever it pins (members cannot program those), and leaves
 * an MSR box a member's live session counts on alone -- unless forced and the pin's holder is no
 * intel-uncore session. */
static void test_group_member(void)
{
	if (geteuid() != 0) {
		printf("(root's trust in the claims files is tested as root only) ");
		return;
	}
	const char *group = group_path;
	fresh();
	uncore_t *u = open_shared();
	struct sim *sim = sim_of(u->acc);
	/* the old deployment: root's file writable by the group holds a dead "holder"'s values for imc 0 */
	struct claim r[4];
	r[0] = forged("imc", 0, 0, 999999);
	write_claims_to(claims_path, 0660, r, 1, 1);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=2"), 0);
	CU_ASSERT(warned("may be opened by other users"));
	assert_left_as_found(sim); /* imc 0 was not "restored" to the member's values */
	claims_free(u); /* the next session opens the files again */
	unlink(claims_path);

	/* the group's file: a dead holder's values, and pins by pid 1 of an MSR box (cbo 1) and a PCI one */
	r[1] = forged("cbo", 0, 1, 1);
	r[2] = forged("imc", 0, 1, 1);
	write_claims_to(group, 0660, r, 3, 3);
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=2"), 0);
	assert_left_as_found(sim);
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0:box=1"), 0); /* a PCI box: the pin is moot */
	/* pid 1's record holds no counter the box shows programmed: refused, naming the mismatch; force overrides */
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=1"), -1);
	CU_ASSERT(strstr(uncore_error(), "cbo 1 (socket 0) is claimed in ") != NULL &&
		  strstr(uncore_error(), " by process 1, but its counters do not hold what the record says") != NULL);
	uncore_set_force(u, 1);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=1"), 0);
	CU_ASSERT(warned("names process 1, but the box's counters do not hold what its record says (a forged or stale "
			 "record): taken over because of force"));
	assert_left_as_found(sim);

	/* a member's loop that holds the group's file open (respawned: ever alive) with a record its box belies
	 * pins nothing under force (issue 45) */
	pid_t pid = lock_hold(group);
	char who[96];
	r[3] = forged("cbo", 0, 3, (int)pid);
	r[3].h[0].ctrs = 1;
	r[3].ctl[0] = 0x400000; /* "counts the clock on counter 0", which holds 0 */
	write_claims_to(group, 0660, r, 4, 4);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=3"), 0);
	snprintf(who, sizeof(who), "cbo 3 (socket 0): the group's claims file names process %d, but", (int)pid);
	CU_ASSERT(warned(who));
	assert_left_as_found(sim);
	/* a member session whose counter holds what its record says is left alone, force or not */
	const struct box *cbo3 = box_named(u, "cbo", 0, 3);
	CU_ASSERT_FATAL(u->acc->ops->msr_write(u->acc, 0, (uint32_t)box_ctl_addr(cbo3, 0), 0x400000) == 0);
	snapshot(sim);
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=3"), -1);
	CU_ASSERT(strstr(uncore_error(), "cbo 3 (socket 0) is counting for a session of another user") != NULL);
	lock_release(pid);
	/* it ended, its counter left programmed: another agent's, taken over under force and put back */
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=3"), 0);
	assert_agent_kept(sim, "cbo", 0, 3, 0, 0x400000);
	/* a member grows the group's file without bound (here 64 MiB, sparse): root reads no more of it than its
	 * format holds, ignores it, says so, and counts */
	CU_ASSERT_FATAL(truncate(group, 64 << 20) == 0);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=0:box=2"), 0);
	CU_ASSERT(warned("is larger than its format allows (67108864 bytes, at most"));
	uncore_close(u);
	unlink(group);
	fresh();
}

/* A new claims file has its space allocated before its first write (claims_open): its first session reads
 * it as new, and warns of nothing (issue 64: root's first session called its own new file "damaged"); so
 * does one made empty beforehand, as the tmpfiles.d lines make root's at boot. */
static void test_new_file(void)
{
	fresh();
	uncore_t *u = open_shared();
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0);
	CU_ASSERT(strstr(uncore_warnings(), "damaged") == NULL);
	CU_ASSERT(strstr(uncore_warnings(), "claims file refused") == NULL);
	uncore_close(u);
	fresh();
	int fd = open(claims_path, O_RDWR | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	u = open_shared();
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0);
	CU_ASSERT(strstr(uncore_warnings(), "damaged") == NULL);
	uncore_close(u);
	fresh();
}

/* Root keeps its claims only in a directory no other user can write into: a group-writable one (a member
 * could replace root's file) is refused, naming the directory and the fix; with the sticky bit, which keeps
 * members from removing root's file, it is used. */
static void test_group_writable_dir(void)
{
	if (geteuid() != 0) {
		printf("(root's trust in the claims directory is tested as root only) ");
		return;
	}
	char dir[320], spec[360], file[360], want[800];
	snprintf(dir, sizeof(dir), "%s.gdir", shm);
	snprintf(spec, sizeof(spec), "sim:snbep,shared=%s/machine", dir);
	snprintf(file, sizeof(file), "%s/machine.claims", dir);
	CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
	CU_ASSERT(chown(dir, 0, 4242) == 0 && chmod(dir, 0770) == 0);
	uncore_t *u = open_sim(spec);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0); /* counts, its claims in memory */
	snprintf(want, sizeof(want), "claims file refused: %s is in directory %s, which its group may write into "
		 "(mode 0770, group 4242)", file, dir);
	CU_ASSERT(warned(want));
	CU_ASSERT(warned("chmod go-w"));
	assert_left_as_found(sim_of(u->acc));
	uncore_close(u);
	CU_ASSERT(chmod(dir, 01770) == 0);
	u = open_sim(spec);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0);
	CU_ASSERT(strstr(uncore_warnings(), "claims file refused") == NULL);
	uncore_close(u);
	unlink(file);
	snprintf(file, sizeof(file), "%s/machine", dir);
	unlink(file);
	rmdir(dir);
	CU_ASSERT(access(dir, F_OK) == -1);
}

/* Forged records: each is refused by name, and whatever a usable one says, writes stay in its box. */
static void test_forged_records(void)
{
	fresh();
	uncore_t *u = open_shared(); /* makes the machine file; the claims file comes with the first session */
	struct sim *sim = sim_of(u->acc);
	struct claim r[6];
	r[0] = record("imc", 0, 0); /* a dead owner's claim: "found" values everywhere */
	r[0].nholders = 1;
	r[0].h[0] = (struct claim_holder){ .pid = 1, .token = 9, .start = 54321 }; /* "pid 1", not the one that runs */
	r[0].nsaved = 2;
	r[0].sv[0] = (struct claim_saved){ .kind = PK_BOX_CTL, .val = 0x4141414141414141ull };
	r[0].sv[1] = (struct claim_saved){ .kind = PK_CTL, .idx = 0, .val = 0x4141414141414141ull };
	r[1] = record("imc", 7, 0); /* no socket 7 */
	r[2] = record("cbo", 0, 2);
	r[2].nsaved = 1000;
	r[3] = record("qpi", 1, 0);
	memset(r[3].unit, 'x', sizeof(r[3].unit)); /* not terminated */
	r[4] = record("qpi", 1, 1);
	r[4].nsaved = 1;
	r[4].sv[0] = (struct claim_saved){ .kind = PK_FILT, .idx = 5, .val = 1 }; /* QPI: match/mask 0-3 only */
	r[5] = record("imc", 1, 1); /* held by "pid 1", but not the pid 1 that runs now */
	r[5].nholders = 1;
	r[5].ctl[0] = 42; /* programmed otherwise */
	r[5].h[0] = (struct claim_holder){ 1, 7, 12345, 1, 0, { 0 } };
	write_claims(r, 6, 6);
	uint64_t bad0 = sim->bad_accesses;
	/* a session on another box: the dead owner's box is put back on the way, as its record says */
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0:box=1"), 0);
	CU_ASSERT(warned("imc 0 (socket 0) was left programmed by process 1, which ended without releasing it"));
	CU_ASSERT(warned("record 1 is ignored: it names no box of this machine"));
	CU_ASSERT(warned("record 2 is ignored: its saved-register count is out of range"));
	CU_ASSERT(warned("record 3 is ignored: its unit name is not terminated"));
	CU_ASSERT(warned("record 4 is ignored: it names a register its box does not have"));
	/* the dead owner's values went back into imc 0 of socket 0 only, cut to each register's bits:
	 * iMC counter control 7:0 event, 15:8 umask, 18 edge, 22 en, 23 invert, 31:24 threshold; box
	 * control rst 1:0, frz 8, frz_en 16 (seed 000, the iMC PMON control registers) */
	const struct box *imc0 = box_named(u, "imc", 0, 0);
	struct sim_box *sb = NULL;
	for (int i = 0; i < sim->nboxes; i++)
		if (!strcmp(sim->boxes[i].u->name, "imc") && sim->boxes[i].socket == 0 && sim->boxes[i].idx == imc0->idx)
			sb = &sim->boxes[i];
	CU_ASSERT_FATAL(sb != NULL);
	sim_shared_sync(sim);
	CU_ASSERT_EQUAL(sb->ctl[0], 0x41404141ull);
	CU_ASSERT_EQUAL(sb->box_ctl & ~0x10103ull, 0);
	CU_ASSERT_EQUAL(sim_changed_registers(sim, NULL, 0), 1); /* no other box was written */
	CU_ASSERT_EQUAL(sim->bad_accesses, bad0);
	CU_ASSERT_EQUAL(refused(u), 0);
	/* put imc 0 back as the simulator made it, for the checks below */
	struct access *a = u->acc;
	CU_ASSERT(a->ops->pci_write32(a, &imc0->pci, (uint32_t)box_ctl_addr(imc0, 0), 0) == 0);
	CU_ASSERT(a->ops->pci_write32(a, &imc0->pci, (uint32_t)imc0->r.box_ctl, 0) == 0);
	assert_left_as_found(sim);
	/* "pid 1" is not the holder that wrote the record: the box is free for other events */
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.WR:socket=1:box=1"), 0);
	assert_left_as_found(sim);
	/* a header claiming 65536 records is not read at all */
	write_claims(r, 1, 65536);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=1"), 0);
	CU_ASSERT(warned("is damaged or from another version"));
	assert_left_as_found(sim);
	CU_ASSERT_EQUAL(refused(u), 0);
	uncore_close(u);
	fresh();
}

/* The file is cut to nothing while a session runs: its owner still restores every box it programmed. */
static void test_truncated_mid_session(void)
{
	fresh();
	uncore_t *u = open_shared();
	static const char *const specs[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=1", "UNC_C_CLOCKTICKS:socket=0:box=2" };
	uncore_session_t *s = start_session(u, specs, 2);
	CU_ASSERT(sim_changed_registers(sim_of(u->acc), NULL, 0) > 0);
	CU_ASSERT(truncate(claims_path, 0) == 0);
	CU_ASSERT(uncore_session_stop(s) == 0);
	CU_ASSERT(warned("lost the record of imc 1 (socket 0): restored from this session's copy"));
	CU_ASSERT(warned("lost the record of cbo 2 (socket 0)"));
	finish(u, s);
	fresh();
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Another process keeps the lock: a start gives up after the timeout, names the file, writes nothing. */
static void test_lock_held(void)
{
	fresh();
	uncore_t *u = open_shared();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0); /* the file exists now */
	pid_t pid = lock_hold(claims_path);
	char who[64];
	uint64_t w = writes(u);
	double t0 = now_s();
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), -1);
	double waited = now_s() - t0;
	snprintf(who, sizeof(who), "has been locked by process %d (", (int)pid); /* /proc/locks names it */
	CU_ASSERT(strstr(uncore_error(), who) != NULL);
	CU_ASSERT(strstr(uncore_error(), claims_path) != NULL);
	CU_ASSERT(strstr(uncore_error(), "nothing was programmed") != NULL);
	CU_ASSERT(waited >= CLAIMS_LOCK_TIMEOUT_MS / 1000.0 && waited < CLAIMS_LOCK_TIMEOUT_MS / 1000.0 + 5);
	CU_ASSERT_EQUAL(writes(u), w);
	lock_release(pid);
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), 0); /* the lock is free again */
	assert_left_as_found(sim_of(u->acc));
	uncore_close(u);
	fresh();
}

/* The guard refuses writes outside the PMON registers, and undefined bits inside them. */
static void test_guard_refuses(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	struct access *a = u->acc;
	uint64_t w = writes(u);
	CU_ASSERT_EQUAL(guarded_msr_write(a, 0, 0xc0000082, 0x4141414141414141ull), -1); /* LSTAR */
	CU_ASSERT(strstr(uncore_error(), "MSR 0xc0000082 on CPU 0: not a writable PMON register") != NULL);
	CU_ASSERT_EQUAL(guarded_msr_write(a, 0, 0x1a0, 1), -1); /* IA32_MISC_ENABLE */
	/* PCU box control (seed 000 Table 2-74): 0xC24, defined bits 0, 1, 8, 16 */
	CU_ASSERT_EQUAL(guarded_msr_write(a, 0, 0xc24, 0x10000), 0);
	CU_ASSERT_EQUAL(guarded_msr_write(a, 0, 0xc24, 0x80000000ull), -1);
	CU_ASSERT(strstr(uncore_error(), "bits 0x80000000 are not defined there") != NULL);
	CU_ASSERT_EQUAL(guarded_msr_write(a, 0, 0xc24, 0), 0);
	/* socket 0's CBo registers are written through the CPU the box was found on, nowhere else */
	CU_ASSERT_EQUAL(guarded_msr_write(a, 1, 0xd04, 0), -1);
	const struct box *imc = box_named(u, "imc", 0, 0);
	CU_ASSERT_EQUAL(guarded_pci_write32(a, &imc->pci, 0x04, 0x6), -1); /* PCI command register */
	CU_ASSERT_EQUAL(guarded_pci_write32(a, &imc->pci, 0xf4, 0x10000), 0); /* iMC box control, frz_en */
	CU_ASSERT_EQUAL(guarded_pci_write32(a, &imc->pci, 0xf4, 0), 0);
	CU_ASSERT_EQUAL(guarded_mmio_write(a, 0x1000, 1, 8), -1);
	CU_ASSERT_EQUAL(refused(u), 6);
	CU_ASSERT_EQUAL(writes(u) - w, 4); /* only the allowed ones reached the simulator */
	CU_ASSERT_EQUAL(sim_of(a)->bad_accesses, 0);
	assert_left_as_found(sim_of(a));
	uncore_close(u);
	/* EMR: the IMC MMIO window and the PCI M2M blocks come from discovery; nothing else is writable */
	u = open_sim("sim:emr,clock=manual");
	const struct box *m = box_named(u, "imc", 0, 0);
	CU_ASSERT_FATAL(m != NULL);
	CU_ASSERT_EQUAL(guarded_mmio_write(u->acc, m->r.box_ctl, 0x1, 4), 0); /* frz, seed 001 Table 1-3 */
	CU_ASSERT_EQUAL(guarded_mmio_write(u->acc, m->r.box_ctl, 0x0, 4), 0);
	CU_ASSERT_EQUAL(guarded_mmio_write(u->acc, m->r.box_ctl - 8, 0, 4), -1);
	CU_ASSERT_EQUAL(guarded_msr_write(u->acc, 0, 0x2ffe, 0), -1); /* read, never written */
	CU_ASSERT(strstr(uncore_error(), "not a writable PMON register") != NULL);
	uncore_close(u);
}

/* Every MSR the simulator saw: written values and read addresses. */
struct seen {
	struct { uint32_t reg; int write; uint64_t val; } *v;
	int n, cap;
};

static void hook(void *ctx, int cpu, uint32_t reg, int write, uint64_t val)
{
	struct seen *s = ctx;
	(void)cpu;
	for (int i = 0; i < s->n; i++) /* keep one entry per register and kind, values merged */
		if (s->v[i].reg == reg && s->v[i].write == write) {
			s->v[i].val |= val;
			return;
		}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, (size_t)s->cap * sizeof(*s->v));
	}
	s->v[s->n].reg = reg;
	s->v[s->n].write = write;
	s->v[s->n++].val = val;
}

struct allow {
	uint32_t reg[4096];
	uint64_t mask[4096];
	int n;
};

/* Parse msr-safe's format strictly: "0x%08X 0x%016X # ..." lines, each MSR once. */
static void parse_allowlist(const char *text, struct allow *al)
{
	al->n = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (*p != '#') {
			unsigned reg;
			unsigned long long mask;
			char tail[8];
			int ok = len > 30 && sscanf(p, "0x%8X 0x%16llX %1s", &reg, &mask, tail) == 3 && tail[0] == '#' &&
				 p[10] == ' ' && p[29] == ' ';
			if (!ok)
				fprintf(stderr, "bad allowlist line: %.*s\n", (int)len, p);
			CU_ASSERT(ok);
			for (int i = 0; ok && i < al->n; i++)
				CU_ASSERT(al->reg[i] != reg);
			if (ok && al->n < 4096) {
				al->reg[al->n] = reg;
				al->mask[al->n++] = mask;
			}
		}
		p += len + (nl != NULL);
	}
}

static int allowed(const struct allow *al, uint32_t reg, uint64_t *mask)
{
	for (int i = 0; i < al->n; i++)
		if (al->reg[i] == reg) {
			*mask = al->mask[i];
			return 1;
		}
	return 0;
}

/* One session of an event (or a metric), if it can be counted alone: start, read, stop.  1 if it ran. */
static int run_alone(uncore_t *u, const char *name, int metric)
{
	uncore_session_t *s;
	int ran = 0;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	if ((metric ? uncore_session_add_metric(s, name) : uncore_session_add(s, name)) >= 0 && !uncore_session_start(s)) {
		uncore_sleep_ns(u, 1000000);
		CU_ASSERT(uncore_session_read(s) == 0);
		CU_ASSERT(uncore_session_stop(s) == 0);
		ran = 1;
	}
	uncore_session_free(s);
	return ran;
}

/* Every event of the catalog alone, a raw event on every unit, every metric alone, and a sampled event
 * where the platform samples: start, read, overflow walk, stop.  Returns how many sessions ran. */
static int every_path(uncore_t *u)
{
	int ran = 0;
	for (int i = 0; i < uncore_num_events(u); i++) {
		struct uncore_event_info e;
		uncore_event_info(u, i, &e);
		ran += run_alone(u, e.name, 0);
	}
	for (int t = 0; t < uncore_num_units(u); t++) {
		struct uncore_unit_info ui;
		char spec[64];
		uncore_unit_info(u, t, &ui);
		snprintf(spec, sizeof(spec), "%s/event=0x1/", ui.name);
		ran += run_alone(u, spec, 0);
	}
	for (int m = 0; m < uncore_num_metrics(u); m++) {
		struct uncore_metric_info mi;
		uncore_metric_info(u, m, &mi);
		ran += run_alone(u, mi.name, 1);
	}
	return ran;
}

/* A sampled counter overflowing, serviced by a read and by uncore_session_overflows(). */
static int sampled_path(uncore_t *u, const char *sample_spec)
{
	uncore_session_t *s;
	uncore_overflow_t ov[8];
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, sample_spec) >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT(uncore_session_overflows(s, ov, 8) > 0);
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	CU_ASSERT(uncore_session_overflows(s, ov, 8) > 0);
	uncore_session_free(s);
	return 1;
}

/* How many MSRs seen were written outside the allowlist or its masks (the first named, unless spec is
 * NULL); *unread: read but not in it. */
static int outside_of(const struct seen *seen, const struct allow *al, const char *spec, const char *list, int *unread)
{
	int outside = 0;
	for (int i = 0; i < seen->n; i++) {
		uint64_t mask;
		int in = allowed(al, seen->v[i].reg, &mask);
		if (seen->v[i].write && (!in || (seen->v[i].val & ~mask))) {
			if (!outside++ && spec)
				fprintf(stderr, "%s: MSR 0x%x written with bits 0x%llx outside the %s allowlist\n", spec,
					seen->v[i].reg, (unsigned long long)seen->v[i].val, list);
		} else if (!seen->v[i].write && !in && !(*unread)++ && spec) {
			fprintf(stderr, "%s: MSR 0x%x read but not in the %s allowlist\n", spec, seen->v[i].reg, list);
		}
	}
	return outside;
}

/* Every public path on every simulated platform: zero writes outside the PMON registers (the simulator's
 * count and the guard's), every MSR written inside the printed allowlist and its masks, every MSR read in
 * it too, and every register left as found. */
static void test_every_path_stays_inside(void)
{
	static const struct { const char *spec, *sample; } plats[] = {
		{ "sim:snbep,clock=manual", NULL },
		{ "sim:ivbep,clock=manual", "UNC_Q_RxL_FLITS_G0.DATA:socket=0:box=0:sample=1000000" },
		{ "sim:emr,clock=manual", "UNC_M_CAS_COUNT.RD:socket=0:box=5:sample=1000000" },
		{ "sim:nhm,clock=manual", "UNC_IMC_NORMAL_READS.ANY:socket=0:sample=1000000" },
		{ "sim:montecito,clock=manual", NULL },
		{ "sim:generic,clock=manual", NULL },
	};
	static struct allow al, al_sampling;
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct seen seen = { 0 }, seen_sampled = { 0 };
		sim_new_msr_hook = hook; /* from the start: discovery's reads count too */
		sim_new_msr_hook_ctx = &seen;
		uncore_t *u = open_sim(plats[p].spec);
		struct sim *sim = sim_of(u->acc);
		sim_new_msr_hook = NULL;
		sim->msr_hook = NULL; /* not while the allowlists are made */
		char *text = uncore_msr_allowlist(u), *with = uncore_msr_allowlist_for(u, UNCORE_ALLOWLIST_SAMPLING);
		int msrs = !u->plat->sim_only;
		CU_ASSERT((text != NULL) == msrs && (with != NULL) == msrs);
		if (text)
			parse_allowlist(text, &al);
		if (with)
			parse_allowlist(with, &al_sampling);
		free(text);
		free(with);
		sim->msr_hook = hook;
		sim->msr_hook_ctx = &seen;
		int ran = every_path(u);
		sim->msr_hook_ctx = &seen_sampled; /* sampling: inside the list that allows it */
		ran += plats[p].sample ? sampled_path(u, plats[p].sample) : 0;
		sim->msr_hook = NULL;
		int unread = 0, outside = msrs ? outside_of(&seen, &al, plats[p].spec, "default", &unread) +
						 outside_of(&seen_sampled, &al_sampling, plats[p].spec, "--sampling", &unread)
					       : 0;
		/* and sampling needs the bits the default list leaves out: without them it is refused */
		int unsampled = 0;
		if (msrs && plats[p].sample)
			unsampled = outside_of(&seen_sampled, &al, NULL, "default", &(int){ 0 });
		printf("\n  %s: %d sessions, %d MSRs touched, %d allowlist lines, %llu stray accesses, %llu refused writes",
		       plats[p].spec, ran, seen.n, msrs ? al.n : 0, (unsigned long long)sim->bad_accesses,
		       (unsigned long long)refused(u));
		CU_ASSERT(ran >= (uncore_num_events(u) ? 10 : uncore_num_units(u))); /* generic: a raw event per unit */
		CU_ASSERT_EQUAL(outside, 0);
		CU_ASSERT_EQUAL(unread, 0);
		CU_ASSERT(!plats[p].sample || !msrs || unsampled > 0);
		CU_ASSERT_EQUAL(refused(u), 0);
		assert_left_as_found(sim);
		free(seen.v);
		free(seen_sampled.v);
		uncore_close(u);
	}
	printf("\n");
}


/* The MSRs energy (source "msr") and the uncore clock limits (without the driver: ufreq=msr) read: each in the
 * printed allowlist, read only (mask 0), and none written.  Which ones, by linux_regs.txt's rapl and ufreq rows
 * (Linux's msr-index.h and uncore-frequency.c): RAPL's unit, package and DRAM counters where the part has RAPL
 * MSRs, psys on SPR and EMR (rapl.c model_spr) and GNR (PCM systemEnergyMetricAvailable), the ratio MSRs on intel_uncore_cpu_ids' parts only. */
static void test_readers_stay_inside(void)
{
	static const struct { const char *spec; int psys, ufreq; } plats[] = {
		{ "sim:emr,ufreq=msr,clock=manual", 1, 1 }, /* die-level RAPL with psys, the MSR limits */
		{ "sim:clx,ufreq=msr,clock=manual", 0, 1 },
		{ "sim:gnr,clock=manual", 1, 0 },           /* RAPL a socket and psys at 1 J (PCM); limits from the TPMI files */
		{ "sim:snbep,clock=manual", 0, 0 },         /* no uncore limits in MSRs */
	};
	const long unit = ref_row("rapl", "msr.power_unit"), pkg = ref_row("rapl", "msr.pkg_energy"),
		   dram = ref_row("rapl", "msr.dram_energy"), psys = ref_row("rapl", "msr.psys_energy"),
		   limit = ref_row("ufreq", "ratio_limit_msr"), status = ref_row("ufreq", "perf_status_msr");
	CU_ASSERT_FATAL(unit > 0 && pkg > 0 && dram > 0 && psys > 0 && limit > 0 && status > 0);
	static struct allow al;
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct seen seen = { 0 };
		uncore_t *u = open_sim(plats[p].spec);
		struct sim *sim = sim_of(u->acc);
		char *text = uncore_msr_allowlist(u);
		CU_ASSERT_FATAL(text != NULL);
		parse_allowlist(text, &al);
		free(text);
		sim->msr_hook = hook;
		sim->msr_hook_ctx = &seen;
		uncore_energy_t *e = NULL;
		int rc = uncore_energy_new(u, "msr", &e);
		if (rc)
			fprintf(stderr, "%s: energy: %s\n", plats[p].spec, uncore_error());
		CU_ASSERT(rc == 0 && uncore_energy_start(e, 1000000000ull) == 0);
		uncore_sleep_ns(u, 100000000);
		CU_ASSERT(rc || uncore_energy_read(e) == 0);
		uncore_energy_free(e);
		struct uncore_freq_domain d[64];
		int n = uncore_freq_domains(u, d, 64);
		CU_ASSERT(!plats[p].ufreq || (n > 0 && !strcmp(d[0].source, "MSR 0x620/0x621")));
		sim->msr_hook = NULL;
		int bad = 0, writes_seen = 0;
		for (int i = 0; i < seen.n; i++) {
			uint64_t mask = 0;
			int in = allowed(&al, seen.v[i].reg, &mask);
			writes_seen += seen.v[i].write;
			if (!seen.v[i].write && (!in || mask) && !bad++)
				fprintf(stderr, "%s: MSR 0x%x read but %s\n", plats[p].spec, seen.v[i].reg,
					in ? "writable in the allowlist" : "not in the allowlist");
		}
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT_EQUAL(writes_seen, 0);
		/* the second source: these were read, and are listed read only; the others are not listed */
		const struct { long reg; int want; } rows[] = { { unit, 1 }, { pkg, 1 }, { dram, 1 }, { psys, plats[p].psys },
								 { limit, plats[p].ufreq }, { status, plats[p].ufreq } };
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
			uint64_t mask = 1;
			int listed = allowed(&al, (uint32_t)rows[r].reg, &mask), read = 0;
			for (int i = 0; i < seen.n; i++)
				read |= seen.v[i].reg == (uint32_t)rows[r].reg && !seen.v[i].write;
			if (listed != rows[r].want || read != rows[r].want || (listed && mask))
				fprintf(stderr, "%s: MSR 0x%lx: read %d, listed %d (mask 0x%llx), want %d\n", plats[p].spec,
					rows[r].reg, read, listed, (unsigned long long)mask, rows[r].want);
			CU_ASSERT_EQUAL(listed, rows[r].want);
			CU_ASSERT_EQUAL(read, rows[r].want);
			CU_ASSERT(!listed || mask == 0);
		}
		printf("\n  %s: %d MSRs read by energy and the clock limits, %d allowlist lines", plats[p].spec, seen.n, al.n);
		free(seen.v);
		uncore_close(u);
	}
	printf("\n");
}

static void test_another_agent(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	struct sim *sim = sim_of(u->acc);
	struct access *a = u->acc;
	const struct box *imc0 = box_named(u, "imc", 0, 0), *imc1 = box_named(u, "imc", 0, 1);
	uint32_t ctl0 = (uint32_t)box_ctl_addr(imc0, 0);
	/* perf stat -e uncore_imc_0/event=0x4,umask=0x3/ on socket 0: CTL0 = en | umask 3 | event 4 */
	CU_ASSERT_FATAL(a->ops->pci_write32(a, &imc0->pci, ctl0, 0x00400304) == 0);
	CU_ASSERT_FATAL(a->ops->pci_write32(a, &imc1->pci, ctl0, 0x00000304) == 0); /* an idle leftover */
	snapshot(sim);
	uint64_t w = writes(u);
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0:box=0"), -1);
	CU_ASSERT(strstr(uncore_error(), "imc 0 (socket 0) is in use by another agent: CTL0 = 0x400304") != NULL);
	CU_ASSERT(strstr(uncore_error(), "--force") != NULL);
	CU_ASSERT_EQUAL(writes(u), w); /* looked at, not touched */
	/* without box=, the whole socket's channels are needed: refused as a whole, nothing written */
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0"), -1);
	CU_ASSERT_EQUAL(writes(u), w);
	/* a disabled leftover is nobody's counting: box 1 is used and its leftover put back */
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CAS_COUNT.RD:socket=0:box=1"), 0);
	CU_ASSERT_EQUAL(sim_box_named(sim, "imc", 0, imc1->idx)->ctl[0], 0x304);
	assert_agent_kept(sim, "imc", 0, imc0->idx, 0, 0x400304);
	/* forced: counted, with a warning, and the agent's programming is back afterwards */
	uncore_set_force(u, 1);
	uc_clear_warnings();
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, "UNC_M_CAS_COUNT.RD:socket=0:box=0") >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	CU_ASSERT(warned("imc 0 (socket 0) was in use by another agent (CTL0 = 0x400304): taken over because of force"));
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	ASSERT_NEAR(val(s, 0, 0), sim->prof.mem_read_bps[0] / 64 / 4, 2); /* one of four channels */
	uncore_session_free(s);
	assert_agent_kept(sim, "imc", 0, imc0->idx, 0, 0x400304); /* its programming is back */
	uncore_close(u);

	/* the fixed counter's enable counts too, and UNCORE_FORCE=1 at open forces */
	u = open_sim("sim:snbep,clock=manual");
	a = u->acc;
	imc0 = box_named(u, "imc", 1, 2);
	CU_ASSERT_FATAL(a->ops->pci_write32(a, &imc0->pci, (uint32_t)(imc0->r.rel + imc0->t->fixed_ctl), 1u << 22) == 0);
	snapshot(sim_of(a));
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CLOCKTICKS:socket=1:box=2"), -1);
	CU_ASSERT(strstr(uncore_error(), "in use by another agent: fixed counter control = 0x400000") != NULL);
	uncore_close(u);
	setenv("UNCORE_FORCE", "1", 1);
	u = open_sim("sim:snbep,clock=manual");
	unsetenv("UNCORE_FORCE");
	a = u->acc;
	imc0 = box_named(u, "imc", 1, 2);
	CU_ASSERT_FATAL(a->ops->pci_write32(a, &imc0->pci, (uint32_t)(imc0->r.rel + imc0->t->fixed_ctl), 1u << 22) == 0);
	snapshot(sim_of(a));
	CU_ASSERT_EQUAL(count_once(u, "UNC_M_CLOCKTICKS:socket=1:box=2"), 0);
	assert_agent_kept(sim_of(a), "imc", 1, imc0->idx, -1, 1u << 22);
	uncore_close(u);

	/* EMR has no enable bit: a non-zero event select counts (seed 001 Table 1-5) */
	u = open_sim("sim:emr,clock=manual");
	a = u->acc;
	const struct box *cha = box_named(u, "cha", 0, 3);
	CU_ASSERT_FATAL(cha != NULL);
	CU_ASSERT_FATAL(a->ops->msr_write(a, cha->cpu, (uint32_t)box_ctl_addr(cha, 2), 0x01) == 0);
	snapshot(sim_of(a));
	CU_ASSERT_EQUAL(count_once(u, "UNC_CHA_CLOCKTICKS:socket=0:box=3"), -1);
	CU_ASSERT(strstr(uncore_error(), "cha 3 (socket 0) is in use by another agent: CTL2 = 0x1") != NULL);
	CU_ASSERT_EQUAL(count_once(u, "UNC_CHA_CLOCKTICKS:socket=0:box=4"), 0);
	assert_agent_kept(sim_of(a), "cha", 0, 3, 2, 0x01);
	uncore_close(u);

	/* Nehalem: the global control's enable bits (seed 003 MSR_UNCORE_PERF_GLOBAL_CTRL 0x391) */
	u = open_sim("sim:nhm,clock=manual");
	a = u->acc;
	CU_ASSERT_FATAL(a->ops->msr_write(a, u->host.socket_cpu[1], 0x391, 0x1) == 0);
	snapshot(sim_of(a));
	CU_ASSERT_EQUAL(count_once(u, "UNC_IMC_NORMAL_READS.ANY:socket=1"), -1);
	CU_ASSERT(strstr(uncore_error(), "in use by another agent: box control = 0x1") != NULL);
	CU_ASSERT_EQUAL(count_once(u, "UNC_IMC_NORMAL_READS.ANY:socket=0"), 0);
	assert_agent_kept(sim_of(a), "unc", 1, 0, -2, 0x1);
	uncore_close(u);
}

/* The tables the library lists into grow by doubling (util/grow.h): room kept, contents moved, and a size
 * past int or size_t refused with the array and its capacity untouched (no wrapped capacity, no short block). */
static void test_grow(void)
{
	int cap = 0, *v = uc_grow(NULL, 0, &cap, sizeof(int), 16);
	CU_ASSERT_FATAL(v != NULL);
	CU_ASSERT_EQUAL(cap, 16);
	for (int i = 0; i < 16; i++)
		v[i] = i * 7;
	CU_ASSERT_PTR_EQUAL(uc_grow(v, 15, &cap, sizeof(int), 16), v); /* room for one more: as it is */
	CU_ASSERT_EQUAL(cap, 16);
	int *w = uc_grow(v, 16, &cap, sizeof(int), 16);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT_EQUAL(cap, 32);
	int same = 1;
	for (int i = 0; i < 16; i++)
		same &= w[i] == i * 7;
	CU_ASSERT(same);
	int big = INT_MAX / 2 + 1;
	CU_ASSERT_PTR_NULL(uc_grow(w, big, &big, sizeof(int), 16)); /* doubled, it would wrap an int */
	CU_ASSERT_EQUAL(big, INT_MAX / 2 + 1);
	CU_ASSERT_PTR_NULL(uc_grow(w, 32, &cap, SIZE_MAX / 64 + 2, 16)); /* 64 of them wrap a size_t to 64 bytes */
	CU_ASSERT_EQUAL(cap, 32);
	free(w);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "claims file: links are refused, their targets untouched", test_links },
		{ "claims file: another user's, a world-writable one, a planted directory", test_unsafe_files },
		{ "claims records: forged ones named and ignored, writes stay in the claimed box", test_forged_records },
		{ "claims file truncated mid-session: the owner still restores", test_truncated_mid_session },
		{ "a new claims file is new, not damaged", test_new_file },
		{ "root refuses a claims directory its group may write into", test_group_writable_dir },
		{ "group members cannot steer root: their records are never restored, their pins forced", test_group_member },
		{ "claims lock held by another process: no hang, nothing written", test_lock_held },
		{ "the write guard refuses writes outside the PMON registers", test_guard_refuses },
		{ "a growing table: doubled when full, contents kept, a wrapping size refused", test_grow },
		{ "every path on every platform: no stray write, all MSRs in the allowlist", test_every_path_stays_inside },
		{ "energy's and the clock limits' MSRs: in the allowlist, read only, never written", test_readers_stay_inside },
		{ "a box another agent counts on is refused unless forced", test_another_agent },
		{ NULL, NULL },
	};
	remove_at_exit(shm, claims_path); /* a fatal assertion ends a test before its own cleanup */
	remove_also_at_exit(victim, group_path);
	return run_suite("safety", tests);
}
