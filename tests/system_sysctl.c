// SPDX-License-Identifier: GPL-2.0
/*
 * runner system-sysctl: a raise written in /etc/sysctl.d/ takes effect at
 * boot, and the boot parameter wins over a looser one, as
 * docs/distributions.md says.  The Debian system image is booted once per
 * row of tests/system.md's table (sysctl_spec.c) with the row's boot
 * parameter and psmf.sysctl_d=, whose unit puts the file in place before
 * systemd-sysctl.service reads it (initramfs/system.c); each boot is
 * judged against its row, and must fail against every other row.
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
	sysctl_judge(c, run);
	lines_load(console, &con);
	if (!run->ended)
		tail_console(&con, 60);
	check_splats(&con, "the boot log");
	lines_free(&con);
}

/* How many of sysctl_judge()'s checks fail for @run judged by @c. */
static int failed_checks(const struct sysctl_case *c, const struct run *run)
{
	int mark = tap_quiet_start();

	sysctl_judge(c, run);
	return tap_quiet_stop(mark);
}

/*
 * Each boot judged by every other row must fail: the rows (each of which
 * follows the documented rule) ask for boots that can be told apart, and
 * the judge tells them apart.  So a table needs two rows at least.
 */
static void cross_judge(const struct sysctl_case *c, const struct run *runs,
			int n)
{
	int i, j, apart = 0, pairs = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			pairs++;
			if (failed_checks(&c[j], &runs[i]) > failed_checks(&c[i], &runs[i]))
				apart++;
			else
				printf("# the boot of %s over %s passes for %s over %s too\n",
				       c[i].file, c[i].boot, c[j].file, c[j].boot);
		}
	tap(n >= 2 && apart == pairs,
	    "sysctl.d: each boot judged by another row fails more checks than by its own (%d of %d pairs)",
	    apart, pairs);
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
		cross_judge(cases, runs, n);
	for (i = 0; i < n; i++)
		run_free(&runs[i]);
	return tap_end();
}
