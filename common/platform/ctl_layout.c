/* Control-word layouts: field masks, placement and the qualifiers the fields are set by. */
#include "ctl_layout.h"

const struct ctl_role_info ctl_roles[CR_NROLES] = {
	[CR_THRESH] = { "thresh", 0, "count only cycles in which the event's increment reaches this threshold" },
	[CR_EDGE] = { "edge", 1, "count rising edges of the threshold comparison (threshold 1 unless given)" },
	[CR_INV] = { "inv", 1, "invert the threshold comparison (threshold 1 unless given)" },
	[CR_OCC_INV] = { "occ_inv", 1, "invert the occupancy comparison" },
	[CR_OCC_EDGE] = { "occ_edge", 1, "count rising edges of the occupancy comparison" },
	[CR_EV_EXT] = { "ext", 1, "the extra event-select bit (raw events)" },
};

uint64_t ctl_max(const struct ctl_layout *l, enum ctl_role r) { return uc_width_mask(l->f[r].width); /* 0 when absent */ }

uint64_t ctl_mask(const struct ctl_layout *l, enum ctl_role r) { return ctl_max(l, r) << l->f[r].lo; }

uint64_t ctl_put(const struct ctl_layout *l, enum ctl_role r, uint64_t v) { return (v & ctl_max(l, r)) << l->f[r].lo; }

uint64_t ctl_valid(const struct ctl_layout *l)
{
	uint64_t m = l->enable | l->other;
	for (int r = 0; r < CR_NROLES; r++)
		m |= ctl_mask(l, (enum ctl_role)r);
	return m & ~l->reserved;
}
