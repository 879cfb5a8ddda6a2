// SPDX-License-Identifier: GPL-2.0
/*
 * Sequences: seeded random sequences of mount operations by root of a
 * user namespace over a small mount tree, the host's /proc and /sys and
 * SEQ_SLOTS empty mount points under two parents that start as peers,
 * /seq/a and /seq/b (tests/contract/seq_op.h).  After every operation the guest
 * reports what it returned, the flags of every mount, which of them are
 * locked, which parent propagates to the other, how many warning lines
 * the kernel logged and when; the host replays the sequence on its model
 * (tests/runner/seq_model.c), and holds the runs of the phases to each other
 * (tests/runner/relations.c).
 * The last sequences (raising_seqs()) raise the phase half-way (the sysctl,
 * through a helper that stays root of the host): the raise lasts for the
 * rest of the boot.
 *
 * The guest chooses each operation from what it saw (which slots hold a
 * mount, in /proc/self/mountinfo), never from what it expects.  With /seq-replay in the initramfs
 * (the shrinker's candidates, one per line "r ID HOST OP;OP;...") it runs
 * those sequences as they are written instead.
 *
 *   qs <id> host=<F_* of the host's /proc and /sys, hex>
 *   q <id> <n> <operation> ret=<0|ENAME> m=<flags of every mount> p=<bits>
 *     l=<locked flags of every mount> f=<what each mount is: '-' none,
 *     p or s a proc or sysfs mount of its root, P or S of a subdirectory>
 *     sb=<its filesystem read-only (r) or not (w), '-' no mount>
 *     w=<warning lines> pw=<lines the
 *     probe of the locks caused> s=<ms since boot, before the operation>
 *     t=<ms since boot, after the probe>
 *   qe <id> exit=<status> ms=<n>
 *   sequences-end seed=<n> seqs=<n> ops=<n> failed=<n> ms=<n>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"
#include "../tests/contract/seq_op.h"

#define REPLAY "/seq-replay"
#define HOST_TWIN "/seq-proc"	/* SEQ_HOST_TWIN's second proc */
#define SEQ_LEN 40
#define SEQ_LIMIT_MS 60000
/*
 * The last sequences of a run raise the phase half-way: it stays raised.
 * A tenth of the run's sequences, at most RAISING_SEQS, and at least one
 * per phase.
 */
#define RAISING_SEQS 20
/*
 * ... and go on longer after the raise, so that changes of the mounts
 * made before it are tried under the new phase.
 */
#define RAISE_TAIL 120

static const char *const paths[SEQ_MOUNTS] = {
	"/seq/a/0", "/seq/a/1", "/seq/b/0", "/seq/b/1", "/proc", "/sys",
};
static const char *const parents[SEQ_PARENTS] = { "/seq/a", "/seq/b" };
_Static_assert(SEQ_SLOTS == 4 && SEQ_PARENTS == 2, "one path per slot");

/*
 * Under fault injection (faults.c) each sequence's process asks to be
 * marked once its set-up is done.  A raise is asked for unmarked, and a
 * nested user namespace is made unmarked: failures in making its pid and
 * net namespaces are not the mount path's, and 6.1 leaks and dumps stacks
 * there (sysfs_slab_add() keeps a kobject's name when it fails).
 */
static struct marker marker;

/* What the guest saw in mountinfo after the last operation. */
struct seen {
	int fs[SEQ_MOUNTS];	/* 0 proc, 1 sysfs, -1 no mount */
	int sub[SEQ_MOUNTS];	/* a bind of a subdirectory */
	int flags[SEQ_MOUNTS];	/* F_*, -1 no mount */
	int shared[SEQ_PARENTS], master[SEQ_PARENTS];	/* peer groups */
	int locks[SEQ_MOUNTS];	/* F_* that mount_setattr(2) may not clear */
	int sb_ro[SEQ_MOUNTS];	/* its filesystem (superblock) is read-only */
	int depth;
	int kmsg;		/* the kernel's log, opened before the container */
	struct raiser raiser;	/* root of the host, for SQ_RAISE */
};

static void source_path(const struct seen *s, const struct seq_op *op,
			char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", paths[op->src],
		 !op->sub ? "" : s->fs[op->src] ? "/kernel" : "/sys");
}

