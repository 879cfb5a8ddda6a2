// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the host side's pure pieces: the spec's cell grammar, the
 * judge, the splat detector and the reference model.  Each case feeds a
 * known-bad input too, so that a checker that passes everything fails here.
 * TAP on stdout.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "../contract/judge_cases.h"
#include "lava.h"
#include "model.h"
#include "scenario_table.h"
#include "seq_model.h"
#include "seq_spec.h"
#include "report.h"
#include "../contract/spec.h"
#include "../contract/steps.h"
#include "tap.h"
#include "unit_docs.h"
#include "unit_tools.h"
#include "unit_fleet.h"
#include "unit_relations.h"
#include "unit_report.h"
#include "unit_walk.h"
#include "verdicts.h"

static struct result result(const char *ret, int flags, const char *line)
{
	struct result r = { .flags = flags, .pid = 42, .userns = 4026532290,
			    .ok = 1, .tries = 1 };

	strcpy(r.name, "t");
	strcpy(r.op, "mount");
	strcpy(r.fs, "proc");
	strcpy(r.comm, "mnt-scenario");
	strcpy(r.ret, ret);
	if (strcmp(ret, "0"))
		r.ok = 0;
	if (line) {
		r.lines[0] = (char *)line;
		r.n_lines = 1;
	}
	return r;
}

static void test_cells(void)
{
	struct cell c;
	char buf[128];

	tap(!parse_cell("ok nosuid,nodev", &c) && c.outcome == ALLOWED &&
	   c.flags == (F_NOSUID | F_NODEV), "cell 'ok nosuid,nodev'");
	tap(!parse_cell("warn nosuid -", &c) && c.outcome == WARNED &&
	   c.cleared == F_NOSUID && c.flags == 0, "cell 'warn nosuid -'");
	tap(!parse_cell("EPERM", &c) && c.outcome == REFUSED &&
	   !strcmp(c.err, "EPERM"), "cell 'EPERM'");
	tap(parse_cell("ok nosetuid", &c), "cell with an unknown flag is rejected");
	tap(parse_cell("warn - nosuid", &c), "warn cell that clears nothing is rejected");
	tap(parse_cell("allowed", &c), "cell without grammar is rejected");
	parse_cell("warn nodev,noexec ro,nosuid", &c);
	format_cell(&c, buf, sizeof(buf));
	tap(!strcmp(buf, "warn nodev,noexec ro,nosuid"), "cell round trip: %s", buf);
}

/* The run-time phase's lines at the end of a cell. */
static void test_phase_cells(void)
{
	struct cell c;
	char buf[128];

	tap(!parse_cell("EPERM raised:legacy>warn,warn>enforce", &c) &&
	    c.outcome == REFUSED && c.n_raised == 2 &&
	    !strcmp(c.raised[1][0], "warn") && !strcmp(c.raised[1][1], "enforce"),
	    "cell 'EPERM raised:legacy>warn,warn>enforce'");
	tap(!parse_cell("warn nosuid,nodev,noexec - unknown:bogus>warn", &c) &&
	    c.outcome == WARNED && !strcmp(c.unknown[0], "bogus") &&
	    !strcmp(c.unknown[1], "warn"), "cell with unknown:bogus>warn");
	tap(parse_cell("EPERM raised:legacy>strict", &c),
	    "a raise to no phase is rejected");
	tap(parse_cell("EPERM raised:legacy", &c), "a raise without '>' is rejected");
	tap(parse_cell("EPERM raised:a>warn,b>warn,c>warn", &c) ||
	    parse_cell("EPERM raised:legacy>warn,warn>enforce,enforce>enforce", &c),
	    "more raises than a cell holds are rejected");
	tap(parse_cell("EPERM sideways:legacy>warn", &c),
	    "an unknown trailing word is rejected");
	parse_cell("ok - raised:legacy>warn unknown:x>warn", &c);
	format_cell(&c, buf, sizeof(buf));
	tap(!strcmp(buf, "ok - raised:legacy>warn unknown:x>warn"),
	    "phase cell round trip: %s", buf);
}

