/*
 * Text made safe for a terminal or a log (issue 96 point 5; common/util/term_text.c): C0, DEL, C1, the
 * bidirectional controls and the line separators escaped, bytes of no UTF-8 character escaped, everything else
 * kept byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/Basic.h>
#include "harness.h"
#include "util/term_text.h"

/* s escaped into a buffer, and through a stream: both the same, which is returned */
static const char *esc(const char *s)
{
	static char buf[512];
	char *streamed = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&streamed, &n);
	CU_ASSERT_FATAL(f != NULL);
	uc_term_fputs(s, f);
	fclose(f);
	uc_term_escape(buf, sizeof(buf), s);
	CU_ASSERT_STRING_EQUAL(buf, streamed);
	free(streamed);
	return buf;
}

static void test_controls(void)
{
	CU_ASSERT_STRING_EQUAL(esc("plain text, a \\ and 'quotes'"), "plain text, a \\ and 'quotes'");
	CU_ASSERT_STRING_EQUAL(esc("a\tb\nc\rd"), "a\\tb\\nc\\rd");
	CU_ASSERT_STRING_EQUAL(esc("\x1b[2J\x07\x7f"), "\\x1b[2J\\x07\\x7f");
	/* C1: CSI and OSC in one character each */
	CU_ASSERT_STRING_EQUAL(esc("\xc2\x9b" "31m \xc2\x9d" "0;x\xc2\x9c \xc2\x80"), "\\u009b31m \\u009d0;x\\u009c \\u0080");
	/* the bidirectional controls, every one of them, and the line and paragraph separators */
	CU_ASSERT_STRING_EQUAL(esc("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae"),
			       "\\u202a\\u202b\\u202c\\u202d\\u202e");
	CU_ASSERT_STRING_EQUAL(esc("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9"), "\\u2066\\u2067\\u2068\\u2069");
	CU_ASSERT_STRING_EQUAL(esc("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "\\u200e\\u200f\\u061c");
	CU_ASSERT_STRING_EQUAL(esc("job\xe2\x80\xae" "txt.exe"), "job\\u202etxt.exe");
	CU_ASSERT_STRING_EQUAL(esc("\xe2\x80\xa8\xe2\x80\xa9"), "\\u2028\\u2029");
}

static void test_kept(void)
{
	/* other characters, of two, three and four bytes, kept as they are */
	CU_ASSERT_STRING_EQUAL(esc("D\xc3\xbcsseldorf \xc2\xa0 \xe2\x80\x8b \xe2\x80\xaf \xe2\x81\xaa \xd8\x9b"),
			       "D\xc3\xbcsseldorf \xc2\xa0 \xe2\x80\x8b \xe2\x80\xaf \xe2\x81\xaa \xd8\x9b");
	CU_ASSERT_STRING_EQUAL(esc("\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x99\x82"), "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x99\x82");
	CU_ASSERT_STRING_EQUAL(esc(""), "");
	CU_ASSERT_STRING_EQUAL(esc(NULL), "");
}

static void test_malformed(void)
{
	/* a lone C1 byte (CSI to a terminal in an 8-bit mode), a cut sequence, overlong forms, a surrogate */
	CU_ASSERT_STRING_EQUAL(esc("\x9b" "2J"), "\\x9b2J");
	CU_ASSERT_STRING_EQUAL(esc("a\xe2\x80"), "a\\xe2\\x80");
	CU_ASSERT_STRING_EQUAL(esc("\xc0\x9b \xe0\x82\x9b \xed\xa0\x80"), "\\xc0\\x9b \\xe0\\x82\\x9b \\xed\\xa0\\x80");
	CU_ASSERT_STRING_EQUAL(esc("\xf4\x90\x80\x80 \xff"), "\\xf4\\x90\\x80\\x80 \\xff");
	size_t len;
	unsigned cp;
	CU_ASSERT(uc_term_unsafe("\xc2\x9b", &len, &cp) == 1 && len == 2 && cp == 0x9b);
	CU_ASSERT(uc_term_unsafe("\x9b", &len, &cp) == 2 && len == 1 && cp == 0x9b);
	CU_ASSERT(uc_term_unsafe("\xe2\x80\xae", &len, &cp) == 1 && len == 3 && cp == 0x202e);
	CU_ASSERT(uc_term_unsafe("\xf0\x9f\x99\x82", &len, &cp) == 0 && len == 4 && cp == 0x1f642);
	CU_ASSERT(uc_term_unsafe("", &len, &cp) == 0 && len == 0);
}

static void test_cut(void)
{
	char buf[8];
	/* what does not fit is left out whole: never half an escape or half a character */
	CU_ASSERT(uc_term_escape(buf, sizeof(buf), "ab\x1b\x1b") == 6 && !strcmp(buf, "ab\\x1b"));
	CU_ASSERT(uc_term_escape(buf, sizeof(buf), "abcd\x1b") == 4 && !strcmp(buf, "abcd"));
	CU_ASSERT(uc_term_escape(buf, sizeof(buf), "abcde\xe6\x97\xa5") == 5 && !strcmp(buf, "abcde"));
	CU_ASSERT(uc_term_escape(buf, 1, "abc") == 0 && buf[0] == 0);
	CU_ASSERT(uc_term_escape(buf, 0, "abc") == 0);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "controls escaped: C0, DEL, C1, bidirectional, separators", test_controls },
		{ "other characters kept", test_kept },
		{ "bytes of no UTF-8 character escaped", test_malformed },
		{ "a buffer's end cuts between characters", test_cut },
		{ NULL, NULL },
	};
	return run_suite("term_text", tests);
}
