/* SPDX-License-Identifier: GPL-2.0 */
/* The guest's console log: KUnit's KTAP and kernel splats. */
#ifndef CONSOLE_H
#define CONSOLE_H

#include "verdicts.h"

/* The console log, lines without printk's "[    1.234567] " prefix. */
struct lines {
	int n;
	char **l;
};

void lines_load(const char *path, struct lines *ls);
void lines_free(struct lines *ls);
void tail_console(const struct lines *ls, int n);
/* The checks of a console log, each a verdict on @v. */
void check_kunit(struct verdicts *v, const struct lines *ls, const char *suite);
void check_kunit_cases(struct verdicts *v, const struct lines *ls,
		       const char *suite);
void check_no_kunit(struct verdicts *v, const struct lines *ls,
		    const char *suite);
void check_splats(struct verdicts *v, const struct lines *ls, const char *where);
void check_splats_in(struct verdicts *v, const char *console, const char *where);

#endif
