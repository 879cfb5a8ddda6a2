// SPDX-License-Identifier: GPL-2.0
/* The raises in /etc/sysctl.d/ at boot (tests/system.md), read and judged. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "sysctl_spec.h"
#include "tap.h"

#define HEADER_FIRST "boot parameter"
#define CELLS 4
/* Who must have written the kernel's notice of a raise (RAISE_NOTICE) */
#define WRITER "process 'systemd-sysctl'"
#define KEY "proc_sysfs_mount_flags"
/* systemd-sysctl's line for a write that failed (src/sysctl/sysctl.c) */
#define WRITE_FAILED "Couldn't write"

static const char *const header[CELLS] = {
	HEADER_FIRST, "/etc/sysctl.d", "after boot", "the kernel's notice"
};

/* A row's cells into @c; 0, or -1 with @err said. */
static int parse_case(char **cells, int n, const char *where,
		      struct sysctl_case *c, char *err, size_t len)
{
	char from[16], to[16], rest[2];
	int i;

	if (n != CELLS) {
		snprintf(err, len, "%s: %d cells, want %d", where, n, CELLS);
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (mode_index(cells[i]) < 0) {
			snprintf(err, len, "%s: '%s' is no phase (configs/phases)", where, cells[i]);
			return -1;
		}
	if (strcmp(cells[3], "none") &&
	    (sscanf(cells[3], "from %15s to %15s%1s", from, to, rest) != 2 ||
	     mode_index(from) < 0 || mode_index(to) < 0)) {
		snprintf(err, len, "%s: the notice '%s': want 'from PHASE to PHASE' or 'none'",
			 where, cells[3]);
		return -1;
	}
	snprintf(c->boot, sizeof(c->boot), "%s", cells[0]);
	snprintf(c->file, sizeof(c->file), "%s", cells[1]);
	snprintf(c->after, sizeof(c->after), "%s", cells[2]);
	snprintf(c->notice, sizeof(c->notice), "%s", cells[3]);
	return 0;
}

static bool is_header(char **cells, int n)
{
	int i;

	for (i = 0; i < CELLS && i < n; i++)
		if (strcmp(cells[i], header[i]))
			return false;
	return n == CELLS;
}

bool sysctl_case_follows_rule(const struct sysctl_case *c)
{
	int boot = mode_index(c->boot), file = mode_index(c->file);
	char notice[48] = "none";

	if (file > boot)
		snprintf(notice, sizeof(notice), "from %s to %s", c->boot, c->file);
	return !strcmp(c->after, all_modes[file > boot ? file : boot]) &&
	       !strcmp(c->notice, notice);
}

/* Whether @c repeats a row of @c[0..n): the two would share their files. */
static bool repeats(const struct sysctl_case *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].boot, c[n].boot) && !strcmp(c[i].file, c[n].file))
			return true;
	return false;
}

/* One row (or the delimiter after the header) of the table; 0, or -1. */
static int table_line(char **cells, int n, int lineno, const char *where,
		      struct sysctl_case *c, int *n_cases, int max, char *err,
		      size_t len)
{
	if (lineno == 1) {	/* the first line after the header */
		if (n && cells[0][0] == '-')
			return 0;
		snprintf(err, len, "%s: want the delimiter row |---| after the header", where);
		return -1;
	}
	if (*n_cases == max) {
		snprintf(err, len, "%s: more than %d rows", where, max);
		return -1;
	}
	if (parse_case(cells, n, where, &c[*n_cases], err, len))
		return -1;
	if (repeats(c, *n_cases)) {
		snprintf(err, len, "%s: %s over %s twice", where, c[*n_cases].file,
			 c[*n_cases].boot);
		return -1;
	}
	if (!sysctl_case_follows_rule(&c[*n_cases])) {
		snprintf(err, len, "%s: the row breaks the documented rule: the boot parameter sets the phase, the sysctl only raises it, each raise is noticed",
			 where);
		return -1;
	}
	(*n_cases)++;
	return 0;
}

int sysctl_cases_load(const char *path, struct sysctl_case *c, int max,
		      char *err, size_t len)
{
	char line[2048], where[600], *cells[CELLS + 1];
	int lineno = 0, n_cases = 0, n, in_table = 0, ended = 0, after = 0, bad = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		ended = ended || (in_table && line[0] != '|');
		if (ended) {
			bad = !md_after_table(&after, line);
			if (bad)
				snprintf(err, len, "%s:%d: a row cut off from the table (a blank line in it?)",
					 path, lineno - 1);
			continue;
		}
		n = line[0] == '|' ? split_row(line, cells, CELLS + 1) : 0;
		if (in_table)
			bad = table_line(cells, n, in_table++, where, c, &n_cases,
					 max, err, len) ? 1 : 0;
		else
			in_table = n && is_header(cells, n);
	}
	fclose(f);
	if (!bad && ended && !md_after_table(&after, "")) {
		snprintf(err, len, "%s:%d: a row cut off from the table at the end", path, lineno);
		bad = 1;
	}
	if (!bad && !n_cases)
		snprintf(err, len, "%s: no table | %s | %s | %s | %s | with rows",
			 path, header[0], header[1], header[2], header[3]);
	return bad || !n_cases ? -1 : n_cases;
}

