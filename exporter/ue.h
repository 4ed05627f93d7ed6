/*
 * uncore-exporter: the uncore's metrics for Prometheus (doc/prometheus.md, uncore-exporter(8)).
 *
 * One thread reads the counters every --interval and renders both exposition formats into a snapshot; the
 * HTTP server's threads only copy the last snapshot out, so a scrape never waits for a read and never
 * touches a register, and a slow or hostile client holds nothing the reads need.
 */
#ifndef UE_H
#define UE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "uncore.h"
#include "util/trusted_path.h"

#define UE_MAX_LIST 64

/* An address block of --allow: family AF_INET or AF_INET6, the address, its prefix length. */
struct ue_cidr {
	int family;
	unsigned char addr[16];
	unsigned prefix;
};

/* The options, from the command line and the --config file (ue_options.c). */
struct ue_config {
	char *backend; /* NULL: UNCORE_BACKEND, else auto */
	char *listen;  /* "127.0.0.1:9739"; NULL: only the unix socket */
	char *listen_unix; /* --listen unix:PATH, its path; NULL: none */
	char *config;  /* the file SIGHUP reads again */
	char *web_config; /* --web.config.file: TLS and basic authentication (ue_webcfg.c), read at start */
	char *metrics[UE_MAX_LIST], *groups[UE_MAX_LIST], *events[UE_MAX_LIST], *box_units[UE_MAX_LIST];
	int nmetrics, ngroups, nevents, nbox_units;
	unsigned sockets;   /* bit s: socket s; 0: every socket */
	int per_box_all;    /* --per-box all */
	double interval;    /* seconds between reads, 0.01 to 60 */
	int force;          /* take over boxes another agent counts on */
	int per_job;        /* each job's memory traffic */
	int timestamps;     /* samples carry their read time (default on: doc/prometheus.md says why) */
	int check_only;     /* --check-config */
	/* the HTTP server's limits (ue_http.c) */
	unsigned max_conns;     /* connections at once */
	unsigned max_conns_ip;  /* connections at once from one address, 0: no limit */
	double request_timeout; /* seconds a connection has for each request, from its opening or last answer */
	struct ue_cidr allow[UE_MAX_LIST]; /* the scrapers a site names (--allow) */
	int nallow;
	unsigned reserved;      /* connections only they may use (--reserved-connections) */
};

/* Write a message into err; returns -1. */
int ue_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Parse argv (and the file --config names) into c; -1 with a message in err.  Names that depend on the
 * platform are checked by ue_plan. */
int ue_options(struct ue_config *c, int argc, char **argv, char *err, size_t len);
void ue_config_free(struct ue_config *c);
const char *ue_usage(void);

/* A metric family: the name (without _total), its type, unit and help. */
struct ue_family {
	char name[192];  /* "uncore_", the metric's words (up to 159, ue_names.c), "_" and the unit, whole */
	int counter;     /* counter, else gauge */
	const char *unit; /* "bytes", "hertz", "seconds", "ratio" or "" */
	char help[256];
};

/* One sample line: a family and its labels, how its value is read, and the value of the last read. */
struct ue_series {
	int fam;
	char *labels;     /* socket="0",channel="3" (the series' own: a raw event's whole spec is a label) */
	int metric, event, socket, box;
	int node;         /* >= 0: a NUMA node's series, its channels summed (uncore_session_node_value) */
	int window;       /* UNCORE_SINCE_START(_COUNT) for counters, UNCORE_LAST_INTERVAL for gauges */
	double to_base;   /* the library's value times this is the sample's, in base units */
	double base;      /* a counter's count before the last reload: it never goes back */
	double value;
	uint64_t t_ns;    /* when its counters were read (Unix ns), 0: not yet */
	int have, failed;
};

