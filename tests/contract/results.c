// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's results channel (see initramfs/init.c for the protocol),
 * read into a struct run: one small parser per kind of record, picked by
 * the record's first word from one table.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spec.h"

static struct result *find_mut(struct run *run, const char *name)
{
	int i;

	for (i = 0; i < run->n; i++)
		if (!strcmp(run->res[i].name, name))
			return &run->res[i];
	return NULL;
}

const struct result *run_find(const struct run *run, const char *name)
{
	return find_mut((struct run *)run, name);
}

static struct tool_run *find_tool(struct run *run, const char *name)
{
	int i;

	for (i = 0; i < run->n_tools; i++)
		if (!strcmp(run->tools[i].name, name))
			return &run->tools[i];
	return NULL;
}

int file_stamp(const char *path, long long *mtime_ns, long long *size)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	*size = st.st_size;
	return 0;
}

bool run_left_out(const struct run *run, const char *name)
{
	int i;

	for (i = 0; i < run->n_alone; i++)
		if (!strcmp(run->alone[i].name, name))
			return true;
	return false;
}

const struct tool_run *run_find_tool(const struct run *run, const char *name)
{
	return find_tool((struct run *)run, name);
}

static void rec_scenario(struct run *run, const char *line)
{
	struct result *r = &run->res[run->n];
	char flags[128];
	const char *p;

	if (run->n == MAX_SCENARIOS)
		return;
	memset(r, 0, sizeof(*r));
	if (sscanf(line,
		   "scenario %63s op=%15s fs=%15s ret=%15s flags=%127s pid=%d comm=%31s n=%d/%d ms=%ld",
		   r->name, r->op, r->fs, r->ret, flags, &r->pid, r->comm,
		   &r->ok, &r->tries, &r->ms) != 10)
		return;
	r->flags = strcmp(flags, "-") || r->ok ? parse_flags(flags) : -1;
	/* Older guests did not say who raised the phase. */
	p = strstr(line, " raiser=");
	r->raiser = p ? atoi(p + 8) : 0;
	p = strstr(line, " userns=");
	r->userns = p ? strtoul(p + 8, NULL, 10) : 0;
	run->n++;
}

static void rec_start(struct run *run, const char *line)
{
	snprintf(run->release, sizeof(run->release), "%s", line + 6);
	run->boots++;
}

static void rec_alone(struct run *run, const char *line)
{
	if (run->n_alone < MAX_ALONE &&
	    sscanf(line, "alone %63s %63s", run->alone[run->n_alone].name,
		   run->alone[run->n_alone].arg) == 2)
		run->n_alone++;
}

static void rec_begin(struct run *run, const char *line)
{
	snprintf(run->last_begun, sizeof(run->last_begun), "%s", line + 6);
}

/* A kernel line: to its scenario or tool, and counted for the steps. */
static void rec_kmsg(struct run *run, const char *line)
{
	struct tool_run *t;
	struct result *r;
	char name[64];
	int off = 0;

	if (sscanf(line, "kmsg %63s %n", name, &off) != 1 || !off)
		return;
	if (is_warning(line + off)) {
		if (!strcmp(name, "exhaustive"))
			run->x_warnings++;
		if (!strcmp(name, "stress"))
			run->s_warnings++;
	}
	if (!strcmp(name, "system") && run->n_sys_kmsg < MAX_SYSCTL_LINES)
		run->sys_kmsg[run->n_sys_kmsg++] = strdup(line + off);
	else if (!strcmp(name, "system"))
		run->sys_lines_cut = true;
	if (!strcmp(name, "fleet")) {
		if (run->n_fleet_lines < MAX_FLEET_LINES)
			run->fleet_lines[run->n_fleet_lines++] = strdup(line + off);
		else
			run->fleet_lines_cut = true;
	}
	r = find_mut(run, name);
	if (r && r->n_lines < MAX_LINES)
		r->lines[r->n_lines++] = strdup(line + off);
	t = find_tool(run, name);
	if (t && t->n_lines < TOOL_MAX_LINES)
		t->lines[t->n_lines++] = strdup(line + off);
}

