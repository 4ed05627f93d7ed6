#!/bin/sh
# uncore stat --per-device and the per-port rows of --per-box (issue 66 point 1: every per-port IIO value
# names its devices).  The simulator's default set (sim_pcitree.c: a NIC on stack 1 port 0 and an NVMe drive
# on port 1 of socket 0, a PCIe switch with two GPUs on stack 2 port 0, an empty port 1) with its traffic: a
# socket's IIO bytes in 1.6e9 x (socket + 1) a second and out 0.96e9 x (socket + 1) (sim_profile.c), spread
# over its 6 stacks alike and over the ports by the weights 8, 7, ... 1 on socket 0 (iio_port<N>_share), and
# on Skylake-SP all on a stack's port 0 (platforms/skx/sim.c skx_rate).  The manual clock makes 2 s exact.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
UNCORE=${top_builddir:-.}/uncore
for be in sim:spr perf+sim:spr sim:gnr sim:icx sim:skx perf+sim:skx; do
	$UNCORE --backend $be,clock=manual stat --per-device --duration 2 --json >"$W/d.json" 2>"$W/err"; rc=$?
	res=$(python3 - "$W/d.json" "$be" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
skx = sys.argv[2].endswith("skx")
def truth(port, write):
    bps = (1.6e9 if write else 0.96e9) / 6
    return 2 * bps * ((port == 0) if skx else (8 - port) / 36)
bad = []
for r in rows:
    for w, key in ((1, "write_bytes"), (0, "read_bytes")):
        if r[key] is None:
            continue  # ICX counts its ports inbound only
        want = truth(r["port"], w)
        if abs(r[key] - want) > 0.01 * want + 1:
            bad.append("s%d iio%d port%d %s %s, truth %.0f" % (r["socket"], r["box"], r["port"], key, r[key], want))
        if abs(r[key.replace("bytes", "bw")] * r["seconds"] - r[key]) > 1e-6 * want + 1:
            bad.append("bandwidth x seconds is not the bytes")
where = {(r["box"], r["port"]): (",".join(d["name"] for d in r["devices"]), r["behind_switch"]) for r in rows if r["socket"] == 0}
print("%d %s|%s|%s|%s|%s" % (len(rows), where.get((1, 0)), where.get((1, 1)), where.get((2, 0)), where.get((2, 1)),
      "; ".join(bad)))
PY
)
	want="4 ('ens0f0', False)|('nvme0', False)|('card0,card1', True)|('', False)|"
	check "$be: --per-device: 4 groups, the NIC, the drive, the switch's GPUs as one group, the empty port, bytes the truth within 1 % ($rc: $res)" \
		'[ $rc -eq 0 ] && [ "$res" = "$want" ]' || cat "$W/err"
done
out=$($UNCORE --backend sim:spr,clock=manual stat --per-device --duration 2 2>&1)
echo "$out"
check "text: the switch's group on one row, its devices named" \
	'echo "$out" | grep -qE "^socket0 iio2 port0 +write +118518[0-9]{3} B +0\.0593 GB/s +read +71111[0-9]{3} B +0\.0356 GB/s +PCIe switch: card0 \(0000:2d:00\.0, nvidia\) \+ card1 \(0000:2e:00\.0, nvidia\)$"'
check "text: the NIC's row" 'echo "$out" | grep -qE "^socket0 iio1 port0 .* ens0f0 \(0000:16:00\.0, ice\)$"'
out=$($UNCORE --backend sim:spr,clock=manual stat -M iio_bw_write_port0,iio_bw_read_port1 --per-box --duration 1 2>&1)
check "--per-box: port 0 of stack 1 names the NIC, of stack 2 the switch's GPUs; other stacks nothing" \
	'echo "$out" | grep -qE "^  iio1 +iio_bw_write_port0 +0\.0593 GB/s  ens0f0 \(0000:16:00\.0, ice\)$" &&
	 echo "$out" | grep -qE "^  iio2 +iio_bw_write_port0 +0\.0593 GB/s  PCIe switch: card0 .* \+ card1 " &&
	 echo "$out" | grep -qE "^  iio1 +iio_bw_read_port1 +0\.0311 GB/s  nvme0 \(0000:17:00\.0, nvme\)$" &&
	 echo "$out" | grep -qE "^  iio3 +iio_bw_write_port0 +0\.0593 GB/s$"'
out=$($UNCORE --backend sim:spr,clock=manual stat -M iio_bw_write_port0 --per-box --duration 1 --json 2>&1)
check "--per-box --json: the exporter's labels pci_bdf, device, driver" \
	'echo "$out" | grep "\"box\": 2," | grep -q "\"pci_bdf\": \"0000:2d:00.0,0000:2e:00.0\", \"device\": \"card0,card1\", \"driver\": \"nvidia,nvidia\"}$"'
out=$($UNCORE --backend sim:snbep stat --per-device --duration 0.1 2>&1); rc=$?
check "a platform without IIO stacks: no group, said ($rc)" '[ $rc -eq 0 ] && echo "$out" | grep -q "# no device group with a counter of its own"'
out=$($UNCORE --backend sim:spr stat --per-device 2>&1); rc=$?
check "no duration: refused ($rc)" '[ $rc -eq 2 ] && echo "$out" | grep -q "give --duration SECONDS or -I MS"'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
