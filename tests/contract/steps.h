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

/*
 * X(name, kinds): each step, in the order a boot runs them, with the kinds
 * of record it writes (a record's first word), space-separated.  The host
 * holds a boot's records to them (step_record_ok(), step_record_of()).
 */
#define PSMF_STEPS(X)	\
	X(matrix, "scenario begin alone")	\
	X(exhaustive, "exhaustive-end x")	\
	X(stress, "stress-end stress-worker s")	\
	X(sequences, "sequences-end q qs qe")	\
	X(bench, "bench")	\
	X(userspace, "tool toolout toolfix toolneeds toolskip")	\
	X(upstream, "upstream-count upstream upstreamout")	\
	X(fleet, "fleet-end begin fleet-tenant")	\
	/* raises the phase as docs/distributions.md's admin commands say */ \
	X(docs, "docs-run docs-phase docs-sysctl")	\
	/* last: it raises the phase to enforce until the next boot */ \
	X(selftest, "selftest-exit selftest selftest-unprivileged "	\
		    "selftest-unprivileged-exit selftest-tmp-left")

/*
 * The kinds of record of every boot, whatever its steps: its start and
 * end, the host's stamps, the kernel's lines, errors, fault injection.
 */
#define PSMF_BOOT_RECORDS \
	"start end host kmsg error faults kmemleak kmemleak-line"

/* What a boot runs when nothing is named. */
#define PSMF_STEPS_DEFAULT "matrix,selftest"

/* Is @step one of the names of the comma list @list? */
bool step_wanted(const char *list, const char *step);
/* The first name of @list that is no step (in a static buffer), or NULL. */
const char *step_unknown(const char *list);
/* The steps' names as "a, b, c" (in a static buffer). */
const char *step_names(void);
/*
 * May the record @line be in the results of a boot that ran the steps of
 * @list: is its kind the boot's own or one of a step of @list?
 */
bool step_record_ok(const char *list, const char *line);
/* Is the record @line of one of the kinds of step @step? */
bool step_record_of(const char *step, const char *line);

#endif
