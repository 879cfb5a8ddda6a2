// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of the matrix.  TAP on stdout, for meson test.
 *
 *   runner boot   boot one variant under QEMU and judge it against the spec
 *   runner check  judge results already on disk (no QEMU)
 *   runner cross  compare the three variants and write the reports
 *   runner mutate show that a broken expectation turns its cell red
 *
 * Run "runner help" for the options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "report.h"
#include "spec.h"
#include "tap.h"

struct opts {
	const char *mode, *kernel, *initrd, *spec, *dir, *accel, *steps;
	const char *scenario, *results, *console, *tag;
	const char *boot_phase;	/* proc_sysfs_mount_flags= for the boot */
	int timeout, smp, memory;
	bool icount;	/* guest time counts instructions: for benchmarks */
};

static void usage(void)
{
	fprintf(stderr,
		"usage: runner boot --mode MODE --kernel BZIMAGE --initrd CPIO --spec SPEC --dir DIR\n"
		"                   [--accel tcg|kvm] [--timeout S] [--run STEPS] [--scenario NAME]\n"
		"                   [--tag NAME] [--smp N] [--memory MB] [--icount]\n"
		"                   [--boot-phase MODE]  (proc_sysfs_mount_flags=MODE: judged as MODE)\n"
		"       runner check --mode MODE --spec SPEC --results FILE [--console FILE]\n"
		"       runner cross --spec SPEC --dir DIR\n"
		"       runner mutate --spec SPEC --dir DIR\n"
		"       runner compat --dir DIR\n"
		"MODE is one of legacy, warn, implicit, enforce; STEPS a comma list of matrix, selftest,\n"
		"exhaustive, stress, bench (default matrix,selftest).\n");
	exit(2);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The console log, lines without printk's "[    1.234567] " prefix. */
struct lines {
	int n;
	char **l;
};

static void lines_load(const char *path, struct lines *ls)
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

static void tail_console(const struct lines *ls, int n)
{
	int i;

	printf("# last %d console lines:\n", n);
	for (i = ls->n > n ? ls->n - n : 0; i < ls->n; i++)
		printf("#   %s\n", ls->l[i]);
}

/* KUnit's KTAP from the boot log: the suite's top-level result. */
static void check_kunit(const struct lines *ls, const char *suite)
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
			tap(ok, "kunit %s", suite);
		}
	}
	if (!seen)
		tap(false, "kunit %s: no KTAP result for the suite in the boot log (is CONFIG_PROC_SYSFS_MOUNT_FLAGS_KUNIT_TEST=y?)",
		    suite);
}

/* Cases of our suite, "ok N name" at indent 4 under "# Subtest: suite". */
static void check_kunit_cases(const struct lines *ls, const char *suite)
{
	char want[160], name[128];
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
		if (sscanf(p + (ok ? 7 : 11), "%d %127s", &num, name) == 2)
			tap(ok, "kunit %s.%s", suite, name);
	}
}

static void check_splats(const struct lines *ls, const char *where)
{
	int i, splats = 0;

	for (i = 0; i < ls->n; i++)
		if (is_splat(ls->l[i])) {
			if (!splats++)
				printf("# kernel splat: %s\n", ls->l[i]);
		}
	tap(!splats, "no kernel splat (WARNING, BUG, Oops, lockdep, ...) in %s%s",
	    where, splats ? ": see the console log" : "");
}

static void check_splats_in(const char *console, const char *where)
{
	struct lines con;

	lines_load(console, &con);
	check_splats(&con, where);
}

/* The kselftest's own TAP, as the guest forwarded it. */
static void check_selftest(const struct run *run)
{
	int i, cases = 0;

	for (i = 0; i < run->n_selftest; i++) {
		const char *p = run->selftest[i];
		bool ok = !strncmp(p, "ok ", 3);
		const char *name;

		if (!ok && strncmp(p, "not ok ", 7))
			continue;
		name = strchr(p + (ok ? 3 : 7), ' ');
		name = name ? name + 1 : "?";
		cases++;
		tap(ok, "kselftest %.*s", (int)strcspn(name, "\n"), name);
	}
	tap(cases > 0 && run->selftest_exit == 0,
	    "kselftest proc_sysfs_mount_flags: %d cases, exit status %d",
	    cases, run->selftest_exit);
}

