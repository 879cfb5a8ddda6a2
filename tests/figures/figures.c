// SPDX-License-Identifier: GPL-2.0
/*
 * figures: the one file of measured figures, written by the run that
 * measured them (tests/run-tests) into docs/figures.md.  The prose of the
 * docs refers to it and carries no timing or count of its own.
 *
 * usage: figures BUILDDIR COMMIT DATE BUILD_SECONDS TESTS_SECONDS OUT
 *
 * It reads what meson recorded of the run, BUILDDIR/meson-logs/
 * testlog.json (one JSON object per test: name, suite, result, duration,
 * stdout) and BUILDDIR/meson-info/intro-buildoptions.json (the options the
 * build was set up with), and the figures each test printed as TAP
 * comments "# figure: TEXT".  The build directory's size is measured
 * here.  OUT is written whole or not at all (a temporary file renamed).
 *
 * Bad input (a missing or truncated log, a test without name or result, a
 * log of no test) is an error naming the cause, exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#define FIGURE "# figure: "

struct test {
	char *name, *suites, *result, *figures;
	double seconds;
};

/* The command line. */
struct args {
	const char *build, *commit, *date, *out;
	long built, tested;	/* seconds of meson compile and meson test */
};

struct run {
	struct test *tests;
	int n, passed, failed, skipped;
	double main_job;	/* seconds of the suites the main job runs */
};

/* The meson options that change what a run builds and how long it takes. */
static const char *const options[] = {
	"trees", "modes", "accel", "extended_trees", "debug_trees", "sequence_trees",
	"tools_trees", "system_trees", "system_phases", "system_admin", "seq_ops",
	"overrides", "lava_phases",
};

/* The suites the main job (tests/run-matrix) runs. */
static const char *const main_suites[] = { "matrix", "userspace", "system" };

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("figures: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static const char *field(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

/* The TAP comments of a test's output that carry a figure, one per line. */
static char *figures_of(const char *out)
{
	char *buf = NULL, *line, *save, *copy = strdup(out ? out : "");
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, FIGURE, strlen(FIGURE)))
			fprintf(f, "- %s\n", line + strlen(FIGURE));
	fclose(f);
	free(copy);
	return buf;
}

/*
 * meson names a test "PROJECT:SUITE+SUITE / NAME"; the suites, separated
 * by spaces, and the name.
 */
static void split_name(const char *full, char **suites, char **name)
{
	const char *colon = strchr(full, ':'), *slash = strstr(full, " / ");
	char *p;

	if (!colon || !slash || colon > slash) {
		*suites = strdup("");
		*name = strdup(full);
		return;
	}
	*suites = strndup(colon + 1, slash - colon - 1);
	for (p = *suites; (p = strchr(p, '+')); )
		*p = ' ';
	*name = strdup(slash + 3);
}

/* Whether the space-separated list of suites names one of the main job's. */
static bool in_main_job(const char *suites)
{
	size_t i, len;
	const char *s;

	for (s = suites; *s; s += len + (s[len] == ' ')) {
		len = strcspn(s, " ");
		for (i = 0; i < sizeof(main_suites) / sizeof(*main_suites); i++)
			if (strlen(main_suites[i]) == len && !strncmp(s, main_suites[i], len))
				return true;
	}
	return false;
}

/* As tests/run-tests counts them: an expected failure passes. */
static void count(struct run *r, const struct test *t)
{
	if (!strcmp(t->result, "OK") || !strcmp(t->result, "EXPECTEDFAIL"))
		r->passed++;
	else if (!strcmp(t->result, "SKIP"))
		r->skipped++;
	else
		r->failed++;
	if (in_main_job(t->suites))
		r->main_job += t->seconds;
}

static void add_test(struct run *r, struct json_object *o, const char *log, int line)
{
	struct json_object *d;
	const char *name = field(o, "name"), *result = field(o, "result");
	struct test *t;

	if (!name || !result || !json_object_object_get_ex(o, "duration", &d))
		die("%s:%d: a test without name, result or duration; is this meson's testlog.json?",
		    log, line);
	r->tests = realloc(r->tests, (r->n + 1) * sizeof(*r->tests));
	t = &r->tests[r->n++];
	split_name(name, &t->suites, &t->name);
	t->result = strdup(result);
	t->seconds = json_object_get_double(d);
	t->figures = figures_of(field(o, "stdout"));
	count(r, t);
}

static void read_testlog(struct run *r, const char *log)
{
	FILE *f = fopen(log, "r");
	char *line = NULL;
	size_t cap = 0;
	int nr = 0;

	if (!f)
		die("%s: %s; run the tests first (meson test -C BUILDDIR)", log, strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		struct json_object *o = json_tokener_parse(line);

		nr++;
		if (!o || !json_object_is_type(o, json_type_object))
			die("%s:%d: not a JSON object (a truncated log?)", log, nr);
		add_test(r, o, log, nr);
		json_object_put(o);
	}
	free(line);
	fclose(f);
	if (!r->n)
		die("%s: no test in the log; a run of no test measures nothing", log);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct test *)a)->name, ((const struct test *)b)->name);
}

static unsigned long long disk_bytes;

static int add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path, (void)flag, (void)ftw;
	disk_bytes += (unsigned long long)st->st_blocks * 512;
	return 0;
}

