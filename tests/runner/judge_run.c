// SPDX-License-Identifier: GPL-2.0
/*
 * Judge one run of the guest: its results file against the spec (the
 * scenarios), the model (exhaustive, stress) and the rules of each step,
 * and its console log (KUnit, splats).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "../contract/judge_cases.h"
#include "judge_docs.h"
#include "judge_fleet.h"
#include "model.h"
#include "runner.h"
#include "seq_check.h"
#include "../contract/steps.h"
#include "tap.h"
#include "tool_spec.h"

/* kselftest.h's KSFT_SKIP: the exit status of a test that skipped. */
#define KSFT_SKIP_STATUS 4

/*
 * The kselftest's own TAP, as the guest forwarded it; what it left in
 * /tmp; and the same test without root, which must skip as a whole.
 */
static void check_selftest(struct verdicts *v, const struct run *run)
{
	int cases = judge_selftest(run, verdict_case, v);

	verdict(v, cases > 0 && run->selftest_exit == 0,
		"kselftest proc_sysfs_mount_flags: %d cases, exit status %d",
		cases, run->selftest_exit);
	verdict(v, run->selftest_tmp_left == 0,
		"kselftest proc_sysfs_mount_flags: %d entries left in /tmp, want 0",
		run->selftest_tmp_left);
	/* kselftest.h's ksft_exit_skip() before any case: "1..0 # SKIP" */
	verdict(v, run->selftest_unpriv_exit == KSFT_SKIP_STATUS &&
		!strncmp(run->selftest_unpriv, "1..0 # SKIP", 11),
		"kselftest proc_sysfs_mount_flags without root: skipped as a whole (exit status %d, want %d; \"%.60s\")",
		run->selftest_unpriv_exit, KSFT_SKIP_STATUS, run->selftest_unpriv);
}

/*
 * Runs of many operations: the warning lines are sampled by the rate
 * limits.  Warn must log some and no more than the ceiling over all user
 * namespaces allows in the time the run took; the other phases must log
 * none.
 */
static void check_sampled_warnings(struct verdicts *v, const char *what,
				   int mode, int lines, long ms)
{
	int most = RATELIMIT_CEILING * (1 + (ms > 0 ? ms : 0) / RATELIMIT_MS);

	if (mode == PHASE_WARN)
		verdict(v, lines >= 1 && lines <= most,
			"%s warn: %d warning lines in %.1f s, within 1 to %d (%d per %d s)",
			what, lines, ms / 1000.0, most, RATELIMIT_CEILING,
			RATELIMIT_MS / 1000);
	else
		verdict(v, lines == 0, "%s %s: %d warning lines, want none", what,
			all_modes[mode], lines);
}

/*
 * The exhaustive run against the reference model: every combination must
 * have run, and each must agree on the errno and the flags that landed.
 */
static void check_exhaustive(struct verdicts *v, const struct run *run,
			     int mode)
{
	const int want = 2 * 16 * 16 * MOP_COUNT;
	char got[64], exp[64];
	int i, agree = 0, shown = 0;

	for (i = 0; i < run->n_x; i++) {
		const struct xcase *c = &run->x[i];
		int op = model_op_index(c->op);
		struct model_out m;
		bool ok;

		if (op < 0) {
			printf("# exhaustive: unknown operation %s\n", c->op);
			continue;
		}
		m = model(mode, c->visible, c->requested, op,
			  !strcmp(c->fs, "sysfs"));
		ok = m.err ? !strcmp(c->ret, m.err) :
			     !strcmp(c->ret, "0") && c->flags == m.landed;
		if (ok) {
			agree++;
			continue;
		}
		if (shown++ < 10) {
			format_flags(c->visible, got, sizeof(got));
			format_flags(c->requested, exp, sizeof(exp));
			printf("# disagreement: %s %s, visible %s, requested %s: ",
			       c->fs, c->op, got, exp);
			format_flags(c->flags < 0 ? 0 : c->flags, got, sizeof(got));
			format_flags(m.landed, exp, sizeof(exp));
			printf("kernel %s %s, model %s %s\n", c->ret,
			       strcmp(c->ret, "0") ? "" : got,
			       m.err ? m.err : "0", m.err ? "" : exp);
		}
	}
	tap_figure("exhaustive %s: %d cases, %d agreements, %d disagreements, %.1f s",
		   all_modes[mode], run->n_x, agree, run->n_x - agree,
		   run->x_ms / 1000.0);
	verdict(v, run->x_ms >= 0 && run->n_x == want,
		"exhaustive %s: all %d combinations ran (%d)", all_modes[mode],
		want, run->n_x);
	verdict(v, run->n_x && agree == run->n_x,
		"exhaustive %s: %d cases, %d agreements, %d disagreements with the model",
		all_modes[mode], run->n_x, agree, run->n_x - agree);
	check_sampled_warnings(v, "exhaustive", mode, run->x_warnings, run->x_ms);
}

