#!/usr/bin/env python3
"""Generate platforms/emr/*.evt from seed 001 (the EMR uncore guide) and Intel's perfmon JSON.

Usage: tools/gen/emr_tables.py SEED.txt PERFMON_DIR OUTDIR

The seed is PDF-extracted and damaged; the repair rules are those of
../shared/notes/emr.md section 9.3 (look-alike letters, O/0 swaps, 7- and
9-character umask strings, IIO port masks from the subevent name).  Every event
and subevent the seed lists is kept; events and subevents only the JSON has are
added.  Where both have a row, the JSON's code, umask and umask_ext are used and
any disagreement with the repaired seed is written to json_differences.txt.
The generated files are committed; this script documents how they were made.
"""
import json
import os
import re
import sys
from collections import OrderedDict

LOOKALIKE = str.maketrans({'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
                           'С': 'C', 'Т': 'T', 'Х': 'X', 'ь': 'b', '×': 'x', '₂': '2', 'о': 'o', 'с': 'c',
                           'р': 'p', 'е': 'e', 'а': 'a'})

# seed list sections: heading text -> (units the rows belong to)
SECTIONS = [
    ('2.1.3 CMS Box Performance Monitor Event List', ['cha', 'm2pcie', 'm3upi']),
    ('2.2.6 CHA Box Performance Monitor Event List', ['cha']),
    ('2.3.5 iMC Box Performance Monitor Event List', ['imc']),
    ('2.4.5 IIO Box Performance Monitor Event List', ['iio']),
    ('2.5.4 IRP Box Performance Monitor Event List', ['irp']),
    ('2.6.6 Intel® UPI LL Box Performance Monitor Event List', ['upi']),
    ('2.7.5 M2M Box Performance Monitor Event List', ['m2m']),
    ('2.8.4 M2PCIE Box Performance Monitor Event List', ['m2pcie']),
    ('2.9.3 M3UPI Box Performance Monitor Event List', ['m3upi']),
    ('2.10.6 PCU Box Performance Monitor Event List', ['pcu']),
    ('2.11.3 MDF Box Performance Monitor Event List', ['mdf']),
    ('2.12.3 CXL CM Performance Monitor Event List', ['cxlcm']),
    ('2.12.5 CXL DP Performance Monitor Event List', ['cxldp']),
]
UNITS = OrderedDict([  # unit -> (prefix, perfmon Unit, counters, description)
    ('cha', ('UNC_CHA', 'CHA', '0-3', 'CHA')), ('iio', ('UNC_IIO', 'IIO', '0-3', 'IIO stack')),
    ('irp', ('UNC_I', 'IRP', '0-1', 'IRP')), ('m2pcie', ('UNC_M2P', 'M2PCIe', '0-3', 'M2PCIe')),
    ('pcu', ('UNC_P', 'PCU', '0-3', 'PCU')), ('ubox', ('UNC_U', 'UBOX', '0-1', 'UBox')),
    ('imc', ('UNC_M', 'iMC', '0-3', 'memory channel')), ('m2m', ('UNC_M2M', 'M2M', '0-3', 'M2M')),
    ('upi', ('UNC_UPI', 'UPI LL', '0-3', 'UPI link')), ('m3upi', ('UNC_M3UPI', 'M3UPI', '0-3', 'M3UPI')),
    ('mdf', ('UNC_MDF', 'MDF', '0-3', 'MDF')), ('cxlcm', ('UNC_CXLCM', 'CXLCM', '0-7', 'CXL CM')),
    ('cxldp', ('UNC_CXLDP', 'CXLDP', '0-3', 'CXL DP')),
])
O_PREFIX = r'(AG|ACQUIRED|OCCUPANCY|STALL|IOMMU|OTHER|MISC|VN|UPI|PART|PS|COUNTER|PCH|TGR|SLOT|CH|IIO|C|Q|REQ_Q|' \
           r'CMS|M2IOSF|MS2IOSF|AGENT|SCH|RANK|LINK|TxL|RxL|INSERTS|NE|FULL|NACK|STARVED|BYPASS|SET|DIMM|GRP|MCC|CRD)'

