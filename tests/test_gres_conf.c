/*
 * gres.conf read as slurmd reads it (issue 78 point 3; common/jobs/gres_conf.c).  Each file below is a form
 * gres.conf(5) of Slurm 22.05 describes or shows in its EXAMPLES; the device lists expected are written by hand
 * from the man page's rules: keys case-insensitive, NodeName= a hostlist of the nodes a line is for, Name=
 * compared whole, File= a hostlist of device files each one index in the order written (slurmd's
 * common_node_config_load, gres_common.c: hostlist_create then hostlist_shift), MultipleFiles= one index for
 * its line, Include relative to the including file's directory (slurm.conf(5) "Include").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CUnit/Basic.h>
#include "harness.h"
#include "uncore.h"
#include "jobs/gres_conf.h"
#include "jobs/hostlist.h"
#include "devices/dev_fs.h"

/* the files by their own paths: the host's view (mem NULL) with no UNCORE_SYSROOT (main unsets it) */
static const struct dev_fs host = { 0 };

static char dir[128];
static struct gres_conf conf;

static const char *put(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
	return path;
}

/* conf's device files, comma-separated */
static const char *files(void)
{
	static char s[4096];
	s[0] = 0;
	for (int i = 0; i < conf.n; i++)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s", i ? "," : "", conf.gpu[i].file);
	return s;
}

static void parse(const char *text, const char *node, const char *want)
{
	CU_ASSERT_FATAL(gres_conf_read(&host, put("gres.conf", text), node, &conf) == 0);
	CU_ASSERT_STRING_EQUAL(files(), want);
	if (strcmp(files(), want))
		fprintf(stderr, "\n  %s on %s: got %s, want %s\n", text, node, files(), want);
}

static void test_hostlist(void)
{
	char out[16][64];
	CU_ASSERT(hostlist_has("gpu[01-04,07]", "gpu03") && hostlist_has("gpu[01-04,07]", "gpu07"));
	CU_ASSERT(!hostlist_has("gpu[01-04,07]", "gpu05") && !hostlist_has("gpu[01-04,07]", "gpu3"));
	CU_ASSERT(!hostlist_has("gpu[01-04,07]", "gpu010") && !hostlist_has("gpu[01-04]", "gpu01x"));
	CU_ASSERT(hostlist_has("tux[0-15]", "tux12") && !hostlist_has("tux[0-15]", "tux16") && !hostlist_has("tux[0-15]", "tux012"));
	CU_ASSERT(hostlist_has("rack[1-2]-n[3-4]", "rack2-n3") && !hostlist_has("rack[1-2]-n[3-4]", "rack3-n3"));
	CU_ASSERT(hostlist_has("a,b[1-2],c", "b2") && hostlist_has("a,b[1-2],c", "c") && !hostlist_has("a,b[1-2],c", "b"));
	CU_ASSERT(hostlist_has("n[1-2]0", "n10") && hostlist_has("n[1-2]0", "n20") && !hostlist_has("n[1-2]0", "n1"));
	CU_ASSERT(hostlist_expand("/dev/nvidia[3,1]", out, 16) == 2 && !strcmp(out[0], "/dev/nvidia3") && !strcmp(out[1], "/dev/nvidia1"));
	CU_ASSERT(hostlist_expand("/dev/nvidia[0-1],/dev/nvidia[2-3]", out, 16) == 4 && !strcmp(out[3], "/dev/nvidia3"));
	CU_ASSERT(hostlist_expand("n[08-10]", out, 16) == 3 && !strcmp(out[0], "n08") && !strcmp(out[2], "n10"));
	CU_ASSERT(hostlist_expand("/dev/nvidia[0-3", out, 16) == -1 && hostlist_expand("/dev/x[]", out, 16) == -1);
	CU_ASSERT(hostlist_expand("/dev/nvidia[0-99]", out, 16) == -1); /* more than max */
	/* a padded range writes its numbers past its width as they are ("[001-1000]": n1000), and only so */
	CU_ASSERT(hostlist_has("n[001-1000]", "n1000") && hostlist_has("n[001-1000]", "n007") && !hostlist_has("n[001-1000]", "n7"));
	CU_ASSERT(hostlist_has("a[1-2][3-4]", "a13") && hostlist_has("a[1-2][3-4]", "a24") && !hostlist_has("a[1-2][3-4]", "a2"));
	CU_ASSERT(hostlist_has("a[1-12]b[0-5]", "a12b5") && hostlist_has("a[1-12][0-5]", "a125") && !hostlist_has("a[1-12][0-5]", "a126"));
}

