// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet step's judge (judge_fleet.c) on made-up runs: a run that keeps
 * every promise passes, and each broken promise turns it red.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_fleet.h"
#include "tap.h"
#include "unit_fleet.h"

/* How many of the judge's checks fail on @run in @mode. */
static int judged(const struct spec *spec, const struct run *run, int mode)
{
	struct verdicts v = VERDICTS_QUIET;

	judge_fleet(&v, spec, run, mode);
	return verdicts_end(&v);
}

static void add_tenant(struct run *run, const char *comm, int pid,
		       unsigned int userns, int ops, int ok)
{
	struct tenant *t = &run->tenants[run->n_tenants++];

	memset(t, 0, sizeof(*t));
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->pid = pid;
	t->userns = userns;
	t->ops = ops;
	t->ok = ok;
}

static void add_line(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_line(struct run *run, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	run->fleet_lines[run->n_fleet_lines++] = s;
}

#define WARNING "VFS: process '%s' (pid %d, user:[%u]) clears nosuid,nodev,noexec in mount of proc; the enforce phase will refuse this with EPERM"
#define SUPPRESSED SUPPRESSED_PREFIX "%u] had %d" SUPPRESSED_END

/*
 * Warn: a noisy tenant (25 mounts: 10 lines, 15 suppressed), a quiet one
 * (2 mounts, 2 lines); @hide_quiet leaves out the quiet one's second line,
 * @miscount reports 14 suppressed instead of 15.
 */
static void warn_run(struct run *run, bool hide_quiet, bool miscount)
{
	int i;

	memset(run, 0, sizeof(*run));
	run->fleet_ms = 7000;
	add_tenant(run, "fleet-noisy", 40, 4026532290u, 25, 25);
	add_tenant(run, "fleet-web", 41, 4026532291u, 2, 2);
	add_tenant(run, "fleet-db", 42, 4026532292u, 1, 1);
	for (i = 0; i < 10; i++)
		add_line(run, WARNING, "fleet-noisy", 40, 4026532290u);
	add_line(run, WARNING, "fleet-web", 41, 4026532291u);
	if (!hide_quiet)
		add_line(run, WARNING, "fleet-web", 41, 4026532291u);
	add_line(run, WARNING, "fleet-db", 42, 4026532292u);
	add_line(run, SUPPRESSED, 4026532290u, miscount ? 14 : 15);
	add_line(run, "random: crng init done");
}

/* Three tenants of one mount each, @ok of which succeeded; no lines. */
static void quiet_run(struct run *run, int ok)
{
	memset(run, 0, sizeof(*run));
	run->fleet_ms = 100;
	add_tenant(run, "fleet-web", 41, 4026532291u, 1, ok);
	add_tenant(run, "fleet-db", 42, 4026532292u, 1, ok);
	add_tenant(run, "fleet-cron", 43, 4026532293u, 1, ok);
}

static void free_run(struct run *run)
{
	int i;

	for (i = 0; i < run->n_fleet_lines; i++)
		free(run->fleet_lines[i]);
	run->n_fleet_lines = 0;
}

void test_fleet(const struct spec *spec)
{
	static struct run run;
	int i;

	warn_run(&run, false, false);
	tap(judged(spec, &run, PHASE_WARN) == 0,
	    "fleet: every tenant's lines and counts add up: passes");
	free_run(&run);
	warn_run(&run, true, false);
	tap(judged(spec, &run, PHASE_WARN) > 0,
	    "fleet: a quiet tenant's warning hidden: fails");
	free_run(&run);
	warn_run(&run, false, true);
	tap(judged(spec, &run, PHASE_WARN) > 0,
	    "fleet: a suppressed count one short: fails");
	free_run(&run);

	warn_run(&run, false, false);
	add_line(&run, SUPPRESSED, 4026532299u, 15);
	tap(judged(spec, &run, PHASE_WARN) > 0,
	    "fleet: a suppressed count for a namespace that is no tenant's: fails");
	free_run(&run);

	/* a count for a tenant's number before its first warning: an earlier namespace's */
	warn_run(&run, false, false);
	memmove(run.fleet_lines + 1, run.fleet_lines,
		run.n_fleet_lines++ * sizeof(*run.fleet_lines));
	if (asprintf(&run.fleet_lines[0], SUPPRESSED, 4026532291u, 30) < 0)
		abort();
	tap(judged(spec, &run, PHASE_WARN) > 0,
	    "fleet: a count for a tenant's inode number logged before the tenant warned: fails");
	free_run(&run);

	/* no flood: nothing suppressed, the run proves nothing */
	quiet_run(&run, 1);
	for (i = 0; i < 3; i++)
		add_line(&run, WARNING, run.tenants[i].comm, run.tenants[i].pid,
			 run.tenants[i].userns);
	tap(judged(spec, &run, PHASE_WARN) > 0,
	    "fleet: no rate limit suppressed anything: fails, the flood did not happen");
	free_run(&run);

	/* enforce: every mount refused, and nothing logged */
	quiet_run(&run, 0);
	tap(judged(spec, &run, PHASE_ENFORCE) == 0,
	    "fleet: enforce refuses every mount and logs nothing: passes");
	add_line(&run, WARNING, "fleet-web", 41, 4026532291u);
	tap(judged(spec, &run, PHASE_ENFORCE) > 0,
	    "fleet: a warning under enforce: fails");
	free_run(&run);
	run.tenants[0].ok = 1;
	tap(judged(spec, &run, PHASE_ENFORCE) > 0,
	    "fleet: a mount enforce allowed: fails");
}
