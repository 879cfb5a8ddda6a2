// SPDX-License-Identifier: GPL-2.0
/*
 * psmf-audit [--json] [--phase PHASE] [--] LOG|DIR...
 *
 * Reads kernel logs (dmesg, journalctl -k, journalctl -k -o json; a
 * directory holds one or more per host) and prints, per host, what the
 * enforce phase would refuse, the lines lost to the rate limit and a
 * verdict: ready for implicit, ready for enforce, not ready or unknown,
 * with the reasons; then the fleet's.  Exit status: 0 when every log was
 * read, 1 on bad input (nothing judged), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit.h"

static int usage(const char *why)
{
	fprintf(stderr, "psmf-audit: %s\n"
		"usage: psmf-audit [--json] [--phase legacy|warn|implicit|enforce] [--] LOG|DIR...\n"
		"  LOG: dmesg, journalctl -k or journalctl -k -o json output of a host\n"
		"  DIR: such logs of many hosts (a text log's host is its file name)\n"
		"  --phase: the phase the hosts run where their log does not show it\n",
		why);
	return 2;
}

/*
 * The host of a text log: its file name without directory and last
 * extension (web1.log, web1.json; app.a.log is host app.a).
 */
static void host_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	char *dot;

	snprintf(buf, len, "%s", base ? base + 1 : path);
	dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
}

static int read_log(struct fleet *f, const char *path)
{
	char host[128], err[1024];

	host_name(path, host, sizeof(host));
	if (audit_read_file(path, host, fleet_add, f, err, sizeof(err))) {
		fprintf(stderr, "psmf-audit: %s\n", err);
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The logs of a directory, in name order; no nested directories. */
static int read_dir(struct fleet *f, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;

	if (!d) {
		fprintf(stderr, "psmf-audit: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && !ret) {
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || asprintf(&nn[n], "%s/%s", dir, de->d_name) < 0) {
			names = nn ? nn : names;
			fprintf(stderr, "psmf-audit: out of memory\n");
			ret = -1;
			break;
		}
		names = nn;
		n++;
	}
	closedir(d);
	if (!ret && !n) {
		fprintf(stderr, "psmf-audit: %s: an empty directory: put the hosts' logs in it\n",
			dir);
		ret = -1;
	}
	if (!ret)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && !ret; i++) {
		struct stat st;

		if (stat(names[i], &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "psmf-audit: %s: not a regular file: a directory holds the hosts' logs, not directories of them\n",
				names[i]);
			ret = -1;
		} else {
			ret = read_log(f, names[i]);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	struct fleet f = { .assumed = PH_UNKNOWN };
	bool json = false;
	int i, first, ret = 0;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--phase") && i + 1 == argc) {
			return usage("--phase needs a phase");
		} else if (!strcmp(argv[i], "--phase")) {
			f.assumed = audit_phase_parse(argv[i + 1], strlen(argv[i + 1]));
			if (f.assumed == PH_UNKNOWN)
				return usage("--phase takes legacy, warn, implicit or enforce");
			i++;
		} else {
			return usage("unknown option");
		}
	}
	if (i == argc)
		return usage("no log given");
	first = i;
	for (i = first; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "psmf-audit: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
	}
	for (i = first; i < argc && !ret; i++) {
		struct stat st;

		stat(argv[i], &st);
		ret = S_ISDIR(st.st_mode) ? read_dir(&f, argv[i]) : read_log(&f, argv[i]);
	}
	if (!ret) {
		fleet_judge(&f);
		if (json ? report_json(&f) : (report_text(&f), 0))
			ret = -1;
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "psmf-audit: cannot write the report: %s\n",
				strerror(errno));
			ret = -1;
		}
	}
	fleet_free(&f);
	return ret ? 1 : 0;
}
