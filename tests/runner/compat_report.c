// SPDX-License-Identifier: GPL-2.0
/*
 * The compatibility table of the real tools (compat.md, and its table in
 * the matrix reports): each tool's verdict in each phase, the exact call
 * that warned or failed, and the fix, verified by a row of its own.
 */
#define _GNU_SOURCE
#include <string.h>

#include "report.h"

/*
 * A markdown table header: the columns of @lead ("| a | b |"), one per
 * phase, then those of @trail (" c |" or ""), and its separator row.
 */
void md_phase_header(FILE *f, const char *lead, const char *trail)
{
	int j, cols = MAX_MODES - 1;
	const char *p;

	fprintf(f, "%s", lead);
	for (j = 0; j < MAX_MODES; j++)
		fprintf(f, " %s |", all_modes[j]);
	fprintf(f, "%s\n|", trail);
	for (p = lead; *p; p++)
		cols += *p == '|';
	for (p = trail; *p; p++)
		cols += *p == '|';
	while (cols--)
		fprintf(f, "---|");
	fprintf(f, "\n");
}

/* Tool @i of the first run, as run by variant @mode; NULL if it was not. */
const struct tool_run *compat_tool_in(const struct matrix *m, int i, int mode)
{
	return run_find_tool(m->tools[mode], m->tools[0]->tools[i].name);
}

/* Whether the tool row @i works in every phase. */
bool compat_works_everywhere(const struct matrix *m, int i)
{
	const struct tool_run *t;
	int j;

	for (j = 0; j < MAX_MODES; j++) {
		t = compat_tool_in(m, i, j);
		if (!t || strcmp(tool_verdict(t), "works"))
			return false;
	}
	return true;
}

/* The index of tool @name in the first run, or -1. */
int compat_index(const struct matrix *m, const char *name)
{
	int i;

	for (i = 0; i < m->tools[0]->n_tools; i++)
		if (!strcmp(m->tools[0]->tools[i].name, name))
			return i;
	return -1;
}

/* @s with the number after @mark in @buf as N, or @s if it has no @mark. */
static const char *masked(const char *s, const char *mark, char *buf,
			  size_t len)
{
	char copy[1024];
	const char *p;
	size_t at;

	snprintf(copy, sizeof(copy), "%s", s);
	p = strstr(copy, mark);
	if (!p)
		return s;
	at = (size_t)(p - copy) + strlen(mark);
	snprintf(buf, len, "%.*sN%s", (int)at, copy,
		 copy + at + strspn(copy + at, "0123456789"));
	return buf;
}

/*
 * @s with the pid after "(pid " and the user namespace in "user:[...]" as
 * N: they change from run to run.
 */
const char *without_pid(const char *s, char *buf, size_t len)
{
	return masked(masked(s, "(pid ", buf, len), "user:[", buf, len);
}

/* @s without a leading log timestamp, 'time="..." ' (runc's errors). */
static const char *untimed(const char *s)
{
	const char *end;

	if (strncmp(s, "time=\"", 6) || !(end = strchr(s + 6, '"')) ||
	    end[1] != ' ')
		return s;
	return end + 2;
}

/*
 * A tool's output line as it is the same from run to run: without a
 * leading timestamp, and each "sha256:" digest as "sha256:HASH" (podman's
 * image layers change whenever a file packed into them does).
 */
