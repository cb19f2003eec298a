// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields_headless: a second front end of `lineup fields`, linked without any cli/ object
 * (issue 22): the recording read through pipeline/fields_load.h and each struct printed with
 * analyzer/fields_table.h, as `lineup fields --stdio` prints its member tables.
 * tests/layering.sh compares the two byte for byte.
 *
 *   fields_headless PERF.DATA
 */
#include <config.h>

#include <stdio.h>

#include "analyzer/fields.h"
#include "analyzer/fields_table.h"
#include "pipeline/fields_attr.h"
#include "pipeline/fields_load.h"
#include "util/strbuf.h"

int main(int argc, char **argv)
{
	struct fields_attr_opts attr = { 0 };
	struct fields_load ld = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct fields_table ft;
	char err[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: fields_headless PERF.DATA\n");
		return 2;
	}
	if (fields_load__run(&ld, argv[1], &attr, NULL, 0, false, err, sizeof(err))) {
		fprintf(stderr, "fields_headless: %s\n", err);
		fields_load__release(&ld);
		return 1;
	}
	fields_table__init(&ft, ld.fields->line_size, fields_attr__name_ip, ld.fa);
	for (size_t i = 0; i < ld.fields->nr_structs; i++)
		fields_table__print_struct(&ft, &ld.fields->structs[i], false, &sb);
	fputs(sb.buf ? sb.buf : "", stdout);
	fields_table__release(&ft);
	strbuf__release(&sb);
	fields_load__release(&ld);
	return 0;
}
