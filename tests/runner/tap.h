/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP on stdout: the rendering of the runner's verdicts (verdicts.h, the
 * only caller in the runner's commands) and of host-unit's own checks.
 */
#ifndef TAP_H
#define TAP_H

#include <stdbool.h>

/* One numbered test line; the plan is printed at the end. */
void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A figure the test measured, as a TAP comment "# figure: ...": the run's
 * figures file (tests/figures/) collects them.
 */
void tap_figure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan; returns the exit status: 1 if any line failed. */
int tap_end(void);

#endif
