/*
 * A simulated machine that several processes share (sim:<p>,shared=FILE): the
 * register state of every box and the machine's own (each die's global control,
 * overflow status and freeze, which counters report overflows, the memory
 * traffic) live in FILE, mapped MAP_SHARED, and each register access copies them
 * in and out under flock().  MPI ranks started with the same spec therefore
 * program and read one machine, as they would on real hardware: an overflow one
 * process samples freezes the die for all; the clock is CLOCK_MONOTONIC from one
 * shared epoch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim.h"
#include "util/error.h"
#include "util/safe_file.h"
#include "sim_only.h"

struct shm_hdr {
	char magic[8];
	uint32_t nboxes, state_len;
	uint64_t epoch_ns, spec_hash;
	uint64_t writes; /* register writes by every process: shows whether a box was programmed once */
};

/* The mutable part of a box: the fields from last_ns to fr_frac (sim.h keeps them together). */
#define ST_OFF offsetof(struct sim_box, last_ns)
#define ST_LEN (offsetof(struct sim_box, fr_frac) + sizeof(((struct sim_box *)0)->fr_frac) - ST_OFF)

/* The machine's mutable state: global control to armed, and the memory traffic (sim.h). */
static const struct {
	size_t off, len;
} machine[] = {
	{ offsetof(struct sim, gctl), offsetof(struct sim, armed) + sizeof(int) - offsetof(struct sim, gctl) },
	{ offsetof(struct sim, prof) + offsetof(struct sim_profile, mem_read_bps), 2 * UC_MAX_SOCKETS * sizeof(double) },
	{ offsetof(struct sim, prof) + offsetof(struct sim_profile, hbm_read_bps), 2 * UC_MAX_SOCKETS * sizeof(double) },
	{ offsetof(struct sim, prof) + offsetof(struct sim_profile, cxl_read_bps), 2 * UC_MAX_SOCKETS * sizeof(double) },
};
#define NMACHINE (sizeof(machine) / sizeof(machine[0]))

static size_t machine_len(void)
{
	size_t n = 0;
	for (size_t i = 0; i < NMACHINE; i++)
		n += machine[i].len;
	return n;
}

/* Copy the machine's state between the process (out 0: in from the file; 1: out to it). */
static void machine_copy(struct sim *s, int out)
{
	uint8_t *f = s->shm + sizeof(struct shm_hdr);
	for (size_t i = 0; i < NMACHINE; f += machine[i].len, i++) {
		uint8_t *mine = (uint8_t *)s + machine[i].off;
		memcpy(out ? f : mine, out ? mine : f, machine[i].len);
	}
}

static uint8_t *state_of(struct sim *s, const struct sim_box *b)
{
	return s->shm + sizeof(struct shm_hdr) + machine_len() + (size_t)(b - s->boxes) * ST_LEN;
}

int sim_shared_attach(struct sim *s, const char *path, uint64_t spec_hash)
{
	size_t need = sizeof(struct shm_hdr) + machine_len() + (size_t)s->nboxes * ST_LEN;
	struct stat st;
	int fd = safe_open_rw(path, 1, 0600, 0); /* processes of one user share it; no link is followed */
	if (fd < 0)
		return uc_err_prefix("the shared simulator file: ");
	if (flock(fd, LOCK_EX) || fstat(fd, &st)) {
		close(fd);
		return uc_err("shared simulator file %s: %s", path, strerror(errno));
	}
	int fresh = st.st_size == 0;
	if (fresh && ftruncate(fd, (off_t)need)) {
		close(fd);
		return uc_err("shared simulator file %s: %s", path, strerror(errno));
	}
	if (!fresh && (size_t)st.st_size != need) {
		close(fd);
		return uc_err("shared simulator file %s belongs to another simulated machine (size %lld, expected %zu): "
			      "use the same sim: options in every process, or another file",
			      path, (long long)st.st_size, need);
	}
	void *m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return uc_err("shared simulator file %s: mmap: %s", path, strerror(errno));
	}
	struct shm_hdr *h = m;
	if (fresh) {
		*h = (struct shm_hdr){ "UCSIM03", (uint32_t)s->nboxes, (uint32_t)ST_LEN, s->epoch_ns, spec_hash, 0 };
		s->shm = m;
		machine_copy(s, 1);
		for (int i = 0; i < s->nboxes; i++)
			memcpy(state_of(s, &s->boxes[i]), (uint8_t *)&s->boxes[i] + ST_OFF, ST_LEN);
	} else if (memcmp(h->magic, "UCSIM03", 8) || h->nboxes != (uint32_t)s->nboxes || h->spec_hash != spec_hash) {
		munmap(m, need);
		close(fd);
		return uc_err("shared simulator file %s was made with other sim: options; use the same options in "
			      "every process, or another file", path);
	} else {
		s->epoch_ns = h->epoch_ns;
		s->shm = m;
	}
	s->shm_len = need;
	s->shm_fd = fd;
	flock(fd, LOCK_UN);
	return 0;
}

void sim_shared_in(struct sim *s, struct sim_box *b)
{
	if (!s->shm)
		return;
	if (!s->shm_depth++) {
		while (flock(s->shm_fd, LOCK_EX) && errno == EINTR)
			;
		machine_copy(s, 0);
	}
	if (b)
		memcpy((uint8_t *)b + ST_OFF, state_of(s, b), ST_LEN);
}

void sim_shared_wrote(struct sim *s)
{
	if (s->shm)
		((struct shm_hdr *)s->shm)->writes++; /* called between sim_shared_in and _out: under the lock */
}

uint64_t sim_shared_writes(struct sim *s) { return s->shm ? ((volatile struct shm_hdr *)s->shm)->writes : 0; }

void sim_shared_out(struct sim *s, struct sim_box *b)
{
	if (!s->shm)
		return;
	if (b)
		memcpy(state_of(s, b), (uint8_t *)b + ST_OFF, ST_LEN);
	if (!--s->shm_depth) {
		machine_copy(s, 1);
		flock(s->shm_fd, LOCK_UN);
	}
}

void sim_shared_sync(struct sim *s)
{
	sim_shared_in(s, NULL);
	for (int i = 0; i < s->nboxes; i++) {
		sim_shared_in(s, &s->boxes[i]);
		sim_shared_out(s, &s->boxes[i]);
	}
	sim_shared_out(s, NULL);
}

void sim_shared_close(struct sim *s)
{
	if (!s->shm)
		return;
	munmap(s->shm, s->shm_len);
	close(s->shm_fd);
	s->shm = NULL;
}
