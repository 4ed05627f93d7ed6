/*
 * The HTTP side, on libmicrohttpd (Debian's libmicrohttpd12): one epoll thread, so a thousand clients cost
 * sockets, not threads.  A scrape copies the published snapshot under a mutex held only for the copy; the
 * reads never wait for a client.  A client that stalls or trickles (a slow reader, half a request, a header
 * line every few seconds) is closed at the deadline --request-timeout gives each request (ue_conns.c); one
 * client (an address, or the block it can use at will: ue_peers.c) holds at most --max-connections-per-ip
 * connections, and the clients --allow names have --reserved-connections no other can take, so that no one
 * fills --max-connections (at that limit libmicrohttpd stops accepting, and every scrape would wait).
 * Memory: each read's answer is one response of each format, shared by every connection that sends it
 * (libmicrohttpd counts a response's references and frees it with the last), never a copy per connection, so
 * the server's worst case is its connections' pools and state plus the responses still held
 * (ue_http_worst).  Only GET and HEAD of / and /metrics are served.  With --web.config.file: TLS
 * (ue_tls.c), and basic authentication of every request before anything else is answered (ue_auth.c).
 * --listen unix:PATH is a second server of its own (ue_unix.c), with its own thread, connection limit
 * (--reserved-connections) and bcrypt state, sharing the snapshot, the deadlines and the counts: its clients are
 * whoever the socket's mode lets in, each user held to half of its connections and to a bcrypt budget of its
 * own (ue_uids.c), and no crowd on the TCP port reaches them.
 */
#include <math.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ue.h"
#include "ue_log.h"

#define LOG_BURST 10
#define LOG_WINDOW_NS 60000000000u

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

struct ue_http;
/* one server: the TCP address's, or the unix socket's */
struct listener {
	struct ue_http *h;
	struct MHD_Daemon *d; /* NULL: not asked for */
	struct ue_auth *auth; /* NULL: no basic_auth_users; each its own, as ue_auth serves one thread */
};

struct ue_http {
	struct listener l[2]; /* TCP, unix */
	struct ue_unix *sock;
	struct ue_conns *conns;
	struct ue_peers *peers;
	struct ue_uids *uids; /* the unix socket's clients */
	unsigned uid_share;   /* the connections one of them may hold */
	const struct ue_web *web;
	pthread_mutex_t mu;
	struct MHD_Response *resp[2]; /* the last read's, text and OpenMetrics; NULL before it */
	uint64_t served;
	uint64_t log_window;             /* when the minute of the messages began */
	unsigned log_count, log_dropped; /* messages in it, and those left out */
};

/* a connection's context: its deadline (ue_conns.c) and its client's count (ue_peers.c; on the unix socket
 * its user's, ue_uids.c) */
struct conn_ctx {
	void *deadline, *peer, *uid;
};

unsigned ue_http_generations(const struct ue_config *c)
{
	/* a connection holds the response it was given until it is sent or cut at its deadline: the current
	 * read's, and those of the reads of the last --request-timeout */
	return (unsigned)ceil(c->request_timeout / c->interval) + 1;
}

unsigned ue_http_conns(const struct ue_config *c)
{
	return (c->listen ? c->max_conns : 0) + (c->listen_unix ? c->reserved : 0);
}

uint64_t ue_http_worst(const struct ue_config *c, int tls, size_t resp_bytes)
{
	return (uint64_t)ue_http_conns(c) * (UE_POOL_BYTES + UE_CONN_BYTES + (tls ? UE_TLS_CONN_BYTES : 0)) +
	       (uint64_t)ue_http_generations(c) * resp_bytes;
}

/* Does the client prefer OpenMetrics?  Each media range of Accept with its q (default 1): OpenMetrics when
 * its q is above that of text/plain or a wildcard. */
