// SPDX-License-Identifier: GPL-2.0
/*
 * runner system: boot a Debian system image (tests/system/rootfs.sh, disk.sh) with
 * systemd as PID 1 under one phase, and judge what its psmf-system.service
 * (initramfs/system.c) reported.
 * runner system-compat: the phases' runs of the same image side by side:
 * systemctl --failed must be the same in every phase as in legacy, and
 * system.md shows each row's verdict with the Debian version it ran; and
 * a cell of tests/system.md broken on purpose turns legacy's row red.
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
#include "report.h"
#include "runner.h"
#include "tap.h"

/* The units of one systemctl --failed, by spaces, in @buf. */
static const char *failed_list(const struct run *run, int when, char *buf,
			       size_t len)
{
	int i;

	buf[0] = 0;
	for (i = 0; i < run->n_failed[when]; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? " " : "", run->failed[when][i]);
	return run->n_failed[when] ? buf : "(no record)";
}

/*
 * Whether two runs' lists (@a's @wa, @b's @wb) name the same units; a
 * list that systemctl failed to give matches nothing.
 */
static bool same_failed(const struct run *a, int wa, const struct run *b, int wb)
{
	char x[1100], y[1100];

	return a->n_failed[wa] && b->n_failed[wb] &&
	       !strstr(failed_list(a, wa, x, sizeof(x)), "systemctl-failed") &&
	       !strcmp(x, failed_list(b, wb, y, sizeof(y)));
}

/*
 * Each row of the unprivileged user ran in a login session of theirs: its
 * first line is the session's (initramfs/system.c, SESSION_MARK), so that
 * a session that failed does not pass for a tool that failed.
 */
static void judge_sessions(struct verdicts *v, const struct run *run, int mode)
{
	char want[64];
	int i;

	for (i = 0; i < run->n_tools; i++) {
		const struct tool_run *t = &run->tools[i];

		if (!t->uid)
			continue;
		snprintf(want, sizeof(want), "psmf-session uid=%d", t->uid);
		verdict(v, t->n_out && !strcmp(t->out[0], want),
			"system %s %s: ran in a login session of uid %d (its first line: %s)",
			all_modes[mode], t->name, t->uid, t->n_out ? t->out[0] : "none");
	}
}

/* What psmf-system reported about the system itself. */
static void judge_system_facts(struct verdicts *v, const struct opts *o,
			       const struct run *run, int mode)
{
	char boot[1100], after[1100];

	verdict(v, o->release && !strcmp(run->sys_os, o->release),
		"system %s: the image booted is Debian %s (os-release: %s, systemd %d)",
		all_modes[mode], o->release ? o->release : "(no --release)",
		run->sys_os[0] ? run->sys_os : "unsaid", run->sys_systemd);
	verdict(v, !strcmp(run->sys_phase, all_modes[mode]),
		"system %s: /proc/sys/fs/proc_sysfs_mount_flags reads %s",
		all_modes[mode], run->sys_phase[0] ? run->sys_phase : "nothing");
	verdict(v, same_failed(run, 0, run, 1),
		"system %s: systemctl --failed after the checks is as after the boot (boot: %s; after: %s)",
		all_modes[mode], failed_list(run, 0, boot, sizeof(boot)),
		failed_list(run, 1, after, sizeof(after)));
}

static void judge_system(struct verdicts *v, const struct opts *o, int mode,
			 const char *results, const char *console)
{
	struct lines con;
	struct run run;

	lines_load(console, &con);
	if (run_load(results, &run))
		printf("# %s: no results file\n", results);
	verdict(v, run.ended, "system %s: psmf-system ran to its end (%s)", all_modes[mode],
		run.end);
	if (!run.ended)
		tail_console(&con, 60);
	check_kunit(v, &con, "proc_sysfs_mount_flags");
	check_splats(v, &con, "the boot log");
	judge_system_facts(v, o, &run, mode);
	judge_sessions(v, &run, mode);
	judge_tools(v, &run, mode, o->tools, o->release, "system");
	run_free(&run);
	lines_free(&con);
}

/*
 * Boot @o->kernel with the image as root, systemd as its PID 1, the phase
 * of --boot-phase and @extra on the command line; its results and console
 * to @results and @console.
 */
