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
 * The text of the next record of @fd into @rec, or NULL at the end, and
 * when the kernel logged it into *@logged_ms (its printk clock, the time
 * the record carries: not when the guest read it).  A record is
 * "prio,seq,usec,flags;text\n" followed by continuation lines that start
 * with a space; only the text is kept.  Records overwritten before they
 * were read are skipped.
 */
static const char *kmsg_next_at(int fd, char *rec, size_t len, long *logged_ms)
{
	for (;;) {
		ssize_t n = read(fd, rec, len - 1);
		unsigned long long usec;
		char *text, *nl;

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return NULL;
		rec[n] = 0;
		text = strchr(rec, ';');
		if (!text || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		*logged_ms = usec / 1000;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		return text;
	}
}

static const char *kmsg_next(int fd, char *rec, size_t len)
{
	long logged_ms;

	return kmsg_next_at(fd, rec, len, &logged_ms);
}

/* Report every record logged since kmsg_open_at_end() as "kmsg <tag> <text>". */
void kmsg_forward(int fd, const char *tag,
		  void (*seen)(const char *line, long logged_ms))
{
	char rec[2048];
	const char *text;
	long logged_ms;

	while ((text = kmsg_next_at(fd, rec, sizeof(rec), &logged_ms))) {
		if (seen)
			seen(text, logged_ms);
		report("kmsg %s %s\n", tag, text);
	}
}

/* How many records logged since the last read of @fd @match. */
int kmsg_count(int fd, int (*match)(const char *line))
{
	char rec[2048];
	const char *text;
	int n = 0;

	while ((text = kmsg_next(fd, rec, sizeof(rec))))
		n += match(text) != 0;
	return n;
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
	const char *text;

	if (fd < 0)
		die("/dev/kmsg");
	while ((text = kmsg_next(fd, rec, sizeof(rec))))
		if (!strncmp(text, prefix, strlen(prefix)))
			report("kmsg %s %s\n", tag, text);
	close(fd);
}
