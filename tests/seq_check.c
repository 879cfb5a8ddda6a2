// SPDX-License-Identifier: GPL-2.0
/*
 * Replay the guest's sequence records on the model.  A sequence is checked
 * up to its first disagreement: after it the model no longer knows the
 * tree the kernel has.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "seq_check.h"
#include "spec.h"

struct cursor {
	int boot_phase;	/* the phase the kernel booted in */
	int phase;	/* the kernel's, carried from sequence to sequence */
	seq_parted *parted_cb;
	void *ctx;
	struct seq_state model;
	struct seq_failure cur;
	int open, parted;
};

static const char *err_name(int err)
{
	return err ? strerrorname_np(err) : "0";
}

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

/* "q ID N OP ret=E m=FLAGS" */
static void one_op(struct seq_tally *t, struct cursor *c, const char *line)
{
	const char *ret = strstr(line, " ret="), *m = strstr(line, " m=");
	const char *p = strstr(line, " p=");
	char got[48], want[48], optext[80], flags[SEQ_MOUNTS + 1];
	int id, off = 0, seen[SEQ_MOUNTS], prop;
	struct seq_state before;
	struct seq_result r;
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
	if (c->parted)
		return;
	t->ops++;
	if (c->cur.n < SEQ_MAX_OPS)
		c->cur.ops[c->cur.n++] = op;
	before = c->model;
	r = seq_apply(&c->model, &op);
	seq_flags_format(r.flags, flags);
	snprintf(got, sizeof(got), "%.*s m=%.*s p=%d",
		 (int)strcspn(ret + 5, " "), ret + 5, SEQ_MOUNTS, m + 3, prop);
	snprintf(want, sizeof(want), "%s m=%s p=%d", err_name(r.err), flags,
		 r.prop);
	if (strcmp(got, want) && t->faults &&
	    injected(&before, ret + 5, seen, prop)) {
		c->model = before;	/* it failed and changed nothing */
		t->injected++;
		return;
	}
	c->phase = c->model.phase;	/* a raise lasts until the next boot */
	if (strcmp(got, want))
		part(t, c, "%s: the kernel gave ret=%s, the model ret=%s",
		     seq_op_format(&op, optext, sizeof(optext)), got, want);
}

static void one_line(struct seq_tally *t, struct cursor *c,
		     enum seq_mutation mutation, const char *line)
{
	int id, host, status;

	if (sscanf(line, "qs %d host=%x", &id, &host) == 2) {
		memset(&c->cur, 0, sizeof(c->cur));
		c->cur.id = id;
		c->cur.host = host;
		c->open = 1;
		c->parted = 0;
		seq_init(&c->model, c->phase, host, mutation);
		/* Replayed after a fresh boot, it must raise first. */
		if (c->phase != c->boot_phase)
			c->cur.ops[c->cur.n++] = (struct seq_op){
				.kind = SQ_RAISE, .phase = c->phase };
		t->seqs++;
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
