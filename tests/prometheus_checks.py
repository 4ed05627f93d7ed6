"""Checks of uncore-exporter and of Prometheus scraping it, for tests/test_exporter.sh and
tests/test_prometheus.sh.  Each command prints one line per check ("ok ..." or "bad ...") and exits 1 when
any is bad.  The truth comes from tests/prom_truth (the simulator's profile in the exporter's names)."""
import base64
import http.client
import json
import os
import re
import selectors
import socket
import ssl
import sys
import threading
import time
import urllib.parse
import urllib.request

OM = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (\S+))?$')
bad = 0


def say(ok, what):
    global bad
    print(("ok " if ok else "bad ") + what, flush=True)
    bad += not ok


def scrape(port, accept=None, timeout=10):
    # UE_TLS="CAFILE USER PASSWORD": over HTTPS with basic authentication (tests/test_exporter_tls.sh)
    tls = os.environ.get("UE_TLS", "").split(" ", 2)  # the password may hold blanks
    tls = tls if len(tls) == 3 else []
    req = urllib.request.Request("%s://127.0.0.1:%d/metrics" % ("https" if tls else "http", port))
    if accept:
        req.add_header("Accept", accept)
    ctx = None
    if tls:
        ctx = ssl.create_default_context(cafile=tls[0])
        # as Python 3.13 verifies by default (Debian 13): the test's certificates must pass on Debian 12 too
        ctx.verify_flags |= ssl.VERIFY_X509_STRICT
        req.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (tls[1], tls[2])).encode()).decode())
    with urllib.request.urlopen(req, timeout=timeout, context=ctx) as r:
        return r.status, r.headers.get("Content-Type"), r.read().decode()


def parse(text, om=False):
    """{(name, labels): (value, time in s or None)}"""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("not a sample line: %r" % line)
        name, labels, v, t = m.groups()
        ts = None if t is None else (float(t) if om else float(t) / 1000)
        out[(name, labels or "")] = (float(v), ts)
    return out


def truths(path):
    """[(name, labels, kind, value)] from prom_truth's output"""
    rows = []
    for line in open(path):
        name, labels, kind, v = line.split()
        rows.append((name, labels, kind, float(v)))
    return rows


def near(got, want, tol):
    return abs(got - want) <= tol * abs(want)


def exact(port, truth, secs, rate_tol, value_tol):
    """Two scrapes secs apart: each counter's increase over its samples' own times, and each gauge, equal
    the truth."""
    a = parse(scrape(port, OM)[2], om=True)
    time.sleep(secs)
    b = parse(scrape(port, OM)[2], om=True)
    n = 0
    for name, labels, kind, want in truths(truth):
        key = (name, labels)
        if key not in a or key not in b:
            continue
        n += 1
        (v0, t0), (v1, t1) = a[key], b[key]
        if kind == "rate":
            got = (v1 - v0) / (t1 - t0) if t1 and t0 and t1 > t0 else float("nan")
            say(near(got, want, rate_tol), "%s{%s} rate %.6g per second over its samples' %.3f s, truth %.6g (within %g %%)"
                % (name, labels, got, (t1 or 0) - (t0 or 0), want, rate_tol * 100))
        else:
            say(near(v1, want, value_tol), "%s{%s} = %.6g, truth %.6g (within %g %%)" % (name, labels, v1, want, value_tol * 100))
    say(n > 0, "%d series of the truth were exported" % n)


def counter_value(port, name, labels):
    return parse(scrape(port)[2]).get((name, labels), (None, None))[0]


def raw(port, data, read=True, timeout=5):
    """Send bytes, return the status line (or what happened)"""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        if not read:
            return ""
        got = b""
        while b"\r\n" not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        return got.split(b"\r\n")[0].decode(errors="replace") or "closed"
    except OSError as e:
        return "closed (%s)" % e.__class__.__name__
    finally:
        s.close()


