/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matrix as LAVA jobs: writing them (lava_jobs.c), running one with
 * lava-run and reading what LAVA recorded (lava_log.c), and holding LAVA's
 * verdicts against the runner's (lava.c).
 */
#ifndef LAVA_H
#define LAVA_H

#include <stdbool.h>
#include <stdio.h>

#include "runner.h"

/* One job: a kernel built as @mode, booted as @phase (NULL: as built). */
struct lava_job {
	const char *tag;	/* warn, warn-as-enforce */
	const char *mode, *phase;
	char kernel[4096], initrd[4096];	/* URLs */
	const char *extra;	/* more kernel parameters, or NULL */
	bool alone;		/* one more boot per scenario that needs one */
	int timeout;		/* seconds for each boot's test */
};

/* Seconds the whole job may take. */
int lava_job_seconds(const struct lava_job *j);
void lava_write_job(FILE *f, const struct opts *o, const struct lava_job *j);
/* @url for @path: file://PATH, or BASE/NAME with a base URL. */
void lava_url(const char *base, const char *path, char *buf, size_t len);

/* What lava-run recorded. */
#define LAVA_MAX_CASES 512
struct lava_case {
	char def[32], id[128];
	bool pass;
};
struct lava_log {
	int n;
	struct lava_case c[LAVA_MAX_CASES];
	bool job_seen, job_pass;
	char job_error[1024];
};

/*
 * Run lava-run on @job with the device and dispatcher files of @devdir,
 * its output in @out, its log in @log; killed after @seconds.  With
 * @validate it only checks the job.  Returns -1 if it could not start,
 * else its exit status; *killed: it hung.
 */
int lava_run(const char *job, const char *devdir, const char *out,
	     const char *log, int seconds, bool validate, bool *killed);
/*
 * Read @log: LAVA's results into @l, the guest's console into @console
 * (the first boot's; the others' into @console.alone) and the records
 * the guest printed into @records; NULL for either: not kept.
 */
int lava_read_log(const char *log, struct lava_log *l, const char *console,
		  const char *records);

/* The commands are in runner.h. */

#endif
