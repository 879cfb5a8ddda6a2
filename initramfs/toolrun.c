// SPDX-License-Identifier: GPL-2.0
/* A tool's run with its output kept (toolrun.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "toolrun.h"

/*
 * Keep one line of output.  The pipe is read without blocking, so a read
 * can end inside a line (lxc-start writes its prefix and its message
 * apart): a piece without its newline waits in @partial for the rest.
 */
static void keep_output(struct captured *c, char *partial, size_t len,
			const char *piece, bool whole)
{
	size_t used = strlen(partial);

	snprintf(partial + used, len - used, "%s", piece);
	if (!whole)
		return;
	partial[strcspn(partial, "\n")] = 0;
	if (c->n < CAPTURED_LINES)
		snprintf(c->line[c->n++], sizeof(c->line[0]), "%.255s", partial);
	partial[0] = 0;
}

int run_captured(pid_t (*spawn)(const void *ctx, int out), const void *ctx,
		 long timeout_ms, struct captured *c)
{
	char line[512], partial[512] = "";
	long start = now_ms();
	int pipefd[2], status = -1;
	FILE *p;
	pid_t pid;

	if (pipe(pipefd))
		die("pipe");
	pid = spawn(ctx, pipefd[1]);
	if (pid < 0)
		die("fork");
	close(pipefd[1]);
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	p = fdopen(pipefd[0], "r");
	c->n = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		while (p && fgets(line, sizeof(line), p))
			keep_output(c, partial, sizeof(partial), line,
				    strchr(line, '\n') != NULL);
		clearerr(p);
		if (w == pid)
			break;
		if (now_ms() - start > timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
		usleep(20000);
	}
	if (partial[0])		/* the last line had no newline */
		keep_output(c, partial, sizeof(partial), "", true);
	fclose(p);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
