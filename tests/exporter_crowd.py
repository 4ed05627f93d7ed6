"""Issue 79's two attacks on uncore-exporter, at a small scale, for tests/test_exporter_crowd.sh.  Each command
prints one line per check ("ok ..." or "bad ...", "# ..." for what it saw) and exits 1 when any is bad.

  trickle PORT NADDRS PER_ADDR SCRAPES MOST   NADDRS loopback addresses (127.1.x.y: any local user can bind them)
      each keep PER_ADDR connections that send a header line every half second and never end their
      request, reopened when closed; meanwhile a scraper on 127.0.0.1 scrapes SCRAPES times, each over a new
      connection (as the liveness probe and a restarted Prometheus do): every scrape must be served, and
      the crowd hold at most MOST connections for over a second (-1: no check; else the scrapes, of the
      crowd's own block, are only counted).
  local PORT SOCK NADDRS PER_ADDR SCRAPES   NADDRS loopback addresses each trickle PER_ADDR connections to the TCP
      port, as any local user can (issue 89: 16 of them fill the one client 127.0.0.0/8 is); meanwhile the local
      scraper scrapes once a second SCRAPES times over the unix socket SOCK (--listen unix:PATH): every scrape
      must be served.  And one scrape from 127.0.0.1 among them, which the crowd's block leaves nothing
      (printed, not checked: the attack works).
  unixtrickle SOCK N   N connections to the unix socket SOCK that send a header line every half second and
      never end their request, reopened 2 s after they are closed (or refused: the listen backlog full), as one
      user of the socket's group can; prints "ready" once they have been opened a second, then runs until killed.
  unixscrape SOCK SCRAPES   one scrape over the unix socket a second, SCRAPES times: every one must be served.
  unixguess SOCK N USER PASS   N requests with a wrong password over the unix socket, one after another: each
      must be refused (401).
  slow PORT PID NADDRS PER_ADDR SCRAPES BOUND_KB   NADDRS x PER_ADDR clients send GET /metrics and never
      read (a receive buffer of 4 KiB and segments of 536 bytes each); the scraper on 127.0.0.1 is served SCRAPES times and the
      exporter's RSS (VmRSS) rises by at most BOUND_KB over what it was before them.
"""
import base64
import errno
import selectors
import socket
import ssl
import sys
import time

bad = 0


def say(ok, what):
    global bad
    print(("ok " if ok else "bad ") + what, flush=True)
    bad += not ok


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def addr(i):
    return "127.1.%d.%d" % (i // 250, i % 250 + 1)


def get_all(s, data):
    """GET /metrics on s, its answer to the end into data (a bytearray: what came stays there on an error)"""
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    while True:
        got = s.recv(65536)
        if not got:
            return bytes(data)
        data += got


def scrape(port, timeout=5):
    """one scrape over a connection of its own from 127.0.0.1 (port: a number), or over the unix socket at port
    (a path): None when served, else what went wrong"""
    try:
        if isinstance(port, str):
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(timeout)
            s.connect(port)
        else:
            s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=("127.0.0.1", 0))
    except OSError as e:
        return "connect: %s" % e
    try:
        data = bytearray()
        data = get_all(s, data)
    except OSError as e:
        return "read: %s (%d bytes)" % (e, len(data))
    finally:
        s.close()
    if not data.startswith(b"HTTP/1.1 200") or b"uncore_exporter_reads_total" not in data:
        return "answer: %r" % data[:40]
    return None


