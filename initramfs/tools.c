// SPDX-License-Identifier: GPL-2.0
/*
 * The real container tools of the userspace step: what each runs, who
 * starts it, and what it needs set up first (a tree, a config, a
 * bundle), as a distribution or a user would set it up.  A row that
 * warns or fails in some phase names in .fixed_by the row that shows its
 * fix, run in the same boot: the host checks that it works in every
 * phase.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"
#include "tools.h"

/* The range that systemd-nspawn maps its container to. */
#define NSPAWN_SHIFT "524288"

#define NSPAWN_TREE "/srv/nspawn"
#define LXC_PATH "/srv/lxc"
#define LXC_ROOTFS LXC_PATH "/psmf/rootfs"
/* LXC mounts the rootfs here before it pivots into it (LXCROOTFSMOUNT). */
#define LXC_ROOTFS_MOUNT "/usr/lib/x86_64-linux-gnu/lxc/rootfs"
#define OCI_DIR "/srv/oci"
#define OCI_BUNDLE OCI_DIR "/bundle"

static void prepare_nspawn(const struct tool *t);
static void prepare_lxc(const struct tool *t);
static void prepare_oci(const struct tool *t);
static void prepare_podman(const struct tool *t);
static void prepare_libvirt(const struct tool *t);

#define LXC_START { "/usr/bin/lxc-start", "-F", "-P", LXC_PATH, "-n", "psmf", \
		    "--logpriority=ERROR", NULL }
/* common.conf's and userns.conf's mount lines, and the stopgap for them */
#define LXC_DEBIAN_AUTO "lxc.mount.auto = cgroup:mixed proc:mixed sys:mixed\n" \
			"lxc.mount.auto = sys:rw\n"
#define LXC_FIXED_AUTO "lxc.mount.auto = cgroup:mixed proc:rw sys:mixed\n"
#define LXC_NESTING_POINTS "/dev/.lxc/proc /dev/.lxc/sys"
/* nesting.conf's mount entries, with @opts added to their options */
#define LXC_NESTING(opts) \
	"lxc.mount.entry = proc dev/.lxc/proc proc create=dir,optional" opts " 0 0\n" \
	"lxc.mount.entry = sys dev/.lxc/sys sysfs create=dir,optional" opts " 0 0\n"
#define OCI_RUN(runtime, id) { runtime, "run", "--bundle", OCI_BUNDLE, id, NULL }
#define RUNC "/usr/sbin/runc"
#define CRUN "/usr/bin/crun"
/* util-linux mount(8) as root of a new user namespace, from a shell. */
#define MOUNT "/usr/bin/mount"
#define MOUNT_IN_USERNS(ns, cmd) { "/usr/bin/unshare", "-r", "-m", ns, \
	"/bin/sh", "-c", cmd " && exec /bin/psmf-probe", NULL }
/*
 * crun 1.8 remounts each of linux.readonlyPaths read-only without the
 * nosuid, nodev and noexec the mount has: warn logs each; under enforce
 * the container starts and the paths keep the flags (the runs show both).
 */
#define CRUN_RO "crun 1.8 remounts readonlyPaths without their nosuid,nodev,noexec: " \
	"warn logs each remount; under enforce the container starts with the flags kept"
#define PODMAN "/usr/bin/podman"
#define PODMAN_RUN(runtime) { "/bin/sh", "-c", \
	PODMAN " import /srv/podman/image.tar psmf >/dev/null && exec " \
	PODMAN " --runtime " runtime " run --rm --network=none " \
	"psmf /bin/psmf-probe", NULL }
/*
 * libvirt 9.0's LXC driver as a distribution runs it: libvirtd as root,
 * "virsh -c lxc:///system create" of a transient domain whose init runs
 * the probe (its console is a pty no one reads, so the probe writes to a
 * file, and its exit status to another), then wait until the domain is
 * gone.  The output is virsh's, the probe's, and if the domain did not
 * start, the errors of the driver's log of it, without their times.  If
 * it did not end well, also what libvirtd logged of the domain's life:
 * a monitor connection to libvirt_lxc that closes while the container
 * runs makes libvirtd stop the domain with SIGTERM to every process of
 * its cgroup (lxc_process.c, virLXCProcessMonitorEOFNotify), which kills
 * the probe and spares the container's init; a run once ended with 143
 * and nothing else to go on.
 */
