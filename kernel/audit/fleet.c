// SPDX-License-Identifier: GPL-2.0
/*
 * The events of each host, and the verdicts.  What a phase refuses comes
 * from the series' Documentation, not from a model of the kernel:
 *
 *   - enforce refuses every operation that warn logs;
 *   - implicit refuses only an explicit clear of a locked flag, that is
 *     mount_setattr(2) ("setattr"); a fresh mount or a remount that leaves
 *     a locked flag out gets it added and succeeds;
 *   - legacy and implicit log nothing, so their logs cannot tell: a host
 *     is judged by the phase its log ends in (its last boot, after any
 *     raise);
 *   - a line the rate limit dropped may have been any operation, and
 *     the kernel reports dropped lines only at the next warning of the
 *     same user namespace or when that namespace is freed; each user
 *     namespace has a rate limit of its own (one for all before patch 14,
 *     whose lines name no namespace).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"

const char *const verdict_name[4] = {
	"not-ready", "unknown", "ready-for-implicit", "ready-for-enforce",
};

static struct host *host_of(struct fleet *f, const char *name)
{
	struct host *h;
	size_t i;

	for (i = 0; i < f->nhosts; i++)
		if (!strcmp(f->hosts[i].name, name))
			return &f->hosts[i];
	h = realloc(f->hosts, (f->nhosts + 1) * sizeof(*h));
	if (!h)
		return NULL;
	f->hosts = h;
	h = &f->hosts[f->nhosts++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->phase = PH_UNKNOWN;
	return h;
}

static int add_offence(struct host *h, const struct audit_event *e,
		       const char *when)
{
	struct offence *o;
	size_t i;

	for (i = 0; i < h->noff; i++) {
		o = &h->off[i];
		if (!strcmp(o->program, e->program) && !strcmp(o->op, e->op) &&
		    !strcmp(o->fs, e->fs) && o->flags == e->flags &&
		    o->userns == e->userns) {
			o->count++;
			snprintf(o->last, sizeof(o->last), "%s", when);
			return 0;
		}
	}
	o = realloc(h->off, (h->noff + 1) * sizeof(*o));
	if (!o)
		return -1;
	h->off = o;
	o = &h->off[h->noff++];
	memset(o, 0, sizeof(*o));
	memcpy(o->program, e->program, sizeof(o->program));
	memcpy(o->op, e->op, sizeof(o->op));
	memcpy(o->fs, e->fs, sizeof(o->fs));
	o->flags = e->flags;
	o->userns = e->userns;
	o->count = 1;
	snprintf(o->first, sizeof(o->first), "%s", when);
	snprintf(o->last, sizeof(o->last), "%s", when);
	return 0;
}

/* A command's name, printable: comm may hold any byte. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

static void new_boot(struct host *h)
{
	size_t i;

	h->phase = PH_UNKNOWN;
	h->phase_from_log = h->phase_from_cmdline = false;
	for (i = 0; i < h->nwin; i++)
		h->win[i].nrecent = 0;
	h->boot_seq = h->seq;
}

/* @program in user namespace @userns on @h; NULL if out of memory. */
static struct limited *limit_of(struct host *h, unsigned int userns,
				const char *program)
{
	struct limited *l;
	size_t i;

	for (i = 0; i < h->nns; i++)
		if (h->ns[i].userns == userns &&
		    !strcmp(h->ns[i].program, program))
			return &h->ns[i];
	l = realloc(h->ns, (h->nns + 1) * sizeof(*l));
	if (!l)
		return NULL;
	h->ns = l;
	l = &h->ns[h->nns++];
	memset(l, 0, sizeof(*l));
	l->userns = userns;
	snprintf(l->program, sizeof(l->program), "%s", program);
	return l;
}

/*
 * Whose loss a report for @userns is: the program that last warned in a
 * namespace of that number in this boot, or "-" if none did or the
 * report names no namespace (the ceiling's, or one rate limit for all
 * before patch 14).
 */
static struct limited *loser_of(struct host *h, unsigned int userns)
{
	struct limited *best = NULL;
	size_t i;

	for (i = 0; userns && i < h->nns; i++)
		if (h->ns[i].userns == userns && h->ns[i].seq > h->boot_seq &&
		    (!best || h->ns[i].seq > best->seq))
			best = &h->ns[i];
	return best ? best : limit_of(h, userns, "-");
}

/* The rate limit of user namespace @userns on @h; NULL if out of memory. */
static struct window *window_of(struct host *h, unsigned int userns)
{
	struct window *w;
	size_t i;

