// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The evidence sources of field attribution joined, over one recording: the maps lead from an
 * IP or a data address to an object and a symbol, dwarf/vartype.h answers about them,
 * dwarf/type_index.h has the types, the recording's side samples feed the allocation index,
 * and analyzer/attr_engine.h decides.  Shared by `lineup fields` and `lineup report --fields`.
 */
#include <config.h>

#include "pipeline/fields_attr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyzer/data_src.h"
#include "analyzer/flat_layout.h"
#include "util/u64map.h"
#include "dwarf/symbols.h"
#include "pipeline/recording.h"
#include "dwarf/type_index.h"
#include "dwarf/vartype.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "sampling/tracepoint.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The sample being resolved, as the sources' callbacks need it. */
struct evidence_query {
	struct thread *thread;
	struct map *map;
	uint64_t rel_ip;
	bool kernel;
};

struct fields_attr {
	const struct fields_attr_opts *o;
	struct recording *rec;
	struct machine *machine;
	struct symbols *syms;
	struct vartype *vt;
	struct type_index *types;
	struct attr_engine engine;
	struct attr_sources sources;
	struct evidence_query cur;
	struct tp_decoder *tp;
	bool tp_loaded;
	/* Code addresses seen, for naming them: ip -> index into code[]. */
	struct u64map code_of;
	struct code_ref {
		struct map *map;
		struct dso *dso;
	} *code;
	size_t nr_code, cap_code;
	uint64_t nr_alloc_records, nr_kmem_records;
};

const struct flat_layout *fields_attr__find_type(void *ctx, const char *name)
{
	struct fields_attr *c = ctx;

	return attr_engine__find_type(&c->engine, name);
}

const char *fields_attr__type_object(const struct fields_attr *c, const struct flat_layout *flat)
{
	return type_index__path_of(c->types, flat);
}

/* The engine's question: flattened from the objects at hand (kernel BTF for kernel samples). */
static const struct flat_layout *source_type(void *ctx, const char *name)
{
	struct fields_attr *c = ctx;

	return type_index__find(c->types, name, c->cur.kernel);
}

/* --- reading the recording --- */

static bool evsel_named(const struct perf_header_info *h, uint32_t evsel, const char *name)
{
	return evsel < h->nr_evsels && h->evsels[evsel].name &&
	       !strcmp(h->evsels[evsel].name, name);
}

/* A kmem tracepoint sample: allocations and frees of slab objects. */
static void kmem_record(struct fields_attr *c, const struct sample *s)
{
	struct tp_event ev;
	const struct tp_field *ptr, *name, *bytes;
	char err[256];

	if (!c->tp_loaded || !s->raw_size)
		return;
	if (tp_decoder__decode(c->tp, s->raw, s->raw_size, &ev, err, sizeof(err)) < 0)
		return;
	if (strcmp(ev.sys, "kmem"))
		return;
	ptr = tp_event__field(&ev, "ptr");
	if (!ptr || ptr->kind != TP_NUM || !ptr->num)
		return;
	c->nr_kmem_records++;
	if (!strcmp(ev.name, "kmem_cache_alloc") || !strcmp(ev.name, "kmalloc") ||
	    !strcmp(ev.name, "kmem_cache_alloc_node") || !strcmp(ev.name, "kmalloc_node")) {
		struct alloc_entry e = { 0 };
		char *origin;

		name = tp_event__field(&ev, "name");
		bytes = tp_event__field(&ev, "bytes_alloc");
		e.base = ptr->num;
		e.size = bytes && bytes->kind == TP_NUM ? bytes->num : 0;
		e.alloc_time = s->time;
		if (name && name->kind == TP_STR) {
			size_t len = strnlen(name->str, name->len);

			e.type = attr_engine__cache_type(&c->engine, name->str, len);
			origin = xasprintf("kmem_cache %.*s", (int)len, name->str);
		} else {
			origin = xasprintf("%s", ev.name);
		}
		e.origin = attr_engine__own(&c->engine, origin);
		if (e.size)
			alloc_index__add(&c->engine.allocs, &e);
	} else if (!strcmp(ev.name, "kmem_cache_free") || !strcmp(ev.name, "kfree")) {
		alloc_index__free(&c->engine.allocs, ptr->num, s->time);
	}
}

