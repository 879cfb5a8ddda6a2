// SPDX-License-Identifier: GPL-2.0
/* The guest's console log: KUnit's KTAP and kernel splats, as verdicts. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "../contract/judge_cases.h"
#include "../contract/spec.h"

void lines_load(const char *path, struct lines *ls)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");

	ls->n = 0;
	ls->l = NULL;
	if (!f)
		return;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *p = line;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (p[0] == '[' && strchr(p, ']')) {
			p = strchr(p, ']') + 1;
			if (*p == ' ')
				p++;
		}
		ls->l = realloc(ls->l, sizeof(char *) * (ls->n + 1));
		ls->l[ls->n++] = strdup(p);
	}
	free(line);
	fclose(f);
}

void tail_console(const struct lines *ls, int n)
{
	int i;

	printf("# last %d console lines:\n", n);
	for (i = ls->n > n ? ls->n - n : 0; i < ls->n; i++)
		printf("#   %s\n", ls->l[i]);
}

/* KUnit's KTAP from the boot log: the suite's top-level result. */
void check_kunit(struct verdicts *v, const struct lines *ls, const char *suite)
{
	char name[128];
	bool seen = false;
	int i, num;

	for (i = 0; i < ls->n; i++) {
		const char *p = ls->l[i];
		int indent = strspn(p, " ");
		bool ok = !strncmp(p + indent, "ok ", 3);

		if (!ok && strncmp(p + indent, "not ok ", 7))
			continue;
		if (sscanf(p + indent + (ok ? 3 : 7), "%d %127s", &num, name) != 2)
			continue;
		if (indent == 0 && !strcmp(name, suite)) {
			seen = true;
			verdict(v, ok, "kunit %s", suite);
		}
	}
	if (!seen)
		verdict(v, false, "kunit %s: no KTAP result for the suite in the boot log (is CONFIG_PROC_SYSFS_MOUNT_FLAGS_KUNIT_TEST=y?)",
			suite);
}

/* A kernel built without KUnit: no line of the suite's KTAP. */
void check_no_kunit(struct verdicts *v, const struct lines *ls,
		    const char *suite)
{
	char subtest[160];
	int i, seen = 0;

	snprintf(subtest, sizeof(subtest), "# Subtest: %s", suite);
	for (i = 0; i < ls->n; i++)
		seen += strstr(ls->l[i], subtest) != NULL;
	verdict(v, !seen, "kunit %s: none, as the kernel is built without KUnit (%d KTAP lines of the suite)",
		suite, seen);
}

/* Cases of our suite, "ok N name" at indent 4 under "# Subtest: suite". */
void check_kunit_cases(struct verdicts *v, const struct lines *ls,
		       const char *suite)
{
	char want[160], name[128], what[300];
	bool inside = false;
	int i, num;

	snprintf(want, sizeof(want), "    # Subtest: %s", suite);
	for (i = 0; i < ls->n; i++) {
		const char *p = ls->l[i];
		bool ok;

		if (!strcmp(p, want) || !strncmp(p, want + 4, strlen(want + 4))) {
			inside = true;
			continue;
		}
		if (!inside)
			continue;
		if (p[0] != ' ')
			break;	/* back at the top level: the suite is over */
		if (strncmp(p, "    ok ", 7) && strncmp(p, "    not ok ", 11))
			continue;
		ok = !strncmp(p, "    ok ", 7);
		if (sscanf(p + (ok ? 7 : 11), "%d %127s", &num, name) != 2)
			continue;
		snprintf(what, sizeof(what), "kunit %s.%s", suite, name);
		verdict_case(v, DEF_KUNIT, name, ok, what);
	}
}

void check_splats(struct verdicts *v, const struct lines *ls, const char *where)
{
	int i, splats = 0;

	for (i = 0; i < ls->n; i++)
		if (is_splat(ls->l[i])) {
			if (!splats++)
				printf("# kernel splat: %s\n", ls->l[i]);
		}
	verdict(v, !splats, "no kernel splat (WARNING, BUG, Oops, lockdep, ...) in %s%s",
		where, splats ? ": see the console log" : "");
}

void check_splats_in(struct verdicts *v, const char *console, const char *where)
{
	struct lines con;

	lines_load(console, &con);
	check_splats(v, &con, where);
	lines_free(&con);
}

void lines_free(struct lines *ls)
{
	while (ls->n)
		free(ls->l[--ls->n]);
	free(ls->l);
	ls->l = NULL;
}
