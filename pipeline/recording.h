/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_RECORDING_H
#define LINEUP_PIPELINE_RECORDING_H

/*
 * One opened recording: the session (sampling/session.h) with exactly one symbolizer, one
 * variable/type index and one type index of dwarf/, made on first use.  Every pipeline that
 * reads a recording opens it here, so one run opens each object once.
 *
 * Ownership: the recording owns the session, the three indexes and what they hand out; @opts'
 * strings must outlive it.
 */
#include <stddef.h>
#include <stdint.h>

#include "dwarf/symbols.h"
#include "sampling/session.h"

struct type_index;
struct vartype;

/**
 * struct recording_opts - what to open and where to look for objects.
 * @path, @no_auxtrace: as struct session_opts
 * @symbols:	the symbolizer's options (@osrelease is the recording's when unset)
 */
struct recording_opts {
	const char *path;
	struct symbols_options symbols;
	bool no_auxtrace;
};

struct recording {
	struct session *session;
	struct symbols_options symopts;
	struct symbols *symbols;
	struct vartype *vt;
	struct type_index *types;
};

/* 0, or -errno with @err said. */
int recording__open(struct recording **out, const struct recording_opts *opts, char *err,
		    size_t errlen);
void recording__close(struct recording *r);

struct symbols *recording__symbols(struct recording *r);
struct vartype *recording__vartype(struct recording *r);
struct type_index *recording__types(struct recording *r);

/* The symbolizer's handle of machine dso @dso (cached in the dso). */
struct symbols_dso *recording__dso(struct recording *r, struct dso *dso);

/*
 * Symbol and source line of @addr, an address in @map's terms (addr_loc.addr), whenever
 * (maps outlive the run).  @map NULL: no map ("??:0").
 */
int recording__lookup(struct recording *r, const struct map *map, uint64_t addr,
		      struct symbols_loc *loc);

/* session__callchain with each frame's symbol named. */
uint32_t recording__callchain(struct recording *r, const struct session_sample *ss,
			      struct session_frame *out);

/* Whether the ELF symbol at @al (a map and an address in its terms) is @name. */
bool recording__symbol_is(struct recording *r, const struct addr_loc *al, const char *name);

#endif
