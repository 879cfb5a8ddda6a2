/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's sequences (initramfs/sequences.c) replayed on the model
 * (seq_model.c): every operation's return and the flags of every mount.
 */
#ifndef SEQ_CHECK_H
#define SEQ_CHECK_H

#include <stdio.h>

#include "seq_model.h"

#define SEQ_MAX_OPS 256		/* operations kept of one sequence */
#define SEQ_KEEP 3		/* disagreements kept in full */

/* A sequence up to the operation where the kernel and the model part. */
struct seq_failure {
	int id, host, n;
	struct seq_op ops[SEQ_MAX_OPS];
	char what[320];		/* the operation, the kernel's and the model's */
};

struct seq_tally {
	long records;		/* operation records read */
	long ops;		/* operations checked */
	long open_ops;		/* checked while the model had several trees */
	int max_trees;		/* the most trees the model had at once */
	int seqs;		/* sequences begun */
	int bad_exits;		/* sequences whose process did not exit 0 */
	int disagreements;	/* sequences where the kernel and model part */
	int unmodelled;		/* sequences with SEQ_HOST_TWIN, not checked */
	int ended;		/* the step's end record was seen */
	long end_ops, ms;	/* from the end record */
	int end_seqs;
	unsigned long seed;
	int faults;		/* under fault injection ("faults on") */
	long injected;		/* operations failed by an injected fault */
	int n_kept;
	struct seq_failure kept[SEQ_KEEP];
};

/* Told of every sequence where the kernel and the model part. */
typedef void seq_parted(const struct seq_failure *f, void *ctx);

/*
 * Check the sequences in the results file @path; -1 if unreadable.
 * @parted (may be NULL) hears of every disagreement.
 */
int seq_check_file(const char *path, int phase, enum seq_mutation mutation,
		   struct seq_tally *t, seq_parted *parted, void *ctx);
/* Write @f as a line of the guest's replay file. */
void seq_replay_line(FILE *out, int id, int host, const struct seq_op *ops,
		     int n);
/* Print @f as comments: the reproducer, ready to replay. */
void seq_print_failure(const struct seq_failure *f, const char *phase);

#endif
