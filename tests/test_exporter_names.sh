#!/bin/sh
# uncore-exporter where other exporters' names meet it (doc/prometheus.md, "node_exporter's names" and "GPUs
# as DCGM names them"): the shipped rules giving node_exporter's names (promtool test rules, the expected
# series written from node_exporter's source), energy in the default set, and the IIO series of NVIDIA GPUs
# labelled gpu and UUID from the driver's /proc/driver/nvidia/gpus/<bdf>/information (faked below
# UNCORE_SYSROOT), so that a join with DCGM exporter's series is one on(UUID).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
S=${top_srcdir:-.}
EXP=$B/uncore-exporter UNCORE=$B/uncore
command -v promtool >/dev/null || { echo "FAIL: promtool is not installed (scripts/install-deps installs prometheus)"; exit 1; }

# --- node_exporter's names
out=$(promtool check rules "$S/exporter/prometheus/intel_uncore_node_names.yml" 2>&1)
check "promtool check rules passes the node_exporter names rules ($(echo "$out" | grep -o 'SUCCESS: [0-9]* rules found'))" '[ $? -eq 0 ]'
out=$(cd "$S/tests/fixtures" && promtool test rules node_names_test.yml 2>&1)
rc=$?
check "promtool test rules: node_rapl_{package,dram,psys}_joules_total{index} and node_uncore_frequency_{min,max}_hertz from ours" \
	'[ $rc -eq 0 ]' || echo "$out"

# --- energy in the default set: package and DRAM of each socket; not where groups are named
out=$("$EXP" --backend sim:emr --check-config 2>&1)
check "the default set exports uncore_energy_joules_total of both sockets' package and DRAM" \
	'echo "$out" | grep -q "^uncore_energy_joules_total counter, joules" && [ "$(echo "$out" | grep -c "{socket=\"[01]\",domain=\"\(pkg\|dram\)\"}")" -eq 4 ]' ||
	echo "$out" | grep -A5 energy
out=$("$EXP" --backend sim:emr --groups memory --check-config 2>&1)
check "--groups memory alone: no energy" '! echo "$out" | grep -q uncore_energy'

# --- GPUs: the simulated node's NVIDIA GPUs (one on a port of its own, two behind a switch), their driver
# files below UNCORE_SYSROOT in the format of the NVIDIA driver's /proc/driver/nvidia/gpus/<bdf>/information
SIM="sim:spr,devices=gpu@0.6.0+gpusw@0.7.0" # PCIe stacks of the board sim:spr is laid out as (PMU 1 is its DMI stack)
bdfs=$(UNCORE_SYSROOT= $UNCORE --backend "$SIM" devices | awk '$2 == "10de:2330" { print $1 }')
g0=$(echo "$bdfs" | sed -n 1p) g1=$(echo "$bdfs" | sed -n 2p) g2=$(echo "$bdfs" | sed -n 3p)
check "the simulated node has three NVIDIA GPUs ($g0 $g1 $g2)" '[ -n "$g2" ]'
R=$W/root
info() { # BDF MINOR UUID
	mkdir -p "$R/proc/driver/nvidia/gpus/$1"
	printf 'Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 312\nGPU UUID: \t %s\nVideo BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t 0xfffffffffffff\nBus Location: \t %s\nDevice Minor: \t %s\nGPU Excluded:\t No\n' \
		"$3" "$1" "$2" >"$R/proc/driver/nvidia/gpus/$1/information"
}
# minors not in the cards' order, so that gpu is seen to come from the driver's file
U0=GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52 U1=GPU-11111111-2222-3333-4444-555555555555 U2=GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee
info "$g0" 2 $U0 && info "$g1" 0 $U1 && info "$g2" 1 $U2
out=$(UNCORE_SYSROOT=$R "$EXP" --backend "$SIM" --check-config 2>&1)
one=$(echo "$out" | grep -m1 "pci_bdf=\"$g0\"")
check "a GPU's port: gpu its minor, UUID its driver's (${one})" \
	'echo "$one" | grep -qF "driver=\"nvidia\",gpu=\"2\",UUID=\"$U0\"}"'
