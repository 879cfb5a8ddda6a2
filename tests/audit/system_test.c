// SPDX-License-Identifier: GPL-2.0
/*
 * psmf-audit on the kernel log of a booted Debian system (tests/system/):
 * after the rows of tests/system.md ran under warn, the system saved its
 * kernel log with docs/distributions.md's two commands, "journalctl -k -o
 * json" (journald's export) and "dmesg" (initramfs/system.c's log-json
 * and log-dmesg records).  What the report must say comes from
 * tests/system.md and from the guest's own reading of /dev/kmsg, not from
 * the tool:
 * - the verdict: ready-for-enforce if no row of the release fails under
 *   enforce, else ready-for-implicit if none fails under implicit, else
 *   not-ready (docs/distributions.md, "Auditing hosts");
 * - every warning the kernel printed while a row ran (the row's kmsg
 *   records) is among the offences, by program, user namespace, operation
 *   and filesystem;
 * - the journal's export and dmesg's text give the same host, the image's
 *   hostname, and the same verdict and offences.
 *
 * usage: audit_system_test PSMF_AUDIT SYSTEM_MD RELEASE RESULTS
 * (RESULTS: the results of the tree's system-warn boot)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "../spec.h"
#include "../tap.h"
#include "../tool_spec.h"
#include "audit_json.h"

/* tests/system/rootfs.sh's /etc/hostname: the host both logs name */
#define HOSTNAME "psmf"
#define MAX_KEYS 64

/* The two forms of the log, as initramfs/system.c reports them. */
static const struct {
	const char *form, *file;
} forms[] = {
	{ "json", HOSTNAME ".json" },
	{ "dmesg", HOSTNAME ".log" },
};

#define N_FORMS (sizeof(forms) / sizeof(forms[0]))

/* An offence as both sides can name it. */
struct key {
	char program[64], op[16], fs[16];
	long long userns;
	long count;
};

/*
 * The log-@form records of @results into @path; *@lines and *@exit from
 * its log-end record (-1: none).  False if a file cannot be written.
 */
static bool extract(const char *results, const char *form, const char *path,
		    int *lines, int *exit_status)
{
	char *line = NULL, rec[32], end[48];
	size_t cap = 0;
	ssize_t len;
	FILE *in = fopen(results, "r"), *out = fopen(path, "w");
	int n = 0;

	*lines = *exit_status = -1;
	snprintf(rec, sizeof(rec), "log-%s ", form);
	snprintf(end, sizeof(end), "log-end %s exit=%%d lines=%%d", form);
	while (in && out && (len = getline(&line, &cap, in)) > 0) {
		if (!strncmp(line, rec, strlen(rec))) {
			fputs(line + strlen(rec), out);
			n++;
		}
		sscanf(line, end, exit_status, lines);
	}
	free(line);
	if (in)
		fclose(in);
	if (!out || fclose(out)) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		return false;
	}
	if (*lines >= 0 && *lines != n)
		printf("# %s: log-end says %d lines, %d log-%s records\n", results,
		       *lines, n, form);
	return *lines == n;
}

/* docs/distributions.md's verdict for a warn host whose rows are @ts's. */
static const char *expected_verdict(const struct tool_spec *ts)
{
	bool enforce = true, implicit = true;
	int i;

	for (i = 0; i < ts->n; i++) {
		enforce = enforce && strcmp(ts->row[i].verdict[PHASE_ENFORCE], "fails");
		implicit = implicit && strcmp(ts->row[i].verdict[PHASE_IMPLICIT], "fails");
	}
	return enforce ? "ready-for-enforce" : implicit ? "ready-for-implicit" : "not-ready";
}

/* Add @n of @k to @keys (its @count already set in @k is ignored). */
static void add_key(struct key *keys, int *nkeys, const struct key *k, long n)
{
	int i;

	for (i = 0; i < *nkeys; i++)
		if (!strcmp(keys[i].program, k->program) && keys[i].userns == k->userns &&
		    !strcmp(keys[i].op, k->op) && !strcmp(keys[i].fs, k->fs)) {
			keys[i].count += n;
			return;
		}
	if (*nkeys == MAX_KEYS)
		return;
	keys[*nkeys] = *k;
	keys[(*nkeys)++].count = n;
}

/*
 * The warnings the rows' kmsg records hold, by key, read with the
 * warning's documented form (docs/distributions.md), not psmf-audit's
 * parser; how many lines had that prefix but not that form, in *@odd.
 */
static int row_warnings(const struct run *run, struct key *keys, int *odd)
{
	int i, j, n = 0;

	*odd = 0;
	for (i = 0; i < run->n_tools; i++)
		for (j = 0; j < run->tools[i].n_lines; j++) {
			const char *l = strstr(run->tools[i].lines[j], WARNING_PREFIX);
			struct key k = { 0 };
			unsigned int ns;

			if (!l || !strstr(l, ") clears "))
				continue;	/* not a warning: a raise's notice */
			if (sscanf(l, WARNING_PREFIX "%63[^']' (pid %*d, user:[%u]) clears %*s in %15s of %15[a-z]",
				   k.program, &ns, k.op, k.fs) != 4) {
				printf("# a warning of row %s not in the documented form: %s\n",
				       run->tools[i].name, l);
				++*odd;
				continue;
			}
			k.userns = ns;
			add_key(keys, &n, &k, 1);
		}
	return n;
}

