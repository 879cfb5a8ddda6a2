// SPDX-License-Identifier: GPL-2.0
/*
 * /usr/local/sbin/psmf-system: the checks of a booted Debian system
 * (tests/system/), started by psmf-system.service with systemd as PID 1.
 * It waits until the boot has finished, runs each row of its table the
 * way the tool's users start it, reports facts to the host on the second
 * serial port, and ends the boot at once with reboot(2), which QEMU's
 * -no-reboot turns into its exit.
 *
 * Rows of uid 1000 run in a login session of the unprivileged user
 * ("su -l user": PAM, logind, the user's systemd and D-Bus, a delegated
 * cgroup and XDG_RUNTIME_DIR); rows of uid 0 run as root from this
 * service.  The host judges every row against tests/system.md.
 *
 *   start <kernel release>
 *   system-os <VERSION_CODENAME> systemd=<its version, 0 if unread>
 *   system-phase <fs.proc_sysfs_mount_flags, as docs/distributions.md's
 *                after-boot lines (cat of /proc/sys/...) read it>
 *   system-failed <boot|after> <unit>|-|systemctl-failed   (systemctl --failed)
 *   tool <name> version=<package>=<Debian version> uid=<n> exit=<n> ms=<n>
 *   toolout <name> <line of its output>; a user's row's first is
 *           "psmf-session uid=<n>", its login session's
 *   toolneeds <name> <mount point[:super option]...>
 *   toolskip <name> <why>: not run, this release's systemd is too old
 *   kmsg <name> <kernel line>
 *   log-json <line>, log-dmesg <line>: after the rows, the kernel's log as
 *           docs/distributions.md has an operator save it for psmf-audit
 *           ("journalctl -k -o json", "dmesg"), line by line
 *   log-end json|dmesg exit=<n> lines=<n>
 *   end ok
 *
 * A boot whose command line has psmf.sysctl_d=PHASE checks a raise written
 * in /etc/sysctl.d/ instead of the rows: psmf-sysctl-d.service, ordered
 * before systemd-sysctl.service, runs "psmf-system --sysctl-d", which
 * runs docs/distributions.md's as-root blocks (DOC_AS_ROOT) with that
 * phase where the recipe says enforce, as an admin would have before the
 * boot; then this reports, besides the facts above,
 *   system-sysctl-d <the phase the file says>|absent
 *   system-sysctl-unit Result=<its Result>  (systemd-sysctl.service)
 *   system-sysctl-unit ExecMainStartTimestampMonotonic=<when it started>
 *   system-sysctl-writer ExecMainExitTimestampMonotonic=<when the file was>
 *   system-sysctl-writer ExecMainStatus=<the exit of the doc's lines>
 *   system-sysctl-log <a line of its journal>
 *   kmsg system <a VFS line of the kernel's log, from the boot on>
 *
 * A boot with psmf.grub=edit runs instead docs/distributions.md's step
 * that puts the boot parameter in GRUB's configuration (its "```sh
 * debian-grub" block, which tests/system/disk.sh put in DOC_GRUB) as root
 * with sh -eu, then the step back (debian-grub-undo), and reports
 *   grub-run exit=<n>, grub-undo-run exit=<n>
 *   grub-out <a line of their output>
 *   grub-linux <the arguments of a linux line of /boot/grub/grub.cfg>
 *   grub-undo-linux <the same, after the step back>
 * and the host then boots the arguments of the first such line, with
 * psmf.grub=boot, a boot that reports the facts above and
 *   grub-cmdline <the kernel's command line, /proc/cmdline>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "guest.h"
#include "toolrun.h"

#define PROBE "/usr/local/bin/psmf-probe"
/* Within the host's limit for the whole boot (4 x -Dtimeout, 720 s by default). */
#define ROW_TIMEOUT_MS 60000
#define BOOT_WAIT_MS 300000
#define PHASE_SYSCTL "/proc/sys/fs/proc_sysfs_mount_flags"
/* docs/distributions.md's recipe: the file and its line */
#define SYSCTL_D_FILE "/etc/sysctl.d/90-proc-sysfs-mount-flags.conf"
/* the words of its line that name the phase, "enforce" in the recipe */
#define SYSCTL_D_WORDS "fs.proc_sysfs_mount_flags = "
#define SYSCTL_D_RECIPE SYSCTL_D_WORDS "enforce"
#define SYSCTL_D_PARAM "psmf.sysctl_d="
#define GRUB_PARAM "psmf.grub="
/* docs/distributions.md's blocks that tests/system/disk.sh put in the image */
#define DOC_AS_ROOT "/usr/local/share/psmf/doc-as-root.sh"
#define DOC_AFTER_BOOT "/usr/local/share/psmf/doc-after-boot.sh"
#define DOC_GRUB "/usr/local/share/psmf/doc-debian-grub.sh"
#define DOC_GRUB_UNDO "/usr/local/share/psmf/doc-debian-grub-undo.sh"
/* the as-root blocks with the phase of psmf.sysctl_d= */
#define RUN_AS_ROOT "/run/psmf-doc-as-root.sh"
#define GRUB_CFG "/boot/grub/grub.cfg"
/* The first line of a login session (tests/runner/system.c looks for it). */
#define SESSION_MARK "psmf-session uid="