#define UE_MAX_NODES 64
#define UE_HEALTH_SOCKETS 64
#define UE_HEALTH_MAX 256
/* The reader's state (ue_plan.c, ue_read.c). */
struct ue_state {
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_wall wall; /* the stamps' offset from the library's clock (ue_read), carried over a reload */
	struct ue_family *fams;
	int nfams;
	struct ue_series *series;
	int nseries;
	char notice[512];
	/* the NUMA nodes the default set reports (ue_nodes.c); 0: none (metrics named, or no topology) */
	struct uncore_numa_node nodes[UE_MAX_NODES];
	int nnodes;
	/* --per-job: the jobs' accounting and each job's bytes (ue_jobs.c) */
	uncore_perjob_t *perjob;
	struct uncore_job_tally tally;
	uint64_t jobs_t_ns;
	/* the health conditions standing at the last read, per kind and socket + 1 (0: the node's) (ue_health.c) */
	int health[UNCORE_HEALTH_KINDS][UE_HEALTH_SOCKETS + 1];
	/* the exporter's own cost */
	double read_seconds;
	uint64_t reads, failures, scrapes;
	uint64_t missed; /* reads the schedule skipped because the last ran late */
	uint64_t cut;    /* HTTP connections closed at their deadline */
	int auth;        /* basic authentication on: the refusals below are exported */
	uint64_t refused_hashed, refused_unchecked; /* requests refused for their credentials (ue_auth.c) */
	struct ue_ufreq *ufreq; /* the uncore clock's limits at the last read (ue_ufreq.c) */
	/* energy per socket and RAPL domain (ue_energy.c), NULL where it cannot be read */
	uncore_energy_t *energy;
	uint64_t energy_interval_ns;
};

/* CLOCK_MONOTONIC in ns: the read schedule and the exporter's own cost (ue_read.c). */
uint64_t ue_mono_ns(void);
/* When a value read at the library's time t was read, in Unix ns, from a clock pair (uncore_clock_pair) taken
 * before or after it (both clocks run alike; t 0: the pair's time). */
static inline uint64_t ue_stamp(uint64_t lib, uint64_t real, uint64_t t) { return t ? real - lib + t : real; }

/* Open the uncore and plan the families and series of c; -1 with the error in err. */
int ue_plan(const struct ue_config *c, struct ue_state *st, char *err, size_t len);
int ue_start(struct ue_state *st, char *err, size_t len);
/* Read every series; 0, or -1 when nothing could be read. */
int ue_read(struct ue_state *st);
/* Carry the counters of old over into st (same family and labels): counters never go back on a reload (the
 * jobs' tally moved at the start: ue_start_fn). */
void ue_carry(struct ue_state *st, struct ue_state *old);
void ue_teardown(struct ue_state *st);
/* How the exporter starts on a configuration (plan, start, its notices), after old (a reload's or a node change's
 * state let go, whose jobs' tally moves over before the jobs are scanned; NULL at the first start): 0, or -1 with
 * the error in err. */
typedef int (*ue_start_fn)(const struct ue_config *c, struct ue_state *st, struct ue_state *old, char *err, size_t len);
/* Before a restart (a reload, a node's change): the last counts read, the jobs stopped, the session and the handle
 * let go (their boxes free for the next start); the series kept for ue_carry. */
void ue_let_go(struct ue_state *old);
/* The node changed (uncore_node_check's mask): the series planned again with c, counters carried over, one line
 * said (ue_node.c).  0, or -1 when it no longer starts (st then empty). */
int ue_node_follow(const struct ue_config *c, struct ue_state *st, int changed, ue_start_fn start);
/* The main loop's steps (ue_run.c): the exporter's start on c (a ue_start_fn); SIGHUP's reload of the options
 * from argv, the counters carried (0, or -1 when not even the running options start again: st then empty); a
 * read of the schedule, the node's changes followed first and the jobs attributed again where they stopped (0,
 * or -1 when the node changed so that nothing starts: st then empty). */
int ue_begin(const struct ue_config *c, struct ue_state *st, struct ue_state *old, char *err, size_t len);
int ue_reload(int argc, char **argv, struct ue_config *cfg, struct ue_state *st);
int ue_step(const struct ue_config *cfg, struct ue_state *st);
int ue_jobs_start(struct ue_state *st, char *err, size_t len);
/* the rows of the attribution's read, stamped from the read's clock pair (lib, real: uncore_clock_pair) */
int ue_jobs_read(struct ue_state *st, uint64_t lib, uint64_t real);
void ue_jobs_stop(struct ue_state *st);

