// SPDX-License-Identifier: GPL-2.0
/*
 * psmf-audit on the kernel log of a booted Debian system (tests/system/):
 * after the rows of tests/system.md ran under warn, the system saved its
 * kernel log with docs/distributions.md's two commands, "journalctl -k -o
 * json" (journald's export) and "dmesg" (initramfs/system.c's log-json
 * and log-dmesg records).  What the report must say comes from
 * tests/system.md, from the warnings in the saved log read with the
 * warning's documented form, and from the guest's own reading of
 * /dev/kmsg while each row ran, not from the tool:
 * - the verdict: ready-for-enforce if no row of the release fails under
 *   enforce, else ready-for-implicit if none fails under implicit, else
 *   not-ready (docs/distributions.md, "Auditing hosts");
 * - the offences, by program, user namespace, operation and filesystem,
 *   are the warnings of the saved log, counted exactly; each row's
 *   warnings are among them; a row warns if and only if the table says
 *   some row warns under warn;
 * - the host is the image's hostname: from the export's _HOSTNAME (its
 *   file is named otherwise), from the text log's file name;
 * - the two forms give the same verdict and offences;
 * - the same text log with one warning taken out is counted one short.
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

#include "../contract/spec.h"
#include "../runner/tap.h"
#include "../runner/tool_spec.h"
#include "audit_json.h"

/* tests/system/rootfs.sh's /etc/hostname */
#define HOSTNAME "psmf"
#define MAX_KEYS 64

/* The two forms of the log, as initramfs/system.c reports them. */
static const struct {
	const char *form, *file;
	bool json;
} forms[] = {
	{ "json", "journal.json", true },	/* its host: _HOSTNAME */
	{ "dmesg", HOSTNAME ".log", false },	/* its host: the file's name */
};

#define N_FORMS (sizeof(forms) / sizeof(forms[0]))

/* An offence as both sides can name it, and how often. */
struct key {
	char program[64], op[16], fs[16];
	long long userns;
	long count;
};

struct keys {
	int n;
	bool full;	/* more offences than MAX_KEYS: not all kept */
	struct key k[MAX_KEYS];
};

static struct key *find(struct keys *ks, const struct key *k)
{
	int i;

	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i].program, k->program) && ks->k[i].userns == k->userns &&
		    !strcmp(ks->k[i].op, k->op) && !strcmp(ks->k[i].fs, k->fs))
			return &ks->k[i];
	return NULL;
}

static long count_of(const struct keys *ks, const struct key *k)
{
	const struct key *f = find((struct keys *)ks, k);

	return f ? f->count : 0;
}

static void add(struct keys *ks, const struct key *k, long n)
{
	struct key *f = find(ks, k);

	if (f) {
		f->count += n;
	} else if (ks->n == MAX_KEYS) {
		ks->full = true;
	} else {
		ks->k[ks->n] = *k;
		ks->k[ks->n++].count = n;
	}
}

/*
 * A warning in the form docs/distributions.md documents, read without
 * psmf-audit's parser: 0 if @msg is one, 1 if it is no warning (a raise's
 * notice, another line), -1 if it starts as one but is not in that form.
 */
static int parse_warning(const char *msg, struct key *k)
{
	const char *l = strstr(msg, WARNING_PREFIX);
	unsigned int ns;

	memset(k, 0, sizeof(*k));
	if (!l || !strstr(l, ") clears "))
		return 1;
	if (sscanf(l, WARNING_PREFIX "%63[^']' (pid %*d, user:[%u]) clears %*s in %15s of %15[a-z]",
		   k->program, &ns, k->op, k->fs) != 4)
		return -1;
	k->userns = ns;
	return 0;
}

/* Each row's warnings (the guest's kmsg records); *@odd: not in the form. */
static void row_warnings(const struct run *run, struct keys *ks, int *odd)
{
	struct key k;
	int i, j, r;

	*odd = 0;
	for (i = 0; i < run->n_tools; i++)
		for (j = 0; j < run->tools[i].n_lines; j++) {
			r = parse_warning(run->tools[i].lines[j], &k);
			if (r < 0)
				printf("# a warning of row %s not in the documented form: %s\n",
				       run->tools[i].name, run->tools[i].lines[j]);
			*odd += r < 0;
			if (!r)
				add(ks, &k, 1);
		}
}

/* The warnings of a saved log at @path; -1 if it cannot be read. */
static int log_warnings(const char *path, bool json, struct keys *ks)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	struct key k;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		json_object *j = json ? json_tokener_parse(line) : NULL;
		const char *msg = json ? json_object_get_string(audit_get(j, "MESSAGE")) : line;

		if (msg && !parse_warning(msg, &k))
			add(ks, &k, 1);
		json_object_put(j);
	}
	free(line);
	fclose(f);
	return 0;
}

