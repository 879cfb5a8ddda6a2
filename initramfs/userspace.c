// SPDX-License-Identifier: GPL-2.0
/*
 * Real container tools from Debian 12, run over the standard host layout.
 * Each runs /bin/psmf-probe inside its sandbox, which prints the flags of
 * the proc and sysfs mounts it sees.  The binaries and their shared
 * libraries come in a second initramfs (initramfs/userspace.sh), appended
 * to the first; what they need besides (a user with subordinate ids, a
 * delegated cgroup, an OS tree, a container config) is set up here, as a
 * distribution would, before the tool starts.
 *
 *   tool <name> version=<first line of --version> uid=<n> exit=<n> ms=<n>
 *   toolout <name> <line of its output>
 *   kmsg <name> <kernel line>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define TOOL_TIMEOUT_MS 20000

/* The subordinate ids of the unprivileged user, as useradd gives them. */
#define SUBID_FIRST 100000
#define SUBID_COUNT 65536
/* The range that systemd-nspawn maps its container to. */
#define NSPAWN_SHIFT "524288"

#define NSPAWN_TREE "/srv/nspawn"
#define LXC_PATH "/srv/lxc"
#define LXC_ROOTFS LXC_PATH "/psmf/rootfs"
/* LXC mounts the rootfs here before it pivots into it (LXCROOTFSMOUNT). */
#define LXC_ROOTFS_MOUNT "/usr/lib/x86_64-linux-gnu/lxc/rootfs"

struct tool {
	const char *name;
	uid_t uid;		/* who starts it */
	/* run as root first: its tree, its config */
	void (*prepare)(const struct tool *t);
	const char *mount_auto;	/* LXC: the container's lxc.mount.auto lines */
	const char *const argv[24];
};

static void prepare_nspawn(const struct tool *t);
static void prepare_lxc(const struct tool *t);

#define LXC_START { "/usr/bin/lxc-start", "-F", "-P", LXC_PATH, "-n", "psmf", \
		    "--logpriority=ERROR", NULL }

static const struct tool tools[] = {
	{ "util-linux-unshare", GUEST_UID, NULL, NULL,
	  { "/usr/bin/unshare", "--user", "--map-root-user", "--mount",
	    "--pid", "--fork", "--mount-proc", "/bin/psmf-probe", NULL } },
	{ "bubblewrap", GUEST_UID, NULL, NULL,
	  { "/usr/bin/bwrap", "--ro-bind", "/", "/", "--unshare-all",
	    "--proc", "/proc", "--dev", "/dev", "/bin/psmf-probe", NULL } },
	/*
	 * systemd-nspawn refuses to start unless it is root; with
	 * --private-users the container is a user namespace of its own, and
	 * proc and sysfs are mounted from inside it (src/nspawn/nspawn-mount.c,
	 * mount_all(), called by the inner child after it entered the
	 * namespace).  No machined, no unit: there is no systemd here.
	 */
	{ "systemd-nspawn", 0, prepare_nspawn, NULL,
	  { "/usr/bin/systemd-nspawn", "--quiet", "--register=no",
	    "--keep-unit", "--private-users=" NSPAWN_SHIFT ":65536",
	    "--private-users-ownership=chown", "--console=pipe",
	    "--resolv-conf=off", "--timezone=off", "--link-journal=no",
	    "-D", NSPAWN_TREE, "/bin/psmf-probe", NULL } },
	/*
	 * An unprivileged container (lxc.idmap through newuidmap and
	 * newgidmap) with the lxc.mount.auto lines of Debian's
	 * /usr/share/lxc/config/common.conf and userns.conf, which
	 * lxc-create's templates include for unprivileged containers ...
	 */
	{ "lxc", GUEST_UID, prepare_lxc,
	  "lxc.mount.auto = cgroup:mixed proc:mixed sys:mixed\n"
	  "lxc.mount.auto = sys:rw\n", LXC_START },
	/*
	 * ... and with proc:rw sys:mixed instead: no read-only remount of a
	 * /proc/sys bind and no sysfs:rw, the two mounts of LXC's auto-mount
	 * table (src/lxc/conf.c, lxc_mount_auto_mounts()) that the kernel
	 * lines of the first run name.  What a container config can try
	 * against the enforce phase without a new LXC.
	 */
	{ "lxc-proc-rw-sys-mixed", GUEST_UID, prepare_lxc,
	  "lxc.mount.auto = cgroup:mixed proc:rw sys:mixed\n", LXC_START },
};

