/*
 * intel-uncore: find, program and read the uncore performance-monitoring
 * units of Intel server processors.
 *
 * Every function that can fail returns a negative number on failure and
 * leaves a message for the user in uncore_error() (per thread).
 *
 * Threads: a handle (and its sessions) may be used from several threads at
 * once; calls on one handle are serialised by a lock of that handle, and
 * uncore_sleep_ns() does not hold it while it sleeps.  uncore_open() and
 * uncore_close() are not to race with other calls on the same handle (close
 * after every other thread is done with it).  Different handles are
 * independent.
 */
#ifndef UNCORE_H
#define UNCORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uncore uncore_t;
typedef struct uncore_session uncore_session_t;

/* Last error message of this thread ("" if none). */
const char *uncore_error(void);
/*
 * Warnings: units left out and why at open; a refused claims file, ignored claim records or a forced box at a
 * session's start; a record the claims file lost at its stop; the metrics of a loaded file left out for using
 * core events; the entries a scan of the jobs left out.  They are per thread and numbered from 1 over the
 * thread's life.
 *
 * uncore_warnings_drain(): this thread's warnings that no drain has handed out yet, one per line ("" if none),
 * each handed out once: a program that drains after each call that may warn says every warning once, however
 * many come over its life.  The text stays valid until this thread's next drain.  first (may be NULL): the
 * number of the first warning it stands for, so that the warnings handed out are first..uncore_warnings_count().
 * What no drain takes is kept up to 256 KiB; past that the oldest are left out, and the next drain's first
 * line says how many.
 */
const char *uncore_warnings_drain(uint64_t *first);
/* The number of warnings this thread has made (the last one's number). */
uint64_t uncore_warnings_count(void);
/* For programs written before the drain: the kept warnings since this thread's last uncore_open() or
 * uncore_warnings_clear(), one per line ("" if none); valid until the thread's next call into the library.
 * A drain takes what it hands out from this list too.  uncore_warnings_clear() forgets the thread's warnings
 * (those no drain took as well). */
const char *uncore_warnings(void);
void uncore_warnings_clear(void);

/*
 * Open the uncore of this machine.
 * backend: "auto", "perf" (the kernel's uncore PMUs through perf_event_open(2): no root needed where
 * perf_event_paranoid <= 0 or with CAP_PERFMON), "direct" (MSR + PCI config + MMIO, root),
 * "sim:<platform>[,sockets=N][,profile=FILE][,clock=manual]", or "perf+sim:<platform>[,options]" (the
 * perf backend over a simulated kernel that runs the simulator; options paranoid=N, caps=none|perfmon|
 * sys_admin, mux_ms=N, fds=N, generic=1, busy=PMU[:N], missing=PMU besides the simulator's).
 * "auto" takes perf when the kernel has uncore PMUs for this platform and this process may use them,
 * else direct; uncore_backend_name() then says which and uncore_backend_reason() why.
 * NULL means the environment variable UNCORE_BACKEND, else "auto".
 * All device and sysfs paths are taken below UNCORE_SYSROOT (default "/").
 * A process with more privilege than its user (setuid, setgid, file capabilities: AT_SECURE) ignores
 * every UNCORE_* variable, with a warning naming those set.
 */
int uncore_open(const char *backend, uncore_t **out);
/*
 * Open only what the machine is, its sockets and their CPUs, without the uncore: no device, register or
 * PMU is opened, so it works on any Linux machine (a login node, a VM, a container, another vendor's CPU).
 * backend as for uncore_open: auto, perf and direct take the kernel's topology below UNCORE_SYSROOT (what
 * they would count on), sim:, perf+sim: and replay: their machine's.  Such a handle answers
 * uncore_num_sockets, uncore_socket_cpus, uncore_cpu_socket and the jobs calls; its platform is "none",
 * with no unit, event or metric.  uncore_close() closes it.
 */
int uncore_open_topology(const char *backend, uncore_t **out);
void uncore_close(uncore_t *u);
/*
 * The node's facts (its NUMA map and which node each memory channel serves, its memory population and peaks, its
 * PCI device map, its uncore clock-limit entries, its energy domains) are built once and kept: a read only reads
 * counters and indexes them.  uncore_node_build builds them now, each that is not built yet (a front end calls it
 * when it plans); a session's start builds those its reads take; a query made before either (uncore_numa_nodes,
 * uncore_freq_domains) builds the one it asks about.  A fact that cannot be built is kept with its reason, said
 * at each use, not tried again.  0.
 */
int uncore_node_build(uncore_t *u);
/*
 * When the machine changes under an open handle (a device hot-plugged, a node brought online), this lets the
 * node's facts go and builds them again at once (uncore_node_build), so that no read builds one; plan sessions
 * again after it (a device group's number may name another group).  0.
 */
int uncore_node_refresh(uncore_t *u);
/*
 * What of the node changed since the last check (the first: since it was taken, which it takes), a bit each:
 * the CPUs online, the PCI devices (a GPU fallen off the bus, a hot-plugged NVMe), the kernel's uncore PMUs and
 * their type numbers (the driver reloaded), the memory population EDAC shows, the uncore clock's limits.  Each
 * is a sum of a few sysfs names and lines (doc/development.md: what it reads, what it costs), read through the
 * backend's files (the sysroot's, a simulated machine's).  When any changed the node's facts are refreshed
 * (uncore_node_refresh), a CPU gone offline leaves the boxes it read for another of their die, and the perf
 * backend takes its PMUs' new type numbers: the caller says what changed and plans what it counts again.
 * The mask (0: nothing), or -1 with a message.  uncore_node_changes names a mask's bits ("cpus, devices").
 */
#define UNCORE_NODE_CPUS 0x01
#define UNCORE_NODE_DEVICES 0x02
#define UNCORE_NODE_PMUS 0x04
#define UNCORE_NODE_MEMORY 0x08
#define UNCORE_NODE_CLOCKS 0x10
#define UNCORE_NODE_KINDS 5
int uncore_node_check(uncore_t *u);
const char *uncore_node_changes(int mask, char *buf, size_t len);
/*
 * Before programming a box, the library reads its controls: a box on which another agent counts
 * (an enabled counter: the kernel's perf uncore driver, PCM, likwid, a crashed tool) is refused
 * with the register and its value.  Force (also UNCORE_FORCE=1 at open) takes such boxes over
 * anyway, with a warning; their registers are still put back at the end.
 */
void uncore_set_force(uncore_t *u, int force);

const char *uncore_version(void); /* the package version, "0.1.0" */
/* A snapshot of the machine backend names (NULL: UNCORE_BACKEND, else auto: a real node) in the tar archive
 * path (created; refused if it exists): what the library reads to decide what the machine is (CPU identity
 * and topology, NUMA nodes, the uncore's PCI devices and the configuration space the discovery read, the
 * discovery tables, the kernel's perf PMUs and their formats), without a counter value or a host name, and
 * without writing a register.  notes gets what could not be read (not root: no configuration space).
 * "replay:FILE" runs the library on it (doc/snapshot.md).  0, or -1 with the error. */
int uncore_snapshot(const char *backend, const char *path, char *notes, size_t len);
/* The i-th simulated platform built in (i = 0, 1, ... until -1): its name, as in "sim:<name>", and what
 * it is ("Sandy Bridge-EP (Xeon E5-2600)", or "" for a generic one). */
int uncore_sim_platform(int i, const char **name, const char **desc);
const char *uncore_platform_name(const uncore_t *u); /* "snbep" */
const char *uncore_platform_desc(const uncore_t *u); /* "Sandy Bridge-EP (Xeon E5-2600)" */
/* What users of this platform must know (simulator only, occupancy caveats), or NULL. */
const char *uncore_platform_caveat(const uncore_t *u);
const char *uncore_backend_name(const uncore_t *u);  /* "direct", "perf", "sim:snbep" ... */
/* The CPU and how it was matched: "cpu GenuineIntel-6-CF-2: mapfile row EMR (emeraldrapids_uncore.json
 * V1.24): platform emr" (Intel's perfmon mapfile, eventtables/mapfile.csv) */
const char *uncore_cpu_match(const uncore_t *u);
const char *uncore_backend_reason(const uncore_t *u); /* why this backend (auto's choice, or the caller's) */
/*
 * perf backend: the kernel may multiplex a box's events with another user's (time running < time
 * enabled).  With scaling on (also UNCORE_SCALE=1 at open) counts are scaled by enabled / running
 * time as perf stat does; off (the default), they are what was counted.  Events the library itself
 * split into several groups on a box (they do not fit its counters together) are always scaled, and so
 * are those of the handle's sessions that together need more of a box's counters than it has.
 */
void uncore_set_scaling(uncore_t *u, int on);
int uncore_is_simulated(const uncore_t *u);
/* The simulator only: socket's memory traffic from now on, in bytes/s, in place of the simulator's profile
 * (a program's traffic as the workload: uncore check proves its generators' bytes are counted this
 * way), its cores' LLC data-read misses those reads.  -1 on a backend that is not simulated, and on a machine
 * shared with other processes (shared=: its traffic is theirs too). */
