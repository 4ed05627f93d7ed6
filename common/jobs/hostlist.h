/*
 * Slurm's hostlist syntax ("gpu[01-04,07]", "a[1-2]b[3-4]", "x,y"), as gres.conf's NodeName= and File= write it:
 * a comma list of elements, each literal text with bracket lists of decimal ranges, a zero-padded low end
 * ("01") padding the range's numbers to its width.
 *
 * A list stands for the product of its brackets' ranges, which a line of a few kB can make astronomical
 * (issue 96: four brackets of ranges, 3,250 bytes, ran every scan past 120 s).  So the names a list stands
 * for are counted without expanding them, and a name is matched one bracket at a time over the places of the
 * name a bracket's number may end (at most the name's length), never over the product; both bounded below.
 */
#ifndef UNCORE_HOSTLIST_H
#define UNCORE_HOSTLIST_H

/* The most names one NodeName= list may stand for: far more than any cluster's nodes. */
#define HOSTLIST_MAX_NAMES (1ul << 20)
/* The most range comparisons one match may take (a few ms): a list of 10,000 single nodes matched against a
 * six-digit name takes 60,000. */
#define HOSTLIST_MAX_STEPS (1ul << 21)
/* The longest name matched (Linux's host names are at most 64 bytes); a longer one matches nothing. */
#define HOSTLIST_NAME_MAX 255

/* How many names list stands for (each element its brackets' range sizes multiplied), counted without
 * expanding: at most max, or max + 1 for more. */
unsigned long hostlist_size(const char *list, unsigned long max);

/* Whether name is one of list's: 1 or 0, or -1 when the match took more than max_steps comparisons of a
 * number with a range.  *steps (may be NULL) gets the comparisons taken. */
int hostlist_match(const char *list, const char *name, unsigned long max_steps, unsigned long *steps);
/* hostlist_match within HOSTLIST_MAX_STEPS: 1 when name is one of list's, 0 otherwise (or past the steps). */
int hostlist_has(const char *list, const char *name);

/* Its names in the order written, at most max into out (each below 64 characters): how many, or -1 (malformed,
 * or more than max). */
int hostlist_expand(const char *list, char (*out)[64], int max);

#endif