static void rec_x(struct run *run, const char *line)
{
	struct xcase c;
	char flags[64];

	if (sscanf(line, "x %7s %d %d %15s ret=%15s flags=%63s", c.fs,
		   &c.visible, &c.requested, c.op, c.ret, flags) != 6)
		return;
	c.flags = strcmp(flags, "none") ? parse_flags(flags) : -1;
	run->x = realloc(run->x, sizeof(*run->x) * (run->n_x + 1));
	run->x[run->n_x++] = c;
}

static void rec_s(struct run *run, const char *line)
{
	struct scase c;
	char flags[64];

	if (sscanf(line, "s %7s %d %15s ret=%15s flags=%63s n=%ld", c.fs,
		   &c.requested, c.op, c.ret, flags, &c.n) != 6)
		return;
	c.flags = strcmp(flags, "none") ? parse_flags(flags) : -1;
	run->s = realloc(run->s, sizeof(*run->s) * (run->n_s + 1));
	run->s[run->n_s++] = c;
}

static void rec_stress_worker(struct run *run, const char *line)
{
	run->s_ops += atol(line + 18);
}

static void rec_stress_end(struct run *run, const char *line)
{
	sscanf(line, "stress-end workers=%*d failed=%d ms=%ld", &run->s_failed,
	       &run->s_ms);
}

static void rec_tool(struct run *run, const char *line)
{
	struct tool_run *t = &run->tools[run->n_tools];

	if (run->n_tools < MAX_TOOLS &&
	    sscanf(line, "tool %63s version=%127s uid=%d exit=%d ms=%ld",
		   t->name, t->version, &t->uid, &t->exit, &t->ms) == 5)
		run->n_tools++;
}

/*
 * "<record> <name> <rest>": @name, and the offset of the rest in @line;
 * 0 if the line has no name.
 */
static int name_and_rest(const char *line, char name[64])
{
	int off = 0;

	if (sscanf(line, "%*s %63s %n", name, &off) != 1)
		return 0;
	return off;
}

static void rec_toolskip(struct run *run, const char *line)
{
	struct tool_run *t;
	char name[64];
	int off = name_and_rest(line, name);

	t = off ? find_tool(run, name) : NULL;
	if (t)
		snprintf(t->skipped, sizeof(t->skipped), "%s", line + off);
}

static void rec_toolout(struct run *run, const char *line)
{
	struct tool_run *t;
	char name[64];
	int off = name_and_rest(line, name);

	if (!off)
		return;
	t = find_tool(run, name);
	if (t && t->n_out < TOOL_MAX_OUT)
		t->out[t->n_out++] = strdup(line + off);
}

static void rec_toolfix(struct run *run, const char *line)
{
	struct tool_run *t;
	char name[64], fixed_by[64];
	int off = 0;

	if (sscanf(line, "toolfix %63s %63s %n", name, fixed_by, &off) != 2 ||
	    !off)
		return;
	t = find_tool(run, name);
	if (t) {
		snprintf(t->fixed_by, sizeof(t->fixed_by), "%s", fixed_by);
		snprintf(t->fix, sizeof(t->fix), "%s", line + off);
	}
}

/* "toolneeds NAME POINT...": where the tool's config mounts proc or sysfs */
static void rec_toolneeds(struct run *run, const char *line)
{
	struct tool_run *t;
	char name[64];
	int off = 0;

	if (sscanf(line, "toolneeds %63s %n", name, &off) != 1 || !off)
		return;
	t = find_tool(run, name);
	if (t)
		snprintf(t->needs, sizeof(t->needs), "%s", line + off);
}

static struct upstream_run *find_upstream(struct run *run, const char *name)
{
	int i;