static int clone_to(const char *src, const char *dst, int rec)
{
	int fd = open_tree(AT_FDCWD, src, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
			   (rec ? AT_RECURSIVE : 0));
	int ret;

	if (fd < 0)
		return -1;
	ret = move_mount(fd, "", AT_FDCWD, dst, MOVE_MOUNT_F_EMPTY_PATH);
	close(fd);
	return ret;
}

static int setattr(const struct seq_op *op)
{
	struct mount_attr attr = {
		.attr_set = attr_flags(op->set),
		.attr_clr = attr_flags(op->clr),
	};

	return mount_setattr(AT_FDCWD, paths[op->dst],
			     op->rec ? AT_RECURSIVE : 0, &attr, sizeof(attr));
}

/* A system call's return for the error number @err: 0, or -1 and errno. */
static int ret_errno(int err)
{
	errno = err;
	return err ? -1 : 0;
}

/*
 * A nest and a raise run with the marker off: their pipes and forks are
 * not the mount path.
 */
static int nest(struct seen *s)
{
	int err;

	marker_ask(&marker, 0);
	err = try_enter_userns();
	marker_ask(&marker, 1);		/* in the new process, or the same */
	s->depth += !err;
	return ret_errno(err);
}

static int raise_to(struct seen *s, const struct seq_op *op)
{
	int err;

	marker_ask(&marker, 0);
	err = raise_phase(&s->raiser, seq_phase_name[op->phase]);
	marker_ask(&marker, 1);
	return ret_errno(err);
}

/* Perform @op: 0 or the errno. */
static int perform(struct seen *s, const struct seq_op *op)
{
	const char *dst = paths[op->dst];
	char src[64];
	int ret = -1;

	source_path(s, op, src, sizeof(src));
	switch (op->kind) {
	case SQ_MOUNT:
		ret = fresh_mount(seq_fs_name[op->fs], dst, op->flags);
		break;
	case SQ_BIND:
		ret = mount(src, dst, NULL, MS_BIND | (op->rec ? MS_REC : 0),
			    NULL);
		break;
	case SQ_CLONE:
		ret = clone_to(src, dst, op->rec);
		break;
	case SQ_MOVE:
		ret = move_mount(AT_FDCWD, paths[op->src], AT_FDCWD, dst, 0);
		break;
	case SQ_UMOUNT:
		ret = umount2(dst, 0);
		break;
	case SQ_REMOUNT:
		ret = mount(NULL, dst, NULL, MS_REMOUNT | ms_flags(op->flags),
			    NULL);
		break;
	case SQ_BINDREMOUNT:
		ret = mount(NULL, dst, NULL,
			    MS_REMOUNT | MS_BIND | ms_flags(op->flags), NULL);
		break;
	case SQ_SETATTR:
		ret = setattr(op);
		break;
	case SQ_UNSHARE:
		ret = unshare(CLONE_NEWNS);
		break;
	case SQ_NEST:
		ret = nest(s);
		break;
	case SQ_PROP:
		ret = mount(NULL, parents[op->dst], NULL,
			    (unsigned long[]){ MS_PRIVATE, MS_SHARED,
					       MS_SLAVE }[op->prop], NULL);
		break;
	case SQ_RAISE:
		ret = raise_to(s, op);
		break;
	default:
		errno = EINVAL;
	}
	return ret ? errno : 0;
}

/* The optional fields of a mountinfo line: its peer group and master. */
static void propagation(const char *fields, int *shared, int *master)
{
	const char *f;

	*shared = *master = 0;
	f = strstr(fields, " shared:");
	if (f)
		*shared = atoi(f + 8);
	f = strstr(fields, " master:");
	if (f)
		*master = atoi(f + 8);
}