static void test_judge_phase(void)
{
	const char *notice =
		"VFS: process 'mnt-raise' (pid 7) raised the proc and sysfs mount flags phase from legacy to enforce";
	struct result r;
	struct cell c;

	parse_cell("EPERM raised:legacy>enforce", &c);
	r = result("EPERM", -1, notice);
	r.raiser = 7;
	tap(judge(&c, &r).pass, "judge: the raise's notice passes");
	r = result("EPERM", -1, NULL);
	r.raiser = 7;
	tap(!judge(&c, &r).pass, "judge: a missing notice fails");
	r = result("EPERM", -1, notice);
	r.raiser = 8;
	tap(!judge(&c, &r).pass, "judge: a notice from another process fails");
	parse_cell("EPERM", &c);
	r = result("EPERM", -1, notice);
	r.raiser = 7;
	tap(!judge(&c, &r).pass, "judge: a notice where no raise is due fails");
	parse_cell("ok - unknown:bogus>legacy", &c);
	r = result("0", 0, "VFS: unknown proc_sysfs_mount_flags=bogus, keeping the legacy phase");
	tap(judge(&c, &r).pass, "judge: the bad boot value's line passes");
	r = result("0", 0, "VFS: unknown proc_sysfs_mount_flags=bogus, keeping the warn phase");
	tap(!judge(&c, &r).pass, "judge: the wrong phase kept fails");
}

/*
 * A flood of 40 tries: 10 warning lines, and the rate limit's account of
 * the other 30 for the scenario's namespace, at most once.
 */
static void test_judge_flood(const char *warning)
{
	const char *mine = "VFS: user:[4026532290] had 30 more warnings of proc and sysfs mount flags suppressed";
	const char *other = "VFS: user:[4026532291] had 30 more warnings of proc and sysfs mount flags suppressed";
	struct result r = result("0", 0, NULL);
	struct cell c;
	int i;

	parse_cell("warn nosuid -", &c);
	r.tries = r.ok = 40;
	r.ms = 6000;
	for (i = 0; i < 10; i++)
		r.lines[i] = (char *)warning;
	r.n_lines = 10;
	tap(judge(&c, &r).pass, "judge: a flood's 10 warning lines pass");
	r.lines[r.n_lines++] = (char *)mine;
	tap(judge(&c, &r).pass, "judge: and the limit's account of the other 30 passes");
	r.lines[r.n_lines++] = (char *)mine;
	tap(!judge(&c, &r).pass, "judge: the same 30 counted twice fails (70 for 40 tries)");
	r.n_lines = 10;
	r.lines[r.n_lines++] = (char *)other;
	tap(!judge(&c, &r).pass, "judge: another namespace's account fails");
	r = result("0", 0, warning);
	r.lines[r.n_lines++] = "VFS: user:[4026532290] had 1 more warnings of proc and sysfs mount flags suppressed";
	tap(!judge(&c, &r).pass, "judge: an account after a single try fails");
}

static void test_judge(void)
{
	const char *warning =
		"VFS: process 'mnt-scenario' (pid 42, user:[4026532290]) clears nosuid in mount of proc; the enforce phase will refuse this with EPERM";
	struct result r;
	struct cell c;

	parse_cell("ok nosuid", &c);
	r = result("0", F_NOSUID, NULL);
	tap(judge(&c, &r).pass, "judge: allowed with the right flags passes");
	r = result("0", F_NOSUID | F_NODEV, NULL);
	tap(!judge(&c, &r).pass, "judge: wrong landed flags fail");
	r = result("0", F_NOSUID, "something else");
	tap(!judge(&c, &r).pass, "judge: an unexpected kernel line fails");
	r = result("EPERM", -1, NULL);
	tap(!judge(&c, &r).pass, "judge: refused where allowed is due fails");
	r = result("0", F_NOSUID, "VFS: Mount too revealing");
	tap(!judge(&c, &r).pass, "judge: 'Mount too revealing' after an allowed mount fails");

	/* The kernel's own line for a refused fresh mount, and only that. */
	parse_cell("EPERM", &c);
	r = result("EPERM", -1, "VFS: Mount too revealing");
	tap(judge(&c, &r).pass, "judge: a refused mount(2) may log 'Mount too revealing'");
	strcpy(r.op, "remount");
	tap(!judge(&c, &r).pass, "judge: a refused remount may not");

	parse_cell("warn nosuid -", &c);
	r = result("0", 0, warning);
	tap(judge(&c, &r).pass, "judge: the exact warning passes");
	r = result("0", 0, NULL);
	tap(!judge(&c, &r).pass, "judge: a missing warning fails");
	r = result("0", 0, "VFS: process 'mnt-scenario' (pid 43, user:[4026532290]) clears nosuid in mount of proc; the enforce phase will refuse this with EPERM");
	tap(!judge(&c, &r).pass, "judge: a warning with the wrong pid fails");
	r = result("0", 0, "VFS: process 'mnt-scenario' (pid 42, user:[4026532291]) clears nosuid in mount of proc; the enforce phase will refuse this with EPERM");
	tap(!judge(&c, &r).pass, "judge: a warning naming another user namespace fails");
	r = result("0", 0, "VFS: process 'mnt-scenario' (pid 42) clears nosuid in mount of proc; the enforce phase will refuse this with EPERM");
	tap(!judge(&c, &r).pass, "judge: a warning without the user namespace (before patch 14) fails");
	test_judge_flood(warning);

	parse_cell("EPERM", &c);
	r = result("EPERM", -1, NULL);
	tap(judge(&c, &r).pass, "judge: EPERM where due passes");
	r = result("EACCES", -1, NULL);
	tap(!judge(&c, &r).pass, "judge: another errno fails");
	r = result("EPERM", -1, warning);
	tap(!judge(&c, &r).pass, "judge: a warning on a refusal fails");
	tap(!judge(&c, NULL).pass, "judge: a missing result fails");
}