static int wants_openmetrics(const char *accept)
{
	double om = -1, text = -1;
	if (!accept)
		return 0;
	while (*accept) {
		size_t n = strcspn(accept, ",");
		char range[256];
		snprintf(range, sizeof(range), "%.*s", (int)(n < 255 ? n : 255), accept);
		double q = 1;
		const char *qp = strstr(range, ";q=");
		if (!qp)
			qp = strstr(range, "; q=");
		if (qp)
			q = atof(strchr(qp, '=') + 1);
		const char *t = range + strspn(range, " \t");
		if (!strncmp(t, "application/openmetrics-text", 28) && q > om)
			om = q;
		else if ((!strncmp(t, "text/plain", 10) || !strncmp(t, "*/*", 3) || !strncmp(t, "text/*", 6)) && q > text)
			text = q;
		accept += n + (accept[n] == ',');
	}
	return om > 0 && om >= text;
}

static MHD_RESULT reply(struct MHD_Connection *c, unsigned status, const char *type, const char *body, size_t len)
{
	/* static text: libmicrohttpd sends it from where it is */
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	MHD_RESULT ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* whose bcrypt budget a request of c draws on: its user's on the unix socket (the shared one where its user is
 * unknown), none for --allow's scrapers, else the shared one */
static struct ue_budget *budget_of(struct listener *l, struct MHD_Connection *c)
{
	struct ue_http *h = l->h;
	if (l == &h->l[1]) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
		const struct conn_ctx *x = ci ? ci->socket_context : NULL;
		return x && x->uid ? ue_uids_budget(x->uid) : ue_auth_shared_budget(l->auth);
	}
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	return ci && ue_peers_allowed(h->peers, ci->client_addr) ? NULL : ue_auth_shared_budget(l->auth);
}

static void say(struct listener *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static MHD_RESULT handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			  const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
	static int first;
	struct listener *l = cls;
	struct ue_http *h = l->h;
	(void)version;
	(void)upload;
	if (!*con_cls) { /* the headers are in: answer once the request (and any body, thrown away) has ended */
		*con_cls = &first;
		return MHD_YES;
	}
	if (*upload_len) {
		*upload_len = 0;
		return MHD_YES;
	}
	if (l->auth) {
		char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
		int ok = ue_auth_check(l->auth, user, pass, budget_of(l, c));
		if (pass)
			explicit_bzero(pass, strlen(pass));
		MHD_free(user);
		MHD_free(pass);
		if (!ok) { /* 401 with WWW-Authenticate: Basic, as exporter-toolkit answers */
			static const char msg[] = "Unauthorized\n";
			struct MHD_Response *r = MHD_create_response_from_buffer(sizeof(msg) - 1, (void *)msg, MHD_RESPMEM_PERSISTENT);
			if (!r)
				return MHD_NO;
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
			MHD_RESULT ret = MHD_queue_basic_auth_fail_response(c, "uncore-exporter", r);
			MHD_destroy_response(r);
			return ret;
		}
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		static const char msg[] = "only GET and HEAD are served\n";
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", msg, sizeof(msg) - 1);
	}
	if (!strcmp(url, "/")) {
		static const char msg[] = "uncore-exporter: the uncore's metrics are at /metrics\n";
		return reply(c, MHD_HTTP_OK, "text/plain; charset=utf-8", msg, sizeof(msg) - 1);
	}
	if (strcmp(url, "/metrics")) {
		static const char msg[] = "not found: the metrics are at /metrics\n";
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", msg, sizeof(msg) - 1);
	}
	int om = wants_openmetrics(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	/* queued under the lock: a publish cannot drop the response between (queuing takes a reference) */
	pthread_mutex_lock(&h->mu);
	struct MHD_Response *r = h->resp[om];
	MHD_RESULT ret = r ? MHD_queue_response(c, MHD_HTTP_OK, r) : MHD_NO;
	h->served += r != NULL;
	pthread_mutex_unlock(&h->mu);
	if (!r) {
		static const char msg[] = "no read has completed yet\n";
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", msg, sizeof(msg) - 1);
	}
	return ret;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_ConnectionNotificationCode code)
{
	struct listener *l = cls;
	struct ue_http *h = l->h;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		struct conn_ctx *x = calloc(1, sizeof(*x)); /* NULL: neither deadline nor count, the idle timeout holds it */
		if (x) {
			/* the socket taken before the next query: libmicrohttpd 1.0 (Debian 13) answers every query in the
			 * one union of the connection, so the address's pointer overwrote the socket, and the deadline
			 * shut down no socket (or, by chance, another one) */
			const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
			int fd = ci ? (int)ci->connect_fd : -1;
			const union MHD_ConnectionInfo *ca = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
			x->deadline = fd >= 0 ? ue_conns_opened(h->conns, fd) : NULL;
			x->peer = ca && ca->client_addr ? ue_peers_opened(h->peers, ca->client_addr) : NULL;
			if (l == &h->l[1] && fd >= 0) {
				int full;
				uid_t uid;
				x->uid = ue_uids_opened(h->uids, fd, &full, &uid);
				if (full) { /* libmicrohttpd reads the end and closes it, as at a deadline */
					shutdown(fd, SHUT_RDWR);
					say(l, "unix:%s: user %u holds its %u connections (half of --reserved-connections): "
					    "another one closed\n", ue_unix_path(h->sock), (unsigned)uid,
					    h->uid_share);
				}
			}
		}
		*ctx = x;
		if (h->web->tls) { /* before the handshake: the client certificate policy */
			const union MHD_ConnectionInfo *ts = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
			if (ts && ts->tls_session)
				ue_tls_session(h->web, ts->tls_session);
		}
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		struct conn_ctx *x = *ctx;
		if (x) {
			ue_conns_closed(h->conns, x->deadline);
			ue_peers_closed(h->peers, x->peer);
			ue_uids_closed(h->uids, x->uid);
			free(x);
		}
		*ctx = NULL;
	}
}