int uncore_sim_traffic(uncore_t *u, int socket, double read_bps, double write_bps);
/* The simulator only: read_bytes and write_bytes moved on socket over ns of the simulator's time, which
 * its clock then skips, so that they are counted exactly whatever the host's timing (uncore check counts
 * its generators' bytes this way).  -1 on a backend that is not simulated. */
int uncore_sim_workload(uncore_t *u, int socket, double read_bytes, double write_bytes, uint64_t ns);
/* The same with the bytes in one kind of the socket's memory: "nodeN" (NUMA node N's memory, its channels alone:
 * the node's own socket, whatever socket says), "ddr" (as uncore_sim_workload), "hbm" (a
 * Xeon Max in flat mode, sim:spr,hbm=flat: its HBM NUMA node) or "cxl" (CXL memory expanders, sim:gnr,cxl=1:
 * its CXL memory node).  -1 with a message on a machine without it. */
int uncore_sim_workload_on(uncore_t *u, int socket, const char *memory, double read_bytes, double write_bytes,
			   uint64_t ns);
/* The simulator only: n CPU sets (CPU lists, "0-3,8") moving read_bytes[i] and write_bytes[i] at once over ns,
 * each set's cores' misses by thread as a job's of the profile are (uncore check's two generators at once
 * prove the attribution this way); the machine's only traffic then.  -1 on a backend that is not simulated. */
int uncore_sim_workload_cpus(uncore_t *u, int n, const char *const *cpus, const double *read_bytes,
			     const double *write_bytes, uint64_t ns);
/* resctrl's memory-bandwidth monitoring: the bytes the socket's L3 domain moved to and from memory
 * (mbm_total_bytes of the default group; on the simulator, what its workload moved there), a counter
 * since some point to take differences of: 0, or -1 with a message where the kernel offers none. */
int uncore_resctrl_bytes(uncore_t *u, int socket, uint64_t *bytes);
int uncore_num_sockets(const uncore_t *u);
/* The online CPUs of socket as a CPU list into buf ("0-27,56-83", in the order Linux numbers them): how many,
 * or -1 for a socket there is not. */
int uncore_socket_cpus(const uncore_t *u, int socket, char *buf, size_t len);
/* The socket of CPU cpu, as the uncore sees it (perf -C N, PAPI_CPU_ATTACH); -1 with the error when it
 * is offline or absent. */
int uncore_cpu_socket(const uncore_t *u, int cpu);

/* Units (box types) and the boxes found of each. */
struct uncore_unit_info {
	const char *name;     /* "imc" */
	const char *desc;     /* "integrated memory controller channel" */
	const char *space;    /* "msr", "pci" or "mmio"; "perf": a unit known by its kernel PMU only */
	int counters;         /* general-purpose counters per box (0: unknown, the kernel places the events) */
	int width;            /* counter width in bits (a unit of free-running counters alone: theirs) */
	int has_fixed;        /* a fixed counter exists */
	int boxes_per_socket; /* boxes found on socket 0 */
};
int uncore_num_units(const uncore_t *u);
int uncore_unit_info(const uncore_t *u, int unit, struct uncore_unit_info *out);
/* The index of the unit named name ("imc"), or -1 where the platform has none (no error set). */
int uncore_unit_find(const uncore_t *u, const char *name);
/* On the perf backend, what of a unit's control word the kernel never passes to its registers: the qualifiers
 * and fields its PMU has no format for, leaves out of its event mask, or loses writing 32 bits of config to a
 * wider PCI or MMIO control, each named with why, in buf; "" when all of it reaches them, and on every other
 * backend.  0, or -1 for no such unit. */
int uncore_unit_perf_dropped(const uncore_t *u, int unit, char *buf, size_t len);
/* Number of boxes of a unit found on a socket. */
int uncore_unit_boxes(const uncore_t *u, int unit, int socket);
/* Number of the k-th box (0..boxes-1) of a unit on a socket: its unit id, used as box=N. */
int uncore_box_number(const uncore_t *u, int unit, int socket, int k);
/* Logical dies of a socket as the kernel reports them (1 on most parts; 0 for no such socket). */
int uncore_socket_dies(const uncore_t *u, int socket);
/* The die of box number N of a unit on a socket, where the socket has several (Linux keeps an uncore per
 * logical die: Cascade Lake-AP, or a simulator with dies=N); -1 where it has one die or no such box. */
int uncore_box_die(const uncore_t *u, int unit, int socket, int box);
/* Where box number N lives, e.g. "msr 0xd04 cpu 0", "pci 0000:7f:10.0+0xf4", "mmio 0xc8aa2800". */
int uncore_box_location(const uncore_t *u, int unit, int socket, int box, char *buf, size_t len);

/* Event catalog of the platform: one entry per event/umask pair. */
struct uncore_event_info {
	const char *name;     /* full Intel name, "UNC_M_CAS_COUNT.RD" */
	const char *unit;     /* "imc" */
	unsigned code;        /* event select */
	unsigned umask;
	unsigned umask_ext;   /* umask extension (control bits 63:32) on EMR; the extra select bit on SNB-EP */
	unsigned counter_mask;/* bit i set = may use counter i; 0 = fixed or free-running counter */
	int freerun;          /* read from a free-running counter */
	const char *filters;  /* filter qualifiers the event needs, "" if none */
	const char *desc;
};
int uncore_num_events(const uncore_t *u);
int uncore_event_info(const uncore_t *u, int idx, struct uncore_event_info *out);
/* Intel's deprecated event names (perfmon "Deprecated": Skylake-SP's and Cascade Lake's UNC_H_* and UNC_C_*, ...), each
 * an alias of the event Intel names as its replacement: event specs, metrics and uncore_event_find() take them and
 * count the replacement, encoded alike; they are not among uncore_num_events() (perf lists them only with
 * --deprecated).  Alias i from 0: out as uncore_event_info() gives the replacement, with the alias's own name and
 * description, and *replacement the replacement's name; 0, or -1 past the last. */
int uncore_deprecated_info(const uncore_t *u, int i, struct uncore_event_info *out, const char **replacement);
/* The kernel's event aliases (perf backend; none on the others), each as perf spells it and as event specs
 * take it ("uncore_imc/cas_count_read_sch0/"), with its terms ("event=0x05,umask=0xcf"), scale (1: none)
 * and unit ("": none).  Alias i from 0: 0, or -1 past the last. */
struct uncore_alias_info {
	char spec[96];
	const char *terms;
	double scale;
	const char *unit;
};
int uncore_alias_info(const uncore_t *u, int i, struct uncore_alias_info *out);
/*
 * The qualifiers an event accepts after its name ("EVENT:name=value:flag"), derived from its box's
 * control-word layout and filter registers: fills up to max entries and returns how many there are.
 * A required qualifier is one the event counts nothing meaningful without (a filter opcode); one with
 * a default is set to it when not given.  Strings are owned by the library.
 */
struct uncore_qualifier {
	const char *name;               /* "thresh", "edge", "state", "socket" */
	int flag;                       /* 1: written alone (":edge"); 0: written name=value */
	unsigned long long min, max;    /* the value range (flags: 0..1) */
	int required;
	int has_default;
	unsigned long long dflt;
	const char *desc;               /* one line */
};
int uncore_event_qualifiers(const uncore_t *u, int idx, struct uncore_qualifier *out, int max);
/* Index of an event by full name, or negative. */
int uncore_event_find(const uncore_t *u, const char *name);
/*
 * Load Intel perfmon uncore JSON files, "FILE[:FILE...]": their events are added
 * to the catalog, replacing built-in events of the same name.  Returns the number
 * loaded.  The environment variable UNCORE_EVENTS=FILE[:FILE] does the same at open.
 */
int uncore_load_events(uncore_t *u, const char *file);

/*
 * Sessions.  Events are added as spec strings:
 *   UNC_M_CAS_COUNT.RD[:socket=N|:cpu=N][:box=N][:thresh=N][:edge][:inv][:filter=V...]
 *   unit/event=0x4,umask=0x3[,...]/[:socket=N|:cpu=N][:box=N]
 * Without socket= (or cpu=N: the socket of CPU N) an event is measured on
 * every socket; without box= it is summed over every box of its unit in the
 * socket.
 */
int uncore_session_new(uncore_t *u, uncore_session_t **out);
/* Attach the session to CPU cpu (PAPI_CPU_ATTACH): events and metrics added from now on that name no
 * socket count only on that CPU's socket.  -1 detaches.  Fails for an offline CPU or a started session. */
int uncore_session_set_cpu(uncore_session_t *s, int cpu);
/* Returns the event's index in the session (>= 0). */
int uncore_session_add(uncore_session_t *s, const char *spec);
int uncore_session_start(uncore_session_t *s); /* freeze, program, reset, unfreeze */
/* With on, uncore_session_start() leaves out a box it is refused (another agent or another user's
 * session counts there, a clash with another session) rather than failing, unless every box is: the
 * values summed over it are UNCORE_BOX_FAILED naming why, and the first read returns UNCORE_BOX_FAILED
 * once, as for a box that failed mid-run (a daemon keeps its other metrics).  Set before the start. */
