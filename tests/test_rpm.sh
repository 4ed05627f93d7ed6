#!/bin/sh
# The RPMs, as a RHEL 9 site would build them, with Debian's rpm: packaging/rpm/intel-uncore.spec builds
# its binary RPMs from the make dist tarball, rpmlint reports no error, each RPM holds the files of its
# Debian package (built here from debian/ as tests/test_deb.sh builds it; the paths the two distributions
# name differently mapped one by one below), and the RPMs installed into a scratch root count on the
# simulator.  What an EL machine would add and this one cannot: doc/packaging.md.
. "${top_srcdir:-.}/tests/check.sh" # ok, no, check; $W
SRC=$(cd "${top_srcdir:-.}" && pwd)
for t in rpmbuild rpmlint rpm; do
	command -v $t >/dev/null 2>&1 ||
		{ echo "SKIP: $t is missing: the RPM spec is not built here (scripts/install-deps installs rpm and rpmlint)"; exit 77; }
done
for t in dpkg-buildpackage dh; do
	command -v $t >/dev/null 2>&1 || { echo "FAIL: $t is missing (scripts/install-deps installs it)"; exit 1; }
done
# the builds below are make's own, not make check's (its jobserver is not theirs)
unset MAKEFLAGS MFLAGS MAKELEVEL
export TMPDIR="$W" # rpmbuild's and dpkg-buildpackage's scratch files go with W
# Debian's rpm keeps its database in ~/.rpmdb and reads ~/.rpmmacros: this test's are W's
export HOME="$W"
SPEC=$SRC/packaging/rpm/intel-uncore.spec

