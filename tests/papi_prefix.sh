# Sourced by the PAPI tests (tests/test_papi*.sh): P, the prefix of PAPI built with the component
# (scripts/build-papi), from configure --with-papi=PREFIX or make check PAPI_PREFIX=PREFIX, as scripts/test
# hands it.  Without one the test is skipped, but not in scripts/test's run (IU_TEST_RUN), which builds PAPI:
# there a prefix that did not reach make check is a failure, never three tests quietly gone.
P=${PAPI_PREFIX:-}
if [ -z "$P" ]; then
	if [ -n "${IU_TEST_RUN:-}" ]; then
		echo "FAIL: scripts/test built PAPI, but its prefix did not reach make check (PAPI_PREFIX)"
		exit 1
	fi
	echo "SKIP: no PAPI here: configure --with-papi=PREFIX, or make check PAPI_PREFIX=PREFIX (scripts/build-papi builds it)"
	exit 77
fi
