// SPDX-License-Identifier: GPL-2.0
/* The tools' expected verdicts (tests/tools.md), read and judged against. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "tool_spec.h"

/* Whether @option is one of the comma lists in @opts (words by spaces). */
static bool has_option(const char *opts, const char *option)
{
	size_t n = strlen(option);
	const char *p;

	for (p = opts; (p = strstr(p, option)); p += n)
		if ((p == opts || p[-1] == ',' || p[-1] == ' ') &&
		    (!p[n] || p[n] == ',' || p[n] == ' '))
			return true;
	return false;
}

/*
 * The first mount point the tool's config asks for that its sandboxed
 * command did not see a proc or sysfs mount on (a tool may let a refused
 * mount go: LXC's "optional"), or the first POINT:OPTION whose mount
 * lacks OPTION (systemd's hidepid=, subset=), into @buf; NULL if it saw
 * them all.
 */
const char *tool_missing(const struct tool_run *t, char *buf, size_t len)
{
	char needs[256], want[300], *p, *opt, *save;
	int i;

	snprintf(needs, sizeof(needs), "%s", t->needs);
	for (p = strtok_r(needs, " \n", &save); p;
	     p = strtok_r(NULL, " \n", &save)) {
		/* POINT, or POINT:OPTION, an option its mount must show */
		opt = strchr(p, ':');
		snprintf(want, sizeof(want), " %.*s ",
			 opt ? (int)(opt - p) : (int)strlen(p), p);
		for (i = 0; i < t->n_out; i++)
			if (!strncmp(t->out[i], "probe ", 6) &&
			    strstr(t->out[i] + 5, want) &&
			    (!opt || has_option(strstr(t->out[i] + 5, want) + strlen(want), opt + 1)))
				break;
		if (i == t->n_out) {
			snprintf(buf, len, "%s", p);
			return buf;
		}
	}
	return NULL;
}

/* works / warns / fails, from the exit status and the kernel lines */
const char *tool_verdict(const struct tool_run *t)
{
	char point[256];
	int i;

	if (t->skipped[0])
		return "skipped";
	if (t->exit != 0 || tool_missing(t, point, sizeof(point)))
		return "fails";
	for (i = 0; i < t->n_lines; i++)
		if (is_warning(t->lines[i]))
			return "warns";
	return "works";
}

/* "skipped": the release's tools lack what the row needs; it is not run. */
static const char *const verdicts[] = { "works", "warns", "fails", "skipped" };

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

/*
 * A cell's verdict for @release: "VERDICT", or "VERDICT, RELEASE: VERDICT,
 * ..." where a release's own verdict differs from the first, which holds
 * for every release not named (and for @release NULL).  Into @out; 0, or
 * -1 when the cell is not of that form.
 */
static int cell_verdict(const char *cell, const char *release, char *out,
			size_t len)
{
	char copy[256], *part, *save, *colon, *word, *end;
	bool first = true;

	snprintf(copy, sizeof(copy), "%s", cell);
	if (strstr(copy, ",,") || copy[0] == ',' || (*copy && copy[strlen(copy) - 1] == ','))
		return -1;	/* an empty part */
	for (part = strtok_r(copy, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		while (*part == ' ')
			part++;
		colon = strchr(part, ':');
		if (first == (colon != NULL))
			return -1;	/* the first names no release, the others do */
		word = colon ? colon + 1 : part;
		while (*word == ' ')
			word++;
		end = word + strcspn(word, " ");
		if (end[strspn(end, " ")])
			return -1;	/* words after the verdict */
		*end = 0;
		if (!is_verdict(word) || (colon && (colon == part || colon[-1] == ' ')))
			return -1;
		if (first || (release && !strncmp(part, release, colon - part) &&
			      (size_t)(colon - part) == strlen(release)))
			snprintf(out, len, "%s", word);
		first = false;
	}
	return first ? -1 : 0;
}

/* One row into @ts, its cells for @release; 0, or -1 with @err said. */
static int add_row(struct tool_spec *ts, char **cells, int n,
		   const char *release, const char *where, char *err, size_t len)
{
	struct tool_expect *r;
	int i;

	if (n != 2 + MAX_MODES) {
		snprintf(err, len, "%s: %d cells, want %d (tool, %d phases, what it asks)",
			 where, n, 2 + MAX_MODES, MAX_MODES);
		return -1;
	}
	if (tool_spec_find(ts, cells[0])) {
		snprintf(err, len, "%s: %s twice", where, cells[0]);
		return -1;
	}
	if (ts->n == MAX_TOOLS) {
		snprintf(err, len, "%s: more than %d rows (MAX_TOOLS in tests/contract/spec.h)",
			 where, MAX_TOOLS);
		return -1;
	}
	r = &ts->row[ts->n];
	snprintf(r->name, sizeof(r->name), "%s", cells[0]);
	for (i = 0; i < MAX_MODES; i++)
		if (cell_verdict(cells[1 + i], release, r->verdict[i], sizeof(r->verdict[i]))) {
			snprintf(err, len, "%s: %s under %s is '%s': want works, warns, fails or skipped, then any 'RELEASE: VERDICT' by commas",
				 where, r->name, all_modes[i], cells[1 + i]);
			return -1;
		}
	ts->n++;
	return 0;
}

int tool_spec_load(const char *path, const char *release,
		   struct tool_spec *ts, char *err, size_t len)
{
	char line[2048], where[600], *cells[2 + MAX_MODES + 1];
	int lineno = 0, header = 0, n, bad = 0, after = 0, ended = 0;
	FILE *f = fopen(path, "r");

	memset(ts, 0, sizeof(*ts));
	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		ended = ended || (header && line[0] != '|');
		if (ended && !md_after_table(&after, line)) {
			snprintf(err, len, "%s:%d: a row cut off from a table (a blank line in it?)",
				 path, lineno - 1);
			bad = 1;
		}
		if (ended || line[0] != '|')
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
		} else if (n < 1 || cells[0][0] != '-') {	/* not |---|---| */
			bad = add_row(ts, cells, n, release, where, err, len);
		}
	}
	fclose(f);
	if (!bad && ended && !md_after_table(&after, "")) {
		snprintf(err, len, "%s:%d: a row cut off from a table at the end", path, lineno);
		bad = 1;
	}
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
		snprintf(why, len, "%s ran under %s, but the table has no row for it",
			 t->name, all_modes[mode]);
		return false;
	}
	snprintf(why, len, "%s under %s: expected %s, the run gave %s",
		 t->name, all_modes[mode], e->verdict[mode], seen);
	return !strcmp(e->verdict[mode], seen);
}