# Our own short descriptions of the events people use most; the rest get a generated phrase.
OWN = {
    'CLOCKTICKS': 'Clock cycles of this unit',
    'TOR_INSERTS': 'Requests entering the table of requests (TOR), selected by queue and filter bits',
    'TOR_OCCUPANCY': 'Requests in the TOR summed every cycle (counter 0 only); divide by inserts for latency',
    'LLC_LOOKUP': 'LLC and snoop-filter lookups, by request type and line state',
    'LLC_VICTIMS': 'Lines evicted from the LLC, by state',
    'CAS_COUNT': 'DRAM column (CAS) commands on this channel; x64 bytes gives traffic',
    'ACT_COUNT': 'DRAM row activations on this channel',
    'PRE_COUNT': 'DRAM precharges on this channel',
    'RPQ_INSERTS': 'Read requests entering the read pending queue',
    'WPQ_INSERTS': 'Write requests entering the write pending queue',
    'TxL_FLITS': 'Flits sent on this UPI link, by slot and kind',
    'RxL_FLITS': 'Flits received on this UPI link, by slot and kind',
    'DATA_REQ_OF_CPU': 'Data the devices of this stack request of the CPU, in 4-byte units, by port',
    'TXN_REQ_OF_CPU': 'Transactions the devices of this stack issue to the CPU, by port',
    'DATA_REQ_BY_CPU': 'Data the CPU requests of the devices of this stack, in 4-byte units, by port',
    'TXN_REQ_BY_CPU': 'Transactions the CPU issues to the devices of this stack, by port',
    'IMC_READS': 'Reads M2M sends to its memory controller',
    'IMC_WRITES': 'Writes M2M sends to its memory controller',
    'DISTRESS_ASSERTED': 'Cycles a mesh distress signal was raised',
}


def norm(s):
    return s.upper().replace('O', '0').replace(' ', '')


def fix_name(n):
    n = n.replace(' ', '').translate(LOOKALIKE)
    n = re.sub(O_PREFIX + r'O(?=$|_|\.|\d)', r'\g<1>0', n)
    n = re.sub(r'(?<=[TR]xL)OP', '0P', n)
    n = n.replace('2Im', '2lm').replace('_CO_', '_C0_')
    return n


def umask_value(p):
    """Repair and evaluate a umask bit string (notes 9.3 rule 6)."""
    p = p[1:]
    if len(p) == 7:
        if 'x' not in p.lower():
            p = '0' + p
        elif p[0] == '1' or (p[1] == '1' and p[0] in 'xX'):
            p = p + 'x'
        else:
            p = 'x' + p
    elif len(p) == 9:
        runs = [m for m in re.finditer(r'[xX]+', p)]
        if runs:
            r = max(runs, key=lambda m: len(m.group()))
            p = p[:r.start()] + p[r.start() + 1:]
    elif len(p) != 8:
        return None
    return int(''.join('1' if c == '1' else '0' for c in p), 2)


def xtra_value(cell, unit, sub):
    c = cell.replace(' ', '').translate(LOOKALIKE)
    if not c:
        return 0
    if c.lower().startswith('0x'):
        try:
            return int(c, 16)
        except ValueError:
            return None
    if unit == 'iio':  # fc_mask b111 then ch_mask; ch from the name where it names a port
        fc = 7
        m = re.search(r'PART(\d)', sub)
        ch = None
        if m:
            ch = 1 << int(m.group(1))
        m = re.search(r'IOMMU(\d)', sub)
        if m:
            ch = 1 << (8 + int(m.group(1)))
        if ch is None:
            bits = c[4:] if c.startswith('b111') else c
            bits = bits.lstrip('b')
            ch = 0xff if bits.count('1') >= 7 else int(''.join('1' if x == '1' else '0' for x in bits) or '0', 2)
        return fc << 16 | ch << 4
    if 'x1x' in c[:4] and unit == 'm2m':
        return 0x800000  # mesh events in M2M carry config bit 55 (L1304)
    bits = ''.join(g.lstrip('b') for g in c.split('b') if g)
    if not re.fullmatch(r'[01xX]+', bits or 'z'):
        return None
    return int(''.join('1' if x == '1' else '0' for x in bits), 2)


