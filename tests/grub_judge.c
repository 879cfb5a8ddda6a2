// SPDX-License-Identifier: GPL-2.0
/* docs/distributions.md's GRUB step, judged (grub_judge.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "grub_judge.h"
#include "tap.h"

/* The boot parameter the block adds (docs/distributions.md, recipe step 2) */
#define GRUB_PARAM "proc_sysfs_mount_flags="
#define GRUB_PHASE "enforce"

/*
 * The value of the last @param word of @line, in @buf, as the kernel
 * takes it (the last one wins); "" if there is none.
 */
static const char *last_value(const char *line, const char *param, char *buf,
			      size_t len)
{
	size_t n = strlen(param);
	const char *p;

	buf[0] = 0;
	for (p = line; (p = strstr(p, param)); p += n)
		if (p == line || p[-1] == ' ' || p[-1] == '\t')
			snprintf(buf, len, "%.*s", (int)strcspn(p + n, " \t"), p + n);
	return buf;
}

/* How many words of @line are @word. */
static int words(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p;
	int k = 0;

	for (p = line; (p = strstr(p, word)); p += n)
		k += (p == line || p[-1] == ' ' || p[-1] == '\t') &&
		     (!p[n] || p[n] == ' ' || p[n] == '\t');
	return k;
}

/* Whether every word of @args is a word of @cmdline. */
static bool has_all_words(const char *cmdline, const char *args)
{
	char buf[1024], *w, *save;

	snprintf(buf, sizeof(buf), "%s", args);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (!words(cmdline, w))
			return false;
	return true;
}

void grub_judge_edit(const struct run *edit, const char *built)
{
	char value[32];
	int i, bad = 0;

	tap(edit->ended, "grub edit: psmf-system ran to its end (%s)", edit->end);
	tap(!strcmp(edit->sys_phase, built),
	    "grub edit: the kernel booted without the parameter runs %s, its built phase (/proc/sys: %s)",
	    built, edit->sys_phase[0] ? edit->sys_phase : "nothing");
	tap(edit->grub_run == 0, "grub edit: the documented step ran as root with sh -eu (exit %d)",
	    edit->grub_run);
	if (edit->grub_run)
		for (i = 0; i < edit->n_grub_out; i++)
			printf("#   %s\n", edit->grub_out[i]);
	for (i = 0; i < edit->n_grub_linux; i++)
		if (strcmp(last_value(edit->grub_linux[i], GRUB_PARAM, value, sizeof(value)),
			   GRUB_PHASE)) {
			printf("# grub.cfg: linux ... %s\n", edit->grub_linux[i]);
			bad++;
		}
	tap(edit->n_grub_linux > 0 && !bad,
	    "grub edit: each of the %d linux lines update-grub wrote ends its " GRUB_PARAM " words with " GRUB_PHASE ", which the kernel takes (%d do not)",
	    edit->n_grub_linux, bad);
}

void grub_judge_boot(const struct run *edit, const struct run *booted)
{
	const char *line = edit->n_grub_linux ? edit->grub_linux[0] : "";

	tap(booted->ended, "grub boot: psmf-system ran to its end (%s)", booted->end);
	/* the runner passed them: this catches a line cut short on the way */
	tap(edit->n_grub_linux && has_all_words(booted->grub_cmdline, line),
	    "grub boot: the kernel's command line has every word of the first entry's (%s)",
	    booted->grub_cmdline[0] ? booted->grub_cmdline : "no record");
	tap(!strcmp(booted->sys_phase, GRUB_PHASE),
	    "grub boot: /proc/sys reads " GRUB_PHASE ", the phase the block put on the command line (%s)",
	    booted->sys_phase[0] ? booted->sys_phase : "nothing");
}

