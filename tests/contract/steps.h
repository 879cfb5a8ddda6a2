/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's steps: the one list that the guest (initramfs/init.c: what
 * to run), the runner (tests/runner/judge_run.c: what to judge;
 * tests/runner/runner.c: --run and its usage text) and the LAVA jobs take
 * them from.  A boot runs the steps named in PSMF_RUN in this order,
 * whatever the order of the list; names match exactly.
 */
#ifndef STEPS_H
#define STEPS_H

#include <stdbool.h>

/* X(name): each step, in the order a boot runs them. */
#define PSMF_STEPS(X)	\
	X(matrix)	\
	X(exhaustive)	\
	X(stress)	\
	X(sequences)	\
	X(bench)	\
	X(userspace)	\
	X(upstream)	\
	X(fleet)	\
	X(docs)		/* raises the phase as docs/distributions.md's admin commands say */ \
	X(selftest)	/* last: it raises the phase to enforce until the next boot */

/* What a boot runs when nothing is named. */
#define PSMF_STEPS_DEFAULT "matrix,selftest"

/* Is @step one of the names of the comma list @list? */
bool step_wanted(const char *list, const char *step);
/* The first name of @list that is no step (in a static buffer), or NULL. */
const char *step_unknown(const char *list);
/* The steps' names as "a, b, c" (in a static buffer). */
const char *step_names(void);

#endif
