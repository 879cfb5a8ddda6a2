/* SPDX-License-Identifier: GPL-2.0 */
/* The fleet step's judge (judge_fleet.c), for the unit tests. */
#ifndef UNIT_FLEET_H
#define UNIT_FLEET_H

#include "../contract/spec.h"

void test_fleet(const struct spec *spec);

#endif
