// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection and kmemleak for the stress and sequences steps of the
 * debug variants (PSMF_FAULTS=1; Documentation/fault-injection/
 * fault-injection.rst, Documentation/dev-tools/kmemleak.rst): failslab and
 * fail_page_alloc fail allocations of the processes marked through
 * /proc/PID/make-it-fail only, and kmemleak scans, after all steps, for
 * what the run leaked.
 *
 * A step's processes become root of user namespaces, where they cannot
 * mark themselves (that takes CAP_SYS_RESOURCE of the host): they ask the
 * step's process, root of the host, through a marker's pipes.
 *
 *   faults on probability=<percent>
 *   faults error <what>: <strerror>
 *   faults hits slab=<n> page=<n>
 *   kmemleak leaks=<n>
 *   kmemleak-line <a line of its report>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

#define DEBUGFS "/sys/kernel/debug"
#define KMEMLEAK DEBUGFS "/kmemleak"
#define PROBABILITY 2		/* percent of the marked processes' allocations */
#define TIMES 1000000		/* counts down with each failure injected */
#define SHOWN_LEAKS 40

static const char *const kinds[] = { "failslab", "fail_page_alloc" };

/* Write @value to @path: 0, or -1 after reporting why. */
static int write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, value, strlen(value)) ==
			    (ssize_t)strlen(value);

	if (!ok)
		report("faults error %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Write @value to DEBUGFS/@dir/@file (DEBUGFS/@file without @dir). */
static int knob(const char *dir, const char *file, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), "%s%s%s%s%s", DEBUGFS, dir ? "/" : "",
		 dir ? dir : "", "/", file);
	return write_value(path, value);
}

static long read_number(const char *dir, const char *file)
{
	char path[128], buf[32] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", DEBUGFS, dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	if (fd >= 0)
		close(fd);
	return buf[0] ? atol(buf) : -1;
}

static int on;

int faults_on(void)
{
	return on;
}

int faults_start(void)
{
	static const char *const common[][2] = {
		{ "interval", "1" }, { "verbose", "0" }, { "space", "0" },
		{ "task-filter", "Y" }, { "ignore-gfp-wait", "N" },
	};
	char probability[8], times[16];
	size_t k, i;
	int err = 0;

	mkdir(DEBUGFS, 0700);
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) && errno != EBUSY) {
		report("faults error mount debugfs: %s\n", strerror(errno));
		return -1;
	}
	snprintf(probability, sizeof(probability), "%d", PROBABILITY);
	snprintf(times, sizeof(times), "%d", TIMES);
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (i = 0; i < ARRAY_SIZE(common); i++)
			err |= knob(kinds[k], common[i][0], common[i][1]);
		err |= knob(kinds[k], "times", times);
		err |= knob(kinds[k], "probability", probability);
	}
	err |= knob("failslab", "cache-filter", "N");
	err |= knob("fail_page_alloc", "ignore-gfp-highmem", "N");
	err |= knob("fail_page_alloc", "min-order", "0");
	/* Only what the step leaks: no automatic scan, the boot's forgotten. */
	err |= knob(NULL, "kmemleak", "scan=off");
	err |= knob(NULL, "kmemleak", "clear");
	if (!err)
		report("faults on probability=%d\n", PROBABILITY);
	on = !err;
	return err;
}

static void faults_mark(pid_t pid, int value)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/make-it-fail", pid);
	write_value(path, value ? "1" : "0");
}

void marker_open(struct marker *m)
{
	if (on && (pipe(m->req) || pipe(m->done)))
		die("pipe");
}

void marker_child(struct marker *m)
{
	if (!on)
		return;
	close(m->req[0]);
	close(m->done[1]);
}

void marker_ask(struct marker *m, int value)
{
	int req[2] = { -1, value }, i;
	char done;

	if (!on)
		return;
	for (i = 0; i < RETRIES && req[0] < 0; i++)
		req[0] = global_pid();	/* reads /proc: it may fail */
	/* A marked process's write may fail for want of a pipe buffer. */
	for (i = 0; i < RETRIES; i++)
		if (write(m->req[1], req, sizeof(req)) == sizeof(req) ||
		    !transient(errno))
			break;
	/*
	 * Several processes may ask at once: each waits for an answer, not
	 * necessarily its own, and so is marked at the latest soon after.
	 */
	if (i == RETRIES || read(m->done[0], &done, 1) != 1)
		die("ask to be marked for fault injection");
}

void marker_serve(struct marker *m, long deadline)
{
	struct pollfd p = { .fd = m->req[0], .events = POLLIN };
	int req[2];

	if (!on)
		return;
	close(m->req[1]);
	close(m->done[0]);
	while (now_ms() < deadline) {
		if (poll(&p, 1, deadline - now_ms()) <= 0)
			continue;
		if (read(m->req[0], req, sizeof(req)) != sizeof(req))
			break;
		faults_mark(req[0], req[1]);
		if (write(m->done[1], "", 1) != 1)
			die("tell a process it is marked");
	}
	close(m->req[0]);
	close(m->done[1]);
}

/* The injected failures, then what kmemleak finds once they are off. */
void faults_end(void)
{
	char line[256];
	long hits[ARRAY_SIZE(kinds)];
	int leaks = 0, shown = 0;
	size_t k;
	FILE *f;

	if (!on)
		return;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		hits[k] = TIMES - read_number(kinds[k], "times");
		knob(kinds[k], "probability", "0");
	}
	report("faults hits slab=%ld page=%ld\n", hits[0], hits[1]);
	/* An object is reported once it is 5 s old; scan twice, as advised. */
	sleep(6);
	knob(NULL, "kmemleak", "scan");
	knob(NULL, "kmemleak", "scan");
	f = fopen(KMEMLEAK, "r");
	if (!f) {
		report("faults error %s: %s\n", KMEMLEAK, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		leaks += !strncmp(line, "unreferenced object", 19);
		if (shown++ < SHOWN_LEAKS)
			report("kmemleak-line %s\n", line);
	}
	fclose(f);
	report("kmemleak leaks=%d\n", leaks);
}
