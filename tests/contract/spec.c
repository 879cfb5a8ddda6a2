// SPDX-License-Identifier: GPL-2.0
/* Parse the spec and the guest's results, and judge one against the other. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

/* The phases, in the order of the spec's columns and of the reports. */
#define PHASE_NAME(name, str) [PHASE_##name] = str,
const char *const all_modes[MAX_MODES] = { PHASES(PHASE_NAME) };

static const char *const flag_name[] = { "ro", "nosuid", "nodev", "noexec" };

int mode_index(const char *mode)
{
	int i;

	for (i = 0; i < MAX_MODES; i++)
		if (!strcmp(mode, all_modes[i]))
			return i;
	return -1;
}

/* "nosuid,nodev" -> F_NOSUID | F_NODEV; "-" -> 0; -1 on an unknown name */
int parse_flags(const char *s)
{
	char buf[128], *tok, *save;
	int flags = 0, i;

	if (!strcmp(s, "-"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 4; i++)
			if (!strcmp(tok, flag_name[i]))
				break;
		if (i == 4)
			return -1;
		flags |= 1 << i;
	}
	return flags;
}

void format_flags(int flags, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < 4; i++)
		if (flags & (1 << i))
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? "," : "", flag_name[i]);
	if (!used)
		snprintf(buf, len, "-");
}

const char *outcome_name(enum outcome o)
{
	return o == ALLOWED ? "allowed" : o == WARNED ? "warned" : "refused";
}

void format_cell(const struct cell *c, char *buf, size_t len)
{
	char f[64], cl[64];
	size_t used;
	int i;

	format_flags(c->flags, f, sizeof(f));
	format_flags(c->cleared, cl, sizeof(cl));
	if (c->outcome == ALLOWED)
		snprintf(buf, len, "ok %s", f);
	else if (c->outcome == WARNED)
		snprintf(buf, len, "warn %s %s", cl, f);
	else
		snprintf(buf, len, "%s", c->err);
	used = strlen(buf);
	for (i = 0; i < c->n_raised && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s>%s",
				 i ? "," : " raised:", c->raised[i][0],
				 c->raised[i][1]);
	if (c->unknown[0][0] && used < len)
		snprintf(buf + used, len - used, " unknown:%s>%s",
			 c->unknown[0], c->unknown[1]);
}

/* "OLD>NEW" into @pair, each a phase name; -1 if it is not that. */
static int parse_transition(const char *s, char pair[2][16], bool phases)
{
	const char *gt = strchr(s, '>');

	if (!gt || gt == s || !gt[1] || (size_t)(gt - s) >= 16 ||
	    strlen(gt + 1) >= 16)
		return -1;
	snprintf(pair[0], 16, "%.*s", (int)(gt - s), s);
	snprintf(pair[1], 16, "%s", gt + 1);
	if (mode_index(pair[1]) < 0 || (phases && mode_index(pair[0]) < 0))
		return -1;
	return 0;
}

/* The trailing "raised:A>B[,B>C]" and "unknown:V>P" of a cell. */
static int parse_phase_lines(char *extra, struct cell *c)
{
	char *tok, *save, *t, *save2;
	char pair[2][16];

	for (tok = strtok_r(extra, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strncmp(tok, "unknown:", 8)) {
			if (c->unknown[0][0] || parse_transition(tok + 8, pair, false))
				return -1;
			snprintf(c->unknown[0], 32, "%s", pair[0]);
			snprintf(c->unknown[1], 32, "%s", pair[1]);
			continue;
		}
		if (strncmp(tok, "raised:", 7) || c->n_raised)
			return -1;
		for (t = strtok_r(tok + 7, ",", &save2); t;
		     t = strtok_r(NULL, ",", &save2)) {
			if (c->n_raised == MAX_RAISES ||
			    parse_transition(t, c->raised[c->n_raised], true))
				return -1;
			c->n_raised++;
		}
	}
	return 0;
}

/*
 * "ok FLAGS" | "warn CLEARED FLAGS" | "EXXX", then optionally the kernel
 * lines of the run-time phase: "raised:OLD>NEW[,...]", "unknown:VALUE>KEPT".
 */
