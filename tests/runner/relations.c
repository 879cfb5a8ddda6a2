// SPDX-License-Identifier: GPL-2.0
/*
 * runner relate: the phases' promises as relations between the runs of
 * the same random sequences under each phase, with no model of the
 * kernel.  The guest chooses each operation from what it sees, with the
 * same seed in every phase, so two runs perform the same operations for
 * as long as the same mounts are there; each relation compares them up
 * to the first operation where they part, or up to a raise of the phase.
 *
 *  warn = legacy     every result, flag, lock and propagation the same
 *  warn ~ enforce    a warning line exactly where enforce refuses, as far
 *                    as the kernel's rate limit lets lines through
 *  implicit >= legacy  implicit succeeds wherever legacy does, except an
 *                    explicit mount_setattr(2) clear of a locked flag, and
 *                    every mount carries at least legacy's flags
 *  enforce <= legacy  where enforce allows, legacy's result and flags,
 *                    and legacy's read-only locks
 *  no clear, no EPERM  in every phase's run, raises included: a bind
 *                    remount or mount_setattr(2) that clears no flag the
 *                    mount has is never refused with EPERM, as no lock
 *                    can refuse it
 *
 * and a boot raised to another phase, from the raise on, the same as that
 * phase's boot (relations_raise.c).
 *
 * Enforce takes a fresh mount's read-only lock from the first visible
 * mount it accepts, which is not legacy's where legacy's lends a flag
 * enforce requires: from there the two runs' locks may differ, and the
 * relations with enforce stop, counted as "lender differs".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relations.h"
#include "relations_run.h"
#include "runner.h"
#include "tap.h"

#define WINDOW_MS (RATELIMIT_MS + 500)	/* the warning's window, and a margin */

/*
 * Could the rate limit have dropped a warning of @o, an operation of run
 * @r?  The kernel drops one when RATELIMIT_BURST lines were printed since
 * its window began, less than 5 s before the check.  The check came after @o->s, and
 * each line was printed before the time recorded for it (its operation's
 * end, taken after the probe): so every line the kernel counted is one
 * recorded in (@o->s - WINDOW_MS, @o->s], however long an operation took
 * on a loaded host.  Counting by the lines' times alone, the end of a slow
 * operation could fall outside the window its check fell in.
 */
static int window_may_be_full(const struct rrun *r, const struct rop *o)
{
	int i, n = 0;

	for (i = 0; i < r->n_warned; i++)
		n += r->warned[i] <= o->s && r->warned[i] > o->s - WINDOW_MS;
	return n >= RATELIMIT_BURST;
}

struct relation {
	const char *name;
	enum phase a, b;	/* the same for a property of one run */
	enum step (*check)(const struct pair *x, struct tally *t, char *why,
			   size_t len);
};

static int ro_lock(const int *l, int i)
{
	return l[i] < 0 ? -1 : l[i] & F_RO;
}

static int same_ro_locks(const struct rop *a, const struct rop *b)
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++)
		if (ro_lock(a->l, i) != ro_lock(b->l, i))
			return 0;
	return 1;
}

/* @a legacy, @b warn: the same in every respect. */
static enum step warn_is_legacy(const struct pair *x, struct tally *t,
				char *why, size_t len)
{
	(void)t;
	char la[SEQ_MOUNTS + 1], lb[SEQ_MOUNTS + 1];

	if (rop_same_state(x->a, x->b))
		return GO_ON;
	seq_flags_format(x->a->l, la);
	seq_flags_format(x->b->l, lb);
	snprintf(why, len, "%s gave %s p=%d locks %s, %s %s p=%d locks %s (flags as recorded)",
		 all_modes[x->ra->phase], x->a->ret, x->a->p, la,
		 all_modes[x->rb->phase], x->b->ret, x->b->p, lb);
	return VIOLATION;
}