	for (i = 0; i < h->nwin; i++)
		if (h->win[i].userns == userns)
			return &h->win[i];
	w = realloc(h->win, (h->nwin + 1) * sizeof(*w));
	if (!w)
		return NULL;
	h->win = w;
	w = &h->win[h->nwin++];
	memset(w, 0, sizeof(*w));
	w->userns = userns;
	return w;
}

static void remember_warning(struct window *l, double t)
{
	if (l->nrecent == RATELIMIT_BURST) {
		memmove(l->recent, l->recent + 1,
			(RATELIMIT_BURST - 1) * sizeof(*l->recent));
		l->nrecent--;
	}
	l->recent[l->nrecent++] = t;
}

/* A warning line: a proof of warn, an offence, a line in its window. */
static int add_warning(struct host *h, const struct audit_event *e,
		       const struct audit_record *r, struct limited *l,
		       struct window *w)
{
	/*
	 * Only warn prints it, or a raise that came while the operation was
	 * under way: a proof of warn, not of less.
	 */
	if (h->phase < PH_WARN) {
		h->phase = PH_WARN;
		h->phase_from_log = true;
	}
	h->warnings++;
	if (!strcmp(e->op, "setattr"))
		h->setattr_warnings++;
	remember_warning(w, r->t);
	l->seq = ++h->seq;
	return add_offence(h, e, r->when[0] ? r->when : "unknown time");
}

/* What the log says of the host's phase: a boot parameter, or a raise. */
static void note_phase(struct host *h, const struct audit_event *e)
{
	switch (e->kind) {
	case EV_IGNORED:
		/* A kernel without the run-time phase: the parameter said nothing. */
		if (h->phase_from_cmdline) {
			h->phase = PH_UNKNOWN;
			h->phase_from_log = h->phase_from_cmdline = false;
		}
		break;
	case EV_CMDLINE:
		h->phase = e->phase;
		h->phase_from_log = h->phase_from_cmdline = true;
		break;
	case EV_RAISE:
		h->phase = e->phase;
		h->phase_from_log = true;
		h->phase_from_cmdline = false;
		break;
	default:
		break;
	}
}

