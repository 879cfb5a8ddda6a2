// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: several processes, each in its own user, mount, pid and net
 * namespaces, mount, bind, remount, mount_setattr and unmount proc and
 * sysfs in parallel for a bounded time.  Each process counts the outcomes
 * it saw per (filesystem, requested flags, operation) and reports them;
 * the host compares every outcome with its model.
 *
 *   s <fs> <requested> <op> ret=<0|ENAME> flags=<landed|none> n=<count>
 *   stress-end workers=<n> ops=<n> ms=<n>
 *
 * Under fault injection (faults.c) each worker is marked once in its
 * namespaces; an operation that fails reports the flags left where it
 * worked (none: nothing mounted), which must be those before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

#define WORKERS 4
#define SECONDS 3
#define MAX_OUTCOMES 6

static const char *const fss[] = { "proc", "sysfs" };
static struct marker marker;
struct outcome {
	int err, landed;
	long n;
};

/* [fs][requested][op]: the distinct outcomes seen, with their counts */
static struct outcome seen[2][16][N_MODEL_OPS][MAX_OUTCOMES];

static void count(int fs, int requested, enum op op, int err, int landed)
{
	struct outcome *o = seen[fs][requested][op];
	int i;

	for (i = 0; i < MAX_OUTCOMES; i++) {
		if (o[i].n && (o[i].err != err || o[i].landed != landed))
			continue;
		o[i].err = err;
		o[i].landed = landed;
		o[i].n++;
		return;
	}
	/* More distinct outcomes than kept: that alone is a disagreement. */
	report("s %s %d %s ret=too-many flags=none n=1\n", fss[fs], requested,
	       op_name(op));
}

/*
 * One random operation on this worker's /mnt/t: a change starts from a
 * mount with nosuid, nodev and noexec, or from a bind of its subdirectory.
 */
static void one_op(unsigned int *seed)
{
	int fs = rand_r(seed) % 2, requested = rand_r(seed) % 16;
	enum op op = rand_r(seed) % N_MODEL_OPS;
	const struct op_req req = {
		.fs = fss[fs], .flags = requested, .visible = F_EXEC,
		.sub = is_change_op(op) && rand_r(seed) % 2,
		.tolerant = faults_on(),
	};
	const char *where;
	int err = do_op(op, &req, &where), landed = -1;

	/* Under fault injection a failed operation shows what it left. */
	if (!err || faults_on())
		landed = landed_flags(where);
	count(fs, requested, op, err, landed);
	if (faults_on())
		undo_all();
	else
		undo_op(op, err, where);
}

static void worker(int id)
{
	unsigned int seed = 0x5eed + id;
	long end = now_ms() + SECONDS * 1000, ops = 0;
	char flags[64];
	int f, r, o, i;

	host_layout(F_EXEC);
	enter_container(1);
	marker_ask(&marker, 1);
	while (now_ms() < end) {
		one_op(&seed);
		ops++;
	}
	for (f = 0; f < 2; f++)
		for (r = 0; r < 16; r++)
			for (o = 0; o < N_MODEL_OPS; o++)
				for (i = 0; i < MAX_OUTCOMES; i++) {
					struct outcome *x = &seen[f][r][o][i];

					if (!x->n)
						continue;
					if (x->landed < 0)
						snprintf(flags, sizeof(flags), "none");
					else
						flag_names(x->landed, flags, sizeof(flags));
					report("s %s %d %s ret=%s flags=%s n=%ld\n",
					       fss[f], r, op_name(o),
					       x->err ? errno_name(x->err) : "0",
					       flags, x->n);
				}
	report("stress-worker ops=%ld\n", ops);
	_exit(0);
}

void run_stress(void)
{
	pid_t pids[WORKERS];
	int i, kmsg, failed = 0;
	long start;

	wait_fresh_ratelimit();
	start = now_ms();
	kmsg = kmsg_open_at_end();
	marker_open(&marker);
	for (i = 0; i < WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0) {
			marker_child(&marker);
			worker(i);
		}
	}
	marker_serve(&marker, start + SECONDS * 1000 + 60000);
	for (i = 0; i < WORKERS; i++)
		if (wait_child(pids[i]))
			failed++;
	kmsg_forward(kmsg, "stress", count_warnings);
	close(kmsg);
	report("stress-end workers=%d failed=%d ms=%ld\n", WORKERS, failed,
	       now_ms() - start);
}
