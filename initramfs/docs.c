// SPDX-License-Identifier: GPL-2.0
/*
 * The docs step: what docs/distributions.md tells an admin to run as
 * root on a host (its "```sh as-root" blocks, packed as DOC_SCRIPT by
 * initramfs/userspace.sh), run by /bin/sh, then systemd-sysctl, as
 * systemd-sysctl.service runs it at boot.  Whether the phase that results
 * is what the files ask for is for the host to judge.
 *
 * Records:
 *   docs-phase before|after PHASE      /proc/sys/fs/proc_sysfs_mount_flags
 *   docs-run sh|systemd-sysctl STATUS  the exit status (-1: no script or
 *                                      no fork; 127: no program)
 *   docs-sysctl FILE VALUE             each line of /etc/sysctl.d/ *.conf
 *                                      that sets fs.proc_sysfs_mount_flags,
 *                                      in the order systemd-sysctl reads
 *                                      them (by file name, line by line)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

#define DOC_SCRIPT "/doc-as-root.sh"
#define SYSCTL_D "/etc/sysctl.d"
#define SYSTEMD_SYSCTL "/lib/systemd/systemd-sysctl"
#define KEY "fs.proc_sysfs_mount_flags"

static void report_phase(const char *when)
{
	char buf[32];

	if (sysctl_read(buf, sizeof(buf)) || !*buf)
		snprintf(buf, sizeof(buf), "-");
	report("docs-phase %s %s\n", when, buf);
}

/* Run @argv to its end: its exit status, -1 if it could not start. */
static int run(char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	return wait_child(pid);
}

/* Cut the blanks around @s; the result is inside @s. */
static char *trim(char *s)
{
	size_t n;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n && strchr(" \t", s[n - 1]))
		s[--n] = '\0';
	return s;
}

/*
 * Is @key KEY as systemd-sysctl reads keys: a leading '-' (ignore a
 * failure) dropped, '/' as well as '.' between the parts?
 */
static bool is_key(const char *key)
{
	size_t i;

	key += *key == '-';
	if (strlen(key) != strlen(KEY))
		return false;
	for (i = 0; key[i]; i++)
		if (key[i] != KEY[i] && !(key[i] == '/' && KEY[i] == '.'))
			return false;
	return true;
}

/* Each "KEY = VALUE" line of @path. */
static void report_settings(const char *path)
{
	char *text = read_file(path), *line, *save, *eq, *value;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		value = trim(eq + 1);
		if (is_key(trim(line)))
			report("docs-sysctl %s %s\n", path, *value ? value : "-");
	}
	free(text);
}

/* The files systemd-sysctl reads: regular files named *.conf. */
static int is_conf(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), SYSCTL_D "/%s", d->d_name);
	return n > 5 && !strcmp(d->d_name + n - 5, ".conf") &&
	       !stat(path, &st) && S_ISREG(st.st_mode);
}

static void report_sysctl_d(void)
{
	struct dirent **names;
	char path[512];
	int i, n = scandir(SYSCTL_D, &names, is_conf, alphasort);

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), SYSCTL_D "/%s", names[i]->d_name);
		report_settings(path);
		free(names[i]);
	}
	free(n >= 0 ? names : NULL);
}

void run_docs(void)
{
	static const char *const dirs[] = { "/etc", SYSCTL_D, NULL };
	char *sh[] = { "/bin/sh", "-eu", DOC_SCRIPT, NULL };
	char *sysctl[] = { SYSTEMD_SYSCTL, NULL };

	make_dirs("", dirs);
	report_phase("before");
	report("docs-run sh %d\n", access(DOC_SCRIPT, R_OK) ? -1 : run(sh));
	report_sysctl_d();
	report("docs-run systemd-sysctl %d\n", run(sysctl));
	report_phase("after");
}
