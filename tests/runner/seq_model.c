// SPDX-License-Identifier: GPL-2.0
/*
 * The mount tree under a sequence of operations, as code.  The rules of
 * the behaviour table (R1-R5, K1, K2 in tests/runner/model.c) and the kernel's
 * documented rules of mount namespaces
 * (Documentation/filesystems/sharedsubtree.rst, mount_namespaces(7),
 * Documentation/admin-guide/namespaces/proc-sysfs-mount-flags.rst):
 *
 *  N1 a fresh proc or sysfs mount needs a fully visible mount of the same
 *     filesystem that allows it (R1-R5); the first such mount lends the new
 *     one its read-only lock (a read-only superblock counts as one), as in
 *     legacy, in every phase but enforce; the first through which enforce
 *     would allow the mount, else that same first mount, gives by phase
 *     its exec locks and marks (and decides warn's line and implicit's
 *     flags).  Enforce allows it only through the second kind, which then
 *     lends everything.  "First" is the walk of mnt_already_visible():
 *     up to 6.7 the namespace's list, in tree order (SEQ_WALK_LIST); from
 *     6.8 the namespace keeps its mounts in an rbtree keyed by mount id and
 *     walks it in post-order, an order set by the tree's shape, which
 *     follows every mount the namespace ever held (SEQ_WALK_ANY): then any
 *     such mount may be the one, and the model keeps every tree that may
 *     result; 7.3 walks a list of the namespace's fully visible mounts
 *     that mnt_add_to_ns() fills with hlist_add_head(), so the mount that
 *     joined the namespace last comes first (SEQ_WALK_NEWEST).  A copy of
 *     the namespace joins its mounts in tree order (copy_mnt_ns()), a
 *     propagated copy joins after the mount it copies, and a mount keeps
 *     its place when it moves.  Releases 7.0 to 7.2, whose
 *     walk the project has not read, are held to SEQ_WALK_ANY, which
 *     admits every order.
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
 *  N8 propagation (sharedsubtree.rst): a mount attached under a shared
 *     parent is copied under every peer and slave of it, transitively,
 *     with its flags, locks and marks (N2), tucked under a mount already
 *     there; its umount takes the copy on the same place of each, unless
 *     that is locked; a mount under a shared parent may not be moved
 *     (EINVAL).  A copy of the tree in the same user namespace keeps the
 *     peer groups, one into a new user namespace makes shared mounts
 *     slaves.  MS_SLAVE hands a mount without peers' slaves to its
 *     master, and leaves it private if it has none.
 *
 * The kernels under test have CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME: every
 * fresh mount records its marks, whatever the phase.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "seq_model.h"
#include "../contract/spec.h"

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
	      enum seq_mutation mutation, enum seq_walk walk)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->phase = phase;
	s->mutation = mutation;
	s->walk = walk;
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
	/* ... then /seq/a, shared, and /seq/b, a bind of it: peers (N8). */
	s->groups = 1;
	for (i = 0; i < SEQ_PARENTS; i++)
		s->par[i] = (struct seq_parent){ .live = 1, .group = 1 };
}

/* A mount may be attached on @i: it and its twin are free (N8). */
static int attachable(const struct seq_state *s, int i)
{
	return !s->m[i].present && !s->m[seq_twin(i)].present;
}