/* An option's value as one would pass it: arrays as comma-separated lists. */
static void print_value(FILE *out, struct json_object *option)
{
	struct json_object *v;
	size_t i;

	json_object_object_get_ex(option, "value", &v);
	if (!json_object_is_type(v, json_type_array)) {
		fputs(json_object_get_string(v), out);
		return;
	}
	for (i = 0; i < json_object_array_length(v); i++)
		fprintf(out, "%s%s", i ? "," : "",
			json_object_get_string(json_object_array_get_idx(v, i)));
}

static void print_options(FILE *out, const char *build)
{
	char path[4096];
	struct json_object *all, *o = NULL;
	size_t i, j;

	snprintf(path, sizeof(path), "%s/meson-info/intro-buildoptions.json", build);
	all = json_object_from_file(path);
	if (!all || !json_object_is_type(all, json_type_array))
		die("%s: not meson's list of options; is %s a meson build directory?", path, build);
	fputs("| options |", out);
	for (i = 0; i < sizeof(options) / sizeof(*options); i++) {
		for (j = 0; j < json_object_array_length(all); j++) {
			o = json_object_array_get_idx(all, j);
			if (field(o, "name") && !strcmp(field(o, "name"), options[i]))
				break;
		}
		if (j == json_object_array_length(all))
			die("%s: no option %s (meson_options.txt); update figures.c's list", path, options[i]);
		fprintf(out, " `-D%s=", options[i]);
		print_value(out, o);
		fputc('`', out);
	}
	fputs(" |\n", out);
	json_object_put(all);
}

static void print_minutes(FILE *out, const char *what, long s)
{
	fprintf(out, "| %s | %ld s (%ld min %ld s) |\n", what, s, s / 60, s % 60);
}

static void print_run(FILE *out, const struct run *r, const struct args *a)
{
	/* tests/run-tests sets it; meson's own default is the processors */
	const char *jobs = getenv("MESON_TESTTHREADS");

	fputs("## The run\n\n| | |\n|---|---|\n", out);
	fprintf(out, "| commit | %s |\n| date (UTC) | %s |\n", a->commit, a->date);
	fprintf(out, "| processors | %ld |\n", sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "| tests at once (`MESON_TESTTHREADS`) | %s |\n",
		jobs ? jobs : "meson's default");
	print_options(out, a->build);
	print_minutes(out, "build (`meson compile`)", a->built);
	print_minutes(out, "tests (`meson test`)", a->tested);
	print_minutes(out, "the test command, `tests/run-tests`", a->built + a->tested);
	print_minutes(out, "this run's matrix, userspace and system suites (the main job's, which runs them on every tree), summed", (long)r->main_job);
	fprintf(out, "| build directory afterwards | %.1f GiB |\n",
		disk_bytes / (1024.0 * 1024 * 1024));
	fprintf(out, "| results | %d passed, %d failed, %d skipped |\n\n",
		r->passed, r->failed, r->skipped);
}

static void print_tests(FILE *out, const struct run *r)
{
	int i;

	fputs("## Each test\n\n| test | suites | result | seconds |\n|---|---|---|---|\n", out);
	for (i = 0; i < r->n; i++)
		fprintf(out, "| %s | %s | %s | %.0f |\n", r->tests[i].name,
			r->tests[i].suites, r->tests[i].result, r->tests[i].seconds);
	fputs("\n## What the tests measured\n\n"
	      "Each test's lines `# figure: ...`, as it printed them.\n", out);
	for (i = 0; i < r->n; i++)
		if (*r->tests[i].figures)
			fprintf(out, "\n### %s\n\n%s", r->tests[i].name, r->tests[i].figures);
}

/* The whole text is made first: an error leaves no file half-written. */
static void write_out(const struct run *r, const struct args *a)
{
	char tmp[4096], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int err;

	fputs("# Figures of the last measured run\n\n"
	      "Written by `tests/run-tests` (`tests/figures/figures.c`) from what\n"
	      "meson recorded of the run; do not edit.  The other documents refer\n"
	      "here for every time and count a run measures.  CI's clean clone runs\n"
	      "the same command.\n\n", out);
	print_run(out, r, a);
	print_tests(out, r);
	fclose(out);
	snprintf(tmp, sizeof(tmp), "%s.tmp", a->out);
	out = fopen(tmp, "w");
	if (!out)
		die("%s: %s", tmp, strerror(errno));
	if (fwrite(text, 1, len, out) != len) {
		err = errno;
		fclose(out);
		goto fail;
	}
	if (fclose(out) || rename(tmp, a->out)) {
		err = errno;
		goto fail;
	}
	free(text);
	return;
fail:
	unlink(tmp);
	die("%s: %s", a->out, strerror(err));
}

static long seconds_arg(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0)
		die("%s '%s' is not a count of seconds", what, s);
	return v;
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	struct args a;
	char log[4096];

	if (argc != 7)
		die("usage: figures BUILDDIR COMMIT DATE BUILD_SECONDS TESTS_SECONDS OUT");
	a = (struct args){
		.build = argv[1], .commit = argv[2], .date = argv[3], .out = argv[6],
		.built = seconds_arg(argv[4], "BUILD_SECONDS"),
		.tested = seconds_arg(argv[5], "TESTS_SECONDS"),
	};
	snprintf(log, sizeof(log), "%s/meson-logs/testlog.json", a.build);
	read_testlog(&r, log);
	qsort(r.tests, r.n, sizeof(*r.tests), by_name);
	if (nftw(a.build, add_size, 64, FTW_PHYS))
		die("%s: %s", a.build, strerror(errno));
	write_out(&r, &a);
	return 0;
}
