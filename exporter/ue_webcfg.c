/*
 * --web.config.file: Prometheus' exporter-toolkit web configuration (docs/web-configuration.md of
 * prometheus/exporter-toolkit), the file every official exporter reads.  Read here: tls_server_config's
 * cert_file, key_file, client_ca_file, client_auth_type, min_version and max_version, and
 * basic_auth_users (bcrypt hashes).  The file is YAML; this reader takes the part of YAML that format is
 * written in (block mappings two levels deep, plain and quoted scalars, comments) and refuses the rest,
 * naming the line: an unknown key (yaml.UnmarshalStrict refuses those too), a key exporter-toolkit has
 * but this exporter does not implement, a duplicate key, a list, a flow collection, an anchor, a tag,
 * a block scalar.  The semantics are exporter-toolkit's (web/tls_config.go, ConfigToTLSConfig): TLS is on
 * when any TLS key is set, then cert_file and key_file are both needed; a path is relative to the file's
 * directory; client_ca_file with NoClientCert is refused.  One difference: a client_auth_type that verifies
 * certificates needs client_ca_file here (Go would fall back to the system's roots).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

/* the file's keys: where each goes */
enum key { K_NONE, K_TLS, K_USERS, K_CERT, K_KEY, K_CA, K_AUTH, K_MIN, K_MAX };
static const struct {
	const char *name;
	enum key k;
} tls_keys[] = { { "cert_file", K_CERT }, { "key_file", K_KEY }, { "client_ca_file", K_CA },
		 { "client_auth_type", K_AUTH }, { "min_version", K_MIN }, { "max_version", K_MAX } };
/* exporter-toolkit's keys this exporter does not implement: refused by name rather than ignored */
static const char *const not_here[] = { "cert", "key", "client_ca", "client_allowed_sans", "cipher_suites",
					"prefer_server_cipher_suites", "curve_preferences", "http_server_config",
					"rate_limit" };

struct parse {
	const char *path;
	int line;
	char *err;
	size_t len;
};

static int bad(struct parse *p, const char *fmt, const char *a)
{
	char msg[384];
	if (snprintf(msg, sizeof(msg), fmt, a) >= (int)sizeof(msg))
		strcpy(msg + sizeof(msg) - 4, "...");
	return ue_fail(p->err, p->len, "--web.config.file %s:%d: %s", p->path, p->line, msg);
}

/* One scalar from s (quoted or plain) into out, the rest of the line only blanks or a comment. */
static int scalar(struct parse *p, const char *s, char *out, size_t n)
{
	size_t o = 0;
	s += strspn(s, " ");
	if (*s == '\'' || *s == '"') {
		char q = *s++;
		for (;; s++) {
			if (!*s)
				return bad(p, "a quoted value without its closing quote%s", "");
			if (*s == q && q == '\'' && s[1] == '\'') /* '' is one quote */
				s++;
			else if (*s == q)
				break;
			else if (q == '"' && *s == '\\') {
				s++;
				if (*s != '\\' && *s != '"')
					return bad(p, "the escape \\%.1s is not one this reader takes (only \\\\ and \\\")", s);
			}
			if (o + 1 >= n)
				return bad(p, "a value longer than %s", "this reader takes");
			out[o++] = *s;
		}
		s++;
		s += strspn(s, " ");
		if (*s && *s != '#')
			return bad(p, "text after the closing quote: '%s'", s);
		out[o] = 0;
		return 0;
	}
	if (*s && (strchr("[]{}&*!|>@`%,?", *s) || (*s == '-' && (s[1] == ' ' || !s[1]))))
		return bad(p, "'%.1s' starts a list, a flow collection, an anchor, an alias, a tag or a block scalar: "
			   "not part of exporter-toolkit's format as this reader takes it", s);
	for (; *s && !(*s == '#' && o && (out[o - 1] == ' ')); s++) {
		if (o + 1 >= n)
			return bad(p, "a value longer than %s", "this reader takes");
		out[o++] = *s;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = 0;
	if (strstr(out, ": "))
		return bad(p, "': ' inside a plain value ('%s'): quote it", out);
	if (!strcmp(out, "~") || !strcmp(out, "null") || !strcmp(out, "Null") || !strcmp(out, "NULL"))
		out[0] = 0;
	return 0;
}

/* "key: value" or "key:" at s: the key (quoted or plain) into key, the value's start into *val */
static int key_of(struct parse *p, char *s, char *key, size_t n, char **val)
{
	char *colon;
	if (*s == '\'' || *s == '"') {
		char *end = strchr(s + 1, *s);
		if (!end || end[1] != ':')
			return bad(p, "a quoted key must be followed by ':' (%s)", s);
		*end = 0;
		snprintf(key, n, "%s", s + 1);
		colon = end + 1;
	} else {
		if (*s == '-' && (s[1] == ' ' || !s[1]))
			return bad(p, "a list item where a key was expected: no key of this file takes a list here ('%s')", s);
		colon = s;
		while ((colon = strchr(colon, ':')) && colon[1] && colon[1] != ' ')
			colon++;
		if (!colon)
			return bad(p, "expected 'key: value' ('%s')", s);
		*colon = 0;
		if (scalar(p, s, key, n))
			return -1;
	}
	if (colon[1] && colon[1] != ' ')
		return bad(p, "expected 'key: value' ('%s')", s);
	*val = colon + 1;
	return 0;
}

static int set_path(struct parse *p, char **dst, const char *v, const char *key)
{
	if (*dst)
		return bad(p, "%s given twice", key);
	if (!v[0])
		return bad(p, "%s is empty", key);
	size_t dn = v[0] == '/' ? 0 : (size_t)(strrchr(p->path, '/') ? strrchr(p->path, '/') - p->path + 1 : 0);
	if (!(*dst = malloc(dn + strlen(v) + 1)))
		return ue_fail(p->err, p->len, "out of memory");
	memcpy(*dst, p->path, dn); /* relative to the file's directory, as exporter-toolkit's SetDirectory */
	strcpy(*dst + dn, v);
	return 0;
}

/* TLS10 ... TLS13 (exporter-toolkit's TLSVersion names) as 0 ... 3 */
static int version(struct parse *p, const char *v, const char *key, int *out)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	char msg[128];
	snprintf(msg, sizeof(msg), "%s '%%s': give TLS10, TLS11, TLS12 or TLS13", key);
	return bad(p, msg, v);
}

