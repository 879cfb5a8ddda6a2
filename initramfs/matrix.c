// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix step: every scenario of tests/contract/scenarios.h, each in a
 * container of its own over the host layout it names.
 *
 *   begin <name>
 *   scenario <name> op=<op> fs=<fs> ret=<0|ENAME> flags=<f,..|-> pid=<n>
 *            comm=<comm> n=<successes>/<tries> ms=<n> raiser=<pid>
 *            userns=<inode of its user namespace> (one line)
 *   kmsg <name> <kernel line>
 *   alone <name> <boot parameter|->     (the scenario needs its own boot)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "guest.h"
#include "../tests/contract/scenarios.h"

/* A change scenario's raise between its fresh mount and its change. */
struct raise_ctx {
	const struct raiser *r;
	const char *phase;
};

static void raise_between(const void *ctx)
{
	const struct raise_ctx *c = ctx;

	raise_phase(c->r, c->phase);
}

/*
 * Perform @s inside the container, raising the phase through @r where the
 * scenario says.  Returns 0 or an errno; *where is the mount whose flags
 * landed.  A raise that fails does not end the scenario: the phase in
 * force then judges, and the kernel's notices tell the host which raises
 * took place.
 */
static int perform(const struct scenario *s, const struct raiser *r,
		   const char **where)
{
	const struct raise_ctx ctx = { r, s->after };
	const struct op_req req = {
		.fs = s->fs, .flags = s->flags, .visible = s->host,
		.sub = s->sub, .value = s->value,
		.between = raise_between, .ctx = &ctx,
	};

	raise_phase(r, s->before);
	return do_op(s->op, &req, where);
}

/* Runs in the container: perform, repeat, and report. */
static void scenario_child(const struct scenario *s, const struct raiser *r,
			   int out)
{
	char flags[64], comm[32] = "", line[512];
	const char *where;
	long start = now_ms();
	int i, err = 0, ok = 0, landed = -1;

	prctl(PR_SET_NAME, "mnt-scenario");
	for (i = 0; i < s->repeat; i++) {
		int e = perform(s, r, &where);

		if (!e) {
			ok++;
			landed = landed_flags(where);
			if (i + 1 < s->repeat)
				undo_op(s->op, 0, where);
		} else if (!err) {
			err = e;
		}
	}
	if (landed < 0)
		snprintf(flags, sizeof(flags), "-");
	else
		flag_names(landed, flags, sizeof(flags));
	prctl(PR_GET_NAME, comm);
	snprintf(line, sizeof(line),
		 "scenario %s op=%s fs=%s ret=%s flags=%s pid=%d comm=%s n=%d/%d ms=%ld raiser=%d userns=%u\n",
		 s->name, op_kernel_name(s->op), s->fs, err ? errno_name(err) : "0",
		 ok ? flags : "-", global_pid(), comm, ok, s->repeat,
		 now_ms() - start, r->pid, userns_inum());
	if (write(out, line, strlen(line)) != (ssize_t)strlen(line))
		_exit(1);
	_exit(0);
}

static void run_scenario(const struct scenario *s)
{
	char buf[512];
	int fd, kmsg, n;
	pid_t pid;

	pace_warnings(s->repeat > 1 ? 10 : 1);
	report("begin %s\n", s->name);
	kmsg = kmsg_open_at_end();
	pid = fork_pipe(&fd);
	if (pid == 0) {
		struct raiser r = { .pid = 0 };

		host_layout(s->host);
		if (s->before || s->after)
			raiser_start(&r);
		enter_container(s->nest);
		scenario_child(s, &r, fd);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (wait_child(pid) || n <= 0)
		report("scenario %s op=%s fs=%s ret=died flags=- pid=0 comm=- n=0/%d ms=0\n",
		       s->name, op_kernel_name(s->op), s->fs, s->repeat);
	else
		report("%.*s", n, buf);
	kmsg_forward(kmsg, s->name, count_warnings);
	close(kmsg);
	if (s->boot)	/* what the kernel said of the parameter at boot */
		kmsg_forward_boot(s->name, "VFS: unknown proc_sysfs_mount_flags=");
}

/*
 * The scenarios, or only PSMF_SCENARIO.  One that needs a boot of its own
 * (it raises the phase, or needs a boot parameter) runs only in a boot
 * made for it (PSMF_ALONE); elsewhere the guest asks the host for that
 * boot.
 */
void run_matrix(void)
{
	const char *only = getenv("PSMF_SCENARIO");
	int own_boot = getenv("PSMF_ALONE") != NULL;
	size_t i;

	for (i = 0; i < N_SCENARIOS; i++) {
		const struct scenario *s = &scenarios[i];

		if (only && strcmp(only, s->name))
			continue;
		if (scenario_alone(s) && !own_boot)
			report("alone %s %s\n", s->name, s->boot ? s->boot : "-");
		else
			run_scenario(s);
	}
}