	for (i = 0; i < run->n_upstream; i++)
		if (!strcmp(run->upstream[i].name, name))
			return &run->upstream[i];
	if (run->n_upstream == MAX_UPSTREAM)
		return NULL;
	snprintf(run->upstream[run->n_upstream].name,
		 sizeof(run->upstream[0].name), "%s", name);
	run->upstream[run->n_upstream].exit = -2;	/* no end record yet */
	return &run->upstream[run->n_upstream++];
}

static void rec_upstream_count(struct run *run, const char *line)
{
	run->upstream_count = atoi(line + 15);
}

static void rec_upstream(struct run *run, const char *line)
{
	struct upstream_run *u;
	char name[64];
	int exit;
	long ms;

	if (sscanf(line, "upstream %63s exit=%d ms=%ld", name, &exit, &ms) != 3)
		return;
	u = find_upstream(run, name);
	if (u) {
		u->exit = exit;
		u->ms = ms;
	}
}

static void rec_upstreamout(struct run *run, const char *line)
{
	struct upstream_run *u;
	char name[64];
	int off = name_and_rest(line, name);

	if (!off)
		return;
	u = find_upstream(run, name);
	if (u && u->n_out < UPSTREAM_MAX_OUT)
		u->out[u->n_out++] = strdup(line + off);
}

static void rec_bench(struct run *run, const char *line)
{
	if (run->n_bench < MAX_BENCH &&
	    sscanf(line, "bench %31s ops=%ld ms=%ld",
		   run->bench[run->n_bench].label, &run->bench[run->n_bench].ops,
		   &run->bench[run->n_bench].ms) == 3)
		run->n_bench++;
}

static void rec_exhaustive_end(struct run *run, const char *line)
{
	run->x_ms = atol(line + 18);
}

static void rec_selftest_exit(struct run *run, const char *line)
{
	run->selftest_exit = atoi(line + 14);
}

static void rec_selftest_tmp(struct run *run, const char *line)
{
	run->selftest_tmp_left = atoi(line + strlen("selftest-tmp-left "));
}

static void rec_selftest_unpriv_exit(struct run *run, const char *line)
{
	run->selftest_unpriv_exit =
		atoi(line + strlen("selftest-unprivileged-exit "));
}

static void rec_selftest_unpriv(struct run *run, const char *line)
{
	snprintf(run->selftest_unpriv, sizeof(run->selftest_unpriv), "%s",
		 line + strlen("selftest-unprivileged "));
}

static void rec_selftest(struct run *run, const char *line)
{
	if (run->n_selftest < 512)
		run->selftest[run->n_selftest++] = strdup(line + 9);
}

/* Several boots: keep the first end that is not ok. */
static void rec_end(struct run *run, const char *line)
{
	if (!strcmp(line, "end ok"))
		run->boots_ended++;
	else if (!run->bad_ends++)
		snprintf(run->end, sizeof(run->end), "%s", line);
}

static void rec_wall(struct run *run, const char *line)
{
	run->wall_ms = atol(line + 13);
}

/* "host file PATH mtime=NS size=N": a file the boot was made from. */
int made_from_parse(const char *line, struct made_from *m, int *n)
{
	if (*n >= 2 || sscanf(line, "host file %511s mtime=%lld size=%lld",
			      m[*n].path, &m[*n].mtime_ns, &m[*n].size) != 3)
		return -1;
	(*n)++;
	return 0;
}

static void rec_host_file(struct run *run, const char *line)
{
	made_from_parse(line, run->made_by, &run->n_made_by);
}

static void rec_faults(struct run *run, const char *line)
{
	if (!strncmp(line, "faults on ", 10))
		run->faults = true;
	else if (!strncmp(line, "faults error ", 13))
		run->fault_errors++;
	else
		sscanf(line, "faults hits slab=%ld page=%ld", &run->slab_hits,
		       &run->page_hits);
}

