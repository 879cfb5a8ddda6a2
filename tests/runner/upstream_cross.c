// SPDX-License-Identifier: GPL-2.0
/*
 * runner upstream: the kernel's own selftests of the mount code must give
 * in every phase exactly what they give under legacy, which is Linux 6.1
 * as Debian ships it: the series may change what a user namespace may do
 * with proc and sysfs, and nothing those tests cover.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "../contract/judge_cases.h"
#include "runner.h"
#include "tap.h"

#define MAX_UCASES 512

/* The outcome of every program and case of one run, in order. */
struct outcomes {
	int n;
	char id[MAX_UCASES][160];
	bool pass[MAX_UCASES];
};

static void collect(void *ctx, const char *def, const char *id, bool pass,
		    const char *what)
{
	struct outcomes *o = ctx;

	(void)def;
	(void)what;
	if (o->n == MAX_UCASES)
		return;
	snprintf(o->id[o->n], sizeof(o->id[0]), "%s", id);
	o->pass[o->n++] = pass;
}

static void outcomes_of(const struct run *run, struct outcomes *o)
{
	char prefix[80];
	int i;

	o->n = 0;
	for (i = 0; i < run->n_upstream; i++) {
		const struct upstream_run *u = &run->upstream[i];

		snprintf(prefix, sizeof(prefix), "%s:", u->name);
		judge_tap(u->out, u->n_out, DEF_UPSTREAM, prefix, collect, o);
		collect(o, DEF_UPSTREAM, u->name, u->exit == 0, NULL);
	}
}

/* How many of @a's outcomes @b lacks or gives otherwise; shows a few. */
static int differences(const struct outcomes *a, const struct outcomes *b,
		       const char *phase)
{
	int i, j, n = 0;

	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n && strcmp(a->id[i], b->id[j]); j++)
			;
		if (j < b->n && a->pass[i] == b->pass[j])
			continue;
		if (n++ < 10)
			printf("# %s: %s: legacy %s, %s %s\n", phase, a->id[i],
			       a->pass[i] ? "pass" : "fail", phase,
			       j == b->n ? "nothing" : b->pass[j] ? "pass" : "fail");
	}
	return n + (a->n != b->n);
}

int cmd_upstream(const struct opts *o)
{
	static struct outcomes legacy, other;
	static struct run runs[MAX_MODES];
	char name[64];
	int j, diff;
	struct verdicts v = VERDICTS_TAP;

	for (j = 0; j < MAX_MODES; j++) {
		snprintf(name, sizeof(name), "upstream-%s", all_modes[j]);
		if (!o->in.upstream[j] || run_load(o->in.upstream[j], &runs[j]) ||
		    runs[j].n_upstream == 0) {
			printf("# %s: no results (run 'meson test --suite upstream' first)\n",
			       name);
			verdict(&v, false, "upstream: results of all %d variants are present",
				MAX_MODES);
			return verdicts_tap_end(&v);
		}
		if (run_stale(name, o->in.upstream[j], &runs[j])) {
			verdict(&v, false,
				"upstream: the results of all %d variants belong to this build",
				MAX_MODES);
			return verdicts_tap_end(&v);
		}
	}
	outcomes_of(&runs[PHASE_LEGACY], &legacy);
	for (j = 0; j < MAX_MODES; j++) {
		if (j == PHASE_LEGACY)
			continue;
		outcomes_of(&runs[j], &other);
		diff = differences(&legacy, &other, all_modes[j]);
		verdict(&v, legacy.n > 0 && !diff,
			"upstream %s gives legacy's results: %d programs and cases, %d differ",
			all_modes[j], legacy.n, diff);
	}
	for (j = 0; j < MAX_MODES; j++)
		run_free(&runs[j]);
	return verdicts_tap_end(&v);
}
