/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tool's run with its output kept: for the userspace step (userspace.c,
 * in the initramfs) and for the checks of a booted Debian system
 * (system.c), which start their tools each in their own way.
 */
#ifndef TOOLRUN_H
#define TOOLRUN_H

#include <sys/types.h>

#define CAPTURED_LINES 40

struct captured {
	char line[CAPTURED_LINES][256];
	int n;
};

/*
 * Run what @spawn starts (it forks, points the child's stdout and stderr
 * at @out and returns the child's pid), to its end or until @timeout_ms
 * passed; its output lines go to @c.  Returns the exit status (128 + the
 * signal for a killed child), -1 if killed at the time limit.
 */
int run_captured(pid_t (*spawn)(const void *ctx, int out), const void *ctx,
		 long timeout_ms, struct captured *c);

#endif
