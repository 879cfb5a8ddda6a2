// SPDX-License-Identifier: GPL-2.0
/*
 * runner shrink-relation: the shortest sequence that still breaks a
 * relation between two phases (relations.c).  It takes the first sequence
 * of the two phases' runs (sequences-PHASE=FILE, as relate takes them)
 * that breaks --relation, up to the operation that breaks it, and removes
 * chunks of operations from it as runner shrink does (shrink_rounds()).
 * Each round's candidates run in two boots of one kernel, one per phase
 * of the relation (proc_sysfs_mount_flags=, so the kernel needs the
 * run-time switch), and the relation judges them side by side: no model
 * decides what fails, the model only says which operations find their
 * mounts.  The last two boots replay the reproducer alone, and it is
 * printed as a row of the spec's sequences.
 *
 * With the relation broken on purpose ("legacy = implicit (broken on
 * purpose)") it is the test that the shrinker works on relations: the
 * reproducer must be short, break that relation alone, and keep the true
 * relations between the same phases.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relations_run.h"
#include "runner.h"
#include "seq_check.h"
#include "seq_spec.h"
#include "tap.h"

#define SHORT 8			/* a reproducer this long or shorter is short */

struct rshrink {
	struct verdicts *v;	/* the boots' failures and the verdicts */
	const struct opts *o;
	const char *name;
	int phase[2];		/* the relation's, a and b */
	rel_check check;
	int boots;
	char results[2][4200];	/* the last boots' results files */
	struct rrun run[2];
};

/* Boot both phases with @text as /seq-replay, and load their runs. */
static int replay_both(struct rshrink *sh, const char *text, size_t len)
{
	char stem[64], what[96], why[512];
	const char *results;
	int i;

	for (i = 0; i < 2; i++) {
		struct opts o = *sh->o;

		o.mode = all_modes[sh->phase[i]];
		o.boot_phase = o.mode;
		snprintf(stem, sizeof(stem), "shrink-relation-%s", o.mode);
		snprintf(what, sizeof(what), "shrink-relation %s boot %d",
			 o.mode, ++sh->boots);
		results = seq_replay_boot(sh->v, &o, text, len, stem, what);
		if (!results)
			return -1;
		snprintf(sh->results[i], sizeof(sh->results[i]), "%s", results);
		rrun_free(&sh->run[i]);
		if (rrun_load(&sh->run[i], sh->results[i], sh->phase[i], why,
			      sizeof(why))) {
			verdict(sh->v, false, "shrink-relation: %s", why);
			return -1;
		}
	}
	return 0;
}

/*
 * Sequence @id of @r, up to its operation @n, as a failure to shrink, and
 * what the relation found wrong there (@t).
 */
static void failure_of(const struct rrun *r, int id, int n,
		       const struct tally *t, struct seq_failure *f)
{
	const struct rseq *s = rrun_find_seq(r, id);
	int i;

	memset(f, 0, sizeof(*f));
	snprintf(f->what, sizeof(f->what), "%s", t->first_why);
	f->id = id;
	f->host = s->host;
	f->n = n < SEQ_MAX_OPS ? n : SEQ_MAX_OPS;
	for (i = 0; i < f->n; i++)
		f->ops[i] = r->ops[s->first + i].op;
}

/* @try for a relation: the shortest candidate that still breaks it. */
static int try_relation(void *ctx, const char *text, size_t len,
			int candidates, struct seq_failure *best)
{
	struct rshrink *sh = ctx;
	struct tally t;
	int id, n, broken = 0, found = 0;

	if (replay_both(sh, text, len))
		return -1;
	for (id = 0; id < candidates; id++) {
		n = rrun_violation(&sh->run[0], &sh->run[1], id, sh->check, &t);
		broken += n > 0;
		if (n > 0 && (!found || n < best->n)) {
			failure_of(&sh->run[0], id, n, &t, best);
			found = 1;
		}
	}
	printf("# %d candidates, %d still break '%s'\n", candidates, broken,
	       sh->name);
	return found;
}

/* The reproducer alone breaks the relation; the true ones hold on it. */
static void confirm(struct rshrink *sh, const struct seq_failure *best)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct tally t;
	int a, b, r, kept = 0;
	rel_check check;

	seq_replay_line(f, 0, best->host, best->ops, best->n);
	fclose(f);
	r = replay_both(sh, text, len);
	free(text);
	if (r)
		return;
	verdict(sh->v, rrun_violation(&sh->run[0], &sh->run[1], 0, sh->check, &t) > 0,
		"shrink-relation: the reproducer, replayed alone, still breaks '%s'",
		sh->name);
	if (!strstr(sh->name, "broken on purpose"))
		return;
	if (!relation_named("implicit allows what legacy allows", &a, &b,
			    &check))
		kept = rrun_violation(&sh->run[0], &sh->run[1], 0, check, &t) == 0;
	verdict(sh->v, kept && t.ops == best->n,
		"shrink-relation: 'implicit allows what legacy allows' holds on all %ld operations of the reproducer",
		t.ops);
}

