/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operations of the mount scenarios.  Which scenario does what lives
 * here, in the contract; what each scenario must give in each phase lives
 * in tests/spec.md alone.
 */
#ifndef SCENARIOS_H
#define SCENARIOS_H

#include "protocol.h"

struct scenario {
	const char *name;
	const char *fs;		/* "proc" or "sysfs" */
	int host;		/* F_* of the host's proc and sysfs mounts */
	enum op op;
	int flags;		/* F_* the operation asks for */
	int sub;		/* change ops: act on a bind of a subdirectory */
	int nest;		/* user namespaces to create: 0, 1 or 2 */
	int repeat;		/* times to repeat a fresh mount (flood) */
	/*
	 * The run-time phase.  OP_SYSCTL writes @value.  @before is raised
	 * before the (first) mount, @after between the first mount and the
	 * change.  A scenario that raises, or that needs @boot on the kernel
	 * command line, runs in a boot of its own: a raise lasts until the
	 * next boot.
	 */
	const char *value, *before, *after, *boot;
};

static inline int scenario_alone(const struct scenario *s)
{
	return s->before || s->after || s->boot;
}

#define HOST_STD F_EXEC

/*
 * Rows give the leading fields by position and name the run-time phase's
 * fields where they use them; the others are NULL.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct scenario scenarios[] = {
	/* Fresh mounts with each subset of the three flags. */
	{ "mount_proc_all", "proc", HOST_STD, OP_MOUNT, F_EXEC, 0, 1, 1 },
	{ "mount_proc_nodev_noexec", "proc", HOST_STD, OP_MOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "mount_proc_nosuid_noexec", "proc", HOST_STD, OP_MOUNT, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "mount_proc_nosuid_nodev", "proc", HOST_STD, OP_MOUNT, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "mount_proc_noexec", "proc", HOST_STD, OP_MOUNT, F_NOEXEC, 0, 1, 1 },
	{ "mount_proc_nodev", "proc", HOST_STD, OP_MOUNT, F_NODEV, 0, 1, 1 },
	{ "mount_proc_nosuid", "proc", HOST_STD, OP_MOUNT, F_NOSUID, 0, 1, 1 },
	{ "mount_proc_none", "proc", HOST_STD, OP_MOUNT, 0, 0, 1, 1 },
	{ "mount_sysfs_all", "sysfs", HOST_STD, OP_MOUNT, F_EXEC, 0, 1, 1 },
	{ "mount_sysfs_nodev_noexec", "sysfs", HOST_STD, OP_MOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "mount_sysfs_nosuid_noexec", "sysfs", HOST_STD, OP_MOUNT, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "mount_sysfs_nosuid_nodev", "sysfs", HOST_STD, OP_MOUNT, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "mount_sysfs_noexec", "sysfs", HOST_STD, OP_MOUNT, F_NOEXEC, 0, 1, 1 },
	{ "mount_sysfs_nodev", "sysfs", HOST_STD, OP_MOUNT, F_NODEV, 0, 1, 1 },
	{ "mount_sysfs_nosuid", "sysfs", HOST_STD, OP_MOUNT, F_NOSUID, 0, 1, 1 },
	{ "mount_sysfs_none", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 1, 1 },
	/* Read-only. */
	{ "mount_proc_ro_all", "proc", HOST_STD, OP_MOUNT, F_ALL, 0, 1, 1 },
	{ "mount_sysfs_ro_all", "sysfs", HOST_STD, OP_MOUNT, F_ALL, 0, 1, 1 },
	{ "mount_proc_ro_none", "proc", HOST_STD, OP_MOUNT, F_RO, 0, 1, 1 },
	{ "mount_proc_rw_over_ro", "proc", F_ALL, OP_MOUNT, F_EXEC, 0, 1, 1 },
	{ "mount_sysfs_rw_over_ro", "sysfs", F_ALL, OP_MOUNT, F_EXEC, 0, 1, 1 },
	{ "mount_proc_ro_over_ro", "proc", F_ALL, OP_MOUNT, F_ALL, 0, 1, 1 },
	/* The visible mount lacks a flag: nothing to lock. */
	{ "mount_proc_host_without_nosuid", "proc", F_NODEV | F_NOEXEC, OP_MOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "mount_sysfs_host_without_noexec", "sysfs", F_NOSUID | F_NODEV, OP_MOUNT, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "mount_proc_host_bare", "proc", 0, OP_MOUNT, 0, 0, 1, 1 },
	/* Root in the initial user namespace. */
	{ "initns_mount_proc_none", "proc", HOST_STD, OP_MOUNT, 0, 0, 0, 1 },
	{ "initns_mount_sysfs_none", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 0, 1 },
	/* A user namespace nested in another. */
	{ "nested_mount_proc_all", "proc", HOST_STD, OP_MOUNT, F_EXEC, 0, 2, 1 },
	{ "nested_mount_proc_none", "proc", HOST_STD, OP_MOUNT, 0, 0, 2, 1 },
	{ "nested_mount_sysfs_none", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 2, 1 },
	/* Clearing one flag on a fresh mount, and on a bind of part of it. */
	{ "remount_proc_clear_nosuid", "proc", HOST_STD, OP_REMOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "remount_proc_clear_nodev", "proc", HOST_STD, OP_REMOUNT, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "remount_proc_clear_noexec", "proc", HOST_STD, OP_REMOUNT, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "bindremount_proc_clear_nosuid", "proc", HOST_STD, OP_BIND_REMOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "bindremount_proc_clear_nodev", "proc", HOST_STD, OP_BIND_REMOUNT, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "bindremount_proc_clear_noexec", "proc", HOST_STD, OP_BIND_REMOUNT, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "setattr_proc_clear_nosuid", "proc", HOST_STD, OP_SETATTR, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "setattr_proc_clear_nodev", "proc", HOST_STD, OP_SETATTR, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "setattr_proc_clear_noexec", "proc", HOST_STD, OP_SETATTR, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "remount_procsys_clear_nosuid", "proc", HOST_STD, OP_REMOUNT, F_NODEV | F_NOEXEC, 1, 1, 1 },
	{ "remount_procsys_clear_nodev", "proc", HOST_STD, OP_REMOUNT, F_NOSUID | F_NOEXEC, 1, 1, 1 },
	{ "remount_procsys_clear_noexec", "proc", HOST_STD, OP_REMOUNT, F_NOSUID | F_NODEV, 1, 1, 1 },
	{ "bindremount_procsys_clear_nosuid", "proc", HOST_STD, OP_BIND_REMOUNT, F_NODEV | F_NOEXEC, 1, 1, 1 },
	{ "bindremount_procsys_clear_nodev", "proc", HOST_STD, OP_BIND_REMOUNT, F_NOSUID | F_NOEXEC, 1, 1, 1 },
	{ "bindremount_procsys_clear_noexec", "proc", HOST_STD, OP_BIND_REMOUNT, F_NOSUID | F_NODEV, 1, 1, 1 },
	{ "setattr_procsys_clear_nosuid", "proc", HOST_STD, OP_SETATTR, F_NODEV | F_NOEXEC, 1, 1, 1 },
	{ "setattr_procsys_clear_nodev", "proc", HOST_STD, OP_SETATTR, F_NOSUID | F_NOEXEC, 1, 1, 1 },
	{ "setattr_procsys_clear_noexec", "proc", HOST_STD, OP_SETATTR, F_NOSUID | F_NODEV, 1, 1, 1 },
	{ "remount_sysfs_clear_all", "sysfs", HOST_STD, OP_REMOUNT, 0, 0, 1, 1 },
	{ "bindremount_sysfs_clear_all", "sysfs", HOST_STD, OP_BIND_REMOUNT, 0, 0, 1, 1 },
	{ "setattr_sysfs_clear_all", "sysfs", HOST_STD, OP_SETATTR, 0, 0, 1, 1 },
	{ "bindremount_proc_keep_add_ro", "proc", HOST_STD, OP_BIND_REMOUNT, F_ALL, 0, 1, 1 },
	{ "setattr_sysfs_keep_add_ro", "sysfs", HOST_STD, OP_SETATTR, F_ALL, 0, 1, 1 },
	/* The new mount API. */
	{ "fsmount_proc_attrs", "proc", HOST_STD, OP_FSMOUNT, F_EXEC, 0, 1, 1 },
	{ "fsmount_proc_none", "proc", HOST_STD, OP_FSMOUNT, 0, 0, 1, 1 },
	{ "fsmount_sysfs_attrs", "sysfs", HOST_STD, OP_FSMOUNT, F_EXEC, 0, 1, 1 },
	{ "fsmount_sysfs_none", "sysfs", HOST_STD, OP_FSMOUNT, 0, 0, 1, 1 },
	/* Locks that came from the host. */
	{ "hostbind_proc_clear_nosuid", "proc", HOST_STD, OP_HOST_BIND_REMOUNT, F_NODEV | F_NOEXEC, 0, 1, 1 },
	{ "hostbind_sysfs_clear_nodev", "sysfs", HOST_STD, OP_HOST_BIND_REMOUNT, F_NOSUID | F_NOEXEC, 0, 1, 1 },
	{ "hostclone_proc_clear_noexec", "proc", HOST_STD, OP_HOST_CLONE_SETATTR, F_NOSUID | F_NODEV, 0, 1, 1 },
	{ "hostclone_sysfs_clear_nosuid", "sysfs", HOST_STD, OP_HOST_CLONE_SETATTR, F_NODEV | F_NOEXEC, 0, 1, 1 },
	/*
	 * The 2015 breakages, as the LWN article of 2015-06-10 describes
	 * them: LXC mounted sysfs without nosuid, nodev and noexec;
	 * libvirt-lxc bound /proc/sys and remounted it read-only without
	 * the flags of the host's /proc.
	 */
	{ "lxc_2015_sysfs", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 1, 1 },
	{ "libvirt_lxc_2015_proc_sys", "proc", HOST_STD, OP_BIND_REMOUNT, F_RO, 1, 1, 1 },
	/* Many offending mounts in a row: the warning is rate limited. */
	{ "flood_sysfs_none", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 1, 40 },
	/* The sysctl: written by root of the initial namespaces, or not. */
	{ "sysctl_loosen_to_legacy", "proc", HOST_STD, OP_SYSCTL, 0, 0, 0, 1,
	  .value = "legacy" },
	{ "sysctl_unknown_value", "proc", HOST_STD, OP_SYSCTL, 0, 0, 0, 1,
	  .value = "bogus" },
	{ "sysctl_from_user_namespace", "proc", HOST_STD, OP_SYSCTL, 0, 0, 1, 1,
	  .value = "enforce" },
	/* Raises, each in a boot of its own. */
	{ "raise_enforce_then_mount_proc_none", "proc", HOST_STD, OP_MOUNT, 0, 0, 1, 1,
	  .before = "enforce" },
	{ "raise_warn_then_mount_sysfs_none", "sysfs", HOST_STD, OP_MOUNT, 0, 0, 1, 1,
	  .before = "warn" },
	{ "raise_enforce_then_remount_proc_clear_nosuid", "proc", HOST_STD, OP_REMOUNT,
	  F_NODEV | F_NOEXEC, 0, 1, 1, .after = "enforce" },
	{ "raise_enforce_then_setattr_procsys_clear_noexec", "proc", HOST_STD, OP_SETATTR,
	  F_NOSUID | F_NODEV, 1, 1, 1, .after = "enforce" },
	{ "raise_warn_then_bindremount_proc_clear_nodev", "proc", HOST_STD, OP_BIND_REMOUNT,
	  F_NOSUID | F_NOEXEC, 0, 1, 1, .after = "warn" },
	{ "warn_mount_then_raise_enforce_bindremount", "proc", HOST_STD, OP_BIND_REMOUNT,
	  F_NODEV | F_NOEXEC, 0, 1, 1, .before = "warn", .after = "enforce" },
	{ "raise_implicit_then_bindremount_proc_clear_nosuid", "proc", HOST_STD,
	  OP_BIND_REMOUNT, F_NODEV | F_NOEXEC, 0, 1, 1, .after = "implicit" },
	{ "raise_implicit_then_setattr_proc_clear_nodev", "proc", HOST_STD,
	  OP_SETATTR, F_NOSUID | F_NOEXEC, 0, 1, 1, .after = "implicit" },
	/* An unknown boot value keeps the phase the kernel had. */
	{ "boot_unknown_value", "proc", HOST_STD, OP_MOUNT, 0, 0, 1, 1,
	  .boot = "proc_sysfs_mount_flags=bogus" },
};
#pragma GCC diagnostic pop

#define N_SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

#endif