# --- the release tarball, make dist of the build tree (configured already: make dist takes every file,
# whatever configure chose; graphite_env.sh runs make there too)
mkdir "$W/dist"
(cd "${top_builddir:-.}" && rm -f intel-uncore-*.tar.gz && make -s dist && mv intel-uncore-*.tar.gz "$W/dist/") >"$W/dist.log" 2>&1
tarball=$(ls "$W"/dist/intel-uncore-*.tar.gz 2>/dev/null)
check "make dist made the tarball (${tarball##*/})" '[ -f "$tarball" ]' || { tail -20 "$W/dist.log"; echo "$pass passed, $fail failed"; exit 1; }
V=${tarball##*/intel-uncore-}
V=${V%.tar.gz}
specv=$(rpmspec -q --srpm --qf '%{version}' "$SPEC" 2>/dev/null)
check "the spec's Version is configure.ac's ($specv, $V)" '[ "$specv" = "$V" ]'

# --- rpmbuild -bb from the tarball.  --nodeps: BuildRequires are EL's package names, and this machine's rpm
# database is empty (Debian installs them through dpkg: pciutils-devel is libpci-dev here); the EL9
# systemd macros come from tests/rpm_el9.macros; collectd's headers are collectd-dev's.  No -debuginfo or
# -debugsource RPMs (debug_package %{nil}): rpm 4.20 (Debian 13), as EL9's rpmbuild, would split the symbols
# into them, which nothing here reads (Debian's counterpart, -dbgsym, is not among the packages compared);
# rpm's brp-strip strips the binaries instead, as find-debuginfo would have.
mkdir -p "$W/rpm/SOURCES"
cp "$tarball" "$W/rpm/SOURCES/"
rpmbuild --load "$SRC/tests/rpm_el9.macros" --define "_topdir $W/rpm" --define "_tmppath $W" \
	--define "collectd_include /usr/include/collectd" --define 'debug_package %{nil}' --nodeps -bb "$SPEC" >"$W/rpmbuild.log" 2>&1
rc=$?
check "rpmbuild -bb builds the RPMs from ${tarball##*/} (rc $rc)" '[ $rc -eq 0 ]' || tail -30 "$W/rpmbuild.log"
# (debug RPMs, should a macro file bring them back, are left out as before)
rpms=$(ls "$W"/rpm/RPMS/*/*.rpm 2>/dev/null | grep -Ev '/[^/]*-debug(info|source)-[^/]*$')
names=$(for r in $rpms; do rpm -qp --qf '%{name}\n' "$r"; done | sort | tr '\n' ' ')
check "six RPMs: $names" '[ "$names" = "intel-uncore intel-uncore-collectd intel-uncore-devel intel-uncore-exporter intel-uncore-libs intel-uncore-slurm " ]'
# the rpmlintrc names each check it leaves out and why (rpmlint 2.4's defaults are openSUSE's); one rc serves
# Debian 12's rpmlint and Debian 13's (its spelling filter unused on 12: --ignore-unused-rpmlintrc)
rpmlint --ignore-unused-rpmlintrc -r "$SRC/packaging/rpm/intel-uncore.rpmlintrc" $rpms >"$W/rpmlint.txt" 2>&1
errors=$(grep -c ': E: ' "$W/rpmlint.txt")
check "rpmlint: no error ($errors)" '[ "$errors" -eq 0 ]' || grep ': E: ' "$W/rpmlint.txt"
echo "rpmlint warnings: $(grep -c ': W: ' "$W/rpmlint.txt")"
rpm_of() { ls "$W"/rpm/RPMS/*/"$1"-"$V"-*.rpm 2>/dev/null; }

# --- what installs and removes the unit and the tmpfiles.d lines (EL9 runs these scriptlets; here they are
# read: no EL userland runs them).  No preset comes with the exporter: EL9's default preset disables it.
scripts=$(rpm -qp --scripts "$(rpm_of intel-uncore-exporter)" 2>/dev/null)
check "the exporter's %post, %preun and %postun hand uncore-exporter.service to systemd" \
	'echo "$scripts" | grep -q "install-system-units uncore-exporter.service" &&
	echo "$scripts" | grep -q "remove-system-units uncore-exporter.service" &&
	echo "$scripts" | grep -q "mark-restart-system-units uncore-exporter.service"'
check "no RPM ships a systemd preset (the unit stays disabled until enabled)" \
	'! rpm -qpl $rpms | grep -q "system-preset"'
scripts=$(rpm -qp --scripts "$(rpm_of intel-uncore-libs)" 2>/dev/null)
check "the library's %post applies its tmpfiles.d lines" 'echo "$scripts" | grep -q "systemd-tmpfiles --create libuncore0.conf"'
check "the collectd plugin requires collectd" 'rpm -qp --requires "$(rpm_of intel-uncore-collectd)" | grep -q "^collectd(x86-64)"'
check "the -devel provides pkgconfig(intel-uncore) = $V" 'rpm -qp --provides "$(rpm_of intel-uncore-devel)" | grep -qx "pkgconfig(intel-uncore) = $V"'

# --- the Debian packages, from debian/ as test_deb.sh builds them (their -dbgsym files are not compared)
# (built once for this test and the other that needs them: tests/shared_debs.sh)
"$SRC/tests/shared_debs.sh" "$W/deb" "$W/deb.log"
rc=$?
check "dpkg-buildpackage -us -uc -b builds the .debs (rc $rc)" '[ $rc -eq 0 ]' || tail -30 "$W/deb.log"

# --- file lists: regular files and links ("f PATH", "l PATH"), each distribution's own documentation left
# out on both sides (Debian's /usr/share/doc/PKG/{copyright,changelog.gz}, the RPMs' %license files), and
# rpm's /usr/lib/.build-id links (Debian's are in the -dbgsym packages)
deb_list() { # Debian's paths as the spec names them
	dpkg-deb -c "$W/deb/$1"_"$V"_*.deb | awk '$1 ~ /^[-l]/ { print substr($1, 1, 1) == "l" ? "l" : "f", $6 }' |
		sed -e 's#^\(.\) \./#\1 /#' \
			-e '\#^. /usr/share/doc/#d' \
			-e 's#/usr/lib/x86_64-linux-gnu/#/usr/lib64/#' \
			-e 's#^\(.\) /usr/lib/collectd/#\1 /usr/lib64/collectd/#' \
			-e 's#^\(.\) /etc/collectd/collectd.conf.d/#\1 /etc/collectd.d/#' \
			-e 's#^\(.\) /lib/systemd/system/#\1 /usr/lib/systemd/system/#' | sort
}
rpm_list() {
	for p in "$@"; do
		rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$(rpm_of "$p")"
	done | awk '$1 ~ /^[-l]/ { print substr($1, 1, 1) == "l" ? "l" : "f", $2 }' |
		grep -v -e ' /usr/share/licenses/' -e ' /usr/lib/\.build-id/' | sort
}
# the Debian package and its RPMs: the Slurm prolog/epilog, in intel-uncore on Debian, is a subpackage here
for pair in libuncore0:intel-uncore-libs libuncore-dev:intel-uncore-devel intel-uncore:intel-uncore,intel-uncore-slurm \
	collectd-intel-uncore:intel-uncore-collectd prometheus-uncore-exporter:intel-uncore-exporter; do
	deb=${pair%%:*}
	rpms_of=$(echo "${pair#*:}" | tr ',' ' ')
	deb_list "$deb" >"$W/list.deb"
	rpm_list $rpms_of >"$W/list.rpm"
	check "$deb's $(wc -l <"$W/list.deb") files are the files of $rpms_of" \
		'[ -s "$W/list.deb" ] && cmp -s "$W/list.deb" "$W/list.rpm"' || diff "$W/list.deb" "$W/list.rpm"
done

# --- the RPMs installed into a scratch root.  --nodeps: that root's rpm database knows none of the
# libraries they require (glibc, jansson, pciutils-libs, systemd, collectd: Debian's, through dpkg);
# --noscripts: the scriptlets would run chrooted into a root without /bin/sh.  The programs then run with
# this machine's loader and libraries and the root's libuncore (LD_LIBRARY_PATH): no EL userland is here.
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: rpm --root chroots into the scratch root, which needs root (run as root, as CI does)"
else
	R=$W/root
	mkdir "$R"
	# the database where EL keeps it, /var/lib/rpm of the root
	rpm --root "$R" --dbpath /var/lib/rpm --initdb && rpm --root "$R" --dbpath /var/lib/rpm -i --nodeps --noscripts $rpms >"$W/install.log" 2>&1
	rc=$?
	check "rpm --root installs the six RPMs (rc $rc)" '[ $rc -eq 0 ]' || cat "$W/install.log"
	n=$(rpm --root "$R" --dbpath /var/lib/rpm -qa | wc -l)
	check "the scratch root's rpm database holds them ($n)" '[ "$n" -eq 6 ]'
	run() { LD_LIBRARY_PATH=$R/usr/lib64 "$@"; }
	lib=$(run ldd "$R/usr/bin/uncore" | awk '$1 == "libuncore.so.0" { print $3 }')
	check "the root's uncore takes the root's libuncore.so.0 ($lib)" '[ "$lib" = "$R/usr/lib64/libuncore.so.0" ]'
	out=$(run "$R/usr/bin/uncore" --version 2>&1)
	check "uncore --version: $out" 'echo "$out" | grep -q "$V"'
	out=$(run "$R/usr/bin/uncore" --backend sim:snbep,clock=manual stat -M mem_bw_read --duration 1 2>&1)
	check "uncore --backend sim:snbep stat -M mem_bw_read: 12.8 and 25.6 GB/s, the simulator's profile" \
		'echo "$out" | grep -q "^socket0 *mem_bw_read *12.8000 GB/s$" && echo "$out" | grep -q "^socket1 *mem_bw_read *25.6000 GB/s$"' ||
		echo "$out"
	out=$(run "$R/usr/bin/uncore-exporter" --backend sim:emr --check-config 2>&1)
	check "the root's uncore-exporter --check-config lists the memory counters" \
		'echo "$out" | grep -q "^uncore_memory_read_bytes_total counter, bytes"'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