/* The stress run: every outcome against the model, and the throughput. */
/*
 * Under fault injection an operation may fail for want of memory: then it
 * must have left nothing mounted, or (a change) the mount as set up.
 */
static bool injected_failure(const struct scase *c, int op, int visible)
{
	bool change = op == MOP_REMOUNT || op == MOP_BIND_REMOUNT ||
		      op == MOP_SETATTR;

	return !strcmp(c->ret, "ENOMEM") &&
	       (c->flags == -1 || (change && c->flags == visible));
}

static void check_stress(struct verdicts *v, const struct run *run, int mode,
			 bool faults)
{
	const int visible = F_NOSUID | F_NODEV | F_NOEXEC;
	long agree = 0, total = 0, injected = 0;
	int i, shown = 0;

	for (i = 0; i < run->n_s; i++) {
		const struct scase *c = &run->s[i];
		int op = model_op_index(c->op);
		struct model_out m;
		bool ok = false;

		if (op >= 0) {
			m = model(mode, visible, c->requested, op,
				  !strcmp(c->fs, "sysfs"));
			ok = m.err ? !strcmp(c->ret, m.err) :
				     !strcmp(c->ret, "0") && c->flags == m.landed;
			if (!ok && faults && injected_failure(c, op, visible)) {
				ok = true;
				injected += c->n;
			}
		}
		total += c->n;
		if (ok) {
			agree += c->n;
		} else if (shown++ < 10) {
			char req[64];

			format_flags(c->requested, req, sizeof(req));
			printf("# disagreement: %s %s requesting %s: kernel %s, %ld times\n",
			       c->fs, c->op, req, c->ret, c->n);
		}
	}
	tap_figure("stress %s: %ld operations in %.1f s, %.0f ops/s, %ld disagreements",
		   all_modes[mode], total, run->s_ms / 1000.0,
		   run->s_ms > 0 ? total * 1000.0 / run->s_ms : 0.0, total - agree);
	verdict(v, run->s_ms >= 0 && !run->s_failed && total > 0 && total == run->s_ops,
		"stress %s: every worker finished and reported (%ld operations)",
		all_modes[mode], total);
	verdict(v, total > 0 && agree == total,
		"stress %s: %ld operations, %ld disagreements with the model, %.0f ops/s",
		all_modes[mode], total, total - agree,
		run->s_ms > 0 ? total * 1000.0 / run->s_ms : 0.0);
	if (faults) {
		verdict(v, injected > 0,
			"stress %s: %ld operations failed by injected failures, each with ENOMEM and nothing changed",
			all_modes[mode], injected);
		tap_figure("stress %s: %ld operations failed by injection",
			   all_modes[mode], injected);
	}
	check_sampled_warnings(v, "stress", mode, run->s_warnings, run->s_ms);
}

/* The mount-path benchmark: report, the ratios are for the caller. */
static void check_bench(struct verdicts *v, const struct run *run, int mode)
{
	int i;

	for (i = 0; i < run->n_bench; i++)
		printf("# bench %s %s: %.1f mount+umount/s (%ld in %ld ms)\n",
		       all_modes[mode], run->bench[i].label,
		       run->bench[i].ms > 0 ?
		       run->bench[i].ops * 1000.0 / run->bench[i].ms : 0.0,
		       run->bench[i].ops, run->bench[i].ms);
	verdict(v, run->n_bench == 2, "bench %s: both measurements ran",
		all_modes[mode]);
}

/*
 * The real tools of the userspace step (@suite "userspace") or of a
 * Debian system ("system"): each tool must have run (not: missing, not
 * startable, hung), and give the verdict @tools_md wants of it in this
 * phase and Debian @release (NULL: the userspace suite's, the build
 * host's Debian 12); under legacy, the kernel as Debian ships it, every tool must
 * work: there a failure is the guest's environment, not the phase.
 */
