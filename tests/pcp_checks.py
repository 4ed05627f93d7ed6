"""Helpers of tests/test_pcp.sh: what PCP's tools printed against the simulator's truth.

  pcp_checks.py truth PROM_TRUTH DEV_TRUTH PROFILE -> the expected rates, one "metric instance rate" a line
                                                (the jobs': the profile's job.ID.* rates)
  pcp_checks.py dumplog DUMP EXPECTED        -> each expected counter's rate over the archive's first and
                                                last samples (their own timestamps), within 0.5 %
  pcp_checks.py pmrep CSV EXPECTED           -> the mean of pmrep's rates of each column, within 0.5 %
  pcp_checks.py pmval OUT EXPECTED METRIC TOL  -> the mean of pmval's rates of each instance, within TOL
  pcp_checks.py limits PMINFO MIN MAX INST...  -> pminfo -f of the four clock limits: every INST has MIN
                                                (limit_min, initial_limit_min) and MAX (the _max), exactly
Prints a line per value compared; exits 1 when one is off or none was compared.
"""
import re
import sys

TOL = 0.005  # tests/prometheus_checks.py: a counter's rate over its samples' own times


def expected(path):
    out = {}
    for line in open(path):
        m, inst, v = line.split("\t")
        out[(m, inst)] = float(v)
    return out


def truth(prom, dev, profile):
    """The agent's names from prom_truth's (the exporter's) and pcp_truth's device lines."""
    rows = {}
    for line in open(prom):
        name, labels, kind, v = line.split()
        lab = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if kind != "rate" or "port" in lab:
            continue
        s = lab.get("socket")
        if name in ("uncore_memory_read_bytes_total", "uncore_memory_write_bytes_total"):
            d = "read" if "read" in name else "write"
            rows[("intel_uncore.memory.%s_bytes" % d, "socket" + s)] = float(v)
            # sim:skx: one NUMA node a socket, node N on socket N (the exporter's numa_node="N",socket="N")
            rows[("intel_uncore.numa.%s_bytes" % d, "node" + s)] = float(v)
        elif name == "uncore_energy_joules_total":
            rows[("intel_uncore.energy.joules", "socket%s/%s" % (s, lab["domain"]))] = float(v)
    for line in open(dev):
        n, w, r = line.split()
        rows[("dev.write", n)] = float(w)
        rows[("dev.read", n)] = float(r)
    # -j: each job's cores' bytes (job.ID.mem_*_bytes_per_s, the cgroups job_ID); no job holds a device, so
    # every device's DMA is unattributed's, and no memory byte is (no dma_*_bytes_per_s in the profile)
    jobs = set()
    for line in open(profile):
        m = re.match(r"^job\.(\w+)\.mem_(read|write)_bytes_per_s = (\S+)$", line.strip())
        if m:
            jobs.add(m.group(1))
            rows[("intel_uncore.jobs.%s_bytes" % m.group(2), m.group(1))] = float(m.group(3))
    for j in jobs:
        rows[("intel_uncore.jobs.device_write_bytes", j)] = 0.0
        rows[("intel_uncore.jobs.device_read_bytes", j)] = 0.0
    if jobs:
        for d in ("read", "write"):
            rows[("intel_uncore.jobs.%s_bytes" % d, "unattributed")] = 0.0
            rows[("intel_uncore.jobs.device_%s_bytes" % d, "unattributed")] = sum(
                v for (m, n), v in rows.items() if m == "dev." + d)
    for (m, i), v in sorted(rows.items()):
        print("%s\t%s\t%.9g" % (m, i, v))


def want(exp, metric, inst):
    """The truth of an instance; an IIO port's is its devices' sum ("socket0/iio1/port1 nvme0 0000:17:00.0")"""
    if (metric, inst) in exp:
        return exp[(metric, inst)]
    if metric.startswith("intel_uncore.iio.") and " " in inst:
        d = "dev.write" if metric.endswith("write_bytes") else "dev.read"
        names = inst.split()[1].split(",")
        if all((d, n) in exp for n in names):
            return sum(exp[(d, n)] for n in names)
    return None


# the attribution splits a socket's bytes by sampling its cores a step at a time: its error is a share of the
# node's bytes, not of each job's (tests/prometheus_checks.py's dashboard: 1.07 % of a job's 3e10 on a loaded run)
JOB_TOL = 0.03
JOB_ABS = 0.01 * 19.2e9  # a truth of 0 (unattributed memory, the jobs' devices): 1 % of the node's reads