void boot_system(struct verdicts *v, const struct opts *o, const char *tag,
		 const char *extra, const char *results, const char *console)
{
	char append[2048];
	bool timed_out;
	long start;
	int status;

	unlink(results);
	unlink(console);
	if (snprintf(append, sizeof(append),
		     "console=ttyS0 panic=-1 oops=panic tsc=unstable root=/dev/vda rw%s%s%s",
		     o->boot_phase ? " proc_sysfs_mount_flags=" : "",
		     o->boot_phase ? o->boot_phase : "", extra) >= (int)sizeof(append)) {
		verdict(v, false, "%s: a kernel command line of at most %zu bytes (%s)", tag,
			sizeof(append) - 1, extra);
		return;
	}
	start = now_ms();
	status = run_qemu(o, append, results, console, &timed_out);
	check_qemu(v, o, tag, status, timed_out);
	record_boot(results, start, o->kernel, o->image);
	tap_figure("%s: Debian %s system ran %.1f s under %s", tag, o->release,
		   (now_ms() - start) / 1000.0, o->accel);
}

/*
 * A boot of boot_system() whose results and console are named by @tag in
 * the out folder: its results loaded into @run, its console checked for
 * splats (and shown if the guest never reported its end).  The caller
 * judges @run.
 */
void boot_system_tagged(struct verdicts *v, const struct opts *o,
			const char *tag, const char *extra, struct run *run)
{
	char results[4096], console[4096];
	struct lines con;

	snprintf(results, sizeof(results), "%s/results-%s.txt", o->dir, tag);
	snprintf(console, sizeof(console), "%s/console-%s.log", o->dir, tag);
	boot_system(v, o, tag, extra, results, console);
	if (run_load(results, run))
		printf("# %s: no results file\n", results);
	lines_load(console, &con);
	if (!run->ended)
		tail_console(&con, 60);
	check_splats(v, &con, "the boot log");
	lines_free(&con);
}

