/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest and the host agree on beside the records (results.c) and
 * the steps (steps.h): the mount flags as the records and the spec write
 * them, the operations under test that the scenarios (scenarios.h) name,
 * and the series' warning line with its rate limit.  Included by
 * both sides, so that neither can drift from the other.
 */
#ifndef PROTOCOL_H
#define PROTOCOL_H

/* Mount flags as the records and the spec write them, in this order. */
enum {
	F_RO = 1 << 0,
	F_NOSUID = 1 << 1,
	F_NODEV = 1 << 2,
	F_NOEXEC = 1 << 3,
};

#define F_EXEC (F_NOSUID | F_NODEV | F_NOEXEC)
#define F_ALL (F_RO | F_EXEC)

/*
 * The operations under test, which the scenarios name (the guest's
 * initramfs/ops.c holds their table).  The first N_MODEL_OPS are those
 * the runner's model (tests/runner/model.c) predicts, exhaustively and
 * under stress; the rest appear in the matrix only.
 */
enum op {
	OP_MOUNT,		/* fresh mount(2) */
	OP_FSMOUNT,		/* fsopen, fsconfig, fsmount, move_mount */
	OP_REMOUNT,		/* fresh mount, then MS_REMOUNT */
	OP_BIND_REMOUNT,	/* fresh mount, then MS_REMOUNT | MS_BIND */
	OP_SETATTR,		/* fresh mount, then mount_setattr(2) */
	OP_HOST_BIND_REMOUNT,	/* bind the host's mount, MS_REMOUNT|MS_BIND */
	OP_HOST_CLONE_SETATTR,	/* open_tree(OPEN_TREE_CLONE), mount_setattr */
	OP_SYSCTL,		/* write fs.proc_sysfs_mount_flags */
	N_OPS
};
#define N_MODEL_OPS (OP_SETATTR + 1)

/* A fresh mount, then a change of its flags. */
static inline int is_change_op(enum op op)
{
	return op == OP_REMOUNT || op == OP_BIND_REMOUNT || op == OP_SETATTR;
}

/*
 * The series' warning line starts so (mnt_warn_cleared(), patch 2), and
 * so does the sysctl's notice of a raise (patch 7), which says this.
 */
#define WARNING_PREFIX "VFS: process '"
#define RAISE_NOTICE "raised the proc and sysfs mount flags phase "

/*
 * What the rate limits suppressed (mnt_warn_report(), patch 14): a user
 * namespace's, SUPPRESSED_PREFIX "INODE] had N" SUPPRESSED_END, and the
 * ceiling's, "VFS: N" SUPPRESSED_END SUPPRESSED_ALL.
 */
#define SUPPRESSED_PREFIX "VFS: user:["
#define SUPPRESSED_END " more warnings of proc and sysfs mount flags suppressed"
#define SUPPRESSED_ALL " in all user namespaces"

/*
 * Its rate limit, one per user namespace since patch 14: at most
 * RATELIMIT_BURST lines in a window of RATELIMIT_MS; and for all
 * namespaces together at most RATELIMIT_CEILING lines in that window.
 */
#define RATELIMIT_CEILING 100
#define RATELIMIT_BURST 10
#define RATELIMIT_MS 5000

#endif
