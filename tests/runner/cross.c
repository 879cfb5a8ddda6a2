// SPDX-License-Identifier: GPL-2.0
/*
 * runner cross: the rules across the phases, on the spec and on the
 * results (warn warns exactly where enforce refuses and legacy allows;
 * implicit allows what warn allows and adds what warn warned of), each
 * kernel booted as another phase against the kernel built as it (the pairs
 * of -Doverrides that meson gives), and the reports.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "tap.h"

/*
 * Warn must tell a distribution exactly what enforce will break: it warns
 * where enforce refuses and legacy allows, and is silent elsewhere, where
 * it must do what legacy does.
 */
static bool cross_ok(enum outcome l, enum outcome w, enum outcome e,
		     char *why, size_t len)
{
	if (l == WARNED)
		return snprintf(why, len, "legacy warned"), false;
	if (e == REFUSED && l == ALLOWED)
		return w == WARNED ? true :
			(snprintf(why, len, "enforce refuses and legacy allows, but warn %s",
				  outcome_name(w)), false);
	if (w != l)
		return snprintf(why, len, "warn %s where legacy %s and enforce %s",
				outcome_name(w), outcome_name(l),
				outcome_name(e)), false;
	return true;
}

/*
 * Rows the consistency rule of cross_ok() is not about: the sysctl, and
 * the rows of the run-time phase, whose columns differ by the raises.
 */
static bool phase_row(const struct spec_row *row, const struct run *runs)
{
	const struct result *r = run_find(&runs[0], row->name);
	int j;

	if (r && !strcmp(r->op, "sysctl"))
		return true;
	for (j = 0; j < MAX_MODES; j++)
		if (row->cell[j].n_raised || row->cell[j].unknown[0][0])
			return true;
	return false;
}

/*
 * A kernel built as @built and booted as @told must give what the kernel
 * built as @told gives, scenario by scenario: outcome and landed flags.
 */
static void cross_override(struct verdicts *v, const struct opts *o,
			   const struct spec *spec, const struct run *runs,
			   int built, int told, const struct run *ov)
{
	const char *path = o->in.told[built][told];
	int i, same = 0, shown = 0;

	if (!ov) {
		verdict(v, false, "%s kernel booted as %s: no results in %s (run 'meson test --suite override')",
			all_modes[built], all_modes[told], path ? path : "(none given)");
		return;
	}
	for (i = 0; i < spec->n; i++) {
		const char *name = spec->row[i].name;
		const struct result *a = run_find(&runs[told], name);
		const struct result *b = run_find(ov, name);
		const struct cell *c = &spec->row[i].cell[told];

		if (a && b && judge(c, a).seen == judge(c, b).seen &&
		    !strcmp(a->ret, b->ret) && a->flags == b->flags) {
			same++;
			continue;
		}
		if (shown++ < 10)
			printf("# %s as %s, %s: %s %s, %s kernel %s %s\n",
			       all_modes[built], all_modes[told], name,
			       b ? b->ret : "missing",
			       b ? outcome_name(judge(c, b).seen) : "",
			       all_modes[told], a ? a->ret : "missing",
			       a ? outcome_name(judge(c, a).seen) : "");
	}
	verdict(v, same == spec->n,
		"cross-variant: %s kernel booted as %s gives the %s kernel's outcome and flags in %d of %d scenarios",
		all_modes[built], all_modes[told], all_modes[told], same, spec->n);
}

/* What one variant did in a scenario, or what its cell says it does. */
struct obs {
	enum outcome outcome;
	int flags;
};

/*
 * Implicit allows exactly what warn allows, except a mount_setattr(2)
 * that clears a locked flag, which it refuses as enforce; and the flags
 * that land are those enforce requires: warn's plus the ones it warned of.
 */
static bool implicit_ok(struct obs w, struct obs i, int cleared, bool setattr,
			char *why, size_t len)
{
	bool refuse = w.outcome == REFUSED || (w.outcome == WARNED && setattr);

	if (refuse != (i.outcome == REFUSED) || i.outcome == WARNED)
		return snprintf(why, len, "implicit %s where warn %s%s",
				outcome_name(i.outcome), outcome_name(w.outcome),
				setattr ? " (mount_setattr)" : ""), false;
	if (!refuse && i.flags != (w.flags | cleared))
		return snprintf(why, len, "implicit landed flags %#x, want warn's %#x plus the cleared %#x",
				i.flags, w.flags, cleared), false;
	return true;
}