class Crowd:
    """NADDRS x PER_ADDR connections; each sends `first`, then (trickle) a header line every `every`
    seconds; a closed one is opened again `again` seconds later."""

    def __init__(self, port, naddrs, per_addr, first, trickle, rcvbuf=0, every=0.5, again=2.0):
        self.port, self.first, self.trickle, self.rcvbuf = port, first, trickle, rcvbuf
        self.every, self.again = every, again
        self.sel = selectors.DefaultSelector()
        self.pending = []
        self.parked = []
        self.opened = self.closed = 0
        for i in range(naddrs):
            for _ in range(per_addr):
                self.open(addr(i))
        self.next_line = time.monotonic() + every
        self.n = 0

    def open(self, a):
        if isinstance(self.port, str):  # the unix socket at that path
            s = socket.socket(socket.AF_UNIX)
            s.setblocking(False)
            if s.connect_ex(self.port) not in (0, errno.EINPROGRESS):  # EAGAIN: its backlog is full
                s.close()
                self.pending.append((time.monotonic() + self.again, a))
                return
            self.opened += 1
            self.sel.register(s, selectors.EVENT_WRITE, [a, False, time.monotonic()])
            return
        s = socket.socket()
        if self.rcvbuf:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.rcvbuf)
            # segments of 536 bytes (RFC 879's default), as across a network: over loopback's 64 KiB segments
            # the exporter's kernel sizes the send buffer at some 1.3 MB and takes a whole answer out of it
            # (tcp_sndbuf_expand: twice 10 segments), where a slow reader elsewhere leaves it in the exporter
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        s.setblocking(False)
        try:
            s.bind((a, 0))
            s.connect_ex(("127.0.0.1", self.port))
        except OSError:
            s.close()
            self.pending.append((time.monotonic() + self.again, a))
            return
        self.opened += 1
        self.sel.register(s, selectors.EVENT_WRITE, [a, False, time.monotonic()])

    def drop(self, key):
        self.sel.unregister(key.fileobj)
        key.fileobj.close()
        self.closed += 1
        self.pending.append((time.monotonic() + self.again, key.data[0]))

    def step(self, secs):
        end = time.monotonic() + secs
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            for key, ev in self.sel.select(timeout=min(left, 0.05)) if self.sel.get_map() else []:
                if ev & selectors.EVENT_WRITE and not key.data[1]:  # connected (or refused)
                    try:
                        key.fileobj.send(self.first)
                    except OSError:
                        self.drop(key)
                        continue
                    key.data[1] = True
                    if self.trickle:
                        self.sel.modify(key.fileobj, selectors.EVENT_READ, key.data)
                    else:  # a slow reader never takes its answer out: parked, out of the selector
                        self.sel.unregister(key.fileobj)
                        self.parked.append(key.fileobj)
                    continue
                try:  # a trickle reads only to see its end
                    got = key.fileobj.recv(4096)
                except OSError:
                    got = b""
                if not got:
                    self.drop(key)
            now = time.monotonic()
            if self.trickle and now >= self.next_line:
                self.n += 1
                for key in list(self.sel.get_map().values()):
                    if key.data[1]:
                        try:
                            key.fileobj.send(b"X-Trickle-%d: %d\r\n" % (self.n, self.n))
                        except OSError:
                            self.drop(key)
                self.next_line = now + self.every
            for when, a in [p for p in self.pending if p[0] <= now]:
                self.pending.remove((when, a))
                self.open(a)

    def held_long(self):
        """the trickling connections open for over a second (one refused is closed within milliseconds)"""
        now = time.monotonic()
        return sum(1 for k in self.sel.get_map().values() if k.data[1] and now - k.data[2] > 1.0)

    def held(self):
        return len(self.parked) + sum(1 for k in self.sel.get_map().values() if k.data[1])

    def stop(self):
        for s in self.parked:
            s.close()
        for key in list(self.sel.get_map().values()):
            self.sel.unregister(key.fileobj)
            key.fileobj.close()
        self.sel.close()


