#!/bin/sh
# uncore-exporter's --web.config.file (exporter-toolkit's format, doc/prometheus.md "TLS and basic
# authentication"): a CA, server and client certificates made here with openssl and bcrypt hashes with
# htpasswd; bad files refused naming the problem; real curl over TLS with the right password, a wrong one,
# none, client certificates required and missing or from another CA; every series over TLS equal to the
# simulator's truth and the same series as a plain exporter serves; the per-client limit through TLS; and
# a real Prometheus scraping over TLS with basic authentication and a client certificate (up 1) and with
# a wrong password (up 0).
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
EXP=$B/uncore-exporter TRUTH=$B/tests/prom_truth
CHECKS="python3 ${top_srcdir:-.}/tests/prometheus_checks.py"
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$W"' EXIT
for prog in openssl htpasswd curl prometheus; do
	command -v $prog >/dev/null || { echo "FAIL: $prog is not installed (scripts/install-deps installs it)"; exit 1; }
done

# --- the certificates: a CA, the server's (for 127.0.0.1), a client's, and a client's of another CA
P=$W/pki
mkdir "$P"
# With the extensions RFC 5280 asks of each (a CA's key usage, a leaf's authority key id): Python 3.13 (Debian
# 13) verifies with VERIFY_X509_STRICT and refuses a CA without key usage or a leaf without the key id.
mk() { # NAME SUBJECT [CA]: an EC key and a certificate, signed by CA (else self-signed)
	if [ -z "$3" ]; then
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$P/$1.key" -out "$P/$1.crt" \
			-days 2 -subj "/CN=$2" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
			2>>"$W/openssl.log"
	else
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$P/$1.key" -out "$P/$1.csr" \
			-subj "/CN=$2" 2>>"$W/openssl.log" &&
			printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' >"$P/$1.ext" &&
			openssl x509 -req -in "$P/$1.csr" -CA "$P/$3.crt" -CAkey "$P/$3.key" -CAcreateserial -out "$P/$1.crt" -days 2 \
				-extfile "$P/$1.ext" 2>>"$W/openssl.log"
	fi
}
mk ca test-ca && mk server 127.0.0.1 ca && mk client scraper ca && mk other other-ca && mk stranger stranger other
check "openssl made the CA and the server's and clients' certificates" '[ -s "$P/server.crt" ] && [ -s "$P/stranger.crt" ]' ||
	cat "$W/openssl.log"
# bcrypt as exporter-toolkit's docs make it (htpasswd -nBC 10; cost 5 here, quicker)
HASH=$(htpasswd -nbBC 5 prom 's3cret pass' | cut -d: -f2-)
check "htpasswd made a bcrypt hash ($HASH)" 'echo "$HASH" | grep -q "^\$2y\$05\$.\{53\}$"'

