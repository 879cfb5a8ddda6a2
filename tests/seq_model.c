// SPDX-License-Identifier: GPL-2.0
/*
 * The mount tree under a sequence of operations, as code.  The rules of
 * the behaviour table (R1-R5, K1, K2 in tests/model.c) and the kernel's
 * documented rules of mount namespaces
 * (Documentation/filesystems/sharedsubtree.rst, mount_namespaces(7),
 * Documentation/admin-guide/namespaces/proc-sysfs-mount-flags.rst):
 *
 *  N1 a fresh proc or sysfs mount needs a fully visible mount of the same
 *     filesystem that allows it (R1-R5); the kernel takes the first such
 *     mount in the namespace's list that needs no warning or implied
 *     flag, else the first that allows the mount at all, and the new mount
 *     takes its read-only lock (a read-only superblock counts as one) and,
 *     by phase, its exec locks and marks
 *  N2 a bind or clone copies the flags, locks and marks of its source; it
 *     is not itself locked against umount
 *  N3 copying the tree into a new user namespace locks every flag each
 *     mount has and every mount against umount and move (mount_namespaces
 *     (7): "locked" mounts); a copy in the same user namespace locks
 *     nothing; either copy lists the mounts in tree order
 *  N4 a change (remount, bind remount, mount_setattr) may not clear a
 *     lock; from implicit on, nor a mark; implicit adds the marked flags a
 *     remount or bind remount leaves out (R5)
 *  N5 MS_REMOUNT reconfigures the superblock, which needs privilege over
 *     the user namespace that owns it: proc's is the one it was mounted
 *     in, sysfs's the initial one (K2); MS_RDONLY makes it read-only
 *  N6 sysfs has one superblock per network namespace, alive while a mount
 *     holds it; proc one per mount
 *  N7 the sysctl raises the phase for the whole kernel, never lowers it
 *     (EPERM); mounts made before keep their marks, which the raised
 *     phase judges as it judges those of mounts made after
 *
 * The kernels under test have CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME: every
 * fresh mount records its marks, whatever the phase.
 */
#include <errno.h>
#include <string.h>

#include "seq_model.h"
#include "spec.h"

#define EXEC (F_NOSUID | F_NODEV | F_NOEXEC)

enum seq_verdict { ALLOW, ALLOW_WARN, ALLOW_IMPLIED, REFUSE };

struct decision {
	enum seq_verdict verdict;
	int locks, marks, implied;
};

static int new_sb(struct seq_state *s, int ro, int owner)
{
	int i = s->n_sb < SEQ_MAX_SB ? s->n_sb++ : SEQ_MAX_SB - 1;

	s->sb[i] = (struct seq_sb){ .ro = ro, .owner = owner };
	return i;
}

void seq_init(struct seq_state *s, int phase, int host,
	      enum seq_mutation mutation)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->phase = phase;
	s->mutation = mutation;
	for (i = 0; i <= SEQ_MAX_DEPTH; i++)
		s->netns_sb[i] = -1;
	for (i = SEQ_HOST_PROC; i <= SEQ_HOST_SYS; i++) {
		struct seq_mount *m = &s->m[i];

		m->present = m->whole = 1;
		m->fs = i == SEQ_HOST_SYS;
		m->flags = host;
		m->sb = new_sb(s, host & F_RO, 0);
		s->sb[m->sb].refs = 1;
		m->order = m->attach = s->clock++;
	}
	/* The guest's set-up: one copy into a new user namespace (N3). */
	seq_apply(s, &(struct seq_op){ .kind = SQ_NEST });
	s->depth = 1;
}

