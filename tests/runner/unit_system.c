// SPDX-License-Identifier: GPL-2.0
/*
 * A booted Debian system (initramfs/system.c, tests/runner/system.c): its
 * records load, tests/system.md loads for every release a tree boots, and its
 * table of raises in /etc/sysctl.d/ (sysctl_spec.c) loads, refuses a bad
 * row with its cause, and judges a boot by its row; the GRUB step's two
 * boots are judged (grub_judge.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grub_judge.h"
#include "report.h"
#include "sysctl_spec.h"
#include "tap.h"
#include "tool_spec.h"
#include "unit_tools.h"

/* @text loaded as a run's results; 0, or -1. */
static int load_run_text(const char *text, struct run *run)
{
	char path[] = "/tmp/psmf-system-XXXXXX";
	int ret;

	if (unit_temp_file(path, text))
		return -1;
	ret = run_load(path, run);
	unlink(path);
	return ret;
}

/* psmf-system's records (initramfs/system.c) as results.c reads them. */
static void test_system_records(void)
{
	static const char text[] = "start 7.3.4\nsystem-os trixie systemd=257\n"
		"system-phase warn\nsystem-failed boot -\n"
		"tool podman version=podman=5.4.2+ds1-2 uid=1000 exit=0 ms=9000\n"
		"toolneeds podman /proc:subset=pid\n"
		"system-failed after a.service\nsystem-failed after b.service\nend ok\n";
	struct run run;
	bool ok = !load_run_text(text, &run);

	tap(ok && run.ended && !strcmp(run.sys_os, "trixie") && run.sys_systemd == 257 &&
	    !strcmp(run.sys_phase, "warn") && run.n_failed[0] == 1 &&
	    !strcmp(run.failed[0][0], "-") && run.n_failed[1] == 2 &&
	    !strcmp(run.failed[1][1], "b.service") && run.n_tools == 1 &&
	    !strcmp(run.tools[0].version, "podman=5.4.2+ds1-2") &&
	    !strcmp(run.tools[0].needs, "/proc:subset=pid"),
	    "system: psmf-system's records load (release, systemd, phase, failed units, a row)");
	if (ok)
		run_free(&run);
}

/* A row the release's systemd is too old for: skipped, judged by its cell. */
static void test_skipped_row(void)
{
	static const char text[] = "start 6.1.1\n"
		"tool systemd-run-private-pids version=systemd=252.39 uid=0 exit=0 ms=0\n"
		"toolskip systemd-run-private-pids systemd 252, the row needs 257\nend ok\n";
	static const char table[] = "| tool | legacy | warn | implicit | enforce | what |\n"
		"|---|---|---|---|---|---|\n"
		"| systemd-run-private-pids | skipped, trixie: works | works | works | works | x |\n";
	char path[] = "/tmp/psmf-skip-XXXXXX", why[512], err[512];
	struct tool_spec bookworm, trixie;
	struct run run;
	bool made = !unit_temp_file(path, table), loaded = !load_run_text(text, &run);
	bool ok = loaded && run.n_tools == 1 && made &&
		  !tool_spec_load(path, "bookworm", &bookworm, err, sizeof(err)) &&
		  !tool_spec_load(path, "trixie", &trixie, err, sizeof(err));

	if (made)
		unlink(path);
	tap(ok && !strcmp(tool_verdict(&run.tools[0]), "skipped") &&
	    tool_judge(&bookworm, &run.tools[0], PHASE_LEGACY, why, sizeof(why)),
	    "system: a row skipped where its cell says skipped passes (%s)",
	    ok ? tool_verdict(&run.tools[0]) : "did not load");
	tap(ok && !tool_judge(&trixie, &run.tools[0], PHASE_LEGACY, why, sizeof(why)) &&
	    !tool_judge(&bookworm, &run.tools[0], PHASE_WARN, why, sizeof(why)),
	    "system: a row skipped where its cell says works fails (%s)", ok ? why : "did not load");
	if (loaded)
		run_free(&run);
}

/* The releases tests/system/releases names, by spaces, into @buf. */
static void known_releases(const char *dir, char *buf, size_t len)
{
	char path[4096], line[256], tree[64], release[64];
	FILE *f;

	snprintf(path, sizeof(path), "%ssystem/releases", dir);
	f = fopen(path, "r");
	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%63s %63s", tree, release) != 2)
			continue;
		snprintf(line, sizeof(line), " %s ", release);
		if (!strstr(buf, line))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s", line);
	}
	if (f)
		fclose(f);
}

/*
 * tests/system.md loads for every release a tree boots, and names no
 * release in its cells that none boots (a typo would hold for none).
 */
