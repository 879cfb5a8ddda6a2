/* SPDX-License-Identifier: GPL-2.0 */
/* The fleet step's tenants and their lines, judged (judge_fleet.c). */
#ifndef JUDGE_FLEET_H
#define JUDGE_FLEET_H

#include "../contract/spec.h"
#include "verdicts.h"

/* The fleet step of @run in phase @mode: each check a verdict on @v. */
void judge_fleet(struct verdicts *v, const struct spec *spec,
		 const struct run *run, int mode);

#endif
