/*
 * uncore-exporter at 100 Hz (issue 48): a 2-socket Granite Rapids' default set read every 10 ms of simulated
 * time for 10 simulated minutes, every counter started 2 s before its wrap: every read updates every series
 * (none missed), no counter goes back, the health stays clean, a read costs at most 1 % of a core by the cost
 * model (the default set left out what would cost more, and said so), and the bytes of 600 s are the
 * profile's exactly; raw events with long specs are series of their own.  The exporter's reading and
 * rendering run here without its HTTP server.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim/sim.h"
#include "../exporter/ue.h"
#include "sim_devices.h"

/* The value of family fam (a counter: its _total) with labels, or NAN. */
static double value_of(const struct ue_state *st, const char *fam, const char *labels)
{
	for (int i = 0; i < st->nseries; i++)
		if (!strcmp(st->fams[st->series[i].fam].name, fam) && !strcmp(st->series[i].labels, labels))
			return st->series[i].have ? st->series[i].value : NAN;
	return NAN;
}

static void test_exporter_100hz(void)
{
	char *argv[] = { "uncore-exporter", "--backend", "sim:gnr,clock=manual,prewrap=2", "--interval", "0.01", NULL };
	struct ue_config c;
	struct ue_state st;
	char err[1024];
	CU_ASSERT_FATAL(ue_options(&c, 5, argv, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
	CU_ASSERT(strstr(st.notice, "over the budget of 1 % of a core") != NULL); /* what was left out is said */
	struct sim *sim = sim_of(st.u->acc);
	double *last = calloc((size_t)st.nseries, sizeof(*last));
	uint64_t *t_last = calloc((size_t)st.nseries, sizeof(*t_last));
	CU_ASSERT_FATAL(last && t_last);
	struct uncore_stats a, z;
	uncore_get_stats(st.u, &a);
	int missed = 0, back = 0, failed = 0, raised = 0;
	for (int r = 0; r < 60000; r++) {
		uncore_sleep_ns(st.u, 10000000ull);
		failed += ue_read(&st) != 0;
		for (int i = 0; i < st.nseries; i++) {
			const struct ue_series *se = &st.series[i];
			missed += r > 0 && (!se->have || se->t_ns <= t_last[i]); /* not read again at this read */
			back += st.fams[se->fam].counter && se->value < last[i];
			last[i] = se->value;
			t_last[i] = se->t_ns;
		}
		if (r % 6000 == 0) { /* the snapshot a scrape is served from renders every read's state */
			struct ue_snapshot *snap = ue_render(&st, 1);
			CU_ASSERT(snap && snap->text_len > 0 && snap->om_len > 0);
			if (snap) {
				free(snap->text);
				free(snap->om);
				free(snap);
			}
		}
	}
	uncore_get_stats(st.u, &z);
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		for (int s = 0; s <= UE_HEALTH_SOCKETS; s++)
			raised += st.health[k][s];
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT_EQUAL(missed, 0);
	CU_ASSERT_EQUAL(back, 0);
	CU_ASSERT_EQUAL(raised, 0);
	CU_ASSERT_EQUAL(st.failures, 0);
	double per_read = (double)(z.modelled_ns - a.modelled_ns) / 60000;
	CU_ASSERT(per_read <= 100e3);
	/* the bytes of the 600 s since the start, every counter having wrapped at 2 s */
	for (int k = 0; k < 2; k++) {
		char l[32];
		snprintf(l, sizeof(l), "socket=\"%d\"", k);
		double rd = value_of(&st, "uncore_memory_read_bytes", l), wr = value_of(&st, "uncore_memory_write_bytes", l);
		double trd = sim->prof.mem_read_bps[k] * 600, twr = sim->prof.mem_write_bps[k] * 600;
		CU_ASSERT(fabs(rd - trd) <= 1e-9 * trd && fabs(wr - twr) <= 1e-9 * twr);
		if (!(fabs(rd - trd) <= 1e-9 * trd && fabs(wr - twr) <= 1e-9 * twr))
			fprintf(stderr, "socket %d: read %.0f B (truth %.0f), written %.0f B (truth %.0f)\n", k, rd, trd, wr, twr);
	}
	if (missed || back || raised || failed || per_read > 100e3)
		fprintf(stderr, "missed %d, went back %d, raised %d, failed %d, %.1f us a read by the model\n", missed, back,
			raised, failed, per_read / 1e3);
	CU_ASSERT(sim->wraps > 0);
	free(last);
	free(t_last);
	ue_teardown(&st);
	ue_config_free(&c);
}

/* Two raw events whose specs differ only at their 324th character (issue 64: the event label was cut at 124
 * characters, and the library kept 199 of a spec, so they were one series with one count): CAS reads and
 * writes of socket 0, written with a umask of 300 leading zeros.  Each is a series of its own, its label the
 * whole spec, its count the profile's bytes over the 64 bytes of a CAS (the simulator's truth). */
static void test_exporter_long_events(void)
{
	char rd[512], wr[512], zeros[301];
	memset(zeros, '0', 300);
	zeros[300] = 0;
	snprintf(rd, sizeof(rd), "imc/event=0x05,umask=0x%scf/:socket=0", zeros); /* UNC_M_CAS_COUNT.RD */
	snprintf(wr, sizeof(wr), "imc/event=0x05,umask=0x%sf0/:socket=0", zeros); /* UNC_M_CAS_COUNT.WR */
	char *argv[] = { "uncore-exporter", "--backend", "sim:emr,clock=manual", "--events", rd, "--events", wr, NULL };
	struct ue_config c;
	struct ue_state st;
	char err[1024];
	CU_ASSERT_FATAL(ue_options(&c, 7, argv, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
	struct sim *sim = sim_of(st.u->acc);
	uncore_sleep_ns(st.u, 1000000000ull);
	CU_ASSERT(ue_read(&st) == 0);
	CU_ASSERT_EQUAL(st.nseries, 2);
	const char *spec[2] = { rd, wr };
	double truth[2] = { sim->prof.mem_read_bps[0] / 64, sim->prof.mem_write_bps[0] / 64 };
	for (int k = 0; k < 2; k++) {
		char labels[600];
		snprintf(labels, sizeof(labels), "socket=\"0\",event=\"%s\"", spec[k]);
		double v = value_of(&st, "uncore_event", labels);
		CU_ASSERT(fabs(v - truth[k]) <= 1e-9 * truth[k]);
		if (!(fabs(v - truth[k]) <= 1e-9 * truth[k]))
			fprintf(stderr, "%s: %.0f CAS in 1 s (truth %.0f)\n", k ? "writes" : "reads", v, truth[k]);
	}
	ue_teardown(&st);
	ue_config_free(&c);
}

/* The default set's device series (issue 66): each port the simulator put devices behind is a series of
 * uncore_iio_write_bytes (and _read_, where the platform counts ports outbound) with its box and port, labelled
 * pci_bdf, device and driver with the simulator's own devices (a switch's GPUs in one series, comma lists),
 * its bytes after 2 s the port's truth within 1 %. */
/* The GPU labels a port of NVIDIA GPUs carries (doc/prometheus.md): gpu, their minors, and UUID, as the simulated
 * driver's information file gives them (doc/user-guide.md: cardN has minor N and the UUID
 * GPU-51a0c0de-DDDD-XXXX-8000-MMMMMMMMMMMM, its PCI domain, bus << 8 | device << 3 | function and minor in hex);
 * "" for a port with any other device. */
static const char *gpu_labels(const char *bdfs, const char *names, const char *drvs)
{
	static char out[512];
	char gpu[128] = "", uuid[384] = "";
	size_t ng = 0, nu = 0;
	for (const char *b = bdfs, *n = names, *d = drvs; *b; ) {
		unsigned dom, bus, dev, fn;
		int minor;
		if (strncmp(d, "nvidia", 6) || (d[6] && d[6] != ',') || sscanf(n, "card%d", &minor) != 1 ||
		    sscanf(b, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			return "";
		ng += (size_t)snprintf(gpu + ng, sizeof(gpu) - ng, "%s%d", ng ? "," : "", minor);
		nu += (size_t)snprintf(uuid + nu, sizeof(uuid) - nu, "%sGPU-51a0c0de-%04x-%04x-8000-%012x", nu ? "," : "",
				       dom, bus << 8 | dev << 3 | fn, (unsigned)minor);
		b += strcspn(b, ","), n += strcspn(n, ","), d += strcspn(d, ",");
		b += *b == ',', n += *n == ',', d += *d == ',';
	}
	if (!ng)
		return "";
	if (snprintf(out, sizeof(out), ",gpu=\"%s\",UUID=\"%s\"", gpu, uuid) >= (int)sizeof(out))
		CU_FAIL("the GPU labels are longer than the test's buffer");
	return out;
}

/* The exporter of the default set on backend, started (c and st: ue_teardown and ue_config_free them). */
static void exporter_on(const char *backend, struct ue_config *c, struct ue_state *st)
{
	char *argv[] = { "uncore-exporter", "--backend", (char *)backend, NULL };
	char err[1024];
	CU_ASSERT_FATAL(ue_options(c, 3, argv, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_plan(c, st, err, sizeof(err)) == 0 && ue_start(st, err, sizeof(err)) == 0);
}

static void device_labels_on(const char *backend)
{
	struct ue_config c;
	struct ue_state st;
	exporter_on(backend, &c, &st);
	struct sim *sim = sim_of(st.u->acc);
	struct sim_pcidev d[64];
	uncore_sleep_ns(st.u, 2000000000ull);
	CU_ASSERT_FATAL(ue_read(&st) == 0);
	int n = sim_pci_devices(sim, d, 64), ports = 0, read_ports = uncore_metric_find(st.u, "iio_read_bytes_port0") >= 0;
	for (int i = 0; i < n; i++) {
		int first = 1;
		for (int j = 0; j < i; j++)
			first &= !(d[j].socket == d[i].socket && d[j].stack == d[i].stack && d[j].port == d[i].port);
		if (!first)
			continue;
		char bdf[256], name[256], drv[256], l[1024];
		sim_port_list(sim, d[i].socket, d[i].stack, d[i].port, 'b', ",", bdf, sizeof(bdf));
		sim_port_list(sim, d[i].socket, d[i].stack, d[i].port, 'n', ",", name, sizeof(name));
		sim_port_list(sim, d[i].socket, d[i].stack, d[i].port, 'd', ",", drv, sizeof(drv));
		CU_ASSERT_FATAL(snprintf(l, sizeof(l), "socket=\"%d\",unit=\"iio\",box=\"%d\",port=\"%d\",pci_bdf=\"%s\",device=\"%s\",driver=\"%s\"%s",
			 d[i].socket, d[i].stack, d[i].port, bdf, name, drv, gpu_labels(bdf, name, drv)) < (int)sizeof(l));
		for (int w = 0; w < 1 + read_ports; w++) {
			double v = value_of(&st, w ? "uncore_iio_read_bytes" : "uncore_iio_write_bytes", l);
			double want = sim_port_bps(sim, d[i].socket, d[i].stack, d[i].port, !w) * 2; /* 6 stacks a socket */
			int ok = fabs(v - want) <= 0.01 * want;
			if (!ok)
				fprintf(stderr, "%s: %s {%s}: %.0f, truth %.0f\n", backend, w ? "read" : "write", l, v, want);
			CU_ASSERT(ok);
		}
		ports++;
	}
	/* every port the simulator put devices behind (each checked above), and no other device series: an empty
	 * port's series names no device */
	int series = 0;
	for (int i = 0; i < st.nseries; i++)
		series += !strcmp(st.fams[st.series[i].fam].name, "uncore_iio_write_bytes") &&
			  strstr(st.series[i].labels, "pci_bdf=\"") && !strstr(st.series[i].labels, "pci_bdf=\"\"");
	if (ports < 1 || series != ports)
		fprintf(stderr, "%s: %d device series, %d ports with devices in the simulator's set\n", backend, series,
			ports);
	CU_ASSERT(ports >= 1 && series == ports);
	ue_teardown(&st);
	ue_config_free(&c);
}

static void test_device_labels(void)
{
	device_labels_on("sim:spr,clock=manual");
	device_labels_on("perf+sim:icx,clock=manual");
	device_labels_on("sim:skx,clock=manual");
}

/* The uncore clock's limits (issue 68, exporter/ue_ufreq.c): gauges per die (SKX, pinned by the BIOS at 500 MHz:
 * both limits and the clock there, and the uclkpinned condition standing on both sockets) and per TPMI cluster
 * (GNR), their values the simulator's (sim_ufreq_truth), in both formats. */
static void ufreq_gauges_on(const char *backend, const char *const *want, int pinned)
{
	struct ue_config c;
	struct ue_state st;
	exporter_on(backend, &c, &st);
	for (int r = 0; r < 3; r++) {
		uncore_sleep_ns(st.u, 1000000000ull);
		CU_ASSERT(ue_read(&st) == 0);
	}
	struct ue_snapshot *snap = ue_render(&st, 0);
	CU_ASSERT_FATAL(snap != NULL);
	for (int i = 0; want[i]; i++) {
		int found = strstr(snap->text, want[i]) && strstr(snap->om, want[i]);
		if (!found)
			fprintf(stderr, "%s: no line '%s' in:\n%s\n", backend, want[i], snap->text);
		CU_ASSERT(found);
	}
	CU_ASSERT(strstr(snap->text, "# TYPE uncore_frequency_limit_max_hertz gauge") != NULL);
	CU_ASSERT(strstr(snap->om, "# UNIT uncore_frequency_limit_max_hertz hertz") != NULL);
	char cond[96];
	for (int k = 0; k < 2; k++) {
		snprintf(cond, sizeof(cond), "uncore_health{condition=\"uclkpinned\",socket=\"%d\"} %d\n", k, pinned);
		CU_ASSERT(strstr(snap->text, cond) != NULL);
	}
	free(snap->text);
	free(snap->om);
	free(snap);
	ue_teardown(&st);
	ue_config_free(&c);
}

static void test_ufreq_gauges(void)
{
	static const char *const skx[] = {
		"uncore_frequency_limit_min_hertz{entry=\"package_00_die_00\",socket=\"0\",die=\"0\"} 500000000\n",
		"uncore_frequency_limit_max_hertz{entry=\"package_01_die_01\",socket=\"1\",die=\"0\"} 500000000\n",
		"uncore_frequency_initial_limit_max_hertz{entry=\"package_00_die_00\",socket=\"0\",die=\"0\"} 500000000\n",
		"uncore_frequency_current_hertz{entry=\"package_01_die_01\",socket=\"1\",die=\"0\"} 500000000\n", NULL };
	static const char *const gnr[] = {
		"uncore_frequency_limit_min_hertz{entry=\"uncore00\",socket=\"0\",domain=\"0\",cluster=\"0\"} 800000000\n",
		"uncore_frequency_limit_max_hertz{entry=\"uncore01\",socket=\"1\",domain=\"0\",cluster=\"0\"} 2700000000\n",
		"uncore_frequency_initial_limit_min_hertz{entry=\"uncore01\",socket=\"1\",domain=\"0\",cluster=\"0\"} 800000000\n",
		"uncore_frequency_current_hertz{entry=\"uncore00\",socket=\"0\",domain=\"0\",cluster=\"0\"} 2700000000\n", NULL };
	ufreq_gauges_on("sim:skx,clock=manual,fault=pinned:uclk", skx, 1);
	ufreq_gauges_on("perf+sim:gnr,clock=manual", gnr, 0);
	/* --groups clock takes them, memory alone not (uncore_freq_selected) */
	for (int g = 0; g < 2; g++) {
		char *argv[] = { "uncore-exporter", "--backend", "sim:icx,clock=manual", "--groups", g ? "memory" : "clock", NULL };
		struct ue_config c;
		struct ue_state st;
		char err[1024];
		CU_ASSERT_FATAL(ue_options(&c, 5, argv, err, sizeof(err)) == 0);
		CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
		uncore_sleep_ns(st.u, 1000000000ull);
		CU_ASSERT(ue_read(&st) == 0);
		struct ue_snapshot *snap = ue_render(&st, 0);
		CU_ASSERT_FATAL(snap != NULL);
		CU_ASSERT((strstr(snap->text, "uncore_frequency_limit_max_hertz{entry=\"package_00_die_00\",socket=\"0\",die=\"0\"} "
					      "2700000000\n") != NULL) == !g);
		free(snap->text);
		free(snap->om);
		free(snap);
		ue_teardown(&st);
		ue_config_free(&c);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "100 Hz on a 2-socket GNR for 10 simulated minutes: every read, exact wraps, within budget",
		  test_exporter_100hz },
		{ "two raw events differing at their 324th character: two series, each its own count",
		  test_exporter_long_events },
		{ "device series: labelled with the simulator's devices, a switch's as one, bytes the truth within 1 %",
		  test_device_labels },
		{ "the uncore clock's limits: gauges per die and per TPMI cluster, the simulator's values, uclkpinned",
		  test_ufreq_gauges },
		{ NULL, NULL },
	};
	return run_suite("exporter reads", tests);
}