/* @a warn, @b enforce: a line where enforce refuses what warn allows. */
static enum step warns_where_enforce_refuses(const struct pair *x,
					     struct tally *t, char *why,
					     size_t len)
{
	int refused = rop_ok(x->a) && !strcmp(x->b->ret, "EPERM");

	if (x->a->w && !refused) {
		snprintf(why, len, "warn logged %d line(s), enforce gave %s",
			 x->a->w, x->b->ret);
		return VIOLATION;
	}
	if (refused && !x->a->w) {
		if (!window_may_be_full(x->ra, x->a)) {
			snprintf(why, len,
				 "enforce refused, warn logged nothing with room in the rate limit");
			return VIOLATION;
		}
		t->hidden++;
	}
	if (strcmp(x->a->ret, x->b->ret) || !rop_same_mounts(x->a, x->b))
		return STOP;		/* from here the mounts differ */
	if (!same_ro_locks(x->a, x->b)) {
		t->named++;
		return STOP;
	}
	return GO_ON;
}

/*
 * @a legacy, @b implicit: implicit allows what legacy allows, except an
 * explicit clear of a flag it has locked, and keeps at least its flags.
 */
static enum step implicit_keeps_legacy(const struct pair *x, struct tally *t,
				       char *why, size_t len)
{
	const struct seq_op *op = &x->b->op;
	int i;

	(void)t;
	if (rop_ok(x->a) && !rop_ok(x->b)) {
		if (op->kind == SQ_SETATTR && !strcmp(x->b->ret, "EPERM") &&
		    (op->rec || !x->prev_b || (x->prev_b->l[op->dst] & op->clr)))
			return STOP;	/* an explicit clear of a locked flag */
		snprintf(why, len, "legacy allowed it, implicit gave %s",
			 x->b->ret);
		return VIOLATION;
	}
	/* Implicit may also repair what legacy refuses: from there they part. */
	if (strcmp(x->a->ret, x->b->ret))
		return STOP;
	for (i = 0; i < SEQ_MOUNTS; i++)
		if (x->a->m[i] >= 0 && x->b->m[i] >= 0 &&
		    (x->a->m[i] & ~x->b->m[i])) {
			snprintf(why, len,
				 "mount %d: legacy's flags %x, implicit's %x",
				 i, x->a->m[i], x->b->m[i]);
			return VIOLATION;
		}
	return GO_ON;
}

/*
 * @a legacy, @b enforce: where enforce allows, legacy's result, flags and
 * read-only locks; where it refuses, legacy allowed (EPERM only).
 */
static enum step enforce_within_legacy(const struct pair *x, struct tally *t,
				       char *why, size_t len)
{
	if (rop_ok(x->b) && !rop_ok(x->a)) {
		snprintf(why, len, "enforce allowed what legacy refused (%s)",
			 x->a->ret);
		return VIOLATION;
	}
	if (!rop_ok(x->b) && strcmp(x->a->ret, x->b->ret) &&
	    strcmp(x->b->ret, "EPERM")) {
		snprintf(why, len, "legacy gave %s, enforce %s", x->a->ret,
			 x->b->ret);
		return VIOLATION;
	}
	if (strcmp(x->a->ret, x->b->ret))
		return STOP;
	if (rop_ok(x->b) && !rop_same_mounts(x->a, x->b)) {
		snprintf(why, len, "both allowed it, with other flags or propagation");
		return VIOLATION;
	}
	if (!rop_same_mounts(x->a, x->b))
		return STOP;
	if (!same_ro_locks(x->a, x->b)) {
		t->named++;
		return STOP;
	}
	return GO_ON;
}

/* The flags @x->b's operation clears on its mount, or -1 if unknown. */
static int cleared(const struct pair *x)
{
	const struct seq_op *op = &x->b->op;
	int had;

	if (!x->prev_b || x->prev_b->m[op->dst] < 0)
		return -1;
	had = x->prev_b->m[op->dst];
	switch (op->kind) {
	case SQ_SETATTR:
		/* Every mount of a sequence is a leaf: rec changes it alone. */
		return had & op->clr;
	case SQ_BINDREMOUNT:
		return had & ~op->flags;
	default:
		return -1;
	}
}