/*
 * Runs of many operations: the warning lines are sampled by the rate
 * limit.  Warn must log some and no more than the limit allows in the
 * time the run took; the other phases must log none.
 */
static void check_sampled_warnings(const char *what, int mode, int lines,
				   long ms)
{
	int most = RATELIMIT_BURST * (1 + (ms > 0 ? ms : 0) / RATELIMIT_MS);

	if (mode == PHASE_WARN)
		tap(lines >= 1 && lines <= most,
		    "%s warn: %d warning lines in %.1f s, within 1 to %d (10 per 5 s)",
		    what, lines, ms / 1000.0, most);
	else
		tap(lines == 0, "%s %s: %d warning lines, want none", what,
		    all_modes[mode], lines);
}

/*
 * The exhaustive run against the reference model: every combination must
 * have run, and each must agree on the errno and the flags that landed.
 */
static void check_exhaustive(const struct run *run, int mode)
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
	printf("# exhaustive %s: %d cases, %d agreements, %d disagreements, %.1f s\n",
	       all_modes[mode], run->n_x, agree, run->n_x - agree,
	       run->x_ms / 1000.0);
	tap(run->x_ms >= 0 && run->n_x == want,
	    "exhaustive %s: all %d combinations ran (%d)", all_modes[mode],
	    want, run->n_x);
	tap(run->n_x && agree == run->n_x,
	    "exhaustive %s: %d cases, %d agreements, %d disagreements with the model",
	    all_modes[mode], run->n_x, agree, run->n_x - agree);
	check_sampled_warnings("exhaustive", mode, run->x_warnings, run->x_ms);
}

/* The stress run: every outcome against the model, and the throughput. */
static void check_stress(const struct run *run, int mode)
{
	const int visible = F_NOSUID | F_NODEV | F_NOEXEC;
	long agree = 0, total = 0;
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
	printf("# stress %s: %ld operations in %.1f s, %.0f ops/s, %ld disagreements\n",
	       all_modes[mode], total, run->s_ms / 1000.0,
	       run->s_ms > 0 ? total * 1000.0 / run->s_ms : 0.0, total - agree);
	tap(run->s_ms >= 0 && !run->s_failed && total > 0 && total == run->s_ops,
	    "stress %s: every worker finished and reported (%ld operations)",
	    all_modes[mode], total);
	tap(total > 0 && agree == total,
	    "stress %s: %ld operations, %ld disagreements with the model, %.0f ops/s",
	    all_modes[mode], total, total - agree,
	    run->s_ms > 0 ? total * 1000.0 / run->s_ms : 0.0);
	check_sampled_warnings("stress", mode, run->s_warnings, run->s_ms);
}

/* The mount-path benchmark: report, the ratios are for the caller. */
static void check_bench(const struct run *run, int mode)
{
	int i;

	for (i = 0; i < run->n_bench; i++)
		printf("# bench %s %s: %.1f mount+umount/s (%ld in %ld ms)\n",
		       all_modes[mode], run->bench[i].label,
		       run->bench[i].ms > 0 ?
		       run->bench[i].ops * 1000.0 / run->bench[i].ms : 0.0,
		       run->bench[i].ops, run->bench[i].ms);
	tap(run->n_bench == 2, "bench %s: both measurements ran",
	    all_modes[mode]);
}

/*
 * The userspace suite: each tool must have run (not: missing, not
 * startable, hung), and under legacy, which is 6.1 as Debian ships it,
 * it must work: there a failure is the guest's environment, not the
 * phase.  What it gave under warn and enforce is reported, for the
 * compatibility table.
 */
