#!/usr/bin/python3
"""The cluster of test_cluster.sh through graphite-web's render API.

    cluster_check.py URL NODES RESTARTED JOB CACHE_A CACHE_B DASHBOARD PNG_DIR

NODES has a line "host platform sockets dir" per node: dir/profile is the node's truth (per socket, read
and write bytes per second) and dir/csv what its collectd sent of every series (collectd's csv plugin:
the cumulative bytes, stamped with when the counters were read, to the millisecond).  RESTARTED is the
node stopped and started again mid-run, JOB the host list of the dashboard's job variable, CACHE_A and
CACHE_B the two carbon-caches' whisper trees.  Prints a PASS:/FAIL: line per check and, last,
"cluster_check: N passed, N failed".

Tolerances come from the stamps, not from luck: a rate over an interval dt is bytes over dt, each end of
dt stamped with the middle of its box reads, which the library repeats until one takes under 1 ms
(SAMPLE_SLACK_NS), and moved to collectd's clock by a pair of clock readings taken within 20 us
(CLOCK_SLACK_NS in collectd_plugin/iu_series.c): each end is off by at most 0.5 ms + 10 us, a point by
at most STAMP_S / dt of its truth.  What the node recorded has millisecond stamps, so a point and the
rate of the record differ by at most RECORD_S / dt.
"""
import fnmatch
import glob
import json
import math
import os
import re
import sys
import time

from graphite_checks import check, fill, panel_png, render, row_panels, summary

URL, NODES, RESTARTED, JOB, CACHE_A, CACHE_B, DASHBOARD, PNG_DIR = sys.argv[1:9]
METRICS = ("mem_bw_read", "mem_bw_write", "mem_bw_total")
STAMP_S = 2 * (0.5e-3 + 10e-6)
RECORD_S = 2 * 0.5e-3


def profile(path):
    """socket -> metric -> bytes per second, as the node's profile sets them."""
    rates = {}
    for line in open(path):
        key, value = (x.strip() for x in line.split("="))
        sock, name = key.split(".")
        rates.setdefault(int(sock[len("socket"):]), {})[name] = float(value)
    return {s: {"mem_bw_read": r["mem_read_bytes_per_s"], "mem_bw_write": r["mem_write_bytes_per_s"],
                "mem_bw_total": r["mem_read_bytes_per_s"] + r["mem_write_bytes_per_s"]} for s, r in rates.items()}


def record(d, sock, metric):
    """What the node sent of one series: [(time, cumulative bytes)], in order."""
    rows = []
    for f in sorted(glob.glob("%s/csv/*/intel_uncore-socket%d/memory_bandwidth-%s-*" % (d, sock, metric))):
        rows += [tuple(float(x) for x in line.split(",")) for line in open(f) if line[0].isdigit()]
    return rows


def expect(rows, down=False):
    """Graphite's points of a series, from what the node sent: second -> (bytes, dt), its rate bytes / dt.
    write_graphite stamps a value with its time rounded to the second.  The first value of a counting session (the
    first of the run, the first after a restart: the count starts over, smaller than the last) has no
    rate, as collectd's DERIVE needs a previous value of the same session; of two values in one second
    (a read collectd started late) Graphite keeps the later.  A stamp the record's milliseconds put on a half
    second (1795842473.500 in a CI run) may have been rounded either way: up, or down where down is asked."""
    points, prev, sessions, shared = {}, None, 0, 0
    for t, v in rows:
        if prev is None or v < prev[1]:
            sessions += 1
        else:
            slot = int(t) if down and abs(t - int(t) - 0.5) <= RECORD_S / 2 + 1e-9 else int(t + 0.5)
            shared += slot in points
            points[slot] = (v - prev[1], t - prev[0])
        prev = (t, v)
    return points, sessions, shared


def sent_rate(dv, dt):
    """The range the rate of dv bytes over dt seconds of millisecond stamps lies in."""
    return dv / (dt + RECORD_S), dv / (dt - RECORD_S) if dt > RECORD_S else math.inf


def truth_tol(truth, dt):
    """How far a point over dt seconds of the record may lie from its truth (a window too short for the
    record to bound: any distance, and the checks say how many)."""
    return truth * STAMP_S / (dt - RECORD_S) if dt > 2 * RECORD_S else math.inf


def span(slots):
    return "%d..%d" % (min(slots), max(slots)) if slots else "none"


