// SPDX-License-Identifier: GPL-2.0
/*
 * The relations between the phases' runs (relations.c) on small runs
 * written here: runs that keep every promise compare clean, and each
 * broken promise turns its relation red.  The runs are made up from the
 * promises, not taken from a kernel.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relations.h"
#include "../contract/spec.h"
#include "tap.h"
#include "unit_relations.h"

/*
 * One sequence over a host /proc and /sys with nosuid,nodev,noexec (e):
 * a fresh proc on slot 0 with all three flags, which propagates to slot
 * 2, then a bind remount of it that clears nosuid, then a mount_setattr
 * that sets read-only and clears nothing.  Per phase: the records of the
 * three operations, as the promises make them.
 */
static const char *const agreeing[MAX_MODES][3] = {
	[PHASE_LEGACY] = {
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=0-0-ee w=0 pw=0",
		"bindremount 0 c ret=0 m=c-e-ee p=3 l=0-0-ee w=0 pw=0",
		"setattr 0 1 0 one ret=0 m=d-e-ee p=3 l=0-0-ee w=0 pw=0",
	},
	[PHASE_WARN] = {
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=0-0-ee w=0 pw=0",
		"bindremount 0 c ret=0 m=c-e-ee p=3 l=0-0-ee w=1 pw=0",
		"setattr 0 1 0 one ret=0 m=d-e-ee p=3 l=0-0-ee w=0 pw=0",
	},
	[PHASE_IMPLICIT] = {
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
		"bindremount 0 c ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
		"setattr 0 1 0 one ret=0 m=f-e-ee p=3 l=e-e-ee w=0 pw=0",
	},
	[PHASE_ENFORCE] = {
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
		"bindremount 0 c ret=EPERM m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
		"setattr 0 1 0 one ret=0 m=f-e-ee p=3 l=e-e-ee w=0 pw=0",
	},
};

struct runs {
	char dir[64];
	char path[MAX_MODES][96];
	const char *paths[MAX_MODES];
};

/*
 * The "host file" record a boot writes of its kernel, here of a file made
 * for the purpose that stays as it is (test_stale() changes it last).
 */
static char stamp_path[64];

static void made_from_record(FILE *f)
{
	long long mtime_ns, size;
	int fd;

	if (!stamp_path[0]) {
		snprintf(stamp_path, sizeof(stamp_path), "/tmp/unit-relations-kernel.XXXXXX");
		fd = mkstemp(stamp_path);
		if (fd < 0)
			abort();
		close(fd);
	}
	if (file_stamp(stamp_path, &mtime_ns, &size))
		abort();
	fprintf(f, "host file %s mtime=%lld size=%lld\n", stamp_path, mtime_ns,
		size);
}