static void test_splats(void)
{
	tap(is_splat("WARNING: CPU: 0 PID: 1 at fs/namespace.c:100 f+0x1/0x2"),
	   "splat: WARNING");
	tap(is_splat("BUG: sleeping function called from invalid context"),
	   "splat: BUG");
	tap(is_splat("WARNING: possible circular locking dependency detected"),
	   "splat: lockdep");
	tap(is_splat("BUG: KASAN: use-after-free in mnt_already_visible"),
	   "splat: KASAN");
	tap(!is_splat("rcu: \tRCU lockdep checking is enabled."),
	   "no splat: lockdep's banner");
	tap(!is_splat("VFS: process 'x' (pid 1) clears nosuid in mount of proc; the enforce phase will refuse this with EPERM"),
	   "no splat: the warn phase's line");
}

/*
 * A kernel built without KUnit (configs/fixed.config): the boot is held
 * to the suite's absence, which a console with the suite's KTAP fails.
 */
static void test_no_kunit(void)
{
	char *with[] = { "KTAP version 1", "1..1",
			 "    # Subtest: proc_sysfs_mount_flags", "    1..1",
			 "    ok 1 mnt_visible_decide_test", "ok 1 proc_sysfs_mount_flags" };
	char *without[] = { "Run /init as init process", "reboot: Restarting system" };
	struct lines w = { 6, with }, wo = { 2, without };
	struct verdicts on_with = VERDICTS_QUIET, on_without = VERDICTS_QUIET;

	check_no_kunit(&on_with, &w, "proc_sysfs_mount_flags");
	check_no_kunit(&on_without, &wo, "proc_sysfs_mount_flags");
	tap(verdicts_failed(&on_with) == 1 && verdicts_failed(&on_without) == 0,
	    "no KUnit: a boot log without the suite passes, one with its KTAP fails (%d, %d failed)",
	    verdicts_failed(&on_without), verdicts_failed(&on_with));
	verdicts_free(&on_with);
	verdicts_free(&on_without);
}

static void test_model(void)
{
	const int exec = F_NOSUID | F_NODEV | F_NOEXEC;
	int legacy = mode_index("legacy"), warn = mode_index("warn"),
	    enforce = mode_index("enforce");
	struct model_out m;

	m = model(legacy, exec, 0, MOP_MOUNT, false);
	tap(!m.err && !m.cleared && m.landed == 0, "model: legacy allows silently");
	m = model(warn, exec, F_NOSUID, MOP_MOUNT, true);
	tap(!m.err && m.cleared == (F_NODEV | F_NOEXEC), "model: warn warns");
	m = model(enforce, exec, F_NOSUID, MOP_FSMOUNT, false);
	tap(m.err && !strcmp(m.err, "EPERM"), "model: enforce refuses");
	m = model(enforce, exec, exec, MOP_MOUNT, false);
	tap(!m.err && m.landed == exec, "model: keeping every flag is allowed");
	m = model(legacy, F_RO | exec, exec, MOP_MOUNT, false);
	tap(m.err != NULL, "model: read-write over read-only is refused in legacy");
	m = model(warn, exec, F_NODEV | F_NOEXEC, MOP_SETATTR, false);
	tap(!m.err && m.cleared == F_NOSUID, "model: warn warns on mount_setattr");
	m = model(legacy, exec, exec, MOP_REMOUNT, true);
	tap(m.err != NULL, "model: MS_REMOUNT of sysfs is refused (init_user_ns superblock)");
	m = model(enforce, F_NODEV | F_NOEXEC, F_NODEV | F_NOEXEC, MOP_MOUNT, false);
	tap(!m.err, "model: a flag the visible mount lacks is not locked");
	m = model(PHASE_IMPLICIT, exec, F_NODEV, MOP_MOUNT, false);
	tap(!m.err && !m.cleared && m.landed == exec,
	    "model: implicit adds the omitted flags, silently");
	m = model(PHASE_IMPLICIT, exec, F_RO, MOP_BIND_REMOUNT, false);
	tap(!m.err && m.landed == (F_RO | exec),
	    "model: implicit keeps the flags a bind remount leaves out");
	m = model(PHASE_IMPLICIT, exec, F_NOSUID, MOP_SETATTR, false);
	tap(m.err && !strcmp(m.err, "EPERM"),
	    "model: implicit refuses an explicit mount_setattr clear");
	m = model(PHASE_IMPLICIT, exec, exec, MOP_REMOUNT, true);
	tap(m.err != NULL, "model: implicit keeps MS_REMOUNT of sysfs refused");
}