# --- bad files: refused before anything starts, exit 2, the file's line and key named
bad() { # NAME WANT: the file $W/NAME.yml refused with WANT in the message
	out=$("$EXP" --backend sim:emr --web.config.file "$W/$1.yml" --check-config 2>&1)
	rc=$? want=$2
	check "$1: refused, exit 2, saying '$2' ($out)" '[ $rc -eq 2 ] && echo "$out" | grep -qF -- "$want"'
}
printf 'tls_server_config:\n  cert_file: %s/server.crt\n  key_file: %s/server.key\n  cert_fil: x\n' "$P" "$P" >"$W/unknown.yml"
bad unknown "unknown.yml:4: unknown key 'tls_server_config.cert_fil'"
printf '# a site'"'"'s file\nbasic_auth_user:\n  prom: %s\n' "$HASH" >"$W/topkey.yml"
bad topkey "topkey.yml:2: unknown key 'basic_auth_user'"
printf 'tls_server_config:\n  cert_file: %s/server.crt\n  key_file: %s/server.key\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n' "$P" "$P" >"$W/cipher.yml"
bad cipher "cipher.yml:4: tls_server_config.cipher_suites: exporter-toolkit has it, uncore-exporter does not implement it"
printf 'tls_server_config:\n\tcert_file: x\n' >"$W/tab.yml"
bad tab "tab.yml:2: a tab in the indentation"
printf 'tls_server_config:\n  cert_file: %s/nothere.crt\n  key_file: %s/server.key\n' "$P" "$P" >"$W/nocert.yml"
bad nocert "tls_server_config.cert_file $P/nothere.crt: No such file or directory"
printf 'tls_server_config:\n  cert_file: %s/server.crt\n' "$P" >"$W/nokey.yml"
bad nokey "tls_server_config has no key_file"
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/client.key\n' >"$W/mismatch.yml"
bad mismatch "cert_file $P/server.crt with key_file $P/client.key: "
printf 'not a certificate\n' >"$P/junk.pem"
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n  client_ca_file: pki/junk.pem\n  client_auth_type: RequireAndVerifyClientCert\n' >"$W/junkca.yml"
bad junkca "tls_server_config.client_ca_file $P/junk.pem: holds no PEM certificate"
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n  client_ca_file: pki/ca.crt\n' >"$W/capolicy.yml"
bad capolicy "client_ca_file is given but client_auth_type asks for no client certificate"
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n  client_auth_type: RequireAndVerifyClientCerts\n' >"$W/authtype.yml"
bad authtype "authtype.yml:4: client_auth_type 'RequireAndVerifyClientCerts': give NoClientCert"
printf 'basic_auth_users:\n  prom: s3cret\n' >"$W/plain.yml"
bad plain "plain.yml:2: user 'prom': the password must be a bcrypt hash"
printf 'basic_auth_users:\n  prom: %s\n  prom: %s\n' "$HASH" "$HASH" >"$W/twice.yml"
bad twice "twice.yml:3: user 'prom' given twice"
printf 'basic_auth_users:\n  prom: %s\n---\nbasic_auth_users:\n' "$HASH" >"$W/twodocs.yml"
bad twodocs "twodocs.yml:3: a second YAML document"
out=$("$EXP" --backend sim:emr --web.config.file "$W/absent.yml" 2>&1)
check "a missing --web.config.file exits 2 naming it ($out)" '[ $? -eq 2 ] && echo "$out" | grep -qF "$W/absent.yml: No such file"'

# --- the key, the certificates and the file itself (issue 89): refused, named, where another user could change
# them or a directory on their way (a key or hash swapped is the exporter's: trusted_path.h); a warning naming
# the file where another user may read the key or the password hashes (before: all taken silently)
K=$W/keys
mkdir -m 0700 "$K"
cp "$P/server.crt" "$P/server.key" "$K/"
chmod 0600 "$K/server.key"
chmod 0644 "$K/server.crt"
printf 'tls_server_config:\n  cert_file: %s/server.crt\n  key_file: %s/server.key\n' "$K" "$K" >"$W/keys.yml"
chmod 0600 "$W/keys.yml"
out=$("$EXP" --backend sim:emr --web.config.file "$W/keys.yml" --check-config 2>&1)
check "a key 0600 and a certificate 0644 in a directory of its own: taken, no warning" '[ $? -eq 0 ] && ! echo "$out" | grep -q warning' ||
	echo "$out" | grep -v '^  {'
chmod 0666 "$K/server.key"
bad keys "tls_server_config.key_file $K/server.key: it may be written by every user (mode 0666)"
chmod 0660 "$K/server.key"
bad keys "tls_server_config.key_file $K/server.key: it may be written by its group $(id -g) (mode 0660)"
chmod 0600 "$K/server.key"
chmod 0664 "$K/server.crt"
bad keys "tls_server_config.cert_file $K/server.crt: it may be written by its group"
chmod 0644 "$K/server.crt"
chmod 0777 "$K"
bad keys "tls_server_config.cert_file $K/server.crt: directory $K is writable by every user (mode 0777) without the sticky bit"
chmod 0700 "$K"
chmod 0646 "$W/keys.yml"
bad keys "--web.config.file $W/keys.yml: it may be written by every user (mode 0646)"
chmod 0600 "$W/keys.yml"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$K/server.key"
	bad keys "tls_server_config.key_file $K/server.key: it belongs to user 65534 (only root's or your own are trusted)"
	chown 0 "$K/server.key"
	# the key reached through a symbolic link another user made where every user may write (as /tmp)
	mkdir -m 1777 "$W/sticky" && chmod 1777 "$W/sticky"
	ln -s "$K/server.key" "$W/sticky/server.key" && chown -h 65534 "$W/sticky/server.key"
	printf 'tls_server_config:\n  cert_file: %s/server.crt\n  key_file: %s/sticky/server.key\n' "$K" "$W" >"$W/link.yml"
	bad link "tls_server_config.key_file $W/sticky/server.key: $W/sticky/server.key is a symbolic link of user 65534"
	chown -h 0 "$W/sticky/server.key"
	out=$("$EXP" --backend sim:emr --web.config.file "$W/link.yml" --check-config 2>&1)
	check "... and through root's own link there: taken" '[ $? -eq 0 ]' || echo "$out" | tail -2
