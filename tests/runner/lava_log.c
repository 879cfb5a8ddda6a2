// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the log of a LAVA job, as lava-run prints it: one JSON object
 * per line; "results" lines carry the test cases LAVA recorded (and the
 * job's own result), "target" lines the device's console.  The job's
 * status alone proves nothing ("not ok" does not fail a LAVA job), so the
 * caller counts and compares the cases.  Pure: unit-tested on a saved log.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lava.h"

/* The JSON string value of "@key": in @line, decoded, or "" if absent. */
static void json_str(const char *line, const char *key, char *buf, size_t len)
{
	char pat[64];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = strstr(line, pat);
	buf[0] = 0;
	if (!p)
		return;
	for (p += strlen(pat); *p && *p != '"' && n + 1 < len; p++) {
		char c = *p;

		if (c == '\\' && p[1]) {
			c = *++p;
			if (c == 'n' || c == 'r' || c == 't')
				c = ' ';
			else if (c == 'u' && strlen(p) >= 5) {
				c = strtol((char[]){ p[1], p[2], p[3], p[4], 0 }, NULL, 16);
				if (c < 0x20 || c > 0x7e)
					c = '?';
				p += 4;
			}
		}
		buf[n++] = c;
	}
	buf[n] = 0;
}

/* A "results" line: a case of ours, or the job's own result. */
static void read_result(const char *line, struct lava_log *l)
{
	char def[32], id[128], result[16], kase[64];

	json_str(line, "definition", def, sizeof(def));
	json_str(line, "result", result, sizeof(result));
	json_str(line, "case", kase, sizeof(kase));
	if (!strcmp(def, "lava")) {
		if (!strcmp(kase, "job")) {
			l->job_seen = true;
			l->job_pass = !strcmp(result, "pass");
			json_str(line, "error_msg", l->job_error,
				 sizeof(l->job_error));
		}
		return;
	}
	json_str(line, "test_case_id", id, sizeof(id));
	if (l->n == LAVA_MAX_CASES || !id[0])
		return;
	snprintf(l->c[l->n].def, sizeof(l->c[l->n].def), "%s", def);
	snprintf(l->c[l->n].id, sizeof(l->c[l->n].id), "%s", id);
	l->c[l->n++].pass = !strcmp(result, "pass");
}

static FILE *open_or_null(const char *path)
{
	return fopen(path ? path : "/dev/null", "w");
}

int lava_read_log(const char *log, struct lava_log *l, const char *console,
		  const char *records)
{
	FILE *in = fopen(log, "r"), *con = open_or_null(console);
	FILE *rec = open_or_null(records), *more;
	char *line = NULL, msg[8192];
	size_t cap = 0;
	int boots = 0;

	memset(l, 0, sizeof(*l));
	snprintf(msg, sizeof(msg), "%.4000s.alone", console ? console : "");
	more = open_or_null(console ? msg : NULL);
	if (!in || !con || !rec || !more) {
		if (in)
			fclose(in);
		if (con)
			fclose(con);
		if (rec)
			fclose(rec);
		if (more)
			fclose(more);
		return -1;
	}
	while (getline(&line, &cap, in) > 0) {
		if (strstr(line, "\"lvl\": \"results\"")) {
			read_result(line, l);
			continue;
		}
		if (!strstr(line, "\"lvl\": \"target\""))
			continue;
		json_str(line, "msg", msg, sizeof(msg));
		if (strstr(msg, "] Linux version "))
			boots++;
		if (!strncmp(msg, "psmf-record: ", 13))
			fprintf(rec, "%s\n", msg + 13);
		else
			fprintf(boots <= 1 ? con : more, "%s\n", msg);
	}
	free(line);
	fclose(in);
	fclose(more);
	fclose(con);
	return fclose(rec);
}
