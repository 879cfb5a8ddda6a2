/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/system.md's table of raises written in /etc/sysctl.d/ at boot:
 * per row, the boot parameter, the phase the file says, the phase
 * /proc/sys must read after the boot and the kernel's notice.  Parsing
 * and judging are pure, as in tool_spec.c; the boots are system_sysctl.c's.
 */
#ifndef SYSCTL_SPEC_H
#define SYSCTL_SPEC_H

#include <stddef.h>
#include <stdio.h>

#include "../contract/spec.h"
#include "verdicts.h"

#define MAX_SYSCTL_CASES 4	/* meson.build gives the test 4 boots' time */

struct sysctl_case {
	char boot[16];		/* proc_sysfs_mount_flags= on the command line */
	char file[16];		/* what /etc/sysctl.d/ says */
	char after[16];		/* what /proc/sys must read after the boot */
	char notice[48];	/* "from X to Y", or "none" */
};

/* The table's rows at @path into @c; how many, or -1 with @err said. */
int sysctl_cases_load(const char *path, struct sysctl_case *c, int max,
		      char *err, size_t len);
/*
 * Whether the row agrees with the documented rule: the boot parameter
 * sets the phase, the sysctl only raises it, each raise is noticed.
 */
bool sysctl_case_follows_rule(const struct sysctl_case *c);
/* Judge a boot's @run against @c: one verdict on @v per check. */
void sysctl_judge(struct verdicts *v, const struct sysctl_case *c,
		  const struct run *run);
/* What the boot of @c gave, as a row of system-sysctl.md (no pids, no times). */
void sysctl_md_row(FILE *f, const struct sysctl_case *c, const struct run *run);

#endif
