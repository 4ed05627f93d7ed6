/* Minimal CUnit runner shared by the test programs. */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include "tmpdir.h"

struct test_case {
	const char *name;
	void (*fn)(void);
};

static inline int run_suite(const char *suite, const struct test_case *tests)
{
	CU_pSuite s;
	unsigned failed;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite(suite, NULL, NULL);
	for (const struct test_case *t = tests; t->name; t++)
		CU_add_test(s, t->name, t->fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}

/* Relative closeness for counts derived from rates. */
#define ASSERT_NEAR(a, b, tol) CU_ASSERT(fabs((double)(a) - (double)(b)) <= (tol))

#endif