nodes = []
for line in open(NODES):
    host, platform, sockets, d = line.split()
    n = {"host": host, "platform": platform, "sockets": int(sockets), "dir": d, "truth": profile(d + "/profile"),
         "series": {}}
    for s in range(n["sockets"]):
        for m in METRICS:
            rows = record(d, s, m)
            n["series"][(s, m)] = {"rows": rows, "truth": n["truth"][s][m]}
            n["series"][(s, m)]["want"], n["series"][(s, m)]["sessions"], n["series"][(s, m)]["shared"] = expect(rows)
    nodes.append(n)
everything = [p for n in nodes for se in n["series"].values() for p in se["want"]]
FROM, UNTIL = min(everything) - 3, max(everything) + 3
WINDOW = "&from=%d&until=%d" % (FROM, UNTIL)

# --- the nodes' last values reach Graphite a moment after they stop: wait for the last second each node
# sent of each series (60 s at most; a check below names what is still missing then)
deadline = time.time() + 60
for n in nodes:
    for (s, m), se in n["series"].items():
        target = "collectd.%s.intel_uncore.socket%d.memory_bandwidth.%s" % (n["host"], s, m)
        while se["want"] and time.time() < deadline:
            got = json.loads(render(URL, [target], "json", WINDOW))
            if got and any(v is not None and int(t) == max(se["want"]) for v, t in got[0]["datapoints"]):
                break
            time.sleep(0.5)


# --- the relay spread the series over both caches, each series in exactly one
def wsp(root):
    """The series of a whisper tree, by their Graphite names."""
    return set(os.path.relpath(f, root)[:-4].replace("/", ".") for f in glob.glob(root + "/collectd/**/*.wsp", recursive=True))


a, b = wsp(CACHE_A), wsp(CACHE_B)
names = set("collectd.%s.intel_uncore.socket%d.memory_bandwidth.%s" % (n["host"], s, m)
            for n in nodes for s, m in n["series"])
# and each socket's count of the health conditions standing (doc/health.md)
names |= set("collectd.%s.intel_uncore.socket%d.count.health" % (n["host"], s) for n in nodes for s, _ in n["series"])
# and, where the simulated board models the memory population (doc/memory.md "On the simulator": sb_edac's
# generation, Skylake-SP and Cascade Lake, Ice Lake-SP, Sapphire and Emerald Rapids; not Broadwell-DE, Nehalem-EP,
# Granite Rapids and later), each socket's peak DRAM bandwidth and its share (doc/collectd.md)
BOARDS = {"snbep", "ivbep", "hsx", "bdx", "skx", "clx", "icx", "spr", "emr"}
names |= set("collectd.%s.intel_uncore.socket%d.%s" % (n["host"], s, k) for n in nodes if n["platform"] in BOARDS
             for s, _ in n["series"] for k in ("gauge.mem_bw_peak", "percent.mem_bw_peak_share"))
check(len(a) > len(names) / 4 and len(b) > len(names) / 4,
      "carbon-relay's consistent hashing spread the %d series over both caches (a %d, b %d)" % (len(names), len(a), len(b)))
check(not a & b, "no series in both caches (%d in both)" % len(a & b), " ".join(sorted(a & b)[:5]))
check(a | b == names, "the caches hold exactly the nodes' series (%d missing, %d unexpected)" %
      (len(names - (a | b)), len((a | b) - names)), " ".join(sorted(names ^ (a | b))[:5]))