int fleet_add(const struct audit_record *r, void *arg, char *err,
	      size_t errlen)
{
	struct audit_event e = audit_message(r->msg);
	struct host *h = host_of(arg, r->host);
	bool limited = e.kind == EV_WARNING || e.kind == EV_SUPPRESSED;
	struct limited *l = NULL;
	struct window *w = NULL;

	printable(e.program);
	if (h && e.kind == EV_WARNING)
		l = limit_of(h, e.userns, e.program);
	else if (h && e.kind == EV_SUPPRESSED)
		l = loser_of(h, e.userns);
	if (h && limited)
		w = window_of(h, e.userns);
	if (!h || (limited && (!l || !w))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	h->records++;
	switch (e.kind) {
	case EV_MALFORMED:
		snprintf(err, errlen, "a truncated or altered message of the proc and sysfs mount flags, which would make the verdict wrong: \"%.200s\"",
			 r->msg);
		return -1;
	case EV_BOOT:
		new_boot(h);
		break;
	case EV_WARNING:
		if (add_warning(h, &e, r, l, w)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		break;
	case EV_SUPPRESSED:
		h->lost += e.count;
		l->lost += e.count;
		w->nrecent = 0;		/* what it lost so far is reported */
		break;
	default:
		note_phase(h, &e);
		break;
	}
	return 0;
}

static void reason(char (*reasons)[160], int *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reason(char (*reasons)[160], int *n, const char *fmt, ...)
{
	va_list ap;

	if (*n >= MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(reasons[(*n)++], 160, fmt, ap);
	va_end(ap);
}

/*
 * Whether a rate limit of @h may have dropped lines that no suppressed
 * count reports: the kernel prints that count only at the namespace's
 * next warning after the window, or when the namespace is freed, so a
 * last full window tells nothing.
 */
static bool unseen_loss(const struct host *h)
{
	double span;
	size_t i;

	for (i = 0; i < h->nwin; i++) {
		const struct window *l = &h->win[i];

		if (l->nrecent < RATELIMIT_BURST)
			continue;
		span = l->recent[RATELIMIT_BURST - 1] - l->recent[0];
		if (isnan(span) || span <= RATELIMIT_S + 0.5)
			return true;
	}
	return false;
}

/* A host whose log ends in warn: what its lines say the others refuse. */
static void judge_warn(struct host *h)
{
	bool unseen = unseen_loss(h);

	if (h->setattr_warnings) {
		h->verdict = V_NOT_READY;
		reason(h->reasons, &h->nreasons,
		       "%lu mount_setattr() calls clear a locked flag: implicit and enforce refuse them",
		       h->setattr_warnings);
	} else if (h->lost || unseen) {
		h->verdict = V_UNKNOWN;
		if (h->lost)
			reason(h->reasons, &h->nreasons,
			       "%lu warning lines were lost to the rate limit: they may hide a mount_setattr() that implicit refuses",
			       h->lost);
		if (unseen)
			reason(h->reasons, &h->nreasons,
			       "its last %d warnings came within the rate limit's %.0f s: later ones may be lost unreported",
			       RATELIMIT_BURST, RATELIMIT_S);
	} else if (h->warnings) {
		h->verdict = V_IMPLICIT;
	} else {
		h->verdict = V_ENFORCE;
		reason(h->reasons, &h->nreasons,
		       "no operation that enforce refuses");
	}
	if (h->warnings)
		reason(h->reasons, &h->nreasons,
		       "%lu operations leave out or clear a locked flag: enforce refuses them",
		       h->warnings + h->lost);
}

/*
 * A host is judged by the phase its log ends in: only a log that ends
 * in warn says what the stricter phases would refuse today.  Warnings of
 * an earlier boot or of the time before a raise still prove that a
 * mount_setattr() clear happened, which implicit and enforce refuse.
 */
static void judge_host(struct host *h, enum audit_phase assumed)
{
	enum audit_phase p = h->phase_from_log ? h->phase : assumed;

	h->nreasons = 0;
	if (p == PH_WARN) {
		judge_warn(h);
		return;
	}
	if (h->setattr_warnings) {
		h->verdict = V_NOT_READY;
		reason(h->reasons, &h->nreasons,
		       "%lu mount_setattr() calls cleared a locked flag while it ran warn: implicit and enforce refuse them",
		       h->setattr_warnings);
	} else if (p == PH_ENFORCE && h->warnings) {
		h->verdict = V_NOT_READY;
		reason(h->reasons, &h->nreasons,
		       "it runs enforce, which refuses the %lu operations it warned about before",
		       h->warnings);
	} else if (p == PH_ENFORCE) {
		h->verdict = V_ENFORCE;
		reason(h->reasons, &h->nreasons, "the host runs enforce already");
	} else if (p == PH_UNKNOWN) {
		h->verdict = V_UNKNOWN;
		reason(h->reasons, &h->nreasons,
		       "the log does not show the phase of its last boot (no proc_sysfs_mount_flags= the kernel took, no raise, no warning): give --phase with the phase the kernel is built for");
	} else {
		h->verdict = V_UNKNOWN;
		reason(h->reasons, &h->nreasons,
		       "the log ends in %s, which logs nothing: boot the host with proc_sysfs_mount_flags=warn to audit it",
		       audit_phase_name[p]);
	}
}

static int by_count(const void *a, const void *b)
{
	const struct offence *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	c = strcmp(x->program, y->program);
	if (!c)
		c = strcmp(x->op, y->op);
	if (!c)
		c = strcmp(x->fs, y->fs);
	if (!c && x->userns != y->userns)
		c = x->userns < y->userns ? -1 : 1;
	return c ? c : (int)x->flags - (int)y->flags;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct host *)a)->name,
		      ((const struct host *)b)->name);
}

void fleet_judge(struct fleet *f)
{
	unsigned long n[4] = { 0 };
	size_t i;
	int v;

	qsort(f->hosts, f->nhosts, sizeof(*f->hosts), by_name);
	f->verdict = V_ENFORCE;
	for (i = 0; i < f->nhosts; i++) {
		struct host *h = &f->hosts[i];

		qsort(h->off, h->noff, sizeof(*h->off), by_count);
		judge_host(h, f->assumed);
		n[h->verdict]++;
		if (h->verdict < f->verdict)
			f->verdict = h->verdict;
	}
	f->nreasons = 0;
	for (v = V_NOT_READY; v <= V_ENFORCE; v++)
		if (n[v])
			reason(f->reasons, &f->nreasons, "%lu of %zu hosts: %s",
			       n[v], f->nhosts, verdict_name[v]);
}

void fleet_free(struct fleet *f)
{
	size_t i;

	for (i = 0; i < f->nhosts; i++) {
		free(f->hosts[i].off);
		free(f->hosts[i].ns);
		free(f->hosts[i].win);
	}
	free(f->hosts);
	f->hosts = NULL;
	f->nhosts = 0;
}
