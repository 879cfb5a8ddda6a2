// SPDX-License-Identifier: GPL-2.0
/*
 * Replay the guest's sequence records on the model.  A sequence is checked
 * up to its first disagreement: after it the model no longer knows the
 * tree the kernel has.  Where the model allows several trees (a fresh
 * mount on a kernel that walks its mounts in any order, seq_model.c N1),
 * it keeps each that agrees with what the kernel showed so far; the kernel
 * and the model part when none does.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "seq_check.h"
#include "../contract/spec.h"

/* Trees the model may be in; more than this is a disagreement of its own. */
#define SEQ_TREES 64

struct cursor {
	int boot_phase;	/* the phase the kernel booted in */
	int phase;	/* the kernel's, carried from sequence to sequence */
	int walk;	/* enum seq_walk, from the guest's start line; -1 none */
	seq_parted *parted_cb;
	void *ctx;
	int n_model, n_next;
	struct seq_state model[SEQ_TREES], next[SEQ_TREES];
	struct seq_failure cur;
	int open, parted;
};

static void __attribute__((format(printf, 3, 4)))
part(struct seq_tally *t, struct cursor *c, const char *fmt, ...)
{
	va_list ap;

	c->parted = 1;
	t->disagreements++;
	va_start(ap, fmt);
	vsnprintf(c->cur.what, sizeof(c->cur.what), fmt, ap);
	va_end(ap);
	if (t->n_kept < SEQ_KEEP)
		t->kept[t->n_kept++] = c->cur;
	if (c->parted_cb)
		c->parted_cb(&c->cur, c->ctx);
}

/*
 * Under fault injection an operation may fail for want of memory where
 * the model lets it through: then it must have changed no mount's flags.
 */
static int injected(const struct seq_state *before, const char *ret,
		    const int *seen, int prop)
{
	int i;

	if (strncmp(ret, "ENOMEM ", 7) || prop != seq_state_prop(before))
		return 0;
	for (i = 0; i < SEQ_MOUNTS; i++)
		if (seen[i] != (before->m[i].present ? before->m[i].flags : -1))
			return 0;
	return 1;
}

/* Keep @s among the next trees, once; 0 when there is no room. */
static int keep(struct cursor *c, const struct seq_state *s)
{
	int i;

	for (i = 0; i < c->n_next; i++)
		if (!memcmp(&c->next[i], s, sizeof(*s)))
			return 1;
	if (c->n_next == SEQ_TREES)
		return 0;
	c->next[c->n_next++] = *s;
	return 1;
}

/*
 * The trees that @op may leave the model in and that show @got; @want
 * gets what the first tree would have shown.  -1 when they are too many.
 */
static int step(struct cursor *c, const struct seq_op *op, const char *got,
		char *want, size_t len)
{
	struct seq_state next[SEQ_CHOICES];
	struct seq_result res[SEQ_CHOICES];
	char text[48];
	int i, k, n;

	c->n_next = 0;
	for (i = 0; i < c->n_model; i++) {
		n = seq_apply_all(&c->model[i], op, next, res);
		for (k = 0; k < n; k++) {
			seq_result_format(&res[k], text, sizeof(text));
			if (!i && !k)
				snprintf(want, len, "%s", text);
			if (!strcmp(got, text) && !keep(c, &next[k]))
				return -1;
		}
	}
	return c->n_next;
}

/* "q ID N OP ret=E m=FLAGS" */
static void one_op(struct seq_tally *t, struct cursor *c, const char *line)
{
	const char *ret = strstr(line, " ret="), *m = strstr(line, " m=");
	const char *p = strstr(line, " p=");
	char got[48], want[48], optext[80];
	int id, off = 0, seen[SEQ_MOUNTS], prop, n, i, kept = 0;
	struct seq_op op;

	if (sscanf(line, "q %d %*d %n", &id, &off) != 1 || !ret || !m || !p ||
	    sscanf(p, " p=%d", &prop) != 1 ||
	    seq_op_parse(line + off, &op) || seq_flags_parse(m + 3, seen) ||
	    !c->open || id != c->cur.id) {
		if (c->open && !c->parted)
			part(t, c, "%s: a record the host cannot read", line);
		return;
	}
	t->records++;
	/* A raise lasts until the next boot, whether checked here or not. */
	if (c->parted && op.kind == SQ_RAISE && !strncmp(ret + 5, "0 ", 2) &&
	    op.phase > c->phase)
		c->phase = op.phase;
	if (c->parted)
		return;
	t->ops++;
	if (c->cur.n < SEQ_MAX_OPS)
		c->cur.ops[c->cur.n++] = op;
	snprintf(got, sizeof(got), "%.*s m=%.*s p=%d",
		 (int)strcspn(ret + 5, " "), ret + 5, SEQ_MOUNTS, m + 3, prop);
	n = step(c, &op, got, want, sizeof(want));
	if (n < 0) {
		part(t, c, "%s: the model allows more than %d trees",
		     seq_op_format(&op, optext, sizeof(optext)), SEQ_TREES);
		return;
	}
	if (n) {
		memcpy(c->model, c->next, n * sizeof(c->next[0]));
		c->n_model = n;
		t->open_ops += n > 1;
		if (n > t->max_trees)
			t->max_trees = n;
		/* a raise lasts until the next boot */
		c->phase = c->model[0].phase;
		return;
	}
	/* A tree where it failed and changed nothing stays as it was. */
	for (i = 0; t->faults && i < c->n_model; i++)
		if (injected(&c->model[i], ret + 5, seen, prop))
			c->model[kept++] = c->model[i];
	if (kept) {
		c->n_model = kept;
		t->injected++;
		return;
	}
	part(t, c, "%s: the kernel gave ret=%s, the model ret=%s%s",
	     seq_op_format(&op, optext, sizeof(optext)), got, want,
	     c->n_model > 1 ? " (or another of its trees)" : "");
}

