/* uc_json_load (json_in.h): one pass counting the nesting outside strings, then jansson. */
#include <stdio.h>
#include "json_in.h"
#include "error.h"
#include "safe_file.h"

/* 0 when no array or object in f nests deeper than UC_JSON_MAX_DEPTH; else -1 with where it does. */
static int nesting_bounded(FILE *f, const char *file)
{
	char buf[65536];
	size_t got;
	int depth = 0, in_str = 0, esc = 0, line = 1, col = 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < got; i++) {
			char c = buf[i];
			col++;
			if (c == '\n') {
				line++;
				col = 0;
			} else if (in_str) {
				esc = !esc && c == '\\';
				in_str = esc || c != '"';
			} else if (c == '"') {
				in_str = 1;
			} else if ((c == '[' || c == '{') && ++depth > UC_JSON_MAX_DEPTH) {
				return uc_err("%s:%d:%d: arrays and objects nested more than %d deep", file, line, col,
					      UC_JSON_MAX_DEPTH);
			} else if (c == ']' || c == '}') {
				depth--;
			}
		}
	return 0;
}

json_t *uc_json_load(const char *file)
{
	json_error_t jerr;
	json_t *root = NULL;
	FILE *f = uc_open_input(file);
	if (!f)
		return NULL;
	if (!nesting_bounded(f, file)) {
		rewind(f);
		if (!(root = json_loadf(f, 0, &jerr)))
			uc_err("%s:%d:%d: not valid JSON: %s", file, jerr.line, jerr.column, jerr.text);
	}
	fclose(f);
	return root;
}
