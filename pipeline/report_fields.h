/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_REPORT_FIELDS_H
#define LINEUP_PIPELINE_REPORT_FIELDS_H

/*
 * `lineup report --fields` (and every --json report): the Type and Member of each Pareto row,
 * from field attribution (pipeline/fields_attr.h), as two more columns of the c2c column table, so
 * --stdio, --json and --csv print them from the same table.  The default --stdio never sees
 * them and stays perf's layout.
 *
 *	report_fields__new(&rf, rec, &opts, err, sizeof(err));	with the report's recording
 *	report_fields__header(rf, h, input);
 *	for each sample, before the report uses it: report_fields__sample(rf, h, &sample);
 *	after c2c__resolve and c2c_view__init: report_fields__add_columns(rf, &view, c2c);
 *	report_fields__delete(rf)					after printing
 *	warnings: fields_attr__next_warning(report_fields__attr(rf)), for the front end to print
 *
 * Ownership: @rec, @opts and the view must outlive the report_fields.
 */
#include <stdbool.h>
#include <stddef.h>

#include "pipeline/fields_attr.h"

struct c2c;
struct c2c_view;
struct recording;
struct perf_header_info;
struct report_fields;
struct sample;

int report_fields__new(struct report_fields **out, struct recording *rec,
		       const struct fields_attr_opts *opts, char *err, size_t errlen);
void report_fields__delete(struct report_fields *rf);
void report_fields__header(struct report_fields *rf, const struct perf_header_info *h,
			   const char *input);
/* The evidence sources (their warnings: fields_attr__next_warning). */
struct fields_attr *report_fields__attr(struct report_fields *rf);
/* Allocation records and the collector's RMW counts (the sample is not consumed). */
void report_fields__sample(struct report_fields *rf, const struct perf_header_info *h,
			   const struct sample *s);
/*
 * Name every shown entry of @c and append the Type and Member columns to @v's Pareto table.
 * @every_mode: name the lines' rows of every -d mode at once (a browser's d then names
 * nothing); a line is named once, so a call after c2c__set_display names only new rows.
 */
void report_fields__add_columns(struct report_fields *rf, struct c2c_view *v, const struct c2c *c,
				bool every_mode);

#endif