int uncore_session_allow_refused(uncore_session_t *s, int on);
/* How many boxes the last start left out. */
int uncore_session_refused(const uncore_session_t *s);
/* Sample all counters and accumulate.  A box that cannot be read is dropped
 * for good while the others go on: the read that drops it returns
 * UNCORE_BOX_FAILED naming it (so does the first read after a sample that
 * uncore_sleep_ns() took dropped one), later reads return 0.  Every value that
 * sums over a dropped box has none from then on; the others keep counting. */
int uncore_session_read(uncore_session_t *s);
/* What the reads, uncore_session_stop() and the value getters return when a box failed mid-run: a
 * count summed over it would silently be too small, so such a value has none (uncore_error() names
 * the box and why), while values that do not involve it are still exact. */
#define UNCORE_BOX_FAILED (-2)
/* What the value getters return for a count the kernel never put on the counters over the window
 * (perf backend, multiplexed: time running 0 while enabled), as perf stat's "<not counted>": no
 * value rather than 0 (uncore_error() names the event and box). */
#define UNCORE_NOT_COUNTED (-3)

/*
 * Overflow sampling (seed 002 section 2.1.2-2.1.3; Montecito PMC0; Nehalem 0x392/0x393).  An event
 * added with the qualifier ':sample=N' has its counter preloaded with 2^width - N and reports its
 * overflow, which stops counting (IVB-EP and the discovery generation: every box of the die, PCI and
 * MMIO included, through the global freeze; Montecito: that core's PMU; Nehalem: nothing stops, the
 * counter runs on past the overflow).  Every read and sample services them first: it finds who
 * overflowed (the global status, then each box's status: several counters may overflow at once),
 * re-arms those counters, clears the status and lets the die count again, keeping the records;
 * between reads a caller lets a frozen die go on by calling uncore_session_overflows(), which does the
 * same and hands over the records kept since its last call: it fills up to max entries (the first 64
 * are kept) and returns how many overflowed (0: none), or -1 with a message.  A session that samples
 * nothing costs nothing here.
 */
typedef struct {
	int event;   /* the session's event index */
	int socket, box, counter;
} uncore_overflow_t;
int uncore_session_overflows(uncore_session_t *s, uncore_overflow_t *out, int max);
/* Final read, disable.  UNCORE_BOX_FAILED when the final read dropped a box (as uncore_session_read());
 * -1 when putting the registers back failed (a box that failed can seldom be written either: the
 * message then names what the read dropped too).  The values are those of the final read either way. */
int uncore_session_stop(uncore_session_t *s);
/* Read the session's registers back (direct backend): while it runs, every control word and filter it
 * programmed must hold what it wrote (else another agent reprogrammed the box); after
 * uncore_session_stop(), every register it saved at start must read as it was found (else the box was
 * not given back).  Returns how many differ (0: none), the first named in buf as
 * "imc 1 (socket 0) PMON_CTL0 = 0x..., not 0x..."; -1 with a message on the perf backend (the kernel
 * owns the registers), before a start, or when a register cannot be read. */
int uncore_session_verify(uncore_session_t *s, char *buf, size_t len);
/* Restores every register the session touched, then frees it. */
void uncore_session_free(uncore_session_t *s);

int uncore_session_num_events(const uncore_session_t *s);
const char *uncore_session_event_name(const uncore_session_t *s, int ev);
/* perf's scale and unit of event ev: those of the driver's event alias it names (uncore_imc/cas_count_read/
 * counts 64-byte CAS commands; scale 6.103515625e-5, unit "MiB"), so that value x scale is in unit; 1 and
 * "" for every other event (unit may be NULL). */
double uncore_session_event_scale(const uncore_session_t *s, int ev, const char **unit);
/* Accumulated count since start.  socket/box = -1 sums over all.  UNCORE_BOX_FAILED when one of the
 * boxes it sums over failed, UNCORE_NOT_COUNTED when one of them was never counted.  On the perf backend a
 * box's events that do not fit its counters together are split into groups the kernel takes turns with
 * (multiplexing, as perf does); their counts are then scaled by time enabled / time running. */
int uncore_session_value(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out);
/* The count between the last two reads, likewise (multiplexed: scaled by that interval's own times, as
 * perf stat -I does, so never less than 0). */
int uncore_session_interval_value(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out);
/* The box whose failure leaves event ev's value on socket/box (-1: all) without one, as
 * "imc 0 (socket 0)" in buf (the first, when several did): 1; 0 when none does (buf ""); -1 for an
 * event the session does not have.  A front end marks such a value instead of leaving it out. */
int uncore_session_failed_box(const uncore_session_t *s, int ev, int socket, int box, char *buf, size_t len);
/*
 * How long the event's boxes on socket/box (-1: all, summed) were enabled and really counting since
 * start, in ns.  running < enabled: the kernel multiplexed them with another user's events (perf
 * backend; the register backends always count, running == enabled).  Returns 1 when multiplexed,
 * 0 when not, -1 on error.
 */
int uncore_session_times(const uncore_session_t *s, int ev, int socket, int box, uint64_t *enabled,
			 uint64_t *running);
/* Sockets the event is measured on, and boxes it uses on a socket. */
int uncore_session_event_sockets(const uncore_session_t *s, int ev, int *sockets, int max);
int uncore_session_event_boxes(const uncore_session_t *s, int ev, int socket);
/* The die of the event's box number box on a socket, as uncore_box_die (-1: one die, or no such box). */
int uncore_session_box_die(const uncore_session_t *s, int ev, int socket, int box);
/* Nanoseconds elapsed between start and the last read. */
uint64_t uncore_session_elapsed_ns(const uncore_session_t *s);
/* The library's clock in ns (CLOCK_MONOTONIC, or the simulator's): what reads are timed with. */
uint64_t uncore_now_ns(const uncore_t *u);
/* The library's clock and the Unix time (CLOCK_REALTIME, ns since 1970) read together, for front ends that
 * send values with their time (collectd, Prometheus): a value read at t was read at *real_ns - (*lib_ns - t). */
void uncore_clock_pair(const uncore_t *u, uint64_t *lib_ns, uint64_t *real_ns);
/* Stamps that never go back (collectd refuses a value older than the last, Prometheus a sample): the Unix time
 * to take for a pair (uncore_clock_pair's lib_ns, real_ns), from the offset between the two clocks kept in *w
 * (zeroed before the first pair; a front end carries it over its restarts).  The wall clock stepped forward is
 * taken at once; stepped back (settimeofday, a step of NTP), followed at UNCORE_WALL_SLEW of the library's time
 * that passes, so that a rate over the stamps is never negative and off by at most that. */
#define UNCORE_WALL_SLEW 0.001
struct uncore_wall {
	int64_t off;  /* the Unix time less the library's clock, as stamps take it */
	uint64_t lib; /* the library's clock at the last pair */
	int set;
};
uint64_t uncore_wall_stamp(struct uncore_wall *w, uint64_t lib_ns, uint64_t real_ns);
/* When the counters behind a value were last read, on that clock: the mean over the boxes of event ev
 * on socket/box (-1: all), or over those of metric m's first event; 0 when it has none.  A front end
 * that timestamps values (collectd) uses it, so that rates divide by when the counts were taken, not
 * by when they were passed on. */
uint64_t uncore_session_read_time_ns(const uncore_session_t *s, int ev, int socket, int box);
uint64_t uncore_session_metric_read_time_ns(const uncore_session_t *s, int m, int socket, int box);

/*
 * Derived metrics (bandwidths, ratios, latencies, frequencies) defined over
 * events in platforms/<platform>/metrics.json.  A metric is evaluated per
 * socket (socket = -1: the whole machine) and, when all its events belong to
 * one unit, per box of that unit.
 */
struct uncore_metric_info {
	const char *name;  /* "mem_bw_read" */
	const char *expr;  /* "UNC_M_CAS_COUNT.RD * 64 / duration" */
	const char *unit;  /* "GB/s" */
	double scale;      /* value = expr x scale */
	const char *group; /* "memory" */
	const char *desc;
	int box_unit;      /* unit index whose boxes it can be evaluated on, -1 = per socket only */
};
int uncore_num_metrics(uncore_t *u);
int uncore_metric_info(uncore_t *u, int idx, struct uncore_metric_info *out);
int uncore_metric_find(uncore_t *u, const char *name);
/* Whether metric idx can be counted on this machine: 0 when it is of one unit the machine has no box of
 * (Xeon Max's HBM metrics on a Sapphire Rapids without HBM), which groups then leave out; 1, or -1. */
int uncore_metric_here(uncore_t *u, int idx);
/* Load metric definitions from "FILE[:FILE...]" (JSON arrays of objects with MetricName, MetricExpr,
 * ScaleUnit, MetricGroup, BriefDescription); returns the number loaded.  The
 * environment variable UNCORE_METRICS=FILE[:FILE] does the same on first use. */
int uncore_load_metrics(uncore_t *u, const char *file);
/* Add a metric's events to a session (events shared with earlier ones are
 * reused); "name:socket=N" counts them on that socket only.  Returns the metric's index in the session, or -1 when its events
 * cannot all be counted at once next to the session's other events; the
 * session is then unchanged. */
int uncore_session_add_metric(uncore_session_t *s, const char *name);
int uncore_session_num_metrics(const uncore_session_t *s);
const char *uncore_session_metric_name(const uncore_session_t *s, int m);
/* Windows for values: since start, or between the last two reads. */
#define UNCORE_SINCE_START 0
#define UNCORE_LAST_INTERVAL 1
/* For a metric in a per-second unit: what its rate adds up to since start (the
 * rate times its duration, e.g. bytes for a GB/s metric, in the metric's scale). */