/* libmicrohttpd's accept policy: refused, the connection is closed at once */
static MHD_RESULT admit(void *cls, const struct sockaddr *addr, socklen_t len)
{
	struct ue_http *h = ((struct listener *)cls)->h;
	(void)len;
	return ue_peers_admit(h->peers, addr) ? MHD_YES : MHD_NO;
}

/* a response sent in full: the connection's next request has a deadline of its own */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct ue_http *h = ((struct listener *)cls)->h;
	(void)con_cls;
	if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
		return;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (ci && ci->socket_context)
		ue_conns_answered(h->conns, ((struct conn_ctx *)ci->socket_context)->deadline);
}

/* libmicrohttpd's messages, LOG_BURST a minute: each refused or closed connection of a hostile client is
 * one, and the log must not become the attack's amplifier */
static void on_error(void *cls, const char *fmt, va_list ap)
{
	struct ue_http *h = ((struct listener *)cls)->h;
	uint64_t now = ue_mono_ns();
	pthread_mutex_lock(&h->mu);
	if (now - h->log_window >= LOG_WINDOW_NS) {
		if (h->log_dropped)
			ue_log("http: %u more messages of the last minute left out (a client that trickles, floods or "
			       "breaks off connections)", h->log_dropped);
		h->log_window = now;
		h->log_count = h->log_dropped = 0;
	}
	if (h->log_count++ < LOG_BURST)
		ue_vlog("http: ", fmt, ap); /* (a message may quote what a client sent) */
	else
		h->log_dropped++;
	pthread_mutex_unlock(&h->mu);
}

/* a message of our own, within the same budget */
static void say(struct listener *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	on_error(l, fmt, ap);
	va_end(ap);
}

