/* SPDX-License-Identifier: GPL-2.0 */
/* The run's records and verdicts on the console (verdicts.c). */
#ifndef VERDICTS_H
#define VERDICTS_H

/* Where report_keep() keeps the records when PSMF_JUDGE is set. */
#define RECORDS_KEPT "/records"

#include <stdbool.h>

/*
 * Print the records kept in RECORDS_KEPT and the verdict of each case of
 * the steps that ran (the matrix's @scenarios, the @selftest) against
 * /spec.md for phase @phase.
 */
void print_verdicts(const char *phase, bool scenarios, bool selftest);

#endif
