// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the test guest.  It mounts /proc, /sys and /dev as a
 * distribution does, runs the steps named in the PSMF_RUN environment
 * variable (set on the kernel command line), writes what happened to the
 * second serial port, and powers the guest off.
 *
 * It reports facts only: return values, errnos, the flags that landed and
 * the kernel lines each scenario produced.  Whether they are right is for
 * the host to judge against tests/spec.md.
 *
 * Results protocol, one record per line on /dev/ttyS1:
 *   start <kernel release>
 *   begin <name>
 *   scenario <name> op=<op> fs=<fs> ret=<0|ENAME> flags=<f,..|-> pid=<n>
 *            comm=<comm> n=<successes>/<tries> ms=<n>      (one line)
 *   kmsg <name> <kernel line>
 *   selftest <TAP line>
 *   <step> ... (see exhaustive.c and stress.c)
 *   end <status>
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
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "scenarios.h"

FILE *results;

/*
 * The guest's own /proc, kept open: the host layouts of the scenarios hide
 * it (or make it read-only), yet uid_map must still be written.
 */
static int procfd = -1;

void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(results, fmt, ap);
	va_end(ap);
	fflush(results);
}

void die(const char *what)
{
	/* Only PID 1 ends the run; a scenario's process fails its scenario. */
	report("%s %s: %s\n", getpid() == 1 ? "end error" : "error", what,
	       strerror(errno));
	fprintf(stderr, "init: %s: %s\n", what, strerror(errno));
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

/* F_* of the mount at @path, read from /proc/self/mountinfo. */
int landed_flags(const char *path)
{
	char line[1024], mnt_point[256], opts[256];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int flags = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *o;

		if (sscanf(line, "%*d %*d %*s %*s %255s %255s", mnt_point,
			   opts) != 2 || strcmp(mnt_point, path))
			continue;
		flags = 0;	/* the last mount on @path is the top one */
		for (o = strtok(opts, ","); o; o = strtok(NULL, ",")) {
			if (!strcmp(o, "ro"))
				flags |= F_RO;
			else if (!strcmp(o, "nosuid"))
				flags |= F_NOSUID;
			else if (!strcmp(o, "nodev"))
				flags |= F_NODEV;
			else if (!strcmp(o, "noexec"))
				flags |= F_NOEXEC;
		}
	}
	fclose(f);
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

static void write_proc(const char *path, const char *text)
{
	int fd = openat(procfd, path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

/* Write @value to fs.proc_sysfs_mount_flags: 0 or the errno. */
int sysctl_write(const char *value)
{
	int fd = openat(procfd, "sys/fs/proc_sysfs_mount_flags", O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * A process that stays root of the initial namespaces while the scenario
 * enters its container, and raises the phase when the scenario asks.
 */
struct raiser {
	int req, resp;
	pid_t pid;	/* in the initial pid namespace: the notice names it */
};

static void raiser_start(struct raiser *r)
{
	int to[2], from[2];
	char phase[32];
	ssize_t n;

	if (pipe(to) || pipe(from))
		die("pipe");
	r->pid = fork();
	if (r->pid < 0)
		die("fork");
	if (r->pid == 0) {
		close(to[1]);
		close(from[0]);
		prctl(PR_SET_NAME, "mnt-raise");
		while ((n = read(to[0], phase, sizeof(phase) - 1)) > 0) {
			unsigned char err;

			phase[n] = 0;
			err = sysctl_write(phase);
			if (write(from[1], &err, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	r->req = to[1];
	r->resp = from[0];
}

/* Raise to @phase (none: NULL); returns 0 or the errno of the write. */
static int raise_phase(const struct raiser *r, const char *phase)
{
	unsigned char err = EIO;

	if (!phase)
		return 0;
	if (write(r->req, phase, strlen(phase)) != (ssize_t)strlen(phase) ||
	    read(r->resp, &err, 1) != 1)
		die("ask the raiser");
	return err;
}

int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
 * the parent exits with the child's status.
 */
void enter_userns(void)
{
	char uid_map[64], gid_map[64];
	pid_t pid;

	/* Outside the new namespace: inside, both are unmapped until set. */
	snprintf(uid_map, sizeof(uid_map), "0 %d 1\n", geteuid());
	snprintf(gid_map, sizeof(gid_map), "0 %d 1\n", getegid());
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET))
		die("unshare(user, mount, pid, net)");
	write_proc("self/uid_map", uid_map);
	write_proc("self/setgroups", "deny");
	write_proc("self/gid_map", gid_map);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid)
		_exit(wait_child(pid));
}

/* Drop to an unprivileged uid, then nest @depth user namespaces. */
void enter_container(int depth)
{
	if (!depth)
		return;
	if (setgroups(0, NULL) || setgid(GUEST_UID) || setuid(GUEST_UID))
		die("drop to the unprivileged uid");
	/* setuid() made us undumpable: /proc/self would belong to root. */
	if (prctl(PR_SET_DUMPABLE, 1))
		die("PR_SET_DUMPABLE");
	while (depth--)
		enter_userns();
}

int fresh_mount(const char *fs, const char *target, int f)
{
	return mount(fs, target, fs, ms_flags(f), NULL);
}

int fs_mount_api(const char *fs, const char *target, int f)
{
	int fsfd, mfd, ret = -1;

	fsfd = fsopen(fs, FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return -1;
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0) {
		mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, attr_flags(f));
		if (mfd >= 0) {
			ret = move_mount(mfd, "", AT_FDCWD, target,
					 MOVE_MOUNT_F_EMPTY_PATH);
			close(mfd);
		}
	}
	close(fsfd);
	return ret;
}

static int setattr_to(int dfd, const char *path, unsigned int at, int f)
{
	struct mount_attr attr = {
		.attr_set = attr_flags(f),
		.attr_clr = attr_flags(F_ALL & ~f),
	};

	return mount_setattr(dfd, path, at, &attr, sizeof(attr));
}

/* Make a change to flags @f on @target, as @op does it. */
int change_flags(enum op op, const char *target, int f)
{
	switch (op) {
	case OP_REMOUNT:
		return mount(NULL, target, NULL, MS_REMOUNT | ms_flags(f), NULL);
	case OP_BIND_REMOUNT:
	case OP_HOST_BIND_REMOUNT:
		return mount(NULL, target, NULL,
			     MS_REMOUNT | MS_BIND | ms_flags(f), NULL);
	case OP_SETATTR:
		return setattr_to(AT_FDCWD, target, 0, f);
	default:
		errno = EINVAL;
		return -1;
	}
}

static const char *subdir(const char *fs)
{
	return strcmp(fs, "proc") ? "/mnt/t/kernel" : "/mnt/t/sys";
}

static const char *host_mount(const char *fs)
{
	return strcmp(fs, "proc") ? "/sys" : "/proc";
}

/*
 * Perform @s inside the container, raising the phase through @r where the
 * scenario says.  Returns 0 or an errno; *where is the mount whose flags
 * landed.  Set-up steps that are not under test die; a raise that fails
 * is not one of them: the phase in force then judges, and the kernel's
 * notices tell the host which raises took place.
 */
static int perform(const struct scenario *s, const struct raiser *r,
		   const char **where)
{
	int fd, ret;

	*where = "/mnt/t";
	raise_phase(r, s->before);
	switch (s->op) {
	case OP_MOUNT:
		ret = fresh_mount(s->fs, "/mnt/t", s->flags);
		break;
	case OP_FSMOUNT:
		ret = fs_mount_api(s->fs, "/mnt/t", s->flags);
		break;
	case OP_REMOUNT:
	case OP_BIND_REMOUNT:
	case OP_SETATTR:
		if (fresh_mount(s->fs, "/mnt/t", s->host))
			die("fresh mount before the change");
		if (s->sub) {
			if (mount(subdir(s->fs), "/mnt/b", NULL, MS_BIND, NULL))
				die("bind of a subdirectory");
			*where = "/mnt/b";
		}
		raise_phase(r, s->after);
		ret = change_flags(s->op, *where, s->flags);
		break;
	case OP_SYSCTL:
		errno = sysctl_write(s->value);
		ret = errno ? -1 : 0;
		break;
	case OP_HOST_BIND_REMOUNT:
		if (mount(host_mount(s->fs), "/mnt/t", NULL, MS_BIND, NULL))
			die("bind of the host's mount");
		ret = change_flags(s->op, "/mnt/t", s->flags);
		break;
	case OP_HOST_CLONE_SETATTR:
		fd = open_tree(AT_FDCWD, host_mount(s->fs),
			       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		if (fd < 0)
			die("open_tree(OPEN_TREE_CLONE)");
		ret = setattr_to(fd, "", AT_EMPTY_PATH, s->flags);
		if (!ret && move_mount(fd, "", AT_FDCWD, "/mnt/t",
				       MOVE_MOUNT_F_EMPTY_PATH))
			die("move_mount of the clone");
		close(fd);
		break;
	default:
		errno = EINVAL;
		ret = -1;
	}
	return ret ? errno : 0;
}

/* The operation as the kernel's warning names it. */
static const char *op_name(enum op op)
{
	switch (op) {
	case OP_MOUNT:
		return "mount";
	case OP_FSMOUNT:
		return "fsmount";
	case OP_SETATTR:
	case OP_HOST_CLONE_SETATTR:
		return "setattr";
	case OP_SYSCTL:
		return "sysctl";
	default:
		return "remount";
	}
}

/* Runs in the container: perform, repeat, and report. */
static void scenario_child(const struct scenario *s, const struct raiser *r,
			   int out)
{
	char flags[64], comm[32] = "", line[512];
	const char *where;
	long start = now_ms();
	int i, err = 0, ok = 0, landed = -1;

	prctl(PR_SET_NAME, "mnt-scenario");
	for (i = 0; i < s->repeat; i++) {
		int e = perform(s, r, &where);

		if (!e) {
			ok++;
			landed = landed_flags(where);
			if (i + 1 < s->repeat && umount2(where, 0))
				die("umount between repeats");
		} else if (!err) {
			err = e;
		}
	}
	if (landed < 0)
		snprintf(flags, sizeof(flags), "-");
	else
		flag_names(landed, flags, sizeof(flags));
	prctl(PR_GET_NAME, comm);
	snprintf(line, sizeof(line),
		 "scenario %s op=%s fs=%s ret=%s flags=%s pid=%d comm=%s n=%d/%d ms=%ld raiser=%d\n",
		 s->name, op_name(s->op), s->fs, err ? errno_name(err) : "0",
		 ok ? flags : "-", global_pid(), comm, ok, s->repeat,
		 now_ms() - start, r->pid);
	if (write(out, line, strlen(line)) != (ssize_t)strlen(line))
		_exit(1);
	_exit(0);
}

/*
 * The warning is rate limited at 10 lines per 5 s.  Keep each checked
 * scenario inside a window that still has room, so that no expected line
 * is suppressed; @need is the number of lines the next scenario may add.
 */
static struct {
	long start;
	int lines;
} window;

static void pace_warnings(int need)
{
	if (!window.lines || window.lines + need <= 10)
		return;
	while (now_ms() < window.start + 5200)
		usleep(50000);
	window.lines = 0;
}

static long last_warning;	/* when the guest last saw a warning line */

void count_warnings(const char *line)
{
	if (strncmp(line, "VFS: process '", 14))
		return;
	last_warning = now_ms();
	if (!window.lines)
		window.start = now_ms();
	window.lines++;
}

/*
 * Before a step whose warning count is checked: let the rate limit's
 * window that an earlier step may have filled run out.
 */
void wait_fresh_ratelimit(void)
{
	while (last_warning && now_ms() < last_warning + 5200)
		usleep(50000);
	window.lines = 0;
}

static void run_scenario(const struct scenario *s)
{
	char buf[512];
	int pipefd[2], kmsg, n;
	pid_t pid;

	pace_warnings(s->repeat > 1 ? 10 : 1);
	report("begin %s\n", s->name);
	kmsg = kmsg_open_at_end();
	if (pipe(pipefd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		struct raiser r = { .pid = 0 };

		close(pipefd[0]);
		host_layout(s->host);
		if (s->before || s->after)
			raiser_start(&r);
		enter_container(s->nest);
		scenario_child(s, &r, pipefd[1]);
	}
	close(pipefd[1]);
	n = read(pipefd[0], buf, sizeof(buf) - 1);
	close(pipefd[0]);
	if (wait_child(pid) || n <= 0)
		report("scenario %s op=%s fs=%s ret=died flags=- pid=0 comm=- n=0/%d ms=0\n",
		       s->name, op_name(s->op), s->fs, s->repeat);
	else
		report("%.*s", n, buf);
	kmsg_forward(kmsg, s->name, count_warnings);
	close(kmsg);
	if (s->boot)	/* what the kernel said of the parameter at boot */
		kmsg_forward_boot(s->name, "VFS: unknown proc_sysfs_mount_flags=");
}

static void run_selftest(void)
{
	char line[1024];
	int pipefd[2], kmsg;
	FILE *p;
	pid_t pid;

	kmsg = kmsg_open_at_end();
	if (pipe(pipefd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		execl("/bin/proc_sysfs_mount_flags", "proc_sysfs_mount_flags",
		      (char *)NULL);
		die("exec /bin/proc_sysfs_mount_flags");
	}
	close(pipefd[1]);
	p = fdopen(pipefd[0], "r");
	while (p && fgets(line, sizeof(line), p))
		report("selftest %s", line);
	if (p)
		fclose(p);
	report("selftest-exit %d\n", wait_child(pid));
	/* Not judged here, but seen: the next step waits out their window. */
	kmsg_forward(kmsg, "selftest", count_warnings);
	close(kmsg);
}

static void setup_guest(void)
{
	struct termios tio;
	struct utsname u;
	int fd;

	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID | MS_NOEXEC, NULL))
		_exit(1);
	fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);
	if (fd < 0)
		_exit(1);
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	results = fdopen(fd, "w");
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

/*
 * The scenarios, or only @only.  One that needs a boot of its own (it
 * raises the phase, or needs a boot parameter) runs only in a boot made
 * for it (PSMF_ALONE); elsewhere the guest asks the host for that boot.
 */
static void run_matrix(const char *only)
{
	int own_boot = getenv("PSMF_ALONE") != NULL;
	size_t i;

	for (i = 0; i < N_SCENARIOS; i++) {
		const struct scenario *s = &scenarios[i];

		if (only && strcmp(only, s->name))
			continue;
		if (scenario_alone(s) && !own_boot)
			report("alone %s %s\n", s->name, s->boot ? s->boot : "-");
		else
			run_scenario(s);
	}
}

static int wanted(const char *steps, const char *step)
{
	size_t len = strlen(step);
	const char *p;

	for (p = steps; (p = strstr(p, step)); p += len)
		if ((p == steps || p[-1] == ',') && (!p[len] || p[len] == ','))
			return 1;
	return 0;
}

int main(void)
{
	const char *steps = getenv("PSMF_RUN");
	const char *only = getenv("PSMF_SCENARIO");

	setup_guest();
	kmsg_settle(300, 5000);
	if (!steps)
		steps = "matrix,selftest";
	if (wanted(steps, "matrix"))
		run_matrix(only);
	if (wanted(steps, "exhaustive"))
		run_exhaustive();
	if (wanted(steps, "stress"))
		run_stress();
	if (wanted(steps, "bench"))
		run_bench();
	if (wanted(steps, "userspace"))
		run_userspace();
	/* Last: it raises the phase to enforce until the next boot. */
	if (wanted(steps, "selftest"))
		run_selftest();
	report("end ok\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
