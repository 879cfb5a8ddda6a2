/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The expected verdicts of the real container tools (tests/tools.md,
 * tests/system.md): per tool row and phase, works, warns or fails, and
 * where a Debian release's tools differ, that release's own.  Parsing and judging are
 * pure, as in spec.c.
 */
#ifndef TOOL_SPEC_H
#define TOOL_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "../contract/spec.h"

struct tool_expect {
	char name[64];
	char verdict[MAX_MODES][8];	/* "works", "warns", "fails", "skipped" */
};

struct tool_spec {
	int n;
	struct tool_expect row[MAX_TOOLS];
};

/*
 * The table at @path, each cell as it holds for Debian @release (NULL: the
 * first verdict of each cell, which holds where no release is named).
 */
int tool_spec_load(const char *path, const char *release,
		   struct tool_spec *ts, char *err, size_t len);
const struct tool_expect *tool_spec_find(const struct tool_spec *ts,
					 const char *name);
/* A tool run's verdict: works, warns, fails (its exit, its kernel lines), skipped. */
const char *tool_verdict(const struct tool_run *t);
/*
 * The first mount point @t's row needs that its command did not see (or
 * POINT:OPTION whose mount lacks OPTION), in @buf; NULL if it saw them all.
 */
const char *tool_missing(const struct tool_run *t, char *buf, size_t len);
/*
 * Whether @t, run under @mode, gave the verdict the table wants; if not,
 * @why names the row, the phase and both verdicts.
 */
bool tool_judge(const struct tool_spec *ts, const struct tool_run *t,
		int mode, char *why, size_t len);

#endif
