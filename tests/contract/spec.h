/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spec table (tests/spec.md), the guest's results, and the judgement
 * of one against the other.  Parsing and judging are pure: no QEMU here.
 */
#ifndef SPEC_H
#define SPEC_H

#include <stdbool.h>
#include <stdio.h>

#include "phases.h"	/* generated from configs/phases */
#include "protocol.h"

/*
 * The phases, in the order of the spec's columns, of the reports and of
 * the sysctl's one-way rule; all_modes[] names them.
 */
#define PHASE_ENUM(name, str) PHASE_##name,
enum phase { PHASES(PHASE_ENUM) MAX_MODES };
#define MAX_SCENARIOS 256
#define MAX_LINES 64
#define MAX_TOOLS 24		/* tools in one userspace run */
#define TOOL_MAX_LINES 16	/* kernel lines kept per tool */
#define TOOL_MAX_OUT 40		/* output lines kept per tool */
#define MAX_BENCH 4
#define MAX_ALONE 16		/* scenarios that need a boot of their own */
#define MAX_UPSTREAM 16		/* programs of the upstream suite */
#define MAX_TENANTS 8		/* containers of the fleet step */
#define MAX_FLEET_LINES 512
#define UPSTREAM_MAX_OUT 256	/* output lines kept per program */
#define MAX_GRUB_LINES 16	/* a GRUB boot: linux lines and output kept */
#define MAX_SYSCTL_LINES 64	/* a sysctl.d boot: journal and kernel lines kept */
#define MAX_FAILED 16		/* failed units kept per systemctl --failed */

extern const char *const all_modes[MAX_MODES];


enum outcome { ALLOWED, WARNED, REFUSED };

#define MAX_RAISES 2

struct cell {
	enum outcome outcome;
	int flags;		/* landed flags, when allowed or warned */
	int cleared;		/* flags the warning names */
	char err[16];		/* errno name, when refused */
	/*
	 * Kernel lines of the run-time phase the scenario must cause, each
	 * once: "raised:OLD>NEW" (the sysctl's notice of a change) and
	 * "unknown:VALUE>KEPT" (a bad boot value, the phase kept).
	 */
	int n_raised;
	char raised[MAX_RAISES][2][16];	/* OLD, NEW */
	char unknown[2][32];		/* VALUE, KEPT; "" when none */
};

struct spec_row {
	char name[64];
	char what[256];
	struct cell cell[MAX_MODES];
};

struct spec {
	int n;
	struct spec_row row[MAX_SCENARIOS];
};

struct result {
	char name[64];
	char op[16], fs[16], ret[16], comm[32];
	int flags;		/* -1 when nothing landed */
	int pid, ok, tries;
	int raiser;		/* pid of the process that raised the phase */
	unsigned int userns;	/* inode of its user namespace, 0 if unsaid */
	long ms;
	int n_lines;
	char *lines[MAX_LINES];	/* kernel lines logged during the scenario */
};

/* One case of the exhaustive run. */
struct xcase {
	char fs[8], op[16], ret[16];
	int visible, requested, flags;
};

/* An outcome of the stress run, and how often one worker saw it. */
struct scase {
	char fs[8], op[16], ret[16];
	int requested, flags;
	long n;
};

/* A real container tool's run (the userspace suite). */
struct tool_run {
	char name[64], version[128];
	char fixed_by[64], fix[256];	/* the row showing its fix, the change */
	char needs[256];	/* mount points its config asks for, by spaces */
	int uid;		/* who started it in the guest */
	int exit;		/* -1: killed at the time limit */
	char skipped[128];	/* not run: why; "" if it ran */
	long ms;
	int n_lines, n_out;
	char *lines[TOOL_MAX_LINES];	/* kernel lines it caused */
	char *out[TOOL_MAX_OUT];	/* its output */
};

/* One of the kernel's own selftests (the upstream suite). */
struct upstream_run {
	char name[64];
	int exit;		/* -1: killed at the time limit */
	long ms;
	int n_out;
	char *out[UPSTREAM_MAX_OUT];
};

