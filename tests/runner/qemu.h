/* SPDX-License-Identifier: GPL-2.0 */
/* Starting QEMU for one boot of the guest. */
#ifndef QEMU_H
#define QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "runner.h"
#include "verdicts.h"

void command_line(const struct opts *o, const char *scenario,
		  const char *extra, char *buf, size_t len);
int run_qemu(const struct opts *o, const char *append, const char *results,
	     const char *console, bool *timed_out);
/*
 * Wait for @pid, the leader of its process group; kill the group once
 * now_ms() passes @deadline_ms.  Returns its wait status; *killed says
 * whether it was killed.
 */
int wait_limited(pid_t pid, long deadline_ms, bool *killed);
void check_qemu(struct verdicts *v, const struct opts *o, const char *what,
		int status, bool timed_out);

#endif