/* --- evidence per sample --- */
static void code_remember(struct fields_attr *c, uint64_t ip, struct map *map, struct dso *dso)
{
	if (u64map__get(&c->code_of, ip, NULL))
		return;
	c->code = xgrow(c->code, &c->cap_code, c->nr_code + 1, sizeof(*c->code));
	c->code[c->nr_code] = (struct code_ref){ map, dso };
	u64map__set(&c->code_of, ip, c->nr_code++);
}

static struct symbols_dso *sym_dso(struct fields_attr *c, struct dso *dso)
{
	return recording__dso(c->rec, dso);
}

/* Said once per object: key dso index + 1 (0 would mean "always"). */
static void warn_dso(struct fields_attr *c, struct dso *dso, const char *what)
{
	attr_engine__warn(&c->engine, (uint64_t)dso->index + 1, "%s: %s", dso->short_name, what);
}


/* A module's .ko: a --debug-file NAME.ko, or the MMAP's own path when it is one. */
static const char *module_file(struct fields_attr *c, const struct dso *dso)
{
	const char *sn = dso->short_name;
	size_t n = strlen(sn), ln;

	if (n > 2 && sn[0] == '[')
		sn++, n -= 2;
	for (size_t i = 0; i < c->o->debug_files.nr; i++) {
		const char *p = c->o->debug_files.v[i];
		const char *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

		if (!strncmp(b, sn, n) && !strcmp(b + n, ".ko"))
			return p;
	}
	ln = strlen(dso->long_name);
	if (ln > 3 && !strcmp(dso->long_name + ln - 3, ".ko") && dso->long_name[0] == '/' &&
	    !access(dso->long_name, R_OK))
		return dso->long_name;
	return NULL;
}

/*
 * The symbol and object file of a map-relative code or data address: modules through their
 * .ko (perf maps a module from its .text), everything else through dwarf/symbols.h.
 * Returns 0 with *path, *name, *off; else an attr_reason.
 */
static enum attr_reason object_sym(struct fields_attr *c, struct dso *dso, uint64_t rel,
				   bool want_object, const char **path, const char **name,
				   uint64_t *off)
{
	struct symbols_dso *sd;
	uint64_t start;
	bool is_object;

	if (dso->kind == DSO_KIND_MODULE) {
		*path = module_file(c, dso);
		if (!*path) {
			warn_dso(c, dso, "a module without symbols here: pass its .ko with "
				 "--debug-file (kallsyms has no types)");
			return ATTR_NO_SYMBOLS;
		}
		return vartype__section_sym(c->vt, *path, want_object ? ".data" : ".text", rel,
					    name, off) ? ATTR_NO_SYMBOLS : ATTR_OK;
	}
	sd = sym_dso(c, dso);
	if (symbols__find_sym(c->syms, sd, rel, name, &start, &is_object) != 0 ||
	    !(*path = symbols_dso__path(sd))) {
		const char *why = symbols_dso__error(sd);

		if (!symbols_dso__path(sd))
			warn_dso(c, dso, why ? why : "no symbols");
		return ATTR_NO_SYMBOLS;
	}
	if (want_object && !is_object)
		return ATTR_NO_OBJECT;
	*off = rel - start;
	return ATTR_OK;
}

/*
 * Where object_sym()'s symbol starts, for dwarf/vartype.h to tell same-named statics apart
 * (two files' `static struct stats s`): 0 for a module, whose symbols it finds by section.
 */
static uint64_t sym_start(const struct dso *dso, uint64_t rel, uint64_t off)
{
	return dso->kind == DSO_KIND_MODULE ? 0 : rel - off;
}

static enum attr_reason vt_reason(int rc)
{
	switch (rc) {
	case VT_NO_FILE:
	case VT_NO_SYMBOL:
		return ATTR_NO_SYMBOLS;
	case VT_NO_DEBUGINFO:
		return ATTR_NO_DEBUGINFO;
	case VT_UNDECODABLE:
		return ATTR_UNDECODABLE;
	case VT_NO_VARIABLE:
		return ATTR_NO_VARIABLE;
	case VT_NOT_STRUCT:
		return ATTR_NOT_STRUCT;
	default:
		return ATTR_NO_OBJECT;
	}
}

