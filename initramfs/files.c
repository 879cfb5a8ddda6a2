// SPDX-License-Identifier: GPL-2.0
/* Files the guest writes for the tools it runs: the guest's library. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(fd))
		die(path);
}

void make_dirs(const char *root, const char *const *dirs)
{
	char path[256];

	for (; *dirs; dirs++) {
		snprintf(path, sizeof(path), "%s%s", root, *dirs);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
	}
}

void copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY), out;
	struct stat st;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (in < 0 || out < 0 || fstat(in, &st) ||
	    sendfile(out, in, NULL, st.st_size) != st.st_size)
		die(to);
	close(in);
	close(out);
}

static uid_t chown_to;

static int chown_one(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return lchown(path, chown_to, chown_to);
}

void chown_tree(const char *root, uid_t uid)
{
	chown_to = uid;
	if (nftw(root, chown_one, 16, FTW_PHYS))
		die(root);
}

/* The whole of a small file, NUL-terminated, in a malloc'd buffer. */
char *read_file(const char *path)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		die(path);
	buf[st.st_size] = 0;
	close(fd);
	return buf;
}
