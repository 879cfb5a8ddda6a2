// SPDX-License-Identifier: GPL-2.0
/*
 * runner lava: run one job with Debian's lava-run and hold LAVA's verdicts
 * against the runner's.  The guest printed its records on the console as
 * well as its verdicts; the runner judges those records again with
 * judge_variant(), as it judges its own boots, and every case LAVA
 * recorded must have the runner's verdict, and the other way round.
 *
 *   --expect pass     the generated job (--job): every case passes in both
 *   --expect broken   the same job over an initramfs whose /spec.md has one
 *                     cell broken on purpose: that case fails in both
 *   --expect hang     a guest that hangs: the job fails, naming a timeout
 *   --expect bad-url  a kernel URL that does not exist: the job fails,
 *                     naming it
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console.h"
#include "../contract/judge_cases.h"
#include "cpio.h"
#include "lava.h"
#include "qemu.h"
#include "../contract/steps.h"
#include "tap.h"

/* lava-run standalone, no server: see lava.h. */
int lava_run(const char *job, const char *devdir, const char *out,
	     const char *log, int seconds, bool validate, bool *killed)
{
	char device[4200], dispatcher[4200], id[256];
	long start = now_ms();
	int status, fd;
	pid_t pid;

	snprintf(device, sizeof(device), "%s/device.yaml", devdir);
	snprintf(dispatcher, sizeof(dispatcher), "%s/dispatcher.yaml", devdir);
	/* lava-run keeps its files in /var/lib/lava/dispatcher/tmp/ID */
	snprintf(id, sizeof(id), "psmf-%d", (int)getpid());
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("lava-run", "lava-run", "--job-id", id, "--output-dir", out,
		       "--device", device, "--dispatcher", dispatcher, job,
		       validate ? "--validate" : (char *)NULL, (char *)NULL);
		_exit(127);
	}
	status = wait_limited(pid, start + seconds * 1000L, killed);
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 126)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The named cases among the runner's verdicts @vs, as LAVA records cases. */
static void runner_cases(const struct verdicts *vs, struct lava_log *l)
{
	int i;

	l->n = 0;
	for (i = 0; i < vs->n && l->n < LAVA_MAX_CASES; i++) {
		if (!vs->v[i].def)
			continue;
		snprintf(l->c[l->n].def, sizeof(l->c[l->n].def), "%s", vs->v[i].def);
		snprintf(l->c[l->n].id, sizeof(l->c[l->n].id), "%s", vs->v[i].id);
		l->c[l->n++].pass = vs->v[i].pass;
	}
}

static const struct lava_case *find_case(const struct lava_log *l,
					 const char *def, const char *id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->c[i].def, def) && !strcmp(l->c[i].id, id))
			return &l->c[i];
	return NULL;
}

static int count_def(const struct lava_log *l, const char *def)
{
	int i, n = 0;

	for (i = 0; i < l->n; i++)
		n += !strcmp(l->c[i].def, def);
	return n;
}

/*
 * Case for case: LAVA's verdict equals the runner's, and each is what the
 * spec wants (all pass, but @broken, which must fail).
 */
static void compare(struct verdicts *v, const char *tag,
		    const struct lava_log *lava, const struct lava_log *run,
		    const char *broken)
{
	static const char *const defs[] = { DEF_KUNIT, DEF_SCENARIOS, DEF_KSELFTEST };
	int i;

	for (i = 0; i < run->n; i++) {
		const struct lava_case *r = &run->c[i];
		const struct lava_case *l = find_case(lava, r->def, r->id);
		bool want = !(broken && !strcmp(r->def, DEF_SCENARIOS) &&
			      !strcmp(r->id, broken));
		bool ok = l && l->pass == r->pass && r->pass == want;

		verdict(v, ok, "%s %s/%s: LAVA %s, runner %s%s", tag, r->def,
			r->id, l ? (l->pass ? "pass" : "fail") : "recorded nothing",
			r->pass ? "pass" : "fail",
			want ? "" : " (broken on purpose: both must fail)");
	}
	for (i = 0; i < lava->n; i++)
		if (!find_case(run, lava->c[i].def, lava->c[i].id))
			verdict(v, false, "%s %s/%s: LAVA recorded it, the runner judged no such case",
				tag, lava->c[i].def, lava->c[i].id);
	for (i = 0; i < 3; i++)
		verdict(v, count_def(lava, defs[i]) > 0 &&
			count_def(lava, defs[i]) == count_def(run, defs[i]),
			"%s %s: LAVA recorded %d cases, the runner judged %d",
			tag, defs[i], count_def(lava, defs[i]),
			count_def(run, defs[i]));
}