#define MAX_DOCS_SETTINGS 8

/* A file a boot was made from, as its "host file" record stamped it. */
struct made_from {
	char path[512];
	long long mtime_ns, size;
};

struct run {
	char release[64];
	bool ended;		/* "end ok" seen */
	char end[256];		/* the end line, or why it is missing */
	char last_begun[64];	/* the scenario the guest was in */
	int boots, boots_ended;	/* "start" and "end ok" records */
	int bad_ends;		/* "end" records that are not "end ok" */
	int n_alone;		/* scenarios that want a boot of their own */
	struct {
		char name[64], arg[64];	/* arg: extra kernel parameter or "-" */
	} alone[MAX_ALONE];
	long wall_ms;
	int n_made_by;		/* "host file" records: the boot's kernel, initramfs */
	struct made_from made_by[2];
	int n;
	struct result res[MAX_SCENARIOS];
	int n_selftest;
	char *selftest[512];	/* the kselftest's TAP, as printed */
	int selftest_exit;
	int selftest_tmp_left;		/* entries it left in /tmp; -1: unread */
	int selftest_unpriv_exit;	/* its exit status without root */
	char selftest_unpriv[128];	/* its first line without root */
	int n_x;
	struct xcase *x;	/* the exhaustive run's cases */
	long x_ms;		/* its duration; -1 until it ended */
	int x_warnings;		/* warning lines it caused (rate limited) */
	int n_s;
	struct scase *s;	/* the stress run's outcome counts */
	long s_ms, s_ops;	/* its duration (-1 until it ended), operations */
	int s_warnings, s_failed;
	int n_tools;
	struct tool_run tools[MAX_TOOLS];
	int upstream_count;	/* programs the guest found; -1: no step */
	int n_upstream;
	struct upstream_run upstream[MAX_UPSTREAM];
	int n_bench;
	struct {
		char label[32];
		long ops, ms;
	} bench[MAX_BENCH];	/* the mount-path benchmark */
	/* Fault injection and kmemleak (PSMF_FAULTS) */
	bool faults;		/* "faults on" */
	int fault_errors;	/* "faults error" records */
	long slab_hits, page_hits;	/* failures injected; -1: no record */
	int leaks;		/* kmemleak's unreferenced objects; -1: no scan */
	/* The fleet step (initramfs/fleet.c) */
	int n_tenants;
	struct tenant {
		char comm[32];
		int pid, ops, ok;
		unsigned int userns;
		bool died;
	} tenants[MAX_TENANTS];
	int n_fleet_lines;
	char *fleet_lines[MAX_FLEET_LINES];	/* its kernel lines */
	bool fleet_lines_cut;	/* more than MAX_FLEET_LINES */
	long fleet_ms;		/* its duration; -1 until it ended */
	/* The docs step (initramfs/docs.c) */
	char docs_before[16], docs_after[16];	/* the phase; "" if unread */
	int docs_sh, docs_sysctl;	/* exit statuses; -2: no record */
	int n_docs_settings;
	struct {
		char file[128], value[16];
	} docs_settings[MAX_DOCS_SETTINGS];	/* fs.proc_sysfs_mount_flags lines */
	/* A Debian system's checks (initramfs/system.c) */
	char sys_os[32];	/* its VERSION_CODENAME; "" if unsaid */
	int sys_systemd;	/* systemd's version; 0 if unread */
	char sys_phase[32];	/* the phase /proc/sys read; "" if unsaid */
	int n_failed[2];	/* systemctl --failed: after the boot, after the checks */
	char failed[2][MAX_FAILED][64];	/* the units; "-" alone: none */
	/* A boot that checks /etc/sysctl.d/: "" if unsaid */
	char sys_sysctl_d[32];	/* the phase the file said, or "absent" */
	char sys_sysctl_unit[64];	/* systemd-sysctl.service: "Result=..." */
	/* when it started, when the file was written (µs since boot; 0: never) */
	unsigned long long sysctl_started, sysctl_written;
	int sysctl_writer_status;	/* the doc's as-root blocks' exit; -1: unsaid */
	int n_sysctl_log;
	char *sysctl_log[MAX_SYSCTL_LINES];	/* its journal's lines */
	int n_sys_kmsg;
	char *sys_kmsg[MAX_SYSCTL_LINES];	/* the kernel's VFS lines of the boot */
	bool sys_lines_cut;	/* more journal or kernel lines than kept */
	/* A boot that checks GRUB's step (psmf.grub=edit, then =boot) */
	int grub_run, grub_undo_run;	/* the steps' exit statuses; -2: no record */
	int n_grub_linux, n_grub_undo_linux, n_grub_out;
	char *grub_linux[MAX_GRUB_LINES];	/* the arguments of grub.cfg's linux lines */
	char *grub_undo_linux[MAX_GRUB_LINES];	/* the same after the step back */
	char *grub_out[MAX_GRUB_LINES];	/* the step's output */
	char grub_cmdline[1024];	/* the kernel's command line; "" if unsaid */
};

