// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet step (initramfs/fleet.c): the containers of one host mount
 * proc without the host's nosuid, nodev and noexec at once, one of them
 * in a loop.  What a phase does with such a mount is the spec's row for
 * it.  What the warn phase's lines must say of the mounts are relations
 * between the tenants' own counts and the lines, not a model of the rate
 * limit:
 *
 *   - every warning line names a tenant as the row says: its command, pid
 *     and user namespace, and the flags it clears;
 *   - for each tenant, the lines that name it and the suppressed counts
 *     the kernel reported for its user namespace add up to its mounts;
 *   - a tenant that made no more mounts than one window allows lost none,
 *     however many the others made: one namespace cannot hide another's
 *     warnings;
 *   - and the run proves that only if a rate limit suppressed lines.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_fleet.h"

/* The spec's row for the tenants' mount. */
#define FLEET_ROW "mount_proc_none"

struct tally {
	int lines;		/* warning lines that name the tenant */
	int suppressed;		/* what its namespace's limit reported lost */
};

/*
 * A count for @userns is the tenant's only after the tenant's first
 * warning: before it, the number may still have been another namespace's
 * (the kernel reuses inode numbers, and reports a namespace's count when
 * it is freed).
 */

/* The exact warning line of a mount by tenant @t, as @c says. */
static void tenant_warning(const struct tenant *t, const struct cell *c,
			   char *buf, size_t len)
{
	struct result r = { .pid = t->pid, .userns = t->userns };

	snprintf(r.comm, sizeof(r.comm), "%s", t->comm);
	snprintf(r.op, sizeof(r.op), "mount");
	snprintf(r.fs, sizeof(r.fs), "proc");
	expected_warning(&r, c->cleared, buf, len);
}

/* Count @line for the tenant it names; false if it is ours and names none. */
static bool tally_line(const struct run *run, const struct cell *c,
		       const char *line, struct tally *tally)
{
	char want[512];
	unsigned int userns;
	int i, n;

	for (i = 0; i < run->n_tenants; i++) {
		tenant_warning(&run->tenants[i], c, want, sizeof(want));
		if (!strcmp(line, want)) {
			tally[i].lines++;
			return true;
		}
	}
	n = suppressed_count(line, &userns);
	for (i = 0; n > 0 && i < run->n_tenants; i++)
		if (run->tenants[i].userns == userns && tally[i].lines) {
			tally[i].suppressed += n;
			return true;
		}
	return !is_warning(line) &&
	       strncmp(line, SUPPRESSED_PREFIX, strlen(SUPPRESSED_PREFIX));
}

/* Each tenant's mounts: all made, and as many succeeded as the row says. */
static void check_tenants(struct verdicts *v, const struct run *run,
			  const struct cell *c, const char *phase)
{
	int i;

	verdict(v, run->fleet_ms >= 0 && run->n_tenants >= 3,
		"fleet %s: the step ended (%.1f s) with %d tenants, want 3 or more",
		phase, run->fleet_ms / 1000.0, run->n_tenants);
	for (i = 0; i < run->n_tenants; i++) {
		const struct tenant *t = &run->tenants[i];
		int want = c->outcome == REFUSED ? 0 : t->ops;

		verdict(v, !t->died && t->ops > 0 && t->ok == want,
			"fleet %s %s: %d of %d mounts succeeded, want %d (the spec's %s)",
			phase, t->comm, t->ok, t->ops, want, FLEET_ROW);
	}
}

/* Warn: the relations between the tenants' mounts and the lines. */
static void check_warned(struct verdicts *v, const struct run *run,
			 const struct tally *tally)
{
	int i, lost = 0;

	for (i = 0; i < run->n_tenants; i++) {
		const struct tenant *t = &run->tenants[i];
		const struct tally *n = &tally[i];

		verdict(v, n->lines + n->suppressed == t->ops,
			"fleet warn %s in user:[%u]: %d lines and %d reported suppressed make up its %d mounts",
			t->comm, t->userns, n->lines, n->suppressed, t->ops);
		if (t->ops <= RATELIMIT_BURST)
			verdict(v, n->lines == t->ops,
				"fleet warn %s: %d mounts, within one window: %d logged, none hidden by the other tenants",
				t->comm, t->ops, n->lines);
		lost += n->suppressed;
	}
	verdict(v, lost > 0,
		"fleet warn: the rate limits suppressed %d lines, so the tenants warned in a flood",
		lost);
}

void judge_fleet(struct verdicts *v, const struct spec *spec,
		 const struct run *run, int mode)
{
	const struct spec_row *row = spec_find(spec, FLEET_ROW);
	struct tally tally[MAX_TENANTS] = { { 0 } };
	const char *phase = all_modes[mode];
	int i, stray = 0, logged = 0;

	verdict(v, row != NULL, "fleet: tests/spec.md has the row %s", FLEET_ROW);
	if (!row)
		return;
	check_tenants(v, run, &row->cell[mode], phase);
	for (i = 0; i < run->n_fleet_lines; i++)
		if (!tally_line(run, &row->cell[mode], run->fleet_lines[i], tally)) {
			printf("# fleet: names no tenant: %s\n", run->fleet_lines[i]);
			stray++;
		}
	verdict(v, !stray && !run->fleet_lines_cut,
		"fleet %s: every warning and suppressed count names a tenant (%d kernel lines, %d that name none%s)",
		phase, run->n_fleet_lines, stray,
		run->fleet_lines_cut ? ", more than the results keep" : "");
	if (row->cell[mode].outcome == WARNED) {
		check_warned(v, run, tally);
		return;
	}
	for (i = 0; i < run->n_tenants; i++)
		logged += tally[i].lines + tally[i].suppressed;
	verdict(v, logged == 0, "fleet %s: %d warnings, want none (the spec's %s)",
		phase, logged, FLEET_ROW);
}