grp=$(echo "$out" | grep -m1 "pci_bdf=\"$g1,$g2\"")
check "a switch's two GPUs: both, in pci_bdf's order (${grp})" 'echo "$grp" | grep -qF "gpu=\"0,1\",UUID=\"$U1,$U2\"}"'
# a driver file that names no minor (cut short) stands in for the simulated GPU's: that GPU is not identified
printf 'Model: \t\t NVIDIA H100 80GB HBM3\nGPU UUID: \t %s\n' $U2 >"$R/proc/driver/nvidia/gpus/$g2/information"
out=$(UNCORE_SYSROOT=$R "$EXP" --backend "$SIM" --check-config 2>&1)
check "one GPU of the switch unknown: the group has no gpu or UUID, the single GPU keeps its own" \
	'! echo "$out" | grep "pci_bdf=\"$g1,$g2\"" | grep -q UUID && echo "$out" | grep -qF "UUID=\"$U0\""'
# without UNCORE_SYSROOT the simulated node's own driver files (never the host's): card<N> is minor N, and its
# UUID the simulator's, made of the BDF and minor (doc/user-guide.md: GPU-51a0c0de-DOMAIN-BUS:DEV.FN as bus << 8 |
# dev << 3 | fn-8000-MINOR, hex)
uuid_of() { # BDF MINOR
	d=$(echo "$1" | cut -d: -f1) b=$(echo "$1" | cut -d: -f2) f=$(echo "$1" | cut -d: -f3)
	printf 'GPU-51a0c0de-%04x-%04x-8000-%012x' $((0x$d)) $(((0x$b << 8) | (0x${f%.*} << 3) | ${f#*.})) "$2"
}
minor_of() { UNCORE_SYSROOT= $UNCORE --backend "$SIM" devices | awk -v b="$1" '$1 == b { sub("card", "", $7); print $7 }'; }
m0=$(minor_of "$g0") m1=$(minor_of "$g1") m2=$(minor_of "$g2")
out=$(UNCORE_SYSROOT= "$EXP" --backend "$SIM" --check-config 2>&1)
one=$(echo "$out" | grep -m1 "pci_bdf=\"$g0\"") grp=$(echo "$out" | grep -m1 "pci_bdf=\"$g1,$g2\"")
check "a simulated node without UNCORE_SYSROOT: its own GPUs' labels, gpu=\"$m0\" UUID $(uuid_of "$g0" "$m0") ($one)" \
	'[ -n "$m0" ] && echo "$one" | grep -qF "driver=\"nvidia\",gpu=\"$m0\",UUID=\"$(uuid_of "$g0" "$m0")\"}"'
check "... and the switch's two, in pci_bdf's order ($grp)" \
	'echo "$grp" | grep -qF "gpu=\"$m1,$m2\",UUID=\"$(uuid_of "$g1" "$m1"),$(uuid_of "$g2" "$m2")\"}"'

# the join: each GPU port's write bandwidth beside DCGM's series of the same GPU, one on(UUID); DCGM's series
# as NVIDIA's dcgm-exporter README shows them (gpu, UUID), with its modelName
info "$g2" 1 $U2
lab=$(UNCORE_SYSROOT=$R "$EXP" --backend "$SIM" --check-config 2>&1 | sed -n '/^uncore_iio_write_bytes_total /,/^[a-z]/p' |
	sed -n "s/^  {\(.*pci_bdf=\"$g0\".*\)}$/\1/p")
cat >"$W/join_test.yml" <<EOF
evaluation_interval: 15s
tests:
  - interval: 15s
    input_series:
      - series: 'uncore_iio_write_bytes_total{job="uncore",instance="n1:9739",$lab}'
        values: '0+15000000000x8'
      - series: 'DCGM_FI_DEV_GPU_UTIL{job="dcgm",instance="n1:9400",gpu="2",UUID="$U0",device="nvidia2",modelName="NVIDIA H100 80GB HBM3"}'
        values: '90x8'
      - series: 'DCGM_FI_DEV_GPU_UTIL{job="dcgm",instance="n1:9400",gpu="0",UUID="$U1",device="nvidia0",modelName="NVIDIA H100 80GB HBM3"}'
        values: '10x8'
    promql_expr_test:
      - expr: sum by (UUID, gpu) (rate(uncore_iio_write_bytes_total[1m])) * on (UUID) group_left (modelName) (DCGM_FI_DEV_GPU_UTIL > bool 50)
        eval_time: 2m
        exp_samples:
          - labels: '{UUID="$U0",gpu="2",modelName="NVIDIA H100 80GB HBM3"}'
            value: 1000000000
EOF
out=$(promtool test rules "$W/join_test.yml" 2>&1)
rc=$?
check "promtool: the exporter's GPU series joins DCGM's with one on(UUID) (labels $lab)" '[ $rc -eq 0 ] && [ -n "$lab" ]' || echo "$out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