else
	echo "# not root: the files of another user are left out"
fi
# readable: a directory every user may pass through, the files in it
reachable() { # every directory from / to $1 lets every user through (o+x)
	d=$1
	while [ "$d" != / ]; do
		[ $((0$(stat -L -c %a "$d") & 1)) -ne 0 ] || return 1
		d=$(dirname "$d")
	done
}
chmod 0711 "$W"
R=$W/pub
mkdir -m 0755 "$R" && chmod 0755 "$R"
if reachable "$R"; then
	cp "$P/server.crt" "$P/server.key" "$R/"
	chmod 0644 "$R/server.key" "$R/server.crt"
	printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n' >"$R/tls.yml"
	printf 'basic_auth_users:\n  prom: %s\n' "$HASH" >"$R/users.yml"
	chmod 0644 "$R/tls.yml" "$R/users.yml"
	out=$("$EXP" --backend sim:emr --web.config.file "$R/tls.yml" --check-config 2>&1)
	check "a key every user may read: taken, with a warning naming it ($(echo "$out" | grep warning))" \
		'[ $? -eq 0 ] && echo "$out" | grep -qF "warning: tls_server_config.key_file $R/server.key may be read by every user (mode 0644), and it holds the server'"'"'s private key"'
	check "... and none of the certificate or the file, which hold no secret" '[ "$(echo "$out" | grep -c warning)" -eq 1 ]'
	chmod 0640 "$R/server.key"
	out=$("$EXP" --backend sim:emr --web.config.file "$R/tls.yml" --check-config 2>&1)
	check "a key its group may read, the exporter's own group (as ssl-cert or a pod's fsGroup give it): no warning" \
		'[ $? -eq 0 ] && ! echo "$out" | grep -q warning'
	if [ "$(id -u)" -eq 0 ]; then
		chgrp 65534 "$R/server.key"
		out=$("$EXP" --backend sim:emr --web.config.file "$R/tls.yml" --check-config 2>&1)
		check "a key another group may read: a warning naming the group ($(echo "$out" | grep warning))" \
			'[ $? -eq 0 ] && echo "$out" | grep -qF "warning: tls_server_config.key_file $R/server.key may be read by the members of its group 65534 (mode 0640)"'
		chgrp 0 "$R/server.key"
	fi
	chmod 0600 "$R/server.key"
	out=$("$EXP" --backend sim:emr --web.config.file "$R/tls.yml" --check-config 2>&1)
	check "the key 0600 there: no warning" '[ $? -eq 0 ] && ! echo "$out" | grep -q warning'
	out=$("$EXP" --backend sim:emr --web.config.file "$R/users.yml" --check-config 2>&1)
	check "password hashes every user may read: taken, with a warning naming the file ($(echo "$out" | grep warning))" \
		'[ $? -eq 0 ] && echo "$out" | grep -qF "warning: --web.config.file $R/users.yml may be read by every user (mode 0644), and it holds basic_auth_users'"'"' password hashes"'
	chmod 0711 "$R"
	out=$("$EXP" --backend sim:emr --web.config.file "$R/users.yml" --check-config 2>&1)
	check "... the same file in a directory other users may pass but not list: still warned (they can name it)" \
		'[ $? -eq 0 ] && echo "$out" | grep -q "warning: --web.config.file"'
	chmod 0700 "$R"
	out=$("$EXP" --backend sim:emr --web.config.file "$R/users.yml" --check-config 2>&1)
	check "... and in a directory they cannot pass: no warning" '[ $? -eq 0 ] && ! echo "$out" | grep -q warning'
else
	echo "# a directory above $W shuts other users out: the warnings of readable files are left out"
fi
chmod 0700 "$W"