/* "HOST:PORT", "[V6]:PORT" or ":PORT" (every address: said so, since the default is loopback only) */
static int address(const char *listen, struct addrinfo **out, char *err, size_t len)
{
	char host[256];
	const char *port = strrchr(listen, ':');
	if (!port || !port[1] || strspn(port + 1, "0123456789") != strlen(port + 1) || atoi(port + 1) > 65535) {
		snprintf(err, len, "--listen '%s': give HOST:PORT, e.g. 127.0.0.1:9739 or [::1]:9739", listen);
		return -1;
	}
	size_t n = (size_t)(port - listen);
	if (n >= sizeof(host)) {
		snprintf(err, len, "--listen: the host is too long");
		return -1;
	}
	memcpy(host, listen, n);
	host[n] = 0;
	char *h = host;
	if (h[0] == '[' && n > 1 && h[n - 1] == ']') {
		h[n - 1] = 0;
		h++;
	}
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV };
	int rc = getaddrinfo(h[0] ? h : NULL, port + 1, &hints, out);
	if (rc) {
		snprintf(err, len, "--listen '%s': %s (the host must be a numeric address)", listen, gai_strerror(rc));
		return -1;
	}
	return 0;
}

/* the server of listener i at where (MHD_OPTION_SOCK_ADDR or MHD_OPTION_LISTEN_SOCKET), at most limit connections */
static int serve(struct ue_http *h, int i, unsigned flags, const struct MHD_OptionItem *where, const struct ue_config *cfg,
		 unsigned limit)
{
	const struct ue_web *web = h->web;
	struct listener *l = &h->l[i];
	l->h = h;
	if (web->nusers && !(l->auth = ue_auth_new(web)))
		return -1;
	if (web->tls)
		flags |= MHD_USE_TLS;
	/* the TLS options, or MHD_OPTION_END early: a trust store makes libmicrohttpd ask for client certificates */
	struct MHD_OptionItem tls[] = {
		{ web->tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, web->cert_pem },
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, web->key_pem },
		{ MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)web->priorities },
		{ web->ca_pem ? MHD_OPTION_HTTPS_MEM_TRUST : MHD_OPTION_END, 0, web->ca_pem },
		{ MHD_OPTION_END, 0, NULL },
	};
	/* the idle timeout (whole seconds) is only a backstop: the deadline is sooner or the same */
	/* the per-address limit is admit's (libmicrohttpd's counts each exact address) */
	l->d = MHD_start_daemon(flags, 0, admit, l, handler, l, MHD_OPTION_EXTERNAL_LOGGER, on_error, l,
				MHD_OPTION_ARRAY, where,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)ceil(cfg->request_timeout),
				MHD_OPTION_CONNECTION_LIMIT, limit,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)UE_POOL_BYTES,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, l,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, l, MHD_OPTION_ARRAY, tls, MHD_OPTION_END);
	return l->d ? 0 : -1;
}

