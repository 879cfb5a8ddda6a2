// SPDX-License-Identifier: GPL-2.0
/*
 * psmf-audit on a fleet of our own guests: the consoles of boots that ran
 * the fleet step under warn (initramfs/fleet.c), each a host of several
 * containers, one of them noisy.  The tool's report must attribute every
 * tenant's mounts to its command and user namespace, and hide none: what
 * it counts for a tenant, plus what it says the tenant's namespace lost to
 * the rate limit, is the number of mounts the tenant made, as the guest
 * reported it; a tenant within one window of the rate limit lost nothing.
 *
 * usage: audit_fleet_test PSMF_AUDIT HOST=RESULTS=CONSOLE...
 * (HOST: the meson test that wrote RESULTS and CONSOLE, e.g. 6.1-warn)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../contract/spec.h"
#include "../runner/tap.h"
#include "audit_json.h"

#define MAX_HOSTS 8

struct host {
	char name[64];
	const char *results, *console;
	struct run run;
};

/* Copy @from to @to; false with a TAP comment if it cannot. */
static bool copy(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out = in ? fopen(to, "w") : NULL;
	size_t n;
	bool ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ok = false;
	if (!ok)
		printf("# cannot copy %s to %s: %s\n", from, to, strerror(errno));
	return ok;
}

/* What @h's report counts for @t, and what it says @t's namespace lost. */
static void counted(json_object *h, const struct tenant *t, long *count,
		    long *lost)
{
	json_object *off = audit_get(h, "offences"), *l = audit_get(h, "lost_by_user_namespace");
	size_t i;

	*count = *lost = 0;
	for (i = 0; off && i < json_object_array_length(off); i++) {
		json_object *o = json_object_array_get_idx(off, i);

		if (!strcmp(json_object_get_string(audit_get(o, "program")), t->comm) &&
		    json_object_get_int64(audit_get(o, "user_namespace")) == t->userns)
			*count += json_object_get_int64(audit_get(o, "count"));
	}
	for (i = 0; l && i < json_object_array_length(l); i++) {
		json_object *o = json_object_array_get_idx(l, i);

		if (!strcmp(json_object_get_string(audit_get(o, "program")), t->comm) &&
		    json_object_get_int64(audit_get(o, "user_namespace")) == t->userns)
			*lost += json_object_get_int64(audit_get(o, "lines_lost"));
	}
}

/* Every offence of @h names the user namespace it came from. */
static int unattributed(json_object *h)
{
	json_object *off = audit_get(h, "offences");
	size_t i;
	int n = 0;

	for (i = 0; off && i < json_object_array_length(off); i++)
		n += !audit_get(json_object_array_get_idx(off, i), "user_namespace");
	return n;
}

