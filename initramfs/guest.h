/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the pieces of the test guest's /init. */
#ifndef GUEST_H
#define GUEST_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Mount flags as the guest reports them, in this order. */
enum {
	F_RO = 1 << 0,
	F_NOSUID = 1 << 1,
	F_NODEV = 1 << 2,
	F_NOEXEC = 1 << 3,
};
#define F_EXEC (F_NOSUID | F_NODEV | F_NOEXEC)
#define F_ALL (F_RO | F_EXEC)

enum op {
	OP_MOUNT,		/* fresh mount(2) */
	OP_FSMOUNT,		/* fsopen, fsconfig, fsmount, move_mount */
	OP_REMOUNT,		/* fresh mount, then MS_REMOUNT */
	OP_BIND_REMOUNT,	/* fresh mount, then MS_REMOUNT | MS_BIND */
	OP_SETATTR,		/* fresh mount, then mount_setattr(2) */
	OP_HOST_BIND_REMOUNT,	/* bind the host's mount, MS_REMOUNT|MS_BIND */
	OP_HOST_CLONE_SETATTR,	/* open_tree(OPEN_TREE_CLONE), mount_setattr */
	OP_SYSCTL,		/* write fs.proc_sysfs_mount_flags */
};


/* The unprivileged user that creates the containers. */
#define GUEST_UID 1000

extern FILE *results;

void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *what) __attribute__((noreturn));
long now_ms(void);
unsigned long ms_flags(int f);
unsigned long attr_flags(int f);
void flag_names(int f, char *buf, size_t len);
int landed_flags(const char *path);
int global_pid(void);
int wait_child(pid_t pid);
void host_layout(int host);
void enter_userns(void);
void enter_container(int depth);
int fresh_mount(const char *fs, const char *target, int f);
int fs_mount_api(const char *fs, const char *target, int f);
int change_flags(enum op op, const char *target, int f);

/* exhaustive.c, stress.c, bench.c */
void run_exhaustive(void);
void run_stress(void);
void run_bench(void);

/* userspace.c */
void run_userspace(void);

/* init.c: the warning's rate limit, as the guest sees it */
void count_warnings(const char *line);
void wait_fresh_ratelimit(void);

/* init.c: the run-time phase; 0 or an errno */
int sysctl_write(const char *value);

/* kmsg.c */
const char *errno_name(int err);
int kmsg_open_at_end(void);
void kmsg_forward(int fd, const char *tag, void (*seen)(const char *line));
void kmsg_settle(int quiet_ms, int max_ms);
void kmsg_forward_boot(const char *tag, const char *prefix);

#endif
