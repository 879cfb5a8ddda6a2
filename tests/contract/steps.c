// SPDX-License-Identifier: GPL-2.0
/* The steps' names (steps.h), for the guest and the runner alike. */
#include <stdio.h>
#include <string.h>

#include "steps.h"

#define NAME(n, kinds) #n,
static const char *const names[] = { PSMF_STEPS(NAME) };
#define N_STEPS (sizeof(names) / sizeof(*names))
#define KINDS(n, kinds) kinds,
static const char *const kinds[] = { PSMF_STEPS(KINDS) };

/* Is @w (@len bytes) a whole item of @list, its items separated by @sep? */
static bool in_list(const char *list, char sep, const char *w, size_t len)
{
	const char sep_s[2] = { sep, 0 };
	const char *p;
	size_t n;

	for (p = list; *p; p += n + (p[n] == sep)) {
		n = strcspn(p, sep_s);
		if (n == len && !strncmp(p, w, len))
			return true;
	}
	return false;
}

bool step_wanted(const char *list, const char *step)
{
	return in_list(list, ',', step, strlen(step));
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

/* The length of @line's kind, its first word; 0 for a line of no kind. */
static size_t kind_len(const char *line)
{
	return strcspn(line, " \n");
}

bool step_record_ok(const char *list, const char *line)
{
	size_t i, len = kind_len(line);

	if (!*line || in_list(PSMF_BOOT_RECORDS, ' ', line, len))
		return true;	/* an empty line, or the boot's own */
	for (i = 0; i < N_STEPS; i++)
		if (len && step_wanted(list, names[i]) &&
		    in_list(kinds[i], ' ', line, len))
			return true;
	return false;
}

bool step_record_of(const char *step, const char *line)
{
	size_t i, len = kind_len(line);

	for (i = 0; i < N_STEPS; i++)
		if (!strcmp(step, names[i]))
			return len && in_list(kinds[i], ' ', line, len);
	return false;
}
