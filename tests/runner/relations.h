/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The phases' promises as relations between runs of the same sequences
 * (relations.c): what each relation found, as data; cmd_relate() prints
 * it as TAP.
 */
#ifndef RELATIONS_H
#define RELATIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "../contract/spec.h"

#define N_PHASE_RELATIONS 8	/* between the boots of two phases */
/* a raised boot and its new phase's: every pair of phases */
#define N_RAISE_RELATIONS (MAX_MODES * (MAX_MODES - 1) / 2)
#define N_RELATIONS (N_PHASE_RELATIONS + N_RAISE_RELATIONS)
#define RKEEP 3			/* violations kept in full per relation */

/* What one relation found over all sequences. */
struct tally {
	const char *name;
	long ops;		/* operations compared */
	int seqs;		/* sequences compared */
	long named;		/* sequences stopped for the reason @stopped says */
	const char *stopped;
	long hidden;		/* refusals whose warning the limit may drop */
	bool of_raise;		/* a raise relation (relations_raise.c): */
	long from_raise;	/* sequences compared from their own raise */
	int violations;
	int first_id, first_op;	/* the first: its sequence, its operation */
	char first_why[256];	/* and what was wrong there */
	char kept[RKEEP][1024];	/* the first ones: sequence, operations, why */
};

/*
 * Read the sequences run of every phase (@paths, by enum phase) and hold
 * them to each other: 0 with the relations' tallies in @out, or -1 with
 * the cause in @why (a file missing, unreadable, unfinished, or of other
 * sequences than the others).
 */
int relations_check(const char *const paths[MAX_MODES],
		    struct tally out[N_RELATIONS], char *why, size_t len);

/*
 * The runs of one tree (@a) and of another (@b), each of every phase, of
 * the same sequences: phase by phase the same, where the walk of the
 * visible mounts cannot decide (relations_trees.c); 0 with a tally per
 * phase in @out, or -1 with the cause in @why.
 */
int relations_trees_check(const char *const a[MAX_MODES],
			  const char *const b[MAX_MODES],
			  struct tally out[MAX_MODES], char *why, size_t len);

#endif