void judge_tools(struct verdicts *v, const struct run *run, int mode,
		 const char *tools_md, const char *release, const char *suite)
{
	struct tool_spec ts;
	char why[512];
	int i, j, ran = 0;

	if (!tools_md || tool_spec_load(tools_md, release, &ts, why, sizeof(why))) {
		verdict(v, false, "%s %s: the expected verdicts: %s", suite, all_modes[mode],
			tools_md ? why : "no --tools table given");
		return;
	}
	for (i = 0; i < run->n_tools; i++) {
		const struct tool_run *t = &run->tools[i];

		printf("# %s %s (%s): %s, exit %d, %ld ms\n", all_modes[mode],
		       t->name, t->version, tool_verdict(t), t->exit, t->ms);
		for (j = 0; j < t->n_lines; j++)
			printf("#   kernel: %s\n", t->lines[j]);
		for (j = 0; j < t->n_out; j++)
			printf("#   output: %s\n", t->out[j]);
		/* A row skipped is judged by its cell alone, which must say so. */
		if (t->skipped[0])
			printf("# %s: skipped: %s\n", t->name, t->skipped);
		else
			verdict(v, t->exit >= 0 && t->exit != 126 && t->exit != 127,
				"%s %s %s ran: %s (exit %d)", suite, all_modes[mode],
				t->name, tool_verdict(t), t->exit);
		verdict(v, tool_judge(&ts, t, mode, why, sizeof(why)), "%s %s", suite, why);
		if (mode == PHASE_LEGACY && !t->skipped[0])
			verdict(v, !strcmp(tool_verdict(t), "works"),
				"%s legacy %s works, as on the kernel Debian ships",
				suite, t->name);
	}
	for (i = 0; i < ts.n; i++)
		if (run_find_tool(run, ts.row[i].name))
			ran++;
		else
			printf("# %s: a row of %s that did not run\n", ts.row[i].name, tools_md);
	verdict(v, run->n_tools > 0 && ran == ts.n,
		"%s %s: %d tools ran, %d of the %d rows of %s",
		suite, all_modes[mode], run->n_tools, ran, ts.n, tools_md);
}

/* @row's line of a table, its cell under @mode replaced by @verdict, into @out. */
static bool break_cell(const char *line, const char *row, int mode,
		       const char *verdict, FILE *out)
{
	char copy[2048], *cells[2 + MAX_MODES + 1];
	int n, i;

	snprintf(copy, sizeof(copy), "%s", line);
	n = split_row(copy, cells, 2 + MAX_MODES + 1);
	if (n != 2 + MAX_MODES || strcmp(cells[0], row))
		return false;
	fprintf(out, "|");
	for (i = 0; i < n; i++)
		fprintf(out, " %s |", i == 1 + mode ? verdict : cells[i]);
	fprintf(out, "\n");
	return true;
}

/* judge_tools() by @tools_md, as data only: how many checks failed. */
static int judge_tools_failed(const struct run *run, int mode,
			      const char *tools_md, const char *release)
{
	struct verdicts v = VERDICTS_QUIET;

	judge_tools(&v, run, mode, tools_md, release, "broken");
	return verdicts_end(&v);
}

int judge_tools_broken(const struct run *run, int mode, const char *tools_md,
		       const char *release, const char *row, const char *verdict)
{
	char line[2048], tmp[] = "/tmp/psmf-broken-XXXXXX";
	int fd, failed = -1;
	FILE *in, *out;
	bool done = false;

	if (!row)		/* the table as it is */
		return judge_tools_failed(run, mode, tools_md, release);
	fd = mkstemp(tmp);
	in = fopen(tools_md, "r");
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	while (in && out && fgets(line, sizeof(line), in))
		if (done || !break_cell(line, row, mode, verdict, out))
			fputs(line, out);
		else
			done = true;
	if (out && !fclose(out) && done)
		failed = judge_tools_failed(run, mode, tmp, release);
	else if (!out && fd >= 0)
		close(fd);
	if (in)
		fclose(in);
	if (fd >= 0)
		unlink(tmp);
	return failed;
}

/*
 * The kernel's own selftests: every program found ran to its end with
 * exit 0, and each case of those that speak TAP passed.
 */
static void check_upstream(struct verdicts *v, const struct run *run, int mode)
{
	char prefix[80];
	int i, j;

	verdict(v, run->upstream_count > 0 && run->n_upstream == run->upstream_count,
		"upstream %s: %d programs found in /upstream, %d ran",
		all_modes[mode], run->upstream_count, run->n_upstream);
	for (i = 0; i < run->n_upstream; i++) {
		const struct upstream_run *u = &run->upstream[i];

		snprintf(prefix, sizeof(prefix), "%s:", u->name);
		judge_tap(u->out, u->n_out, DEF_UPSTREAM, prefix, verdict_case, v);
		for (j = u->exit ? 0 : u->n_out; j < u->n_out; j++)
			printf("#   %s: %s\n", u->name, u->out[j]);
		verdict(v, u->exit == 0, "upstream %s %s: exit %d in %.1f s%s",
			all_modes[mode], u->name, u->exit, u->ms / 1000.0,
			u->exit == -1 ? " (killed at the time limit)" : "");
	}
}