static void answer_of(const struct vartype_answer *v, struct attr_answer *a)
{
	*a = (struct attr_answer){ .type = v->type, .offset = v->offset,
				   .index_scale = v->index_scale, .scalar = v->scalar,
				   .var = v->var, .size = v->size, .elem_size = v->elem_size,
				   .origin = v->origin };
}

/* The type of the instruction's memory operand at the IP. */
static enum attr_reason source_operand(void *ctx, const struct fields_sample *s,
				       struct attr_answer *a)
{
	struct fields_attr *c = ctx;
	const char *name, *path;
	uint64_t off;
	struct vartype_answer v;
	enum attr_reason why;
	int rc;

	if (!c->cur.map)
		return ATTR_NO_MAP;
	why = object_sym(c, c->cur.map->dso, c->cur.rel_ip, false, &path, &name, &off);
	if (why != ATTR_OK)
		return why;
	rc = vartype__operand(c->vt, path, name, sym_start(c->cur.map->dso, c->cur.rel_ip, off),
			      off, &v);
	if (rc)
		return vt_reason(rc);
	answer_of(&v, a);
	return ATTR_OK;
}

/*
 * The object whose .bss the anonymous map @anon continues, or NULL: zero-initialised data
 * past an object's last file page is mapped anonymous, right after the object's writable file
 * map (/proc/PID/maps, and so perf and the collector, show it as //anon), and keeps the
 * object's layout.  A static array of locks or counters lives there.  Sets loc->addr to the
 * address relative to the object, as if its file map went on; the symbol must still contain
 * it, so a heap mapped right after the program finds no variable.
 */
static struct map *bss_owner(struct fields_attr *c, const struct map *anon, uint64_t addr,
			     struct addr_loc *loc)
{
	struct addr_loc pl;
	struct map *pm;

	if (!anon->start)
		return NULL;
	pm = machine__find_map(c->machine, c->cur.thread, CPUMODE_USER, anon->start - 1, &pl);
	if (!pm || pm == anon || pm->end != anon->start || !pm->dso ||
	    pm->dso->kind != DSO_KIND_USER || (pm->prot && !(pm->prot & PROT_WRITE)))
		return NULL;
	loc->addr = map__map_ip(pm, addr);
	return pm;
}

/*
 * The object of the sample's code when @addr, in no map (perf record without -d records no
 * data mappings), lies in that object's image as its mapping places it; loc->addr is then the
 * address relative to the object.  NULL otherwise.
 */
static struct map *image_owner(struct fields_attr *c, uint64_t addr, struct addr_loc *loc)
{
	struct map *m = c->cur.map;
	const char *path;

	if (!m || !m->dso || m->dso->kind != DSO_KIND_USER || c->cur.kernel ||
	    !(path = symbols_dso__path(sym_dso(c, m->dso))) ||
	    vartype__image_rel(c->vt, path, m->start, m->pgoff, addr, &loc->addr))
		return NULL;
	return m;
}

/* The global or static variable holding the data address. */
static enum attr_reason source_variable(void *ctx, const struct fields_sample *s,
					struct attr_answer *a)
{
	struct fields_attr *c = ctx;
	struct addr_loc dl;
	struct map *dm = machine__find_any_cpumode(c->machine, c->cur.thread, s->addr, &dl);
	const char *path, *name;
	uint64_t off;
	struct vartype_answer v;
	int rc;

	if (dm && dm->dso && dm->dso->kind == DSO_KIND_ANON) {
		struct map *owner = bss_owner(c, dm, s->addr, &dl);

		if (owner)
			dm = owner;
	}
	if (!dm)
		dm = image_owner(c, s->addr, &dl);

	if (!dm || !dm->dso || dm->dso->kind == DSO_KIND_ANON ||
	    dm->dso->kind == DSO_KIND_MODULE)
		return ATTR_OK;		/* heap, stack: the allocation records speak */
	if (object_sym(c, dm->dso, dl.addr, true, &path, &name, &off) != ATTR_OK)
		return ATTR_NO_OBJECT;
	rc = vartype__global(c->vt, path, name, sym_start(dm->dso, dl.addr, off), off, &v);
	if (rc)
		return rc == VT_NO_VARIABLE ? ATTR_NO_OBJECT : vt_reason(rc);
	answer_of(&v, a);
	return ATTR_OK;
}

