// SPDX-License-Identifier: GPL-2.0
/*
 * The behaviour table, as code.  Each rule below cites its row:
 *
 *  R1 fresh mount that omits a locked flag: legacy allowed, warn allowed
 *     with one warning, enforce EPERM
 *  R2 fresh mount that keeps every locked flag: allowed, and under enforce
 *     the new mount inherits the locks
 *  R3 remount, bind remount or mount_setattr clearing nosuid, nodev or
 *     noexec on such a fresh mount: legacy allowed, warn warns, enforce EPERM
 *  R4 fresh read-write mount while the visible mount is read-only: EPERM
 *  R5 implicit (issue "a fourth phase, implicit"): a fresh mount, remount
 *     or bind remount that omits a locked flag is allowed, silently, and
 *     the flag lands anyway; a mount_setattr(2) that clears one
 *     explicitly is EPERM, as under enforce
 *
 * and two facts of Linux 6.1 that the table takes as given:
 *
 *  K1 a mount made over a read-only visible mount is locked read-only, so
 *     a change back to read-write is EPERM in every phase (MNT_LOCK_READONLY)
 *  K2 the sysfs superblock belongs to the initial user namespace, so
 *     MS_REMOUNT of sysfs from a user namespace is EPERM in every phase
 *
 * Modes are enum phase of spec.h.
 */
#include <string.h>

#include "model.h"
#include "../contract/spec.h"

#define EXEC (F_NOSUID | F_NODEV | F_NOEXEC)

const char *const model_op_name[MOP_COUNT] = {
	"mount", "fsmount", "remount", "bindremount", "setattr",
};

int model_op_index(const char *name)
{
	int i;

	for (i = 0; i < MOP_COUNT; i++)
		if (!strcmp(name, model_op_name[i]))
			return i;
	return -1;
}

/* R1, R3, R5: a change that leaves out locked exec flags, by phase. */
static struct model_out clearing(int mode, int cleared, int landed,
				 enum model_op op)
{
	struct model_out out = { .landed = landed };

	if (!cleared)
		return out;
	switch (mode) {
	case PHASE_WARN:
		out.cleared = cleared;
		break;
	case PHASE_IMPLICIT:
		if (op == MOP_SETATTR)
			out.err = "EPERM";
		out.landed |= cleared;
		break;
	case PHASE_ENFORCE:
		out.err = "EPERM";
		break;
	}
	return out;
}

struct model_out model(int mode, int visible, int requested, enum model_op op,
		       bool sysfs)
{
	struct model_out refused = { .err = "EPERM" };
	int cleared = visible & EXEC & ~requested;

	switch (op) {
	case MOP_MOUNT:
	case MOP_FSMOUNT:
		if ((visible & F_RO) && !(requested & F_RO))
			return refused;				/* R4 */
		return clearing(mode, cleared, requested, op);	/* R1, R2, R5 */
	case MOP_REMOUNT:
		if (sysfs)
			return refused;				/* K2 */
		/* fall through */
	case MOP_BIND_REMOUNT:
	case MOP_SETATTR:
		/* The fresh mount keeps every visible flag (R2): allowed. */
		if ((visible & F_RO) && !(requested & F_RO))
			return refused;				/* K1 */
		return clearing(mode, cleared, requested, op);	/* R3, R5 */
	default:
		return refused;
	}
}