struct row {
	const char *name;
	uid_t uid;
	const char *package;	/* whose Debian version the record names */
	const char *needs;	/* toolneeds: the mounts the probe must see */
	const char *const argv[16];
	int min_systemd;	/* the systemd its directives need; older: skipped */
};

#define IN_USERNS(ns, cmd) { "/usr/bin/unshare", "-r", "-m", ns, "/bin/sh", \
	"-c", cmd " && exec " PROBE, NULL }
#define PODMAN_RUN(runtime) { "/bin/sh", "-c", \
	"podman import /srv/podman/image.tar psmf >/dev/null && exec podman " \
	runtime "run --rm --network=none psmf /bin/psmf-probe", NULL }
/*
 * An unprivileged LXC container as LXC's documentation has its users start
 * one under systemd: in a scope of the user's manager with the cgroup
 * delegated (tests/system/disk.sh makes the containers).
 */
#define LXC_START(name) { "/usr/bin/systemd-run", "--user", "--scope", \
	"--quiet", "-p", "Delegate=yes", "--", "/usr/bin/lxc-start", "-F", \
	"-P", "/srv/lxc", "-n", name, "--logpriority=ERROR", NULL }
/* A service sandboxed as systemd.exec(5) describes; PrivatePIDs= from 257 on. */
#define SANDBOX "-p", "PrivateUsers=yes", "-p", "ProtectProc=invisible", \
	"-p", "ProcSubset=pid"

