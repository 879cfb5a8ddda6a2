/* SPDX-License-Identifier: GPL-2.0 */
/* The sequence model's walks (seq_model.c N1), for the host's unit tests. */
#ifndef UNIT_WALK_H
#define UNIT_WALK_H

void test_seq_walk(const char *spec_path);

#endif