/*
 * One place for the scenarios' names: the guest's table and the spec's
 * rows name the same scenarios, each once.
 */
static void test_names(const struct spec *spec)
{
	struct scenario_info si;
	size_t i;
	int j, missing = 0, extra = 0;

	for (i = 0; i < scenario_count(); i++) {
		scenario_get(i, &si);
		if (!spec_find(spec, si.name)) {
			printf("# %s: in tests/contract/scenarios.h, no row in tests/spec.md\n", si.name);
			missing++;
		}
	}
	for (j = 0; j < spec->n; j++) {
		for (i = 0; i < scenario_count(); i++) {
			scenario_get(i, &si);
			if (!strcmp(si.name, spec->row[j].name))
				break;
		}
		if (i == scenario_count()) {
			printf("# %s: a row in tests/spec.md, not in tests/contract/scenarios.h\n",
			       spec->row[j].name);
			extra++;
		}
	}
	tap(scenario_count() > 0 && !missing && !extra &&
	    (size_t)spec->n == scenario_count(),
	    "scenarios.h (%zu) and spec.md (%d rows) name the same scenarios",
	    scenario_count(), spec->n);
}

/* The spec's cell against the model's prediction, where the model covers it. */
static bool cell_matches_model(const struct cell *c, struct model_out m)
{
	if (m.err)
		return c->outcome == REFUSED && !strcmp(c->err, m.err);
	if (m.cleared)
		return c->outcome == WARNED && c->cleared == m.cleared &&
		       c->flags == m.landed;
	return c->outcome == ALLOWED && c->flags == m.landed;
}

static void test_spec_against_model(const struct spec *spec)
{
	struct scenario_info si;
	int mode, checked = 0, bad = 0;
	size_t i;

	for (i = 0; i < scenario_count(); i++) {
		const struct spec_row *row;

		scenario_get(i, &si);
		row = spec_find(spec, si.name);
		if (si.model_op < 0 || !row)
			continue;
		for (mode = 0; mode < MAX_MODES; mode++) {
			struct model_out m = model(mode, si.host, si.flags,
						   si.model_op,
						   !strcmp(si.fs, "sysfs"));
			char cell[256];

			checked++;
			if (cell_matches_model(&row->cell[mode], m))
				continue;
			format_cell(&row->cell[mode], cell, sizeof(cell));
			printf("# %s %s: spec '%s', model %s landed %#x cleared %#x\n",
			       si.name, all_modes[mode], cell, m.err ? m.err : "0",
			       m.landed, m.cleared);
			bad++;
		}
	}
	tap(checked > 0 && !bad,
	    "spec.md agrees with the model in the %d cells the model covers (%d disagree)",
	    checked, bad);
}

/*
 * The results parser on a saved file of two boots (the second one alone,
 * and hung: no end record).
 */
static void test_results(const char *spec_path)
{
	char path[4096];
	const struct result *r;
	struct run run;
	const char *slash = strrchr(spec_path, '/');

	snprintf(path, sizeof(path), "%.*sfixtures/results-two-boots.txt",
		 slash ? (int)(slash - spec_path + 1) : 0, spec_path);
	tap(!run_load(path, &run), "results: %s loads", path);
	tap(run.boots == 2 && run.boots_ended == 1 && !run.ended &&
	    strstr(run.end, "1 of 2 boots"), "results: a hung second boot is not an end (%s)",
	    run.end);
	tap(run.n_alone == 1 && !strcmp(run.alone[0].name, "boot_unknown_value") &&
	    !strcmp(run.alone[0].arg, "proc_sysfs_mount_flags=bogus"),
	    "results: the alone record names the scenario and its parameter");
	r = run_find(&run, "mount_proc_none");
	tap(r && !strcmp(r->ret, "0") && r->flags == 0 && r->pid == 31 &&
	    r->userns == 4026532290 &&
	    r->n_lines == 1 && !strncmp(r->lines[0], "VFS: process", 12),
	    "results: a scenario with its user namespace and its kernel line");
	r = run_find(&run, "boot_unknown_value");
	tap(r && !strcmp(r->ret, "EPERM") && r->flags == -1 && r->n_lines == 1,
	    "results: a scenario of the second boot, refused, nothing landed");
	tap(run.n_selftest == 1 && run.selftest_exit == 0 && run.wall_ms == 1234,
	    "results: kselftest TAP, its exit status and the host's wall time");
	run_free(&run);
}