int parse_cell(const char *s, struct cell *c)
{
	char a[32] = "", b[128] = "", d[128] = "", extra[8] = "";
	char base[256], *more;
	int n;

	memset(c, 0, sizeof(*c));
	snprintf(base, sizeof(base), "%s", s);
	more = strstr(base, " raised:");
	if (!more || (strstr(base, " unknown:") && strstr(base, " unknown:") < more))
		more = strstr(base, " unknown:");
	if (more) {
		*more++ = 0;
		if (parse_phase_lines(more, c))
			return -1;
	}
	n = sscanf(base, "%31s %127s %127s %7s", a, b, d, extra);
	if (n == 2 && !strcmp(a, "ok")) {
		c->outcome = ALLOWED;
		c->flags = parse_flags(b);
		return c->flags < 0 ? -1 : 0;
	}
	if (n == 3 && !strcmp(a, "warn")) {
		c->outcome = WARNED;
		c->cleared = parse_flags(b);
		c->flags = parse_flags(d);
		return c->cleared <= 0 || c->flags < 0 ? -1 : 0;
	}
	if (n == 1 && a[0] == 'E' && strlen(a) > 1 && strlen(a) < sizeof(c->err)) {
		c->outcome = REFUSED;
		memcpy(c->err, a, strlen(a) + 1);
		return 0;
	}
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Split a markdown table row into at most @max trimmed cells. */
int split_row(char *line, char **cells, int max)
{
	char *p = strchr(line, '|'), *q;
	int n = 0;

	if (!p)
		return 0;
	for (p++; (q = strchr(p, '|')) && n < max; p = q + 1) {
		*q = 0;
		cells[n++] = trim(p);
	}
	return n;
}

bool md_after_table(int *state, const char *line)
{
	enum { TEXT, FIRST_ROW, TABLE };
	bool row = line[0] == '|';

	switch (*state) {
	case FIRST_ROW:		/* a header only if its delimiter follows */
		if (!row || line[1 + strspn(line + 1, " ")] != '-')
			return false;
		*state = TABLE;
		return true;
	case TABLE:
		*state = row ? TABLE : TEXT;
		return true;
	default:
		*state = row ? FIRST_ROW : TEXT;
		return true;
	}
}

/* | scenario | what | PHASE | ... (configs/phases) */
static bool header_ok(char **cells, int n)
{
	int i;

	if (n < 2 + MAX_MODES || strcmp(cells[0], "scenario") ||
	    strcmp(cells[1], "what"))
		return false;
	for (i = 0; i < MAX_MODES; i++)
		if (strcmp(cells[2 + i], all_modes[i]))
			return false;
	return true;
}

/* A row of @n @cells, line @lineno of @path, into @spec: 0, or -1 and @err. */
static int add_row(struct spec *spec, char **cells, int n, const char *path,
		   int lineno, char *err, size_t len)
{
	struct spec_row *row = &spec->row[spec->n];
	int i;

	if (n != 2 + MAX_MODES) {
		snprintf(err, len, "%s:%d: %d cells, want %d", path, lineno, n,
			 2 + MAX_MODES);
		return -1;
	}
	if (spec->n == MAX_SCENARIOS || spec_find(spec, cells[0])) {
		snprintf(err, len, "%s:%d: too many rows, or %s twice", path,
			 lineno, cells[0]);
		return -1;
	}
	snprintf(row->name, sizeof(row->name), "%s", cells[0]);
	snprintf(row->what, sizeof(row->what), "%s", cells[1]);
	for (i = 0; i < MAX_MODES; i++)
		if (parse_cell(cells[2 + i], &row->cell[i])) {
			snprintf(err, len,
				 "%s:%d: %s: cannot read '%s' (want 'ok FLAGS', 'warn CLEARED FLAGS' or an errno name)",
				 path, lineno, all_modes[i], cells[2 + i]);
			return -1;
		}
	spec->n++;
	return 0;
}

static void bad_header(const char *path, int lineno, char *err, size_t len)
{
	int i;

	snprintf(err, len, "%s:%d: the table header must be | scenario | what |",
		 path, lineno);
	for (i = 0; i < MAX_MODES; i++)
		snprintf(err + strlen(err), len - strlen(err), " %s |",
			 all_modes[i]);
	strncat(err, " (configs/phases)", len - strlen(err) - 1);
}

int spec_load(const char *path, struct spec *spec, char *err, size_t len)
{
	char line[2048], *cells[2 + MAX_MODES + 1];
	int lineno = 0, header = 0, n, bad = 0;
	FILE *f = fopen(path, "r");

	memset(spec, 0, sizeof(*spec));
	if (!f) {
		snprintf(err, len, "%s: cannot open", path);
		return -1;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		lineno++;
		/* The sequences' table follows (seq_spec.c). */
		if (!strncmp(line, SEQ_SPEC_HEADING, strlen(SEQ_SPEC_HEADING)))
			break;
		if (line[0] != '|')
			continue;
		n = split_row(line, cells, 2 + MAX_MODES + 1);
		if (!header) {
			header = header_ok(cells, n);
			if (!header) {
				bad_header(path, lineno, err, len);
				bad = 1;
			}
		} else if (cells[0][0] != '-') {	/* |---|---| */
			bad = add_row(spec, cells, n, path, lineno, err, len);
		}
	}
	fclose(f);
	if (!bad && !spec->n) {
		snprintf(err, len, "%s: no table rows", path);
		bad = 1;
	}
	return bad ? -1 : 0;
}

const struct spec_row *spec_find(const struct spec *spec, const char *name)
{
	int i;

	for (i = 0; i < spec->n; i++)
		if (!strcmp(spec->row[i].name, name))
			return &spec->row[i];
	return NULL;
}

/* The exact line the warn phase must log for @r. */
void expected_warning(const struct result *r, int cleared, char *buf,
		      size_t len)
{
	char names[64];

	/* The kernel names only the exec flags, ro is never "cleared". */
	format_flags(cleared & (F_NOSUID | F_NODEV | F_NOEXEC), names,
		     sizeof(names));
	snprintf(buf, len,
		 "VFS: process '%s' (pid %d, user:[%u]) clears %s in %s of %s; the enforce phase will refuse this with EPERM",
		 r->comm, r->pid, r->userns, names, r->op, r->fs);
}

/* The notice of the sysctl when the raiser of @r changed the phase. */
void expected_raise(const struct result *r, const char *old, const char *new,
		    char *buf, size_t len)
{
	snprintf(buf, len,
		 "VFS: process 'mnt-raise' (pid %d) " RAISE_NOTICE "from %s to %s",
		 r->raiser, old, new);
}

/* The line of a boot parameter that names no phase. */
void expected_unknown(const char *value, const char *kept, char *buf,
		      size_t len)
{
	snprintf(buf, len,
		 "VFS: unknown proc_sysfs_mount_flags=%s, keeping the %s phase",
		 value, kept);
}

bool is_warning(const char *line)
{
	return !strncmp(line, WARNING_PREFIX, strlen(WARNING_PREFIX));
}

/* Of the lines is_warning() takes, the sysctl's notice of a raise. */
bool is_raise_notice(const char *line)
{
	return is_warning(line) && strstr(line, RAISE_NOTICE);
}

bool is_splat(const char *line)
{
	static const char *const marks[] = {
		"WARNING:", "BUG:", "Oops", "Kernel panic", "Call Trace:",
		"possible circular locking", "possible recursive locking",
		"inconsistent lock state", "suspicious RCU usage",
		"DEBUG_LOCKS_WARN_ON", "possible deadlock", "UBSAN:", "KASAN:",
		"general protection fault", "list_add corruption",
		"list_del corruption",
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (strstr(line, marks[i]))
			return true;
	return false;
}

/* The run-time phase's lines @c wants from @r, into @lines; how many. */
static int expected_phase_lines(const struct cell *c, const struct result *r,
				char lines[][256])
{
	int i, n = 0;

	for (i = 0; i < c->n_raised; i++)
		expected_raise(r, c->raised[i][0], c->raised[i][1], lines[n++],
			       256);
	if (c->unknown[0][0])
		expected_unknown(c->unknown[0], c->unknown[1], lines[n++], 256);
	return n;
}

/* Count @line against the expected @lines; false if it is none of them. */
static bool count_phase_line(char lines[][256], int n, int *seen,
			     const char *line)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(lines[i], line))
			return ++seen[i], true;
	return false;
}

