// SPDX-License-Identifier: GPL-2.0
/*
 * The walk of mnt_already_visible() in the sequence model (seq_model.c
 * N1): 6.1 takes the first visible mount of the namespace's list, 6.12
 * any of them, 7.3 the one that joined the namespace last.  The
 * expectations are worked out from that rule, not taken from a kernel
 * run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seq_check.h"
#include "seq_spec.h"
#include "../contract/spec.h"
#include "tap.h"
#include "unit_walk.h"

/*
 * Host /sys nosuid,noexec; a read-only sysfs on slot 2 (and its twin 0);
 * a nested copy locks it read-only; a fresh read-only sysfs on slot 1 may
 * take its locks from the host's /sys (none) or from slot 0 or 2 (the
 * read-only lock), so clearing read-only is allowed or refused.
 */
static const char *const two_trees =
	"mount sysfs 2 b;nest;mount sysfs 1 9;prop 1 slave;prop 1 slave;bindremount 1 e";
static const char *const allowed = "0 m=beb-aa p=0";
static const char *const refused = "EPERM m=b9b-aa p=0";

static int parse_ops(const char *text, struct seq_op *ops, int max)
{
	char buf[256], *p, *save;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (p = strtok_r(buf, ";", &save); p && n < max;
	     p = strtok_r(NULL, ";", &save))
		if (seq_op_parse(p, &ops[n++]))
			return -1;
	return n;
}

/*
 * Every tree the model allows after @ops: how many end with @cell (*same)
 * and how many do not (*other).
 */
static void every_tree(const struct seq_state *s, const struct seq_op *ops,
		       int n, const char *cell, int *same, int *other)
{
	struct seq_state next[SEQ_CHOICES];
	struct seq_result res[SEQ_CHOICES];
	char text[48];
	int k, outs = seq_apply_all(s, ops, next, res);

	for (k = 0; k < outs; k++) {
		if (n > 1) {
			every_tree(&next[k], ops + 1, n - 1, cell, same, other);
			continue;
		}
		seq_result_format(&res[k], text, sizeof(text));
		if (!strcmp(text, cell))
			++*same;
		else
			++*other;
	}
}

static void test_walk_of(void)
{
	static const struct {
		const char *release;
		int ret, walk;
	} cases[] = {
		{ "6.1.158", 0, SEQ_WALK_LIST }, { "6.7.12", 0, SEQ_WALK_LIST },
		{ "6.8.0", 0, SEQ_WALK_ANY }, { "6.12.118", 0, SEQ_WALK_ANY },
		{ "7.0", 0, SEQ_WALK_ANY }, { "7.2.9", 0, SEQ_WALK_ANY },
		{ "7.3.4", 0, SEQ_WALK_NEWEST }, { "8.0", 0, SEQ_WALK_NEWEST },
		{ "5.10.0-34-amd64", 0, SEQ_WALK_LIST }, { "linux", -1, 0 },
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum seq_walk walk = -1;
		int ret = seq_walk_of(cases[i].release, &walk);

		ok = ok && ret == cases[i].ret &&
		     (ret || (int)walk == cases[i].walk);
	}
	tap(ok, "seq walk: releases up to 6.7 walk the list, 6.8 to 7.2 any order, from 7.3 the newest first, an unreadable release is an error");
}

/*
 * The nested copy lists the host's /sys before the read-only sysfs mounts
 * (tree order), so the list's first lender is the host's /sys and the
 * newest-first walk's is a read-only one.
 */
static void test_two_trees(void)
{
	static const struct {
		enum seq_walk walk;
		int allowed, refused;	/* trees that end so */
		const char *name, *gives, *lender;
	} cases[] = {
		{ SEQ_WALK_LIST, 1, 0, "list", allowed,
		  "the host's /sys, first in the list" },
		{ SEQ_WALK_ANY, 1, 1, "any", "either that or the refusal",
		  "any read-only-allowing visible sysfs" },
		{ SEQ_WALK_NEWEST, 0, 1, "newest", refused,
		  "the read-only sysfs, the newest in the copy" },
	};
	struct seq_op ops[16];
	int n = parse_ops(two_trees, ops, 16);
	size_t c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int yes = 0, no = 0, yes2 = 0, no2 = 0;
		struct seq_state s;

		seq_init(&s, PHASE_LEGACY, 0xa, SEQ_TRUE, cases[c].walk);
		every_tree(&s, ops, n, allowed, &yes, &no);
		every_tree(&s, ops, n, refused, &yes2, &no2);
		tap(n == 6 && yes == cases[c].allowed && yes2 == cases[c].refused &&
		    yes + no == cases[c].allowed + cases[c].refused,
		    "seq walk %s: %s gives %s (N1: the fresh mount takes its locks from %s)",
		    cases[c].name, two_trees, cases[c].gives, cases[c].lender);
	}
}

