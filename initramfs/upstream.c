// SPDX-License-Identifier: GPL-2.0
/*
 * The upstream step: the kernel's own selftests of the mount code, every
 * program packed in /upstream (initramfs/upstream.sh), each as root in a
 * private mount namespace of its own, with its output.
 *
 *   upstream-count <n>                          (programs found)
 *   upstreamout <program> <line>                (its output, in order)
 *   upstream <program> exit=<n|-1> ms=<n>       (-1: killed at the limit)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

#define UPSTREAM_DIR "/upstream"
#define UPSTREAM_OUT "/upstream-output"
#define UPSTREAM_TIMEOUT_MS 120000

/* The program's exit status; -1 when it ran past the limit. */
static int run_program(const char *path)
{
	int fd;
	pid_t pid;

	fd = open(UPSTREAM_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(UPSTREAM_OUT);
	/*
	 * A program that runs out of time ends with its group; the kselftest
	 * harness puts each of its tests in a group of its own, and ends
	 * those itself at its own time limit.
	 */
	pid = fork_group();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		/* Their fixtures mount over /tmp and /mnt: not over ours. */
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    chdir("/tmp"))
			_exit(125);
		/* mount_setattr_test runs mkfs.ext4 and mount(8) by system(3) */
		setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(fd);
	return wait_child_within(pid, UPSTREAM_TIMEOUT_MS);
}

static void report_output(const char *name)
{
	FILE *f = fopen(UPSTREAM_OUT, "r");
	char *line = NULL;
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		report("upstreamout %s %s\n", name, line);
	}
	free(line);
	if (f)
		fclose(f);
}

static int is_program(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

void run_upstream(void)
{
	struct dirent **progs;
	char path[512];
	int i, n, status;
	long start;

	n = scandir(UPSTREAM_DIR, &progs, is_program, alphasort);
	report("upstream-count %d\n", n < 0 ? 0 : n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), UPSTREAM_DIR "/%s", progs[i]->d_name);
		start = now_ms();
		status = run_program(path);
		report_output(progs[i]->d_name);
		report("upstream %s exit=%d ms=%ld\n", progs[i]->d_name, status,
		       now_ms() - start);
		free(progs[i]);
	}
	if (n >= 0)
		free(progs);
}
