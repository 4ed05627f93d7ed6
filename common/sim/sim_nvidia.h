/* The NVIDIA driver's per-GPU /proc file of a simulated GPU (sim_nvidia.c). */
#ifndef SIM_NVIDIA_H
#define SIM_NVIDIA_H

#include <stddef.h>

/* The text of /proc/driver/nvidia/gpus/<bdf>/information for the GPU at bdf ("0000:50:00.0") of the given
 * minor (/dev/nvidia<minor>) into buf: 0, or -1 when it does not fit or bdf is no BDF. */
int sim_nvidia_info(char *buf, size_t len, const char *bdf, int minor);

#endif