def parse_seed(path):
    lines = [l.rstrip('\n').translate(LOOKALIKE) for l in open(path, encoding='utf-8')]
    rows = []  # (unit, event, code, ctrs, sub, umask, ext, line, category)
    starts = {}
    for i, l in enumerate(lines):
        for title, units in SECTIONS:
            if l.strip() == title.translate(LOOKALIKE):
                starts[i] = units
    bounds = sorted(starts)
    head_re = re.compile(r'^[A-Za-z][A-Za-z0-9_ ]{1,60}[A-Za-z0-9]$')
    bad_start = ('Table', 'Note', 'Title', 'Category', 'Register', 'Event Code', 'Definition', 'Resistor', 'The ')
    code_re = re.compile(r'Event\s*Code\s*:\s*[.\s]*0\s*[xX]\s*([0-9A-Fa-f]{1,2})')
    restr_re = re.compile(r'(?:Register|Resistor)\s*Restrictions\s*:?[ \t]*([0-9](?:\s*-\s*[0-9])?)?')
    for si, start in enumerate(bounds):
        units = starts[start]
        end = len(lines)
        for j in range(start + 1, len(lines)):
            if re.match(r'^(2\.\d+(\.\d+)?\s|3\s|3\.\d)', lines[j]) or re.match(r'^MDF Box Events Ordered', lines[j]):
                end = j
                break
        # event headers
        heads = []
        for j in range(start + 1, end):
            l = lines[j].strip()
            if not head_re.match(l) or l.startswith(bad_start):
                continue
            k = j + 1
            while k < end and not lines[k].strip():
                k += 1
            if k < end and re.search(r'Title|Category', lines[k]):
                heads.append(j)
        for hi, h in enumerate(heads):
            stop = heads[hi + 1] if hi + 1 < len(heads) else end
            block = lines[h:stop]
            text = '\n'.join(block)
            ev = fix_name(lines[h].strip())
            m = code_re.search(text)
            if not m:
                continue
            code = int(m.group(1), 16)
            m = restr_re.search(text)
            ctrs = m.group(1).replace(' ', '') if m and m.group(1) else ''
            m = re.search(r'Category\s*:\s*([A-Za-z0-9 /&-]+?)(?:\s*Event|\s*$)', text, re.M)
            cat = m.group(1).strip() if m else ''
            has_xtra = False
            got = 0
            for off, l in enumerate(block):
                if not l.startswith('|'):
                    continue
                cells = [c.strip() for c in l.strip().strip('|').split('|')]
                if all(re.fullmatch(r'-*', c) for c in cells):
                    continue
                if any(c.startswith('xtra') for c in cells):
                    has_xtra = True
                if any(c.startswith(('Extension', 'umask [')) for c in cells) or (len(cells) > 1 and cells[1].startswith('[15:8]')):
                    continue
                ui = None
                for ci, c in enumerate(cells):
                    if re.fullmatch(r'b[01xX]{5,10}', c.replace(' ', '')):
                        ui = ci
                        break
                name = None
                if ui is None:  # "NAME bPATTERN" merged into one cell
                    m = re.match(r'^([A-Za-z0-9_.]+)\s+(b[01xX]{5,10})$', cells[0])
                    if not m:
                        continue
                    name, pat, rest = m.group(1), m.group(2), cells[1:]
                else:
                    name = ''.join(cells[:ui]).replace(' ', '')
                    pat, rest = cells[ui].replace(' ', ''), cells[ui + 1:]
                if not name or not re.fullmatch(r'[A-Za-z0-9_.]+', name):
                    continue
                um = umask_value(pat)
                if um is None:
                    continue
                sub = fix_name(name)
                ext = 0
                if has_xtra and rest:
                    ext = xtra_value(rest[0], units[0], sub)
                    if ext is None:
                        ext = 0
                for u in units:
                    rows.append((u, ev, code, ctrs, sub, um, ext, h + 1 + off, cat))
                got += 1
            if not got:
                for u in units:
                    rows.append((u, ev, code, ctrs, None, 0, 0, h + 1, cat))
    return rows


