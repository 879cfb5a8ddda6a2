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
 * rest of the boot.  Those that raise to one phase run as a group that
 * waits for one raise (raise_group()), so that each of them raises.
 *
 * The guest chooses each operation from what it saw (which slots hold a
 * mount, in /proc/self/mountinfo), never from what it expects.  With /seq-replay in the initramfs
 * (the shrinker's candidates, one per line "r ID HOST OP;OP;...") it runs
 * those sequences as they are written instead.
 *
 *   qs <id> host=<F_* of the host's /proc and /sys, hex> [phase=<the
 *     phase the sysctl read at its start>]
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
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
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
 * A fifth of the run's sequences, at most RAISING_SEQS, and at least one
 * per phase: each is one more raise with other mounts made before it.
 */
#define RAISING_SEQS 40
/*
 * ... and go on longer after the raise, so that changes of the mounts
 * made before it are tried under the new phase.
 */
#define RAISE_TAIL 60

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

static int warning_line(const char *line)
{
	return !strncmp(line, WARNING_PREFIX, strlen(WARNING_PREFIX)) &&
	       strstr(line, " clears ") != NULL;
}

/*
 * The lines logged while a sequence of a raising group waited for the
 * raise are the other members' (see raise_group()): they are let go.
 */
static int raise_to(struct seen *s, const struct seq_op *op)
{
	int err;

	marker_ask(&marker, 0);
	err = raise_phase(&s->raiser, seq_phase_name[op->phase]);
	marker_ask(&marker, 1);
	kmsg_count(s->kmsg, warning_line);
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
 * In the sequence's own process: a helper that stays root of the host
 * (or, in a raising group, @group: the pipes to the group's parent), the
 * host's layout, then a container.  The start record says the phase the
 * sysctl reads, so that the host need not carry it from the sequence
 * before: a group's members start before any of them raises.
 */
static void enter(int id, int host, int raising, const struct raiser *group,
		  struct seen *s)
{
	char phase[32];
	int i;

	if (sysctl_read(phase, sizeof(phase)))
		report("qs %d host=%x\n", id, host);
	else
		report("qs %d host=%x phase=%s\n", id, host, phase);
	s->kmsg = kmsg_open_at_end();
	if (group)
		s->raiser = *group;
	else if (raising)
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
	int n = seqs / 5;

	n = n > RAISING_SEQS ? RAISING_SEQS : n < seq_phases ? seq_phases : n;
	return n > seqs ? seqs : n;
}

/* The phase the raising sequence @raising of @nraise raises to. */
static int raise_target(int raising, int nraise)
{
	return (raising - 1) * seq_phases / nraise;
}

/*
 * @raising: 0, or 1 + the place of the sequence among the @nraise raising
 * ones, which raise to each phase in turn, loosest first.
 */
static void random_sequence(int id, unsigned int seed, int raising,
			    int nraise, const struct raiser *group)
{
	struct seen s;
	struct seq_op op;
	int n = 0, host;

	host = rand_r(&seed) % 16;
	if (rand_r(&seed) % 4 == 0)
		host |= SEQ_HOST_TWIN;
	enter(id, host, raising, group, &s);
	while (n < SEQ_LEN + (raising ? RAISE_TAIL : 0)) {
		if (raising && n == SEQ_LEN / 2) {
			op = (struct seq_op){ .kind = SQ_RAISE,
				.phase = raise_target(raising, nraise) };
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
	enter(id, host, strstr(line, "raise") != NULL, NULL, &s);
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
	pid = fork_group();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		marker_child(&marker);
		if (replay)
			replay_sequence(replay);
		random_sequence(id, seed, raising, nraise, NULL);
	}
	marker_serve(&marker, start + SEQ_LIMIT_MS);
	status = wait_child_within(pid, start + SEQ_LIMIT_MS - now_ms());
	report("qe %d exit=%d ms=%ld\n", id, status, now_ms() - start);
	return status;
}

/* A sequence of a raising group (raise_group()). */
struct member {
	pid_t pid;
	int ask, answer;	/* its raise's request, and the answer to it */
	FILE *out;		/* its records, held back */
	long start, asked;	/* when it started, and asked for its raise */
};

/* Whether @fd is readable (or closed) before @deadline, in ms since boot. */
static int readable_by(int fd, long deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (now_ms() < deadline)
		if (poll(&p, 1, deadline - now_ms()) > 0)
			return 1;
	return 0;
}

/*
 * Let @m end within what is left of its time (the wait for the others'
 * raise does not count), then report its records and close its files.
 */
static int member_end(struct member *m, int id)
{
	long resumed = now_ms();
	long used = (m->asked ? m->asked : resumed) - m->start;
	int status = wait_child_within(m->pid, SEQ_LIMIT_MS - used);

	close(m->ask);
	close(m->answer);
	report_replay(m->out);
	fclose(m->out);
	report("qe %d exit=%d ms=%ld\n", id, status,
	       used + now_ms() - resumed);
	return status;
}

/* Start @m as sequence @id: whether it asked for its raise in its time. */
static bool member_start(struct member *m, int id, unsigned int seed,
			 int raising, int nraise)
{
	int ask[2], answer[2];
	char phase[32];

	memset(m, 0, sizeof(*m));
	m->start = now_ms();
	m->out = tmpfile();
	if (!m->out || pipe(ask) || pipe(answer))
		die("a raising group's pipes and files");
	m->pid = fork_group();
	if (m->pid < 0)
		die("fork");
	if (m->pid == 0) {
		struct raiser group = { .req = ask[1], .resp = answer[0] };

		close(ask[0]);
		close(answer[1]);
		report_divert(m->out);
		random_sequence(id, seed, raising, nraise, &group);
	}
	close(ask[1]);
	close(answer[0]);
	m->ask = ask[0];
	m->answer = answer[1];
	if (!readable_by(m->ask, m->start + SEQ_LIMIT_MS) ||
	    read(m->ask, phase, sizeof(phase)) <= 0)
		return false;
	m->asked = now_ms();
	return true;
}

/*
 * A raising group: the sequences that raise to one phase, @first to
 * @first + @n - 1, raising sequences @raising on of @nraise.  Run one
 * after another, only the first would raise: the others would find the
 * phase raised.  So each runs up to its raise and waits there, the phase
 * is raised once, and then each goes on in turn.  No two run at once (one
 * that does not ask in its time is ended before the next starts), so each
 * counts only its own warning lines.  A member's records are held back
 * until it ends, so that each sequence's stay together.  How many failed.
 */
static int raise_group(int first, int n, unsigned long seed, int raising,
		       int nraise)
{
	struct member m[RAISING_SEQS];
	int i, asked = 0, failed = 0;
	const char *to = seq_phase_name[raise_target(raising, nraise)];
	unsigned char err = 0;
	struct raiser rz;

	for (i = 0; i < n; i++) {
		if (member_start(&m[i], first + i, seed * 1000003u + first + i,
				 raising + i, nraise))
			asked++;
		else
			failed += member_end(&m[i], first + i) != 0;
	}
	if (asked) {
		raiser_start(&rz);
		err = raise_phase(&rz, to);
		raiser_stop(&rz);
	}
	for (i = 0; i < n; i++) {
		if (!m[i].asked)
			continue;	/* ended above */
		/* One that died since it asked fails by its own status. */
		if (write(m[i].answer, &err, 1) != 1)
			kill_group(m[i].pid);
		failed += member_end(&m[i], first + i) != 0;
	}
	return failed;
}

/* How many raising sequences from @r on raise to the same phase. */
static int group_size(int r, int nraise)
{
	int n = 1;

	if (faults_on())
		return 1;	/* the marker serves one process at a time */
	while (r + n <= nraise &&
	       raise_target(r + n, nraise) == raise_target(r, nraise))
		n++;
	return n;
}

static unsigned long env_number(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 10) : def;
}

/* The @nraise raising sequences from @first: how many failed. */
static int raising_groups(int first, unsigned long seed, int nraise)
{
	int r = 1, n, failed = 0;

	for (; r <= nraise; first += n, r += n) {
		n = group_size(r, nraise);
		if (n == 1)
			failed += one(first, NULL, seed * 1000003u + first, r,
				      nraise) != 0;
		else
			failed += raise_group(first, n, seed, r, nraise);
	}
	return failed;
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
		for (id = 0; id < seqs - nraise; id++)
			failed += one(id, NULL, seed * 1000003u + id, 0,
				      0) != 0;
		failed += raising_groups(seqs - nraise, seed, nraise);
		id = seqs;
	}
	report("sequences-end seed=%lu seqs=%d ops=%lu failed=%d ms=%ld\n",
	       seed, id, replay ? 0 : ops, failed, now_ms() - start);
}
