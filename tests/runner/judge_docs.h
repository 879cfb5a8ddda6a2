/* SPDX-License-Identifier: GPL-2.0 */
/* The docs step: an admin's commands from docs/distributions.md (judge_docs.c). */
#ifndef JUDGE_DOCS_H
#define JUDGE_DOCS_H

#include "../contract/spec.h"
#include "verdicts.h"

/* The docs step of @run, booted as phase @mode: each check a verdict on @v. */
void judge_docs(struct verdicts *v, const struct run *run, int mode);

#endif