static void check_userspace(const struct run *run, int mode)
{
	int i, j;

	for (i = 0; i < run->n_tools; i++) {
		const struct tool_run *t = &run->tools[i];

		printf("# %s %s (%s): %s, exit %d, %ld ms\n", all_modes[mode],
		       t->name, t->version, tool_verdict(t), t->exit, t->ms);
		for (j = 0; j < t->n_lines; j++)
			printf("#   kernel: %s\n", t->lines[j]);
		for (j = 0; j < t->n_out; j++)
			printf("#   output: %s\n", t->out[j]);
		tap(t->exit >= 0 && t->exit != 126 && t->exit != 127,
		    "userspace %s %s ran: %s (exit %d)", all_modes[mode],
		    t->name, tool_verdict(t), t->exit);
		if (mode == PHASE_LEGACY)
			tap(!strcmp(tool_verdict(t), "works"),
			    "userspace legacy %s works as on Debian's 6.1",
			    t->name);
	}
	tap(run->n_tools > 0, "userspace %s: %d tools ran", all_modes[mode],
	    run->n_tools);
}

static void check_scenarios(const struct spec *spec, const struct run *run,
			    int mode, const char *only)
{
	char exp[128];
	int i;

	for (i = 0; i < spec->n; i++) {
		const struct spec_row *row = &spec->row[i];
		struct verdict v;

		if (only && strcmp(only, row->name))
			continue;
		v = judge(&row->cell[mode], run_find(run, row->name));
		format_cell(&row->cell[mode], exp, sizeof(exp));
		tap(v.pass, "%s %s: %s%s%s", all_modes[mode], row->name, exp,
		    v.pass ? "" : ": ", v.why);
	}
	for (i = 0; i < run->n; i++)
		if (!spec_find(spec, run->res[i].name))
			tap(false, "%s: the guest ran it, but tests/spec.md has no row for it",
			    run->res[i].name);
}

static void load_spec(const char *path, struct spec *spec)
{
	char err[512];

	if (spec_load(path, spec, err, sizeof(err))) {
		fprintf(stderr, "runner: %s\n", err);
		printf("Bail out! %s\n", err);
		exit(2);
	}
}

static int need_mode(const char *mode)
{
	int m = mode ? mode_index(mode) : -1;

	if (m < 0) {
		fprintf(stderr, "runner: unknown mode '%s': use legacy, warn, implicit or enforce\n",
			mode ? mode : "");
		exit(2);
	}
	return m;
}

/* Judge a variant's results and console: the body of boot and check. */
static bool wants(const char *steps, const char *step)
{
	return strstr(steps, step) != NULL;
}

static void judge_variant(const struct opts *o, const struct spec *spec,
			  int mode, const char *results, const char *console)
{
	struct lines con;
	struct run run;

	lines_load(console, &con);
	if (run_load(results, &run))
		printf("# %s: no results file\n", results);
	tap(run.ended, "%s guest ran to its end (%s)", all_modes[mode], run.end);
	if (!run.ended) {
		tail_console(&con, 40);
		if (run.last_begun[0] && !run_find(&run, run.last_begun))
			printf("# the guest was in scenario %s\n", run.last_begun);
	}
	check_kunit(&con, "proc_sysfs_mount_flags");
	check_kunit_cases(&con, "proc_sysfs_mount_flags");
	check_splats(&con, "the boot log");
	if (wants(o->steps, "matrix"))
		check_scenarios(spec, &run, mode, o->scenario);
	if (wants(o->steps, "selftest"))
		check_selftest(&run);
	if (wants(o->steps, "exhaustive"))
		check_exhaustive(&run, mode);
	if (wants(o->steps, "stress"))
		check_stress(&run, mode);
	if (wants(o->steps, "bench"))
		check_bench(&run, mode);
	if (wants(o->steps, "userspace"))
		check_userspace(&run, mode);
	run_free(&run);
}

/* The kernel command line of one boot. */
static void command_line(const struct opts *o, const char *scenario,
			 const char *extra, char *buf, size_t len)
{
	snprintf(buf, len,
		 "console=ttyS0 panic=-1 oops=panic tsc=unstable%s%s%s%s PSMF_RUN=%s%s%s%s",
		 o->boot_phase ? " proc_sysfs_mount_flags=" : "",
		 o->boot_phase ? o->boot_phase : "", extra ? " " : "",
		 extra ? extra : "", extra ? "matrix" : o->steps,
		 scenario ? " PSMF_SCENARIO=" : "", scenario ? scenario : "",
		 extra ? " PSMF_ALONE=1" : "");
}

/*
 * Run QEMU once: console on ttyS0 into @console, results on ttyS1 into
 * @results (both truncated), killed after the time limit.  Returns the
 * wait status; *timed_out says whether it was killed.
 */
