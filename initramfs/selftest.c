// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest step: the series' kselftest, its TAP lines forwarded; then
 * what it left in /tmp, and the same test run without root.
 *
 *   selftest <TAP line>
 *   selftest-exit <status>
 *   selftest-tmp-left <entries of /tmp it added>
 *   selftest-unprivileged <first line of its output as GUEST_UID>
 *   selftest-unprivileged-exit <status>
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"

#define SELFTEST "/bin/proc_sysfs_mount_flags"

/* Entries of /tmp, or -1 where it cannot be read. */
static int tmp_entries(void)
{
	DIR *d = opendir("/tmp");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/*
 * Run the kselftest with @uid (0 keeps root) and forward each line of
 * its output with @tag, or only the first with @first_only.
 */
static int run_as(uid_t uid, const char *tag, bool first_only)
{
	char line[1024];
	int fd, lines = 0;
	FILE *p;
	pid_t pid;

	pid = fork_pipe(&fd);
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (uid && (setgroups(0, NULL) || setgid(uid) || setuid(uid)))
			die("drop root for " SELFTEST);
		/* The last step of a boot: its cases may raise the phase. */
		if (!uid)
			setenv("PROC_SYSFS_MOUNT_FLAGS_RAISE", "1", 1);
		execl(SELFTEST, "proc_sysfs_mount_flags", (char *)NULL);
		die("exec " SELFTEST);
	}
	p = fdopen(fd, "r");
	while (p && fgets(line, sizeof(line), p))
		if (!first_only || !lines++)
			report("%s %s", tag, line);
	if (p)
		fclose(p);
	return wait_child(pid);
}

void run_selftest(void)
{
	int kmsg = kmsg_open_at_end();
	int before = tmp_entries();

	report("selftest-exit %d\n", run_as(0, "selftest", false));
	report("selftest-tmp-left %d\n",
	       before < 0 ? -1 : tmp_entries() - before);
	report("selftest-unprivileged-exit %d\n",
	       run_as(GUEST_UID, "selftest-unprivileged", true));
	/* Not judged here, but seen: the next step waits out their window. */
	kmsg_forward(kmsg, "selftest", count_warnings);
	close(kmsg);
}
