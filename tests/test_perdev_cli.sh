#!/bin/sh
# uncore stat --per-device and the per-port rows of --per-box (issue 66 point 1: every per-port IIO value
# names its devices).  The simulator's default device set (doc/user-guide.md: on socket 0 a NIC on stack 1
# port 0, NVMe drives on ports 1 and 2, a PCIe switch with two GPUs on stack 2 port 0, an empty port 1, an
# InfiniBand HCA on stack 3; socket 1's own) moving the DMA this profile sets: a port with devices counts
# their payload times 1 + their overhead (doc/user-guide.md "Simulator profile"), a port without devices
# its share of the socket's other traffic: 1.6e9 x (socket + 1) bytes a second in and 0.96e9 x (socket + 1)
# out, over the socket's stacks (6; SPR's board 10, GNR's 15), by the weights 8, 7, ... 1 on socket 0 and 1, ... 8
# on socket 1 (iio_port<N>_share), on Skylake-SP all on port 0.  SPR and GNR are laid out as real boards
# (platforms/spr/board.c, platforms/gnr/board.c): the same set on two of their PCIe stacks (A and B: SPR's 6 and 7,
# GNR's 2 and 3), socket 1's HCA beside.  The manual clock makes 2 s exact.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
cat >"$W/profile" <<EOF
device.nic.in_bytes_per_s = 5e9
device.nic.out_bytes_per_s = 3e9
device.nic.overhead_ratio = 0.05
device.nvme.in_bytes_per_s = 2e9
device.nvme.out_bytes_per_s = 1e9
device.nvme.overhead_ratio = 0
device.gpu.in_bytes_per_s = 4e9
device.gpu.out_bytes_per_s = 6e9
device.gpu.overhead_ratio = 0.01
device.ib.in_bytes_per_s = 8e9
device.ib.out_bytes_per_s = 7e9
device.ib.overhead_ratio = 0.02
device.cbdma.in_bytes_per_s = 1e9
device.cbdma.out_bytes_per_s = 2e9
device.cbdma.overhead_ratio = 0.1
EOF
cat >"$W/truth.py" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
skx = sys.argv[2].endswith("skx")
# (eno: sim:icx's NIC below the PCH's root port 00:1c.0, on the DMI stack's port 0; sim:icx's CBDMA engines,
# ioatdma, no name, on each socket's DMI stack port 3: issue 90 D7)
A, B, N = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rate = {"ens": (5e9, 3e9, 0.05), "eno": (5e9, 3e9, 0.05), "nvme": (2e9, 1e9, 0), "card": (4e9, 6e9, 0.01),
        "mlx5_": (8e9, 7e9, 0.02), "ioatdma": (1e9, 2e9, 0.1)}
def truth(r, write):
    if r["devices"]:
        t = 0
        for d in r["devices"]:
            kind = [k for k in rate if (d["name"] or d["driver"]).startswith(k)][0]
            t += rate[kind][0 if write else 1] * (1 + rate[kind][2])
        return 2 * t
    s, port = r["socket"], r["port"]
    bps = (1.6e9 if write else 0.96e9) * (1 + s) / N
    weight = (8 - port if s % 2 == 0 else port + 1) / 36
    return 2 * bps * ((port == 0) if skx else weight)
bad = []
for r in rows:
    if "metric" in r:  # -M's rows: a metric each, its group's bytes of one direction or their rate
        m = r["metric"]
        w, per_s = "write" in m, "_bw_" in m
        if r["value"] is None:
            if w or not sys.argv[2].endswith("icx"):
                bad.append("s%d iio%d port%d %s: null" % (r["socket"], r["box"], r["port"], m))
            continue
        want = truth(r, w) / (2 if per_s else 1)
        if r["unit"] != ("B/s" if per_s else "B") or abs(r["value"] - want) > 0.01 * want + 1:
            bad.append("s%d iio%d port%d %s %s %s, truth %.0f" % (r["socket"], r["box"], r["port"], m, r["value"], r["unit"], want))
        continue
    for w, key in ((1, "write_bytes"), (0, "read_bytes")):
        if r[key] is None:
            continue  # ICX counts its ports inbound only
        want = truth(r, w)
        if abs(r[key] - want) > 0.01 * want + 1:
            bad.append("s%d iio%d port%d %s %s, truth %.0f" % (r["socket"], r["box"], r["port"], key, r[key], want))
        if abs(r[key.replace("bytes", "bw")] * r["seconds"] - r[key]) > 1e-6 * want + 1:
            bad.append("bandwidth x seconds is not the bytes")