/* One line of mountinfo into @s; the last mount on a path is the top one. */
static void see_line(struct seen *s, char *line)
{
	char root[256], point[256], opts[256], type[32], sb[256];
	char *dash = strstr(line, " - ");
	int i;

	if (!dash || sscanf(line, "%*d %*d %*s %255s %255s %255s", root, point,
			    opts) != 3 ||
	    sscanf(dash, " - %31s %*s %255s", type, sb) != 2)
		return;
	*dash = 0;
	for (i = 0; i < SEQ_PARENTS; i++)
		if (!strcmp(point, parents[i]))
			propagation(line, &s->shared[i], &s->master[i]);
	for (i = 0; i < SEQ_MOUNTS; i++) {
		if (strcmp(point, paths[i]))
			continue;
		s->fs[i] = !strcmp(type, "proc") ? 0 :
			   !strcmp(type, "sysfs") ? 1 : -1;
		s->sub[i] = strcmp(root, "/") != 0;
		s->flags[i] = mount_option_flags(opts);
		s->sb_ro[i] = !strcmp(sb, "ro") || !strncmp(sb, "ro,", 3);
	}
}

/* Read the tree: 0, or -1 if mountinfo could not be read. */
static int see_once(struct seen *s)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024];
	int i, err;

	for (i = 0; i < SEQ_MOUNTS; i++)
		s->fs[i] = s->flags[i] = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		see_line(s, line);
	err = ferror(f);
	fclose(f);
	return err ? -1 : 0;
}

static void see(struct seen *s)
{
	int i;

	/* Under fault injection the read itself may fail: read again. */
	for (i = 0; i < RETRIES && see_once(s); i++)
		;
}

/*
 * A mount (@free_slot 0), or a slot that a mount may be attached on: it
 * and its twin are free, so that nothing is tucked under another mount.
 */
static int pick(unsigned int *seed, const struct seen *s, int free_slot)
{
	int i, n = 0, c[SEQ_MOUNTS];

	for (i = 0; i < SEQ_MOUNTS; i++)
		if (free_slot ? i < SEQ_SLOTS && s->fs[i] < 0 &&
				s->fs[seq_twin(i)] < 0 :
				s->fs[i] >= 0)
			c[n++] = i;
	return n ? c[rand_r(seed) % n] : -1;
}

static int pick_slot(unsigned int *seed, const struct seen *s)
{
	int i, n = 0, c[SEQ_SLOTS];

	for (i = 0; i < SEQ_SLOTS; i++)
		if (s->fs[i] >= 0)
			c[n++] = i;
	return n ? c[rand_r(seed) % n] : -1;
}

/* Weights of the kinds, in enum seq_kind's order (raise: see below). */
static const int weight[SQ_KINDS] = { 18, 12, 8, 6, 10, 8, 10, 14, 4, 4, 0, 6 };

/* A random operation that the tree, as seen, allows: 0, or -1 to retry. */
static int choose(unsigned int *seed, const struct seen *s, struct seq_op *op)
{
	int w = rand_r(seed) % 100, k = 0;

	while (w >= weight[k])
		w -= weight[k++];
	memset(op, 0, sizeof(*op));
	op->kind = k;
	op->flags = rand_r(seed) % 16;
	op->fs = rand_r(seed) % 2;
	op->sub = rand_r(seed) % 4 == 0;
	op->rec = rand_r(seed) % 2;
	op->set = rand_r(seed) % 16;
	op->clr = rand_r(seed) % 16 & ~op->set;
	op->prop = rand_r(seed) % SEQ_PROPS;
	op->src = pick(seed, s, 0);
	op->dst = pick(seed, s, 1);
	switch (op->kind) {
	case SQ_MOUNT:
		return op->dst < 0 ? -1 : 0;
	case SQ_BIND:
	case SQ_CLONE:
		/* A subdirectory of a root only: sys of proc, kernel of sysfs. */
		op->sub = op->sub && !s->sub[op->src];
		return op->dst < 0 ? -1 : 0;
	case SQ_MOVE:
		op->src = pick_slot(seed, s);
		return op->src < 0 || op->dst < 0 ? -1 : 0;
	case SQ_UMOUNT:
		op->dst = pick_slot(seed, s);
		return op->dst < 0 ? -1 : 0;
	case SQ_REMOUNT:
	case SQ_BINDREMOUNT:
	case SQ_SETATTR:
		op->dst = op->src;
		return 0;
	case SQ_NEST:
		return s->depth < SEQ_MAX_DEPTH ? 0 : -1;
	case SQ_PROP:
		op->dst = rand_r(seed) % SEQ_PARENTS;
		return 0;
	default:
		return 0;
	}
}