/* Add to what is wrong with @v. */
static void __attribute__((format(printf, 2, 3)))
why(struct verdict *v, const char *fmt, ...)
{
	size_t n = strlen(v->why);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->why + n, sizeof(v->why) - n, fmt, ap);
	va_end(ap);
}

/*
 * Judge one observed scenario against one cell of the spec: the return
 * value, the flags that landed and every kernel line the scenario caused.
 */
/*
 * mount_too_revealing()'s refusal of a fresh mount is logged by the kernel
 * itself: by fsmount(2) on every tree, by mount(2) too from Linux 7.x on
 * (errorfcp() with no log to take it).
 */
static bool is_refusal_line(const struct cell *c, const struct result *r,
			    const char *line)
{
	return c->outcome == REFUSED &&
	       (!strcmp(r->op, "fsmount") || !strcmp(r->op, "mount")) &&
	       !strcmp(line, "VFS: Mount too revealing");
}

/* What the run shows: refused, warned, or allowed silently. */
static enum outcome seen_of(const struct result *r)
{
	enum outcome seen = ALLOWED;
	int i;

	for (i = 0; i < r->n_lines; i++)
		if (is_warning(r->lines[i]))
			seen = WARNED;
	return strcmp(r->ret, "0") ? REFUSED : seen;
}

/* The return of every try, and the flags that landed. */
static void judge_return(const struct cell *c, const struct result *r,
			 struct verdict *vp)
{
	char got[64], exp[64];

