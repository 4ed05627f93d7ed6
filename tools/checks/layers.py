#!/usr/bin/env python3
"""The library's layering, measured: which files of common/ call each other in a loop (from the
symbols each built object defines and uses, nm), and which includes form a loop, file by file and
folder by folder.  A loop inside one folder is a folder's own business; one that spans two folders
means calls or includes do not go one way.

    tools/checks/layers.py BUILDDIR [SRCDIR]     prints the loops and the calls or includes that run up the
                                                 layers (LAYERS); exit 1 when a loop spans two folders, when
                                                 one runs up, or when a folder of common/ has no layer
    tools/checks/layers.py --names SRCDIR        prints where a platform's name is compared outside
                                                 platforms/ or keys a table (a platform fact keyed by name); exit 1
                                                 if anywhere
    tools/checks/layers.py --sim SRCDIR          prints where a sim_* function of the simulator is called outside
                                                 (common/sim, common/sim_kernel, common/replay, platforms/*/sim*.c);
                                                 exit 1 if anywhere
    tools/checks/layers.py --view SRCDIR         prints where replay_dir_of or sysroot_set_override is called
                                                 outside common/replay and common/access (a replayed node's
                                                 files read beside the one file view); exit 1 if anywhere
"""
import os
import re
import subprocess
import sys


def objects(builddir, srcdir):
    """source path (relative to common/) -> object file of libuncore_impl (of a source that exists)"""
    out = {}
    for root, _, files in os.walk(os.path.join(builddir, "common")):
        if not root.endswith(".libs"):
            continue
        for f in files:
            m = re.match(r"libuncore_impl_la-(.+)\.o$", f)
            if m:
                rel = os.path.relpath(os.path.dirname(root), os.path.join(builddir, "common"))
                src = os.path.normpath(os.path.join(rel, m.group(1) + ".c"))
                if os.path.isfile(os.path.join(srcdir, "common", src)):
                    out[src] = os.path.join(root, f)
    return out


def symbols(obj):
    defined, used = set(), set()
    for line in subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def includes(srcdir, files):
    """file -> files of common/ it includes (quoted includes, resolved as the compiler does)"""
    common = os.path.join(srcdir, "common")
    graph = {}
    for rel in files:
        edges = set()
        with open(os.path.join(common, rel), encoding="utf-8", errors="replace") as f:
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M):
                for base in (os.path.dirname(rel), "", "include"):
                    cand = os.path.normpath(os.path.join(base, m.group(1)))
                    if os.path.isfile(os.path.join(common, cand)):
                        edges.add(cand)
                        break
        graph[rel] = edges
    return graph


def loops(graph):
    """strongly connected components with more than one member (Tarjan)"""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def folder(path):
    d = os.path.dirname(path)
    return d if d else "."


# The layers of common/, from the ground up: a folder calls and includes only folders of its own layer (without
# a loop) or of the layers below it.  A new folder is placed here, or the check fails.
LAYERS = (
    ("ground", ("include", "util")),  # the public header, errors, files, JSON: no layer of the library's own
    ("machine", ("access", "platform", "handle", "node", "regs", "events", "discover", "perf",  # the uncore as described
                 "sim", "sim_kernel", "replay")),  # and the backends that stand in for a machine and its kernel
    ("counting", ("session", "metrics")),  # sessions, reads and the metrics bound to them
    ("opening", ("open",)),  # a handle opened: backend, host, platform, boxes
    ("node", ("devices", "energy", "ufreq", "health", "api", "numa", "memory")),  # what an opened node reports besides counts
    ("clients", ("jobs", "snapshot", "select")),  # clients of the public calls, each for every front end
)
LAYER = {f: n for n, (_, fs) in enumerate(LAYERS) for f in fs}


def ups(graph):
    """(from, to) of an edge from a folder of one layer into a folder of a higher layer"""
    return sorted((a, b) for a, bs in graph.items() for b in bs
                  if folder(a) in LAYER and folder(b) in LAYER and LAYER[folder(a)] < LAYER[folder(b)])


def unplaced(srcdir):
    common = os.path.join(srcdir, "common")
    return sorted(d for d in os.listdir(common) if os.path.isdir(os.path.join(common, d)) and d not in LAYER)