/*
 * The flags of the mount on @path that mount_setattr(2) may not clear,
 * tried one by one on a detached copy, which the sequence never sees:
 * locks, and from implicit on the marks on flags the mount has.
 */
static int locked_flags(const char *path, int flags)
{
	static const int each[] = { F_RO, F_NOSUID, F_NODEV, F_NOEXEC };
	int fd, i, locked = 0;

	fd = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
		       AT_RECURSIVE);
	if (fd < 0)
		return -1;
	for (i = 0; i < (int)ARRAY_SIZE(each); i++) {
		struct mount_attr attr = { .attr_clr = attr_flags(each[i]) };

		if ((flags & each[i]) &&
		    mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)))
			locked |= each[i];
	}
	close(fd);
	return locked;
}

static void see_locks(struct seen *s)
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++)
		s->locks[i] = s->fs[i] < 0 ? -1 :
			      locked_flags(paths[i], s->flags[i]);
}

static int warning_line(const char *line)
{
	return !strncmp(line, "VFS: process '", 14) &&
	       strstr(line, " clears ") != NULL;
}

/*
 * What each mount is, as the f= of a record ('-' none, p or s proc or
 * sysfs of its root, P or S of a subdirectory), and whether its
 * filesystem is read-only, as sb= ('-', r or w): a read-only superblock
 * lends a read-only lock as a locked read-only mount does.
 */
static void format_mounts(const struct seen *s, char what[SEQ_MOUNTS + 1],
			  char sb[SEQ_MOUNTS + 1])
{
	int i;

	for (i = 0; i < SEQ_MOUNTS; i++) {
		what[i] = s->fs[i] < 0 ? '-' :
			  "psPS"[s->fs[i] + 2 * !!s->sub[i]];
		sb[i] = s->fs[i] < 0 ? '-' : s->sb_ro[i] ? 'r' : 'w';
	}
	what[SEQ_MOUNTS] = sb[SEQ_MOUNTS] = 0;
}

/*
 * The operation's own warning lines are counted before the probe of the
 * locks, whose clears warn too in the warn phase: those are counted
 * apart, as they fill the rate limit's window all the same.
 */
static void run_op(int id, int n, struct seen *s, const struct seq_op *op)
{
	char text[64], flags[SEQ_MOUNTS + 1], locks[SEQ_MOUNTS + 1];
	char what[SEQ_MOUNTS + 1], sb[SEQ_MOUNTS + 1];
	long start = now_ms(), end;
	int err = perform(s, op), w, pw;

	w = kmsg_count(s->kmsg, warning_line);
	see(s);
	see_locks(s);
	pw = kmsg_count(s->kmsg, warning_line);
	end = now_ms();
	seq_flags_format(s->flags, flags);
	seq_flags_format(s->locks, locks);
	format_mounts(s, what, sb);
	report("q %d %d %s ret=%s m=%s p=%d l=%s f=%s sb=%s w=%d pw=%d s=%ld t=%ld\n",
	       id, n,
	       seq_op_format(op, text, sizeof(text)),
	       err ? errno_name(err) : "0", flags,
	       seq_prop_bits(s->shared, s->master), locks, what, sb, w, pw,
	       start, end);
}

/*
 * In the sequence's own process: a helper that stays root of the host,
 * the host's layout, then a container.
 */
static void enter(int id, int host, int raising, struct seen *s)
{
	int i;

	report("qs %d host=%x\n", id, host);
	s->kmsg = kmsg_open_at_end();
	if (raising)
		raiser_start(&s->raiser);
	host_layout(host & ~SEQ_HOST_TWIN);
	if ((host & SEQ_HOST_TWIN) && mount("proc", HOST_TWIN, "proc", 0, NULL))
		die("mount the host's second proc");
	enter_container(1);
	/* The parents: /seq/a, shared, and /seq/b, a bind of it: peers. */
	if (mount("seq", parents[0], "tmpfs", 0, "size=16k"))
		die("mount the tmpfs of /seq/a");
	for (i = 0; i < SEQ_PER_PARENT; i++)
		if (mkdir(paths[i], 0755))
			die("mkdir a slot");
	if (mount(NULL, parents[0], NULL, MS_SHARED, NULL) ||
	    mount(parents[0], parents[1], NULL, MS_BIND, NULL))
		die("make /seq/b a peer of /seq/a");
	see(s);
	s->depth = 1;
	marker_ask(&marker, 1);
}