static void one_line(struct seq_tally *t, struct cursor *c,
		     enum seq_mutation mutation, const char *line)
{
	int id, host, status, started;

	if (!seq_start_parse(line, &id, &host, &started)) {
		/* a raise lasts until the next boot, unless the record says */
		if (started >= 0)
			c->phase = started;
		memset(&c->cur, 0, sizeof(c->cur));
		c->cur.id = id;
		c->cur.host = host;
		c->open = 1;
		c->parted = 0;
		c->n_model = 1;
		seq_init(&c->model[0], c->phase, host, mutation,
			 c->walk < 0 ? SEQ_WALK_LIST : c->walk);
		/* Replayed after a fresh boot, it must raise first. */
		if (c->phase != c->boot_phase)
			c->cur.ops[c->cur.n++] = (struct seq_op){
				.kind = SQ_RAISE, .phase = c->phase };
		t->seqs++;
		/* Read and counted, but left to the relations. */
		if (host & SEQ_HOST_TWIN) {
			c->parted = 1;
			t->unmodelled++;
		}
		if (c->walk < 0)
			part(t, c, "no 'start RELEASE' line before the sequences: the model does not know the kernel's walk");
	} else if (!strncmp(line, "qs ", 3)) {
		memset(&c->cur, 0, sizeof(c->cur));
		c->open = 1;
		part(t, c, "%s: a start record the host cannot read", line);
	} else if (!strncmp(line, "start ", 6)) {
		enum seq_walk walk;

		c->walk = seq_walk_of(line + 6, &walk) ? -1 : (int)walk;
	} else if (!strncmp(line, "q ", 2)) {
		one_op(t, c, line);
	} else if (sscanf(line, "qe %d exit=%d", &id, &status) == 2) {
		t->bad_exits += status != 0;
		c->open = 0;
	} else if (sscanf(line, "sequences-end seed=%lu seqs=%d ops=%ld %*s ms=%ld",
			  &t->seed, &t->end_seqs, &t->end_ops, &t->ms) == 4) {
		t->ended = 1;
	} else if (!strncmp(line, "faults on ", 10)) {
		t->faults = 1;
	}
}

int seq_check_file(const char *path, int phase, enum seq_mutation mutation,
		   struct seq_tally *t, seq_parted *parted, void *ctx)
{
	FILE *f = fopen(path, "r");
	struct cursor *c = calloc(1, sizeof(*c));
	char *line = NULL;
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	if (!f || !c) {
		free(c);
		if (f)
			fclose(f);
		return -1;
	}
	c->phase = c->boot_phase = phase;
	c->walk = -1;
	c->parted_cb = parted;
	c->ctx = ctx;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\r\n")] = 0;
		one_line(t, c, mutation, line);
	}
	free(line);
	free(c);
	fclose(f);
	return 0;
}

void seq_replay_line(FILE *out, int id, int host, const struct seq_op *ops,
		     int n)
{
	char text[80];
	int i;

	fprintf(out, "r %d %x ", id, host);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ";" : "",
			seq_op_format(&ops[i], text, sizeof(text)));
	fputc('\n', out);
}

void seq_print_failure(const struct seq_failure *f, const char *phase)
{
	char text[80];
	int i;

	printf("# %s, sequence %d, host /proc and /sys flags %x, %d operations:\n",
	       phase, f->id, f->host, f->n);
	for (i = 0; i < f->n; i++)
		printf("#   %2d %s\n", i, seq_op_format(&f->ops[i], text,
						       sizeof(text)));
	printf("#   %s\n", f->what);
	printf("# replay line (initramfs /seq-replay): ");
	fflush(stdout);
	seq_replay_line(stdout, f->id, f->host, f->ops, f->n);
}