static void test_system_table(const char *dir)
{
	char path[4096], releases[512], line[2048], want[80], *cells[8], *p;
	const char *unknown = NULL;
	struct tool_spec ts;
	char err[512], *r;
	FILE *f;
	int n, i, loaded = 0, count = 0;

	known_releases(dir, releases, sizeof(releases));
	snprintf(path, sizeof(path), "%ssystem.md", dir);
	for (r = strtok(strdupa(releases), " "); r; r = strtok(NULL, " "), count++)
		loaded += !tool_spec_load(path, r, &ts, err, sizeof(err)) && ts.n > 0;
	tap(count > 0 && loaded == count, "system.md loads for each of the%s releases (%d of %d)",
	    releases, loaded, count);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		for (n = line[0] == '|' ? split_row(line, cells, 8) : 0, i = 1; i < n - 1 && i <= MAX_MODES; i++)
			for (p = cells[i]; (p = strchr(p, ':')); p++) {
				char *start = p;

				while (start > cells[i] && start[-1] != ' ' && start[-1] != ',')
					start--;
				snprintf(want, sizeof(want), " %.*s ", (int)(p - start), start);
				if (!strstr(releases, want) && !unknown)
					unknown = strdup(want);
			}
	if (f)
		fclose(f);
	tap(f && !unknown, "system.md names only releases that a tree boots (%s)",
	    unknown ? unknown : "none other");
}

#define SYSCTL_HEADER "| boot parameter | /etc/sysctl.d | after boot | the kernel's notice |\n|---|---|---|---|\n"

/* Load @text as the table; how many rows, and the error into @err. */
static int load_cases(const char *text, struct sysctl_case *c, char *err,
		      size_t len)
{
	char path[] = "/tmp/psmf-sysctl-XXXXXX";
	int n;

	if (unit_temp_file(path, text))
		return snprintf(err, len, "cannot write a file in /tmp"), -1;
	err[0] = 0;
	n = sysctl_cases_load(path, c, MAX_SYSCTL_CASES, err, len);
	unlink(path);
	return n;
}

static void test_sysctl_table(const char *dir)
{
	static const struct {
		const char *text, *cause;
	} bad[] = {
		{ "no table here\n", "no table" },
		{ SYSCTL_HEADER, "no table" },
		{ SYSCTL_HEADER "| warn | enforce | enforce |\n", "3 cells, want 4" },
		{ SYSCTL_HEADER "| warn | strict | enforce | none |\n", "'strict' is no phase" },
		{ SYSCTL_HEADER "| warn | enforce | enforce | from warn |\n", "want 'from PHASE" },
		{ SYSCTL_HEADER "| warn | enforce | enforce | from warn to enforce x |\n", "want 'from PHASE" },
		{ "| boot parameter | /etc/sysctl.d | after boot | the kernel's notice |\n"
		  "| warn | enforce | enforce | from warn to enforce |\n", "want the delimiter row" },
		{ SYSCTL_HEADER "| warn | enforce | implicit | from warn to enforce |\n", "breaks the documented rule" },
		{ SYSCTL_HEADER "| enforce | warn | warn | none |\n", "breaks the documented rule" },
		{ SYSCTL_HEADER "| enforce | warn | enforce | from enforce to warn |\n", "breaks the documented rule" },
		{ SYSCTL_HEADER "| warn | enforce | enforce | from warn to enforce |\n"
		  "| warn | enforce | enforce | from warn to enforce |\n", "enforce over warn twice" },
		{ SYSCTL_HEADER "| legacy | warn | warn | from legacy to warn |\n"
		  "| legacy | implicit | implicit | from legacy to implicit |\n"
		  "| legacy | enforce | enforce | from legacy to enforce |\n"
		  "| warn | implicit | implicit | from warn to implicit |\n"
		  "| warn | enforce | enforce | from warn to enforce |\n", ":7: more than 4 rows" },
		{ SYSCTL_HEADER "| warn | enforce | enforce | from warn to enforce |\n\n"
		  "| enforce | warn | enforce | none |\n", "cut off from the table" },
	};
	struct sysctl_case c[MAX_SYSCTL_CASES];
	char path[4096], err[512];
	size_t i;
	int n, follow = 0;

	snprintf(path, sizeof(path), "%.4000ssystem.md", dir);
	n = sysctl_cases_load(path, c, MAX_SYSCTL_CASES, err, sizeof(err));
	for (i = 0; n > 0 && i < (size_t)n; i++)
		follow += sysctl_case_follows_rule(&c[i]);
	tap(n >= 2 && follow == n,
	    "system.md: its raises in /etc/sysctl.d/ load and follow the documented rule (%d rows, %d follow)%s%s",
	    n, follow, n < 0 ? ": " : "", n < 0 ? err : "");
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		n = load_cases(bad[i].text, c, err, sizeof(err));
		tap(n < 0 && strstr(err, bad[i].cause),
		    "sysctl.d table: a bad one is refused naming its cause (%s): %s",
		    bad[i].cause, n < 0 ? err : "loaded");
	}
}

