// SPDX-License-Identifier: GPL-2.0
/*
 * Real container tools from Debian 12, run over the standard host layout.
 * Each runs /bin/psmf-probe inside its sandbox, which prints the flags of
 * the proc and sysfs mounts it sees.  The binaries and their shared
 * libraries come in a second initramfs (initramfs/userspace.sh), appended
 * to the first; what they need besides (a user with subordinate ids, a
 * delegated cgroup; each tool's tree, config or bundle: tools.c) is set up here, as a
 * distribution would, before the tool starts.
 *
 *   tool <name> version=<first line of --version> uid=<n> exit=<n> ms=<n>
 *   toolout <name> <line of its output>
 *   toolfix <name> <row that shows the fix> <the change a user makes>
 *   kmsg <name> <kernel line>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "toolrun.h"
#include "tools.h"

#define TOOL_TIMEOUT_MS 20000

/*
 * The unprivileged user as a distribution sets it up, once per boot: an
 * account (which newuidmap looks up), subordinate ids from useradd's
 * default range and a home.
 */
static void setup_user(void)
{
	static const char *const dirs[] = { "/etc", "/srv", "/home", "/home/user",
		"/run", "/run/user", "/run/user/1000", "/var", NULL };
	char ids[64];

	make_dirs("", dirs);
	write_file("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
		   "user:x:1000:1000:user:/home/user:/bin/sh\n", 0644);
	/* as on Debian: libvirt's console is a pty of the host's devpts */
	if ((mkdir("/dev/pts", 0755) && errno != EEXIST) ||
	    mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		  "gid=5,mode=620,ptmxmode=000"))
		die("mount /dev/pts");
	/* as on Debian: libvirt's clients look for its socket there */
	if (symlink("/run", "/var/run") && errno != EEXIST)
		die("symlink /var/run");
	write_file("/etc/group", "root:x:0:\nuser:x:1000:\n", 0644);
	/* systemd-nspawn binds the host's into the container's /run/host. */
	write_file("/usr/lib/os-release", "ID=psmf\nNAME=\"psmf test guest\"\n",
		   0644);
	snprintf(ids, sizeof(ids), "user:%d:%d\n", SUBID_FIRST, SUBID_COUNT);
	write_file("/etc/subuid", ids, 0644);
	write_file("/etc/subgid", ids, 0644);
	if (chown("/home/user", GUEST_UID, GUEST_UID) ||
	    chown("/run/user/1000", GUEST_UID, GUEST_UID))
		die("chown the user's directories");
}

/*
 * In a tool's own mount namespace: its environment, /dev/shm and the
 * user's cgroup2 subtree, delegated as systemd delegates a user's slice
 * (LXC puts its container in a child cgroup), with the tool in it.
 */
static void enter_user_session(void)
{
	static const char *const delegated[] = { "", "/cgroup.procs",
		"/cgroup.threads", "/cgroup.subtree_control", NULL };
	char path[128];
	int i;

	setenv("HOME", "/home/user", 1);
	setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);

	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		die("mount cgroup2");
	/* podman keeps its locks in POSIX shared memory */
	if ((mkdir("/dev/shm", 01777) && errno != EEXIST) ||
	    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=1777"))
		die("mount /dev/shm");
	if (mkdir("/sys/fs/cgroup/psmf", 0755) && errno != EEXIST)
		die("mkdir /sys/fs/cgroup/psmf");
	for (i = 0; delegated[i]; i++) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/psmf%s",
			 delegated[i]);
		if (chown(path, GUEST_UID, GUEST_UID))
			die(path);
	}
	write_file("/sys/fs/cgroup/psmf/cgroup.procs", "0", 0644);
}

/* What spawn() starts: @t's @argv, as its user. */
struct spawning {
	const struct tool *t;
	const char *const *argv;
};

