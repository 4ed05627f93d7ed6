/* A fake sysroot of regular files standing in for /dev, /proc and /sys (tests of the real backends). */
#ifndef TEST_FAKE_TREE_H
#define TEST_FAKE_TREE_H

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

static char root[256];
static pid_t root_owner;
static void (*root_was[3])(int); /* what SIGTERM, SIGINT and SIGHUP did before (another helper's removal) */

/* SIGTERM, SIGINT or SIGHUP (a time limit's kill, ^C) removes the tree the test made, then ends by that signal:
 * fork, execve, waitpid, getpid, signal and raise are async-signal-safe (a forked child leaves it alone). */
static inline void fake_tree_remove_on_signal(int sig)
{
	if (root[0] && getpid() == root_owner) {
		pid_t pid = fork();
		if (pid == 0) {
			execl("/bin/rm", "rm", "-rf", root, (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	void (*was)(int) = root_was[sig == SIGTERM ? 0 : sig == SIGINT ? 1 : 2];
	if (was != SIG_DFL && was != SIG_IGN && was != SIG_ERR) {
		signal(sig, was);
		was(sig); /* it ends by the signal itself */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Every tree is made through mkdirs: the first call arms the removal on a signal. */
static inline void fake_tree_arm(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	if (root_owner) /* armed once, by the process that makes the trees; a forked child keeps its parent's */
		return;
	root_owner = getpid();
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if ((root_was[i] = signal(sigs[i], fake_tree_remove_on_signal)) == SIG_IGN)
			signal(sigs[i], SIG_IGN); /* nohup's SIGHUP stays ignored */
		else if (root_was[i] == fake_tree_remove_on_signal) /* a forked child arming anew */
			root_was[i] = SIG_DFL;
}

static inline void mkdirs(const char *path)
{
	char tmp[512];
	fake_tree_arm();
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

static inline void put(const char *data, size_t len, const char *fmt, ...)
{
	char rel[256], path[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s%s", root, rel);
	*strrchr(path, '/') = 0;
	mkdirs(path);
	path[strlen(path)] = '/';
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fwrite(data, 1, len, f);
	fclose(f);
}

static inline void put_str(const char *s, const char *rel) { put(s, strlen(s), "%s", rel); }

static inline uint64_t get_at(const char *rel, off_t off, int bytes)
{
	char path[512];
	uint64_t v = 0;
	snprintf(path, sizeof(path), "%s%s", root, rel);
	int fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(pread(fd, &v, (size_t)bytes, off) == bytes);
	close(fd);
	return v;
}

static inline void put_bytes(const char *rel, off_t off, const void *data, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	int fd = open(path, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(pwrite(fd, data, len, off) == (ssize_t)len);
	close(fd);
}

static inline void put_at(const char *rel, off_t off, uint32_t v) { put_bytes(rel, off, &v, 4); }
static inline void put_at64(const char *rel, off_t off, uint64_t v) { put_bytes(rel, off, &v, 8); }

static inline void sparse(const char *rel, off_t size)
{
	char path[512];
	put("", 0, "%s", rel);
	snprintf(path, sizeof(path), "%s%s", root, rel);
	CU_ASSERT(truncate(path, size) == 0);
}

/* An Intel PCI function with a config space of cfgsize bytes (64 is what non-root users see). */
static inline void make_pci_dev(int bus, int dev, int fn, unsigned id, size_t cfgsize)
{
	char dir[128], buf[16];
	uint8_t *cfg = calloc(1, cfgsize);
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/0000:%02x:%02x.%d", bus, dev, fn);
	snprintf(buf, sizeof(buf), "0x%04x\n", 0x8086);
	put(buf, strlen(buf), "%s/vendor", dir);
	snprintf(buf, sizeof(buf), "0x%04x\n", id);
	put(buf, strlen(buf), "%s/device", dir);
	cfg[0] = 0x86, cfg[1] = 0x80, cfg[2] = (uint8_t)id, cfg[3] = (uint8_t)(id >> 8);
	for (size_t i = 0x80; i < cfgsize && i < 0x100; i++)
		cfg[i] = (uint8_t)(i * 7); /* a recognisable "previous" content */
	put((char *)cfg, cfgsize, "%s/config", dir);
	free(cfg);
}

/* The end of a test that made its own tree at root: UNCORE_SYSROOT unset, the tree removed. */
static inline void fake_tree_remove(void)
{
	char cmd[300];
	unsetenv("UNCORE_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CU_ASSERT(system(cmd) == 0);
}

/* Run a suite with UNCORE_SYSROOT pointing at a fresh private tree, removed afterwards. */
static inline int run_in_fake_tree(const char *suite, const struct test_case *tests)
{
	char cmd[300];
	int rc;
	snprintf(root, sizeof(root), "%s/uncore-sysroot-%d", test_tmpdir(), (int)getpid());
	mkdirs(root);
	setenv("UNCORE_SYSROOT", root, 1);
	rc = run_suite(suite, tests);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return rc;
}

#endif