/* Each name of a few generated lists is one of them exactly when the expansion writes it: the match, which
 * goes one bracket at a time, and the expansion agree (ranges padded or not, brackets side by side). */
static void test_hostlist_agrees(void)
{
	static const char *const brackets[] = { "[0-3]", "[1,10-12]", "[01-03,7]", "[9-11]", "[0]", "[00-02]" };
	static const char *const texts[] = { "", "n", "-", "1" };
	static char out[4096][64];
	unsigned seed = 12345;
	for (int t = 0; t < 400; t++) {
		char list[128] = "";
		int nb = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 3;
		strcat(list, texts[(seed >> 8) % 4]);
		for (int b = 0; b < nb; b++) {
			seed = seed * 1103515245u + 12345u;
			strcat(list, brackets[(seed >> 16) % 6]);
			strcat(list, texts[(seed >> 4) % 4]);
		}
		int n = hostlist_expand(list, out, 4096);
		CU_ASSERT_FATAL(n > 0);
		CU_ASSERT(hostlist_size(list, HOSTLIST_MAX_NAMES) == (unsigned long)n);
		for (int i = 0; i < n; i++)
			if (!hostlist_has(list, out[i])) {
				CU_FAIL("a name of the expansion not matched");
				fprintf(stderr, "\n  %s: %s not matched\n", list, out[i]);
			}
		/* names near them: a digit more, one less, one changed */
		for (int i = 0; i < n; i++) {
			char near[3][80];
			size_t k = strlen(out[i]);
			snprintf(near[0], sizeof(near[0]), "%s0", out[i]);
			snprintf(near[1], sizeof(near[1]), "%.*s", (int)(k - 1), out[i]);
			snprintf(near[2], sizeof(near[2]), "%s", out[i]);
			near[2][k - 1] = near[2][k - 1] == '9' ? '0' : (char)(near[2][k - 1] + 1);
			for (int m = 0; m < 3; m++) {
				int listed = 0;
				for (int j = 0; j < n && !listed; j++)
					listed = !strcmp(out[j], near[m]);
				if (hostlist_has(list, near[m]) != listed) {
					CU_FAIL("the match and the expansion disagree");
					fprintf(stderr, "\n  %s: %s matched %d, listed %d\n", list, near[m], !listed, listed);
				}
			}
		}
	}
}

/* The line of issue 96: four bracket lists of 200 ranges, 3,2xx bytes, standing for 2000^4 names.  Matched
 * against a six-digit name by trying each range's number in each bracket in turn, it took minutes. */
static char *fanout_line(void)
{
	char *line = malloc(4096);
	CU_ASSERT_FATAL(line != NULL);
	strcpy(line, "NodeName=node");
	for (int b = 0; b < 4; b++) {
		strcat(line, "[");
		for (int i = 0; i < 200; i++)
			strcat(line, i ? ",0-9" : "0-9");
		strcat(line, "]");
	}
	strcat(line, " Name=gpu File=/dev/nvidia0\n");
	return line;
}

/* A hostlist's work bounded (issue 96 point 5): the names a NodeName= stands for are counted without expanding
 * them, a line past HOSTLIST_MAX_NAMES refused by file, line and budget; a match goes bracket by bracket. */
