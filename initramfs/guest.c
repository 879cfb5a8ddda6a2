// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's library: set-up, reporting, flags and mount-info reading,
 * namespaces.  The steps (matrix.c, exhaustive.c, stress.c, bench.c,
 * userspace.c, selftest.c) use it; none of them calls into init.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

FILE *results;

/*
 * The guest's own /proc, kept open: the host layouts of the scenarios hide
 * it (or make it read-only), yet uid_map must still be written.
 */
static int procfd = -1;

/* A copy of every record, for the verdicts on the console (verdicts.c). */
static int kept = -1;

void report_keep(const char *path)
{
	kept = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
		    0600);
	/* Before the results port is open: without a copy, no verdicts. */
	if (kept < 0)
		fprintf(stderr, "init: cannot create %s: %s\n", path,
			strerror(errno));
}

void report(const char *fmt, ...)
{
	va_list ap;
	char *line;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	fputs(line, results);
	fflush(results);
	/* One write: the scenarios' processes append to the same file. */
	if (kept >= 0 && write(kept, line, len) != len)
		fprintf(stderr, "init: cannot keep a record\n");
	free(line);
}

/* The results port of a process whose records are held back. */
static FILE *held_from;

/*
 * In a process whose records wait for their turn: to @f only.  The kept
 * copy is written when they are reported (report_replay()).
 */
void report_divert(FILE *f)
{
	held_from = results;
	results = f;
	if (kept >= 0)
		close(kept);
	kept = -1;
}

/* The records @f holds, reported now. */
void report_replay(FILE *f)
{
	char *line = NULL;
	size_t cap = 0;

	rewind(f);
	while (getline(&line, &cap, f) > 0)
		report("%s", line);
	free(line);
}

void die(const char *what)
{
	/* Held back or not: before its container it reboots the guest. */
	if (held_from)
		results = held_from;
	/* Only PID 1 ends the run; a scenario's process fails its scenario. */
	report("%s %s: %s\n", getpid() == 1 ? "end error" : "error", what,
	       strerror(errno));
	fprintf(stderr, "init: %s: %s\n", what, strerror(errno));
	sync();
	reboot(RB_AUTOBOOT);
	_exit(1);
}

/* End the run with @fmt as the reason in its end record: no errno in it. */
void end_error(const char *fmt, ...)
{
	va_list ap;
	char why[256];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	report("end error %s\n", why);
	sync();
	reboot(RB_AUTOBOOT);
	_exit(1);
}

long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

unsigned long ms_flags(int f)
{
	return (f & F_RO ? MS_RDONLY : 0) | (f & F_NOSUID ? MS_NOSUID : 0) |
	       (f & F_NODEV ? MS_NODEV : 0) | (f & F_NOEXEC ? MS_NOEXEC : 0);
}

unsigned long attr_flags(int f)
{
	return (f & F_RO ? MOUNT_ATTR_RDONLY : 0) |
	       (f & F_NOSUID ? MOUNT_ATTR_NOSUID : 0) |
	       (f & F_NODEV ? MOUNT_ATTR_NODEV : 0) |
	       (f & F_NOEXEC ? MOUNT_ATTR_NOEXEC : 0);
}

void flag_names(int f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", f & F_RO ? ",ro" : "",
		 f & F_NOSUID ? ",nosuid" : "", f & F_NODEV ? ",nodev" : "",
		 f & F_NOEXEC ? ",noexec" : "");
	if (!buf[0])
		snprintf(buf, len, ",-");
	memmove(buf, buf + 1, strlen(buf));
}

int transient(int err)
{
	return err == ENOMEM || err == EAGAIN;
}

/* The F_* of one mountinfo line's mount options. */
int mount_option_flags(char *opts)
{
	int flags = 0;
	char *o, *save;

	for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strcmp(o, "ro"))
			flags |= F_RO;
		else if (!strcmp(o, "nosuid"))
			flags |= F_NOSUID;
		else if (!strcmp(o, "nodev"))
			flags |= F_NODEV;
		else if (!strcmp(o, "noexec"))
			flags |= F_NOEXEC;
	}
	return flags;
}

/* One read of mountinfo: 0, or -1 if it failed. */
static int read_mounts_flags(const char *const *paths, int n, int *flags)
{
	char line[1024], mnt_point[256], opts[256];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int i, err;

	for (i = 0; i < n; i++)
		flags[i] = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*d %*d %*s %*s %255s %255s", mnt_point,
			   opts) != 2)
			continue;
		/* The last mount on a path is the top one. */
		for (i = 0; i < n; i++)
			if (!strcmp(mnt_point, paths[i]))
				flags[i] = mount_option_flags(opts);
	}
	err = ferror(f);
	fclose(f);
	return err ? -1 : 0;
}

int mounts_flags(const char *const *paths, int n, int *flags)
{
	int i, ret = -1;

	/*
	 * Under fault injection the read itself may fail, and not always
	 * with ENOMEM: read again, whatever the error.
	 */
	for (i = 0; i < RETRIES && ret; i++)
		ret = read_mounts_flags(paths, n, flags);
	return ret;
}

int landed_flags(const char *path)
{
	int flags;

	mounts_flags(&path, 1, &flags);
	return flags;
}

/* The caller's pid in the initial pid namespace (NSpid via the host's /proc). */
int global_pid(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int pid = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "NSpid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid;
}