/*
 * A copy of the spec @path in @out with one cell broken on purpose: the
 * first scenario of the main boot that @mode allows, said to be refused.
 * Returns the scenario's name, or NULL.
 */
static const char *break_spec(const char *path, int mode, const char *out)
{
	static char name[64];
	char head[80], *line = NULL, *p, *end;
	FILE *in = fopen(path, "r"), *t;
	struct spec spec;
	size_t cap = 0;
	int i, col;

	load_spec(path, &spec);
	name[0] = 0;
	for (i = 0; i < spec.n && !name[0]; i++)
		if (spec.row[i].cell[mode].outcome == ALLOWED &&
		    strncmp(spec.row[i].what, "own boot", 8))
			snprintf(name, sizeof(name), "%s", spec.row[i].name);
	snprintf(head, sizeof(head), "| %s |", name);
	t = fopen(out, "w");
	while (in && t && getline(&line, &cap, in) > 0) {
		/* | name | what | phase 0 | ...: the bar before the cell */
		for (p = line, col = 0; p && col < 2 + mode; col++)
			p = strchr(p + 1, '|');
		end = p ? strchr(p + 1, '|') : NULL;
		if (name[0] && !strncmp(line, head, strlen(head)) && end)
			fprintf(t, "%.*s| EPERM %s", (int)(p - line), line, end);
		else
			fputs(line, t);
	}
	free(line);
	if (in)
		fclose(in);
	if (!t || fclose(t) || !name[0])
		return NULL;
	load_spec(out, &spec);
	return spec_find(&spec, name) &&
	       spec_find(&spec, name)->cell[mode].outcome == REFUSED ? name : NULL;
}

/* @initrd with a second archive appended that replaces /spec.md. */
static int broken_initrd(const char *initrd, const char *spec, const char *out)
{
	size_t len;
	char *text = slurp(spec, &len);
	int ret = text ? initrd_with_file(initrd, "spec.md", text, len, out) : -1;

	free(text);
	return ret;
}

static bool lava_root(void)
{
	if (geteuid())
		printf("Bail out! lava-run runs only as root: run the lava suite as root\n");
	return !geteuid();
}

static int no_lava_run(void)
{
	printf("Bail out! cannot run lava-run (apt-get install lava-dispatcher; tests/setup tests installs it)\n");
	return 2;
}

/* Where one lava run keeps its files, under --dir. */
struct lava_paths {
	char out[4200], log[4200], console[4200], records[4200];
	char job[4200], spec[4200], initrd[4200];
};

/*
 * The job for --expect other than pass: the generated job's variant, over
 * a broken spec, a hanging guest or a kernel that is not there.  Returns
 * the broken scenario's name for broken, "" otherwise, NULL on failure.
 */
static const char *derive_job(const struct opts *o, struct lava_job *j,
			      struct lava_paths *p, int mode)
{
	const char *broken = "";
	char missing[4300];
	FILE *f;