/* "fleet-tenant COMM pid=N userns=I ops=N ok=N", or "fleet-tenant COMM died" */
static void rec_tenant(struct run *run, const char *line)
{
	struct tenant *t = &run->tenants[run->n_tenants];

	if (run->n_tenants == MAX_TENANTS)
		return;
	memset(t, 0, sizeof(*t));
	if (sscanf(line, "fleet-tenant %31s pid=%d userns=%u ops=%d ok=%d",
		   t->comm, &t->pid, &t->userns, &t->ops, &t->ok) == 5)
		run->n_tenants++;
	else if (sscanf(line, "fleet-tenant %31s died", t->comm) == 1) {
		t->died = true;
		run->n_tenants++;
	}
}

static void rec_fleet_end(struct run *run, const char *line)
{
	run->fleet_ms = atol(line + strlen("fleet-end ms="));
}

/* "docs-phase before|after PHASE" */
static void rec_docs_phase(struct run *run, const char *line)
{
	char when[16], phase[16];

	if (sscanf(line, "docs-phase %15s %15s", when, phase) != 2)
		return;
	if (!strcmp(when, "before"))
		snprintf(run->docs_before, sizeof(run->docs_before), "%s", phase);
	else if (!strcmp(when, "after"))
		snprintf(run->docs_after, sizeof(run->docs_after), "%s", phase);
}

/* "docs-run sh|systemd-sysctl STATUS" */
static void rec_docs_run(struct run *run, const char *line)
{
	char what[32];
	int status;

	if (sscanf(line, "docs-run %31s %d", what, &status) != 2)
		return;
	if (!strcmp(what, "sh"))
		run->docs_sh = status;
	else if (!strcmp(what, "systemd-sysctl"))
		run->docs_sysctl = status;
}

/* "docs-sysctl FILE VALUE" */
static void rec_docs_sysctl(struct run *run, const char *line)
{
	int i = run->n_docs_settings;

	if (i < MAX_DOCS_SETTINGS &&
	    sscanf(line, "docs-sysctl %127s %15s", run->docs_settings[i].file,
		   run->docs_settings[i].value) == 2)
		run->n_docs_settings++;
}

static void rec_system_os(struct run *run, const char *line)
{
	sscanf(line, "system-os %31s systemd=%d", run->sys_os, &run->sys_systemd);
}

static void rec_system_phase(struct run *run, const char *line)
{
	sscanf(line, "system-phase %31s", run->sys_phase);
}

static void rec_system_failed(struct run *run, const char *line)
{
	char when[16], unit[64];
	int w;

	if (sscanf(line, "system-failed %15s %63s", when, unit) != 2)
		return;
	w = !strcmp(when, "after");
	if (run->n_failed[w] < MAX_FAILED)
		snprintf(run->failed[w][run->n_failed[w]++], sizeof(run->failed[0][0]), "%s", unit);
}

static void rec_sysctl_d(struct run *run, const char *line)
{
	sscanf(line, "system-sysctl-d %31s", run->sys_sysctl_d);
}

static void rec_sysctl_unit(struct run *run, const char *line)
{
	const char *rest = line + strlen("system-sysctl-unit ");

	if (!strncmp(rest, "Result=", 7))
		snprintf(run->sys_sysctl_unit, sizeof(run->sys_sysctl_unit), "%s", rest);
	sscanf(rest, "ExecMainStartTimestampMonotonic=%llu", &run->sysctl_started);
}

static void rec_sysctl_writer(struct run *run, const char *line)
{
	sscanf(line, "system-sysctl-writer ExecMainExitTimestampMonotonic=%llu",
	       &run->sysctl_written);
	sscanf(line, "system-sysctl-writer ExecMainStatus=%d", &run->sysctl_writer_status);
}

static void rec_sysctl_log(struct run *run, const char *line)
{
	if (run->n_sysctl_log < MAX_SYSCTL_LINES)
		run->sysctl_log[run->n_sysctl_log++] =
			strdup(line + strlen("system-sysctl-log "));
	else
		run->sys_lines_cut = true;
}

static void rec_grub_run(struct run *run, const char *line)
{
	sscanf(line, "grub-run exit=%d", &run->grub_run);
}

static void rec_grub_undo_run(struct run *run, const char *line)
{
	sscanf(line, "grub-undo-run exit=%d", &run->grub_undo_run);
}

