/*
 * Which process a pid names: a pid is reused once its process is gone, so a process is known by its pid
 * and its start time (field 22 of /proc/PID/stat, clock ticks after boot, proc(5)), within one boot
 * (/proc/sys/kernel/random/boot_id, random(4)).  Nothing here depends on the rest of the library, so
 * that the CLI builds it in too (uncore job).
 */
#ifndef UNCORE_PROC_START_H
#define UNCORE_PROC_START_H

#include <stddef.h>
#include <stdint.h>

/* When process pid started (clock ticks after boot), 0 if unknown (no such process, no /proc); its state
 * letter (R, S, Z ...) in *state unless state is NULL. */
uint64_t uc_proc_start(int pid, char *state);

/* This boot's id (36 characters) into buf; -1 where the kernel gives none. */
int uc_boot_id(char *buf, size_t len);

#endif
