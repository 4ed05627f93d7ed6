#!/usr/bin/env python3
"""A field snapshot from a real server's lspci listing (doc/snapshot.md):
    tools/snapshot/from_lspci.py NAME.source OUT.tar
NAME.source (tests/snapshots/field) names the listing (archive, path, commit, machine) and holds what of it
the library reads, each PCI function as `BUS:DEV.FN VENDOR:DEVICE NUMA_NODE [CLASS] [bus=SS-UU] [driver=NAME]`
(lspci -nn's address, [DDDD:] when it shows a domain, and ids; -vv's "NUMA node", -1 where none is shown; CLASS
the six hex digits of class, subclass and prog-if; a bridge's "Bus: secondary=SS, subordinate=UU"; its
"Kernel driver in use"), and the CPU the devices' ids make it (`cpu: FAMILY MODEL STEPPING BRAND`).  A line of
the first three fields alone (the form before the device tree) is a function whose class is not known.
What a listing does not show is filled, each rule written into the snapshot's snapshot.txt:
  * the CPUs: `sockets`, `cores` and `threads` per core, numbered socket by socket (in a socket the cores'
    first threads, then their second);
  * the NUMA nodes: `snc:` nodes a socket (an SNC or COD listing), else as many as the listing's highest node
    needs (nodes 0-3 on two sockets: two a socket); numbered socket by socket as Linux does, each node a
    socket's cores in order, an equal share, with their threads;
  * configuration space: a function's vendor and device id at offset 0, zeros elsewhere (what the snapshot
    tool writes for bytes the discovery did not read), except the registers a `fill:` line sets, as
    `fill: DEVICE OFFSET VALUE|node|nodemap` (DEVICE a device id, every function of it, or BUS:DEV.FN, that one
    function: Ice Lake-SP's SAD_CONTROL_CFG differs from stack to stack): `node` the socket of that function (a UBox's CPUNODEID: its
    NUMA node's socket), or where the listing gives none, the socket whose uncore bus `buses: BUS BUS..`
    (socket 0's first) names, `nodemap` node g in bits 3g+2:3g for each socket g (a UBox's GIDNIDMAP);
  * an MSR a socket's first CPU reads, as `msr: SOCKET REGISTER VALUE` (Skylake-SP's CPU_BUS_NUMBER 0x300,
    each IIO stack's root bus, which the device map reads where the kernel gives no uncore_iio_<n>/die<d>):
    kept in the device tree as the snapshot tool keeps the MSR it read (dev_stacks.c msr_of);
  * bytes of one function's configuration space, as `cfg: BDF OFFSET HEXBYTES` (a register whose value differs
    between functions of one id: a discovery DVSEC, a stack-to-bus register, a memory controller's BAR);
  * what a discovery read beyond PCI (doc/snapshot.md: mmio/, msr/), as `mmio: ADDRESS OFFSET HEXBYTES` (the
    physical memory at ADDRESS, 16 hex digits, the member mmio/ADDRESS) and `msrfile: SOCKET REGISTER VALUE`
    (the member msr/cpuN/0xREGISTER of the socket's first CPU), where the listing's machine has discovery tables;
  * the device tree (devices/tree.txt, what `uncore devices` maps): every function in the directory of the
    bridge whose secondary bus it is on, else on a root bus of its own, with its ids, class, NUMA node and
    driver link; no net/, nvme/ or drm/ name (a listing shows none), no uncore_iio_<n>/die<d>.  A source
    whose lines carry no CLASS lists the uncore functions alone: no tree then (its replay refuses `uncore
    devices`, saying the snapshot keeps none).
The archive is what `uncore snapshot` writes (ustar, mtime 0) without a perf tree: it replays with `replay:`."""
import io
import re
import struct
import sys
import tarfile

