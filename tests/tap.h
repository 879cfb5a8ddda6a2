/* SPDX-License-Identifier: GPL-2.0 */
/* TAP on stdout, for the runner and the host unit tests. */
#ifndef TAP_H
#define TAP_H

#include <stdbool.h>

/* One numbered test line; the plan is printed at the end. */
void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print the plan; returns the exit status: 1 if any line failed. */
int tap_end(void);

#endif
