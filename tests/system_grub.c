// SPDX-License-Identifier: GPL-2.0
/*
 * runner system-grub: docs/distributions.md's step that enforces from boot
 * through GRUB (its "```sh debian-grub" block: the boot parameter added to
 * GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub), run in the
 * Debian system as written, and the command line GRUB would pass booted.
 * The kernel boots the image twice: with psmf.grub=edit, where
 * psmf-system runs the block as root and reports the linux lines of
 * /boot/grub/grub.cfg; then with the arguments of the first such line
 * (and psmf.grub=boot), where /proc/sys must read the phase the block
 * names.  QEMU loads the kernel (-kernel), so GRUB itself never runs:
 * the image's /boot holds a stand-in file for update-grub to make entries
 * of (tests/system/disk.sh).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "grub_judge.h"
#include "runner.h"
#include "tap.h"

/* One boot with @extra; its results in @run. */
static void grub_boot(const struct opts *o, const char *step, const char *extra,
		      struct run *run)
{
	char results[4096], console[4096], tag[64];
	struct lines con;

	snprintf(tag, sizeof(tag), "system-grub-%s", step);
	snprintf(results, sizeof(results), "%s/results-%s.txt", o->dir, tag);
	snprintf(console, sizeof(console), "%s/console-%s.log", o->dir, tag);
	boot_system(o, tag, extra, results, console);
	if (run_load(results, run))
		printf("# %s: no results file\n", results);
	lines_load(console, &con);
	if (!run->ended)
		tail_console(&con, 60);
	check_splats(&con, "the boot log");
	lines_free(&con);
}

int cmd_system_grub(const struct opts *o)
{
	static struct run edit, booted;
	char extra[1200];

	if (system_opts(o))
		return 2;
	if (o->boot_phase) {
		fprintf(stderr, "runner: system-grub takes no --boot-phase: GRUB's entry gives the phase\n");
		return 2;
	}
	grub_boot(o, "edit", " psmf.grub=edit", &edit);
	grub_judge_edit(&edit, o->mode);
	if (edit.n_grub_linux) {
		/* ignore_loglevel: the entry's "quiet" would hide WARN splats */
		snprintf(extra, sizeof(extra), " psmf.grub=boot %s ignore_loglevel",
			 edit.grub_linux[0]);
		grub_boot(o, "boot", extra, &booted);
		grub_judge_boot(&edit, &booted);
	}
	run_free(&edit);
	run_free(&booted);
	return tap_end();
}
