// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's children: wait for one, within a time or not, and end one
 * together with everything it started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

/* A wait status as a shell's $?: the exit code, or 128 + the signal. */
static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return exit_code(status);
}

/*
 * Fork a child that leads a process group of its own.  What it starts
 * stays in the group, the first process of a pid namespace that
 * enter_namespaces() forks among them, so kill_group() ends it all: a
 * sequence that ran out of time leaves nothing behind to run beside the
 * next one, nor to log kernel lines that would be counted as the next
 * one's.
 */
pid_t fork_group(void)
{
	pid_t pid = fork();

	/* Both ask, so that neither the child nor a kill waits on the other. */
	if (pid == 0)
		setpgid(0, 0);
	else if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/* Kill @pid, and its process group if it leads one (fork_group()). */
void kill_group(pid_t pid)
{
	if (pid <= 0)
		return;		/* kill(-1) or kill(0) would hit far more */
	kill(-pid, SIGKILL);	/* ESRCH: it leads none */
	kill(pid, SIGKILL);
}

/*
 * Kill @pid's group and wait until it is gone: its other members, the pid
 * namespace's first process among them, were orphaned to us (PID 1, or a
 * subreaper) and may still be dying, a mount call of theirs still
 * logging.  Only then may the next sequence start.
 */
static int end_group(pid_t pid)
{
	int status = 0, other;

	kill_group(pid);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	while (waitpid(-pid, &other, 0) > 0 || errno == EINTR)
		;
	return -1;
}

int wait_child_within(pid_t pid, long ms)
{
	long start = now_ms();
	int status = 0;

	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (now_ms() - start > ms)
			return end_group(pid);
		usleep(20000);
	}
	return exit_code(status);
}
