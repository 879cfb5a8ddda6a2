// SPDX-License-Identifier: GPL-2.0
/* The list of a run's verdicts (verdicts.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "verdicts.h"

static void add(struct verdicts *vs, bool pass, char *what, const char *def,
		const char *id)
{
	struct judged *v;

	if (vs->n == vs->cap) {
		vs->cap = vs->cap ? 2 * vs->cap : 64;
		vs->v = realloc(vs->v, vs->cap * sizeof(*vs->v));
		if (!vs->v) {
			perror("verdicts");
			exit(2);
		}
	}
	v = &vs->v[vs->n++];
	v->pass = pass;
	v->what = what;
	v->def = def;
	v->id = id ? strdup(id) : NULL;
	if (id && !v->id) {
		perror("verdicts");
		exit(2);
	}
	if (vs->print)
		tap(pass, "%s", what);
}

void verdict(struct verdicts *vs, bool pass, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (!what) {
		perror("verdicts");
		exit(2);
	}
	add(vs, pass, what, NULL, NULL);
}

void verdict_case(void *vs, const char *def, const char *id, bool pass,
		  const char *what)
{
	char *copy = strdup(what);

	if (!copy) {
		perror("verdicts");
		exit(2);
	}
	add(vs, pass, copy, def, id);
}

int verdicts_failed(const struct verdicts *vs)
{
	int i, n = 0;

	for (i = 0; i < vs->n; i++)
		n += !vs->v[i].pass;
	return n;
}

int verdicts_failed_checks(const struct verdicts *vs)
{
	int i, n = 0;

	for (i = 0; i < vs->n; i++)
		n += !vs->v[i].pass && !vs->v[i].def;
	return n;
}

void verdicts_show_failed(const struct verdicts *vs, const char *who)
{
	int i;

	for (i = 0; i < vs->n; i++)
		if (!vs->v[i].pass)
			printf("# %s: not ok - %s\n", who, vs->v[i].what);
}

int verdicts_end(struct verdicts *vs)
{
	int failed = verdicts_failed(vs);

	verdicts_free(vs);
	return failed;
}

int verdicts_tap_end(struct verdicts *vs)
{
	verdicts_free(vs);
	return tap_end();
}

void verdicts_free(struct verdicts *vs)
{
	int i;

	for (i = 0; i < vs->n; i++) {
		free(vs->v[i].what);
		free(vs->v[i].id);
	}
	free(vs->v);
	vs->v = NULL;
	vs->n = vs->cap = 0;
}