def load_json(d):
    out = OrderedDict()
    for f in ('emeraldrapids_uncore.json', 'emeraldrapids_uncore_experimental.json'):
        for e in json.load(open(os.path.join(d, f)))['Events']:
            out[e['EventName']] = e
    return out


def json_ext(e):
    ext = int(e.get('UMaskExt', '0') or '0', 16)
    port, fc = int(e.get('PortMask', '0') or '0', 16), int(e.get('FCMask', '0') or '0', 16)
    if not ext and (port or fc):
        ext = fc << 16 | port << 4
    return ext


def ctr_set(c):
    """'0-3' / '0,1' / '0' -> {0, 1, ...}; None for fixed, freerun or an empty list."""
    c = (c or '').replace(' ', '')
    m = re.fullmatch(r'(\d+)-(\d+)', c)
    if m:
        return set(range(int(m.group(1)), int(m.group(2)) + 1))
    if re.fullmatch(r'\d+(,\d+)*', c):
        return {int(x) for x in c.split(',')}
    return None


def ctr_attr(c, default):
    if not c:
        return default
    c = c.replace(' ', '')
    if re.fullmatch(r'\d(,\d)*', c):
        v = [int(x) for x in c.split(',')]
        if v == list(range(v[0], v[-1] + 1)) and len(v) > 1:
            return '%d-%d' % (v[0], v[-1])
        return c
    return c


WORDS = {'snp': 'snoop', 'snps': 'snoops', 'resp': 'response', 'rdb': 'read data buffer', 'ne': 'not empty',
         'wpq': 'write pending queue', 'rpq': 'read pending queue', 'pftch': 'prefetch', 'msg': 'message',
         'crd': 'credit', 'crds': 'credits', 'occ': 'occupancy', 'txc': 'egress', 'rxc': 'ingress',
         'txr': 'mesh egress', 'rxr': 'mesh ingress', 'txl': 'link transmit', 'rxl': 'link receive', 'ins': 'inserts',
         'req': 'request', 'reqs': 'requests', 'rd': 'read', 'wr': 'write', 'cyc': 'cycles', 'tgr': 'transgress',
         'ag0': 'agent 0', 'ag1': 'agent 1', 'vert': 'vertical', 'horz': 'horizontal', 'pref': 'prefetch',
         'drd': 'data read', 'rfo': 'read for ownership', 'crd_pref': 'code read prefetch', 'ia': 'core',
         'io': 'I/O', 'loc': 'local', 'rem': 'remote', 'dir': 'directory', 'upd': 'update', 'pmm': 'persistent memory',
         'nm': 'near memory', 'fm': 'far memory', 'pch0': 'pseudo-channel 0', 'pch1': 'pseudo-channel 1'}


def pretty(s):
    words = s.replace('.', ' , ').replace('_', ' ').lower().split()
    return ' '.join(WORDS.get(w, w) for w in words).replace(' ,', ',').strip()


