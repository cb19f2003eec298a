// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/sample_layout.h"

#include "sampling/perf_file.h"

#define VARIABLE (SF_READ | SF_CALLCHAIN | SF_RAW | SF_BRANCH_STACK | SF_REGS_USER | \
		  SF_STACK_USER | SF_REGS_INTR | SF_AUX)

void sample_layout__init(struct sample_layout *l, const struct perf_attr *attr, bool swap)
{
	uint64_t t = attr->sample_type;
	int off = 0;

	l->type = t;
	l->fixed = !swap && !(t & VARIABLE);
	l->ip = l->tid = l->time = l->addr = l->cpu = l->period = -1;
	l->weight = l->data_src = l->phys_addr = -1;
	/* perf_sample__decode's order (the kernel's) */
	if (t & SF_IDENTIFIER)
		off += 8;
	if (t & SF_IP)
		l->ip = off, off += 8;
	if (t & SF_TID)
		l->tid = off, off += 8;
	if (t & SF_TIME)
		l->time = off, off += 8;
	if (t & SF_ADDR)
		l->addr = off, off += 8;
	if (t & SF_ID)
		off += 8;
	if (t & SF_STREAM_ID)
		off += 8;
	if (t & SF_CPU)
		l->cpu = off, off += 8;
	if (t & SF_PERIOD)
		l->period = off, off += 8;
	if (t & (SF_WEIGHT | SF_WEIGHT_STRUCT))
		l->weight = off, off += 8;
	if (t & SF_DATA_SRC)
		l->data_src = off, off += 8;
	if (t & SF_TRANSACTION)
		off += 8;
	if (t & SF_PHYS_ADDR)
		l->phys_addr = off, off += 8;
	if (t & SF_CGROUP)
		off += 8;
	if (t & SF_DATA_PAGE_SIZE)
		off += 8;
	if (t & SF_CODE_PAGE_SIZE)
		off += 8;
	l->len = (uint16_t)off;
}
