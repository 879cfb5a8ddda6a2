// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of the matrix.  TAP on stdout, for meson test.
 *
 *   runner boot    boot one variant under QEMU and judge it (boot.c)
 *   runner check   judge results already on disk, no QEMU (boot.c)
 *   runner cross   the rules across the phases, and the reports (cross.c)
 *   runner compat  the userspace suite's compatibility table (compat.c)
 *   runner mutate  show that a broken expectation turns red (mutate.c)
 *   runner lava-jobs  the matrix as LAVA job definitions (lava_jobs.c)
 *   runner lava    run a job with lava-run, compare its verdicts (lava.c)
 *   runner lava-validate  lava-run --validate on every job (lava.c)
 *   runner lava-log  a LAVA job's log as records and console (lava.c)
 *   runner upstream  the kernel's own selftests: every phase as legacy
 *                  (upstream_cross.c)
 *   runner shrink  the shortest sequence that still disagrees with the
 *                  model (shrink.c)
 *   runner seqspec  the spec's sequences on a kernel (seq_spec_boot.c)
 *   runner system  boot a Debian system image and judge its checks;
 *   runner system-compat  the phases' runs of it side by side (system.c)
 *   runner system-sysctl  boots of it that raise in /etc/sysctl.d/ (system_sysctl.c)
 *   runner system-grub    GRUB's step run in it, and the boot it gives (system_grub.c)
 *
 * This file parses the options and calls the command; cmdline.c has what
 * every command shares (the usage text, the spec, a mode's name);
 * runner.h names the other pieces.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "../contract/steps.h"

/* --run's list, every name a step, or an error that lists them. */
static const char *need_steps(const char *list)
{
	const char *bad = step_unknown(list);

	if (!*list) {
		fprintf(stderr, "runner: --run names no step: the steps are %s\n", step_names());
		exit(2);
	}
	if (bad) {
		fprintf(stderr, "runner: unknown step '%s' in --run %s: the steps are %s\n",
			bad, list, step_names());
		exit(2);
	}
	return list;
}

/* --NAME's value as a positive number, or an error naming the option. */
static long need_number(const char *name, const char *value)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(value, &end, 10);
	if (errno || end == value || *end || n <= 0) {
		fprintf(stderr, "runner: --%s wants a positive whole number, not '%s'\n",
			name, value);
		exit(2);
	}
	return n;
}

/* One option of getopt_long()'s, @c with its value in optarg, into @o. */
static void set_opt(struct opts *o, int c)
{
	switch (c) {
	case 'm': o->mode = optarg; break;
	case 'k': o->kernel = optarg; break;
	case 'i': o->initrd = optarg; break;
	case 's': o->spec = optarg; break;
	case 'd': o->dir = optarg; break;
	case 'a': o->accel = optarg; break;
	case 't': o->timeout = need_number("timeout", optarg); break;
	case 'r': o->steps = need_steps(optarg); break;
	case 'S': o->scenario = optarg; break;
	case 'R': o->results = optarg; break;
	case 'c': o->console = optarg; break;
	case 'p': o->smp = need_number("smp", optarg); break;
	case 'M': o->memory = need_number("memory", optarg); break;
	case 'T': o->tag = optarg; break;
	case 'I': o->icount = true; break;
	case 'B': o->boot_phase = optarg; break;
	case 'O': o->modes = optarg; break;
	case 'U': o->url = optarg; break;
	case 'J': o->job = optarg; break;
	case 'E': o->expect = optarg; break;
	case 'Q': o->seq_ops = need_number("seq-ops", optarg); break;
	case 'X': o->mutate = optarg; break;
	case 'F': o->faults = true; break;
	case 'N': o->no_alone = true; break;
	case 'V': o->no_overrides = true; break;
	case 'L': o->tools = optarg; break;
	case 'G': o->image = optarg; break;
	case 'D': o->release = optarg; break;
	case 'K': o->no_kunit = true; break;
	case 'W': o->relation = optarg; break;
	default: usage();
	}
}

/* The options after the command, from optind on. */
static struct opts parse_opts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", 1, 0, 'm' }, { "kernel", 1, 0, 'k' },
		{ "initrd", 1, 0, 'i' }, { "spec", 1, 0, 's' },
		{ "dir", 1, 0, 'd' }, { "accel", 1, 0, 'a' },
		{ "timeout", 1, 0, 't' }, { "run", 1, 0, 'r' },
		{ "scenario", 1, 0, 'S' }, { "results", 1, 0, 'R' },
		{ "console", 1, 0, 'c' },
		{ "smp", 1, 0, 'p' }, { "memory", 1, 0, 'M' },
		{ "tag", 1, 0, 'T' }, { "icount", 0, 0, 'I' },
		{ "boot-phase", 1, 0, 'B' }, { "modes", 1, 0, 'O' },
		{ "url", 1, 0, 'U' }, { "job", 1, 0, 'J' },
		{ "expect", 1, 0, 'E' }, { "seq-ops", 1, 0, 'Q' },
		{ "mutate", 1, 0, 'X' }, { "faults", 0, 0, 'F' },
		{ "no-alone", 0, 0, 'N' }, { "no-overrides", 0, 0, 'V' },
		{ "tools", 1, 0, 'L' }, { "image", 1, 0, 'G' },
		{ "release", 1, 0, 'D' }, { "no-kunit", 0, 0, 'K' },
		{ "relation", 1, 0, 'W' },
		{ 0 }
	};
	struct opts o = {
		.accel = "tcg", .timeout = 180, .steps = PSMF_STEPS_DEFAULT,
		.smp = 1, .memory = 256, .expect = "pass",
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		set_opt(&o, c);
	return o;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const struct opts *o);
	} cmds[] = {
		{ "boot", cmd_boot }, { "check", cmd_check },
		{ "cross", cmd_cross }, { "compat", cmd_compat },
		{ "mutate", cmd_mutate }, { "lava-jobs", cmd_lava_jobs },
		{ "lava", cmd_lava }, { "lava-validate", cmd_lava_validate },
		{ "lava-log", cmd_lava_log }, { "upstream", cmd_upstream },
		{ "shrink", cmd_shrink },
		{ "shrink-relation", cmd_shrink_relation },
		{ "seqspec", cmd_seqspec }, { "relate", cmd_relate },
		{ "relate-trees", cmd_relate_trees },
		{ "system", cmd_system }, { "system-compat", cmd_system_compat },
		{ "system-sysctl", cmd_system_sysctl },
		{ "system-grub", cmd_system_grub },
	};
	struct opts o;
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	o = parse_opts(argc, argv);
	for (c = optind; c < argc; c++)
		if (parse_input(argv[c], &o.in)) {
			fprintf(stderr, "runner: '%s' is not RUN=FILE\n", argv[c]);
			usage();
		}
	for (c = 0; c < (int)(sizeof(cmds) / sizeof(cmds[0])); c++)
		if (!strcmp(cmd, cmds[c].name)) {
			printf("TAP version 13\n");
			return cmds[c].run(&o);
		}
	usage();
}