static int run_qemu(const struct opts *o, const char *append,
		    const char *results, const char *console, bool *timed_out)
{
	char ser0[4200], ser1[4200], mem[16], smp[16];
	long start = now_ms();
	int status = 0, fd;
	pid_t pid;

	snprintf(ser0, sizeof(ser0), "file:%s", console);
	snprintf(ser1, sizeof(ser1), "file:%s", results);
	snprintf(mem, sizeof(mem), "%dM", o->memory);
	snprintf(smp, sizeof(smp), "%d", o->smp);
	*timed_out = false;
	pid = fork();
	if (pid < 0)
		return perror("fork"), -1;
	if (pid == 0) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		execlp("qemu-system-x86_64", "qemu-system-x86_64",
		       "-accel", o->accel, "-m", mem, "-smp", smp,
		       "-nodefaults", "-display", "none", "-no-reboot",
		       "-kernel", o->kernel, "-initrd", o->initrd,
		       "-append", append, "-serial", ser0, "-serial", ser1,
		       /* one virtual ns per guest instruction, whatever the host does */
		       o->icount ? "-icount" : (char *)NULL,
		       "shift=0,sleep=off,align=off", (char *)NULL);
		fprintf(stderr, "runner: cannot run qemu-system-x86_64: %s (apt-get install qemu-system-x86)\n",
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (now_ms() - start > o->timeout * 1000L) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			*timed_out = true;
			break;
		}
		usleep(20000);
	}
	return status;
}

/* QEMU's own failures, as TAP; the guest's are judged from its results. */
static void check_qemu(const struct opts *o, const char *what, int status,
		       bool timed_out)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		tap(false, "%s: qemu-system-x86_64 could not start", what);
	else if (!timed_out && (status < 0 || (WIFEXITED(status) && WEXITSTATUS(status))))
		tap(false, "%s: qemu-system-x86_64 exited with status %d (its message is above)",
		    what, WIFEXITED(status) ? WEXITSTATUS(status) : status);
	if (timed_out)
		tap(false, "%s guest finished within %d s (hung: killed; raise -Dtimeout= if the machine is just slow)",
		    what, o->timeout);
}

/* Append the file @from to @to, and remove @from. */
static void append_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out = fopen(to, "a");
	size_t n;

	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	unlink(from);
}

/*
 * The scenarios that asked for a boot of their own (they raise the phase,
 * or need a boot parameter): one boot each, its results appended to
 * @results, its console to @console.
 */
static void boot_alone(const struct opts *o, const char *results,
		       const char *console)
{
	char append[1024], tmp_res[4300], tmp_con[4300], what[128];
	bool timed_out;
	struct run run;
	int i, status;

	run_load(results, &run);
	snprintf(tmp_res, sizeof(tmp_res), "%s.alone", results);
	snprintf(tmp_con, sizeof(tmp_con), "%s.alone", console);
	for (i = 0; i < run.n_alone; i++) {
		const char *arg = strcmp(run.alone[i].arg, "-") ? run.alone[i].arg : "";

		command_line(o, run.alone[i].name, arg, append, sizeof(append));
		status = run_qemu(o, append, tmp_res, tmp_con, &timed_out);
		snprintf(what, sizeof(what), "%s %s", o->tag ? o->tag : o->mode,
			 run.alone[i].name);
		check_qemu(o, what, status, timed_out);
		append_file(tmp_res, results);
		append_file(tmp_con, console);
	}
	if (run.n_alone)
		printf("# %s: %d scenarios in boots of their own\n",
		       o->tag ? o->tag : o->mode, run.n_alone);
	run_free(&run);
}

