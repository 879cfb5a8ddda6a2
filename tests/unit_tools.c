// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' expected verdicts (tool_spec.c): tests/tools.md loads, a bad
 * table is refused with its cause, and a run is judged by its row's cell.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tool_spec.h"
#include "unit_tools.h"

#define HEADER "| tool | legacy | warn | implicit | enforce | what |\n|---|---|---|---|---|---|\n"

/* Load @text as a table; the error, or "" when it loaded. */
static const char *load_text(const char *text, struct tool_spec *ts)
{
	static char err[512];
	char path[] = "/tmp/psmf-tools-XXXXXX";
	int fd = mkstemp(path);

	err[0] = 0;
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		snprintf(err, sizeof(err), "cannot write %s", path);
	} else if (tool_spec_load(path, ts, err, sizeof(err)) == 0) {
		err[0] = 0;
	} else if (!err[0]) {
		snprintf(err, sizeof(err), "refused without a cause");
	}
	if (fd >= 0)
		close(fd);
	unlink(path);
	return err;
}

static void test_bad_tables(void)
{
	static const struct {
		const char *text, *cause;
	} bad[] = {
		{ "| tool | warn | legacy | implicit | enforce | what |\n", "want the header" },
		{ HEADER "| a | works | warns | works | broken | x |\n", "'broken': want works" },
		{ HEADER "| a | works | warns | works | fails |\n", "cells, want 6" },
		{ HEADER "| a | works | warns | works | fails | x |\n"
			 "| a | works | works | works | works | y |\n", "a twice" },
		{ HEADER, "no table of tool rows" },
	};
	struct tool_spec ts;
	const char *err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err = load_text(bad[i].text, &ts);
		tap(strstr(err, bad[i].cause) != NULL,
		    "tools.md: a bad table is refused naming its cause (%s): %s",
		    bad[i].cause, err[0] ? err : "loaded");
	}
}

void test_tool_spec(const char *spec_path)
{
	char path[4096], why[512];
	const char *slash = strrchr(spec_path, '/');
	struct tool_spec ts;
	struct run run;
	const struct tool_run *t;
	bool ok;
	int dir = slash ? (int)(slash - spec_path + 1) : 0;

	snprintf(path, sizeof(path), "%.*stools.md", dir, spec_path);
	ok = !tool_spec_load(path, &ts, why, sizeof(why));
	tap(ok && ts.n > 0, "tools.md loads: %d rows%s%s", ts.n, ok ? "" : ": ",
	    ok ? "" : why);
	test_bad_tables();

	snprintf(path, sizeof(path), "%.*sfixtures/results-tools.txt", dir, spec_path);
	if (run_load(path, &run) || run.n_tools < 3) {
		tap(false, "tools: %s loads", path);
		return;
	}
	t = &run.tools[2];	/* mount-proc, which warns */
	load_text(HEADER "| mount-proc | works | warns | works | fails | x |\n", &ts);
	tap(tool_judge(&ts, t, PHASE_WARN, why, sizeof(why)),
	    "tools: a run that warns, where the cell says warns, passes (%s)", why);
	tap(!tool_judge(&ts, t, PHASE_LEGACY, why, sizeof(why)) &&
	    !strcmp(why, "mount-proc under legacy: tools.md says works, the run gave warns"),
	    "tools: where the cell says otherwise it fails, naming row, phase and both verdicts (%s)",
	    why);
	tap(!tool_judge(&ts, &run.tools[0], PHASE_WARN, why, sizeof(why)) &&
	    strstr(why, "no row for it"),
	    "tools: a row the table lacks fails (%s)", why);
	run_free(&run);
}
