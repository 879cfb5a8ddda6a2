// SPDX-License-Identifier: GPL-2.0
/*
 * The written documents carry no measured figure: a run's times, rates
 * and dates live in docs/figures.md, which the run writes, and the prose
 * refers to it.  A hand-written figure goes stale the day after it is
 * written, and two of them contradict each other.
 *
 * usage: docs_test FILE|DIR...   (a directory: its *.md; the generated
 *                                 documents are skipped)
 *
 * The patterns are the shapes measured figures take in prose; a figure
 * of the design (10 lines per 5 s, 3 s of stress) has none of them.  The
 * first cases show that each pattern matches what it is for and that the
 * design's figures pass.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runner/tap.h"

static const char *const patterns[] = {
	"[0-9]+ min [0-9]+ s",			/* a run's duration */
	"[0-9.]+ (ops|operations)/s",		/* a measured rate */
	"[0-9.]+ s (CPU|wall)",			/* a build's time */
	"[0-9.]+(-[0-9.]+)? s (each|per test)",	/* a test's time */
	"CI run of",				/* a run named in prose */
	"this (machine|session)",		/* where or when it was measured */
	"20(2[4-9])-[0-9]{2}-[0-9]{2}",		/* the day it was measured */
};
#define N_PATTERNS (sizeof(patterns) / sizeof(*patterns))

/* Documents a run writes: they may hold what it measured. */
static const char *const generated[] = { "figures.md", "matrix.md", "compat.md" };

static regex_t rx[N_PATTERNS];

static int matching(const char *line)
{
	size_t i;

	for (i = 0; i < N_PATTERNS; i++)
		if (!regexec(&rx[i], line, 0, NULL, 0))
			return (int)i;
	return -1;
}

static bool is_generated(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i;

	for (i = 0; i < sizeof(generated) / sizeof(*generated); i++)
		if (!strcmp(base, generated[i]))
			return true;
	return false;
}

static void check_file(const char *path)
{
	char what[4200], *line = NULL;
	size_t cap = 0;
	int nr = 0, bad = 0, p;
	FILE *f = fopen(path, "r");

	snprintf(what, sizeof(what), "%s holds no measured figure", path);
	if (!f) {
		tap(false, "%s: cannot read it", what);
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		nr++;
		p = matching(line);
		if (p >= 0) {
			printf("# %s:%d: /%s/: %s", path, nr, patterns[p], line);
			bad++;
		}
	}
	free(line);
	fclose(f);
	tap(!bad, "%s%s", what,
	    bad ? " (the lines above: a run writes its figures in docs/figures.md, and the prose refers to it)" : "");
}

static void self_check(void)
{
	static const char *const figures[] = {
		"took 44 min 50 s", "at 805 operations/s", "405 s CPU",
		"117-128 s per test", "in the clean-clone CI run of 4839f20",
		"on this machine", "on 2026-12-04",
	};
	static const char *const design[] = {
		"10 lines per 5 s", "for 3 s: random", "2015-06-10",
		"the 5 s kmemleak needs",
	};
	size_t i;
	bool all = true;

	for (i = 0; i < sizeof(figures) / sizeof(*figures); i++)
		all &= matching(figures[i]) >= 0;
	tap(all, "each shape of a measured figure is caught");
	all = true;
	for (i = 0; i < sizeof(design) / sizeof(*design); i++)
		all &= matching(design[i]) < 0;
	tap(all, "the design's own figures and the sources' dates pass");
}

static int is_markdown(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return len > 3 && !strcmp(e->d_name + len - 3, ".md") && !is_generated(e->d_name);
}

/* A file, or each *.md of a directory in name order; how many were checked. */
static int check_arg(const char *arg)
{
	struct dirent **names;
	char path[4096];
	int i, n;

	n = scandir(arg, &names, is_markdown, alphasort);
	if (n < 0) {
		if (is_generated(arg))
			return 0;
		check_file(arg);
		return 1;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", arg, names[i]->d_name);
		check_file(path);
		free(names[i]);
	}
	free(names);
	return n;
}

int main(int argc, char **argv)
{
	int i, checked = 0;

	for (i = 0; i < (int)N_PATTERNS; i++)
		if (regcomp(&rx[i], patterns[i], REG_EXTENDED | REG_ICASE | REG_NOSUB))
			return 2;
	self_check();
	for (i = 1; i < argc; i++)
		checked += check_arg(argv[i]);
	tap(checked > 0, "%d documents checked", checked);
	return tap_end();
}