#define N_TOOLS (sizeof(tools) / sizeof(tools[0]))

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(fd))
		die(path);
}

static void make_dirs(const char *root, const char *const *dirs)
{
	char path[256];

	for (; *dirs; dirs++) {
		snprintf(path, sizeof(path), "%s%s", root, *dirs);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
	}
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY), out;
	struct stat st;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (in < 0 || out < 0 || fstat(in, &st) ||
	    sendfile(out, in, NULL, st.st_size) != st.st_size)
		die(to);
	close(in);
	close(out);
}

static uid_t chown_to;

static int chown_one(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return lchown(path, chown_to, chown_to);
}

static void chown_tree(const char *root, uid_t uid)
{
	chown_to = uid;
	if (nftw(root, chown_one, 16, FTW_PHYS))
		die(root);
}

/*
 * The unprivileged user as a distribution sets it up, once per boot: an
 * account (which newuidmap looks up), subordinate ids from useradd's
 * default range and a home.
 */
static void setup_user(void)
{
	static const char *const dirs[] = { "/etc", "/srv", "/home", "/home/user",
		"/run", "/run/user", "/run/user/1000", NULL };
	char ids[64];

	make_dirs("", dirs);
	write_file("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
		   "user:x:1000:1000:user:/home/user:/bin/sh\n", 0644);
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
 * In a tool's own mount namespace: its environment, and the user's
 * cgroup2 subtree, delegated as systemd delegates a user's slice (LXC
 * puts its container in a child cgroup), with the tool in it.
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

/* A minimal OS tree: nspawn wants /usr and an os-release. */
static void prepare_nspawn(const struct tool *t)
{
	static const char *const dirs[] = { "", "/usr", "/usr/lib", "/bin",
		"/etc", "/proc", "/sys", "/dev", "/run", "/tmp", "/var", NULL };

	(void)t;
	make_dirs(NSPAWN_TREE, dirs);
	write_file(NSPAWN_TREE "/usr/lib/os-release",
		   "ID=psmf\nNAME=\"psmf probe tree\"\n", 0644);
	copy_file("/bin/psmf-probe", NSPAWN_TREE "/bin/psmf-probe", 0755);
}

/*
 * An unprivileged container as lxc-create's templates make one, with the
 * tool's lxc.mount.auto lines.  Left out: common.conf's seccomp profile
 * and device rules (they need seccomp and BPF in the kernel, and concern
 * neither proc nor sysfs) and networking (no bridge here: an empty
 * network namespace).
 */
