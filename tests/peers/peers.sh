# Sourced by the peer test (tests/peers/peer_test.sh) and tools/bench/bench_peers.sh (issue 90): a simulated
# machine served behind a node's device files (sim_host.c) and the peers that count it under qemu-user with the
# preload (devfiles.c).
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

# PEER_LIMIT: the seconds a peer may run before it is stopped, a guard against a hang, not a measure: far above what
# a loaded run takes (PCM 202502's pcm-pcie, 32 s of counting, took 90 s and more beside the other pieces of the test at load 12)
PEER_LIMIT=300
# peer OUT CPU PROGRAM ARGS...: the program under qemu-user with the preload, at most PEER_LIMIT s; one that has failed an
# assertion is stopped at once (PCM 202302's SIGABRT handler waits on after its clean-up).  PEER_WATCH, where set,
# is a command run every 0.1 s while the program runs.
peer() {
	out=$1 cpu=$2
	shift 2
	PEER_HOST_DIR="$HOSTDIR" "$QEMU" ${QEMU_L:+-L "$QEMU_L"} -cpu "$cpu" -E LD_PRELOAD="$PRELOAD" "$@" >"$out" 2>"$out.err" &
	p=$!
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt $((PEER_LIMIT * 10)) ]; do
		grep -q "Assertion .* failed" "$out.err" 2>/dev/null && break
		${PEER_WATCH:-:}
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 $p 2>/dev/null && { kill -KILL $p; echo "(stopped after $((i / 10)) s)" >>"$out.err"; }
	wait $p 2>/dev/null
}

# PCM's CPU models go without RDTSCP: where CPUID has it PCM takes its time stamps from it, which qemu-user answers
# with the host's TSC; without it PCM reads MSR 0x10, the simulated machine's (tests/peers/machines.sh, issue 96)
PCM_CPU=,-rdtscp
# make_root CODENAME DIR: a minbase root of Debian release CODENAME with its pcm, likwid and qemu-user, made once
# (mmdebstrap, about 3 minutes on 2 loaded cores) and kept; one maker at a time; RELEASE_WHY where it cannot be made
make_root() {
	[ -e "$2/.made" ] && return 0
	command -v mmdebstrap >/dev/null || { RELEASE_WHY="no mmdebstrap to make a $1 root with (scripts/install-deps)"; return 1; }
	mkdir -p "${2%/*}" || { RELEASE_WHY="cannot make ${2%/*}"; return 1; }
	(
		flock 9
		[ -e "$2/.made" ] && exit 0
		rm -rf "$2"
		mmdebstrap --variant=minbase --include=pcm,likwid,qemu-user,lua5.3 "$1" "$2" >"$2.log" 2>&1 && touch "$2/.made"
	) 9>"$2.lock"
	[ -e "$2/.made" ] || { RELEASE_WHY="a Debian $1 root could not be made here (mmdebstrap: $(tail -1 "$2.log" 2>/dev/null))"; return 1; }
}

# peer_release CODENAME | host: the peers of Debian release CODENAME (bookworm: PCM 202302, likwid 5.2.2, qemu 7.2;
# trixie: PCM 202502, likwid 5.4.1, qemu 10.0), the host's own where the host runs that release (host: whatever it
# runs), else those of a root of that release kept beside the build ($B/peer-roots/CODENAME, issue 97), run by its
# own qemu-user with -L (QEMU_L: the guest's loader, libraries and files from the root; the preload and the served
# tree are the host's, paths the root has not).  Sets QEMU, QEMU_L, PCM_MEMORY, PCM_PCIE, PCM_IIO, PCM_POWER, PCM, PCM_VER,
# LIKWID, LIKWID_VER, LUA, and RELEASE_WHY where the release has none.
peer_release() {
	QEMU= QEMU_L= PCM_MEMORY= PCM_PCIE= PCM_IIO= PCM_POWER= PCM= PCM_VER= LIKWID= LIKWID_VER= LUA= RELEASE_WHY=
	here=$( (. /etc/os-release && echo "$VERSION_CODENAME") 2>/dev/null)
	r=
	if [ "$1" != host ] && [ "$1" != "$here" ]; then
		r=$B/peer-roots/$1
		make_root "$1" "$r" || return 0
		QEMU_L=$r
	fi
	RELEASE=${1#host}
	RELEASE=${RELEASE:-$here}
	# a tool of the release: the root's file, or the host's command
	tool() { if [ -n "$r" ]; then [ -x "$r$1" ] && echo "$r$1"; else PATH=$PATH:/usr/sbin:/sbin command -v "${1##*/}"; fi; }
	ver() { dpkg-query ${r:+--admindir="$r/var/lib/dpkg"} -W -f '${Version}' "$1" 2>/dev/null; }
	QEMU=$(tool /usr/bin/qemu-x86_64)
	if [ -n "$r" ]; then # (the root's files only: never the host's)
		# (under the root's lock, make_root's: the pieces of the test that run side by side take the same root;
		# the wrapper is renamed into place whole, so a peer of another piece never runs half of it)
		dyn= # a dynamically linked qemu (Debian 12's; 13's is static) runs with the root's own loader and libraries
		[ -n "$QEMU" ] && readelf -l "$QEMU" 2>/dev/null | grep -q "program interpreter" && dyn=1
		(
			flock 9
			# the guest's loader, which qemu's -L finds in the root: Debian 12 links it absolutely (/lib/...),
			# which reaches the host's loader (glibc 2.41 on a Debian 13 host, aborting the root's 2.36 libc:
			# "stack smashing detected"); the link is made relative, as Debian 13's is
			l=$r/usr/lib64/ld-linux-x86-64.so.2
			case $(readlink "$l" 2>/dev/null) in /*) ln -sfn "..$(readlink "$l")" "$l" ;; esac
			[ -z "$dyn" ] || { printf '#!/bin/sh\nexec "%s/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "%s/lib/x86_64-linux-gnu:%s/usr/lib/x86_64-linux-gnu" "%s" "$@"\n' \
				"$r" "$r" "$r" "$QEMU" >"$r.qemu.$$" && chmod +x "$r.qemu.$$" && mv -f "$r.qemu.$$" "$r.qemu"; }
		) 9>"$r.lock"
		[ -z "$dyn" ] || [ ! -x "$r.qemu" ] || QEMU=$r.qemu
	fi
	PCM_MEMORY=$(tool /usr/sbin/pcm-memory) PCM_PCIE=$(tool /usr/sbin/pcm-pcie) PCM_IIO=$(tool /usr/sbin/pcm-iio)
	PCM_POWER=$(tool /usr/sbin/pcm-power)
	PCM=$(tool /usr/sbin/pcm) PCM_VER=$(ver pcm)
	LIKWID=$(tool /usr/bin/likwid-perfctr) LIKWID_VER=$(ver likwid) LUA=$(tool /usr/bin/lua5.3)
	PCM_WHY="PCM is not installed (Debian's pcm${r:+ in the $1 root}, scripts/install-deps)"
}