/* The inode of our user namespace, as /proc/self/ns/user shows it; 0 if unknown. */
unsigned int userns_inum(void)
{
	struct stat st;

	return stat("/proc/self/ns/user", &st) ? 0 : (unsigned int)st.st_ino;
}

static void write_proc(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int i, fd = -1;

	for (i = 0; i < RETRIES; i++) {
		fd = openat(procfd, path, O_WRONLY);
		if (fd >= 0 && write(fd, text, len) == len)
			break;
		if (fd >= 0)
			close(fd);
		fd = -1;
		if (!transient(errno))
			break;
	}
	if (fd < 0)
		die(path);
	close(fd);
}

/* fs.proc_sysfs_mount_flags, under the guest's own /proc */
#define SYSCTL_PHASE "sys/fs/proc_sysfs_mount_flags"

/* The phase the sysctl reads, into @buf: 0, or the errno of the read. */
int sysctl_read(char *buf, size_t len)
{
	int fd = openat(procfd, SYSCTL_PHASE, O_RDONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n <= 0)
		return err;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Write @value to fs.proc_sysfs_mount_flags: 0 or the errno. */
int sysctl_write(const char *value)
{
	int fd = openat(procfd, SYSCTL_PHASE, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * Fork with a pipe from the child to the parent: *fd is the write end in
 * the child (fork_pipe() returns 0), the read end in the parent (it
 * returns the child's pid).
 */
pid_t fork_pipe(int *fd)
{
	int pipefd[2];
	pid_t pid;

	if (pipe(pipefd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	close(pipefd[pid ? 1 : 0]);
	*fd = pipefd[pid ? 0 : 1];
	return pid;
}

/*
 * The host's layout in a private mount namespace: proc on /proc and sysfs
 * on /sys with @host flags, and no other instance of either visible.
 */
void host_layout(int host)
{
	if (unshare(CLONE_NEWNS))
		die("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("make / private");
	if (umount2("/proc", MNT_DETACH) || umount2("/sys", MNT_DETACH))
		die("umount host /proc or /sys");
	if (mount("proc", "/proc", "proc", ms_flags(host), NULL))
		die("mount host proc");
	if (mount("sysfs", "/sys", "sysfs", ms_flags(host), NULL))
		die("mount host sysfs");
}

/*
 * Become root in new user, mount, pid and net namespaces, owned by the
 * caller's uid, and fork into the pid namespace.  Returns in the child;
 * the parent exits with the child's status.  If the namespaces cannot be
 * made, returns their errno, and nothing has changed.
 */
static int enter_namespaces(int flags)
{
	char uid_map[64], gid_map[64];
	pid_t pid = -1;
	int i;

	/* Outside the new namespace: inside, both are unmapped until set. */
	snprintf(uid_map, sizeof(uid_map), "0 %d 1\n", geteuid());
	snprintf(gid_map, sizeof(gid_map), "0 %d 1\n", getegid());
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | flags))
		return errno;
	write_proc("self/uid_map", uid_map);
	write_proc("self/setgroups", "deny");
	write_proc("self/gid_map", gid_map);
	for (i = 0; i < RETRIES && pid < 0; i++)
		if ((pid = fork()) < 0 && !transient(errno))
			break;
	if (pid < 0)
		die("fork");
	if (pid)
		_exit(wait_child(pid));
	return 0;
}

int try_enter_userns(void)
{
	return enter_namespaces(CLONE_NEWNET);
}

void enter_userns(void)
{
	errno = try_enter_userns();
	if (errno)
		die("unshare(user, mount, pid, net)");
}

static void drop_to_guest_uid(void)
{
	if (setgroups(0, NULL) || setgid(GUEST_UID) || setuid(GUEST_UID))
		die("drop to the unprivileged uid");
	/* setuid() made us undumpable: /proc/self would belong to root. */
	if (prctl(PR_SET_DUMPABLE, 1))
		die("PR_SET_DUMPABLE");
}

/* Drop to an unprivileged uid, then nest @depth user namespaces. */
void enter_container(int depth)
{
	if (!depth)
		return;
	drop_to_guest_uid();
	while (depth--)
		enter_userns();
}

/*
 * The same with one user namespace and no network namespace, whose
 * teardown would delay the freeing of the user namespace.
 */
void enter_container_netless(void)
{
	drop_to_guest_uid();
	errno = enter_namespaces(0);
	if (errno)
		die("unshare(user, mount, pid)");
}

/*
 * The results port, the second serial port, raw.  A lab's QEMU may give
 * the guest no second port: then the records reach the host only through
 * the console (PSMF_JUDGE, verdicts.c).
 */
void report_open(void)
{
	struct termios tio;
	int fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		_exit(1);
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	results = fdopen(fd, "w");
}

/*
 * Mount /dev, /proc and /sys as a distribution does, and open the
 * results port (the second serial port, raw).
 */
void guest_setup(void)
{
	struct utsname u;

	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID | MS_NOEXEC, NULL))
		_exit(1);
	report_open();
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		die("mount /proc");
	if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		die("mount /sys");
	procfd = open("/proc", O_PATH | O_DIRECTORY);
	if (procfd < 0)
		die("open /proc");
	uname(&u);
	report("start %s\n", u.release);
}