/* A line of @prefix's record into @lines, if one of MAX_GRUB_LINES. */
static void keep_grub_line(char **lines, int *n, const char *line, const char *prefix)
{
	if (*n < MAX_GRUB_LINES)
		lines[(*n)++] = strdup(line + strlen(prefix));
	else
		fprintf(stderr, "results: more than %d %srecords, the rest not kept\n",
			MAX_GRUB_LINES, prefix);
}

static void rec_grub_linux(struct run *run, const char *line)
{
	keep_grub_line(run->grub_linux, &run->n_grub_linux, line, "grub-linux ");
}

static void rec_grub_undo_linux(struct run *run, const char *line)
{
	keep_grub_line(run->grub_undo_linux, &run->n_grub_undo_linux, line,
		       "grub-undo-linux ");
}

static void rec_grub_out(struct run *run, const char *line)
{
	keep_grub_line(run->grub_out, &run->n_grub_out, line, "grub-out ");
}

static void rec_grub_cmdline(struct run *run, const char *line)
{
	snprintf(run->grub_cmdline, sizeof(run->grub_cmdline), "%s",
		 line + strlen("grub-cmdline "));
}

static void rec_kmemleak(struct run *run, const char *line)
{
	sscanf(line, "kmemleak leaks=%d", &run->leaks);
}

/* Each record by the start of its line; the first match wins. */
static const struct {
	const char *prefix;
	void (*parse)(struct run *run, const char *line);
} records[] = {
	{ "start ", rec_start },
	{ "alone ", rec_alone },
	{ "begin ", rec_begin },
	{ "scenario ", rec_scenario },
	{ "kmsg ", rec_kmsg },
	{ "x ", rec_x },
	{ "s ", rec_s },
	{ "stress-worker ops=", rec_stress_worker },
	{ "stress-end ", rec_stress_end },
	{ "tool ", rec_tool },
	{ "toolout ", rec_toolout },
	{ "toolfix ", rec_toolfix },
	{ "toolneeds ", rec_toolneeds },
	{ "toolskip ", rec_toolskip },
	{ "bench ", rec_bench },
	{ "upstream-count ", rec_upstream_count },
	{ "upstream ", rec_upstream },
	{ "upstreamout ", rec_upstreamout },
	{ "exhaustive-end ms=", rec_exhaustive_end },
	{ "selftest-exit ", rec_selftest_exit },
	{ "selftest-tmp-left ", rec_selftest_tmp },
	{ "selftest-unprivileged-exit ", rec_selftest_unpriv_exit },
	{ "selftest-unprivileged ", rec_selftest_unpriv },
	{ "selftest ", rec_selftest },
	{ "end ", rec_end },
	{ "host wall_ms=", rec_wall },
	{ "host file ", rec_host_file },
	{ "faults ", rec_faults },
	{ "kmemleak leaks=", rec_kmemleak },
	{ "fleet-tenant ", rec_tenant },
	{ "fleet-end ms=", rec_fleet_end },
	{ "docs-phase ", rec_docs_phase },
	{ "docs-run ", rec_docs_run },
	{ "docs-sysctl ", rec_docs_sysctl },
	{ "system-os ", rec_system_os },
	{ "system-phase ", rec_system_phase },
	{ "system-failed ", rec_system_failed },
	{ "system-sysctl-d ", rec_sysctl_d },
	{ "system-sysctl-unit ", rec_sysctl_unit },
	{ "system-sysctl-log ", rec_sysctl_log },
	{ "system-sysctl-writer ", rec_sysctl_writer },
	{ "grub-run ", rec_grub_run },
	{ "grub-linux ", rec_grub_linux },
	{ "grub-undo-run ", rec_grub_undo_run },
	{ "grub-undo-linux ", rec_grub_undo_linux },
	{ "grub-out ", rec_grub_out },
	{ "grub-cmdline ", rec_grub_cmdline },
};

