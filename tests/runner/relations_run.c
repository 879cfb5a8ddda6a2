// SPDX-License-Identifier: GPL-2.0
/*
 * The runs the relations compare: a sequences step's records read back
 * (initramfs/sequences.c writes them), and two runs walked side by side.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relations_run.h"
#include "tap.h"

/* @phase: the one it started in, -1 if its record does not say */
static struct rseq *new_seq(struct rrun *r, int id, int host, int phase)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->seq = realloc(r->seq, r->cap * sizeof(*r->seq));
		if (!r->seq)
			abort();
	}
	/* a raise lasts for the rest of the boot */
	int now = phase >= 0 ? phase : r->n ? r->seq[r->n - 1].to : r->phase;

	r->seq[r->n] = (struct rseq){ .id = id, .host = host,
				      .first = r->n_ops, .from = now,
				      .to = now, .raise_at = -1, .exit = -1 };
	return &r->seq[r->n++];
}

/* Add @o to @r's last sequence, which its records must continue. */
static void add_op(struct rrun *r, const struct rop *o)
{
	struct rseq *s = &r->seq[r->n - 1];

	if (o->op.kind == SQ_RAISE && rop_ok(o) && o->op.phase > s->to) {
		s->raise_at = s->n;
		s->to = o->op.phase;
	}
	if (r->n_ops == r->cap_ops) {
		r->cap_ops = r->cap_ops ? 2 * r->cap_ops : 4096;
		r->ops = realloc(r->ops, r->cap_ops * sizeof(*r->ops));
		if (!r->ops)
			abort();
	}
	r->ops[r->n_ops++] = *o;
	s->n++;
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

/*
 * A field of one letter per mount of @letters, at @at (NULL: the record
 * does not say, @out is ""): 0, or -1 if it is malformed.
 */
static int per_mount(const char *at, const char *name, const char *letters,
		     char out[SEQ_MOUNTS + 1])
{
	const char *v = at ? at + strlen(name) : NULL;

	out[0] = 0;
	if (!at)
		return 0;
	if (strspn(v, letters) != SEQ_MOUNTS || !strchr(" \n", v[SEQ_MOUNTS]))
		return -1;
	memcpy(out, v, SEQ_MOUNTS);
	out[SEQ_MOUNTS] = 0;
	return 0;
}

/*
 * "q ID N OP ret=R m=M p=P l=L [f=F sb=B] w=W pw=PW s=S t=T": 0, or -1
 * if it is unreadable.
 */
static int parse_op(const char *line, int *id, struct rop *o)
{
	const char *ret = strstr(line, " ret="), *m = strstr(line, " m=");
	const char *l = strstr(line, " l="), *p = strstr(line, " p=");
	const char *w = strstr(line, " w="), *t = strstr(line, " t=");
	const char *pw = strstr(line, " pw="), *s = strstr(line, " s=");
	const char *f = strstr(line, " f="), *sb = strstr(line, " sb=");
	int off = 0;

	if (sscanf(line, "q %d %*d %n", id, &off) != 1 || !off || !ret ||
	    !m || !l || !p || !w || !pw || !s || !t || ret - line - off >= 64)
		return -1;
	snprintf(o->text, sizeof(o->text), "%.*s", (int)(ret - line - off),
		 line + off);
	snprintf(o->ret, sizeof(o->ret), "%.*s", (int)strcspn(ret + 5, " \n"),
		 ret + 5);
	if (per_mount(f, " f=", "-psPS", o->f) ||
	    per_mount(sb, " sb=", "-rw", o->sb))
		return -1;
	if (seq_op_parse(o->text, &o->op) || seq_flags_parse(m + 3, o->m) ||
	    seq_flags_parse(l + 3, o->l) || sscanf(p, " p=%d", &o->p) != 1 ||
	    sscanf(w, " w=%d", &o->w) != 1 || sscanf(pw, " pw=%d", &o->pw) != 1 ||
	    sscanf(s, " s=%ld", &o->s) != 1 || sscanf(t, " t=%ld", &o->t) != 1)
		return -1;
	return 0;
}

/* One record of @r's file: 0, or -1 if it is unreadable. */
static int load_line(struct rrun *r, const char *line, int *cur)
{
	int id, host, status, started;
	struct rop o;

	if (!seq_start_parse(line, &id, &host, &started)) {
		new_seq(r, id, host, started);
		*cur = id;
	} else if (!strncmp(line, "qs ", 3)) {
		return -1;
	} else if (!strncmp(line, "q ", 2)) {
		if (parse_op(line, &id, &o) || id != *cur)
			return -1;
		add_op(r, &o);
		note_warned(r, o.t, o.w + o.pw);
	} else if (sscanf(line, "qe %d exit=%d", &id, &status) == 2) {
		if (r->n && r->seq[r->n - 1].id == id)
			r->seq[r->n - 1].exit = status;
	} else if (made_from_parse(line, r->made_by, &r->n_made_by) &&
		   sscanf(line, "sequences-end seed=%lu %*s ops=%ld",
			  &r->seed, &r->end_ops) == 2) {
		r->ended = 1;
	}
	return 0;
}

int rrun_load(struct rrun *r, const char *path, int phase, char *why,
	      size_t len)
{
	char line[1024];
	int cur = -1, err = 0;
	FILE *f;

	r->path = path;
	r->phase = phase;
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, len, "%s: %s", r->path, strerror(errno));
		return -1;
	}
	while (!err && fgets(line, sizeof(line), f))
		err = load_line(r, line, &cur);
	fclose(f);
	if (err)
		snprintf(why, len, "%s: unreadable record '%.*s'", r->path,
			 (int)strcspn(line, "\n"), line);
	else if (!r->ended)
		snprintf(why, len, "%s: no sequences-end record: the run did not finish",
			 r->path);
	return err || !r->ended ? -1 : 0;
}

