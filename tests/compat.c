// SPDX-License-Identifier: GPL-2.0
/*
 * runner compat: the compatibility table of the userspace suite's runs
 * (compat.md), and the matrix reports again with it when the matrix has
 * results.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "runner.h"
#include "tap.h"

int cmd_compat(const struct opts *o)
{
	struct run tools[MAX_MODES], runs[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int j;

	if (!o->dir)
		usage();
	if (load_tool_runs(o, tools, &m)) {
		tap(false, "userspace results of all three variants are present");
		return tap_end();
	}
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