#define UNCORE_SINCE_START_COUNT 2
/* A metric's value (NaN when undefined, e.g. nothing happened to divide by); UNCORE_BOX_FAILED when
 * one of its events on socket/box sums over a box that failed, UNCORE_NOT_COUNTED (value NaN) when one
 * was not counted over the window. */
int uncore_session_metric_value(const uncore_session_t *s, int m, int socket, int box, int window, double *out);
/* As uncore_session_failed_box(), for metric m's value on socket/box. */
int uncore_session_metric_failed_box(const uncore_session_t *s, int m, int socket, int box, char *buf, size_t len);
/* As uncore_session_times(), for metric m's value on socket/box: the times of its event that counted the
 * smallest share of its time enabled (perf backend), so that a front end can mark a value computed from
 * multiplexed counts. */
int uncore_session_metric_times(const uncore_session_t *s, int m, int socket, int box, uint64_t *enabled,
				uint64_t *running);
/* Sleep; on a simulator with a manual clock, advance its clock instead.  Running sessions of the handle
 * are sampled on the way, so a long sleep loses no count. */
int uncore_sleep_ns(uncore_t *u, uint64_t ns);

/*
 * No lost wraps.  A counter that wraps twice between two reads loses counts.  A running session knows
 * how long its fastest counter could take to wrap (width, at most 5e9 cycles/s, at most 64 increments a
 * cycle for general counters, 1 for fixed and free-running ones) and gives half of it here: read or
 * sample at least that often (44-bit counters: every 27 s; 48-bit: every 7 min).  uncore_sleep_ns() does
 * so by itself; the collectd plugin samples between its reads when its Interval is longer.
 * uncore_session_sample() accumulates every counter without closing an interval (the last-interval
 * values stay those of the caller's reads).
 */
uint64_t uncore_session_max_read_interval_ns(const uncore_session_t *s);
int uncore_session_sample(uncore_session_t *s);
/* What a read of the session's events will cost, by the cost model (doc/cost.md), in ns: an estimate made
 * before it starts, averaged over reads interval_s apart (0: a read a second or rarer): every box's counters,
 * its control words read back in rotation (a rotation a second, a read's share at most a fifth of its counters'
 * accesses), each CPU's boxes read on it where moving there pays, MSRs in
 * one batch where the backend has one.  uncore_get_stats() gives the cost reads took. */
double uncore_session_estimate_read_ns(const uncore_session_t *s, double interval_s);

/*
 * Health: what every read of the caller (uncore_session_read) says about the counters themselves, with no
 * traffic of the library's own.  A condition is raised once, when a read first shows it, and cleared by
 * the first read that no longer does.  doc/health.md says what each means and what a site should do.
 */
enum uncore_health_kind {
	UNCORE_HEALTH_ALLONES,   /* a box's counter read all ones: its device is gone or its bus failed */
	UNCORE_HEALTH_STOPPED,   /* a box's counters did not move while the unit's other boxes counted, or a
				  * whole socket's did not, its die frozen by an overflow no session's claim explains */
	UNCORE_HEALTH_SILENT,    /* one event of a box (a scheduler) counted nothing while the rest counted */
	UNCORE_HEALTH_CLOCK,     /* a clock outside the range the platform's uncore clocks run in */
	UNCORE_HEALTH_BANDWIDTH, /* a memory channel moved more than a channel can */
	UNCORE_HEALTH_WIDTH,     /* a count beyond the counter's width, or a wrap at another width */
	UNCORE_HEALTH_TAKEN,     /* another agent changed a control register the session programmed */
	UNCORE_HEALTH_TWIN,      /* a general counter and its free-running twin disagree */
	UNCORE_HEALTH_RESCTRL,   /* the node's memory counts fall short of resctrl's */
	UNCORE_HEALTH_FROZEN,    /* a socket's die frozen by another process's sampled overflow it does not service */
	UNCORE_HEALTH_UNCOUNTED, /* a device group moved more bytes than its IIO port counted (doc/health.md) */
	UNCORE_HEALTH_DEVSTOPPED, /* a device group's own byte counters stood still while its IIO port moved bytes */
	UNCORE_HEALTH_DEVMAP,    /* a device group's bytes counted on another IIO port: the stack-to-bus map is wrong */
	/* the uncore clock's limits (issue 68): */
	UNCORE_HEALTH_UCLKPINNED, /* the counted uncore clock held at a floor its limits pin below the platform's range
				   * while memory is busy (a BIOS setting; raised on the socket, box -1) */
	UNCORE_HEALTH_UCLKLIMITS, /* a counted uncore clock outside the limits the kernel gives (a broken counter or formula) */
	/* energy counters the session watches (uncore_session_watch_energy, doc/health.md "Energy") */
	UNCORE_HEALTH_ENERGYSTUCK, /* an energy counter that did not move over an interval: it is stuck */
	UNCORE_HEALTH_ENERGYUNIT,  /* a socket's energy at a power no socket draws: a wrong energy unit */
	UNCORE_HEALTH_KINDS
};
struct uncore_health {
	int kind;           /* enum uncore_health_kind */
	int raised;         /* uncore_session_health_changes: 1 raised, 0 cleared; uncore_session_health: 1 */
	int socket;         /* -1: the node */
	char unit[16];      /* "imc"; "": a socket's or the node's */
	int box;            /* its number in the unit, -1: none */
	int event;          /* the session's event it concerns, -1: every event of the box */
	uint64_t since_ns;  /* when a read first showed it (uncore_now_ns) */
	char what[240];     /* what was seen */
};
/* "allones", "stopped", ...: the name front ends use (NULL past the last); what it means for a site. */
const char *uncore_health_name(int kind);
const char *uncore_health_advice(int kind);
/* The conditions standing now, the first max in out; the number of them. */
int uncore_session_health(const uncore_session_t *s, struct uncore_health *out, int max);
/* The conditions raised and cleared since the last call (each once, oldest first), the first max in out;
 * the number of them (a later call gets none of these again). */
int uncore_session_health_changes(uncore_session_t *s, struct uncore_health *out, int max);
/* The conditions that make event ev's value on socket/box (-1: any) wrong now, as bits 1 << kind; 0: none. */
unsigned uncore_session_event_health(const uncore_session_t *s, int ev, int socket, int box);
/* ... and those that make the session's metric m wrong there (any of its events'). */
unsigned uncore_session_metric_health(const uncore_session_t *s, int m, int socket, int box);
/* Health also judges e's energy counters at every read of s (doc/health.md "Energy"): each domain's last interval
 * as e's reads closed it (uncore_energy_read, the caller's), with no read of its own -- energystuck, energyunit.
 * e must outlive its watch (NULL: watch none).  0, or -1 out of memory. */
struct uncore_energy; /* uncore_energy_t, below */
int uncore_session_watch_energy(uncore_session_t *s, const struct uncore_energy *e);

/* Bytes a count of the IIO free-running port bandwidth counters (UNC_IIO_BANDWIDTH_IN.PARTn_FREERUN) stands
 * for on this platform; 0: not known (no such counters). */
double uncore_iio_freerun_bytes(const uncore_t *u);

/* Counters of register accesses and system calls made so far. */
struct uncore_stats {
	uint64_t reads, writes, syscalls;
	uint64_t refused_writes; /* writes the library refused to make: not a PMON register (a bug if ever > 0) */
	/* where reads ran and what they cost as hardware would (doc/cost.md): reads aimed at another CPU (each
	 * an inter-processor interrupt), batch calls, moves of the calling thread, the model's nanoseconds */
	uint64_t remote_reads, batches, migrations, modelled_ns;
};
void uncore_get_stats(const uncore_t *u, struct uncore_stats *out);
/* Reads on their boxes' CPUs (on by default, doc/cost.md): the calling thread is moved onto each socket's CPU
 * for the registers and perf groups read there, and back, and a CPU's MSRs are read in one batch call where
 * msr-safe's batch device exists.  Off: every read from wherever the thread runs (make bench's "before"). */
void uncore_set_local_reads(uncore_t *u, int on);

/*
 * What a front end reports (the collectd plugin, the exporter): named metrics, metric groups and raw events
 * on the sockets asked for, each metric per socket and, for the units named (or all), per box.  With
 * nothing named, the default set: the groups memory, llc, interconnect and clock that the platform has, as
 * far as they fit UNCORE_DEFAULT_COUNTERS counters a read together (memory always; the groups left out are
 * named in notice), or, where the CPU has no platform of ours, Intel's memory_bandwidth_* and
 * uncore_frequency metrics; and beside them each device group's bytes in and out on its IIO box (the
 * device series: uncore_session_add_device_group), where the device map finds groups with devices and
 * they fit the cost budget.  uncore_select() adds them to the session s (new, not started) and gives the
 * series in *series (free() it); -1 with the error naming the option at fault, in the front end's words
 * (opt_*: "MetricGroups", "--groups"; NULL: "groups", ...).
 */
