#!/bin/sh
# uncore snapshot and its replay (issue 49, doc/snapshot.md): snapshots of simulated machines with other
# shapes round-trip; the field's failures each give the answer kept beside them (tests/snapshots/field,
# tools/snapshot/snapshot_test.sh); taking a snapshot writes no register; hostile archives are refused and
# a replay writes nothing anywhere; no path of the user's (profile=, shared=, the sysroot) is
# kept in it.  Every built-in platform's snapshot replayed is tests/test_replay_sim.sh and
# tests/test_replay_perf.sh (tests/replay_builtin.sh): three tests, so that make -j2 runs them side by side.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
S=${top_srcdir:-.} B=${top_builddir:-.}
UNCORE=$B/uncore SIMSTATE=$B/tests/sim_state
export TMPDIR="$W/tmp"
mkdir -p "$TMPDIR"

# machines of other shapes, snapshot and replay in one go: dies, four sockets, a kernel naming its PMUs by
# discovery type (uncore_type_N, the generic driver), a Broadwell-EP whose PCU CAPID4 leaves no SBox (the
# snapshot keeps the PCU function's config: "s0:0 s1:0" replayed)
for spec in sim:gnr,dies=2 sim:emr,sockets=4 perf+sim:emr,generic=1 perf+sim:srf,dies=2 sim:bdx,chop=0; do
	rm -f "$W/s.tar"
	$UNCORE --backend "$spec" snapshot -o "$W/s.tar" >"$W/out" 2>&1 || { no "$spec: snapshot: $(cat "$W/out")"; continue; }
	case $spec in perf+*) r=perf+replay ;; *) r=replay ;; esac
	$UNCORE --backend "$spec" info 2>&1 | tail -n +2 >"$W/want"
	$UNCORE --backend "$r:$W/s.tar" info 2>&1 | tail -n +2 >"$W/got"
	check "$spec: snapshot, then $r: the same units and boxes ($(grep -c '^box ' "$W/want") boxes)" 'cmp -s "$W/want" "$W/got"'
	w=$($UNCORE --backend "$spec,clock=manual" stat -M mem_bw_read,llc_lookups --duration 1 2>&1 | grep -v '^#')
	g=$($UNCORE --backend "$r:$W/s.tar,clock=manual" stat -M mem_bw_read,llc_lookups --duration 1 2>&1 | grep -v '^#')
	check "$spec: the replay counts what the machine counts" '[ -n "$w" ] && [ "$w" = "$g" ]'
done

# a machine the project has never seen: a newer stepping of a known model counts as that platform; a model
# with no platform folder (not in Intel's mapfile) counts generically on the simulated machine whose discovery
# tables are the node's, as that machine with the new CPU id does
cpuinfo() { printf 'vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\nmodel name\t: Intel(R) Xeon(R) @ 2.00GHz\nstepping\t: %d\nflags\t\t:\n' "$1" "$2"; }
python3 "$S/tools/snapshot/snapshot_edit.py" "$S/tests/snapshots/emr.tar.gz" "$W/new.tar" write proc/cpuinfo "$(cpuinfo 207 9)"
out=$($UNCORE --backend "replay:$W/new.tar" info 2>&1 | head -2)
check "a newer stepping (EMR stepping 9): counted as emr" 'echo "$out" | grep -q "platform emr" && echo "$out" | grep -q "6-CF-9"'
python3 "$S/tools/snapshot/snapshot_edit.py" "$S/tests/snapshots/gnr.tar.gz" "$W/new.tar" write proc/cpuinfo "$(cpuinfo 241 1)"
for b in ""; do # (its perf tree is GNR's kernel's, named: the perf backend takes those PMUs as they are)
	$UNCORE --backend "${b}sim:gnr,cpu=6-f1-1" info 2>&1 | tail -n +2 >"$W/want"
	$UNCORE --backend "${b}replay:$W/new.tar" info >"$W/all" 2>&1
	tail -n +2 "$W/all" >"$W/got"
	w=$($UNCORE --backend "${b}sim:gnr,cpu=6-f1-1,clock=manual" stat -e UNC_CHA_CLOCKTICKS,UNC_M_CAS_COUNT_SCH0.RD --duration 1 2>&1 | grep -v '^#')
	g=$($UNCORE --backend "${b}replay:$W/new.tar,clock=manual" stat -e UNC_CHA_CLOCKTICKS,UNC_M_CAS_COUNT_SCH0.RD --duration 1 2>&1 | grep -v '^#')
	check "${b}replay of a model without a platform folder (6-F1, GNR's tables): generic, as ${b}sim:gnr,cpu=6-f1-1" \
		'head -1 "$W/all" | grep -q "platform generic" && cmp -s "$W/want" "$W/got" && [ -n "$w" ] && [ "$w" = "$g" ]'
