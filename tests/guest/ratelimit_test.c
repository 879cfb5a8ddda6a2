// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's count of the warning's rate-limit windows
 * (initramfs/ratelimit.c) on a clock of the test's own: the lines are
 * dated by the kernel's stamp of each record, not by when the guest read
 * them, and the guest never counts fewer lines than a window of the
 * kernel's holds.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "../../initramfs/guest.h"
#include "../runner/tap.h"

#define LINE WARNING_PREFIX "probe' (pid 1) ..."

static long clock_ms;	/* the guest's clock, as now_ms() gives it */

long now_ms(void)
{
	return clock_ms;
}

/* wait_fresh_ratelimit() sleeps in steps: the test's clock moves instead. */
int usleep(useconds_t usec)
{
	clock_ms += usec / 1000;
	return 0;
}

/* A line the kernel stamped at @logged and the guest read at @read. */
static void line_at(long logged, long read)
{
	clock_ms = read;
	count_warnings(LINE, logged);
}

static void fresh(void)
{
	wait_fresh_ratelimit();
	clock_ms += 100000;
}

int main(void)
{
	long before;
	int i;

	printf("TAP version 13\n");

	/* A window's ten lines, the last five read after a 6 s stall. */
	fresh();
	for (i = 0; i < RATELIMIT_BURST; i++)
		line_at(200000 + i * 450, 200000 + i * 450 + (i >= 5 ? 6000 : 0));
	tap(warnings_may_be_cut(),
	    "lines of one window read after a stall are counted in it (by their stamps)");

	/* Lines more than a window and its margins apart are two windows. */
	fresh();
	for (i = 0; i < RATELIMIT_BURST - 1; i++)
		line_at(300000, 300000);
	line_at(300000 + RATELIMIT_MS + 1000, 300000 + RATELIMIT_MS + 1000);
	tap(!warnings_may_be_cut(),
	    "a line stamped a window and a second after the last starts the count again");

	/* ... but not when only the guest read it that late. */
	fresh();
	for (i = 0; i < RATELIMIT_BURST - 1; i++)
		line_at(400000, 400000);
	line_at(400000 + RATELIMIT_MS - 100, 400000 + RATELIMIT_MS + 3000);
	tap(warnings_may_be_cut(),
	    "a line stamped within the window but read late is counted in it");

	/* Records of two CPUs out of order: the latest stamp counts. */
	fresh();
	line_at(500000 + 3000, 500000 + 3000);
	for (i = 0; i < RATELIMIT_BURST - 2; i++)
		line_at(500000 + 2000, 500000 + 3100);
	line_at(500000 + 3000 + RATELIMIT_MS + 600, 500000 + 3000 + RATELIMIT_MS + 600);
	tap(warnings_may_be_cut(),
	    "an earlier stamp read later does not move the window back");

	/* Pacing waits on the guest's clock from when it read the last line. */
	fresh();
	for (i = 0; i < RATELIMIT_BURST - 2; i++)
		line_at(600000, 600000 + 2000);
	before = clock_ms;
	pace_warnings(1);
	tap(clock_ms == before, "room for one more line: no wait");
	pace_warnings(3);
	tap(clock_ms >= 602000 + RATELIMIT_MS && !warnings_may_be_cut(),
	    "no room: it waits a window from the last line read (%ld ms after it)",
	    clock_ms - 602000);
	return tap_end();
}