void rrun_free(struct rrun *r)
{
	free(r->seq);
	free(r->ops);
	free(r->warned);
	memset(r, 0, sizeof(*r));
}

int rrun_stale(const struct rrun *r, const char *name, char *why, size_t len)
{
	return made_from_stale(r->made_by, r->n_made_by, r->path, name, why,
			       len) ? -1 : 0;
}

int rrun_same_sequences(const struct rrun *a, const struct rrun *b,
			char *why, size_t len)
{
	if (a->seed == b->seed && a->end_ops == b->end_ops)
		return 0;
	snprintf(why, len, "%s ran seed %lu, %ld operations; %s seed %lu, %ld: not the same sequences",
		 b->path, b->seed, b->end_ops, a->path, a->seed, a->end_ops);
	return -1;
}

int rop_ok(const struct rop *o)
{
	return !strcmp(o->ret, "0");
}

int rop_same_mounts(const struct rop *a, const struct rop *b)
{
	return a->p == b->p && !memcmp(a->m, b->m, sizeof(a->m));
}

int rop_same_state(const struct rop *a, const struct rop *b)
{
	return !strcmp(a->ret, b->ret) && rop_same_mounts(a, b) &&
	       !memcmp(a->l, b->l, sizeof(a->l));
}

const struct rseq *rrun_find_seq(const struct rrun *r, int id)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (r->seq[i].id == id)
			return &r->seq[i];
	return NULL;
}

void rrun_keep(struct tally *t, const struct rrun *r, const struct rseq *s,
	       int upto, const char *why)
{
	char *k;
	size_t off;
	int i;

	if (!t->violations) {
		t->first_id = s->id;
		t->first_op = upto;
		snprintf(t->first_why, sizeof(t->first_why), "%s", why);
	}
	if (t->violations++ >= RKEEP)
		return;
	/* why first: a long sequence's operations may not all fit */
	k = t->kept[t->violations - 1];
	off = snprintf(k, sizeof(t->kept[0]), "sequence %d, host %x, operation %d: %s; the operations up to it: ",
		       s->id, s->host, upto, why);
	for (i = 0; i <= upto && off < sizeof(t->kept[0]); i++)
		off += snprintf(k + off, sizeof(t->kept[0]) - off, "%s%s",
				i ? "; " : "", r->ops[s->first + i].text);
}

