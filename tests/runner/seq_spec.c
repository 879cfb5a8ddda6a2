// SPDX-License-Identifier: GPL-2.0
/*
 * The sequences' table of the spec (seq_spec.h):
 *
 *   | sequence | host | operations | legacy | warn | implicit | enforce |
 *
 * host is the F_* of the host's /proc and /sys in hex, operations are
 * seq_op.h's text separated by ';'.  A raise would last for the rest of
 * the boot that runs every row, so rows do not raise.
 */
#define _GNU_SOURCE
#include <string.h>

#include "seq_model.h"
#include "seq_spec.h"

static int header_ok(char **cells, int n)
{
	int i;

	if (n != 3 + MAX_MODES || strcmp(cells[0], "sequence") ||
	    strcmp(cells[1], "host") || strcmp(cells[2], "operations"))
		return 0;
	for (i = 0; i < MAX_MODES; i++)
		if (strcmp(cells[3 + i], all_modes[i]))
			return 0;
	return 1;
}

static int parse_ops(char *text, struct seq_spec_row *r)
{
	char *p, *save;

	for (p = strtok_r(text, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		p += strspn(p, " ");
		if (r->n == SEQ_SPEC_OPS || seq_op_parse(p, &r->ops[r->n]) ||
		    r->ops[r->n].kind == SQ_RAISE)
			return -1;
		r->n++;
	}
	return r->n ? 0 : -1;
}

static int parse_row(char **cells, struct seq_spec_row *r)
{
	unsigned int host;
	int i;

	memset(r, 0, sizeof(*r));
	if (sscanf(cells[1], "%x", &host) != 1 || host > 15)
		return -1;
	r->host = host;
	snprintf(r->name, sizeof(r->name), "%s", cells[0]);
	for (i = 0; i < MAX_MODES; i++)
		snprintf(r->cell[i], sizeof(r->cell[i]), "%s", cells[3 + i]);
	return parse_ops(cells[2], r);
}

int seq_spec_load(const char *path, struct seq_spec *sp, char *err,
		  size_t len)
{
	char line[2048], *cells[3 + MAX_MODES + 1];
	int lineno = 0, in = 0, header = 0, n;
	FILE *f = fopen(path, "r");

	memset(sp, 0, sizeof(*sp));
	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		in = in || !strncmp(line, SEQ_SPEC_HEADING,
				    strlen(SEQ_SPEC_HEADING));
		if (!in || line[0] != '|')
			continue;
		n = split_row(line, cells, 3 + MAX_MODES + 1);
		if (!header) {
			header = header_ok(cells, n);
			if (!header)
				break;
			continue;
		}
		if (cells[0][0] == '-')
			continue;
		if (n != 3 + MAX_MODES || sp->n == SEQ_SPEC_ROWS ||
		    parse_row(cells, &sp->row[sp->n])) {
			snprintf(err, len,
				 "%s:%d: a sequence row is | name | host (hex) | op; op; ... | one cell per phase |, without raise, at most %d rows of %d operations",
				 path, lineno, SEQ_SPEC_ROWS, SEQ_SPEC_OPS);
			fclose(f);
			return -1;
		}
		sp->n++;
	}
	fclose(f);
	if (!header || !sp->n) {
		snprintf(err, len,
			 "%s: no sequences' table after \"%s\" (| sequence | host | operations | and one column per phase)",
			 path, SEQ_SPEC_HEADING);
		return -1;
	}
	return 0;
}

void seq_spec_ops(FILE *out, const struct seq_op *ops, int n)
{
	char text[80];
	int i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "; " : "",
			seq_op_format(&ops[i], text, sizeof(text)));
}

void seq_spec_model_cell(int phase, int host, const struct seq_op *ops,
			 int n, char *buf, size_t len)
{
	struct seq_result r = { 0 };
	struct seq_state s;
	int i;

	seq_init(&s, phase, host, SEQ_TRUE, SEQ_WALK_LIST);
	for (i = 0; i < n; i++) {
		if (!seq_valid(&s, &ops[i])) {
			snprintf(buf, len, "invalid at %d", i);
			return;
		}
		r = seq_apply(&s, &ops[i]);
	}
	seq_result_format(&r, buf, len);
}

void seq_spec_print_row(FILE *out, const char *name, int host,
			const struct seq_op *ops, int n)
{
	char cell[48];
	int i;

	fprintf(out, "| %s | %x | ", name, host);
	seq_spec_ops(out, ops, n);
	fprintf(out, " |");
	for (i = 0; i < MAX_MODES; i++) {
		seq_spec_model_cell(i, host, ops, n, cell, sizeof(cell));
		fprintf(out, " %s |", cell);
	}
	fprintf(out, "\n");
}