/* Each counter read costs a register read (on hardware an MSR pread, a PCI config read or an MMIO load) and
 * its share of the evaluation: make bench measures 60-80 us a read for a set of this size on the simulator,
 * under the budget of 0.01 % of a core at one read a second (100 us).  The largest real machine of a
 * built-in platform, a 2-socket Clearwater Forest, reads 1016 with its whole default set; on a 4-socket CWF
 * the LLC group alone reads 1152 CHA counters and is left out. */
#define UNCORE_DEFAULT_COUNTERS 1024
/* ... and, where the front end gives its read interval, what a read of the default set may cost by the cost
 * model: 1 % of a core (100 us a read at 100 Hz, 10 ms at one read a second, where the counter limit
 * decides); the groups that would cost more are left out and named in notice. */
#define UNCORE_DEFAULT_SHARE 0.01
struct uncore_selection {
	const char *const *metrics, *const *groups, *const *events, *const *box_units;
	int nmetrics, ngroups, nevents, nbox_units;
	unsigned sockets; /* bit s: socket s; 0: every socket */
	int per_box_all;  /* every metric per box of its unit */
	const char *opt_metrics, *opt_groups, *opt_events, *opt_sockets, *opt_per_box;
	double interval_s; /* seconds between the front end's reads; 0: not said (the counter limit alone) */
	/* the front end attributes jobs beside it (uncore_attrib_*): the default set leaves out the metrics whose
	 * events would take the counters or filter bits the attribution's sampled event needs, with a warning
	 * (uncore_warnings()) naming them; what is named explicitly is kept, and the attribution's start then
	 * fails naming the counter */
	int per_job;
};
struct uncore_series {
	int metric;       /* the session's metric, or -1: a raw event */
	int info;         /* the metric's index for uncore_metric_info(), or -1 */
	int event;        /* the session's event, where metric is -1 */
	int socket;
	int unit, box;    /* the metric's box unit (-1: none); box -1: the socket's value, else that box number */
	const char *name; /* the metric's name, or the event as the session spells it (until more are added) */
	/* by_node 1: a NUMA node's series (issue 67, doc/numa.md), the metric summed over the channels of the kernel's
	 * node `node` (uncore_session_node_value); socket is the node's, box -1 */
	int by_node, node;
};
int uncore_select(uncore_t *u, uncore_session_t *s, const struct uncore_selection *sel, struct uncore_series **series,
		  int *n, char *notice, size_t len);
/* Scan the jobs (uncore_jobs_scan) and write them as "id=cpus/devices;..." into out, each job whole (every CPU and
 * device): a front end that follows the jobs compares it with the last to see them come and go.  Returns the
 * number of jobs, or -1 (the error names the bytes the set takes where len is fewer: never a set cut short, which
 * would hide every change past the cut; uncore_perjob_follow compares sets of any size). */
int uncore_jobs_signature(uncore_t *u, char *out, size_t len);

/*
 * Jobs: the batch jobs this node runs and the CPUs each holds, from Slurm's cgroup tree (cgroup v2:
 * system.slice/slurmstepd.scope/job_ID/cpuset.cpus.effective; v1: cpuset/slurm/uid_UID/job_ID/) and from
 * the spool directory /run/intel-uncore/jobs/ (a file per job, named by its id, its first line the CPU
 * list: what a PBS or LSF prolog writes; root's or this user's, writable by its owner alone), all below
 * UNCORE_SYSROOT.  uncore_jobs_scan() reads them afresh and returns how many (or -1); an entry it cannot
 * use is left out with a warning (uncore_warnings()).  A job holding every CPU of a socket owns that
 * socket's counts: uncore_job_socket_cpus() gives its CPUs there and the socket's.
 */
struct uncore_job_info {
	char id[65];         /* "1234", "1234_7", "99.pbs01" */
	const char *source;  /* "slurm-cgroup2", "slurm-cgroup1" or "spool" */
	int ncpus;           /* the CPUs it holds on this node */
	char cpus[256];      /* as a CPU list, "0-15,32-47" ("..." at its end when cut) */
	int ndevices;        /* the PCI functions it holds (its GPUs: doc/jobs.md "A job's devices") */
	char devices[256];   /* their BDFs, "0000:17:00.0,0000:18:00.0" ("..." at its end when cut) */
};
int uncore_jobs_scan(uncore_t *u);
int uncore_num_jobs(const uncore_t *u);
int uncore_job_info(const uncore_t *u, int job, struct uncore_job_info *out);
/* The job's CPUs on socket, and the socket's online CPUs in *total (may be NULL); -1 for a job or socket
 * there is not. */
int uncore_job_socket_cpus(const uncore_t *u, int job, int socket, int *total);
/* The device groups (uncore_device_group_info) the job holds whole, every device of each and no other job
 * holding one, at most max into out: how many, or -1 (no such job; no device map where the job holds devices).
 * A group it holds part of is said in a warning (its DMA is no one job's: doc/jobs.md "Devices"). */
int uncore_job_device_groups(uncore_t *u, int job, int *out, int max);

/*
 * Memory traffic by job where jobs share a socket (doc/jobs.md, "Shared nodes"): each core a job holds is
 * sampled at one CBo/CHA through the box's thread-id filter (its LLC misses there, times the socket's boxes,
 * estimate all of them: addresses hash evenly over the boxes), the cores rotating over the boxes step by
 * step; a job's reads are its cores' misses x 64 bytes, its writes the socket's writes in proportion to its
 * reads, and what no job's core caused (devices' DMA, cores of no job) is unattributed: on each socket the
 * jobs' rows and the unattributed row add up to the memory controllers' count exactly.  The jobs are those
 * uncore_jobs_scan() found.  An attribution is one thread's at a time.
 *   uncore_attrib_new()    plans it (-1 where the platform has no per-thread count);
 *   uncore_attrib_start()  starts counting, uncore_attrib_step() rotates the sampled cores (every 100 ms or
 *                          so: the more steps, the smaller the sampling error), uncore_attrib_read() makes
 *                          the rows of the window (UNCORE_SINCE_START or UNCORE_LAST_INTERVAL, since the
 *                          last read), uncore_attrib_stop() ends it (it may be read after), free lets it go.
 */
typedef struct uncore_attrib uncore_attrib_t;
struct uncore_attrib_row {
	int socket;
	char job[65];        /* "": unattributed */
	double read_bytes, write_bytes;
	double socket_read_bytes, socket_write_bytes; /* the socket's memory controllers' count: the rows' sum */
	double seconds;      /* the window */
	double sampled;      /* the share of the window its cores were sampled, on average (1 for unattributed) */
	/* the DMA of its devices on the socket (doc/jobs.md "Devices"): the IIO bytes of the device groups it holds
	 * whole, written into the socket and read from it; unattributed: the groups no one job holds whole.
	 * I/O bytes, beside the memory bytes above (which they do not change) */
	double device_write_bytes, device_read_bytes;
	/* the job's CPUs on the socket that another job holds too (OverSubscribe, --overlap): what each such CPU
	 * read is split equally among the jobs holding it (doc/jobs.md "Shared CPUs"); 0 none, and 0 for unattributed */
	int shared_cpus;
};
int uncore_attrib_new(uncore_t *u, uncore_attrib_t **out);
/* The same over n CPU sets of one's own ("0-3,8") named names[i] (at most 64 characters), not the jobs. */
int uncore_attrib_new_cpus(uncore_t *u, int n, const char *const *names, const char *const *cpus, uncore_attrib_t **out);
int uncore_attrib_start(uncore_attrib_t *a);
int uncore_attrib_step(uncore_attrib_t *a);
int uncore_attrib_read(uncore_attrib_t *a, int window); /* how many rows, or -1 */
int uncore_attrib_row(const uncore_attrib_t *a, int i, struct uncore_attrib_row *out);
int uncore_attrib_stop(uncore_attrib_t *a);
void uncore_attrib_free(uncore_attrib_t *a);
/* The library's clock (uncore_now_ns) when the last read's memory counts were taken (the middle of their
 * reads, socket 0's), 0 before any: the stamp of the rows. */
uint64_t uncore_attrib_read_time_ns(const uncore_attrib_t *a);
/* What the platform's per-thread count counts ("the core's requests that missed the LLC"), or NULL. */
const char *uncore_attrib_counts(const uncore_t *u);
/*
 * Per-job accounting, the one way the front ends take (doc/jobs.md "Shared nodes"): the node's jobs found,
 * their memory traffic attributed as uncore_attrib_* does, each job's bytes tallied since the front end
 * first saw it, and the attribution started over on the new set when jobs come or go.
 *   uncore_perjob_new()    makes one on u (nothing counted yet);
 *   uncore_perjob_plan()   scans the jobs and plans their attribution: how many jobs, or -1 (where the
 *                          platform has no per-thread count); uncore_perjob_start() plans if not planned,
 *                          starts counting and makes the tally's jobs those of the scan (a job that left
 *                          dropped, a new one added at 0); a start that fails leaves nothing counting, and
 *                          the next start scans again;
 *   uncore_perjob_step()   rotates the sampled cores (every 100 ms or so), uncore_perjob_read() makes the
 *                          rows of the window (UNCORE_SINCE_START or UNCORE_LAST_INTERVAL) and adds them to
 *                          the tally (give it reads of UNCORE_LAST_INTERVAL: each adds its own window);
 *   uncore_perjob_follow() scans the jobs again: 0 as they were, 1 when they changed and the attribution
 *                          started over on them (the jobs that stay keep their counts in the tally), -1
 *                          when that start failed (nothing counting: start it again later);
 *   uncore_perjob_stop()   ends the counting (the last rows may be read after), free lets it go.
 * The tally (NULL: none) is the front end's: it outlives the object and its handle (the exporter carries
 * it over a reload, and uncore_perjob_tally_jobs() then makes its jobs those of the new object's start).
 * A zeroed struct is an empty tally; uncore_job_tally_free() lets it go.  One thread uses an object at a
 * time.
 */
