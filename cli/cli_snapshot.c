/* uncore snapshot: this node's facts in one archive for a bug report, and --check: uncore check on its replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cmd_snapshot(int argc, char **argv)
{
	const char *out = NULL;
	int check = 0, i = 1;
	for (; i < argc && !check; i++) { /* what follows --check is uncore check's */
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--check"))
			check = 1;
		else {
			fprintf(stderr, "uncore snapshot: unexpected argument '%s' (see 'uncore snapshot --help')\n", argv[i]);
			return 2;
		}
	}
	if (!out) {
		fprintf(stderr, "uncore snapshot: give the archive to write: -o FILE (a new file: an old one is not "
				"overwritten)\n");
		return 2;
	}
	char notes[2048];
	if (uncore_snapshot(cli_backend(), out, notes, sizeof(notes))) {
		fprintf(stderr, "uncore snapshot: %s\n", uncore_error());
		return 1;
	}
	for (const char *n = notes; *n;) { /* what it could not take: the replay will not have it */
		size_t len = strcspn(n, "\n");
		fprintf(stderr, "uncore snapshot: not taken: %.*s\n", (int)len, n);
		n += len + (n[len] == '\n');
	}
	printf("%s: written; 'tar tvf %s' lists it, its MANIFEST says why each file is there\n", out, out);
	if (!check)
		return 0;
	/* the same check on the replayed node, to set beside the real run's */
	char *backend = malloc(strlen(out) + 8);
	if (!backend || (snprintf(backend, strlen(out) + 8, "replay:%s", out), cli_only_backend(backend))) {
		free(backend);
		return 1;
	}
	argv[i - 1] = "check";
	int rc = cmd_check(argc - (i - 1), argv + (i - 1));
	free(backend);
	return rc;
}