/* The type the allocating call at @site stores its block as (the variable it assigns). */
static int source_alloc_site(void *ctx, uint32_t pid, uint64_t site, uint64_t size,
			     struct attr_answer *a)
{
	struct fields_attr *c = ctx;
	struct thread *th = machine__findnew_thread(c->machine, pid, pid);
	struct addr_loc loc;
	struct map *map = machine__find_map(c->machine, th, CPUMODE_USER, site, &loc);
	const char *path, *name;
	uint64_t off;
	struct vartype_answer v;

	if (!map || object_sym(c, map->dso, loc.addr, false, &path, &name, &off) != ATTR_OK ||
	    vartype__alloc_site(c->vt, path, name, sym_start(map->dso, loc.addr, off), off, size,
				&v))
		return -1;
	answer_of(&v, a);
	return 0;
}

/* --- naming code addresses --- */

void fields_attr__name_ip(void *ctx, uint64_t ip, struct strbuf *out)
{
	struct fields_attr *c = ctx;
	uint64_t idx, rel;
	struct symbols_loc loc;
	const struct code_ref *r;

	if (!u64map__get(&c->code_of, ip, &idx) || !c->code[idx].map) {
		strbuf__addf(out, "%#" PRIx64, ip);
		return;
	}
	r = &c->code[idx];
	rel = map__map_ip(r->map, ip);
	if (r->dso->kind == DSO_KIND_MODULE) {
		/* perf would take module symbols from kallsyms; the .ko at hand says more. */
		const char *path, *name;
		uint64_t off;
		char line[256];

		if (object_sym(c, r->dso, rel, false, &path, &name, &off) == ATTR_OK) {
			strbuf__addf(out, "%s+%#" PRIx64, name, off);
			if (!vartype__srcline(c->vt, path, name, 0, off, line, sizeof(line)))
				strbuf__addf(out, " %s", line);
			return;
		}
	} else {
		struct symbols_map sm = { r->map->start, r->map->pgoff, r->map->identity,
					  r->map->ref_reloc, r->map->ref_reloc_name };

		symbols__lookup(c->syms, sym_dso(c, r->dso), &sm, rel, &loc);
		if (loc.sym) {
			strbuf__addf(out, "%s+%#" PRIx64, loc.sym, rel - loc.sym_start);
			if (loc.srcline && strcmp(loc.srcline, "??:0") && loc.nr_frames)
				strbuf__addf(out, " %s", loc.srcline);
			return;
		}
	}
	strbuf__addf(out, "%s[%#" PRIx64 "]", r->dso->short_name, rel);
}

/* --- the public interface --- */

void fields_list__add(struct fields_list *l, const char *s)
{
	l->v = xgrow(l->v, &l->cap, l->nr + 1, sizeof(*l->v));
	l->v[l->nr++] = xstrdup(s);
}

void fields_list__release(struct fields_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	zfree(&l->v);
	l->nr = l->cap = 0;
}

const char *fields_attr__check_hint(const char *s)
{
	return attr_hint__check(s);
}

int fields_attr__new(struct fields_attr **out, const struct fields_attr_opts *o,
		     struct recording *rec, char *err, size_t errlen)
{
	struct fields_attr *c = xcalloc(1, sizeof(*c));
	char why[2048];

