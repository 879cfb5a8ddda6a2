// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a sequence operation (seq_op.h), written and read by both
 * the guest and the host.
 */
#include <stdio.h>
#include <string.h>

#include "phases.h"
#include "seq_op.h"

const char *const seq_kind_name[SQ_KINDS] = {
	"mount", "bind", "clone", "move", "umount", "remount",
	"bindremount", "setattr", "unshare", "nest", "raise", "prop",
};

const char *const seq_fs_name[2] = { "proc", "sysfs" };
const char *const seq_prop_name[SEQ_PROPS] = { "private", "shared", "slave" };

#define SEQ_PHASE_NAME(e, name) name,
const char *const seq_phase_name[] = { PHASES(SEQ_PHASE_NAME) };
const int seq_phases = sizeof(seq_phase_name) / sizeof(seq_phase_name[0]);

char *seq_op_format(const struct seq_op *op, char *buf, size_t len)
{
	const char *name = seq_kind_name[op->kind];

	switch (op->kind) {
	case SQ_MOUNT:
		snprintf(buf, len, "%s %s %d %x", name, seq_fs_name[op->fs],
			 op->dst, op->flags);
		break;
	case SQ_BIND:
	case SQ_CLONE:
		snprintf(buf, len, "%s %d %d %s %s", name, op->src, op->dst,
			 op->sub ? "sub" : "root", op->rec ? "rec" : "one");
		break;
	case SQ_MOVE:
		snprintf(buf, len, "%s %d %d", name, op->src, op->dst);
		break;
	case SQ_UMOUNT:
		snprintf(buf, len, "%s %d", name, op->dst);
		break;
	case SQ_REMOUNT:
	case SQ_BINDREMOUNT:
		snprintf(buf, len, "%s %d %x", name, op->dst, op->flags);
		break;
	case SQ_SETATTR:
		snprintf(buf, len, "%s %d %x %x %s", name, op->dst, op->set,
			 op->clr, op->rec ? "rec" : "one");
		break;
	case SQ_RAISE:
		snprintf(buf, len, "%s %s", name, seq_phase_name[op->phase]);
		break;
	case SQ_PROP:
		snprintf(buf, len, "%s %d %s", name, op->dst,
			 seq_prop_name[op->prop]);
		break;
	default:
		snprintf(buf, len, "%s", name);
	}
	return buf;
}

static int index_ok(int i)
{
	return i >= 0 && i < SEQ_MOUNTS;
}

static int slot_ok(int i)
{
	return i >= 0 && i < SEQ_SLOTS;
}

static int parse_args(const char *args, struct seq_op *op)
{
	char a[16] = "", b[16] = "";
	unsigned int x, y;

	switch (op->kind) {
	case SQ_MOUNT:
		if (sscanf(args, "%15s %d %x", a, &op->dst, &x) != 3)
			return -1;
		op->fs = !strcmp(a, "sysfs");
		op->flags = x;
		return (op->fs || !strcmp(a, "proc")) && slot_ok(op->dst) &&
		       x < 16 ? 0 : -1;
	case SQ_BIND:
	case SQ_CLONE:
		if (sscanf(args, "%d %d %15s %15s", &op->src, &op->dst, a, b) != 4)
			return -1;
		op->sub = !strcmp(a, "sub");
		op->rec = !strcmp(b, "rec");
		return index_ok(op->src) && slot_ok(op->dst) ? 0 : -1;
	case SQ_MOVE:
		if (sscanf(args, "%d %d", &op->src, &op->dst) != 2)
			return -1;
		return slot_ok(op->src) && slot_ok(op->dst) ? 0 : -1;
	case SQ_UMOUNT:
		return sscanf(args, "%d", &op->dst) == 1 && slot_ok(op->dst) ?
		       0 : -1;
	case SQ_REMOUNT:
	case SQ_BINDREMOUNT:
		if (sscanf(args, "%d %x", &op->dst, &x) != 2)
			return -1;
		op->flags = x;
		return index_ok(op->dst) && x < 16 ? 0 : -1;
	case SQ_SETATTR:
		if (sscanf(args, "%d %x %x %15s", &op->dst, &x, &y, b) != 4)
			return -1;
		op->set = x;
		op->clr = y;
		op->rec = !strcmp(b, "rec");
		return index_ok(op->dst) && x < 16 && y < 16 && !(x & y) ?
		       0 : -1;
	case SQ_RAISE:
		if (sscanf(args, "%15s", a) != 1)
			return -1;
		for (op->phase = 0; op->phase < seq_phases; op->phase++)
			if (!strcmp(a, seq_phase_name[op->phase]))
				return 0;
		return -1;
	case SQ_PROP:
		if (sscanf(args, "%d %15s", &op->dst, a) != 2 ||
		    op->dst < 0 || op->dst >= SEQ_PARENTS)
			return -1;
		for (op->prop = 0; op->prop < SEQ_PROPS; op->prop++)
			if (!strcmp(a, seq_prop_name[op->prop]))
				return 0;
		return -1;
	default:
		return 0;
	}
}

int seq_start_parse(const char *line, int *id, int *host, int *phase)
{
	char name[32];
	int off = 0;

	if (sscanf(line, "qs %d host=%x%n", id, host, &off) != 2 || !off)
		return -1;
	*phase = -1;
	if (strspn(line + off, " \n") == strlen(line + off))
		return 0;
	if (sscanf(line + off, " phase=%31s", name) != 1)
		return -1;
	for (*phase = 0; *phase < seq_phases; (*phase)++)
		if (!strcmp(name, seq_phase_name[*phase]))
			return 0;
	return -1;
}

int seq_op_parse(const char *text, struct seq_op *op)
{
	size_t len = strcspn(text, " \n");
	int k;

	memset(op, 0, sizeof(*op));
	for (k = 0; k < SQ_KINDS; k++)
		if (strlen(seq_kind_name[k]) == len &&
		    !strncmp(text, seq_kind_name[k], len))
			break;
	if (k == SQ_KINDS)
		return -1;
	op->kind = k;
	return parse_args(text + len, op);
}

void seq_flags_format(const int *flags, char *buf)
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++)
		buf[i] = flags[i] < 0 ? '-' : "0123456789abcdef"[flags[i] & 15];
	buf[SEQ_MOUNTS] = 0;
}

int seq_flags_parse(const char *text, int *flags)
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++) {
		char c = text[i];

		if (c == '-')
			flags[i] = -1;
		else if (c >= '0' && c <= '9')
			flags[i] = c - '0';
		else if (c >= 'a' && c <= 'f')
			flags[i] = c - 'a' + 10;
		else
			return -1;
	}
	return text[SEQ_MOUNTS] && text[SEQ_MOUNTS] != ' ' &&
	       text[SEQ_MOUNTS] != '\n' ? -1 : 0;
}

int seq_prop_bits(const int *shared, const int *master)
{
	int p, bits = 0;

	for (p = 0; p < SEQ_PARENTS; p++) {
		int q = (p + 1) % SEQ_PARENTS;

		if (shared[p] && (shared[q] == shared[p] ||
				  master[q] == shared[p]))
			bits |= 1 << p;
	}
	return bits;
}