# --- the exporters: one over TLS with basic authentication, one plain, on the same simulated machine
printf 'socket0.mem_read_bytes_per_s = 6.4e9\nsocket1.mem_read_bytes_per_s = 12.8e9\n' >"$W/profile"
SIM="sim:emr,profile=$W/profile"
"$TRUTH" "$SIM" >"$W/truth" || no "prom_truth $SIM"
start() { # NAME OPTIONS...: an exporter on a free port, $PORT; its log in $W/NAME.log
	name=$1
	shift
	"$EXP" --listen 127.0.0.1:0 --backend "$SIM,shared=$W/sim" --interval 0.5 "$@" 2>"$W/$name.log" &
	pids="$pids $!" last=$!
	PORT=
	for _ in $(seq 1200); do
		PORT=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/$name.log")
		[ -n "$PORT" ] && return 0
		kill -0 $last 2>/dev/null || break
		sleep 0.1
	done
	cat "$W/$name.log"
	return 1
}
stop() { kill $1 && wait $1; }
cat >"$W/web.yml" <<EOF
# exporter-toolkit's format (docs/web-configuration.md); paths relative to this file
---
tls_server_config:
  cert_file: pki/server.crt
  key_file: "pki/server.key"   # quoted, and a comment
  min_version: TLS12
basic_auth_users:
  prom: '$HASH'
EOF
start tls --web.config.file "$W/web.yml" || no "the TLS exporter starts"
TP=$PORT TPID=$last
start plain || no "the plain exporter starts"
PLP=$PORT PLPID=$last
check "the log says TLS and basic authentication are on" 'grep -q "TLS and basic authentication (--web.config.file" "$W/tls.log"'
U=https://127.0.0.1:$TP/metrics
code() { curl -s -o "$W/body" -w '%{http_code}' --cacert "$P/ca.crt" "$@"; }
got=$(code -u 'prom:s3cret pass' "$U")
check "curl over TLS with the right password: 200 ($got)" '[ "$got" = 200 ] && grep -q "^uncore_memory_read_bytes_total{socket=\"0\"}" "$W/body"'
got=$(code -u 'prom:s3cret' "$U")
check "a wrong password: 401 ($got)" '[ "$got" = 401 ]'
got=$(code -u 'nobody:s3cret pass' "$U")
check "an unknown user: 401 ($got)" '[ "$got" = 401 ]'
got=$(curl -s -D "$W/hdr" -o /dev/null -w '%{http_code}' --cacert "$P/ca.crt" "$U")
check "no password: 401 with WWW-Authenticate: Basic ($got)" '[ "$got" = 401 ] && grep -qi "^WWW-Authenticate: Basic" "$W/hdr"'
got=$(code -u 'prom:s3cret pass' "https://127.0.0.1:$TP/nothere")
check "authenticated, a wrong path: 404 ($got)" '[ "$got" = 404 ]'
curl -s -o /dev/null "http://127.0.0.1:$TP/metrics"
rc=$?
check "plain HTTP to the TLS port gets no answer (curl exit $rc)" '[ $rc -ne 0 ]'
got=$(curl -s -o /dev/null -w '%{http_code}' "https://127.0.0.1:$TP/metrics" -u 'prom:s3cret pass')
check "a client that does not trust the CA refuses the server (curl: $got)" '[ "$got" = 000 ]'
# every series equal to the truth over TLS (counters per second over their samples' own times, as test_exporter.sh)
out=$(UE_TLS="$P/ca.crt prom s3cret pass" $CHECKS exact $TP "$W/truth" 2 0.005 0.01)
rc=$?
echo "$out" | grep "^bad" | head
check "over TLS every series equals the simulator's truth: $(echo "$out" | grep -c "^ok") checks" '[ $rc -eq 0 ]'
UE_TLS="$P/ca.crt prom s3cret pass" $CHECKS scrape $TP | grep -v '^#' | sed -n 's/^\([^ ]*\) .*/\1/p' | sort >"$W/tls.all"
grep -v '^uncore_exporter_auth_refusals_total{' "$W/tls.all" >"$W/tls.series"
$CHECKS scrape $PLP | grep -v '^#' | sed -n 's/^\([^ ]*\) .*/\1/p' | sort >"$W/plain.series"
check "with basic authentication its refusals are counted, checked and unchecked" \
	'[ "$(grep -c "^uncore_exporter_auth_refusals_total{checked=" "$W/tls.all")" = 2 ]'
check "the TLS exporter serves the plain one's other series, no more, no fewer ($(wc -l <"$W/tls.series"))" \
	'[ -s "$W/tls.series" ] && cmp -s "$W/tls.series" "$W/plain.series"' || diff "$W/tls.series" "$W/plain.series" | head
stop $TPID