/* Boot the variant, then each scenario that needs its own boot; judge. */
static int boot(const struct opts *o)
{
	char results[4096], console[4096], alone_con[4200], append[1024];
	int mode = need_mode(o->mode), status;
	long start;
	bool timed_out;
	struct spec spec;
	FILE *f;

	if (!o->kernel || !o->initrd || !o->dir || !o->spec)
		usage();
	if (o->boot_phase)
		need_mode(o->boot_phase);
	load_spec(o->spec, &spec);
	snprintf(results, sizeof(results), "%s/results-%s.txt", o->dir,
		 o->tag ? o->tag : o->mode);
	snprintf(console, sizeof(console), "%s/console-%s.log", o->dir,
		 o->tag ? o->tag : o->mode);
	snprintf(alone_con, sizeof(alone_con), "%s/console-%s-alone.log",
		 o->dir, o->tag ? o->tag : o->mode);
	command_line(o, o->scenario, NULL, append, sizeof(append));
	if (mkdir(o->dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "runner: cannot create %s: %s\n", o->dir,
			strerror(errno));
		return 2;
	}
	unlink(results);
	unlink(console);
	unlink(alone_con);

	start = now_ms();
	status = run_qemu(o, append, results, console, &timed_out);
	check_qemu(o, o->mode, status, timed_out);
	if (!timed_out)
		boot_alone(o, results, alone_con);
	f = fopen(results, "a");
	if (f) {
		fprintf(f, "host wall_ms=%ld\n", now_ms() - start);
		fclose(f);
	}
	printf("# %s: guest ran %.1f s under %s\n", o->tag ? o->tag : o->mode,
	       (now_ms() - start) / 1000.0, o->accel);
	judge_variant(o, &spec, mode, results, console);
	if (!access(alone_con, F_OK))
		check_splats_in(alone_con, "the boots of their own");
	return tap_end();
}

static int check(const struct opts *o)
{
	struct spec spec;
	int mode = need_mode(o->mode);

	if (!o->results || !o->spec)
		usage();
	load_spec(o->spec, &spec);
	judge_variant(o, &spec, mode, o->results,
		      o->console ? o->console : "/dev/null");
	return tap_end();
}

static int load_runs(const struct opts *o, struct run *runs, struct matrix *m)
{
	char path[4200];
	int j, missing = 0;

	for (j = 0; j < MAX_MODES; j++) {
		snprintf(path, sizeof(path), "%s/results-%s.txt", o->dir,
			 all_modes[j]);
		if (run_load(path, &runs[j]) || !runs[j].n) {
			printf("# %s: no results; run 'meson test -C %s --suite %s' first\n",
			       path, o->dir, all_modes[j]);
			missing++;
			continue;
		}
		m->run[j] = &runs[j];
	}
	return missing;
}

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

/* The spec and the three variants' results, for cross and mutate. */
static bool load_matrix(const struct opts *o, struct spec *spec,
			struct run *runs, struct matrix *m)
{
	if (!o->dir || !o->spec)
		usage();
	load_spec(o->spec, spec);
	m->spec = spec;
	if (load_runs(o, runs, m)) {
		tap(false, "results of all three variants are present");
		return false;
	}
	return true;
}

/*
 * Results of the userspace suite's three runs into @runs and m->tools;
 * returns how many are missing.
 */
static int load_tool_runs(const struct opts *o, struct run *runs,
			  struct matrix *m)
{
	char path[4200];
	int j, missing = 0;

	for (j = 0; j < MAX_MODES; j++) {
		snprintf(path, sizeof(path), "%s/results-userspace-%s.txt",
			 o->dir, all_modes[j]);
		if (run_load(path, &runs[j]) || !runs[j].n_tools) {
			printf("# %s: no userspace results; run 'meson test -C %s --suite userspace'\n",
			       path, o->dir);
			missing++;
		}
	}
	for (j = 0; j < MAX_MODES && !missing; j++)
		m->tools[j] = &runs[j];
	return missing;
}

/*
 * The compatibility table of the userspace suite's three runs: compat.md,
 * and the matrix reports again with it when the matrix has results.
 */
