/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the pieces of the test guest's /init. */
#ifndef GUEST_H
#define GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "../tests/contract/protocol.h"

/* What one operation is asked to do; unused fields are 0. */
struct op_req {
	const char *fs;		/* "proc" or "sysfs" */
	int flags;		/* F_* the operation asks for */
	int visible;		/* change ops: F_* of the fresh mount */
	int sub;		/* change ops: change a bind of a subdirectory */
	int tolerant;		/* change ops: a failed set-up fails the op */
	const char *value;	/* OP_SYSCTL: the value written */
	/* change ops: called between the set-up and the change */
	void (*between)(const void *ctx);
	const void *ctx;
};

/* The unprivileged user that creates the containers. */
#define GUEST_UID 1000

/* guest.c: set-up, reporting, flags, namespaces */
extern FILE *results;

void guest_setup(void);
/* Open the results port (guest_setup() does): for a guest that is not /init. */
void report_open(void);
void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_divert(FILE *f);
void report_replay(FILE *f);
/* Keep a copy of every record from now on in @path. */
void report_keep(const char *path);
void die(const char *what) __attribute__((noreturn));
void end_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
long now_ms(void);
unsigned long ms_flags(int f);
unsigned long attr_flags(int f);
void flag_names(int f, char *buf, size_t len);
/*
 * Under fault injection (faults.c) an allocation may fail: what the guest
 * needs to go on (reading mountinfo, a namespace's set-up, the marker's
 * pipe, an unmount) is tried again up to RETRIES times, while the error is
 * transient() where the error tells.
 */
#define RETRIES 1000
int transient(int err);
/* F_* of the mount at @path, read from /proc/self/mountinfo; -1: none */
int landed_flags(const char *path);
/* The same for @n paths at once, into @flags: 0, or -1 if unreadable. */
int mounts_flags(const char *const *paths, int n, int *flags);
/* The F_* of a mountinfo line's mount options (the string is cut up). */
int mount_option_flags(char *opts);
int global_pid(void);
unsigned int userns_inum(void);
/* children.c: a child's exit code as a shell's $?, or -1 */
int wait_child(pid_t pid);
/* The same, killing the child (and its group) after @ms: then -1. */
int wait_child_within(pid_t pid, long ms);
/* fork(), the child leading a process group of its own */
pid_t fork_group(void);
/* SIGKILL to @pid and to its group, if it leads one */
void kill_group(pid_t pid);
pid_t fork_pipe(int *fd);
void host_layout(int host);
void enter_userns(void);
/* The same, returning the errno if the namespaces cannot be made. */
int try_enter_userns(void);
void enter_container(int depth);
void enter_container_netless(void);
/* fs.proc_sysfs_mount_flags read into @buf, or @value written: 0 or errno */
int sysctl_read(char *buf, size_t len);
int sysctl_write(const char *value);

/* ops.c: perform one operation; 0 or an errno, *where the mount changed */
int do_op(enum op op, const struct op_req *r, const char **where);
void undo_op(enum op op, int err, const char *where);
void undo_all(void);
const char *op_name(enum op op);
const char *op_kernel_name(enum op op);
int fresh_mount(const char *fs, const char *target, int f);

/* files.c: files the guest writes for the tools */
void write_file(const char *path, const char *text, mode_t mode);
void make_dirs(const char *root, const char *const *dirs);
void copy_file(const char *from, const char *to, mode_t mode);
void chown_tree(const char *root, uid_t uid);
char *read_file(const char *path);

/* raiser.c: a process that raises the phase for a container */
struct raiser {
	int req, resp;
	pid_t pid;	/* in the initial pid namespace: the notice names it */
};
void raiser_start(struct raiser *r);
int raise_phase(const struct raiser *r, const char *phase);
void raiser_stop(struct raiser *r);

/* ratelimit.c: the warning's rate limit, as the guest sees it */
void count_warnings(const char *line, long logged_ms);
void pace_warnings(int need);
bool warnings_may_be_cut(void);
void wait_fresh_ratelimit(void);

/* faults.c: fault injection and kmemleak, for the stress and sequences */
int faults_start(void);		/* 0, or -1 after an error record */
int faults_on(void);
void faults_end(void);		/* after every step */
/* A step's processes asking to be marked for fault injection (or not). */
struct marker {
	int req[2], done[2];
};
void marker_open(struct marker *m);	/* before the fork */
void marker_child(struct marker *m);	/* in the child, after it */
void marker_ask(struct marker *m, int value);
/* In the parent: answer until every child is gone or @deadline passes. */
void marker_serve(struct marker *m, long deadline);

/* kmsg.c: the kernel's log */
const char *errno_name(int err);
int kmsg_open_at_end(void);
/* @seen gets each record's text and the kernel's time of it, in ms */
void kmsg_forward(int fd, const char *tag,
		  void (*seen)(const char *line, long logged_ms));
int kmsg_count(int fd, int (*match)(const char *line));
void kmsg_settle(int quiet_ms, int max_ms);
void kmsg_forward_boot(const char *tag, const char *prefix);

/* The steps, each in its own file; init.c runs those PSMF_RUN names. */
void run_matrix(void);
void run_selftest(void);
void run_exhaustive(void);
void run_stress(void);
void run_bench(void);
void run_userspace(void);
void run_upstream(void);
void run_fleet(void);
void run_docs(void);
void run_sequences(void);

#endif