# --- a flood of wrong passwords from outside --allow: at most UE_AUTH_HASHES_PER_S (2) bcrypts a second after a
# burst of 4 (exporter/ue.h), the rest refused unchecked; --allow's scraper still gets in (8 at a time: the
# per-address limit, 16, would refuse more).  Without the budget all
# 40 were hashed, one after another on the one thread (40 x ~70 ms), every scrape queued behind them.
printf 'basic_auth_users:\n  prom: %s\n' "$HASH" >"$W/basic.yml"
start basic --web.config.file "$W/basic.yml" --allow 127.0.0.2/32 || no "the exporter with basic authentication starts"
BP=$PORT BPID=$last
refusals() { # CHECKED: the count of that kind the exporter last published
	curl -s --interface 127.0.0.2 -u 'prom:s3cret pass' "http://127.0.0.1:$BP/metrics" |
		sed -n "s/^uncore_exporter_auth_refusals_total{checked=\"$1\"} \([0-9]*\).*/\1/p"
}
t0=$(date +%s.%N)
urls=$(for _ in $(seq 40); do printf ' http://127.0.0.1:%s/metrics' "$BP"; done)
curl -s -o /dev/null -Z --parallel-max 8 -u 'prom:guess' $urls
got=$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.2 -u 'prom:s3cret pass' "http://127.0.0.1:$BP/metrics")
check "after the flood the --allow scraper is served: $got" '[ "$got" = 200 ]'
for _ in $(seq 600); do # the counts as of the exporter's next read (every 0.5 s)
	h=$(refusals true) u=$(refusals false)
	[ $((${h:-0} + ${u:-0})) -ge 40 ] && break
	sleep 0.1
done
t1=$(date +%s.%N)
bound=$(echo "$t0 $t1" | awk '{ printf "%d", 4 + 2 * ($2 - $1) + 1 }')
check "40 wrong passwords refused: $h after a bcrypt (at most $bound in the $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s measured), $u unchecked" \
	'[ $((h + u)) -eq 40 ] && [ "$h" -le "$bound" ]'
stop $BPID

# --- 200 TLS clients that never read: the exporter's memory bound counts each connection's GnuTLS session
# (UE_TLS_CONN_BYTES, exporter/ue.h); without it the bound logged was the plain server's and the RSS rose past it
# (a connection more than the clients: the scrape's).
# A sanitizer build's allocator keeps what is freed for a while (its quarantine): off here, as it is no part of
# the exporter's own use.
printf 'tls_server_config:\n  cert_file: pki/server.crt\n  key_file: pki/server.key\n' >"$W/tlsonly.yml"
asan=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${asan:+$asan:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
start crowd --web.config.file "$W/tlsonly.yml" --max-connections 201 --max-connections-per-ip 0 --request-timeout 30 ||
	no "the TLS exporter for the crowd starts"
CP=$PORT CPID=$last
if [ -n "$asan" ]; then export ASAN_OPTIONS="$asan"; else unset ASAN_OPTIONS; fi
BOUND=$(sed -n 's/.*HTTP server.s memory at most \([0-9]*\) kB.*/\1/p' "$W/crowd.log")
check "the TLS exporter's memory bound counts its TLS sessions ($(grep -o 'memory at most.*' "$W/crowd.log"))" \
	'grep -q "KiB state + [0-9]* KiB TLS)" "$W/crowd.log"'
out=$(python3 "${top_srcdir:-.}/tests/exporter_crowd.py" tlsslow $CP $CPID 200 "$P/ca.crt" "${BOUND:-0}")
rc=$?
echo "$out"
check "200 TLS clients that never read: a scrape served, the RSS within the bound" '[ $rc -eq 0 ]'
stop $CPID

# --- client certificates: RequireAndVerifyClientCert and the per-client limit through TLS
cat >"$W/mtls.yml" <<EOF
tls_server_config:
  cert_file: pki/server.crt
  key_file: pki/server.key
  client_ca_file: pki/ca.crt
  client_auth_type: RequireAndVerifyClientCert
basic_auth_users:
  prom: $HASH
EOF
start mtls --web.config.file "$W/mtls.yml" --max-connections-per-ip 2 --allow 127.0.0.2 || no "the mTLS exporter starts"
MP=$PORT MPID=$last
U=https://127.0.0.1:$MP/metrics
got=$(code --cert "$P/client.crt" --key "$P/client.key" -u 'prom:s3cret pass' "$U")
check "a client certificate of the CA and the password: 200 ($got)" '[ "$got" = 200 ]'
got=$(code --cert "$P/client.crt" --key "$P/client.key" -u 'prom:wrong' "$U")
check "a client certificate of the CA, a wrong password: 401 ($got)" '[ "$got" = 401 ]'
got=$(code --tls-max 1.2 -u 'prom:s3cret pass' "$U")
rc=$?
check "no client certificate: the TLS 1.2 handshake refused (curl exit $rc: 35, a TLS connect error; no answer, $got)" \
	'[ $rc -eq 35 ] && [ "$got" = 000 ]'
got=$(code -u 'prom:s3cret pass' "$U")
rc=$?
check "no client certificate over TLS 1.3: no answer (curl exit $rc, $got)" '[ $rc -ne 0 ] && [ "$got" = 000 ]'
got=$(code --tls-max 1.2 --cert "$P/stranger.crt" --key "$P/stranger.key" -u 'prom:s3cret pass' "$U")
rc=$?
check "a client certificate of another CA: the handshake refused (curl exit $rc, $got)" '[ $rc -ne 0 ] && [ "$got" = 000 ]'
# the per-client limit still counts TLS connections: two held open from 127.0.0.1 (the limit), a third
# from 127.0.0.1 refused, an --allow'ed scraper on 127.0.0.2 served
out=$(python3 - "$MP" "$P" <<'EOF'
import socket, subprocess, sys, time
port, p = int(sys.argv[1]), sys.argv[2]
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
time.sleep(0.3)  # the server has accepted them (its accept is the next epoll round)
def curl(src):
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--interface", src, "--cacert", p + "/ca.crt",
                        "--cert", p + "/client.crt", "--key", p + "/client.key", "-u", "prom:s3cret pass",
                        "https://127.0.0.1:%d/metrics" % port], capture_output=True, text=True)
    return r.stdout or "000"
