// SPDX-License-Identifier: GPL-2.0
/*
 * runner system-sysctl: a raise written in /etc/sysctl.d/ takes effect at
 * boot, and the boot parameter wins over a looser one, as
 * docs/distributions.md says.  The Debian system image is booted once per
 * row of tests/system.md's table (sysctl_spec.c) with the row's boot
 * parameter and psmf.sysctl_d=, whose unit puts the file in place before
 * systemd-sysctl.service reads it (initramfs/system.c); each boot is
 * judged against its row.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "runner.h"
#include "sysctl_spec.h"
#include "tap.h"

/* The row's boot: its results judged against the row. */
static void boot_case(const struct opts *o, const struct sysctl_case *c,
		      struct run *run)
{
	char results[4096], console[4096], tag[128], extra[64];
	struct opts told = *o;
	struct lines con;

	snprintf(tag, sizeof(tag), "system-sysctl-%.15s-over-%.15s", c->file, c->boot);
	snprintf(results, sizeof(results), "%s/results-%s.txt", o->dir, tag);
	snprintf(console, sizeof(console), "%s/console-%s.log", o->dir, tag);
	snprintf(extra, sizeof(extra), " psmf.sysctl_d=%s", c->file);
	told.boot_phase = c->boot;
	boot_system(&told, tag, extra, results, console);
	if (run_load(results, run))
		printf("# %s: no results file\n", results);
	tap(sysctl_case_follows_rule(c),
	    "sysctl.d %s over %s: the row follows the documented rule (the sysctl only raises; a raise is noticed)",
	    c->file, c->boot);
	sysctl_judge(c, run);
	lines_load(console, &con);
	if (!run->ended)
		tail_console(&con, 60);
	check_splats(&con, "the boot log");
	lines_free(&con);
}

/*
 * The first row said otherwise on purpose (another phase after the boot)
 * must fail its own boot's results: the table is what the boots are
 * judged by.
 */
static void mutate_case(const struct sysctl_case *c, const struct run *run)
{
	struct sysctl_case broken = *c;
	int mark, before, after;

	mark = tap_quiet_start();
	sysctl_judge(c, run);
	before = tap_quiet_stop(mark);
	snprintf(broken.after, sizeof(broken.after), "%s",
		 strcmp(c->after, "legacy") ? "legacy" : "enforce");
	mark = tap_quiet_start();
	sysctl_judge(&broken, run);
	after = tap_quiet_stop(mark);
	tap(after > before,
	    "sysctl.d %s over %s said to give %s after the boot fails its boot's results (%d checks fail, %d with the row as it is)",
	    c->file, c->boot, broken.after, after, before);
}

int cmd_system_sysctl(const struct opts *o)
{
	struct sysctl_case cases[MAX_SYSCTL_CASES];
	static struct run runs[MAX_SYSCTL_CASES];
	char err[1024];
	int n, i;

	if (system_opts(o))
		return 2;
	n = sysctl_cases_load(o->tools, cases, MAX_SYSCTL_CASES, err, sizeof(err));
	tap(n > 0, "%s: the table of raises in /etc/sysctl.d/ (%s)", o->tools,
	    n > 0 ? "read" : err);
	for (i = 0; i < n; i++)
		boot_case(o, &cases[i], &runs[i]);
	if (n > 0)
		mutate_case(&cases[0], &runs[0]);
	for (i = 0; i < n; i++)
		run_free(&runs[i]);
	return tap_end();
}
