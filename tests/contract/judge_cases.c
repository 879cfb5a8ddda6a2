// SPDX-License-Identifier: GPL-2.0
/* The verdict of each case of a run (see judge_cases.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "judge_cases.h"

int judge_scenarios(const struct spec *spec, const struct run *run, int mode,
		    const char *only, bool skip_alone, case_sink *sink,
		    void *ctx)
{
	char exp[128], what[1400];
	int i, n = 0;

	for (i = 0; i < spec->n; i++) {
		const struct spec_row *row = &spec->row[i];
		struct verdict v;

		if (only && strcmp(only, row->name))
			continue;
		if (skip_alone && run_left_out(run, row->name))
			continue;
		v = judge(&row->cell[mode], run_find(run, row->name));
		format_cell(&row->cell[mode], exp, sizeof(exp));
		snprintf(what, sizeof(what), "%s %s: %s%s%s", all_modes[mode],
			 row->name, exp, v.pass ? "" : ": ", v.why);
		sink(ctx, DEF_SCENARIOS, row->name, v.pass, what);
		n++;
	}
	return n;
}

/*
 * The harness names each case in its "ok N NAME" line, except a skipped
 * one ("ok N # SKIP why"): that takes the name of the "#  RUN NAME ..."
 * line before it.  Each case is @prefix NAME, in @def.
 */
int judge_tap(char *const *lines, int n_lines, const char *def,
	      const char *prefix, case_sink *sink, void *ctx)
{
	char name_buf[256] = "", id[320], what[400];
	int i, n = 0;

	for (i = 0; i < n_lines; i++) {
		const char *p = lines[i];
		bool ok = !strncmp(p, "ok ", 3);
		const char *name;

		if (sscanf(p, "#  RUN %255s", name_buf) == 1)
			continue;
		if (!ok && strncmp(p, "not ok ", 7))
			continue;
		name = strchr(p + (ok ? 3 : 7), ' ');
		name = name ? name + 1 : "#";
		if (*name != '#')
			snprintf(name_buf, sizeof(name_buf), "%.*s",
				 (int)strcspn(name, " \n"), name);
		snprintf(id, sizeof(id), "%s%s", prefix,
			 name_buf[0] ? name_buf : "unnamed");
		snprintf(what, sizeof(what), "%s %s%s%s", def, id,
			 *name == '#' ? " " : "", *name == '#' ? name : "");
		sink(ctx, def, id, ok, what);
		name_buf[0] = 0;
		n++;
	}
	return n;
}

int judge_selftest(const struct run *run, case_sink *sink, void *ctx)
{
	return judge_tap(run->selftest, run->n_selftest, DEF_KSELFTEST, "",
			 sink, ctx);
}
