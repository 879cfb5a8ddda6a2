// SPDX-License-Identifier: GPL-2.0
/*
 * Mount-path benchmark: fresh mount and unmount of proc, with nosuid,
 * nodev and noexec kept (allowed silently in every phase), by root of a
 * user namespace; then the same with 1000 other mounts in the namespace
 * ahead of the visible proc, since the check walks the namespace's mount
 * list until it finds a visible mount that allows the new one.
 *
 *   bench <label> ops=<n> ms=<n>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

#define RUN_MS 1000
#define OTHER_MOUNTS 1000

static void measure(const char *label)
{
	long start, ops = 0;

	enter_container(1);
	/* warm up */
	for (ops = 0; ops < 50; ops++)
		if (fresh_mount("proc", "/mnt/t", F_EXEC) || umount2("/mnt/t", 0))
			die("bench: mount/umount proc");
	start = now_ms();
	for (ops = 0; now_ms() - start < RUN_MS; ops++)
		if (fresh_mount("proc", "/mnt/t", F_EXEC) || umount2("/mnt/t", 0))
			die("bench: mount/umount proc");
	report("bench %s ops=%ld ms=%ld\n", label, ops, now_ms() - start);
	_exit(0);
}

/* The host layout, with @others bind mounts listed before proc and sysfs. */
static void layout(int others)
{
	int i;

	host_layout(F_EXEC);
	if (umount2("/proc", MNT_DETACH) || umount2("/sys", MNT_DETACH))
		die("bench: umount");
	for (i = 0; i < others; i++)
		if (mount("/mnt/b", "/mnt/b", NULL, MS_BIND, NULL))
			die("bench: bind mount");
	if (fresh_mount("proc", "/proc", F_EXEC) ||
	    fresh_mount("sysfs", "/sys", F_EXEC))
		die("bench: mount proc, sysfs");
}

void run_bench(void)
{
	static const struct {
		const char *label;
		int others;
	} runs[] = { { "plain", 0 }, { "1000-mounts", OTHER_MOUNTS } };
	size_t i;
	pid_t pid;

	for (i = 0; i < 2; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			layout(runs[i].others);
			measure(runs[i].label);
		}
		if (wait_child(pid))
			report("error bench %s failed\n", runs[i].label);
	}
}