struct uncore_job_bytes {
	char id[65];
	double read_bytes, write_bytes;
	int present;
	double device_write_bytes, device_read_bytes; /* its devices' DMA (uncore_attrib_row's) */
	int shared_cpus; /* its CPUs shared with another job at the last read, over the sockets (uncore_attrib_row's) */
};
struct uncore_job_tally {
	struct uncore_job_bytes *jobs;
	int n;
	double unattributed_read, unattributed_write;
	double unattributed_device_write, unattributed_device_read;
	char *said; /* the jobs' last scan's warnings, as said: a new object's scan (after a reload) says none again */
};
void uncore_job_tally_free(struct uncore_job_tally *t);
typedef struct uncore_perjob uncore_perjob_t;
int uncore_perjob_new(uncore_t *u, uncore_perjob_t **out);
int uncore_perjob_plan(uncore_perjob_t *p);
int uncore_perjob_start(uncore_perjob_t *p, struct uncore_job_tally *t);
int uncore_perjob_started(const uncore_perjob_t *p); /* 1 while started (0 for NULL) */
int uncore_perjob_step(uncore_perjob_t *p);
int uncore_perjob_read(uncore_perjob_t *p, int window, struct uncore_job_tally *t); /* how many rows, or -1 */
int uncore_perjob_row(const uncore_perjob_t *p, int i, struct uncore_attrib_row *out);
/* The library's clock when the last read's memory counts were taken (the rows' stamp), 0 before any. */
uint64_t uncore_perjob_read_time_ns(const uncore_perjob_t *p);
int uncore_perjob_follow(uncore_perjob_t *p, struct uncore_job_tally *t);
int uncore_perjob_tally_jobs(const uncore_perjob_t *p, struct uncore_job_tally *t);
int uncore_perjob_stop(uncore_perjob_t *p);
void uncore_perjob_free(uncore_perjob_t *p);

/*
 * Every MSR the library reads or writes on this machine, with the bits it may write, in the
 * format of msr-safe's allowlist (/dev/cpu/msr_allowlist): "0x00000C10 0x00000000FFFFFFFF # ..."
 * lines, read-only registers with mask 0.  Loaded into msr-safe, it lets users who are not root
 * count through the direct backend.  Returns malloc'd text (free it), or NULL with a message.
 * The bits that stop a whole die are left out: a counter's overflow enable (its overflow freezes
 * every box of the die, PCI and MMIO included, on IVB-EP and the discovery platforms) and the
 * global control and status (frz_all stops them all); with UNCORE_ALLOWLIST_SAMPLING they are in,
 * for a site that trusts the group with ':sample=N'.
 */
#define UNCORE_ALLOWLIST_SAMPLING 1u
char *uncore_msr_allowlist_for(const uncore_t *u, unsigned flags);
char *uncore_msr_allowlist(const uncore_t *u); /* uncore_msr_allowlist_for(u, 0) */

/*
 * The PCI devices behind the IIO stacks (doc/devices.md): for each stack's root bus and each of its root
 * ports, the devices below them, through PCIe switches.  A root port holding several devices (a switch)
 * is one group: its IIO counters count them together and the map never splits them.  Found on the first
 * call, from the kernel's PCI tree (sysfs below UNCORE_SYSROOT; the simulator's own on sim: backends);
 * what cannot be read is left out with a warning (uncore_warnings()).
 */
struct uncore_device_group {
	int socket, die;        /* -1: below no counted IIO stack (another host bridge's bus) */
	int stack;              /* the IIO box (perf's uncore_iio_<stack>); -1 as socket */
	int port;               /* the root port's counter port: the iio_*_port<n> counters' n (the part its
				 * device number is on its generation, doc/devices.md); -1: the stack's own
				 * functions on its root bus, or no stack; UNCORE_PORT_UNKNOWN: port_why says */
	char root_bus[16];      /* "0000:16" */
	char root_port[16];     /* the root port's BDF (GNR/SRF accelerators, ICX's CBDMA engines: the endpoint's own);
				 * "" where port is -1 */
	int ndevices;           /* devices below (bridges apart); 0: an empty port */
	int behind_switch;      /* a PCIe switch holds them: the port's counters count them as one */
	const char *behind;     /* what holds them below the root port: "a PCIe switch", "a PCIe-to-PCI bridge" (a
				 * conventional PCI bus behind it, as a BMC's video), "a bridge" (its kind not known:
				 * doc/devices.md); "" where they sit right below it */
	const char *source;     /* where the stack's root bus came from: "kernel" (uncore_iio_<n>/die<d>),
				 * "registers" (SKX's CPU_BUS_NUMBER MSR, ICX's SAD_CONTROL_CFG), "simulator", or "" */
	const char *port_why;   /* why the counter port is unknown (port UNCORE_PORT_UNKNOWN); else "" */
};
#define UNCORE_PORT_UNKNOWN (-2)
struct uncore_device {
	char bdf[16];           /* "0000:17:00.0" */
	unsigned vendor, device;
	long class_code;        /* the 24-bit PCI class (0x020000 Ethernet); -1: unknown */
	char driver[32];        /* the bound driver ("ice"); "": none */
	char name[64];          /* what a person knows it by: netdev, InfiniBand device, nvmeN, cardN, accelN; "" */
	int numa_node;          /* -1: unknown */
};
/* The groups (-1 with the error when the PCI tree cannot be read), one group's facts, and its i-th device:
 * 0, or -1 for a group or device there is not. */
int uncore_num_device_groups(uncore_t *u);
int uncore_device_group_info(uncore_t *u, int group, struct uncore_device_group *out);
int uncore_device_info(uncore_t *u, int group, int i, struct uncore_device *out);
/* What counts a device group's bytes: its stack's IIO box (box=N of the unit, --per-box's iio<N>: the
 * handle's box of perf's uncore_iio_<stack> on the group's socket and die) and the counter port n of
 * UNC_IIO_BANDWIDTH_IN/OUT.PART<n>_FREERUN and iio_bw_write/read_port<n> (the group's port).  0, or -1 with
 * the reason (uncore_error()): a group on no root port (port -1) or below no stack, a port the platform has
 * no counter for, a platform whose IIO counts no port (before Skylake-SP), a handle without its boxes. */
struct uncore_device_counter {
	int socket, die;
	int unit;               /* the IIO unit's index (uncore_unit_info) */
	int box;                /* its box number (box=N) */
	int port;               /* the counter port: the n of PART<n> and of iio_*_port<n> */
};
int uncore_device_group_counter(uncore_t *u, int group, struct uncore_device_counter *out);
/* The reverse: the device group whose bytes the counters of port n of IIO box number box on socket count,
 * or -1 with the reason (no root port there, nothing found behind it, no map). */
int uncore_device_group_at(uncore_t *u, int socket, int box, int port);
/* Each device group's bytes against its IIO port's over the session's last judged window (doc/health.md,
 * "Devices against their ports"): a row per group and per port the session counts that the map puts no group
 * on.  A window is judged at the first read 10 s after the last, where the session counts the ports' bytes
 * (UNC_IIO_BANDWIDTH_IN/OUT.PARTn_FREERUN, or UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE/MEM_READ.PARTn).  The rows
 * (at most max into out); 0 before the first window. */
struct uncore_device_check {
	int group;              /* uncore_device_group_info's; -1: a port the map puts no device on */
	int socket, stack, port;
	double seconds;         /* the window */
	double iio_in, iio_out; /* bytes the port counted into memory and out of it (NaN: not counted, not judged) */
	double dev_in, dev_out; /* bytes the group's devices counted (NaN: a device keeps no counters, a GPU) */
	const char *verdict;    /* "ok", "uncounted: ...", "stopped: ...", "elsewhere: ...", "not compared: ..." */
	int other;              /* elsewhere: the row of the port that counted the group's bytes; else -1 */
};
int uncore_session_device_check(const uncore_session_t *s, struct uncore_device_check *out, int max);
/* Add to a session not yet started the events of each IIO port's bytes in and out the check reads (the
 * free-running counters, else the general ones, a direction at a time, as far as the boxes' counters go: ICX
 * counts two ports' outbound bytes at once): how many ports are counted in a direction at least (0: the
 * platform counts no port's bytes, before Skylake-SP). */
int uncore_session_add_device_ports(uncore_session_t *s);
/* Add what counts device group's bytes to session s (not started): the metrics iio_write_bytes_port<n> and
 * iio_read_bytes_port<n> of its port, counted on its box alone, their values the group's at its socket and box
 * (uncore_device_group_counter).  *write_m, *read_m: their session indices,
 * -1 for a direction the platform does not count by port (Ice Lake-SP: inbound only).  0, or -1 with why. */
