/* The snapshot archive reader (util/tar.h) on a stranger's bytes, with small limits: whatever the input,
 * nothing is made beside the directory extracted into, and what is made there can be removed. */
#include <dirent.h>
#include "fuzz_common.h"
#include "util/tar.h"

/* Only the fuzzers' own scratch (uncore-fuzz-*) may be in the scratch directory: an entry of another
 * name was made by an extraction that left its directory. */
static void check_scratch(void)
{
	DIR *d = opendir(test_tmpdir());
	if (!d)
		abort();
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strncmp(e->d_name, "uncore-fuzz-", 12))
			abort();
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tar_limits lim = { .max_member = 64 * 1024, .max_total = 256 * 1024, .max_members = 64 };
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/uncore-fuzz-tar-XXXXXX", test_tmpdir());
	if (!mkdtemp(dir))
		abort();
	tar_extract(fuzz_file(data, size), dir, &lim);
	if (tar_remove_tree(dir))
		abort();
	check_scratch();
	return 0;
}