#define LIBVIRT_DIR "/srv/libvirt"
#define LIBVIRT_OUT LIBVIRT_DIR "/out"
#define VIRSH "/usr/bin/virsh -q -c lxc:///system"
#define LIBVIRT_RUN { "/bin/sh", "-c", \
	"echo +cpu +memory >/sys/fs/cgroup/cgroup.subtree_control && " \
	"/usr/sbin/libvirtd --config " LIBVIRT_DIR "/libvirtd.conf " \
	"--pid-file " LIBVIRT_DIR "/libvirtd.pid >" LIBVIRT_DIR "/libvirtd.out 2>&1 & d=$!; " \
	"until [ -S /run/libvirt/libvirt-sock ]; do kill -0 $d 2>/dev/null || " \
	"{ cat " LIBVIRT_DIR "/libvirtd.out; exit 1; }; /usr/bin/sleep 0.1; done; " \
	VIRSH " create " LIBVIRT_DIR "/psmf.xml 2>&1; c=$?; s=$c; " \
	"while " VIRSH " domid psmf >/dev/null 2>&1; do /usr/bin/sleep 0.1; done; " \
	"cat " LIBVIRT_OUT "/probe.txt 2>&1; " \
	"if [ $s = 0 ]; then s=$(cat " LIBVIRT_OUT "/status 2>&1) || s=125; else " \
	"grep -o -e 'error : .*' -e 'Failure in libvirt_lxc startup.*' " \
	"/var/log/libvirt/lxc/psmf.log; fi; " \
	"[ \"$s\" = 0 ] || { echo \"virsh create: exit $c; the container's status: $s\"; " \
	"grep -o -e 'No program found for event.*' -e 'EOF notify.*' -e 'Stopping VM.*' " \
	"-e 'warning : .*' -e 'error : .*' " LIBVIRT_DIR "/libvirtd.log; }; " \
	"kill $d; wait; exit $s", NULL }
#define ROOTLESSKIT "/usr/bin/rootlesskit"
#define PROC_FIX "add \"options\": [\"nosuid\", \"noexec\", \"nodev\"] to the /proc mount of config.json"