def near(got, w, tol, metric=""):
    if metric.startswith("intel_uncore.jobs.") and not w:
        return abs(got - w) <= JOB_ABS
    if metric in ("intel_uncore.jobs.read_bytes", "intel_uncore.jobs.write_bytes"):
        return abs(got - w) <= JOB_TOL * abs(w)
    return abs(got - w) <= tol * abs(w)  # the devices' DMA: IIO counts, not sampled


def report(rows, tol):
    bad = 0
    for metric, inst, got, w in rows:
        ok = near(got, w, tol, metric)
        bad += not ok
        print("%s %s[%s]: %.6g a second, truth %.6g" % ("ok" if ok else "OFF", metric, inst, got, w))
    return 1 if bad or not rows else 0


def dumplog(path, exp):
    """pmdumplog's samples: "HH:MM:SS.uuuuuu N metric(s)", "    239.0.0 (name):", "        inst [i or "x"] value v" """
    first, last, metric = {}, {}, None
    t = None
    for line in open(path):
        m = re.match(r"^(\d\d):(\d\d):(\d\d\.\d+) ", line)
        if m:
            t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
            continue
        m = re.match(r"^\s+[\d.]+ \(([\w.]+)\):(?: value (\S+))?", line)
        if m:
            metric = m.group(1)
            continue
        m = re.match(r'^\s+inst \[\d+ or "([^"]*)"\] value (\S+)', line)
        if m and t is not None:
            k = (metric, m.group(1))
            first.setdefault(k, (t, float(m.group(2))))
            last[k] = (t, float(m.group(2)))
    rows = []
    for k in sorted(first):
        w = want(exp, *k)
        (t0, v0), (t1, v1) = first[k], last[k]
        if w is not None and t1 > t0:
            rows.append((k[0], k[1], (v1 - v0) / (t1 - t0), w))
    return report(rows, TOL)


def pmrep(path, exp, tol=TOL):
    lines = [l.rstrip("\n") for l in open(path) if l.strip()]
    cols = [c.strip('"') for c in lines[0].split(",")[1:]]
    rows = []
    for i, c in enumerate(cols):
        metric, inst = c.split("-", 1)
        vals = [float(l.split(",")[i + 1]) for l in lines[1:] if l.split(",")[i + 1]]
        w = want(exp, metric, inst)
        if w is not None and vals:
            rows.append((metric, inst, sum(vals) / len(vals), w))
    return report(rows, tol)


def pmval(path, exp, metric, tol):
    lines = [l.split() for l in open(path) if l.strip()]
    head = next(i for i, l in enumerate(lines) if l and l[0].startswith("socket"))
    insts = lines[head]
    vals = [[float(x) for x in l] for l in lines[head + 1:] if len(l) == len(insts)]
    rows = []
    for i, inst in enumerate(insts):
        w = want(exp, metric, inst)
        if w is not None and vals:
            rows.append((metric, inst, sum(v[i] for v in vals) / len(vals), w))
    return report(rows, tol)


def limits(path, lo, hi, insts):
    """pminfo -f: "intel_uncore.clock.limit_min", then '    inst [0 or "socket0/die0 package_00_die_00"] value 1100000000'"""
    got, metric = {}, None
    for line in open(path):
        if line.startswith("intel_uncore."):
            metric = line.strip()
            continue
        m = re.match(r'^\s+inst \[\d+ or "([^"]*)"\] value (\S+)', line)
        if m:
            got[(metric, m.group(1))] = float(m.group(2))
    bad = []
    for which in ("limit_min", "limit_max", "initial_limit_min", "initial_limit_max"):
        w = lo if which.endswith("min") else hi
        mname = "intel_uncore.clock." + which
        for i in insts:
            if got.get((mname, i)) != w:
                bad.append("%s[%s] %s, truth %g" % (mname, i, got.get((mname, i)), w))
        extra = [i for (m, i) in got if m == mname and i not in insts]
        if extra:
            bad.append("%s: instances %s beyond %s" % (mname, extra, insts))
    n = sum(1 for (m, i) in got if i in insts)
    print("; ".join(bad) if bad else "ok %d values" % n)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "truth":
        truth(a[1], a[2], a[3])
    elif a[0] == "dumplog":
        sys.exit(dumplog(a[1], expected(a[2])))
    elif a[0] == "pmrep":
        sys.exit(pmrep(a[1], expected(a[2]), *(float(x) for x in a[3:4])))
    elif a[0] == "limits":
        limits(a[1], float(a[2]), float(a[3]), a[4:])
    elif a[0] == "pmval":
        sys.exit(pmval(a[1], expected(a[2]), a[3], float(a[4])))
