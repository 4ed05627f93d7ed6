#!/bin/sh
# packaging/kubernetes/uncore-exporter.yaml, offline: against the Kubernetes API schema and the
# ServiceMonitor's (tests/k8s_manifest_check.py: strict, least privilege, baseline but for CAP_PERFMON, the
# objects selecting each other); a misspelt field and a privileged container are caught; the image it
# names is this release's, and its arguments are ones the exporter takes.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
SRC=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-.}" && pwd)
M=$SRC/packaging/kubernetes/uncore-exporter.yaml
SCHEMA=$SRC/packaging/kubernetes/schema
# Debian's python3-jsonschema and python3-yaml are /usr/bin/python3's (another python3 may come first in PATH)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" -c 'import jsonschema, yaml' 2>"$W/py.err" ||
	{ echo "FAIL: $PY cannot import jsonschema and yaml ($(tail -1 "$W/py.err")): scripts/install-deps installs python3-jsonschema and python3-yaml"; exit 1; }
CHECK="$PY $SRC/tests/k8s_manifest_check.py"

$CHECK "$M" "$SCHEMA" >"$W/out" 2>&1
rc=$?
grep -E '^(ok|bad) ' "$W/out" | sed 's/^ok /PASS: /; s/^bad /FAIL: /'
pass=$((pass + $(grep -c '^ok ' "$W/out"))) fail=$((fail + $(grep -c '^bad ' "$W/out")))
check "k8s_manifest_check.py: every check of the manifest holds (rc $rc)" '[ $rc -eq 0 ]' || grep -v -E '^(ok|bad|image|args) ' "$W/out"

# the checker catches what it must: a field the API lacks, a privileged container
sed 's/readOnlyRootFilesystem: true/readOnlyRootFilesytem: true/' "$M" >"$W/typo.yaml"
out=$($CHECK "$W/typo.yaml" "$SCHEMA" 2>&1)
check "a misspelt field (readOnlyRootFilesytem) fails the DaemonSet's schema" \
	'echo "$out" | grep -q "^bad DaemonSet uncore-exporter against its API schema.*readOnlyRootFilesytem"'
sed 's/privileged: false/privileged: true/' "$M" >"$W/priv.yaml"
out=$($CHECK "$W/priv.yaml" "$SCHEMA" 2>&1)
check "a privileged container fails the least-privilege and baseline checks" \
	'echo "$out" | grep -q "^bad uncore-exporter: not privileged" && echo "$out" | grep -q "^bad Pod Security Standards baseline"'

# the NetworkPolicy: a source of only a namespaceSelector lets in every pod of that namespace (issue 79)
"$PY" -c 'import sys; t = open(sys.argv[1]).read(); k = "          podSelector:\n            matchLabels:\n              app.kubernetes.io/name: prometheus\n"; assert k in t; sys.stdout.write(t.replace(k, ""))' "$M" >"$W/ns.yaml"
out=$($CHECK "$W/ns.yaml" "$SCHEMA" 2>&1)
check "a NetworkPolicy source with a namespaceSelector alone fails" \
	'echo "$out" | grep -q "^bad the NetworkPolicy admits only pods a namespaceSelector and a podSelector name together"'

# a TLS set-up's --max-connections counts each connection's GnuTLS session: 1024 with TLS needs 154 MiB (issue 89)
sed '/with TLS, args:/s/"640"/"1024"/' "$M" >"$W/tls.yaml"
out=$($CHECK "$W/tls.yaml" "$SCHEMA" 2>&1)
check "the TLS set-up with --max-connections 1024 fails: 154 MiB is past the 128 MiB" \
	'echo "$out" | grep -q "^bad with TLS .* --max-connections 1024 needs 154 MiB"'

# the image is this release's (build-image tags it with the packages' version), and the exporter takes
# the manifest's arguments after its entry point's
V=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version 2>/dev/null || sed -n '1s/.*(\(.*\)).*/\1/p' "$SRC/debian/changelog")
image=$(sed -n 's/^image //p' "$W/out")
check "the manifest's image is this release's ($image, $V)" '[ "$image" = "localhost/intel-uncore-exporter:$V" ]'
args=$(sed -n 's/^args //p' "$W/out")
if [ -x "$B/uncore-exporter" ]; then
	out=$("$B/uncore-exporter" --backend perf --listen 0.0.0.0:9739 $args --backend perf+sim:emr --check-config 2>&1)
	check "uncore-exporter takes the entry point's and the manifest's arguments ($args)" '[ $? -eq 0 ]' || echo "$out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
