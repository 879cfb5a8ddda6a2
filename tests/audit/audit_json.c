// SPDX-License-Identifier: GPL-2.0
/* psmf-audit's JSON report, run and read (audit_json.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_json.h"

json_object *audit_json(const char *audit, const char *phase, const char *dir)
{
	char *out = NULL, buf[65536];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int fd[2], status = -1;
	json_object *j;
	ssize_t n;
	pid_t pid;

	if (!f || pipe(fd))
		return NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		if (phase)
			execl(audit, audit, "--phase", phase, "--json", dir, (char *)NULL);
		else
			execl(audit, audit, "--json", dir, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, f);
	close(fd[0]);
	fclose(f);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	j = WIFEXITED(status) && !WEXITSTATUS(status) ? json_tokener_parse(out) : NULL;
	if (!j)
		printf("# %s%s%s --json %s: status %d, no JSON report\n", audit,
		       phase ? " --phase " : "", phase ? phase : "", dir,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	free(out);
	return j;
}

json_object *audit_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

json_object *audit_host(json_object *report, const char *name)
{
	json_object *hosts = audit_get(report, "hosts");
	size_t i;

	for (i = 0; hosts && i < json_object_array_length(hosts); i++) {
		json_object *h = json_object_array_get_idx(hosts, i);
		const char *n = json_object_get_string(audit_get(h, "host"));

		if (n && !strcmp(n, name))
			return h;
	}
	return NULL;
}
