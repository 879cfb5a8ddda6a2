// SPDX-License-Identifier: GPL-2.0
/*
 * One kernel message: is it ours, and what does it say?  The forms are
 * those of fs/namespace.c in the series:
 *
 *   VFS: process 'COMM' (pid N, user:[I]) clears FLAGS in OP of FS; the
 *        enforce phase will refuse this with EPERM
 *   VFS: user:[I] had N more warnings of proc and sysfs mount flags
 *        suppressed
 *   VFS: N more warnings of proc and sysfs mount flags suppressed in all
 *        user namespaces                             (the ceiling)
 *   (before patch 14, without the user namespace I: "(pid N) clears",
 *   and one rate limit for all, "mnt_warn_cleared: N callbacks
 *   suppressed" from ___ratelimit())
 *   VFS: process 'COMM' (pid N) raised the proc and sysfs mount flags
 *        phase from OLD to NEW
 *   [Kernel ]Command line: ... proc_sysfs_mount_flags=PHASE ...
 *   VFS: unknown proc_sysfs_mount_flags=X, keeping the PHASE phase
 *   Unknown kernel command line parameters "... proc_sysfs_mount_flags=..."
 *        (a kernel without the run-time phase: the parameter did nothing)
 *   Linux version ...                                 (a boot starts)
 *
 * A message that starts as ours and does not end as ours, or holds ours
 * after something else (a field this reader does not know), is
 * EV_MALFORMED: such a line must not pass for a host that warned less.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"

#define WARNING_END "; the enforce phase will refuse this with EPERM"
#define RAISE " raised the proc and sysfs mount flags phase from "
#define GLOBAL_SUPPRESSED "mnt_warn_cleared: "	/* before patch 14 */
#define PARAM "proc_sysfs_mount_flags="
#define UNKNOWN "VFS: unknown proc_sysfs_mount_flags="

const char *const audit_phase_name[4] = { "legacy", "warn", "implicit", "enforce" };

enum audit_phase audit_phase_parse(const char *s, size_t len)
{
	int p;

	for (p = PH_LEGACY; p <= PH_ENFORCE; p++)
		if (strlen(audit_phase_name[p]) == len &&
		    !strncmp(s, audit_phase_name[p], len))
			return p;
	return PH_UNKNOWN;
}

const char *const audit_flag_name[3] = { "nosuid", "nodev", "noexec" };

const char *audit_flag_names(unsigned int flags, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if (flags & (1u << i))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? "," : "", audit_flag_name[i]);
	return buf;
}

/* "nosuid,noexec" into AF_* flags; 0 if any name is unknown. */
static unsigned int parse_flags(const char *s, size_t len)
{
	unsigned int flags = 0;

	while (len) {
		size_t n = strcspn(s, ",");
		size_t i;

		if (n > len)
			n = len;
		for (i = 0; i < 3; i++)
			if (strlen(audit_flag_name[i]) == n &&
			    !strncmp(s, audit_flag_name[i], n))
				break;
		if (i == 3 || (flags & (1u << i)))
			return 0;
		flags |= 1u << i;
		s += n, len -= n;
		if (len) {
			if (len == 1)
				return 0;	/* a trailing comma */
			s++, len--;
		}
	}
	return flags;
}

/* Copy @len bytes of @s into @dst[@size]; false if they do not fit. */
static bool copy_word(char *dst, size_t size, const char *s, size_t len)
{
	if (!len || len >= size)
		return false;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return true;
}

/* "I]" at @s: the user namespace's inode into *@ns; the rest, or NULL. */
static const char *parse_userns(const char *s, unsigned int *ns)
{
	unsigned long v;
	char *q;

	if (*s < '1' || *s > '9')
		return NULL;
	v = strtoul(s, &q, 10);
	if (*q != ']' || v > 0xffffffffUL)
		return NULL;
	*ns = v;
	return q + 1;
}

/*
 * "COMM' (pid N, user:[I])" at @s, or "COMM' (pid N)" before patch 14:
 * the command into @e->program, the namespace into @e->userns (0 if not
 * said), and the rest after ") ".  The command may hold any byte, so the
 * last "' (pid " ends it.  NULL if malformed.
 */
static const char *parse_process(const char *s, struct audit_event *e)
{
	const char *end = NULL, *p;
	char *q;

	for (p = strstr(s, "' (pid "); p; p = strstr(p + 1, "' (pid "))
		end = p;
	if (!end || !copy_word(e->program, sizeof(e->program), s, end - s))
		return NULL;
	p = end + strlen("' (pid ");
	if (*p < '0' || *p > '9')
		return NULL;
	strtoul(p, &q, 10);
	p = q;
	if (!strncmp(p, ", user:[", 8) && !(p = parse_userns(p + 8, &e->userns)))
		return NULL;
	return strncmp(p, ") ", 2) ? NULL : p + 2;
}

/* "clears FLAGS in OP of FS; the enforce phase ..." */
static enum event_kind parse_warning(const char *p, struct audit_event *e)
{
	const char *in = strstr(p, " in "), *of, *end;
	static const char *const ops[] = { "mount", "fsmount", "remount", "setattr" };
	size_t i;

