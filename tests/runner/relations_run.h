/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the relations compare (relations_run.c): the sequences step of a
 * run as its results file holds it, and two runs' sequences walked side
 * by side, operation by operation, for a check to judge.
 */
#ifndef RELATIONS_RUN_H
#define RELATIONS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "relations.h"
#include "verdicts.h"
#include "../contract/seq_op.h"

/* One operation as a run recorded it. */
struct rop {
	struct seq_op op;
	char text[64], ret[16];
	int m[SEQ_MOUNTS], l[SEQ_MOUNTS];
	/*
	 * What each mount is after it: '-' none, 'p' or 's' a proc or sysfs
	 * mount of its root, 'P' or 'S' of a subdirectory; "" if the run's
	 * records do not say (they said it from f= on).
	 */
	char f[SEQ_MOUNTS + 1];
	/* sb=: its filesystem read-only ('r') or not ('w'); "" unsaid */
	char sb[SEQ_MOUNTS + 1];
	int p, w, pw;	/* warning lines: the operation's, the probe's */
	long s, t;	/* ms since boot: before it, after its probe */
};

/*
 * A sequence: its operations are the run's ops[first .. first + n).  It
 * ran under phase @from until its operation @raise_at raised the boot's
 * phase to @to (-1 and @to == @from: it raised nothing).  Its process
 * exited with @exit: not 0 if the guest's time limit cut it short.
 */
struct rseq {
	int id, host, n;
	long first;
	int from, to, raise_at;
	int exit;		/* its process's status ("qe"), -1 unsaid */
};

/* The sequences step of one run, as its results file holds it. */
struct rrun {
	const char *path;
	int phase;		/* the boot's, before any raise */
	unsigned long seed;
	long end_ops;		/* what the end record says were run */
	int n, cap, ended;
	struct rseq *seq;
	struct rop *ops;
	long n_ops, cap_ops;
	long *warned;		/* when each warning line was seen */
	int n_warned, cap_warned;
	int n_made_by;		/* "host file": the boot's kernel, initramfs */
	struct made_from made_by[2];
};

/*
 * Whether sequence @s of @r started in the boot's own phase, before any
 * raise (the raise lasts for the rest of the boot): up to its own raise it
 * is held to that phase's promises.
 */
static inline bool rseq_unraised(const struct rrun *r, const struct rseq *s)
{
	return s->from == r->phase;
}

enum step { GO_ON, STOP, VIOLATION };

/* One operation as both runs recorded it. */
struct pair {
	const struct rop *a, *b;
	const struct rop *prev_b;	/* @b's record before, NULL at first */
	const struct rrun *ra, *rb;
	int host;			/* the sequence's host */
};

typedef enum step (*rel_check)(const struct pair *x, struct tally *t,
			       char *why, size_t len);

/*
 * Read @path, a run of @phase, into @r; 0, or -1 with the cause in @why.
 */
int rrun_load(struct rrun *r, const char *path, int phase, char *why,
	      size_t len);
void rrun_free(struct rrun *r);
/*
 * 0 if @r belongs to this build (its kernel and initramfs are as they
 * were when it was written), else -1 with why, naming the test @name to
 * run again.
 */
int rrun_stale(const struct rrun *r, const char *name, char *why, size_t len);
/* 0 if @a and @b ran the same sequences (seed and length), else -1, @why */
int rrun_same_sequences(const struct rrun *a, const struct rrun *b,
			char *why, size_t len);

/*
 * Each sequence of @ra that @rb ran on the same host, side by side: @check
 * judges each operation both performed, up to where they part, where it
 * stops, or (with @stop_at_raise, for two phases) at a raise, and then
 * no sequence after one that raised either run's phase; into @t.
 */
void rrun_relate(const struct rrun *ra, const struct rrun *rb,
		 int stop_at_raise, rel_check check, struct tally *t);
const struct rseq *rrun_find_seq(const struct rrun *r, int id);
/*
 * Sequence @id of @ra and @rb side by side, up to a raise: how many of
 * its operations lead to the first that breaks @check (1 for the first),
 * 0 if none does, -1 if a run lacks it; what was found in @t.
 */
int rrun_violation(const struct rrun *ra, const struct rrun *rb, int id,
		   rel_check check, struct tally *t);
/* Keep @why for sequence @s of @r, whose operations 0..@upto it concerns. */
void rrun_keep(struct tally *t, const struct rrun *r, const struct rseq *s,
	       int upto, const char *why);

/*
 * Every phase's run, of the same sequences (@paths by enum phase, given
 * as NAME-PHASE=FILE): 0, or -1 with the cause in @why.
 */
int rrun_load_phases(struct rrun runs[MAX_MODES],
		     const char *const paths[MAX_MODES], const char *name,
		     char *why, size_t len);
/*
 * Each tally's verdict (it compared something and found no violation) to
 * @v, with its figure; its kept violations as diagnostics.
 */
void tally_judge(struct verdicts *v, const struct tally *t, int n);

int rop_ok(const struct rop *o);
/* The same mounts, flags and propagation. */
int rop_same_mounts(const struct rop *a, const struct rop *b);
/* The same result, mounts, flags, propagation and locks. */
int rop_same_state(const struct rop *a, const struct rop *b);

/*
 * The relation between two phases called @name (relations.c, or the one
 * broken on purpose that the shrinker's test shrinks by): 0 with its
 * phases and check, or -1.  relation_names() lists the names.  A
 * relation within one phase's run is not one of them.
 */
int relation_named(const char *name, int *a, int *b, rel_check *check);
void relation_names(FILE *out);

/*
 * The raised boots against the new phase's (relations_raise.c), into
 * @out: the runs of every phase, by enum phase.
 */
void relations_raised(const struct rrun runs[MAX_MODES],
		      struct tally out[N_RAISE_RELATIONS]);

#endif
