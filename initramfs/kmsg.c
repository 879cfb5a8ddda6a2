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