int uncore_session_add_device_group(uncore_t *u, uncore_session_t *s, int group, int *write_m, int *read_m);
/* The port n a per-port IIO metric or event counts (iio_bw_write_port3, iio_read_bytes_port3,
 * UNC_IIO_BANDWIDTH_IN.PART3_FREERUN, with or without ":qualifiers"), or -1 for any other name. */
int uncore_iio_port_of(const char *name);
/* The devices the port n counters of IIO box box on socket count (box -1: every stack's port n; socket -1:
 * every socket's), as front ends label a per-port value: the groups, their devices' BDFs, names (the
 * netdev, nvmeN, cardN...; vendor:device where the device has none) and drivers ("none": unbound) as
 * comma lists in one order, and a line for people; a switch's devices are listed together as its one group.
 * A list too long ends in "...".  How many groups (0: none there), or -1 (no map, uncore_error()). */
struct uncore_port_devices {
	int ngroups, ndevices;
	int switches;           /* groups behind a PCIe switch */
	char bdf[256];          /* "0000:2d:00.0,0000:2e:00.0" */
	char name[256];         /* "card0,card1" */
	char driver[256];       /* "nvidia,nvidia" */
	char text[512];         /* "PCIe switch: card0 (0000:2d:00.0, nvidia) + card1 (0000:2e:00.0, nvidia)";
				 * groups "; "-separated, each after "socketS iioB: " where box or socket is -1 */
};
int uncore_port_devices(uncore_t *u, int socket, int box, int port, struct uncore_port_devices *out);
/* The NVIDIA GPU at bdf as its driver names it (/proc/driver/nvidia/gpus/<bdf>/information of the node: below
 * UNCORE_SYSROOT, and a simulated node's own, doc/jobs.md): its minor (/dev/nvidia<minor>, DCGM's gpu label) and UUID (""
 * where the file gives none).  0, or -1 when the driver lists no GPU there. */
struct uncore_gpu {
	int minor;
	char uuid[96];          /* "GPU-8-4-4-4-12 hex digits" */
};
int uncore_gpu_info(uncore_t *u, const char *bdf, struct uncore_gpu *out);

/* Memory channels as the node populates them (issue 91, doc/memory.md): which iMC channel box of each socket holds
 * DIMMs, from the EDAC files Linux's driver of the generation writes (sb_edac, skx_edac, i10nm_edac), and the DIMMs'
 * configured speed from SMBIOS type 17 (/sys/firmware/dmi/tables/DMI, readable by root alone); UNKNOWN where
 * neither says. */
enum {
	UNCORE_CHAN_UNKNOWN,   /* nothing says whether the channel holds DIMMs */
	UNCORE_CHAN_EMPTY,     /* a channel without a DIMM: it moves nothing */
	UNCORE_CHAN_POPULATED, /* a channel with DIMMs */
	UNCORE_CHAN_NONE       /* a box that is no channel (Ice Lake-SP's third box of each controller) */
};
struct uncore_channel {
	int state;             /* UNCORE_CHAN_* */
	int controller, channel; /* as EDAC numbers them; -1 unknown */
	int dimms;             /* DIMMs on it (0 unless POPULATED) */
	uint64_t mib;          /* their size in MiB */
	int mts;               /* the speed it runs at, MT/s (SMBIOS type 17's configured speed); 0 unknown */
	const char *type;      /* "Registered-DDR4" (EDAC dimm_mem_type); "" unknown */
	const char *labels;    /* its DIMMs' labels (EDAC dimm_label); "" none (valid while the handle is open) */
};
/* The population of iMC channel box box (its number, uncore_box_number) of socket socket: 0; -1 with the error. */
int uncore_memory_channel(uncore_t *u, int socket, int box, struct uncore_channel *out);
/* The population of HBM channel box box (the hbm unit's box number) of socket socket, Xeon Max's HBM as i10nm_edac
 * lists it after the DDR controllers, apart from the DDR channels: 0 (UNKNOWN where EDAC lists no HBM); -1 with the
 * error.  Its dimms are the channel's one HBM "DIMM" (mts 0: SMBIOS gives HBM no configured speed). */
int uncore_memory_hbm_channel(uncore_t *u, int socket, int box, struct uncore_channel *out);
/* 1 where every DDR channel box of the socket is known to hold no DIMM while EDAC lists HBM (a Xeon Max in HBM-only
 * mode: the socket's memory traffic is its HBM's), else 0. */
int uncore_memory_hbm_only(uncore_t *u, int socket);
/* Where the population comes from, and what could not be read ("EDAC i10nm (8 controllers); SMBIOS type 17: 32
 * DIMMs at 3200 MT/s"); NULL on error (out of memory). */
const char *uncore_memory_source(uncore_t *u);
/* The channel's state's name: "unknown", "empty", "populated", "none". */
const char *uncore_channel_state_name(int state);
/* A socket's peak DRAM bandwidth: its populated channels x their configured MT/s x 8 bytes, in bytes/s (socket -1:
 * the node's, every socket's summed): 0; 1 when it cannot be known (why in uncore_error(): the population or the
 * speed unknown, of a socket of the node); -1 with the error. */
int uncore_memory_peak(uncore_t *u, int socket, double *bytes_per_s);
/* A NUMA node's peak DRAM bandwidth (node: the kernel's number, uncore_numa_nodes): the populated channels that
 * serve it (under sub-NUMA clustering its domain's share of the socket's, by the platform's table; without, its
 * socket's) x their configured MT/s x 8 bytes, in bytes/s: 0; 1 when it cannot be known (why in uncore_error():
 * the population, the speed or the node's channels unknown, or a node of HBM or CXL memory); -1 with the error. */
int uncore_memory_node_peak(uncore_t *u, int node, double *bytes_per_s);
/* For front ends: DRAM bandwidth as a share of the peak.  uncore_session_add_peak_share adds mem_bw_total (on
 * socket alone, socket >= 0: for a selection of sockets, whose metrics are each socket's; -1 every socket) to s
 * where s counts DRAM bytes read and written there already (its events theirs: no counter more), before the
 * start: its index in the session; -1 where s counts none (nothing added).  uncore_session_peak_share gives socket's
 * bandwidth over window (UNCORE_LAST_INTERVAL, UNCORE_SINCE_START) with that metric m as a share of its peak
 * (uncore_memory_peak), from 0 to 1 (socket -1: the node's, every socket's bytes over the node's peak, a socket of
 * no DIMM adding neither): 0; 1 where the peak is not known, or no value yet (why in uncore_error());
 * -1 with the error, or the value's status (UNCORE_BOX_FAILED, UNCORE_NOT_COUNTED). */
int uncore_session_add_peak_share(uncore_session_t *s, int socket);
int uncore_session_peak_share(uncore_session_t *s, int m, int socket, int window, double *share);

/* Memory by NUMA node (issue 67, doc/numa.md): the kernel's nodes, each with the memory channels that serve it --
 * a socket's iMC channels split over its sub-NUMA clustering domains by the platform's geometry, Xeon Max's HBM
 * and CXL memory as nodes of their own -- confirmed against the kernel's topology (each node's CPUs, memory
 * blocks, distances, the L3's CPUs).  A node whose channels cannot be known is refused, with why. */
enum { UNCORE_NODE_DRAM, UNCORE_NODE_HBM, UNCORE_NODE_CXL };
struct uncore_numa_node {
	int node;            /* the kernel's node number */
	int socket;          /* -1: several (numa=off) or unknown */
	int kind;            /* UNCORE_NODE_*: DDR with CPUs, or memory-only HBM or CXL memory */
	int domain;          /* its SNC domain in the socket (its die where the nodes are dies); 0 with SNC off */
	int snc;             /* SNC domains of its socket (1: off) */
	int ncpus;
	uint64_t mem_bytes;  /* its memory blocks' bytes */
	const char *refused; /* NULL, or why its values are refused (valid while the handle is open) */
};
/* The nodes into out (up to max): how many there are, or -1 with the error (the topology cannot be read). */
int uncore_numa_nodes(uncore_t *u, struct uncore_numa_node *out, int max);
/* Where the channel-to-domain map comes from ("SNC3 of gnr: perf's snc3_map ..."); NULL on error. */
const char *uncore_numa_source(uncore_t *u);
/* Session metric m (of one memory unit: mem_read_bytes, hbm_write_bytes, cxl_read_bytes, ...) summed over the
 * channels of node node, over window (UNCORE_SINCE_START, ...): 0; 1 when no channel of the metric's unit serves
 * the node (another kind of memory); -1 with the error (a refused node: its reason), or a value's own status
 * (UNCORE_BOX_FAILED, UNCORE_NOT_COUNTED).  The nodes of a socket add up to its value. */
int uncore_session_node_value(uncore_session_t *s, int m, int node, int window, double *out);
/* Whether metric info (uncore_metric_find) has a value on NUMA node node: 1; 0 when no channel of its unit serves
 * the node (another kind of memory); -1 with the error (no such node, a metric not of memory channels, a refused
 * node: its reason). */
