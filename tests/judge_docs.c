// SPDX-License-Identifier: GPL-2.0
/*
 * The docs step (initramfs/docs.c) judged by the sysctl's one-way rule
 * alone: after the admin's commands of docs/distributions.md and
 * systemd-sysctl, the phase in force is the strictest of the phase the
 * boot had and the phases the files in /etc/sysctl.d/ name.  A file that
 * names a looser phase is refused, harmlessly: then systemd-sysctl may
 * fail, and the phase stays.
 */
#include <stdio.h>

#include "judge_docs.h"
#include "tap.h"

void judge_docs(const struct run *run, int mode)
{
	int before = mode_index(run->docs_before), after = mode_index(run->docs_after);
	int want = before, i, v;
	bool looser = false;

	tap(run->docs_sh == 0,
	    "docs: the as-root blocks of docs/distributions.md ran (sh exit %d)",
	    run->docs_sh);
	tap(before == mode, "docs: the phase before them is %s (read %s)",
	    all_modes[mode], *run->docs_before ? run->docs_before : "nothing");
	tap(run->n_docs_settings > 0,
	    "docs: they left %d fs.proc_sysfs_mount_flags lines in /etc/sysctl.d",
	    run->n_docs_settings);
	for (i = 0; i < run->n_docs_settings; i++) {
		v = mode_index(run->docs_settings[i].value);
		tap(v >= 0, "docs: %s names a phase (%s)",
		    run->docs_settings[i].file, run->docs_settings[i].value);
		looser |= v < before;
		if (v > want)
			want = v;
	}
	if (looser)
		printf("# a file names a looser phase than %s: systemd-sysctl may fail\n",
		       all_modes[mode]);
	else
		tap(run->docs_sysctl == 0, "docs: systemd-sysctl applied them (exit %d)",
		    run->docs_sysctl);
	tap(before >= 0 && after == want,
	    "docs: the phase after systemd-sysctl is the strictest of the boot's and the files' (%s; read %s)",
	    before >= 0 ? all_modes[want] : "-",
	    *run->docs_after ? run->docs_after : "nothing");
}