static void test_hostlist_budget(void)
{
	char *line = fanout_line(), *text = malloc(8192);
	unsigned long steps = 0;
	CU_ASSERT_FATAL(text != NULL);
	CU_ASSERT(strlen(line) > 3200 && strlen(line) < 3300);
	CU_ASSERT(hostlist_size(line + 9, HOSTLIST_MAX_NAMES) == HOSTLIST_MAX_NAMES + 1);
	CU_ASSERT(hostlist_size("n[1-1000][1-1000],m[1-48576]", HOSTLIST_MAX_NAMES) == HOSTLIST_MAX_NAMES);
	CU_ASSERT(hostlist_size("n[1-1000][1-1000],m[1-48576],x", HOSTLIST_MAX_NAMES) == HOSTLIST_MAX_NAMES + 1);
	/* the match of that list on its own: each bracket's ranges once for each place a number may end */
	*strchr(line, ' ') = 0;
	CU_ASSERT(hostlist_match(line + 9, "node123456", 1000000ul, &steps) == 0);
	CU_ASSERT(steps > 0 && steps < 100000);
	CU_ASSERT(hostlist_match(line + 9, "node1234", 1000000ul, &steps) == 1 && steps < 100000);
	CU_ASSERT(hostlist_match(line + 9, "node123456", 10, &steps) == -1 && steps == 11);
	free(line);
	/* read on a six-digit node, the line second in its file: refused with its file, line and budget.  In a
	 * child bounded at 60 s, so that a reader that tries the product fails here rather than running minutes. */
	line = fanout_line();
	snprintf(text, 8192, "Name=gpu File=/dev/nvidia1\n%s", line);
	const char *path = put("fanout.conf", text);
	int fds[2];
	CU_ASSERT_FATAL(pipe(fds) == 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		close(fds[0]);
		alarm(60);
		int rc = gres_conf_read(&host, path, "node123456", &conf);
		dprintf(fds[1], "%d %s", rc, rc ? uncore_error() : "");
		_exit(0);
	}
	close(fds[1]);
	char said[1024] = "";
	size_t got = 0;
	ssize_t n;
	while ((n = read(fds[0], said + got, sizeof(said) - 1 - got)) > 0)
		got += (size_t)n;
	said[got] = 0;
	close(fds[0]);
	int status;
	CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFEXITED(status));
	if (WIFSIGNALED(status))
		fprintf(stderr, "\n  the read of a 3,2xx-byte NodeName= line was still running after 60 s\n");
	int told = !strncmp(said, "-1 ", 3) && strstr(said, "fanout.conf line 2:") && strstr(said, "more than 1048576 node names");
	CU_ASSERT(told);
	if (!told)
		fprintf(stderr, "\n  said: %s\n", said);
	/* and on a short name the same */
	CU_ASSERT(gres_conf_read(&host, path, "n1", &conf) == -1 && strstr(uncore_error(), "line 2") != NULL);
	/* a continued line counts its lines: the one after it is line 4 */
	snprintf(text, 8192, "Name=gpu \\\n File=/dev/nvidia1\n\n%s", line);
	CU_ASSERT(gres_conf_read(&host, put("fanout.conf", text), "n1", &conf) == -1 && strstr(uncore_error(), "fanout.conf line 4:") != NULL);
	/* within the budget, read: 1,500 nodes listed one by one, the node the last */
	strcpy(text, "NodeName=n[");
	for (int i = 1; i <= 1500; i++)
		snprintf(text + strlen(text), 8192 - strlen(text), "%s%d", i > 1 ? "," : "", i * 3);
	strcat(text, "] Name=gpu File=/dev/nvidia2\n");
	CU_ASSERT(gres_conf_read(&host, put("fanout.conf", text), "n4500", &conf) == 0 && conf.n == 1);
	CU_ASSERT(gres_conf_read(&host, put("fanout.conf", text), "n4501", &conf) == 0 && conf.n == 0);
	free(line);
	free(text);
}

