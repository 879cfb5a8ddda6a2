/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of a mount tree under a sequence of operations (issue
 * "reliability"): the mounts of tests/contract/seq_op.h with their flags,
 * the locks and warn marks the kernel keeps on them but does not show,
 * their superblocks, and the user namespace the sequence runs in.
 * Written from the behaviour table (tests/runner/model.c's rules) and the
 * kernel's documented rules of mount namespaces, never from the kernel's
 * output.
 */
#ifndef SEQ_MODEL_H
#define SEQ_MODEL_H

#include "../contract/seq_op.h"

#define SEQ_MAX_SB 64
#define SEQ_STACK 16	/* mounts stacked on one place of the held copy */
/*
 * Trees one operation may lead to: a lender of the read-only lock times
 * a lender of the rest, where the walk leaves both open (SEQ_WALK_ANY).
 */
#define SEQ_CHOICES (SEQ_MOUNTS * SEQ_MOUNTS)

/* A rule that the shrinker test breaks on purpose (none: SEQ_TRUE). */
enum seq_mutation {
	SEQ_TRUE,
	SEQ_NEST_LOCKS_NOTHING,	/* a nested user namespace's copy locks nothing */
};

/* The order in which the kernel looks for a visible mount (N1). */
enum seq_walk {
	SEQ_WALK_LIST,	/* the namespace's list, in tree order (up to 6.7) */
	SEQ_WALK_ANY,	/* an rbtree's post-order: any (6.8 on) */
	SEQ_WALK_NEWEST, /* the list of visible mounts, newest first (7.3) */
};

struct seq_mount {
	int present;
	int fs;		/* 0 proc, 1 sysfs */
	int whole;	/* its root is its superblock's root */
	int sb;
	int flags;	/* F_*, as mountinfo shows them */
	int locks;	/* F_* that may not be cleared (MNT_LOCK_*) */
	int marks;	/* exec F_* that warn or lock (MNT_WARN_*) */
	int locked;	/* MNT_LOCKED: may not be unmounted or moved */
	long order;	/* when it joined the namespace's list of mounts */
	long attach;	/* when it was attached where it is */
};

struct seq_sb {
	int ro;
	int owner;	/* depth of the user namespace that owns it; 0 initial */
	int refs;	/* mounts that hold it, in any namespace */
};

/*
 * A parent of the slots (seq_op.h), or the held namespace's copy of one:
 * its peer group and the group it is a slave of (0: none).
 */
struct seq_parent {
	int live;
	int group, master;
};

/*
 * The held namespace's mounts on one place, bottom first: what propagates
 * there is tucked under what is there (attach_recursive_mnt()).
 */
struct seq_stack {
	int n;
	int sb[SEQ_STACK];
	int locked[SEQ_STACK];
};

struct seq_state {
	int phase;	/* enum phase of spec.h */
	enum seq_mutation mutation;
	enum seq_walk walk;
	int depth;	/* user namespaces deep, 1 after the set-up */
	int held;	/* a waiting parent holds the current mount namespace */
	long clock;
	int netns_sb[SEQ_MAX_DEPTH + 1];	/* sysfs superblock per depth */
	struct seq_mount m[SEQ_MOUNTS];
	struct seq_sb sb[SEQ_MAX_SB];
	int n_sb;
	/*
	 * The parents: ours, then the copies in the namespace that a waiting
	 * parent held when this one was unshared from it (live while they
	 * may still receive what propagates from ours), and its slots.
	 */
	struct seq_parent par[2 * SEQ_PARENTS];
	struct seq_stack held_slot[SEQ_SLOTS];
	int groups;
};

struct seq_result {
	int err;		/* 0 or the errno */
	int flags[SEQ_MOUNTS];	/* F_* of every mount after it; -1 none */
	int prop;		/* seq_prop_bits() of the parents after it */
};

/* The tree after the guest's set-up: host flags @host, one user namespace. */
void seq_init(struct seq_state *s, int phase, int host,
	      enum seq_mutation mutation, enum seq_walk walk);
/* Whether @op applies at all (its mounts exist or are free as it needs). */
int seq_valid(const struct seq_state *s, const struct seq_op *op);
/* seq_prop_bits() of our parents in @s. */
int seq_state_prop(const struct seq_state *s);
/*
 * Apply @op to @s and say what the kernel must return and show; where the
 * walk leaves the choice open (SEQ_WALK_ANY), the first of the trees.
 */
struct seq_result seq_apply(struct seq_state *s, const struct seq_op *op);
/*
 * Every tree @op may leave @s in, in @next, with what the kernel then
 * returns and shows, in @res; returns how many (1 unless a fresh mount
 * has several visible mounts to take its locks from, SEQ_WALK_ANY).
 */
int seq_apply_all(const struct seq_state *s, const struct seq_op *op,
		  struct seq_state next[SEQ_CHOICES],
		  struct seq_result res[SEQ_CHOICES]);
/* @r as the guest's records show it: "RET m=FLAGS p=PROP". */
void seq_result_format(const struct seq_result *r, char *buf, size_t len);
/* The walk of the kernel of release @release ("6.12.118"); -1 unreadable. */
int seq_walk_of(const char *release, enum seq_walk *walk);

#endif
