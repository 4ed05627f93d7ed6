/*
 * gen_c: how the table generators (gen_events, gen_perfmon) write data into the C they generate.
 *
 * Their input (Intel's perfmon JSON and mapfile, .evt and metric files) is data, but printed into C
 * source it is compiled into every program linked with the library: a '"' or '\' in it could end a
 * string literal, a star and a slash end a comment, and "??/" is a trigraph for '\' wherever trigraphs are on
 * (gcc -std=c11 turns them on), so even a '"' escaped as \" could end the literal (issue 45 point 7).
 * So every byte outside a small safe set (letters, digits, space and punctuation without ? \ " ' *)
 * is written as a 3-digit octal escape, the same in string literals and in comments: no trigraph,
 * line splice, end of literal or end of comment can then appear, and the compiled string holds
 * exactly the input's bytes.  Names that become file names or C identifiers are checked instead.
 */
#ifndef GEN_C_H
#define GEN_C_H

#include <stddef.h>
#include <stdio.h>

/* The n bytes of s, each outside the safe set as \ooo ("?" -> \077): for a string literal or a comment. */
void gen_c_bytes(FILE *out, const char *s, size_t n);
/* s as a C string literal: "..." with its bytes as gen_c_bytes writes them. */
void gen_c_string(FILE *out, const char *s);
/* The bytes of in as string literals that concatenate to them, one a line of the file ("\t\"...\"\n"),
 * or "" for an empty file.  -1 on a read error. */
int gen_c_embed(FILE *out, FILE *in);
/* Is s not empty and every byte of it in [A-Za-z0-9._/-] or in extra (NULL: none)? */
int gen_c_plain(const char *s, const char *extra);
/* Is s a C identifier ([A-Za-z_][A-Za-z0-9_]*)? */
int gen_c_identifier(const char *s);

#endif