static void parse_record(struct run *run, const char *line)
{
	size_t i;

	for (i = 0; i < sizeof(records) / sizeof(records[0]); i++)
		if (!strncmp(line, records[i].prefix, strlen(records[i].prefix))) {
			records[i].parse(run, line);
			return;
		}
}

/* Whether every boot ended, and the end line to show. */
static void sum_up_boots(struct run *run)
{
	run->ended = run->boots && run->boots_ended == run->boots;
	if (run->ended)
		snprintf(run->end, sizeof(run->end), "end ok%s",
			 run->boots > 1 ? ", every boot" : "");
	else if (!run->bad_ends && run->boots > 1)
		snprintf(run->end, sizeof(run->end),
			 "%d of %d boots never reported their end",
			 run->boots - run->boots_ended, run->boots);
}

/*
 * The first of @m's @n files that is not as its record says, or NULL if
 * all are; "" if there are none.
 */
static const char *made_from_changed(const struct made_from *m, int n)
{
	long long mtime_ns, size;
	int i;

	if (!n)
		return "";
	for (i = 0; i < n; i++)
		if (file_stamp(m[i].path, &mtime_ns, &size) ||
		    mtime_ns != m[i].mtime_ns || size != m[i].size)
			return m[i].path;
	return NULL;
}

int made_from_stale(const struct made_from *m, int n, const char *path,
		    const char *name, char *why, size_t len)
{
	const char *changed = made_from_changed(m, n);

	if (changed && !*changed)
		snprintf(why, len, "%s does not say which kernel and initramfs made it; run the test %s again",
			 path, name);
	else if (changed)
		snprintf(why, len, "%s is stale: %s changed after the boot that wrote it; run the test %s again",
			 path, changed, name);
	return changed != NULL;
}

/*
 * Do @r's results belong to this build: are the kernel and initramfs they
 * were made from still as they were?  If not, say so; 1 if stale.
 */
int run_stale(const char *name, const char *path, const struct run *r)
{
	char why[1200];

	if (!made_from_stale(r->made_by, r->n_made_by, path, name, why,
			     sizeof(why)))
		return 0;
	printf("# %s: %s\n", name, why);
	return 1;
}

/* Read the guest's results channel. */
int run_load(const char *path, struct run *run)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");

	memset(run, 0, sizeof(*run));
	run->x_ms = -1;
	run->s_ms = -1;
	run->upstream_count = -1;
	run->slab_hits = run->page_hits = -1;
	run->leaks = -1;
	run->fleet_ms = -1;
	run->docs_sh = run->docs_sysctl = -2;
	run->grub_run = run->grub_undo_run = -2;
	run->sysctl_writer_status = -1;
	run->selftest_tmp_left = run->selftest_unpriv_exit = -1;
	snprintf(run->end, sizeof(run->end), "the guest never reported its end");
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		parse_record(run, line);
	}
	free(line);
	fclose(f);
	sum_up_boots(run);
	return 0;
}

/* The @n lines a record kept, each strdup()ed. */
static void free_lines(char **lines, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(lines[i]);
}

void run_free(struct run *run)
{
	int i;

	for (i = 0; i < run->n; i++)
		free_lines(run->res[i].lines, run->res[i].n_lines);
	free_lines(run->selftest, run->n_selftest);
	for (i = 0; i < run->n_tools; i++) {
		free_lines(run->tools[i].lines, run->tools[i].n_lines);
		free_lines(run->tools[i].out, run->tools[i].n_out);
	}
	for (i = 0; i < run->n_upstream; i++)
		free_lines(run->upstream[i].out, run->upstream[i].n_out);
	free_lines(run->fleet_lines, run->n_fleet_lines);
	free_lines(run->sysctl_log, run->n_sysctl_log);
	free_lines(run->sys_kmsg, run->n_sys_kmsg);
	free_lines(run->grub_linux, run->n_grub_linux);
	free_lines(run->grub_undo_linux, run->n_grub_undo_linux);
	free_lines(run->grub_out, run->n_grub_out);
	free(run->x);
	free(run->s);
}

