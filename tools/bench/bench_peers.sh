#!/bin/sh
# make bench (issue 90 item 4): the register accesses of three tools doing the same job, a socket's memory read
# and write bandwidth once a second on a simulated Skylake-SP, counted by the machine's host (tests/peers/sim_host)
# as each tool reaches it through the device files (tests/peers/devfiles.c):
#   - ours: `uncore --backend direct stat -M mem_bw_read,mem_bw_write -I 1000`, the library's real host path;
#   - PCM 202302's pcm-memory and likwid 5.2.2's `likwid-perfctr -g MEM -t 1s`, unmodified, under qemu-x86_64
#     with the preload, as the peer test (tests/test_peers_*.sh) runs them (the machinery is tests/peers/peers.sh, shared).
# The host writes its counts when asked (SIGUSR1: DIR/snap.N) between two requests; each time a tool prints a
# sample the counts are taken (it reads again a second later), so the accesses of its samples are told from its
# start-up (the programming) and its exit (the clean-up).  It prints numbers and asserts nothing; a tool that is
# missing is left out with the reason.
#     tools/bench/bench_peers.sh [BUILDDIR]     (BUILDDIR: where uncore and tests/peers/sim_host are built)
B=${1:-.}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM HUP
no() { echo "bench peers: $1: failed"; return 1; }
machine() { HOSTDIR=$W/$1 SIM="sim:$2,shared=$W/$1.machine"; } # the simulator's default profile
. "$SRC/tests/peers/peers.sh"
peer_release host # the host's own peers (QEMU, PCM_*, LIKWID, LUA)
UNCORE=$B/uncore
[ -x "$HOST" ] && [ -x "$UNCORE" ] || { echo "bench peers: build $HOST and $UNCORE first (make bench does)"; exit 1; }

# The job's counters: CAS_COUNT.RD and .WR of each of a Skylake-SP socket's 6 iMC channels (2 controllers of 3:
# Linux skx_uncore_imc num_boxes 6), PCI boxes of 48-bit counters (perf_ctr_bits 48), each two configuration
# dwords to read (a configuration request carries one: tools/bench/access_floor.h)
CHANNELS=6 COUNTERS=12 FLOOR=24
SAMPLES=9 # printed by each tool; samples 3-8 are the steady state measured (1 is its start, 9 its end)

# snap: the host's counts now, into $HOSTDIR/snap.$SNAPS
snap() {
	SNAPS=$((SNAPS + 1))
	kill -USR1 "$HOSTPID"
	j=0
	while [ ! -e "$HOSTDIR/snap.$SNAPS" ] && [ $j -lt 200 ]; do sleep 0.01; j=$((j + 1)); done
}
# watch: run while a tool runs (every 0.1 s); when it has printed more samples (MARKS, a command), the counts
# are taken: $W/marks gets "samples-printed snapshot"
watch() {
	m=$(eval "$MARKS")
	[ "${m:-0}" -gt "$SEEN" ] || return 0
	snap
	SEEN=$m
	echo "$m $SNAPS" >>"$W/marks"
}
begin() { # NAME SPEC: a fresh machine, nothing seen yet
	rm -f "$W/marks"
	SNAPS=0 SEEN=0
	start_host "$1" "$2"
}

