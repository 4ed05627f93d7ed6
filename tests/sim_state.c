/*
 * Test helper: the state of a shared simulated machine after other processes
 * used it.  Prints "writes N changed M": register writes by every process
 * since the file was made, and registers that differ from a fresh machine.
 *   sim_state 'sim:snbep,shared=FILE'
 */
#include <stdio.h>
#include "uncore_priv.h"
#include "sim/sim.h"

int main(int argc, char **argv)
{
	uncore_t *u;
	char why[160];
	if (argc != 2) {
		fprintf(stderr, "usage: sim_state 'sim:<platform>,shared=FILE'\n");
		return 2;
	}
	if (uncore_open(argv[1], &u)) {
		fprintf(stderr, "sim_state: %s\n", uncore_error());
		return 1;
	}
	struct sim *s = sim_of(u->acc);
	int changed = sim_changed_registers(s, why, sizeof(why));
	printf("writes %llu changed %d%s%s\n", (unsigned long long)sim_shared_writes(s), changed, changed ? " first: " : "",
	       changed ? why : "");
	uncore_close(u);
	return 0;
}
