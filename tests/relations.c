// SPDX-License-Identifier: GPL-2.0
/*
 * runner relate: the phases' promises as relations between the runs of
 * the same random sequences under each phase, with no model of the
 * kernel.  The guest chooses each operation from what it sees, with the
 * same seed in every phase, so two runs perform the same operations for
 * as long as the same mounts are there; each relation compares them up
 * to the first operation where they part, or up to a raise of the phase.
 *
 *  warn = legacy     every result, flag, lock and propagation the same
 *  warn ~ enforce    a warning line exactly where enforce refuses, as far
 *                    as the kernel's rate limit lets lines through
 *  implicit >= legacy  implicit succeeds wherever legacy does, except an
 *                    explicit mount_setattr(2) clear of a locked flag, and
 *                    every mount carries at least legacy's flags
 *  enforce <= legacy  where enforce allows, legacy's result and flags,
 *                    and legacy's read-only locks
 *  no clear, no EPERM  in every phase's run, raises included: a bind
 *                    remount or mount_setattr(2) that clears no flag the
 *                    mount has is never refused with EPERM, as no lock
 *                    can refuse it
 *
 * Enforce takes a fresh mount's read-only lock from the first visible
 * mount it accepts, which is not legacy's where legacy's lends a flag
 * enforce requires: from there the two runs' locks may differ, and the
 * relations with enforce stop, counted as "lender differs".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relations.h"
#include "runner.h"
#include "seq_op.h"
#include "tap.h"

#define BURST 10		/* the kernel's rate limit of the warning */
#define WINDOW_MS 5500		/* its 5 s window, and a margin */

/* One operation as a run recorded it. */
struct rop {
	struct seq_op op;
	char text[64], ret[16];
	int m[SEQ_MOUNTS], l[SEQ_MOUNTS];
	int p, w, pw;	/* warning lines: the operation's, the probe's */
	long s, t;	/* ms since boot: before it, after its probe */
};

/* A sequence: its operations are the run's ops[first .. first + n). */
struct rseq {
	int id, host, n;
	long first;
};

/* The sequences step of one run, as its results file holds it. */
struct rrun {
	const char *path;
	unsigned long seed;
	long end_ops;		/* what the end record says were run */
	int n, cap, ended;
	struct rseq *seq;
	struct rop *ops;
	long n_ops, cap_ops;
	long *warned;		/* when each warning line was seen */
	int n_warned, cap_warned;
};

static struct rseq *new_seq(struct rrun *r, int id, int host)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->seq = realloc(r->seq, r->cap * sizeof(*r->seq));
		if (!r->seq)
			abort();
	}
	r->seq[r->n] = (struct rseq){ .id = id, .host = host,
				      .first = r->n_ops };
	return &r->seq[r->n++];
}

/* Add @o to @r's last sequence, which its records must continue. */
static void add_op(struct rrun *r, const struct rop *o)
{
	if (r->n_ops == r->cap_ops) {
		r->cap_ops = r->cap_ops ? 2 * r->cap_ops : 4096;
		r->ops = realloc(r->ops, r->cap_ops * sizeof(*r->ops));
		if (!r->ops)
			abort();
	}
	r->ops[r->n_ops++] = *o;
	r->seq[r->n - 1].n++;
}

static void note_warned(struct rrun *r, long t, int lines)
{
	while (lines-- > 0) {
		if (r->n_warned == r->cap_warned) {
			r->cap_warned = r->cap_warned ? 2 * r->cap_warned : 1024;
			r->warned = realloc(r->warned,
					    r->cap_warned * sizeof(long));
			if (!r->warned)
				abort();
		}
		r->warned[r->n_warned++] = t;
	}
}

