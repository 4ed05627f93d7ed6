/* The exporter's clients (exporter/ue_peers.c, issue 79): which addresses are one client (127.0.0.0/8,
 * RFC 1122 3.2.1.3; an IPv6 /64, RFC 4291 2.5.1; a v4-mapped address as its IPv4 one, RFC 4291 2.5.5.2),
 * --allow's blocks and their reserved connections; addresses no test host can bind, so without sockets. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>
#include "harness.h"
#include "../exporter/ue.h"

static struct sockaddr_storage sa(const char *text)
{
	struct sockaddr_storage s;
	memset(&s, 0, sizeof(s));
	if (strchr(text, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&s;
		s6->sin6_family = AF_INET6;
		CU_ASSERT_FATAL(inet_pton(AF_INET6, text, &s6->sin6_addr) == 1);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&s;
		s4->sin_family = AF_INET;
		CU_ASSERT_FATAL(inet_pton(AF_INET, text, &s4->sin_addr) == 1);
	}
	return s;
}

static int options(struct ue_config *c, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { "uncore-exporter", (char *)a1, (char *)a2, (char *)a3, NULL };
	char err[512];
	int argc = 1 + (a1 != NULL) + (a2 != NULL) + (a3 != NULL);
	return ue_options(c, argc, argv, err, sizeof(err));
}

/* opens n connections from addr while admitted; how many were */
static int fill(struct ue_peers *p, const char *addr, int n, void **held)
{
	struct sockaddr_storage s = sa(addr);
	int k = 0;
	while (k < n && ue_peers_admit(p, &s))
		held[k++] = ue_peers_opened(p, &s);
	return k;
}

static void test_blocks(void)
{
	struct ue_config c;
	void *held[64];
	CU_ASSERT_FATAL(options(&c, "--max-connections-per-ip", "4", NULL) == 0);
	struct ue_peers *p = ue_peers_new(&c);
	/* loopback: one client whatever the address */
	CU_ASSERT(fill(p, "127.0.0.1", 2, held) == 2);
	CU_ASSERT(fill(p, "127.200.3.4", 8, held + 2) == 2);
	struct sockaddr_storage s = sa("::ffff:127.9.9.9"), o = sa("127.0.0.2");
	CU_ASSERT(!ue_peers_admit(p, &s)); /* v4-mapped: the same loopback client */
	ue_peers_closed(p, held[0]);
	CU_ASSERT(ue_peers_admit(p, &o)); /* a slot freed */
	ue_peers_closed(p, held[1]);
	ue_peers_closed(p, held[2]);
	ue_peers_closed(p, held[3]);
	/* other IPv4 addresses: each its own */
	CU_ASSERT(fill(p, "10.0.0.1", 8, held) == 4);
	CU_ASSERT(fill(p, "10.0.0.2", 8, held + 4) == 4);
	/* IPv6: a /64 is one client, the next /64 another */
	CU_ASSERT(fill(p, "2001:db8:1:2::1", 2, held + 8) == 2);
	CU_ASSERT(fill(p, "2001:db8:1:2:ffff:ffff:ffff:ffff", 8, held + 10) == 2);
	CU_ASSERT(fill(p, "2001:db8:1:3::1", 8, held + 12) == 4);
	for (int i = 0; i < 16; i++)
		ue_peers_closed(p, held[i]);
	ue_peers_free(p);
	ue_config_free(&c);
}

static void test_allow(void)
{
	struct ue_config c;
	void *held[64];
	char err[512];
	char *argv[] = { "uncore-exporter", "--max-connections", "20", "--reserved-connections", "5", "--allow",
			 "192.0.2.0/28,2001:db8::/32", NULL };
	CU_ASSERT_FATAL(ue_options(&c, 7, argv, err, sizeof(err)) == 0);
	CU_ASSERT(c.nallow == 2 && c.allow[0].prefix == 28 && c.allow[1].prefix == 32);
	struct sockaddr_storage in = sa("192.0.2.15"), out = sa("192.0.2.16"), mapped = sa("::ffff:192.0.2.1"),
				v6 = sa("2001:db8:ffff::1"), v6out = sa("2001:db9::1");
	CU_ASSERT(ue_cidr_match(&c.allow[0], &in) && !ue_cidr_match(&c.allow[0], &out));
	CU_ASSERT(ue_cidr_match(&c.allow[0], &mapped));
	CU_ASSERT(ue_cidr_match(&c.allow[1], &v6) && !ue_cidr_match(&c.allow[1], &v6out));
	struct ue_peers *p = ue_peers_new(&c);
	/* others, 16 a client, share 20 - 5 */
	int n = fill(p, "10.0.0.1", 16, held) + fill(p, "10.0.0.2", 16, held + 16);
	CU_ASSERT(n == 15);
	/* the allowed: no per-client limit, the reserved 5 theirs (the total is libmicrohttpd's) */
	CU_ASSERT(ue_peers_admit(p, &in) && ue_peers_admit(p, &mapped) && ue_peers_admit(p, &v6));
	CU_ASSERT(!ue_peers_admit(p, &out) && !ue_peers_admit(p, &v6out));
	for (int i = 0; i < n; i++)
		ue_peers_closed(p, held[i]);
	CU_ASSERT(ue_peers_admit(p, &out));
	ue_peers_free(p);
	ue_config_free(&c);
}

/* The clients of --listen unix:PATH (issue 89): any local user binds any of 127.0.0.0/8, so 16 trickling
 * connections of one user once left root's scraper on 127.0.0.1 nothing; a client of the unix socket (whom its
 * file's mode lets in) is held to no per-client limit and takes nothing from the TCP clients' share, however
 * full the loopback block and the others' connections are. */
static void test_unix(void)
{
	struct ue_config c;
	void *held[64], *mine[40];
	char err[512];
	char *argv[] = { "uncore-exporter", "--max-connections", "20", "--reserved-connections", "4", "--allow", "192.0.2.1", NULL };
	CU_ASSERT_FATAL(ue_options(&c, 7, argv, err, sizeof(err)) == 0);
	struct ue_peers *p = ue_peers_new(&c);
	struct sockaddr_un un = { .sun_family = AF_UNIX }; /* an unnamed client socket, as accept(2) gives it */
	int n = fill(p, "127.0.0.1", 32, held) + fill(p, "10.0.0.1", 32, held + 16);
	CU_ASSERT(n == 16); /* the loopback block's 16, and nothing left of 20 - 4 for 10.0.0.1 */
	CU_ASSERT(ue_peers_allowed(p, &un));
	int k = 0;
	while (k < 40 && ue_peers_admit(p, &un))
		mine[k++] = ue_peers_opened(p, &un);
	CU_ASSERT(k == 40); /* no per-client limit: the unix server's own limit holds them */
	ue_peers_closed(p, held[0]);
	struct sockaddr_storage o = sa("10.0.0.1");
	CU_ASSERT(ue_peers_admit(p, &o)); /* the unix clients took nothing of the others' share */
	for (int i = 0; i < k; i++)
		ue_peers_closed(p, mine[i]);
	for (int i = 1; i < n; i++)
		ue_peers_closed(p, held[i]);
	ue_peers_free(p);
	ue_config_free(&c);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "one client: 127.0.0.0/8, an IPv6 /64, a v4-mapped address as IPv4", test_blocks },
		{ "--allow's blocks: no per-client limit, the reserved connections theirs", test_allow },
		{ "--listen unix:PATH's clients: no per-client limit, nothing of the others' share", test_unix },
		{ 0, 0 },
	};
	return run_suite("exporter_peers", tests);
}
