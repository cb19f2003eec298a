// SPDX-License-Identifier: GPL-2.0-or-later
/* One opened recording and its one set of debug-info readers (recording.h). */
#include <config.h>

#include "pipeline/recording.h"

#include <stdlib.h>
#include <string.h>

#include "dwarf/type_index.h"
#include "dwarf/vartype.h"
#include "sampling/perf_file.h"
#include "util/xalloc.h"

/* One kind of object in two layers: sampling/'s machine and dwarf/'s symbolizer. */
_Static_assert((int)DSO_KIND_USER == (int)SYMBOLS_DSO_USER &&
	       (int)DSO_KIND_KERNEL == (int)SYMBOLS_DSO_KERNEL &&
	       (int)DSO_KIND_MODULE == (int)SYMBOLS_DSO_MODULE &&
	       (int)DSO_KIND_VDSO == (int)SYMBOLS_DSO_VDSO &&
	       (int)DSO_KIND_ANON == (int)SYMBOLS_DSO_ANON &&
	       (int)DSO_KIND_JIT == (int)SYMBOLS_DSO_JIT &&
	       (int)DSO_KIND_BPF == (int)SYMBOLS_DSO_BPF,
	       "enum dso_kind and enum symbols_dso_kind differ");

int recording__open(struct recording **out, const struct recording_opts *opts, char *err,
		    size_t errlen)
{
	struct session_opts so = { .path = opts->path, .no_auxtrace = opts->no_auxtrace };
	struct recording *r = xcalloc(1, sizeof(*r));
	int rc = session__open(&r->session, &so, err, errlen);

	if (rc < 0) {
		free(r);
		*out = NULL;
		return rc;
	}
	r->symopts = opts->symbols;
	*out = r;
	return 0;
}

void recording__close(struct recording *r)
{
	if (!r)
		return;
	type_index__delete(r->types);
	vartype__delete(r->vt);
	symbols__delete(r->symbols);
	session__close(r->session);
	free(r);
}

struct symbols *recording__symbols(struct recording *r)
{
	if (!r->symbols) {
		struct symbols_options o = r->symopts;

		/* perf looks for the recording's kernel image: /usr/lib/debug/boot/vmlinux-REL */
		if (!o.osrelease)
			o.osrelease = session__header(r->session)->osrelease;
		r->symbols = symbols__new(&o);
	}
	return r->symbols;
}

struct vartype *recording__vartype(struct recording *r)
{
	if (!r->vt)
		r->vt = vartype__new();
	return r->vt;
}

struct type_index *recording__types(struct recording *r)
{
	if (!r->types)
		r->types = type_index__new();
	return r->types;
}

struct symbols_dso *recording__dso(struct recording *r, struct dso *dso)
{
	if (!dso->priv)
		dso->priv = symbols__dso(recording__symbols(r), dso->long_name, dso->short_name,
					 (enum symbols_dso_kind)dso->kind, dso->build_id,
					 dso->build_id_size);
	return dso->priv;
}

int recording__lookup(struct recording *r, const struct map *map, uint64_t addr,
		      struct symbols_loc *loc)
{
	struct symbols *syms = recording__symbols(r);
	struct symbols_map sm;

	if (!map || !map->dso)
		return symbols__lookup(syms, NULL, NULL, addr, loc);
	sm.start = map->start;
	sm.pgoff = map->pgoff;
	sm.identity = map->identity;
	sm.ref_reloc = map->ref_reloc;
	sm.ref_reloc_name = map->ref_reloc_name;
	return symbols__lookup(syms, recording__dso(r, map->dso), &sm, addr, loc);
}

uint32_t recording__callchain(struct recording *r, const struct session_sample *ss,
			      struct session_frame *out)
{
	uint32_t n = session__callchain(r->session, ss, out);

	for (uint32_t i = 0; i < n; i++) {
		struct session_frame *fr = &out[i];
		const char *name;
		uint64_t start;
		bool obj;

		if (fr->dso && !symbols__find_sym(recording__symbols(r),
						  recording__dso(r, (struct dso *)fr->dso),
						  fr->addr, &name, &start, &obj)) {
			fr->sym = name;
			fr->sym_start = start;
		}
	}
	return n;
}

bool recording__symbol_is(struct recording *r, const struct addr_loc *al, const char *name)
{
	struct symbols_dso *d = al->map && al->dso ? recording__dso(r, al->dso) : NULL;
	const char *sym;
	uint64_t start;
	bool is_object;

	return d && !symbols__find_sym(recording__symbols(r), d, al->addr, &sym, &start,
				       &is_object) && !strcmp(sym, name);
}