/* One sequence of both runs, up to where they part (or a raise). */
static void compare_seq(const struct rrun *ra, const struct rrun *rb,
			const struct rseq *sa, const struct rseq *sb,
			int stop_at_raise, rel_check check, struct tally *t)
{
	char why[256];
	int n;

	t->seqs++;
	for (n = 0; n < sa->n && n < sb->n; n++) {
		const struct rop *b = &rb->ops[sb->first];
		struct pair x = { &ra->ops[sa->first + n], &b[n],
				  n ? &b[n - 1] : NULL, ra, rb, sa->host };
		enum step st;

		if (strcmp(x.a->text, x.b->text) ||
		    (x.a->op.kind == SQ_RAISE && stop_at_raise))
			return;
		t->ops++;
		st = check(&x, t, why, sizeof(why));
		if (st == VIOLATION)
			rrun_keep(t, ra, sa, n, why);
		if (st != GO_ON)
			return;
	}
}

int rrun_violation(const struct rrun *ra, const struct rrun *rb, int id,
		   rel_check check, struct tally *t)
{
	const struct rseq *sa = rrun_find_seq(ra, id);
	const struct rseq *sb = rrun_find_seq(rb, id);

	memset(t, 0, sizeof(*t));
	if (!sa || !sb || sa->host != sb->host)
		return -1;
	compare_seq(ra, rb, sa, sb, 1, check, t);
	return t->violations ? t->first_op + 1 : 0;
}

void rrun_relate(const struct rrun *ra, const struct rrun *rb,
		 int stop_at_raise, rel_check check, struct tally *t)
{
	int i;

	for (i = 0; i < ra->n; i++) {
		const struct rseq *sb = rrun_find_seq(rb, ra->seq[i].id);

		if (stop_at_raise && sb &&
		    (!rseq_unraised(ra, &ra->seq[i]) || !rseq_unraised(rb, sb)))
			continue;	/* one of the boots runs another phase */
		if (sb && sb->host == ra->seq[i].host)
			compare_seq(ra, rb, &ra->seq[i], sb, stop_at_raise,
				    check, t);
	}
}


int rrun_load_phases(struct rrun runs[MAX_MODES],
		     const char *const paths[MAX_MODES], const char *name,
		     char *why, size_t len)
{
	char test[64];
	int m;

	for (m = 0; m < MAX_MODES; m++) {
		if (!paths[m]) {
			snprintf(why, len, "no %s-%s=FILE: every phase's run is needed",
				 name, all_modes[m]);
			return -1;
		}
		snprintf(test, sizeof(test), "%s-%s", name, all_modes[m]);
		if (rrun_load(&runs[m], paths[m], m, why, len) ||
		    rrun_stale(&runs[m], test, why, len))
			return -1;
	}
	for (m = 1; m < MAX_MODES; m++)
		if (rrun_same_sequences(&runs[0], &runs[m], why, len))
			return -1;
	return 0;
}

void tally_judge(struct verdicts *v, const struct tally *t, int n)
{
	char more[64];
	int r, i;

	for (r = 0; r < n; r++) {
		/* A relation that compared nothing proves nothing. */
		if (t[r].of_raise)
			snprintf(more, sizeof(more), "%ld compared from their own raise",
				 t[r].from_raise);
		else
			snprintf(more, sizeof(more), "%ld refusals the rate limit may hide",
				 t[r].hidden);
		verdict(v, t[r].ops > 0 && !t[r].violations,
			"%s: %ld operations in %d sequences compared, %d violations, %ld %s, %s",
			t[r].name, t[r].ops, t[r].seqs, t[r].violations,
			t[r].named, t[r].stopped, more);
		tap_figure("%s: %ld operations compared, %d violations",
			   t[r].name, t[r].ops, t[r].violations);
		/* On stderr too: a test log keeps it where TAP drops it. */
		for (i = 0; i < t[r].violations && i < RKEEP; i++) {
			printf("# %s\n", t[r].kept[i]);
			fprintf(stderr, "%s: %s\n", t[r].name, t[r].kept[i]);
		}
	}
}
