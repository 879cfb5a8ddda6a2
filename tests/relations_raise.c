// SPDX-License-Identifier: GPL-2.0
/*
 * A raise of the phase, as a relation between runs: a boot of phase A
 * whose sysctl a sequence raised to phase B, against the boot of phase B
 * that ran the same sequences.  No model of the kernel: the promise is
 * that a raise is complete, so from the raise on the raised boot is a
 * boot of B.
 *
 *  raised A -> B = B   a sequence that raised the phase, from its raise
 *                      on, and every later sequence of the boot (all of
 *                      whose mounts were made after the raise): the same
 *                      result, flags, propagation and locks as the boot
 *                      of B, operation by operation.
 *
 * Before the raise the two boots run different phases and may part (a
 * fresh mount that A allows and B refuses, or that B gives flags A does
 * not): a sequence whose mounts differ at its raise is not compared after
 * it ("parted before the raise").  Where they do not differ, no mount of
 * the sequence carries anything A did that B would not have: the state
 * the raise starts from is the same in both, and so must be all that
 * follows.  What a raise does to a mount A marked (a fresh mount that A
 * allowed with a warning) is "no clear, no EPERM" (relations.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "relations.h"
#include "relations_run.h"

/* The boots a raise relates: @a's boot raised to @b's phase. */
static const struct {
	enum phase a, b;
	const char *name;
} raises[N_RAISE_RELATIONS] = {
	{ PHASE_LEGACY, PHASE_WARN, "raised legacy to warn = warn" },
	{ PHASE_LEGACY, PHASE_IMPLICIT, "raised legacy to implicit = implicit" },
	{ PHASE_LEGACY, PHASE_ENFORCE, "raised legacy to enforce = enforce" },
	{ PHASE_WARN, PHASE_IMPLICIT, "raised warn to implicit = implicit" },
	{ PHASE_WARN, PHASE_ENFORCE, "raised warn to enforce = enforce" },
	{ PHASE_IMPLICIT, PHASE_ENFORCE, "raised implicit to enforce = enforce" },
};

static void differs(const struct rop *a, const struct rop *b,
		    const char *phase, char *why, size_t len)
{
	char ma[SEQ_MOUNTS + 1], la[SEQ_MOUNTS + 1];
	char mb[SEQ_MOUNTS + 1], lb[SEQ_MOUNTS + 1];

	seq_flags_format(a->m, ma);
	seq_flags_format(a->l, la);
	seq_flags_format(b->m, mb);
	seq_flags_format(b->l, lb);
	snprintf(why, len, "raised: %s ret=%s m=%s p=%d l=%s; the boot of %s: %s ret=%s m=%s p=%d l=%s",
		 a->text, a->ret, ma, a->p, la, phase, b->text, b->ret, mb,
		 b->p, lb);
}

/*
 * Sequence @sa of the raised boot @ra against @sb of @rb's, which ran it
 * under @rb's phase: the same from @sa's raise (or its start) on.
 */
static void compare_raised(const struct rrun *ra, const struct rrun *rb,
			   const struct rseq *sa, const struct rseq *sb,
			   struct tally *t)
{
	const struct rop *a = &ra->ops[sa->first], *b = &rb->ops[sb->first];
	int n, from = sa->raise_at < 0 ? 0 : sa->raise_at;
	char why[256];

	if (sb->n <= from)
		return;			/* @rb's ended before the raise */
	for (n = 0; n < from; n++)
		if (strcmp(a[n].text, b[n].text))
			return;		/* parted before the raise */
	if (from > 0 &&
	    (strcmp(a[from].text, b[from].text) ||
	     !rop_same_mounts(&a[from], &b[from]) ||
	     memcmp(a[from].l, b[from].l, sizeof(a[from].l)))) {
		t->named++;
		return;
	}
	t->seqs++;
	for (n = from; n < sa->n && n < sb->n; n++) {
		t->ops++;
		if (!strcmp(a[n].text, b[n].text) && rop_same_state(&a[n], &b[n]))
			continue;
		differs(&a[n], &b[n], all_modes[rb->phase], why, sizeof(why));
		rrun_keep(t, ra, sa, n, why);
		return;
	}
	if (sa->n != sb->n) {
		snprintf(why, sizeof(why), "the raised boot ran %d operations, the boot of %s %d",
			 sa->n, all_modes[rb->phase], sb->n);
		rrun_keep(t, ra, sa, sa->n - 1, why);
	}
}

/* @ra's sequences that ran under @rb's phase after a raise, against @rb. */
static void relate_raised(const struct rrun *ra, const struct rrun *rb,
			  struct tally *t)
{
	int i;

	for (i = 0; i < ra->n; i++) {
		const struct rseq *sa = &ra->seq[i];
		const struct rseq *sb = rrun_find_seq(rb, sa->id);

		if (sa->to != rb->phase || !sb || sb->host != sa->host ||
		    sb->from != rb->phase || sb->to != rb->phase)
			continue;
		compare_raised(ra, rb, sa, sb, t);
	}
}

void relations_raised(const struct rrun runs[MAX_MODES],
		      struct tally out[N_RAISE_RELATIONS])
{
	int r;

	for (r = 0; r < N_RAISE_RELATIONS; r++) {
		out[r].name = raises[r].name;
		out[r].stopped = "parted before the raise";
		relate_raised(&runs[raises[r].a], &runs[raises[r].b], &out[r]);
	}
}
