"""What graphite_dashboard.py and cluster_check.py share: a PASS:/FAIL: line per check, counted, and
graphite-web's render API."""
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


def summary(name):
    """The last line, and the exit status."""
    print("%s: %d passed, %d failed" % (name, counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0
