#!/usr/bin/env python3
"""A field snapshot from a real server's lspci listing (doc/snapshot.md):
    tools/snapshot/from_lspci.py NAME.source OUT.tar
NAME.source (tests/snapshots/field) names the listing (archive, path, commit, machine) and holds what of it
the library reads: each uncore PCI function as `BUS:DEV.FN VENDOR:DEVICE NUMA_NODE` (lspci -nn's address
and ids, -vv's "NUMA node"), and the CPU the devices' ids make it (`cpu: FAMILY MODEL STEPPING BRAND`).
What a listing does not show is filled, each rule written into the snapshot's snapshot.txt:
  * the CPUs: `sockets`, `cores` and `threads` per core, numbered socket by socket (in a socket the cores'
    first threads, then their second), each socket one NUMA node of the same number (the node the listing
    gives that socket's uncore functions);
  * configuration space: a function's vendor and device id at offset 0, zeros elsewhere (what the snapshot
    tool writes for bytes the discovery did not read), except the registers a `fill:` line sets, as
    `fill: DEVICE OFFSET VALUE|node|nodemap`: `node` is the NUMA node of that function (a UBox's
    CPUNODEID), or where the listing gives none, the socket whose uncore bus `buses: BUS BUS..` (socket 0's
    first) names, `nodemap` node g in bits 3g+2:3g for each socket g (a UBox's GIDNIDMAP: node g is socket g).
The archive is what `uncore snapshot` writes (ustar, mtime 0) without a perf tree: it replays with `replay:`."""
import io
import struct
import sys
import tarfile

src, dst = sys.argv[1], sys.argv[2]
meta, devs, fills = {}, [], []
for line in open(src):
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    if ':' in line.split()[0] and '.' in line.split()[0] and len(line.split()) == 3:
        addr, ids, node = line.split()
        bus, rest = addr.split(':')
        dev, fn = rest.split('.')
        ven, did = ids.split(':')
        devs.append((int(bus, 16), int(dev, 16), int(fn), int(ven, 16), int(did, 16), int(node)))
        continue
    key, val = line.split(':', 1)
    if key == 'fill':
        did, off, what = val.split()
        fills.append((int(did, 16), int(off, 16), what))
    else:
        meta[key] = val.strip()

fam, model, step, brand = meta['cpu'].split(None, 3)
sockets, cores, threads = int(meta['sockets']), int(meta['cores']), int(meta['threads'])
files = []
def add(path, data, why):
    files.append((path, data.encode() if isinstance(data, str) else data, why))

add('proc/cpuinfo', 'vendor_id\t: GenuineIntel\ncpu family\t: %s\nmodel\t\t: %s\nmodel name\t: %s\nstepping\t: %s\nflags\t\t:\n'
    % (fam, model, brand, step), "the CPU's vendor, family, model, stepping and brand (host_sysfs.c)")
ncpu = sockets * cores * threads
per = cores * threads
for cpu in range(ncpu):
    # CPUs socket by socket (what the replay's simulated machine takes), in a socket every core's first
    # thread, then the second threads
    s, rest = divmod(cpu, per)
    t, c = divmod(rest, cores)
    sib = ','.join(str(s * per + k * cores + c) for k in range(threads))
    for f, v in (('physical_package_id', s), ('die_id', 0), ('core_id', c), ('thread_siblings_list', sib)):
        add('sys/devices/system/cpu/cpu%d/topology/%s' % (cpu, f), '%s\n' % v, "the CPU's socket, die, core and thread (host_sysfs.c)")
for s in range(sockets):
    cpus = '%d-%d' % (s * per, s * per + per - 1)
    add('sys/devices/system/node/node%d/cpulist' % s, cpus + '\n', "the NUMA node's CPUs: which socket a node is (host_sysfs.c)")
nodemap = sum(g << (3 * g) for g in range(sockets))
# a socket's node id: the NUMA node the listing gives its uncore functions, or where it gives none (numa_node
# -1), the socket whose uncore bus `buses:` names it (socket 0's first)
buses = [int(b, 16) for b in meta.get('buses', '').split()]
def sock_of(bus, node):
    return node if node >= 0 else buses.index(bus)
for bus, dev, fn, ven, did, node in devs:
    d = 'sys/bus/pci/devices/0000:%02x:%02x.%d/' % (bus, dev, fn)
    cfg = bytearray(struct.pack('<HH', ven, did))
    for fdid, off, what in fills:
        if fdid != did:
            continue
        v = sock_of(bus, node) if what == 'node' else nodemap if what == 'nodemap' else int(what, 0)
        cfg += bytes(max(0, off + 4 - len(cfg)))
        cfg[off:off + 4] = struct.pack('<I', v)
    add(d + 'config', bytes(cfg), "the function's configuration space: its ids, and the registers 'fill' sets (snapshot.txt)")
    add(d + 'vendor', '0x%04x\n' % ven, 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')
    add(d + 'device', '0x%04x\n' % did, 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')
    add(d + 'numa_node', '%d\n' % node, 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')

txt = 'intel-uncore snapshot 1\nversion field (tools/snapshot/from_lspci.py)\nbackend none: made from an lspci listing\n'
txt += '# source: %s\n# machine: %s\n' % (meta['source'], meta['machine'])
txt += '# not in the listing, filled: the CPUs (%d sockets, %d cores, %d threads a core, node N = socket N); ' \
       'configuration space zeros but the ids%s; no perf tree, no MSR\n' % (
           sockets, cores, threads, ''.join(', 8086:%04x 0x%x = %s' % f for f in fills))
manifest = '# every member of this snapshot: path, bytes, why it is there\n' + \
    ''.join('%s\t%d\t%s\n' % (p, len(d), w) for p, d, w in files)
with tarfile.open(dst, 'w', format=tarfile.USTAR_FORMAT) as t:
    for name, data in [('snapshot.txt', txt.encode()), ('MANIFEST', manifest.encode())] + [(p, d) for p, d, _ in files]:
        ti = tarfile.TarInfo(name); ti.size = len(data); ti.mtime = 0; ti.mode = 0o644; ti.uname = ti.gname = 'root'
        t.addfile(ti, io.BytesIO(data))