int seq_valid(const struct seq_state *s, const struct seq_op *op)
{
	switch (op->kind) {
	case SQ_MOUNT:
		return attachable(s, op->dst);
	case SQ_BIND:
	case SQ_CLONE:
		return s->m[op->src].present && attachable(s, op->dst) &&
		       !(op->sub && !s->m[op->src].whole);
	case SQ_MOVE:
		return s->m[op->src].present && attachable(s, op->dst);
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

static int same_decision(const struct decision *a, const struct decision *b)
{
	return a->verdict == b->verdict && a->locks == b->locks &&
	       a->marks == b->marks && a->implied == b->implied;
}

/* Add @d to the @n decisions in @out unless one of them is the same. */
static int add_decision(struct decision *out, int n, const struct decision *d)
{
	int k;

	for (k = 0; k < n; k++)
		if (same_decision(&out[k], d))
			return n;
	out[n] = *d;
	return n + 1;
}

/*
 * N1: the mount leaves out a flag that @d's visible mount locks or marks,
 * so that enforce would refuse it there.
 */
static int omits(const struct decision *d, int req)
{
	return d->marks & ~req;
}

/*
 * N1: @first, the first visible mount that allows the mount, lends its
 * read-only lock; @best, the mount the phase prefers, the rest.
 */
static struct decision lend(const struct decision *first,
			    const struct decision *best)
{
	struct decision d = *best;

	d.locks = (first->locks & F_RO) | (best->locks & ~F_RO);
	return d;
}

/* N1: mount @a comes before mount @b in a walk that is one order. */
static int walks_before(const struct seq_state *s, int a, int b)
{
	if (s->walk == SEQ_WALK_NEWEST)
		return s->m[a].order > s->m[b].order;
	return s->m[a].order < s->m[b].order;
}

/*
 * N1: the decisions a fresh mount may take, in @out (at least one: a
 * refusal when no visible mount allows it); returns how many.  The first
 * mount of the walk that allows it lends the read-only lock; the first
 * through which enforce would allow it (it leaves out no flag that mount
 * locks or marks), else that same first mount, gives the rest: the exec
 * locks, the marks, and by phase the warning or the implied flags.  A
 * walk in one order (the list, newest first) gives one decision; a walk
 * in any order, one for every first mount and every preferred mount.
 */
static int visible(const struct seq_state *s, int fs, int req,
		   struct decision out[SEQ_CHOICES])
{
	struct decision d[SEQ_MOUNTS];
	int i, j, n = 0, first = -1, best = -1;

	for (i = 0; i < SEQ_MOUNTS; i++) {
		const struct seq_mount *c = &s->m[i];

		d[i].verdict = REFUSE;
		if (!c->present || c->fs != fs || !c->whole)
			continue;
		d[i] = decide(s, c, req);
		if (d[i].verdict == REFUSE)
			continue;
		if (first < 0 || walks_before(s, i, first))
			first = i;
		if (!omits(&d[i], req) &&
		    (best < 0 || walks_before(s, i, best)))
			best = i;
	}
	if (first < 0) {
		out[0] = (struct decision){ .verdict = REFUSE };
		return 1;
	}
	if (s->walk != SEQ_WALK_ANY) {
		out[0] = lend(&d[first],
			      &d[best < 0 || !omits(&d[first], req) ? first : best]);
		return 1;
	}
	for (i = 0; i < SEQ_MOUNTS; i++) {
		struct decision l;

		if (d[i].verdict == REFUSE)
			continue;
		if (!omits(&d[i], req) || best < 0) {
			n = add_decision(out, n, &d[i]);
			continue;
		}
		for (j = 0; j < SEQ_MOUNTS; j++) {
			if (d[j].verdict == REFUSE || omits(&d[j], req))
				continue;
			l = lend(&d[i], &d[j]);
			n = add_decision(out, n, &l);
		}
	}
	return n;
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

/*
 * N8: the parents that receive what is attached under parent @p: its
 * peers and their slaves, and on through every receiver that is shared.
 * Bit q for parent q (ours, then the held copies).
 */
static int receivers(const struct seq_state *s, int p)
{
	int got = 0, more = 1, q, g;
	int reached[2 * SEQ_PARENTS + 1], n = 0;

	if (!s->par[p].group)
		return 0;
	reached[n++] = s->par[p].group;
	while (more) {
		more = 0;
		for (q = 0; q < 2 * SEQ_PARENTS; q++) {
			const struct seq_parent *r = &s->par[q];

			if (q == p || !r->live || (got & 1 << q))
				continue;
			for (g = 0; g < n; g++)
				if (r->group == reached[g] ||
				    r->master == reached[g])
					break;
			if (g == n)
				continue;
			got |= 1 << q;
			more = 1;
			if (r->group)
				reached[n++] = r->group;
		}
	}
	return got;
}

static struct seq_stack *held_place(struct seq_state *s, int q, int i)
{
	int k = i % SEQ_PER_PARENT;

	return &s->held_slot[(q - SEQ_PARENTS) * SEQ_PER_PARENT + k];
}

/* N8: the copies of the mount just attached on slot @i. */
static void propagate_attach(struct seq_state *s, int i)
{
	int got = receivers(s, seq_parent_of(i)), t = seq_twin(i), q;
	struct seq_mount copy = s->m[i];

	if (got & 1 << seq_parent_of(t))
		place(s, t, &copy);	/* free: seq_valid() */
	for (q = SEQ_PARENTS; q < 2 * SEQ_PARENTS; q++) {
		struct seq_stack *h = held_place(s, q, i);

		if (!(got & 1 << q) || h->n == SEQ_STACK)
			continue;
		memmove(h->sb + 1, h->sb, h->n * sizeof(h->sb[0]));
		memmove(h->locked + 1, h->locked, h->n * sizeof(h->locked[0]));
		h->sb[0] = copy.sb;
		h->locked[0] = 0;
		h->n++;
		s->sb[copy.sb].refs++;
	}
}

/* N8: the umount of slot @i's mount, where it propagates. */
static void propagate_umount(struct seq_state *s, int i)
{
	int got = receivers(s, seq_parent_of(i)), t = seq_twin(i), q;
	struct seq_mount *m = &s->m[t];

	if ((got & 1 << seq_parent_of(t)) && m->present && !m->locked) {
		m->present = 0;
		s->sb[m->sb].refs--;
	}
	for (q = SEQ_PARENTS; q < 2 * SEQ_PARENTS; q++) {
		struct seq_stack *h = held_place(s, q, i);

		if (!(got & 1 << q) || !h->n || h->locked[0])
			continue;
		s->sb[h->sb[0]].refs--;
		h->n--;
		memmove(h->sb, h->sb + 1, h->n * sizeof(h->sb[0]));
		memmove(h->locked, h->locked + 1, h->n * sizeof(h->locked[0]));
	}
}

/* N8: MS_SLAVE; MS_PRIVATE is MS_SLAVE and then no master. */
static void make_slave(struct seq_state *s, int p)
{
	struct seq_parent *m = &s->par[p];
	int q, peers = 0;

	for (q = 0; q < 2 * SEQ_PARENTS; q++)
		peers |= q != p && s->par[q].live && m->group &&
			 s->par[q].group == m->group;
	if (m->group && !peers)
		for (q = 0; q < 2 * SEQ_PARENTS; q++)
			if (s->par[q].master == m->group)
				s->par[q].master = m->master;
	if (peers)
		m->master = m->group;
	m->group = 0;
}

static int op_prop(struct seq_state *s, const struct seq_op *op)
{
	struct seq_parent *m = &s->par[op->dst];

	switch (op->prop) {
	case SEQ_SHARED:
		if (!m->group)
			m->group = ++s->groups;
		break;
	case SEQ_SLAVE:
		make_slave(s, op->dst);
		break;
	default:
		make_slave(s, op->dst);
		m->master = 0;
	}
	return 0;
}

static int op_mount(struct seq_state *s, const struct seq_op *op,
		    const struct decision *d)
{
	struct seq_mount m = { .fs = op->fs, .whole = 1 };

	if (d->verdict == REFUSE)
		return EPERM;
	m.flags = op->flags | d->implied;
	m.locks = d->locks;
	m.marks = d->marks;
	m.sb = fresh_sb(s, op->fs, op->flags);
	place(s, op->dst, &m);
	propagate_attach(s, op->dst);
	return 0;
}

static int op_bind(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount m = s->m[op->src];		/* N2 */

	m.whole = m.whole && !op->sub;
	place(s, op->dst, &m);
	propagate_attach(s, op->dst);
	return 0;
}

static int op_move(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *from = &s->m[op->src];

	if (from->locked)
		return EINVAL;				/* N3 */
	if (s->par[seq_parent_of(op->src)].group)
		return EINVAL;				/* N8 */
	s->m[op->dst] = *from;
	s->m[op->dst].attach = s->clock++;
	from->present = 0;
	propagate_attach(s, op->dst);
	return 0;
}

static int op_umount(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *m = &s->m[op->dst];

	if (m->locked)
		return EINVAL;				/* N3 */
	m->present = 0;
	s->sb[m->sb].refs--;
	propagate_umount(s, op->dst);
	return 0;
}

/* N4: may @m's flags become @flags? */
static int may_change(const struct seq_state *s, const struct seq_mount *m,
		      int flags)
{
	if (m->locks & ~flags)
		return 0;
	/* A mark counts only on a flag the mount has. */
	return !(s->phase >= PHASE_IMPLICIT && (m->marks & m->flags & ~flags));
}

static int op_remount(struct seq_state *s, const struct seq_op *op)
{
	struct seq_mount *m = &s->m[op->dst];
	int flags = op->flags;

	if (s->phase == PHASE_IMPLICIT)
		flags |= m->marks & m->flags & ~flags;	/* R5 */
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

/* Where a copy lists a mount: the host's first, then by parent (N3). */
static int tree_key(int i)
{
	return i >= SEQ_SLOTS ? 0 : 1 + seq_parent_of(i);
}

/*
 * N3: a copy of the tree, in tree order (depth first: the host's mounts,
 * then each parent's, each in the order they were attached).  The
 * namespace left behind lives on while a waiting parent holds it, and so
 * do its superblocks.
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
			rank += s->m[j].present &&
				(tree_key(j) < tree_key(i) ||
				 (tree_key(j) == tree_key(i) &&
				  s->m[j].attach < m->attach));
		m->order = rank;
		if (lock) {
			m->locks |= m->flags;
			m->locked = 1;
		}
	}
}

/*
 * N8: unshared from a namespace that a waiting parent holds, our parents
 * stay peers of its own, which receive what ours propagate: keep them.
 */
static void hold_copy(struct seq_state *s)
{
	int i;

	for (i = 0; i < SEQ_PARENTS; i++)
		s->par[SEQ_PARENTS + i] = s->par[i];
	for (i = 0; i < SEQ_SLOTS; i++) {
		struct seq_stack *h = &s->held_slot[i];

		h->n = s->m[i].present;
		h->sb[0] = s->m[i].sb;
		h->locked[0] = s->m[i].locked;
	}
}

/* N3, N8: into a new user namespace, shared parents become slaves. */
static void nest(struct seq_state *s)
{
	int i;

	/* The set-up's own copy (depth 0) is never broken. */
	copy_tree(s, s->depth == 0 || s->mutation != SEQ_NEST_LOCKS_NOTHING);
	for (i = 0; i < SEQ_PARENTS; i++) {
		struct seq_parent *m = &s->par[i];

		if (m->group)
			m->master = m->group;
		m->group = 0;
		s->par[SEQ_PARENTS + i].live = 0;
	}
	s->held = 1;
	s->depth++;
}

/* @op on @s, a fresh mount taking decision @d. */
static struct seq_result apply(struct seq_state *s, const struct seq_op *op,
			       const struct decision *d)
{
	struct seq_result r = { 0 };
	int i;

	switch (op->kind) {
	case SQ_MOUNT:
		r.err = op_mount(s, op, d);
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
		if (s->held)
			hold_copy(s);
		copy_tree(s, 0);
		s->held = 0;
		break;
	case SQ_NEST:
		nest(s);
		break;
	case SQ_PROP:
		r.err = op_prop(s, op);
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
	r.prop = seq_state_prop(s);
	return r;
}

struct seq_result seq_apply(struct seq_state *s, const struct seq_op *op)
{
	struct decision d[SEQ_CHOICES] = { { 0 } };

	if (op->kind == SQ_MOUNT)
		visible(s, op->fs, op->flags, d);
	return apply(s, op, d);
}

int seq_apply_all(const struct seq_state *s, const struct seq_op *op,
		  struct seq_state next[SEQ_CHOICES],
		  struct seq_result res[SEQ_CHOICES])
{
	struct decision d[SEQ_CHOICES];
	int k, n = 1;

	if (op->kind == SQ_MOUNT)
		n = visible(s, op->fs, op->flags, d);
	for (k = 0; k < n; k++) {
		next[k] = *s;
		res[k] = apply(&next[k], op, &d[k]);
	}
	return n;
}

void seq_result_format(const struct seq_result *r, char *buf, size_t len)
{
	char flags[SEQ_MOUNTS + 1];

	seq_flags_format(r->flags, flags);
	snprintf(buf, len, "%s m=%s p=%d",
		 r->err ? strerrorname_np(r->err) : "0", flags, r->prop);
}

int seq_walk_of(const char *release, enum seq_walk *walk)
{
	int major, minor;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return -1;
	if (major > 7 || (major == 7 && minor >= 3))
		*walk = SEQ_WALK_NEWEST;
	else if (major == 7 || (major == 6 && minor >= 8))
		*walk = SEQ_WALK_ANY;
	else
		*walk = SEQ_WALK_LIST;
	return 0;
}

int seq_state_prop(const struct seq_state *s)
{
	int shared[SEQ_PARENTS], master[SEQ_PARENTS], i;

	for (i = 0; i < SEQ_PARENTS; i++) {
		shared[i] = s->par[i].group;
		master[i] = s->par[i].master;
	}
	return seq_prop_bits(shared, master);
}