/* "q ID N OP ret=R m=M p=P l=L w=W pw=PW s=S t=T": 0, or -1 unreadable. */
static int parse_op(const char *line, int *id, struct rop *o)
{
	const char *ret = strstr(line, " ret="), *m = strstr(line, " m=");
	const char *l = strstr(line, " l="), *p = strstr(line, " p=");
	const char *w = strstr(line, " w="), *t = strstr(line, " t=");
	const char *pw = strstr(line, " pw="), *s = strstr(line, " s=");
	int off = 0;

	if (sscanf(line, "q %d %*d %n", id, &off) != 1 || !off || !ret ||
	    !m || !l || !p || !w || !pw || !s || !t || ret - line - off >= 64)
		return -1;
	snprintf(o->text, sizeof(o->text), "%.*s", (int)(ret - line - off),
		 line + off);
	snprintf(o->ret, sizeof(o->ret), "%.*s", (int)strcspn(ret + 5, " \n"),
		 ret + 5);
	if (seq_op_parse(o->text, &o->op) || seq_flags_parse(m + 3, o->m) ||
	    seq_flags_parse(l + 3, o->l) || sscanf(p, " p=%d", &o->p) != 1 ||
	    sscanf(w, " w=%d", &o->w) != 1 || sscanf(pw, " pw=%d", &o->pw) != 1 ||
	    sscanf(s, " s=%ld", &o->s) != 1 || sscanf(t, " t=%ld", &o->t) != 1)
		return -1;
	return 0;
}

/* Read @r->path; 0, or -1 with the cause in @why. */
static int load_rrun(struct rrun *r, char *why, size_t len)
{
	FILE *f = fopen(r->path, "r");
	int cur = -1;
	char line[1024];
	int id, host;

	if (!f) {
		snprintf(why, len, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct rop o;

		if (sscanf(line, "qs %d host=%x", &id, &host) == 2) {
			new_seq(r, id, host);
			cur = id;
		} else if (!strncmp(line, "q ", 2)) {
			if (parse_op(line, &id, &o) || id != cur) {
				snprintf(why, len, "%s: unreadable record '%.*s'",
					 r->path, (int)strcspn(line, "\n"), line);
				fclose(f);
				return -1;
			}
			add_op(r, &o);
			note_warned(r, o.t, o.w + o.pw);
		} else if (sscanf(line, "sequences-end seed=%lu %*s ops=%ld",
				  &r->seed, &r->end_ops) == 2) {
			r->ended = 1;
		}
	}
	fclose(f);
	if (!r->ended) {
		snprintf(why, len, "%s: no sequences-end record: the run did not finish",
			 r->path);
		return -1;
	}
	return 0;
}

/*
 * Could the rate limit have dropped a warning of @o, an operation of run
 * @r?  The kernel drops one when BURST lines were printed since its window
 * began, less than 5 s before the check.  The check came after @o->s, and
 * each line was printed before the time recorded for it (its operation's
 * end, taken after the probe): so every line the kernel counted is one
 * recorded in (@o->s - WINDOW_MS, @o->s], however long an operation took
 * on a loaded host.  Counting by the lines' times alone, the end of a slow
 * operation could fall outside the window its check fell in.
 */
static int window_may_be_full(const struct rrun *r, const struct rop *o)
{
	int i, n = 0;

	for (i = 0; i < r->n_warned; i++)
		n += r->warned[i] <= o->s && r->warned[i] > o->s - WINDOW_MS;
	return n >= BURST;
}

enum step { GO_ON, STOP, VIOLATION };

/* One operation as both runs recorded it. */
struct pair {
	const struct rop *a, *b;
	const struct rop *prev_b;	/* @b's record before, NULL at first */
	const struct rrun *ra, *rb;
};

struct relation {
	const char *name;
	enum phase a, b;	/* the same for a property of one run */
	enum step (*check)(const struct pair *x, struct tally *t, char *why,
			   size_t len);
};

static int ro_lock(const int *l, int i)
{
	return l[i] < 0 ? -1 : l[i] & F_RO;
}

/* The same mounts, flags and propagation. */
static int same_mounts(const struct rop *a, const struct rop *b)
{
	return a->p == b->p && !memcmp(a->m, b->m, sizeof(a->m));
}

static int same_ro_locks(const struct rop *a, const struct rop *b)
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++)
		if (ro_lock(a->l, i) != ro_lock(b->l, i))
			return 0;
	return 1;
}

