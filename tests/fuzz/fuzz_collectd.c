/* A <Plugin intel_uncore> block (one "Key value..." per line) through the plugin's configuration
 * parser; a block that parses is set up on the simulator and torn down. */
#include "fuzz_common.h"
#include "mock_collectd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size, 4096), err[1024];
	oconfig_item_t *ci = mock_block(text);
	struct iu_config c = { 0 };
	struct iu_state st;
	free(text);
	if (!ci)
		return 0;
	if (!iu_config_parse(&c, ci, err, sizeof(err))) {
		if (!c.backend || !strncmp(c.backend, "sim:", 4)) { /* never real hardware, never a shared file */
			if (!c.backend || fuzz_sim_spec_ok(c.backend)) {
				if (!c.backend)
					c.backend = strdup("sim:snbep,clock=manual");
				if (!iu_setup(&c, &st, err, sizeof(err))) {
					if (!iu_start(&st, err, sizeof(err)))
						iu_read(&st);
					fuzz_check_running(st.u);
					iu_teardown(&st);
				}
			}
		}
	}
	iu_config_free(&c);
	mock_block_free(ci);
	return 0;
}