static const char *steady(const char *s, char *buf, size_t len)
{
	const char *p;
	size_t used = 0;

	s = untimed(s);
	if (!strstr(s, "sha256:"))
		return s;
	while ((p = strstr(s, "sha256:")) && used < len) {
		p += 7;
		used += snprintf(buf + used, len - used, "%.*sHASH", (int)(p - s), s);
		s = p + strspn(p, "0123456789abcdef");
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s", s);
	return buf;
}

/*
 * The call that warned or failed: the kernel's warning, which names the
 * operation, the filesystem and the flags; else the tool's own error
 * (the first line that says the operation was not permitted), else its
 * last line of output.
 */
const char *tool_call(const struct tool_run *t, char *buf, size_t len)
{
	char point[256];
	int i;

	for (i = 0; i < t->n_lines; i++)
		if (is_warning(t->lines[i]))
			return without_pid(t->lines[i], buf, len);
	if (t->exit == 0 && tool_missing(t, point, sizeof(point))) {
		char *opt = strchr(point, ':');

		if (opt)	/* POINT:OPTION */
			snprintf(buf, len,
				 "exit 0, but the mount on %.*s lacks %s: the tool went on without the mount it asks for",
				 (int)(opt - point), point, opt + 1);
		else
			snprintf(buf, len,
				 "exit 0, but no proc or sysfs mount on %s, which its config asks for: the tool let the refused mount go",
				 point);
		return buf;
	}
	for (i = 0; i < t->n_out; i++)
		if (strcasestr(t->out[i], "not permitted") ||
		    strcasestr(t->out[i], "permission denied") ||
		    strstr(t->out[i], "Mount too revealing"))	/* fsmount(2)'s log */
			return steady(t->out[i], buf, len);
	return t->n_out ? steady(t->out[t->n_out - 1], buf, len) : "(no output)";
}

void compat_table_markdown(const struct matrix *m, FILE *f)
{
	const struct tool_run *t;
	int i, j;

	md_phase_header(f, "| tool | version | started by uid |", " fix |");
	for (i = 0; i < m->tools[0]->n_tools; i++) {
		t = &m->tools[0]->tools[i];
		fprintf(f, "| [%s](#%s) | %s | %d |", t->name, t->name,
			t->version, t->uid);
		for (j = 0; j < MAX_MODES; j++) {
			t = compat_tool_in(m, i, j);
			fprintf(f, " %s |", t ? tool_verdict(t) : "not run");
		}
		t = &m->tools[0]->tools[i];
		if (t->fixed_by[0])
			fprintf(f, " [%s](#%s) |\n", t->fixed_by, t->fixed_by);
		else
			fprintf(f, " |\n");
	}
}

/* What breaks under which phase, the call, and the fix that works. */
static void compat_breaks(const struct matrix *m, FILE *f)
{
	const struct tool_run *t;
	char buf[1024];
	int i, j, k;

	fprintf(f, "\n## What warns or fails, the call, and the fix\n\n"
		"Each fix is a row of its own in the same runs, and works in every phase.\n\n");
	for (i = 0; i < m->tools[0]->n_tools; i++) {
		bool any = false;

		for (j = 0; j < MAX_MODES; j++) {
			t = compat_tool_in(m, i, j);
			if (!t || !strcmp(tool_verdict(t), "works"))
				continue;
			if (!any)
				fprintf(f, "- **%s**:", t->name);
			fprintf(f, "%s %s %s: `%s`", any ? ";" : "",
				all_modes[j], tool_verdict(t),
				tool_call(t, buf, sizeof(buf)));
			any = true;
		}
		if (!any)
			continue;
		t = &m->tools[0]->tools[i];
		k = compat_index(m, t->fixed_by);
		if (k >= 0)
			fprintf(f, ".  Fix: %s (row [%s](#%s): %s)\n", t->fix,
				t->fixed_by, t->fixed_by,
				compat_works_everywhere(m, k) ?
				"works in every phase" : "does NOT work in every phase");
		else
			fprintf(f, ".  No fix row.\n");
	}
}

/* Whether kernel line @k of @t is a warning not printed before it. */
static bool first_warning(const struct tool_run *t, int k)
{
	int i;

	if (!is_warning(t->lines[k]))
		return false;
	for (i = 0; i < k; i++)
		if (!strcmp(t->lines[i], t->lines[k]))
			return false;
	return true;
}

/*
 * The kernel lines and output of each tool, by tool: each warning once
 * (how many the rate limit lets through varies), no timestamps.
 */
static void compat_evidence(const struct matrix *m, FILE *f)
{
	const struct tool_run *t;
	char line[1024];
	int i, j, k;

	fprintf(f, "\n## Kernel lines and the mounts the sandboxed command saw\n\n"
		"The series' kernel lines, with the pid as `N` so that this file changes only when\n"
		"the results do; every kernel line, pids included, is in `matrix.json`.\n");
	for (i = 0; i < m->tools[0]->n_tools; i++) {
		fprintf(f, "\n### %s\n\n", m->tools[0]->tools[i].name);
		for (j = 0; j < MAX_MODES; j++) {
			t = compat_tool_in(m, i, j);
			if (!t)
				continue;
			fprintf(f, "- %s: exit %d", all_modes[j], t->exit);
			for (k = 0; k < t->n_lines; k++)
				if (first_warning(t, k))
					fprintf(f, "; kernel: `%s`",
						without_pid(t->lines[k], line,
							    sizeof(line)));
			for (k = 0; k < t->n_out; k++)
				fprintf(f, "; `%s`", steady(t->out[k], line,
							    sizeof(line)));
			fprintf(f, "\n");
		}
	}
}

int report_compat(const struct matrix *m, FILE *f)
{
	fprintf(f, "# Real container tools under each phase\n\n"
		"Generated by `tests/runner compat` from the userspace suite's guest runs; do not edit.\n"
		"Each tool runs over a host /proc and /sys mounted nosuid,nodev,noexec, with `/bin/psmf-probe`\n"
		"as the sandboxed command, started by the uid shown: 1000 is the unprivileged user;\n"
		"systemd-nspawn refuses to start as anyone but root, and runs its container in a user\n"
		"namespace of its own (`--private-users`), where proc and sysfs are mounted.\n\n");
	compat_table_markdown(m, f);
	compat_breaks(m, f);
	compat_evidence(m, f);
	return ferror(f) ? -1 : 0;
}
