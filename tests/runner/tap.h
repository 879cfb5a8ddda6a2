/* SPDX-License-Identifier: GPL-2.0 */
/* TAP on stdout, for the runner and the host unit tests. */
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

/*
 * A named case's verdict (@def: kunit, scenarios or kselftest; @id: its
 * name): a TAP line, and a call of the hook when one is set.
 */
void tap_case(const char *def, const char *id, bool pass, const char *what);
typedef void tap_hook(const char *def, const char *id, bool pass);
/*
 * Hand every named case to @hook.  With @quiet, tap() and tap_case() print
 * comments that count for nothing: the caller judges by the hook.
 */
void tap_set_hook(tap_hook *hook, bool quiet);
/* How many quiet tap() lines that are no named case failed. */
int tap_quiet_failed(void);
/*
 * Judging a made-up run in a unit test: quiet from tap_quiet_start() (it
 * returns a mark) to tap_quiet_stop(mark), which returns how many of the
 * tap() checks between them failed.
 */
int tap_quiet_start(void);
int tap_quiet_stop(int mark);

#endif