/* The offences of host report @h. */
static void audit_offences(json_object *h, struct keys *ks)
{
	json_object *off = audit_get(h, "offences");
	size_t i;

	for (i = 0; off && i < json_object_array_length(off); i++) {
		json_object *o = json_object_array_get_idx(off, i), *ns;
		struct key k = { 0 };

		snprintf(k.program, sizeof(k.program), "%s",
			 json_object_get_string(audit_get(o, "program")));
		snprintf(k.op, sizeof(k.op), "%s", json_object_get_string(audit_get(o, "operation")));
		snprintf(k.fs, sizeof(k.fs), "%s", json_object_get_string(audit_get(o, "filesystem")));
		ns = audit_get(o, "user_namespace");
		k.userns = ns ? json_object_get_int64(ns) : -1;
		add(ks, &k, json_object_get_int64(audit_get(o, "count")));
	}
}

/* How many of @a's offences @b counts otherwise (@b's beyond @a's too). */
static int differ(const struct keys *a, const struct keys *b, const char *an,
		  const char *bn, bool print)
{
	int i, n = 0;

	for (i = 0; i < a->n; i++)
		if (count_of(b, &a->k[i]) != a->k[i].count) {
			if (print)
				printf("# %s in user:[%lld], %s of %s: %ld in %s, %ld in %s\n",
				       a->k[i].program, a->k[i].userns, a->k[i].op, a->k[i].fs,
				       a->k[i].count, an, count_of(b, &a->k[i]), bn);
			n++;
		}
	for (i = 0; i < b->n; i++)
		n += !count_of(a, &b->k[i]);
	return n + a->full + b->full;
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

static bool table_warns(const struct tool_spec *ts)
{
	int i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->row[i].verdict[PHASE_WARN], "warns"))
			return true;
	return false;
}

static const char *verdict_of(json_object *h)
{
	const char *v = h ? json_object_get_string(audit_get(h, "verdict")) : NULL;

	return v ? v : "none";
}

/* One form's report against the table, its saved log and the rows. */
static void judge_form(json_object *report, const char *form, const char *want,
		       const struct keys *saved, const struct keys *rows, struct keys *got)
{
	json_object *hosts = audit_get(report, "hosts"), *h = audit_host(report, HOSTNAME);
	int i, missing = 0;

	tap(hosts && json_object_array_length(hosts) == 1 && h,
	    "%s: one host, " HOSTNAME " (%zu hosts)", form,
	    hosts ? json_object_array_length(hosts) : 0);
	tap(!strcmp(verdict_of(h), want),
	    "%s: the verdict is %s, as tests/system.md's enforce and implicit columns give (psmf-audit: %s)",
	    form, want, verdict_of(h));
	if (h)
		audit_offences(h, got);
	tap(h && saved->n > 0 && !differ(saved, got, "the log", "the report", true),
	    "%s: the report counts the %d offences of the saved log's warnings exactly",
	    form, saved->n);
	for (i = 0; i < rows->n; i++)
		missing += count_of(got, &rows->k[i]) < rows->k[i].count;
	tap(!missing, "%s: each of the %d offences the rows printed is counted in full (%d are not)",
	    form, rows->n, missing);
	if (h && json_object_get_int64(audit_get(h, "lines_lost")))
		printf("# %s: psmf-audit says %lld lines were lost to the rate limit\n", form,
		       (long long)json_object_get_int64(audit_get(h, "lines_lost")));
}

/*
 * The log-@form records of @results into @path, with *@lines and *@exit
 * from its log-end record (-1: none).  False, with a comment, if they do
 * not agree or a file cannot be read or written.
 */
static bool extract(const char *results, const char *form, const char *path,
		    int *lines, int *exit_status)
{
	char *line = NULL, rec[32], end[48];
	size_t cap = 0;
	FILE *in = fopen(results, "r"), *out = in ? fopen(path, "w") : NULL;
	int n = 0;

	*lines = *exit_status = -1;
	if (!in || !out) {
		printf("# cannot read %s or write %s: %s\n", results, path, strerror(errno));
		if (in)
			fclose(in);
		return false;
	}
	snprintf(rec, sizeof(rec), "log-%s ", form);
	snprintf(end, sizeof(end), "log-end %s exit=%%d lines=%%d", form);
	while (getline(&line, &cap, in) > 0) {
		if (!strncmp(line, rec, strlen(rec))) {
			fputs(line + strlen(rec), out);
			n++;
		}
		sscanf(line, end, exit_status, lines);
	}
	free(line);
	fclose(in);
	if (fclose(out)) {
		printf("# cannot write %s: %s\n", path, strerror(errno));
		return false;
	}
	if (*lines != n)
		printf("# %s: log-end says %d lines, %d log-%s records\n", results, *lines, n, form);
	return *lines == n;
}

