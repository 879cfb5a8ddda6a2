// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix report: scenarios by variants, each cell allowed / warned /
 * refused, green where it matches the spec and red where not.  The same
 * judgement (judge()) decides the colour and the test result.  When the
 * userspace suite has run, the real tools' results follow, and compat.md
 * holds them with the kernel lines and output of each.
 */
#include <string.h>

#include "report.h"

struct shown {
	struct verdict v;
	const struct result *r;
	char text[128];		/* "allowed nosuid,nodev" ... */
	char warning[512];	/* the first warning line, if any */
	char notice[512];	/* the first notice of a raise, if any */
};

/* Row @row of @run, judged against the spec's column @mode. */
static void show_run(const struct matrix *m, const struct run *run, int row,
		     int mode, struct shown *s)
{
	const struct spec_row *sr = &m->spec->row[row];
	char flags[64];
	int i;

	memset(s, 0, sizeof(*s));
	s->r = run_find(run, sr->name);
	s->v = judge(&sr->cell[mode], s->r);
	if (!s->r) {
		snprintf(s->text, sizeof(s->text), "no result");
		return;
	}
	format_flags(s->r->flags < 0 ? 0 : s->r->flags, flags, sizeof(flags));
	if (s->v.seen == REFUSED)
		snprintf(s->text, sizeof(s->text), "refused %s", s->r->ret);
	else
		snprintf(s->text, sizeof(s->text), "%s %s",
			 outcome_name(s->v.seen), flags);
	for (i = 0; i < s->r->n_lines; i++) {
		const char *l = s->r->lines[i];
		char *to = is_raise_notice(l) ? s->notice :
			   is_warning(l) ? s->warning : NULL;

		if (to && !to[0])
			snprintf(to, sizeof(s->warning), "%s", l);
	}
}

