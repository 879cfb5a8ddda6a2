/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spec's sequences (tests/spec.md, after SEQ_SPEC_HEADING): short
 * sequences of operations written down with what the last one must give
 * in each phase, "RET m=FLAGS p=BITS" as the sequences step reports it.
 * The shrinker prints its reproducers as rows of this table; the unit
 * test holds the model to it and the sequences-spec boots the kernels.
 */
#ifndef SEQ_SPEC_H
#define SEQ_SPEC_H

#include <stdio.h>

#include "../contract/seq_op.h"
#include "../contract/spec.h"

#define SEQ_SPEC_ROWS 64
#define SEQ_SPEC_OPS 40

struct seq_spec_row {
	char name[64];
	int host;
	int n;
	struct seq_op ops[SEQ_SPEC_OPS];
	char cell[MAX_MODES][48];
};

struct seq_spec {
	int n;
	struct seq_spec_row row[SEQ_SPEC_ROWS];
};

int seq_spec_load(const char *path, struct seq_spec *sp, char *err,
		  size_t len);
/* The ops as the spec writes them: "op; op; ..." */
void seq_spec_ops(FILE *out, const struct seq_op *ops, int n);
/* A row of the table, its cells from the model (the shrinker's output). */
void seq_spec_print_row(FILE *out, const char *name, int host,
			const struct seq_op *ops, int n);
/* What the model says the last of @ops gives in @phase: "RET m=.. p=.." */
void seq_spec_model_cell(int phase, int host, const struct seq_op *ops,
			 int n, char *buf, size_t len);

#endif
