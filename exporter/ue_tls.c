/*
 * TLS of --web.config.file through libmicrohttpd's GnuTLS (Debian's libmicrohttpd12 is built with it:
 * MHD_is_feature_supported(MHD_FEATURE_TLS)).  The certificate, key and client CA are read and checked with
 * GnuTLS before the server starts, so a wrong file is named (libmicrohttpd would only fail to start).
 * libmicrohttpd asks for a client certificate whenever a trust store is given and verifies none; the
 * client_auth_type's policy is set on each connection's session before its handshake (the connection's
 * start is notified before any byte is read: daemon.c of 0.9.75, internal_add_connection), so a missing
 * or unverified certificate fails the handshake itself, as Go's crypto/tls does.
 */
#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

int ue_tls_load(struct ue_web *w, char *err, size_t len)
{
	size_t cn, kn, an = 0;
	struct ue_exposure x;
	if (!(w->cert_pem = ue_read_small("tls_server_config.cert_file", w->cert_file, &cn, NULL, err, len)) ||
	    !(w->key_pem = ue_read_small("tls_server_config.key_file", w->key_file, &kn, &x, err, len)) ||
	    (w->ca_file && !(w->ca_pem = ue_read_small("tls_server_config.client_ca_file", w->ca_file, &an, NULL, err, len))))
		return -1;
	ue_warn_exposed("tls_server_config.key_file", w->key_file, &x, "the server's private key");
	gnutls_certificate_credentials_t cr;
	if (gnutls_certificate_allocate_credentials(&cr) < 0)
		return ue_fail(err, len, "out of memory");
	gnutls_datum_t c = { (unsigned char *)w->cert_pem, (unsigned)cn }, k = { (unsigned char *)w->key_pem, (unsigned)kn };
	int rc = gnutls_certificate_set_x509_key_mem2(cr, &c, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	if (rc < 0) {
		gnutls_certificate_free_credentials(cr);
		return ue_fail(err, len, "tls_server_config: cert_file %s with key_file %s: %s", w->cert_file, w->key_file,
			       gnutls_strerror(rc));
	}
	if (w->ca_pem) {
		gnutls_datum_t a = { (unsigned char *)w->ca_pem, (unsigned)an };
		rc = gnutls_certificate_set_x509_trust_mem(cr, &a, GNUTLS_X509_FMT_PEM);
		if (rc <= 0) {
			gnutls_certificate_free_credentials(cr);
			return ue_fail(err, len, "tls_server_config.client_ca_file %s: %s", w->ca_file,
				       rc < 0 ? gnutls_strerror(rc) : "holds no PEM certificate");
		}
	}
	gnutls_certificate_free_credentials(cr);
	/* the versions as a GnuTLS priority string over its defaults */
	static const char *const v[] = { "+VERS-TLS1.0", "+VERS-TLS1.1", "+VERS-TLS1.2", "+VERS-TLS1.3" };
	size_t o = (size_t)snprintf(w->priorities, sizeof(w->priorities), "NORMAL:-VERS-ALL");
	for (int i = w->min_version; i <= w->max_version; i++)
		o += (size_t)snprintf(w->priorities + o, sizeof(w->priorities) - o, ":%s", v[i]);
	gnutls_priority_t pr;
	const char *where = NULL;
	if ((rc = gnutls_priority_init(&pr, w->priorities, &where)) < 0)
		return ue_fail(err, len, "tls_server_config: min_version and max_version: GnuTLS refuses '%s': %s",
			       w->priorities, gnutls_strerror(rc));
	gnutls_priority_deinit(pr);
	return 0;
}

/* GnuTLS's verification of a client's certificate during the handshake: one sent must chain to client_ca_file
 * (none sent is the request mode's business: GNUTLS_CERT_REQUIRE has already refused it) */
static int verify(gnutls_session_t s)
{
	unsigned n = 0, status = 0;
	if (!gnutls_certificate_get_peers(s, &n) || !n)
		return 0;
	return gnutls_certificate_verify_peers2(s, &status) < 0 || status ? GNUTLS_E_CERTIFICATE_ERROR : 0;
}

void ue_tls_session(const struct ue_web *w, void *session)
{
	gnutls_session_t s = session;
	switch (w->client_auth) {
	case UE_CLIENT_NONE:
		gnutls_certificate_server_set_request(s, GNUTLS_CERT_IGNORE);
		break;
	case UE_CLIENT_REQUEST:
		gnutls_certificate_server_set_request(s, GNUTLS_CERT_REQUEST);
		break;
	case UE_CLIENT_REQUIRE_ANY:
		gnutls_certificate_server_set_request(s, GNUTLS_CERT_REQUIRE);
		break;
	case UE_CLIENT_VERIFY_IF_GIVEN:
		gnutls_certificate_server_set_request(s, GNUTLS_CERT_REQUEST);
		gnutls_session_set_verify_function(s, verify);
		break;
	default:
		gnutls_certificate_server_set_request(s, GNUTLS_CERT_REQUIRE);
		gnutls_session_set_verify_function(s, verify);
		break;
	}
}
