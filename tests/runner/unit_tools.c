// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' expected verdicts (tool_spec.c): tests/tools.md loads, a bad
 * table is refused with its cause, and a run is judged by its row's cell.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "tap.h"
#include "tool_spec.h"
#include "unit_tools.h"

#define HEADER "| tool | legacy | warn | implicit | enforce | what |\n|---|---|---|---|---|---|\n"

int unit_temp_file(char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd = mkstemp(path);
	bool ok = fd >= 0 && write(fd, text, len) == len;

	if (fd >= 0)
		close(fd);
	if (fd >= 0 && !ok)
		unlink(path);
	return ok ? 0 : -1;
}

/* Load @text as a table for @release; the error, or "" when it loaded. */
static const char *load_release(const char *text, const char *release,
				struct tool_spec *ts)
{
	static char err[512];
	char path[] = "/tmp/psmf-tools-XXXXXX";

	err[0] = 0;
	if (unit_temp_file(path, text))
		return strcpy(err, "cannot write a file in /tmp");
	if (tool_spec_load(path, release, ts, err, sizeof(err)) == 0)
		err[0] = 0;
	else if (!err[0])
		snprintf(err, sizeof(err), "refused without a cause");
	unlink(path);
	return err;
}

static const char *load_text(const char *text, struct tool_spec *ts)
{
	return load_release(text, NULL, ts);
}

/* A cell's verdict per Debian release. */
static void test_release_cells(void)
{
	static const char text[] = HEADER
		"| a | works | works, trixie: warns, forky: fails | works | works | x |\n";
	static const struct {
		const char *release, *want;
	} cases[] = { { NULL, "works" }, { "bookworm", "works" },
		      { "trixie", "warns" }, { "forky", "fails" }, { "trix", "works" } };
	struct tool_spec ts;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		tap(!load_release(text, cases[i].release, &ts)[0] &&
		    !strcmp(ts.row[0].verdict[PHASE_WARN], cases[i].want),
		    "tools.md: 'works, trixie: warns, forky: fails' is %s for %s", cases[i].want,
		    cases[i].release ? cases[i].release : "no release named");
}

static void test_bad_tables(void)
{
	static const struct {
		const char *text, *cause;
	} bad[] = {
		{ "| tool | warn | legacy | implicit | enforce | what |\n", "want the header" },
		{ HEADER "| a | works | warns | works | broken | x |\n", "'broken': want works" },
		{ HEADER "| a | works | warns | works | fails |\n", "cells, want 6" },
		{ HEADER "| a | works | warns | works | fails | x |\n"
			 "| a | works | works | works | works | y |\n", "a twice" },
		{ HEADER, "no table of tool rows" },
		{ HEADER "| a | trixie: works | warns | works | fails | x |\n", "'trixie: works'" },
		{ HEADER "| a | works, trixie warns | warns | works | fails | x |\n", "want works" },
		{ HEADER "| a | works, trixie: broken | warns | works | fails | x |\n", "want works" },
		{ HEADER "| a | works foo | warns | works | fails | x |\n", "want works" },
		{ HEADER "| a | works,, trixie: warns | warns | works | fails | x |\n", "want works" },
		{ HEADER "| a | works, trixie : warns | warns | works | fails | x |\n", "want works" },
		{ HEADER "|\n", "cells, want 6" },
		{ HEADER "| a | works | warns | works | fails | x |\n\n"
			 "| b | works | warns | works | fails | x |\n"
			 "| c | works | warns | works | fails | x |\n", ":5: a row cut off from a table (a blank" },
		{ HEADER "| a | works | warns | works | fails | x |\ntext\n"
			 "| b | works | warns | works | fails | x |\n", "at the end" },
	};
	struct tool_spec ts;
	const char *err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		err = load_text(bad[i].text, &ts);
		tap(strstr(err, bad[i].cause) != NULL,
		    "tools.md: a bad table is refused naming its cause (%s): %s",
		    bad[i].cause, err[0] ? err : "loaded");
	}
	err = load_text(HEADER "| a | works | warns | works | fails | x |\n\ntext\n\n"
			"| other | table |\n|---|---|\n| x | y |\n", &ts);
	tap(!err[0] && ts.n == 1, "tools.md: another table after the tools' is left alone (%s)",
	    err[0] ? err : "loaded");
}

