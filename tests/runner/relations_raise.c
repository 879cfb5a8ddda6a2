// SPDX-License-Identifier: GPL-2.0
/*
 * A raise of the phase, as a relation between runs: a boot of phase A
 * whose sysctl sequences raised to phase B, against the boot of phase B
 * that ran the same sequences.  No model of the kernel: the promise is
 * that a raise is complete, so from the raise on the raised boot is a
 * boot of B.
 *
 *  a A boot raised to B = B   a sequence that raised the boot's phase
 *                      to B, from its raise on, and every later sequence
 *                      that ran under B (all of whose mounts were made
 *                      after the raise): the same result, flags,
 *                      propagation and locks as the boot of B, operation
 *                      by operation.
 *
 * The guest's raising sequences raise to each phase in turn, loosest
 * first, so a boot goes up one phase at a time: the raise each relation
 * compares from is one step (legacy to warn, warn to implicit, implicit
 * to enforce), and a boot of A reaches B two steps up by way of the
 * phases between.  The sysctl only goes up, so a boot raises once per
 * phase; the raising sequences of one phase all wait for that one raise
 * (initramfs/sequences.c), and each is compared from its own.  These
 * relations compare a few sequences from their raise and a few after,
 * not thousands.
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
		goto parted;		/* @rb's ended before the raise */
	for (n = 0; n < from; n++)
		if (strcmp(a[n].text, b[n].text))
			goto parted;
	if (from > 0 &&
	    (strcmp(a[from].text, b[from].text) ||
	     !rop_same_mounts(&a[from], &b[from]) ||
	     memcmp(a[from].l, b[from].l, sizeof(a[from].l))))
		goto parted;
	t->seqs++;
	t->from_raise += sa->raise_at >= 0;
	for (n = from; n < sa->n && n < sb->n; n++) {
		t->ops++;
		if (!strcmp(a[n].text, b[n].text) && rop_same_state(&a[n], &b[n]))
			continue;
		differs(&a[n], &b[n], all_modes[rb->phase], why, sizeof(why));
		rrun_keep(t, ra, sa, n, why);
		return;
	}
	/* Of another length: a violation, unless the time limit cut one. */
	if (sa->n != sb->n && !sa->exit && !sb->exit) {
		snprintf(why, sizeof(why), "the raised boot ran %d operations, the boot of %s %d, both to their end",
			 sa->n, all_modes[rb->phase], sb->n);
		rrun_keep(t, ra, sa, sa->n - 1, why);
	}
	return;
parted:
	t->named++;
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

/*
 * Every pair of phases, loosest first: @a's boot raised to @b, for each
 * of N_RAISE_RELATIONS.
 */
void relations_raised(const struct rrun runs[MAX_MODES],
		      struct tally out[N_RAISE_RELATIONS])
{
	static char names[N_RAISE_RELATIONS][64];
	int a, b, r = 0;

	for (a = 0; a < MAX_MODES; a++)
		for (b = a + 1; b < MAX_MODES; b++, r++) {
			snprintf(names[r], sizeof(names[r]),
				 "%s %s boot raised to %s = %s",
				 strchr("aeiou", all_modes[a][0]) ? "an" : "a",
				 all_modes[a], all_modes[b], all_modes[b]);
			out[r].name = names[r];
			out[r].stopped = "parted before the raise";
			out[r].of_raise = true;
			relate_raised(&runs[a], &runs[b], &out[r]);
		}
}
