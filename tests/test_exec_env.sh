#!/bin/sh
# Nothing of uncore's crosses exec, and a privileged uncore does not trust its environment.
# 1. The command of 'uncore stat -- CMD' lists its own descriptors and finds exactly those its caller
#    passed (here also fd 7): on the direct backend over a fake SNB-EP, on sim:...,shared=FILE and on
#    perf+sim:.
# 2. As root: a copy of the program given file capabilities (setcap cap_perfmon+ep) and run as nobody
#    ignores UNCORE_BACKEND and UNCORE_SYSROOT and says so once; the same copy without them takes both.
#    A set-user-ID and a set-group-ID copy refuse to run; a copy with cap_dac_read_search opens only the files
#    nobody may read itself.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
. "$(dirname "$0")/other_user.sh" # AS_OTHER
UNCORE=${top_builddir:-.}/uncore
STATIC=${top_builddir:-.}/tests/uncore_static

# --- a fake two-socket SNB-EP, as tests/test_backends.c builds it
le32() { # FILE OFFSET VALUE: four bytes, little-endian
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) $(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
R=$W/snbep
pcidev() { # BUS DEV FN ID
	d=$R/sys/bus/pci/devices/0000:$1:$2.$3
	mkdir -p "$d"
	echo 0x8086 >"$d/vendor"
	echo "0x$4" >"$d/device"
	head -c 4096 /dev/zero >"$d/config"
	le32 "$d/config" 0 $((0x$4 << 16 | 0x8086))
}
mkdir -p "$R/proc"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz\nflags\t\t: fpu msr\n\n' >"$R/proc/cpuinfo"
for cpu in 0 1 2 3; do
	mkdir -p "$R/sys/devices/system/cpu/cpu$cpu/topology" "$R/dev/cpu/$cpu"
	echo $((cpu / 2)) >"$R/sys/devices/system/cpu/cpu$cpu/topology/physical_package_id"
	truncate -s 65536 "$R/dev/cpu/$cpu/msr"
done
for bus in bf 3f; do
	for d in "10 0 3cb0" "10 1 3cb1" "10 4 3cb4" "10 5 3cb5" "0e 1 3c46" "0b 0 3ce0"; do
		# shellcheck disable=SC2086
		pcidev $bus $d
	done
	le32 "$R/sys/bus/pci/devices/0000:$bus:0b.0/config" $((0x54)) $((5 | 2 << 3)) # GIDNIDMAP: nodes 5, 2
done
le32 "$R/sys/bus/pci/devices/0000:bf:0b.0/config" $((0x40)) 5 # CPUNODEID: bus bf is socket 0
le32 "$R/sys/bus/pci/devices/0000:3f:0b.0/config" $((0x40)) 2

# --- 1. the command's descriptors: what a command started directly with the same ones gets
LIST='ls /proc/self/fd >"$1"; ls -l /proc/self/fd >"$1.long"'
echo passed >"$W/passed"
sh -c "$LIST" sh "$W/want" 7<"$W/passed" >"$W/out" 2>&1 # stdout and stderr as uncore's below
nums() { tr '\n' ' ' <"$1" | sed 's/ $//'; }
# what the descriptors point at, ls's own directory and output file named alike
targets() { awk '$(NF-1) == "->" { print $NF }' "$1.long" | sed "s|^$1|OUT|; s|^/proc/[0-9]*/fd\$|LSDIR|" | sort; }
want=$(nums "$W/want")
targets "$W/want" >"$W/want.targets"
for be in direct "sim:snbep,shared=$W/shared" perf+sim:snbep; do
	ev=UNC_M_CAS_COUNT.RD,UNC_C_LLC_LOOKUP.DATA_READ:state=1
	rm -f "$W/got" "$W/got.long"
	UNCORE_SYSROOT=$R $UNCORE --backend "$be" stat -e "$ev" -- sh -c "$LIST" sh "$W/got" 7<"$W/passed" >"$W/out" 2>&1
	rc=$?
	check "$be: stat -- CMD counts and runs the command (rc $rc)" \
		'[ $rc -eq 0 ] && [ -s "$W/got" ] && grep -q "^socket0 *UNC_M_CAS_COUNT.RD" "$W/out"'
	[ $rc -eq 0 ] || cat "$W/out"
	[ -s "$W/got" ] || continue
	got=$(nums "$W/got")
	extra=$(targets "$W/got" | comm -23 - "$W/want.targets" | tr '\n' ' ')
	check "$be: the command has only its caller's descriptors ($got; directly: $want)${extra:+; extra: $extra}" \
		'[ "$got" = "$want" ]'
done
check "the caller's fd 7 reaches the command" 'echo " $want " | grep -q " 7 "'

# --- 2. a privileged copy as an unprivileged user
skip() { echo "SKIP: privileged copy: $1"; }
if [ "$(id -u)" -ne 0 ]; then
	skip "the tests do not run as root (setcap and setpriv need it)"
elif ! command -v setcap >/dev/null 2>&1 || ! command -v setpriv >/dev/null 2>&1; then
	skip "setcap or setpriv is missing (scripts/install-deps installs libcap2-bin)"
elif [ ! -x "$STATIC" ]; then
	skip "$STATIC is not built"
elif grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; then
	skip "this process runs with no_new_privs: exec grants no capabilities"
elif findmnt -no OPTIONS -T "$W" 2>/dev/null | grep -qw nosuid; then
	skip "$W is on a nosuid mount: exec ignores file capabilities there"
elif ! { cp "$STATIC" "$W/priv" && cp "$STATIC" "$W/plain" && chmod 755 "$W/priv" "$W/plain" &&
	setcap cap_perfmon+ep "$W/priv" 2>"$W/setcap.err"; }; then
	skip "setcap cap_perfmon+ep failed ($(cat "$W/setcap.err"))"
else
	# nobody (uid 65534) may not reach $W, nor the build (below root's home, say): it runs the copies through
	# descriptors (/proc/self/fd/9) opened as root, the static program needing no library of the build
	asnobody() { # FILE ARGS...
		f=$1
		shift
		ASAN_OPTIONS=detect_leaks=0 $AS_OTHER /proc/self/fd/9 "$@" 9<"$f" 2>&1
	}
	if ! err=$(asnobody "$W/priv" version); then
		skip "the copy with file capabilities does not run as nobody ($err)"
	else
		WARN="does not trust the environment"
		out=$(UNCORE_BACKEND=sim:snbep asnobody "$W/plain" info)
		check "control: without privilege, UNCORE_BACKEND is taken" 'echo "$out" | grep -q SIMULATED'
		out=$(UNCORE_BACKEND=sim:snbep asnobody "$W/priv" info)
		check "privileged: UNCORE_BACKEND is ignored" '! echo "$out" | grep -q SIMULATED'
		check "privileged: one warning names UNCORE_BACKEND (${out%%
*})" \
			'[ "$(echo "$out" | grep -c "$WARN")" -eq 1 ] && echo "$out" | grep "$WARN" | grep -q "UNCORE_BACKEND is ignored"'
		out=$(UNCORE_SYSROOT=$R asnobody "$W/plain" --backend direct info)
		check "control: without privilege, UNCORE_SYSROOT is taken" 'echo "$out" | grep -qF "$R/"'
		out=$(UNCORE_SYSROOT=$R UNCORE_CLAIMS=$W/claims asnobody "$W/priv" --backend direct info)
		check "privileged: UNCORE_SYSROOT is ignored" '! echo "$out" | grep -qF "$R"'
		check "privileged: one warning names UNCORE_SYSROOT and UNCORE_CLAIMS" \
			'[ "$(echo "$out" | grep -c "$WARN")" -eq 1 ] && echo "$out" | grep "$WARN" | grep -q "UNCORE_SYSROOT" &&
			 echo "$out" | grep "$WARN" | grep -q "UNCORE_CLAIMS"'
		out=$(asnobody "$W/priv" --backend sim:snbep info)
		check "privileged without UNCORE_* variables: no warning" '! echo "$out" | grep -q "$WARN"'
		# a set-user-ID root copy, and a set-group-ID one of /etc/shadow's group, run by nobody: refused
		# before anything (they ran 'stat -- CMD' as root and echoed the first word of --events /etc/shadow)
		cp "$STATIC" "$W/suid" && chmod 4755 "$W/suid"
		cp "$STATIC" "$W/sgid" && chgrp "$(stat -c %G /etc/shadow)" "$W/sgid" && chmod 2755 "$W/sgid"
		for copy in suid sgid; do
			out=$(asnobody "$W/$copy" --backend sim:snbep --events /etc/shadow stat -e UNC_M_CAS_COUNT.RD -- id -u)
			rc=$?
			check "a $copy copy run by nobody refuses to run: no command, no file read ($rc: ${out%%
*})" '[ $rc -eq 1 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
				echo "$out" | grep -q "^uncore: refusing to run set-user-ID or set-group-ID (real uid 65534"'
		done
		# file capabilities that override file permissions (not the documented cap_perfmon): what nobody names
		# is opened only if nobody may read it, so no message quotes a file nobody cannot read
		cp "$STATIC" "$W/dac" && chmod 755 "$W/dac"
		if setcap cap_dac_read_search+ep "$W/dac" 2>/dev/null; then
			out=$(asnobody "$W/dac" --backend sim:snbep --events /etc/shadow info); rc=$?
			check "a copy with cap_dac_read_search: --events /etc/shadow as nobody is not read ($rc: ${out%%
*})" '[ $rc -ne 0 ] && echo "$out" | grep -qF "uncore: cannot open /etc/shadow: Permission denied" &&
				! echo "$out" | grep -q "near"'
			out=$(asnobody "$W/dac" --backend sim:snbep --events /etc/passwd info); rc=$?
			check "the same copy still reads a file nobody may read, /etc/passwd ($rc: ${out%%
*})" '[ $rc -ne 0 ] && echo "$out" | grep -q "^uncore: /etc/passwd:1:[0-9]*: not valid JSON"'
		fi
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