static void prepare_lxc(const struct tool *t)
{
	static const char *const dirs[] = { "", "/psmf", "/psmf/rootfs",
		"/psmf/rootfs/bin", "/psmf/rootfs/dev", "/psmf/rootfs/proc",
		"/psmf/rootfs/sys", "/psmf/rootfs/tmp", "/psmf/rootfs/run",
		"/psmf/rootfs/etc", NULL };
	static const char *const mnt[] = { "/usr/lib/x86_64-linux-gnu/lxc",
		LXC_ROOTFS_MOUNT, NULL };
	char config[2048];

	make_dirs(LXC_PATH, dirs);
	make_dirs("", mnt);
	copy_file("/bin/psmf-probe", LXC_ROOTFS "/bin/psmf-probe", 0755);
	snprintf(config, sizeof(config),
		 "lxc.uts.name = psmf\n"
		 "lxc.rootfs.path = dir:" LXC_ROOTFS "\n"
		 "lxc.idmap = u 0 %d %d\n"
		 "lxc.idmap = g 0 %d %d\n"
		 "%s"
		 "lxc.net.0.type = empty\n"
		 "lxc.console.path = none\n"
		 "lxc.tty.max = 0\n"
		 "lxc.pty.max = 0\n"
		 "lxc.init.cmd = /bin/psmf-probe\n",
		 SUBID_FIRST, SUBID_COUNT, SUBID_FIRST, SUBID_COUNT,
		 t->mount_auto);
	write_file(LXC_PATH "/psmf/config", config, 0644);
	chown_tree(LXC_PATH, GUEST_UID);
	chown_tree(LXC_ROOTFS, SUBID_FIRST);
}

/* Run @t as its user; its output goes to @out. */
static pid_t spawn(const struct tool *t, const char *const *argv, int out)
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
	enter_user_session();
	if (t->uid) {
		if (setgroups(0, NULL) || setgid(t->uid) || setuid(t->uid))
			_exit(126);
		prctl(PR_SET_DUMPABLE, 1);
	}
	execv(argv[0], (char *const *)argv);
	printf("exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The output of the last run, kept to be reported after its result. */
static char output[40][256];
static int n_output;

/*
 * Keep one line of output.  The pipe is read without blocking, so a read
 * can end inside a line (lxc-start writes its prefix and its message
 * apart): a piece without its newline waits in @partial for the rest.
 */
static void keep_output(char *partial, size_t len, const char *piece,
			bool whole)
{
	size_t used = strlen(partial);

	snprintf(partial + used, len - used, "%s", piece);
	if (!whole)
		return;
	partial[strcspn(partial, "\n")] = 0;
	if (n_output < 40)
		snprintf(output[n_output++], sizeof(output[0]), "%.255s",
			 partial);
	partial[0] = 0;
}

/* Run to the end or the time limit; returns the exit status, -1 if killed. */
static int run(const struct tool *t, const char *const *argv)
{
	char line[512], partial[512] = "";
	long start = now_ms();
	int pipefd[2], status = -1;
	FILE *p;
	pid_t pid;

	if (pipe(pipefd))
		die("pipe");
	pid = spawn(t, argv, pipefd[1]);
	if (pid < 0)
		die("fork");
	close(pipefd[1]);
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	p = fdopen(pipefd[0], "r");
	n_output = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		while (p && fgets(line, sizeof(line), p))
			keep_output(partial, sizeof(partial), line,
				    strchr(line, '\n') != NULL);
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
	if (partial[0])		/* the last line had no newline */
		keep_output(partial, sizeof(partial), "", true);
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

	setup_user();
	for (i = 0; i < N_TOOLS; i++) {
		const struct tool *t = &tools[i];
		const char *vargv[] = { t->argv[0], vflag, NULL };
		long start;
		int kmsg, status;

		if (access(t->argv[0], X_OK)) {
			report("tool %s version=missing uid=%d exit=127 ms=0\n",
			       t->name, (int)t->uid);
			continue;
		}
		run(t, vargv);
		snprintf(version, sizeof(version), "%.127s",
			 n_output ? output[0] : "unknown");
		for (char *c = version; *c; c++)
			if (*c == ' ')
				*c = '_';
		if (t->prepare)
			t->prepare(t);
		kmsg = kmsg_open_at_end();
		start = now_ms();
		status = run(t, t->argv);
		report("tool %s version=%s uid=%d exit=%d ms=%ld\n", t->name,
		       version, (int)t->uid, status, now_ms() - start);
		for (j = 0; j < n_output; j++)
			report("toolout %s %s\n", t->name, output[j]);
		kmsg_forward(kmsg, t->name, NULL);
		close(kmsg);
	}
}
