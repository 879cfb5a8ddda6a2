// SPDX-License-Identifier: GPL-2.0
/*
 * The results of other runs, for cross, compat and mutate: each given by
 * path on the command line as NAME=PATH, NAME being the meson test that
 * wrote it (warn, warn-as-enforce, userspace-warn, upstream-warn).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "runner.h"

/* Say which results are missing, and how to make them; 1 if missing. */
static int missing(const char *name, const char *path, const char *suite)
{
	if (path)
		printf("# %s: no results in %s; run 'meson test --suite %s' first\n",
		       name, path, suite);
	else
		printf("# %s: no results file given (%s=PATH)\n", name, name);
	return 1;
}

/* The matrix runs of every phase into @runs and m->run; how many missing. */
int load_runs(const struct opts *o, struct run *runs, struct matrix *m)
{
	int j, n = 0;

	for (j = 0; j < MAX_MODES; j++) {
		const char *path = o->in.matrix[j];

		if (!path || run_load(path, &runs[j]) || !runs[j].n) {
			n += missing(all_modes[j], path, all_modes[j]);
			continue;
		}
		if (run_stale(all_modes[j], path, &runs[j])) {
			n++;
			continue;
		}
		m->run[j] = &runs[j];
	}
	return n;
}

/*
 * Every phase's matrix results, judged by @spec, for cross and mutate;
 * a verdict on @v if one is missing.
 */
bool load_matrix(struct verdicts *v, const struct opts *o,
		 const struct spec *spec, struct run *runs, struct matrix *m)
{
	m->spec = spec;
	if (load_runs(o, runs, m)) {
		verdict(v, false, "results of all %d variants are present", MAX_MODES);
		return false;
	}
	return true;
}

/*
 * The boot overrides' matrix runs that were given ("warn-as-enforce=PATH")
 * into @told and m->told; returns how many of those given are missing.
 */
int load_told_runs(const struct opts *o, struct run told[][MAX_MODES],
		   struct matrix *m)
{
	char name[64];
	int b, t, n = 0;

	for (b = 0; b < MAX_MODES; b++)
		for (t = 0; t < MAX_MODES; t++) {
			const char *path = o->in.told[b][t];

			if (!path)
				continue;
			snprintf(name, sizeof(name), "%s-as-%s", all_modes[b], all_modes[t]);
			if (run_load(path, &told[b][t]) || !told[b][t].n)
				n += missing(name, path, "override");
			else if (run_stale(name, path, &told[b][t]))
				n++;
			else
				m->told[b][t] = &told[b][t];
		}
	return n;
}

/*
 * The userspace suite's runs into @runs and m->tools (all or none);
 * returns how many are missing.
 */
int load_tool_runs(const struct opts *o, struct run *runs, struct matrix *m)
{
	char name[64];
	int j, n = 0;

	for (j = 0; j < MAX_MODES; j++) {
		const char *path = o->in.tools[j];

		snprintf(name, sizeof(name), "userspace-%s", all_modes[j]);
		if (!path || run_load(path, &runs[j]) || !runs[j].n_tools)
			n += missing(name, path, "userspace");
		else
			n += run_stale(name, path, &runs[j]);
	}
	for (j = 0; j < MAX_MODES && !n; j++)
		m->tools[j] = &runs[j];
	return n;
}

/* "BUILT-as-TOLD" into the two phases; -1 if it is not that. */
static int parse_override(const char *name, int *b, int *t)
{
	char built[32], told[32];
	int end = 0;

	if (sscanf(name, "%31[a-z]-as-%31[a-z]%n", built, told, &end) != 2 ||
	    name[end])
		return -1;
	*b = mode_index(built);
	*t = mode_index(told);
	return *b >= 0 && *t >= 0 && *b != *t ? 0 : -1;
}

/*
 * PHASE (into @one) or BUILT-as-TOLD (into @told) = @path; -1 if @name
 * is neither.
 */
static int put_run(const char *name, const char *path, const char **one,
		   const char *(*told)[MAX_MODES])
{
	int b, t;

	if ((b = mode_index(name)) >= 0)
		one[b] = path;
	else if (!parse_override(name, &b, &t))
		told[b][t] = path;
	else
		return -1;
	return 0;
}

/* NAME=PATH into @in; -1 if NAME names no run. */
int parse_input(const char *arg, struct inputs *in)
{
	const char *eq = strchr(arg, '=');
	char name[64];

	if (!eq || eq == arg || !eq[1] || eq - arg >= (int)sizeof(name))
		return -1;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	if (!strncmp(name, "userspace-", 10))
		return put_run(name + 10, eq + 1, in->tools, in->tools_told);
	if (!strncmp(name, "upstream-", 9) && mode_index(name + 9) >= 0) {
		in->upstream[mode_index(name + 9)] = eq + 1;
		return 0;
	}
	if (!strncmp(name, "sequences-", 10) && mode_index(name + 10) >= 0) {
		in->sequences[mode_index(name + 10)] = eq + 1;
		return 0;
	}
	if (!strncmp(name, "system-", 7) && mode_index(name + 7) >= 0) {
		in->system[mode_index(name + 7)] = eq + 1;
		return 0;
	}
	if (!strncmp(name, "other-sequences-", 16) &&
	    mode_index(name + 16) >= 0) {
		in->other_sequences[mode_index(name + 16)] = eq + 1;
		return 0;
	}
	return put_run(name, eq + 1, in->matrix, in->told);
}
