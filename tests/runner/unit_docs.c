// SPDX-License-Identifier: GPL-2.0
/*
 * The docs step's judge (judge_docs.c) on made-up runs: the phase after
 * systemd-sysctl must be the strictest of the boot's and the files'.
 */
#include <stdio.h>
#include <string.h>

#include "judge_docs.h"
#include "tap.h"
#include "unit_docs.h"

/* How many of the judge's checks fail on @run booted as @mode. */
static int judged(const struct run *run, int mode)
{
	struct verdicts v = VERDICTS_QUIET;

	judge_docs(&v, run, mode);
	return verdicts_end(&v);
}

/* A run of the step: booted as @before, files setting @values (NULL-ended), read @after. */
static void make_run(struct run *run, const char *before, const char *const *values,
		     const char *after, int sysctl_status)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->docs_before, sizeof(run->docs_before), "%s", before);
	snprintf(run->docs_after, sizeof(run->docs_after), "%s", after);
	run->docs_sh = 0;
	run->docs_sysctl = sysctl_status;
	for (; *values; values++) {
		int i = run->n_docs_settings++;

		snprintf(run->docs_settings[i].file, sizeof(run->docs_settings[i].file),
			 "/etc/sysctl.d/%d0-x.conf", i + 1);
		snprintf(run->docs_settings[i].value, sizeof(run->docs_settings[i].value),
			 "%s", *values);
	}
}

void test_docs(void)
{
	static const char *const none[] = { NULL }, *const e[] = { "enforce", NULL };
	static const char *const w[] = { "warn", NULL }, *const ew[] = { "enforce", "warn", NULL };
	static const char *const bogus[] = { "bogus", NULL };
	int warn = mode_index("warn"), enforce = mode_index("enforce");
	struct run run;

	make_run(&run, "warn", e, "enforce", 0);
	tap(judged(&run, warn) == 0, "docs judge: warn raised to enforce by the file passes");
	make_run(&run, "enforce", e, "enforce", 0);
	tap(judged(&run, enforce) == 0, "docs judge: enforce stays enforce passes");
	make_run(&run, "enforce", w, "enforce", 0);
	tap(judged(&run, enforce) == 0,
	    "docs judge: a looser file is refused quietly, enforce stays: passes");
	make_run(&run, "warn", ew, "warn", 0);
	tap(judged(&run, warn) == 0,
	    "docs judge: a later file's warn wins over an earlier file's enforce: passes");
	make_run(&run, "warn", ew, "enforce", 0);
	tap(judged(&run, warn) > 0,
	    "docs judge: the strictest of the files instead of the last fails");
	make_run(&run, "warn", e, "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: the file not applied (warn stays) fails");
	make_run(&run, "enforce", w, "warn", 0);
	tap(judged(&run, enforce) > 0, "docs judge: a looser file that lowers the phase fails");
	make_run(&run, "warn", none, "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: no setting left in /etc/sysctl.d fails");
	make_run(&run, "enforce", w, "enforce", 1);
	tap(judged(&run, enforce) > 0, "docs judge: systemd-sysctl failing fails");
	make_run(&run, "warn", e, "enforce", 0);
	tap(judged(&run, enforce) > 0, "docs judge: a boot not in the phase it was judged as fails");
	make_run(&run, "warn", e, "enforce", 0);
	run.docs_sh = 2;
	tap(judged(&run, warn) > 0, "docs judge: the admin's commands failing fails");
	make_run(&run, "warn", bogus, "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: a file naming no phase fails");
}
