// SPDX-License-Identifier: GPL-2.0
/*
 * For a lab that reads only the console (LAVA): after the run, its records
 * and the verdict of each case on the console.  The guest judges with the
 * code the runner judges with, the contract's
 * (tests/contract/judge_cases.c, spec.c and results.c), against the spec
 * packed into the initramfs as /spec.md, for the phase the kernel command
 * line names in PSMF_JUDGE.  The host can judge the
 * same records again (runner lava), so the two verdicts can be compared.
 *
 *   psmf-record: <record>                  every record, as on ttyS1
 *   psmf-judge: scenarios as <phase>
 *   psmf-scenarios: <name> pass|fail       each row of the spec
 *   psmf-judge: scenarios end <n>
 *   psmf-judge: kselftest begin
 *   psmf-kselftest: <name> pass|fail       each case of the kselftest
 *   psmf-judge: kselftest end <n>
 *   psmf-judge: error <why>                nothing could be judged
 *
 * Each line is one write(), with the kernel's console messages turned off
 * first so that none can cut into one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "../tests/contract/judge_cases.h"
#include "verdicts.h"

#define SYSLOG_ACTION_CONSOLE_LEVEL 8

static int console = -1;

static void say(const char *fmt, ...)
{
	char line[4200];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	if (write(console, line, len) != len)
		return;
}

static void print_records(void)
{
	FILE *f = fopen(RECORDS_KEPT, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while (f && (len = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = 0;
		say("psmf-record: %s", line);
	}
	free(line);
	if (f)
		fclose(f);
}

static void print_case(void *ctx, const char *def, const char *id,
		       bool pass, const char *what)
{
	(void)ctx;
	(void)what;
	say("psmf-%s: %s %s", def, id, pass ? "pass" : "fail");
}

void print_verdicts(const char *phase, bool scenarios, bool selftest)
{
	static struct spec spec;
	static struct run run;
	const char *only = getenv("PSMF_SCENARIO");
	int mode = mode_index(phase), n;
	char err[256];

	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, 1);
	console = open("/dev/console", O_WRONLY | O_NOCTTY);
	if (console < 0)
		return;
	print_records();
	if (mode < 0) {
		say("psmf-judge: error PSMF_JUDGE=%s is no phase", phase);
		return;
	}
	if (spec_load("/spec.md", &spec, err, sizeof(err))) {
		say("psmf-judge: error /spec.md: %s", err);
		return;
	}
	run_load(RECORDS_KEPT, &run);
	if (scenarios) {
		say("psmf-judge: scenarios as %s", phase);
		n = judge_scenarios(&spec, &run, mode, only, !only,
				    print_case, NULL);
		say("psmf-judge: scenarios end %d", n);
	}
	if (selftest) {
		say("psmf-judge: kselftest begin");
		n = judge_selftest(&run, print_case, NULL);
		say("psmf-judge: kselftest end %d", n);
	}
	run_free(&run);
	close(console);
}