static const struct row rows[] = {
	{ "systemd-run-sandbox", 0, "systemd", "/proc:hidepid=invisible /proc:subset=pid",
	  { "/usr/bin/systemd-run", "--wait", "--pipe", "--quiet", "--collect",
	    SANDBOX, PROBE, NULL }, 0 },
	/*
	 * PrivatePIDs= (257): the service is PID 1 of a pid namespace of its
	 * own, with a fresh proc, mounted from inside its user namespace.
	 */
	{ "systemd-run-private-pids", 0, "systemd", NULL,
	  { "/usr/bin/systemd-run", "--wait", "--pipe", "--quiet", "--collect",
	    "-p", "PrivateUsers=yes", "-p", "PrivatePIDs=yes", PROBE, NULL },
	  257 },
	{ "util-linux-unshare", GUEST_UID, "util-linux", NULL,
	  { "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--pid",
	    "--fork", "--mount-proc", PROBE, NULL }, 0 },
	{ "bubblewrap", GUEST_UID, "bubblewrap", NULL,
	  { "/usr/bin/bwrap", "--ro-bind", "/", "/", "--unshare-all", "--proc",
	    "/proc", "--dev", "/dev", PROBE, NULL }, 0 },
	{ "mount-proc", GUEST_UID, "mount", NULL,
	  IN_USERNS("-pf", "mount -t proc proc /proc"), 0 },
	{ "mount-proc-nosuid-nodev-noexec", GUEST_UID, "mount", NULL,
	  IN_USERNS("-pf", "mount -t proc -o nosuid,nodev,noexec proc /proc"), 0 },
	/* docs/distributions.md's way round util-linux 2.41's fsmount(2) */
	{ "mount-proc-force-mount2", GUEST_UID, "mount", NULL,
	  IN_USERNS("-pf", "LIBMOUNT_FORCE_MOUNT2=always mount -t proc -o nosuid,nodev,noexec proc /proc"), 0 },
	{ "mount-sysfs", GUEST_UID, "mount", NULL,
	  IN_USERNS("-n", "mount -t sysfs sysfs /sys"), 0 },
	{ "mount-sysfs-nosuid-nodev-noexec", GUEST_UID, "mount", NULL,
	  IN_USERNS("-n", "mount -t sysfs -o nosuid,nodev,noexec sysfs /sys"), 0 },
	{ "systemd-nspawn", 0, "systemd-container", NULL,
	  { "/usr/bin/systemd-nspawn", "--quiet", "--private-users=pick",
	    "--private-users-ownership=auto", "--console=pipe", "-D",
	    "/srv/nspawn", "/bin/psmf-probe", NULL }, 0 },
	{ "lxc", GUEST_UID, "lxc", NULL, LXC_START("psmf"), 0 },
	{ "lxc-proc-rw-sys-mixed", GUEST_UID, "lxc", NULL, LXC_START("psmf-fixed"), 0 },
	{ "podman", GUEST_UID, "podman", NULL, PODMAN_RUN(""), 0 },
	{ "podman-runtime-runc", GUEST_UID, "podman", NULL,
	  PODMAN_RUN("--runtime runc "), 0 },
};

/* What spawn() starts: @argv, as @uid. */
struct spawning {
	uid_t uid;
	const char *const *argv;
};

/*
 * Root's rows as they are; the user's in a login session of theirs:
 * "su -l -c 'exec "$0" "$@"' -- user ARGV..." keeps every word of ARGV
 * (after "--", su takes none of them for an option of its own).  The
 * session says first that it started, and as whom: a row whose session
 * failed must not pass for a tool that failed.
 */
static pid_t spawn(const void *ctx, int out)
{
	const struct spawning *sp = ctx;
	const char *argv[40] = { "/usr/bin/su", "-l", "-c",
				 "echo \"" SESSION_MARK "$(id -u)\"; exec \"$0\" \"$@\"",
				 "--", "user" };
	int i, n = 6;
	pid_t pid = fork();

	if (pid)
		return pid;
	dup2(out, 1);
	dup2(out, 2);
	for (i = 0; sp->argv[i] && n < 39; i++)
		argv[n++] = sp->argv[i];
	argv[n] = NULL;
	execv(sp->uid ? argv[0] : sp->argv[0],
	      (char *const *)(sp->uid ? argv : (const char **)sp->argv));
	dprintf(1, "exec %s: %s\n", sp->uid ? argv[0] : sp->argv[0], strerror(errno));
	_exit(127);
}

static struct captured output;

/* Run @argv as root, its output into output; its exit status. */
static int run_root(const char *const *argv, long timeout_ms)
{
	struct spawning sp = { 0, argv };

	return run_captured(spawn, &sp, timeout_ms, &output);
}

/* The Debian version of @package, as "package=version", in @buf. */
static const char *package_version(const char *package, char *buf, size_t len)
{
	const char *argv[] = { "/usr/bin/dpkg-query", "-W", "-f", "${Version}\n",
			       package, NULL };

	if (run_root(argv, 20000) || !output.n)
		snprintf(buf, len, "%s=missing", package);
	else
		snprintf(buf, len, "%.40s=%.80s", package, output.line[0]);
	return buf;
}

/* `systemctl --failed`'s units, one record each, or "-" for none. */
static void report_failed(const char *when)
{
	const char *argv[] = { "/usr/bin/systemctl", "--failed", "--plain",
			       "--no-legend", "--no-pager", NULL };
	int i, status = run_root(argv, 30000);

	for (i = 0; i < output.n; i++)
		report("system-failed %s %.*s\n", when,
		       (int)strcspn(output.line[i], " "), output.line[i]);
	if (status || !output.n)
		report("system-failed %s %s\n", when, status ? "systemctl-failed" : "-");
}

