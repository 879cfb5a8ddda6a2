// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static int tap_n, tap_failed, quiet_failed;
static tap_hook *hook;
static bool quiet, in_case;

void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		printf("# runner: %s - ", ok ? "ok" : "not ok");
	else
		printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok && !quiet)
		tap_failed++;
	if (!ok && quiet && !in_case)
		quiet_failed++;
	fflush(stdout);
}

void tap_figure(const char *fmt, ...)
{
	va_list ap;

	printf("# figure: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void tap_case(const char *def, const char *id, bool pass, const char *what)
{
	if (hook)
		hook(def, id, pass);
	in_case = true;
	tap(pass, "%s", what);
	in_case = false;
}

int tap_quiet_failed(void)
{
	return quiet_failed;
}

int tap_quiet_start(void)
{
	tap_set_hook(NULL, true);
	return quiet_failed;
}

int tap_quiet_stop(int mark)
{
	tap_set_hook(NULL, false);
	return quiet_failed - mark;
}

void tap_set_hook(tap_hook *h, bool q)
{
	hook = h;
	quiet = q;
}

int tap_end(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
