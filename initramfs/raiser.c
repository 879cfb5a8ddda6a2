// SPDX-License-Identifier: GPL-2.0
/*
 * A process that stays root of the initial namespaces while a scenario
 * enters its container, and raises the phase when the scenario asks: the
 * sysctl takes writes from the initial user namespace only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

void raiser_start(struct raiser *r)
{
	int to[2], from[2];
	char phase[32];
	ssize_t n;

	if (pipe(to) || pipe(from))
		die("pipe");
	r->pid = fork();
	if (r->pid < 0)
		die("fork");
	if (r->pid == 0) {
		close(to[1]);
		close(from[0]);
		prctl(PR_SET_NAME, "mnt-raise");
		while ((n = read(to[0], phase, sizeof(phase) - 1)) > 0) {
			unsigned char err;

			phase[n] = 0;
			err = sysctl_write(phase);
			if (write(from[1], &err, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	r->req = to[1];
	r->resp = from[0];
}

/* Raise to @phase (none: NULL); returns 0 or the errno of the write. */
int raise_phase(const struct raiser *r, const char *phase)
{
	unsigned char err = EIO;

	if (!phase)
		return 0;
	if (write(r->req, phase, strlen(phase)) != (ssize_t)strlen(phase) ||
	    read(r->resp, &err, 1) != 1)
		die("ask the raiser");
	return err;
}

/* Let the helper go, once nothing more is to be raised. */
void raiser_stop(struct raiser *r)
{
	close(r->req);
	close(r->resp);
	waitpid(r->pid, NULL, 0);
}