def trickle(port, naddrs, per_addr, n, most):
    """most: the connections the crowd may hold for long (-1: any number)"""
    why = scrape(port)
    say(why is None, "a scrape before the attack is served%s" % (" (%s)" % why if why else ""))
    crowd = Crowd(port, naddrs, per_addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n", True)
    crowd.step(1.0)
    print("# %d trickling connections asked for from %d addresses; %d open after a second" % (naddrs * per_addr, naddrs, crowd.held()))
    fails, held = [], []
    for _ in range(n):
        crowd.step(0.2)
        held.append(crowd.held_long())
        why = scrape(port)
        if why:
            fails.append(why)
    print("# the crowd opened %d connections, %d of them closed by the exporter" % (crowd.opened, crowd.closed))
    crowd.stop()
    if most >= 0:
        say(max(held) <= most, "the crowd held %d to %d connections for over a second (at most %d: 127.0.0.0/8 is one client)"
            % (min(held), max(held), most))
    if most >= 0:  # the scraper is of the crowd's own block: it shares their 16
        print("# %d scrapes from 127.0.0.1, of the crowd's block and not --allow'd: %d failed" % (n, len(fails)))
        return
    say(not fails, "%d scrapes from 127.0.0.1 while %d loopback addresses trickle %d connections each: %d failed%s"
        % (n, naddrs, per_addr, len(fails), " (%s)" % fails[0] if fails else ""))


def local(port, sock, naddrs, per_addr, n):
    crowd = Crowd(port, naddrs, per_addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n", True)
    crowd.step(1.0)
    print("# %d trickling connections from %d loopback addresses to the TCP port; %d open after a second"
          % (naddrs * per_addr, naddrs, crowd.held()))
    tcp = scrape(port)
    print("# a scrape from 127.0.0.1 over TCP among them: %s" % ("served" if tcp is None else "not served (%s)" % tcp))
    fails, held = [], []
    for _ in range(n):
        crowd.step(1.0)
        held.append(crowd.held_long())
        why = scrape(sock)
        if why:
            fails.append(why)
    print("# the crowd opened %d connections (reopened as the deadline closes them)" % crowd.opened)
    crowd.stop()
    say(max(held) == naddrs * per_addr, "the crowd held its %d connections of the TCP port for over a second while the "
        "local scraper scraped (%d to %d)" % (naddrs * per_addr, min(held), max(held)))
    say(not fails, "%d scrapes over the unix socket, one a second, while %d loopback addresses trickle %d connections "
        "each: %d failed%s" % (n, naddrs, per_addr, len(fails), " (%s)" % fails[0] if fails else ""))


def unix_trickle(sock, n):
    crowd = Crowd(sock, 1, n, b"GET /metrics HTTP/1.1\r\nHost: x\r\n", True)
    crowd.step(1.0)
    print("ready: %d trickling connections to %s asked for, %d open after a second" % (n, sock, crowd.held()), flush=True)
    while True:
        crowd.step(10.0)
        print("# %d open, %d for over a second; %d opened so far, %d closed" % (crowd.held(), crowd.held_long(),
              crowd.opened, crowd.closed), flush=True)


def unix_scrape(sock, n):
    fails = []
    for _ in range(n):
        time.sleep(1.0)
        why = scrape(sock, timeout=10)
        if why:
            fails.append(why)
    say(not fails, "%d scrapes over the unix socket, one a second: %d not served%s"
        % (n, len(fails), " (%s)" % fails[0] if fails else ""))


def unix_guess(sock, n, user, password):
    auth = base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
    answers = {}
    for _ in range(n):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(20)
            s.connect(sock)
            s.sendall(("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nConnection: close\r\n\r\n"
                       % auth).encode())
            data = bytearray()
            while True:
                got = s.recv(65536)
                if not got:
                    break
                data += got
            s.close()
            status = data[9:12].decode(errors="replace") or "none"
        except OSError as e:
            status = "error (%s)" % e
        answers[status] = answers.get(status, 0) + 1
    say(answers.get("401", 0) == n, "%d wrong passwords over the unix socket: answered %s" % (n, answers))


def slow(port, pid, naddrs, per_addr, n, bound_kb):
    for _ in range(3):
        scrape(port)
    rss0 = rss_kb(pid)
    crowd = Crowd(port, naddrs, per_addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", False, rcvbuf=4096, again=1.0)
    peak = rss0
    fails = []
    for _ in range(n):
        crowd.step(0.3)
        peak = max(peak, rss_kb(pid))
        why = scrape(port)
        if why:
            fails.append(why)
        peak = max(peak, rss_kb(pid))
    held = crowd.held()
    crowd.stop()
    print("# %d clients that never read (%d held at the end); the exporter's RSS %d kB before, %d kB at the peak"
          % (naddrs * per_addr, held, rss0, peak))
    say(not fails, "%d scrapes from 127.0.0.1 among them: %d failed%s" % (n, len(fails), " (%s)" % fails[0] if fails else ""))
    say(peak - rss0 <= bound_kb, "the RSS rose by %d kB, within the %d kB the exporter's options allow" % (peak - rss0, bound_kb))


def tls_slow(port, pid, n, cafile, bound_kb):
    """N TLS clients from 127.0.0.1 that send a request and never read its answer: the RSS's rise within the
    bound the exporter logged (its TLS sessions counted), and a scrape over TLS still served"""
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.verify_flags |= ssl.VERIFY_X509_STRICT  # Python 3.13's default (prometheus_checks.py)
    ctx.check_hostname = False

    def tls_scrape():
        try:
            with ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10)) as s:
                data = get_all(s, bytearray())
        except OSError as e:
            return "%s" % e
        return None if data.startswith(b"HTTP/1.1 200") else "answer: %r" % data[:40]

    for _ in range(3):
        tls_scrape()
    rss0 = peak = rss_kb(pid)
    held = []
    for _ in range(n):
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)  # as across a network (Crowd.open says why)
        raw.settimeout(10)
        raw.connect(("127.0.0.1", port))
        s = ctx.wrap_socket(raw)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        held.append(s)
        peak = max(peak, rss_kb(pid))
    for _ in range(10):
        time.sleep(0.2)
        peak = max(peak, rss_kb(pid))
    why = tls_scrape()
    peak = max(peak, rss_kb(pid))
    for s in held:
        s.close()
    print("# %d TLS clients that never read; the exporter's RSS %d kB before, %d kB at the peak (%.1f kB a client)"
          % (n, rss0, peak, (peak - rss0) / n))
    say(why is None, "a scrape over TLS among them served%s" % (" (%s)" % why if why else ""))
    say(peak - rss0 <= bound_kb, "the RSS rose by %d kB, within the %d kB the exporter's options allow with TLS"
        % (peak - rss0, bound_kb))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "trickle":
        trickle(int(args[0]), int(args[1]), int(args[2]), int(args[3]), int(args[4]))
    elif cmd == "local":
        local(int(args[0]), args[1], int(args[2]), int(args[3]), int(args[4]))
    elif cmd == "tlsslow":
        tls_slow(int(args[0]), int(args[1]), int(args[2]), args[3], int(args[4]))
    elif cmd == "unixtrickle":
        unix_trickle(args[0], int(args[1]))
    elif cmd == "unixscrape":
        unix_scrape(args[0], int(args[1]))
    elif cmd == "unixguess":
        unix_guess(args[0], int(args[1]), args[2], args[3])
    elif cmd == "slow":
        slow(int(args[0]), int(args[1]), int(args[2]), int(args[3]), int(args[4]), int(args[5]))
    else:
        sys.exit("unknown command " + cmd)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