def main():
    seed, jdir, out = sys.argv[1:4]
    rows = parse_seed(seed)
    js = load_json(jdir)
    by_unit_json = {}
    for n, e in js.items():
        by_unit_json.setdefault(e['Unit'], []).append(n)
    diffs, cdiffs = [], []
    os.makedirs(out, exist_ok=True)
    total = 0
    for unit, (prefix, junit, dctrs, udesc) in UNITS.items():
        events = OrderedDict()  # event name -> dict(code, ctrs, cat, src, subs: OrderedDict(sub -> (umask, ext, src)))
        jnames = {norm(n): n for n in by_unit_json.get(junit, [])}
        for (u, ev, code, ctrs, sub, um, ext, line, cat) in rows:
            if u != unit:
                continue
            if unit == 'm2m' and code >= 0x80 and not ext:
                ext = 0x800000  # M2M mesh events (L1304; notes 11.6)
            full = prefix + '_' + ev + ('.' + sub if sub else '')
            jn = jnames.get(norm(full))
            src = '001:L%d' % line
            jctrs = None
            if jn:
                e = js[jn]
                jctrs = ctr_set(e['Counter'])
                jcode, jum, jext = int(e['EventCode'], 16), int(e['UMask'], 16), json_ext(e)
                if (jcode, jum, jext) != (code, um, ext):
                    diffs.append('%s: seed L%d code 0x%x umask 0x%x ext 0x%x; JSON code 0x%x umask 0x%x ext 0x%x -> JSON'
                                 % (jn, line, code, um, ext, jcode, jum, jext))
                code, um, ext = jcode, jum, jext
                base, _, jsub = jn[len(prefix) + 1:].partition('.')
                ev, sub = base, (jsub or None)
                ctrs = ctrs or ctr_attr(e['Counter'], '')
            ent = events.setdefault(ev, {'code': code, 'ctrs': ctrs, 'cat': cat, 'src': src, 'subs': OrderedDict()})
            key = sub or ''
            if key not in ent['subs']:
                ent['subs'][key] = (um, ext, src, jctrs, jn)
        # JSON-only rows
        for n in by_unit_json.get(junit, []):
            e = js[n]
            if not n.startswith(prefix + '_'):
                continue
            base, _, sub = n[len(prefix) + 1:].partition('.')
            if e['CounterType'] == 'FREERUN':
                continue
            ent = events.setdefault(base, {'code': int(e['EventCode'], 16), 'ctrs': ctr_attr(e['Counter'], dctrs),
                                           'cat': '', 'src': 'json', 'subs': OrderedDict()})
            if (sub or '') not in ent['subs']:
                ent['subs'][sub or ''] = (int(e['UMask'], 16), json_ext(e), 'json', ctr_set(e['Counter']), n)
        lines = ['# %s, seed 001 section 2 merged with emeraldrapids_uncore{,_experimental}.json V1.24.' % udesc,
                 '# Generated by tools/gen/emr_tables.py (repair rules: ../shared/notes/emr.md 9.3); descriptions are ours.',
                 '', 'unit %s %s' % (unit, prefix), '']
        def sub_ctrs(ctrs, jctrs, name):
            """The counters both sources allow ('' where the JSON's list does not differ from ctrs)."""
            mine = ctr_set(ctrs)
            if not mine or not jctrs or mine == jctrs:
                return ''
            both = sorted(mine & jctrs)
            if not both:
                cdiffs.append('%s: seed counters %s, JSON %s, none in common -> seed' % (name, ctrs, sorted(jctrs)))
                return ''
            got = ctr_attr(','.join(map(str, both)), '')
            cdiffs.append('%s: seed counters %s, JSON %s -> %s (the counters both allow)'
                          % (name, ctrs, ','.join(map(str, sorted(jctrs))), got))
            return got

        for ev, ent in events.items():
            ctrs = ent['ctrs'] or dctrs
            desc = OWN.get(ev) or ('%s, %s event%s' % (pretty(ev).capitalize(), udesc,
                                                      ' (%s)' % ent['cat'].lower() if ent['cat'] else ''))
            subs = ent['subs']
            if list(subs) == ['']:
                um, ext, src, jctrs, jn = subs['']
                attrs = ['ctrs=%s' % (sub_ctrs(ctrs, jctrs, jn) or ctrs), 'src=%s' % src]
                if um:
                    attrs.insert(1, 'umask=0x%02x' % um)
                if ext:
                    attrs.insert(1, 'umext=0x%x' % ext)
                lines.append('event 0x%02x %s %s "%s"' % (ent['code'], ev, ' '.join(attrs), desc))
                total += 1
                continue
            if '' in subs:  # the JSON also names the event without a subevent: keep that name
                um, ext, src, jctrs, jn = subs['']
                attrs = ' umask=0x%02x' % um + (' umext=0x%x' % ext if ext else '')
                lines.append('event 0x%02x %s ctrs=%s%s src=%s "%s"' % (ent['code'], ev, sub_ctrs(ctrs, jctrs, jn)
                                                                         or ctrs, attrs, src, desc))
                total += 1
            lines.append('event 0x%02x %s ctrs=%s src=%s "%s"' % (ent['code'], ev, ctrs, ent['src'], desc))
            for sub, (um, ext, src, jctrs, jn) in subs.items():
                if not sub:
                    continue
                narrowed = sub_ctrs(ctrs, jctrs, jn)
                attrs = (' umext=0x%x' % ext if ext else '') + (' ctrs=%s' % narrowed if narrowed else '')
                if src != ent['src']:
                    attrs += ' src=%s' % src
                lines.append('  umask 0x%02x %s%s "%s"' % (um, sub, attrs, pretty(sub)))
                total += 1
        if unit == 'iio':
            lines += ['', '# free-running counters (T2-185..187; index into iio_fr in common/platform_emr.c).',
                      '# BANDWIDTH_IN/OUT count 32-byte units: see README "IIO bandwidth scale".',
                      'event 0x00 CLOCKTICKS_FREERUN ctrs=freerun src=001:L6652 "IIO clock cycles (free-running)"']
            for p in range(8):
                lines.append('event 0x00 BANDWIDTH_IN.PART%d_FREERUN ctrs=freerun umask=0x%02x src=001:L6661 '
                             '"Inbound (device to CPU) data of port %d in 32-byte units (free-running)"' % (p, 1 + p, p))
            for p in range(8):
                lines.append('event 0x00 BANDWIDTH_OUT.PART%d_FREERUN ctrs=freerun umask=0x%02x src=001:L6672 '
                             '"Outbound (CPU to device) data of port %d in 32-byte units (free-running)"' % (p, 9 + p, p))
            total += 17
        if unit == 'imc':
            lines += ['', '# fixed DCLK counter (T2-129/130) and free-running counters per IMC (T2-131..133).',
                      'event 0xff FIXED_DCLK ctrs=fixed src=001:L5096 "DRAM clock cycles on the channel\'s fixed counter"',
                      'event 0x00 DCLK_FREERUN ctrs=freerun src=001:L5124 "DRAM clock cycles of the IMC (free-running)"',
                      'event 0x00 RPQ_CYCLES_NE_FREERUN ctrs=freerun umask=0x01 src=001:L5133 '
                      '"Cycles the read pending queue of the IMC was not empty (free-running)"',
                      'event 0x00 WPQ_CYCLES_NE_FREERUN ctrs=freerun umask=0x02 src=001:L5142 '
                      '"Cycles the write pending queue of the IMC was not empty (free-running)"']
            total += 4
        if unit == 'ubox':
            lines += ['', 'event 0xff UCLK ctrs=fixed src=001:L594 "Uncore clock cycles on the UBox fixed counter (0x2FDF)"']
            total += 1
        open(os.path.join(out, unit + '.evt'), 'w').write('\n'.join(lines) + '\n')
    with open(os.path.join(out, 'json_differences.txt'), 'w') as f:
        f.write('# Seed 001 rows whose repaired code/umask/umask_ext differ from the perfmon JSON; the JSON value\n'
                '# is used.  Generated by tools/gen/emr_tables.py.\n')
        f.write('\n'.join(diffs) + ('\n' if diffs else ''))
        f.write('# Rows whose counter list differs between the seed and the JSON: an event is placed only on\n'
                '# counters both allow, so neither source can make it count on a counter that does not count it.\n')
        f.write('\n'.join(cdiffs) + ('\n' if cdiffs else ''))
    print('%d rows, %d seed/JSON differences, %d counter lists narrowed' % (total, len(diffs), len(cdiffs)),
          file=sys.stderr)


if __name__ == '__main__':
    main()
