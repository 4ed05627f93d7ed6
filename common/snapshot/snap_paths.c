/* snap_hide_paths (snapshot.h): what the archive does not keep of the user's own files.  A snapshot is sent
 * with a bug report; the backend's profile= and shared= files and the sysroot are the user's paths (a home
 * directory, a project's name), and the machine is the same without them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"
#include "util/env.h"
#include "util/error.h"

#define HIDDEN "[path not kept]"

static int name_char(char c) { return isalnum((unsigned char)c) || strchr("._-/~+", c); }
#define MAX_PATHS 8

/* The paths of backend's profile= and shared= options, and the sysroot: pointers into backend or the
 * environment with their lengths; how many. */
static int paths_of(const char *backend, const char **p, size_t *len)
{
	int n = 0;
	for (const char *o = strchr(backend, ','); o && n < MAX_PATHS - 1; o = strchr(o + 1, ',')) {
		const char *v = !strncmp(o + 1, "profile=", 8) ? o + 9 : !strncmp(o + 1, "shared=", 7) ? o + 8 : NULL;
		if (v && (len[n] = strcspn(v, ",")))
			p[n++] = v;
	}
	const char *root = uc_env("UNCORE_SYSROOT");
	if (root && *root && strcmp(root, "/")) {
		p[n] = root;
		len[n++] = strlen(root);
	}
	return n;
}

char *snap_hide_paths(const char *backend, const char *text)
{
	const char *p[MAX_PATHS];
	size_t len[MAX_PATHS], size = strlen(text) + 1, o = 0;
	int n = paths_of(backend, p, len);
	char *out = malloc(size + strlen(text) * sizeof(HIDDEN)); /* at most every character a path of one */
	if (!out) {
		uc_err("out of memory");
		return NULL;
	}
	for (const char *start = text; *text;) {
		/* the longest path here (one may hold another: the sysroot, a profile below it), a name of its own: not
		 * a short relative path "m" inside a word ("FILE.claims", "FILE:3:" are the path's) */
		size_t best = 0;
		for (int i = 0; i < n; i++)
			if (len[i] > best && !strncmp(text, p[i], len[i]) && (text == start || !name_char(text[-1])) &&
			    !isalnum((unsigned char)text[len[i]]))
				best = len[i];
		if (best) {
			memcpy(out + o, HIDDEN, sizeof(HIDDEN) - 1);
			o += sizeof(HIDDEN) - 1;
			text += best;
		} else
			out[o++] = *text++;
	}
	out[o] = 0;
	return out;
}