const struct tool tools[] = {
	{ "util-linux-unshare", GUEST_UID, NULL,
	  .argv = { "/usr/bin/unshare", "--user", "--map-root-user", "--mount",
	    "--pid", "--fork", "--mount-proc", "/bin/psmf-probe", NULL } },
	{ "bubblewrap", GUEST_UID, NULL,
	  .argv = { "/usr/bin/bwrap", "--ro-bind", "/", "/", "--unshare-all",
	    "--proc", "/proc", "--dev", "/dev", "/bin/psmf-probe", NULL } },
	/*
	 * systemd-nspawn refuses to start unless it is root; with
	 * --private-users the container is a user namespace of its own, and
	 * proc and sysfs are mounted from inside it (src/nspawn/nspawn-mount.c,
	 * mount_all(), called by the inner child after it entered the
	 * namespace).  No machined, no unit: there is no systemd here.
	 */
	{ "systemd-nspawn", 0, prepare_nspawn,
	  .argv = { "/usr/bin/systemd-nspawn", "--quiet", "--register=no",
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
	  .warn_lines = 2,
	  .config = LXC_DEBIAN_AUTO,
	  .fixed_by = "lxc-proc-rw-sys-mixed",
	  .fix = "lxc.mount.auto = cgroup:mixed proc:rw sys:mixed in the container's "
		 "config, instead of common.conf's and userns.conf's lines",
	  .argv = LXC_START },
	/*
	 * ... and with proc:rw sys:mixed instead: no read-only remount of a
	 * /proc/sys bind and no sysfs:rw, the two mounts of LXC's auto-mount
	 * table (src/lxc/conf.c, lxc_mount_auto_mounts()) that the kernel
	 * lines of the first run name.  What a container config can try
	 * against the enforce phase without a new LXC.
	 */
	{ "lxc-proc-rw-sys-mixed", GUEST_UID, prepare_lxc,
	  .config = LXC_FIXED_AUTO,
	  .argv = LXC_START },
	/*
	 * Debian's /usr/share/lxc/config/nesting.conf, which a container
	 * includes to run containers of its own, adds two fresh mounts with
	 * no flags: "lxc.mount.entry = proc dev/.lxc/proc proc
	 * create=dir,optional" and the same for sys.  "optional" lets LXC
	 * start the container when a mount is refused, so a refusal shows
	 * only as a missing mount (.needs).  With common.conf's and
	 * userns.conf's lines, as a container that includes all three ...
	 */
	{ "lxc-nesting", GUEST_UID, prepare_lxc,
	  .warn_lines = 4,
	  .config = LXC_DEBIAN_AUTO LXC_NESTING(""),
	  .needs = LXC_NESTING_POINTS,
	  .fixed_by = "lxc-nesting-flags",
	  .fix = "lxc.mount.auto = cgroup:mixed proc:rw sys:mixed, and nosuid,nodev,noexec "
		 "added to nesting.conf's two lxc.mount.entry lines",
	  .argv = LXC_START },
	/* ... with the first fix only, so that nesting.conf's lines show ... */
	{ "lxc-proc-rw-sys-mixed-nesting", GUEST_UID, prepare_lxc,
	  .warn_lines = 2,
	  .config = LXC_FIXED_AUTO LXC_NESTING(""),
	  .needs = LXC_NESTING_POINTS,
	  .fixed_by = "lxc-nesting-flags",
	  .fix = "nosuid,nodev,noexec added to the options of nesting.conf's two "
		 "lxc.mount.entry lines",
	  .argv = LXC_START },
	/* ... and both fixed. */
	{ "lxc-nesting-flags", GUEST_UID, prepare_lxc,
	  .config = LXC_FIXED_AUTO LXC_NESTING(",nosuid,nodev,noexec"),
	  .needs = LXC_NESTING_POINTS,
	  .argv = LXC_START },
	/*
	 * runc and crun rootless (uid 1000, the one-id mapping that
	 * "spec --rootless" writes), with the bundle's config.json as the
	 * runtime generates it: runc 1.1 and crun 1.8 mount a fresh proc
	 * with no options ...
	 */
	{ "runc-spec-rootless", GUEST_UID, prepare_oci, .spec = OCI_GENERATED,
	  .warn_lines = 5,
	  .fixed_by = "runc-spec-rootless-proc-nosuid", .fix = PROC_FIX,
	  .argv = OCI_RUN(RUNC, "psmf-runc-gen") },
	{ "crun-spec-rootless", GUEST_UID, prepare_oci, .spec = OCI_GENERATED,
	  .warn_lines = 5,
	  .fixed_by = "runc-spec-rootless-proc-nosuid",
	  .fix = PROC_FIX ", and run it with runc (" CRUN_RO ")",
	  .argv = OCI_RUN(CRUN, "psmf-crun-gen") },
	/* ... with that mount given nosuid, noexec and nodev ... */
	{ "runc-spec-rootless-proc-nosuid", GUEST_UID, prepare_oci,
	  .spec = OCI_FIXED, .argv = OCI_RUN(RUNC, "psmf-runc-fix") },
	{ "crun-spec-rootless-proc-nosuid", GUEST_UID, prepare_oci,
	  .warn_lines = 4,
	  .spec = OCI_FIXED, .fixed_by = "runc-spec-rootless-proc-nosuid",
	  .fix = "run it with runc (" CRUN_RO ")",
	  .argv = OCI_RUN(CRUN, "psmf-crun-fix") },
	/*
	 * ... and with the proc and sysfs mounts of the specs Docker and
	 * Podman generate (moby oci/defaults.go, DefaultLinuxSpec(): proc
	 * "rw,nosuid,noexec,nodev", sysfs "ro,nosuid,noexec,nodev"; Podman
	 * 4 takes the same from runtime-tools generate.New() and keeps a
	 * fresh sysfs with --network=none), and the network namespace that
	 * a fresh sysfs needs, which both create.
	 */
	{ "runc-docker-mounts", GUEST_UID, prepare_oci, .spec = OCI_DOCKER,
	  .argv = OCI_RUN(RUNC, "psmf-runc-docker") },
	{ "crun-docker-mounts", GUEST_UID, prepare_oci, .spec = OCI_DOCKER,
	  .warn_lines = 4,
	  .fixed_by = "runc-docker-mounts",
	  .fix = "run it with runc: podman --runtime runc, or runtime = \"runc\" "
		 "in containers.conf (" CRUN_RO ")",
	  .argv = OCI_RUN(CRUN, "psmf-crun-docker") },
	/*
	 * Podman 4.3 rootless: the probe image imported from a tar, run with
	 * vfs storage and no network, with Debian's default runtime (crun)
	 * and with runc.
	 */
	{ "podman", GUEST_UID, prepare_podman, .timeout_s = 90, .version = PODMAN,
	  .warn_lines = 4,
	  .fixed_by = "podman-runtime-runc",
	  .fix = "runtime = \"runc\" in containers.conf, or podman --runtime runc (" CRUN_RO ")",
	  .argv = PODMAN_RUN("crun") },
	{ "podman-runtime-runc", GUEST_UID, prepare_podman, .timeout_s = 90,
	  .version = PODMAN,
	  .argv = PODMAN_RUN("runc") },
	/*
	 * libvirt-lxc: a container in a user namespace of its own (<idmap>,
	 * to the user's subordinate ids) with a private network namespace
	 * (<privnet/>) and the host's / as its root, as virt-sandbox and
	 * application containers run.  Without a network namespace of its
	 * own, libvirt 9.0 cannot start a container in a user namespace in
	 * any phase (it binds the host's /sys: EINVAL).
	 */
	{ "libvirt-lxc", 0, prepare_libvirt, .timeout_s = 60,
	  .version = "/usr/sbin/libvirtd", .argv = LIBVIRT_RUN },
	/*
	 * RootlessKit 1.1, which rootless Docker and nerdctl run to make
	 * their user namespace: with --pidns it mounts a fresh proc with no
	 * flags (pkg/child/child.go, mountProcfs()), retries read-only, and
	 * goes on with its parent's /proc if both are refused.  Without
	 * --pidns it mounts no proc (and with the default --net=host no
	 * sysfs).
	 */
	{ "rootlesskit-pidns", GUEST_UID,
	  .warn_lines = 1,
	  .fixed_by = "rootlesskit",
	  .fix = "leave out --pidns: the command then shares the host's pid namespace "
		 "and its /proc (a fix that keeps the pid namespace belongs in RootlessKit: "
		 "mount proc with MS_NOSUID|MS_NODEV|MS_NOEXEC)",
	  .argv = { ROOTLESSKIT, "--pidns", "/bin/psmf-probe", NULL } },
	{ "rootlesskit", GUEST_UID,
	  .argv = { ROOTLESSKIT, "/bin/psmf-probe", NULL } },
	/*
	 * util-linux mount(8) in "unshare -r -m": a shell recipe's first
	 * step into a user namespace, without and with the host's flags.
	 */
	{ "mount-proc", GUEST_UID, .version = MOUNT,
	  .warn_lines = 1,
	  .fixed_by = "mount-proc-nosuid-nodev-noexec",
	  .fix = "mount -t proc -o nosuid,nodev,noexec proc /proc",
	  .argv = MOUNT_IN_USERNS("-pf", "mount -t proc proc /proc") },
	{ "mount-proc-nosuid-nodev-noexec", GUEST_UID, .version = MOUNT,
	  .argv = MOUNT_IN_USERNS("-pf",
		"mount -t proc -o nosuid,nodev,noexec proc /proc") },
	{ "mount-sysfs", GUEST_UID, .version = MOUNT,
	  .warn_lines = 1,
	  .fixed_by = "mount-sysfs-nosuid-nodev-noexec",
	  .fix = "mount -t sysfs -o nosuid,nodev,noexec sysfs /sys",
	  .argv = MOUNT_IN_USERNS("-n", "mount -t sysfs sysfs /sys") },
	{ "mount-sysfs-nosuid-nodev-noexec", GUEST_UID, .version = MOUNT,
	  .argv = MOUNT_IN_USERNS("-n",
		"mount -t sysfs -o nosuid,nodev,noexec sysfs /sys") },
};

const int n_tools = ARRAY_SIZE(tools);

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
		 t->config);
	write_file(LXC_PATH "/psmf/config", config, 0644);
	chown_tree(LXC_PATH, GUEST_UID);
	chown_tree(LXC_ROOTFS, SUBID_FIRST);
}


