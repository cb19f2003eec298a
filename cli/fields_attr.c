// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The evidence sources of field attribution, over one recording: the types in the objects at
 * hand (flattened for analyzer/attribution.h), the operand type at an IP and the variable at a
 * data address (dwarf/vartype.h), allocation records (the collector's alloc/free events,
 * kmem tracepoints decoded with the recording's own tracing data), --type hints.  Shared by
 * `lineup fields` and `lineup report --fields`.
 */
#include <config.h>

#include "cli/fields_attr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/u64map.h"
#include "cli/command.h"
#include "dwarf/layout.h"
#include "dwarf/symbols.h"
#include "dwarf/vartype.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "sampling/tracepoint.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* --- types: layouts from every object at hand, flattened once per type --- */

struct type_entry {
	char *name;
	struct flat_layout layout;
	struct flat_layout *flat;	/* a struct's, flattened (NULL for a scalar's) */
	struct flat_member *members;	/* a scalar's one member */
};

struct source_entry {
	char *path;
	struct layout_source *src;	/* NULL when it could not be opened */
	char *error;
};

struct fields_attr {
	const struct fields_attr_opts *o;
	struct machine *machine;
	struct symbols *syms;
	struct vartype *vt;
	struct alloc_index allocs;
	bool prepared;
	struct tp_decoder *tp;
	bool tp_loaded;
	/* Layout sources, in lookup order: --debug-file, -k, then objects of the samples. */
	struct source_entry *sources;
	size_t nr_sources, cap_sources;
	struct type_entry **types;
	size_t nr_types, cap_types;
	struct fields_list owned;	/* strings the tables point to */
	/* Code addresses seen, for naming them: ip -> index into code[]. */
	struct u64map code_of;
	struct code_ref {
		struct map *map;
		struct dso *dso;
	} *code;
	size_t nr_code, cap_code;
	struct attr_fact *hints;
	size_t nr_hints;
	struct fields_rmw *rmw;
	size_t nr_rmw, cap_rmw;
	bool kernel_sample;		/* the sample being resolved is a kernel one */
	uint64_t nr_alloc_records, nr_kmem_records;
	/* Warnings printed once. */
	struct u64map warned_dso;
};

static const char *own(struct fields_attr *c, char *s)
{
	c->owned.v = xgrow(c->owned.v, &c->owned.cap, c->owned.nr + 1, sizeof(*c->owned.v));
	c->owned.v[c->owned.nr++] = s;
	return s;
}

static const char *strip_tag(const char *name)
{
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	if (!strncmp(name, "class ", 6))
		return name + 6;
	return name;
}

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

static struct source_entry *add_source(struct fields_attr *c, const char *path)
{
	struct source_entry *e;
	char err[2048] = "";
	int rc;

	for (size_t i = 0; i < c->nr_sources; i++)
		if (!strcmp(c->sources[i].path, path))
			return &c->sources[i];
	c->sources = xgrow(c->sources, &c->cap_sources, c->nr_sources + 1, sizeof(*c->sources));
	e = &c->sources[c->nr_sources++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	/* The running kernel's BTF is the layout source of last resort for kernel types (no
	 * vmlinux with DWARF on most machines; lineup watch's recordings need it). */
	rc = !strcmp(path, KERNEL_BTF) ?
		     layout_source__open(&e->src, NULL, LAYOUT_BTF, err, sizeof(err)) :
		     layout_source__open(&e->src, path, 0, err, sizeof(err));
	if (rc < 0) {
		e->src = NULL;
		e->error = xstrdup(err[0] ? err : strerror(-rc));
	}
	return e;
}

/* Named struct members' layouts come from the source the outer type was found in. */
static const struct layout_type *resolve_in_source(void *ctx, const char *type_id)
{
	const struct layout_type *sub;
	char err[256];

	if (layout_source__find(ctx, type_id, &sub, err, sizeof(err)) != 0)
		return NULL;
	return sub;
}

const struct flat_layout *fields_attr__find_type(void *ctx, const char *name)
{
	struct fields_attr *c = ctx;
	const struct layout_type *lt = NULL;
	struct layout_source *src = NULL;
	const char *tag = strip_tag(name);
	struct type_entry *t;

	for (size_t i = 0; i < c->nr_types; i++)
		if (flat_layout__same_type(c->types[i]->name, name))
			return c->types[i]->layout.nr_members || c->types[i]->layout.size ?
				       &c->types[i]->layout : NULL;
	for (size_t i = 0; i < c->nr_sources && !lt; i++) {
		char err[256];

		if (c->sources[i].src &&
		    layout_source__find(c->sources[i].src, tag, &lt, err, sizeof(err)) == 0)
			src = c->sources[i].src;
		else
			lt = NULL;
	}
	/* Only for a kernel sample: a user program's struct is no kernel struct of that name. */
	if (!lt && c->kernel_sample && !access(KERNEL_BTF, R_OK)) {
		struct source_entry *e = add_source(c, KERNEL_BTF);
		char err[256];

		if (e->src && layout_source__find(e->src, tag, &lt, err, sizeof(err)) == 0)
			src = e->src;
		else
			lt = NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	c->types = xgrow(c->types, &c->cap_types, c->nr_types + 1, sizeof(*c->types));
	c->types[c->nr_types++] = t;
	if (!lt)
		return NULL;	/* remembered as missing */
	/*
	 * The sources are opened without LAYOUT_EXPAND so that type names stay as declared
	 * (atomic_long_t, spinlock_t); named struct members are looked up in the same source.
	 */
	/* a typedef'd anonymous struct goes by its typedef, as vartype names it */
	char *fname = !lt->name && lt->typedef_name ? xstrdup(lt->typedef_name) :
			xasprintf("%s %s", layout_kind__name(lt->kind), lt->name ? lt->name : tag);

	t->flat = flat_layout__new(lt, fname, resolve_in_source, src);
	free(fname);
	t->layout = *t->flat;
	return &t->layout;
}

/* --- reading the recording --- */

static const char *const builtin_caches[][2] = {
	{ "filp", "struct file" },
	{ "buffer_head", "struct buffer_head" },
	{ "mbcache", "struct mb_cache_entry" },
	{ "bdev_cache", "struct bdev_inode" },
	{ "inode_cache", "struct inode" },
	{ "dentry", "struct dentry" },
	{ "task_struct", "struct task_struct" },
	{ "mm_struct", "struct mm_struct" },
	{ "files_cache", "struct files_struct" },
	{ "vm_area_struct", "struct vm_area_struct" },
	{ "skbuff_head_cache", "struct sk_buff" },
	{ "sock_inode_cache", "struct socket_alloc" },
	{ "ext4_inode_cache", "struct ext4_inode_info" },
	{ "pid", "struct pid" },
	{ "cred_jar", "struct cred" },
};

static const char *cache_type(struct fields_attr *c, const char *cache, size_t len)
{
	for (size_t i = c->o->cache_types.nr; i-- > 0;) {
		const char *s = c->o->cache_types.v[i], *eq = strchr(s, '=');

		if ((size_t)(eq - s) == len && !strncmp(s, cache, len))
			return eq + 1;
	}
	for (size_t i = 0; i < sizeof(builtin_caches) / sizeof(builtin_caches[0]); i++)
		if (strlen(builtin_caches[i][0]) == len && !strncmp(builtin_caches[i][0], cache, len))
			return builtin_caches[i][1];
	return NULL;
}

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

			e.type = cache_type(c, name->str, len);
			origin = xasprintf("kmem_cache %.*s", (int)len, name->str);
		} else {
			origin = xasprintf("%s", ev.name);
		}
		e.origin = own(c, origin);
		if (e.size)
			alloc_index__add(&c->allocs, &e);
	} else if (!strcmp(ev.name, "kmem_cache_free") || !strcmp(ev.name, "kfree")) {
		alloc_index__free(&c->allocs, ptr->num, s->time);
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
	if (!dso->priv)
		dso->priv = dso__symbols(dso, c->syms);
	return dso->priv;
}

static void warn_dso(struct fields_attr *c, struct dso *dso, const char *what)
{
	if (u64map__get(&c->warned_dso, dso->index, NULL))
		return;
	u64map__set(&c->warned_dso, dso->index, 1);
	cli__error("%s: %s", dso->short_name, what);
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

struct evidence_query {
	uint64_t ip, addr;
	struct thread *thread;
	struct map *map;
	uint64_t rel_ip;
};

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

/*
 * An indexed operand (lock incl 0x18(%rdi,%rsi,4)) reaches disp + index * scale into the
 * object, the index unknown: of the array elements that could hold the address, take the
 * first that puts the object's start on an aligned address (8, or 4 for a size that is no
 * multiple of 8), so every sample of one object agrees on its instance.
 */
static uint64_t indexed_part(struct fields_attr *c, const struct vartype_answer *a, uint64_t addr)
{
	const struct flat_layout *l;
	uint64_t align, count, base0;
	int m;

	if (!a->index_scale || !(l = fields_attr__find_type(c, a->type)))
		return 0;
	m = flat_layout__member_at(l, (uint64_t)a->offset);
	count = m >= 0 && l->members[m].elem_size ? l->members[m].size / l->members[m].elem_size :
						    1;
	align = l->size % 8 ? 4 : 8;
	base0 = addr - (uint64_t)a->offset;
	for (uint64_t j = 0; j < count && j * a->index_scale <= base0; j++)
		if ((base0 - j * a->index_scale) % align == 0)
			return j * a->index_scale;
	return 0;
}

/* The type of the instruction's memory operand at the IP. */
static void evidence_operand(struct fields_attr *c, const struct evidence_query *eq,
			     struct attr_fact *facts, unsigned int *nr, enum attr_reason *why)
{
	const char *name, *path;
	uint64_t off;
	struct vartype_answer a;
	int rc;

	if (!eq->map) {
		*why = ATTR_NO_MAP;
		return;
	}
	*why = object_sym(c, eq->map->dso, eq->rel_ip, false, &path, &name, &off);
	if (*why != ATTR_OK)
		return;
	rc = vartype__operand(c->vt, path, name, off, &a);
	if (rc) {
		*why = vt_reason(rc);
		return;
	}
	facts[(*nr)++] = (struct attr_fact){ ATTR_OPERAND, a.type,
					     eq->addr - (uint64_t)a.offset - indexed_part(c, &a, eq->addr),
					     0, a.origin };
}

/*
 * A layout for a scalar variable or heap array: one member named after the variable, with
 * its element size so each element is told apart ("hist[37]").  @name: "var counters",
 * "heap hist".
 */
static const char *scalar_layout(struct fields_attr *c, const char *name, const char *var,
				 const char *ctype, uint64_t size, uint64_t elem_size)
{
	struct type_entry *t;

	for (size_t i = 0; i < c->nr_types; i++)
		if (!strcmp(c->types[i]->name, name) && c->types[i]->layout.size >= size)
			return c->types[i]->layout.name;
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->members = xcalloc(1, sizeof(*t->members));
	t->members[0] = (struct flat_member){ .path = own(c, xstrdup(var)),
					      .type = own(c, xstrdup(ctype)),
					      .size = size ? size : 1, .elem_size = elem_size };
	t->layout = (struct flat_layout){ .name = t->name, .size = size ? size : 1,
					  .nr_members = 1, .members = t->members };
	/* Newest first, so a larger block of the same name is found before a smaller one. */
	c->types = xgrow(c->types, &c->cap_types, c->nr_types + 1, sizeof(*c->types));
	memmove(c->types + 1, c->types, c->nr_types * sizeof(*c->types));
	c->types[0] = t;
	c->nr_types++;
	return t->layout.name;
}

/* The global or static variable holding the data address. */
static void evidence_variable(struct fields_attr *c, const struct evidence_query *eq,
			      struct attr_fact *facts, unsigned int *nr, enum attr_reason *why)
{
	struct addr_loc dl;
	struct map *dm = machine__find_any_cpumode(c->machine, eq->thread, eq->addr, &dl);
	const char *path, *name, *type;
	uint64_t off;
	struct vartype_answer a;
	int rc;

	if (!dm || !dm->dso || dm->dso->kind == DSO_KIND_ANON ||
	    dm->dso->kind == DSO_KIND_MODULE)
		return;		/* heap, stack: the allocation records speak */
	if (object_sym(c, dm->dso, dl.addr, true, &path, &name, &off) != ATTR_OK) {
		*why = ATTR_NO_OBJECT;
		return;
	}
	rc = vartype__global(c->vt, path, name, off, &a);
	if (rc) {
		*why = rc == VT_NO_VARIABLE ? ATTR_NO_OBJECT : vt_reason(rc);
		return;
	}
	if (a.scalar) {
		char *n = xasprintf("var %s", a.var);

		type = scalar_layout(c, n, a.var, a.type, a.size, a.elem_size);
		free(n);
	} else {
		type = a.type;
	}
	facts[(*nr)++] = (struct attr_fact){ ATTR_VARIABLE, type, eq->addr - (uint64_t)a.offset,
					     a.size, a.origin };
}

/* An allocation record; the collector's carry no type: the call site's variables tell it. */
static void evidence_alloc(struct fields_attr *c, const struct fields_sample *ms,
			   struct attr_fact *facts, unsigned int *nr, enum attr_reason *why)
{
	const struct alloc_entry *ae = alloc_index__find(&c->allocs, ms->addr, ms->time);
	struct attr_fact *f;

	if (!ae) {
		if (c->allocs.nr)
			*why = ATTR_NO_OBJECT;
		return;
	}
	f = &facts[(*nr)++];
	alloc_entry__fact(ae, f);
	if (!f->type && ae->site) {
		struct thread *th = machine__findnew_thread(c->machine, ae->pid, ae->pid);
		struct addr_loc loc;
		struct map *map = machine__find_map(c->machine, th, CPUMODE_USER, ae->site, &loc);
		const char *path, *name;
		uint64_t off;
		struct vartype_answer a;

		if (!map)
			return;
		if (object_sym(c, map->dso, loc.addr, false, &path, &name, &off) == ATTR_OK &&
		    !vartype__alloc_site(c->vt, path, name, off, ae->size, &a)) {
			if (a.scalar) {
				f->type = scalar_layout(c, a.type, a.var, "heap array", ae->size,
							a.elem_size);
			} else {
				/* An array of structs: each element is an instance. */
				f->type = a.type;
				f->base = ae->base + (ms->addr - ae->base) / a.size * a.size;
				f->size = a.size;
			}
			f->origin = a.origin;
		}
	}
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
			if (!vartype__srcline(c->vt, path, name, off, line, sizeof(line)))
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
	const char *at = strrchr(s, '@');
	char *end;

	if (!at || at == s || !at[1])
		return "is not 'struct T'@ADDR";
	errno = 0;
	strtoull(at + 1, &end, 0);
	if (*end || errno)
		return "has no valid address after '@'";
	return NULL;
}

int fields_attr__new(struct fields_attr **out, const struct fields_attr_opts *o,
		     struct machine *m, char *err, size_t errlen)
{
	struct fields_attr *c = xcalloc(1, sizeof(*c));
	struct symbols_options so = { 0 };

	c->o = o;
	c->machine = m;
	alloc_index__init(&c->allocs);
	u64map__init(&c->code_of);
	u64map__init(&c->warned_dso);
	so.vmlinux = o->vmlinux;
	so.symfs = o->symfs;
	c->syms = symbols__new(&so);
	c->vt = vartype__new();
	c->hints = xcalloc(o->hints.nr + 1, sizeof(*c->hints));
	for (size_t i = 0; i < o->hints.nr; i++) {
		const char *s = o->hints.v[i], *at = strrchr(s, '@');

		if (fields_attr__check_hint(s)) {
			snprintf(err, errlen, "--type: '%s' %s", s, fields_attr__check_hint(s));
			fields_attr__delete(c);
			return -EINVAL;
		}
		c->hints[c->nr_hints++] = (struct attr_fact){ ATTR_HINT,
			own(c, xstrndup(s, (size_t)(at - s))), strtoull(at + 1, NULL, 0), 0, "--type" };
	}
	for (size_t i = 0; i < o->debug_files.nr; i++) {
		struct source_entry *e = add_source(c, o->debug_files.v[i]);

		if (!e->src) {
			snprintf(err, errlen, "--debug-file %s: %s", e->path, e->error);
			fields_attr__delete(c);
			return -EINVAL;
		}
	}
	if (o->vmlinux) {
		struct source_entry *e = add_source(c, o->vmlinux);

		if (!e->src) {
			snprintf(err, errlen, "--vmlinux %s: %s", e->path, e->error);
			fields_attr__delete(c);
			return -EINVAL;
		}
	}
	*out = c;
	return 0;
}

void fields_attr__delete(struct fields_attr *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_types; i++) {
		free(c->types[i]->name);
		free(c->types[i]->members);
		flat_layout__delete(c->types[i]->flat);
		free(c->types[i]);
	}
	free(c->types);
	for (size_t i = 0; i < c->nr_sources; i++) {
		if (c->sources[i].src)
			layout_source__delete(c->sources[i].src);
		free(c->sources[i].path);
		free(c->sources[i].error);
	}
	free(c->sources);
	fields_list__release(&c->owned);
	u64map__exit(&c->code_of);
	u64map__exit(&c->warned_dso);
	free(c->code);
	free(c->hints);
	free(c->rmw);
	alloc_index__exit(&c->allocs);
	vartype__delete(c->vt);
	symbols__delete(c->syms);
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
		cli__error("%s: tracing data unreadable, kmem tracepoints ignored: %s", input, err);
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
			alloc_index__add(&c->allocs, &e);
		return true;
	}
	if (evsel_named(h, s->evsel, "lineup-sim/free/")) {
		alloc_index__free(&c->allocs, s->addr, s->time);
		return true;
	}
	if (evsel_named(h, s->evsel, "lineup-sim/redundant-rmw/")) {
		c->rmw = xgrow(c->rmw, &c->cap_rmw, c->nr_rmw + 1, sizeof(*c->rmw));
		c->rmw[c->nr_rmw++] = (struct fields_rmw){ s->ip, s->weight, s->period };
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
	*out = c->rmw;
	return c->nr_rmw;
}

size_t fields_attr__nr_allocs(const struct fields_attr *c)
{
	return c->allocs.nr;
}

int fields_attr__resolve(struct fields_attr *c, const struct fields_sample *ms,
			 struct attr_result *res)
{
	struct attr_types types = { fields_attr__find_type, c };
	struct attr_fact facts[8];
	struct attr_query q = { .addr = ms->addr, .facts = facts };
	struct addr_loc loc;
	struct thread *th = machine__findnew_thread(c->machine, ms->pid, ms->tid);
	struct map *map = machine__find_map(c->machine, th, ms->cpumode, ms->ip, &loc);
	struct evidence_query eq = { 0 };

	if (!c->prepared) {
		alloc_index__prepare(&c->allocs);
		c->prepared = true;
	}
	c->kernel_sample = ms->cpumode == CPUMODE_KERNEL;
	eq.ip = ms->ip;
	eq.addr = ms->addr;
	eq.thread = th;
	eq.map = map;
	eq.rel_ip = loc.addr;
	if (map) {
		const char *path, *name;
		uint64_t off;

		/* The object's types become a layout source. */
		if (object_sym(c, map->dso, loc.addr, false, &path, &name, &off) == ATTR_OK)
			add_source(c, path);
		code_remember(c, ms->ip, map, map->dso);
	} else {
		code_remember(c, ms->ip, NULL, NULL);
	}
	if (!ms->addr) {
		q.why_not[ATTR_OPERAND] = ATTR_NO_ADDR;
	} else {
		evidence_operand(c, &eq, facts, &q.nr_facts, &q.why_not[ATTR_OPERAND]);
		evidence_variable(c, &eq, facts, &q.nr_facts, &q.why_not[ATTR_VARIABLE]);
		evidence_alloc(c, ms, facts, &q.nr_facts, &q.why_not[ATTR_ALLOC]);
		for (size_t k = 0; k < c->nr_hints && q.nr_facts < 8; k++)
			facts[q.nr_facts++] = c->hints[k];
		if (!map && q.why_not[ATTR_OPERAND] == ATTR_OK && !q.nr_facts)
			q.why_not[ATTR_OPERAND] = ATTR_NO_MAP;
	}
	return attribution__resolve(&types, &q, res);
}

int fields_attr__has_struct(struct fields_attr *c, const char *name)
{
	const char *tag = strip_tag(name);

	for (size_t i = 0; i < c->nr_sources; i++) {
		const struct layout_type *lt;
		char err[256];

		if (c->sources[i].src &&
		    layout_source__find(c->sources[i].src, tag, &lt, err, sizeof(err)) == 0)
			return 1;
	}
	return 0;
}

int fields_attr__closest(struct fields_attr *c, const char *name, const char **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < c->nr_sources && !n; i++)
		if (c->sources[i].src)
			n = layout_source__closest(c->sources[i].src, strip_tag(name), out, max);
	return n;
}

const char *fields_attr__unknown_hint(struct fields_attr *c)
{
	for (size_t i = 0; i < c->nr_hints; i++)
		if (!fields_attr__find_type(c, c->hints[i].type) &&
		    !fields_attr__has_struct(c, c->hints[i].type))
			return c->o->hints.v[i];
	return NULL;
}

const char *fields_attr__strip_tag(const char *name)
{
	return strip_tag(name);
}

void fields_sample__init(struct fields_sample *fs, const struct sample *s)
{
	*fs = (struct fields_sample){
		.ip = s->ip, .addr = s->addr, .time = s->time,
		.weight = s->present & (SF_WEIGHT | SF_WEIGHT_STRUCT) ? s->weight : 0,
		.data_src = s->present & SF_DATA_SRC ? s->data_src : 0,
		.pid = s->pid, .tid = s->tid,
		.cpu = s->present & SF_CPU ? s->cpu : 0, .cpumode = s->cpumode,
	};
}