	if (c->outcome == REFUSED) {
		if (strcmp(r->ret, c->err) || r->ok)
			why(vp, "returned %s (%d/%d succeeded), want %s; ", r->ret,
			    r->ok, r->tries, c->err);
	} else {
		if (strcmp(r->ret, "0") || r->ok != r->tries)
			why(vp, "returned %s (%d/%d succeeded), want 0; ", r->ret,
			    r->ok, r->tries);
		else if (r->flags != c->flags) {
			format_flags(r->flags, got, sizeof(got));
			format_flags(c->flags, exp, sizeof(exp));
			why(vp, "landed %s, want %s; ", got, exp);
		}
	}
}

/* How many @want lines a warned cell's @warnings must be, by the limit. */
static void judge_warning_count(const struct result *r, int warnings,
				const char *want, struct verdict *vp)
{
	/* Each 5 s window may print up to the burst, no more. */
	long max_warnings = RATELIMIT_BURST * (1 + r->ms / RATELIMIT_MS);
	int min_warnings = r->tries < RATELIMIT_BURST ? r->tries : RATELIMIT_BURST;

	if (r->tries == 1 && warnings != 1)
		why(vp, "%d warning lines, want exactly 1: \"%s\"; ", warnings, want);
	else if (r->tries > 1 &&
		 (warnings < min_warnings || warnings > max_warnings))
		why(vp, "%d warning lines for %d operations in %ld ms, want %d to %ld; ",
		    warnings, r->tries, r->ms, min_warnings, max_warnings);
}

int suppressed_count(const char *line, unsigned int *userns)
{
	char *end;
	long n;

	if (strncmp(line, SUPPRESSED_PREFIX, strlen(SUPPRESSED_PREFIX)))
		return -1;
	*userns = strtoul(line + strlen(SUPPRESSED_PREFIX), &end, 10);
	if (strncmp(end, "] had ", 6))
		return -1;
	n = strtol(end + 6, &end, 10);
	return strcmp(end, SUPPRESSED_END) || n <= 0 ? -1 : (int)n;
}

/*
 * The rate limit's account of the scenario's own user namespace: N, or 0
 * for any other line.  The kernel logs it when a window that dropped lines
 * has ended, at the namespace's next warning or its exit: within a flood
 * that outlasts a window (a slow guest), or after it.
 */
static int suppressed_here(const struct result *r, const char *line)
{
	unsigned int userns;
	int n = suppressed_count(line, &userns);

	return n > 0 && r->userns && userns == r->userns && n <= r->tries ? n : 0;
}

/*
 * Kernel lines: the warning and the phase's lines where due, and for a
 * warned cell of more tries than a window prints, what the limit
 * suppressed; nothing else.  Every try is a warning line or counted as
 * suppressed, once: the counts may not add up to more than the tries.
 */
static void judge_lines(const struct cell *c, const struct result *r,
			struct verdict *vp)
{
	char want[512];
	char phase_lines[MAX_RAISES + 1][256];
	int phase_seen[MAX_RAISES + 1] = { 0 };
	int i, n, warnings = 0, suppressed = 0, n_phase;

	expected_warning(r, c->cleared, want, sizeof(want));
	n_phase = expected_phase_lines(c, r, phase_lines);
	for (i = 0; i < r->n_lines; i++) {
		if (c->outcome == WARNED && !strcmp(r->lines[i], want)) {
			warnings++;
			continue;
		}
		if (c->outcome == WARNED && r->tries > RATELIMIT_BURST &&
		    (n = suppressed_here(r, r->lines[i]))) {
			suppressed += n;
			continue;
		}
		if (is_refusal_line(c, r, r->lines[i]))
			continue;
		if (count_phase_line(phase_lines, n_phase, phase_seen, r->lines[i]))
			continue;
		why(vp, "unexpected kernel line \"%s\"; ", r->lines[i]);
	}
	for (i = 0; i < n_phase; i++)
		if (phase_seen[i] != 1)
			why(vp, "%d times, want once: \"%s\"; ", phase_seen[i],
			    phase_lines[i]);
	if (c->outcome == WARNED)
		judge_warning_count(r, warnings, want, vp);
	if (warnings + suppressed > r->tries)
		why(vp, "%d warning lines and %d suppressed for %d operations; ",
		    warnings, suppressed, r->tries);
}

struct verdict judge(const struct cell *c, const struct result *r)
{
	struct verdict v = { .pass = true };

	if (!r) {
		v.pass = false;
		v.seen = REFUSED;
		why(&v, "no result from the guest; ");
		return v;
	}
	v.seen = seen_of(r);
	judge_return(c, r, &v);
	judge_lines(c, r, &v);
	v.pass = !v.why[0];
	if (v.why[0])
		v.why[strlen(v.why) - 2] = 0;
	return v;
}