/* Append @fmt's records to the run at @path. */
static void __attribute__((format(printf, 2, 3)))
append(const char *path, const char *fmt, ...)
{
	FILE *f = fopen(path, "a");
	va_list ap;

	if (!f)
		abort();
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void write_run(struct runs *r, int m, const char *const ops[3],
		      unsigned long seed, int ended, int warned_before)
{
	char dir[sizeof(r->dir)];
	FILE *f;
	int i;

	memcpy(dir, r->dir, sizeof(dir));
	snprintf(r->path[m], sizeof(r->path[m]), "%s/%d.txt", dir, m);
	r->paths[m] = r->path[m];
	f = fopen(r->path[m], "w");
	if (!f)
		abort();
	made_from_record(f);
	/* A sequence that only warns, at 1 s, fills the limit's window. */
	fprintf(f, "qs 7 host=e\n");
	for (i = 0; i < warned_before; i++)
		fprintf(f, "q 7 %d bindremount 4 e ret=0 m=----ee p=3 l=----ee w=1 pw=0 s=1000 t=1000\n",
			i);
	fprintf(f, "qs 8 host=e\n");
	for (i = 0; i < 3; i++)
		/* a record may give its own times; others take 1 ms each */
		fprintf(f, strstr(ops[i], " t=") ? "q 8 %d %s\n" :
			"q 8 %d %s s=%d t=%d\n", i, ops[i], 2000 + i, 2000 + i);
	if (ended)
		fprintf(f, "sequences-end seed=%lu seqs=2 ops=80 failed=0 ms=9\n",
			seed);
	fclose(f);
}

static void make_runs(struct runs *r, const char *const ops[MAX_MODES][3])
{
	int m;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/unit-relations.XXXXXX");
	if (!mkdtemp(r->dir))
		abort();
	for (m = 0; m < MAX_MODES; m++)
		write_run(r, m, ops[m], 1, 1, 0);
}

static void remove_runs(struct runs *r)
{
	int m;

	for (m = 0; m < MAX_MODES; m++)
		if (r->paths[m])
			unlink(r->path[m]);
	rmdir(r->dir);
}

/* The relations over @ops, with @m's run replaced by @changed if given. */
static int check(const char *const ops[MAX_MODES][3], int m,
		 const char *const changed[3], int warned_before,
		 struct tally t[N_RELATIONS], char *why, size_t len)
{
	struct runs r;
	int err;

	make_runs(&r, ops);
	if (changed || warned_before)
		write_run(&r, m, changed ? changed : ops[m], 1, 1,
			  warned_before);
	err = relations_check(r.paths, t, why, len);
	remove_runs(&r);
	return err;
}

static int violations(const struct tally t[N_RELATIONS])
{
	int r, n = 0;

	for (r = 0; r < N_RELATIONS; r++)
		n += t[r].violations;
	return n;
}

/* The one relation that found something, or -1 (none, or several). */
static int red(const struct tally t[N_RELATIONS])
{
	int r, found = -1;

	for (r = 0; r < N_RELATIONS; r++)
		if (t[r].violations)
			found = found < 0 ? r : -2;
	return found < 0 ? -1 : found;
}

static void test_agreeing(void)
{
	static struct tally t[N_RELATIONS];
	char why[512] = "";
	int r, compared = 1;

	tap(!check(agreeing, 0, NULL, 0, t, why, sizeof(why)) &&
	    !violations(t),
	    "relations: runs that keep every promise compare clean %s", why);
	for (r = 0; r < N_PHASE_RELATIONS; r++)
		compared &= t[r].ops > 0;
	tap(compared, "relations: every relation between phases compared operations");
}

/* A broken promise, in @m's run: it must turn exactly @relation red. */
static void broken(int m, int op, const char *record, const char *relation,
		   const char *what)
{
	static struct tally t[N_RELATIONS];
	const char *ops[3];
	char why[512] = "";
	int r;

	memcpy(ops, agreeing[m], sizeof(ops));
	ops[op] = record;
	r = check(agreeing, m, ops, 0, t, why, sizeof(why)) ? -1 : red(t);
	tap(r >= 0 && !strcmp(t[r].name, relation) &&
	    strstr(t[r].kept[0], "sequence 8, host e"),
	    "relations: %s turns '%s' red (%s)", what, relation,
	    r >= 0 ? t[r].kept[0] : why);
}

static void test_broken(void)
{
	/* A warn whose fresh mount took no read-only lock where legacy's did. */
	broken(PHASE_WARN, 2, "setattr 0 1 0 one ret=0 m=d-e-ee p=3 l=1-0-ee w=0 pw=0",
	       "warn = legacy", "a lock legacy lacks");
	broken(PHASE_WARN, 0, "mount proc 0 e ret=0 m=e-e-ee p=3 l=0-0-ee w=1 pw=0",
	       "warn warns where enforce refuses", "a line where enforce allows");
	broken(PHASE_WARN, 1, "bindremount 0 c ret=0 m=c-e-ee p=3 l=0-0-ee w=0 pw=0",
	       "warn warns where enforce refuses",
	       "no line where enforce refuses");
	broken(PHASE_IMPLICIT, 1, "bindremount 0 c ret=EPERM m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
	       "implicit allows what legacy allows", "a refused bind remount");
	broken(PHASE_IMPLICIT, 1, "bindremount 0 c ret=0 m=8-e-ee p=3 l=e-e-ee w=0 pw=0",
	       "implicit allows what legacy allows", "a flag legacy keeps, dropped");
	broken(PHASE_ENFORCE, 0, "mount proc 0 e ret=0 m=6-e-ee p=3 l=6-e-ee w=0 pw=0",
	       "enforce allows only as legacy does", "other flags where both allow");
	broken(PHASE_ENFORCE, 2, "setattr 0 1 0 one ret=EPERM m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
	       "enforce: no clear, no EPERM", "EPERM for a change that clears nothing");
}

/* A missing line is no violation where the rate limit may have dropped it. */
static void test_rate_limit(void)
{
	static struct tally t[N_RELATIONS];
	const char *ops[3];
	char why[512] = "";

	int err;

	memcpy(ops, agreeing[PHASE_WARN], sizeof(ops));
	ops[1] = "bindremount 0 c ret=0 m=c-e-ee p=3 l=0-0-ee w=0 pw=0";
	err = check(agreeing, PHASE_WARN, ops, 10, t, why, sizeof(why));
	tap(!err && !violations(t) && t[1].hidden == 1,
	    "relations: a refusal whose line a full window may drop is counted, not failed (%ld) %s",
	    t[1].hidden, why);
	/*
	 * The window is the one the kernel's check fell in, from the start of
	 * the operation: one that ends 6 s after it starts (a stalled guest)
	 * is still in the window of the lines 1 s before it.
	 */
	ops[1] = "bindremount 0 c ret=0 m=c-e-ee p=3 l=0-0-ee w=0 pw=0 s=2001 t=8000";
	err = check(agreeing, PHASE_WARN, ops, 10, t, why, sizeof(why));
	tap(!err && !violations(t) && t[1].hidden == 1,
	    "relations: a slow operation's refusal is judged by the window at its start (%ld) %s",
	    t[1].hidden, why);
}

/*
 * A raise lasts for the rest of the boot: after a sequence that raised
 * warn's run to implicit, that run is no longer warn's, and its missing
 * line where enforce refuses is no violation of warn's promise.
 */
static void test_raised_boot(void)
{
	static struct tally t[N_RELATIONS];
	char why[512] = "";
	struct runs r;
	FILE *f;
	int i, err;

	make_runs(&r, agreeing);
	f = fopen(r.path[PHASE_WARN], "w");
	if (!f)
		abort();
	made_from_record(f);
	fprintf(f, "qs 7 host=e\n");
	fprintf(f, "q 7 0 raise implicit ret=0 m=----ee p=3 l=----ee w=0 pw=0 s=1 t=1\n");
	fprintf(f, "qs 8 host=e\n");
	for (i = 0; i < 3; i++)
		fprintf(f, "q 8 %d %s s=%d t=%d\n", i,
			i == 1 ? "bindremount 0 c ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0" :
			agreeing[PHASE_IMPLICIT][i], 2000 + i, 2000 + i);
	fprintf(f, "sequences-end seed=1 seqs=2 ops=80 failed=0 ms=9\n");
	fclose(f);
	err = relations_check(r.paths, t, why, sizeof(why));
	remove_runs(&r);
	tap(!err && !t[1].violations && !t[0].violations,
	    "relations: sequences after a raise of a run's phase are not held to that phase (%d, %d violations) %s",
	    t[0].violations, t[1].violations, why);
}

/*
 * Sequence 9, in warn's boot and implicit's: a raise to implicit, then
 * implicit's fresh mount with its locks and a change that clears nothing.
 * In implicit's boot the raise changes nothing; in warn's it is one.
 */
static const char *const raised[3] = {
	"raise implicit ret=0 m=----ee p=3 l=----ee w=0 pw=0",
	"mount proc 0 e ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0",
	"setattr 0 1 0 one ret=0 m=f-e-ee p=3 l=e-e-ee w=0 pw=0",
};

/*
 * Write sequence 9 (@n of @ops) into @path's run after its sequence 8;
 * with @exit >= 0, its process's end record too.
 */
static void add_seq9(const char *path, const char *const ops[3], int n,
		     int exit)
{
	int i;

	append(path, "qs 9 host=e\n");
	for (i = 0; i < n; i++)
		append(path, "q 9 %d %s s=%d t=%d\n", i, ops[i], 3000 + i,
		       3000 + i);
	if (exit >= 0)
		append(path, "qe 9 exit=%d ms=9\n", exit);
}

static void add_raising(const char *path, const char *const ops[3])
{
	add_seq9(path, ops, 3, -1);
}

/* The raise relation of warn's boot over @warn_ops against implicit's. */
static int raise_check(const char *const warn_ops[3],
		       const char *const implicit_ops[3],
		       struct tally t[N_RELATIONS], char *why, size_t len)
{
	struct runs r;
	int err;

	make_runs(&r, agreeing);
	add_raising(r.path[PHASE_WARN], warn_ops);
	add_raising(r.path[PHASE_IMPLICIT], implicit_ops);
	err = relations_check(r.paths, t, why, len);
	remove_runs(&r);
	return err;
}

static void test_raise(void)
{
	static struct tally t[N_RELATIONS];
	const int rel = N_PHASE_RELATIONS + 3;	/* warn to implicit */
	const char *ops[3], *before[3];
	char why[512] = "";
	int err, i;

	err = raise_check(raised, raised, t, why, sizeof(why));
	tap(!err && !violations(t) && t[rel].ops == 3 && t[rel].from_raise == 1 &&
	    !strcmp(t[rel].name, "a warn boot raised to implicit = implicit"),
	    "relations: a raised boot that is the new phase's from the raise on compares clean (%ld operations of '%s') %s",
	    t[rel].ops, t[rel].name, why);

	memcpy(ops, raised, sizeof(ops));
	ops[1] = agreeing[PHASE_WARN][0];	/* warn's lockless mount */
	err = raise_check(ops, raised, t, why, sizeof(why));
	tap(!err && red(t) == rel && strstr(t[rel].kept[0], "sequence 9"),
	    "relations: a fresh mount after the raise made as the old phase would turns '%s' red (%s)",
	    t[rel].name, err ? why : t[rel].kept[0]);

	/* Cut short: a violation only if neither hit the time limit. */
	for (i = 0; i < 2; i++) {
		struct runs r;

		make_runs(&r, agreeing);
		add_seq9(r.path[PHASE_WARN], raised, 2, i ? 9 : 0);
		add_seq9(r.path[PHASE_IMPLICIT], raised, 3, 0);
		err = relations_check(r.paths, t, why, sizeof(why));
		remove_runs(&r);
		tap(!err && (i ? !violations(t) : red(t) == rel),
		    "relations: a raised sequence shorter than the new phase's is %s (%s)",
		    i ? "no violation when the time limit cut it" : "a violation when both ran to their end",
		    t[rel].violations ? t[rel].kept[0] : why);
	}

	/* The raise half-way: compared from it, as the guest's are. */
	before[0] = "bindremount 4 e ret=0 m=----ee p=3 l=----ee w=0 pw=0";
	before[1] = raised[0];
	before[2] = raised[1];
	err = raise_check(before, before, t, why, sizeof(why));
	tap(!err && !violations(t) && t[rel].ops == 2 && t[rel].from_raise == 1,
	    "relations: a sequence raised half-way is compared from its raise (%ld operations, %ld from a raise) %s",
	    t[rel].ops, t[rel].from_raise, why);

	/* Apart before the raise: the lock warn gave stays, not compared. */
	before[0] = agreeing[PHASE_WARN][0];
	before[1] = "raise implicit ret=0 m=e-e-ee p=3 l=0-0-ee w=0 pw=0";
	before[2] = "setattr 0 1 0 one ret=0 m=f-e-ee p=3 l=0-0-ee w=0 pw=0";
	ops[0] = agreeing[PHASE_IMPLICIT][0];
	ops[1] = "raise implicit ret=0 m=e-e-ee p=3 l=e-e-ee w=0 pw=0";
	ops[2] = raised[2];
	err = raise_check(before, ops, t, why, sizeof(why));
	tap(!err && !violations(t) && t[rel].named == 1 && !t[rel].ops,
	    "relations: boots apart at the raise are counted, not compared (%ld %s) %s",
	    t[rel].named, t[rel].stopped, why);
}

/*
 * A raising group: sequences 9 and 10 both started under warn and waited
 * for one raise to implicit (initramfs/sequences.c), their start records
 * say so.  Each is compared from its own raise; with the phase carried
 * from the sequence before, sequence 10 would pass for implicit's all
 * along.
 */
static void test_raise_group(void)
{
	static struct tally t[N_RELATIONS];
	const int rel = N_PHASE_RELATIONS + 3;	/* warn to implicit */
	const char *const ops[3] = {
		"bindremount 4 e ret=0 m=----ee p=3 l=----ee w=0 pw=0",
		raised[0], raised[1],
	};
	char why[512] = "";
	long from[2];
	int said, err = 0;

	for (said = 0; said < 2; said++) {
		const char *start[2] = { said ? " phase=warn" : "",
					 said ? " phase=implicit" : "" };
		struct runs r;
		int i, k;

		make_runs(&r, agreeing);
		for (k = 0; k < 2; k++)
			for (i = 0; i < 6; i++) {
				const char *p = r.path[k ? PHASE_IMPLICIT : PHASE_WARN];

				if (i % 3 == 0)
					append(p, "qs %d host=e%s\n", 9 + i / 3,
					       start[k]);
				append(p, "q %d %d %s s=%d t=%d\n", 9 + i / 3,
				       i % 3, ops[i % 3], 3000 + i, 3000 + i);
			}
		err |= relations_check(r.paths, t, why, sizeof(why));
		remove_runs(&r);
		from[said] = t[rel].from_raise;
		err |= violations(t);
	}
	tap(!err && from[1] == 2 && from[0] == 1,
	    "relations: each sequence of a raising group is compared from its own raise (%ld; %ld where the phase is carried) %s",
	    from[1], from[0], why);
}

/*
 * The same group, in legacy's boot and warn's: sequence 10, the group's
 * second, made its fresh mount before the group's raise, so warn = legacy
 * holds it to legacy's read-only lock, which it lacks under warn.
 */
static void test_group_before_raise(void)
{
	static struct tally t[N_RELATIONS];
	const char *const legacy_ops[3] = {
		"raise implicit ret=0 m=----ee p=3 l=----ee w=0 pw=0",
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=1-1-ee w=0 pw=0",
		"raise implicit ret=0 m=e-e-ee p=3 l=1-1-ee w=0 pw=0",
	};
	const char *const warn_ops[3] = {
		legacy_ops[0],
		"mount proc 0 e ret=0 m=e-e-ee p=3 l=0-0-ee w=0 pw=0",
		"raise implicit ret=0 m=e-e-ee p=3 l=0-0-ee w=0 pw=0",
	};
	char why[512] = "";
	struct runs r;
	int k, err;

	make_runs(&r, agreeing);
	for (k = 0; k < 2; k++) {
		const char *const *ops = k ? warn_ops : legacy_ops;

		append(r.path[k ? PHASE_WARN : PHASE_LEGACY],
		       "qs 9 host=e phase=%s\nq 9 0 %s s=3000 t=3000\n"
		       "qs 10 host=e phase=%s\nq 10 0 %s s=3001 t=3001\n"
		       "q 10 1 %s s=3002 t=3002\n",
		       all_modes[k], ops[0], all_modes[k], ops[1], ops[2]);
	}
	err = relations_check(r.paths, t, why, sizeof(why));
	remove_runs(&r);
	tap(!err && red(t) == 0 && strstr(t[0].kept[0], "sequence 10"),
	    "relations: a group's later sequence is held to its boot's phase up to its raise (%s)",
	    err ? why : t[0].violations ? t[0].kept[0] : "no violation");
}

/*
 * A later sequence of the raised boot, all of it under the new phase:
 * made as the old phase would make it, it turns the relation red.
 */
static void test_after_raise(void)
{
	static struct tally t[N_RELATIONS];
	const int rel = N_PHASE_RELATIONS + 3;	/* warn to implicit */
	const char *later[3] = { agreeing[PHASE_WARN][0], raised[2], raised[2] };
	char why[512] = "";
	struct runs r;
	int err, i;

	make_runs(&r, agreeing);
	add_raising(r.path[PHASE_WARN], raised);
	add_raising(r.path[PHASE_IMPLICIT], raised);
	for (i = 0; i < 2; i++)
		append(r.path[i ? PHASE_IMPLICIT : PHASE_WARN],
		       "qs 10 host=e\nq 10 0 %s s=4000 t=4000\n",
		       i ? agreeing[PHASE_IMPLICIT][0] : later[0]);
	err = relations_check(r.paths, t, why, sizeof(why));
	remove_runs(&r);
	tap(!err && red(t) == rel && strstr(t[rel].kept[0], "sequence 10"),
	    "relations: a later sequence of a raised boot made as the old phase would turns '%s' red (%s)",
	    t[rel].name, err ? why : t[rel].kept[0]);
}

/* Runs that are not of the same sequences, or not whole, are refused. */
static void test_bad_runs(void)
{
	static struct tally t[N_RELATIONS];
	char why[512];
	struct runs r;
	int err;

	make_runs(&r, agreeing);
	write_run(&r, PHASE_ENFORCE, agreeing[PHASE_ENFORCE], 2, 1, 0);
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "not the same sequences"),
	    "relations: runs of another seed are refused: %s", why);
	write_run(&r, PHASE_ENFORCE, agreeing[PHASE_ENFORCE], 1, 0, 0);
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "did not finish"),
	    "relations: an unfinished run is refused: %s", why);
	write_run(&r, PHASE_ENFORCE, agreeing[PHASE_ENFORCE], 1, 1, 0);
	append(r.path[PHASE_ENFORCE], "qs 9 host=e phase=lenient\n");
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "unreadable record 'qs 9 host=e phase=lenient'"),
	    "relations: a start record with a phase of none of ours is refused: %s", why);
	unlink(r.path[PHASE_ENFORCE]);
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, r.path[PHASE_ENFORCE]),
	    "relations: a missing run is refused: %s", why);
	r.paths[PHASE_ENFORCE] = NULL;
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "sequences-enforce=FILE"),
	    "relations: a run not given is refused: %s", why);
	remove_runs(&r);
}

