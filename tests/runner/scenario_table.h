/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's scenarios (tests/contract/scenarios.h) as the host sees them, so
 * that a unit test can hold them against tests/spec.md and the model
 * without a kernel.
 */
#ifndef SCENARIO_TABLE_H
#define SCENARIO_TABLE_H

#include <stdbool.h>
#include <stddef.h>

struct scenario_info {
	const char *name, *fs;
	int host, flags;	/* F_* of the host's mounts, and requested */
	int model_op;		/* enum model_op, or -1: the model does not cover it */
	bool alone;		/* needs a boot of its own */
	const char *boot;	/* the kernel parameter it needs, or NULL */
};

size_t scenario_count(void);
void scenario_get(size_t i, struct scenario_info *out);

#endif
