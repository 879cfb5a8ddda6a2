// SPDX-License-Identifier: GPL-2.0
/* The tools' expected verdicts (tests/tools.md), read and judged against. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "tool_spec.h"

static const char *const verdicts[] = { "works", "warns", "fails" };

static bool is_verdict(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(verdicts) / sizeof(*verdicts); i++)
		if (!strcmp(s, verdicts[i]))
			return true;
	return false;
}

/* | tool | PHASE ... (configs/phases) | what it asks of the kernel | */
static bool good_header(char **cells, int n)
{
	int i;

	if (n != 2 + MAX_MODES || strcmp(cells[0], "tool"))
		return false;
	for (i = 0; i < MAX_MODES; i++)
		if (strcmp(cells[1 + i], all_modes[i]))
			return false;
	return true;
}

/* One row into @ts; 0, or -1 with @err said. */
static int add_row(struct tool_spec *ts, char **cells, int n,
		   const char *where, char *err, size_t len)
{
	struct tool_expect *r;
	int i;

	if (n != 2 + MAX_MODES) {
		snprintf(err, len, "%s: %d cells, want %d (tool, %d phases, what it asks)",
			 where, n, 2 + MAX_MODES, MAX_MODES);
		return -1;
	}
	if (ts->n == MAX_TOOLS || tool_spec_find(ts, cells[0])) {
		snprintf(err, len, "%s: %s twice, or more than %d rows", where,
			 cells[0], MAX_TOOLS);
		return -1;
	}
	r = &ts->row[ts->n];
	snprintf(r->name, sizeof(r->name), "%s", cells[0]);
	for (i = 0; i < MAX_MODES; i++) {
		if (!is_verdict(cells[1 + i])) {
			snprintf(err, len, "%s: %s under %s is '%s': want works, warns or fails",
				 where, r->name, all_modes[i], cells[1 + i]);
			return -1;
		}
		snprintf(r->verdict[i], sizeof(r->verdict[i]), "%s", cells[1 + i]);
	}
	ts->n++;
	return 0;
}

int tool_spec_load(const char *path, struct tool_spec *ts, char *err,
		   size_t len)
{
	char line[2048], where[600], *cells[2 + MAX_MODES + 1];
	int lineno = 0, header = 0, n, bad = 0;
	FILE *f = fopen(path, "r");

	memset(ts, 0, sizeof(*ts));
	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] != '|')
			continue;
		n = split_row(line, cells, 2 + MAX_MODES + 1);
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (!header) {
			header = good_header(cells, n);
			if (!header) {
				snprintf(err, len, "%s: want the header | tool | %s | ... | what it asks of the kernel |",
					 where, all_modes[0]);
				bad = 1;
			}
		} else if (cells[0][0] != '-') {	/* |---|---| */
			bad = add_row(ts, cells, n, where, err, len);
		}
	}
	fclose(f);
	if (!bad && !ts->n) {
		snprintf(err, len, "%s: no table of tool rows", path);
		bad = 1;
	}
	return bad ? -1 : 0;
}

const struct tool_expect *tool_spec_find(const struct tool_spec *ts,
					 const char *name)
{
	int i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->row[i].name, name))
			return &ts->row[i];
	return NULL;
}

bool tool_judge(const struct tool_spec *ts, const struct tool_run *t,
		int mode, char *why, size_t len)
{
	const struct tool_expect *e = tool_spec_find(ts, t->name);
	const char *seen = tool_verdict(t);

	if (!e) {
		snprintf(why, len, "%s ran under %s, but tests/tools.md has no row for it",
			 t->name, all_modes[mode]);
		return false;
	}
	snprintf(why, len, "%s under %s: tools.md says %s, the run gave %s",
		 t->name, all_modes[mode], e->verdict[mode], seen);
	return !strcmp(e->verdict[mode], seen);
}