int uncore_numa_metric_serves(uncore_t *u, int info, int node);
/* For front ends: the bytes metric of a kind of memory (UNCORE_NODE_*) read or written ("mem_read_bytes",
 * "hbm_write_bytes", "cxl_read_bytes", ...; NULL: no such kind), and the kind's name ("ddr", "hbm", "cxl"). */
const char *uncore_numa_bytes_metric(int memory, int write);
const char *uncore_numa_kind_name(int kind);
/* What the node series' sums add to a read (issue 67, doc/cost.md): a node's value is its channels' values summed
 * after the read, CPU the register model of uncore_session_estimate_read_ns leaves out.  They are priced at
 * UNCORE_NODE_SUM_NS a channel's value summed (make bench's 100 Hz node rows measured 52-85 ns on a loaded 2-vCPU
 * VM), and the default set at a read interval fits them in its budget with the read (uncore_select), before the
 * groups after memory and the device series.  The price of the by_node series of series[0..n), ns. */
#define UNCORE_NODE_SUM_NS 80
double uncore_estimate_node_sums_ns(uncore_t *u, const struct uncore_series *series, int n);

/* The uncore clock's limits (issue 68, doc/user-guide.md "Uncore clock limits"): per die, or per power domain
 * and fabric cluster on the parts whose limits are in TPMI (Granite Rapids and later), as Linux's
 * intel_uncore_frequency driver shows them in /sys/devices/system/cpu/intel_uncore_frequency (below
 * UNCORE_SYSROOT; the simulator's own on sim: backends); where the driver is not loaded, from MSR 0x620/0x621 on
 * the parts that have them (the register backends only: perf's refuses MSRs).  Read anew at every call. */
struct uncore_freq_domain {
	char name[24];          /* the driver's entry: "package_00_die_00", "uncore03"; "msr" from the MSRs */
	int socket;             /* its package (package_id); -1: unknown (TPMI's package_id is root-only) */
	int die;                /* its die in the socket (0..); -1 in the TPMI form */
	int domain, cluster;    /* the TPMI form's power domain and fabric cluster (domain_id, fabric_cluster_id):
				 * -1 where not shown (the per-die form, or a file only root reads) */
	double min_hz, max_hz;  /* the limits now; NAN: unread */
	double initial_min_hz, initial_max_hz; /* the limits the driver found at load (the BIOS's); NAN: none (MSR) */
	double current_hz;      /* the uncore clock now; NAN: not readable (current_freq_khz is root's alone) */
	const char *source;     /* "intel_uncore_frequency", "intel_uncore_frequency (TPMI)", "MSR 0x620/0x621" */
};
/* The domains into out (up to max): how many there are, or -1 with why none can be read (no driver and no
 * MSR on this part or backend, a replayed snapshot).  The driver's entries are found at the first call where the
 * front end did not build the node's facts (uncore_node_build) or start a session before. */
int uncore_freq_domains(uncore_t *u, struct uncore_freq_domain *out, int max);
/* The same at a front end's read: the limits of the entries found when it planned, nothing looked for (-1 with
 * that said where they were not found then). */
int uncore_freq_read(uncore_t *u, struct uncore_freq_domain *out, int max);
/* Whether a front end's selection (uncore_select) takes the uncore clock's limits too: its default set (no
 * metric, group or event named) or the group "clock", where the counted uncore clock is. */
int uncore_freq_selected(const struct uncore_selection *sel);

/* ---- Energy per socket (issue 68, doc/energy.md) ----
 * Package, DRAM and platform (psys) joules of each socket, from the first source that works: the kernel's perf
 * `power` PMU (energy-pkg, energy-ram, energy-psys: no root with CAP_PERFMON), powercap's intel-rapl zones
 * (energy_uj, root-only since Linux 5.10), else the RAPL MSRs (0x606 units, 0x611 package, 0x619 DRAM, 0x64D
 * psys).  The MSR and powercap counters wrap (32 bits of energy units): each read counts one wrap, so reads
 * must come within the counter's wrap time at the part's maximum power (uncore_energy_max_interval_ns); the
 * perf PMU's count is the kernel's 64-bit sum and does not wrap.  Nehalem-EP and Montecito have no RAPL:
 * uncore_energy_new() says so.  One thread uses an energy object at a time. */
enum { UNCORE_ENERGY_PKG, UNCORE_ENERGY_DRAM, UNCORE_ENERGY_PSYS };
#define UNCORE_ENERGY_DOMAINS 3
typedef struct uncore_energy uncore_energy_t;
/* source: NULL or "auto" (perf, then powercap, then msr), or one of "perf", "powercap", "msr".  The sockets'
 * counters found: 0; -1 with why none can be read (each source's reason, or the part's). */
int uncore_energy_new(uncore_t *u, const char *source, uncore_energy_t **out);
/* 1 when the part has the domain (Linux's list for it; nothing opened: a listing's question), 0 with why not. */
int uncore_energy_here(uncore_t *u, int domain);
/* What it reads, for people: "perf power PMU (type 23): energy-pkg, energy-ram". */
const char *uncore_energy_source(const uncore_energy_t *e);
/* "pkg", "dram", "psys"; NULL for another number. */
const char *uncore_energy_domain_name(int domain);
/* 1 when socket's domain is read; 0 with why not in uncore_error(). */
int uncore_energy_has(const uncore_energy_t *e, int socket, int domain);
/* The longest time between reads that still sees every wrap (the shortest wrap time of the counters at the
 * part's maximum power, doc/energy.md); 0: no limit (the perf PMU's counts do not wrap). */
uint64_t uncore_energy_max_interval_ns(const uncore_energy_t *e);
/* Start: the counters' first values.  interval_ns: how often the caller will read (0: unknown); one longer than
 * uncore_energy_max_interval_ns() is refused with why. */
int uncore_energy_start(uncore_energy_t *e, uint64_t interval_ns);
/* Read every counter (one wrap at most since the last read): 0; -1 with a message (a counter that cannot be
 * read; or a read later than the wrap time: that interval's joules are then a lower bound, and the values
 * that include it return 1). */
int uncore_energy_read(uncore_energy_t *e);
/* The same between reads, without closing the interval (the last-interval values stay those of the reads): a
 * caller that reads less often than the wrap time samples at least that often. */
int uncore_energy_sample(uncore_energy_t *e);
/* Joules of socket's domain (socket -1: every socket's) over window (UNCORE_SINCE_START, UNCORE_LAST_INTERVAL):
 * 0; 1 when the window includes a read later than the wrap time (a lower bound); -1 when not read. */
int uncore_energy_value(const uncore_energy_t *e, int socket, int domain, int window, double *joules);
/* The same in watts, over the window's seconds. */
int uncore_energy_power(const uncore_energy_t *e, int socket, int domain, int window, double *watts);
/* The window's seconds (since the start: to the last read or sample), and the library's clock (uncore_now_ns) at the
 * last read (0 before the start). */
double uncore_energy_seconds(const uncore_energy_t *e, int window);
uint64_t uncore_energy_read_time_ns(const uncore_energy_t *e);
void uncore_energy_free(uncore_energy_t *e);
/* The energy metrics (energy_pkg, energy_dram, energy_psys in J; power_pkg, power_dram, power_psys in W), i from 0:
 * 0, or -1 past the last; one by name (-1: none); and metric m's value as uncore_energy_value() or _power(). */
struct uncore_energy_metric {
	const char *name;
	int domain;          /* UNCORE_ENERGY_* */
	int power;           /* 1: watts over the window; 0: joules */
	const char *unit;    /* "J", "W" */
	const char *desc;
};
int uncore_energy_metric(int i, struct uncore_energy_metric *out);
int uncore_energy_metric_find(const char *name);
int uncore_energy_metric_value(const uncore_energy_t *e, int m, int socket, int window, double *out);
/* The energy metrics (bit m) a metric name (group 0) or a group (group 1) names: each by its name, and the group
 * "energy" the package and DRAM ones; 0 for any other name.  uncore_select() leaves them to the front end's energy
 * object; uncore_energy_selected() gives those of a selection, uncore_energy_domains() their domains (bit d). */
#define UNCORE_ENERGY_GROUP "energy"
unsigned uncore_energy_named(const char *name, int group);
unsigned uncore_energy_selected(const struct uncore_selection *sel);
unsigned uncore_energy_domains(unsigned metrics_bits);

/* ---- Energy by job (issue 68 point 3, doc/jobs.md "Energy") ----
 * A job's share of its socket's energy over a window of e (UNCORE_SINCE_START, UNCORE_LAST_INTERVAL): DRAM's
 * joules split by the bytes (read and written) the job moved of the bytes the socket's memory moved; the
 * package's joules are the socket's whole, a node figure (cores, caches and links are not split by bytes).
 * job_bytes == socket_bytes for a job holding the socket whole.  0, or -1 where e reads no DRAM energy of the
 * socket (out NAN). */
struct uncore_job_energy {
	double dram_joules;                           /* the job's share of the socket's DRAM energy */
	double socket_dram_joules, socket_pkg_joules; /* the socket's, whole */
	double bytes_per_dram_joule;                  /* the socket's bytes per joule of its DRAM */
	double dram_watts_per_gbps;                   /* its DRAM's watts per GB/s moved: joules per GB */
};
int uncore_job_energy(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		      struct uncore_job_energy *out);

#ifdef __cplusplus
}
#endif
#endif
