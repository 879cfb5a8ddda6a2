// SPDX-License-Identifier: GPL-2.0
/* The fleet's verdicts as text for a person, or as JSON for a program. */
#define _GNU_SOURCE
#include <stdio.h>
#include <json-c/json.h>

#include "audit.h"

/* "user:[I]" for a user namespace, "-" where the line named none. */
static const char *userns_name(unsigned int userns, char *buf, size_t len)
{
	if (!userns)
		return "-";
	snprintf(buf, len, "user:[%u]", userns);
	return buf;
}

void report_text(const struct fleet *f)
{
	char flags[32], ns[32];
	size_t i, j;
	int k;

	for (i = 0; i < f->nhosts; i++) {
		const struct host *h = &f->hosts[i];

		printf("host %s: %s\n", h->name, verdict_name[h->verdict]);
		for (k = 0; k < h->nreasons; k++)
			printf("  - %s\n", h->reasons[k]);
		if (h->lost)
			printf("  lines lost to the rate limit: %lu\n", h->lost);
		for (j = 0; j < h->nns; j++)
			if (h->ns[j].lost)
				printf("  %6lu lost of %s in %s\n", h->ns[j].lost,
				       h->ns[j].program,
				       userns_name(h->ns[j].userns, ns, sizeof(ns)));
		for (j = 0; j < h->noff; j++) {
			const struct offence *o = &h->off[j];

			printf("  %6lu x %s in %s: %s of %s without %s (first %s, last %s)\n",
			       o->count, o->program,
			       userns_name(o->userns, ns, sizeof(ns)), o->op, o->fs,
			       audit_flag_names(o->flags, flags, sizeof(flags)),
			       o->first, o->last);
		}
	}
	printf("fleet: %s\n", verdict_name[f->verdict]);
	for (k = 0; k < f->nreasons; k++)
		printf("  - %s\n", f->reasons[k]);
}

static json_object *reasons_json(const char (*reasons)[160], int n)
{
	json_object *a = json_object_new_array();
	int k;

	for (k = 0; k < n; k++)
		json_object_array_add(a, json_object_new_string(reasons[k]));
	return a;
}

static json_object *offence_json(const struct offence *o)
{
	json_object *j = json_object_new_object(), *fl;
	int b;

	json_object_object_add(j, "program", json_object_new_string(o->program));
	json_object_object_add(j, "user_namespace", o->userns ?
			       json_object_new_int64(o->userns) : NULL);
	json_object_object_add(j, "operation", json_object_new_string(o->op));
	json_object_object_add(j, "filesystem", json_object_new_string(o->fs));
	fl = json_object_new_array();
	for (b = 0; b < 3; b++)
		if (o->flags & (1u << b))
			json_object_array_add(fl, json_object_new_string(audit_flag_name[b]));
	json_object_object_add(j, "flags", fl);
	json_object_object_add(j, "count", json_object_new_int64(o->count));
	json_object_object_add(j, "first_seen", json_object_new_string(o->first));
	json_object_object_add(j, "last_seen", json_object_new_string(o->last));
	return j;
}

static json_object *host_json(const struct host *h)
{
	json_object *j = json_object_new_object(), *offences, *lost;
	size_t i;

	json_object_object_add(j, "host", json_object_new_string(h->name));
	json_object_object_add(j, "verdict",
			       json_object_new_string(verdict_name[h->verdict]));
	json_object_object_add(j, "reasons", reasons_json(h->reasons, h->nreasons));
	json_object_object_add(j, "phase", h->phase == PH_UNKNOWN ? NULL :
			       json_object_new_string(audit_phase_name[h->phase]));
	json_object_object_add(j, "phase_from_log",
			       json_object_new_boolean(h->phase_from_log));
	json_object_object_add(j, "kernel_messages", json_object_new_int64(h->records));
	json_object_object_add(j, "warnings", json_object_new_int64(h->warnings));
	json_object_object_add(j, "lines_lost", json_object_new_int64(h->lost));
	lost = json_object_new_array();
	for (i = 0; i < h->nns; i++) {
		json_object *l;

		if (!h->ns[i].lost)
			continue;
		l = json_object_new_object();
		json_object_object_add(l, "program",
				       json_object_new_string(h->ns[i].program));
		json_object_object_add(l, "user_namespace", h->ns[i].userns ?
				       json_object_new_int64(h->ns[i].userns) : NULL);
		json_object_object_add(l, "lines_lost",
				       json_object_new_int64(h->ns[i].lost));
		json_object_array_add(lost, l);
	}
	json_object_object_add(j, "lost_by_user_namespace", lost);
	offences = json_object_new_array();
	for (i = 0; i < h->noff; i++)
		json_object_array_add(offences, offence_json(&h->off[i]));
	json_object_object_add(j, "offences", offences);
	return j;
}

int report_json(const struct fleet *f)
{
	json_object *root = json_object_new_object(), *hosts, *fleet;
	size_t i;
	int ret;

	hosts = json_object_new_array();
	for (i = 0; i < f->nhosts; i++)
		json_object_array_add(hosts, host_json(&f->hosts[i]));
	json_object_object_add(root, "hosts", hosts);
	fleet = json_object_new_object();
	json_object_object_add(fleet, "verdict",
			       json_object_new_string(verdict_name[f->verdict]));
	json_object_object_add(fleet, "reasons", reasons_json(f->reasons, f->nreasons));
	json_object_object_add(fleet, "assumed_phase", f->assumed == PH_UNKNOWN ? NULL :
			       json_object_new_string(audit_phase_name[f->assumed]));
	json_object_object_add(root, "fleet", fleet);
	ret = puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_NOSLASHESCAPE)) < 0;
	json_object_put(root);
	return ret;
}
