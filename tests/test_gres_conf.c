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
#include <sys/stat.h>
#include <unistd.h>
#include <CUnit/Basic.h>
#include "harness.h"
#include "uncore.h"
#include "jobs/gres_conf.h"
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