/* The uncore clock's limits (ue_ufreq.c): planned where the selection takes them, read at every read, freed; the gauge families (-1 past the last), and
 * family fam's sample of domain i: its labels and value (0; -1 no value; 1 no such domain). */
int ue_ufreq_plan(struct ue_state *st, const struct uncore_selection *sel); /* 0, or -1 out of memory */
void ue_ufreq_read(struct ue_state *st);
void ue_ufreq_free(struct ue_state *st);
int ue_ufreq_family(int i, struct ue_family *f);
int ue_ufreq_sample(const struct ue_state *st, int fam, int i, char *labels, size_t len, double *v);
/* Memory by NUMA node (ue_nodes.c): the nodes of the default set into st, and a node series' family and labels. */
void ue_nodes_load(const struct ue_config *c, struct ue_state *st);
void ue_node_family(const struct ue_state *st, const struct uncore_series *c, struct ue_family *f, char *labels,
		    size_t len);
/* Energy (ue_energy.c, doc/energy.md): the family uncore_energy_joules and a series per socket and domain of those
 * named (bit d: --metrics energy_pkg, --groups energy...: uncore_energy_selected; its se->metric UE_ENERGY_SERIES,
 * se->event the domain), none with a line on stderr where energy cannot be read;
 * started with the session, read after it, stopped at the teardown. */
#define UE_ENERGY_SERIES (-2)
int ue_energy_plan(struct ue_state *st, unsigned domains, double interval, char *err, size_t len);
int ue_energy_start(struct ue_state *st, char *err, size_t len);
void ue_energy_read(struct ue_state *st, uint64_t lib, uint64_t real);
void ue_energy_stop(struct ue_state *st);
/* The memory's peak (ue_peak.c, doc/memory.md): uncore_memory_peak_bytes_per_second and
 * uncore_memory_peak_share_ratio per socket whose peak is known, where the selection counts DRAM bytes (their
 * se->metric UE_PEAK_SERIES, se->event the session's mem_bw_total for the share, -1 for the peak); the share
 * read after the session. */
#define UE_PEAK_SERIES (-3)
int ue_peak_plan(const struct ue_config *c, struct ue_state *st, char *err, size_t len);
void ue_peak_read(struct ue_state *st, uint64_t lib, uint64_t real);
/* A family (its index, the existing one of the same name) and a series (taking se's labels) of the plan. */
int ue_plan_family(struct ue_state *st, const struct ue_family *f, char *err, size_t len);
int ue_plan_series(struct ue_state *st, struct ue_series *se, char *err, size_t len);

/* Health (ue_health.c): the read's changes logged and the conditions standing counted into st->health. */
void ue_health_read(struct ue_state *st);

/* The Prometheus name of a library metric (ue_names.c): family name, type, unit and the factor into the
 * base unit; port: the port number a per-port metric names (-1: none). */
void ue_family_of(const struct uncore_metric_info *mi, struct ue_family *f, double *to_base, int *port);
/* The NVIDIA GPUs among a port's devices (comma lists of BDFs and drivers) as DCGM labels them (ue_gpus.c):
 * ',gpu="<minor>[,...]",UUID="GPU-...[,...]"' into out, "" without one (uncore_gpu_info: the node's driver files). */
void ue_gpu_labels(uncore_t *u, const char *bdfs, const char *drivers, char *out, size_t len);
/* Label value escaped for the exposition formats (\\, \", \n). */
void ue_label_escape(char *out, size_t len, const char *in);

/* A rendered snapshot (ue_render.c): ue_http_publish makes each format one response that every scrape shares. */
struct ue_snapshot {
	char *text, *om;          /* Prometheus text 0.0.4, OpenMetrics 1.0.0 */
	size_t text_len, om_len;
};
/* Render st into a new snapshot; NULL when out of memory.  timestamps: samples carry their time. */
struct ue_snapshot *ue_render(const struct ue_state *st, int timestamps);

/* The clients' addresses (ue_peers.c): which may connect, counted by the block one client can use at will
 * (127.0.0.0/8, an IPv6 /64, a v4-mapped IPv6 address as its IPv4 one).  admit: 1 when the address may open a
 * connection now; opened and closed count it (opened returns the count's handle, NULL: uncounted). */
