// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static int tap_n, tap_failed;

void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		tap_failed++;
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

int tap_end(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