static int raising_seqs(int seqs)
{
	int n = seqs / 10;

	n = n > RAISING_SEQS ? RAISING_SEQS : n < seq_phases ? seq_phases : n;
	return n > seqs ? seqs : n;
}

/*
 * @raising: 0, or 1 + the place of the sequence among the @nraise raising
 * ones, which raise to each phase in turn, loosest first.
 */
static void random_sequence(int id, unsigned int seed, int raising,
			    int nraise)
{
	struct seen s;
	struct seq_op op;
	int n = 0, host;

	host = rand_r(&seed) % 16;
	if (rand_r(&seed) % 4 == 0)
		host |= SEQ_HOST_TWIN;
	enter(id, host, raising, &s);
	while (n < SEQ_LEN + (raising ? RAISE_TAIL : 0)) {
		if (raising && n == SEQ_LEN / 2) {
			op = (struct seq_op){ .kind = SQ_RAISE,
				.phase = (raising - 1) * seq_phases / nraise };
			run_op(id, n++, &s, &op);
		}
		if (!choose(&seed, &s, &op))
			run_op(id, n++, &s, &op);
	}
	_exit(0);
}

/* One line of the replay file: "r ID HOST OP;OP;..." */
static void replay_sequence(char *line)
{
	struct seq_op op;
	struct seen s;
	int id, host, off = 0, n = 0;
	char *p, *save;

	if (sscanf(line, "r %d %x %n", &id, &host, &off) != 2 || !off)
		die("a line of " REPLAY);
	enter(id, host, strstr(line, "raise") != NULL, &s);
	for (p = strtok_r(line + off, ";\n", &save); p;
	     p = strtok_r(NULL, ";\n", &save)) {
		if (seq_op_parse(p, &op))
			die("an operation of " REPLAY);
		run_op(id, n++, &s, &op);
	}
	_exit(0);
}

/* Run one sequence in a process of its own; its exit status. */
static int one(int id, char *replay, unsigned int seed, int raising,
	       int nraise)
{
	long start = now_ms();
	int status;
	pid_t pid;

	marker_open(&marker);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		marker_child(&marker);
		if (replay)
			replay_sequence(replay);
		random_sequence(id, seed, raising, nraise);
	}
	marker_serve(&marker, start + SEQ_LIMIT_MS);
	status = wait_child_within(pid, start + SEQ_LIMIT_MS - now_ms());
	report("qe %d exit=%d ms=%ld\n", id, status, now_ms() - start);
	return status;
}

static unsigned long env_number(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 10) : def;
}

void run_sequences(void)
{
	unsigned long seed = env_number("PSMF_SEQ_SEED", 1);
	unsigned long ops = env_number("PSMF_SEQ_OPS", SEQ_OPS_DEFAULT);
	FILE *replay = fopen(REPLAY, "r");
	long start = now_ms();
	int id = 0, failed = 0, i;
	char line[4096];

	mkdir("/seq", 0755);
	mkdir(HOST_TWIN, 0755);
	for (i = 0; i < SEQ_PARENTS; i++)
		mkdir(parents[i], 0755);
	if (replay) {
		while (fgets(line, sizeof(line), replay))
			failed += one(id++, line, 0, 0, 0) != 0;
		fclose(replay);
	} else {
		int seqs = (ops + SEQ_LEN - 1) / SEQ_LEN;
		int nraise = raising_seqs(seqs);

		ops = (unsigned long)seqs * SEQ_LEN + nraise * RAISE_TAIL;
		for (id = 0; id < seqs; id++)
			failed += one(id, NULL, seed * 1000003u + id,
				      id >= seqs - nraise ?
				      id - (seqs - nraise) + 1 : 0, nraise) != 0;
	}
	report("sequences-end seed=%lu seqs=%d ops=%lu failed=%d ms=%ld\n",
	       seed, id, replay ? 0 : ops, failed, now_ms() - start);
}