struct ue_peers;
struct ue_peers *ue_peers_new(const struct ue_config *c);
int ue_peers_admit(struct ue_peers *p, const void *sockaddr);
/* Whether sockaddr is one of --allow's scrapers, or a client of the unix socket. */
int ue_peers_allowed(const struct ue_peers *p, const void *sockaddr);
void *ue_peers_opened(struct ue_peers *p, const void *sockaddr);
void ue_peers_closed(struct ue_peers *p, void *peer);
void ue_peers_free(struct ue_peers *p);
/* Does addr (struct sockaddr_in or _in6) lie in the block? */
int ue_cidr_match(const struct ue_cidr *b, const void *sockaddr);

/* The HTTP server's memory at most, in bytes, with responses of resp_bytes (both formats of one read): each
 * connection's pool and its own state, and every response a connection may still hold (ue_http.c). */
#define UE_POOL_BYTES (32u * 1024)  /* libmicrohttpd's default, set explicitly */
#define UE_CONN_BYTES (16u * 1024)  /* struct MHD_Connection, ours, the allocator's: 39 KiB with the pool measured under ASan */
/* With TLS, a connection's GnuTLS session too: 36 KiB after its handshake (RSS over 300 connections, a 2048-bit
 * RSA key, TLS 1.3, an optimised build), and a record of a response being sent (16 KiB, RFC 8446 5.1). */
#define UE_TLS_CONN_BYTES (52u * 1024)
unsigned ue_http_generations(const struct ue_config *c);
/* The connections the server may hold: --max-connections on the TCP address, --reserved-connections on the unix socket. */
unsigned ue_http_conns(const struct ue_config *c);
uint64_t ue_http_worst(const struct ue_config *c, int tls, size_t resp_bytes);

/* --web.config.file (ue_webcfg.c): exporter-toolkit's web configuration, TLS (ue_tls.c) and basic
 * authentication (ue_auth.c). */
#define UE_MAX_USERS 64
enum { UE_CLIENT_NONE, UE_CLIENT_REQUEST, UE_CLIENT_REQUIRE_ANY, UE_CLIENT_VERIFY_IF_GIVEN, UE_CLIENT_REQUIRE_VERIFY };
struct ue_web {
	int tls;                                   /* TLS on: cert_file and key_file read and checked */
	char *cert_file, *key_file, *ca_file;      /* the paths, relative ones joined to the file's directory */
	char *cert_pem, *key_pem, *ca_pem;         /* their contents (ca: NULL without client_ca_file) */
	int client_auth;                           /* UE_CLIENT_*: Go's ClientAuthType */
	int min_version, max_version;              /* 0 TLS 1.0 ... 3 TLS 1.3 */
	char priorities[128];                      /* GnuTLS's priority string of those */
	char *user[UE_MAX_USERS], *hash[UE_MAX_USERS]; /* basic_auth_users: none, no authentication */
	int nusers;
};
/* Read path (NULL: plain HTTP, no authentication) into w; -1 with the file, line and key in err. */
int ue_web_load(const char *path, struct ue_web *w, char *err, size_t len);
void ue_web_free(struct ue_web *w);
/* Who besides its owner may read a file ue_read_small read, and its mode. */
struct ue_exposure {
	struct uc_readers readers;
	unsigned mode;
};
/* A small file whole (NUL-terminated, at most 1 MiB), refused where another user could change it or a directory
 * on its way (uc_open_trusted); NULL with "what path: reason" in err.  x (may be NULL): its readers. */
char *ue_read_small(const char *what, const char *path, size_t *n, struct ue_exposure *x, char *err, size_t len);
/* A warning on stderr naming what (and what it holds) when another user may read it: every user, or a group the
 * exporter is not of. */
void ue_warn_exposed(const char *what, const char *path, const struct ue_exposure *x, const char *holds);
/* The PEM files of w read and checked (a key that does not match its certificate, a CA file without one). */
int ue_tls_load(struct ue_web *w, char *err, size_t len);
/* A connection's GnuTLS session, before its handshake: the client_auth_type's policy. */
void ue_tls_session(const struct ue_web *w, void *gnutls_session);
/* Basic authentication against w's users (which must outlive it): 1 when user and pass match.  A password
 * not remembered costs a bcrypt; with a budget (a client outside --allow: the server's shared one; a user of
 * the unix socket: that user's) only UE_AUTH_HASHES_PER_S of those a second are computed (a burst of
 * UE_AUTH_BURST), the rest refused unchecked, so that wrong passwords cannot keep the one HTTP thread from
 * the scrapers.  hashed, unchecked: the refusals of each kind so far. */
