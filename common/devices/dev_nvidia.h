/* The NVIDIA driver's facts of a GPU, from its /proc file (dev_nvidia.c). */
#ifndef UNCORE_DEV_NVIDIA_H
#define UNCORE_DEV_NVIDIA_H

#include <stddef.h>
#include "dev_fs.h"

/* /proc/driver/nvidia/gpus/<bdf>/information of fs: its "Device Minor:" (/dev/nvidia<minor>) into *minor and its
 * "GPU UUID:" into uuid (len bytes; "" where the line is missing or holds more than GPU-/MIG- and hex digits):
 * 0, or -1 when there is no such file or no minor in it. */
int dev_nvidia_gpu(const struct dev_fs *fs, const char *bdf, unsigned *minor, char *uuid, size_t len);

#endif