static void free_server(struct ue_http *h)
{
	for (int i = 0; i < 2; i++) {
		if (h->l[i].d)
			MHD_stop_daemon(h->l[i].d); /* every connection closed, and said so */
		ue_auth_free(h->l[i].auth);
	}
	ue_unix_remove(h->sock); /* its descriptor closed with its server */
	ue_conns_stop(h->conns);
	ue_peers_free(h->peers);
	ue_uids_free(h->uids);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

struct ue_http *ue_http_start(const struct ue_config *cfg, const struct ue_web *web, char *err, size_t len)
{
	struct addrinfo *ai = NULL;
	if (web->tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, len, "--web.config.file %s: this libmicrohttpd was built without TLS", cfg->web_config);
		return NULL;
	}
	if (cfg->listen && address(cfg->listen, &ai, err, len))
		return NULL;
	struct ue_http *h = calloc(1, sizeof(*h));
	if (!h || !(h->peers = ue_peers_new(cfg)) || !(h->uids = ue_uids_new(cfg->reserved)) ||
	    !(h->conns = ue_conns_start(cfg->request_timeout, err, len))) {
		if (!h || !h->peers || !h->uids)
			snprintf(err, len, "out of memory");
		if (ai)
			freeaddrinfo(ai);
		if (h) {
			ue_peers_free(h->peers);
			ue_uids_free(h->uids);
		}
		free(h);
		return NULL;
	}
	h->web = web;
	h->uid_share = UE_UID_SHARE(cfg->reserved);
	pthread_mutex_init(&h->mu, NULL);
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	if (ai) {
		struct MHD_OptionItem where[] = { { MHD_OPTION_SOCK_ADDR, 0, ai->ai_addr }, { MHD_OPTION_END, 0, NULL } };
		int rc = serve(h, 0, flags | (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0), where, cfg, cfg->max_conns);
		freeaddrinfo(ai);
		if (rc) {
			snprintf(err, len, "--listen %s: cannot listen there (in use, or not an address of this host)%s", cfg->listen,
				 web->tls ? ", or libmicrohttpd refused the TLS settings (its message above)" : "");
			free_server(h);
			return NULL;
		}
	}
	if (cfg->listen_unix) {
		int fd = ue_unix_listen(cfg->listen_unix, &h->sock, err, len);
		if (fd < 0) {
			free_server(h);
			return NULL;
		}
		struct MHD_OptionItem where[] = { { MHD_OPTION_LISTEN_SOCKET, fd, NULL }, { MHD_OPTION_END, 0, NULL } };
		if (serve(h, 1, flags, where, cfg, cfg->reserved)) {
			close(fd);
			snprintf(err, len, "--listen unix:%s: libmicrohttpd cannot serve there%s", cfg->listen_unix,
				 web->tls ? ", or refused the TLS settings (its message above)" : "");
			free_server(h);
			return NULL;
		}
	}
	const union MHD_DaemonInfo *di = h->l[0].d ? MHD_get_daemon_info(h->l[0].d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	if (h->l[0].d)
		snprintf(err, len, "%u", di ? (unsigned)di->port : 0u); /* the bound port, for the caller to say */
	else
		snprintf(err, len, "%s", "");
	return h;
}

/* a response that owns buf (freed with its last reference), its content type set; NULL: out of memory */
static struct MHD_Response *shared(char *buf, size_t n, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback(n, buf, free);
	if (!r) {
		free(buf);
		return NULL;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

void ue_http_publish(struct ue_http *h, struct ue_snapshot *snap)
{
	struct MHD_Response *r[2];
	r[0] = shared(snap->text, snap->text_len, "text/plain; version=0.0.4; charset=utf-8");
	r[1] = shared(snap->om, snap->om_len, "application/openmetrics-text; version=1.0.0; charset=utf-8");
	free(snap);
	if (!r[0] || !r[1]) { /* the last read's stay */
		for (int i = 0; i < 2; i++)
			if (r[i])
				MHD_destroy_response(r[i]);
		return;
	}
	pthread_mutex_lock(&h->mu);
	for (int i = 0; i < 2; i++) {
		if (h->resp[i])
			MHD_destroy_response(h->resp[i]); /* freed once the connections sending it are done */
		h->resp[i] = r[i];
	}
	pthread_mutex_unlock(&h->mu);
}

void ue_http_counts(struct ue_http *h, uint64_t *served, uint64_t *cut)
{
	pthread_mutex_lock(&h->mu);
	*served = h->served;
	pthread_mutex_unlock(&h->mu);
	*cut = ue_conns_cut(h->conns);
}

void ue_http_auth_refusals(struct ue_http *h, uint64_t *hashed, uint64_t *unchecked)
{
	*hashed = *unchecked = 0;
	for (int i = 0; i < 2; i++)
		if (h->l[i].auth) {
			uint64_t a, b;
			ue_auth_refusals(h->l[i].auth, &a, &b);
			*hashed += a;
			*unchecked += b;
		}
}

void ue_http_stop(struct ue_http *h)
{
	if (!h)
		return;
	for (int i = 0; i < 2; i++)
		if (h->l[i].d) {
			MHD_stop_daemon(h->l[i].d); /* every connection closed, and said so */
			h->l[i].d = NULL;
		}
	pthread_mutex_lock(&h->mu);
	if (h->log_dropped)
		ue_log("http: %u more messages left out", h->log_dropped);
	for (int i = 0; i < 2; i++)
		if (h->resp[i])
			MHD_destroy_response(h->resp[i]);
	pthread_mutex_unlock(&h->mu);
	free_server(h);
}
