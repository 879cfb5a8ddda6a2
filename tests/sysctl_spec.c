// SPDX-License-Identifier: GPL-2.0
/* The raises in /etc/sysctl.d/ at boot (tests/system.md), read and judged. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "sysctl_spec.h"
#include "tap.h"

#define HEADER_FIRST "boot parameter"
#define CELLS 4
/* The kernel's notice of a raise (patch 7), and who must have written it */
#define NOTICE "raised the proc and sysfs mount flags phase "
#define WRITER "process 'systemd-sysctl'"
#define KEY "proc_sysfs_mount_flags"

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

int sysctl_cases_load(const char *path, struct sysctl_case *c, int max,
		      char *err, size_t len)
{
	char line[2048], where[600], *cells[CELLS + 1];
	int lineno = 0, n_cases = 0, n, in_table = 0, bad = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		n = line[0] == '|' ? split_row(line, cells, CELLS + 1) : 0;
		if (!in_table) {
			in_table = n && is_header(cells, n);
			continue;
		}
		if (!n)
			break;		/* the table's end */
		if (cells[0][0] == '-')
			continue;	/* |---|---| */
		if (n_cases == max) {
			snprintf(err, len, "%s: more than %d rows", where, max);
			bad = 1;
		} else {
			bad = parse_case(cells, n, where, &c[n_cases], err, len) ? 1 : 0;
			n_cases += !bad;
		}
	}
	fclose(f);
	if (!bad && !n_cases)
		snprintf(err, len, "%s: no table | %s | %s | %s | %s | with rows",
			 path, header[0], header[1], header[2], header[3]);
	return bad || !n_cases ? -1 : n_cases;
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

/* The kernel's notice of a raise among @run's VFS lines, or NULL. */
static const char *find_notice(const struct run *run)
{
	int i;

	for (i = 0; i < run->n_sys_kmsg; i++)
		if (strstr(run->sys_kmsg[i], NOTICE))
			return run->sys_kmsg[i];
	return NULL;
}

/* What systemd-sysctl's journal says of the key, or NULL. */
static const char *find_key_log(const struct run *run)
{
	int i;

	for (i = 0; i < run->n_sysctl_log; i++)
		if (strstr(run->sysctl_log[i], KEY))
			return run->sysctl_log[i];
	return NULL;
}

void sysctl_judge(const struct sysctl_case *c, const struct run *run)
{
	const char *seen = find_notice(run), *said = find_key_log(run);
	char want[128];

	snprintf(want, sizeof(want), NOTICE "%s", c->notice);
	tap(run->ended, "sysctl.d %s over %s: psmf-system ran to its end (%s)",
	    c->file, c->boot, run->end);
	tap(!strcmp(run->sys_sysctl_d, c->file),
	    "sysctl.d %s over %s: the file said %s when the system was up",
	    c->file, c->boot, run->sys_sysctl_d[0] ? run->sys_sysctl_d : "nothing");
	tap(!strcmp(run->sys_phase, c->after),
	    "sysctl.d %s over %s: /proc/sys/fs/proc_sysfs_mount_flags reads %s after the boot (it read %s)",
	    c->file, c->boot, c->after, run->sys_phase[0] ? run->sys_phase : "nothing");
	tap(!strcmp(c->notice, "none") ? !seen :
	    seen && strstr(seen, want) && strstr(seen, WRITER),
	    "sysctl.d %s over %s: the kernel's notice is %s%s (the boot's: %s)",
	    c->file, c->boot, !strcmp(c->notice, "none") ? "" : WRITER " ",
	    !strcmp(c->notice, "none") ? "none" : want, seen ? seen : "none");
	/*
	 * Not the unit's result: it fails for any key the kernel lacks or
	 * refuses otherwise (bookworm's kernel.pid_max on a 6.1 built with
	 * BASE_SMALL), in every phase, with or without the file.  But a unit
	 * that failed must have said why: else the journal was not read.
	 */
	tap(!strcmp(run->sys_sysctl_unit, "Result=success") || run->n_sysctl_log,
	    "sysctl.d %s over %s: systemd-sysctl.service succeeded, or its journal says why not (%s, %d lines)",
	    c->file, c->boot, run->sys_sysctl_unit[0] ? run->sys_sysctl_unit : "unsaid",
	    run->n_sysctl_log);
	tap(!said, "sysctl.d %s over %s: systemd-sysctl's journal says nothing of the key (%s)",
	    c->file, c->boot, said ? said : "nothing");
}
