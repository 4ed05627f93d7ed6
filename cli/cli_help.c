/* uncore --help, uncore help CMD / uncore CMD --help, and --version. */
#include <string.h>
#include "cli.h"

static const struct {
	const char *cmd, *synopsis, *text;
} cmds[] = {
	{ "info", "uncore [OPTIONS] info",
	  "What was found: the platform, the backend chosen and why, each unit (counters, width, boxes per\n"
	  "socket) and where every box lives.\n" },
	{ "list", "uncore [OPTIONS] list [--metrics] [--deprecated] [--format text|tsv] [--json]",
	  "The events of this platform with their codes, counters, description and qualifiers, or with\n"
	  "--metrics the derived metrics with their formulas.  --deprecated: Intel's deprecated event names\n"
	  "too (Skylake-SP's UNC_H_*, UNC_C_*), after the events, each encoded as the event it names, which\n"
	  "it counts.  --format tsv: one tab-separated row each; --json: one JSON object a line.\n" },
	{ "stat", "uncore [OPTIONS] stat [-e EV[,EV...]] [-M METRIC[,...]] [--metric-group G[,...]]\n"
		  "                      [-I MS] [--per-box] [-x SEP | --json] (--duration S | -- CMD [ARGS])\n"
		  "       uncore [OPTIONS] stat --per-job (--duration S | -I MS) [--step MS] [-M METRIC,...]\n"
		  "                      [--metric-group G,...] [--json]\n"
		  "       uncore [OPTIONS] stat --per-node --duration S [-M METRIC,...] [--metric-group G,...] [--json]\n"
		  "       uncore [OPTIONS] stat --per-device (--duration S | -I MS) [-M METRIC,...]\n"
		  "                      [--metric-group G,...] [--json]",
	  "Count events and derived metrics for S seconds or while CMD runs, every socket (and with\n"
	  "--per-box every box); -I MS prints every MS milliseconds.  -e, -M and --metric-group may be\n"
	  "repeated.  An event is NAME[:socket=N|:cpu=N][:box=N][:thresh=N][:edge][:inv][:FILTER=V] or a raw\n"
	  "unit/event=0x..,umask=0x../, or perf's PMU/terms/ (uncore_imc_0/cas_count_read/, printed in MiB\n"
	  "as perf does); a metric NAME[:socket=N|:cpu=N].  -x SEP: CSV with that separator\n"
	  "and a header row; --json: one JSON object per value.  A box that fails mid-run is named on\n"
	  "stderr; counting goes on, values that sum over it are marked (status 'failed' in CSV and JSON).\n"
	  "Exit status: 128 + the signal that stopped counting, else CMD's when not 0, else 1 when a box\n"
	  "failed.  --per-job: each job's memory reads and writes per socket (the jobs 'uncore jobs' lists),\n"
	  "and what no job's core caused as unattributed: every core a job holds sampled at one CBo/CHA\n"
	  "through its thread filter, the cores rotating every --step MS (default 100); with -M or\n"
	  "--metric-group, those of mem_read_bytes, mem_write_bytes, mem_bw_read, mem_bw_write, mem_bw_total\n"
	  "(the job's memory) and iio_write_bytes, iio_read_bytes, iio_bw_write, iio_bw_read (its devices'\n"
	  "DMA) by job instead; see doc/jobs.md.\n"
	  "--per-node: each NUMA node's memory bytes read and written and their bandwidths (sub-NUMA\n"
	  "clustering's nodes, HBM and CXL memory nodes), a node whose channels cannot be known refused\n"
	  "with the reason, and each socket's local versus remote split where the platform counts it; with\n"
	  "-M or --metric-group, those metrics by node instead (one whose boxes serve no node by socket);\n"
	  "see doc/numa.md.\n"
	  "--per-device: each device group's bytes written into the socket and read from it, and their\n"
	  "bandwidth, from its root port's IIO counters, with its devices (a PCIe switch's as one group;\n"
	  "'uncore devices' lists them); with -M or --metric-group, those of iio_write_bytes,\n"
	  "iio_read_bytes, iio_bw_write and iio_bw_read by group instead.  A metric with no such meaning\n"
	  "(and -e) is refused, naming those it has.  With --per-box the per-port IIO rows name their devices.\n" },
	{ "check", "uncore [OPTIONS] check [--backend B]... [--socket N] [--seconds S] [--size MIB] [--json]",
	  "Prove this node's counts: an idle baseline of S seconds (default 1), then a streaming read, a\n"
	  "non-temporal write and a copy of MIB MiB (default 1024) from a CPU of each socket (or socket N),\n"
	  "its memory on the socket's NUMA node (libnuma, else first touch).  The bytes each socket counted\n"
	  "must be at least those moved (less 0.1 %) and at most those plus the idle rate's share plus 5 %\n"
	  "and 16 MiB, and the other sockets must not count them.  Then: every memory channel counts and\n"
	  "they are balanced; both schedulers of a channel count (Xeon 6); resctrl's memory bandwidth\n"
	  "agrees; the uncore and DRAM clocks lie in the part's range; free-running and general counters\n"
	  "agree within 1 %; a sampled counter wraps at its documented width; two reads at once on two\n"
	  "CPUs of a socket are each given their own bytes by the per-job attribution; the registers read\n"
	  "back as programmed before, during and after the run, and as found once it stops.  Each --backend\n"
	  "given runs the whole check in turn; with none, direct then perf, each where it opens.  A table\n"
	  "(or --json: a JSON object a row) gives each check, what was expected, what was measured and\n"
	  "PASS, FAIL or SKIP with the reason.  On the simulator the generators' bytes are its whole\n"
	  "workload.\n"
	  "Exit status: 0 nothing failed, 1 a check failed, 2 no check could run.\n" },
	{ "jobs", "uncore [OPTIONS] jobs [--json]",
	  "The batch jobs this node runs (Slurm's cgroup tree, v2 or v1, and the spool /run/intel-uncore/jobs,\n"
	  "below UNCORE_SYSROOT), the CPUs each holds, and per socket how many of its CPUs: a job holding a\n"
	  "socket whole owns its counts.  An entry that cannot be used is left out with a warning.  It opens\n"
	  "no uncore (the machine's sockets and CPUs alone): it works on any node, a VM or a container.\n" },
	{ "devices", "uncore [OPTIONS] devices [--json]",
	  "The PCI devices behind each IIO stack and root port (through PCIe switches): BDF, vendor:device,\n"
	  "class, driver, the name a person knows (netdev, InfiniBand device, nvmeN, cardN, accelN) and NUMA\n"
	  "node, from the kernel's PCI tree below UNCORE_SYSROOT (the simulator's own on sim:).  A port holding\n"
	  "a switch is one group.  --json: a JSON object a group.  See doc/devices.md.\n" },
	{ "job", "uncore [OPTIONS] job begin|end|report ID [--interval S] [--whole-node] [--wait S] [--admin-comment]\n"
		 "       uncore job report --sacct ID",
	  "A job's own summary, for the prolog (begin) and epilog (end) of a node whose sockets it holds\n"
	  "whole: begin starts a process that counts those sockets, reading every S seconds (default 1)\n"
	  "for the peaks; end stops it, and it writes ID.json into the spool ($UNCORE_JOB_SPOOL, default\n"
	  "/var/spool/intel-uncore/jobs): per socket the bytes read and written, mean and peak bandwidth,\n"
	  "LLC miss ratio, link and I/O bandwidth and uncore clock where the platform has them; report\n"
	  "prints it.  --whole-node (begin): the scheduler gave the job this node whole (Slurm --exclusive),\n"
	  "so every socket is its own, with or without a cgroup or spool entry.  --wait S (begin): a job not\n"
	  "on the node yet (Slurm makes its cgroup after the prolog) is counted once it appears, waited for\n"
	  "at most S seconds.  Warnings also go to the system log (ident intel-uncore) and the summary.\n"
	  "report --admin-comment: the summary as the record the Slurm epilog puts in the job's AdminComment\n"
	  "(uncore1: and base32 of gzipped JSON); report --sacct ID: that record read back through sacct.\n" },
	{ "snapshot", "uncore [OPTIONS] snapshot -o FILE [--check [CHECK OPTIONS]]",
	  "Write this node's facts into the tar archive FILE (gzip-compressed when its name ends in .gz or\n"
	  ".tgz, else plain), for a bug report: what the library reads to decide what the machine is (CPU\n"
	  "identity and topology, NUMA nodes, the uncore's PCI devices and the configuration space the\n"
	  "discovery read, the discovery tables, the kernel's perf PMUs and their formats), with a MANIFEST\n"
	  "saying why each file is there: no counter value, no process, no host name, and no register\n"
	  "written.  Not root, it takes what it may read and says what it could not.  --backend\n"
	  "replay:FILE (and perf+replay:FILE) runs the library on it anywhere; --check runs 'uncore check'\n"
	  "on that replay (the options after it are check's), to set beside the node's own run.  See\n"
	  "doc/snapshot.md.\n" },
	{ "freq", "uncore [OPTIONS] freq [--json]",
	  "The uncore clock's limits per die (per power domain and fabric cluster on Granite Rapids and\n"
	  "later), in MHz: the minimum and maximum now, those the kernel found at boot (the BIOS's), and the\n"
	  "current clock, from Linux's intel_uncore_frequency files below UNCORE_SYSROOT (the simulator's on\n"
	  "sim:), else MSR 0x620/0x621 (direct backend; Broadwell-EP to Emerald Rapids).  The current clock is\n"
	  "root's alone to read ('-' otherwise).  --json: a JSON object a line.  See doc/user-guide.md.\n" },
	{ "memory", "uncore [OPTIONS] memory [--json]",
	  "Which iMC channel box of each socket holds DIMMs (populated, empty, none: a box that is no channel,\n"
	  "unknown), from the EDAC files Linux's driver of the generation writes, each channel's DIMMs, size,\n"
	  "type and labels, the configured speed from SMBIOS type 17 (root's alone), and each socket's peak\n"
	  "DRAM bandwidth: its populated channels x MT/s x 8 bytes, or why it is unknown.  --json: a JSON\n"
	  "object a line.  See doc/memory.md.\n" },
	{ "allowlist", "uncore [OPTIONS] allowlist [--sampling]",
	  "The msr-safe allowlist of every MSR the library reads or writes on this platform.  Without\n"
	  "--sampling the bits that stop a whole die are left out (a counter's overflow enable, the global\n"
	  "control and status): a group given this list cannot freeze root's PCI and MMIO counting.\n" },
	{ "help", "uncore help [COMMAND]", "Usage of the program, or of one command.\n" },
	{ "version", "uncore --version", "The package version and the platforms built in.\n" },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void simulated_platforms(FILE *f)
{
	const char *name, *desc;
	for (int i = 0; uncore_sim_platform(i, &name, &desc) == 0; i++)
		fprintf(f, "  sim:%-10s %s\n", name, *desc ? desc : "a machine with discovery tables only");
}

static const char options[] =
	"options (before or after the command):\n"
	"  --backend B        auto (default; also $UNCORE_BACKEND): perf where the kernel's uncore PMUs may\n"
	"                     be used, else direct; perf; direct (MSR/PCI/MMIO, root); sim:<platform>[,sockets=N]\n"
	"                     [,profile=FILE][,clock=manual]; perf+sim:<platform>[,options];\n"
	"                     replay:FILE and perf+replay:FILE: a node's snapshot, its counters simulated\n"
	"  --events FILE[:FILE]       load Intel perfmon uncore JSON files (also $UNCORE_EVENTS); repeatable\n"
	"  --metric-file FILE[:FILE]  load perf-style metric JSON files (also $UNCORE_METRICS); repeatable\n"
	"  --force            take over boxes another agent (perf, PCM, likwid) counts on (also $UNCORE_FORCE=1)\n"
	"  -h, --help         this text; 'uncore help CMD' or 'uncore CMD --help' for one command\n"
	"  --version          the version and the platforms built in\n"
	"environment: UNCORE_SCALE=1 scales counts the kernel multiplexed (enabled / running time), as perf\n"
	"stat does; UNCORE_SYSROOT=DIR reads /proc, /sys and /dev below DIR.\n";

int cli_help(const char *cmd, FILE *f)
{
	if (!cmd) {
		fprintf(f, "uncore: count Intel uncore events (memory controllers, LLC, links, power) and derived metrics\n"
			   "usage:\n");
		for (size_t i = 0; i < NCMDS; i++)
			fprintf(f, "  %s\n", cmds[i].synopsis);
		fprintf(f, "%s", options);
		fprintf(f, "simulated platforms (--backend sim:<platform>, no hardware needed):\n");
		simulated_platforms(f);
		return 0;
	}
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(cmd, cmds[i].cmd)) {
			fprintf(f, "usage: %s\n%s", cmds[i].synopsis, cmds[i].text);
			return 0;
		}
	return -1;
}

void cli_version(FILE *f)
{
	const char *name, *desc;
	fprintf(f, "uncore (intel-uncore) %s\nsimulated platforms:", uncore_version());
	for (int i = 0; uncore_sim_platform(i, &name, &desc) == 0; i++)
		fprintf(f, " %s", name);
	fprintf(f, "\n");
}