	c->o = o;
	c->rec = rec;
	c->machine = session__machine(rec->session);
	attr_engine__init(&c->engine);
	attr_engine__set_cache_types(&c->engine, (const char *const *)o->cache_types.v,
				     o->cache_types.nr);
	c->sources = (struct attr_sources){ source_operand, source_variable, source_alloc_site,
					    source_type, c };
	c->engine.src = &c->sources;
	u64map__init(&c->code_of);
	c->syms = recording__symbols(rec);
	c->vt = recording__vartype(rec);
	c->types = recording__types(rec);
	for (size_t i = 0; i < o->hints.nr; i++) {
		const char *s = o->hints.v[i];

		if (attr_engine__add_hint(&c->engine, s) < 0) {
			snprintf(err, errlen, "--type: '%s' %s", s, attr_hint__check(s));
			fields_attr__delete(c);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < o->debug_files.nr; i++) {
		if (type_index__add_source(c->types, o->debug_files.v[i], why, sizeof(why)) < 0) {
			snprintf(err, errlen, "--debug-file %s: %s", o->debug_files.v[i], why);
			fields_attr__delete(c);
			return -EINVAL;
		}
	}
	if (o->vmlinux && type_index__add_source(c->types, o->vmlinux, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--vmlinux %s: %s", o->vmlinux, why);
		fields_attr__delete(c);
		return -EINVAL;
	}
	*out = c;
	return 0;
}

void fields_attr__delete(struct fields_attr *c)
{
	if (!c)
		return;
	attr_engine__exit(&c->engine);
	u64map__exit(&c->code_of);
	free(c->code);
	if (c->tp)
		tp_decoder__delete(c->tp);
	free(c);
}

void fields_attr__header(struct fields_attr *c, const struct perf_header_info *h,
			 const char *input)
{
	char err[256];

	if (c->tp || !h->tracing_data || !h->tracing_data_size)
		return;
	c->tp = tp_decoder__new();
	c->tp_loaded = tp_decoder__load_tracing_data(c->tp, h->tracing_data, h->tracing_data_size,
						     err, sizeof(err)) == 0;
	if (!c->tp_loaded)
		attr_engine__warn(&c->engine, 0, "%s: tracing data unreadable, kmem tracepoints "
				  "ignored: %s", input, err);
}

bool fields_attr__side_sample(struct fields_attr *c, const struct perf_header_info *h,
			      const struct sample *s)
{
	if (s->evsel < h->nr_evsels && h->evsels[s->evsel].attr.type == ATTR_TYPE_TRACEPOINT) {
		kmem_record(c, s);
		return true;
	}
	if (evsel_named(h, s->evsel, "lineup-sim/alloc/")) {
		struct alloc_entry e = { s->addr, s->period, s->time, 0, NULL, "malloc", s->ip,
					 s->pid };

		c->nr_alloc_records++;
		if (s->addr && s->period)
			alloc_index__add(&c->engine.allocs, &e);
		return true;
	}
	if (evsel_named(h, s->evsel, "lineup-sim/free/")) {
		alloc_index__free(&c->engine.allocs, s->addr, s->time);
		return true;
	}
	if (evsel_named(h, s->evsel, "lineup-sim/redundant-rmw/")) {
		attr_engine__add_rmw(&c->engine, s->ip, s->weight, s->period);
		return true;
	}
	return evsel_named(h, s->evsel, "lineup-sim/pair-hitm/") ||
	       evsel_named(h, s->evsel, "lineup-sim/overlap/");
}

bool fields_attr__is_side_sample(const struct perf_header_info *h, const struct sample *s)
{
	static const char *const names[] = { "lineup-sim/alloc/", "lineup-sim/free/",
					     "lineup-sim/redundant-rmw/", "lineup-sim/pair-hitm/",
					     "lineup-sim/overlap/" };

	if (s->evsel < h->nr_evsels && h->evsels[s->evsel].attr.type == ATTR_TYPE_TRACEPOINT)
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (evsel_named(h, s->evsel, names[i]))
			return true;
	return false;
}

size_t fields_attr__rmw(const struct fields_attr *c, const struct fields_rmw **out)
{
	*out = c->engine.rmw;
	return c->engine.nr_rmw;
}

size_t fields_attr__nr_allocs(const struct fields_attr *c)
{
	return c->engine.allocs.nr;
}

int fields_attr__object_at(void *ctx, uint64_t addr, uint64_t time, struct align_object *out)
{
	struct fields_attr *c = ctx;
	const struct alloc_entry *e;

	if (!c->engine.prepared) {
		alloc_index__prepare(&c->engine.allocs);
		c->engine.prepared = true;
	}
	e = alloc_index__find(&c->engine.allocs, addr, time);
	if (!e)
		return 1;
	*out = (struct align_object){ e->base, e->size, e->site, e->pid };
	if (e->site && !u64map__get(&c->code_of, e->site, NULL)) {
		/* the allocating call, so that fields_attr__name_ip() can name it */
		struct thread *th = machine__findnew_thread(c->machine, e->pid, e->pid);
		struct addr_loc loc;
		struct map *map = machine__find_map(c->machine, th, CPUMODE_USER, e->site, &loc);

		if (map && map->dso)
			code_remember(c, e->site, map, map->dso);
	}
	return 0;
}

int fields_attr__source_line(struct fields_attr *c, uint64_t ip, const char **file,
			     unsigned int *line)
{
	uint64_t idx;
	struct symbols_loc loc;
	const struct code_ref *r;

	if (!u64map__get(&c->code_of, ip, &idx) || !c->code[idx].map ||
	    c->code[idx].dso->kind == DSO_KIND_MODULE)
		return 1;
	r = &c->code[idx];
	struct symbols_map sm = { r->map->start, r->map->pgoff, r->map->identity,
				  r->map->ref_reloc, r->map->ref_reloc_name };

	symbols__lookup(c->syms, sym_dso(c, r->dso), &sm, map__map_ip(r->map, ip), &loc);
	if (!loc.nr_frames || !loc.frames[0].line || !strcmp(loc.frames[0].file, "??"))
		return 1;
	*file = loc.frames[0].file;
	*line = loc.frames[0].line;
	return 0;
}

int fields_attr__resolve(struct fields_attr *c, const struct fields_sample *ms,
			 struct attr_result *res)
{
	struct attr_pending p;

	return fields_attr__resolve_later(c, ms, res, &p);
}

void fields_attr__finish(struct fields_attr *c)
{
	attr_engine__finish(&c->engine);
}

int fields_attr__settle(struct fields_attr *c, const struct attr_pending *p,
			struct attr_result *res)
{
	return attr_engine__settle(&c->engine, p, res);
}

int fields_attr__resolve_later(struct fields_attr *c, const struct fields_sample *ms,
			       struct attr_result *res, struct attr_pending *p)
{
	struct addr_loc loc;

	loc.thread = machine__findnew_thread(c->machine, ms->pid, ms->tid);
	loc.map = machine__find_map(c->machine, loc.thread, ms->cpumode, ms->ip, &loc);
	return fields_attr__resolve_at(c, ms, &loc, res, p);
}

int fields_attr__resolve_at(struct fields_attr *c, const struct fields_sample *ms,
			    const struct addr_loc *al, struct attr_result *res,
			    struct attr_pending *p)
{
	struct map *map = al->map;

	c->cur = (struct evidence_query){ al->thread, map, al->addr,
					  ms->cpumode == CPUMODE_KERNEL };
	if (map) {
		const char *path, *name;
		uint64_t off;
		char err[2048];

		/* The object's types become a layout source. */
		if (object_sym(c, map->dso, al->addr, false, &path, &name, &off) == ATTR_OK)
			type_index__add_source(c->types, path, err, sizeof(err));
		code_remember(c, ms->ip, map, map->dso);
	} else {
		code_remember(c, ms->ip, NULL, NULL);
	}
	return attr_engine__resolve_later(&c->engine, &c->sources, ms, res, p);
}

const char *fields_attr__next_warning(struct fields_attr *c)
{
	return attr_engine__next_warning(&c->engine);
}

int fields_attr__has_struct(struct fields_attr *c, const char *name)
{
	return type_index__has(c->types, name);
}

int fields_attr__closest(struct fields_attr *c, const char *name, const char **out, int max)
{
	return type_index__closest(c->types, name, out, max);
}

static bool hint_known(void *ctx, const char *type)
{
	struct fields_attr *c = ctx;

	return fields_attr__find_type(c, type) || fields_attr__has_struct(c, type);
}

const char *fields_attr__unknown_hint(struct fields_attr *c)
{
	int i = attr_engine__unknown_hint(&c->engine, hint_known, c);

	return i < 0 ? NULL : c->o->hints.v[i];
}

void fields_attr_opts__release(struct fields_attr_opts *a)
{
	fields_list__release(&a->debug_files);
	fields_list__release(&a->hints);
	fields_list__release(&a->cache_types);
}

const char *fields_attr__strip_tag(const char *name)
{
	return type_name__strip_tag(name);
}

/* The event of @s when it is a data breakpoint (PERF_TYPE_BREAKPOINT), else NULL. */
static const struct perf_attr *breakpoint_of(const struct perf_header_info *h,
					     const struct sample *s)
{
	if (s->evsel >= h->nr_evsels || h->evsels[s->evsel].attr.type != ATTR_TYPE_BREAKPOINT)
		return NULL;
	return &h->evsels[s->evsel].attr;
}

/* Whether @data_src says what the access was (a load, a store), not only "not available". */
static bool data_src_has_op(uint64_t data_src)
{
	return ((data_src >> DS_OP_SHIFT) & 0x1f & ~(uint64_t)DS_OP_NA) != 0;
}

bool fields_attr__is_trap(const struct perf_header_info *h, const struct sample *s)
{
	const struct perf_attr *bp = breakpoint_of(h, s);

	/*
	 * x86 data breakpoints trap after the access (arm64 watchpoints before it), and the
	 * kernel says nothing of it (PERF_MEM_NA).  lineup watch decoded the accesses it could:
	 * their samples carry the kind, at the access's own IP.
	 */
	return bp && !perf_attr__precise_ip(bp) &&
	       (!h->arch || !strcmp(h->arch, "x86_64") || !strcmp(h->arch, "i686")) &&
	       !((s->present & SF_DATA_SRC) && data_src_has_op(s->data_src));
}

/*
 * The data source of an access the instruction's kind says, for a sample with none (a
 * breakpoint's): no level, no snoop; a locked RMW is a load with the lock bit, as a PEBS
 * load and lineup watch give it (its CPUs count as writers).
 */
static uint64_t access_data_src(enum access_kind kind)
{
	uint64_t op = kind == ACCESS_LOAD || kind == ACCESS_LOCKED_RMW ? DS_OP_LOAD :
		      kind == ACCESS_STORE || kind == ACCESS_RMW ? DS_OP_STORE : DS_OP_NA;
	uint64_t lock = kind == ACCESS_LOCKED_RMW ? DS_LOCK_LOCKED : DS_LOCK_NA;

	return op << DS_OP_SHIFT | (uint64_t)DS_LVL_NA << DS_LVL_SHIFT |
	       (uint64_t)DS_SNOOP_NA << DS_SNOOP_SHIFT | lock << DS_LOCK_SHIFT |
	       (uint64_t)DS_TLB_NA << DS_TLB_SHIFT;
}

void fields_attr__trap_to_access(struct fields_attr *c, struct fields_sample *fs,
				 struct addr_loc *al)
{
	const char *path, *name;
	uint64_t off, start;
	enum access_kind kind;

	/* the access ends where the trap is: its last byte is in the function that holds it */
	if (!al->map || !al->map->dso || !al->addr ||
	    object_sym(c, al->map->dso, al->addr - 1, false, &path, &name, &off) != ATTR_OK ||
	    vartype__insn_ending(c->vt, path, name, sym_start(al->map->dso, al->addr - 1, off),
				 off + 1, &start, &kind))
		return;
	fs->ip -= off + 1 - start;
	al->addr -= off + 1 - start;
	if (!data_src_has_op(fs->data_src))
		fs->data_src = access_data_src(kind);
}

bool fields_sample__init(struct fields_sample *fs, const struct perf_header_info *h,
			 const struct sample *s)
{
	const struct perf_attr *bp = breakpoint_of(h, s);
	uint64_t addr = s->present & SF_ADDR ? s->addr : bp ? bp->config1 : 0;

	*fs = (struct fields_sample){
		.ip = s->ip, .addr = addr, .time = s->time,
		.weight = s->present & (SF_WEIGHT | SF_WEIGHT_STRUCT) ? s->weight : 0,
		.data_src = s->present & SF_DATA_SRC ? s->data_src : 0,
		.pid = s->pid, .tid = s->tid,
		.cpu = s->present & SF_CPU ? s->cpu : 0, .cpumode = s->cpumode,
	};
	return (s->present & SF_ADDR) || bp;
}
