#!/usr/bin/env python3
"""A field snapshot's expected answer, written from its lspci listing and the published rules (not from the
program's output), held against what the library answers on the snapshot's replay (tests/test_replay.sh):
    tools/snapshot/check_expect.py UNCORE SNAPSHOT.tar.gz NAME.expect
NAME.expect's first line says where its answers come from ("# Expected from ..."); then, '#' starting a comment:
  boxes UNIT s0:N s1:N ...     `uncore info`'s boxes per socket of UNIT, exactly
  device BDF SOCKET STACK PORT `uncore devices`: the device is in a group of that socket, IIO stack and counter
                               port (PORT -1: the stack's own group, no counter port; STACK -1: below no
                               counted stack)
  device ... xfail             the rules give that, the library does not yet (a known, reported disagreement):
                               it must still differ, and the difference is printed, not failed
Every device `uncore devices` lists must be named by a device line: an uncore register function listed as a
device, or a device the listing does not have, fails as much as a device on the wrong port.  Prints every
difference; exits 1 if there is one."""
import json
import os
import subprocess
import sys
import tempfile

uncore, snap, expect = sys.argv[1:4]
lines = [l.split('#', 1)[0].split() for l in open(expect)]
if not open(expect).readline().startswith('# Expected from'):
    sys.exit('%s: the first line must say where the answers come from ("# Expected from ...")' % expect)
with tempfile.TemporaryDirectory() as t:
    tar = os.path.join(t, 's.tar')
    with open(tar, 'wb') as f:
        f.write(subprocess.run(['gzip', '-dc', snap], check=True, stdout=subprocess.PIPE).stdout)
    def run(*args):
        r = subprocess.run([uncore, '--backend', 'replay:' + tar] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode:
            sys.exit('uncore %s failed: %s' % (' '.join(args), r.stderr.strip()))
        return r.stdout
    info, devs = run('info'), run('devices', '--json')

boxes = {}
for l in info.splitlines():
    f = l.split()
    if len(f) > 5 and not l.startswith(('#', 'box', 'unit')):
        boxes[f[0]] = [x for x in f[5:] if x[:1] == 's' and ':' in x]
got = {}
for g in map(json.loads, devs.splitlines()):
    for d in g['devices']:
        got[d['bdf']] = (g['socket'], g['stack'], g['port'])

bad, known = [], []
want, xfail = {}, set()
for f in lines:
    if not f:
        continue
    if f[0] == 'boxes':
        if boxes.get(f[1]) != f[2:]:
            bad.append('boxes %s: expected %s, the replay counts %s' % (f[1], ' '.join(f[2:]),
                       ' '.join(boxes.get(f[1], ['none']))))
    elif f[0] == 'device':
        want[f[1]] = tuple(int(x) for x in f[2:5])
        if f[5:] == ['xfail']:
            xfail.add(f[1])
    else:
        sys.exit('%s: %r is no boxes or device line' % (expect, ' '.join(f)))
for bdf, at in sorted(want.items()):
    if bdf in xfail:
        (known if got.get(bdf) != at else bad).append('device %s: expected socket %d stack %d port %d, %s' % ((bdf,) + at + (
            'the replay gives %s (known: xfail)' % ('socket %d stack %d port %d' % got[bdf] if bdf in got else 'no such device')
            if got.get(bdf) != at else 'as the replay gives it: drop its xfail',)))
    elif got.get(bdf) != at:
        bad.append('device %s: expected socket %d stack %d port %d, the replay gives %s' % ((bdf,) + at + (
            'socket %d stack %d port %d' % got[bdf] if bdf in got else 'no such device',)))
for bdf in sorted(set(got) - set(want)):
    bad.append('device %s: listed (socket %d stack %d port %d), but the expected answer has no such device'
               % ((bdf,) + got[bdf]))
print('\n'.join(bad + known) if bad else '%s: %d box counts and %d devices as expected%s' % (
    os.path.basename(expect), sum(f[:1] == ['boxes'] for f in lines), len(want) - len(xfail),
    ''.join('\n' + k for k in known)))
sys.exit(1 if bad else 0)
