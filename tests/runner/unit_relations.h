/* SPDX-License-Identifier: GPL-2.0 */
/* The relations between the phases' runs (relations.c), for the unit tests. */
#ifndef UNIT_RELATIONS_H
#define UNIT_RELATIONS_H

void test_relations(void);

#endif
