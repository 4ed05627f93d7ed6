/*
 * The agent's metrics: a fixed table, so that a metric keeps its PMID (cluster.item) on every machine and in
 * every archive; a metric the machine cannot count has no instances.  The pmns and help files beside this
 * one name the same metrics.  Counters are bytes, events or joules since the agent started (PM_SEM_COUNTER:
 * pmval and pmrep show their rates); clocks and ratios are the last interval's (PM_SEM_INSTANT).
 * Families are the names exporter/ue_names.c gives the library's metrics (one naming for both front ends).
 */
#include <stddef.h>
#include "iu_pmda.h"

#define BYTES PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define COUNT PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define NONE PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define BYTES_PER_SEC PMDA_PMUNITS(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)
#define HERTZ PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE) /* PCP has no hertz: count / sec */
#define JOULES NONE /* PCP 6 has no energy unit: joules, as the help says (denki's and lmsensors' too) */
#define CTR(c, i, n, fam, box, u) { n, c, i, IU_SERIES, fam, box, PM_TYPE_U64, PM_SEM_COUNTER, u, 0 }
#define LIMIT(c, i, n, field) \
	{ n, c, i, IU_UFREQ, NULL, 0, PM_TYPE_DOUBLE, PM_SEM_INSTANT, HERTZ, offsetof(struct uncore_freq_domain, field) }
#define JOB(c, i, n, field) \
	{ n, c, i, IU_JOB, NULL, 0, PM_TYPE_U64, PM_SEM_COUNTER, BYTES, offsetof(struct uncore_job_bytes, field) }
#define GAUGE(c, i, n, fam, u) { n, c, i, IU_SERIES, fam, 0, PM_TYPE_DOUBLE, PM_SEM_INSTANT, u, 0 }

const struct iu_metric iu_metrics[] = {
	CTR(0, 0, "memory.read_bytes", "uncore_memory_read_bytes", 0, BYTES),
	CTR(0, 1, "memory.write_bytes", "uncore_memory_write_bytes", 0, BYTES),
	CTR(0, 2, "memory.channel.read_bytes", "uncore_memory_read_bytes", 1, BYTES),
	CTR(0, 3, "memory.channel.write_bytes", "uncore_memory_write_bytes", 1, BYTES),
	/* a socket's peak DRAM bandwidth and its share of it over the last interval (issue 91, doc/memory.md): no
	 * instance where the peak is not known */
	{ "memory.peak_bandwidth", 0, 4, IU_PEAK, "peak", 0, PM_TYPE_DOUBLE, PM_SEM_DISCRETE, BYTES_PER_SEC, 0 },
	{ "memory.peak_share", 0, 5, IU_PEAK, "share", 0, PM_TYPE_DOUBLE, PM_SEM_INSTANT, NONE, 0 },
	CTR(1, 0, "llc.lookups", "uncore_llc_lookups", 0, COUNT),
	CTR(1, 1, "llc.misses", "uncore_llc_misses", 0, COUNT),
	GAUGE(1, 2, "llc.miss_ratio", "uncore_llc_miss_ratio", NONE),
	CTR(2, 0, "interconnect.rx_bytes", "uncore_upi_rx_bytes|uncore_qpi_rx_bytes", 0, BYTES),
	CTR(2, 1, "interconnect.tx_bytes", "uncore_upi_tx_bytes|uncore_qpi_tx_bytes", 0, BYTES),
	GAUGE(2, 2, "interconnect.tx_utilization", "uncore_upi_tx_utilization_ratio|uncore_qpi_tx_utilization_ratio", NONE),
	CTR(3, 0, "iio.write_bytes", "uncore_iio_write_bytes", 1, BYTES),
	CTR(3, 1, "iio.read_bytes", "uncore_iio_read_bytes", 1, BYTES),
	{ "numa.read_bytes", 4, 0, IU_NODE, "read", 0, PM_TYPE_U64, PM_SEM_COUNTER, BYTES, 0 },
	{ "numa.write_bytes", 4, 1, IU_NODE, "write", 0, PM_TYPE_U64, PM_SEM_COUNTER, BYTES, 0 },
	/* a DDR node's peak (uncore_memory_node_peak: its SNC domain's channels), beside its bytes; none where unknown */
	{ "numa.peak_bandwidth", 4, 2, IU_PEAK, "node_peak", 0, PM_TYPE_DOUBLE, PM_SEM_DISCRETE, BYTES_PER_SEC, 0 },
	{ "energy.joules", 5, 0, IU_ENERGY, NULL, 0, PM_TYPE_DOUBLE, PM_SEM_COUNTER, JOULES, 0 },
	GAUGE(6, 0, "clock.uncore_frequency", "uncore_frequency_hertz", HERTZ),
	GAUGE(6, 1, "clock.dram_frequency", "uncore_dram_frequency_hertz", HERTZ),
	/* the uncore clock's limits (uncore_freq_domains): per die, or per TPMI power domain and fabric cluster */
	LIMIT(6, 2, "clock.limit_min", min_hz),
	LIMIT(6, 3, "clock.limit_max", max_hz),
	LIMIT(6, 4, "clock.initial_limit_min", initial_min_hz),
	LIMIT(6, 5, "clock.initial_limit_max", initial_max_hz),
	/* -j: each job's bytes (uncore_perjob_*, the exporter's --per-job), an instance a job and "unattributed" */
	JOB(8, 0, "jobs.read_bytes", read_bytes),
	JOB(8, 1, "jobs.write_bytes", write_bytes),
	JOB(8, 2, "jobs.device_write_bytes", device_write_bytes),
	JOB(8, 3, "jobs.device_read_bytes", device_read_bytes),
	{ "health.conditions", 7, 0, IU_HEALTH, NULL, 0, PM_TYPE_U32, PM_SEM_INSTANT, COUNT, 0 },
};
const int iu_nmetrics = (int)(sizeof(iu_metrics) / sizeof(iu_metrics[0]));
