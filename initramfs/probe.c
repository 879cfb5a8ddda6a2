// SPDX-License-Identifier: GPL-2.0
/*
 * /bin/psmf-probe: run inside a container tool's sandbox, print the proc
 * and sysfs mounts it sees, with their mount options and their super
 * block's (hidepid=, subset=), and exit 0 if its /proc is its own pid
 * namespace's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A tool that makes a pid namespace must mount a proc for it: when that
 * mount is refused and the tool goes on, /proc is still its parent's,
 * where "self" names another pid.  That container is broken even though
 * it started.
 */
static int proc_is_own(void)
{
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);

	if (n < 0) {
		perror("psmf-probe: /proc/self");
		return 0;
	}
	self[n] = 0;
	if (atol(self) == (long)getpid())
		return 1;
	/* No pids in the message: it lands in docs/compat.md, which must not
	 * change from one run to the next. */
	printf("psmf-probe: /proc is another pid namespace's: its /proc/self is not this process\n");
	return 0;
}

int main(void)
{
	char line[1024], point[256], opts[256], super[256], type[64];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f) {
		perror("psmf-probe: /proc/self/mountinfo");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*d %*d %*s %*s %255s %255s", point,
				    opts) != 2 ||
		    sscanf(dash, " - %63s", type) != 1)
			continue;
		/* the source may be empty: the super block's options are last */
		if (sscanf(strrchr(dash, ' ') + 1, "%255s", super) != 1)
			snprintf(super, sizeof(super), "-");
		if (!strcmp(type, "proc") || !strcmp(type, "sysfs"))
			printf("probe %s %s %s %s\n", type, point, opts, super);
	}
	fclose(f);
	return proc_is_own() ? 0 : 1;
}
