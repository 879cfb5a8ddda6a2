/* SPDX-License-Identifier: GPL-2.0 */
/* The real container tools of the userspace step, and how each is set up. */
#ifndef TOOLS_H
#define TOOLS_H

#include <sys/types.h>

/* The subordinate ids of the unprivileged user, as useradd gives them. */
#define SUBID_FIRST 100000
#define SUBID_COUNT 65536

/* An OCI runtime's bundle: its config.json, from "RUNTIME spec --rootless". */
enum oci_spec {
	OCI_NONE,
	OCI_GENERATED,	/* as the runtime generates it */
	OCI_DOCKER,	/* with the proc and sysfs mounts Docker and Podman use */
	OCI_FIXED,	/* with nosuid, noexec and nodev on its proc mount */
};

struct tool {
	const char *name;
	uid_t uid;		/* who starts it */
	/* run as root first: its tree, its config */
	void (*prepare)(const struct tool *t);
	const char *config;	/* LXC: the container's mount lines */
	enum oci_spec spec;	/* OCI runtimes: the bundle's config.json */
	/*
	 * A row that warns or fails in some phase: the row that shows its
	 * fix working, and the change a user makes, as they make it.
	 */
	const char *fixed_by, *fix;
	/*
	 * Where its config mounts proc or sysfs besides /proc and /sys, by
	 * spaces: the sandboxed command must see a mount there.
	 */
	const char *needs;
	/*
	 * The most warning lines one run logs under warn, so that the run
	 * is paced into a window of the rate limit with room for them and
	 * one more: the guest stops with an error naming the row when a run
	 * logs so many more that the window may have dropped one.
	 */
	int warn_lines;
	int timeout_s;		/* 0: the default, 20 s */
	const char *version;	/* whose --version: NULL, argv[0] */
	const char *const argv[24];
};

extern const struct tool tools[];
extern const int n_tools;

#endif