static int compat(const struct opts *o)
{
	struct run tools[MAX_MODES], runs[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int j;

	if (!o->dir)
		usage();
	if (load_tool_runs(o, tools, &m)) {
		tap(false, "userspace results of all three variants are present");
		return tap_end();
	}
	if (o->spec) {
		load_spec(o->spec, &spec);
		if (!load_runs(o, runs, &m))
			m.spec = &spec;
	}
	tap(!report_write(&m, o->dir), "compatibility table written: %s/compat.md%s",
	    o->dir, m.spec ? ", and into matrix.md, matrix.html, matrix.json" : "");
	for (j = 0; j < MAX_MODES; j++) {
		run_free(&tools[j]);
		run_free(&runs[j]);
	}
	return tap_end();
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
static bool cross_override(const struct opts *o, const struct spec *spec,
			   const struct run *runs, int built, int told,
			   struct run *ov)
{
	char path[4200];
	int i, same = 0, shown = 0;

	snprintf(path, sizeof(path), "%s/results-%s-as-%s.txt", o->dir,
		 all_modes[built], all_modes[told]);
	if (run_load(path, ov) || !ov->n) {
		tap(false, "%s kernel booted as %s: no results in %s (run 'meson test -C %s --suite override')",
		    all_modes[built], all_modes[told], path, o->dir);
		return false;
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
	tap(same == spec->n,
	    "cross-variant: %s kernel booted as %s gives the %s kernel's outcome and flags in %d of %d scenarios",
	    all_modes[built], all_modes[told], all_modes[told], same, spec->n);
	return true;
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
static void cross_row(const struct spec_row *row, const struct run *runs)
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
		tap(false, "spec row %s is consistent: %s", row->name, why);
		return;
	}
	tap(cross_ok(seen[PHASE_LEGACY].outcome, seen[PHASE_WARN].outcome,
		     seen[PHASE_ENFORCE].outcome, why, sizeof(why)) &&
	    implicit_ok(seen[PHASE_WARN], seen[PHASE_IMPLICIT], cleared,
			setattr, why, sizeof(why)),
	    "cross-variant %s: legacy %s, warn %s, implicit %s, enforce %s%s%s",
	    row->name, outcome_name(seen[PHASE_LEGACY].outcome),
	    outcome_name(seen[PHASE_WARN].outcome),
	    outcome_name(seen[PHASE_IMPLICIT].outcome),
	    outcome_name(seen[PHASE_ENFORCE].outcome), why[0] ? ": " : "", why);
}

static int cross(const struct opts *o)
{
	static struct run told[MAX_MODES][MAX_MODES];
	struct run runs[MAX_MODES], tools[MAX_MODES] = { 0 };
	struct matrix m = { 0 };
	struct spec spec;
	int i, j;

	if (!load_matrix(o, &spec, runs, &m))
		return tap_end();
	for (i = 0; i < spec.n; i++)
		if (!phase_row(&spec.row[i], runs))
			cross_row(&spec.row[i], runs);
	for (i = 0; i < MAX_MODES; i++)
		for (j = 0; j < MAX_MODES; j++)
			if (i != j && cross_override(o, &spec, runs, i, j,
						     &told[i][j]))
				m.told[i][j] = &told[i][j];
	/* With the real tools' table, when the userspace suite has run. */
	load_tool_runs(o, tools, &m);
	tap(!report_write(&m, o->dir), "reports written: %s/matrix.md, matrix.html, matrix.json",
	    o->dir);
	for (j = 0; j < MAX_MODES; j++) {
		printf("# %s: guest ran %.1f s\n", all_modes[j],
		       runs[j].wall_ms / 1000.0);
		run_free(&runs[j]);
		run_free(&tools[j]);
		for (i = 0; i < MAX_MODES; i++)
			run_free(&told[j][i]);
	}
	return tap_end();
}

/*
 * The run-time phase's lines are judged too: a cell that wants a raise's
 * notice fails without it, and one that does not want it fails with it.
 */
static void mutate_raise(struct spec *spec, const struct run *run, int mode)
{
	int i;

	for (i = 0; i < spec->n; i++) {
		struct cell *c = &spec->row[i].cell[mode];
		const struct result *r = run_find(run, spec->row[i].name);
		struct cell saved = *c;
		bool before, after;

		if (!c->n_raised)
			continue;
		before = judge(c, r).pass;
		c->n_raised = 0;
		after = judge(c, r).pass;
		*c = saved;
		tap(before && !after,
		    "broken expectation for %s %s (no raise's notice) fails its check",
		    all_modes[mode], spec->row[i].name);
		return;
	}
	tap(false, "found a %s cell that wants a raise's notice to break",
	    all_modes[mode]);
}

/*
 * Break one expectation on purpose and show that the judge and the report
 * catch it: the cell must turn red and its test must fail.
 */
static int mutate(const struct opts *o)
{
	struct run runs[MAX_MODES];
	struct matrix m = { 0 };
	struct spec spec;
	char *html = NULL;
	size_t len = 0;
	int i, warn = PHASE_WARN, done = 0;

	if (!load_matrix(o, &spec, runs, &m))
		return tap_end();
	for (i = 0; i < spec.n && done < 2; i++) {
		struct cell *c = &spec.row[i].cell[warn];
		struct cell saved = *c;
		struct verdict before, after;
		char needle[256];
		FILE *f;

		/* One warned cell said to be silent, one allowed said refused. */
		if (!(done == 0 && c->outcome == WARNED) &&
		    !(done == 1 && c->outcome == ALLOWED))
			continue;
		before = judge(c, run_find(&runs[warn], spec.row[i].name));
		if (c->outcome == WARNED) {
			c->outcome = ALLOWED;
			c->cleared = 0;
		} else {
			c->outcome = REFUSED;
			snprintf(c->err, sizeof(c->err), "EPERM");
		}
		after = judge(c, run_find(&runs[warn], spec.row[i].name));
		f = open_memstream(&html, &len);
		report_html(&m, f);
		fclose(f);
		snprintf(needle, sizeof(needle), "<tr id=\"%s\">", spec.row[i].name);
		tap(before.pass && !after.pass,
		    "broken expectation for warn %s fails its check (%s)",
		    spec.row[i].name, after.why);
		tap(strstr(html, needle) &&
		    strstr(strstr(html, needle), "class=\"bad\"") &&
		    strstr(strstr(html, needle), "class=\"bad\"") <
		    strstr(strstr(html, needle), "</tr>"),
		    "broken expectation for warn %s turns its cell red in the report",
		    spec.row[i].name);
		free(html);
		html = NULL;
		*c = saved;
		done++;
	}
	tap(done == 2, "found a warned and an allowed cell to break");
	mutate_raise(&spec, &runs[warn], warn);
	for (i = 0; i < MAX_MODES; i++)
		run_free(&runs[i]);
	return tap_end();
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", 1, 0, 'm' }, { "kernel", 1, 0, 'k' },
		{ "initrd", 1, 0, 'i' }, { "spec", 1, 0, 's' },
		{ "dir", 1, 0, 'd' }, { "accel", 1, 0, 'a' },
		{ "timeout", 1, 0, 't' }, { "run", 1, 0, 'r' },
		{ "scenario", 1, 0, 'S' }, { "results", 1, 0, 'R' },
		{ "console", 1, 0, 'c' },
		{ "smp", 1, 0, 'p' }, { "memory", 1, 0, 'M' },
		{ "tag", 1, 0, 'T' }, { "icount", 0, 0, 'I' },
		{ "boot-phase", 1, 0, 'B' },
		{ 0 }
	};
	struct opts o = {
		.accel = "tcg", .timeout = 180, .steps = "matrix,selftest",
		.smp = 1, .memory = 256,
	};
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': o.mode = optarg; break;
		case 'k': o.kernel = optarg; break;
		case 'i': o.initrd = optarg; break;
		case 's': o.spec = optarg; break;
		case 'd': o.dir = optarg; break;
		case 'a': o.accel = optarg; break;
		case 't': o.timeout = atoi(optarg); break;
		case 'r': o.steps = optarg; break;
		case 'S': o.scenario = optarg; break;
		case 'R': o.results = optarg; break;
		case 'c': o.console = optarg; break;
		case 'p': o.smp = atoi(optarg); break;
		case 'M': o.memory = atoi(optarg); break;
		case 'T': o.tag = optarg; break;
		case 'I': o.icount = true; break;
		case 'B': o.boot_phase = optarg; break;
		default: usage();
		}
	}
	printf("TAP version 13\n");
	if (!strcmp(cmd, "boot"))
		return boot(&o);
	if (!strcmp(cmd, "check"))
		return check(&o);
	if (!strcmp(cmd, "cross"))
		return cross(&o);
	if (!strcmp(cmd, "mutate"))
		return mutate(&o);
	if (!strcmp(cmd, "compat"))
		return compat(&o);
	usage();
	return 2;
}