#define UE_AUTH_HASHES_PER_S 2.0
#define UE_AUTH_BURST 4.0
struct ue_budget {
	double tokens;   /* bcrypts it still allows now */
	uint64_t last_ns; /* when tokens was last topped up (ue_mono_ns) */
};
void ue_budget_init(struct ue_budget *b);
int ue_budget_full(struct ue_budget *b); /* topped up to its burst: as a new one */
struct ue_auth;
struct ue_auth *ue_auth_new(const struct ue_web *w);
struct ue_budget *ue_auth_shared_budget(struct ue_auth *a);
int ue_auth_check(struct ue_auth *a, const char *user, const char *pass, struct ue_budget *budget);
void ue_auth_refusals(struct ue_auth *a, uint64_t *hashed, uint64_t *unchecked);
void ue_auth_free(struct ue_auth *a);

/* The unix socket's clients by user (ue_uids.c, SO_PEERCRED): each uid holds at most UE_UID_SHARE(reserved)
 * connections, so one user never takes them all, and has a bcrypt budget of its own.  opened: the connection
 * fd's entry, NULL when its user holds its share already (*full set: the caller closes it) or cannot be known
 * (*full clear: the caller takes the shared budget); closed takes the entry back. */
#define UE_UID_SHARE(reserved) ((reserved) / 2 ? (reserved) / 2 : 1)
struct ue_uids;
struct ue_uids *ue_uids_new(unsigned reserved);
void *ue_uids_opened(struct ue_uids *u, int fd, int *full, uid_t *uid);
struct ue_budget *ue_uids_budget(void *entry);
void ue_uids_closed(struct ue_uids *u, void *entry);
void ue_uids_free(struct ue_uids *u);

/* --listen unix:PATH (ue_unix.c): the socket made, mode 0660, listening; its descriptor, or -1 with the reason in
 * err.  remove: the socket's file removed if it is still the one made (after the server closed it), u freed. */
struct ue_unix;
int ue_unix_listen(const char *path, struct ue_unix **u, char *err, size_t len);
const char *ue_unix_path(const struct ue_unix *u);
void ue_unix_remove(struct ue_unix *u);

/* The HTTP server (ue_http.c): serves /metrics from the published snapshot at c's --listen, within c's
 * limits, and at its unix socket, over TLS and with basic authentication where w says (w outlives the server);
 * on success the bound port is written into err ("" without a TCP address). */
struct ue_http;
struct ue_http *ue_http_start(const struct ue_config *c, const struct ue_web *w, char *err, size_t len);
void ue_http_publish(struct ue_http *h, struct ue_snapshot *snap); /* takes snap and its buffers */
void ue_http_stop(struct ue_http *h);
/* Scrapes served so far, and connections closed at their deadline. */
void ue_http_counts(struct ue_http *h, uint64_t *served, uint64_t *cut);
/* Requests refused for their credentials: after a bcrypt, and unchecked (over the budget: ue_auth_check). */
void ue_http_auth_refusals(struct ue_http *h, uint64_t *hashed, uint64_t *unchecked);

/* Each connection's deadline, closed when it passes, and the memory handed back once a crowd of
 * connections has gone (ue_conns.c).  opened returns the connection's context (NULL: untracked, out of
 * memory), which answered (a response sent in full) and closed take. */
struct ue_conns;
struct ue_conns *ue_conns_start(double timeout_s, char *err, size_t len);
void *ue_conns_opened(struct ue_conns *cs, int fd);
void ue_conns_answered(struct ue_conns *cs, void *conn);
void ue_conns_closed(struct ue_conns *cs, void *conn);
uint64_t ue_conns_cut(struct ue_conns *cs);
void ue_conns_stop(struct ue_conns *cs);

#endif
