// SPDX-License-Identifier: GPL-2.0
/*
 * Real container tools from Debian 12, run by an unprivileged user over
 * the standard host layout.  Each runs /bin/psmf-probe inside its
 * sandbox, which prints the flags of the proc and sysfs mounts it sees.
 * The binaries and their shared libraries come in a second initramfs
 * (initramfs/userspace.sh), appended to the first.
 *
 *   tool <name> version=<first line of --version> exit=<n> ms=<n>
 *   toolout <name> <line of its output>
 *   kmsg <name> <kernel line>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define TOOL_TIMEOUT_MS 20000

struct tool {
	const char *name;
	const char *const argv[16];
};

static const struct tool tools[] = {
	{ "util-linux-unshare", { "/usr/bin/unshare", "--user", "--map-root-user",
		"--mount", "--pid", "--fork", "--mount-proc", "/bin/psmf-probe",
		NULL } },
	{ "bubblewrap", { "/usr/bin/bwrap", "--ro-bind", "/", "/",
		"--unshare-all", "--proc", "/proc", "--dev", "/dev",
		"/bin/psmf-probe", NULL } },
};

#define N_TOOLS (sizeof(tools) / sizeof(tools[0]))

/* Run @argv as the unprivileged user; its output goes to @out. */
static pid_t spawn(const char *const *argv, int out)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	dup2(out, 1);
	dup2(out, 2);
	host_layout(F_EXEC);
	/*
	 * The initramfs is the initial mount, which pivot_root(2) (used by
	 * bubblewrap) refuses to move.  Switch to a bind mount of it moved
	 * over /, as switch_root does: a plain chroot would make unshare(2)
	 * refuse new user namespaces.
	 */
	if (mount("/", "/newroot", NULL, MS_BIND | MS_REC, NULL) ||
	    chdir("/newroot") || mount(".", "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || chdir("/"))
		_exit(125);
	if (setgroups(0, NULL) || setgid(GUEST_UID) || setuid(GUEST_UID))
		_exit(126);
	prctl(PR_SET_DUMPABLE, 1);
	execv(argv[0], (char *const *)argv);
	printf("exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The output of the last run, kept to be reported after its result. */
static char output[40][256];
static int n_output;

/* Run to the end or the time limit; returns the exit status, -1 if killed. */
static int run(const char *const *argv)
{
	char line[512];
	long start = now_ms();
	int pipefd[2], status = -1;
	FILE *p;
	pid_t pid;

	if (pipe(pipefd))
		die("pipe");
	pid = spawn(argv, pipefd[1]);
	if (pid < 0)
		die("fork");
	close(pipefd[1]);
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	p = fdopen(pipefd[0], "r");
	n_output = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		while (p && fgets(line, sizeof(line), p)) {
			line[strcspn(line, "\n")] = 0;
			if (n_output < 40)
				snprintf(output[n_output++], sizeof(output[0]),
					 "%.255s", line);
		}
		clearerr(p);
		if (w == pid)
			break;
		if (now_ms() - start > TOOL_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			status = -1;
			break;
		}
		usleep(20000);
	}
	fclose(p);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void run_userspace(void)
{
	char version[128], vflag[] = "--version";
	size_t i;
	int j;

	for (i = 0; i < N_TOOLS; i++) {
		const struct tool *t = &tools[i];
		const char *vargv[] = { t->argv[0], vflag, NULL };
		long start;
		int kmsg, status;

		if (access(t->argv[0], X_OK)) {
			report("tool %s version=missing exit=127 ms=0\n", t->name);
			continue;
		}
		run(vargv);
		snprintf(version, sizeof(version), "%.127s",
			 n_output ? output[0] : "unknown");
		for (char *c = version; *c; c++)
			if (*c == ' ')
				*c = '_';
		kmsg = kmsg_open_at_end();
		start = now_ms();
		status = run(t->argv);
		report("tool %s version=%s exit=%d ms=%ld\n", t->name, version,
		       status, now_ms() - start);
		for (j = 0; j < n_output; j++)
			report("toolout %s %s\n", t->name, output[j]);
		kmsg_forward(kmsg, t->name, NULL);
		close(kmsg);
	}
}
