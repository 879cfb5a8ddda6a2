// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's children (initramfs/children.c): exit codes as a shell's
 * $?, and a child that runs out of time ended with everything it started,
 * as a sequence's pid namespace must be.  The test is its children's
 * subreaper, so that it sees whether a grandchild outlived its parent.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../initramfs/guest.h"
#include "../runner/tap.h"

long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static pid_t exiting(int code)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t hanging(pid_t (*forker)(void))
{
	pid_t pid = forker();

	if (pid < 0) {
		/* never a kill() of -1 below */
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

/*
 * A child of @forker that starts a grandchild, tells its pid through a
 * pipe, and hangs: whether wait_child_within() ends the grandchild too.
 */
static bool grandchild_ended(pid_t (*forker)(void))
{
	int fd[2], status;
	pid_t child, grandchild = 0;

	if (pipe(fd))
		return false;
	child = forker();
	if (child == 0) {
		grandchild = hanging(fork);
		if (write(fd[1], &grandchild, sizeof(grandchild)) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	if (read(fd[0], &grandchild, sizeof(grandchild)) != sizeof(grandchild))
		return false;
	close(fd[0]);
	if (wait_child_within(child, 100) != -1)
		return false;
	/* Reparented to the test, killed and reaped: no such process. */
	if (kill(grandchild, 0) < 0 && errno == ESRCH)
		return true;
	kill(grandchild, SIGKILL);
	waitpid(grandchild, &status, 0);
	return false;
}

int main(void)
{
	long start;
	pid_t pid;
	int status;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	tap(wait_child(exiting(3)) == 3, "wait_child: an exit code as it is");
	pid = hanging(fork);
	kill(pid, SIGTERM);
	tap(wait_child(pid) == 128 + SIGTERM, "wait_child: a signal as 128 + its number");
	tap(wait_child_within(exiting(0), 5000) == 0,
	    "wait_child_within: a child that ends in time, its exit code");
	start = now_ms();
	pid = hanging(fork);
	tap(wait_child_within(pid, 100) == -1 && now_ms() - start < 5000,
	    "wait_child_within: a child that does not end in time, -1 after the time");
	tap(waitpid(pid, &status, WNOHANG) < 0 && errno == ECHILD,
	    "wait_child_within: ... and reaped");
	tap(grandchild_ended(fork_group),
	    "wait_child_within: a fork_group() child's own children are killed and reaped with it");
	pid = hanging(fork_group);
	tap(getpgid(pid) == pid, "fork_group: the child leads a group of its own");
	kill_group(pid);
	waitpid(pid, &status, 0);
	tap(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "kill_group: the group's leader is killed");
	pid = hanging(fork);
	kill_group(pid);
	waitpid(pid, &status, 0);
	tap(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "kill_group: a child that leads no group is killed all the same");
	return tap_end();
}
