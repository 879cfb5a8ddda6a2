// SPDX-License-Identifier: GPL-2.0
/*
 * The warning is rate limited by the kernel: at most 10 lines in a window
 * of 5 s that opens at the first warning after the previous window ran
 * out.  The guest keeps every checked scenario inside a window with room
 * for the lines it may add, so that no expected line is suppressed.
 *
 * The guest cannot see where a window opened, only when the kernel logged
 * each line (the record's time, on the kernel's clock), and a window may
 * close and reopen between two lines it counts.  So it counts lines since
 * the last point at which it knows no window is open: 5 s and a margin
 * after the latest line, by the lines' own times.  The kernel's count in its
 * current window is at most that.  The times the guest read the lines
 * would not do: a line logged late in a window but read after a stall
 * would seem to start a new one, and the guest would count too few.
 *
 * To wait for a window to run out the guest needs its own clock, which is
 * not the kernel's log clock: it waits from when it read the last line,
 * which is after the kernel logged it, so it waits at least as long.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"

#define MARGIN_MS 200	/* jiffies, and the delay before the guest reads */
/*
 * A line is stamped when printk stores it, after the kernel's check of the
 * window (in jiffies): a vCPU the host stalls in between stamps it late,
 * so that two lines of one window may be stamped more than a window
 * apart.  A second more than a window covers the jiffies' rounding and
 * such a stall up to 800 ms.
 */
#define STAMP_MARGIN_MS 1000

static long last_logged;	/* the latest warning line: the kernel's time */
static long last_read;		/* when the guest read a line, its own */
static int lines;		/* lines seen since no window was open */

void count_warnings(const char *line, long logged_ms)
{
	if (strncmp(line, WARNING_PREFIX, strlen(WARNING_PREFIX)))
		return;
	/* no window was open at last_logged + RATELIMIT_MS + STAMP_MARGIN_MS */
	if (lines && logged_ms >= last_logged + RATELIMIT_MS + STAMP_MARGIN_MS)
		lines = 0;
	/* the records of two CPUs may come out of order */
	if (logged_ms > last_logged)
		last_logged = logged_ms;
	last_read = now_ms();
	lines++;
}

/* Wait until any window that an earlier line opened has run out. */
void wait_fresh_ratelimit(void)
{
	while (last_read && now_ms() < last_read + RATELIMIT_MS + MARGIN_MS)
		usleep(50000);
	lines = 0;
}

/* Before a checked step that may add @need lines. */
void pace_warnings(int need)
{
	if (lines && lines + need > RATELIMIT_BURST)
		wait_fresh_ratelimit();
}

/*
 * After a step that pace_warnings() could not bound: a window drops lines
 * only once it has printed RATELIMIT_BURST of them, and every line of such
 * a window came after the last point with no window open, so fewer lines
 * than that since then means none was dropped.
 */
bool warnings_may_be_cut(void)
{
	return lines >= RATELIMIT_BURST;
}
