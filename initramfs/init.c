// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test guest.  It mounts /proc, /sys and /dev as a
 * distribution does, runs the steps named in the PSMF_RUN environment
 * variable (set on the kernel command line) in the order of the list of
 * steps (tests/contract/steps.h), writes what happened to the second
 * serial port, and powers the guest off.
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
#include "../tests/contract/steps.h"
#include "verdicts.h"

#define GUEST_STEP(name, kinds) { #name, run_##name },
/* The steps of tests/contract/steps.h, each with its function. */
static const struct {
	const char *name;
	void (*run)(void);
} steps[] = { PSMF_STEPS(GUEST_STEP) };
#undef GUEST_STEP

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
		list = PSMF_STEPS_DEFAULT;
	bad = step_unknown(list);
	if (bad)
		end_error("unknown step '%s' in PSMF_RUN=%s", bad, list);
	/* PSMF_FAULTS: the stress and sequences steps under fault injection. */
	if (getenv("PSMF_FAULTS") && faults_start())
		end_error("fault injection not set up");
	for (i = 0; i < ARRAY_SIZE(steps); i++)
		if (step_wanted(list, steps[i].name))
			steps[i].run();
	faults_end();
	report("end ok\n");
	if (judge)
		print_verdicts(judge, step_wanted(list, "matrix"),
			       step_wanted(list, "selftest"));
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
