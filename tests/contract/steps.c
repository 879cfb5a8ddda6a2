// SPDX-License-Identifier: GPL-2.0
/* The steps' names (steps.h), for the guest and the runner alike. */
#include <stdio.h>
#include <string.h>

#include "steps.h"

#define NAME(n) #n,
static const char *const names[] = { PSMF_STEPS(NAME) };
#define N_STEPS (sizeof(names) / sizeof(*names))

bool step_wanted(const char *list, const char *step)
{
	size_t len;
	const char *p;

	for (p = list; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if (len == strlen(step) && !strncmp(p, step, len))
			return true;
	}
	return false;
}

const char *step_unknown(const char *list)
{
	static char name[64];
	const char *p;
	size_t i, len;

	for (p = list; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		for (i = 0; i < N_STEPS && strcmp(name, names[i]); i++)
			;
		if (i == N_STEPS)
			return name;
	}
	return NULL;
}

const char *step_names(void)
{
	static char buf[256];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < N_STEPS; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? ", " : "", names[i]);
	return buf;
}