done
python3 "$S/tools/snapshot/snapshot_edit.py" "$S/tests/snapshots/gnr.tar.gz" "$W/new.tar" write proc/cpuinfo "$(cpuinfo 241 1)" rm mmio
out=$($UNCORE --backend "replay:$W/new.tar" info 2>&1); rc=$?
check "... and one whose tables no simulated machine has: refused, saying so ($rc)" \
	'[ $rc -ne 0 ] && echo "$out" | grep -q "no simulated machine has its discovery tables"'

# the field's failures: each snapshot's replay gives the answer kept beside it; a snapshot made from a real
# server's listing holds an answer written from the listing and the published rules (its first line says so:
# box counts, each device's stack and counter port, no other device), which tools/snapshot/check_expect.py
# holds the replay to
for f in "$S"/tests/snapshots/field/*.tar.gz; do
	n=$(basename "$f" .tar.gz)
	if head -1 "$S/tests/snapshots/field/$n.expect" | grep -q "^# Expected from"; then
		python3 "$S/tools/snapshot/check_expect.py" "$UNCORE" "$f" "$S/tests/snapshots/field/$n.expect" >"$W/answer" 2>&1
		rc=$?
		check "field snapshot $n: the answer tests/snapshots/field/$n.expect writes from the listing" \
			'[ $rc -eq 0 ] || { head -6 "$W/answer"; false; }'
		continue
	fi
	"$S/tests/replay_answer.sh" "$UNCORE" "$f" >"$W/answer" 2>&1
	# (a first line "# written from ..." says where the answer came from: not part of it)
	sed '1{/^# written from /d}' "$S/tests/snapshots/field/$n.expect" >"$W/expect"
	check "field snapshot $n: the answer of tests/snapshots/field/$n.expect" \
		'cmp -s "$W/expect" "$W/answer" || { diff "$W/expect" "$W/answer" | head -6; false; }'
done

# the device maps of the field's device snapshots (doc/snapshot.md), against the topology their .devices files
# describe: the HGX-like node's 8 GPU+NIC pairs each one switch group (behind_switch, never split) on
# counter ports 0 and 4 (root ports 01.0 and 05.0: pcm-iio's SPR part = device - 1) of stacks 2 and 4 of each
# socket; the hidden root port's drive below no counted stack, its neighbours on their ports
for b in replay perf+replay; do
	gzip -dc "$S/tests/snapshots/field/spr-hgx-8gpu.tar.gz" >"$W/hgx.tar"
	res=$($UNCORE --backend "$b:$W/hgx.tar" devices --json 2>&1 | python3 -c '
import json, sys
g = [json.loads(l) for l in sys.stdin]
pairs = sorted((x["socket"], x["stack"], x["port"]) for x in g if x["behind_switch"] and
               sorted(d["device"] for d in x["devices"]) == ["1021", "2330"] and x["source"] == "registers")
loose = [d["bdf"] for x in g if not x["behind_switch"] for d in x["devices"] if d["vendor"] in ("10de", "15b3")]
print(len(pairs), pairs == sorted((s, k, p) for s in (0, 1) for k in (2, 4) for p in (0, 4)), len(loose))')
	check "$b: spr-hgx-8gpu: 8 GPU+NIC switch groups on ports 0 and 4 of stacks 2 and 4, none split ($res)" '[ "$res" = "8 True 0" ]'
	gzip -dc "$S/tests/snapshots/field/spr-hidden-rootport.tar.gz" >"$W/hid.tar"
	res=$($UNCORE --backend "$b:$W/hid.tar" devices --json 2>&1 | python3 -c '
import json, sys
at = {d["name"]: (x["socket"], x["stack"], x["port"]) for x in map(json.loads, sys.stdin) for d in x["devices"] if d["name"]}
print(at.get("ens1f0"), at.get("nvme1"), at.get("nvme0"))')
	check "$b: spr-hidden-rootport: the NIC on port 0, the drive on port 3, the hidden port's drive below no stack ($res)" \
		'[ "$res" = "(0, 2, 0) (0, 2, 3) (-1, -1, -1)" ]'
done

# ... and those made from a real server's lspci listing are what their .source makes (tools/snapshot/from_lspci.py)
for f in "$S"/tests/snapshots/field/*.source; do
	n=$(basename "$f" .source)
	python3 "$S/tools/snapshot/from_lspci.py" "$f" "$W/src.tar" && gzip -dc "$S/tests/snapshots/field/$n.tar.gz" >"$W/kept.tar"
	check "field snapshot $n: tests/snapshots/field/$n.source makes it, byte for byte" 'cmp -s "$W/src.tar" "$W/kept.tar"'
done

# the simulated Skylake-SP and Cascade Lake place their UBox (8086:2014, the node-id registers) where real
# boards list it: 08.0 of each socket's first bus, with 08.1 2015 and 08.2 2016 (CPUBUSNO, issue 90 D4) beside it
# (the linuxhw/LsPCI listings: 00:08.0 2014, 08.1 2015, 08.2 2016), no second UBox there
for p in skx clx; do
	rm -f "$W/u.tar"
	$UNCORE --backend "sim:$p" snapshot -o "$W/u.tar" >/dev/null 2>&1
	check "sim:$p: the UBox 8086:2014 at 00:08.0 and 80:08.0, 2015 at 08.1 and 2016 at 08.2 beside each" \
		'[ "$(tar xOf "$W/u.tar" sys/bus/pci/devices/0000:00:08.0/device sys/bus/pci/devices/0000:80:08.0/device 2>/dev/null | tr "\n" " ")" = "0x2014 0x2014 " ] &&
		 [ "$(tar xOf "$W/u.tar" sys/bus/pci/devices/0000:00:08.1/device sys/bus/pci/devices/0000:80:08.1/device sys/bus/pci/devices/0000:00:08.2/device sys/bus/pci/devices/0000:80:08.2/device 2>/dev/null | sort | tr "\n" " ")" = "0x2015 0x2015 0x2016 0x2016 " ]'
done

# the simulated Ice Lake-SP is laid out as the Lenovo SR630 V2 lists it (tests/snapshots/field/icx-sr630v2.source):
# 00:00.0 the Mesh2IIO function 8086:09a2, no bridge, with 09a4, 09a3, 0998 at 00.1, 00.2, 00.4 and the MSM 09a6 at
# 02.0; the PCH's root port 00:1c.0 (8086:a190) with a device below it, counted at the DMI port (stack 5, port 0);
# M2M 344a at 0c.0 of the UBox's bus (fe:00.0 3450, fe:0c.0 344a on the listing); two sockets (sim:icx's default)
# as the SR650 V2 (icx-sr650v2-2s.source): socket 0's UBox 7e:00.0, socket 1's fe:00.0
rm -f "$W/u.tar"
$UNCORE --backend sim:icx snapshot -o "$W/u.tar" >/dev/null 2>&1
tree=$(tar xOf "$W/u.tar" devices/tree.txt 2>/dev/null)
on() { echo "$tree" | grep -q "$(printf 't\t/sys/devices/pci0000:00/%s\t%s' "$1" "$2")$"; }
check "sim:icx: 00:00.0 is 09a2 of class 0x088000, 00.1/00.2/00.4 09a4/09a3/0998, 02.0 the MSM 09a6" \
	'on 0000:00:00.0/device 0x09a2 && on 0000:00:00.0/class 0x088000 && on 0000:00:00.1/device 0x09a4 &&
	 on 0000:00:00.2/device 0x09a3 && on 0000:00:00.4/device 0x0998 && on 0000:00:02.0/device 0x09a6'
check "sim:icx: the PCH's root port 00:1c.0 (8086:a190, a bridge) with a device below it" \
	'on 0000:00:1c.0/device 0xa190 && on 0000:00:1c.0/class 0x060400 && echo "$tree" | grep -q "0000:00:1c.0/0000:[0-9a-f:.]*/device"'
