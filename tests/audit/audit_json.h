/* SPDX-License-Identifier: GPL-2.0 */
/*
 * psmf-audit's JSON report, as the tests that run it on our guests' logs
 * read it (json-c).
 */
#ifndef AUDIT_JSON_H
#define AUDIT_JSON_H

#include <json-c/json.h>

/*
 * Run @audit [--phase @phase] --json @dir: its report, parsed; NULL, with
 * a TAP comment, if it failed or printed no JSON.  @phase may be NULL.
 */
json_object *audit_json(const char *audit, const char *phase, const char *dir);
/* @o's member @key; NULL if it has none. */
json_object *audit_get(json_object *o, const char *key);
/* The report's host named @name; NULL if it has none. */
json_object *audit_host(json_object *report, const char *name);

#endif
