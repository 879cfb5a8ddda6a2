/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference model of the behaviour table (issue "three-phase Kconfig
 * choice"), written from the table and not from the kernel code: given the
 * phase, the flags of the visible mount, the requested flags, the
 * operation and the filesystem, what must happen.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdbool.h>

enum model_op {
	MOP_MOUNT,		/* fresh mount(2) */
	MOP_FSMOUNT,		/* fsopen/fsconfig/fsmount/move_mount */
	MOP_REMOUNT,		/* fresh mount with the visible flags, MS_REMOUNT */
	MOP_BIND_REMOUNT,	/* ... MS_REMOUNT | MS_BIND */
	MOP_SETATTR,		/* ... mount_setattr(2) */
	MOP_COUNT
};

struct model_out {
	const char *err;	/* NULL: allowed, else the errno's name */
	int landed;		/* F_* flags the mount carries when allowed */
	int cleared;		/* locked exec flags cleared: a warning is due */
};

extern const char *const model_op_name[MOP_COUNT];

int model_op_index(const char *name);
struct model_out model(int mode, int visible, int requested, enum model_op op,
		       bool sysfs);

#endif
