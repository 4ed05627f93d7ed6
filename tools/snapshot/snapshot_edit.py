#!/usr/bin/env python3
"""Edit a snapshot (uncore snapshot -o FILE) into the shape of a machine seen in the field, for a test:
    tools/snapshot/snapshot_edit.py IN.tar[.gz] OUT.tar CMD...
    rm PATH          drop a member, or every member below PATH (a device the firmware hid, a PMU missing)
    write PATH TEXT  set a member's text (\\n for a newline)
    mv OLD NEW       rename members starting OLD (a PMU the kernel names otherwise)
The archive stays one uncore's replay reads: ustar, regular files, mtime 0."""
import gzip
import io
import sys
import tarfile

src, dst, cmds = sys.argv[1], sys.argv[2], sys.argv[3:]
members = []
with tarfile.open(fileobj=io.BytesIO(gzip.open(src).read() if src.endswith('.gz') else open(src, 'rb').read())) as t:
    for m in t.getmembers():
        members.append([m.name, t.extractfile(m).read()])
i = 0
while i < len(cmds):
    c = cmds[i]
    if c == 'rm':
        p = cmds[i+1]; members = [m for m in members if not (m[0] == p or m[0].startswith(p.rstrip('/') + '/'))]; i += 2
    elif c == 'write':
        p, txt = cmds[i+1], cmds[i+2].encode().decode('unicode_escape').encode()
        members = [m for m in members if m[0] != p] + [[p, txt]]; i += 3
    elif c == 'mv':
        a, b = cmds[i+1], cmds[i+2]
        for m in members:
            if m[0].startswith(a): m[0] = b + m[0][len(a):]
        i += 3
    else: sys.exit("bad command " + c)
with tarfile.open(dst, 'w', format=tarfile.USTAR_FORMAT) as t:
    for name, data in members:
        ti = tarfile.TarInfo(name); ti.size = len(data); ti.mtime = 0; ti.mode = 0o644; ti.uname = ti.gname = 'root'
        t.addfile(ti, io.BytesIO(data))
