/* SPDX-License-Identifier: GPL-2.0 */
#ifndef REPORT_H
#define REPORT_H

#include "spec.h"

/* The observations of all variants, as the reports show them. */
struct matrix {
	const struct spec *spec;
	const struct run *run[MAX_MODES];	/* NULL: variant not run */
};

int report_write(const struct matrix *m, const char *dir);
int report_markdown(const struct matrix *m, FILE *f);
int report_html(const struct matrix *m, FILE *f);
int report_json(const struct matrix *m, FILE *f);

#endif
