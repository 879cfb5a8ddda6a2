// SPDX-License-Identifier: GPL-2.0
/*
 * What every command of the runner shares on its command line: the usage
 * text (the steps' names from the step table), the spec loaded or a clear
 * error, a phase's name checked.  runner.c parses the options and calls
 * the commands; the commands call here, never back into runner.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "../contract/steps.h"

void usage(void)
{
	char modes[128] = "";
	int i;

	for (i = 0; i < MAX_MODES; i++)
		snprintf(modes + strlen(modes), sizeof(modes) - strlen(modes),
			 "%s%s", i ? ", " : "", all_modes[i]);
	fprintf(stderr,
		"usage: runner boot --mode MODE --kernel BZIMAGE --initrd CPIO --spec SPEC --dir DIR\n"
		"                   [--results FILE] [--console FILE] [--tag NAME]\n"
		"                   [--accel tcg|kvm] [--timeout S] [--run STEPS] [--scenario NAME]\n"
		"                   [--smp N] [--memory MB] [--icount] [--seq-ops N] [--faults]\n"
		"                   [--no-kunit]  (a kernel built without KUnit: configs/fixed.config)\n"
		"                   [--boot-phase MODE]  (proc_sysfs_mount_flags=MODE: judged as MODE)\n"
		"                   [--no-alone]  (leave out the scenarios that need a boot of their own)\n"
		"                   [--tools TOOLS]  (tests/tools.md: the userspace step's verdicts)\n"
		"       runner check --mode MODE --spec SPEC --results FILE [--console FILE]\n"
		"       runner cross --spec SPEC --dir OUTDIR [--no-overrides] RUN=FILE...\n"
		"       runner mutate --spec SPEC [--tools TOOLS] RUN=FILE...\n"
		"       runner compat --dir OUTDIR [--spec SPEC] RUN=FILE...\n"
		"       runner lava-jobs --dir OUTDIR --kernel PREFIX --initrd CPIO --modes MODES\n"
		"                   [--url BASE] [--timeout S] [--accel A] [--memory MB]\n"
		"       runner lava --job FILE --dir OUTDIR --spec SPEC --mode MODE --tag NAME\n"
		"                   [--boot-phase MODE] [--timeout S]\n"
		"                   [--expect broken|hang|bad-url --kernel BZIMAGE --initrd CPIO]\n"
		"       runner lava-validate --dir JOBSDIR\n"
		"       runner lava-log --job LOG --results FILE --console FILE\n"
		"       runner upstream upstream-MODE=FILE...\n"
		"       runner shrink --mode MODE --kernel BZIMAGE --initrd CPIO --dir DIR\n"
		"                   --results FILE [--mutate none|nest-locks-nothing] [--timeout S]\n"
		"       runner shrink-relation --relation NAME --kernel BZIMAGE --initrd CPIO\n"
		"                   --dir DIR sequences-MODE=FILE...  (the kernel booted as each\n"
		"                   phase of the relation: it needs the run-time switch)\n"
		"       runner seqspec --mode MODE --kernel BZIMAGE --initrd CPIO --spec SPEC --dir DIR\n"
		"       runner system --mode MODE --kernel BZIMAGE --image IMG --release NAME\n"
		"                   --tools SYSTEM_MD --dir DIR [--tag NAME] [--boot-phase MODE]\n"
		"                   (a Debian system, systemd as PID 1, booted as MODE)\n"
		"       runner system-compat --dir OUTDIR --tools SYSTEM_MD --release NAME system-MODE=FILE...\n"
		"       runner system-sysctl --mode MODE --kernel BZIMAGE --image IMG --release NAME\n"
		"                   --tools SYSTEM_MD --dir DIR\n"
		"                   (one boot per raise in /etc/sysctl.d/ that SYSTEM_MD's table names)\n"
		"       runner system-grub --mode MODE --kernel BZIMAGE --image IMG --release NAME\n"
		"                   --tools SYSTEM_MD --dir DIR\n"
		"                   (docs/distributions.md's GRUB step, then the boot it gives)\n"
		"       runner relate sequences-MODE=FILE...  (every phase's run of the same sequences)\n"
		"       runner relate-trees sequences-MODE=FILE... other-sequences-MODE=FILE...\n"
		"                   (the same, of two trees)\n"
		"MODE is one of %s; STEPS a comma list of\n%s (default %s).\n"
		"RUN names the meson test that wrote FILE: MODE (the matrix), MODE-as-MODE\n"
		"(a boot override), userspace-MODE, upstream-MODE or sequences-MODE.\n",
		modes, step_names(), PSMF_STEPS_DEFAULT);
	exit(2);
}

void load_spec(const char *path, struct spec *spec)
{
	char err[512];

	if (spec_load(path, spec, err, sizeof(err))) {
		fprintf(stderr, "runner: %s\n", err);
		printf("Bail out! %s\n", err);
		exit(2);
	}
}

int need_mode(const char *mode)
{
	int m = mode ? mode_index(mode) : -1;

	if (m < 0) {
		fprintf(stderr, "runner: unknown mode '%s'\n", mode ? mode : "");
		usage();
	}
	return m;
}
