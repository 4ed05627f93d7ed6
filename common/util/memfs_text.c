/*
 * A tree of files as text (memfs_text.h): a snapshot's device tree (doc/snapshot.md), the device map built once
 * with every answer read kept (devices/dev_fs.h rec), written as one text member and read back into the tree a
 * replay presents.  One line a file:
 *
 *   d PATH          a directory (a root bus, a function, a name directory such as net/ens1f0)
 *   t PATH TEXT     a file's first line (vendor, class, numa_node, an uncore_iio_<n>/die<d>)
 *   l PATH TARGET   a symbolic link (the driver link)
 *   b PATH HEX      a binary file's bytes up to the last read (a PCI config space; unread bytes are zeros)
 *
 * fields separated by one tab; a text holding a tab, a newline or a backslash is written as b.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memfs_text.h"
#include "error.h"

#define HEADER "# intel-uncore device tree 1: the files the device map read (doc/snapshot.md)\n"

int memfs_text(const struct memfs *m, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	if (!f)
		return uc_err("out of memory");
	fputs(HEADER, f);
	for (int i = 0; i < m->n; i++) {
		const struct memfs_file *e = &m->f[i];
		int plain = strlen(e->text) == e->len && !strpbrk(e->text, "\t\n\\");
		if (strpbrk(e->path, "\t\n"))
			continue; /* no sysfs name holds one */
		if (e->dir)
			fprintf(f, "d\t%s\n", e->path);
		else if (e->link || plain)
			fprintf(f, "%c\t%s\t%s\n", e->link ? 'l' : 't', e->path, e->text);
		else {
			fprintf(f, "b\t%s\t", e->path);
			for (size_t k = 0; k < e->len; k++)
				fprintf(f, "%02x", (unsigned char)e->text[k]);
			fputc('\n', f);
		}
	}
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return uc_err("out of memory");
	}
	return 0;
}

static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

/* The text of f (named file in messages) into m, f closed: 0, or -1 with a message naming its line */
static int load(FILE *f, const char *file, struct memfs *m)
{
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, no = 0;
	ssize_t n;
	while (!rc && (n = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		char *path = line + 2, *val = strchr(path, '\t');
		if (n < 3 || line[1] != '\t' || *path != '/' || (line[0] != 'd') != (val != NULL)) {
			rc = uc_err("%s line %d: not a line of a device tree (d, t, l or b, a tab, a path)", file, no);
			break;
		}
		if (val)
			*val++ = 0;
		int mem = 0; /* memfs out of memory */
		if (line[0] == 'd')
			mem = memfs_put_bytes(m, path, NULL, 0, 1);
		else if (line[0] == 't' || line[0] == 'l')
			mem = memfs_put(m, path, val, line[0] == 'l');
		else if (line[0] == 'b') {
			size_t k = strlen(val);
			for (size_t i = 0; i < k / 2 && !rc; i++) { /* in place: byte i from characters 2i, 2i + 1 */
				int hi = hexval(val[2 * i]), lo = hexval(val[2 * i + 1]);
				if (hi < 0 || lo < 0)
					rc = uc_err("%s line %d: '%.8s' is not hexadecimal bytes", file, no, val + 2 * i);
				val[i] = (char)(hi << 4 | lo);
			}
			if (!rc && k % 2)
				rc = uc_err("%s line %d: an odd number of hexadecimal digits", file, no);
			mem = !rc && memfs_put_bytes(m, path, val, k / 2, 0);
		} else
			rc = uc_err("%s line %d: '%c' is no kind of entry (d, t, l or b)", file, no, line[0]);
		if (mem)
			rc = uc_err("out of memory");
	}
	free(line);
	fclose(f);
	return rc ? -1 : 0;
}

int memfs_text_parse(const char *name, const char *text, size_t len, struct memfs *m)
{
	FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
	if (!f)
		return len ? uc_err("out of memory") : 0; /* (an empty text: no file) */
	return load(f, name, m);
}