where = {(r["box"], r["port"]): (",".join(d["name"] for d in r["devices"]), r["behind_switch"]) for r in rows if r["socket"] == 0}
print("%s|%s|%s|%s|%s|%s" % (len(rows) >= 6, where.get((A, 0)), where.get((A, 1)), where.get((B, 0)), where.get((B, 1)),
      "; ".join(bad)))
PY
for be in sim:spr perf+sim:spr sim:gnr sim:icx sim:skx perf+sim:skx; do
	case $be in
	*spr) a=6 b=7 n=10 ;;
	*gnr) a=2 b=3 n=15 ;;
	*icx) a=1 b=4 n=6 ;; # the default set's switch on stack 4: stack 2 has no root bus (platforms/icx/board.c)
	*) a=1 b=2 n=6 ;;
	esac
	set=""
	[ $a = 1 ] || set=",devices=nic@0.$a.0+nvme@0.$a.1+nvme@0.$a.2+gpusw@0.$b.0+empty@0.$b.1+ib@1.$b.0"
	$UNCORE --backend $be,clock=manual,profile=$W/profile$set stat --per-device --duration 2 --json >"$W/d.json" 2>"$W/err"; rc=$?
	res=$(python3 "$W/truth.py" "$W/d.json" "$be" $a $b $n)
	want="True|('ens0f0', False)|('nvme0', False)|('card0,card1', True)|('', False)|"
	check "$be: --per-device: the NIC, the drive, the switch's GPUs as one group, the empty port, every group's bytes the truth within 1 % ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "$want" ]' || cat "$W/err"
	case $be in sim:spr | sim:icx) ;; *) continue ;; esac
	# -M as perf's --per-* modes take it: each group's metrics, of the same truth (ICX counts no port's read: null)
	$UNCORE --backend $be,clock=manual,profile=$W/profile$set stat --per-device -M iio_bw_write,iio_read_bytes,iio_bw_read \
		--duration 2 --json >"$W/d.json" 2>"$W/err"; rc=$?
	res=$(python3 "$W/truth.py" "$W/d.json" "$be" $a $b $n)
	check "$be: --per-device -M iio_bw_write,iio_read_bytes,iio_bw_read: each group's three values the truth within 1 % ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "$want" ] && [ $(grep -c "\"metric\": \"iio_bw_read\"" "$W/d.json") -ge 6 ]' || cat "$W/err"
done
SET=",devices=nic@0.6.0+nvme@0.6.1+nvme@0.6.2+gpusw@0.7.0+empty@0.7.1+ib@1.7.0"
out=$($UNCORE --backend sim:spr,clock=manual,profile=$W/profile$SET stat --per-device --duration 2 2>&1)
echo "$out"
# the switch: 2 GPUs x 4e9 x 1.01 x 2 s in, 2 x 6e9 x 1.01 x 2 s out; below the board's ports 39:01.0 and 4d:01.0
check "text: the switch's group on one row, its devices named" \
	'echo "$out" | grep -qE "^socket0 iio7 port0 +write +16160000000 B +8\.0800 GB/s +read +24240000000 B +12\.1200 GB/s +PCIe switch: card0 \(0000:50:00\.0, nvidia\) \+ card1 \(0000:51:00\.0, nvidia\)  node 0$"'
