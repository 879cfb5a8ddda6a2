// SPDX-License-Identifier: GPL-2.0
/*
 * Every combination of the visible mount's flags {ro, nosuid, nodev,
 * noexec}, the requested flags, five operations and both filesystems.
 * One container per (filesystem, visible flags); the host compares each
 * case with its reference model (tests/runner/model.c).
 *
 *   x <fs> <visible> <requested> <op> ret=<0|ENAME> flags=<landed, - for none|none>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

/* One case on /mnt/t, which is empty again afterwards. */
static int one_case(const char *fs, int visible, int requested, enum op op,
		    int *landed)
{
	/* A change starts from a fresh mount that keeps every visible flag. */
	const struct op_req req = {
		.fs = fs, .flags = requested, .visible = visible,
	};
	const char *where;
	int err = do_op(op, &req, &where);

	*landed = err ? -1 : landed_flags(where);
	undo_op(op, err, where);
	return err;
}

static void container(const char *fs, int visible)
{
	char flags[64];
	int requested, landed, err;
	enum op op;

	for (requested = 0; requested <= F_ALL; requested++) {
		for (op = 0; op < N_MODEL_OPS; op++) {
			err = one_case(fs, visible, requested, op, &landed);
			if (landed < 0)
				snprintf(flags, sizeof(flags), "none");
			else
				flag_names(landed, flags, sizeof(flags));
			report("x %s %d %d %s ret=%s flags=%s\n", fs, visible,
			       requested, op_name(op),
			       err ? errno_name(err) : "0", flags);
		}
	}
}

void run_exhaustive(void)
{
	static const char *const fss[] = { "proc", "sysfs" };
	int visible, kmsg;
	long start;
	size_t f;
	pid_t pid;

	wait_fresh_ratelimit();
	start = now_ms();
	kmsg = kmsg_open_at_end();
	for (f = 0; f < 2; f++) {
		for (visible = 0; visible <= F_ALL; visible++) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (pid == 0) {
				host_layout(visible);
				enter_container(1);
				container(fss[f], visible);
				_exit(0);
			}
			if (wait_child(pid))
				report("error exhaustive container %s %d failed\n",
				       fss[f], visible);
		}
	}
	/* Warning lines are sampled by the rate limit: forwarded, not judged. */
	kmsg_forward(kmsg, "exhaustive", count_warnings);
	close(kmsg);
	report("exhaustive-end ms=%ld\n", now_ms() - start);
}