/* Whether the options of a system boot are all there; its out folder. */
int system_opts(const struct opts *o)
{
	if (!o->kernel || !o->image || !o->dir || !o->tools || !o->release)
		usage();
	need_mode(o->mode);
	if (mkdir(o->dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "runner: cannot create %s: %s\n", o->dir, strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_system(const struct opts *o)
{
	char results[4096], console[4096];
	const char *tag = o->tag ? o->tag : o->mode;
	struct verdicts v = VERDICTS_TAP;

	if (system_opts(o))
		return 2;
	snprintf(results, sizeof(results), "%s/results-%s.txt", o->dir, tag);
	snprintf(console, sizeof(console), "%s/console-%s.log", o->dir, tag);
	boot_system(&v, o, tag, "", results, console);
	judge_system(&v, o, judged_mode(o), results, console);
	return verdicts_tap_end(&v);
}

/* Each phase's runs against legacy's: the same failed units. */
static void compare_failed(struct verdicts *v, const struct run *runs,
			   const bool *have)
{
	char want[1100], got[1100];
	int m, w;

	for (m = 0; m < MAX_MODES; m++)
		for (w = 0; w < 2 && m != PHASE_LEGACY && have[m]; w++)
			verdict(v, same_failed(&runs[m], w, &runs[PHASE_LEGACY], w),
				"system %s: systemctl --failed after the %s is as under legacy (%s; legacy: %s)",
				all_modes[m], w ? "checks" : "boot",
				failed_list(&runs[m], w, got, sizeof(got)),
				failed_list(&runs[PHASE_LEGACY], w, want, sizeof(want)));
}

/* For each row that warns or fails somewhere: the call, per phase. */
static void write_calls(FILE *f, const struct run *runs, const bool *have)
{
	const struct run *first = &runs[PHASE_LEGACY];
	char buf[1024];
	int i, m, header = 0;

	for (i = 0; i < first->n_tools; i++)
		for (m = 0; m < MAX_MODES; m++) {
			const struct tool_run *r = have[m] ?
				run_find_tool(&runs[m], first->tools[i].name) : NULL;

			if (!r || !strcmp(tool_verdict(r), "works") ||
			    r->skipped[0])
				continue;
			if (!header++)
				fprintf(f, "\nWhat warned or failed, and the call (the kernel's line, or the tool's own error):\n\n");
			fprintf(f, "- **%s**, %s %s: `%s`\n", r->name, all_modes[m],
				tool_verdict(r), tool_call(r, buf, sizeof(buf)));
		}
}

/* system.md: per row, its package's version and its verdict per phase. */
static int write_system_md(const struct run *runs, const bool *have,
			   const char *dir)
{
	const struct run *first = &runs[PHASE_LEGACY];
	char path[4200], boot[1100], after[1100];
	int i, m;
	FILE *f;

	snprintf(path, sizeof(path), "%s/system.md", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "Generated by `tests/runner system-compat` from the Debian system's runs; do not edit.\n"
		"Debian %s, systemd %d as PID 1; rows of uid 1000 run in a login session of\n"
		"the unprivileged user (`su -l user`), rows of uid 0 as root from a service.\n\n",
		first->sys_os, first->sys_systemd);
	md_phase_header(f, "| row | Debian package | uid |", "");
	for (i = 0; i < first->n_tools; i++) {
		const struct tool_run *t = &first->tools[i];

		fprintf(f, "| %s | `%s` | %d |", t->name, t->version, t->uid);
		for (m = 0; m < MAX_MODES; m++) {
			const struct tool_run *r = have[m] ? run_find_tool(&runs[m], t->name) : NULL;

			fprintf(f, " %s |", r ? tool_verdict(r) : "not run");
		}
		fprintf(f, "\n");
	}
	write_calls(f, runs, have);
	fprintf(f, "\n`systemctl --failed`, after the boot and after the checks:\n\n");
	for (m = 0; m < MAX_MODES; m++)
		if (have[m])
			fprintf(f, "- %s: %s; %s\n", all_modes[m],
				failed_list(&runs[m], 0, boot, sizeof(boot)),
				failed_list(&runs[m], 1, after, sizeof(after)));
	return fclose(f);
}

/*
 * A cell of @o->tools said otherwise on purpose must fail legacy's run:
 * the table is what the runs are judged by, not a copy of them.
 */
static void mutate_cell(struct verdicts *v, const struct opts *o,
			const struct run *legacy)
{
	const char *row = legacy->n_tools ? legacy->tools[0].name : "";
	const char *other = legacy->n_tools &&
		!strcmp(tool_verdict(&legacy->tools[0]), "fails") ? "works" : "fails";
	int before = judge_tools_broken(legacy, PHASE_LEGACY, o->tools, o->release, NULL, NULL);
	int after = judge_tools_broken(legacy, PHASE_LEGACY, o->tools, o->release, row, other);

	verdict(v, o->tools && o->release && after > before,
		"system: %s with %s's legacy cell said %s fails legacy's run (%d checks fail, %d with the table as it is)",
		o->tools ? o->tools : "(no --tools)", row, other, after, before);
}

int cmd_system_compat(const struct opts *o)
{
	static struct run runs[MAX_MODES];
	bool have[MAX_MODES] = { false };
	int m, n = 0;
	struct verdicts v = VERDICTS_TAP;

	if (!o->dir)
		usage();
	for (m = 0; m < MAX_MODES; m++) {
		if (!o->in.system[m])
			continue;
		have[m] = !run_load(o->in.system[m], &runs[m]) && runs[m].ended &&
			  !run_stale(all_modes[m], o->in.system[m], &runs[m]);
		verdict(&v, have[m],
			"system %s: the run in %s is there, ended, and is of this build",
			all_modes[m], o->in.system[m]);
		n++;
	}
	verdict(&v, have[PHASE_LEGACY] && n >= 2,
		"system: legacy's run and another phase's to compare (%d runs given)", n);
	if (!have[PHASE_LEGACY])
		return verdicts_tap_end(&v);
	compare_failed(&v, runs, have);
	mutate_cell(&v, o, &runs[PHASE_LEGACY]);
	verdict(&v, !write_system_md(runs, have, o->dir),
		"system table written: %s/system.md", o->dir);
	for (m = 0; m < MAX_MODES; m++)
		if (o->in.system[m])
			run_free(&runs[m]);
	return verdicts_tap_end(&v);
}
