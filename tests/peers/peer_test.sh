# Sourced by the pieces of the peer test, tests/test_peers_*.sh (after tests/check.sh: ok, no, check, $W): what
# they share.  Peers count on our machines (issue 90 items 2 and 3).  A simulated machine is presented behind a
# node's device files (tests/peers/sim_host.c serves its registers through the simulator's public raw-register API,
# tests/peers/devfiles.c is the LD_PRELOAD that puts them behind /dev/cpu/N/msr, PCI configuration space and
# /dev/mem), and counted by programs that know nothing of it:
#   - the library's own direct backend (the real host path: pread/pwrite of the MSR device, libpci's sysfs
#     configuration space, /dev/mem windows whose loads and stores fault into the simulator's registers), on one
#     and two sockets, MSR (CHA), PCI (SKX iMC) and MMIO (ICX iMC) units;
#   - unmodified PCM and likwid of Debian 12 (202302, 5.2.2) and Debian 13 (202502, 5.4.1) under qemu-x86_64, whose
#     CPUID is the simulated part's.
# Each counts a workload profile of the test's own (the truth, machines.sh), within 1 %, and beside `uncore stat` on
# the same shared machine (shared=FILE).  The simulator's protocol checks are printed and each refused register
# named (protocol.sh): one the simulator does not model yet is a known disagreement of issue 90 (D2 MSR 0x700, D3
# 0x702, D4 the SKX UBox's 08.2, D5 0xCE, and D9: uncore functions without a NUMA node, where a real board, the
# Lenovo SR650 of tests/snapshots/field/clx-sr650-2s, gives each its socket's; all modelled on sim:skx now), or one
# a peer's release programs that the part has not (D8: PCM 202302's SPR stacks 10-11 and middle channels); any
# other fails.  A peer check that needs what the simulator lacks is skipped naming it, found by asking the
# simulator (sim_host --probe), never passed; a peer wrong where the simulator keeps a real board's truth (D6: PCM's
# sockets; D11: likwid's UPI bus) is a SKIP line naming it with both sides' numbers.  Where qemu-user, PCM or
# likwid are missing, their checks are skipped, saying so.
# The peers mostly wait (on qemu, on their own sleeps), so the test is cut into pieces that make check runs side by
# side (issue 99): each piece its own scratch directory $W, and in it its machines (HOSTDIR, their sockets and
# traces) and preload; a root of another Debian release is made once, under a lock the other pieces wait on
# (peers.sh make_root).  No check depends on the pieces' order or on an idle host: every window is the one the
# simulator counted (the trace), never the wall clock.
B=${top_builddir:-.}
SRC=${top_srcdir:-.}
UNCORE=$B/uncore
skip() { echo "SKIP: $1"; }

. "$SRC/tests/peers/peers.sh" # HOST, PRELOAD, start_host, stop_host, count, has, peer, peer_release
# every served machine traces its accesses (HOSTDIR/trace: the windows the simulator counted, the control writes
# made while a box counted)
export PEER_TRACE=1
. "$SRC/tests/peers/machines.sh" # the truth (profiles), machine, ours, value, near, mul, fn_bus; TSC, apart
. "$SRC/tests/peers/protocol.sh" # protocol, core_regs
. "$SRC/tests/peers/pcm_memory.sh" # pcm_memory, pcm_memory2, refused
. "$SRC/tests/peers/pcm_io.sh" # pcm_pcie, pcm_iio
. "$SRC/tests/peers/pcm_main.sh" # pcm_main, pcm_power, tspan
. "$SRC/tests/peers/likwid.sh" # likwid

# release12: Debian 12's peers (the host's, or a bookworm root's on a Debian 13 host): QEMU, PCM_*, LIKWID, LUA;
# false where there is no qemu-user, saying so.  Their output is read as PCM 202302 prints it; another release is
# left out, saying so
release12() {
	peer_release bookworm
	[ -z "$RELEASE_WHY" ] || skip "Debian 12's peers: $RELEASE_WHY"
	case "$PCM_VER" in
	202302*|"") ;;
	*) PCM_MEMORY= PCM_PCIE= PCM_IIO= PCM= PCM_WHY="PCM $PCM_VER is Debian 12's here: this part reads the output of PCM 202302" ;;
	esac
	[ -n "$QEMU" ] && return
	skip "the peers: no qemu-x86_64 (Debian's qemu-user, scripts/install-deps): PCM and likwid need a CPUID that says Intel"
	return 1
}

# release13: Debian 13's peers (issue 97): PCM 202502, likwid 5.4.1 and qemu 10, whose CPU models include Sapphire
# Rapids, Granite Rapids and Sierra Forest, from the host or a trixie root beside the build, serving the same
# simulated machines through the same harness; false where there are none, saying why
release13() {
	peer_release trixie
	if [ -n "$RELEASE_WHY" ]; then
		skip "Debian 13's peers: $RELEASE_WHY"
		return 1
	elif [ -z "$QEMU" ]; then
		skip "Debian 13's peers: no qemu-x86_64 in the $RELEASE root"
		return 1
	fi
	echo "Debian 13's peers ($RELEASE${QEMU_L:+, a root beside the build}): PCM $PCM_VER, likwid $LIKWID_VER, $("$QEMU" --version | head -1)"
}
