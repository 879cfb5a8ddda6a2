// SPDX-License-Identifier: GPL-2.0
/*
 * Mount-path benchmark: fresh mount and unmount of proc, with nosuid,
 * nodev and noexec kept (allowed silently in every phase), by root of a
 * user namespace; then the same with 1000 other mounts in the namespace,
 * since the check walks the namespace's whole mount list.
 *
 *   bench <label> ops=<n> ms=<n>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

#define RUN_MS 2000
#define OTHER_MOUNTS 1000

static void measure(const char *label)
{
	long start, ops = 0;

	/* warm up */
	for (ops = 0; ops < 50; ops++)
		if (fresh_mount("proc", "/mnt/t", F_EXEC) || umount2("/mnt/t", 0))
			die("bench: mount/umount proc");
	start = now_ms();
	for (ops = 0; now_ms() - start < RUN_MS; ops++)
		if (fresh_mount("proc", "/mnt/t", F_EXEC) || umount2("/mnt/t", 0))
			die("bench: mount/umount proc");
	report("bench %s ops=%ld ms=%ld\n", label, ops, now_ms() - start);
}

void run_bench(void)
{
	pid_t pid = fork();
	int i;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		host_layout(F_EXEC);
		enter_container(1);
		measure("plain");
		for (i = 0; i < OTHER_MOUNTS; i++)
			if (mount("/mnt/b", "/mnt/b", NULL, MS_BIND, NULL))
				die("bench: bind mount");
		measure("1000-mounts");
		_exit(0);
	}
	if (wait_child(pid))
		report("error bench failed\n");
}