# report TOOL WHAT: the accesses by space until its first sample, a sample in the steady state (the samples
# between the first and the last snapshot taken after samples 2..SAMPLES-1), and from there to its exit
report() {
	stop_host
	awk -v tool="$1" -v what="$2" -v dir="$HOSTDIR" -v marks="$W/marks" -v final="$COUNTS" -v last=$((SAMPLES - 1)) \
		-v floor=$FLOOR -v counters=$COUNTERS -v summary="$W/summary" '
	function load(f, a,   k, line, n) { delete a; while ((getline line < f) > 0) { split(line, k, " "); if (k[1] != "refused") a[k[1]] = k[2] } close(f) }
	BEGIN {
		split("msr_reads msr_writes pci_reads pci_writes mmio_reads mmio_writes core_reads core_writes", key, " ")
		while ((getline line < marks) > 0) { split(line, k, " "); snapof[k[1]] = k[2] }
		for (m in snapof) { m += 0; if (m == 1) first = 1; if (m >= 2 && m <= last && (!a || m < a)) a = m; if (m >= 2 && m <= last && m > b) b = m }
		load(final, F)
		if (!first || !a || b <= a) {
			printf "  %-12s %s: its samples were not seen apart (snapshots at samples:", tool, what
			for (m in snapof) printf " %s", m
			printf "); in all, from its start to its exit:"
			for (i = 1; i <= 8; i++) printf " %s %d", key[i], F[key[i]]
			print ""
			exit
		}
		load(dir "/snap." snapof[1], S1); load(dir "/snap." snapof[a], A); load(dir "/snap." snapof[b], Z)
		# each sample of the window alone; the accesses of a sample are the median of theirs, space by space (a
		# snapshot a loaded machine took late moves accesses from one sample to the next: the median keeps
		# the samples that were taken apart), and the list shows how steady they are
		np = 0; steady = ""; prev = a
		for (m = a + 1; m <= b; m++) if (m in snapof) {
			load(dir "/snap." snapof[prev], P); load(dir "/snap." snapof[m], Q)
			np++; t = 0
			for (i = 1; i <= 8; i++) { d[i, np] = (Q[key[i]] - P[key[i]]) / (m - prev); if (i <= 6) t += d[i, np] }
			steady = steady sprintf(" %g", t); prev = m
		}
		for (i = 1; i <= 8; i++) {
			for (j = 1; j <= np; j++) x[j] = d[i, j]
			per[i] = median(x, np)
			start[i] = S1[key[i]] - per[i]; end[i] = F[key[i]] - Z[key[i]] - per[i]
		}
		unc = 0; rd = 0
		for (i = 1; i <= 6; i++) { unc += per[i]; if (i % 2) rd += per[i] }
		printf "  %-12s %s\n", tool, what
		row("a sample (samples " a + 1 "-" b ")", per)
		row("start-up (to its first sample, less one sample)", start)
		row("exit (after its last sample, less one sample)", end)
		printf "    uncore accesses each sample:%s; %.2f per counter read once (%d accesses read the job'"'"'s %d counters once; limit 1.25), reads alone %.2f; the simulator'"'"'s unfrozen_ctl_writes %d by its exit, %d while it sampled\n", \
			steady, unc / floor, floor, counters, rd / floor, F["unfrozen_ctl_writes"], Z["unfrozen_ctl_writes"] - S1["unfrozen_ctl_writes"]
		printf "    %-12s %5.1f / %-5.1f %7.1f / %-5.1f %5.1f / %-5.1f %5.1f / %-5.1f %6.2f (%.2f)\n", tool, per[1], per[2], per[3], per[4], \
			per[5], per[6], per[7], per[8], unc / floor, rd / floor >>summary
	}
	function median(x, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	function row(label, v) {
		printf "    %-48s MSR %6.1f r %6.1f w | PCI config %6.1f r %6.1f w | MMIO %5.1f r %5.1f w | core PMU and TSC %5.1f r %5.1f w\n", \
			label, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
	}'
}

echo "bench peers: register accesses for one socket's memory read and write bandwidth once a second, sim:skx (SIMULATED): ours, pcm-memory, likwid -g MEM, each through the device files"
echo "  (the job: CAS_COUNT.RD and .WR of the socket's $CHANNELS iMC channels, $COUNTERS PCI counters of 48 bits, $FLOOR configuration dwords to read each once)"

# ours, on the machine of each peer (one socket for PCM, two for likwid: socket 0's alone)
ours_on() { # NAME SPEC METRICS LABEL
	begin "$1" "$2" || return
	MARKS="grep -c mem_bw_read $W/$1.out 2>/dev/null"
	PEER_HOST_DIR="$HOSTDIR" LD_PRELOAD="$PRELOAD" UNCORE_CLAIMS="$W/$1.claims" \
		"$UNCORE" --backend direct stat -M "$3" -I 1000 --duration $SAMPLES -x, >"$W/$1.out" 2>"$W/$1.err" &
	p=$!
	while kill -0 $p 2>/dev/null; do
		watch
		sleep 0.1
	done
	wait $p || { head -c 300 "$W/$1.err"; echo; }
	report "$4" "direct backend, \`uncore stat -M $3 -I 1000\` on sim:$2"
}
ours_on o1 skx,sockets=1,cores=1 mem_bw_read,mem_bw_write "ours"
ours_on o2 skx,sockets=2,cores=2 mem_bw_read:socket=0,mem_bw_write:socket=0 "ours, 2 skt"

if [ -z "$QEMU" ]; then
	echo "  pcm-memory, likwid: not measured: no qemu-x86_64 (Debian's qemu-user, scripts/install-deps): they need a CPUID that says Intel"
elif [ -z "$PCM_MEMORY" ]; then
	echo "  pcm-memory: not measured: $PCM_WHY"
else
	# one socket of one core, as the peer test runs it (qemu-user's CPUID topology: D6); -nc: no channel rows
	begin pm skx,sockets=1,cores=1 || exit 1
	MARKS="grep -c 'NODE 0 Mem Read' $W/pm.out 2>/dev/null"
	PEER_WATCH=watch peer "$W/pm.out" "Skylake-Server$PCM_CPU" "$PCM_MEMORY" 1 -i=$SAMPLES -nc
	PEER_WATCH=
	report pcm-memory "PCM $PCM_VER \`pcm-memory 1 -i=$SAMPLES -nc\` on sim:skx,sockets=1,cores=1 (qemu -cpu Skylake-Server$PCM_CPU)"