/* A boot's results where systemd-sysctl raised warn to enforce. */
static const char raised[] = "start 6.12.57\nsystem-phase enforce\n"
	"system-sysctl-d enforce\nsystem-sysctl-unit Result=success\n"
	"system-sysctl-unit ExecMainStartTimestampMonotonic=2500000\n"
	"system-sysctl-writer ExecMainExitTimestampMonotonic=2400000\n"
	"system-sysctl-writer ExecMainStatus=0\n"
	"kmsg system VFS: Mounted root (ext4 filesystem) on device 254:0.\n"
	"kmsg system VFS: process 'systemd-sysctl' (pid 212) raised the proc and sysfs mount flags phase from warn to enforce\n"
	"end ok\n";

/* How many of sysctl_judge()'s checks fail on @text for @c. */
static int judge_text(const struct sysctl_case *c, const char *text)
{
	struct verdicts v = VERDICTS_QUIET;
	struct run run;
	int failed;

	if (load_run_text(text, &run))
		return -1;
	sysctl_judge(&v, c, &run);
	failed = verdicts_end(&v);
	run_free(&run);
	return failed;
}

/* @text with its first @from said as @to. */
static const char *replaced(const char *text, const char *from, const char *to)
{
	static char buf[2048];
	const char *p = strstr(text, from);

	if (!p) {
		fprintf(stderr, "unit_system.c: replaced(): no '%s' in the fixture\n", from);
		abort();
	}
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - text), text, to,
		 p + strlen(from));
	return buf;
}

/* @raised with its line @from said as @to. */
static const char *edit(const char *from, const char *to)
{
	return replaced(raised, from, to);
}

static void test_sysctl_judge(void)
{
	static const struct sysctl_case c = { "warn", "enforce", "enforce", "from warn to enforce" };
	static const struct {
		const char *from, *to, *what;
	} wrong[] = {
		{ "system-phase enforce", "system-phase warn", "the phase not raised" },
		{ "system-sysctl-d enforce", "system-sysctl-d absent", "no file" },
		{ "'systemd-sysctl'", "'sysctl'", "the raise by another process" },
		{ "from warn to enforce", "from implicit to enforce", "the notice of another raise" },
		{ "system-sysctl-unit Result=success\n", "", "no word of systemd-sysctl.service" },
		{ "Result=success", "Result=exit-code", "systemd-sysctl failed with no word why" },
		{ "Monotonic=2500000", "Monotonic=0", "systemd-sysctl never started" },
		{ "Monotonic=2500000", "Monotonic=2300000", "systemd-sysctl started before the file was written" },
		{ "system-sysctl-writer ExecMainExitTimestampMonotonic=2400000\n", "", "no word of the file's writing" },
		{ "ExecMainStatus=0", "ExecMainStatus=1", "the doc's lines failed" },
		{ "end ok\n", "system-sysctl-log Couldn't write 'warn' to 'fs/proc_sysfs_mount_flags'\nend ok\n",
		  "systemd-sysctl's journal names the key" },
		{ "end ok\n", "", "the run did not end" },
	};
	struct sysctl_case none = c;
	struct run run;
	size_t i;
	int n;

	n = judge_text(&c, raised);
	tap(n == 0, "sysctl.d: a boot that raised as its row says passes (%d checks fail)", n);
	for (i = 0; i < sizeof(wrong) / sizeof(*wrong); i++) {
		n = judge_text(&c, edit(wrong[i].from, wrong[i].to));
		tap(n > 0, "sysctl.d: a boot with %s fails (%d checks fail)", wrong[i].what, n);
	}
	n = judge_text(&c, edit("Result=success\n", "Result=exit-code\n"
				"system-sysctl-log Couldn't write '4194304' to 'kernel/pid_max': Invalid argument\n"));
	tap(n == 0, "sysctl.d: systemd-sysctl.service failed for another key, and saying so, does not count (%d checks fail)", n);
	if (!load_run_text(raised, &run)) {
		char *row = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&row, &len);

		sysctl_md_row(f, &c, &run);
		fclose(f);
		tap(!strcmp(row, "| warn | enforce | enforce | from warn to enforce, by systemd-sysctl | success; said nothing of the key |\n"),
		    "sysctl.d: the report's row says what the boot gave, without its pid: %s", row);
		free(row);
		run_free(&run);
	}
	snprintf(none.notice, sizeof(none.notice), "none");
	n = judge_text(&none, raised);
	tap(n > 0, "sysctl.d: a notice where the row wants none fails (%d checks fail)", n);
}