/* Replace the one occurrence of @from in *@text by @to; die otherwise. */
static void replace_once(char **text, const char *from, const char *to)
{
	char *at = strstr(*text, from), *out;

	if (!at || strstr(at + 1, from)) {
		fprintf(stderr, "config.json: want exactly one '%s'\n", from);
		die("edit the OCI runtime's generated config.json");
	}
	if (asprintf(&out, "%.*s%s%s", (int)(at - *text), *text, to,
		     at + strlen(from)) < 0)
		die("asprintf");
	free(*text);
	*text = out;
}

/* The JSON object that contains @key, as a string of its own. */
static char *object_with(const char *text, const char *key)
{
	const char *at = strstr(text, key), *start, *end;

	if (!at || strstr(at + 1, key)) {
		fprintf(stderr, "config.json: want exactly one '%s'\n", key);
		die("edit the OCI runtime's generated config.json");
	}
	for (start = at; start > text && *start != '{'; start--)
		;
	end = strchr(at, '}');
	if (*start != '{' || !end)
		die("config.json: a mount object without its braces");
	return strndup(start, end - start + 1);
}

/* Replace the mount object whose destination is @dest by @to. */
static void replace_mount(char **text, const char *dest, const char *to)
{
	char key[64], *old;

	snprintf(key, sizeof(key), "\"destination\": \"%s\",", dest);
	old = object_with(*text, key);
	replace_once(text, old, to);
	free(old);
}

