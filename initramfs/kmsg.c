// SPDX-License-Identifier: GPL-2.0
/* The kernel lines a step produced, read from /dev/kmsg. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"

const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "EUNKNOWN";
}

/* A reader of /dev/kmsg that will see only records logged from now on. */
int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0)
		die("/dev/kmsg");
	return fd;
}

/*
 * Report every record logged since kmsg_open_at_end() as "kmsg <tag> <text>".
 * A record is "prio,seq,usec,flags;text\n" followed by continuation lines
 * that start with a space; only the text is kept.
 */
void kmsg_forward(int fd, const char *tag, void (*seen)(const char *line))
{
	char rec[2048];
	ssize_t n;

	for (;;) {
		char *text, *nl;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		if (seen)
			seen(text);
		report("kmsg %s %s\n", tag, text);
	}
}

/*
 * Wait until the kernel has logged nothing for @quiet_ms (at most
 * @max_ms), so that late boot messages do not land in the first step.
 */
void kmsg_settle(int quiet_ms, int max_ms)
{
	long start = now_ms(), last = now_ms();
	char rec[2048];
	int fd = kmsg_open_at_end();

	while (now_ms() - last < quiet_ms && now_ms() - start < max_ms) {
		if (read(fd, rec, sizeof(rec)) > 0)
			last = now_ms();
		else
			usleep(20000);
	}
	close(fd);
}

/*
 * Report the records logged since boot whose text starts with @prefix, as
 * "kmsg <tag> <text>": the lines a boot parameter caused.
 */
void kmsg_forward_boot(const char *tag, const char *prefix)
{
	char rec[2048];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		die("/dev/kmsg");
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
	       (n < 0 && errno == EPIPE)) {
		char *text, *nl;

		if (n < 0)
			continue;
		rec[n] = 0;
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		if (!strncmp(text, prefix, strlen(prefix)))
			report("kmsg %s %s\n", tag, text);
	}
	close(fd);
}