/* A tool's output in the report is the same from run to run: digests masked. */
static void test_steady_output(void)
{
	char out[] = "Error: writing blob sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef: "
		     "operation not permitted, config sha256:fe";
	struct tool_run t = { .exit = 125, .n_out = 1, .out = { out } };
	char buf[512];

	tap(!strcmp(tool_call(&t, buf, sizeof(buf)),
		    "Error: writing blob sha256:HASH: operation not permitted, config sha256:HASH"),
	    "tools: an output line's sha256 digests are masked (%s)", buf);
}

/* The userspace records: a tool, its output, its fix, its kernel lines. */
static void test_tool_results(const char *spec_path)
{
	char path[4096], buf[512];
	const char *slash = strrchr(spec_path, '/');
	struct run run;
	const struct tool_run *t;

	snprintf(path, sizeof(path), "%.*sfixtures/results-tools.txt",
		 slash ? (int)(slash - spec_path + 1) : 0, spec_path);
	tap(!run_load(path, &run) && run.n_tools == 4, "tools: %s loads, 4 tools",
	    path);
	t = &run.tools[0];
	tap(!strcmp(tool_verdict(t), "fails") &&
	    strstr(tool_call(t, buf, sizeof(buf)), "flags: 0xe: operation not permitted"),
	    "tools: a failure's call is the tool's own error");
	t = &run.tools[0];
	tap(!strcmp(t->fixed_by, "runc-spec-rootless-proc-nosuid") &&
	    !strncmp(t->fix, "add \"options\": [", 16) &&
	    !strcmp(tool_verdict(&run.tools[1]), "works"),
	    "tools: a failing row names the row that shows its fix, and the change");
	t = &run.tools[2];
	tap(!strcmp(tool_verdict(t), "warns") &&
	    !strcmp(tool_call(t, buf, sizeof(buf)),
		    "VFS: process 'mount' (pid N, user:[N]) clears nosuid,nodev,noexec in mount of proc; the enforce phase will refuse this with EPERM"),
	    "tools: a warning's call is the kernel line, its pid and user namespace as N");
	t = &run.tools[3];
	tap(!strcmp(tool_verdict(t), "fails") &&
	    strstr(tool_call(t, buf, sizeof(buf)), "no proc or sysfs mount on /dev/.lxc/sys") &&
	    !tool_missing(&run.tools[1], buf, sizeof(buf)),
	    "tools: exit 0 without a mount its config asks for fails, and names the mount point");
	run_free(&run);
	test_steady_output();
}

/* The upstream suite's records, and its TAP cases by name. */
static void test_upstream_results(const char *spec_path)
{
	char path[4096];
	const char *slash = strrchr(spec_path, '/');
	const struct upstream_run *u;
	struct verdicts cases = VERDICTS_QUIET;
	struct run run;

	snprintf(path, sizeof(path), "%.*sfixtures/results-upstream.txt",
		 slash ? (int)(slash - spec_path + 1) : 0, spec_path);
	tap(!run_load(path, &run) && run.upstream_count == 2 &&
	    run.n_upstream == 2, "upstream: %s loads, 2 programs", path);
	u = &run.upstream[0];
	tap(!strcmp(u->name, "mount_setattr_test") && u->exit == 0 &&
	    u->ms == 4100 && u->n_out == 8 && run.upstream[1].exit == 1 &&
	    run.upstream[1].n_out == 1,
	    "upstream: each program's output, exit status and time");
	tap(judge_tap(u->out, u->n_out, DEF_UPSTREAM, "m:", verdict_case,
		      &cases) == 2 && cases.n == 2 &&
	    !strcmp(cases.v[0].id, "m:mount_setattr.basic") &&
	    !strcmp(cases.v[1].id, "m:mount_setattr_idmapped.change_idmapping"),
	    "upstream: TAP cases by name, a skipped one named by its RUN line");
	verdicts_free(&cases);
	run_free(&run);
}

