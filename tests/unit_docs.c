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
	int before = tap_quiet_failed();

	tap_set_hook(NULL, true);
	judge_docs(run, mode);
	tap_set_hook(NULL, false);
	return tap_quiet_failed() - before;
}

/* A run of the step: booted as @before, one file naming @value, read @after. */
static void make_run(struct run *run, const char *before, const char *value,
		     const char *after, int sysctl_status)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->docs_before, sizeof(run->docs_before), "%s", before);
	snprintf(run->docs_after, sizeof(run->docs_after), "%s", after);
	run->docs_sh = 0;
	run->docs_sysctl = sysctl_status;
	if (value) {
		snprintf(run->docs_settings[0].file, sizeof(run->docs_settings[0].file),
			 "/etc/sysctl.d/90-x.conf");
		snprintf(run->docs_settings[0].value, sizeof(run->docs_settings[0].value),
			 "%s", value);
		run->n_docs_settings = 1;
	}
}

void test_docs(void)
{
	int warn = mode_index("warn"), enforce = mode_index("enforce");
	struct run run;

	make_run(&run, "warn", "enforce", "enforce", 0);
	tap(judged(&run, warn) == 0, "docs judge: warn raised to enforce by the file passes");
	make_run(&run, "enforce", "enforce", "enforce", 0);
	tap(judged(&run, enforce) == 0, "docs judge: enforce stays enforce passes");
	make_run(&run, "enforce", "warn", "enforce", 1);
	tap(judged(&run, enforce) == 0,
	    "docs judge: a looser file is refused, systemd-sysctl fails, enforce stays: passes");
	make_run(&run, "warn", "enforce", "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: the file not applied (warn stays) fails");
	make_run(&run, "enforce", "warn", "warn", 0);
	tap(judged(&run, enforce) > 0, "docs judge: a looser file that lowers the phase fails");
	make_run(&run, "warn", NULL, "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: no setting left in /etc/sysctl.d fails");
	make_run(&run, "warn", "enforce", "enforce", 1);
	tap(judged(&run, warn) > 0, "docs judge: systemd-sysctl failing on a raise fails");
	make_run(&run, "warn", "enforce", "enforce", 0);
	tap(judged(&run, enforce) > 0, "docs judge: a boot not in the phase it was judged as fails");
	make_run(&run, "warn", "enforce", "enforce", 0);
	run.docs_sh = 2;
	tap(judged(&run, warn) > 0, "docs judge: the admin's commands failing fails");
	make_run(&run, "warn", "bogus", "warn", 0);
	tap(judged(&run, warn) > 0, "docs judge: a file naming no phase fails");
}
