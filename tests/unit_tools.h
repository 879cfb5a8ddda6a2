/* SPDX-License-Identifier: GPL-2.0 */
/* The tools' expected verdicts (tool_spec.c), for the unit tests. */
#ifndef UNIT_TOOLS_H
#define UNIT_TOOLS_H

void test_tool_spec(const char *spec_path);

#endif
