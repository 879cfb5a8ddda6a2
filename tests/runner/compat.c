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
static void check_fixes(struct verdicts *v, const struct matrix *m)
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
		verdict(v, k >= 0 && compat_works_everywhere(m, k),
			"userspace %s warns or fails in %d phases; its fix (%s) works in every phase: %s",
			t->name, broken, t->fixed_by[0] ? t->fixed_by : "no row",
			t->fix[0] ? t->fix : "no fix given");
	}
}

/*
 * The tools of @ov, a kernel built as @b and booted as @t, against those
 * of @want, the kernel built as @t: the same verdict for each.
 */
static void compare_tools(struct verdicts *v, int b, int t,
			  const struct run *want, const struct run *ov)
{
	const struct tool_run *w, *got;
	int i, same = 0;

	for (i = 0; i < want->n_tools; i++) {
		w = &want->tools[i];
		got = run_find_tool(ov, w->name);
		if (got && !strcmp(tool_verdict(got), tool_verdict(w)))
			same++;
		else
			printf("# %s as %s, %s: %s, the %s kernel: %s\n",
			       all_modes[b], all_modes[t], w->name,
			       got ? tool_verdict(got) : "not run",
			       all_modes[t], tool_verdict(w));
	}
	verdict(v, same == want->n_tools && same == ov->n_tools,
		"userspace %s kernel booted as %s: the %s kernel's verdict for %d of %d tools",
		all_modes[b], all_modes[t], all_modes[t], same, want->n_tools);
}

/*
 * A kernel built as one phase and booted as another must give each tool
 * the verdict the kernel built as that phase gives it.
 */
static void check_overrides(struct verdicts *v, const struct opts *o,
			    const struct matrix *m)
{
	struct run ov;
	int b, t;

	for (b = 0; b < MAX_MODES; b++)
		for (t = 0; t < MAX_MODES; t++) {
			const char *path = o->in.tools_told[b][t];

			if (b == t || !path)
				continue;
			if (run_load(path, &ov) || !ov.n_tools)
				verdict(v, false,
					"userspace %s kernel booted as %s: no results in %s",
					all_modes[b], all_modes[t], path);
			else
				compare_tools(v, b, t, m->tools[t], &ov);
			run_free(&ov);
		}
}

/* How many boot overrides' results were given ("warn-as-enforce=PATH"). */
static int given_overrides(const struct opts *o)
{
	int b, t, n = 0;

	for (b = 0; b < MAX_MODES; b++)
		for (t = 0; t < MAX_MODES; t++)
			n += o->in.told[b][t] != NULL;
	return n;
}

int cmd_compat(const struct opts *o)
{
	static struct run told[MAX_MODES][MAX_MODES];
	struct run tools[MAX_MODES], runs[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int i, j, missing;
	struct verdicts v = VERDICTS_TAP;

	if (!o->dir)
		usage();
	if (load_tool_runs(o, tools, &m)) {
		verdict(&v, false, "userspace results of all %d variants are present", MAX_MODES);
		return verdicts_tap_end(&v);
	}
	check_fixes(&v, &m);
	check_overrides(&v, o, &m);
	if (o->spec) {
		load_spec(o->spec, &spec);
		if (!load_runs(o, runs, &m))
			m.spec = &spec;
		/* matrix.md is written again: with the overrides' table too. */
		missing = load_told_runs(o, told, &m);
		verdict(&v, !missing, "the results of the %d boot overrides given are present, for matrix.md's table of them (%d missing)",
			given_overrides(o), missing);
	}
	verdict(&v, !report_write(&m, o->dir), "compatibility table written: %s/compat.md%s",
		o->dir, m.spec ? ", and into matrix.md, matrix.html, matrix.json" : "");
	for (j = 0; j < MAX_MODES; j++) {
		run_free(&tools[j]);
		run_free(&runs[j]);
		for (i = 0; i < MAX_MODES; i++)
			run_free(&told[j][i]);
	}
	return verdicts_tap_end(&v);
}
