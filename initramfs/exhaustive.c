// SPDX-License-Identifier: GPL-2.0
/*
 * Every combination of the visible mount's flags {ro, nosuid, nodev,
 * noexec}, the requested flags, five operations and both filesystems.
 * One container per (filesystem, visible flags); the host compares each
 * case with its reference model (tests/model.c).
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

static const struct {
	enum op op;
	const char *name;	/* as tests/model.c names it */
} ops[] = {
	{ OP_MOUNT, "mount" },
	{ OP_FSMOUNT, "fsmount" },
	{ OP_REMOUNT, "remount" },
	{ OP_BIND_REMOUNT, "bindremount" },
	{ OP_SETATTR, "setattr" },
};

#define N_OPS (sizeof(ops) / sizeof(ops[0]))

/* One case on /mnt/t, which is empty again afterwards. */
static int one_case(const char *fs, int visible, int requested, enum op op,
		    int *landed)
{
	int err;

	*landed = -1;
	if (op == OP_MOUNT || op == OP_FSMOUNT) {
		err = op == OP_MOUNT ? fresh_mount(fs, "/mnt/t", requested) :
				       fs_mount_api(fs, "/mnt/t", requested);
		err = err ? errno : 0;
	} else {
		/* A fresh mount that keeps every visible flag, then the change. */
		if (fresh_mount(fs, "/mnt/t", visible))
			die("fresh mount before the change");
		err = change_flags(op, "/mnt/t", requested) ? errno : 0;
	}
	if (!err || op >= OP_REMOUNT) {
		if (!err)
			*landed = landed_flags("/mnt/t");
		if (umount2("/mnt/t", MNT_DETACH))
			die("umount /mnt/t");
	}
	return err;
}

static void container(const char *fs, int visible)
{
	char flags[64];
	int requested, landed, err;
	size_t i;

	for (requested = 0; requested <= F_ALL; requested++) {
		for (i = 0; i < N_OPS; i++) {
			err = one_case(fs, visible, requested, ops[i].op, &landed);
			if (landed < 0)
				snprintf(flags, sizeof(flags), "none");
			else
				flag_names(landed, flags, sizeof(flags));
			report("x %s %d %d %s ret=%s flags=%s\n", fs, visible,
			       requested, ops[i].name,
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
