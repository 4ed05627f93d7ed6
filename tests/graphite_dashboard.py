#!/usr/bin/python3
"""Every target of the Grafana dashboard, evaluated by graphite-web's /render API over the whisper
files test_collectd.sh wrote, against the simulator's truth; and every panel rendered to PNG.

    graphite_dashboard.py URL DASHBOARD HOST PLATFORM PNG_DIR

Prints a PASS:/FAIL: line per check.  The truth is the profile test_collectd.sh gives the simulator
(socket s reads 6.4e9 x (1+s) B/s, DRAM clock 0.8e9 Hz) over the defaults of common/sim/sim_profile.c
(writes 4.8e9 x (1+s) B/s, LLC lookups 1.6e9 / (1+s) per s with miss ratio 0.125 x (1+s), link
rx 3.2e9 + 0.8e9 s and tx 2.4e9 + 0.8e9 s B/s at 0.3 + 0.1 s of its slots, uncore clock 2.7e9 Hz).
"""
import json
import sys

from graphite_checks import check, panel_png, points_near, render, summary

URL, DASHBOARD, HOST, PLATFORM, PNG_DIR = sys.argv[1:6]
def truth(metric, s, boxes):
    """What a series of socket s must equal (boxes: the per-box series of that socket)."""
    table = {
        "mem_bw_read": 6.4e9 * (1 + s),
        "mem_bw_write": 4.8e9 * (1 + s),
        "llc_lookups": 1.6e9 / (1 + s),
        "llc_misses": 1.6e9 / (1 + s) * 0.125 * (1 + s),
        "llc_miss_ratio": 12.5 * (1 + s),
        "upi_rx_bw": 3.2e9 + 0.8e9 * s, "qpi_rx_bw": 3.2e9 + 0.8e9 * s,
        "upi_tx_bw": 2.4e9 + 0.8e9 * s, "qpi_tx_bw": 2.4e9 + 0.8e9 * s,
        "upi_tx_util": 100 * (0.3 + 0.1 * s), "qpi_rx_util": 100 * (0.3 + 0.1 * s),
        "uncore_freq": 2.7e9,
        "dram_freq": 0.8e9,
        # Xeon Max (the spr run is sim:spr,hbm=1): the simulator's default HBM traffic
        "hbm_bw_read": 25.6e9 * (1 + s),
        "hbm_bw_write": 9.6e9 * (1 + s),
    }
    for kind in ("mem_bw_read", "mem_bw_write"):  # a channel: the socket's traffic spread evenly
        if metric.startswith(kind + "_imc"):
            return table[kind] / boxes
    return table.get(metric)


dash = json.load(open(DASHBOARD))
check(any(v["name"] == "host" for v in dash["templating"]["list"]), "the dashboard has a host variable")
targets = 0
# the panels of one host: those above the Cluster row (tests/cluster_check.py checks that row)
rows = [i for i, panel in enumerate(dash["panels"]) if panel["type"] == "row"]
for panel in dash["panels"][:rows[0] if rows else None]:
    seen = []  # times of the panel's points: its PNG shows that window
    for t in panel["targets"]:
        targets += 1
        target = t["target"].replace("$host", HOST)
        series = json.loads(render(URL, [target], "json", "&from=-10min"))
        if ".hbm_" in target and PLATFORM != "spr":  # HBM's panel shows nothing on a machine without HBM
            check(len(series) == 0, "%s: panel '%s' %s: no series without HBM from %s" % (PLATFORM, panel["title"],
                                                                                        t["refId"], target))
            continue
        check(len(series) > 0, "%s: panel '%s' %s: %d series from %s" % (PLATFORM, panel["title"], t["refId"],
                                                                       len(series), target))
        per_socket = {}
        for ser in series:
            sock = ser["target"].split(".")[-2]
            per_socket[sock] = per_socket.get(sock, 0) + 1
        for ser in series:
            host, sock, metric = ser["target"].split(".")[-3:]
            s = int(sock.replace("socket", ""))
            want = truth(metric, s, per_socket[sock])
            points = [v for v, _ in ser["datapoints"] if v is not None]
            seen += [when for v, when in ser["datapoints"] if v is not None]
            if not check(want is not None, "%s: %s has a truth" % (PLATFORM, ser["target"])):
                continue
            ok, med = points_near(points, want)
            check(ok, "%s: %s = %.4g (median of %d points) truth %.4g" % (PLATFORM, ser["target"], med,
                                                                          len(points), want))
    if not seen:  # no point to render (HBM's panel on a machine without HBM; otherwise a FAIL above)
        continue
    panel_png(URL, panel, {"$host": HOST}, "%s: %s" % (PLATFORM, panel["title"]),
              "&from=%d&until=%d" % (min(seen, default=0) - 2, max(seen, default=0) + 2),
              "%s/%s-panel%d.png" % (PNG_DIR, PLATFORM, panel["id"]))
check(targets >= 10, "%s: %d dashboard targets evaluated" % (PLATFORM, targets))
sys.exit(summary("graphite_dashboard"))
