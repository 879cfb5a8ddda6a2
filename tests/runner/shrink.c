// SPDX-License-Identifier: GPL-2.0
/*
 * runner shrink: the shortest sequence that still disagrees.  It takes the
 * first sequence of a sequences run (--results) where the kernel and the
 * model part, and removes chunks of operations from it, at every offset,
 * halving the chunk when no removal keeps the disagreement (delta
 * debugging).  Each round's
 * candidates run in one boot of the kernel, as the guest's replay file
 * (/seq-replay, in an archive appended to the initramfs).  The last boot
 * replays the reproducer alone.
 *
 * With --mutate RULE it shrinks against a model with that rule broken on
 * purpose (seq_model.h): the test that shows the shrinker works.  Then the
 * true model must agree with the kernel on the reproducer.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpio.h"
#include "qemu.h"
#include "runner.h"
#include "seq_check.h"
#include "seq_spec.h"
#include "tap.h"

#define SHORT 8			/* a reproducer this long or shorter is short */
#define MAX_CANDIDATES 256

struct shrink {
	struct verdicts *v;	/* the boots' failures and the verdicts */
	const struct opts *o;
	int phase;
	enum seq_mutation mutation;
	struct seq_failure best;	/* the shortest disagreeing sequence */
	int found, boots;
};

static const char *const mutations[] = {
	[SEQ_TRUE] = "none",
	[SEQ_NEST_LOCKS_NOTHING] = "nest-locks-nothing",
};

static void keep_first(const struct seq_failure *f, void *ctx)
{
	struct shrink *sh = ctx;

	if (!sh->found)
		sh->best = *f;
	sh->found = 1;
}

static void keep_shortest(const struct seq_failure *f, void *ctx)
{
	struct shrink *sh = ctx;

	if (!sh->found || f->n < sh->best.n) {
		sh->best = *f;
		sh->found = 1;
	}
}

int seq_replayable(int phase, int host, int mutation,
		   const struct seq_op *ops, int n)
{
	struct seq_state s;
	int i;

	seq_init(&s, phase, host, mutation, SEQ_WALK_LIST);
	for (i = 0; i < n; i++) {
		if (!seq_valid(&s, &ops[i]))
			return 0;
		seq_apply(&s, &ops[i]);
	}
	return 1;
}

/*
 * Boot @o's kernel once with @text as /seq-replay (an archive appended to
 * the initramfs): the results file, or NULL when the boot failed.  Its
 * files in o->dir are named after @stem; @what names the boot in the
 * runner's output.
 */
const char *seq_replay_boot(struct verdicts *v, const struct opts *base,
			    const char *text, size_t len, const char *stem,
			    const char *what)
{
	static char results[4200];
	char initrd[4200], console[4200], append[1024];
	struct opts o = *base;
	bool timed_out;
	int status;

	snprintf(initrd, sizeof(initrd), "%s/%s.cpio", o.dir, stem);
	snprintf(results, sizeof(results), "%s/%s-results.txt", o.dir, stem);
	snprintf(console, sizeof(console), "%s/%s-console.log", o.dir, stem);
	if (initrd_with_file(o.initrd, "seq-replay", text, len, initrd)) {
		verdict(v, false, "%s: cannot write %s", what, initrd);
		return NULL;
	}
	o.initrd = initrd;
	o.steps = "sequences";
	o.faults = false;
	command_line(&o, NULL, NULL, append, sizeof(append));
	status = run_qemu(&o, append, results, console, &timed_out);
	if (timed_out || status) {
		check_qemu(v, &o, what, status, timed_out);
		return NULL;
	}
	return results;
}

static const char *replay(struct shrink *sh, const char *text, size_t len)
{
	char stem[64], what[64];

	snprintf(stem, sizeof(stem), "shrink-%s", sh->o->mode);
	snprintf(what, sizeof(what), "shrink %s boot %d", sh->o->mode,
		 ++sh->boots);
	return seq_replay_boot(sh->v, sh->o, text, len, stem, what);
}

/*
 * One round: every removal of @chunk consecutive operations, at every
 * offset, from @best, that the model can replay, given to @try at once.
 * Returns what @try does (1: a shorter one still fails, now @best), or 0
 * when no removal can be replayed.
 */
static int round_of(struct seq_failure *best, int chunk, int phase,
		    int mutation, shrink_try *try, void *ctx)
{
	const struct seq_failure cur = *best;
	struct seq_op ops[SEQ_MAX_OPS];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int start, n, ids = 0, r;

	for (start = 0; start + chunk <= cur.n && ids < MAX_CANDIDATES;
	     start++) {
		memcpy(ops, cur.ops, start * sizeof(ops[0]));
		memcpy(ops + start, cur.ops + start + chunk,
		       (cur.n - start - chunk) * sizeof(ops[0]));
		n = cur.n - chunk;
		if (n && seq_replayable(phase, cur.host, mutation, ops, n))
			seq_replay_line(f, ids++, cur.host, ops, n);
	}
	fclose(f);
	r = ids ? try(ctx, text, len, ids, best) : 0;
	free(text);
	if (r > 0 && best->n >= cur.n)
		r = 0;
	if (r == 0)
		*best = cur;
	printf("# round of chunk %d: %d candidates%s\n", chunk, ids,
	       r > 0 ? ", a shorter one still fails" : "");
	return r;
}

