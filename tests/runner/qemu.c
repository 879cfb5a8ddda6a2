// SPDX-License-Identifier: GPL-2.0
/*
 * One boot of the guest under QEMU: its kernel command line, QEMU itself
 * (console on ttyS0, results on ttyS1) and QEMU's own failures, as
 * verdicts on the caller's list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "qemu.h"

/* The host's monotonic clock in ms: QEMU's time limit, a guest's run time. */
long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The kernel command line of one boot. */
void command_line(const struct opts *o, const char *scenario,
		  const char *extra, char *buf, size_t len)
{
	size_t n;

	n = snprintf(buf, len,
		 "console=ttyS0 panic=-1 oops=panic tsc=unstable%s%s%s%s PSMF_RUN=%s%s%s%s",
		 o->boot_phase ? " proc_sysfs_mount_flags=" : "",
		 o->boot_phase ? o->boot_phase : "", extra ? " " : "",
		 extra ? extra : "", extra ? "matrix" : o->steps,
		 scenario ? " PSMF_SCENARIO=" : "", scenario ? scenario : "",
		 extra ? " PSMF_ALONE=1" : "");
	if (o->seq_ops && n < len)
		n += snprintf(buf + n, len - n, " PSMF_SEQ_OPS=%ld", o->seq_ops);
	/* Not in the boots of their own: they run matrix scenarios only. */
	if (o->faults && !extra && n < len)
		snprintf(buf + n, len - n, " PSMF_FAULTS=1");
}

/*
 * Run QEMU once: console on ttyS0 into @console, results on ttyS1 into
 * @results (both truncated), killed after the time limit.  Returns the
 * wait status; *timed_out says whether it was killed.
 */
int run_qemu(const struct opts *o, const char *append, const char *results,
	     const char *console, bool *timed_out)
{
	char ser0[4200], ser1[4200], mem[16], smp[16], drive[4200];
	const char *argv[40] = { "qemu-system-x86_64", "-accel", o->accel,
		"-m", mem, "-smp", smp, "-nodefaults", "-display", "none",
		"-no-reboot", "-kernel", o->kernel, "-append", append,
		"-serial", ser0, "-serial", ser1 };
	long start = now_ms();
	int fd, n = 19;
	pid_t pid;

	snprintf(ser0, sizeof(ser0), "file:%s", console);
	snprintf(ser1, sizeof(ser1), "file:%s", results);
	snprintf(mem, sizeof(mem), "%dM", o->memory);
	snprintf(smp, sizeof(smp), "%d", o->smp);
	/* A Debian system image as the root disk; its writes are thrown away. */
	snprintf(drive, sizeof(drive), "file=%s,format=raw,if=virtio,snapshot=on",
		 o->image ? o->image : "");
	argv[n++] = o->image ? "-drive" : "-initrd";
	argv[n++] = o->image ? drive : o->initrd;
	/* one virtual ns per guest instruction, whatever the host does */
	if (o->icount) {
		argv[n++] = "-icount";
		argv[n++] = "shift=0,sleep=off,align=off";
	}
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return perror("fork"), -1;
	if (pid == 0) {
		setpgid(0, 0);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "runner: cannot run qemu-system-x86_64: %s (apt-get install qemu-system-x86)\n",
			strerror(errno));
		_exit(127);
	}
	return wait_limited(pid, start + o->timeout * 1000L, timed_out);
}

int wait_limited(pid_t pid, long deadline_ms, bool *killed)
{
	int status = 0;

	*killed = false;
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if (now_ms() > deadline_ms) {
			/* the whole group: lava-run leaves its QEMU behind */
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			*killed = true;
			break;
		}
		usleep(20000);
	}
	return status;
}

/* QEMU's own failures, to @v; the guest's are judged from its results. */
void check_qemu(struct verdicts *v, const struct opts *o, const char *what,
		int status, bool timed_out)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		verdict(v, false, "%s: qemu-system-x86_64 could not start", what);
	else if (!timed_out && (status < 0 || (WIFEXITED(status) && WEXITSTATUS(status))))
		verdict(v, false,
			"%s: qemu-system-x86_64 exited with status %d (its message is above)",
			what, WIFEXITED(status) ? WEXITSTATUS(status) : status);
	if (timed_out)
		verdict(v, false, "%s guest finished within %d s (hung: killed; raise -Dtimeout= if the machine is just slow)",
			what, o->timeout);
}
