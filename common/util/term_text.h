/*
 * Text from outside the program -- a record's string, a label, a line of a kernel or Slurm file, a message
 * that quotes one -- made safe to print on a terminal or into a log.  Escaped are the characters that move
 * the terminal, forge a line or reorder what is shown:
 *   - C0 controls and DEL (ESC starts a terminal sequence; CR and LF forge lines): \t, \n, \r, else \xHH;
 *   - C1 controls U+0080-U+009F (CSI, OSC in one character): \u0080 .. \u009f;
 *   - the bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E and U+2066-U+2069 (they make a line
 *     read otherwise than it is stored), and the line and paragraph separators U+2028, U+2029: \uHHHH;
 *   - a byte of no well-formed UTF-8 character (a terminal in an 8-bit mode takes 0x9b as CSI): \xHH.
 * Everything else is kept, a backslash included (perf's formulas spell terms "event\=0x35"), so that text
 * without such characters is shown as it is.
 *
 * Nothing here depends on the rest of the library, so that the CLI and the exporter build it in too (they
 * link the library's public symbols only); the library's own readers (common/memory: EDAC's and SMBIOS's
 * strings) and the adaptors that link libuncore_impl call it directly.
 */
#ifndef UNCORE_TERM_TEXT_H
#define UNCORE_TERM_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* What is at s: 0 a character shown as it is, 1 a control (its code point into *cp), 2 a byte of no
 * well-formed UTF-8 character (the byte into *cp); its length in bytes into *len (1-4; at the end 0, and 0
 * returned). */
int uc_term_unsafe(const char *s, size_t *len, unsigned *cp);

/* s escaped as above into out (len bytes with the NUL; a character or escape that does not fit is left out
 * whole, never cut): the length written. */
size_t uc_term_escape(char *out, size_t len, const char *s);

/* s escaped as above, written to f (s NULL: nothing). */
void uc_term_fputs(const char *s, FILE *f);

/* A log's message: fmt and ap formatted (cut at 4095 bytes), one newline at its end dropped, then escaped as
 * uc_term_escape does into out: the length written.  For a program's log function, whose line is then one
 * line whatever the message quotes. */
size_t uc_term_vformat(char *out, size_t len, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

#endif
