// SPDX-License-Identifier: GPL-2.0
/*
 * figures, from outside: the program is run on hand-made build
 * directories (meson's test log and options) and its file judged.
 *
 * usage: figures_test FIGURES
 *
 * What a good log gives: every test a row, sorted by name, with its
 * suites; the counts of results add up to the rows; each test's figures
 * under its name, and no heading for a test without any; the main job's
 * time sums exactly the tests of its suites (matched by whole name).
 * Bad input: exit status 1, a message naming the cause, and the output
 * file as it was (never half-written, no temporary left).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../runner/tap.h"

static const char *figures;
static char dir[] = "/tmp/figures-test.XXXXXX";
static char out_path[4200], err_path[4200];

static void put(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t len = 0;

	buf[0] = 0;
	if (f) {
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[len] = 0;
	return buf;
}

/* Run figures on the directory; its exit status, stderr in err_path. */
static int run(const char *build_seconds)
{
	char cmd[16384];
	int status;

	snprintf(cmd, sizeof(cmd), "'%s' '%s' abc1234 2026-01-02 %s 20 '%s' 2>'%s'",
		 figures, dir, build_seconds, out_path, err_path);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define OPTIONS "[" \
	"{\"name\": \"trees\", \"value\": [\"6.1\", \"6.12\"]}," \
	"{\"name\": \"modes\", \"value\": [\"all\"]}," \
	"{\"name\": \"accel\", \"value\": \"tcg\"}," \
	"{\"name\": \"extended_trees\", \"value\": [\"6.1\"]}," \
	"{\"name\": \"debug_trees\", \"value\": [\"none\"]}," \
	"{\"name\": \"sequence_trees\", \"value\": [\"6.1\"]}," \
	"{\"name\": \"tools_trees\", \"value\": [\"newest\"]}," \
	"{\"name\": \"system_trees\", \"value\": [\"6.12\"]}," \
	"{\"name\": \"system_phases\", \"value\": [\"legacy\", \"warn\"]}," \
	"{\"name\": \"system_admin\", \"value\": false}," \
	"{\"name\": \"seq_ops\", \"value\": 50000}," \
	"{\"name\": \"overrides\", \"value\": \"next\"}," \
	"{\"name\": \"lava_phases\", \"value\": \"last\"}]\n"

#define TEST(name, result, secs, out) \
	"{\"name\": \"p:" name "\", \"result\": \"" result "\", " \
	"\"duration\": " secs ", \"stdout\": \"" out "\"}\n"

static const char good_log[] =
	TEST("6.1+warn+matrix / 6.1-warn", "OK", "12.4",
	     "TAP version 13\\n# figure: warn: guest ran 11.0 s under tcg\\nok 1 - x\\n")
	TEST("unit / host-unit", "OK", "0.4", "ok 1 - y\\n")
	TEST("6.1+userspace / 6.1-userspace-warn", "FAIL", "30.0",
	     "# figure: a\\n# not a figure\\n# figure: b\\n")
	TEST("6.1+matrixx / 6.1-other", "SKIP", "100.0", "")
	TEST("6.12+system / 6.12-system-warn", "OK", "8.0", "");

static void good(void)
{
	const char *s, *other, *userspace, *warn, *unit;
	int status = run("1334");

	tap(status == 0, "a good log: exit 0 (%s)", slurp(err_path));
	s = slurp(out_path);
	tap(strstr(s, "| results | 3 passed, 1 failed, 1 skipped |") != NULL,
	   "the results add up to the five rows");
	tap(strstr(s, "| 6.1-warn | 6.1 warn matrix | OK | 12 |") != NULL,
	   "a row: name, suites, result, seconds");
	other = strstr(s, "| 6.1-other |");
	userspace = strstr(s, "| 6.1-userspace-warn |");
	warn = strstr(s, "| 6.1-warn |");
	unit = strstr(s, "| host-unit |");
	tap(other && userspace && warn && unit &&
	    other < userspace && userspace < warn && warn < unit,
	    "rows sorted by name");
	tap(strstr(s, "### 6.1-warn\n\n- warn: guest ran 11.0 s under tcg\n") != NULL,
	   "a test's figure under its name");
	tap(strstr(s, "### 6.1-userspace-warn\n\n- a\n- b\n") != NULL &&
	   !strstr(s, "not a figure"), "only the lines marked as figures");
	tap(!strstr(s, "### host-unit") && !strstr(s, "### 6.1-other"),
	   "no heading for a test without figures");
	tap(strstr(s, "| this run's matrix, userspace and system suites (the main job's, which runs them on every tree), summed | 50 s") != NULL,
	   "the main job's time: 12.4 + 30.0 + 8.0, not the suite 'matrixx'");
	tap(strstr(s, "`-Dtrees=6.1,6.12`") && strstr(s, "`-Dseq_ops=50000`") &&
	    strstr(s, "`-Dsystem_phases=legacy,warn`") && strstr(s, "`-Doverrides=next`") &&
	    strstr(s, "`-Dlava_phases=last`") && strstr(s, "`-Dtools_trees=newest`") &&
	    strstr(s, "`-Dsystem_admin=false`"),
	   "the build's options as one passes them");
	tap(strstr(s, "| the test command, `tests/run-tests` | 1354 s (22 min 34 s) |") != NULL,
	   "the test command's time: build and tests");
}

/* Bad input leaves the file before it untouched and says why. */
static void bad(const char *what, const char *log, const char *secs, const char *cause)
{
	char tmp[4300];
	int status;

	put("meson-logs/testlog.json", log);
	put("figures.md", "before\n");
	snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
	status = run(secs);
	tap(status == 1 && strstr(slurp(err_path), cause) &&
	    !strcmp(slurp(out_path), "before\n") && access(tmp, F_OK),
	    "%s: exit 1, names '%s', the file as it was", what, cause);
}

int main(int argc, char **argv)
{
	char path[4200];
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: figures_test FIGURES\n");
		return 2;
	}
	figures = argv[1];
	if (!mkdtemp(dir))
		return 2;
	snprintf(path, sizeof(path), "%s/meson-logs", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/meson-info", dir);
	mkdir(path, 0755);
	snprintf(out_path, sizeof(out_path), "%s/figures.md", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	put("meson-info/intro-buildoptions.json", OPTIONS);
	put("meson-logs/testlog.json", good_log);
	good();
	bad("a truncated log", TEST("unit / a", "OK", "1", "") "{\"name\": \"p:unit / b\", \"res",
	    "1", "testlog.json:2: not a JSON object");
	bad("a log of no test", "", "1", "no test in the log");
	bad("a foreign JSON log", "{\"test\": 1}\n", "1", "without name, result or duration");
	bad("a build time that is no number", good_log, "12x", "BUILD_SECONDS '12x'");
	put("meson-info/intro-buildoptions.json", "[{\"name\": \"trees\", \"value\": []}]");
	bad("a build without the options it reports", good_log, "1", "no option modes");
	snprintf(path, sizeof(path), "%s/meson-logs/testlog.json", dir);
	unlink(path);
	put("figures.md", "before\n");
	status = run("1");
	tap(status == 1 && strstr(slurp(err_path), "run the tests first") &&
	   !strcmp(slurp(out_path), "before\n"),
	   "no test log: exit 1, says to run the tests first, the file as it was");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		return 2;
	return tap_end();
}
