// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel logs as operators have them, into records (host, time, message):
 *
 *   dmesg                  [   12.345678] MESSAGE
 *   dmesg -T               [Sat Dec  5 10:00:00 2026] MESSAGE
 *   journalctl -k          Dec 05 10:00:00 HOST kernel: MESSAGE
 *   journalctl -k -o json  one JSON object per line (MESSAGE, _HOSTNAME,
 *                          __REALTIME_TIMESTAMP, _TRANSPORT)
 *
 * Anything else is an error that names the file and the line: a binary
 * file, a file with no line of these forms, a JSON line that does not
 * parse (a truncated export), and a message of the series outside these
 * forms.  The verdicts are only as good as the lines read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "audit.h"

struct reader {
	const char *path, *host;
	unsigned long line;
	audit_record_fn *fn;
	void *arg;
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = r->line ?
		snprintf(r->err, r->errlen, "%s:%lu: ", r->path, r->line) :
		snprintf(r->err, r->errlen, "%s: ", r->path);

	if (n < 0 || (size_t)n >= r->errlen)
		return -1;	/* the path alone fills the message */
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Hand @rec on; an error of the callee gets the file and line in front. */
static int deliver(struct reader *r, const struct audit_record *rec)
{
	char why[512];

	if (!r->fn(rec, r->arg, why, sizeof(why)))
		return 0;
	return fail(r, "%s", why);
}

static bool digits(const char *s, size_t n)
{
	while (n--)
		if (*s < '0' || *s++ > '9')
			return false;
	return true;
}

/* "[ T123] " or "[  C1] " (CONFIG_PRINTK_CALLER) after the time: skipped. */
static const char *caller_field(const char *s)
{
	const char *p = s + 1;

	if (*s != '[')
		return s;
	while (*p == ' ')
		p++;
	if ((*p != 'T' && *p != 'C') || p[1] < '0' || p[1] > '9')
		return s;
	for (p++; *p >= '0' && *p <= '9'; p++)
		;
	return strncmp(p, "] ", 2) ? s : p + 2;
}

/* "[   12.345678] ": the time after boot into @when and @t; the message. */
static const char *dmesg_prefix(const char *s, char *when, size_t len,
				double *t)
{
	const char *p = s + 1, *dot, *end;

	if (*s != '[')
		return NULL;
	while (*p == ' ')
		p++;
	dot = strchr(p, '.');
	end = strchr(p, ']');
	if (!dot || !end || dot > end || dot == p || end[1] != ' ' ||
	    !digits(p, dot - p) || !digits(dot + 1, end - dot - 1) ||
	    end == dot + 1)
		return NULL;
	snprintf(when, len, "%.*s s after boot", (int)(end - p), p);
	*t = strtod(p, NULL);
	return caller_field(end + 2);
}

/* "[Sat Dec  5 10:00:00 2026] ", dmesg -T */
static const char *dmesg_t_prefix(const char *s, char *when, size_t len,
				  double *t)
{
	struct tm tm = { 0 };
	const char *end;

	if (*s != '[' || strlen(s) < 27 || s[25] != ']' || s[26] != ' ')
		return NULL;
	end = strptime(s + 1, "%a %b %e %H:%M:%S %Y", &tm);
	if (end != s + 25)
		return NULL;
	snprintf(when, len, "%.24s", s + 1);
	*t = timegm(&tm);
	return caller_field(s + 27);
}

/*
 * "Dec 05 10:00:00 HOST kernel: ", journalctl -k.  Its host is the file's,
 * as for dmesg: many hosts call themselves localhost.
 */
static const char *journal_prefix(const char *s, char *when, size_t len,
				  double *t)
{
	struct tm tm = { .tm_year = 70 };
	const char *end = strptime(s, "%b %d %H:%M:%S ", &tm), *k;
	size_t n;

	if (!end || end - s != 16)
		return NULL;
	n = strcspn(end, " ");
	k = end + n;
	if (!n || strncmp(k, " kernel: ", 9))
		return NULL;
	snprintf(when, len, "%.15s", s);
	*t = timegm(&tm);	/* no year: enough to measure a window */
	return k + 9;
}

static int text_line(struct reader *r, const char *line, bool *recognised)
{
	char when[64];
	struct audit_record rec = { .host = r->host, .when = when, .t = NAN };

	if (*line == '{')
		return fail(r, "a JSON line in a text log: give each log in one form, journalctl -k -o json or text");
	rec.msg = dmesg_prefix(line, when, sizeof(when), &rec.t);
	if (!rec.msg)
		rec.msg = dmesg_t_prefix(line, when, sizeof(when), &rec.t);
	if (!rec.msg)
		rec.msg = journal_prefix(line, when, sizeof(when), &rec.t);
	if (!rec.msg) {
		if (strstr(line, WARNING_PREFIX) ||
		    strstr(line, "mnt_warn_cleared: "))
			return fail(r, "a message of the proc and sysfs mount flags without the time of dmesg or journalctl -k in front: give the log as dmesg or journalctl -k printed it");
		return 0;	/* a line of something else (a console) */
	}
	*recognised = true;
	return deliver(r, &rec);
}

/*
 * MESSAGE is a string, or an array of bytes where it is not UTF-8: a copy
 * into *@msg, to be freed.
 */
static int journal_message(struct reader *r, json_object *m, char **msg)
{
	size_t i, n;

	if (json_object_is_type(m, json_type_string)) {
		*msg = strdup(json_object_get_string(m));
		return *msg ? 0 : fail(r, "out of memory");
	}
	if (!json_object_is_type(m, json_type_array))
		return fail(r, "MESSAGE is neither a string nor an array of bytes");
	n = json_object_array_length(m);
	*msg = malloc(n + 1);
	if (!*msg)
		return fail(r, "out of memory");
	for (i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(m, i);
		int v = json_object_get_int(b);

		if (!json_object_is_type(b, json_type_int) || v <= 0 || v > 255)
			return fail(r, "MESSAGE holds something other than a byte");
		(*msg)[i] = v;
	}
	(*msg)[n] = '\0';
	return 0;
}

/* A field that must be a string where it is present: NULL if absent. */
static int string_field(struct reader *r, json_object *o, const char *key,
			const char **value)
{
	json_object *v;

	*value = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(r, "%s is not a string: not journalctl's export", key);
	*value = json_object_get_string(v);
	return 0;
}

static int json_line(struct reader *r, const char *line, bool *recognised)
{
	enum json_tokener_error jerr;
	json_object *o = json_tokener_parse_verbose(line, &jerr), *v;
	const char *transport, *host, *stamp;
	char when[64] = "", *msg = NULL;
	struct audit_record rec = { .host = r->host, .when = when, .t = NAN };
	int ret = 0;

	if (!o || !json_object_is_type(o, json_type_object)) {
		ret = fail(r, "not a JSON object (%s): a truncated or altered export? give the whole output of journalctl -k -o json",
			   o ? "another JSON value" : json_tokener_error_desc(jerr));
		goto out;
	}
	if (string_field(r, o, "_TRANSPORT", &transport) ||
	    string_field(r, o, "_HOSTNAME", &host) ||
	    string_field(r, o, "__REALTIME_TIMESTAMP", &stamp)) {
		ret = -1;
		goto out;
	}
	if (transport && strcmp(transport, "kernel"))
		goto out;	/* journalctl without -k: not the kernel's */
	if (!json_object_object_get_ex(o, "MESSAGE", &v)) {
		ret = fail(r, "a journal entry without MESSAGE");
		goto out;
	}
	ret = journal_message(r, v, &msg);
	if (ret)
		goto out;
	if (host)
		rec.host = host;
	if (stamp) {
		long long us = strtoll(stamp, NULL, 10);
		time_t t = us / 1000000;
		struct tm tm;

		if (us > 0 && gmtime_r(&t, &tm)) {
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
			rec.t = us / 1e6;
		}
	}
	rec.msg = msg;
	*recognised = true;
	ret = deliver(r, &rec);
out:
	free(msg);
	json_object_put(o);
	return ret;
}

static char *slurp(struct reader *r, size_t *len)
{
	FILE *f = fopen(r->path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f) {
		fail(r, "cannot open: %s", strerror(errno));
		return NULL;
	}
	*len = 0;
	do {
		if (*len + 65536 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 65536 + 1);

			if (!b) {
				free(buf);
				fclose(f);
				fail(r, "out of memory");
				return NULL;
			}
			buf = b;
		}
		n = fread(buf + *len, 1, 65536, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		fail(r, "cannot read: %s", strerror(errno));
		free(buf);
		buf = NULL;
	} else {
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

int audit_read_file(const char *path, const char *host, audit_record_fn *fn,
		    void *arg, char *err, size_t errlen)
{
	struct reader r = { path, host, 0, fn, arg, err, errlen };
	bool recognised = false, json;
	size_t len;
	char *buf = slurp(&r, &len), *line, *next;
	int ret = 0;

	if (!buf)
		return -1;
	line = buf + strspn(buf, " \t\r\n");
	if (memchr(buf, '\0', len)) {
		ret = fail(&r, "a binary file (it holds NUL bytes), not a kernel log: give dmesg or journalctl -k output (journalctl --file reads a binary journal)");
		goto out;
	}
	if (!*line) {
		ret = fail(&r, "empty: a host's log holds at least its boot messages");
		goto out;
	}
	if (buf[len - 1] != '\n') {
		ret = fail(&r, "the last line has no line end: the log may have been cut short; give the whole of it");
		goto out;
	}
	json = *line == '{';
	for (line = buf; *line && !ret; line = next) {
		size_t n = strcspn(line, "\n");

		next = line + n;
		if (*next)
			*next++ = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';	/* a serial console's line end */
		r.line++;
		if (json && *line)
			ret = json_line(&r, line, &recognised);
		else if (!json)
			ret = text_line(&r, line, &recognised);
	}
	if (!ret && !recognised) {
		r.line = 0;
		ret = fail(&r, "no line in the form of dmesg ('[   12.345678] ...'), dmesg -T or journalctl -k: not a kernel log");
	}
out:
	free(buf);
	return ret;
}
