// SPDX-License-Identifier: GPL-2.0
/*
 * runner seqspec: the spec's sequences (seq_spec.h) on a kernel, in one
 * boot that replays them all (/seq-replay), each judged by its row's cell
 * for the phase the kernel runs in: the return, the flags of every mount
 * and the propagation of the last operation.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "seq_check.h"
#include "seq_spec.h"
#include "tap.h"

/*
 * "q ID N OP ret=R m=M p=P l=L ...": the id and "R m=M p=P", what a row's
 * cell says (the locks, lines and time are for the relations).
 */
static int outcome(const char *line, int *id, char *buf, size_t len)
{
	const char *ret = strstr(line, " ret="), *l = strstr(line, " l=");
	size_t n;

	if (sscanf(line, "q %d ", id) != 1 || !ret)
		return -1;
	n = l && l > ret ? (size_t)(l - ret - 5) : strcspn(ret + 5, "\n");
	snprintf(buf, len, "%.*s", (int)n, ret + 5);
	return 0;
}

static void judge_rows(struct verdicts *v, const struct opts *o, int phase,
		       const struct seq_spec *sp, const char *results)
{
	static char last[SEQ_SPEC_ROWS][48];
	int ops[SEQ_SPEC_ROWS] = { 0 }, id, i;
	char line[512], got[48];
	FILE *f = fopen(results, "r");

	if (!f) {
		verdict(v, false, "seqspec %s: cannot read %s", o->mode, results);
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (!outcome(line, &id, got, sizeof(got)) && id >= 0 &&
		    id < sp->n) {
			snprintf(last[id], sizeof(last[id]), "%s", got);
			ops[id]++;
		}
	fclose(f);
	for (i = 0; i < sp->n; i++) {
		const struct seq_spec_row *r = &sp->row[i];

		verdict(v, ops[i] == r->n && !strcmp(last[i], r->cell[phase]),
			"seqspec %s: %s gives %s (%d of %d operations ran; got %s)",
			o->mode, r->name, r->cell[phase], ops[i], r->n,
			ops[i] ? last[i] : "nothing");
	}
}

int cmd_seqspec(const struct opts *o)
{
	static struct seq_spec sp;
	int phase = need_mode(o->mode), i;
	const char *results;
	char err[512], stem[64], *text = NULL;
	size_t len = 0;
	FILE *f;
	struct verdicts v = VERDICTS_TAP;

	if (!o->kernel || !o->initrd || !o->spec || !o->dir)
		usage();
	if (seq_spec_load(o->spec, &sp, err, sizeof(err))) {
		verdict(&v, false, "seqspec %s: %s", o->mode, err);
		return verdicts_tap_end(&v);
	}
	f = open_memstream(&text, &len);
	for (i = 0; i < sp.n; i++)
		seq_replay_line(f, i, sp.row[i].host, sp.row[i].ops,
				sp.row[i].n);
	fclose(f);
	snprintf(stem, sizeof(stem), "seqspec-%s", o->mode);
	results = seq_replay_boot(&v, o, text, len, stem, "seqspec boot");
	free(text);
	if (results)
		judge_rows(&v, o, phase, &sp, results);
	return verdicts_tap_end(&v);
}
