# Sourced by tests/test_peers.sh and tools/bench/bench_peers.sh (issue 90): a simulated machine served behind a
# node's device files (sim_host.c) and the peers that count it under qemu-user with the preload (devfiles.c).
# The script that sources it sets B (the build tree), SRC (the sources), W (its scratch directory) and defines
# no MESSAGE (a failure it reports) and machine NAME SPEC (sets HOSTDIR, the host's directory, and SIM, the
# backend sim:SPEC...,shared=FILE that `uncore` counts the same machine with).
HOST=$B/tests/peers/sim_host
PRELOAD=$W/devfiles.so
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:handle_segv=0:allow_user_segv_handler=1"
export ASAN_OPTIONS

# the preload, without the sanitizers: it runs inside other programs (PCM, likwid, qemu's guest)
cc -std=gnu11 -shared -fPIC -O2 -Wall -Wextra -Wl,-z,now -o "$PRELOAD" "$SRC/tests/peers/devfiles.c" -ldl -lpthread \
	>"$W/cc.log" 2>&1 || { cat "$W/cc.log"; no "the preload builds"; }

# start_host NAME SPEC: a machine served from $W/NAME (HOSTDIR), shared with `uncore --backend $SIM`
start_host() {
	machine "$1" "$2"
	mkdir -p "$HOSTDIR"
	"$HOST" "${SIM#sim:}" "$HOSTDIR" >"$HOSTDIR.log" 2>&1 &
	HOSTPID=$!
	i=0
	while [ ! -e "$HOSTDIR/ready" ] && [ $i -lt 1200 ] && kill -0 $HOSTPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	[ -e "$HOSTDIR/ready" ] || { cat "$HOSTDIR.log"; no "sim_host $2 starts"; }
}
# stop_host: the host ends, writing its counts (COUNTS)
stop_host() {
	kill $HOSTPID 2>/dev/null
	wait $HOSTPID
	COUNTS=$HOSTDIR/counts
	! grep -qE "runtime error|Sanitizer" "$HOSTDIR.log" || { cat "$HOSTDIR.log"; no "sim_host on ${SIM#sim:} ran clean under the sanitizers"; }
}
count() { awk -v k="$1" '$1 == k { print $2 }' "$COUNTS"; }
# whether the simulator models a register: probe msr CPU REG | pciid VENDOR DEVICE (a private machine)
has() { "$HOST" --probe "${SIM#sim:}" "$@" >/dev/null 2>&1; }

# peer OUT CPU PROGRAM ARGS...: the program under qemu-user with the preload, at most 90 s; one that has failed an
# assertion is stopped at once (PCM 202302's SIGABRT handler waits on after its clean-up).  PEER_WATCH, where set,
# is a command run every 0.1 s while the program runs.
peer() {
	out=$1 cpu=$2
	shift 2
	PEER_HOST_DIR="$HOSTDIR" "$QEMU" -cpu "$cpu" -E LD_PRELOAD="$PRELOAD" "$@" >"$out" 2>"$out.err" &
	p=$!
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt 900 ]; do
		grep -q "Assertion .* failed" "$out.err" 2>/dev/null && break
		${PEER_WATCH:-:}
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 $p 2>/dev/null && { kill -KILL $p; echo "(stopped after $((i / 10)) s)" >>"$out.err"; }
	wait $p 2>/dev/null
}

# PCM's CPU models go without RDTSCP: where CPUID has it PCM takes its time stamps from it, which qemu-user answers
# with the host's TSC; without it PCM reads MSR 0x10, the simulated machine's (tests/test_peers.sh, issue 96)
PCM_CPU=,-rdtscp
# the peers, and why one is left out
QEMU=$(command -v qemu-x86_64)
PCM_MEMORY=$(PATH=$PATH:/usr/sbin:/sbin command -v pcm-memory)
PCM_PCIE=$(PATH=$PATH:/usr/sbin:/sbin command -v pcm-pcie)
PCM_IIO=$(PATH=$PATH:/usr/sbin:/sbin command -v pcm-iio)
# the tools' output is read as PCM 202302 (Debian 12) prints it; another release (Debian 13's 202502 prints its
# tables otherwise: every bandwidth read 0 here) is left out, saying so, until its output is read too
PCM_WHY="PCM is not installed (Debian's pcm, scripts/install-deps)"
PCM_VER=$(dpkg-query -W -f '${Version}' pcm 2>/dev/null)
case "$PCM_VER" in
202302*|"") ;;
*) PCM_MEMORY= PCM_PCIE= PCM_IIO= PCM_WHY="PCM $PCM_VER is installed: this test reads the output of PCM 202302 (Debian 12), and $PCM_VER prints its tables otherwise (issue 90)" ;;
esac
LIKWID=$(command -v likwid-perfctr)
LIKWID_VER=$(dpkg-query -W -f '${Version}' likwid 2>/dev/null)
LUA=$(command -v lua5.3)
