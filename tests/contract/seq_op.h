/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One operation of a random sequence (issue "reliability"), as the guest
 * performs it (initramfs/sequences.c) and the host's model predicts it
 * (tests/runner/seq_model.c).  Both sides read and write it as one line
 * of text, so that the guest's record, the shrinker's replay file and a
 * reproducer are the same thing.
 *
 * The mounts a sequence sees, by index: SEQ_SLOTS mount points that start
 * empty, the host's /proc and the host's /sys.  The slots live under
 * SEQ_PARENTS parents, tmpfs mounts /seq/a and /seq/b that start as peers
 * (/seq/b is a bind of /seq/a once /seq/a is shared): slot i is /seq/a/i
 * or /seq/b/(i - 2), and its twin, the same place under the other parent,
 * is where a mount attached on it propagates to.
 */
#ifndef SEQ_OP_H
#define SEQ_OP_H

#include <stddef.h>

#define SEQ_SLOTS 4
#define SEQ_HOST_PROC SEQ_SLOTS		/* index of the host's /proc */
#define SEQ_HOST_SYS (SEQ_SLOTS + 1)	/* index of the host's /sys */
#define SEQ_MOUNTS (SEQ_SLOTS + 2)
#define SEQ_PARENTS 2
#define SEQ_PER_PARENT (SEQ_SLOTS / SEQ_PARENTS)
#define SEQ_MAX_DEPTH 3			/* user namespaces, counting the first */
/*
 * A bit of a sequence's host beside the F_* of its /proc and /sys: the
 * host also has a second proc, with no flags, attached after /proc.  Two
 * visible proc mounts with different locks are where the phases could
 * lend different locks; the model leaves such sequences to the
 * relations between the phases (tests/runner/relations.c).
 */
#define SEQ_HOST_TWIN 0x10
/* Operations per run unless PSMF_SEQ_OPS (runner --seq-ops) says */
#define SEQ_OPS_DEFAULT 100000

enum seq_kind {
	SQ_MOUNT,	/* mount(2) of a fresh fs on slot dst with flags */
	SQ_BIND,	/* MS_BIND [MS_REC] of src [its subdirectory] on dst */
	SQ_CLONE,	/* open_tree(OPEN_TREE_CLONE [AT_RECURSIVE]), move_mount */
	SQ_MOVE,	/* move_mount(2) of the mount on slot src to slot dst */
	SQ_UMOUNT,	/* umount2(slot dst, 0) */
	SQ_REMOUNT,	/* MS_REMOUNT with flags, on dst */
	SQ_BINDREMOUNT,	/* MS_REMOUNT | MS_BIND with flags, on dst */
	SQ_SETATTR,	/* mount_setattr(2) on dst: attr_set set, attr_clr clr */
	SQ_UNSHARE,	/* unshare(CLONE_NEWNS): a copy of the tree */
	SQ_NEST,	/* new user, mount, pid and net namespaces, and fork */
	SQ_RAISE,	/* the sysctl, written by a helper root of the host */
	SQ_PROP,	/* MS_PRIVATE, MS_SHARED or MS_SLAVE on parent dst */
	SQ_KINDS
};

struct seq_op {
	enum seq_kind kind;
	int fs;		/* SQ_MOUNT: 0 proc, 1 sysfs */
	int src, dst;	/* mount indices (see above) */
	int flags;	/* F_* of protocol.h */
	int set, clr;	/* SQ_SETATTR */
	int sub;	/* SQ_BIND, SQ_CLONE: a subdirectory of src */
	int rec;	/* SQ_BIND, SQ_CLONE, SQ_SETATTR: recursive */
	int phase;	/* SQ_RAISE: enum phase of spec.h */
	int prop;	/* SQ_PROP: enum seq_prop */
};

enum seq_prop { SEQ_PRIVATE, SEQ_SHARED, SEQ_SLAVE, SEQ_PROPS };

static inline int seq_parent_of(int slot)
{
	return slot / SEQ_PER_PARENT;
}

static inline int seq_twin(int slot)
{
	return (slot + SEQ_PER_PARENT) % SEQ_SLOTS;
}

extern const char *const seq_kind_name[SQ_KINDS];
extern const char *const seq_fs_name[2];
extern const char *const seq_prop_name[SEQ_PROPS];
extern const char *const seq_phase_name[];
extern const int seq_phases;

/* "mount proc 2 e", "bind 4 1 sub rec", ...; returns @buf. */
char *seq_op_format(const struct seq_op *op, char *buf, size_t len);
/* The reverse: 0, or -1 when @text is no operation. */
int seq_op_parse(const char *text, struct seq_op *op);
/*
 * A sequence's start record, "qs ID host=HOST[ phase=NAME]": 0, with
 * *@phase the phase the sysctl read at its start, or -1 where the record
 * does not say; -1 if @line is no start record or names no phase.
 */
int seq_start_parse(const char *line, int *id, int *host, int *phase);
/* A set of flags of every mount ("ee-6--": '-' is no mount) */
void seq_flags_format(const int *flags, char *buf);
int seq_flags_parse(const char *text, int *flags);
/*
 * Which of our parents propagates straight to the other, as mountinfo
 * shows it (shared:N, master:N): bit p for parent p.
 */
int seq_prop_bits(const int *shared, const int *master);

#endif