/*
 * The sequence of @a's and @b's runs to shrink: of those that break the
 * relation, the one that breaks it soonest, the cheapest to shrink; for
 * the relation broken on purpose the one that breaks it latest, so that
 * the test shows a long sequence shrunk.
 */
static int pick_violation(struct rshrink *sh, const char *const paths[2],
			  struct seq_failure *pick)
{
	int longest = !!strstr(sh->name, "broken on purpose");
	char why[512], test[64];
	struct tally t;
	int i, n, found = 0;

	for (i = 0; i < 2; i++) {
		snprintf(test, sizeof(test), "sequences-%s", all_modes[sh->phase[i]]);
		if (rrun_load(&sh->run[i], paths[i], sh->phase[i], why,
			      sizeof(why)) ||
		    rrun_stale(&sh->run[i], test, why, sizeof(why))) {
			verdict(sh->v, false, "shrink-relation: %s", why);
			return -1;
		}
	}
	for (i = 0; i < sh->run[0].n; i++) {
		const struct rseq *s = &sh->run[0].seq[i];
		const struct rseq *o = rrun_find_seq(&sh->run[1], s->id);

		if (!o || !rseq_unraised(&sh->run[0], s) ||
		    !rseq_unraised(&sh->run[1], o))
			continue;	/* one of the boots runs another phase */
		n = rrun_violation(&sh->run[0], &sh->run[1], s->id, sh->check,
				   &t);
		if (n > 0 && (!found || (longest ? n > pick->n : n < pick->n))) {
			failure_of(&sh->run[0], s->id, n, &t, pick);
			found = 1;
		}
	}
	return !found;
}

static void print_row(const struct rshrink *sh, const struct seq_failure *f)
{
	char name[64];

	printf("# the reproducer (the runs of %s and %s):\n",
	       all_modes[sh->phase[0]], all_modes[sh->phase[1]]);
	seq_print_failure(f, all_modes[sh->phase[1]]);
	snprintf(name, sizeof(name), "seq_relation_%s_%s_%d",
		 all_modes[sh->phase[0]], all_modes[sh->phase[1]], f->id);
	printf("# as a row of the spec's sequences (tests/spec.md; its cells are the model's, check them against the relation):\n# ");
	fflush(stdout);
	seq_spec_print_row(stdout, name, f->host, f->ops, f->n);
}

int cmd_shrink_relation(const struct opts *o)
{
	struct verdicts v = VERDICTS_TAP;
	struct rshrink sh = { .v = &v, .o = o, .name = o->relation };
	struct seq_failure best;
	const char *paths[2];
	int r, start;

	if (!o->kernel || !o->initrd || !o->dir || !o->relation)
		usage();
	if (relation_named(o->relation, &sh.phase[0], &sh.phase[1],
			   &sh.check)) {
		fprintf(stderr, "runner: unknown --relation '%s': one of ",
			o->relation);
		relation_names(stderr);
		fprintf(stderr, "\n");
		exit(2);
	}
	paths[0] = o->in.sequences[sh.phase[0]];
	paths[1] = o->in.sequences[sh.phase[1]];
	if (!paths[0] || !paths[1]) {
		fprintf(stderr, "runner: '%s' needs sequences-%s=FILE and sequences-%s=FILE\n",
			o->relation, all_modes[sh.phase[0]], all_modes[sh.phase[1]]);
		exit(2);
	}
	r = pick_violation(&sh, paths, &best);
	verdict(&v, r == 0, "shrink-relation: a sequence of %s that breaks '%s'%s",
		paths[1], o->relation, r ? "" : ", to shrink");
	if (r == 0) {
		printf("# %s\n", best.what);
		start = best.n;
		r = shrink_rounds(&best, sh.phase[0], SEQ_TRUE, try_relation,
				  &sh);
		print_row(&sh, &best);
		verdict(&v, r >= 0 && best.n <= SHORT,
			"shrink-relation: %d operations shrunk to %d (at most %d) in %d boots",
			start, best.n, SHORT, sh.boots);
		tap_figure("shrink-relation '%s': %d operations shrunk to %d in %d boots",
			   o->relation, start, best.n, sh.boots);
		if (r >= 0)
			confirm(&sh, &best);
	}
	rrun_free(&sh.run[0]);
	rrun_free(&sh.run[1]);
	return verdicts_tap_end(&v);
}
