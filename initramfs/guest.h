/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the pieces of the test guest's /init. */
#ifndef GUEST_H
#define GUEST_H

#include <stddef.h>
#include <sys/types.h>

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

/* kmsg.c */
const char *errno_name(int err);
int kmsg_open_at_end(void);
void kmsg_forward(int fd, const char *tag, void (*seen)(const char *line));
void kmsg_settle(int quiet_ms, int max_ms);

#endif
