#!/usr/bin/python3
"""The Grafana dashboard's Job row, evaluated by graphite-web's /render API over the whisper files of
test_collectd.sh's PerJob run (one node, HOST, whose jobs share a simulated SPR), against that run's truth.

    graphite_jobs.py URL DASHBOARD HOST JOBID READ NODES UNATTRIBUTED PNG_DIR

READ is the job's read bandwidth on the node (B/s; its writes are 0), NODES what the node's sockets read
in all, UNATTRIBUTED the node's bytes/s no job's core caused.  $jobid is JOBID, $job the host list HOST.
Prints a PASS:/FAIL: line per check, the last "graphite_jobs: N passed, N failed".
"""
import json
import sys

from graphite_checks import check, fill, panel_png, points_near, render, row_panels, summary

URL, DASHBOARD, HOST, JOBID, READ, NODES, UNATTRIBUTED, PNG_DIR = sys.argv[1:9]
# what each series of the row must hold, by the alias (or node) its target gives it
truth = {"read": float(READ), "write": 0.0, HOST: float(READ), "job": float(READ), "its nodes": float(NODES),
         "unattributed": float(UNATTRIBUTED)}
values = {"$jobid": JOBID, "$job": HOST}

dash = json.load(open(DASHBOARD))
names = [v["name"] for v in dash["templating"]["list"]]
check("jobid" in names, "the dashboard has a jobid variable (%s)" % names)
panels = row_panels(dash["panels"], "Job")
check(len(panels) >= 3, "the dashboard has a Job row of %d panels" % len(panels))
targets = 0
for panel in panels:
    seen = []
    for t in panel["targets"]:
        target = fill(t["target"], values)
        targets += 1
        series = json.loads(render(URL, [target], "json", "&from=-10min"))
        check(len(series) > 0, "panel '%s' %s: %d series from %s" % (panel["title"], t["refId"], len(series), target))
        for ser in series:
            want = truth.get(ser["target"])
            points = [v for v, _ in ser["datapoints"] if v is not None]
            seen += [when for v, when in ser["datapoints"] if v is not None]
            if not check(want is not None, "%s: '%s' has a truth" % (target, ser["target"])):
                continue
            # the attribution's error is a share of the node's bytes it splits, not of each part's own
            ok, med = points_near(points, want, None if ser["target"] == "its nodes" else float(NODES))
            check(ok, "panel '%s': %s = %.4g (median of %d points) truth %.4g" % (panel["title"], ser["target"], med,
                                                                                len(points), want))
    panel_png(URL, panel, values, panel["title"].replace("$jobid", JOBID),
              "&from=%d&until=%d" % (min(seen, default=0) - 2, max(seen, default=0) + 2),
              "%s/job-panel%d.png" % (PNG_DIR, panel["id"]))
check(targets >= 6, "%d Job row targets evaluated" % targets)
sys.exit(summary("graphite_jobs"))