/* The offences of host report @h, by key. */
static int audit_offences(json_object *h, struct key *keys)
{
	json_object *off = audit_get(h, "offences");
	size_t i;
	int n = 0;

	for (i = 0; off && i < json_object_array_length(off); i++) {
		json_object *o = json_object_array_get_idx(off, i), *ns;
		struct key k = { 0 };

		snprintf(k.program, sizeof(k.program), "%s",
			 json_object_get_string(audit_get(o, "program")));
		snprintf(k.op, sizeof(k.op), "%s", json_object_get_string(audit_get(o, "operation")));
		snprintf(k.fs, sizeof(k.fs), "%s", json_object_get_string(audit_get(o, "filesystem")));
		ns = audit_get(o, "user_namespace");
		k.userns = ns ? json_object_get_int64(ns) : -1;
		add_key(keys, &n, &k, json_object_get_int64(audit_get(o, "count")));
	}
	return n;
}

static long count_of(const struct key *keys, int n, const struct key *k)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].program, k->program) && keys[i].userns == k->userns &&
		    !strcmp(keys[i].op, k->op) && !strcmp(keys[i].fs, k->fs))
			return keys[i].count;
	return 0;
}

/* One form's report against the rows and the table; its host report. */
static json_object *judge_form(json_object *report, const char *form,
			       const char *want, const struct key *rows, int nrows)
{
	json_object *hosts = audit_get(report, "hosts"), *h = audit_host(report, HOSTNAME);
	const char *verdict = h ? json_object_get_string(audit_get(h, "verdict")) : NULL;
	struct key got[MAX_KEYS];
	int i, n = h ? audit_offences(h, got) : 0, missing = 0;

	tap(hosts && json_object_array_length(hosts) == 1 && h,
	    "%s: one host, named " HOSTNAME " as the image calls itself (%zu hosts)",
	    form, hosts ? json_object_array_length(hosts) : 0);
	tap(verdict && !strcmp(verdict, want),
	    "%s: the verdict is %s, as tests/system.md's enforce and implicit columns give (psmf-audit: %s)",
	    form, want, verdict ? verdict : "none");
	for (i = 0; i < nrows; i++)
		if (count_of(got, n, &rows[i]) < rows[i].count) {
			printf("# %s: %s in user:[%lld], %s of %s: the rows printed %ld, the report counts %ld\n",
			       form, rows[i].program, rows[i].userns, rows[i].op, rows[i].fs,
			       rows[i].count, count_of(got, n, &rows[i]));
			missing++;
		}
	tap(nrows > 0 && !missing,
	    "%s: each of the %d offences the rows printed (program, user namespace, operation, filesystem) is counted in full (%d are not)",
	    form, nrows, missing);
	return h;
}

/* Whether two host reports hold the same verdict and offences. */
static bool same_report(json_object *a, json_object *b)
{
	struct key x[MAX_KEYS], y[MAX_KEYS];
	int nx = audit_offences(a, x), ny = audit_offences(b, y), i;

	if (nx != ny || strcmp(json_object_get_string(audit_get(a, "verdict")),
			       json_object_get_string(audit_get(b, "verdict"))))
		return false;
	for (i = 0; i < nx; i++)
		if (count_of(y, ny, &x[i]) != x[i].count)
			return false;
	return true;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/psmf-system-audit.XXXXXX", sub[N_FORMS][600], path[N_FORMS][700];
	json_object *report[N_FORMS] = { 0 }, *host[N_FORMS] = { 0 };
	static struct tool_spec ts;
	static struct run run;
	struct key rows[MAX_KEYS];
	char err[512];
	int nrows, odd, lines, status;
	size_t f;

	printf("TAP version 13\n");
	if (argc != 5) {
		printf("Bail out! usage: audit_system_test PSMF_AUDIT SYSTEM_MD RELEASE RESULTS\n");
		return 2;
	}
	if (tool_spec_load(argv[2], argv[3], &ts, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 2;
	}
	if (run_load(argv[4], &run) || !run.ended) {
		printf("Bail out! %s: no finished boot of the Debian system; run its system-warn test first\n",
		       argv[4]);
		return 2;
	}
	if (run_stale("system-warn", argv[4], &run))
		return 1;
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 2;
	}
	tap(!strcmp(run.sys_phase, "warn"), "the boot ran warn (/proc/sys: %s)", run.sys_phase);
	nrows = row_warnings(&run, rows, &odd);
	tap(!odd, "every warning the rows printed has the documented form (%d do not)", odd);
	for (f = 0; f < N_FORMS; f++) {
		snprintf(sub[f], sizeof(sub[f]), "%s/%s", dir, forms[f].form);
		snprintf(path[f], sizeof(path[f]), "%s/%s", sub[f], forms[f].file);
		if (mkdir(sub[f], 0700) || !extract(argv[4], forms[f].form, path[f], &lines, &status)) {
			tap(false, "%s: the system saved its kernel log", forms[f].form);
			continue;
		}
		tap(status == 0 && lines > 0, "%s: the system saved its kernel log (exit %d, %d lines)",
		    forms[f].form, status, lines);
		report[f] = audit_json(argv[1], "warn", sub[f]);
		tap(report[f] != NULL, "%s: psmf-audit --phase warn --json gives a report", forms[f].form);
		if (report[f])
			host[f] = judge_form(report[f], forms[f].form, expected_verdict(&ts), rows, nrows);
	}
	tap(host[0] && host[1] && same_report(host[0], host[1]),
	    "the journal's export and dmesg's text give the same verdict and offences");
	for (f = 0; f < N_FORMS; f++) {
		json_object_put(report[f]);
		unlink(path[f]);
		rmdir(sub[f]);
	}
	rmdir(dir);
	run_free(&run);
	return tap_end();
}