	lava_url(NULL, o->kernel, j->kernel, sizeof(j->kernel));
	lava_url(NULL, o->initrd, j->initrd, sizeof(j->initrd));
	if (!strcmp(o->expect, "broken")) {
		snprintf(p->spec, sizeof(p->spec), "%.4000s/spec-broken.md", p->out);
		snprintf(p->initrd, sizeof(p->initrd), "%.4000s/initramfs-broken.cpio",
			 p->out);
		broken = break_spec(o->spec, mode, p->spec);
		if (!broken || broken_initrd(o->initrd, p->spec, p->initrd))
			return NULL;
		lava_url(NULL, p->initrd, j->initrd, sizeof(j->initrd));
	} else if (!strcmp(o->expect, "hang")) {
		/* No init, and a panic that waits for ever: the guest hangs. */
		j->extra = "rdinit=/nonexistent panic=0";
		j->timeout = 30;
		j->alone = false;
	} else if (!strcmp(o->expect, "bad-url")) {
		snprintf(missing, sizeof(missing), "%.4000s/no-such-bzImage", p->out);
		snprintf(j->kernel, sizeof(j->kernel), "file://%.4000s", missing);
		j->alone = false;
	} else {
		return NULL;
	}
	snprintf(p->job, sizeof(p->job), "%.4000s/job.yaml", p->out);
	f = fopen(p->job, "w");
	if (!f)
		return NULL;
	lava_write_job(f, o, j);
	return fclose(f) ? NULL : broken;
}

/* A job that must fail: it did, in time, and says why. */
static void check_failed_job(struct verdicts *v, const struct opts *o,
			     const struct lava_log *l, bool killed, long ms)
{
	const char *want = strcmp(o->expect, "hang") ? "does not exist" :
			   "timed out";

	verdict(v, l->job_seen && !l->job_pass,
		"%s: the LAVA job failed (%s)", o->expect,
		l->job_seen ? l->job_error : "lava-run recorded no result for the job");
	verdict(v, strstr(l->job_error, want) != NULL,
		"%s: its reason says '%s'", o->expect, want);
	verdict(v, !killed, "%s: it ended by itself within its timeout (%.1f s)",
		o->expect, ms / 1000.0);
}

/*
 * The runner's verdicts on the records and console of the LAVA boots: its
 * named cases into @cases, for compare(), and one verdict on @v for all
 * its other checks, the failed ones shown.  Returns how many of those
 * failed.
 */
static int judge_lava_boots(struct verdicts *v, const struct opts *o,
			     int mode, const struct lava_paths *p,
			     struct lava_log *cases)
{
	struct verdicts runner = VERDICTS_QUIET;
	struct opts jo = *o;
	struct spec spec;
	char alone[4300];
	int failed;

	jo.steps = PSMF_STEPS_DEFAULT;
	jo.scenario = NULL;
	load_spec(p->spec, &spec);
	judge_variant(&runner, &jo, &spec, mode, p->records, p->console);
	snprintf(alone, sizeof(alone), "%.4200s.alone", p->console);
	check_splats_in(&runner, alone, "the boots of their own");
	runner_cases(&runner, cases);
	failed = verdicts_failed_checks(&runner);
	if (failed)
		verdicts_show_failed(&runner, "runner");
	verdict(v, !failed,
		"%s: the runner's other checks of the LAVA boots pass (the guest ran to its end, KUnit, no splat, the kselftest's exit)",
		o->tag);
	verdicts_free(&runner);
	return failed;
}

/*
 * What the lava test checks of a variant's job, each a verdict on @v: it
 * completed, the runner's checks of its boots, and LAVA's verdicts against
 * the runner's.  Returns how many checks failed: those on @v, and the
 * runner's own that judge_lava_boots() sums up in one.
 */
static int check_job(struct verdicts *v, const struct opts *o,
		     const struct lava_paths *p, int mode,
		     const struct lava_log *lava, bool killed,
		     const char *broken)
{
	static struct lava_log cases;	/* large: off the stack */
	int before = verdicts_failed(v), runner_failed;

	verdict(v, lava->job_seen && lava->job_pass && !killed,
		"%s: the LAVA job completed%s%s", o->tag,
		lava->job_error[0] ? ": " : "", lava->job_error);
	runner_failed = judge_lava_boots(v, o, mode, p, &cases);
	compare(v, o->tag, lava, &cases, broken);
	return verdicts_failed(v) - before + runner_failed;
}

