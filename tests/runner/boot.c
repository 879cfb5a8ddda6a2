// SPDX-License-Identifier: GPL-2.0
/*
 * runner boot: boot one variant under QEMU, then once more for each
 * scenario that asked for a boot of its own, and judge the results.
 * runner check: judge results already on disk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"
#include "qemu.h"
#include "runner.h"
#include "scenario_table.h"
#include "../contract/steps.h"
#include "tap.h"

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
 * The scenarios that need a boot of their own (they raise the phase, or
 * need a boot parameter), planned from the scenario table: one boot each,
 * its results appended to @results, its console to @console.  The guest
 * must have left out exactly those of the main boot, which must have run
 * to its end: a main boot that failed gets no more boots.
 */
static void boot_alone(struct verdicts *v, const struct opts *o,
		       const char *results, const char *console)
{
	char append[1024], tmp_res[4300], tmp_con[4300], what[128];
	struct scenario_info s;
	bool timed_out;
	struct run run;
	int status, n = 0, missing = 0;
	size_t i;

	if (run_load(results, &run) || !run.ended) {
		printf("# the main boot did not run to its end: no boots of their own\n");
		run_free(&run);
		return;
	}
	snprintf(tmp_res, sizeof(tmp_res), "%s.tmp", results);
	snprintf(tmp_con, sizeof(tmp_con), "%s.tmp", console);
	for (i = 0; i < scenario_count(); i++) {
		scenario_get(i, &s);
		if (!s.alone || (o->scenario && strcmp(o->scenario, s.name)))
			continue;
		if (!run_left_out(&run, s.name)) {
			printf("# %s: the guest did not leave it out of the main boot\n", s.name);
			missing++;
		}
		command_line(o, s.name, s.boot ? s.boot : "", append, sizeof(append));
		status = run_qemu(o, append, tmp_res, tmp_con, &timed_out);
		snprintf(what, sizeof(what), "%s %s", o->tag ? o->tag : o->mode, s.name);
		check_qemu(v, o, what, status, timed_out);
		append_file(tmp_res, results);
		append_file(tmp_con, console);
		n++;
	}
	verdict(v, !missing && run.n_alone == n,
		"the guest left out of the main boot the %d scenarios the scenario table boots alone (it left out %d)",
		n, run.n_alone);
	printf("# %s: %d scenarios in boots of their own\n", o->tag ? o->tag : o->mode, n);
	run_free(&run);
}

/*
 * Record a file the boot was made from, so that a test that reads these
 * results later can tell whether they belong to the build it judges.
 */
void made_from(FILE *f, const char *path)
{
	char *abs = realpath(path, NULL);
	long long mtime_ns, size;

	if (abs && !file_stamp(abs, &mtime_ns, &size))
		fprintf(f, "host file %s mtime=%lld size=%lld\n", abs, mtime_ns, size);
	free(abs);
}

/* The phase a boot is judged as: the one it was told, or built as. */
int judged_mode(const struct opts *o)
{
	return need_mode(o->boot_phase ? o->boot_phase : o->mode);
}

/*
 * After a boot that started at @start: its wall time and the two files
 * it was made from (made_from()), at the end of @results.
 */
void record_boot(const char *results, long start, const char *kernel,
		 const char *from)
{
	FILE *f = fopen(results, "a");

	if (!f)
		return;
	fprintf(f, "host wall_ms=%ld\n", now_ms() - start);
	made_from(f, kernel);
	made_from(f, from);
	fclose(f);
}

/* @buf = @o->dir/PREFIX-TAG.EXT, or the path given. */
static void out_path(const struct opts *o, const char *given,
		     const char *prefix, const char *ext, char *buf,
		     size_t len)
{
	if (given)
		snprintf(buf, len, "%s", given);
	else
		snprintf(buf, len, "%s/%s-%s.%s", o->dir, prefix,
			 o->tag ? o->tag : o->mode, ext);
}

/* Boot the variant, then each scenario that needs its own boot; judge. */
int cmd_boot(const struct opts *o)
{
	char results[4096], console[4096], alone_con[4200], append[1024];
	int mode, status;
	long start;
	bool timed_out;
	struct spec spec;
	struct verdicts v = VERDICTS_TAP;

	if (!o->kernel || !o->initrd || !o->dir || !o->spec)
		usage();
	need_mode(o->mode);
	mode = judged_mode(o);
	load_spec(o->spec, &spec);
	out_path(o, o->results, "results", "txt", results, sizeof(results));
	out_path(o, o->console, "console", "log", console, sizeof(console));
	snprintf(alone_con, sizeof(alone_con), "%.4090s.alone", console);
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
	check_qemu(&v, o, o->mode, status, timed_out);
	if (!timed_out && !o->no_alone && step_wanted(o->steps, "matrix"))
		boot_alone(&v, o, results, alone_con);
	record_boot(results, start, o->kernel, o->initrd);
	tap_figure("%s: guest ran %.1f s under %s", o->tag ? o->tag : o->mode,
		   (now_ms() - start) / 1000.0, o->accel);
	judge_variant(&v, o, &spec, mode, results, console);
	if (!access(alone_con, F_OK))
		check_splats_in(&v, alone_con, "the boots of their own");
	return verdicts_tap_end(&v);
}

int cmd_check(const struct opts *o)
{
	struct spec spec;
	struct verdicts v = VERDICTS_TAP;
	int mode = judged_mode(o);

	if (!o->results || !o->spec)
		usage();
	load_spec(o->spec, &spec);
	judge_variant(&v, o, &spec, mode, o->results,
		      o->console ? o->console : "/dev/null");
	return verdicts_tap_end(&v);
}
