/*
 * The HTTP side, on libmicrohttpd (Debian's libmicrohttpd12): one epoll thread, so a thousand clients cost
 * sockets, not threads.  A scrape copies the published snapshot under a mutex held only for the copy; the
 * reads never wait for a client, and a client that stalls (a slow reader, half a request) is dropped after
 * UE_HTTP_TIMEOUT seconds.  Only GET and HEAD of / and /metrics are served.
 */
#include <microhttpd.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "ue.h"

#define UE_HTTP_TIMEOUT 10   /* seconds a connection may stay idle (Prometheus' scrape_timeout is at most its interval) */
#define UE_HTTP_CONNS 4096   /* connections at once; beyond it new ones are refused, the served ones go on */

#if MHD_VERSION < 0x00097002
typedef int MHD_RESULT;
#else
typedef enum MHD_Result MHD_RESULT;
#endif

struct ue_http {
	struct MHD_Daemon *d;
	pthread_mutex_t mu;
	struct ue_snapshot *snap;
	uint64_t served;
};

static void snap_put(struct ue_snapshot *s)
{
	if (s && --s->refs == 0) {
		free(s->text);
		free(s->om);
		free(s);
	}
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
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	MHD_RESULT ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static MHD_RESULT handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			  const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
	static int first;
	struct ue_http *h = cls;
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
	pthread_mutex_lock(&h->mu);
	struct ue_snapshot *s = h->snap;
	if (s)
		s->refs++;
	h->served += s != NULL;
	pthread_mutex_unlock(&h->mu);
	if (!s) {
		static const char msg[] = "no read has completed yet\n";
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", msg, sizeof(msg) - 1);
	}
	MHD_RESULT ret = om ? reply(c, MHD_HTTP_OK, "application/openmetrics-text; version=1.0.0; charset=utf-8", s->om, s->om_len)
			    : reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", s->text, s->text_len);
	pthread_mutex_lock(&h->mu);
	snap_put(s);
	pthread_mutex_unlock(&h->mu);
	return ret;
}

static void on_error(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fprintf(stderr, "uncore-exporter: http: ");
	vfprintf(stderr, fmt, ap);
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

struct ue_http *ue_http_start(const char *listen, char *err, size_t len)
{
	struct addrinfo *ai;
	if (address(listen, &ai, err, len))
		return NULL;
	struct ue_http *h = calloc(1, sizeof(*h));
	if (!h) {
		freeaddrinfo(ai);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&h->mu, NULL);
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, handler, h, MHD_OPTION_EXTERNAL_LOGGER, on_error, NULL,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)UE_HTTP_TIMEOUT,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)UE_HTTP_CONNS, MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!h->d) {
		snprintf(err, len, "--listen %s: cannot listen there (in use, or not an address of this host)", listen);
		pthread_mutex_destroy(&h->mu);
		free(h);
		return NULL;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(err, len, "%u", di ? (unsigned)di->port : 0u); /* the bound port, for the caller to say */
	return h;
}

void ue_http_publish(struct ue_http *h, struct ue_snapshot *snap)
{
	pthread_mutex_lock(&h->mu);
	snap_put(h->snap);
	h->snap = snap;
	pthread_mutex_unlock(&h->mu);
}

void ue_http_counts(struct ue_http *h, uint64_t *served)
{
	pthread_mutex_lock(&h->mu);
	*served = h->served;
	pthread_mutex_unlock(&h->mu);
}

void ue_http_stop(struct ue_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	pthread_mutex_lock(&h->mu);
	snap_put(h->snap);
	pthread_mutex_unlock(&h->mu);
	pthread_mutex_destroy(&h->mu);
	free(h);
}