/* check_job() as data only, the failed shown: how many of its checks failed. */
static int failed_job_checks(const struct opts *o, const struct lava_paths *p,
			     int mode, const struct lava_log *lava, bool killed)
{
	struct verdicts v = VERDICTS_QUIET;
	int failed = check_job(&v, o, p, mode, lava, killed, NULL);

	verdicts_show_failed(&v, "lava test");
	verdicts_free(&v);
	return failed;
}

static void lava_paths(const struct opts *o, struct lava_paths *p)
{
	snprintf(p->out, sizeof(p->out), "%s/lava-%s", o->dir, o->tag);
	snprintf(p->log, sizeof(p->log), "%s/lava-%s.log", o->dir, o->tag);
	snprintf(p->console, sizeof(p->console), "%s/console-lava-%s.log",
		 o->dir, o->tag);
	snprintf(p->records, sizeof(p->records), "%s/results-lava-%s.txt",
		 o->dir, o->tag);
	snprintf(p->job, sizeof(p->job), "%s", o->job);
	snprintf(p->spec, sizeof(p->spec), "%s", o->spec);
}

/*
 * The job to run: @o's as given, or for --expect other than pass one
 * derived from it (*@broken names what it breaks).  0, or 2 to stop.
 */
static int prepare_job(const struct opts *o, struct lava_job *j,
		       struct lava_paths *p, int mode, const char **broken)
{
	if (!lava_root())
		return 2;
	lava_paths(o, p);
	if (mkdir(p->out, 0755) && errno != EEXIST)
		return perror(p->out), 2;
	*broken = "";
	if (!strcmp(o->expect, "pass"))
		return 0;
	if (!o->kernel || !o->initrd)
		usage();
	*broken = derive_job(o, j, p, mode);
	if (!*broken) {
		printf("Bail out! cannot write the %s job in %s\n", o->expect,
		       p->out);
		return 2;
	}
	return 0;
}

/*
 * A job broken on purpose: the runner judging by the true spec disagrees
 * with LAVA on exactly the broken case, so the comparison can fail.
 */
static void broken_disagrees(struct verdicts *v, const struct opts *o,
			     struct lava_paths *p, int mode,
			     const struct lava_log *lava, bool killed,
			     const char *broken)
{
	int status;

	snprintf(p->spec, sizeof(p->spec), "%s", o->spec);
	status = failed_job_checks(o, p, mode, lava, killed);
	verdict(v, status == 1, "%s: judged by the true spec, the runner disagrees with LAVA on %s alone (%d checks failed)",
		o->tag, broken, status);
}

/*
 * runner lava --job FILE --dir OUT --spec SPEC --mode MODE --tag TAG
 *             [--boot-phase MODE] [--timeout S]
 *             [--expect broken|hang|bad-url --kernel BZIMAGE --initrd CPIO]
 */