/* A row's needs: a mount point, or a mount point and a super block option. */
static void test_needs(void)
{
	char good[] = "probe proc /proc rw,nosuid,nodev,noexec,relatime rw,hidepid=invisible,subset=pid";
	char bare[] = "probe proc /proc rw,nosuid,nodev,noexec,relatime rw,hidepid=invisible2";
	struct tool_run t = { .n_out = 1, .out = { good } };
	char buf[256];

	snprintf(t.needs, sizeof(t.needs), "/proc:hidepid=invisible /proc:subset=pid");
	tap(!tool_missing(&t, buf, sizeof(buf)),
	    "tools: a mount with the options a row needs is not missing");
	t.out[0] = bare;
	tap(tool_missing(&t, buf, sizeof(buf)) && !strcmp(buf, "/proc:hidepid=invisible"),
	    "tools: an option that only starts like the one needed does not count (%s)", buf);
	snprintf(t.needs, sizeof(t.needs), "/sys");
	tap(tool_missing(&t, buf, sizeof(buf)) && !strcmp(buf, "/sys"),
	    "tools: a mount point with no proc or sysfs mount is missing");
}

/* Whether @pkg is a line of packages.txt (@path), "tests:" or not. */
static bool in_packages_txt(const char *path, const char *pkg)
{
	FILE *f = fopen(path, "r");
	char line[256];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		found = !strcmp(line, pkg) || (!strncmp(line, "tests:", 6) &&
					      !strcmp(line + 6, pkg));
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * initramfs/tools.list (@dir: tests/, with a trailing slash), the one list
 * of the container tools and their packages: "PATH PACKAGE" lines, each
 * path once, each package named nowhere else (not in packages.txt).
 */
static void test_tool_list(int dir, const char *spec_path)
{
	char path[4096], pkgs[4096], line[512], bin[256], pkg[128], end;
	char seen[64][256];
	int n = 0, bad = 0, twice = 0, elsewhere = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s../initramfs/tools.list", dir, spec_path);
	snprintf(pkgs, sizeof(pkgs), "%.*spackages.txt", dir, spec_path);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (line[strspn(line, " \t")] == '#' || line[strspn(line, " \t\n")] == 0)
			continue;
		if (sscanf(line, "%255s %127s %c", bin, pkg, &end) != 2 ||
		    bin[0] != '/' || strspn(pkg, "abcdefghijklmnopqrstuvwxyz0123456789+-.") != strlen(pkg)) {
			bad++;
			continue;
		}
		for (i = 0; i < n && i < 64; i++)
			twice += !strcmp(seen[i], bin);
		if (n < 64)
			snprintf(seen[n], sizeof(seen[n]), "%s", bin);
		n++;
		elsewhere += in_packages_txt(pkgs, pkg);
	}
	if (f)
		fclose(f);
	tap(f && n > 0 && n <= 64 && !bad,
	    "tools.list: %d lines PATH PACKAGE, %d malformed (%s)", n, bad, path);
	tap(!twice, "tools.list: each path once (%d twice)", twice);
	tap(!elsewhere && in_packages_txt(pkgs, "qemu-system-x86"),
	    "tools.list: no package of it is also in packages.txt (%d are)", elsewhere);
}

void test_tool_spec(const char *spec_path)
{
	char path[4096], why[512];
	const char *slash = strrchr(spec_path, '/');
	struct tool_spec ts;
	struct run run;
	const struct tool_run *t;
	bool ok;
	int dir = slash ? (int)(slash - spec_path + 1) : 0;

	snprintf(path, sizeof(path), "%.*stools.md", dir, spec_path);
	ok = !tool_spec_load(path, NULL, &ts, why, sizeof(why));
	tap(ok && ts.n > 0, "tools.md loads: %d rows%s%s", ts.n, ok ? "" : ": ",
	    ok ? "" : why);
	test_bad_tables();
	test_release_cells();
	test_needs();
	test_tool_list(dir, spec_path);

	snprintf(path, sizeof(path), "%.*sfixtures/results-tools.txt", dir, spec_path);
	if (run_load(path, &run) || run.n_tools < 3) {
		tap(false, "tools: %s loads", path);
		return;
	}
	t = &run.tools[2];	/* mount-proc, which warns */
	load_text(HEADER "| mount-proc | works | warns | works | fails | x |\n", &ts);
	tap(tool_judge(&ts, t, PHASE_WARN, why, sizeof(why)),
	    "tools: a run that warns, where the cell says warns, passes (%s)", why);
	tap(!tool_judge(&ts, t, PHASE_LEGACY, why, sizeof(why)) &&
	    !strcmp(why, "mount-proc under legacy: expected works, the run gave warns"),
	    "tools: where the cell says otherwise it fails, naming row, phase and both verdicts (%s)",
	    why);
	tap(!tool_judge(&ts, &run.tools[0], PHASE_WARN, why, sizeof(why)) &&
	    strstr(why, "no row for it"),
	    "tools: a row the table lacks fails (%s)", why);
	run_free(&run);
}