print(curl("127.0.0.1"), curl("127.0.0.2"))
EOF
)
check "with 2 TLS connections of 127.0.0.1 open (its limit) a third is refused and --allow's 127.0.0.2 is served ($out)" \
	'[ "$out" = "000 200" ]'

# --- a real Prometheus: https with the CA, a client certificate and basic_auth (up 1); a wrong password (up 0)
PP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$W/prometheus.yml" <<EOF
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: tls
    scheme: https
    tls_config: {ca_file: "$P/ca.crt", cert_file: "$P/client.crt", key_file: "$P/client.key"}
    basic_auth: {username: prom, password: "s3cret pass"}
    static_configs: [{targets: ["127.0.0.1:$MP"]}]
  - job_name: wrongpass
    scheme: https
    tls_config: {ca_file: "$P/ca.crt", cert_file: "$P/client.crt", key_file: "$P/client.key"}
    basic_auth: {username: prom, password: "s3cret"}
    static_configs: [{targets: ["127.0.0.1:$MP"]}]
EOF
out=$(promtool check config "$W/prometheus.yml" 2>&1)
check "promtool check config passes the scrape configuration" '[ $? -eq 0 ]' || echo "$out"
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" --web.listen-address=127.0.0.1:$PP \
	--log.level=warn >"$W/prometheus.log" 2>&1 &
pids="$pids $!"
API=http://127.0.0.1:$PP
q() {
	r=$(curl -sf --data-urlencode "query=$1" "$API/api/v1/query") || { echo none; return; }
	echo "$r" | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}
up1=none up0=none
for _ in $(seq 600); do
	up1=$(q 'up{job="tls"}') up0=$(q 'up{job="wrongpass"}')
	[ "$up1" = 1 ] && [ "$up0" = 0 ] && break
	sleep 0.2
done
check "Prometheus scrapes over TLS with a client certificate and basic_auth: up 1 ($up1)" '[ "$up1" = 1 ]'
check "with a wrong password: up 0 ($up0)" '[ "$up0" = 0 ]'
err=$(curl -s "$API/api/v1/targets" | python3 -c 'import json, sys
print([t["lastError"] for t in json.load(sys.stdin)["data"]["activeTargets"] if t["labels"]["job"] == "wrongpass"][0])')
check "its target's error is the 401 ($err)" 'echo "$err" | grep -q 401'
got=$(q 'uncore_memory_read_bytes_total{job="tls",socket="0",channel=""}')
check "the scraped series are there ($got bytes read on socket 0)" '[ "$got" != none ]'
stop $MPID
stop $PLPID
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