# --- every node's series, point by point
for n in nodes:
    got = json.loads(render(URL, ["collectd.%s.intel_uncore.socket*.memory_bandwidth.*" % n["host"]], "json", WINDOW))
    series = {}
    for g in got:
        parts = g["target"].split(".")
        key = (int(parts[3][len("socket"):]), parts[5])
        series.setdefault(key, []).append({int(t): v for v, t in g["datapoints"] if v is not None})
    what = "%s (%s, %d socket%s)" % (n["host"], n["platform"], n["sockets"], "s" if n["sockets"] > 1 else "")
    check(sorted(series) == sorted(n["series"]) and all(len(v) == 1 for v in series.values()),
          "%s: Graphite has each of its %d series once" % (what, len(n["series"])),
          "got %s" % sorted((k, len(v)) for k, v in series.items()))
    bad_slots, bad_sent, bad_truth, npoints, shared, short = [], [], [], 0, 0, 0
    for key, se in sorted(n["series"].items()):
        pts = series.get(key, [{}])[0]
        if set(pts) != set(se["want"]):  # a half-second stamp rounded down (expect)
            alt = expect(se["rows"], down=True)
            if set(pts) == set(alt[0]):
                se["want"], se["sessions"], se["shared"] = alt
        want = se["want"]
        npoints += len(want)
        shared += se["shared"]
        if set(pts) != set(want):
            odd = sorted(set(want) ^ set(pts))
            # for the reader of a failure: what the node recorded and what Graphite holds around the first odd second
            near = [(round(t, 3), v) for t, v in se["rows"] if abs(t - odd[0]) <= 3]
            held = sorted((t, g) for t, g in pts.items() if abs(t - odd[0]) <= 3)
            bad_slots.append("%s: missing %s, extra %s (the node's record near %d: %s; Graphite: %s)" %
                             (key, sorted(set(want) - set(pts))[:5], sorted(set(pts) - set(want))[:5], odd[0], near, held))
        for slot, (dv, dt) in sorted(want.items()):
            g = pts.get(slot)
            if g is None:
                continue
            lo, hi = sent_rate(dv, dt)
            if not lo * (1 - 1e-9) <= g <= hi * (1 + 1e-9):
                bad_sent.append("%s at %d: %.6g, the node sent %.6g bytes over %.3f s" % (key, slot, g, dv, dt))
            short += truth_tol(1, dt) == math.inf
            if abs(g - se["truth"]) > truth_tol(se["truth"], dt):
                bad_truth.append("%s at %d: %.6g, truth %.6g (%.2g off, %.3f s)" % (key, slot, g, se["truth"],
                                                                                  g / se["truth"] - 1, dt))
    check(not bad_slots, "%s: Graphite has exactly the seconds it sent a rate for (%d points: no gap, no extra)%s" %
          (what, npoints, " (%d of its values shared a second with the next: read late)" % shared if shared else ""),
          "; ".join(bad_slots[:3]))
    check(not bad_sent, "%s: every point is the rate of what it sent (bytes over the interval of its record)" % what,
          "; ".join(bad_sent[:3]))
    check(not bad_truth, "%s: every point equals its truth (socket 0 reads %.4g B/s, writes %.4g B/s)%s" %
          (what, n["truth"][0]["mem_bw_read"], n["truth"][0]["mem_bw_write"],
           " (%d over windows too short to bound: collectd caught up after a stall)" % short if short else ""),
          "; ".join(bad_truth[:3]))
    # a node that ran throughout: every second from its first point to its last has one, but where collectd
    # read late and two values fell in one second (the earlier one's second then has none: Graphite keeps
    # one value a second), or where the loaded machine held collectd back more than half an interval past
    # its next read (its record shows the gap; collectd then reads at once and drops the seconds it lost,
    # and a read that failed instead is the node log's error, checked by test_cluster.sh)
    sessions = max(se["sessions"] for se in n["series"].values())
    holes = {}
    for key, se in n["series"].items():
        slots = sorted(se["want"])
        missing = len(range(slots[0], slots[-1] + 1)) - len(slots) if slots else 0
        rows = se["rows"]
        stalled = sum(int(b[0] + 0.5) - int(a[0] + 0.5) - 1 for a, b in zip(rows, rows[1:])
                      if b[1] >= a[1] and b[0] - a[0] > 1.5)
        holes[key] = (missing, se["shared"], stalled)
    if n["host"] != RESTARTED:
        late = max(m for m, _, _ in holes.values())
        held = max(st for _, _, st in holes.values())
        check(sessions == 1 and all(missing <= shared + stalled for missing, shared, stalled in holes.values()),
              "%s: one session, every second from %s in Graphite%s%s" %
              (what, span(n["series"][(0, "mem_bw_read")]["want"]),
               " but %d where collectd read late" % late if late else "",
               " (%d of them in a stall of more than 1.5 s the node's record shows)" % held if held else ""),
              "sessions %d, (missing seconds, values that shared a second, seconds collectd was held past) %s" %
              (sessions, holes))
        continue
    # --- the node stopped and started again: the gap is its downtime
    rows = n["series"][(0, "mem_bw_read")]["rows"]
    cut = next((i for i in range(1, len(rows)) if rows[i][1] < rows[i - 1][1]), None)
    if not check(cut is not None, "%s: its record shows a restart (its count started over)" % what):
        continue
    # the seconds after its last read before the stop up to its second read after the restart (the first,
    # a new count, has no rate): none may have a point, and both ends must
    stop, again = rows[cut - 1][0], rows[cut][0]
    ends = int(stop + 0.5), int(rows[cut + 1][0] + 0.5) if cut + 1 < len(rows) else None
    gap = set(range(ends[0] + 1, ends[1])) if ends[1] else set()
    bad = ["%s: %s in the gap, ends %s" % (key, sorted(gap & set(se[0])), [e in se[0] for e in ends])
           for key, se in series.items() if gap & set(se[0]) or not all(e in se[0] for e in ends)]
    check(sessions == 2 and gap and not bad,
          "%s: stopped and started again, a gap of exactly its downtime in every series: %d s (%s), from its last "
          "read before the stop (%.3f) to its first after the restart (%.3f, %.3f s later), whose rate needs a "
          "previous value" % (what, len(gap), span(gap), stop, again, again - stop),
          "sessions %d; %s" % (sessions, "; ".join(bad[:3])))

