// SPDX-License-Identifier: GPL-2.0
/*
 * runner relate-trees: two kernel trees hold the same promises, so the
 * same phase gives the same result on both, operation by operation, over
 * the same seeded sequences: every result, flag, lock and propagation.
 *
 * Except where the trees may walk the visible mounts in another order:
 * 6.1 walks the namespace's list in the order the mounts were attached,
 * 6.12 its rbtree in post-order (a mount before its parent: /sys, the
 * root of its tree, comes last).  A fresh proc or sysfs mount takes its
 * flags and locks from a visible mount of its type; where the visible
 * candidates differ in flags or locks, which one the walk meets first may
 * decide, and the comparison of that sequence stops there ("stopped where
 * the walk may matter").  The candidates: the namespace's /proc or /sys,
 * the sequence's mounts of the root of that filesystem (a bind of a
 * subdirectory is not fully visible), and a host's second bare proc
 * (SEQ_HOST_TWIN), with no flags and so no locks.  A candidate's locks
 * include a read-only lock where its filesystem (not the mount) is
 * read-only, as the kernel counts one (a fresh sysfs of a new network
 * namespace mounted ro, then its mount made rw): the records say it (sb=).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "relations.h"
#include "relations_run.h"
#include "runner.h"
#include "tap.h"

/* The mounts a fresh mount of @x->b's op could take its locks from agree. */
static int walk_cannot_matter(const struct pair *x)
{
	const struct seq_op *op = &x->b->op;
	/* the state before: the last record, or the host's at the start */
	const struct rop *before = x->prev_b ? x->prev_b : x->b;
	char root = op->fs ? 's' : 'p';
	int i, n = 0, m = 0, l = 0, li;

	if (op->kind != SQ_MOUNT)
		return 1;
	for (i = 0; i < SEQ_MOUNTS; i++) {
		int host = i == (op->fs ? SEQ_HOST_SYS : SEQ_HOST_PROC);

		if (i >= SEQ_SLOTS && !host)
			continue;
		if (i < SEQ_SLOTS && (!x->prev_b || x->prev_b->f[i] != root))
			continue;
		li = before->l[i] | (before->sb[i] == 'r' ? F_RO : 0);
		if (n++ && (before->m[i] != m || li != l))
			return 0;
		m = before->m[i];
		l = li;
	}
	return op->fs || !(x->host & SEQ_HOST_TWIN) || (!m && !l);
}

/* @a one tree, @b the other, in the same phase: the same in every respect. */
static enum step same_on_both(const struct pair *x, struct tally *t,
			      char *why, size_t len)
{
	char la[SEQ_MOUNTS + 1], lb[SEQ_MOUNTS + 1];

	if (!walk_cannot_matter(x)) {
		t->named++;
		return STOP;
	}
	if (rop_same_state(x->a, x->b) && !strcmp(x->a->f, x->b->f) &&
	    !strcmp(x->a->sb, x->b->sb))
		return GO_ON;
	seq_flags_format(x->a->l, la);
	seq_flags_format(x->b->l, lb);
	snprintf(why, len, "%s gave %s p=%d locks %s mounts %s, %s %s p=%d locks %s mounts %s",
		 x->ra->path, x->a->ret, x->a->p, la, x->a->f, x->rb->path,
		 x->b->ret, x->b->p, lb, x->b->f);
	return VIOLATION;
}

/* Every run must say what each mount is (f=, sb=), or none can be compared. */
static int says_mounts(const struct rrun *r, char *why, size_t len)
{
	if (r->n_ops && r->ops[0].f[0] && r->ops[0].sb[0])
		return 0;
	snprintf(why, len, "%s: its records do not say what each mount is (no f= or sb=): run the sequences again",
		 r->path);
	return -1;
}

int relations_trees_check(const char *const a[MAX_MODES],
			  const char *const b[MAX_MODES],
			  struct tally out[MAX_MODES], char *why, size_t len)
{
	static char names[MAX_MODES][64];
	struct rrun ra[MAX_MODES] = { { 0 } }, rb[MAX_MODES] = { { 0 } };
	int m, err;

	memset(out, 0, MAX_MODES * sizeof(*out));
	err = rrun_load_phases(ra, a, "sequences", why, len) ||
	      rrun_load_phases(rb, b, "other-sequences", why, len) ||
	      rrun_same_sequences(&ra[0], &rb[0], why, len);
	for (m = 0; !err && m < MAX_MODES; m++)
		err = says_mounts(&ra[m], why, len) ||
		      says_mounts(&rb[m], why, len);
	for (m = 0; !err && m < MAX_MODES; m++) {
		snprintf(names[m], sizeof(names[m]),
			 "%s: the same on both trees", all_modes[m]);
		out[m].name = names[m];
		out[m].stopped = "stopped where the walk may matter";
		rrun_relate(&ra[m], &rb[m], 0, same_on_both, &out[m]);
	}
	for (m = 0; m < MAX_MODES; m++) {
		rrun_free(&ra[m]);
		rrun_free(&rb[m]);
	}
	return err ? -1 : 0;
}

int cmd_relate_trees(const struct opts *o)
{
	static struct tally t[MAX_MODES];
	struct verdicts v = VERDICTS_TAP;
	char why[512];

	if (relations_trees_check(o->in.sequences, o->in.other_sequences, t,
				  why, sizeof(why))) {
		verdict(&v, false, "%s", why);
		return verdicts_tap_end(&v);
	}
	tally_judge(&v, t, MAX_MODES);
	return verdicts_tap_end(&v);
}
