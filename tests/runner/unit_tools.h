/* SPDX-License-Identifier: GPL-2.0 */
/* The tools' expected verdicts (tool_spec.c), for the unit tests. */
#ifndef UNIT_TOOLS_H
#define UNIT_TOOLS_H

void test_tool_spec(const char *spec_path);
/* A booted Debian system's records and tables (unit_system.c). */
void test_system(const char *spec_path);
/* @text into a new file named by @path, a mkstemp() template; 0, or -1. */
int unit_temp_file(char *path, const char *text);

#endif
