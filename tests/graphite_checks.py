"""What graphite_dashboard.py, graphite_jobs.py and cluster_check.py share: a PASS:/FAIL: line per check,
counted, graphite-web's render API, and how near a series' points must lie to their truth."""
import statistics
import urllib.parse
import urllib.request

counts = {"passed": 0, "failed": 0}


def check(ok, what, detail=None):
    """Print and count one check (with detail under a failing one); returns ok."""
    print(("PASS: " if ok else "FAIL: ") + what)
    if not ok and detail:
        print("  " + detail)
    counts["passed" if ok else "failed"] += 1
    return ok


def render(url, targets, fmt, extra):
    """graphite-web's /render of the targets (a list) in format fmt (json, png) with more &-parameters."""
    query = "&".join("target=" + urllib.parse.quote(t) for t in targets) + "&format=%s%s" % (fmt, extra)
    with urllib.request.urlopen("%s/render?%s" % (url, query), timeout=120) as r:
        return r.read()


def points_near(points, want, scale=None):
    """As test_collectd.sh's all_near: at least 4 points, their median within 1% of want, and every point
    within 5% or, where a read was late (a loaded machine preempting the plugin), with a neighbour that got
    the counts it lacks: the pair's mean within 2.5%.  The shares are of scale (default want: a job's series
    takes its node's bytes, which the attribution splits).  Returns (ok, median)."""
    med = statistics.median(points) if points else float("nan")
    s = want if scale is None else scale

    def close(i):
        pair = lambda j: 0 <= j < len(points) and abs((points[i] + points[j]) / 2 - want) <= 0.025 * s
        return abs(points[i] - want) <= 0.05 * s or pair(i - 1) or pair(i + 1)
    return len(points) >= 4 and abs(med - want) <= 0.01 * s and all(close(i) for i in range(len(points))), med


def fill(target, values):
    """A target with the dashboard's variables ({"$job": "{a,b}"}) put in."""
    for var, value in values.items():
        target = target.replace(var, value)
    return target


def row_panels(panels, title):
    """The panels of the dashboard's row of that title (up to the next row), or [] without it."""
    row = next((i for i, p in enumerate(panels) if p["type"] == "row" and p["title"] == title), None)
    if row is None:
        return []
    end = next((i for i in range(row + 1, len(panels)) if panels[i]["type"] == "row"), len(panels))
    return panels[row + 1:end]


def panel_png(url, panel, values, title, extra, path):
    """Render every target of a panel into one PNG at path (extra: &-parameters, the window), and check it."""
    more = "".join("&target=" + urllib.parse.quote(fill(x["target"], values)) for x in panel["targets"][1:])
    png = render(url, [fill(panel["targets"][0]["target"], values)], "png",
                 more + extra + "&yMin=0&width=800&height=360&hideLegend=false&title=%s" % urllib.parse.quote(title))
    open(path, "wb").write(png)
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 4000,
          "panel '%s' renders to PNG (%d bytes, %s)" % (title, len(png), path))


def summary(name):
    """The last line, and the exit status."""
    print("%s: %d passed, %d failed" % (name, counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0