	if (strncmp(p, "clears ", 7) || !in)
		return EV_MALFORMED;
	e->flags = parse_flags(p + 7, in - (p + 7));
	of = strstr(in + 4, " of ");
	end = strstr(in, WARNING_END);
	if (!e->flags || !of || !end || of > end || strcmp(end, WARNING_END))
		return EV_MALFORMED;
	if (!copy_word(e->op, sizeof(e->op), in + 4, of - (in + 4)) ||
	    !copy_word(e->fs, sizeof(e->fs), of + 4, end - (of + 4)))
		return EV_MALFORMED;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(e->op, ops[i]))
			return EV_WARNING;
	return EV_MALFORMED;
}

/* "OLD to NEW", after "raised the ... phase from " */
static enum event_kind parse_raise(const char *p, struct audit_event *e)
{
	const char *to;

	to = strstr(p, " to ");
	if (!to)
		return EV_MALFORMED;
	e->from = audit_phase_parse(p, to - p);
	if (e->from == PH_UNKNOWN)
		return EV_MALFORMED;
	e->phase = audit_phase_parse(to + 4, strlen(to + 4));
	return e->phase == PH_UNKNOWN ? EV_MALFORMED : EV_RAISE;
}

/*
 * "N" then @tail at @p, N's first digit at least @least: the count of
 * lines a rate limit suppressed.
 */
static enum event_kind parse_count(const char *p, char least, const char *tail,
				   struct audit_event *e)
{
	char *end;

	if (*p < least || *p > '9')
		return EV_MALFORMED;
	e->count = strtoul(p, &end, 10);
	return strcmp(end, tail) ? EV_MALFORMED : EV_SUPPRESSED;
}

/* "I] had N more warnings ... suppressed", after "VFS: user:[" */
static enum event_kind parse_ns_suppressed(const char *p, struct audit_event *e)
{
	p = parse_userns(p, &e->userns);
	if (!p || strncmp(p, " had ", 5))
		return EV_MALFORMED;
	return parse_count(p + 5, '1', SUPPRESSED_END, e);
}

/* "X, keeping the PHASE phase": the kernel says which phase it keeps. */
static enum event_kind parse_kept(const char *p, struct audit_event *e)
{
	const char *k = strstr(p, ", keeping the "), *end;

	if (!k)
		return EV_MALFORMED;
	k += strlen(", keeping the ");
	end = strstr(k, " phase");
	if (!end || strcmp(end, " phase"))
		return EV_MALFORMED;
	e->phase = audit_phase_parse(k, end - k);
	return e->phase == PH_UNKNOWN ? EV_MALFORMED : EV_CMDLINE;
}

/* The last proc_sysfs_mount_flags= of a command line wins, as in the kernel. */
static enum event_kind parse_cmdline(const char *p, struct audit_event *e)
{
	const char *v;

	e->phase = PH_UNKNOWN;
	for (v = strstr(p, PARAM); v; v = strstr(v + 1, PARAM))
		if (v == p || v[-1] == ' ')
			e->phase = audit_phase_parse(v + strlen(PARAM),
						     strcspn(v + strlen(PARAM), " "));
	return e->phase == PH_UNKNOWN ? EV_OTHER : EV_CMDLINE;
}

struct audit_event audit_message(const char *msg)
{
	struct audit_event e = { .kind = EV_OTHER, .phase = PH_UNKNOWN,
				  .from = PH_UNKNOWN };
	const char *p;

	if (!strncmp(msg, GLOBAL_SUPPRESSED, strlen(GLOBAL_SUPPRESSED))) {
		e.kind = parse_count(msg + strlen(GLOBAL_SUPPRESSED), '0',
				     " callbacks suppressed", &e);
	} else if (!strncmp(msg, SUPPRESSED_PREFIX, strlen(SUPPRESSED_PREFIX))) {
		e.kind = parse_ns_suppressed(msg + strlen(SUPPRESSED_PREFIX), &e);
	} else if (!strncmp(msg, "VFS: ", 5) && msg[5] >= '0' && msg[5] <= '9' &&
		   strstr(msg, SUPPRESSED_END)) {
		e.kind = parse_count(msg + 5, '1', SUPPRESSED_END SUPPRESSED_ALL, &e);
	} else if (!strncmp(msg, WARNING_PREFIX, strlen(WARNING_PREFIX))) {
		p = parse_process(msg + strlen(WARNING_PREFIX), &e);
		if (!p)
			e.kind = EV_MALFORMED;
		else if (!strncmp(p, RAISE + 1, strlen(RAISE) - 1))
			e.kind = parse_raise(p + strlen(RAISE) - 1, &e);
		else
			e.kind = parse_warning(p, &e);
	} else if (!strncmp(msg, "Command line: ", 14)) {
		e.kind = parse_cmdline(msg + 14, &e);
	} else if (!strncmp(msg, "Kernel command line: ", 21)) {
		e.kind = parse_cmdline(msg + 21, &e);
	} else if (!strncmp(msg, UNKNOWN, strlen(UNKNOWN))) {
		e.kind = parse_kept(msg + strlen(UNKNOWN), &e);
	} else if (!strncmp(msg, "Unknown kernel command line parameters", 38)) {
		if (strstr(msg, PARAM))
			e.kind = EV_IGNORED;
	} else if (!strncmp(msg, "Linux version ", 14)) {
		e.kind = EV_BOOT;
	} else if (strstr(msg, WARNING_PREFIX) || strstr(msg, GLOBAL_SUPPRESSED) ||
		   strstr(msg, SUPPRESSED_END)) {
		e.kind = EV_MALFORMED;	/* ours, after something else */
	}
	return e;
}