/* A LAVA job's log: its cases, its result, the console and records in it. */
static void test_lava_log(const char *spec_path)
{
	char path[4096], con[64], rec[64], alone[80];
	const char *slash = strrchr(spec_path, '/');
	struct lines c, r, a;
	static struct lava_log l;

	snprintf(path, sizeof(path), "%.*sfixtures/lava-job.log",
		 slash ? (int)(slash - spec_path + 1) : 0, spec_path);
	snprintf(con, sizeof(con), "/tmp/psmf-unit-%d.log", (int)getpid());
	snprintf(rec, sizeof(rec), "/tmp/psmf-unit-%d.txt", (int)getpid());
	snprintf(alone, sizeof(alone), "%s.alone", con);
	tap(!lava_read_log(path, &l, con, rec), "lava: %s reads", path);
	tap(l.n == 3 && !strcmp(l.c[0].def, "kunit") && l.c[0].pass &&
	    !strcmp(l.c[2].id, "global.sysctl_loosen_refused") && !l.c[2].pass,
	    "lava: our three cases, LAVA's own left out, the original case name kept");
	tap(l.job_seen && !l.job_pass &&
	    strstr(l.job_error, "[\"Image file '/work/main/build/lava-bad-url-enforce/no-such-bzImage'"),
	    "lava: the job's failure and its reason, quotes decoded");
	lines_load(con, &c);
	lines_load(rec, &r);
	lines_load(alone, &a);
	tap(c.n == 1 && strstr(c.l[0], "Linux version") && a.n == 2 &&
	    !strcmp(a.l[1], "bwrap: \"quoted\" ?[0m done"),
	    "lava: the first boot's console, the others' apart, escapes decoded");
	tap(r.n == 2 && !strncmp(r.l[0], "scenario mount_proc_none ", 25),
	    "lava: the guest's records, without their prefix");
	lines_free(&c);
	lines_free(&r);
	lines_free(&a);
	unlink(con);
	unlink(rec);
	unlink(alone);
}

/*
 * The sequence model on hand-written sequences: each expectation is
 * worked out from the rule it names (tests/runner/seq_model.c), not taken
 * from a kernel run.
 */
/* The model's rules, each on a short sequence: phase, host, what it gives. */
static const struct {
	int phase, host;
	const char *ops, *want, *rule;
} seq_model_cases[] = {
	{ PHASE_LEGACY, 0xe, "bind 4 0 root one;bindremount 0 0",
	  "EPERM m=e-e-ee p=3", "N2, N3: a bind keeps the host's locks" },
	{ PHASE_ENFORCE, 0xe, "mount proc 0 0", "EPERM m=----ee p=3", "R1" },
	{ PHASE_IMPLICIT, 0xe, "mount proc 0 0", "0 m=e-e-ee p=3", "R5" },
	{ PHASE_WARN, 0xe, "mount proc 0 0;bindremount 0 0",
	  "0 m=0-0-ee p=3", "R1, R3: warn allows, and the copy has what the mount had" },
	{ PHASE_IMPLICIT, 0xe, "mount sysfs 0 e;bindremount 0 0",
	  "0 m=e-e-ee p=3", "R5: a remount keeps the marked flags" },
	{ PHASE_IMPLICIT, 0xe, "mount sysfs 0 e;setattr 0 0 e one",
	  "EPERM m=e-e-ee p=3", "R5: an explicit clear is refused" },
	{ PHASE_ENFORCE, 0xe, "mount proc 0 e;bindremount 2 0",
	  "EPERM m=e-e-ee p=3", "N8, R2: the copy keeps the locks" },
	{ PHASE_IMPLICIT, 0x0, "mount proc 0 0;bind 5 1 root one;setattr 3 1 0 one",
	  "0 m=000100 p=3", "N8: the copy of a bind is a mount of its own" },
	{ PHASE_LEGACY, 0x0, "mount proc 0 0;nest;umount 0",
	  "EINVAL m=0-0-00 p=0", "N3: the copy locks the mount; N8: slaves" },
	{ PHASE_LEGACY, 0x0, "mount proc 0 0;unshare;umount 0",
	  "0 m=----00 p=3", "N3: a copy in the same user namespace does not; N8: peers" },
	{ PHASE_ENFORCE, 0xf, "mount proc 0 e", "EPERM m=----ff p=3", "R4" },
	{ PHASE_LEGACY, 0x0, "mount sysfs 0 0;remount 0 0",
	  "EPERM m=0-0-00 p=3", "K2" },
	{ PHASE_LEGACY, 0x0, "mount proc 0 0;remount 0 1",
	  "0 m=1-0-00 p=3", "N5: proc's own superblock" },
	{ PHASE_LEGACY, 0x0, "mount proc 0 0;nest;remount 0 0",
	  "EPERM m=0-0-00 p=0", "N5: owned by the parent user namespace" },
	{ PHASE_LEGACY, 0x0, "prop 0 private;mount proc 0 1;bindremount 0 0;nest;mount proc 1 0",
	  "0 m=00--00 p=0", "N1: the host's /proc still allows it" },
	{ PHASE_LEGACY, 0x0, "prop 0 private;mount proc 0 0;move 0 3;umount 3",
	  "0 m=----00 p=0", "move and umount of a mount of our own" },
	{ PHASE_LEGACY, 0x0, "mount proc 0 0;move 0 1",
	  "EINVAL m=0-0-00 p=3", "N8: not out of a shared parent" },
	{ PHASE_LEGACY, 0x0, "prop 1 slave;mount proc 2 0",
	  "0 m=--0-00 p=1", "N8: a slave does not send" },
	{ PHASE_LEGACY, 0x0, "prop 1 slave;mount proc 0 0;umount 2",
	  "0 m=0---00 p=1", "N8: a slave receives; its umount stays its own" },
	{ PHASE_LEGACY, 0x0, "prop 0 slave;prop 1 private;mount proc 0 0",
	  "0 m=0---00 p=0", "N8: a master without peers leaves its slaves to its own" },
	{ PHASE_LEGACY, 0x0, "prop 0 private;prop 0 shared;mount proc 0 0",
	  "0 m=0---00 p=0", "N8: a new peer group of its own" },
	{ PHASE_LEGACY, 0x0, "prop 1 slave;prop 1 shared;mount proc 2 0;mount proc 1 0",
	  "0 m=-00000 p=1", "N8: a shared slave receives from its master and sends to its own group" },
};

