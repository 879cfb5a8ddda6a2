/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results as data: each check of a run appends its verdict to a list that
 * the caller owns.  TAP (tap.c) is one rendering of it, as each verdict
 * comes when the list says so; the LAVA comparison (lava.c) reads the
 * named cases from it, and a judge run on a made-up input (a broken table,
 * a unit test) counts its failures.
 */
#ifndef VERDICTS_H
#define VERDICTS_H

#include <stdbool.h>

struct judged {
	bool pass;
	char *what;
	/*
	 * a named case's kind, one of judge_cases.h's DEF_ strings (not
	 * copied: they are constants), and name; or NULL
	 */
	const char *def;
	char *id;
};

struct verdicts {
	bool print;	/* each verdict also a TAP line as it comes */
	int n, cap;
	struct judged *v;
};

/* A list whose verdicts are TAP lines too; one whose verdicts are data only. */
#define VERDICTS_TAP { .print = true }
#define VERDICTS_QUIET { .print = false }

/* A check's verdict. */
void verdict(struct verdicts *vs, bool pass, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A named case's verdict; its signature is judge_cases.h's case_sink. */
void verdict_case(void *vs, const char *def, const char *id, bool pass,
		  const char *what);
/* How many verdicts failed: all of them, or the checks (no named case). */
int verdicts_failed(const struct verdicts *vs);
int verdicts_failed_checks(const struct verdicts *vs);
/* The failed ones of a list that printed nothing, as TAP comments. */
void verdicts_show_failed(const struct verdicts *vs, const char *who);
void verdicts_free(struct verdicts *vs);
/* How many verdicts failed, the list freed: a judge's count as data. */
int verdicts_end(struct verdicts *vs);
/*
 * A command's end, its list printed as it came: the list freed, TAP's plan
 * printed, and the command's exit status (tap_end()).
 */
int verdicts_tap_end(struct verdicts *vs);

#endif