/* The spec's rows hold whichever visible mount a 6.12 kernel takes. */
static void test_spec_any_walk(const char *path)
{
	static struct seq_spec sp;
	char err[512];
	int i, p, bad = 0;

	if (seq_spec_load(path, &sp, err, sizeof(err))) {
		tap(false, "seq walk: %s", err);
		return;
	}
	for (i = 0; i < sp.n; i++)
		for (p = 0; p < MAX_MODES; p++) {
			int same = 0, other = 0;
			struct seq_state s;

			seq_init(&s, p, sp.row[i].host, SEQ_TRUE, SEQ_WALK_ANY);
			every_tree(&s, sp.row[i].ops, sp.row[i].n,
				   sp.row[i].cell[p], &same, &other);
			if (!same || other)
				printf("# %s %s: %d trees give the cell, %d do not\n",
				       sp.row[i].name, all_modes[p], same, other);
			bad += !same || other;
		}
	tap(sp.n > 0 && !bad,
	    "seq walk: each of the spec's %d sequences gives its cells in every tree of any walk",
	    sp.n);
}

/*
 * A results file of the two-trees sequence whose last operation is
 * refused, as 6.12 may do, under the start line @start (NULL: none):
 * how many sequences the checker says disagree.
 */
static int check_refused(const char *start)
{
	char path[] = "/tmp/unit-walk-XXXXXX", text[80], res[48];
	struct seq_op ops[16];
	struct seq_state s;
	struct seq_result r;
	struct seq_tally t;
	int fd = mkstemp(path), n = parse_ops(two_trees, ops, 16), i;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f)
		return -1;
	if (start)
		fprintf(f, "start %s\n", start);
	fprintf(f, "qs 0 host=a\n");
	seq_init(&s, PHASE_LEGACY, 0xa, SEQ_TRUE, SEQ_WALK_LIST);
	for (i = 0; i < n; i++) {
		r = seq_apply(&s, &ops[i]);
		seq_result_format(&r, res, sizeof(res));
		fprintf(f, "q 0 %d %s ret=%s\n", i,
			seq_op_format(&ops[i], text, sizeof(text)),
			i == n - 1 ? refused : res);
	}
	fprintf(f, "qe 0 exit=0\n");
	fclose(f);
	i = seq_check_file(path, PHASE_LEGACY, SEQ_TRUE, &t, NULL, NULL);
	unlink(path);
	return i ? -1 : t.disagreements;
}

static void test_check_walk(void)
{
	int on612 = check_refused("6.12.118"), on61 = check_refused("6.1.158");
	int on73 = check_refused("7.3.4"), none = check_refused(NULL);

	tap(on612 == 0 && on73 == 0 && on61 == 1 && none == 1,
	    "seq walk: the checker takes a refusal of the two-trees sequence from 6.12 (%d disagreements) and 7.3 (%d), not from 6.1 (%d) nor without a start line (%d)",
	    on612, on73, on61, none);
}

/*
 * A raising group (initramfs/sequences.c): sequence 1 started under warn
 * before sequence 0 raised to implicit, and its start record says so
 * (@said), then made a fresh proc mount with no flags, as warn makes it:
 * how many sequences the checker says disagree.
 */
static int check_group(int said)
{
	static const char *const ops0[] = { "raise implicit" };
	char path[] = "/tmp/unit-walk-XXXXXX", text[80], res[48];
	struct seq_state s;
	struct seq_result r;
	struct seq_tally t;
	struct seq_op op;
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f || seq_op_parse(ops0[0], &op))
		return -1;
	fprintf(f, "start 7.3.4\nqs 0 host=a phase=warn\n");
	seq_init(&s, PHASE_WARN, 0xa, SEQ_TRUE, SEQ_WALK_LIST);
	r = seq_apply(&s, &op);
	seq_result_format(&r, res, sizeof(res));
	fprintf(f, "q 0 0 %s ret=%s\nqe 0 exit=0\n",
		seq_op_format(&op, text, sizeof(text)), res);
	fprintf(f, "qs 1 host=a%s\n", said ? " phase=warn" : "");
	seq_init(&s, PHASE_WARN, 0xa, SEQ_TRUE, SEQ_WALK_LIST);
	op = (struct seq_op){ .kind = SQ_MOUNT, .fs = 0, .dst = 0, .flags = 0 };
	r = seq_apply(&s, &op);
	seq_result_format(&r, res, sizeof(res));
	fprintf(f, "q 1 0 %s ret=%s\nqe 1 exit=0\n",
		seq_op_format(&op, text, sizeof(text)), res);
	fclose(f);
	fd = seq_check_file(path, PHASE_WARN, SEQ_TRUE, &t, NULL, NULL);
	unlink(path);
	return fd ? -1 : t.disagreements;
}

static void test_check_group(void)
{
	int said = check_group(1), carried = check_group(0);

	tap(said == 0 && carried == 1,
	    "seq check: a sequence whose start record says warn is checked as warn after another raised to implicit (%d disagreements; %d where the phase is carried)",
	    said, carried);
}

void test_seq_walk(const char *spec_path)
{
	test_walk_of();
	test_two_trees();
	test_spec_any_walk(spec_path);
	test_check_walk();
	test_check_group();
}
