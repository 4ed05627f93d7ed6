/* uncore stat's health lines: each condition the library raised or cleared at a read (doc/health.md).
 * Text puts them among the values as comment lines, JSON as objects of their own (field "health"), CSV
 * on stderr so that every CSV row stays a value. */
#include "cli.h"

#define HEALTH_LINES 64

void out_health(const struct out *o, uncore_session_t *s, double t)
{
	struct uncore_health h[HEALTH_LINES];
	int n = uncore_session_health_changes(s, h, HEALTH_LINES);
	FILE *f = o->fmt == OUT_CSV ? stderr : stdout;
	for (int i = 0; i < n && i < HEALTH_LINES; i++) {
		const char *name = uncore_health_name(h[i].kind);
		if (o->fmt == OUT_JSON) {
			printf("{\"time\":%.3f,\"health\":", t);
			out_json_str(stdout, name);
			printf(",\"raised\":%s,\"socket\":%d,\"unit\":", h[i].raised ? "true" : "false", h[i].socket);
			out_json_str(stdout, h[i].unit);
			printf(",\"box\":%d,\"what\":", h[i].box);
			out_json_str(stdout, h[i].what);
			printf(",\"advice\":");
			out_json_str(stdout, uncore_health_advice(h[i].kind));
			printf("}\n");
		} else if (h[i].raised)
			fprintf(f, "# %.3f health raised %s: %s: %s\n", t, name, h[i].what, uncore_health_advice(h[i].kind));
		else
			fprintf(f, "# %.3f health cleared %s: %s\n", t, name, h[i].what);
	}
	if (n > HEALTH_LINES)
		fprintf(f, "# %.3f health: %d more changes not shown\n", t, n - HEALTH_LINES);
}
