/* SPDX-License-Identifier: GPL-2.0 */
/*
 * psmf-audit: what the enforce and implicit phases would refuse on hosts
 * that run the warn phase, from their kernel logs.
 *
 * Three small pieces with data between them, as kunit.py has: input.c
 * reads logs into records (host, time, message), message.c reads one
 * kernel message, fleet.c gathers the events of each host and judges it;
 * report.c renders the result as text or JSON.
 */
#ifndef AUDIT_H
#define AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "../../tests/contract/protocol.h"	/* the warning line and its rate limit */

/* The mount flags a warning names. */
enum { AF_NOSUID = 1, AF_NODEV = 2, AF_NOEXEC = 4 };

/* The phases, loosest first, as the kernel names them. */
enum audit_phase { PH_UNKNOWN = -1, PH_LEGACY, PH_WARN, PH_IMPLICIT, PH_ENFORCE };
extern const char *const audit_phase_name[4];
enum audit_phase audit_phase_parse(const char *s, size_t len);

enum event_kind {
	EV_OTHER,	/* not ours */
	EV_WARNING,	/* an operation enforce will refuse */
	EV_SUPPRESSED,	/* warning lines the rate limit dropped */
	EV_RAISE,	/* the sysctl raised the phase */
	EV_CMDLINE,	/* the command line or the kernel names the phase */
	EV_IGNORED,	/* the kernel ignored proc_sysfs_mount_flags= */
	EV_BOOT,	/* "Linux version": a boot starts */
	EV_MALFORMED,	/* ours, but truncated or altered */
};

struct audit_event {
	enum event_kind kind;
	char program[64];
	char op[16];		/* mount, fsmount, remount, setattr */
	char fs[32];
	unsigned int flags;	/* AF_* */
	unsigned long count;	/* EV_SUPPRESSED */
	unsigned int userns;	/* EV_WARNING, EV_SUPPRESSED: 0 if unsaid */
	enum audit_phase phase;	/* EV_RAISE (the new phase), EV_CMDLINE */
	enum audit_phase from;	/* EV_RAISE: the phase before */
};

/* Read one kernel message (without its timestamp). */
struct audit_event audit_message(const char *msg);

/* One line of a log: its host, when (as printed, and in seconds: NAN
 * where unknown), and the kernel's message. */
struct audit_record {
	const char *host;
	const char *when;
	double t;
	const char *msg;
};

/*
 * Read the log in @path (dmesg text, journalctl -k text or
 * journalctl -k -o json) and hand each kernel message to @fn.  @host is
 * the name of hosts whose log does not say it.  Returns 0, or -1 with a
 * message naming the file, the line and the fix in @err.
 */
typedef int audit_record_fn(const struct audit_record *r, void *arg,
			    char *err, size_t errlen);
int audit_read_file(const char *path, const char *host, audit_record_fn *fn,
		    void *arg, char *err, size_t errlen);

/* What a host did that enforce would refuse, grouped. */
struct offence {
	char program[64], op[16], fs[32];
	unsigned int flags;
	unsigned int userns;	/* 0: a line before patch 14 */
	unsigned long count;
	char first[40], last[40];
};

/*
 * What one program in one user namespace of a host lost to the rate
 * limit.  The kernel reports a namespace's losses before the namespace's
 * inode number can be reused, so a report belongs to the namespace that
 * last warned with that number: to its program, in @seq order.
 */
struct limited {
	unsigned int userns;
	char program[64];
	unsigned long lost;
	unsigned long seq;	/* when it last warned, in the host's order */
};

/*
 * One user namespace's rate limit (0: lines that name none, one limit for
 * the whole kernel before patch 14): the times of its last warnings since
 * its last report of losses in the last boot, for a burst nobody reported.
 */
struct window {
	unsigned int userns;
	double recent[RATELIMIT_BURST];
	int nrecent;
};

enum verdict { V_NOT_READY, V_UNKNOWN, V_IMPLICIT, V_ENFORCE };
extern const char *const verdict_name[4];

#define MAX_REASONS 4

/* The kernel's rate limit of the warning, as the test system knows it. */
#define RATELIMIT_S (RATELIMIT_MS / 1000.0)

struct host {
	char name[128];
	/* The phase of its last boot, at the end of its log. */
	enum audit_phase phase;
	bool phase_from_log, phase_from_cmdline;
	unsigned long records, warnings, setattr_warnings, lost;
	/* Each user namespace has a rate limit (one, 0, before patch 14). */
	struct limited *ns;
	size_t nns;
	struct window *win;
	size_t nwin;
	unsigned long seq, boot_seq;	/* warnings so far; at the last boot */
	struct offence *off;
	size_t noff;
	enum verdict verdict;
	char reasons[MAX_REASONS][160];
	int nreasons;
};

struct fleet {
	struct host *hosts;
	size_t nhosts;
	enum audit_phase assumed;	/* --phase, or PH_UNKNOWN */
	enum verdict verdict;
	char reasons[MAX_REASONS][160];
	int nreasons;
};

/* Add one record to its host (audit_record_fn for audit_read_file()). */
int fleet_add(const struct audit_record *r, void *fleet, char *err,
	      size_t errlen);
/* Judge every host and the fleet. */
void fleet_judge(struct fleet *f);
void fleet_free(struct fleet *f);

/* Render @f on stdout. */
void report_text(const struct fleet *f);
int report_json(const struct fleet *f);

/* The names of AF_NOSUID, AF_NODEV, AF_NOEXEC, by bit. */
extern const char *const audit_flag_name[3];
/* "nosuid,nodev" for AF_* @flags, into @buf. */
const char *audit_flag_names(unsigned int flags, char *buf, size_t len);

#endif
