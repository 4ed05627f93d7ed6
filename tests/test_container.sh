#!/bin/sh
# The exporter's container image (packaging/container/build-image), built offline from the .debs of
# debian/ and a Debian root made by mmdebstrap, run as the Kubernetes manifest
# (packaging/kubernetes/uncore-exporter.yaml) runs it: every capability dropped but PERFMON, user 65534, a
# read-only root file system, no new privileges.  Under podman it serves the simulator's truth on perf+sim:
# (the simulated perf kernel: no uncore PMU here); under runc with the capability sets containerd gives a
# Kubernetes container of a non-root user (no ambient set: the file capability the image carries is what
# grants CAP_PERFMON) its process has CAP_PERFMON alone; without PERFMON the kernel refuses to run it.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
SRC=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-.}" && pwd)
TRUTH=$B/tests/prom_truth
CHECKS="python3 $SRC/tests/prometheus_checks.py"
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: the image is built and run as root (mmdebstrap --mode=root, setcap, rootful podman and runc); run as root, as CI does"
	exit 77
fi
for t in podman runc mmdebstrap setcap getcap dpkg-buildpackage nsenter ip python3; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t is missing (scripts/install-deps installs it)"; exit 1; }
done
# podman (unpacking the image's layer, running it) and runc make the mounts of a new mount namespace private or
# slave, which fails where / is not a mount point (a chroot's root: check.sh); skipped there, saying why, as
# tests/test_unit.sh skips its systemd
unshare --mount true 2>"$W/ns.err" ||
	{ echo "SKIP: no container here: unshare --mount fails ($(cat "$W/ns.err"))$(root_not_mounted | sed 's/^/; /')"; exit 77; }