static void test_forms(void)
{
	/* keys case-insensitive ("Parameter names are case insensitive") */
	parse("name=gpu file=/dev/nvidia[2-3]\n", "n1", "/dev/nvidia2,/dev/nvidia3");
	parse("NAME=gpu FILE=/dev/nvidia1\n", "n1", "/dev/nvidia1");
	/* the man page's "explicitly configure three GPUs": a commented line, Type= and COREs= */
	parse("Name=gpu Type=tesla File=/dev/nvidia[0-1] COREs=0,1\n# Name=gpu Type=tesla  File=/dev/nvidia[2-3] COREs=2,3\n"
	      "Name=gpu Type=tesla  File=/dev/nvidia3 COREs=2,3\n", "n1", "/dev/nvidia0,/dev/nvidia1,/dev/nvidia3");
	CU_ASSERT(!strcmp(conf.gpu[2].type, "tesla") && !strcmp(conf.gpu[2].cores, "2,3") && !strcmp(conf.gpu[0].cores, "0,1"));
	/* the man page's cluster-wide file: tux3's own line, the others' skipped */
	static const char wide[] = "NodeName=tux[0-2]  Name=gpu File=/dev/nvidia[0-3]\nNodeName=tux3  Name=gpu "
				   "File=/dev/nvidia[0,2-3]\nNodeName=tux[4-15]  Name=gpu File=/dev/nvidia[0-3]\n";
	parse(wide, "tux3", "/dev/nvidia0,/dev/nvidia2,/dev/nvidia3");
	CU_ASSERT(conf.lines_other_nodes == 2);
	parse(wide, "tux15", "/dev/nvidia0,/dev/nvidia1,/dev/nvidia2,/dev/nvidia3");
	parse(wide, "tux16", "");
	parse("NodeName=gpu[01-04,07] Name=gpu File=/dev/nvidia[0-1]\nNodeName=gpu[05-06] Name=gpu File=/dev/nvidia[0-3]\n",
	      "gpu07", "/dev/nvidia0,/dev/nvidia1");
	/* Name= whole: on a node named gpu01 the MPS line is not GPUs (the man page's MPS example) */
	parse("NodeName=gpu01 Name=gpu File=/dev/nvidia0\nNodeName=gpu01 Name=mps Count=100 File=/dev/nvidia1\n"
	      "Name=gpus File=/dev/nvidia2\nName=GPU File=/dev/nvidia3\n", "gpu01", "/dev/nvidia0");
	/* File= comma and bracket lists, in the order written */
	parse("Name=gpu File=/dev/nvidia[3,1]\n", "n1", "/dev/nvidia3,/dev/nvidia1");
	parse("Name=gpu File=/dev/nvidia[0-1],/dev/nvidia[2-3]\n", "n1", "/dev/nvidia0,/dev/nvidia1,/dev/nvidia2,/dev/nvidia3");
	parse("Name=gpu File=/dev/dri/card[0-1],/dev/accel/accel0\n", "n1", "/dev/dri/card0,/dev/dri/card1,/dev/accel/accel0");
	/* MultipleFiles= (MIG): one GPU a line, its first file standing for it */
	parse("Name=gpu MultipleFiles=/dev/nvidia0,/dev/nvidia-caps/nvidia-cap21\nName=gpu MultipleFiles=/dev/nvidia1,"
	      "/dev/nvidia-caps/nvidia-cap30\n", "n1", "/dev/nvidia0,/dev/nvidia1");
	/* a line continued with '\', a comment after a value, blanks and tabs */
	parse("NodeName=n1 \\\n  Name=gpu\tFile=/dev/nvidia2 # the second card\n", "n1", "/dev/nvidia2");
	/* text after ']' is kept (the old reader used an uninitialised suffix there) */
	parse("Name=gpu File=/dev/nvidia[0-1]x\n", "n1", "/dev/nvidia0x,/dev/nvidia1x");
	/* a malformed File= is skipped with a warning, the lines after it read */
	parse("Name=gpu File=/dev/nvidia[0-\nName=gpu File=/dev/nvidia5\n", "n1", "/dev/nvidia5");
	CU_ASSERT(strstr(uncore_warnings(), "is not a list of device files") != NULL);
}

