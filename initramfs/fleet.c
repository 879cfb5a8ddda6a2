// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet step: the containers of one host warn at once, as on a host of
 * a fleet that an operator audits under warn before raising the phase.
 * Each tenant is a container of its own (user, mount and pid namespaces)
 * over the host's layout, proc and sysfs with nosuid, nodev and noexec;
 * it mounts proc without them, which the warn phase logs, and unmounts it
 * again.
 *
 *   - the noisy tenant mounts in a loop: it starts first, and the quiet
 *     tenants run only once it has made RATELIMIT_BURST * 2 mounts, more
 *     than one rate limit for the whole kernel would let through; it
 *     stops when they are done, waits for its rate limit's window to run
 *     out and mounts once more, so that the kernel reports what its
 *     limit suppressed before that last warning;
 *   - the burst tenant makes RATELIMIT_BURST * 3 mounts at once and
 *     exits: what its limit suppressed is reported when its user
 *     namespace is freed;
 *   - the quiet tenants make a few mounts each, in the noisy one's flood.
 *
 * Records (the host judges the kernel's lines against them,
 * tests/runner/judge_fleet.c):
 *
 *   begin fleet
 *   fleet-tenant <comm> pid=<n> userns=<inode> ops=<mounts>
 *                ok=<those that succeeded> (one line)
 *   kmsg fleet <kernel line>
 *   fleet-end ms=<n>
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "guest.h"

#define NOISY_HEAD (RATELIMIT_BURST * 2)	/* before the quiet ones start */
#define NOISY_MAX 2000				/* if they never finish */
#define BURST_OPS (RATELIMIT_BURST * 3)
#define WINDOW_MARGIN_MS 500

enum kind { NOISY, BURST, QUIET };

static const struct tenant {
	const char *comm;
	enum kind kind;
	int ops;		/* QUIET and BURST: how many mounts */
} tenants[] = {
	{ "fleet-noisy", NOISY, 0 },
	{ "fleet-burst", BURST, BURST_OPS },
	{ "fleet-web", QUIET, 1 },
	{ "fleet-db", QUIET, 2 },
	{ "fleet-cron", QUIET, 3 },
};
#define N_TENANTS (sizeof(tenants) / sizeof(*tenants))

/* One mount of proc without the host's flags; 1 if it succeeded. */
static int mount_once(void)
{
	if (fresh_mount("proc", "/mnt/t", 0))
		return 0;
	if (umount2("/mnt/t", 0))
		die("fleet: umount proc");
	return 1;
}

/* Has the parent closed @stop, its sign that the quiet tenants are done? */
static int told_to_stop(int stop)
{
	struct pollfd p = { .fd = stop, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/* A container of its own, without a network namespace to tear down. */
static void enter_tenant(const struct tenant *t)
{
	host_layout(F_EXEC);
	enter_container_netless();
	prctl(PR_SET_NAME, t->comm);
}

/* Runs in the container: mount as @t does, and report. */
static void tenant(const struct tenant *t, int out, int go, int stop)
{
	char line[160];
	int n = 0, ok = 0;

	enter_tenant(t);
	if (t->kind != NOISY) {
		for (; n < t->ops; n++)
			ok += mount_once();
	} else {
		for (; n < NOISY_MAX && (n < NOISY_HEAD || !told_to_stop(stop)); n++) {
			ok += mount_once();
			if (n + 1 == NOISY_HEAD && write(go, "g", 1) != 1)
				die("fleet: tell the quiet tenants to start");
		}
		usleep((RATELIMIT_MS + WINDOW_MARGIN_MS) * 1000);
		ok += mount_once();
		n++;
	}
	snprintf(line, sizeof(line), "fleet-tenant %s pid=%d userns=%u ops=%d ok=%d\n",
		 t->comm, global_pid(), userns_inum(), n, ok);
	if (write(out, line, strlen(line)) != (ssize_t)strlen(line))
		_exit(1);
	_exit(0);
}

/* Start tenant @i; its report comes on *@out. */
static pid_t start(size_t i, int *out, int go[2], int stop[2])
{
	pid_t pid = fork_pipe(out);

	if (pid == 0) {
		close(go[0]);
		close(stop[1]);
		tenant(&tenants[i], *out, go[1], stop[0]);
	}
	return pid;
}

/* Forward tenant @i's report, or say that it died. */
static void finish(size_t i, pid_t pid, int out)
{
	char buf[160];
	int n = read(out, buf, sizeof(buf) - 1);

	close(out);
	if (wait_child(pid) || n <= 0)
		report("fleet-tenant %s died\n", tenants[i].comm);
	else
		report("%.*s", n, buf);
}

void run_fleet(void)
{
	int go[2], stop[2], out[N_TENANTS], kmsg;
	pid_t pid[N_TENANTS];
	long start_ms = now_ms();
	size_t i;
	char c;

	/*
	 * A step before may have left a namespace whose count of suppressed
	 * lines comes when it is freed, and inode numbers are reused: let
	 * those lines come before the fleet's, and its windows close.
	 */
	wait_fresh_ratelimit();
	kmsg_settle(1500, 8000);
	report("begin fleet\n");
	kmsg = kmsg_open_at_end();
	if (pipe(go) || pipe(stop))
		die("fleet: pipe");
	pid[0] = start(0, &out[0], go, stop);
	close(go[1]);
	/* The noisy tenant is in its flood (or died: then EOF). */
	if (read(go[0], &c, 1) < 0)
		die("fleet: wait for the noisy tenant");
	for (i = 1; i < N_TENANTS; i++)
		pid[i] = start(i, &out[i], go, stop);
	for (i = 1; i < N_TENANTS; i++)
		finish(i, pid[i], out[i]);
	close(stop[1]);
	finish(0, pid[0], out[0]);
	close(go[0]);
	close(stop[0]);
	/* The burst tenant's count comes when its namespace is freed. */
	kmsg_settle(1500, 8000);
	kmsg_forward(kmsg, "fleet", count_warnings);
	close(kmsg);
	report("fleet-end ms=%ld\n", now_ms() - start_ms);
}
