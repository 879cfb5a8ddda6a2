/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest and the host agree on beside the records (results.c) and
 * the steps (steps.h): the mount flags as the records and the spec write
 * them, and the series' warning line with its rate limit.  Included by
 * both sides, so that neither can drift from the other.
 */
#ifndef PROTOCOL_H
#define PROTOCOL_H

/* Mount flags as the records and the spec write them, in this order. */
enum {
	F_RO = 1 << 0,
	F_NOSUID = 1 << 1,
	F_NODEV = 1 << 2,
	F_NOEXEC = 1 << 3,
};

/* The series' warning line starts so (mnt_warn_cleared(), patch 2). */
#define WARNING_PREFIX "VFS: process '"

/*
 * What the rate limits suppressed (mnt_warn_report(), patch 14): a user
 * namespace's, SUPPRESSED_PREFIX "INODE] had N" SUPPRESSED_END, and the
 * ceiling's, "VFS: N" SUPPRESSED_END SUPPRESSED_ALL.
 */
#define SUPPRESSED_PREFIX "VFS: user:["
#define SUPPRESSED_END " more warnings of proc and sysfs mount flags suppressed"
#define SUPPRESSED_ALL " in all user namespaces"

/*
 * Its rate limit, one per user namespace since patch 14: at most
 * RATELIMIT_BURST lines in a window of RATELIMIT_MS; and for all
 * namespaces together at most RATELIMIT_CEILING lines in that window.
 */
#define RATELIMIT_CEILING 100
#define RATELIMIT_BURST 10
#define RATELIMIT_MS 5000

#endif