/* Run a tool as its user; its output goes to @out. */
static pid_t spawn(const void *ctx, int out)
{
	const struct spawning *sp = ctx;
	const struct tool *t = sp->t;
	const char *const *argv = sp->argv;
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
	/* systemd makes every mount shared; rootless podman expects it. */
	if (mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL))
		_exit(125);
	enter_user_session();
	if (t->uid) {
		if (setgroups(0, NULL) || setgid(t->uid) || setuid(t->uid))
			_exit(126);
		prctl(PR_SET_DUMPABLE, 1);
	}
	execv(argv[0], (char *const *)argv);
	dprintf(1, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The output of the last run, kept to be reported after its result. */
static struct captured output;

/* Run to the end or the time limit; returns the exit status, -1 if killed. */
static int run(const struct tool *t, const char *const *argv)
{
	struct spawning sp = { t, argv };

	return run_captured(spawn, &sp, t->timeout_s ? t->timeout_s * 1000L :
			    TOOL_TIMEOUT_MS, &output);
}

/*
 * What "@path --version" says, first line, as one word: asked once per
 * binary (five rows run lxc-start), kept for the rows after.
 */
static const char *tool_version(const struct tool *t, const char *path)
{
	static struct {
		const char *path;
		char version[128];
	} seen[32];
	static int n_seen;
	char vflag[] = "--version", *version, *c;
	const char *vargv[] = { path, vflag, NULL };
	int i;

	for (i = 0; i < n_seen; i++)
		if (!strcmp(seen[i].path, path))
			return seen[i].version;
	if (n_seen == ARRAY_SIZE(seen))
		end_error("more than %d tool binaries: raise seen[] in tool_version()",
			  n_seen);
	run(t, vargv);
	seen[n_seen].path = path;
	version = seen[n_seen++].version;
	snprintf(version, sizeof(seen[0].version), "%.127s",
		 output.n ? output.line[0] : "unknown");
	/* libvirtd names itself by its path: "/usr/sbin/libvirtd (libvirt) 9.0.0" */
	c = strchr(version, ' ');
	if (version[0] == '/' && c) {
		c = (char *)memrchr(version, '/', c - version) + 1;
		memmove(version, c, strlen(c) + 1);
	}
	/* mount(8) appends libmount's features: "(libmount 2.38.1: ...)" */
	c = strstr(version, " (");
	if (c && strchr(c, ':'))
		*c = 0;
	for (c = version; *c; c++)
		if (*c == ' ')
			*c = '_';
	return version;
}

void run_userspace(void)
{
	int i, j;

	setup_user();
	for (i = 0; i < n_tools; i++) {
		const struct tool *t = &tools[i];
		const char *path = t->version ? t->version : t->argv[0];
		const char *version;
		long start;
		int kmsg, status;

		if (access(path, X_OK)) {
			report("tool %s version=missing uid=%d exit=127 ms=0\n",
			       t->name, (int)t->uid);
			continue;
		}
		version = tool_version(t, path);
		if (t->prepare)
			t->prepare(t);
		/*
		 * Room in the warning's rate limit for what the tool logs,
		 * and one line more, so that a run that logs more than that
		 * is seen: a fresh window only when the tools before it left
		 * too little.
		 */
		pace_warnings(t->warn_lines + 1);
		kmsg = kmsg_open_at_end();
		start = now_ms();
		status = run(t, t->argv);
		report("tool %s version=%s uid=%d exit=%d ms=%ld\n", t->name,
		       version, (int)t->uid, status, now_ms() - start);
		for (j = 0; j < output.n; j++)
			report("toolout %s %s\n", t->name, output.line[j]);
		if (t->fixed_by)
			report("toolfix %s %s %s\n", t->name, t->fixed_by,
			       t->fix);
		if (t->needs)
			report("toolneeds %s %s\n", t->name, t->needs);
		kmsg_forward(kmsg, t->name, count_warnings);
		close(kmsg);
		if (warnings_may_be_cut())
			end_error("%s logged more warning lines than its .warn_lines "
				  "(%d), so the rate limit may have dropped some: raise "
				  "it in initramfs/tools.c", t->name, t->warn_lines);
	}
}