static void test_autodetect(void)
{
	parse("AutoDetect=nvml\nName=gpu Type=gtx560 File=/dev/nvidia0 COREs=0,1\nName=mps Count=100 File=/dev/nvidia0\n",
	      "n1", "/dev/nvidia0");
	CU_ASSERT_STRING_EQUAL(conf.autodetect, "nvml");
	/* "NodeName=tux3 AutoDetect=off" trumps the global one (the man page's example) */
	parse("AutoDetect=nvml\nNodeName=tux3 AutoDetect=off Name=gpu File=/dev/nvidia[0-3]\n", "tux3",
	      "/dev/nvidia0,/dev/nvidia1,/dev/nvidia2,/dev/nvidia3");
	CU_ASSERT_STRING_EQUAL(conf.autodetect, "");
	parse("NodeName=tux[0-7] AutoDetect=nvml\nNodeName=tux[8-11] AutoDetect=rsmi\nNodeName=tux[12-15] Name=gpu "
	      "File=/dev/nvidia[0-3]\n", "tux9", "");
	CU_ASSERT_STRING_EQUAL(conf.autodetect, "rsmi");
}

static void test_include(void)
{
	char sub[200];
	snprintf(sub, sizeof(sub), "%s/nodes", dir);
	mkdir(sub, 0755);
	put("nodes/a.conf", "NodeName=n[1-2] Name=gpu File=/dev/nvidia[1-2]\ninclude b.conf\n");
	put("nodes/b.conf", "Name=gpu File=/dev/nvidia7\n");
	parse("Name=gpu File=/dev/nvidia0\nInclude nodes/a.conf\nName=gpu File=/dev/nvidia9\n", "n2",
	      "/dev/nvidia0,/dev/nvidia1,/dev/nvidia2,/dev/nvidia7,/dev/nvidia9");
	/* a file including itself: refused past the depth, named */
	put("loop.conf", "Include loop.conf\n");
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", "Include loop.conf\n"), "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "loop.conf: Include nested deeper than") != NULL);
}