/*
 * os-release's codename, systemd's version, the phase as /proc/sys has it;
 * returns systemd's version (0 if unread).
 */
static int report_system(void)
{
	const char *version[] = { "/usr/bin/systemctl", "--version", NULL };
	const char *cat[] = { "/bin/sh", "-eu", DOC_AFTER_BOOT, NULL };
	char line[256], codename[64] = "unknown", phase[32] = "unreadable";
	int systemd;
	FILE *f = fopen("/etc/os-release", "r");

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "VERSION_CODENAME=%63s", codename);
	if (f)
		fclose(f);
	run_root(version, 20000);
	if (!output.n || sscanf(output.line[0], "systemd %d", &systemd) != 1)
		systemd = 0;
	report("system-os %s systemd=%d\n", codename, systemd);
	/* docs/distributions.md's after-boot lines: cat of the sysctl */
	if (run_root(cat, 20000) || output.n != 1 ||
	    sscanf(output.line[0], "%31s", phase) != 1)
		snprintf(phase, sizeof(phase), "unreadable");
	report("system-phase %s\n", phase);
	return systemd;
}

/*
 * The value of @param ("psmf.sysctl_d=") on the kernel's command line, in
 * @buf: the last such word, as systemd reads the command line.  NULL if
 * the boot has none; "" if its value is not a word of lowercase letters.
 */
/* The kernel's command line, without its line end, in @buf ("" if unread). */
static char *read_cmdline(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f || !fgets(buf, len, f))
		buf[0] = 0;
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static const char *cmdline_param(const char *param, char *buf, size_t len)
{
	char line[4096], *word, *save;
	const char *found = NULL;
	size_t n = strlen(param);

	read_cmdline(line, sizeof(line));
	for (word = strtok_r(line, " \n", &save); word; word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, param, n))
			continue;
		word += n;
		found = buf;
		snprintf(buf, len, "%s", *word && strlen(word) < len &&
			 strspn(word, "abcdefghijklmnopqrstuvwxyz") == strlen(word) ? word : "");
	}
	return found;
}

/*
 * psmf-system --sysctl-d: docs/distributions.md's as-root blocks, before
 * systemd-sysctl reads /etc/sysctl.d/, as an admin would have run them
 * before the boot, with psmf.sysctl_d='s phase where the recipe has
 * enforce; run by sh -eu in place of this program.
 */
static int write_sysctl_d(void)
{
	char phase[32], doc[4096], *at;
	size_t n;
	FILE *f;
	int bad;

	if (!cmdline_param(SYSCTL_D_PARAM, phase, sizeof(phase)))
		return 0;
	if (!phase[0]) {
		fprintf(stderr, "psmf-system: " SYSCTL_D_PARAM " wants a phase in lowercase letters\n");
		return 1;
	}
	f = fopen(DOC_AS_ROOT, "r");
	if (!f) {
		perror(DOC_AS_ROOT);
		return 1;
	}
	n = fread(doc, 1, sizeof(doc) - 1, f);
	bad = ferror(f) || !feof(f);	/* unreadable, or too long to hold */
	fclose(f);
	doc[n] = 0;
	at = strstr(doc, SYSCTL_D_RECIPE);
	if (bad || !at || strstr(at + 1, SYSCTL_D_RECIPE)) {
		fprintf(stderr, "psmf-system: " DOC_AS_ROOT " must say '" SYSCTL_D_RECIPE "' once\n");
		return 1;
	}
	f = fopen(RUN_AS_ROOT, "w");
	bad = !f || fprintf(f, "%.*s" SYSCTL_D_WORDS "%s%s", (int)(at - doc), doc, phase,
			    at + strlen(SYSCTL_D_RECIPE)) < 0;
	if ((f && fclose(f)) || bad) {
		perror(RUN_AS_ROOT);
		return 1;
	}
	execl("/bin/sh", "sh", "-eu", RUN_AS_ROOT, (char *)NULL);
	perror("/bin/sh");
	return 1;
}

