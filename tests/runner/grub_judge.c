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
/* what the image's /etc/default/grub passes (tests/system/disk.sh) */
#define IMAGE_PHASE "warn"

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

/*
 * How many of the @n linux lines do not end their GRUB_PARAM words with
 * @phase; each printed.
 */
static int not_ending_with(char *const *lines, int n, const char *phase)
{
	char value[32];
	int i, bad = 0;

	for (i = 0; i < n; i++)
		if (strcmp(last_value(lines[i], GRUB_PARAM, value, sizeof(value)), phase)) {
			printf("# grub.cfg: linux ... %s\n", lines[i]);
			bad++;
		}
	return bad;
}

void grub_judge_edit(struct verdicts *v, const struct run *edit,
		     const char *built)
{
	int i, bad;

	verdict(v, edit->ended, "grub edit: psmf-system ran to its end (%s)", edit->end);
	verdict(v, !strcmp(edit->sys_phase, built),
		"grub edit: the kernel booted without the parameter runs %s, its built phase (/proc/sys: %s)",
		built, edit->sys_phase[0] ? edit->sys_phase : "nothing");
	verdict(v, edit->grub_run == 0 && edit->grub_undo_run == 0,
		"grub edit: the documented step and the step back ran as root with sh -eu (exit %d, %d)",
		edit->grub_run, edit->grub_undo_run);
	if (edit->grub_run || edit->grub_undo_run)
		for (i = 0; i < edit->n_grub_out; i++)
			printf("#   %s\n", edit->grub_out[i]);
	bad = not_ending_with(edit->grub_linux, edit->n_grub_linux, GRUB_PHASE);
	verdict(v, edit->n_grub_linux > 0 && !bad,
		"grub edit: each of the %d linux lines update-grub wrote ends its " GRUB_PARAM " words with " GRUB_PHASE ", which the kernel takes (%d do not)",
		edit->n_grub_linux, bad);
	bad = not_ending_with(edit->grub_undo_linux, edit->n_grub_undo_linux, IMAGE_PHASE);
	verdict(v, edit->n_grub_undo_linux > 0 && edit->n_grub_undo_linux == edit->n_grub_linux && !bad,
		"grub edit: after the step back, each of the %d linux lines ends them with " IMAGE_PHASE " again, /etc/default/grub's (%d do not)",
		edit->n_grub_undo_linux, bad);
}

void grub_judge_boot(struct verdicts *v, const struct run *edit,
		     const struct run *booted)
{
	const char *line = edit->n_grub_linux ? edit->grub_linux[0] : "";

	verdict(v, booted->ended, "grub boot: psmf-system ran to its end (%s)", booted->end);
	/* the runner passed them: this catches a line cut short on the way */
	verdict(v, edit->n_grub_linux && has_all_words(booted->grub_cmdline, line),
		"grub boot: the kernel's command line has every word of the first entry's (%s)",
		booted->grub_cmdline[0] ? booted->grub_cmdline : "no record");
	verdict(v, !strcmp(booted->sys_phase, GRUB_PHASE),
		"grub boot: /proc/sys reads " GRUB_PHASE ", the phase the block put on the command line (%s)",
		booted->sys_phase[0] ? booted->sys_phase : "nothing");
}