/* What one read takes in all (issue 89 point 4): files, lines and bytes, the Includes' with their includer */
static void test_budget(void)
{
	char name[64], text[256];
	/* 2 deep, 10 a file: 111 files, past the 64 of a read, refused by name */
	put("fan2.conf", "Name=gpu File=/dev/nvidia0\n");
	put("fan1.conf", "Include fan2.conf\nInclude fan2.conf\nInclude fan2.conf\nInclude fan2.conf\nInclude fan2.conf\n"
			 "Include fan2.conf\nInclude fan2.conf\nInclude fan2.conf\nInclude fan2.conf\nInclude fan2.conf\n");
	put("fan0.conf", "Include fan1.conf\nInclude fan1.conf\nInclude fan1.conf\nInclude fan1.conf\nInclude fan1.conf\n"
			 "Include fan1.conf\nInclude fan1.conf\nInclude fan1.conf\nInclude fan1.conf\nInclude fan1.conf\n");
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", "Include fan0.conf\n"), "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "more than 64 files read with its Includes") != NULL);
	/* 8 deep, 10 a file (10^8 files, within the depth): refused as soon as the 65th is due, not read for hours */
	for (int k = 0; k <= 8; k++) {
		snprintf(name, sizeof(name), "deep%d.conf", k);
		text[0] = 0;
		for (int i = 0; i < 10 && k < 8; i++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "Include deep%d.conf\n", k + 1);
		put(name, k < 8 ? text : "Name=gpu File=/dev/nvidia0\n");
	}
	char top[200];
	snprintf(top, sizeof(top), "%s/deep0.conf", dir); /* the top file, its Includes 8 deep below it */
	CU_ASSERT(gres_conf_read(&host, top, "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "deep") != NULL && strstr(uncore_error(), "more than 64 files") != NULL);
	/* 64 files in all: read (the includer and 63 includes of one GPU each, 63 GPUs) */
	char *many = calloc(64, 32);
	CU_ASSERT_FATAL(many != NULL);
	for (int i = 0; i < 63; i++)
		strcat(many, "Include fan2.conf\n");
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", many), "n1", &conf) == 0 && conf.n == 63);
	free(many);
	/* lines: 65,536 in all are read, one more is refused */
	char *lines = malloc(2 * 65537 + 64);
	CU_ASSERT_FATAL(lines != NULL);
	strcpy(lines, "Name=gpu File=/dev/nvidia3\n");
	for (int i = 1; i < 65536; i++)
		strcat(lines + 2 * (i - 1), "#\n"); /* strcat from near the end: quadratic otherwise */
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", lines), "n1", &conf) == 0 && conf.n == 1);
	strcat(lines + 2 * 65534, "#\n");
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", lines), "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "gres.conf: more than 65536 lines read with its Includes") != NULL);
	free(lines);
	/* bytes: 9 files of 1,000,000 (one long comment each, within the 1 MiB of a file) are past the 8 MiB of a read */
	char *big = malloc(1000001);
	CU_ASSERT_FATAL(big != NULL);
	memset(big, 'x', 1000000);
	big[0] = '#', big[999999] = '\n', big[1000000] = 0;
	put("mb.conf", big);
	free(big);
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", "Include mb.conf\nInclude mb.conf\nInclude mb.conf\nInclude mb.conf\n"
							 "Include mb.conf\nInclude mb.conf\nInclude mb.conf\nInclude mb.conf\n"
							 "Include mb.conf\n"), "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "mb.conf: more than 8 MiB read with its Includes") != NULL);
}

static void test_refused(void)
{
	char fifo[200];
	snprintf(fifo, sizeof(fifo), "%s/fifo.conf", dir);
	CU_ASSERT_FATAL(mkfifo(fifo, 0644) == 0);
	/* a FIFO nobody writes: a blocking open would wait for ever; refused at once, named */
	CU_ASSERT(gres_conf_read(&host, fifo, "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "fifo.conf") != NULL && strstr(uncore_error(), "FIFO") != NULL);
	CU_ASSERT(gres_conf_read(&host, put("gres.conf", "Include fifo.conf\n"), "n1", &conf) == -1);
	CU_ASSERT(strstr(uncore_error(), "fifo.conf") != NULL);
	CU_ASSERT(gres_conf_read(&host, dir, "n1", &conf) == -1 && strstr(uncore_error(), "directory") != NULL);
	char big[200];
	snprintf(big, sizeof(big), "%s/big.conf", dir);
	int fd = open(big, O_CREAT | O_WRONLY, 0644);
	CU_ASSERT_FATAL(fd >= 0 && ftruncate(fd, (off_t)2 << 20) == 0);
	close(fd);
	CU_ASSERT(gres_conf_read(&host, big, "n1", &conf) == -1 && strstr(uncore_error(), "big.conf") != NULL);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "Slurm's hostlists matched and expanded", test_hostlist },
		{ "a hostlist's match and its expansion agree", test_hostlist_agrees },
		{ "a hostlist's names and steps bounded", test_hostlist_budget },
		{ "gres.conf(5)'s forms", test_forms },
		{ "AutoDetect, global and by node", test_autodetect },
		{ "Include, relative and bounded", test_include },
		{ "files, lines and bytes bounded in all", test_budget },
		{ "FIFOs, directories and huge files refused by name", test_refused },
		{ NULL, NULL },
	};
	snprintf(dir, sizeof(dir), "/tmp/test_gres_conf.XXXXXX");
	if (!mkdtemp(dir))
		return 2;
	unsetenv("UNCORE_SYSROOT");
	int rc = run_suite("gres.conf", tests);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = rc ? rc : 2;
	return rc;
}