#define MOUNT_JSON(dest, type, options) \
	"{ \"destination\": \"" dest "\", \"type\": \"" type "\", " \
	"\"source\": \"" type "\", \"options\": [ " options " ] }"

/*
 * The runtime's own "spec --rootless", run as the user in the bundle,
 * then edited: no terminal (the output goes to a pipe), the probe as the
 * command, and the mounts of @t->spec.
 */
static void write_spec(const struct tool *t)
{
	pid_t pid = fork();
	char *json;
	int status, fd;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* Its output is the file; its errors go to the console. */
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		/* crun picks the spec's cgroup defaults from the cgroup fs. */
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL))
			_exit(125);
		if (setgroups(0, NULL) || setgid(GUEST_UID) ||
		    setuid(GUEST_UID) || chdir(OCI_BUNDLE))
			_exit(126);
		execl(t->argv[0], t->argv[0], "spec", "--rootless", (char *)NULL);
		_exit(127);
	}
	status = wait_child(pid);
	if (status) {
		fprintf(stderr, "%s spec --rootless: exit status %d\n",
			t->argv[0], status);
		errno = 0;
		die("generate the bundle's config.json");
	}
	json = read_file(OCI_BUNDLE "/config.json");
	replace_once(&json, "\"terminal\": true", "\"terminal\": false");
	replace_once(&json, "\"sh\"", "\"/bin/psmf-probe\"");
	if (t->spec == OCI_FIXED)
		replace_mount(&json, "/proc", MOUNT_JSON("/proc", "proc",
			      "\"nosuid\", \"noexec\", \"nodev\""));
	if (t->spec == OCI_DOCKER) {
		replace_mount(&json, "/proc", MOUNT_JSON("/proc", "proc",
			      "\"rw\", \"nosuid\", \"noexec\", \"nodev\""));
		replace_mount(&json, "/sys", MOUNT_JSON("/sys", "sysfs",
			      "\"ro\", \"nosuid\", \"noexec\", \"nodev\""));
		if (!strstr(json, "\"type\": \"network\""))
			replace_once(&json, "\"namespaces\": [",
				     "\"namespaces\": [ { \"type\": \"network\" },");
	}
	write_file(OCI_BUNDLE "/config.json", json, 0644);
	free(json);
}