/* The cross-variant rules for one row: on the spec, then on the results. */
static void cross_row(struct verdicts *v, const struct spec_row *row,
		      const struct run *runs)
{
	const struct result *r[MAX_MODES];
	struct obs want[MAX_MODES], seen[MAX_MODES];
	int cleared = row->cell[PHASE_WARN].cleared, j;
	char why[256] = "";
	bool setattr;

	for (j = 0; j < MAX_MODES; j++) {
		r[j] = run_find(&runs[j], row->name);
		want[j] = (struct obs){ row->cell[j].outcome, row->cell[j].flags };
		seen[j] = (struct obs){ judge(&row->cell[j], r[j]).seen,
					r[j] ? r[j]->flags : -1 };
	}
	setattr = r[PHASE_WARN] && !strcmp(r[PHASE_WARN]->op, "setattr");
	if (!cross_ok(want[PHASE_LEGACY].outcome, want[PHASE_WARN].outcome,
		      want[PHASE_ENFORCE].outcome, why, sizeof(why)) ||
	    !implicit_ok(want[PHASE_WARN], want[PHASE_IMPLICIT], cleared,
			 setattr, why, sizeof(why))) {
		verdict(v, false, "spec row %s is consistent: %s", row->name, why);
		return;
	}
	verdict(v, cross_ok(seen[PHASE_LEGACY].outcome,
			    seen[PHASE_WARN].outcome,
			    seen[PHASE_ENFORCE].outcome, why, sizeof(why)) &&
		implicit_ok(seen[PHASE_WARN], seen[PHASE_IMPLICIT], cleared,
			    setattr, why, sizeof(why)),
		"cross-variant %s: legacy %s, warn %s, implicit %s, enforce %s%s%s",
		row->name, outcome_name(seen[PHASE_LEGACY].outcome),
		outcome_name(seen[PHASE_WARN].outcome),
		outcome_name(seen[PHASE_IMPLICIT].outcome),
		outcome_name(seen[PHASE_ENFORCE].outcome), why[0] ? ": " : "",
		why);
}

int cmd_cross(const struct opts *o)
{
	static struct run told[MAX_MODES][MAX_MODES];
	struct run runs[MAX_MODES], tools[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int i, j, overrides = 0;
	struct verdicts v = VERDICTS_TAP;

	if (!o->dir || !o->spec)
		usage();
	load_spec(o->spec, &spec);
	if (!load_matrix(&v, o, &spec, runs, &m))
		return verdicts_tap_end(&v);
	for (i = 0; i < spec.n; i++)
		if (!phase_row(&spec.row[i], runs))
			cross_row(&v, &spec.row[i], runs);
	/* The boot overrides, unless they are not run for this tree. */
	if (!o->no_overrides)
		load_told_runs(o, told, &m);
	for (i = 0; i < MAX_MODES && !o->no_overrides; i++)
		for (j = 0; j < MAX_MODES; j++)
			if (i != j && o->in.told[i][j]) {
				cross_override(&v, o, &spec, runs, i, j, m.told[i][j]);
				overrides++;
			}
	if (o->no_overrides)
		printf("# boot overrides not run for this tree (--no-overrides)\n");
	else
		verdict(&v, overrides > 0,
			"cross-variant: %d boot overrides given (BUILT-as-TOLD=FILE), each held to the kernel built as the phase it was told",
			overrides);
	/* With the real tools' table, when the userspace suite has run. */
	load_tool_runs(o, tools, &m);
	verdict(&v, !report_write(&m, o->dir),
		"reports written: %s/matrix.md, matrix.html, matrix.json", o->dir);
	for (j = 0; j < MAX_MODES; j++) {
		tap_figure("%s: guest ran %.1f s", all_modes[j],
			   runs[j].wall_ms / 1000.0);
		run_free(&runs[j]);
		run_free(&tools[j]);
		for (i = 0; i < MAX_MODES; i++)
			run_free(&told[j][i]);
	}
	return verdicts_tap_end(&v);
}
