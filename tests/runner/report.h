/* SPDX-License-Identifier: GPL-2.0 */
#ifndef REPORT_H
#define REPORT_H

#include "../contract/spec.h"
#include "tool_spec.h"

/* The observations of all variants, as the reports show them. */
struct matrix {
	const struct spec *spec;		/* NULL: no matrix results */
	const struct run *run[MAX_MODES];	/* NULL: variant not run */
	/* [built][told]: a kernel booted as another phase; NULL: not run. */
	const struct run *told[MAX_MODES][MAX_MODES];
	/* The userspace suite's runs; NULL: not run (all or none). */
	const struct run *tools[MAX_MODES];
};

/* compat_report.c: the real tools (their verdicts: tool_spec.h) */
const struct tool_run *compat_tool_in(const struct matrix *m, int i, int mode);
bool compat_works_everywhere(const struct matrix *m, int i);
int compat_index(const struct matrix *m, const char *name);
const char *without_pid(const char *s, char *buf, size_t len);
const char *tool_call(const struct tool_run *t, char *buf, size_t len);
void compat_table_markdown(const struct matrix *m, FILE *f);
/* A markdown header: @lead's columns, one per phase, @trail's; its |---|. */
void md_phase_header(FILE *f, const char *lead, const char *trail);

/* matrix.{md,html,json} if m->spec, compat.md if m->tools. */
int report_write(const struct matrix *m, const char *dir);
int report_compat(const struct matrix *m, FILE *f);
int report_markdown(const struct matrix *m, FILE *f);
int report_html(const struct matrix *m, FILE *f);
int report_json(const struct matrix *m, FILE *f);

#endif
