# Sourced by peer_test.sh: the simulated machines the peers count, with the truth they are given (the profiles),
# and what the checks read of them: the served tree's buses (fn_bus), `uncore stat` on the same machine (ours)

# The truth: each socket's memory reads and writes, LLC miss ratio, UPI and I/O traffic (doc/user-guide.md,
# "Simulator profile"), none of them the defaults.
QPI_UTIL0=0.25 QPI_UTIL1=0.45 # two sockets: each link's use (its flits, data and not, of 2 a QPI or 3 a UPI clock)
LAT0=85 LAT1=115 # two sockets: an LLC data-read miss's latency, ns
# The machine's TSC rate, kept apart from the host's.  PCM times every window by the time stamp over the nominal
# rate, PLATFORM_INFO's (0xCE) ratio x 100 MHz (cpucounters.cpp getTickCount, detectNominalFrequency), and takes
# the stamp from RDTSCP where CPUID has it, else from MSR 0x10 (getInvariantTSC_Fast).  Under qemu-user RDTSCP
# answers the host's TSC, which ticks at the host's own rate (2.3 GHz on an Emerald Rapids host, 2.445 on an EPYC),
# so PCM's CPU models go without it (PCM_CPU, peers.sh) and it reads the simulated machine's MSR 0x10, at the
# profile's rate.  That rate is 2.6 GHz, or 3.4 GHz where the host's is within 10 % of 2.6: a PCM timed by the
# host would then be 10 % off or more on every host, and its checks would say so.  (The host is every piece's:
# test_peers_memory.sh judges it, once.)
HOST_TSC=$("$HOST" --host-tsc)
TSC=2.6e9
apart() { awk -v h="$HOST_TSC" -v t="$TSC" 'BEGIN { d = (h - t) / t; exit !(h > 0 && (d >= 0.1 || d <= -0.1)) }'; }
apart || TSC=3.4e9
for n in 1 2; do
	{
		echo "tsc_hz = $TSC"
		echo "socket0.mem_read_bytes_per_s = 9.6e9"
		echo "socket0.mem_write_bytes_per_s = 3.2e9"
		echo "socket0.llc_miss_ratio = 0.2"
		echo "socket0.upi_rx_bytes_per_s = 4.0e9"
		echo "socket0.upi_tx_bytes_per_s = 3.0e9"
		echo "socket0.iio_in_bytes_per_s = 2.0e9"
		echo "socket0.iio_out_bytes_per_s = 1.0e9"
		# one socket: an NVMe drive's DMA beside the profile's I/O (the pcm-iio and pcm-pcie machines hold one on
		# port 1 of a stack), at rates of this test's own; the boards' other devices move nothing (sim:icx's
		# eight CBDMA engines and its BMC's NIC: doc/user-guide.md, "PCI devices"), and the profile's I/O rides
		# port 2 of each stack, which no device holds on these boards (Skylake-SP's model keeps it on port 0)
		[ $n = 2 ] || printf '%s\n' "device.nvme.in_bytes_per_s = 1.5e9" "device.nvme.out_bytes_per_s = 0.5e9" \
			"device.nvme.overhead_ratio = 0.02" "device.nic.in_bytes_per_s = 0" "device.nic.out_bytes_per_s = 0" \
			"device.cbdma.in_bytes_per_s = 0" "device.cbdma.out_bytes_per_s = 0" "socket0.iio_port0_share = 0" \
			"socket0.iio_port1_share = 0" "socket0.iio_port2_share = 1" "socket0.iio_port3_share = 0" \
			"socket0.iio_port4_share = 0" "socket0.iio_port5_share = 0" "socket0.iio_port6_share = 0" \
			"socket0.iio_port7_share = 0" "socket0.llc_lookups_per_s = 1.2e9"
		[ $n = 1 ] || printf '%s\n' "socket1.mem_read_bytes_per_s = 6.4e9" "socket1.mem_write_bytes_per_s = 2.4e9" \
			"socket1.llc_miss_ratio = 0.35" "socket1.upi_rx_bytes_per_s = 3.0e9" "socket1.upi_tx_bytes_per_s = 4.0e9" \
			"socket0.qpi_link_util = $QPI_UTIL0" "socket1.qpi_link_util = $QPI_UTIL1" \
			"socket0.llc_miss_latency_ns = $LAT0" "socket1.llc_miss_latency_ns = $LAT1"
		# two sockets: the uncore clock and each package's power (likwid's CLOCK group), at values of this test's own
		[ $n = 1 ] || printf '%s\n' "uncore_clock_hz = 2.4e9" "socket1.pkg_watts = 95"
		# and each socket's DRAM power: its idle watts and watts per GB/s of its memory's reads and writes
		# (sim_rapl.c), at values of this test's own: 5 + 0.5 x 12.8 = 11.4 W and 7 + 0.25 x 8.8 = 9.2 W (PCM's;
		# socket 0's, with its package's, pcm-power's on one socket too)
		printf '%s\n' "socket0.pkg_watts = 150" "socket0.dram_idle_watts = 5" "socket0.dram_watts_per_gbps = 0.5"
		[ $n = 1 ] || printf '%s\n' "socket1.dram_idle_watts = 7" "socket1.dram_watts_per_gbps = 0.25"
	} >"$W/profile$n"