/* Runs of a kernel that changed since are refused, and so are unstamped ones. */
static void test_stale(void)
{
	static struct tally t[N_RELATIONS];
	char why[512] = "";
	struct runs r;
	FILE *f;
	int err;

	make_runs(&r, agreeing);
	f = fopen(r.path[PHASE_WARN], "w");
	if (!f)
		abort();
	fprintf(f, "qs 8 host=e\nsequences-end seed=1 seqs=2 ops=80 failed=0 ms=9\n");
	fclose(f);
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "does not say which kernel") &&
	    strstr(why, "sequences-warn"),
	    "relations: a run that does not say what made it is refused: %s", why);
	write_run(&r, PHASE_WARN, agreeing[PHASE_WARN], 1, 1, 0);
	f = fopen(stamp_path, "a");	/* the kernel, rebuilt */
	if (!f)
		abort();
	fprintf(f, "rebuilt\n");
	fclose(f);
	err = relations_check(r.paths, t, why, sizeof(why));
	tap(err && strstr(why, "is stale") && strstr(why, stamp_path),
	    "relations: a run whose kernel changed since is refused: %s", why);
	remove_runs(&r);
	unlink(stamp_path);
}

/* A run of one sequence (host e, no twin) of @n records, as written. */
static void write_trees_run(const char *path, const char *const *ops, int n)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		abort();
	made_from_record(f);
	fprintf(f, "qs 8 host=e\n");
	for (i = 0; i < n; i++)
		fprintf(f, "q 8 %d %s w=0 pw=0 s=%d t=%d\n", i, ops[i],
			2000 + i, 2000 + i);
	fprintf(f, "sequences-end seed=1 seqs=1 ops=%d failed=0 ms=9\n", n);
	fclose(f);
}