out=$($UNCORE --backend sim:icx devices 2>&1)
check "sim:icx: ... counted at the DMI port: stack 5, port 0, root port 00:1c.0" \
	'echo "$out" | grep -q "^socket 0 die 0 iio 5 (0000:00) port 0 (0000:00:1c.0): 1 device$"'
check "sim:icx: M2M 8086:344a at 0c.0 of each UBox's bus (3450 at 00.0), as the SR650 V2's 7e and fe" \
	'[ "$(tar xOf "$W/u.tar" sys/bus/pci/devices/0000:7e:00.0/device sys/bus/pci/devices/0000:7e:0c.0/device \
	      sys/bus/pci/devices/0000:fe:00.0/device sys/bus/pci/devices/0000:fe:0c.0/device 2>/dev/null | sort | tr "\n" " ")" = "0x344a 0x344a 0x3450 0x3450 " ]'

# the simulated Xeon E5s place their functions where real boards list them (tests/snapshots/field/*.source):
# Haswell-EP's and Broadwell-EP's UBox at 10.5 (Dell R730s), not Ivy Bridge-EP's 0b.0; Ivy Bridge-EP's iMC
# channels 0 and 7 (0eb4, 0ef1) at 10.4 and 1e.1 (a Dell R720), nothing at 0f.2
for pw in hsx:2f1e bdx:6f1e; do
	p=${pw%:*} id=${pw#*:}
	rm -f "$W/u.tar"
	$UNCORE --backend "sim:$p" snapshot -o "$W/u.tar" >/dev/null 2>&1
	check "sim:$p: the UBox 8086:$id at ff:10.5, nothing at ff:0b.0" \
		'[ "$(tar xOf "$W/u.tar" sys/bus/pci/devices/0000:ff:10.5/device 2>/dev/null)" = "0x$id" ] &&
		 ! tar tf "$W/u.tar" | grep -q "0000:ff:0b.0/"'
done
rm -f "$W/u.tar"
$UNCORE --backend sim:ivbep snapshot -o "$W/u.tar" >/dev/null 2>&1
check "sim:ivbep: iMC channels 0 and 7 at ff:10.4 and ff:1e.1, nothing at ff:0f.2" \
	'[ "$(tar xOf "$W/u.tar" sys/bus/pci/devices/0000:ff:10.4/device sys/bus/pci/devices/0000:ff:1e.1/device 2>/dev/null | tr "\n" " ")" = "0x0eb4 0x0ef1 " ] &&
	 ! tar tf "$W/u.tar" | grep -q "0000:ff:0f.2/"'

# a snapshot writes no register: a shared simulated machine counts every process's writes
$UNCORE --backend "sim:snbep,shared=$W/m" info >/dev/null 2>&1
rm -f "$W/s.tar"
$UNCORE --backend "sim:snbep,shared=$W/m" snapshot -o "$W/s.tar" >"$W/out" 2>&1
st=$($SIMSTATE "sim:snbep,shared=$W/m")
check "snapshot of a machine: written, and no register written or changed ($st)" \
	'[ -s "$W/s.tar" ] && [ "$st" = "writes 0 changed 0" ]'
check "... and its manifest says why each file is there ($(tar xOf "$W/s.tar" MANIFEST | grep -vc '^#') files)" \
	'[ "$(tar xOf "$W/s.tar" MANIFEST | grep -v "^#" | awk -F"\t" "NF != 3 || \$3 == \"\"" | wc -l)" -eq 0 ] &&
	 [ "$(tar tf "$W/s.tar" | grep -vc "^MANIFEST$\|^snapshot.txt$")" -eq "$(tar xOf "$W/s.tar" MANIFEST | grep -vc "^#")" ]'
check "... no counter value: the PMON registers of every PCI box read as zeros (iMC 0's CTR0 at 0xa0)" \
	'[ "$(tar xOf "$W/s.tar" sys/bus/pci/devices/0000:ff:10.0/config | od -An -tx4 -j160 -N8 | tr -d " ")" = 0000000000000000 ]'
# snapshot.txt keeps no path of the user's (a profile= or shared= file in a home directory), even where a
# note quotes it; the user's own terminal still names it
mkdir -p "$W/home/alice"
printf 'uncore_clock_hz = 2e9\n' >"$W/home/alice/profile"
rm -f "$W/p.tar"
$UNCORE --backend "sim:snbep,profile=$W/home/alice/profile,shared=$W/home/alice/m" snapshot -o "$W/p.tar" >"$W/out" 2>&1
rc=$?
check "a snapshot with profile= and shared= ($rc): snapshot.txt says they were given, not where; no path of theirs in it" \
	'[ $rc -eq 0 ] && tar xOf "$W/p.tar" snapshot.txt | grep -qx "backend sim:snbep,profile=\[path not kept\],shared=\[path not kept\]" &&
	 ! tar xOf "$W/p.tar" | grep -q alice' || tar xOf "$W/p.tar" snapshot.txt
rm -f "$W/p.tar"
$UNCORE --backend "sim:snbep,profile=$W/home/alice/none" snapshot -o "$W/p.tar" >"$W/out" 2>&1
check "... a profile that cannot be read: the note in snapshot.txt without its path, stderr with it" \
	'tar xOf "$W/p.tar" snapshot.txt | grep -q "cannot open \[path not kept\]: No such file" &&
	 ! tar xOf "$W/p.tar" | grep -q alice && grep -q "cannot open $W/home/alice/none" "$W/out"' || tar xOf "$W/p.tar" snapshot.txt
out=$($UNCORE --backend "sim:snbep" snapshot -o "$W/s.tar" 2>&1); rc=$?
check "an existing file is not overwritten ($rc)" '[ $rc -ne 0 ] && echo "$out" | grep -q "exists"'
# -o FILE.tar.gz: gzip (the name's suffix chooses), holding the plain archive byte for byte; replayed as it is
rm -f "$W/g.tar.gz"
$UNCORE --backend "sim:snbep,shared=$W/m" snapshot -o "$W/g.tar.gz" >"$W/out" 2>&1; rc=$?
check "snapshot -o FILE.tar.gz ($rc): gzip, the plain one's bytes ($(wc -c <"$W/g.tar.gz") bytes for $(wc -c <"$W/s.tar"))" \
	'[ $rc -eq 0 ] && gzip -t "$W/g.tar.gz" && gzip -dc "$W/g.tar.gz" | cmp -s - "$W/s.tar"'
$UNCORE --backend "replay:$W/s.tar" info 2>&1 | tail -n +2 >"$W/want"
$UNCORE --backend "replay:$W/g.tar.gz" info 2>&1 | tail -n +2 >"$W/got"
check "... its replay: the plain archive's ($(grep -c '^box ' "$W/want") boxes)" '[ -s "$W/want" ] && cmp -s "$W/want" "$W/got"'
gzip -dc "$S/tests/snapshots/emr.tar.gz" >"$W/emr.tar" && mkdir -p "$W/emr" && tar xf "$W/emr.tar" -C "$W/emr"
$UNCORE --backend "replay:$W/emr" info 2>&1 | tail -n +2 >"$W/want"
$UNCORE --backend "replay:$S/tests/snapshots/emr.tar.gz" info 2>&1 | tail -n +2 >"$W/got"
check "tests/snapshots/emr.tar.gz replayed as it is: what its unpacked tree gives" '[ -s "$W/want" ] && cmp -s "$W/want" "$W/got"'

# a real node's snapshot where the registers cannot be read (no msr module, no root: here a sysroot of EMR's
# files without /dev): it takes the files and the kernel's tree, says what it could not, and its perf replay
# is the node's perf backend
mkdir -p "$W/node" && tar xf "$W/emr.tar" -C "$W/node"
rm -f "$W/n.tar"
UNCORE_SYSROOT="$W/node" $UNCORE snapshot -o "$W/n.tar" >"$W/out" 2>&1; rc=$?
$UNCORE --backend perf+sim:emr info 2>&1 | tail -n +2 >"$W/want"
$UNCORE --backend "perf+replay:$W/n.tar" info 2>&1 | tail -n +2 >"$W/got"
check "a node whose registers cannot be read: its files and perf tree taken, what was not said ($rc), its perf replay the node's" \
	'[ $rc -eq 0 ] && grep -q "not taken: registers (direct): not read" "$W/out" && tar xOf "$W/n.tar" snapshot.txt | grep -q "^registers (direct)" &&
	 tar tf "$W/n.tar" | grep -q "^sys/bus/event_source/devices/uncore_imc_0/format/event$" && cmp -s "$W/want" "$W/got"'
# ... and where a file of the sysroot is refused, the notes quote it without the sysroot's path
rm "$W/node/proc/cpuinfo" && mkfifo "$W/node/proc/cpuinfo"
rm -f "$W/n.tar"
UNCORE_SYSROOT="$W/node" $UNCORE snapshot -o "$W/n.tar" >"$W/out" 2>&1; rc=$?
check "a sysroot's /proc/cpuinfo a FIFO ($rc): the notes in snapshot.txt without the sysroot's path, stderr with it" \
	'tar xOf "$W/n.tar" snapshot.txt | grep -q "cannot open \[path not kept\]/proc/cpuinfo: it is a FIFO" &&
	 ! tar xOf "$W/n.tar" | grep -qF "$W/node" && grep -qF "$W/node/proc/cpuinfo" "$W/out"' || tar xOf "$W/n.tar" snapshot.txt

# --check: uncore check on the replay of what was just taken, to set beside the node's own run
rm -f "$W/c.tar"
$UNCORE --backend sim:emr snapshot -o "$W/c.tar" --check --size 8 --seconds 0.1 >"$W/out" 2>&1; rc=$?
check "snapshot --check: uncore check runs on the replay and passes ($rc, $(grep -c PASS "$W/out") rows passed)" \
	'[ $rc -eq 0 ] && grep -q "replay:$W/c.tar" "$W/out" && grep -q "^# PASS: every check passed" "$W/out"'

# hostile archives: refused with the reason, nothing written anywhere ($TMPDIR stays empty)
mkdir -p "$W/evil" && gzip -dc "$S/tests/snapshots/snbep.tar.gz" >"$W/snbep.tar"
python3 - "$W/evil" "$W/snbep.tar" <<'PY'
import gzip, io, sys, tarfile
d, good = sys.argv[1], sys.argv[2]
def make(name, members):
    with tarfile.open(d + "/" + name, "w:gz" if name.endswith(".gz") else "w", format=tarfile.USTAR_FORMAT) as t:
        for m, data, kind in members:
            ti = tarfile.TarInfo(m); ti.size = len(data); ti.mtime = 0
            if kind == "link":
                ti.type, ti.linkname, ti.size = tarfile.SYMTYPE, "/etc", 0
                t.addfile(ti)
            else:
                t.addfile(ti, io.BytesIO(data))
make("dotdot.tar", [("../escape", b"x", "file")])
make("symlink.tar", [("link", b"", "link"), ("link/passwd", b"x", "file")])
make("absolute.tar", [("/tmp/abs", b"x", "file")])
# a member whose header claims 10 GB: refused from the header, before any byte of it is read
hdr = bytearray(tarfile.TarInfo("big").tobuf(format=tarfile.USTAR_FORMAT))
hdr[124:136] = b"%012o" % (10 << 30)  # all twelve digits, as GNU tar writes sizes that large
hdr[148:156] = b"        "
hdr[148:156] = b"%06o\0 " % sum(hdr)
open(d + "/huge.tar", "wb").write(bytes(hdr) + b"\0" * 1024)
raw = open(good, "rb").read()
open(d + "/truncated.tar", "wb").write(raw[: len(raw) // 2 + 100])
bad = bytearray(raw); bad[130] ^= 0x01  # a digit of the first header's size: its checksum no longer holds
open(d + "/corrupt.tar", "wb").write(bytes(bad))
# gzip: the same escape; a bomb (65 members of 1 MB of zeros, some 70 kB gzipped, over the replay's 64 MB);
# a stream whose first deflate block has the reserved type 3 (RFC 1951 3.2.3); a stream cut in half
make("dotdot.tar.gz", [("../escape", b"x", "file")])
with tarfile.open(d + "/bomb.tar.gz", "w:gz", format=tarfile.USTAR_FORMAT) as t:
    for i in range(65):
        ti = tarfile.TarInfo("zeros%d" % i); ti.size = 1 << 20
        t.addfile(ti, io.BytesIO(bytes(1 << 20)))
z = bytearray(gzip.compress(raw, mtime=0)); z[10] |= 6
open(d + "/corruptgz.tar.gz", "wb").write(bytes(z))
z = gzip.compress(raw, mtime=0)
open(d + "/cutgz.tar.gz", "wb").write(z[: len(z) // 2])
PY
for c in "dotdot.tar:'..'" "symlink.tar:symbolic link" "absolute.tar:absolute" "huge.tar:over the limit" "truncated.tar:truncated" \
	"corrupt.tar:damaged" "dotdot.tar.gz:'..'" "bomb.tar.gz:total size would be over the limit of 67108864 bytes" \
	"corruptgz.tar.gz:damaged gzip data" "cutgz.tar.gz:truncated gzip data"; do
	n=${c%%:*} why=${c#*:}
	out=$($UNCORE --backend "replay:$W/evil/$n" info 2>&1); rc=$?
	check "hostile snapshot $n: refused, saying $why" '[ $rc -ne 0 ] && echo "$out" | grep -qi "$why" || { echo "$out" | head -3; false; }'
done
check "... the bomb is $(($(wc -c <"$W/evil/bomb.tar.gz") / 1024)) kB: a small archive over the limits" '[ "$(wc -c <"$W/evil/bomb.tar.gz")" -lt 1000000 ]'
# a discovery table pointing outside what the snapshot holds: the table's own bytes are not there
python3 "$S/tools/snapshot/snapshot_edit.py" "$S/tests/snapshots/emr.tar.gz" "$W/evil/notable.tar" rm mmio
out=$($UNCORE --backend "replay:$W/evil/notable.tar" info 2>&1); rc=$?
check "a snapshot whose discovery tables point outside it: said, no unit from them ($rc)" \
	'echo "$out" | grep -q "not in the snapshot"'
check "nothing was written by the replays: $TMPDIR empty ($(ls -A "$TMPDIR" | tr '\n' ' ')), no escape beside it" \
	'[ -z "$(ls -A "$TMPDIR")" ] && [ ! -e "$W/escape" ] && [ ! -e /tmp/abs ] && [ ! -e "$W/evil/escape" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
