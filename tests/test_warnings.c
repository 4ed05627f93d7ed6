/*
 * The warnings of a thread are numbered and drained: a daemon that drains after each scan hands out every
 * warning once, however many come (common/util/warnings.c).  Ten thousand, drained in scans of uneven size
 * or not at all, come out each once and in order; past the 256 KiB kept undrained the oldest go, and the
 * drain says exactly how many; the old list (uncore_warnings) and a scan's take-back keep their meaning.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "uncore.h"
#include "util/error.h"

#define MANY 10000

/* The lines of a drain checked as "w <n>" for n = *want on; *want moved past them; the lines counted. */
static int check_lines(const char *text, uint64_t *want, const char *tag)
{
	int n = 0;
	for (const char *w = text; *w; n++) {
		unsigned long long got = 0;
		char tail = 0;
		int k = sscanf(w, "w %llu%c", &got, &tail);
		if (k != 2 || tail != '\n' || got != *want) {
			fprintf(stderr, "%s: line '%.*s' where 'w %llu' was due\n", tag, (int)strcspn(w, "\n"), w,
				(unsigned long long)*want);
			CU_FAIL("a warning out of its place");
			return -1;
		}
		(*want)++;
		w += strcspn(w, "\n") + 1;
	}
	return n;
}

static void test_drained_in_scans(void)
{
	uncore_warnings_clear();
	uint64_t base = uncore_warnings_count(), want = base + 1, first = 0;
	int made = 0, got = 0, scan = 1;
	while (made < MANY) {
		for (int i = 0; i < scan && made < MANY; i++, made++)
			uc_warn("w %llu", (unsigned long long)(base + 1 + (uint64_t)made));
		const char *d = uncore_warnings_drain(&first);
		if (*d)
			CU_ASSERT_EQUAL(first, want); /* no gap: nothing left out between two drains */
		int n = check_lines(d, &want, "scans");
		if (n < 0)
			return;
		got += n;
		scan = scan * 7 % 97 + 1; /* scans of 1 to 97 warnings */
	}
	CU_ASSERT_EQUAL(got, MANY);
	CU_ASSERT_EQUAL(uncore_warnings_count(), base + MANY);
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(NULL), ""); /* each once */
	CU_ASSERT_STRING_EQUAL(uncore_warnings(), "");        /* a drain takes them from the old list too */
}

static void test_undrained_all_kept(void)
{
	uint64_t base = uncore_warnings_count(), want = base + 1, first = 0;
	for (int i = 0; i < MANY; i++)
		uc_warn("w %llu", (unsigned long long)(base + 1 + (uint64_t)i));
	const char *d = uncore_warnings_drain(&first);
	CU_ASSERT_EQUAL(first, base + 1);
	CU_ASSERT_EQUAL(check_lines(d, &want, "undrained"), MANY);
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(NULL), "");
}

/* Past what is kept undrained (256 KiB): the oldest left out, counted exactly; the newest kept in order. */
static void test_flood_counted(void)
{
	char pad[200];
	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = 0;
	uint64_t base = uncore_warnings_count(), first = 0;
	const int flood = 4000; /* 4000 x 220 bytes: three times what is kept */
	for (int i = 0; i < flood; i++)
		uc_warn("w %llu %s", (unsigned long long)(base + 1 + (uint64_t)i), pad);
	const char *d = uncore_warnings_drain(&first);
	unsigned long long lost = 0;
	CU_ASSERT_FATAL(sscanf(d, "(%llu earlier warnings left out", &lost) == 1);
	CU_ASSERT_EQUAL(first, base + 1);
	const char *w = strchr(d, '\n') + 1;
	int kept = 0;
	uint64_t want = base + 1 + lost;
	for (; *w; kept++, want++) {
		unsigned long long n = 0;
		CU_ASSERT_FATAL(sscanf(w, "w %llu ", &n) == 1);
		CU_ASSERT_EQUAL_FATAL(n, want);
		w += strcspn(w, "\n") + 1;
	}
	CU_ASSERT_EQUAL(lost + (unsigned long long)kept, (unsigned long long)flood); /* none unaccounted */
	CU_ASSERT(kept > 1000 && lost > 2000);
	CU_ASSERT(strlen(d) <= (256u << 10) + 200);
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(NULL), "");
	uc_warn("after");
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(&first), "after\n"); /* the count said once */
	CU_ASSERT_EQUAL(first, base + (uint64_t)flood + 1);
}

/* The list since the last open or clear, for programs written before the drain; a scan's take-back. */
static void test_old_list_and_rewind(void)
{
	(void)uncore_warnings_drain(NULL);
	uc_warn("before");
	uc_clear_warnings(); /* an open: the old list starts afresh, the drain still hands out what came before */
	uc_warn("one");
	CU_ASSERT_STRING_EQUAL(uncore_warnings(), "one\n");
	uint64_t mark = uc_warn_mark(), count = uncore_warnings_count();
	CU_ASSERT_EQUAL(mark, count + 1);
	uc_warn("again");
	uc_warn("and again");
	CU_ASSERT_STRING_EQUAL(uc_warnings_from(mark), "again\nand again\n");
	uc_warn_rewind(mark); /* a repeat of the last scan's: taken back, its numbers given again */
	CU_ASSERT_EQUAL(uncore_warnings_count(), count);
	uc_warn("two");
	CU_ASSERT_EQUAL(uncore_warnings_count(), count + 1);
	uint64_t first = 0;
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(&first), "before\none\ntwo\n");
	CU_ASSERT_EQUAL(first, count - 1);
	uc_warn("three");
	uncore_warnings_clear(); /* said by the program: forgotten, for the drain too */
	CU_ASSERT_STRING_EQUAL(uncore_warnings(), "");
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(NULL), "");
}

static void *other(void *arg)
{
	(void)arg;
	uc_warn("the other thread's");
	for (int i = 0; i < 100; i++) /* its store goes when it ends (ASan's leak check) */
		uc_warn("w %d", i);
	const char *d = uncore_warnings_drain(NULL), *head = "the other thread's\nw 0\n";
	return !strncmp(d, head, strlen(head)) && !strstr(d, "mine") && strstr(d, "\nw 99\n") ? (void *)1 : NULL;
}

static void test_per_thread(void)
{
	(void)uncore_warnings_drain(NULL);
	uc_warn("mine");
	pthread_t t;
	void *ok = NULL;
	CU_ASSERT_FATAL(pthread_create(&t, NULL, other, NULL) == 0);
	pthread_join(t, &ok);
	CU_ASSERT(ok == (void *)1); /* its drain held its 101, not mine */
	CU_ASSERT_STRING_EQUAL(uncore_warnings_drain(NULL), "mine\n");
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "10000 warnings drained in scans of 1 to 97: each once, in order", test_drained_in_scans },
		{ "10000 warnings undrained: one drain hands out all", test_undrained_all_kept },
		{ "a flood past 256 KiB: the oldest left out, counted exactly", test_flood_counted },
		{ "the list since the last open, a scan's take-back", test_old_list_and_rewind },
		{ "warnings are per thread", test_per_thread },
		{ NULL, NULL },
	};
	return run_suite("warnings", tests);
}