src, dst = sys.argv[1], sys.argv[2]
meta, devs, fills, msrs, cfgs, mmio, msrfiles = {}, [], [], [], [], {}, []
BDF = re.compile(r'^(?:([0-9a-f]{4}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$')
for no, line in enumerate(open(src), 1):
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    f = line.split()
    m = BDF.match(f[0])
    if m:
        # BDF VENDOR:DEVICE NUMA_NODE [CLASS] [bus=SECONDARY-SUBORDINATE] [driver=NAME]
        if len(f) < 3:
            sys.exit('%s line %d: a function is BDF VENDOR:DEVICE NUMA_NODE [CLASS] [bus=SS-UU] [driver=NAME]' % (src, no))
        ven, did = f[1].split(':')
        d = {'dom': int(m.group(1) or '0', 16), 'bus': int(m.group(2), 16), 'dev': int(m.group(3), 16),
             'fn': int(m.group(4)), 'ven': int(ven, 16), 'did': int(did, 16), 'node': int(f[2]), 'cls': None,
             'sec': None, 'driver': None}
        for o in f[3:]:
            if o.startswith('bus='):
                a, b = o[4:].split('-')
                d['sec'], d['sub'] = int(a, 16), int(b, 16)
            elif o.startswith('driver='):
                d['driver'] = o[7:]
            elif re.match(r'^[0-9a-f]{6}$', o):
                d['cls'] = int(o, 16)
            else:
                sys.exit('%s line %d: %r is no CLASS, bus= or driver=' % (src, no, o))
        devs.append(d)
        continue
    key, val = line.split(':', 1)
    if key == 'fill':
        did, off, what = val.split()
        fills.append((did if BDF.match(did) else int(did, 16), int(off, 16), what))
    elif key == 'msr':
        sock, reg, v = val.split()
        msrs.append((int(sock), int(reg, 16), int(v, 16)))
    elif key == 'cfg':
        bdf, off, hexb = val.split()
        cfgs.append((bdf if bdf.count(':') == 2 else '0000:' + bdf, int(off, 16), bytes.fromhex(hexb)))
    elif key == 'mmio':
        addr, off, hexb = val.split()
        m = mmio.setdefault(addr, bytearray())
        m += bytes(max(0, int(off, 16) - len(m)))
        m[int(off, 16):int(off, 16) + len(hexb) // 2] = bytes.fromhex(hexb)
    elif key == 'msrfile':
        sock, reg, v = val.split()
        msrfiles.append((int(sock), int(reg, 16), int(v, 16)))
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
# NUMA nodes: Linux numbers them socket by socket, `snc:` a socket (sub-NUMA clusters), else as many as the
# listing's highest node needs; a socket's cores split among its nodes in order, each core with its threads
seen = max([d['node'] for d in devs] + [0])
snc = int(meta['snc']) if 'snc' in meta else -(-(seen + 1) // sockets)
if seen >= snc * sockets:
    sys.exit('%s: NUMA node %d in the listing, but %d sockets of %d nodes have 0-%d' % (src, seen, sockets, snc, snc * sockets - 1))
if cores % snc:
    sys.exit('%s: %d cores do not split evenly among %d nodes a socket' % (src, cores, snc))
def ranges(v):
    out, i = [], 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        out.append('%d' % v[i] if i == j else '%d-%d' % (v[i], v[j]))
        i = j + 1
    return ','.join(out)
for n in range(sockets * snc):
    s, j = divmod(n, snc)
    k = cores // snc
    cpus = sorted(s * per + t * cores + c for t in range(threads) for c in range(j * k, j * k + k))
    add('sys/devices/system/node/node%d/cpulist' % n, ranges(cpus) + '\n', "the NUMA node's CPUs: which socket a node is (host_sysfs.c)")
nodemap = sum(g << (3 * g) for g in range(sockets))
# a socket's node id: that of the NUMA node the listing gives its uncore functions, or where it gives none
# (numa_node -1), the socket whose uncore bus `buses:` names it (socket 0's first)
buses = [int(b, 16) for b in meta.get('buses', '').split()]
def sock_of(bus, node):
    return node // snc if node >= 0 else buses.index(bus)
tree = ['# intel-uncore device tree 1: the functions of the lspci listing (tools/snapshot/from_lspci.py)']
def name(d):
    return '%04x:%02x:%02x.%d' % (d['dom'], d['bus'], d['dev'], d['fn'])
# where each function sits in the kernel's tree (drivers/pci/probe.c): in its bus's bridge's directory (the
# bridge whose `Bus: secondary=` it is), else on a host bridge's root bus of its own
below = {(d['dom'], d['sec']): d for d in devs if d['sec'] is not None}
def sysdir(d):
    up = below.get((d['dom'], d['bus']))
    return (sysdir(up) if up else '/sys/devices/pci%04x:%02x' % (d['dom'], d['bus'])) + '/' + name(d)
for d in devs:
    p = sysdir(d)
    cfg = bytearray(struct.pack('<HH', d['ven'], d['did']))
    for fdid, off, what in fills:
        if fdid != (d['did'] if isinstance(fdid, int) else name(d)[5:] if len(fdid) < 12 else name(d)):
            continue
        v = sock_of(d['bus'], d['node']) if what == 'node' else nodemap if what == 'nodemap' else int(what, 0)
        cfg += bytes(max(0, off + 4 - len(cfg)))
        cfg[off:off + 4] = struct.pack('<I', v)
    for bdf, off, b in cfgs:
        if bdf == name(d):
            cfg += bytes(max(0, off + len(b) - len(cfg)))
            cfg[off:off + len(b)] = b
    sd = 'sys/bus/pci/devices/%s/' % name(d)
    add(sd + 'config', bytes(cfg), "the function's configuration space: its ids, and the registers 'fill' sets (snapshot.txt)")
    add(sd + 'vendor', '0x%04x\n' % d['ven'], 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')
    add(sd + 'device', '0x%04x\n' % d['did'], 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')
    add(sd + 'numa_node', '%d\n' % d['node'], 'the PCI device ids and NUMA node (host_sysfs.c pci_list_sysfs)')
    tree += ['d\t' + p, 't\t%s/vendor\t0x%04x' % (p, d['ven']), 't\t%s/device\t0x%04x' % (p, d['did'])]
    if d['cls'] is not None:
        tree.append('t\t%s/class\t0x%06x' % (p, d['cls']))
    tree.append('t\t%s/numa_node\t%d' % (p, d['node']))
    if d['driver']:
        tree.append('l\t%s/driver\t../../../bus/pci/drivers/%s' % (p, d['driver']))
    if len(cfg) > 4: # the registers filled, where the device map reads them (dev_regs.c)
        tree.append('b\t/sys/bus/pci/devices/%s/config\t%s' % (name(d), cfg.hex()))
for sock, reg, v in msrs: # what a socket's first CPU read (host_die_cpu: CPUs numbered socket by socket)
    tree.append('t\t/dev/cpu/%d/msr@%#x\t%x' % (sock * per, reg, v))
for addr in sorted(mmio):
    add('mmio/' + addr, bytes(mmio[addr]), 'physical memory the discovery read (a PMON discovery table), as the source fills it')
for sock, reg, v in msrfiles:
    add('msr/cpu%d/%#x' % (sock * per, reg), '%#x\n' % v, 'an MSR the discovery read (not a PMON register), as the source fills it')
# a source of the uncore functions alone (no CLASS on any line: the form before the device tree) has no tree to
# give: the replay says so rather than map a tree that lacks the node's devices
listed = any(d['cls'] is not None for d in devs)
if listed:
    add('devices/tree.txt', '\n'.join(tree) + '\n', "the listing's PCI functions as the kernel's device tree shows them: "
        "bridges' secondary buses, class, NUMA node, driver (doc/snapshot.md)")

txt = 'intel-uncore snapshot 1\nversion field (tools/snapshot/from_lspci.py)\nbackend none: made from an lspci listing\n'
txt += '# source: %s\n# machine: %s\n' % (meta['source'], meta['machine'])
txt += '# not in the listing, filled: the CPUs (%d sockets, %d cores, %d threads a core); the NUMA nodes\' CPUs ' \
       '(%d a socket%s, socket by socket, each a socket\'s %d cores in order with their threads); ' \
       'configuration space zeros but the ids%s%s; no perf tree, %s%s; %s\n' % (
           sockets, cores, threads, snc, ' as snc: says' if 'snc' in meta else ' from the listing\'s highest node',
           cores // snc, ''.join((', 8086:%04x 0x%x = %s' if isinstance(f[0], int) else ', %s 0x%x = %s') % f for f in fills),
           ''.join(', %s 0x%x: %d bytes' % (c[0], c[1], len(c[2])) for c in cfgs),
           'the MSRs ' + ', '.join('socket %d %#x = %#x' % m for m in msrs) if msrs else 'no MSR',
           ''.join(', discovery memory at %s (%d bytes)' % (a, len(mmio[a])) for a in sorted(mmio)) +
           ''.join(', socket %d MSR %#x = %#x' % m for m in msrfiles),
           'the device tree the listing\'s, naming no net/, nvme/ or drm/ entry' if listed else
           'no device tree (the source lists the uncore functions alone)')
txt += '# not read (the replay has none of it): the EDAC tree and the SMBIOS table, which an lspci listing does not ' \
       'show: the memory population is unknown (doc/memory.md)\n'
manifest = '# every member of this snapshot: path, bytes, why it is there\n' + \
    ''.join('%s\t%d\t%s\n' % (p, len(d), w) for p, d, w in files)
with tarfile.open(dst, 'w', format=tarfile.USTAR_FORMAT) as t:
    for name, data in [('snapshot.txt', txt.encode()), ('MANIFEST', manifest.encode())] + [(p, d) for p, d, _ in files]:
        ti = tarfile.TarInfo(name); ti.size = len(data); ti.mtime = 0; ti.mode = 0o644; ti.uname = ti.gname = 'root'
        t.addfile(ti, io.BytesIO(data))
