/* Filter registers the two Xeon E5 generations share (seed 000; IVB-EP keeps them, notes snbep_ivbep.md 10). */
#include "xeon_ep.h"

/* Counter control layouts (xeon_ep.h): UBox Table 2-2, CBo 2-10, HA 2-35, iMC 2-61, PCU 2-75, QPI 2-86;
 * R2PCIe/R3QPI as the others with a reset bit (their tables were lost). */
#define SNB_LAY(n, ...) { .name = "snbep-" n, .f = { XEP_EV_UMASK, XEP_EDGE, XEP_INV, __VA_ARGS__ }, .enable = XEP_EN }
const struct ctl_layout xep_lay_ubox = SNB_LAY("ubox", XEP_RST, XEP_THRESH5);
const struct ctl_layout xep_lay_cbo = SNB_LAY("cbo", XEP_RST, XEP_TID_EN, XEP_THRESH8);
const struct ctl_layout xep_lay_pcu = { .name = "snbep-pcu",
	.f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_EV_EXT, XEP_INV, XEP_THRESH5, XEP_PCU_OCC },
	.enable = XEP_EN, .reserved = XEP_PCU_RESERVED };
const struct ctl_layout xep_lay_ha_imc = SNB_LAY("ha-imc", XEP_THRESH8); /* no rst: 17:16 reserved */
const struct ctl_layout xep_lay_qpi = SNB_LAY("qpi", XEP_RST, XEP_EV_EXT, XEP_THRESH8);
const struct ctl_layout xep_lay_rst = SNB_LAY("r2pcie-r3qpi", XEP_RST, XEP_THRESH8);

/* PCU filter, Table 2-77: four 8-bit frequency bands in 100 MHz units. */
const struct filter_reg xep_pcu_filt[] = { { "PCU_MSR_PMON_BOX_FILTER", 0xc34, 0, 32 } };
const struct filter_field xep_pcu_fields[] = {
	{ "band0", 0, 0, 8, "frequency band 0 threshold, 100 MHz units" },
	{ "band1", 0, 8, 8, "frequency band 1 threshold, 100 MHz units" },
	{ "band2", 0, 16, 8, "frequency band 2 threshold, 100 MHz units" },
	{ "band3", 0, 24, 8, "frequency band 3 threshold, 100 MHz units" },
};

/* HA match registers, Tables 2-37..2-39. */
const struct filter_reg xep_ha_filt[] = {
	{ "HA_PCI_PMON_BOX_ADDRMATCH0", 0x40, 0, 32 },
	{ "HA_PCI_PMON_BOX_ADDRMATCH1", 0x44, 0, 32 },
	{ "HA_PCI_PMON_BOX_OPCODEMATCH", 0x48, 0, 32 },
};
const struct filter_field xep_ha_fields[] = {
	{ "addr_lo", 0, 6, 26, "physical address bits 31:6 (value is PA >> 6)" },
	{ "addr_hi", 1, 0, 14, "physical address bits 45:32" },
	{ "opc", 2, 0, 6, "incoming opcode to match" },
};

/* QPI packet match/mask on D8/D9:F6, section 2.7.3.3 (offsets above 0xff). */
const struct filter_reg xep_qpi_filt[] = {
	{ "Q_Py_PCI_PMON_PKT_MATCH0", 0x228, 1, 32 },
	{ "Q_Py_PCI_PMON_PKT_MATCH1", 0x22c, 1, 32 },
	{ "Q_Py_PCI_PMON_PKT_MASK0", 0x238, 1, 32 },
	{ "Q_Py_PCI_PMON_PKT_MASK1", 0x23c, 1, 32 },
};
const struct filter_field xep_qpi_fields[] = {
	{ "match0", 0, 0, 32, "packet match bits 31:0 (RNID_4, DNID, MC, OPC, VNW)" },
	{ "match1", 1, 0, 32, "packet match upper fields (RDS, RNID_3_0)" },
	{ "mask0", 2, 0, 32, "packet mask bits 31:0" },
	{ "mask1", 3, 0, 32, "packet mask upper fields" },
};

