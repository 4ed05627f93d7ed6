/* Metric files and expressions: the first byte says which.  0: the input is a metric file; else it is
 * the MetricExpr of one metric.  A metric that loads is measured once. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uncore_t *u;
	if (size < 1)
		return 0;
	if (uncore_open("sim:snbep,clock=manual", &u))
		abort();
	const char *path;
	if (data[0] == 0) {
		path = fuzz_file(data + 1, size - 1);
	} else {
		char *expr = fuzz_str(data + 1, size - 1, 4096);
		size_t cap = 6 * strlen(expr) + 128, n = 0;
		char *json = malloc(cap);
		n += (size_t)snprintf(json, cap, "[{\"MetricName\": \"fuzzed\", \"MetricExpr\": \"");
		for (const char *c = expr; *c; c++) /* a JSON string of the bytes */
			n += (size_t)snprintf(json + n, cap - n, (unsigned char)*c < 0x20 || *c == '"' || *c == '\\' ? "\\u%04x" : "%c",
					      (unsigned char)*c);
		n += (size_t)snprintf(json + n, cap - n, "\"}]");
		path = fuzz_file((const uint8_t *)json, n);
		free(json);
		free(expr);
	}
	if (uncore_load_metrics(u, path) > 0) {
		for (int m = 0; m < uncore_num_metrics(u); m++) {
			struct uncore_metric_info mi;
			uncore_session_t *s;
			double v;
			uncore_metric_info(u, m, &mi);
			if (strcmp(mi.group, "bench") && strncmp(mi.name, "fuzz", 4) && m < 21)
				continue; /* the built-in ones are tested elsewhere */
			if (uncore_session_new(u, &s))
				abort();
			int k = uncore_session_add_metric(s, mi.name);
			if (k >= 0 && !uncore_session_start(s)) {
				uncore_sleep_ns(u, 1000000);
				uncore_session_read(s);
				uncore_session_metric_value(s, k, 0, -1, UNCORE_SINCE_START, &v);
				uncore_session_metric_value(s, k, -1, 0, UNCORE_LAST_INTERVAL, &v);
			}
			uncore_session_free(s);
		}
	}
	fuzz_check(u);
	uncore_close(u);
	return 0;
}
