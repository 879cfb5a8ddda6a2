// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test guest.  It mounts /proc, /sys and /dev as a
 * distribution does, runs the steps named in the PSMF_RUN environment
 * variable (set on the kernel command line) in the order of the table
 * below, writes what happened to the second serial port, and powers the
 * guest off.
 *
 * It reports facts only: return values, errnos, the flags that landed and
 * the kernel lines each scenario produced.  Whether they are right is for
 * the host to judge against tests/spec.md.
 *
 * With PSMF_JUDGE=<phase> on the command line it also prints, at the end,
 * the records and the verdict of each case on the console (verdicts.c),
 * for a lab that reads only the console.
 *
 * Results protocol, one record per line on /dev/ttyS1:
 *   start <kernel release>
 *   <step> ...   (each step's file lists its records)
 *   end <status>
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

#include "guest.h"
#include "verdicts.h"

static const struct {
	const char *name;
	void (*run)(void);
} steps[] = {
	{ "matrix", run_matrix },
	{ "exhaustive", run_exhaustive },
	{ "stress", run_stress },
	{ "sequences", run_sequences },
	{ "bench", run_bench },
	{ "userspace", run_userspace },
	{ "upstream", run_upstream },
	/* Last: it raises the phase to enforce until the next boot. */
	{ "selftest", run_selftest },
};

/* Is @step in the comma list @list? */
static int wanted(const char *list, const char *step)
{
	size_t len = strlen(step);
	const char *p;

	for (p = list; (p = strstr(p, step)); p += len)
		if ((p == list || p[-1] == ',') && (!p[len] || p[len] == ','))
			return 1;
	return 0;
}

/* The first name in @list that is no step, or NULL. */
static const char *unknown_step(const char *list)
{
	static char name[64];
	const char *p = list;
	size_t i, len;

	while (*p) {
		len = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		for (i = 0; i < ARRAY_SIZE(steps); i++)
			if (!strcmp(name, steps[i].name))
				break;
		if (i == ARRAY_SIZE(steps))
			return name;
		p += len + (p[len] == ',');
	}
	return NULL;
}

int main(void)
{
	const char *list = getenv("PSMF_RUN"), *bad;
	const char *judge = getenv("PSMF_JUDGE");
	size_t i;

	if (judge)
		report_keep(RECORDS_KEPT);
	guest_setup();
	kmsg_settle(300, 5000);
	if (!list)
		list = "matrix,selftest";
	bad = unknown_step(list);
	if (bad)
		end_error("unknown step '%s' in PSMF_RUN=%s", bad, list);
	/* PSMF_FAULTS: the stress and sequences steps under fault injection. */
	if (getenv("PSMF_FAULTS") && faults_start())
		end_error("fault injection not set up");
	for (i = 0; i < ARRAY_SIZE(steps); i++)
		if (wanted(list, steps[i].name))
			steps[i].run();
	faults_end();
	report("end ok\n");
	if (judge)
		print_verdicts(judge, wanted(list, "matrix"),
			       wanted(list, "selftest"));
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