/* @path without its first warning line, as one rate limit might drop it. */
static bool drop_first_warning(const char *path)
{
	char *line = NULL, tmp[720];
	size_t cap = 0;
	FILE *in = fopen(path, "r"), *out;
	bool dropped = false;
	struct key k;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = in ? fopen(tmp, "w") : NULL;
	while (out && getline(&line, &cap, in) > 0) {
		if (!dropped && !parse_warning(line, &k))
			dropped = true;
		else
			fputs(line, out);
	}
	free(line);
	if (in)
		fclose(in);
	if (!out || fclose(out) || rename(tmp, path))
		return false;
	return dropped;
}

/* The dmesg log with a warning dropped: the exact count must fail. */
static void broken_turns_red(const char *audit, const char *dir, const char *path,
			     const struct keys *saved)
{
	json_object *report = drop_first_warning(path) ? audit_json(audit, "warn", dir) : NULL;
	struct keys got = { 0 };
	int off = -1;

	if (report) {
		audit_offences(audit_host(report, HOSTNAME), &got);
		off = differ(saved, &got, "the log", "the shortened log's report", false);
	}
	tap(off == 1, "dmesg with one warning taken out: the report is one offence count off the saved log (%d differ)",
	    off);
	json_object_put(report);
}

/* One form of the saved log, written back, audited and judged. */
struct form_run {
	char sub[600], path[700];
	json_object *report;
	struct keys saved, got;
};

static void audit_form(const char *audit, const char *results,
		       const char *dir, size_t f, const char *want,
		       const struct keys *rows, struct form_run *fr)
{
	int lines = -1, status = -1;
	bool saved_ok;

	snprintf(fr->sub, sizeof(fr->sub), "%s/%s", dir, forms[f].form);
	snprintf(fr->path, sizeof(fr->path), "%s/%s/%s", dir, forms[f].form,
		 forms[f].file);
	saved_ok = !mkdir(fr->sub, 0700) &&
		   extract(results, forms[f].form, fr->path, &lines, &status) &&
		   !log_warnings(fr->path, forms[f].json, &fr->saved);
	tap(saved_ok && status == 0 && lines > 0,
	    "%s: the system saved its kernel log (exit %d, %d lines)", forms[f].form, status, lines);
	fr->report = audit_json(audit, "warn", fr->sub);
	tap(fr->report != NULL, "%s: psmf-audit --phase warn --json gives a report", forms[f].form);
	if (fr->report)
		judge_form(fr->report, forms[f].form, want, &fr->saved, rows, &fr->got);
}

/* The table and the boot's results: 0, or 2 after a Bail out! line. */
static int load_inputs(char **argv, struct tool_spec *ts, struct run *run)
{
	char err[512];

	if (tool_spec_load(argv[2], argv[3], ts, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 2;
	}
	if (run_load(argv[4], run) || !run->ended) {
		printf("Bail out! %s: no finished boot of the Debian system; run its system-warn test first\n",
		       argv[4]);
		return 2;
	}
	if (run_stale("system-warn", argv[4], run))
		return 2;	/* it said which file changed, and what to run */
	return 0;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/psmf-system-audit.XXXXXX";
	static struct form_run fr[N_FORMS];
	static struct keys rows;
	static struct tool_spec ts;
	static struct run run;
	const char *want;
	int odd;
	size_t f;

	printf("TAP version 13\n");
	if (argc != 5) {
		printf("Bail out! usage: audit_system_test PSMF_AUDIT SYSTEM_MD RELEASE RESULTS\n");
		return 2;
	}
	if (load_inputs(argv, &ts, &run))
		return 2;
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 2;
	}
	want = expected_verdict(&ts);
	tap(!strcmp(run.sys_phase, "warn"), "the boot ran warn (/proc/sys: %s)", run.sys_phase);
	row_warnings(&run, &rows, &odd);
	tap(!odd && !rows.full, "every warning the rows printed has the documented form (%d do not)", odd);
	tap((rows.n > 0) == table_warns(&ts),
	    "the rows printed warnings (%d offences), as tests/system.md says some row %s under warn",
	    rows.n, table_warns(&ts) ? "warns" : "does not warn");
	for (f = 0; f < N_FORMS; f++)
		audit_form(argv[1], argv[4], dir, f, want, &rows, &fr[f]);
	tap(fr[0].report && fr[1].report &&
	    !strcmp(verdict_of(audit_host(fr[0].report, HOSTNAME)),
		    verdict_of(audit_host(fr[1].report, HOSTNAME))) &&
	    !differ(&fr[0].got, &fr[1].got, "the export", "dmesg", true),
	    "the journal's export and dmesg's text give the same verdict and offences");
	if (fr[1].report)
		broken_turns_red(argv[1], fr[1].sub, fr[1].path, &fr[1].saved);
	for (f = 0; f < N_FORMS; f++) {
		json_object_put(fr[f].report);
		unlink(fr[f].path);
		rmdir(fr[f].sub);
	}
	rmdir(dir);
	run_free(&run);
	return tap_end();
}
