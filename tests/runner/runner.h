/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's pieces, as tools/testing/kunit/ separates them: starting
 * QEMU (qemu.c), reading the console (console.c), parsing results
 * (results.c), judging (judge_run.c, spec.c) and one file per command
 * (boot.c, cross.c, compat.c, mutate.c); runner.c parses the options.
 */
#ifndef RUNNER_H
#define RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"
#include "../contract/spec.h"
#include "verdicts.h"

/*
 * The results files of other runs, by path, for cross, compat and mutate:
 * each named as the meson test that wrote it.
 */
struct inputs {
	const char *matrix[MAX_MODES];			/* "warn=PATH" */
	const char *told[MAX_MODES][MAX_MODES];		/* "warn-as-enforce=PATH" */
	const char *tools[MAX_MODES];			/* "userspace-warn=PATH" */
	/* "userspace-warn-as-enforce=PATH" */
	const char *tools_told[MAX_MODES][MAX_MODES];
	const char *upstream[MAX_MODES];		/* "upstream-warn=PATH" */
	const char *sequences[MAX_MODES];		/* "sequences-warn=PATH" */
	/* another tree's: "other-sequences-warn=PATH" */
	const char *other_sequences[MAX_MODES];
	const char *system[MAX_MODES];			/* "system-warn=PATH" */
};

struct opts {
	const char *mode, *kernel, *initrd, *spec, *dir, *accel, *steps;
	const char *scenario, *results, *console, *tag;
	const char *tools;	/* tests/tools.md: the tools' expected verdicts */
	const char *image;	/* system: the Debian system's disk image */
	const char *release;	/* system: the Debian release it must be */
	const char *boot_phase;	/* proc_sysfs_mount_flags= for the boot */
	const char *modes;	/* lava-jobs: the variants built */
	const char *url;	/* lava-jobs: where a lab fetches the files */
	const char *job, *expect;	/* lava: the job, what it must give */
	int timeout, smp, memory;
	long seq_ops;	/* sequences: operations the guest must run */
	const char *mutate;	/* shrink: the model's rule broken on purpose */
	const char *relation;	/* shrink-relation: the relation to shrink by */
	bool faults;	/* stress and sequences under fault injection; kmemleak */
	bool icount;	/* guest time counts instructions: for benchmarks */
	bool no_alone;	/* boot: leave out the scenarios that need a boot of their own */
	bool no_overrides;	/* cross: the boot overrides did not run */
	bool no_kunit;	/* boot: the kernel is built without KUnit (configs/fixed.config) */
	struct inputs in;
};

/* cmdline.c: what every command shares on its command line */
void usage(void) __attribute__((noreturn));
int need_mode(const char *mode);
void load_spec(const char *path, struct spec *spec);

/* qemu.c: the host's monotonic clock in ms */
long now_ms(void);

/* inputs.c: the results of other runs, loaded from their paths */
int load_runs(const struct opts *o, struct run *runs, struct matrix *m);
bool load_matrix(struct verdicts *v, const struct opts *o,
		 const struct spec *spec, struct run *runs, struct matrix *m);
int load_tool_runs(const struct opts *o, struct run *runs, struct matrix *m);
int load_told_runs(const struct opts *o, struct run told[][MAX_MODES],
		   struct matrix *m);
int parse_input(const char *arg, struct inputs *in);

/*
 * judge_run.c: judge one run's results and console against the spec, each
 * check a verdict on @v
 */
void judge_variant(struct verdicts *v, const struct opts *o,
		   const struct spec *spec, int mode, const char *results,
		   const char *console);
/* Each tool row of @run against @tools_md (tests/tools.md, tests/system.md). */
void judge_tools(struct verdicts *v, const struct run *run, int mode,
		 const char *tools_md, const char *release, const char *suite);
/*
 * judge_tools(), as data only, by a copy of @tools_md whose cell of @row under
 * @mode says @verdict (@row NULL: the table as it is): how many checks
 * failed, -1 if there is no such row.
 */
int judge_tools_broken(const struct run *run, int mode, const char *tools_md,
		       const char *release, const char *row, const char *verdict);

/* The commands */
/* boot.c: a "host file" record of a file the boot was made from */
void made_from(FILE *f, const char *path);
void record_boot(const char *results, long start, const char *kernel,
		 const char *from);
int judged_mode(const struct opts *o);
/* system.c: the options of a system boot checked, its folder made (or -1) */
int system_opts(const struct opts *o);
/*
 * system.c: boot the Debian system image, @extra on its command line
 * (QEMU's failures a verdict on @v)
 */
void boot_system(struct verdicts *v, const struct opts *o, const char *tag,
		 const char *extra, const char *results, const char *console);
/*
 * system.c: the same, into DIR/results-@tag.txt, loaded into @run, its
 * console checked (a verdict on @v)
 */
void boot_system_tagged(struct verdicts *v, const struct opts *o,
			const char *tag, const char *extra,
			struct run *run);

int cmd_boot(const struct opts *o);
int cmd_check(const struct opts *o);
int cmd_cross(const struct opts *o);
int cmd_compat(const struct opts *o);
int cmd_mutate(const struct opts *o);
int cmd_lava_jobs(const struct opts *o);
int cmd_lava(const struct opts *o);
int cmd_lava_validate(const struct opts *o);
int cmd_lava_log(const struct opts *o);
int cmd_upstream(const struct opts *o);
int cmd_relate(const struct opts *o);
int cmd_relate_trees(const struct opts *o);
int cmd_shrink(const struct opts *o);
int cmd_shrink_relation(const struct opts *o);
int cmd_seqspec(const struct opts *o);
int cmd_system(const struct opts *o);
int cmd_system_compat(const struct opts *o);
int cmd_system_sysctl(const struct opts *o);
int cmd_system_grub(const struct opts *o);

/*
 * shrink.c: a boot that replays sequences (its failures a verdict on @v);
 * the shrinker itself
 */
const char *seq_replay_boot(struct verdicts *v, const struct opts *base,
			    const char *text, size_t len, const char *stem,
			    const char *what);
struct seq_failure;
struct seq_op;
void seq_shrink(struct verdicts *v, const struct opts *o, int phase,
		int mutation, const struct seq_failure *first);
/* Whether every operation of @ops finds the mounts it needs, on the model. */
int seq_replayable(int phase, int host, int mutation,
		   const struct seq_op *ops, int n);
/*
 * Run @candidates sequences (@text, replay lines, ids from 0) and judge
 * them: 1 with the shortest that still fails in @best, 0 if none fails,
 * -1 if a boot failed.
 */
typedef int shrink_try(void *ctx, const char *text, size_t len,
		       int candidates, struct seq_failure *best);
/*
 * Delta debugging of @best (a failing sequence), candidates that the
 * model of @phase can replay judged by @try, until no removal of one
 * operation still fails: 0, or -1 if a boot failed.
 */
int shrink_rounds(struct seq_failure *best, int phase, int mutation,
		  shrink_try *try, void *ctx);

#endif