/* What systemd-sysctl made of the file, and what the kernel said. */
static void report_sysctl_d(void)
{
	/* Whether systemd-sysctl ran, and after the file was written */
	const char *state[] = { "/usr/bin/systemctl", "show", "-p", "Result",
				"-p", "ExecMainStartTimestampMonotonic",
				"systemd-sysctl.service", NULL };
	const char *writer[] = { "/usr/bin/systemctl", "show", "-p",
				 "ExecMainExitTimestampMonotonic", "-p", "ExecMainStatus",
				 "psmf-sysctl-d.service", NULL };
	/*
	 * By its identifier, not -u: it logs before journald reads the
	 * socket, when its cgroup, which names the unit, is gone.
	 */
	const char *journal[] = { "/usr/bin/journalctl", "-b", "--no-pager",
				  "-o", "cat", "-t", "systemd-sysctl", NULL };
	char line[256], phase[32] = "absent";
	FILE *f = fopen(SYSCTL_D_FILE, "r");
	int i;

	if (f && (!fgets(line, sizeof(line), f) ||
		  sscanf(line, "fs.proc_sysfs_mount_flags = %31s", phase) != 1))
		snprintf(phase, sizeof(phase), "unreadable");
	if (f)
		fclose(f);
	report("system-sysctl-d %s\n", phase);
	run_root(state, 20000);
	for (i = 0; i < output.n; i++)
		report("system-sysctl-unit %s\n", output.line[i]);
	run_root(writer, 20000);
	for (i = 0; i < output.n; i++)
		report("system-sysctl-writer %s\n", output.line[i]);
	run_root(journal, 20000);
	for (i = 0; i < output.n; i++)
		report("system-sysctl-log %s\n", output.line[i]);
	kmsg_forward_boot("system", "VFS: ");
}

/*
 * docs/distributions.md's commands that save a host's kernel log for
 * psmf-audit, run as its operator runs them, as root.
 */
static const struct {
	const char *form;
	const char *const argv[5];
} log_commands[] = {
	{ "json", { "/usr/bin/journalctl", "-k", "-o", "json", NULL } },
	{ "dmesg", { "/usr/bin/dmesg", NULL } },
};

/*
 * Each line @argv prints, as a log-@form record, however long (a
 * journal entry is longer than run_captured() keeps), then its status.
 */