int seq_valid(const struct seq_state *s, const struct seq_op *op)
{
	switch (op->kind) {
	case SQ_MOUNT:
		return !s->m[op->dst].present;
	case SQ_BIND:
	case SQ_CLONE:
		return s->m[op->src].present && !s->m[op->dst].present &&
		       !(op->sub && !s->m[op->src].whole);
	case SQ_MOVE:
		return s->m[op->src].present && !s->m[op->dst].present &&
		       op->src != op->dst;
	case SQ_UMOUNT:
	case SQ_REMOUNT:
	case SQ_BINDREMOUNT:
	case SQ_SETATTR:
		return s->m[op->dst].present;
	case SQ_NEST:
		return s->depth < SEQ_MAX_DEPTH;
	default:
		return 1;
	}
}

/* N1: a fresh mount asking @req, judged against one visible mount @c. */
static struct decision decide(const struct seq_state *s,
			      const struct seq_mount *c, int req)
{
	struct decision d = { .verdict = REFUSE };
	int lock_ro = (c->locks & F_RO) || s->sb[c->sb].ro;
	int locked = c->locks & EXEC, cleared;

	if (lock_ro && !(req & F_RO))
		return d;				/* R4, K1 */
	if (s->phase != PHASE_LEGACY)
		locked |= c->marks;
	cleared = locked & ~req;
	d.locks = lock_ro ? F_RO : 0;
	d.marks = (c->locks | c->marks) & EXEC;
	d.verdict = ALLOW;
	switch (s->phase) {
	case PHASE_WARN:
		if (cleared)
			d.verdict = ALLOW_WARN;		/* R1, R3 */
		break;
	case PHASE_IMPLICIT:
		d.locks |= locked;
		d.implied = cleared;			/* R5 */
		if (cleared)
			d.verdict = ALLOW_IMPLIED;
		break;
	case PHASE_ENFORCE:
		if (cleared)
			d.verdict = REFUSE;		/* R1 */
		d.locks |= locked;			/* R2 */
		break;
	}
	return d;
}

/* N1: the decision of the first suitable visible mount, in list order. */
static struct decision visible(const struct seq_state *s, int fs, int req)
{
	struct decision best = { .verdict = REFUSE };
	long best_order = 0;
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++) {
		const struct seq_mount *c = &s->m[i];
		struct decision d;

		if (!c->present || c->fs != fs || !c->whole)
			continue;
		d = decide(s, c, req);
		if (d.verdict == REFUSE)
			continue;
		/* ALLOW beats the fallbacks; among equals the first wins. */
		if (best.verdict == REFUSE ||
		    (d.verdict == ALLOW) > (best.verdict == ALLOW) ||
		    ((d.verdict == ALLOW) == (best.verdict == ALLOW) &&
		     c->order < best_order)) {
			best = d;
			best_order = c->order;
		}
	}
	return best;
}

/* N6: the superblock a fresh mount gets. */
static int fresh_sb(struct seq_state *s, int fs, int req)
{
	int *net = &s->netns_sb[s->depth];

	if (!fs)
		return new_sb(s, req & F_RO, s->depth);
	if (*net < 0 || !s->sb[*net].refs)
		*net = new_sb(s, req & F_RO, 0);	/* K2: the initial ns */
	return *net;
}

static void place(struct seq_state *s, int i, const struct seq_mount *m)
{
	s->m[i] = *m;
	s->m[i].present = 1;
	s->m[i].locked = 0;
	s->m[i].order = s->m[i].attach = s->clock++;
	s->sb[m->sb].refs++;
}

static int op_mount(struct seq_state *s, const struct seq_op *op)
{
	struct decision d = visible(s, op->fs, op->flags);
	struct seq_mount m = { .fs = op->fs, .whole = 1 };

	if (d.verdict == REFUSE)
		return EPERM;
	m.flags = op->flags | d.implied;
	m.locks = d.locks;
	m.marks = d.marks;
	m.sb = fresh_sb(s, op->fs, op->flags);
	place(s, op->dst, &m);
	return 0;
}

static int op_bind(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount m = s->m[op->src];		/* N2 */

	m.whole = m.whole && !op->sub;
	place(s, op->dst, &m);
	return 0;
}

