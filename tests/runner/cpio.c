// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel unpacks every cpio archive of an initramfs in turn, so one
 * appended archive adds or replaces a file: a broken spec for the LAVA
 * suite, the shrinker's replay file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpio.h"

/* One file in a cpio "newc" archive (the trailer: mode 0). */
static void cpio_entry(FILE *f, const char *name, int mode, const char *data,
		       size_t len)
{
	size_t namesize = strlen(name) + 1;
	static const char zeros[4];

	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		mode ? 1 : 0, mode, 0, 0, 1, 0, len, 0, 0, 0, 0, namesize, 0);
	fwrite(name, 1, namesize, f);
	fwrite(zeros, 1, (4 - (110 + namesize) % 4) % 4, f);
	fwrite(data, 1, len, f);
	fwrite(zeros, 1, (4 - len % 4) % 4, f);
}

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		buf = realloc(buf, cap += 1 << 20);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n && buf);
	fclose(f);
	return buf;
}

int initrd_with_file(const char *initrd, const char *name, const char *data,
		     size_t len, const char *out)
{
	size_t clen;
	char *cpio = slurp(initrd, &clen);
	FILE *f = fopen(out, "w");
	int ret = -1;

	if (cpio && f) {
		fwrite(cpio, 1, clen, f);
		cpio_entry(f, name, 0100644, data, len);
		cpio_entry(f, "TRAILER!!!", 0, "", 0);
		ret = 0;
	}
	if (f && fclose(f))
		ret = -1;
	free(cpio);
	return ret;
}