/*
 * Two trees' runs of every phase, each phase's the same @ops but for
 * @other in @phase's run of the second tree: the tally of each phase.
 */
static int trees(const char *const ops[3], int phase,
		 const char *const other[3], struct tally t[MAX_MODES],
		 char *why, size_t len)
{
	char dir[] = "/tmp/unit-relations-trees.XXXXXX";
	static char path[2][MAX_MODES][96];
	const char *paths[2][MAX_MODES];
	int m, k, err;

	if (!mkdtemp(dir))
		abort();
	for (k = 0; k < 2; k++)
		for (m = 0; m < MAX_MODES; m++) {
			snprintf(path[k][m], sizeof(path[k][m]), "%s/%d-%d.txt",
				 dir, k, m);
			paths[k][m] = path[k][m];
			write_trees_run(path[k][m], k && m == phase && other ?
					other : ops, 3);
		}
	err = relations_trees_check(paths[0], paths[1], t, why, len);
	for (k = 0; k < 2; k++)
		for (m = 0; m < MAX_MODES; m++)
			unlink(path[k][m]);
	rmdir(dir);
	return err;
}

/*
 * A fresh proc on slot 0 (propagated to 2), a bind remount that clears
 * its nosuid, then a fresh proc on slot 1: where the walk may lend slot
 * 0's flags (c) or the host's (e).
 */