static void test_seq_model(void)
{
	const size_t n = sizeof(seq_model_cases) / sizeof(seq_model_cases[0]);
	size_t i;

	for (i = 0; i < n; i++) {
		const typeof(seq_model_cases[0]) *c = &seq_model_cases[i];
		char ops[256], got[64], text[80];
		struct seq_state s;
		struct seq_result r = { 0 };
		struct seq_op op;
		char *p, *save;
		int ok = 1;

		snprintf(ops, sizeof(ops), "%s", c->ops);
		seq_init(&s, c->phase, c->host, SEQ_TRUE, SEQ_WALK_LIST);
		for (p = strtok_r(ops, ";", &save); p;
		     p = strtok_r(NULL, ";", &save)) {
			ok = ok && !seq_op_parse(p, &op) && seq_valid(&s, &op) &&
			     !strcmp(seq_op_format(&op, text, sizeof(text)), p);
			r = seq_apply(&s, &op);
		}
		seq_result_format(&r, got, sizeof(got));
		tap(ok && !strcmp(got, c->want),
		    "seq model %s, host %x: %s gives %s (%s; got %s)",
		    all_modes[c->phase], c->host, c->ops,
		    c->want, c->rule, got);
	}
	tap(seq_op_parse("mount ext4 0 0", &(struct seq_op){ 0 }) &&
	    seq_op_parse("setattr 0 1 1 one", &(struct seq_op){ 0 }) &&
	    seq_op_parse("umount 4", &(struct seq_op){ 0 }),
	    "seq ops: an unknown filesystem, overlapping set and clear, and umount of the host's /proc are no operations");
}

/*
 * The spec's sequences against the model: the model must give every
 * cell, and a broken rule must change one (the rows can fail).
 */
static void test_seq_spec(const char *path)
{
	static struct seq_spec sp;
	char err[512], cell[48];
	int i, p, bad = 0, caught = 0;

	if (seq_spec_load(path, &sp, err, sizeof(err))) {
		tap(false, "seq spec: %s", err);
		return;
	}
	for (i = 0; i < sp.n; i++) {
		const struct seq_spec_row *r = &sp.row[i];

		for (p = 0; p < MAX_MODES; p++) {
			seq_spec_model_cell(p, r->host, r->ops, r->n, cell,
					    sizeof(cell));
			bad += strcmp(cell, r->cell[p]) != 0;
			if (strcmp(cell, r->cell[p]))
				printf("# %s %s: the spec says '%s', the model '%s'\n",
				       r->name, all_modes[p], r->cell[p], cell);
		}
	}
	tap(sp.n > 0 && !bad,
	    "seq spec: the model gives every cell of the %d sequences of the spec",
	    sp.n);
	for (i = 0; i < sp.n; i++) {
		const struct seq_spec_row *r = &sp.row[i];
		struct seq_state s;
		struct seq_result res = { 0 };
		int k;

		seq_init(&s, PHASE_LEGACY, r->host, SEQ_NEST_LOCKS_NOTHING,
			 SEQ_WALK_LIST);
		for (k = 0; k < r->n; k++)
			res = seq_apply(&s, &r->ops[k]);
		seq_result_format(&res, cell, sizeof(cell));
		caught += strcmp(cell, r->cell[PHASE_LEGACY]) != 0;
	}
	tap(caught > 0,
	    "seq spec: a model whose nested copy locks nothing fails %d of the spec's sequences",
	    caught);
}