/* One run: a change that clears nothing is not refused with EPERM. */
static enum step no_clear_no_eperm(const struct pair *x, struct tally *t,
				   char *why, size_t len)
{
	(void)t;
	if (cleared(x) == 0 && !strcmp(x->b->ret, "EPERM")) {
		snprintf(why, len, "%s clears no flag of mount %d (%x) and gave EPERM",
			 x->b->text, x->b->op.dst, x->prev_b->m[x->b->op.dst]);
		return VIOLATION;
	}
	return GO_ON;
}

static const struct relation relations[N_PHASE_RELATIONS] = {
	{ "warn = legacy", PHASE_LEGACY, PHASE_WARN, warn_is_legacy },
	{ "warn warns where enforce refuses", PHASE_WARN, PHASE_ENFORCE,
	  warns_where_enforce_refuses },
	{ "implicit allows what legacy allows", PHASE_LEGACY, PHASE_IMPLICIT,
	  implicit_keeps_legacy },
	{ "enforce allows only as legacy does", PHASE_LEGACY, PHASE_ENFORCE,
	  enforce_within_legacy },
	{ "legacy: no clear, no EPERM", PHASE_LEGACY, PHASE_LEGACY,
	  no_clear_no_eperm },
	{ "warn: no clear, no EPERM", PHASE_WARN, PHASE_WARN,
	  no_clear_no_eperm },
	{ "implicit: no clear, no EPERM", PHASE_IMPLICIT, PHASE_IMPLICIT,
	  no_clear_no_eperm },
	{ "enforce: no clear, no EPERM", PHASE_ENFORCE, PHASE_ENFORCE,
	  no_clear_no_eperm },
};

/*
 * A relation that does not hold, for the shrinker's own test: implicit
 * locks what legacy does not, so the first fresh mount that implicit
 * gives a flag's lock breaks it.
 */
static const struct relation broken_on_purpose = {
	"legacy = implicit (broken on purpose)", PHASE_LEGACY, PHASE_IMPLICIT,
	warn_is_legacy
};

int relation_named(const char *name, int *a, int *b, rel_check *check)
{
	const struct relation *rel = NULL;
	int r;

	for (r = 0; r < N_PHASE_RELATIONS; r++)
		if (relations[r].a != relations[r].b &&
		    !strcmp(relations[r].name, name))
			rel = &relations[r];
	if (!strcmp(broken_on_purpose.name, name))
		rel = &broken_on_purpose;
	if (!rel)
		return -1;
	*a = rel->a;
	*b = rel->b;
	*check = rel->check;
	return 0;
}

void relation_names(FILE *out)
{
	int r;

	for (r = 0; r < N_PHASE_RELATIONS; r++)
		if (relations[r].a != relations[r].b)
			fprintf(out, "'%s', ", relations[r].name);
	fprintf(out, "'%s'", broken_on_purpose.name);
}

int relations_check(const char *const paths[MAX_MODES],
		    struct tally out[N_RELATIONS], char *why, size_t len)
{
	struct rrun runs[MAX_MODES] = { { 0 } };
	int m, r, err;

	memset(out, 0, N_RELATIONS * sizeof(*out));
	err = rrun_load_phases(runs, paths, "sequences", why, len);
	for (r = 0; !err && r < N_PHASE_RELATIONS; r++) {
		const struct relation *rel = &relations[r];

		out[r].name = rel->name;
		out[r].stopped = "stopped where the lender differs";
		rrun_relate(&runs[rel->a], &runs[rel->b], rel->a != rel->b,
			    rel->check, &out[r]);
	}
	if (!err)
		relations_raised(runs, out + N_PHASE_RELATIONS);
	for (m = 0; m < MAX_MODES; m++)
		rrun_free(&runs[m]);
	return err;
}

int cmd_relate(const struct opts *o)
{
	static struct tally t[N_RELATIONS];
	struct verdicts v = VERDICTS_TAP;
	char why[512];

	if (relations_check(o->in.sequences, t, why, sizeof(why))) {
		verdict(&v, false, "%s", why);
		return verdicts_tap_end(&v);
	}
	tally_judge(&v, t, N_RELATIONS);
	return verdicts_tap_end(&v);
}
