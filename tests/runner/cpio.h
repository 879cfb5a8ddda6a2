/* SPDX-License-Identifier: GPL-2.0 */
/* An initramfs with one more file: a second cpio archive appended. */
#ifndef CPIO_H
#define CPIO_H

#include <stddef.h>

/* The whole of @path, in a buffer the caller frees; NULL if unreadable. */
char *slurp(const char *path, size_t *len);
/*
 * Write @initrd to @out with an archive appended that holds /@name
 * (@len bytes of @data), which replaces any file of that name: 0 or -1.
 */
int initrd_with_file(const char *initrd, const char *name, const char *data,
		     size_t len, const char *out);

#endif