# the builds below are make's own, not make check's (its jobserver is not theirs)
unset MAKEFLAGS MFLAGS MAKELEVEL
export TMPDIR="$W"
# podman 5 (Debian 13) warns on every call on a cgroup v1 host, into the output the checks read
export PODMAN_IGNORE_CGROUPSV1_WARNING=1
# a private image store and state: nothing of this test stays in the machine's podman storage; runc (crun
# refuses a hybrid cgroup hierarchy such as this machine's); the containers' cgroups (podman's conmon's
# too) below one of this test's, removed at the end
P="podman --root $W/storage --runroot $W/run --tmpdir $W/podman-tmp --runtime runc --cgroup-manager cgroupfs"
CGP=/uncore-test-$$
# podman keeps its blob cache in /var/lib/containers/cache whatever --root says: made by this test, it goes
had_varlib=no
[ -e /var/lib/containers ] && had_varlib=yes
IMG=localhost/intel-uncore-exporter:test
cid= rid=
cleanup() {
	[ -n "$cid" ] && $P rm -f -t 0 "$cid" >/dev/null 2>&1
	[ -n "$rid" ] && { runc --root "$W/runc" kill "$rid" KILL 2>/dev/null; sleep 0.2; runc --root "$W/runc" delete -f "$rid" 2>/dev/null; }
	$P image unmount -a >/dev/null 2>&1
	$P rmi -a -f >/dev/null 2>&1
	mountpoint -q "$W/storage/overlay" 2>/dev/null && umount "$W/storage/overlay"
	for d in $(find /sys/fs/cgroup -maxdepth 2 -type d -name "${CGP#/}" 2>/dev/null); do
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	[ $had_varlib = no ] && rm -rf /var/lib/containers
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# This machine's root lacks CAP_SYS_RESOURCE (/proc/self/status CapBnd) and podman's default rlimits are
# the maximum: the container asks for what this process has (open files) and a few processes.
ULIMITS="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=4096:4096"

# --- the .debs, as test_deb.sh builds them, and the image from them
V=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
# (built once for this test and the other that needs them: tests/shared_debs.sh)
"$SRC/tests/shared_debs.sh" "$W/deb" "$W/deb.log"
rc=$?
check "dpkg-buildpackage -us -uc -b builds the .debs (rc $rc)" '[ $rc -eq 0 ]' || { tail -30 "$W/deb.log"; echo "$pass passed, $fail failed"; exit 1; }
# the downloaded .debs stay in the build tree between runs (IU_APT_CACHE); the mirror is still asked for
# its package lists each time
mkdir -p "$B/container-apt-cache"
start=$(date +%s)
PODMAN="$P" IU_APT_CACHE="$B/container-apt-cache" "$SRC/packaging/container/build-image" "$W/deb" "$W/image.tar" "$IMG" \
	>"$W/image.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -Eq "(Failed to fetch|Could not resolve|Temporary failure|Unable to connect)" "$W/image.log"; then
	echo "SKIP: the Debian mirror cannot be reached to build the image's root: $(grep -Em1 "(Failed to fetch|Could not resolve|Temporary failure|Unable to connect)" "$W/image.log")"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && exit 77
	exit 1
fi
check "build-image makes the OCI archive in $(($(date +%s) - start)) s (rc $rc)" '[ $rc -eq 0 ] && [ -s "$W/image.tar" ]' ||
	{ tail -30 "$W/image.log"; echo "$pass passed, $fail failed"; exit 1; }
cfg=$($P image inspect --format '{{.Config.User}} {{json .Config.Entrypoint}}' "$IMG" 2>&1)
check "the image runs the exporter on the perf backend as 65534 ($cfg)" \
	'[ "$cfg" = "65534:65534 [\"/usr/bin/uncore-exporter\",\"--backend\",\"perf\",\"--listen\",\"0.0.0.0:9739\"]" ]'
M=$($P image mount "$IMG")
caps=$(getcap "$M/usr/bin/uncore-exporter" 2>&1)
check "the exporter carries CAP_PERFMON as a file capability (${caps##*/})" 'echo "$caps" | grep -q "cap_perfmon[=+]ep$"'
check "no shell, no package manager, no .deb in the image" \
	'[ ! -e "$M/bin/sh" ] && [ ! -e "$M/usr/bin/sh" ] && [ ! -e "$M/usr/bin/dpkg" ] && [ -z "$(find "$M" -name "*.deb" | head -1)" ]'
mb=$(du -sm "$M" | cut -f1)
echo "image: ${mb} MB unpacked, $(($(stat -c %s "$W/image.tar") / 1048576)) MB as an OCI archive"

# --- the truth of the simulated machine the container counts (its default profile): each socket's memory
# read and write bytes a second
"$TRUTH" sim:emr | grep -E '^uncore_memory_(read|write)_bytes_total ' | sort -u >"$W/truth"
check "the truth: socket 0 reads 12.8e9 B/s" 'grep -q "^uncore_memory_read_bytes_total socket=\"0\" rate 1.28e+10$" "$W/truth"'

# --- podman: the manifest's security context, the simulated perf kernel, its own network namespace
cid=$($P run -d --cgroup-parent="$CGP" --network none --cap-drop=ALL --cap-add=PERFMON --read-only --security-opt no-new-privileges \
	$ULIMITS "$IMG" --backend perf+sim:emr --interval 0.5 --groups memory 2>"$W/run.err")
check "podman runs the image with --cap-drop=ALL --cap-add=PERFMON --read-only" '[ -n "$cid" ]' || cat "$W/run.err"
served=
for _ in $(seq 1200); do # the start: about a second here, up to 2 minutes allowed
	$P logs "$cid" 2>&1 | grep -q "serving .* on port 9739" && served=yes && break
	sleep 0.1
done
check "the exporter says it serves perf+sim:emr on port 9739" '[ "$served" = yes ]' || $P logs "$cid"
pid=$($P inspect --format '{{.State.Pid}}' "$cid" 2>/dev/null)
st=$(grep -E '^(Uid|CapEff|CapBnd|CapAmb|NoNewPrivs):' "/proc/$pid/status" 2>/dev/null | tr -s '\t' ' ' | tr '\n' ';')
check "its process: uid 65534, CAP_PERFMON (bit 38) its only capability, no new privileges ($st)" \
	'[ "$st" = "Uid: 65534 65534 65534 65534;CapEff: 0000004000000000;CapBnd: 0000004000000000;CapAmb: 0000000000000000;NoNewPrivs: 1;" ]'
rootmnt=$(awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo" 2>/dev/null)
check "its root file system is read-only ($rootmnt)" 'echo "$rootmnt" | grep -q "^ro"'
# counters' increase over their samples' own times, as test_exporter.sh checks them, scraped from inside
# the container's network namespace
out=$(nsenter -t "$pid" -n $CHECKS exact 9739 "$W/truth" 2 0.005 0.01)
rc=$?
echo "$out" | sed "s/^/  /"
check "it serves the simulator's truth: each socket's memory read and write bytes a second" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "^ok 4 series of the truth were exported"'
$P rm -f -t 0 "$cid" >/dev/null 2>&1
cid=

# --- without PERFMON in the bounding set the file capability cannot be granted: execve fails (capabilities(7))
out=$($P run --rm --cgroup-parent="$CGP" --network none --cap-drop=ALL --read-only $ULIMITS "$IMG" --backend perf+sim:emr --check-config 2>&1)
rc=$?
check "without --cap-add=PERFMON the kernel refuses to run it (rc $rc: $out)" '[ $rc -ne 0 ] && echo "$out" | grep -q "operation not permitted"'

# --- runc with the process containerd's CRI makes of the manifest's container: capabilities only in the
# bounding, permitted and effective sets (no ambient, no inheritable), user 65534, no new privileges,
# read-only root.  The capability then comes from the file's; podman's ambient set hid that above.
mkdir -p "$W/bundle"
(cd "$W/bundle" && runc spec)
python3 - "$W/bundle/config.json" "$M" "$CGP/runc" <<'EOF'
import json, sys
path, rootfs = sys.argv[1], sys.argv[2]
c = json.load(open(path))
c["root"] = {"path": rootfs, "readonly": True}
p = c["process"]
p["terminal"] = False
p["user"] = {"uid": 65534, "gid": 65534}
p["args"] = ["/usr/bin/uncore-exporter", "--backend", "perf+sim:emr", "--listen", "0.0.0.0:9739", "--interval", "0.5", "--groups", "memory"]
p["capabilities"] = {k: ["CAP_PERFMON"] for k in ("bounding", "permitted", "effective")}
p["noNewPrivileges"] = True
c["linux"]["cgroupsPath"] = sys.argv[3]
json.dump(c, open(path, "w"))
EOF
rid=uncore-test-$$
(cd "$W/bundle" && exec runc --root "$W/runc" run "$rid" >"$W/runc.out" 2>&1) &
bg=$!
rpid=
for _ in $(seq 1200); do
	rpid=$(runc --root "$W/runc" state "$rid" 2>/dev/null | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["pid"] if s["status"] == "running" else "")' 2>/dev/null)
	[ -n "$rpid" ] && grep -q "serving .* on port 9739" "$W/runc.out" && break
	sleep 0.1
done
st=$(grep -E '^(Uid|CapEff|CapAmb|NoNewPrivs):' "/proc/$rpid/status" 2>/dev/null | tr -s '\t' ' ' | tr '\n' ';')
check "under runc with no ambient set: uid 65534, CAP_PERFMON its only capability, from the file ($st)" \
	'[ "$st" = "Uid: 65534 65534 65534 65534;CapEff: 0000004000000000;CapAmb: 0000000000000000;NoNewPrivs: 1;" ]' ||
	cat "$W/runc.out"
nsenter -t "$rpid" -n ip link set lo up 2>/dev/null # runc leaves a new network namespace's loopback down
out=$(nsenter -t "$rpid" -n $CHECKS exact 9739 "$W/truth" 2 0.005 0.01)
rc=$?
echo "$out" | sed "s/^/  /"
check "and serves the truth: each socket's memory read and write bytes a second" \
	'[ $rc -eq 0 ] && echo "$out" | grep -q "^ok 4 series of the truth were exported"'
runc --root "$W/runc" kill "$rid" TERM 2>/dev/null
wait $bg
rc=$?
runc --root "$W/runc" delete -f "$rid" 2>/dev/null
rid=
check "SIGTERM stops it: exit 0 (rc $rc)" '[ $rc -eq 0 ]' || cat "$W/runc.out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
