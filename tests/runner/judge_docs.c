// SPDX-License-Identifier: GPL-2.0
/*
 * The docs step (initramfs/docs.c), judged by the sysctl's one-way rule
 * and systemd-sysctl's reading of its files: the last line that sets the
 * key wins (files by name, lines in order), and the kernel refuses a
 * looser phase than the one in force, which systemd-sysctl passes over
 * quietly (a refused write for lack of permission is no failure to it).
 * So after the admin's commands of docs/distributions.md and
 * systemd-sysctl, the phase in force is the stricter of the boot's and
 * the last line's, and systemd-sysctl exits 0 either way.
 */
#include <stdio.h>

#include "judge_docs.h"

void judge_docs(struct verdicts *v, const struct run *run, int mode)
{
	int before = mode_index(run->docs_before), after = mode_index(run->docs_after);
	int last = -1, want, i;

	verdict(v, run->docs_sh == 0,
		"docs: the as-root blocks of docs/distributions.md ran (sh exit %d)",
		run->docs_sh);
	verdict(v, before == mode, "docs: the phase before them is %s (read %s)",
		all_modes[mode], *run->docs_before ? run->docs_before : "nothing");
	verdict(v, run->n_docs_settings > 0,
		"docs: they left %d fs.proc_sysfs_mount_flags lines in /etc/sysctl.d",
		run->n_docs_settings);
	for (i = 0; i < run->n_docs_settings; i++) {
		last = mode_index(run->docs_settings[i].value);
		verdict(v, last >= 0, "docs: %s names a phase (%s)",
			run->docs_settings[i].file, run->docs_settings[i].value);
	}
	verdict(v, run->docs_sysctl == 0, "docs: systemd-sysctl ran through (exit %d)",
		run->docs_sysctl);
	want = last > before ? last : before;
	verdict(v, before >= 0 && after == want,
		"docs: the phase after systemd-sysctl is the stricter of the boot's and the last line's (%s; read %s)",
		want >= 0 ? all_modes[want] : "-",
		*run->docs_after ? run->docs_after : "nothing");
}