static void report_log(const char *form, const char *const *argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int fd[2], status = -1, lines = 0;
	FILE *in;
	pid_t pid;

	if (pipe(fd)) {
		report("log-end %s exit=-1 lines=0\n", form);
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	in = fdopen(fd[0], "r");
	while (in && (len = getline(&line, &cap, in)) > 0) {
		report("log-%s %.*s\n", form, (int)(len - (line[len - 1] == '\n')), line);
		lines++;
	}
	free(line);
	if (in)
		fclose(in);
	else
		close(fd[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	report("log-end %s exit=%d lines=%d\n", form, status, lines);
}

/* Each linux line of grub.cfg: its arguments after the image's path. */
static void report_linux_lines(const char *record)
{
	char line[4096], first[64], image[1024];
	FILE *f = fopen(GRUB_CFG, "r");
	int off;

	if (!f)
		report("grub-out " GRUB_CFG ": %s\n", strerror(errno));
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		off = 0;
		if (sscanf(line, " %63s %1023s %n", first, image, &off) == 2 &&
		    !strcmp(first, "linux"))
			report("%s %s\n", record, off ? line + off : "");
	}
	if (f)
		fclose(f);
}

/* Run documented step @path as root with sh -eu; its status and output. */
static void run_doc_step(const char *path, const char *record)
{
	const char *step[] = { "/bin/sh", "-eu", path, NULL };
	int status = run_root(step, 120000), i;

	report("%s exit=%d\n", record, status);
	for (i = 0; i < output.n; i++)
		report("grub-out %s\n", output.line[i]);
}

/* psmf.grub=edit: the documented step and the entries it made; then back. */
static void grub_edit(void)
{
	run_doc_step(DOC_GRUB, "grub-run");
	report_linux_lines("grub-linux");
	run_doc_step(DOC_GRUB_UNDO, "grub-undo-run");
	report_linux_lines("grub-undo-linux");
}

/* The kernel's log, saved as an operator saves it, once journald has it all. */
static void report_logs(void)
{
	const char *sync[] = { "/usr/bin/journalctl", "--sync", NULL };
	size_t i;

	run_root(sync, 30000);
	for (i = 0; i < ARRAY_SIZE(log_commands); i++)
		report_log(log_commands[i].form, log_commands[i].argv);
}

/* psmf.grub=boot: the command line GRUB's entry gave. */
static void grub_boot(void)
{
	char line[4096];

	report("grub-cmdline %s\n", read_cmdline(line, sizeof(line)));
}

/* psmf.grub=@step: edit, or boot; another word is refused. */
static void grub_step(const char *step)
{
	if (!strcmp(step, "edit"))
		grub_edit();
	else if (!strcmp(step, "boot"))
		grub_boot();
	else
		report("grub-out " GRUB_PARAM "%s: no such step (edit, boot)\n", step);
}

static void run_row(const struct row *r, int systemd)
{
	struct spawning sp = { r->uid, r->argv };
	char version[160];
	long start;
	int kmsg, status, j;

	package_version(r->package, version, sizeof(version));
	if (systemd < r->min_systemd) {
		report("tool %s version=%s uid=%d exit=0 ms=0\n", r->name, version,
		       (int)r->uid);
		report("toolskip %s systemd %d, the row needs %d\n", r->name,
		       systemd, r->min_systemd);
		return;
	}
	pace_warnings(RATELIMIT_BURST);
	kmsg = kmsg_open_at_end();
	start = now_ms();
	status = run_captured(spawn, &sp, ROW_TIMEOUT_MS, &output);
	report("tool %s version=%s uid=%d exit=%d ms=%ld\n", r->name, version,
	       (int)r->uid, status, now_ms() - start);
	for (j = 0; j < output.n; j++)
		report("toolout %s %s\n", r->name, output.line[j]);
	if (r->needs)
		report("toolneeds %s %s\n", r->name, r->needs);
	kmsg_forward(kmsg, r->name, count_warnings);
	close(kmsg);
}

/*
 * End the boot at once.  QEMU runs with -no-reboot, so a reboot ends it
 * (the guest has no ACPI to power off).  Nothing is left for an orderly
 * shutdown to save: the records are out on the serial port once drained,
 * and the disk is a snapshot QEMU throws away.  Stopping the units would
 * take some twenty seconds of every boot under TCG.
 */
static void end_boot(void)
{
	const char *off[] = { "/usr/bin/systemctl", "reboot", NULL };

	fflush(results);
	tcdrain(fileno(results));
	sync();
	reboot(RB_AUTOBOOT);
	perror("psmf-system: reboot(2); asking systemd instead");
	run_root(off, 60000);
}

int main(int argc, char **argv)
{
	const char *wait[] = { "/usr/bin/systemctl", "is-system-running", "--wait", NULL };
	struct utsname u;
	char phase[32] = "", step[32] = "";
	bool sysctl_d, grub;
	int systemd;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--sysctl-d"))
		return write_sysctl_d();
	report_open();
	uname(&u);
	report("start %s\n", u.release);
	/* "running" or "degraded": either way the boot's jobs are done. */
	run_root(wait, BOOT_WAIT_MS);
	systemd = report_system();
	report_failed("boot");
	/* A boot for /etc/sysctl.d/ or for GRUB checks that alone. */
	sysctl_d = cmdline_param(SYSCTL_D_PARAM, phase, sizeof(phase)) != NULL;
	grub = cmdline_param(GRUB_PARAM, step, sizeof(step)) != NULL;
	if (sysctl_d)
		report_sysctl_d();
	else if (grub)
		grub_step(step);
	else
		for (i = 0; i < ARRAY_SIZE(rows); i++)
			run_row(&rows[i], systemd);
	/* What the rows started has settled (the user's manager, say). */
	run_root(wait, BOOT_WAIT_MS);
	report_failed("after");
	if (!sysctl_d && !grub)
		report_logs();
	report("end ok\n");
	end_boot();
	return 0;
}