/* A judgement: whether the observation matches the cell, and why not. */
struct verdict {
	bool pass;
	enum outcome seen;
	char why[1024];
};

int mode_index(const char *mode);
int parse_flags(const char *s);
void format_flags(int flags, char *buf, size_t len);
void format_cell(const struct cell *c, char *buf, size_t len);
int parse_cell(const char *s, struct cell *c);
/* Where the scenarios' table ends and the sequences' begins. */
#define SEQ_SPEC_HEADING "## Sequences"
int spec_load(const char *path, struct spec *spec, char *err, size_t len);
/* Split a markdown table row into at most @max trimmed cells (cut up). */
int split_row(char *line, char **cells, int max);
/*
 * The lines after one table of a file that holds several: a line of '|'
 * there must belong to another table, whose header is followed by its
 * delimiter row.  Feed each line after the table's end (from 0 state);
 * false on a row cut off from a table by a blank or a text line.
 */
bool md_after_table(int *state, const char *line);
const struct spec_row *spec_find(const struct spec *spec, const char *name);
int run_load(const char *path, struct run *run);
void run_free(struct run *run);
const struct result *run_find(const struct run *run, const char *name);
const struct tool_run *run_find_tool(const struct run *run, const char *name);
/*
 * The stamp a "host file" record keeps of @path: its modification time in
 * ns and its size; -1 if it cannot be read.  Written by boot, compared by
 * the tests that read the results later.
 */
int file_stamp(const char *path, long long *mtime_ns, long long *size);
/* A "host file" record @line into @m[*@n] (room for 2): 0, or -1. */
int made_from_parse(const char *line, struct made_from *m, int *n);
/*
 * 1 with why in @why if the results at @path (of the test @name), made
 * from @m's @n files, are stale or do not say what made them; else 0.
 */
int made_from_stale(const struct made_from *m, int n, const char *path,
		    const char *name, char *why, size_t len);
/*
 * Do @r's results (read from @path, written by the test @name) belong to
 * this build: are the kernel and initramfs they were made from still as
 * they were?  If not, say so in a TAP comment; 1 if stale.
 */
int run_stale(const char *name, const char *path, const struct run *r);
/* Did the guest leave scenario @name out of the main boot ("alone")? */
bool run_left_out(const struct run *run, const char *name);
void expected_warning(const struct result *r, int cleared, char *buf,
		      size_t len);
void expected_raise(const struct result *r, const char *old, const char *new,
		    char *buf, size_t len);
void expected_unknown(const char *value, const char *kept, char *buf,
		      size_t len);
struct verdict judge(const struct cell *c, const struct result *r);
const char *outcome_name(enum outcome o);
bool is_splat(const char *line);
/* A line of the series: a warning, or the sysctl's notice of a raise */
bool is_warning(const char *line);
bool is_raise_notice(const char *line);
/*
 * A rate limit's account of a user namespace, "VFS: user:[I] had N more
 * ... suppressed": N, with I in *@userns; or -1 for any other line.
 */
int suppressed_count(const char *line, unsigned int *userns);

#endif