/* A bundle with the probe as its whole root file system. */
static void prepare_oci(const struct tool *t)
{
	static const char *const dirs[] = { "", "/bundle", "/bundle/rootfs",
		"/bundle/rootfs/bin", "/bundle/rootfs/proc",
		"/bundle/rootfs/sys", "/bundle/rootfs/dev", NULL };

	make_dirs(OCI_DIR, dirs);
	copy_file("/bin/psmf-probe", OCI_BUNDLE "/rootfs/bin/psmf-probe", 0755);
	unlink(OCI_BUNDLE "/config.json");
	chown_tree(OCI_DIR, GUEST_UID);
	write_spec(t);
}

/*
 * Rootless podman's files, as a user would have them after a first run:
 * vfs storage (no fuse-overlayfs here), the cgroupfs manager and events
 * in a file (no systemd or journald).  Each run starts from empty
 * storage: the image is imported again.
 */
static void prepare_podman(const struct tool *t)
{
	static const char *const dirs[] = { "/.config", "/.config/containers",
		"/.local", "/.local/share", NULL };
	static const char *const tmp[] = { "/tmp", "/var", "/var/tmp",
		"/etc/containers", NULL };

	(void)t;
	make_dirs("", tmp);
	chmod("/tmp", 01777);
	chmod("/var/tmp", 01777);
	make_dirs("/home/user", dirs);
	write_file("/home/user/.config/containers/storage.conf",
		   "[storage]\ndriver = \"vfs\"\n", 0644);
	write_file("/home/user/.config/containers/containers.conf",
		   "[engine]\ncgroup_manager = \"cgroupfs\"\n"
		   "events_logger = \"file\"\n", 0644);
	write_file("/etc/containers/policy.json",
		   "{ \"default\": [ { \"type\": \"insecureAcceptAnything\" } ] }\n",
		   0644);
	chown_tree("/home/user", GUEST_UID);
}

/*
 * libvirtd's own config (no polkit here: root's socket needs no auth),
 * and the domain.  The probe's output file is the container root's,
 * which is the first subordinate id on the host.
 */
static void prepare_libvirt(const struct tool *t)
{
	static const char *const dirs[] = { "", "/out", NULL };
	char xml[1024];

	(void)t;
	make_dirs(LIBVIRT_DIR, dirs);
	unlink(LIBVIRT_OUT "/probe.txt");
	unlink(LIBVIRT_OUT "/status");
	if (chown(LIBVIRT_OUT, SUBID_FIRST, SUBID_FIRST))
		die("chown " LIBVIRT_OUT);
	/* the domain's life as libvirtd sees it, for a run that ends badly */
	write_file(LIBVIRT_DIR "/libvirtd.conf",
		   "auth_unix_rw = \"none\"\nauth_unix_ro = \"none\"\n"
		   "unix_sock_group = \"root\"\n"
		   "log_filters = \"1:lxc.lxc_process 1:lxc.lxc_monitor 1:rpc.netclient\"\n"
		   "log_outputs = \"1:file:" LIBVIRT_DIR "/libvirtd.log\"\n", 0644);
	snprintf(xml, sizeof(xml),
		 "<domain type='lxc'>\n"
		 "  <name>psmf</name>\n"
		 "  <memory unit='MiB'>64</memory>\n"
		 "  <os>\n"
		 "    <type>exe</type>\n"
		 "    <init>/bin/sh</init>\n"
		 "    <initarg>-c</initarg>\n"
		 "    <initarg>/bin/psmf-probe >" LIBVIRT_OUT "/probe.txt 2>&amp;1; "
		 "echo $? >" LIBVIRT_OUT "/status</initarg>\n"
		 "  </os>\n"
		 "  <idmap>\n"
		 "    <uid start='0' target='%d' count='%d'/>\n"
		 "    <gid start='0' target='%d' count='%d'/>\n"
		 "  </idmap>\n"
		 "  <features><privnet/></features>\n"
		 "  <devices><console type='pty'/></devices>\n"
		 "</domain>\n",
		 SUBID_FIRST, SUBID_COUNT, SUBID_FIRST, SUBID_COUNT);
	write_file(LIBVIRT_DIR "/psmf.xml", xml, 0644);
}