check "text: the NIC's row" 'echo "$out" | grep -qE "^socket0 iio6 port0 .* ens0f0 \(0000:3a:00\.0, ice\)  node 0$"'
out=$($UNCORE --backend sim:spr,clock=manual,profile=$W/profile$SET stat -M iio_bw_write_port0,iio_bw_read_port1 --per-box --duration 1 2>&1)
# the NIC 5e9 x 1.05 in; the switch 8.08 GB/s in; nvme0 1e9 out; stack 4 has no device: 1.6e9 / 10 x 8 / 36 in
check "--per-box: port 0 of stack 6 names the NIC, of stack 7 the switch's GPUs; a stack without devices nothing" \
	'echo "$out" | grep -qE "^  iio6 +iio_bw_write_port0 +5\.2500 GB/s  ens0f0 \(0000:3a:00\.0, ice\)$" &&
	 echo "$out" | grep -qE "^  iio7 +iio_bw_write_port0 +8\.0800 GB/s  PCIe switch: card0 .* \+ card1 " &&
	 echo "$out" | grep -qE "^  iio6 +iio_bw_read_port1 +1\.0000 GB/s  nvme0 \(0000:3b:00\.0, nvme\)$" &&
	 echo "$out" | grep -qE "^  iio4 +iio_bw_write_port0 +0\.0356 GB/s$"' || echo "$out"
out=$($UNCORE --backend sim:spr,clock=manual$SET stat -M iio_bw_write_port0 --per-box --duration 1 --json 2>&1)
check "--per-box --json: the exporter's labels pci_bdf, device, driver" \
	'echo "$out" | grep "\"box\": 7," | grep -q "\"pci_bdf\": \"0000:50:00.0,0000:51:00.0\", \"device\": \"card0,card1\", \"driver\": \"nvidia,nvidia\"}$"'
out=$($UNCORE --backend sim:spr,clock=manual,profile=$W/profile$SET stat --per-device -M iio_bw_write --metric-group totals \
	--duration 2 2>&1)
# the switch's group: 2 x 4e9 x 1.01 in a second (8.08 GB/s), 16.16e9 B in 2 s; the group totals' byte metrics beside
check "text -M and --metric-group: a line a metric of each group, the totals group's byte metrics, not its memory's" \
	'echo "$out" | grep -qE "^socket0 iio7 port0 +iio_bw_write +8\.0800 GB/s  PCIe switch: card0 .* \+ card1 .*  node 0$" &&
	 echo "$out" | grep -qE "^socket0 iio7 port0 +iio_write_bytes +16160000000 B  PCIe switch: card0 " &&
	 echo "$out" | grep -qE "^socket0 iio7 port0 +iio_read_bytes +24240000000 B  PCIe switch: card0 " &&
	 ! echo "$out" | grep -q "mem_read_bytes"' || echo "$out"
out=$($UNCORE --backend sim:spr stat --per-device -M mem_bw_read --duration 0.1 2>&1); rc=$?
check "a metric of no device refused, named, with what --per-device gives ($rc: $out)" \
	'[ $rc -eq 2 ] && echo "$out" | grep -q "^uncore stat --per-device: -M mem_bw_read: not defined by device .*; --per-device gives iio_write_bytes, iio_read_bytes, iio_bw_write, iio_bw_read$"'
out=$($UNCORE --backend sim:spr stat --per-device --metric-group llc --duration 0.1 2>&1); rc=$?
check "a group with no metric by device refused ($rc: $out)" \
	'[ $rc -eq 2 ] && echo "$out" | grep -q "^uncore stat --per-device: --metric-group llc: no metric of it is defined by device; --per-device gives iio_write_bytes,"'
out=$($UNCORE --backend sim:spr stat --per-device -e UNC_IIO_CLOCKTICKS --duration 0.1 2>&1); rc=$?
check "-e refused, naming the metrics instead ($rc: $out)" \
	'[ $rc -eq 2 ] && echo "$out" | grep -q "^uncore stat --per-device: -e UNC_IIO_CLOCKTICKS: .*give -M METRIC (by device: iio_write_bytes,"'
out=$($UNCORE --backend sim:snbep stat --per-device --duration 0.1 2>&1); rc=$?
check "a platform without IIO stacks: no group, said ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -q "# no device group with a counter of its own"'
out=$($UNCORE --backend sim:spr stat --per-device 2>&1); rc=$?
check "no duration: refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "give --duration SECONDS or -I MS"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