static int ok(const struct rop *o)
{
	return !strcmp(o->ret, "0");
}

/* @a legacy, @b warn: the same in every respect. */
static enum step warn_is_legacy(const struct pair *x, struct tally *t,
				char *why, size_t len)
{
	(void)t;
	char la[SEQ_MOUNTS + 1], lb[SEQ_MOUNTS + 1];

	if (!strcmp(x->a->ret, x->b->ret) && same_mounts(x->a, x->b) &&
	    !memcmp(x->a->l, x->b->l, sizeof(x->a->l)))
		return GO_ON;
	seq_flags_format(x->a->l, la);
	seq_flags_format(x->b->l, lb);
	snprintf(why, len, "legacy gave %s p=%d locks %s, warn %s p=%d locks %s (flags as recorded)",
		 x->a->ret, x->a->p, la, x->b->ret, x->b->p, lb);
	return VIOLATION;
}

/* @a warn, @b enforce: a line where enforce refuses what warn allows. */
static enum step warns_where_enforce_refuses(const struct pair *x,
					     struct tally *t, char *why,
					     size_t len)
{
	int refused = ok(x->a) && !strcmp(x->b->ret, "EPERM");

	if (x->a->w && !refused) {
		snprintf(why, len, "warn logged %d line(s), enforce gave %s",
			 x->a->w, x->b->ret);
		return VIOLATION;
	}
	if (refused && !x->a->w) {
		if (!window_may_be_full(x->ra, x->a)) {
			snprintf(why, len,
				 "enforce refused, warn logged nothing with room in the rate limit");
			return VIOLATION;
		}
		t->hidden++;
	}
	if (strcmp(x->a->ret, x->b->ret) || !same_mounts(x->a, x->b))
		return STOP;		/* from here the mounts differ */
	if (!same_ro_locks(x->a, x->b)) {
		t->named++;
		return STOP;
	}
	return GO_ON;
}

/*
 * @a legacy, @b implicit: implicit allows what legacy allows, except an
 * explicit clear of a flag it has locked, and keeps at least its flags.
 */
static enum step implicit_keeps_legacy(const struct pair *x, struct tally *t,
				       char *why, size_t len)
{
	const struct seq_op *op = &x->b->op;
	int i;

	(void)t;
	if (ok(x->a) && !ok(x->b)) {
		if (op->kind == SQ_SETATTR && !strcmp(x->b->ret, "EPERM") &&
		    (op->rec || !x->prev_b || (x->prev_b->l[op->dst] & op->clr)))
			return STOP;	/* an explicit clear of a locked flag */
		snprintf(why, len, "legacy allowed it, implicit gave %s",
			 x->b->ret);
		return VIOLATION;
	}
	/* Implicit may also repair what legacy refuses: from there they part. */
	if (strcmp(x->a->ret, x->b->ret))
		return STOP;
	for (i = 0; i < SEQ_MOUNTS; i++)
		if (x->a->m[i] >= 0 && x->b->m[i] >= 0 &&
		    (x->a->m[i] & ~x->b->m[i])) {
			snprintf(why, len,
				 "mount %d: legacy's flags %x, implicit's %x",
				 i, x->a->m[i], x->b->m[i]);
			return VIOLATION;
		}
	return GO_ON;
}

/*
 * @a legacy, @b enforce: where enforce allows, legacy's result, flags and
 * read-only locks; where it refuses, legacy allowed (EPERM only).
 */