/* GRUB's step on a warn kernel, and the boot of its first entry. */
static const char grub_edit[] =
	"start 6.12.57\nsystem-os trixie systemd=257\nsystem-phase warn\n"
	"grub-run exit=0\ngrub-out Generating grub configuration file ...\n"
	"grub-linux root=/dev/vda ro proc_sysfs_mount_flags=warn proc_sysfs_mount_flags=enforce quiet\n"
	"grub-linux root=/dev/vda ro single dis_ucode_ldr proc_sysfs_mount_flags=warn proc_sysfs_mount_flags=enforce\n"
	"grub-undo-run exit=0\n"
	"grub-undo-linux root=/dev/vda ro proc_sysfs_mount_flags=warn quiet\n"
	"grub-undo-linux root=/dev/vda ro single dis_ucode_ldr proc_sysfs_mount_flags=warn\n"
	"end ok\n";
static const char grub_booted[] =
	"start 6.12.57\nsystem-os trixie systemd=257\nsystem-phase enforce\n"
	"grub-cmdline console=ttyS0 root=/dev/vda rw psmf.grub=boot root=/dev/vda ro proc_sysfs_mount_flags=warn proc_sysfs_mount_flags=enforce quiet ignore_loglevel\n"
	"end ok\n";

/* How many checks of the GRUB judge fail on the two boots' texts. */
static int grub_failed(const char *edit_text, const char *boot_text)
{
	struct verdicts v = VERDICTS_QUIET;
	struct run e, b;
	int failed = -1;

	if (load_run_text(edit_text, &e))
		return -1;
	if (!load_run_text(boot_text, &b)) {
		grub_judge_edit(&v, &e, "warn");
		grub_judge_boot(&v, &e, &b);
		failed = verdicts_end(&v);
		run_free(&b);
	}
	run_free(&e);
	return failed;
}

static void test_grub_judge(void)
{
	static const struct {
		bool boot;	/* the change is to the second boot's text */
		const char *from, *to, *what;
	} wrong[] = {
		{ false, "grub-run exit=0", "grub-run exit=1", "the step failed" },
		{ false, "grub-undo-run exit=0", "grub-undo-run exit=1", "the step back failed" },
		{ false, "ro proc_sysfs_mount_flags=warn quiet", "ro proc_sysfs_mount_flags=enforce quiet",
		  "an entry that still enforces after the step back" },
		{ false, "grub-undo-linux root=/dev/vda ro proc_sysfs_mount_flags=warn quiet\n", "",
		  "an entry lost by the step back" },
		{ false, "system-phase warn", "system-phase enforce", "a kernel that enforced already" },
		{ false, " proc_sysfs_mount_flags=enforce\n", "\n", "an entry without the parameter" },
		{ false, "=enforce quiet", "=enforce quiet proc_sysfs_mount_flags=warn",
		  "an entry whose last word of the parameter is warn" },
		{ false, "=warn proc_sysfs_mount_flags=enforce quiet",
		  "=enforce proc_sysfs_mount_flags=warn quiet", "enforce before warn" },
		{ false, "=enforce quiet", "=enforcement quiet", "another word" },
		{ true, "system-phase enforce", "system-phase warn", "the phase not in force" },
		{ true, " quiet", "", "a word of the entry missing at boot" },
		{ true, "end ok\n", "", "the boot did not end" },
	};
	char text[2048];
	size_t i;
	int n = grub_failed(grub_edit, grub_booted);

	tap(n == 0, "grub: a step that wrote the parameter in every entry, then enforced at boot, passes (%d checks fail)", n);
	for (i = 0; i < sizeof(wrong) / sizeof(*wrong); i++) {
		snprintf(text, sizeof(text), "%s",
			 replaced(wrong[i].boot ? grub_booted : grub_edit, wrong[i].from, wrong[i].to));
		n = wrong[i].boot ? grub_failed(grub_edit, text) : grub_failed(text, grub_booted);
		tap(n > 0, "grub: %s fails (%d checks fail)", wrong[i].what, n);
	}
	n = grub_failed("start 6.12.57\nsystem-phase warn\ngrub-run exit=0\nend ok\n", grub_booted);
	tap(n > 0, "grub: a step that left no linux entry fails (%d checks fail)", n);
}

void test_system(const char *spec_path)
{
	char dir[4096];
	const char *slash = strrchr(spec_path, '/');

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - spec_path + 1) : 0, spec_path);
	test_system_table(dir);
	test_system_records();
	test_skipped_row();
	test_sysctl_table(dir);
	test_sysctl_judge();
	test_grub_judge();
}
