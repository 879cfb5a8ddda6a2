// SPDX-License-Identifier: GPL-2.0
/*
 * runner mutate: break expectations on purpose and show that the judge
 * and the report catch them (the cell turns red, its test fails).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "tap.h"
#include "tool_spec.h"

/*
 * The run-time phase's lines are judged too: a cell that wants a raise's
 * notice fails without it, and one that does not want it fails with it.
 */
static void mutate_raise(struct verdicts *v, struct spec *spec,
			 const struct run *run, int mode)
{
	int i;

	for (i = 0; i < spec->n; i++) {
		struct cell *c = &spec->row[i].cell[mode];
		const struct result *r = run_find(run, spec->row[i].name);
		struct cell saved = *c;
		bool before, after;

		if (!c->n_raised)
			continue;
		before = judge(c, r).pass;
		c->n_raised = 0;
		after = judge(c, r).pass;
		*c = saved;
		verdict(v, before && !after,
			"broken expectation for %s %s (no raise's notice) fails its check",
			all_modes[mode], spec->row[i].name);
		return;
	}
	verdict(v, false, "found a %s cell that wants a raise's notice to break",
		all_modes[mode]);
}

/*
 * The tools' table too: a copy of it with a row that warns under warn said
 * to work, and one with a row that works said to fail, must each fail
 * more of the userspace boot's checks than the table itself does.
 */
static void mutate_tools(struct verdicts *v, const struct opts *o)
{
	static const char *const broken[][2] = { { "warns", "works" },
						 { "works", "fails" } };
	struct tool_spec ts;
	struct run run;
	char why[512];
	int i, k, before, after, warn = PHASE_WARN;

	if (!o->tools || !o->in.tools[warn] ||
	    tool_spec_load(o->tools, NULL, &ts, why, sizeof(why)) ||
	    run_load(o->in.tools[warn], &run)) {
		verdict(v, false, "the tools' table and the userspace-warn results to break: %s",
			!o->tools || !o->in.tools[warn] ?
			"give --tools and userspace-warn=FILE" : "one did not load");
		return;
	}
	before = judge_tools_broken(&run, warn, o->tools, NULL, NULL, NULL);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < ts.n; i++)
			if (run_find_tool(&run, ts.row[i].name) &&
			    !strcmp(ts.row[i].verdict[warn], broken[k][0]))
				break;
		if (i == ts.n) {
			verdict(v, false,
				"found a tool row that %s under warn to break",
				broken[k][0]);
			continue;
		}
		after = judge_tools_broken(&run, warn, o->tools, NULL, ts.row[i].name,
					   broken[k][1]);
		verdict(v, after > before,
			"broken expectation for userspace warn %s (%s) fails its check: %d checks fail, %d with the table as it is",
			ts.row[i].name, broken[k][1], after, before);
	}
	run_free(&run);
}

/*
 * Break one expectation on purpose and show that the judge and the report
 * catch it: the cell must turn red and its test must fail.
 */
int cmd_mutate(const struct opts *o)
{
	struct run runs[MAX_MODES];
	struct matrix m = { 0 };
	struct spec spec;
	char *html = NULL;
	size_t len = 0;
	int i, warn = PHASE_WARN, done = 0;
	struct verdicts v = VERDICTS_TAP;

	if (!o->spec)
		usage();
	load_spec(o->spec, &spec);
	if (!load_matrix(&v, o, &spec, runs, &m))
		return verdicts_tap_end(&v);
	for (i = 0; i < spec.n && done < 2; i++) {
		struct cell *c = &spec.row[i].cell[warn];
		struct cell saved = *c;
		struct verdict before, after;
		char needle[256];
		FILE *f;

		/* One warned cell said to be silent, one allowed said refused. */
		if (!(done == 0 && c->outcome == WARNED) &&
		    !(done == 1 && c->outcome == ALLOWED))
			continue;
		before = judge(c, run_find(&runs[warn], spec.row[i].name));
		if (c->outcome == WARNED) {
			c->outcome = ALLOWED;
			c->cleared = 0;
		} else {
			c->outcome = REFUSED;
			snprintf(c->err, sizeof(c->err), "EPERM");
		}
		after = judge(c, run_find(&runs[warn], spec.row[i].name));
		f = open_memstream(&html, &len);
		report_html(&m, f);
		fclose(f);
		snprintf(needle, sizeof(needle), "<tr id=\"%s\">", spec.row[i].name);
		verdict(&v, before.pass && !after.pass,
			"broken expectation for warn %s fails its check (%s)",
			spec.row[i].name, after.why);
		verdict(&v, strstr(html, needle) &&
			strstr(strstr(html, needle), "class=\"bad\"") &&
			strstr(strstr(html, needle), "class=\"bad\"") <
			strstr(strstr(html, needle), "</tr>"),
			"broken expectation for warn %s turns its cell red in the report",
			spec.row[i].name);
		free(html);
		html = NULL;
		*c = saved;
		done++;
	}
	verdict(&v, done == 2, "found a warned and an allowed cell to break");
	mutate_raise(&v, &spec, &runs[warn], warn);
	/*
	 * Neither the tools' table nor a userspace boot given: the tree's
	 * kernels ran no real tools (-Dtools_trees).  Half of them fails.
	 */
	if (o->tools || o->in.tools[warn])
		mutate_tools(&v, o);
	else
		printf("# no tools' table and no userspace-warn results: the real tools did not run on this tree\n");
	for (i = 0; i < MAX_MODES; i++)
		run_free(&runs[i]);
	return verdicts_tap_end(&v);
}
