/* SPDX-License-Identifier: GPL-2.0 */
/* The matrix reports (report.c), for the unit tests. */
#ifndef UNIT_REPORT_H
#define UNIT_REPORT_H

#include "../contract/spec.h"

void test_report(const struct spec *spec);

#endif
