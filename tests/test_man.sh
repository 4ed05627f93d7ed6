#!/bin/sh
# The manual pages: uncore(1) renders with man -l without a warning and names every option and
# command the program's own help lists; libuncore(3) every function of uncore.h; intel_uncore(5)
# every option the collectd plugin's configuration parser takes.  All three fit in 80 columns and carry
# the package version in their footers (configure writes it into the pages of the build directory).  Every
# page, uncore-exporter(8) too, renders without a warning also without a locale (LC_ALL=C).
. "$(dirname "$0")/check.sh" # ok, no, check
UNCORE=${top_builddir:-.}/uncore
PAGE=${top_builddir:-.}/doc/uncore.1
if ! command -v man >/dev/null 2>&1; then
	echo "FAIL: man is not installed (scripts/install-deps installs man-db)"
	exit 1
fi
err=$(MANWIDTH=100 man -l "$PAGE" 2>&1 >/dev/null)
check "uncore(1) renders without a warning${err:+ ($err)}" '[ -z "$err" ]'
text=$(MANWIDTH=400 man -l "$PAGE" 2>/dev/null | col -b)
check "uncore(1) has its sections" \
	'for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS ENVIRONMENT "EXIT STATUS" EXAMPLES; do echo "$text" | grep -q "^$s" || exit 1; done'
help=$($UNCORE --help; for c in info list stat allowlist jobs job help version; do $UNCORE help $c; done)
# every -x and --long the help shows after a space, '[', '(' or '|' (not "msr-safe")
opts=$(echo "$help" | grep -oE -- '(^|[[ (|])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[^-]*//; s/-$//' | sort -u)
echo "options the program lists: $(echo $opts)"
missing=
for o in $opts; do
	echo "$text" | grep -q -- "$o\b" || missing="$missing $o"
done
check "uncore(1) names every option of the program's help${missing:+ (missing:$missing)}" '[ -z "$missing" ] && [ -n "$opts" ]'
for c in info list stat allowlist jobs job help; do
	check "uncore(1) describes the command $c" 'echo "$text" | grep -Eq "^ +$c( |$)"'
done
vars=$(echo "$help" | grep -o '\$UNCORE_[A-Z_]*[A-Z]\|UNCORE_[A-Z_]*[A-Z]=' | tr -d '$=' | sort -u)
missing=
for v in $vars; do echo "$text" | grep -q "^ *$v$" || missing="$missing $v"; done
check "uncore(1) lists every environment variable the help names ($(echo $vars))${missing:+ (missing:$missing)}" '[ -z "$missing" ]'

DOC=${top_builddir:-.}/doc
version=$(sed -n 's/^PACKAGE_VERSION = //p' "${top_builddir:-.}/Makefile")
for page in uncore.1 libuncore.3 intel_uncore.5; do
	# the widest lines as a terminal of 80 columns shows them (LC_ALL=C: one byte per column)
	wide=$(LC_ALL=C MANWIDTH=80 man -l "$DOC/$page" 2>/dev/null | col -bx | awk 'length > 80 { print length ": " $0 }')
	check "$page: every line fits in 80 columns${wide:+ (wider: $wide)}" '[ -z "$wide" ]'
	foot=$(MANWIDTH=80 man -l "$DOC/$page" 2>/dev/null | col -bx | sed '/^ *$/d' | tail -1)
	check "$page: the footer shows the package version $version ($foot)" \
		'[ -n "$version" ] && echo "$foot" | grep -q "^intel-uncore $version "'
done
for page in libuncore.3 intel_uncore.5; do
	for w in 80 100; do
		err=$(MANWIDTH=$w man -l "$DOC/$page" 2>&1 >/dev/null)
		check "$page renders at $w columns without a warning${err:+ ($err)}" '[ -z "$err" ]'
	done
done
# every page once more without a locale (a fresh root has no LANG): troff then reads the bytes as they are
# and warns of what a UTF-8 locale lets pass, such as a form feed typed where \f was meant (issue 89)
for page in uncore.1 libuncore.3 intel_uncore.5 uncore-exporter.8; do
	[ -f "$DOC/$page" ] || continue # the exporter's page is built with the exporter
	err=$(env -u LANG -u LANGUAGE -u LC_CTYPE -u LC_MESSAGES LC_ALL=C MANWIDTH=80 man -l "$DOC/$page" 2>&1 >/dev/null)
	check "$page renders without a locale (LC_ALL=C) without a warning${err:+ ($err)}" '[ -z "$err" ]'
done
lib=$(MANWIDTH=400 man -l "$DOC/libuncore.3" 2>/dev/null | col -b)
check "libuncore(3) has its sections" \
	'for s in NAME SYNOPSIS DESCRIPTION FUNCTIONS "RETURN VALUE" ENVIRONMENT EXAMPLE; do echo "$lib" | grep -q "^$s" || exit 1; done'
check "libuncore(3) states the thread and error contract" 'echo "$lib" | grep -q "^   Threads" && echo "$lib" | grep -q "^   Errors"'
funcs=$(grep -oE '\buncore_[a-z_]+\(' "${top_srcdir:-.}/common/include/uncore.h" | tr -d '(' | sort -u)
missing=
for f in $funcs; do echo "$lib" | grep -q "\b$f()" || echo "$lib" | grep -q "\b$f(" || missing="$missing $f"; done
check "libuncore(3) names every function of uncore.h ($(echo $funcs | wc -w))${missing:+ (missing:$missing)}" \
	'[ -z "$missing" ] && [ -n "$funcs" ]'
cd_page=$(MANWIDTH=400 man -l "$DOC/intel_uncore.5" 2>/dev/null | col -b)
keys=$(grep -oE 'strcasecmp\(o->key, "[A-Za-z]+"\)' "${top_srcdir:-.}/collectd_plugin/iu_config.c" | grep -oE '"[A-Za-z]+"' | tr -d '"')
missing=
for k in $keys; do echo "$cd_page" | grep -Eq "^       $k( |$)" || missing="$missing $k"; done
check "intel_uncore(5) describes every option the plugin parses ($(echo $keys))${missing:+ (missing:$missing)}" \
	'[ -z "$missing" ] && [ -n "$keys" ]'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