int shrink_rounds(struct seq_failure *best, int phase, int mutation,
		  shrink_try *try, void *ctx)
{
	int chunk, r = 1;

	for (chunk = best->n / 2; chunk >= 1 && r >= 0;) {
		r = round_of(best, chunk, phase, mutation, try, ctx);
		if (r == 0)
			chunk /= 2;
		else if (chunk > best->n / 2)
			chunk = best->n / 2;
	}
	return r;
}

/* @try for the model: the shortest candidate that still disagrees. */
static int try_on_model(void *ctx, const char *text, size_t len,
			int candidates, struct seq_failure *best)
{
	struct shrink *sh = ctx;
	struct seq_tally t;
	const char *results = replay(sh, text, len);

	if (!results)
		return -1;
	sh->found = 0;
	seq_check_file(results, sh->phase, sh->mutation, &t, keep_shortest, sh);
	printf("# %d candidates, %d still disagree\n", candidates,
	       t.disagreements);
	if (!sh->found)
		return 0;
	*best = sh->best;
	return 1;
}

/* The reproducer alone: it must disagree with the model it was shrunk by. */
static void confirm(struct shrink *sh)
{
	struct seq_tally mutant, truth;
	const char *results;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	seq_replay_line(f, 0, sh->best.host, sh->best.ops, sh->best.n);
	fclose(f);
	results = replay(sh, text, len);
	free(text);
	if (!results)
		return;
	seq_check_file(results, sh->phase, sh->mutation, &mutant, NULL, NULL);
	verdict(sh->v, mutant.seqs == 1 && mutant.disagreements == 1,
		"shrink %s: the reproducer, replayed alone, still disagrees with the model%s%s",
		sh->o->mode, sh->mutation ? " broken by " : "",
		sh->mutation ? mutations[sh->mutation] : "");
	if (!sh->mutation)
		return;
	seq_check_file(results, sh->phase, SEQ_TRUE, &truth, NULL, NULL);
	verdict(sh->v, truth.seqs == 1 && truth.ops == sh->best.n && !truth.disagreements,
		"shrink %s: the true model agrees with the kernel on all %ld operations of the reproducer",
		sh->o->mode, truth.ops);
}

static enum seq_mutation mutation_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(mutations) / sizeof(mutations[0]); i++)
		if (!strcmp(name, mutations[i]))
			return i;
	fprintf(stderr, "runner: unknown --mutate '%s' (none, nest-locks-nothing)\n",
		name ? name : "");
	usage();
}

/*
 * Shrink @first, a sequence that disagrees with the model broken by
 * @mutation (SEQ_TRUE: the true one), and print the reproducer, as a
 * replay line and as a row of the spec's sequences; the boots' failures
 * and whether it is short and still disagrees, as verdicts on @v (a
 * list printed as TAP: the reproducer is printed as it comes).
 */
void seq_shrink(struct verdicts *v, const struct opts *o, int phase,
		int mutation, const struct seq_failure *first)
{
	struct shrink sh = { .v = v, .o = o, .phase = phase,
			     .mutation = mutation, .best = *first, .found = 1 };
	char name[64];
	int r, i;

	r = shrink_rounds(&sh.best, phase, mutation, try_on_model, &sh);
	printf("# the reproducer:\n");
	seq_print_failure(&sh.best, o->mode);
	for (i = 0; i < sh.best.n && sh.best.ops[i].kind != SQ_RAISE; i++)
		;
	if (i < sh.best.n)
		printf("# it raises the phase: the spec's sequences run in one boot and take no raise, so add it as a scenario of its own boot instead\n");
	snprintf(name, sizeof(name), "seq_found_%s_%d", o->mode, sh.best.id);
	printf("# as a row of the spec's sequences (tests/spec.md; its cells are the model's, check them against the rules):\n# ");
	fflush(stdout);
	seq_spec_print_row(stdout, name, sh.best.host, sh.best.ops, sh.best.n);
	verdict(v, r >= 0 && sh.best.n <= SHORT,
		"shrink %s: %d operations shrunk to %d (at most %d) in %d boots",
		o->mode, first->n, sh.best.n, SHORT, sh.boots);
	tap_figure("shrink %s: %d operations shrunk to %d in %d boots",
		   o->mode, first->n, sh.best.n, sh.boots);
	if (r >= 0)
		confirm(&sh);
}

int cmd_shrink(const struct opts *o)
{
	struct verdicts v = VERDICTS_TAP;
	struct shrink sh = { .v = &v, .o = o, .phase = need_mode(o->mode) };
	struct seq_tally t;

	if (!o->kernel || !o->initrd || !o->results || !o->dir)
		usage();
	sh.mutation = mutation_of(o->mutate ? o->mutate : "none");
	if (seq_check_file(o->results, sh.phase, sh.mutation, &t, keep_first,
			   &sh))
		verdict(&v, false, "shrink %s: cannot read %s", o->mode, o->results);
	verdict(&v, sh.found, "shrink %s: %ld operations of %d sequences in %s, %d disagree with the model%s%s",
		o->mode, t.ops, t.seqs, o->results, t.disagreements,
		sh.mutation ? " broken by " : "",
		sh.mutation ? mutations[sh.mutation] : "");
	if (!sh.found)
		return verdicts_tap_end(&v);
	seq_print_failure(&sh.best, o->mode);
	seq_shrink(&v, o, sh.phase, sh.mutation, &sh.best);
	return verdicts_tap_end(&v);
}
