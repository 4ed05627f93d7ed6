/*
 * Test helper: the simulator's truth for the device groups of tests/test_pcp.sh, from its device table
 * (common/sim/sim_devdma.c, as tests/sim_truth.h's iio_box_bps counts a port with devices: their DMA payload
 * times 1 + their overhead), one line a device:
 *   NAME WRITE_BYTES_PER_S READ_BYTES_PER_S
 * (write: the device writes into memory, the IIO's inbound; read: out).  A device its port does not count
 * has 0 and 0.
 *   pcp_truth 'sim:skx[,profile=FILE]'
 */
#include <stdio.h>
#include "open/uncore_priv.h"
#include "sim/sim.h"
#include "sim/sim_pcitree.h"

int main(int argc, char **argv)
{
	uncore_t *u;
	if (argc != 2 || strncmp(argv[1], "sim:", 4)) {
		fprintf(stderr, "usage: pcp_truth 'sim:<platform>[,profile=FILE]'\n");
		return 2;
	}
	if (uncore_open(argv[1], &u)) {
		fprintf(stderr, "pcp_truth: %s\n", uncore_error());
		return 1;
	}
	const struct sim *sim = sim_of(u->acc);
	for (int i = 0; i < sim->npdev; i++) {
		const struct sim_pcidev *d = &sim->pdev[i];
		double k = d->uncounted ? 0 : 1 + d->overhead;
		printf("%s %.9g %.9g\n", d->name, d->in_bps * k, d->out_bps * k);
	}
	uncore_close(u);
	return 0;
}
