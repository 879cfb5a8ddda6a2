/* SPDX-License-Identifier: GPL-2.0 */
/*
 * docs/distributions.md's GRUB step in a Debian system (runner
 * system-grub, tests/runner/system_grub.c), judged: pure, as sysctl_spec.c.
 */
#ifndef GRUB_JUDGE_H
#define GRUB_JUDGE_H

#include "../contract/spec.h"
#include "verdicts.h"

/*
 * The boot that ran the step (psmf.grub=edit) on a kernel built as
 * @built: it ran, and every entry update-grub wrote passes the parameter.
 */
void grub_judge_edit(struct verdicts *v, const struct run *edit,
		     const char *built);
/* The boot of the first entry's arguments: they arrived, the phase holds. */
void grub_judge_boot(struct verdicts *v, const struct run *edit,
		     const struct run *booted);

#endif