done
RD0=9.6e9 WR0=3.2e9 RD1=6.4e9 WR1=2.4e9
# socket 0's I/O with the drive: what its port counts is its payload and 2 % overhead (doc/user-guide.md, "PCI
# devices"); the profile's share of a stack is on a port without it.  The drive sits on stack 1, port 1
# (Skylake-SP, Ice Lake-SP), or stack 2 on Sapphire Rapids, whose stack 1 is the DMI's (platforms/spr/board.c)
IO_DEVS=devices=nvme@0.1.1 IO_DEVS_SPR=devices=nvme@0.2.1
NVME_IN=1.53e9 NVME_OUT=0.51e9
IO_IN=3.53e9 IO_OUT=1.51e9
LOOKUPS=1.2e9 # socket 0's LLC lookups a second: the cores' data reads (DRd) the CHAs take

# within 1 % of b
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && m > 0 && d <= 0.01 * m) }'; }
mul() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6g", a * b }'; }

# the machine of NAME and SPEC (start_host: tests/peers/peers.sh)
machine() { # NAME SPEC: HOSTDIR and SIM, nothing started
	HOSTDIR=$W/$1
	case $2 in *sockets=1*) prof=$W/profile1 ;; *) prof=$W/profile2 ;; esac
	SIM="sim:$2,profile=$prof,shared=$W/$1.machine"
}

# `uncore stat` of metrics on the machine: CSV rows time,socket,box,name,value,...
ours() { # BACKEND OUT METRICS [env...]
	be=$1 out=$2 metrics=$3
	shift 3
	env "$@" "$UNCORE" --backend "$be" stat -M "$metrics" --duration 1 -x, >"$out" 2>"$out.err"
}
value() { awk -F, -v s="$2" -v n="$3" '$2 == s && $4 == n { v = $5 } END { print v }' "$1"; }

# the bus of the function at DEV.FN with device id 8086:ID on NUMA node NODE (a socket's), from the served machine's
# sysfs tree, as hwloc, and so likwid, places it; where the function has no node (-1: Broadwell-EP's boards), the
# socket its bus's UBox names (ubox_socket, the host running)
fn_bus() { # ID DEV.FN NODE
	for f in "$HOSTDIR"/root/sys/bus/pci/devices/0000:??:"$2"; do
		[ -e "$f/device" ] && [ "$(cat "$f/device")" = "0x$1" ] || continue # (none: a part without PCI uncore)
		n=$(cat "$f/numa_node") b=${f%:*}
		b=${b##*:}
		[ "$n" != -1 ] || n=$(ubox_socket "$b")
		[ "$n" = "$3" ] && { echo "$b"; return; }
	done
}
# the socket of Haswell-EP's or Broadwell-EP's uncore bus BUS as Linux reads it (snbep_pci2phy_map_init): its UBox
# (10.5) holds the node id in CPUNODEID (0x40) bits 2:0, and GIDNIDMAP (0x54) a node id of 3 bits for each socket;
# the socket is the field that holds it.  Read live through the preload (the tree's config files hold no registers).
ubox_socket() { # BUS
	ubox_rd() { PEER_HOST_DIR="$HOSTDIR" LD_PRELOAD="$PRELOAD" dd if=/sys/bus/pci/devices/0000:$1:10.5/config bs=4 skip=$2 \
		count=1 2>/dev/null | od -An -tu4; }
	awk -v n="$(ubox_rd "$1" 16)" -v m="$(ubox_rd "$1" 21)" 'BEGIN { for (i = 0; i < 8; i++) if (int(m / 8 ^ i) % 8 == n % 8) { print i; exit } }'
}
