/* SPDX-License-Identifier: GPL-2.0 */
/* The docs step's judge (judge_docs.c), for the unit tests. */
#ifndef UNIT_DOCS_H
#define UNIT_DOCS_H

void test_docs(void);

#endif