static int op_move(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *from = &s->m[op->src];

	if (from->locked)
		return EINVAL;				/* N3 */
	s->m[op->dst] = *from;
	s->m[op->dst].attach = s->clock++;
	from->present = 0;
	return 0;
}

static int op_umount(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *m = &s->m[op->dst];

	if (m->locked)
		return EINVAL;				/* N3 */
	m->present = 0;
	s->sb[m->sb].refs--;
	return 0;
}

/* N4: may @m's flags become @flags? */
static int may_change(const struct seq_state *s, const struct seq_mount *m,
		      int flags)
{
	if (m->locks & ~flags)
		return 0;
	return !(s->phase >= PHASE_IMPLICIT && (m->marks & ~flags));
}

static int op_remount(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *m = &s->m[op->dst];
	int flags = op->flags;

	if (s->phase == PHASE_IMPLICIT)
		flags |= m->marks & ~flags;		/* R5 */
	if (!may_change(s, m, flags))
		return EPERM;
	if (op->kind == SQ_REMOUNT) {
		if (s->sb[m->sb].owner != s->depth)
			return EPERM;			/* N5, K2 */
		s->sb[m->sb].ro = flags & F_RO;
	}
	m->flags = flags;
	return 0;
}

static int op_setattr(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *m = &s->m[op->dst];
	int flags = (m->flags & ~op->clr) | op->set;

	/* mount_setattr(2) with nothing to set or clear does nothing. */
	if (!op->set && !op->clr)
		return 0;
	if (!may_change(s, m, flags))
		return EPERM;				/* N4, R5 */
	m->flags = flags;
	return 0;
}

/*
 * N3: a copy of the tree, in tree order (every mount here is a child of
 * the root, in the order they were attached).  The namespace left behind
 * lives on while a waiting parent holds it, and so do its superblocks.
 */
static void copy_tree(struct seq_state *s, int lock)
{
	int i, j, rank;

	for (i = 0; i < SEQ_MOUNTS; i++) {
		struct seq_mount *m = &s->m[i];

		if (!m->present)
			continue;
		if (s->held)
			s->sb[m->sb].refs++;
		for (rank = 0, j = 0; j < SEQ_MOUNTS; j++)
			rank += s->m[j].present && s->m[j].attach < m->attach;
		m->order = rank;
		if (lock) {
			m->locks |= m->flags;
			m->locked = 1;
		}
	}
}

struct seq_result seq_apply(struct seq_state *s, const struct seq_op *op)
{
	struct seq_result r = { 0 };
	int i;

	switch (op->kind) {
	case SQ_MOUNT:
		r.err = op_mount(s, op);
		break;
	case SQ_BIND:
	case SQ_CLONE:
		r.err = op_bind(s, op);
		break;
	case SQ_MOVE:
		r.err = op_move(s, op);
		break;
	case SQ_UMOUNT:
		r.err = op_umount(s, op);
		break;
	case SQ_REMOUNT:
	case SQ_BINDREMOUNT:
		r.err = op_remount(s, op);
		break;
	case SQ_SETATTR:
		r.err = op_setattr(s, op);
		break;
	case SQ_UNSHARE:
		copy_tree(s, 0);
		s->held = 0;
		break;
	case SQ_NEST:
		/* The set-up's own copy (depth 0) is never broken. */
		copy_tree(s, s->depth == 0 ||
			     s->mutation != SEQ_NEST_LOCKS_NOTHING);
		s->held = 1;
		s->depth++;
		break;
	case SQ_RAISE:
		if (op->phase < s->phase)
			r.err = EPERM;				/* N7 */
		else
			s->phase = op->phase;
		break;
	default:
		r.err = EINVAL;
	}
	for (i = 0; i < SEQ_MOUNTS; i++)
		r.flags[i] = s->m[i].present ? s->m[i].flags : -1;
	return r;
}
