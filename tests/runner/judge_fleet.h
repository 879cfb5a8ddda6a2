/* SPDX-License-Identifier: GPL-2.0 */
/* The fleet step's tenants and their lines, judged (judge_fleet.c). */
#ifndef JUDGE_FLEET_H
#define JUDGE_FLEET_H

#include "../contract/spec.h"

/* Print TAP for the fleet step of @run in phase @mode. */
void judge_fleet(const struct spec *spec, const struct run *run, int mode);

#endif