/*
 * The debug variants under fault injection (PSMF_FAULTS): set up, failures
 * injected, and no leak in the whole run.  The steps check that each
 * failure changed nothing.
 */
static void check_faults(struct verdicts *v, const char *results,
			 const struct run *run, bool faults)
{
	char line[512];
	FILE *f;

	if (!faults) {
		verdict(v, !run->faults, "no fault injection asked, none set up");
		return;
	}
	verdict(v, run->faults && !run->fault_errors,
		"fault injection set up (failslab, fail_page_alloc, kmemleak; %d errors)",
		run->fault_errors);
	verdict(v, run->slab_hits + run->page_hits > 0,
		"fault injection: %ld slab and %ld page allocation failures injected",
		run->slab_hits, run->page_hits);
	f = fopen(results, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "kmemleak-line ", 14) ||
		    !strncmp(line, "faults error ", 13))
			printf("# %s", line);
	if (f)
		fclose(f);
	verdict(v, run->leaks == 0, "kmemleak: %d unreferenced objects after the run",
		run->leaks);
	tap_figure("faults: %ld slab and %ld page allocation failures injected, kmemleak %d objects",
		   run->slab_hits, run->page_hits, run->leaks);
}

/*
 * The sequences: as many operations as asked, each checked on the model
 * with no disagreement; every disagreement shown with its reproducer.
 */
static void check_sequences(struct verdicts *v, const struct opts *o,
			    const char *results, int mode, long want)
{
	struct seq_tally t;
	int i;

	if (seq_check_file(results, mode, SEQ_TRUE, &t, NULL, NULL))
		memset(&t, 0, sizeof(t));
	verdict(v, t.ended && t.seqs == t.end_seqs && t.records == t.end_ops &&
		t.records >= want,
		"sequences %s: the guest ran %d sequences of %ld operations (seed %lu, at least %ld asked), the host read %d and %ld",
		all_modes[mode], t.end_seqs, t.end_ops, t.seed, want, t.seqs,
		t.records);
	verdict(v, t.seqs > 0 && !t.bad_exits,
		"sequences %s: every sequence's process exited 0 (%d did not)",
		all_modes[mode], t.bad_exits);
	for (i = 0; i < t.n_kept; i++)
		seq_print_failure(&t.kept[i], all_modes[mode]);
	verdict(v, t.ops > 0 && !t.disagreements,
		"sequences %s: %ld operations checked on the model, %d disagreements, %.0f operations/s; %ld left the model more than one tree (at most %d); %d sequences over a second host proc left to the relations",
		all_modes[mode], t.ops, t.disagreements,
		t.ms ? t.records * 1000.0 / t.ms : 0.0, t.open_ops, t.max_trees,
		t.unmodelled);
	tap_figure("sequences %s: %d sequences, %ld operations, %ld checked on the model, %d disagreements, %.0f operations/s",
		   all_modes[mode], t.seqs, t.records, t.ops, t.disagreements,
		   t.ms ? t.records * 1000.0 / t.ms : 0.0);
	/*
	 * Shrink the first, unless the run injected faults (not replayed);
	 * and only for a list printed as it comes: the shrinker prints its
	 * reproducer as it finds it, which a data-only list would lose.
	 */
	if (v->print && t.n_kept && !o->faults && o->kernel && o->initrd &&
	    o->dir)
		seq_shrink(v, o, mode, SEQ_TRUE, &t.kept[0]);
	if (o->faults) {
		verdict(v, t.injected > 0,
			"sequences %s: %ld operations failed by injected failures, each with ENOMEM and no mount's flags changed",
			all_modes[mode], t.injected);
		tap_figure("sequences %s: %ld operations failed by injection",
			   all_modes[mode], t.injected);
	}
}

/*
 * The scenarios against the spec.  With @skip_alone (--no-alone) those the
 * guest announced as needing a boot of their own are left out, and said so.
 */
static void check_scenarios(struct verdicts *v, const struct spec *spec,
			    const struct run *run, int mode, const char *only,
			    bool skip_alone)
{
	int i;

	judge_scenarios(spec, run, mode, only, skip_alone, verdict_case, v);
	if (skip_alone && run->n_alone)
		printf("# %d scenarios that need a boot of their own left out (--no-alone)\n",
		       run->n_alone);
	for (i = 0; i < run->n; i++)
		if (!spec_find(spec, run->res[i].name))
			verdict(v, false, "%s: the guest ran it, but tests/spec.md has no row for it",
				run->res[i].name);
}