static enum step enforce_within_legacy(const struct pair *x, struct tally *t,
				       char *why, size_t len)
{
	if (ok(x->b) && !ok(x->a)) {
		snprintf(why, len, "enforce allowed what legacy refused (%s)",
			 x->a->ret);
		return VIOLATION;
	}
	if (!ok(x->b) && strcmp(x->a->ret, x->b->ret) &&
	    strcmp(x->b->ret, "EPERM")) {
		snprintf(why, len, "legacy gave %s, enforce %s", x->a->ret,
			 x->b->ret);
		return VIOLATION;
	}
	if (strcmp(x->a->ret, x->b->ret))
		return STOP;
	if (ok(x->b) && !same_mounts(x->a, x->b)) {
		snprintf(why, len, "both allowed it, with other flags or propagation");
		return VIOLATION;
	}
	if (!same_mounts(x->a, x->b))
		return STOP;
	if (!same_ro_locks(x->a, x->b)) {
		t->named++;
		return STOP;
	}
	return GO_ON;
}

/* The flags @x->b's operation clears on its mount, or -1 if unknown. */
static int cleared(const struct pair *x)
{
	const struct seq_op *op = &x->b->op;
	int had;

	if (!x->prev_b || x->prev_b->m[op->dst] < 0)
		return -1;
	had = x->prev_b->m[op->dst];
	switch (op->kind) {
	case SQ_SETATTR:
		/* Every mount of a sequence is a leaf: rec changes it alone. */
		return had & op->clr;
	case SQ_BINDREMOUNT:
		return had & ~op->flags;
	default:
		return -1;
	}
}

/* One run: a change that clears nothing is not refused with EPERM. */
static enum step no_clear_no_eperm(const struct pair *x, struct tally *t,
				   char *why, size_t len)
{
	(void)t;
	if (cleared(x) == 0 && !strcmp(x->b->ret, "EPERM")) {
		snprintf(why, len, "%s clears no flag of mount %d (%x) and gave EPERM",
			 x->b->text, x->b->op.dst, x->prev_b->m[x->b->op.dst]);
		return VIOLATION;
	}
	return GO_ON;
}

static const struct relation relations[N_RELATIONS] = {
	{ "warn = legacy", PHASE_LEGACY, PHASE_WARN, warn_is_legacy },
	{ "warn warns where enforce refuses", PHASE_WARN, PHASE_ENFORCE,
	  warns_where_enforce_refuses },
	{ "implicit allows what legacy allows", PHASE_LEGACY, PHASE_IMPLICIT,
	  implicit_keeps_legacy },
	{ "enforce allows only as legacy does", PHASE_LEGACY, PHASE_ENFORCE,
	  enforce_within_legacy },
	{ "legacy: no clear, no EPERM", PHASE_LEGACY, PHASE_LEGACY,
	  no_clear_no_eperm },
	{ "warn: no clear, no EPERM", PHASE_WARN, PHASE_WARN,
	  no_clear_no_eperm },
	{ "implicit: no clear, no EPERM", PHASE_IMPLICIT, PHASE_IMPLICIT,
	  no_clear_no_eperm },
	{ "enforce: no clear, no EPERM", PHASE_ENFORCE, PHASE_ENFORCE,
	  no_clear_no_eperm },
};

static const struct rseq *find_seq(const struct rrun *r, int id)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->seq[i].id == id)
			return &r->seq[i];
	return NULL;
}

static void keep(struct tally *t, const struct rrun *r, const struct rseq *s,
		 int upto, const char *why)
{
	char *k;
	size_t off;
	int i;

	if (t->violations++ >= RKEEP)
		return;
	k = t->kept[t->violations - 1];
	off = snprintf(k, sizeof(t->kept[0]), "sequence %d, host %x: ", s->id,
		       s->host);
	for (i = 0; i <= upto && off < sizeof(t->kept[0]); i++)
		off += snprintf(k + off, sizeof(t->kept[0]) - off, "%s%s",
				i ? "; " : "", r->ops[s->first + i].text);
	if (off < sizeof(t->kept[0]))
		snprintf(k + off, sizeof(t->kept[0]) - off, ": %s", why);
}