def outside(srcdir, files):
    """(file, include) of a quoted include of common/ that climbs out of it: the library includes no adaptor"""
    common = os.path.realpath(os.path.join(srcdir, "common"))
    out = []
    for rel in files:
        with open(os.path.join(common, rel), encoding="utf-8", errors="replace") as f:
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M):
                cand = os.path.realpath(os.path.join(common, os.path.dirname(rel), m.group(1)))
                if ".." in m.group(1) and not cand.startswith(common + os.sep):
                    out.append((rel, m.group(1)))
    return out


def report_ups(title, graph):
    found = ups(graph)
    for a, b in found:
        la, lb = LAYERS[LAYER[folder(a)]][0], LAYERS[LAYER[folder(b)]][0]
        print(f"{title} up the layers, {folder(a)} ({la}) -> {folder(b)} ({lb}): {a} -> {b}")
    return len(found)


def report(title, graph):
    spans = 0
    for comp in loops(graph):
        folders = sorted({folder(f) for f in comp})
        across = len(folders) > 1
        spans += across
        print(f"{title} loop{' across ' + ', '.join(folders) if across else ''}: {' '.join(comp)}")
    fgraph = {}
    for a, bs in graph.items():
        for b in bs:
            if folder(a) != folder(b):
                fgraph.setdefault(folder(a), set()).add(folder(b))
    for comp in loops(fgraph):
        print(f"{title} loop between folders: {' '.join(comp)}")
        spans += 1
    return spans


COMPARE = r'(?:strcmp|streq|strcasecmp|strncmp)'
NAME_TEST = re.compile(r'\b' + COMPARE + r'\s*\(([^;{}]*)')
# a file's own helper that wraps a comparison, is(s, "skx"): its calls compare names too
HELPER = re.compile(r'^[\w \t*]*?\b(\w+)\s*\([^;{)]*\)\s*\{[^}]*\b' + COMPARE + r'\s*\(', re.M)


def name_calls(text):
    helpers = {h for h in HELPER.findall(text) if h not in ("if", "while", "for", "switch")}
    if not helpers:
        return NAME_TEST
    return re.compile(r'\b(?:' + COMPARE[3:-1] + "|" + "|".join(sorted(helpers)) + r')\s*\(([^;{}]*)')


def name_tests(srcdir):
    """(file, line) where a file outside platforms/, tests/ and generated files compares a platform's name,
    a string literal naming a folder of platforms/, with strcmp or streq or a helper of the file's that wraps
    one, or keys a table row with it: a platform fact keyed by name"""
    plats = {d for d in os.listdir(os.path.join(srcdir, "platforms"))
             if os.path.isfile(os.path.join(srcdir, "platforms", d, "platform.c"))}
    lit = re.compile(r'"(' + "|".join(sorted(plats)) + r')"')
    keyed = re.compile(r'\{\s*"(' + "|".join(sorted(plats)) + r')"\s*,')
    out = []
    for top in ("common", "cli", "exporter", "collectd_plugin", "papi_component"):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")) or f.endswith("_gen.c"):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                    test = name_calls(text)
                    for n, line in enumerate(text.splitlines(), 1):
                        hit = any(lit.search(m.group(1)) for m in test.finditer(line))
                        # a table row keyed by the name, { "skx", ... }: the PAPI component's libpfm4 PMU names
                        # are another project's spelling of the units, not a fact of the platform
                        hit = hit or (top != "papi_component" and keyed.search(line))
                        if hit:
                            out.append(f"{os.path.relpath(path, srcdir)}:{n}")
    return out


SIM_CALL = re.compile(r'(?<![.>\w])sim_\w*\s*\(')
SIM_OWN = ("common/sim/", "common/sim_kernel/", "common/replay/")