static const char *const tree_ops[3] = {
	"mount proc 0 e ret=0 m=e-e-ee p=3 l=0-0-ee f=p-p-ps sb=w-w-ww",
	"bindremount 0 c ret=0 m=c-c-ee p=3 l=0-0-ee f=p-p-ps sb=w-w-ww",
	"mount proc 1 e ret=0 m=ceceee p=3 l=0000ee f=ppppps sb=wwwwww",
};

static void test_trees(void)
{
	static struct tally t[MAX_MODES];
	const char *ops[3];
	char why[512] = "";
	int m, clean = 1;

	/* The same on both trees: every phase compares, none is red. */
	memcpy(ops, tree_ops, sizeof(ops));
	ops[2] = "umount 0 ret=0 m=----ee p=3 l=----ee f=----ps sb=----ww";
	if (trees(ops, -1, NULL, t, why, sizeof(why)))
		clean = 0;
	for (m = 0; m < MAX_MODES; m++)
		clean &= t[m].ops == 3 && !t[m].violations;
	tap(clean, "relations: two trees that agree compare clean, every phase %s",
	    why);

	/* Another result where the walk cannot matter is red. */
	memcpy(ops, tree_ops, sizeof(ops));
	ops[1] = "bindremount 0 c ret=EPERM m=e-e-ee p=3 l=0-0-ee f=p-p-ps sb=w-w-ww";
	if (trees(tree_ops, PHASE_WARN, ops, t, why, sizeof(why)))
		clean = 0;
	tap(t[PHASE_WARN].violations == 1 && !t[PHASE_LEGACY].violations &&
	    strstr(t[PHASE_WARN].kept[0], "operation 1: ") &&
	    strstr(t[PHASE_WARN].kept[0], "up to it: mount proc 0 e; bindremount 0 c"),
	    "relations: another tree's other result turns its phase red (%s) %s",
	    t[PHASE_WARN].violations ? t[PHASE_WARN].kept[0] : "none", why);

	/* Where the walk may decide, the sequence stops: not red. */
	memcpy(ops, tree_ops, sizeof(ops));
	ops[2] = "mount proc 1 e ret=0 m=ccccee p=3 l=0000ee f=ppppps sb=wwwwww";
	trees(tree_ops, PHASE_LEGACY, ops, t, why, sizeof(why));
	tap(!t[PHASE_LEGACY].violations && t[PHASE_LEGACY].named == 1 &&
	    t[PHASE_LEGACY].ops == 3,
	    "relations: a fresh mount whose visible mounts differ stops where the walk may matter (%ld) %s",
	    t[PHASE_LEGACY].named, why);

	/*
	 * Slot 0 as the host's /proc in flags and mount locks, but on a
	 * read-only superblock: it lends a read-only lock, so the walk may
	 * still matter.
	 */
	{
		static const char *const ro_sb[3] = {
			"mount proc 0 e ret=0 m=e-e-ee p=3 l=e-e-ee f=p-p-ps sb=r-r-ww",
			"bindremount 0 e ret=0 m=e-e-ee p=3 l=e-e-ee f=p-p-ps sb=r-r-ww",
			"mount proc 1 e ret=0 m=eeeeee p=3 l=efefee f=ppppps sb=rwrwww",
		};
		const char *other[3] = { ro_sb[0], ro_sb[1],
			"mount proc 1 e ret=0 m=eeeeee p=3 l=eeeeee f=ppppps sb=rwrwww" };

		trees(ro_sb, PHASE_ENFORCE, other, t, why, sizeof(why));
		tap(!t[PHASE_ENFORCE].violations && t[PHASE_ENFORCE].named == 1,
		    "relations: a read-only superblock counts as a read-only lock of the candidate (%d violations, %ld stopped) %s",
		    t[PHASE_ENFORCE].violations, t[PHASE_ENFORCE].named, why);
	}
}

/* Records that do not say what each mount is cannot be held to a tree. */
static void test_trees_unsaid(void)
{
	static struct tally t[MAX_MODES];
	const char *ops[3];
	char why[512] = "";
	int i;

	for (i = 0; i < 3; i++)
		ops[i] = agreeing[PHASE_LEGACY][i];
	tap(trees(ops, -1, NULL, t, why, sizeof(why)) && strstr(why, "no f="),
	    "relations: runs without f= are refused for two trees: %s", why);
}

void test_relations(void)
{
	test_agreeing();
	test_broken();
	test_rate_limit();
	test_bad_runs();
	test_raised_boot();
	test_raise();
	test_raise_group();
	test_group_before_raise();
	test_after_raise();
	test_trees();
	test_trees_unsaid();
	test_stale();
}