static void show(const struct matrix *m, int row, int mode, struct shown *s)
{
	show_run(m, m->run[mode], row, mode, s);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void html_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void summary_run(const struct matrix *m, const struct run *run,
			int mode, int *pass, int *fail)
{
	struct shown s;
	int i;

	*pass = *fail = 0;
	for (i = 0; i < m->spec->n; i++) {
		show_run(m, run, i, mode, &s);
		if (s.v.pass)
			(*pass)++;
		else
			(*fail)++;
	}
}

static void summary(const struct matrix *m, int mode, int *pass, int *fail)
{
	summary_run(m, m->run[mode], mode, pass, fail);
}

/*
 * The boot overrides: each kernel booted as another phase (those run),
 * against that phase's column.  Calls @row for each run that exists (@i:
 * how many came before it) and returns how many there are.
 */
static int each_override(const struct matrix *m, FILE *f,
			 void (*row)(FILE *f, int i, int built, int told,
				     const struct run *r, int pass, int fail))
{
	int b, t, pass, fail, n = 0;

	for (b = 0; b < MAX_MODES; b++)
		for (t = 0; t < MAX_MODES; t++)
			if (m->told[b][t]) {
				summary_run(m, m->told[b][t], t, &pass, &fail);
				row(f, n, b, t, m->told[b][t], pass, fail);
				n++;
			}
	return n;
}

static void override_md(FILE *f, int i, int built, int told,
			const struct run *r, int pass, int fail)
{
	(void)i;
	fprintf(f, "| %s | `proc_sysfs_mount_flags=%s` | %s | %d of %d%s |\n",
		all_modes[built], all_modes[told], r->release, pass,
		pass + fail, fail ? " **(see mismatches)**" : "");
}

static void override_html(FILE *f, int i, int built, int told,
			  const struct run *r, int pass, int fail)
{
	(void)i;
	fprintf(f, "<tr><td>%s</td><td><code>proc_sysfs_mount_flags=%s</code></td><td>%s</td><td class=\"%s\">%d of %d</td></tr>\n",
		all_modes[built], all_modes[told], r->release,
		fail ? "bad" : "ok", pass, pass + fail);
}

static void override_json(FILE *f, int i, int built, int told,
			  const struct run *r, int pass, int fail)
{
	fprintf(f, "%s\n    {\"built\": \"%s\", \"booted_as\": \"%s\", \"kernel\": ",
		i ? "," : "", all_modes[built], all_modes[told]);
	json_str(f, r->release);
	fprintf(f, ", \"cells_matching\": %d, \"cells\": %d, \"completed\": %s}",
		pass, pass + fail, r->ended ? "true" : "false");
}

/* Mismatches of the override runs, for the markdown report. */
static int override_mismatches(const struct matrix *m, FILE *f)
{
	struct shown s;
	int b, t, i, n = 0;

	for (b = 0; b < MAX_MODES; b++)
		for (t = 0; t < MAX_MODES; t++)
			for (i = 0; m->told[b][t] && i < m->spec->n; i++) {
				show_run(m, m->told[b][t], i, t, &s);
				if (s.v.pass)
					continue;
				fprintf(f, "- %s booted as %s / `%s`: %s\n",
					all_modes[b], all_modes[t],
					m->spec->row[i].name, s.v.why);
				n++;
			}
	return n;
}


/* Per variant: its kernel and how many of its cells match the spec. */
static void md_summary(const struct matrix *m, FILE *f)
{
	int j, pass, fail;

	fprintf(f, "| variant | kernel | cells matching the spec |\n|---|---|---|\n");
	for (j = 0; j < MAX_MODES; j++) {
		if (!m->run[j]) {
			fprintf(f, "| %s | not run | |\n", all_modes[j]);
			continue;
		}
		summary(m, j, &pass, &fail);
		fprintf(f, "| %s | %s | %d of %d%s |\n", all_modes[j],
			m->run[j]->release, pass, pass + fail,
			fail ? " **(red cells below)**" : "");
	}
	fprintf(f, "\nThe same kernels booted as another phase, each judged against that phase's column:\n\n"
		"| kernel built as | booted with | kernel | cells matching that column |\n|---|---|---|---|\n");
	if (!each_override(m, f, override_md))
		fprintf(f, "| none: the boot overrides run on the trees of `-Dextended_trees` | | | |\n");
}

/* Each scenario, each variant's cell: what happened, and the spec's. */
static void md_cells(const struct matrix *m, FILE *f)
{
	struct shown s;
	char exp[128];
	int i, j;

	md_phase_header(f, "| scenario | what |", "");
	for (i = 0; i < m->spec->n; i++) {
		fprintf(f, "| `%s` | %s |", m->spec->row[i].name,
			m->spec->row[i].what);
		for (j = 0; j < MAX_MODES; j++) {
			if (!m->run[j]) {
				fprintf(f, " |");
				continue;
			}
			show(m, i, j, &s);
			format_cell(&m->spec->row[i].cell[j], exp, sizeof(exp));
			fprintf(f, " %s %s%s%s%s |", s.v.pass ? "✅" : "❌",
				s.text, s.v.pass ? "" : " (spec: `",
				s.v.pass ? "" : exp, s.v.pass ? "" : "`)");
		}
		fprintf(f, "\n");
	}
}

/* The warn variant's warning lines, and every cell that does not match. */
static void md_warnings_and_mismatches(const struct matrix *m, FILE *f)
{
	struct shown s;
	char line[1024];
	int i, j, n = 0;

	fprintf(f, "\n## Warning lines logged by the warn variant\n\n(The pid and the user namespace as `N`; matrix.json has each line as logged.  A row that raised the phase gives the sysctl's notice of it, as such.)\n\n");
	j = PHASE_WARN;
	for (i = 0; m->run[j] && i < m->spec->n; i++) {
		show(m, i, j, &s);
		if (s.warning[0])
			fprintf(f, "- `%s`: `%s`\n", m->spec->row[i].name,
				without_pid(s.warning, line, sizeof(line)));
		if (s.notice[0])
			fprintf(f, "- `%s`, the notice of its raise: `%s`\n",
				m->spec->row[i].name,
				without_pid(s.notice, line, sizeof(line)));
	}
	fprintf(f, "\n## Mismatches\n\n");
	for (j = 0; j < MAX_MODES; j++)
		for (i = 0; m->run[j] && i < m->spec->n; i++) {
			show(m, i, j, &s);
			if (!s.v.pass) {
				fprintf(f, "- %s / `%s`: %s\n", all_modes[j],
					m->spec->row[i].name, s.v.why);
				n++;
			}
		}
	n += override_mismatches(m, f);
	if (!n)
		fprintf(f, "None.\n");
}

int report_markdown(const struct matrix *m, FILE *f)
{
	fprintf(f, "# Proc and sysfs mount-flag matrix\n\n");
	fprintf(f, "Generated by `tests/runner cross` from `tests/spec.md` and the guests' results; do not edit.\n\n");
	md_summary(m, f);
	fprintf(f, "\nEach cell: what happened, then the spec's expectation when it differs. "
		"✅ matches the spec, ❌ does not.\n\n");
	md_cells(m, f);
	md_warnings_and_mismatches(m, f);
	if (m->tools[0]) {
		fprintf(f, "\n## Real container tools\n\n"
			"From the userspace suite; the kernel lines each caused are in compat.md.\n\n");
		compat_table_markdown(m, f);
	}
	return ferror(f) ? -1 : 0;
}

/* Not judged against a spec: no colours; the kernel lines on hover. */
static void compat_html(const struct matrix *m, FILE *f)
{
	const struct tool_run *t;
	int i, j, k;

	fprintf(f, "<h2>Real container tools</h2>\n<p>From the userspace suite. "
		"Hover a cell for the kernel lines the tool caused.</p>\n<table>\n"
		"<tr><th>tool</th><th>version</th><th>started by uid</th>");
	for (j = 0; j < MAX_MODES; j++)
		fprintf(f, "<th>%s</th>", all_modes[j]);
	fprintf(f, "</tr>\n");
	for (i = 0; i < m->tools[0]->n_tools; i++) {
		t = &m->tools[0]->tools[i];
		fprintf(f, "<tr><td>");
		html_str(f, t->name);
		fprintf(f, "</td><td>");
		html_str(f, t->version);
		fprintf(f, "</td><td>%d</td>", t->uid);
		for (j = 0; j < MAX_MODES; j++) {
			t = compat_tool_in(m, i, j);
			if (!t) {
				fprintf(f, "<td>not run</td>");
				continue;
			}
			fprintf(f, "<td title=\"");
			for (k = 0; k < t->n_lines; k++) {
				html_str(f, t->lines[k]);
				fprintf(f, "&#10;");
			}
			fprintf(f, "\">%s (exit %d)</td>", tool_verdict(t), t->exit);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* Per variant: its kernel, its run time, its cells matching the spec. */
static void html_summary(const struct matrix *m, FILE *f)
{
	int j, pass, fail;

	fprintf(f, "<table>\n<tr><th>variant</th><th>kernel</th><th>guest run time</th><th>cells matching the spec</th></tr>\n");
	for (j = 0; j < MAX_MODES; j++) {
		if (!m->run[j]) {
			fprintf(f, "<tr><td>%s</td><td colspan=\"3\">not run</td></tr>\n",
				all_modes[j]);
			continue;
		}
		summary(m, j, &pass, &fail);
		fprintf(f, "<tr><td>%s</td><td>%s</td><td>%.1f s</td><td class=\"%s\">%d of %d</td></tr>\n",
			all_modes[j], m->run[j]->release,
			m->run[j]->wall_ms / 1000.0, fail ? "bad" : "ok", pass,
			pass + fail);
	}
	fprintf(f, "</table>\n<h2>Boot overrides</h2>\n<p>The same kernels booted as another phase, each judged against that phase's column.</p>\n<table>\n"
		"<tr><th>kernel built as</th><th>booted with</th><th>kernel</th><th>cells matching that column</th></tr>\n");
	if (!each_override(m, f, override_html))
		fprintf(f, "<tr><td colspan=\"4\">none: the boot overrides run on the trees of <code>-Dextended_trees</code></td></tr>\n");
	fprintf(f, "</table>\n");
}

/* One cell: green or red, the warning on hover and below, the spec's. */
static void html_cell(const struct matrix *m, int i, int j, FILE *f)
{
	struct shown s;
	char exp[128];

	if (!m->run[j]) {
		fprintf(f, "<td></td>");
		return;
	}
	show(m, i, j, &s);
	format_cell(&m->spec->row[i].cell[j], exp, sizeof(exp));
	fprintf(f, "<td class=\"%s\" title=\"", s.v.pass ? "ok" : "bad");
	html_str(f, s.warning[0] ? s.warning :
		    s.notice[0] ? s.notice : "no warning");
	fprintf(f, "\">%s", s.text);
	if (s.warning[0]) {
		fprintf(f, "<small>");
		html_str(f, s.warning);
		fprintf(f, "</small>");
	}
	if (s.notice[0]) {
		fprintf(f, "<small>the notice of its raise: ");
		html_str(f, s.notice);
		fprintf(f, "</small>");
	}
	if (!s.v.pass) {
		fprintf(f, "<small>spec: <code>%s</code>; ", exp);
		html_str(f, s.v.why);
		fprintf(f, "</small>");
	}
	fprintf(f, "</td>");
}

int report_html(const struct matrix *m, FILE *f)
{
	int i, j;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>Proc and sysfs mount-flag matrix</title>\n<style>\n"
		"body{font-family:sans-serif;margin:1.5em}\n"
		"table{border-collapse:collapse;font-size:90%%}\n"
		"td,th{border:1px solid #999;padding:3px 6px;vertical-align:top}\n"
		"td.ok{background:#c8f0c8}td.bad{background:#f4b4b4;font-weight:bold}\n"
		"td small{display:block;color:#333;font-weight:normal;max-width:28em}\n"
		"code{font-size:95%%}\n</style></head><body>\n"
		"<h1>Proc and sysfs mount-flag matrix</h1>\n"
		"<p>Generated by <code>tests/runner cross</code> from <code>tests/spec.md</code>. "
		"Green: the variant did what the spec says; red: it did not. "
		"Hover a cell for the kernel lines it logged.</p>\n");
	html_summary(m, f);
	fprintf(f, "<h2>Scenarios</h2>\n<table>\n<tr><th>scenario</th><th>what</th>");
	for (j = 0; j < MAX_MODES; j++)
		fprintf(f, "<th>%s</th>", all_modes[j]);
	fprintf(f, "</tr>\n");
	for (i = 0; i < m->spec->n; i++) {
		fprintf(f, "<tr id=\"%s\"><td><code>%s</code></td><td>",
			m->spec->row[i].name, m->spec->row[i].name);
		html_str(f, m->spec->row[i].what);
		fprintf(f, "</td>");
		for (j = 0; j < MAX_MODES; j++)
			html_cell(m, i, j, f);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	if (m->tools[0])
		compat_html(m, f);
	fprintf(f, "</body></html>\n");
	return ferror(f) ? -1 : 0;
}

static void compat_json(const struct matrix *m, FILE *f)
{
	const struct tool_run *t;
	int i, j, k;

	fprintf(f, ",\n  \"tools\": [");
	for (i = 0; i < m->tools[0]->n_tools; i++) {
		t = &m->tools[0]->tools[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, t->name);
		fprintf(f, ", \"version\": ");
		json_str(f, t->version);
		fprintf(f, ", \"uid\": %d, \"results\": {", t->uid);
		for (j = 0; j < MAX_MODES; j++) {
			t = compat_tool_in(m, i, j);
			fprintf(f, "%s\"%s\": ", j ? ", " : "", all_modes[j]);
			if (!t) {
				fprintf(f, "null");
				continue;
			}
			fprintf(f, "{\"verdict\": \"%s\", \"exit\": %d, \"kernel_lines\": [",
				tool_verdict(t), t->exit);
			for (k = 0; k < t->n_lines; k++) {
				fprintf(f, "%s", k ? ", " : "");
				json_str(f, t->lines[k]);
			}
			fprintf(f, "]}");
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ]");
}

int report_json(const struct matrix *m, FILE *f)
{
	struct shown s;
	char exp[128];
	int i, j, k;

	fprintf(f, "{\n  \"variants\": {");
	for (j = 0, k = 0; j < MAX_MODES; j++) {
		if (!m->run[j])
			continue;
		fprintf(f, "%s\n    \"%s\": {\"kernel\": ", k++ ? "," : "",
			all_modes[j]);
		json_str(f, m->run[j]->release);
		fprintf(f, ", \"run_time_s\": %.1f, \"completed\": %s}",
			m->run[j]->wall_ms / 1000.0,
			m->run[j]->ended ? "true" : "false");
	}
	fprintf(f, "\n  },\n  \"boot_overrides\": [");
	each_override(m, f, override_json);
	fprintf(f, "\n  ],\n  \"scenarios\": [");
	for (i = 0; i < m->spec->n; i++) {
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, m->spec->row[i].name);
		fprintf(f, ", \"what\": ");
		json_str(f, m->spec->row[i].what);
		fprintf(f, ", \"cells\": {");
		for (j = 0, k = 0; j < MAX_MODES; j++) {
			if (!m->run[j])
				continue;
			show(m, i, j, &s);
			format_cell(&m->spec->row[i].cell[j], exp, sizeof(exp));
			fprintf(f, "%s\"%s\": {\"expected\": ", k++ ? ", " : "",
				all_modes[j]);
			json_str(f, exp);
			fprintf(f, ", \"observed\": \"%s\", \"result\": ",
				outcome_name(s.v.seen));
			json_str(f, s.text);
			fprintf(f, ", \"matches_spec\": %s, \"warning\": ",
				s.v.pass ? "true" : "false");
			json_str(f, s.warning);
			fprintf(f, ", \"raise_notice\": ");
			json_str(f, s.notice);
			fprintf(f, ", \"why\": ");
			json_str(f, s.v.why);
			fprintf(f, "}");
		}
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ]");
	if (m->tools[0])
		compat_json(m, f);
	fprintf(f, "\n}\n");
	return ferror(f) ? -1 : 0;
}

static int write_one(const struct matrix *m, const char *dir, const char *name,
		     int (*fn)(const struct matrix *, FILE *))
{
	char path[4096], tmp[4200];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	ret = fn(m, f);
	if (fclose(f) || ret)
		return -1;
	return rename(tmp, path);
}

int report_write(const struct matrix *m, const char *dir)
{
	if (m->spec && (write_one(m, dir, "matrix.md", report_markdown) ||
			write_one(m, dir, "matrix.html", report_html) ||
			write_one(m, dir, "matrix.json", report_json)))
		return -1;
	if (m->tools[0] && write_one(m, dir, "compat.md", report_compat))
		return -1;
	return 0;
}