/* The kernel's notice of a raise among @run's VFS lines, or NULL. */
static const char *find_notice(const struct run *run)
{
	int i;

	for (i = 0; i < run->n_sys_kmsg; i++)
		if (strstr(run->sys_kmsg[i], RAISE_NOTICE))
			return run->sys_kmsg[i];
	return NULL;
}

/* A line of systemd-sysctl's journal that holds @what, or NULL. */
static const char *find_log(const struct run *run, const char *what)
{
	int i;

	for (i = 0; i < run->n_sysctl_log; i++)
		if (strstr(run->sysctl_log[i], what))
			return run->sysctl_log[i];
	return NULL;
}

void sysctl_judge(struct verdicts *v, const struct sysctl_case *c,
		  const struct run *run)
{
	const char *seen = find_notice(run), *said = find_log(run, KEY);
	char want[128];

	snprintf(want, sizeof(want), RAISE_NOTICE "%s", c->notice);
	verdict(v, run->ended, "sysctl.d %s over %s: psmf-system ran to its end (%s)",
		c->file, c->boot, run->end);
	verdict(v, !strcmp(run->sys_sysctl_d, c->file),
		"sysctl.d %s over %s: the file said %s when the system was up",
		c->file, c->boot, run->sys_sysctl_d[0] ? run->sys_sysctl_d : "nothing");
	verdict(v, !strcmp(run->sys_phase, c->after),
		"sysctl.d %s over %s: /proc/sys/fs/proc_sysfs_mount_flags reads %s after the boot (it read %s)",
		c->file, c->boot, c->after, run->sys_phase[0] ? run->sys_phase : "nothing");
	verdict(v, !strcmp(c->notice, "none") ? !seen :
		seen && strstr(seen, want) && strstr(seen, WRITER),
		"sysctl.d %s over %s: the kernel's notice is %s%s (the boot's: %s)",
		c->file, c->boot, !strcmp(c->notice, "none") ? "" : WRITER " ",
		!strcmp(c->notice, "none") ? "none" : want, seen ? seen : "none");
	/*
	 * That systemd-sysctl read the file: it started after the file was
	 * written.  (A row that raises shows it by the notice too; a row
	 * whose write the kernel refuses has only this.)
	 */
	verdict(v, run->sysctl_writer_status == 0,
		"sysctl.d %s over %s: docs/distributions.md's as-root lines ran with exit 0 (%d)",
		c->file, c->boot, run->sysctl_writer_status);
	verdict(v, run->sysctl_written && run->sysctl_started >= run->sysctl_written,
		"sysctl.d %s over %s: systemd-sysctl started after the file was written (at %llu µs; written at %llu µs)",
		c->file, c->boot, run->sysctl_started, run->sysctl_written);
	/*
	 * Not the unit's result: it fails for any key the kernel lacks or
	 * refuses otherwise (bookworm's kernel.pid_max on a 6.1 built with
	 * BASE_SMALL), in every phase, with or without the file.  But a unit
	 * that failed must have said why: else the journal was not read.
	 */
	verdict(v, !strcmp(run->sys_sysctl_unit, "Result=success") || find_log(run, WRITE_FAILED),
		"sysctl.d %s over %s: systemd-sysctl.service succeeded, or its journal says which write failed (%s)",
		c->file, c->boot, run->sys_sysctl_unit[0] ? run->sys_sysctl_unit : "unsaid");
	verdict(v, !said && !run->sys_lines_cut,
		"sysctl.d %s over %s: systemd-sysctl's journal says nothing of the key (%s), all its lines and the kernel's read",
		c->file, c->boot, said ? said : "nothing");
}

void sysctl_md_row(FILE *f, const struct sysctl_case *c, const struct run *run)
{
	const char *seen = find_notice(run), *from = seen ? strstr(seen, RAISE_NOTICE) : NULL;
	const char *result = run->sys_sysctl_unit[0] ? run->sys_sysctl_unit + strlen("Result=") : "unsaid";

	fprintf(f, "| %s | %s | %s | ", c->boot, c->file,
		run->sys_phase[0] ? run->sys_phase : "unread");
	if (from)
		fprintf(f, "%s%s | ", from + strlen(RAISE_NOTICE),
			strstr(seen, WRITER) ? ", by systemd-sysctl" : ", by another process");
	else
		fprintf(f, "none | ");
	fprintf(f, "%s; %s |\n", result, find_log(run, KEY) ? "named the key" : "said nothing of the key");
}
