// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix reports (report.c) on a run written here: a row whose boot
 * raised the phase shows the sysctl's notice of it as such, not as a
 * warning of the series.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "tap.h"
#include "unit_report.h"
#include "unit_tools.h"

#define ROW "raise_enforce_then_mount_proc_none"
#define NOTICE_LINE "VFS: process 'mnt-raise' (pid 40) raised the proc and sysfs mount flags phase from warn to enforce"

static const char records[] =
	"start 7.3.4\n"
	"begin " ROW "\n"
	"scenario " ROW " op=mount fs=proc ret=EPERM flags=- pid=31 comm=mnt-scenario n=0/1 ms=3 raiser=40 userns=4026532290\n"
	"kmsg " ROW " " NOTICE_LINE "\n"
	"end ok\n";

/* @m rendered by @render, into a string to free. */
static char *rendered(const struct matrix *m,
		      int (*render)(const struct matrix *m, FILE *f))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || render(m, f))
		abort();
	fclose(f);
	return text;
}

void test_report(const struct spec *spec)
{
	static struct run run;
	struct matrix m = { .spec = spec };
	char path[] = "/tmp/unit-report-XXXXXX";
	char *md, *json;
	bool loaded;

	loaded = !unit_temp_file(path, records) && !run_load(path, &run);
	unlink(path);
	if (!loaded) {
		tap(false, "report: the run of a raise loads");
		return;
	}
	m.run[PHASE_WARN] = &run;
	md = rendered(&m, report_markdown);
	json = rendered(&m, report_json);
	tap(strstr(md, "- `" ROW "`, the notice of its raise: `VFS: process 'mnt-raise' (pid N) raised") &&
	    !strstr(md, "- `" ROW "`: `VFS") &&
	    strstr(json, "\"warning\": \"\", \"raise_notice\": \"" NOTICE_LINE "\""),
	    "report: a raise's notice is shown as the notice of its raise, not as a warning line (markdown and JSON)");
	free(md);
	free(json);
}
