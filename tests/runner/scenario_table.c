// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's scenario table, compiled for the host.  A scenario is
 * covered by the model when it is one operation by a process in a user
 * namespace on a fresh mount over the scenario's host, with no raise of
 * the phase, no boot parameter and no sysctl.
 */
#include "../contract/scenarios.h"
#include "model.h"
#include "scenario_table.h"

static int model_op_of(const struct scenario *s)
{
	if (!s->nest || scenario_alone(s) || s->value)
		return -1;
	switch (s->op) {
	case OP_MOUNT:
		return MOP_MOUNT;
	case OP_FSMOUNT:
		return MOP_FSMOUNT;
	case OP_REMOUNT:
		return MOP_REMOUNT;
	case OP_BIND_REMOUNT:
		return MOP_BIND_REMOUNT;
	case OP_SETATTR:
		return MOP_SETATTR;
	default:
		return -1;	/* binds and clones of the host's own mounts */
	}
}

size_t scenario_count(void)
{
	return N_SCENARIOS;
}

void scenario_get(size_t i, struct scenario_info *out)
{
	const struct scenario *s = &scenarios[i];

	out->name = s->name;
	out->fs = s->fs;
	out->host = s->host;
	out->flags = s->flags;
	out->model_op = model_op_of(s);
	out->alone = scenario_alone(s);
	out->boot = s->boot;
}
