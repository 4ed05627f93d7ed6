#!/usr/bin/env python3
"""PCI devices added to a snapshot's device tree (doc/snapshot.md), for a field snapshot of a machine whose
topology is documented but whose own snapshot we do not have:
    tools/snapshot/add_devices.py IN.tar TREE OUT.tar
IN.tar is a snapshot (`uncore snapshot` of a simulated machine of the node's platform: its stacks' root buses
and stack-to-bus registers); TREE lists the functions to add below them, one a line, indented by two spaces
a level below its parent bridge (a root port at no indent, on the root bus of its bus number):
    BDF VENDOR:DEVICE CLASS [driver=NAME] [name=SUBDIR/NAME] [node=N]
BDF "DDDD:BB:DD.F"; CLASS the 24-bit class in hex (060400 a bridge: root port or switch port); name= the
directory a driver makes (net/ens1f0, infiniband/mlx5_0, nvme/nvme0, drm/card0); node= the NUMA node, else
the parent's (a root port's default 0); a line `host BB` makes bus BB a host bridge's root bus of its own
(a device firmware left below no root port).  '#' starts a comment.  The functions are written into the
snapshot's devices/tree.txt as the kernel's sysfs shows them (drivers/pci/probe.c: a function's directory
inside its bridge's), and the MANIFEST says where they came from.  The archive is otherwise copied as it is
(ustar, mtime 0, the members in their order)."""
import io
import sys
import tarfile

src, spec, dst = sys.argv[1], sys.argv[2], sys.argv[3]
MEMBER = 'devices/tree.txt'
lines, stack = [], []  # stack: (indent, directory) of the bridges above the current line
for raw in open(spec):
    text = raw.split('#', 1)[0].rstrip()
    if not text.strip():
        continue
    f = text.split()
    if f[0] == 'host':
        lines.append('d\t/sys/devices/pci0000:%s' % f[1])
        continue
    indent = (len(text) - len(text.lstrip(' '))) // 2
    bdf, ids, cls = f[0], f[1], f[2]
    opts = dict(o.split('=', 1) for o in f[3:])
    while stack and stack[-1][0] >= indent:
        stack.pop()
    if indent and not stack:
        sys.exit('%s: %s is indented below no bridge' % (spec, bdf))
    parent = stack[-1][1] if stack else '/sys/devices/pci%s' % bdf[:7]
    node = opts.get('node', stack[-1][2] if stack else '0')
    d = '%s/%s' % (parent, bdf)
    ven, dev = ids.split(':')
    lines.append('d\t%s' % d)
    lines += ['t\t%s/vendor\t0x%s' % (d, ven), 't\t%s/device\t0x%s' % (d, dev), 't\t%s/class\t0x%s' % (d, cls),
              't\t%s/numa_node\t%s' % (d, node)]
    if 'driver' in opts:
        lines.append('l\t%s/driver\t../../../bus/pci/drivers/%s' % (d, opts['driver']))
    if 'name' in opts:
        lines.append('d\t%s/%s' % (d, opts['name']))
    if cls.startswith('0604'):
        stack.append((indent, d, node))

with tarfile.open(src) as t:
    members = [(m, t.extractfile(m).read()) for m in t.getmembers()]
out = io.BytesIO()
with tarfile.open(fileobj=out, mode='w', format=tarfile.USTAR_FORMAT) as t:
    seen = False
    for m, data in members:
        if m.name == MEMBER:
            data = data + ('\n'.join(lines) + '\n').encode()
            seen = True
        elif m.name == 'MANIFEST':
            data = data + ('%s\t-\tfunctions added by tools/snapshot/add_devices.py from %s\n'
                           % (MEMBER, spec.rsplit('/', 1)[-1])).encode()
        m.size, m.mtime = len(data), 0
        t.addfile(m, io.BytesIO(data))
    if not seen:
        sys.exit('%s has no %s: take it with a version that keeps the device tree' % (src, MEMBER))
open(dst, 'wb').write(out.getvalue())
