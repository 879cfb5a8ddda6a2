// SPDX-License-Identifier: GPL-2.0
/*
 * The operations under test, one table: the matrix, the exhaustive and
 * the stress steps all perform them through do_op(), on /mnt/t (and a
 * bind of a subdirectory on /mnt/b).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest.h"

#define TARGET "/mnt/t"
#define SUB_TARGET "/mnt/b"

int fresh_mount(const char *fs, const char *target, int f)
{
	return mount(fs, target, fs, ms_flags(f), NULL);
}

static int fs_mount_api(const char *fs, const char *target, int f)
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

static const char *subdir(const char *fs)
{
	return strcmp(fs, "proc") ? TARGET "/kernel" : TARGET "/sys";
}

static const char *host_mount(const char *fs)
{
	return strcmp(fs, "proc") ? "/sys" : "/proc";
}

static int op_mount(const struct op_req *r, const char **where)
{
	*where = TARGET;
	return fresh_mount(r->fs, TARGET, r->flags);
}

static int op_fsmount(const struct op_req *r, const char **where)
{
	*where = TARGET;
	return fs_mount_api(r->fs, TARGET, r->flags);
}

/*
 * A fresh mount with the visible flags (on a bind of a subdirectory if
 * asked), then whatever @r->between does (a raise of the phase), then the
 * caller's change of the flags.  Set-up is not under test: it dies, unless
 * @r->tolerant (under fault injection), when it fails as the operation.
 */
static int change_setup(const struct op_req *r, const char **where)
{
	*where = TARGET;
	if (fresh_mount(r->fs, TARGET, r->visible)) {
		if (r->tolerant)
			return -1;
		die("fresh mount before the change");
	}
	if (r->sub) {
		if (mount(subdir(r->fs), SUB_TARGET, NULL, MS_BIND, NULL)) {
			if (r->tolerant)
				return -1;
			die("bind of a subdirectory");
		}
		*where = SUB_TARGET;
	}
	if (r->between)
		r->between(r->ctx);
	return 0;
}

static int op_remount(const struct op_req *r, const char **where)
{
	if (change_setup(r, where))
		return -1;
	return mount(NULL, *where, NULL, MS_REMOUNT | ms_flags(r->flags), NULL);
}

static int bind_remount(const char *target, int f)
{
	return mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | ms_flags(f),
		     NULL);
}

static int op_bind_remount(const struct op_req *r, const char **where)
{
	if (change_setup(r, where))
		return -1;
	return bind_remount(*where, r->flags);
}

static int op_setattr(const struct op_req *r, const char **where)
{
	if (change_setup(r, where))
		return -1;
	return setattr_to(AT_FDCWD, *where, 0, r->flags);
}

static int op_host_bind_remount(const struct op_req *r, const char **where)
{
	*where = TARGET;
	if (mount(host_mount(r->fs), TARGET, NULL, MS_BIND, NULL))
		die("bind of the host's mount");
	return bind_remount(TARGET, r->flags);
}

static int op_host_clone_setattr(const struct op_req *r, const char **where)
{
	int fd, ret;

	*where = TARGET;
	fd = open_tree(AT_FDCWD, host_mount(r->fs),
		       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd < 0)
		die("open_tree(OPEN_TREE_CLONE)");
	ret = setattr_to(fd, "", AT_EMPTY_PATH, r->flags);
	if (!ret && move_mount(fd, "", AT_FDCWD, TARGET,
			       MOVE_MOUNT_F_EMPTY_PATH))
		die("move_mount of the clone");
	close(fd);
	return ret;
}

static int op_sysctl(const struct op_req *r, const char **where)
{
	*where = TARGET;
	errno = sysctl_write(r->value);
	return errno ? -1 : 0;
}

/*
 * @name is the operation as the results and tests/runner/model.c name it;
 * @kernel as the kernel's warning names it.
 */
static const struct {
	const char *name, *kernel;
	int (*run)(const struct op_req *r, const char **where);
} ops[] = {
	[OP_MOUNT] = { "mount", "mount", op_mount },
	[OP_FSMOUNT] = { "fsmount", "fsmount", op_fsmount },
	[OP_REMOUNT] = { "remount", "remount", op_remount },
	[OP_BIND_REMOUNT] = { "bindremount", "remount", op_bind_remount },
	[OP_SETATTR] = { "setattr", "setattr", op_setattr },
	[OP_HOST_BIND_REMOUNT] = { "hostbindremount", "remount",
				   op_host_bind_remount },
	[OP_HOST_CLONE_SETATTR] = { "hostclonesetattr", "setattr",
				    op_host_clone_setattr },
	[OP_SYSCTL] = { "sysctl", "sysctl", op_sysctl },
};

_Static_assert(ARRAY_SIZE(ops) == N_OPS, "one row per op");

int do_op(enum op op, const struct op_req *r, const char **where)
{
	if ((unsigned int)op >= N_OPS)
		return EINVAL;
	return ops[op].run(r, where) ? errno : 0;
}

/* Unmount what do_op() left: @where, and the mount under it. */
void undo_op(enum op op, int err, const char *where)
{
	if (!strcmp(where, SUB_TARGET) && umount2(SUB_TARGET, MNT_DETACH))
		die("umount " SUB_TARGET);
	if ((!err || is_change_op(op)) && umount2(TARGET, MNT_DETACH))
		die("umount " TARGET);
}

/*
 * Under fault injection: unmount whatever is left on the targets, however
 * far the operation got, trying again when the unmount itself fails.
 */
void undo_all(void)
{
	static const char *const targets[] = { SUB_TARGET, TARGET };
	size_t t;
	int i;

	for (t = 0; t < ARRAY_SIZE(targets); t++)
		for (i = 0; i < RETRIES; i++)
			if (umount2(targets[t], MNT_DETACH)) {
				if (errno == EINVAL)
					break;	/* nothing (more) mounted */
				if (!transient(errno))
					die("umount after a failed operation");
			}
}

const char *op_name(enum op op)
{
	return ops[op].name;
}

const char *op_kernel_name(enum op op)
{
	return ops[op].kernel;
}