def malformed(port):
    cases = [
        ("garbage", b"\x00\x01\x02 hello\r\n\r\n", r"HTTP/1\.[01] 4\d\d|closed"),
        ("POST /metrics", b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", r"HTTP/1\.1 405"),
        ("DELETE /", b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n", r"HTTP/1\.1 405"),
        ("/nothing", b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n", r"HTTP/1\.1 404"),
        ("a 64 KiB URL", b"GET /" + b"a" * 65536 + b" HTTP/1.1\r\nHost: x\r\n\r\n", r"HTTP/1\.[01] 4\d\d|closed"),
        ("a 1 MiB header", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX: " + b"b" * (1 << 20) + b"\r\n\r\n", r"HTTP/1\.[01] 4\d\d|closed"),
        ("HTTP/9.9", b"GET /metrics HTTP/9.9\r\n\r\n", r"HTTP/1\.[01] (4|5)\d\d|closed"),
        ("a 2 GB Content-Length", b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000000\r\n\r\nabc", None),
        ("chunked garbage", b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", r"HTTP/1\.[01] 4\d\d|closed"),
        ("a request cut off", b"GET /metr", None),
        ("Accept: 4 KiB of q", b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: " + b"a/b;q=0.5," * 400 + b"\r\n\r\n", r"HTTP/1\.1 200"),
    ]
    for what, data, want in cases:
        got = raw(port, data, read=want is not None)
        if want is not None:
            say(re.match(want, got) is not None, "%s: answered %r" % (what, got))
        st = scrape(port)[0]
        say(st == 200, "after %s a scrape is still served (%d)" % (what, st))


def storm(port, n, truth_rate, name, labels, interval):
    """n connections at once, each a scrape, while a slow reader holds one more; the reads keep their
    schedule and the counter its rate.  They come from 10 at a time of the addresses 127.0.2.1 up, which
    the exporter's --allow names (else all of 127.0.0.0/8 is one client, held to --max-connections-per-ip)"""
    reads0, c0 = counter_value(port, "uncore_exporter_reads_total", ""), parse(scrape(port, OM)[2], om=True)[(name, labels)]
    t0 = time.monotonic()
    slow = socket.create_connection(("127.0.0.1", port))
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    slow.recv(16)  # and then reads nothing more
    socks = []
    for i in range(n):
        s = socket.socket()
        s.setblocking(True)
        s.settimeout(60)
        s.bind(("127.0.2.%d" % (1 + i // 10), 0))
        s.connect(("127.0.0.1", port))
        socks.append(s)
    for s in socks:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    ok = 0
    for s in socks:
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        ok += data.startswith(b"HTTP/1.1 200") and b"uncore_exporter_reads_total" in data
        s.close()
    say(ok == n, "%d connections at once: %d answered 200 with the whole snapshot" % (n, ok))
    time.sleep(max(2.0, 4 * interval))
    st = scrape(port)[0]
    say(st == 200, "a scrape beside the slow reader is served (%d)" % st)
    elapsed = time.monotonic() - t0
    reads1, c1 = counter_value(port, "uncore_exporter_reads_total", ""), parse(scrape(port, OM)[2], om=True)[(name, labels)]
    slow.close()
    want = int(elapsed / interval) - 1
    say(reads1 - reads0 >= want, "reads went on meanwhile: %d in %.1f s at %g s (at least %d)" % (reads1 - reads0, elapsed, interval, want))
    got = (c1[0] - c0[0]) / (c1[1] - c0[1])
    say(near(got, truth_rate, 0.005), "%s{%s} over the storm: %.6g per second, truth %.6g" % (name, labels, got, truth_rate))


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Scraper(threading.Thread):
    """Scrapes from its own address every 0.2 s until stopped, over one connection kept alive as
    Prometheus does (a new one after a failure): (latency, what) of each"""

    def __init__(self, port, src, timeout):
        super().__init__(daemon=True)
        self.port, self.src, self.timeout = port, src, timeout
        self.done, self.results = threading.Event(), []

    def run(self):
        c = None
        while not self.done.is_set():
            t = time.monotonic()
            try:
                if c is None:
                    c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout, source_address=(self.src, 0))
                c.request("GET", "/metrics")
                r = c.getresponse()
                body = r.read()
                what = "200" if r.status == 200 and b"uncore_exporter_reads_total" in body else "status %d" % r.status
            except Exception as e:  # noqa: BLE001 - any failure is the finding
                what = "%s: %s" % (e.__class__.__name__, e)
                c.close()
                c = None
            self.results.append((time.monotonic() - t, what))
            self.done.wait(0.2)
        if c:
            c.close()

    def stop(self):
        self.done.set()
        self.join()
        return self.results


class Trickle:
    """Connections from the given source addresses, each sending a request line and then a header line
    every `every` seconds, never ending its request; a closed one is opened again after `every` when
    reopen.  Records each connection's life: (address, opened, closed or None)."""

    REQ = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"

    def __init__(self, port, addrs, per_addr, every, reopen, line=0):
        self.port, self.every, self.reopen, self.pad = port, every, reopen, b"a" * line
        self.sel = selectors.DefaultSelector()
        self.lives = []
        self.pending = []  # (when, address): slots to open again
        for a in addrs:
            for _ in range(per_addr):
                self.open(a)

    def open(self, addr):
        s = socket.socket()
        s.settimeout(5)
        s.bind((addr, 0))
        life = [addr, time.monotonic(), None]
        try:
            s.connect(("127.0.0.1", self.port))
            s.sendall(self.REQ)
        except OSError:
            life[2] = life[1]
            self.lives.append(life)
            s.close()
            return
        s.setblocking(False)
        self.lives.append(life)
        self.sel.register(s, selectors.EVENT_READ, life)

    def close(self, key, now):
        key.data[2] = now
        self.sel.unregister(key.fileobj)
        key.fileobj.close()
        if self.reopen:
            self.pending.append((now + self.every, key.data[0]))

    def alive(self):
        return [k.data for k in self.sel.get_map().values()]

    def run(self, secs, sample=None):
        """Trickle for secs; sample(now) is called about every 0.1 s"""
        end = time.monotonic() + secs
        next_line = time.monotonic() + self.every
        n = 0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            for key, _ in self.sel.select(timeout=min(0.1, end - now)) if self.sel.get_map() else [(None, 0)] * 0:
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if not data:  # anything the exporter answers is followed by its close
                    self.close(key, time.monotonic())
            if not self.sel.get_map():
                time.sleep(min(0.1, max(0, end - time.monotonic())))
            now = time.monotonic()
            if now >= next_line:
                n += 1
                for key in list(self.sel.get_map().values()):
                    try:
                        key.fileobj.send(b"X-Trickle-%d: %d%s\r\n" % (n, n, self.pad))
                    except OSError:
                        self.close(key, now)
                next_line = now + self.every
            for when, addr in [p for p in self.pending if p[0] <= now]:
                self.pending.remove((when, addr))
                self.open(addr)
            if sample:
                sample(now)

    def stop(self):
        now = time.monotonic()
        for key in list(self.sel.get_map().values()):
            key.data[2] = None  # still open when the attacker left
            self.sel.unregister(key.fileobj)
            key.fileobj.close()
        self.sel.close()
        return now


def trickle(port, pid, per_ip, deadline, addrs):
    """A trickling attacker on 127.0.0.1 (three times the per-address limit, each connection opened again
    after a closed one) while a scraper on 127.0.0.2 (the exporter's --allow: all of 127.0.0.0/8 is one
    client) scrapes every 0.2 s."""
    for _ in range(3):
        scrape(port)
    every = deadline / 4  # a header line well within any idle timeout
    scraper = Scraper(port, "127.0.0.2", deadline)
    scraper.start()
    t0 = time.monotonic()
    att = Trickle(port, ["127.0.0.1"], 3 * per_ip, every, True)
    held = []  # the attacker's connections older than 0.5 s at each sample (any beyond the limit is closed at once)
    att.run(2.5 * deadline, lambda now: held.append(sum(now - life[1] > 0.5 for life in att.alive())))
    t_end = att.stop()
    results = scraper.stop()
    lives = att.lives
    print("# one address: %d connections opened from 127.0.0.1 in %.1f s, held at once: %d to %d"
          % (len(lives), t_end - t0, min(held or [0]), max(held or [0])))
    say(held and max(held) <= per_ip, "one address holds at most %d connections at once (the per-address limit; it "
        "held %d, keeping %d open)" % (per_ip, max(held or [0]), 3 * per_ip))
    cut = [life[2] - life[1] for life in lives if life[2] is not None and life[2] - life[1] > 0.5]
    refused = [life for life in lives if life[2] is not None and life[2] - life[1] <= 0.5]
    left = [t_end - life[1] for life in lives if life[2] is None]
    say(len(refused) > 0, "%d connections beyond the limit were closed at once" % len(refused))
    oldest = max(left + cut or [0])
    # each is closed when the deadline passes; the second of slack is a loaded machine's scheduling
    say(cut and min(cut) >= deadline * 0.95 and oldest <= deadline + 1,
        "%d trickling connections were closed by the %g s deadline (after %.2f to %.2f s); the oldest lived %.2f s"
        % (len(cut), deadline, min(cut or [0]), max(cut or [0]), oldest))
    lat = [r[0] for r in results]
    fails = [r for r in results if r[1] != "200"]
    say(len(lat) > 5 and not fails and max(lat) < deadline,
        "%d scrapes from 127.0.0.2 through the trickle, %d failed%s, the slowest %.3f s (within the %g s deadline)"
        % (len(lat), len(fails), " (%s)" % fails[0][1] if fails else "", max(lat or [0]), deadline))

    late(port, len(cut), "127.0.0.2")


def late(port, want, src):
    """the exporter counts what the attacker saw: the connections closed at their deadline.  Asked from the
    scraper's address src (--allow's): 127.0.0.1 may still be at its limit with the attacker's last connections."""
    got = None
    for _ in range(20):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(src, 0))
            c.request("GET", "/metrics")
            got = parse(c.getresponse().read().decode()).get(("uncore_exporter_late_connections_total", ""), (None, None))[0]
            c.close()
        except OSError:
            pass
        if got == want:
            break
        time.sleep(0.25)
    say(got == want, "uncore_exporter_late_connections_total %s, the connections the attackers saw closed at the "
        "deadline %d" % (got, want))


def crowd(port, pid, per_ip, deadline, addrs):
    """A crowd of `addrs` addresses trickles per_ip connections each until the deadline closes them (the
    exporter's per-client limit off: 127.0.0.0/8 is one client), a scraper on 127.0.0.3 connecting among
    them.  The exporter's RSS before, at the crowd's peak and after it."""
    for _ in range(3):
        scrape(port)
    time.sleep(0.5)
    rss0 = rss_kb(pid)
    every = deadline / 4
    # a crowd of addresses, each connection holding some 16 KiB of header lines when the deadline comes; a
    # scraper connects among them and stays (as Prometheus keeps its connection)
    rss = [rss_kb(pid)]
    att = Trickle(port, ["127.0.1.%d" % (i + 1) for i in range(addrs)], per_ip, every, False, 4000)
    ncrowd = len(att.alive())
    scraper = Scraper(port, "127.0.0.3", deadline)
    scraper.start()
    att.run(deadline + 1.5, lambda now: rss.append(rss_kb(pid)))
    still = len(att.alive())
    att.stop()
    # the memory handed back: within a tenth of what it was before (at least 1 MiB: a scrape's own), within 5 s
    margin = max(1024, rss0 // 10)
    after, t_gone = [], time.monotonic()
    while time.monotonic() - t_gone < 5:
        time.sleep(0.1)
        after.append(rss_kb(pid))
        if after[-1] <= rss0 + margin:
            break
    results = scraper.stop()
    print("# a crowd: %d connections from %d addresses; RSS %d kB before, %d kB at the peak, then %s kB"
          % (ncrowd, addrs, rss0, max(rss), " ".join(str(a) for a in after[::5] + after[-1:])))
    say(still == 0, "the deadline closed each of the crowd's %d connections (%d left)" % (ncrowd, still))
    fails = [r for r in results if r[1] != "200"]
    say(len(results) > 5 and not fails, "%d scrapes from 127.0.0.3 among the crowd, %d failed%s"
        % (len(results), len(fails), " (%s)" % fails[0][1] if fails else ""))
    # a crowd that raised it by a margin, and then a fall of twice the margin at least (else this would prove
    # nothing), down from the peak to the lower of before and after: the allocator's purge after the crowd hands
    # back some 28 MB that was held before it too (five runs: 90-101 MB before, 61-74 after), so a rise counted
    # from before alone was 19.7 MB against 20.2 on a loaded Debian 13 run
    rise, fall = max(rss) - rss0, max(rss) - min(rss0, after[-1])
    say(rise >= margin and fall >= 2 * margin and after[-1] <= rss0 + margin,
        "the crowd raised the RSS by %d kB (%d kB above its low after), and %.1f s after it (at most 5) the RSS is %d kB, "
        "within %d kB of the %d kB before" % (rise, fall, 0.1 * len(after), after[-1], margin, rss0))
    late(port, ncrowd, "127.0.0.3")


def watch(port, secs, out):
    """Scrape without pause for secs, or until the file out + ".stop" exists: every scrape answered, no counter
    ever lower than before.  The file out + ".go" says the first scrape was answered."""
    last, n, errors, back = {}, 0, [], []
    end = time.monotonic() + secs
    while time.monotonic() < end and not os.path.exists(out + ".stop"):
        try:
            st, _, text = scrape(port, timeout=5)
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            errors.append(str(e))
            continue
        if st != 200:
            errors.append("status %d" % st)
            continue
        n += 1
        if n == 1:
            open(out + ".go", "w").close()
        for key, (v, _) in parse(text).items():
            if key[0].endswith("_total") and key in last and v < last[key]:
                back.append("%s{%s} %g -> %g" % (key[0], key[1], last[key], v))
            last[key] = v
    with open(out, "w") as f:
        json.dump({"scrapes": n, "errors": errors[:5], "nerrors": len(errors), "back": back[:5], "nback": len(back)}, f)


def prom_query(api, expr, at):
    q = urllib.parse.urlencode({"query": expr, "time": "%.3f" % at})
    with urllib.request.urlopen(api + "/api/v1/query?" + q, timeout=30) as r:
        d = json.load(r)
    if d.get("status") != "success":
        raise RuntimeError("%s: %s" % (expr, d))
    return d["data"]["result"]


def labels_of(metric):
    """The labels as the truth spells them (socket, then port), or None for another kind of series"""
    if set(metric) - {"__name__", "job", "instance", "socket", "port"} or "socket" not in metric:
        return None
    return 'socket="%s"' % metric["socket"] + (',port="%s"' % metric["port"] if "port" in metric else "")


def covered(values, at, win):
    """The seconds of a window ending at `at` that Prometheus 2.42's rate() and increase() extrapolate its samples
    ([[t, "v"], ...]) to (promql/functions.go extrapolatedRate): the span of the samples, and at each end the
    gap to the window's edge where it is under 1.1 average intervals, else half an average interval; at the
    start no further back than the counter's zero."""
    pts = [(float(t), float(v)) for t, v in values]
    if len(pts) < 2:
        return win
    (t0, v0), (t1, v1) = pts[0], pts[-1]
    span = t1 - t0
    if span <= 0:
        return win
    avg = span / (len(pts) - 1)
    to_start, to_end = t0 - (at - win), at - t1
    if v1 > v0 and v0 >= 0:
        to_start = min(to_start, span * v0 / (v1 - v0))
    ext = span
    ext += to_start if to_start < 1.1 * avg else avg / 2
    ext += to_end if to_end < 1.1 * avg else avg / 2
    return ext


def rates(api, targets, jobs, instants):
    """Every socket series of every target through Prometheus' API: rate() and increase() of counters
    over 4 scrape intervals, and gauges, at each instant, equal the target's truth within 1 %.
    targets: lines "host:port truthfile name"; jobs: "name:window_s:edge_s,..."; instants: "s,s,..." before
    now less the job's edge: the newest scrape interval, whose samples may still be on their way (doc/prometheus.md)."""
    truth, names = {}, {}
    for line in open(targets):
        inst, tfile, name = line.split()
        names[inst] = name
        truth[inst] = {(n, l): (k, v) for n, l, k, v in truths(tfile)}
    now = time.time()
    instants = [float(x) for x in instants.split(",")]
    for job in jobs.split(","):
        jname, win, edge = job.split(":")
        win, edge = float(win), float(edge)
        # what each target exports, by family
        families = {}
        for r in prom_query(api, '{__name__=~"uncore_.+",__name__!~"uncore_exporter_.+",job="%s"}' % jname, now):
            lab = labels_of(r["metric"])
            if lab is not None:
                families.setdefault(r["metric"]["__name__"], set()).add((r["metric"]["instance"], lab))
        checked, wrong, untrue, worst = 0, [], [], 0.0
        for fam, series in sorted(families.items()):
            for (inst, lab) in series:
                if (fam, lab) not in truth.get(inst, {}):
                    untrue.append("%s %s{%s}" % (names.get(inst, inst), fam, lab))
            counter = fam.endswith("_total")
            for back in (edge + x for x in instants):
                for fn, scale in ((("rate", 1.0), ("increase", win)) if counter else ((None, 1.0),)):
                    sel = '%s{job="%s"}' % (fam, jname)
                    expr = "%s(%s[%ds])" % (fn, sel, win) if fn else sel
                    got, cover = {}, {}
                    for r in prom_query(api, expr, now - back):
                        lab = labels_of(r["metric"])
                        if lab is not None:
                            got[(r["metric"]["instance"], lab)] = float(r["value"][1])
                    if fn:  # the samples each window holds: what Prometheus' extrapolation makes of them
                        for r in prom_query(api, "%s[%ds]" % (sel, win), now - back):
                            lab = labels_of(r["metric"])
                            if lab is not None:
                                cover[(r["metric"]["instance"], lab)] = covered(r["values"], now - back, win)
                    for (inst, lab) in series:
                        kind_want = truth.get(inst, {}).get((fam, lab))
                        if not kind_want:
                            continue
                        # a counter's rate() and increase() are the truth over the time Prometheus extrapolates
                        # its samples to: the window, unless a scrape came late (a loaded machine) and the
                        # samples leave an edge it does not reach
                        want = kind_want[1] * scale * (cover.get((inst, lab), win) / win if fn else 1)
                        checked += 1
                        v = got.get((inst, lab))
                        err = abs(v - want) / abs(want) if v is not None else float("inf")
                        worst = max(worst, err)
                        if err > 0.01:
                            wrong.append("%s %s at now-%.1fs = %s, truth %.6g" % (names.get(inst, inst), expr.replace(sel, "%s{%s}" % (fam, lab)), back, v, want))
        for w in wrong[:10]:
            print("   ", w)
        for u in untrue[:10]:
            print("    no truth for", u)
        say(not wrong and checked > 0 and not untrue,
            "job %s (scrape every %g s): %d values of %d targets' series (rate and increase over %g s, gauges) equal the "
            "truth within 1 %% at %d instants (worst %.3f %%; %d wrong, %d series without a truth)"
            % (jname, win / 4, checked, len(truth), win, len(instants), worst * 100, len(wrong), len(untrue)))


def dashboard(api, path, truth_file, nodes, jobid, job_read):
    """Every panel of the Prometheus dashboard, its variables set (every node, the job's nodes, top 3, the
    job), evaluated through the API: each series equals what the truth of the nodes (alike) makes of it."""
    T = {(n, l): v for n, l, _, v in truths(truth_file)}
    socks = sorted({l for (n, l) in T if n == "uncore_memory_read_bytes_total" and "port" not in l})
    rd = sum(T[("uncore_memory_read_bytes_total", l)] for l in socks)
    wr = sum(T[("uncore_memory_write_bytes_total", l)] for l in socks)
    by_socket = lambda fam: lambda m: T.get((fam if fam else m.get("__name__"), 'socket="%s"' % m.get("socket")))
    expect = {  # panel title -> per target: the value of a result series (its labels m), None: not checked
        "Memory read bandwidth per socket": [by_socket("uncore_memory_read_bytes_total")],
        "Memory write bandwidth per socket": [by_socket("uncore_memory_write_bytes_total")],
        "Memory bandwidth per channel": [None, None],  # below: the channels sum to the socket
        "LLC lookups and misses": [by_socket("uncore_llc_lookups_total"), by_socket("uncore_llc_misses_total")],
        "LLC miss ratio": [by_socket("uncore_llc_miss_ratio")],
        "UPI/QPI bandwidth": [lambda m: T.get(("uncore_upi_rx_bytes_total", 'socket="%s"' % m["socket"])),
                              lambda m: T.get(("uncore_upi_tx_bytes_total", 'socket="%s"' % m["socket"]))],
        "UPI/QPI utilisation": [by_socket(None)],
        "Uncore and DRAM clocks": [by_socket("uncore_frequency_hertz"), by_socket("uncore_dram_frequency_hertz")],
        "Cluster memory bandwidth": [lambda m: nodes * (rd + wr), lambda m: nodes * rd, lambda m: nodes * wr],
        "Memory bandwidth per node": [lambda m: rd + wr],
        "Nodes of the job": [lambda m: rd + wr, lambda m: nodes * (rd + wr)],
        "Top $topn nodes by memory bandwidth": [lambda m: rd + wr],
        "Job $jobid: memory bandwidth over its nodes": [lambda m: nodes * job_read, None],
        "Job $jobid per node": [lambda m: job_read],
        "Job $jobid against its nodes": [lambda m: nodes * job_read, lambda m: nodes * rd,
                                         lambda m: nodes * T.get(("uncore_unattributed_memory_read_bytes_total", ""), 5e9)],
        # the Energy row (doc/energy.md): each socket's watts, the profile's
        "Package and DRAM power per socket": [
            lambda m: T.get(("uncore_energy_joules_total", 'socket="%s",domain="pkg"' % m.get("socket"))),
            lambda m: T.get(("uncore_energy_joules_total", 'socket="%s",domain="dram"' % m.get("socket")))],
    }
    # the attribution splits a node's bytes among its jobs by sampling their cores a step at a time: its error
    # is a share of the node's bytes, not of each job's own (a loaded run: job 101 1.07 % of its 3e10), and what
    # no job caused is the node's less every job's (5 % of its 5e9 on a loaded run)
    by_node = lambda x: 0.01 * nodes * rd / x
    tol = {("Job $jobid against its nodes", 0): by_node, ("Job $jobid against its nodes", 2): by_node,
           ("Job $jobid: memory bandwidth over its nodes", 0): by_node,
           ("Job $jobid per node", 0): lambda x: 0.01 * rd / x}
    d = json.load(open(path))
    at = time.time() - 10
    for p in d["panels"]:
        if p["type"] == "row":
            continue
        want = expect.get(p["title"])
        say(want is not None and len(want) == len(p["targets"]), "panel %r has its expectation" % p["title"])
        for ti, (t, w) in enumerate(zip(p["targets"], want or [])):
            expr = (t["expr"].replace("$__rate_interval", "30s").replace('"$instance"', '".*"')
                    .replace('"$nodes"', '".*"').replace("$topn", "3").replace("$jobid", jobid))
            try:
                res = prom_query(api, expr, at)
            except Exception as e:  # noqa: BLE001 - a query Prometheus refuses is the finding
                say(False, "%s: %s: %s" % (p["title"], expr, e))
                continue
            bad_rows = []
            for r in res:
                v = float(r["value"][1])
                x = w(r["metric"]) if w else None
                if w and (x is None or not near(v, x, tol.get((p["title"], ti), lambda x: 0.01)(x))):
                    bad_rows.append("%s = %.6g, want %s" % (r["metric"], v, x))
            if p["title"] == "Memory bandwidth per channel":  # each socket's channels add up to the socket
                fam = "read" if "read" in t["expr"] else "write"
                sums = {}
                for r in res:
                    k = (r["metric"]["instance"], r["metric"]["socket"])
                    sums[k] = sums.get(k, 0) + float(r["value"][1])
                for (inst, sk), v in sums.items():
                    x = T[("uncore_memory_%s_bytes_total" % fam, 'socket="%s"' % sk)]
                    if not near(v, x, 0.01):
                        bad_rows.append("%s socket %s channels sum %.6g, want %.6g" % (inst, sk, v, x))
            say(res and not bad_rows, "%s: %s: %d series%s" % (p["title"], t["legendFormat"], len(res),
                                                                 "; " + "; ".join(bad_rows[:3]) if bad_rows else ""))


def rates_covered(api, win, edge, backs, specs):
    """For each "SELECTOR TRUTH" line of the file specs, rate(SELECTOR[win]) at each of now - edge - back (backs:
    "s,s,..."): the truth over the share of the window Prometheus extrapolates the window's own samples to
    (covered) within 1 %.  One line a value: "ok|bad WHAT"."""
    for line in open(specs):
        sel, truth = line.rsplit(None, 1)
        for back in backs.split(","):
            at = time.time() - edge - float(back)
            r = prom_query(api, "rate(%s[%ds])" % (sel, win), at)
            s = prom_query(api, "%s[%ds]" % (sel, win), at)
            got = float(r[0]["value"][1]) if r else None
            share = covered(s[0]["values"], at, win) / win if s else 1
            want = float(truth) * share
            say(got is not None and near(got, want, 0.01),
                "rate(%s[%ds]) at now-%s-%g s = %s B/s, truth %.6g (%s over the %.6f of the window its samples cover) "
                "within 1 %%" % (sel, win, back, edge, got if got is None else "%.6g" % got, want, truth, share))


def filled(api, rule, job, win):
    """Has the recording rule `rule` been evaluated over a full window of `win` seconds of the job's every target
    (its newest evaluation at least win after the latest first sample of a target)?  Says so and exits 0, else 1."""
    now = time.time()
    ev = prom_query(api, "timestamp(%s)" % rule, now)
    firsts = [float(r["values"][0][0]) for r in prom_query(api, 'up{job="%s"}[10m]' % job, now)]
    if not ev or not firsts or float(ev[0]["value"][1]) < max(firsts) + win:
        sys.exit(1)
    print("%s evaluated %.1f s after the job's last target's first sample (a full %g s window)"
          % (rule, float(ev[0]["value"][1]) - max(firsts), win))


def reads(port, want):
    """Wait (at most 60 s) until the exporter has made `want` reads in all ("N"), or N more than when first
    asked ("+N")"""
    more = int(want.lstrip("+"))
    end, first = time.monotonic() + 60, None if want.startswith("+") else 0
    while time.monotonic() < end:
        try:
            n = counter_value(port, "uncore_exporter_reads_total", "")
        except OSError:
            n = None
        if n is not None:
            first = n if first is None else first
            if n - first >= more:
                return
        time.sleep(0.05)
    say(False, "the exporter made %d reads within 60 s (%s)" % (more, first))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "exact":
        exact(int(args[0]), args[1], float(args[2]), float(args[3]), float(args[4]))
    elif cmd == "malformed":
        malformed(int(args[0]))
    elif cmd == "storm":
        storm(int(args[0]), int(args[1]), float(args[2]), args[3], args[4], float(args[5]))
    elif cmd == "trickle":
        trickle(int(args[0]), int(args[1]), int(args[2]), float(args[3]), int(args[4]))
    elif cmd == "crowd":
        crowd(int(args[0]), int(args[1]), int(args[2]), float(args[3]), int(args[4]))
    elif cmd == "watch":
        watch(int(args[0]), float(args[1]), args[2])
    elif cmd == "dashboard":
        dashboard(args[0], args[1], args[2], int(args[3]), args[4], float(args[5]))
    elif cmd == "rates_covered":
        rates_covered(args[0], int(args[1]), float(args[2]), args[3], args[4])
    elif cmd == "reads":
        reads(int(args[0]), args[1])
    elif cmd == "filled":
        filled(args[0], args[1], args[2], float(args[3]))
    elif cmd == "rates":
        rates(args[0], args[1], args[2], args[3])
    elif cmd == "scrape":
        st, ctype, text = scrape(int(args[0]), args[1] if len(args) > 1 and args[1] else None)
        print(ctype)
        sys.stdout.write(text)
    else:
        raise SystemExit("unknown command " + cmd)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