fi
if [ -z "$QEMU" ]; then
	:
elif [ -z "$LIKWID" ] || [ -z "$LUA" ]; then
	echo "  likwid-perfctr: not measured: likwid (and lua5.3) are not installed (Debian's likwid, scripts/install-deps)"
else
	# two sockets (with one hwloc puts the uncore functions at its root and likwid 5.2.2 crashes: likwid issue
	# 435), socket 0's first CPU alone; direct access (-M 0: its access daemon is a native program, which
	# qemu-user cannot give the simulated CPUID); -t 1s: its timeline mode, a line a sample on stderr, while
	# `sleep` runs
	begin lw skx,sockets=2,cores=2 || exit 1
	MARKS="grep -cE '^1 [0-9]+ [0-9]+ [0-9.]+' $W/lw.out.err 2>/dev/null"
	PEER_WATCH=watch peer "$W/lw.out" Skylake-Server "$LUA" "$LIKWID" -M 0 -c S0:0 -g MEM -t 1s sleep $((SAMPLES + 1))
	PEER_WATCH=
	report likwid "likwid $(dpkg-query -W -f '${Version}' likwid 2>/dev/null) \`likwid-perfctr -M 0 -c S0:0 -g MEM -t 1s\` on sim:skx,sockets=2,cores=2 (qemu -cpu Skylake-Server)"
fi

# Debian 13's peers (PCM 202502, likwid 5.4.1) beside ours on Sapphire Rapids, whose iMC channels are MMIO boxes of the
# discovery tables: the host's own where it runs Debian 13, else those of a trixie root beside the build (made once,
# as the peer test makes it; not measured where it cannot be made)
peer_release trixie
if [ -n "$RELEASE_WHY" ] || [ -z "$QEMU" ]; then
	echo "  Debian 13's peers: not measured: ${RELEASE_WHY:-no qemu-x86_64 in the trixie root}"
else
	CHANNELS=8 COUNTERS=16 FLOOR=16 # socket 0's 8 channels (sim:spr), a 64-bit MMIO counter read once each
	echo "  sim:spr: CAS_COUNT.RD and .WR of socket 0's $CHANNELS iMC channels, $COUNTERS MMIO counters of 64 bits, $FLOOR reads to read each once"
	ours_on o3 spr,sockets=1,cores=1 mem_bw_read,mem_bw_write "ours, spr"
	if [ -n "$PCM_MEMORY" ]; then
		begin pm13 spr,sockets=1,cores=1 || exit 1
		MARKS="grep -c 'SKT  0 Mem Read' $W/pm13.out 2>/dev/null"
		PEER_WATCH=watch peer "$W/pm13.out" "SapphireRapids$PCM_CPU" "$PCM_MEMORY" 1 -i=$SAMPLES -nc
		PEER_WATCH=
		report "pcm $PCM_VER" "PCM $PCM_VER \`pcm-memory 1 -i=$SAMPLES -nc\` on sim:spr,sockets=1,cores=1 (qemu -cpu SapphireRapids$PCM_CPU)"
	fi
	if [ -n "$LIKWID" ] && [ -n "$LUA" ]; then
		begin lw13 spr,sockets=2,cores=2 || exit 1
		MARKS="grep -cE '^1 [0-9]+ [0-9]+ [0-9.]+' $W/lw13.out.err 2>/dev/null"
		PEER_WATCH=watch peer "$W/lw13.out" SapphireRapids "$LUA" "$LIKWID" -M 0 -c S0:0 -g MEM -t 1s sleep $((SAMPLES + 1))
		PEER_WATCH=
		report "likwid $LIKWID_VER" "likwid $LIKWID_VER \`likwid-perfctr -M 0 -c S0:0 -g MEM -t 1s\` on sim:spr,sockets=2,cores=2 (qemu -cpu SapphireRapids; its socket 0 is the simulator's socket 1, D6)"
	fi
fi
if [ -s "$W/summary" ]; then
	echo "  side by side, a sample (reads / writes; the limit is one read a counter: 1.00, or 1.25 with ours' read-back):"
	echo "    tool           MSR r / w     PCI config r / w   MMIO r / w   core PMU r / w  accesses per counter read once (reads alone)"
	cat "$W/summary"
	echo "    (ours reads each PCI block twice here: through the device files a block takes longer than the 50 us after"
	echo "    which the library reads it again, for a carry between its dwords (common/regs/regs.c); on hardware and on"
	echo "    the simulator's backend once: \"bench skx_job\"; likwid -M 0 reads one dword of each 48-bit counter: doc/cost.md)"
fi