static int client_auth(struct parse *p, const char *v, int *out)
{
	/* Go's crypto/tls ClientAuthType names; RequireClientCert is exporter-toolkit's old name of RequireAnyClientCert */
	static const struct {
		const char *name;
		int a;
	} t[] = { { "", UE_CLIENT_NONE }, { "NoClientCert", UE_CLIENT_NONE }, { "RequestClientCert", UE_CLIENT_REQUEST },
		  { "RequireAnyClientCert", UE_CLIENT_REQUIRE_ANY }, { "RequireClientCert", UE_CLIENT_REQUIRE_ANY },
		  { "VerifyClientCertIfGiven", UE_CLIENT_VERIFY_IF_GIVEN },
		  { "RequireAndVerifyClientCert", UE_CLIENT_REQUIRE_VERIFY } };
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		if (!strcmp(v, t[i].name)) {
			*out = t[i].a;
			return 0;
		}
	return bad(p, "client_auth_type '%s': give NoClientCert, RequestClientCert, RequireAnyClientCert, "
		   "VerifyClientCertIfGiven or RequireAndVerifyClientCert", v);
}

/* a bcrypt hash as htpasswd -B and Go's bcrypt write it: $2a$, $2b$ or $2y$, a cost of two digits, 53 characters */
static int bcrypt_hash(const char *h)
{
	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' || h[6] != '$')
		return 0;
	if (h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' || (h[4] - '0') * 10 + h[5] - '0' < 4 ||
	    (h[4] - '0') * 10 + h[5] - '0' > 31)
		return 0;
	return strspn(h + 7, "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == 53;
}

static int parse(struct parse *p, char *text, struct ue_web *w)
{
	enum key section = K_NONE;
	int child_indent = -1, seen_tls = 0, seen_users = 0, seen[K_MAX + 1] = { 0 }, tls_any = 0, content = 0;
	p->line = 0;
	for (char *ln = text, *next; ln; ln = next) {
		next = strchr(ln, '\n');
		if (next)
			*next++ = 0;
		p->line++;
		ln[strcspn(ln, "\r")] = 0;
		size_t ind = strspn(ln, " ");
		char *s = ln + ind;
		if (*s == '\t')
			return bad(p, "a tab in the indentation (YAML indents with spaces)%s", "");
		if (!*s || *s == '#')
			continue;
		if (ind == 0 && (!strcmp(s, "---") || !strncmp(s, "--- ", 4)) && !content++)
			continue; /* the document's start marker, before its first key */
		content++;
		if (ind == 0 && (!strncmp(s, "---", 3) || !strncmp(s, "...", 3)))
			return bad(p, "a second YAML document ('%.3s'): the file holds one", s);
		char key[256], *val = NULL, v[4096];
		if (key_of(p, s, key, sizeof(key), &val))
			return -1;
		if (ind == 0) {
			section = K_NONE;
			child_indent = -1;
			for (size_t i = 0; i < sizeof(not_here) / sizeof(*not_here); i++)
				if (!strcmp(key, not_here[i]))
					return bad(p, "%s: exporter-toolkit has it, uncore-exporter does not implement it", key);
			if (!strcmp(key, "tls_server_config"))
				section = K_TLS;
			else if (!strcmp(key, "basic_auth_users"))
				section = K_USERS;
			else
				return bad(p, "unknown key '%s' (the keys: tls_server_config, basic_auth_users)", key);
			if ((section == K_TLS && seen_tls++) || (section == K_USERS && seen_users++))
				return bad(p, "%s given twice", key);
			char *t = val + strspn(val, " ");
			if (!strncmp(t, "{}", 2)) /* an empty mapping */
				t += 2;
			if (scalar(p, t, v, sizeof(v)))
				return -1;
			if (v[0])
				return bad(p, "%s takes indented 'key: value' lines below it, not a value", key);
			continue;
		}
		if (section == K_NONE)
			return bad(p, "an indented line outside tls_server_config and basic_auth_users ('%s')", key);
		if (child_indent < 0)
			child_indent = (int)ind;
		else if ((int)ind != child_indent)
			return bad(p, "the indentation differs from the lines above ('%s'): nothing here nests deeper", key);
		if (section == K_USERS) {
			if (scalar(p, val, v, sizeof(v)))
				return -1;
			if (!key[0])
				return bad(p, "an empty user name%s", "");
			for (int i = 0; i < w->nusers; i++)
				if (!strcmp(w->user[i], key))
					return bad(p, "user '%s' given twice", key);
			if (w->nusers >= UE_MAX_USERS)
				return bad(p, "more than %s users", "64");
			if (!bcrypt_hash(v))
				return bad(p, "user '%s': the password must be a bcrypt hash ($2y$10$ and 53 characters: "
					   "htpasswd -nBC 10 USER)", key);
			if (!(w->user[w->nusers] = strdup(key)) || !(w->hash[w->nusers] = strdup(v)))
				return ue_fail(p->err, p->len, "out of memory");
			w->nusers++;
			continue;
		}
		enum key k = K_NONE;
		for (size_t i = 0; i < sizeof(tls_keys) / sizeof(*tls_keys); i++)
			if (!strcmp(key, tls_keys[i].name))
				k = tls_keys[i].k;
		for (size_t i = 0; k == K_NONE && i < sizeof(not_here) / sizeof(*not_here); i++)
			if (!strcmp(key, not_here[i]))
				return bad(p, "tls_server_config.%s: exporter-toolkit has it, uncore-exporter does not implement it", key);
		if (k == K_NONE)
			return bad(p, "unknown key 'tls_server_config.%s' (the keys: cert_file, key_file, client_ca_file, "
				   "client_auth_type, min_version, max_version)", key);
		if (seen[k]++)
			return bad(p, "tls_server_config.%s given twice", key);
		if (scalar(p, val, v, sizeof(v)))
			return -1;
		tls_any |= k != K_MIN && k != K_MAX && v[0];
		if (k == K_CERT && set_path(p, &w->cert_file, v, key))
			return -1;
		if (k == K_KEY && set_path(p, &w->key_file, v, key))
			return -1;
		if (k == K_CA && set_path(p, &w->ca_file, v, key))
			return -1;
		if (k == K_AUTH && client_auth(p, v, &w->client_auth))
			return -1;
		if (k == K_MIN && v[0] && version(p, v, key, &w->min_version))
			return -1;
		if (k == K_MAX && v[0] && version(p, v, key, &w->max_version))
			return -1;
	}
	p->line = 0;
	/* exporter-toolkit's IsEnabled and validateTLSPaths */
	w->tls = tls_any || seen[K_AUTH];
	if (!w->tls)
		return 0;
	if (!w->cert_file)
		return ue_fail(p->err, p->len, "--web.config.file %s: tls_server_config has no cert_file", p->path);
	if (!w->key_file)
		return ue_fail(p->err, p->len, "--web.config.file %s: tls_server_config has no key_file", p->path);
	if (w->min_version > w->max_version)
		return ue_fail(p->err, p->len, "--web.config.file %s: min_version is above max_version", p->path);
	if (w->ca_file && w->client_auth == UE_CLIENT_NONE)
		return ue_fail(p->err, p->len, "--web.config.file %s: client_ca_file is given but client_auth_type asks "
			       "for no client certificate (give RequireAndVerifyClientCert)", p->path);
	if (!w->ca_file && (w->client_auth == UE_CLIENT_VERIFY_IF_GIVEN || w->client_auth == UE_CLIENT_REQUIRE_VERIFY))
		return ue_fail(p->err, p->len, "--web.config.file %s: client_auth_type verifies client certificates: "
			       "give client_ca_file, the CA they are verified against", p->path);
	return 0;
}

int ue_web_load(const char *path, struct ue_web *w, char *err, size_t len)
{
	memset(w, 0, sizeof(*w));
	w->min_version = 2; /* exporter-toolkit's defaults: TLS 1.2 to 1.3 */
	w->max_version = 3;
	if (!path)
		return 0;
	struct ue_exposure x;
	char *text = ue_read_small("--web.config.file", path, NULL, &x, err, len);
	if (!text)
		return -1;
	struct parse p = { path, 0, err, len };
	int rc = parse(&p, text, w);
	free(text);
	if (!rc && w->nusers)
		ue_warn_exposed("--web.config.file", path, &x, "basic_auth_users' password hashes");
	if (!rc && w->tls)
		rc = ue_tls_load(w, err, len);
	if (rc)
		ue_web_free(w);
	return rc;
}

void ue_web_free(struct ue_web *w)
{
	free(w->cert_file);
	free(w->key_file);
	free(w->ca_file);
	free(w->cert_pem);
	free(w->key_pem);
	free(w->ca_pem);
	for (int i = 0; i < w->nusers; i++) {
		free(w->user[i]);
		free(w->hash[i]);
	}
	memset(w, 0, sizeof(*w));
}