def code(path):
    """a source's text without its comments and strings (which name functions without calling them), its
    lines where they were"""
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"',
                  lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def sim_calls(srcdir):
    """(file, line) where a source outside the simulator, its kernel and the replay calls a sim_* function of
    theirs: a feature that asks whether the machine is simulated, where it should read the backend's files
    (access.h ops->files) or drive it through the access layer (ops->drive).  Headers only declare."""
    theirs = set()
    for own in SIM_OWN:
        for root, _, files in os.walk(os.path.join(srcdir, own)):
            for f in files:
                if f.endswith((".c", ".h")):
                    theirs |= {m.group(0).rstrip("( \t") for m in SIM_CALL.finditer(code(os.path.join(root, f)))}
    out = []
    for top in ("common", "cli", "exporter", "collectd_plugin", "papi_component", "platforms"):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(root, f), srcdir)
                if not f.endswith(".c") or rel.startswith(SIM_OWN) or (top == "platforms" and f.startswith("sim")):
                    continue
                for n, line in enumerate(code(os.path.join(srcdir, rel)).split("\n"), 1):
                    if any(m.group(0).rstrip("( \t") in theirs for m in SIM_CALL.finditer(line)):
                        out.append(f"{rel}:{n}")
    return out


VIEW_CALL = re.compile(r'(?<![.>\w])(?:replay_dir_of|sysroot_set_override)\s*\(')
VIEW_OWN = ("common/replay/", "common/access/")


def view_calls(srcdir):
    """(file, line) where a source outside the replay and the access layer calls replay_dir_of (a replayed
    node's unpacked directory) or sysroot_set_override (the process's sysroot swapped around a call: one
    thread's replay read by another's): a feature that reads a replayed node's files beside the one file view
    the replay presents (access.h ops->files, access_files).  Headers only declare."""
    out = []
    for top in ("common", "cli", "exporter", "collectd_plugin", "papi_component", "pcp_pmda", "platforms"):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(root, f), srcdir)
                if not f.endswith(".c") or rel.startswith(VIEW_OWN):
                    continue
                for n, line in enumerate(code(os.path.join(srcdir, rel)).split("\n"), 1):
                    if VIEW_CALL.search(line):
                        out.append(f"{rel}:{n}")
    return out


def main():
    # the source checks: each finds places, names them, and fails when there is one
    checks = {"--sim": (sim_calls, "simulator called outside it", "calls of the simulator outside it"),
              "--view": (view_calls, "replayed node's files read beside the file view",
                         "reads of a replayed node's files beside the file view"),
              "--names": (name_tests, "platform name compared outside platforms/",
                          "platform names compared outside platforms/")}
    if len(sys.argv) == 3 and sys.argv[1] in checks:
        find, each, total = checks[sys.argv[1]]
        found = find(sys.argv[2])
        for where in found:
            print(f"{each}: {where}")
        print(f"{len(found)} {total}")
        return 1 if found else 0
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    builddir = sys.argv[1]
    srcdir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..")
    objs = objects(builddir, srcdir)
    if not objs:
        print(f"layers.py: no libuncore_impl objects under {builddir}/common: build first", file=sys.stderr)
        return 2
    syms = {f: symbols(o) for f, o in objs.items()}
    owner = {s: f for f, (d, _) in syms.items() for s in d}
    calls = {f: {owner[s] for s in u if s in owner and owner[s] != f} for f, (_, u) in syms.items()}
    headers = [os.path.relpath(os.path.join(r, h), os.path.join(srcdir, "common"))
               for r, _, fs in os.walk(os.path.join(srcdir, "common")) for h in fs if h.endswith(".h")]
    incs = includes(srcdir, sorted(set(objs) | set(headers)))
    spans = report("call", calls) + report("include", incs)
    top = [f for f in os.listdir(os.path.join(srcdir, "common")) if os.path.isfile(os.path.join(srcdir, "common", f))]
    print(f"{len(objs)} files built, {len(top)} files directly in common/, {spans} loops across folders")
    up = report_ups("call", calls) + report_ups("include", incs)
    for d in unplaced(srcdir):
        print(f"folder with no layer: common/{d}")
    for rel, inc in outside(srcdir, sorted(set(objs) | set(headers))):
        print(f"include out of common/: {rel} includes {inc}")
        up += 1
    up += len(unplaced(srcdir))
    print(f"{up} calls or includes up the layers or out of common/, or folders with no layer")
    named = name_tests(srcdir)
    for where in named:
        print(f"platform name compared outside platforms/: {where}")
    print(f"{len(named)} platform names compared outside platforms/")
    return 1 if spans or up else 0


if __name__ == "__main__":
    sys.exit(main())
