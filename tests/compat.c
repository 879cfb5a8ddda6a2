// SPDX-License-Identifier: GPL-2.0
/*
 * runner compat: the compatibility table of the userspace suite's runs
 * (compat.md), and the matrix reports again with it when the matrix has
 * results.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "tap.h"

/*
 * Every tool that warns or fails in some phase names the row that shows
 * its fix, and that row works in every phase: the fix a user is told is
 * one this run verified.
 */
static void check_fixes(const struct matrix *m)
{
	const struct tool_run *t;
	int i, j, k, broken;

	for (i = 0; i < m->tools[0]->n_tools; i++) {
		t = &m->tools[0]->tools[i];
		for (j = 0, broken = 0; j < MAX_MODES; j++) {
			const struct tool_run *r = compat_tool_in(m, i, j);

			broken += !r || strcmp(tool_verdict(r), "works");
		}
		if (!broken)
			continue;
		k = compat_index(m, t->fixed_by);
		tap(k >= 0 && compat_works_everywhere(m, k),
		    "userspace %s warns or fails in %d phases; its fix (%s) works in every phase: %s",
		    t->name, broken, t->fixed_by[0] ? t->fixed_by : "no row",
		    t->fix[0] ? t->fix : "no fix given");
	}
}

int cmd_compat(const struct opts *o)
{
	struct run tools[MAX_MODES], runs[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int j;

	if (!o->dir)
		usage();
	if (load_tool_runs(o, tools, &m)) {
		tap(false, "userspace results of all %d variants are present", MAX_MODES);
		return tap_end();
	}
	check_fixes(&m);
	if (o->spec) {
		load_spec(o->spec, &spec);
		if (!load_runs(o, runs, &m))
			m.spec = &spec;
	}
	tap(!report_write(&m, o->dir), "compatibility table written: %s/compat.md%s",
	    o->dir, m.spec ? ", and into matrix.md, matrix.html, matrix.json" : "");
	for (j = 0; j < MAX_MODES; j++) {
		run_free(&tools[j]);
		run_free(&runs[j]);
	}
	return tap_end();
}