/* What a step's check needs of the variant being judged. */
struct judging {
	struct verdicts *v;
	const struct opts *o;
	const struct spec *spec;
	const struct run *run;
	int mode;
	const char *results;
};

static void judge_step_matrix(const struct judging *j)
{
	check_scenarios(j->v, j->spec, j->run, j->mode, j->o->scenario,
			j->o->no_alone);
}

static void judge_step_exhaustive(const struct judging *j)
{
	check_exhaustive(j->v, j->run, j->mode);
}

static void judge_step_stress(const struct judging *j)
{
	check_stress(j->v, j->run, j->mode, j->o->faults);
}

static void judge_step_sequences(const struct judging *j)
{
	check_sequences(j->v, j->o, j->results, j->mode,
			j->o->seq_ops ? j->o->seq_ops : SEQ_OPS_DEFAULT);
}

static void judge_step_bench(const struct judging *j)
{
	check_bench(j->v, j->run, j->mode);
}

static void judge_step_userspace(const struct judging *j)
{
	judge_tools(j->v, j->run, j->mode, j->o->tools, NULL, "userspace");
}

static void judge_step_upstream(const struct judging *j)
{
	check_upstream(j->v, j->run, j->mode);
}

static void judge_step_fleet(const struct judging *j)
{
	judge_fleet(j->v, j->spec, j->run, j->mode);
}

static void judge_step_docs(const struct judging *j)
{
	judge_docs(j->v, j->run, j->mode);
}

static void judge_step_selftest(const struct judging *j)
{
	check_selftest(j->v, j->run);
}

#define HOST_STEP(name, kinds) { #name, judge_step_##name },
/* The steps of tests/contract/steps.h, each with its check. */
static const struct {
	const char *name;
	void (*judge)(const struct judging *j);
} steps[] = { PSMF_STEPS(HOST_STEP) };
#undef HOST_STEP

/*
 * The records against the step table (tests/contract/steps.h): each is the
 * boot's own or one of a step the boot ran, and each step it ran wrote a
 * record of its kinds.
 */
static void check_step_records(struct verdicts *v, const char *results,
			       const char *list)
{
	struct lines rec;
	char stray[72] = "";
	int i, n_stray = 0;
	size_t s;

	lines_load(results, &rec);
	for (i = 0; i < rec.n; i++)
		if (!step_record_ok(list, rec.l[i]) && !n_stray++)
			snprintf(stray, sizeof(stray), ": not '%.60s'", rec.l[i]);
	verdict(v, !n_stray,
		"every record is the boot's own or of a step it ran (%s): %d are not%s",
		list, n_stray, stray);
	for (s = 0; s < sizeof(steps) / sizeof(*steps); s++) {
		if (!step_wanted(list, steps[s].name))
			continue;
		for (i = 0; i < rec.n && !step_record_of(steps[s].name, rec.l[i]); i++)
			;
		verdict(v, i < rec.n, "step %s wrote a record of its kinds",
			steps[s].name);
	}
	lines_free(&rec);
}

/* Judge a variant's results and console: the body of boot and check. */
void judge_variant(struct verdicts *v, const struct opts *o,
		   const struct spec *spec, int mode, const char *results,
		   const char *console)
{
	struct lines con;
	struct run run;
	struct judging j = {
		.v = v, .o = o, .spec = spec, .run = &run, .mode = mode,
		.results = results,
	};
	size_t i;

	lines_load(console, &con);
	if (run_load(results, &run))
		printf("# %s: no results file\n", results);
	verdict(v, run.ended, "%s guest ran to its end (%s)", all_modes[mode], run.end);
	if (!run.ended) {
		tail_console(&con, 40);
		if (run.last_begun[0] && !run_find(&run, run.last_begun))
			printf("# the guest was in scenario %s\n", run.last_begun);
	}
	if (o->no_kunit) {
		check_no_kunit(v, &con, "proc_sysfs_mount_flags");
	} else {
		check_kunit(v, &con, "proc_sysfs_mount_flags");
		check_kunit_cases(v, &con, "proc_sysfs_mount_flags");
	}
	check_splats(v, &con, "the boot log");
	check_step_records(v, results, o->steps);
	for (i = 0; i < sizeof(steps) / sizeof(*steps); i++)
		if (step_wanted(o->steps, steps[i].name))
			steps[i].judge(&j);
	check_faults(v, results, &run, o->faults);
	run_free(&run);
	lines_free(&con);
}