/* The steps' names match whole, and an unknown one is named. */
static void test_steps(void)
{
	tap(step_wanted("matrix,selftest", "selftest") &&
	    step_wanted(PSMF_STEPS_DEFAULT, "matrix") &&
	    !step_wanted("matrixx,selftest", "matrix") &&
	    !step_wanted("matrix", "mat") && !step_wanted("", "matrix"),
	    "steps: a step is wanted only by its whole name");
	tap(!step_unknown(PSMF_STEPS_DEFAULT) &&
	    !step_unknown("sequences,upstream") &&
	    !strcmp(step_unknown("matrix,selftests") ?: "", "selftests") &&
	    !strcmp(step_unknown("stress,,bench") ?: "x", ""),
	    "steps: the first name that is no step is named");
	tap(strstr(step_names(), "matrix, exhaustive") == step_names() &&
	    strstr(step_names(), ", selftest") != NULL,
	    "steps: the names in the order a boot runs them: %s", step_names());
}

/* A list of verdicts keeps each, a named case's with its kind and name. */
static void test_verdicts(void)
{
	struct verdicts v = VERDICTS_QUIET;

	verdict(&v, true, "check %d", 1);
	verdict(&v, false, "check %d", 2);
	verdict_case(&v, DEF_SCENARIOS, "proc-plain", false, "legacy proc-plain");
	verdict_case(&v, DEF_KUNIT, "decide", true, "kunit decide");
	tap(v.n == 4 && !v.print && !strcmp(v.v[1].what, "check 2") &&
	    !v.v[1].def && !strcmp(v.v[2].def, DEF_SCENARIOS) &&
	    !strcmp(v.v[2].id, "proc-plain") && v.v[3].pass,
	    "verdicts: each kept in order, a case with its kind and name");
	tap(verdicts_failed(&v) == 2 && verdicts_failed_checks(&v) == 1,
	    "verdicts: failed, and failed checks that are no named case");
	tap(verdicts_end(&v) == 2 && v.n == 0 && !v.v,
	    "verdicts: the count at the end, the list freed");
}

/* A boot's records belong to it or to the steps it ran, by whole kind. */
static void test_step_records(void)
{
	tap(step_record_ok("matrix,selftest", "scenario proc-plain op=mount") &&
	    step_record_ok("matrix,selftest", "selftest ok 1 - x") &&
	    step_record_ok("matrix", "start 6.12.118") &&
	    step_record_ok("matrix", "kmsg m VFS: process") &&
	    step_record_ok("stress", "s 3 ok") && step_record_ok("matrix", ""),
	    "step records: the boot's own and those of the steps it ran pass");
	tap(!step_record_ok("matrix,selftest", "x 1 2") &&
	    !step_record_ok("matrix", " scenario a") &&
	    !step_record_ok("sequences", "s 3 ok") &&
	    !step_record_ok("exhaustive", "exhaustive-endx ms=1") &&
	    !step_record_ok("matrix", "scenarios a") &&
	    !step_record_ok("matrix", "tool lxc version=5"),
	    "step records: a record of a step not run, or of no kind, is refused");
	tap(step_record_of("matrix", "alone proc-first") &&
	    step_record_of("selftest", "selftest-exit 0") &&
	    !step_record_of("selftest", "selftest-exitx 0") &&
	    !step_record_of("bench", "x 1") &&
	    !step_record_of("selftests", "selftest ok 1"),
	    "step records: a record is a step's by one of its kinds, whole");
}

int main(int argc, char **argv)
{
	static struct spec spec;
	char err[512];

	printf("TAP version 13\n");
	if (argc != 2 || spec_load(argv[1], &spec, err, sizeof(err))) {
		printf("Bail out! usage: unit tests/spec.md (%s)\n",
		       argc == 2 ? err : "no spec given");
		return 2;
	}
	test_names(&spec);
	test_spec_against_model(&spec);
	test_results(argv[1]);
	test_tool_results(argv[1]);
	test_lava_log(argv[1]);
	test_upstream_results(argv[1]);
	test_cells();
	test_judge();
	test_phase_cells();
	test_judge_phase();
	test_splats();
	test_no_kunit();
	test_model();
	test_seq_model();
	test_seq_spec(argv[1]);
	test_seq_walk(argv[1]);
	test_relations();
	test_fleet(&spec);
	test_docs();
	test_steps();
	test_step_records();
	test_verdicts();
	test_tool_spec(argv[1]);
	test_system(argv[1]);
	test_report(&spec);
	return tap_end();
}