/* One sequence of both runs, up to where they part or a raise. */
static void compare_seq(const struct relation *rel, const struct rrun *ra,
			const struct rrun *rb, const struct rseq *sa,
			const struct rseq *sb, struct tally *t)
{
	char why[256];
	int n;

	t->seqs++;
	for (n = 0; n < sa->n && n < sb->n; n++) {
		const struct rop *b = &rb->ops[sb->first];
		struct pair x = { &ra->ops[sa->first + n], &b[n],
				  n ? &b[n - 1] : NULL, ra, rb };
		enum step st;

		if (strcmp(x.a->text, x.b->text) ||
		    (x.a->op.kind == SQ_RAISE && rel->a != rel->b))
			return;
		t->ops++;
		st = rel->check(&x, t, why, sizeof(why));
		if (st == VIOLATION)
			keep(t, ra, sa, n, why);
		if (st != GO_ON)
			return;
	}
}

static void relate(const struct relation *rel, const struct rrun *runs,
		   struct tally *t)
{
	const struct rrun *ra = &runs[rel->a], *rb = &runs[rel->b];
	int i;

	t->name = rel->name;
	for (i = 0; i < ra->n; i++) {
		const struct rseq *sb = find_seq(rb, ra->seq[i].id);

		if (sb && sb->host == ra->seq[i].host)
			compare_seq(rel, ra, rb, &ra->seq[i], sb, t);
	}
}

/* Every phase's run read, of the same sequences: 0, or -1 and @why. */
static int load_runs_of(const char *const paths[MAX_MODES],
			struct rrun runs[MAX_MODES], char *why, size_t len)
{
	int m;

	for (m = 0; m < MAX_MODES; m++) {
		runs[m].path = paths[m];
		if (!paths[m]) {
			snprintf(why, len, "no sequences-%s=FILE: every phase's run is needed",
				 all_modes[m]);
			return -1;
		}
		if (load_rrun(&runs[m], why, len))
			return -1;
	}
	for (m = 1; m < MAX_MODES; m++)
		if (runs[m].seed != runs[0].seed ||
		    runs[m].end_ops != runs[0].end_ops) {
			snprintf(why, len, "%s ran seed %lu, %ld operations; %s seed %lu, %ld: not the same sequences",
				 runs[m].path, runs[m].seed, runs[m].end_ops,
				 runs[0].path, runs[0].seed, runs[0].end_ops);
			return -1;
		}
	return 0;
}

int relations_check(const char *const paths[MAX_MODES],
		    struct tally out[N_RELATIONS], char *why, size_t len)
{
	struct rrun runs[MAX_MODES] = { { 0 } };
	int m, r, err;

	memset(out, 0, N_RELATIONS * sizeof(*out));
	err = load_runs_of(paths, runs, why, len);
	for (r = 0; !err && r < N_RELATIONS; r++)
		relate(&relations[r], runs, &out[r]);
	for (m = 0; m < MAX_MODES; m++) {
		free(runs[m].seq);
		free(runs[m].ops);
		free(runs[m].warned);
	}
	return err;
}

int cmd_relate(const struct opts *o)
{
	static struct tally t[N_RELATIONS];
	char why[512];
	int r, i;

	if (relations_check(o->in.sequences, t, why, sizeof(why))) {
		tap(false, "%s", why);
		return tap_end();
	}
	for (r = 0; r < N_RELATIONS; r++) {
		/* A relation that compared nothing proves nothing. */
		tap(t[r].ops > 0 && !t[r].violations,
		    "%s: %ld operations in %d sequences compared, %d violations, %ld stopped where the lender differs, %ld refusals the rate limit may hide",
		    t[r].name, t[r].ops, t[r].seqs, t[r].violations,
		    t[r].named, t[r].hidden);
		/* On stderr too: a test log keeps it where TAP drops it. */
		for (i = 0; i < t[r].violations && i < RKEEP; i++) {
			printf("# %s\n", t[r].kept[i]);
			fprintf(stderr, "%s: %s\n", t[r].name, t[r].kept[i]);
		}
	}
	return tap_end();
}
