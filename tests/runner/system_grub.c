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

#include "grub_judge.h"
#include "runner.h"
#include "tap.h"

int cmd_system_grub(const struct opts *o)
{
	static struct run edit, booted;
	struct verdicts v = VERDICTS_TAP;
	char extra[1200];

	if (system_opts(o))
		return 2;
	if (o->boot_phase) {
		fprintf(stderr, "runner: system-grub takes no --boot-phase: GRUB's entry gives the phase\n");
		return 2;
	}
	boot_system_tagged(&v, o, "system-grub-edit", " psmf.grub=edit", &edit);
	grub_judge_edit(&v, &edit, o->mode);
	if (edit.n_grub_linux) {
		/* ignore_loglevel: the entry's "quiet" would hide WARN splats */
		snprintf(extra, sizeof(extra), " psmf.grub=boot %s ignore_loglevel",
			 edit.grub_linux[0]);
		boot_system_tagged(&v, o, "system-grub-boot", extra, &booted);
		grub_judge_boot(&v, &edit, &booted);
	}
	run_free(&edit);
	run_free(&booted);
	return verdicts_tap_end(&v);
}
