/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict of each case of a run: each scenario against its cell of the
 * spec, each case of the kselftest's TAP.  Pure, and compiled twice: into
 * the runner, which adds them to its list of verdicts, and into the guest's
 * /init, which prints them on the console for a LAVA lab to record.  One
 * judge, one spec: the two can be compared case by case.
 */
#ifndef JUDGE_CASES_H
#define JUDGE_CASES_H

#include <stdbool.h>

#include "spec.h"

/* The LAVA test definitions, one per kind of case. */
#define DEF_KUNIT "kunit"
#define DEF_SCENARIOS "scenarios"
#define DEF_KSELFTEST "kselftest"
#define DEF_UPSTREAM "upstream"

/*
 * Where each verdict goes, with the @ctx the judge was given: @def and @id
 * name the case, @what says it all.
 */
typedef void case_sink(void *ctx, const char *def, const char *id, bool pass,
		       const char *what);

/*
 * Each row of @spec against @run in phase @mode; only @only when not NULL.
 * With @skip_alone, rows that @run announced for a boot of their own are
 * left for that boot.  Returns the number of cases judged.
 */
int judge_scenarios(const struct spec *spec, const struct run *run, int mode,
		    const char *only, bool skip_alone, case_sink *sink,
		    void *ctx);
/* Each "ok"/"not ok" line of the kselftest's TAP; returns the count. */
int judge_selftest(const struct run *run, case_sink *sink, void *ctx);
/* The same for any harness's TAP in @lines, each case named @prefix NAME. */
int judge_tap(char *const *lines, int n_lines, const char *def,
	      const char *prefix, case_sink *sink, void *ctx);

#endif