int cmd_lava(const struct opts *o)
{
	struct lava_job j = { .tag = o->tag, .mode = o->mode,
			      .phase = o->boot_phase, .alone = true,
			      .timeout = o->timeout };
	struct verdicts v = VERDICTS_TAP;
	const char *broken;
	struct lava_paths p;
	struct lava_log lava;
	char devdir[4096];
	int mode, status;
	bool killed;
	long start;

	if (!o->job || !o->dir || !o->spec || !o->tag || !o->expect)
		usage();
	need_mode(o->mode);
	mode = need_mode(o->boot_phase ? o->boot_phase : o->mode);
	snprintf(devdir, sizeof(devdir), "%s", o->job);
	dirname(devdir);
	if (prepare_job(o, &j, &p, mode, &broken))
		return 2;
	start = now_ms();
	status = lava_run(p.job, devdir, p.out, p.log, lava_job_seconds(&j) + 60,
			  false, &killed);
	if (status < 0)
		return no_lava_run();
	lava_read_log(p.log, &lava, p.console, p.records);
	printf("# %s: lava-run exit %d, log %s\n", o->tag, status, p.log);
	tap_figure("%s: lava-run took %.1f s", o->tag, (now_ms() - start) / 1000.0);
	if (!strcmp(o->expect, "hang") || !strcmp(o->expect, "bad-url")) {
		check_failed_job(&v, o, &lava, killed, now_ms() - start);
		/* and a variant's lava test on such a job must fail */
		status = failed_job_checks(o, &p, mode, &lava, killed);
		verdict(&v, status > 0,
			"%s: as a variant's job it fails the lava test (%d checks failed)",
			o->expect, status);
		return verdicts_tap_end(&v);
	}
	check_job(&v, o, &p, mode, &lava, killed, *broken ? broken : NULL);
	if (*broken)
		broken_disagrees(&v, o, &p, mode, &lava, killed, broken);
	return verdicts_tap_end(&v);
}

/*
 * runner lava-validate --dir JOBS: lava-run --validate on every job that
 * lava-jobs wrote, as a lab's dispatcher would check them.
 */
static int is_job(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return len > 5 && !strcmp(e->d_name + len - 5, ".yaml") &&
	       strcmp(e->d_name, "device.yaml") &&
	       strcmp(e->d_name, "dispatcher.yaml");
}

int cmd_lava_validate(const struct opts *o)
{
	char out[4200], log[4200], job[4400];
	struct dirent **jobs;
	struct lava_log lava;
	bool killed;
	int i, n, status;
	struct verdicts v = VERDICTS_TAP;

	if (!o->dir)
		usage();
	if (!lava_root())
		return 2;
	n = scandir(o->dir, &jobs, is_job, alphasort);
	if (n < 0) {
		printf("Bail out! %s: %s (meson compile -C build lava-jobs)\n",
		       o->dir, strerror(errno));
		return 2;
	}
	snprintf(out, sizeof(out), "%.4000s-validate", o->dir);
	snprintf(log, sizeof(log), "%.4000s-validate.log", o->dir);
	mkdir(out, 0755);
	for (i = 0; i < n; i++) {
		snprintf(job, sizeof(job), "%s/%s", o->dir, jobs[i]->d_name);
		status = lava_run(job, o->dir, out, log, 60, true, &killed);
		if (status < 0)
			return no_lava_run();
		lava_read_log(log, &lava, NULL, NULL);
		verdict(&v, !status && lava.job_seen && lava.job_pass,
			"lava-run --validate %s%s%s", jobs[i]->d_name,
			lava.job_error[0] ? ": " : "", lava.job_error);
		free(jobs[i]);
	}
	free(jobs);
	verdict(&v, n > 0, "%d jobs validated in %s", n, o->dir);
	return verdicts_tap_end(&v);
}

/*
 * runner lava-log --job LOG --results FILE --console FILE: the records and
 * the console of a LAVA job's log (lava-run's output, or a lab's log in
 * the same form), for runner check and runner cross.
 */
int cmd_lava_log(const struct opts *o)
{
	struct lava_log lava;
	int i, fails = 0;
	struct verdicts v = VERDICTS_TAP;

	if (!o->job || !o->results || !o->console)
		usage();
	if (lava_read_log(o->job, &lava, o->console, o->results)) {
		printf("Bail out! cannot read %s or write %s, %s\n", o->job,
		       o->results, o->console);
		return 2;
	}
	for (i = 0; i < lava.n; i++)
		fails += !lava.c[i].pass;
	verdict(&v, lava.n > 0, "%s: LAVA recorded %d cases, %d failed; job %s%s%s",
		o->job, lava.n, fails, !lava.job_seen ? "result missing" :
		lava.job_pass ? "complete" : "failed", lava.job_error[0] ? ": " : "",
		lava.job_error);
	return verdicts_tap_end(&v);
}
