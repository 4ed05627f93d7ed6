/* Box numbers over a socket's dies (platform.h box_number_dies). */
#include "platform.h"

void box_number_dies(struct box *v, int n)
{
	for (int i = 0; i < n;) {
		int j = i, span = 0;
		while (j < n && v[j].type_idx == v[i].type_idx && v[j].socket == v[i].socket) {
			span = v[j].unit_id + 1 > span ? v[j].unit_id + 1 : span;
			j++;
		}
		/* Linux names a unit by its id on every die (uncore_imc_3 counts on each); here a box is one
		 * die's, so die d's ids follow die d-1's within the socket */
		for (int k = i; k < j; k++)
			v[k].idx = v[k].unit_id + v[k].die * span;
		i = j;
	}
}