# --- the dashboard's Cluster row: every target against the sum of the nodes' truths
dash = json.load(open(DASHBOARD))
panels = dash["panels"]
row = next((i for i, p in enumerate(panels) if p["type"] == "row" and p["title"] == "Cluster"), None)
check(row is not None, "the dashboard has a Cluster row")
names = [v["name"] for v in dash["templating"]["list"]]
check("job" in names and "topn" in names, "the dashboard has a job host-list variable and a top-N variable (%s)" % names)
values = {"$host": "*", "$job": JOB, "$topn": "5"}


def hosts(pattern):
    """The nodes a Graphite host glob ({a,b}, *, [..]) names."""
    m = re.fullmatch(r"\{(.*)\}", pattern)
    alts = m.group(1).split(",") if m else [pattern]
    return [n for n in nodes if any(fnmatch.fnmatchcase(n["host"], p) for p in alts)]


def per_slot(members):
    """second -> (sum of the truths of the series present then, the tolerance), over [(node, series key)]."""
    out = {}
    for n, key in members:
        se = n["series"][key]
        for slot, (dv, dt) in se["want"].items():
            v, tol = out.get(slot, (0, 0))
            out[slot] = (v + se["truth"], tol + truth_tol(se["truth"], dt))
    return out


def expected(target):
    """{alias: per_slot} a cluster target must render to, or None for a shape this checker does not know."""
    m = re.search(r"collectd\.([^.]+)\.intel_uncore\.socket\*\.memory_bandwidth\.(mem_bw_\w+)", target)
    if not m:
        return None
    chosen, metric = hosts(m.group(1)), m.group(2)
    node_sum = {n["host"]: per_slot([(n, k) for k in n["series"] if k[1] == metric]) for n in chosen}
    if re.fullmatch(r"alias\(sumSeries\(%s\), '([^']+)'\)" % re.escape(m.group(0)), target):
        return {re.search(r"'([^']+)'\)$", target).group(1): per_slot([(n, k) for n in chosen for k in n["series"] if k[1] == metric])}
    if re.fullmatch(r"aliasByNode\(sumSeriesWithWildcards\(%s, 3\), 1\)" % re.escape(m.group(0)), target):
        return node_sum
    top = re.fullmatch(r"highestAverage\(aliasByNode\(sumSeriesWithWildcards\(%s, 3\), 1\), (\d+)\)" % re.escape(m.group(0)), target)
    if top:
        truth = {n["host"]: sum(se["truth"] for k, se in n["series"].items() if k[1] == metric) for n in chosen}
        best = sorted(truth, key=truth.get, reverse=True)[:int(top.group(1))]
        return {h: node_sum[h] for h in best}
    return None


# the Cluster row's panels (the Job row's are graphite_jobs.py's, over test_collectd.sh's jobs)
for panel in row_panels(panels, "Cluster"):
    for t in panel["targets"]:
        target = fill(t["target"], values)
        want = expected(target)
        if not check(want is not None, "panel '%s' %s: a target of known shape: %s" % (panel["title"], t["refId"], target)):
            continue
        got = {g["target"]: {int(ts): v for v, ts in g["datapoints"] if v is not None}
               for g in json.loads(render(URL, [target], "json", WINDOW))}
        check(sorted(got) == sorted(want), "panel '%s' %s: the series %s" % (panel["title"], t["refId"], " ".join(sorted(want))),
              "got %s" % sorted(got))
        for alias in sorted(set(got) & set(want)):
            pts, slots = got[alias], want[alias]
            bad = ["%d: %.6g, want %.6g +- %.2g" % (s, pts.get(s, float("nan")), v, tol) for s, (v, tol) in sorted(slots.items())
                   if s not in pts or abs(pts[s] - v) > tol] + ["%d: %.6g, want none" % (s, pts[s]) for s in sorted(set(pts) - set(slots))]
            full = max(v for v, _ in slots.values())
            nfull = sum(1 for v, _ in slots.values() if v == full)
            check(not bad, "panel '%s' %s: %s = the sum of its nodes' truths every second (%d s, %d with every node: %.6g B/s)" %
                  (panel["title"], t["refId"], alias, len(slots), nfull, full), "; ".join(bad[:3]))
    panel_png(URL, panel, values, panel["title"].replace("$topn", values["$topn"]), WINDOW,
              "%s/cluster-panel%d.png" % (PNG_DIR, panel["id"]))
sys.exit(summary("cluster_check"))