/* A check of judge_host(): TAP if @print, else only counted. */
static int check(bool print, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int check(bool print, bool ok, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (print)
		tap(ok, "%s", what);
	return !ok;
}

/* The report on @h against its tenants' counts; how many checks failed. */
static int judge_host(json_object *report, const struct host *h, bool print)
{
	json_object *r = audit_host(report, h->name);
	int i, failed;

	failed = check(print, r != NULL, "%s: the report has the host", h->name);
	if (!r)
		return failed;
	failed += check(print, !unattributed(r),
			"%s: every offence names its user namespace (%d do not)",
			h->name, unattributed(r));
	for (i = 0; i < h->run.n_tenants; i++) {
		const struct tenant *t = &h->run.tenants[i];
		long count, lost;

		counted(r, t, &count, &lost);
		failed += check(print, count + lost == t->ops,
				"%s %s in user:[%u]: counted %ld, lost %ld, of its %d mounts",
				h->name, t->comm, t->userns, count, lost, t->ops);
		if (t->ops <= RATELIMIT_BURST)
			failed += check(print, count == t->ops && !lost,
					"%s %s: within one window, all %d counted, none hidden by the noisy tenant",
					h->name, t->comm, t->ops);
	}
	return failed;
}

/*
 * The same check on @h's console with the first warning of its first
 * tenant within one window taken out, as a rate limit for all would have
 * hidden it: it must fail.
 */
static void broken_turns_red(const char *audit, const char *dir,
			     const struct host *h)
{
	char path[600], line[4096], want[160];
	const struct tenant *t = NULL;
	json_object *report;
	long count = 0, lost = 0;
	FILE *in, *out;
	int i, cut = 0;

	for (i = 0; i < h->run.n_tenants && !t; i++)
		if (h->run.tenants[i].ops <= RATELIMIT_BURST)
			t = &h->run.tenants[i];
	if (!t) {
		tap(false, "%s: a tenant within one window to hide", h->name);
		return;
	}
	snprintf(want, sizeof(want), WARNING_PREFIX "%s' (pid %d, user:[%u])",
		 t->comm, t->pid, t->userns);
	snprintf(path, sizeof(path), "%s/%.63s.log", dir, h->name);
	in = fopen(h->console, "r");
	out = fopen(path, "w");
	while (in && out && fgets(line, sizeof(line), in))
		if (cut || !strstr(line, want))
			fputs(line, out);
		else
			cut = 1;
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	report = cut ? audit_json(audit, NULL, dir) : NULL;
	if (report)
		counted(audit_host(report, h->name), t, &count, &lost);
	/* exactly its two checks fail: its sum, and none hidden */
	tap(report && count + lost == t->ops - 1 &&
	    judge_host(report, h, false) == 2,
	    "%s with %s's first warning taken out, as one rate limit for all would hide it: its count is one short and only its checks fail",
	    h->name, t->comm);
	json_object_put(report);
	unlink(path);
}

/* "HOST=RESULTS=CONSOLE" into @h, its results read; false if unusable. */
static bool load_host(const char *arg, struct host *h)
{
	char *a = strdup(arg), *r = strchr(a, '='), *c = r ? strchr(r + 1, '=') : NULL;

	if (!c) {
		printf("Bail out! %s: want HOST=RESULTS=CONSOLE\n", arg);
		exit(2);
	}
	*r++ = *c++ = '\0';
	snprintf(h->name, sizeof(h->name), "%s", a);
	h->results = r;
	h->console = c;
	if (run_load(r, &h->run) || h->run.n_tenants < 3) {
		printf("# %s: no fleet step in %s; run 'meson test' on the warn boots first\n",
		       h->name, r);
		return false;
	}
	return !run_stale(h->name, r, &h->run);
}

int main(int argc, char **argv)
{
	static struct host hosts[MAX_HOSTS];
	char dir[] = "/tmp/psmf-fleet.XXXXXX", path[600];
	json_object *report = NULL;
	int i, n = argc - 2, usable = 0;

	printf("TAP version 13\n");
	if (argc < 4 || n > MAX_HOSTS) {
		printf("Bail out! usage: audit_fleet_test PSMF_AUDIT HOST=RESULTS=CONSOLE... (2 to %d hosts)\n",
		       MAX_HOSTS);
		return 2;
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (!load_host(argv[i + 2], &hosts[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%.63s.log", dir, hosts[i].name);
		usable += copy(hosts[i].console, path);
	}
	tap(usable == n, "%d of %d hosts have a fleet step's results and console", usable, n);
	if (usable == n)
		report = audit_json(argv[1], NULL, dir);
	tap(report != NULL, "psmf-audit --json on the %d hosts' consoles gives a report", n);
	for (i = 0; report && i < n; i++)
		judge_host(report, &hosts[i], true);
	json_object_put(report);
	if (report) {
		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/%.63s.log", dir, hosts[i].name);
			unlink(path);
		}
		broken_turns_red(argv[1], dir, &hosts[0]);
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%.63s.log", dir, hosts[i].name);
		unlink(path);
		run_free(&hosts[i].run);
	}
	rmdir(dir);
	return tap_end();
}
