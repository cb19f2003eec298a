// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup fields: which struct members the memory samples of a recording touched, by whom, and
 * what kind of sharing each contended cache line shows.
 *
 * The pipeline: read the recording (samples with a data address, the maps, allocation records:
 * the software collector's alloc/free events and the kernel's kmem tracepoints), ask every
 * evidence source about each sample (dwarf/ for the operand type at the IP and for the global
 * variable at the data address, the allocation index, --type hints), let
 * analyzer/attribution.h decide, count in analyzer/fields.h, and print one column table as
 * text, JSON or CSV.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/attribution.h"
#include "analyzer/c2c.h"
#include "analyzer/fields.h"
#include "analyzer/flat_layout.h"
#include "analyzer/u64map.h"
#include "cli/command.h"
#include "dwarf/layout.h"
#include "dwarf/symbols.h"
#include "dwarf/vartype.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/tracepoint.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_VMLINUX = 'k',
	OPT_DEBUG_FILE = 1000,
	OPT_STRUCT,
	OPT_TYPE,
	OPT_CACHE_TYPE,
	OPT_STDIO,
	OPT_JSON,
	OPT_CSV,
	OPT_LINE_SIZE,
	OPT_ALL_MEMBERS,
	OPT_SYMFS,
};

static const struct cli_option fields_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the recording to read (default perf.data; - for stdin)" },
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image with debug info, for kernel samples" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object with debug info to take types from (a .ko, a binary; repeatable)" },
	{ OPT_STRUCT, 0, "struct", "NAME", "show only this struct ('file' or 'struct file')" },
	{ OPT_TYPE, 0, "type", "'struct T'@ADDR",
	  "hint: an instance of type T lives at ADDR (the weakest evidence; repeatable)" },
	{ OPT_CACHE_TYPE, 0, "cache-type", "NAME=TYPE",
	  "objects of kmem cache NAME are of TYPE (adds to the built-in table; repeatable)" },
	{ OPT_LINE_SIZE, 0, "line-size", "N", "cache-line size (default: the recording's, else 64)" },
	{ OPT_ALL_MEMBERS, 0, "all-members", NULL,
	  "list nested members that nothing touched too (default: top-level ones and touched ones)" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR (perf's --symfs)" },
	{ OPT_STDIO, 0, "stdio", NULL, "print text tables (the default)" },
	{ OPT_JSON, 0, "json", NULL, "print JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the member table as CSV" },
	CLI_OPTION_END
};

enum out_format { OUT_STDIO, OUT_JSON, OUT_CSV };

struct str_list {
	char **v;
	size_t nr, cap;
};

static void str_list__add(struct str_list *l, const char *s)
{
	l->v = xgrow(l->v, &l->cap, l->nr + 1, sizeof(*l->v));
	l->v[l->nr++] = xstrdup(s);
}

static void str_list__release(struct str_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	zfree(&l->v);
	l->nr = l->cap = 0;
}

struct fields_opts {
	const char *input;
	const char *vmlinux;
	const char *symfs;
	const char *only_struct;
	struct str_list debug_files;
	struct str_list hints;
	struct str_list cache_types;
	enum out_format format;
	unsigned long long line_size;
	bool all_members;
	const struct command *cmd;
};

static int fields_option(void *ctx, int id, const char *arg)
{
	struct fields_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_VMLINUX:
		o->vmlinux = arg;
		break;
	case OPT_SYMFS:
		o->symfs = arg;
		break;
	case OPT_DEBUG_FILE:
		str_list__add(&o->debug_files, arg);
		break;
	case OPT_STRUCT:
		o->only_struct = arg;
		break;
	case OPT_TYPE:
		str_list__add(&o->hints, arg);
		break;
	case OPT_CACHE_TYPE:
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return cli__usage_error(o->cmd, "--cache-type: '%s' is not NAME=TYPE", arg);
		str_list__add(&o->cache_types, arg);
		break;
	case OPT_LINE_SIZE:
		if (cli__parse_u64(o->cmd, "--line-size", arg, &o->line_size))
			return EXIT_USAGE;
		if (o->line_size < 8 || o->line_size > 4096 || (o->line_size & (o->line_size - 1)))
			return cli__usage_error(o->cmd, "--line-size: %s is not a power of two "
						"between 8 and 4096", arg);
		break;
	case OPT_ALL_MEMBERS:
		o->all_members = true;
		break;
	case OPT_STDIO:
		o->format = OUT_STDIO;
		break;
	case OPT_JSON:
		o->format = OUT_JSON;
		break;
	case OPT_CSV:
		o->format = OUT_CSV;
		break;
	}
	return 0;
}

/* --- types: layouts from every object at hand, flattened once per type --- */

struct type_entry {
	char *name;
	struct flat_layout layout;
	struct flat_member *members;
	size_t nr, cap;
	struct strbuf strings;	/* unused: names are individually allocated below */
};

struct source_entry {
	char *path;
	struct layout_source *src;	/* NULL when it could not be opened */
	char *error;
};

struct fields_ctx {
	struct fields_opts *o;
	const char *input;
	struct perf_file *pf;
	struct machine *machine;
	struct symbols *syms;
	struct fields *fields;
	struct alloc_index allocs;
	struct tp_decoder *tp;
	bool tp_loaded;
	/* Layout sources, in lookup order: --debug-file, -k, then objects of the samples. */
	struct source_entry *sources;
	size_t nr_sources, cap_sources;
	struct type_entry **types;
	size_t nr_types, cap_types;
	struct str_list owned;		/* strings the tables point to */
	/* Code addresses seen, for naming them: ip -> index into code[]. */
	struct u64map code_of;
	struct code_ref {
		struct map *map;
		struct dso *dso;
	} *code;
	size_t nr_code, cap_code;
	/* The recording's samples with a data address, kept for the second pass. */
	struct mem_sample {
		uint64_t ip, addr, time, weight, data_src;
		uint32_t pid, tid, cpu;
		uint16_t cpumode;
	} *samples;
	size_t nr_samples, cap_samples;
	uint64_t redundant_ips;
	struct rmw_count {
		uint64_t ip, total, redundant;
	} *rmw;
	size_t nr_rmw, cap_rmw;
	uint64_t nr_alloc_records, nr_kmem_records;
	struct vartype *vt;
	/* Warnings printed once. */
	struct u64map warned_dso;
};

static const char *own(struct fields_ctx *c, char *s)
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

static struct source_entry *add_source(struct fields_ctx *c, const char *path)
{
	struct source_entry *e;
	char err[512] = "";
	int rc;

	for (size_t i = 0; i < c->nr_sources; i++)
		if (!strcmp(c->sources[i].path, path))
			return &c->sources[i];
	c->sources = xgrow(c->sources, &c->cap_sources, c->nr_sources + 1, sizeof(*c->sources));
	e = &c->sources[c->nr_sources++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	rc = layout_source__open(&e->src, path, LAYOUT_EXPAND, err, sizeof(err));
	if (rc < 0) {
		e->src = NULL;
		e->error = xstrdup(err[0] ? err : strerror(-rc));
	}
	return e;
}

static void flat_add(struct type_entry *t, const char *path, const char *type, uint64_t offset,
		     const struct layout_member *m, uint16_t depth)
{
	struct flat_member *f;

	t->members = xgrow(t->members, &t->cap, t->nr + 1, sizeof(*t->members));
	f = &t->members[t->nr++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->type = type;
	f->offset = offset;
	f->size = m->size;
	f->elem_size = m->nr_elems != 1 ? m->elem_size : 0;
	f->bit_offset = (uint16_t)m->bit_offset;
	f->bit_size = (uint16_t)m->bit_size;
	f->depth = depth;
}

/* Members at every depth, containers first; anonymous members add no path component. */
static void flatten(struct fields_ctx *c, struct type_entry *t, const struct layout_type *lt,
		    const char *prefix, uint64_t base, uint16_t depth)
{
	if (depth > 8)
		return;
	for (uint32_t i = 0; i < lt->nr_members; i++) {
		const struct layout_member *m = &lt->members[i];
		const char *path = prefix;
		char *type;

		if (lt->kind == LAYOUT_ENUM)
			return;
		if (m->name) {
			path = own(c, prefix[0] ? xasprintf("%s.%s", prefix, m->name) :
						  xstrdup(m->name));
			type = xasprintf("%s%s%s", m->type_name ? m->type_name : "?",
					 m->decl_suffix && m->decl_suffix[0] == '[' ? "" : "",
					 m->decl_suffix && m->decl_suffix[0] == '[' ?
						 m->decl_suffix : "");
			flat_add(t, path, own(c, type), base + m->offset, m, depth);
		}
		if (m->type && m->nr_elems == 1 && m->type->kind != LAYOUT_ENUM)
			flatten(c, t, m->type, path, base + m->offset,
				(uint16_t)(m->name ? depth + 1 : depth));
	}
}

static int member_cmp(const void *a, const void *b)
{
	const struct flat_member *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->bit_offset != y->bit_offset)
		return x->bit_offset < y->bit_offset ? -1 : 1;
	return 0;
}

static const struct flat_layout *find_type(void *ctx, const char *name)
{
	struct fields_ctx *c = ctx;
	const struct layout_type *lt = NULL;
	const char *tag = strip_tag(name);
	struct type_entry *t;

	for (size_t i = 0; i < c->nr_types; i++)
		if (flat_layout__same_type(c->types[i]->name, name))
			return c->types[i]->layout.nr_members || c->types[i]->layout.size ?
				       &c->types[i]->layout : NULL;
	for (size_t i = 0; i < c->nr_sources && !lt; i++) {
		char err[256];

		if (c->sources[i].src &&
		    layout_source__find(c->sources[i].src, tag, &lt, err, sizeof(err)) != 0)
			lt = NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	c->types = xgrow(c->types, &c->cap_types, c->nr_types + 1, sizeof(*c->types));
	c->types[c->nr_types++] = t;
	if (!lt)
		return NULL;	/* remembered as missing */
	flatten(c, t, lt, "", 0, 0);
	/* Union members share offsets: sort so lookups can stop at the first member past. */
	qsort(t->members, t->nr, sizeof(*t->members), member_cmp);
	t->layout.name = own(c, xasprintf("%s %s", lt->kind == LAYOUT_UNION ? "union" :
					  lt->kind == LAYOUT_CLASS ? "class" : "struct",
					  lt->name ? lt->name : tag));
	t->layout.size = lt->size;
	t->layout.members = t->members;
	t->layout.nr_members = (unsigned int)t->nr;
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

static const char *cache_type(struct fields_ctx *c, const char *cache, size_t len)
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
static void kmem_record(struct fields_ctx *c, const struct sample *s)
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

static int read_recording(struct fields_ctx *c)
{
	const struct perf_header_info *h;
	struct record rec;
	char err[PERF_FILE_ERRMAX];
	int rc;

	if (perf_file__open(&c->pf, c->input, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	h = perf_file__header(c->pf);
	if (h->tracing_data && h->tracing_data_size) {
		c->tp = tp_decoder__new();
		c->tp_loaded = tp_decoder__load_tracing_data(c->tp, h->tracing_data,
							     h->tracing_data_size, err,
							     sizeof(err)) == 0;
		if (!c->tp_loaded)
			cli__error("%s: tracing data unreadable, kmem tracepoints ignored: %s",
				   c->input, err);
	}
	while ((rc = perf_file__next_record(c->pf, &rec)) > 0) {
		const struct sample *s = &rec.sample;

		if (rec.type == REC_HEADER_TRACING_DATA && !c->tp_loaded) {
			/* pipe mode: the payload follows as the record's data */
			continue;
		}
		if (rec.type != REC_SAMPLE) {
			machine__process_record(c->machine, &rec);
			continue;
		}
		h = perf_file__header(c->pf);
		if (s->evsel < h->nr_evsels &&
		    h->evsels[s->evsel].attr.type == ATTR_TYPE_TRACEPOINT) {
			kmem_record(c, s);
			continue;
		}
		if (evsel_named(h, s->evsel, "lineup-sim/alloc/")) {
			struct alloc_entry e = { s->addr, s->period, s->time, 0, NULL, "malloc",
						 s->ip, s->pid };

			c->nr_alloc_records++;
			if (s->addr && s->period)
				alloc_index__add(&c->allocs, &e);
			continue;
		}
		if (evsel_named(h, s->evsel, "lineup-sim/free/")) {
			alloc_index__free(&c->allocs, s->addr, s->time);
			continue;
		}
		if (evsel_named(h, s->evsel, "lineup-sim/redundant-rmw/")) {
			c->rmw = xgrow(c->rmw, &c->cap_rmw, c->nr_rmw + 1, sizeof(*c->rmw));
			c->rmw[c->nr_rmw++] = (struct rmw_count){ s->ip, s->weight, s->period };
			c->redundant_ips++;
			continue;
		}
		if (evsel_named(h, s->evsel, "lineup-sim/pair-hitm/"))
			continue;
		if (!(s->present & SF_ADDR))
			continue;
		c->samples = xgrow(c->samples, &c->cap_samples, c->nr_samples + 1,
				   sizeof(*c->samples));
		c->samples[c->nr_samples++] = (struct mem_sample){
			.ip = s->ip, .addr = s->addr, .time = s->time,
			.weight = s->present & (SF_WEIGHT | SF_WEIGHT_STRUCT) ? s->weight : 0,
			.data_src = s->present & SF_DATA_SRC ? s->data_src : 0,
			.pid = s->pid, .tid = s->tid,
			.cpu = s->present & SF_CPU ? s->cpu : 0, .cpumode = s->cpumode,
		};
	}
	if (rc < 0) {
		cli__error("%s", perf_file__errmsg(c->pf));
		return EXIT_USAGE;
	}
	alloc_index__prepare(&c->allocs);
	return 0;
}

/* --- evidence per sample --- */

static void code_remember(struct fields_ctx *c, uint64_t ip, struct map *map, struct dso *dso)
{
	if (u64map__get(&c->code_of, ip, NULL))
		return;
	c->code = xgrow(c->code, &c->cap_code, c->nr_code + 1, sizeof(*c->code));
	c->code[c->nr_code] = (struct code_ref){ map, dso };
	u64map__set(&c->code_of, ip, c->nr_code++);
}

static struct symbols_dso *sym_dso(struct fields_ctx *c, struct dso *dso)
{
	if (!dso->priv)
		dso->priv = symbols__dso(c->syms, dso->long_name, dso->short_name,
					 (enum symbols_dso_kind)dso->kind, dso->build_id,
					 dso->build_id_size);
	return dso->priv;
}

static void warn_dso(struct fields_ctx *c, struct dso *dso, const char *what)
{
	if (u64map__get(&c->warned_dso, dso->index, NULL))
		return;
	u64map__set(&c->warned_dso, dso->index, 1);
	cli__error("%s: %s", dso->short_name, what);
}

static void parse_hints(struct fields_ctx *c, struct attr_fact *hints, size_t *nr)
{
	*nr = 0;
	for (size_t i = 0; i < c->o->hints.nr; i++) {
		const char *s = c->o->hints.v[i], *at = strrchr(s, '@');

		hints[*nr] = (struct attr_fact){ ATTR_HINT, own(c, xstrndup(s, at - s)),
						 strtoull(at + 1, NULL, 0), 0, "--type" };
		(*nr)++;
	}
}

/* A module's .ko: a --debug-file NAME.ko, or the MMAP's own path when it is one. */
static const char *module_file(struct fields_ctx *c, const struct dso *dso)
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
	if (ln > 3 && !strcmp(dso->long_name + ln - 3, ".ko") && dso->long_name[0] == '/')
		return dso->long_name;
	return NULL;
}

/*
 * The symbol and object file of a map-relative code or data address: modules through their
 * .ko (perf maps a module from its .text), everything else through dwarf/symbols.h.
 * Returns 0 with *path, *name, *off; else an attr_reason.
 */
static enum attr_reason object_sym(struct fields_ctx *c, struct dso *dso, uint64_t rel,
				   bool want_object, const char **path, const char **name,
				   uint64_t *off)
{
	struct symbols_dso *sd;
	uint64_t start;
	bool is_object;

	if (dso->kind == DSO_KIND_MODULE) {
		*path = module_file(c, dso);
		if (!*path) {
			warn_dso(c, dso, "module without symbols: pass its .ko with --debug-file");
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

/* The type of the instruction's memory operand at the IP. */
static void evidence_operand(struct fields_ctx *c, const struct evidence_query *eq,
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
	facts[(*nr)++] = (struct attr_fact){ ATTR_OPERAND, a.type, eq->addr - (uint64_t)a.offset,
					     0, a.origin };
}

/*
 * A layout for a scalar variable or heap array: one member named after the variable, with
 * its element size so each element is told apart ("hist[37]").  @name: "var counters",
 * "heap hist".
 */
static const char *scalar_layout(struct fields_ctx *c, const char *name, const char *var,
				 const char *ctype, uint64_t size, uint64_t elem_size)
{
	struct type_entry *t;

	for (size_t i = 0; i < c->nr_types; i++)
		if (!strcmp(c->types[i]->name, name) && c->types[i]->layout.size >= size)
			return c->types[i]->layout.name;
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->members = xcalloc(1, sizeof(*t->members));
	t->cap = t->nr = 1;
	t->members[0] = (struct flat_member){ own(c, xstrdup(var)), own(c, xstrdup(ctype)), 0,
					      size ? size : 1, elem_size, 0, 0, 0 };
	t->layout = (struct flat_layout){ t->name, size ? size : 1, 1, t->members };
	/* Newest first, so a larger block of the same name is found before a smaller one. */
	c->types = xgrow(c->types, &c->cap_types, c->nr_types + 1, sizeof(*c->types));
	memmove(c->types + 1, c->types, c->nr_types * sizeof(*c->types));
	c->types[0] = t;
	c->nr_types++;
	return t->layout.name;
}

/* The global or static variable holding the data address. */
static void evidence_variable(struct fields_ctx *c, const struct evidence_query *eq,
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
static void evidence_alloc(struct fields_ctx *c, const struct mem_sample *ms,
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

static int attribute_samples(struct fields_ctx *c)
{
	struct attr_types types = { find_type, c };
	size_t nr_hints;
	struct attr_fact *hints = xcalloc(c->o->hints.nr + 1, sizeof(*hints));

	parse_hints(c, hints, &nr_hints);
	for (size_t i = 0; i < c->nr_samples; i++) {
		const struct mem_sample *ms = &c->samples[i];
		struct attr_fact facts[8];
		struct attr_query q = { .addr = ms->addr, .facts = facts };
		struct attr_result res;
		struct fields_access a = { 0 };
		struct c2c_stats st = { 0 };
		struct addr_loc loc;
		struct thread *th = machine__findnew_thread(c->machine, ms->pid, ms->tid);
		struct map *map = machine__find_map(c->machine, th, ms->cpumode, ms->ip, &loc);
		struct evidence_query eq = { 0 };

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
			/* operand type at the IP, and a global or per-CPU variable */
			evidence_operand(c, &eq, facts, &q.nr_facts, &q.why_not[ATTR_OPERAND]);
			evidence_variable(c, &eq, facts, &q.nr_facts, &q.why_not[ATTR_VARIABLE]);
			evidence_alloc(c, ms, facts, &q.nr_facts, &q.why_not[ATTR_ALLOC]);
			for (size_t k = 0; k < nr_hints && q.nr_facts < 8; k++)
				facts[q.nr_facts++] = hints[k];
			if (!map && q.why_not[ATTR_OPERAND] == ATTR_OK && !q.nr_facts)
				q.why_not[ATTR_OPERAND] = ATTR_NO_MAP;
		}
		attribution__resolve(&types, &q, &res);

		c2c_stats__decode(&st, ms->data_src, ms->addr, true);
		a.ip = ms->ip;
		a.addr = ms->addr;
		a.time = ms->time;
		a.weight = ms->weight;
		a.cpu = ms->cpu;
		a.tid = ms->tid;
		a.load = st.load != 0;
		a.store = st.store != 0;
		a.locked = st.locks != 0;
		a.lcl_hitm = st.lcl_hitm != 0;
		a.rmt_hitm = st.rmt_hitm != 0;
		fields__add(c->fields, &res, &a);
	}
	free(hints);
	fields__finish(c->fields);
	return 0;
}

/* --- naming code addresses --- */

static void name_code(void *ctx, uint64_t ip, struct strbuf *out)
{
	struct fields_ctx *c = ctx;
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

/* --- output: one column table for text, JSON and CSV --- */

struct row {
	const struct field_struct *fs;
	const struct flat_member *m;	/* NULL: the "<holes/padding>" row */
	const struct field_stats *st;
	unsigned int line_size;
	struct fields_ctx *c;
};

enum col_kind { COL_NUM, COL_TEXT, COL_FLOAT };

struct column {
	const char *header;
	const char *key;	/* JSON and CSV */
	int width;		/* text width; negative: left-aligned */
	enum col_kind kind;
	/* Fill either *num or @sb. */
	void (*get)(const struct row *r, uint64_t *num, double *fl, struct strbuf *sb);
};

static void col_offset(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->offset : 0;
}

static void col_size(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->size : 0;
}

static void col_line(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->offset / r->line_size : 0;
}

static void col_member(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	if (!r->m) {
		strbuf__addf(sb, "<holes/padding>");
		return;
	}
	strbuf__addf(sb, "%s", r->m->path);
	if (r->m->bit_size)
		strbuf__addf(sb, ":%u", r->m->bit_size);
}

static void col_type(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	strbuf__addf(sb, "%s", r->m ? r->m->type : "");
}

static void col_loads(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->loads;
}

static void col_stores(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->stores;
}

static void col_locked(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->locked;
}

static void col_lcl_hitm(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->lcl_hitm;
}

static void col_rmt_hitm(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->rmt_hitm;
}

static void col_cycles(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*f = r->st->weighted ? (double)r->st->weight_sum / (double)r->st->weighted : 0.0;
}

static void col_cpus_r(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->cpus_read.nr;
}

static void col_cpus_w(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->cpus_write.nr;
}

static void col_tids_r(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->tids_read.nr;
}

static void col_tids_w(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->tids_write.nr;
}

static void col_code(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	for (size_t i = 0; i < r->st->nr_ips && i < 3; i++) {
		if (i)
			strbuf__add(sb, "; ", 2);
		name_code(r->c, r->st->ips[i].ip, sb);
	}
	if (r->st->nr_ips > 3)
		strbuf__addf(sb, "; +%zu more", r->st->nr_ips - 3);
}

static const struct column member_columns[] = {
	{ "Offset", "offset", 6, COL_NUM, col_offset },
	{ "Size", "size", 5, COL_NUM, col_size },
	{ "CL", "cacheline", 3, COL_NUM, col_line },
	{ "Member", "member", -24, COL_TEXT, col_member },
	{ "Type", "type", 0, COL_TEXT, col_type },	/* JSON/CSV only (width 0) */
	{ "Loads", "loads", 7, COL_NUM, col_loads },
	{ "Stores", "stores", 7, COL_NUM, col_stores },
	{ "Locked", "locked", 6, COL_NUM, col_locked },
	{ "LclHITM", "lcl_hitm", 7, COL_NUM, col_lcl_hitm },
	{ "RmtHITM", "rmt_hitm", 7, COL_NUM, col_rmt_hitm },
	{ "Cycles", "mean_cycles", 7, COL_FLOAT, col_cycles },
	{ "CPUr", "cpus_read", 4, COL_NUM, col_cpus_r },
	{ "CPUw", "cpus_write", 4, COL_NUM, col_cpus_w },
	{ "Thr r", "threads_read", 5, COL_NUM, col_tids_r },
	{ "Thr w", "threads_write", 5, COL_NUM, col_tids_w },
	{ "Code", "code", -1, COL_TEXT, col_code },
};
#define NR_MEMBER_COLUMNS (sizeof(member_columns) / sizeof(member_columns[0]))

static void csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void json_text(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf__add_json(&sb, s);
	fprintf(out, "\"%s\"", sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

static void print_row(const struct row *r, enum out_format fmt, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	bool first = true;

	if (fmt == OUT_JSON)
		fputs("{", out);
	if (fmt == OUT_CSV) {
		csv_text(out, r->fs->layout->name);
		first = false;
	}
	for (size_t i = 0; i < NR_MEMBER_COLUMNS; i++) {
		const struct column *col = &member_columns[i];
		uint64_t n = 0;
		double f = 0;

		if (fmt == OUT_STDIO && !col->width)
			continue;
		strbuf__reset(&sb);
		if (fmt == OUT_STDIO && col->get == col_member && r->m)
			for (int d = 0; d < r->m->depth; d++)
				strbuf__add(&sb, "  ", 2);	/* nesting, as pahole indents */
		col->get(r, &n, &f, &sb);
		if (col->kind == COL_TEXT && !sb.buf)
			strbuf__add(&sb, "", 0);
		switch (fmt) {
		case OUT_STDIO:
			if (!first)
				fputc(' ', out);
			if (col->kind == COL_NUM)
				fprintf(out, "%*" PRIu64, col->width, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%*.0f", col->width, f);
			else if (i + 1 == NR_MEMBER_COLUMNS)
				fprintf(out, "%s", sb.buf);
			else
				fprintf(out, "%*s", col->width, sb.buf);
			break;
		case OUT_CSV:
			fputc(',', out);
			if (col->kind == COL_NUM)
				fprintf(out, "%" PRIu64, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%.1f", f);
			else
				csv_text(out, sb.buf);
			break;
		case OUT_JSON:
			fprintf(out, "%s\"%s\":", first ? "" : ",", col->key);
			if (col->kind == COL_NUM)
				fprintf(out, "%" PRIu64, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%.1f", f);
			else
				json_text(out, sb.buf);
			break;
		}
		first = false;
	}
	fputs(fmt == OUT_JSON ? "}" : "\n", out);
	strbuf__release(&sb);
}

static void print_header(enum out_format fmt, FILE *out)
{
	bool first = true;

	if (fmt == OUT_CSV)
		fputs("struct", out);
	for (size_t i = 0; i < NR_MEMBER_COLUMNS; i++) {
		const struct column *col = &member_columns[i];

		if (fmt == OUT_STDIO) {
			if (!col->width)
				continue;
			if (!first)
				fputc(' ', out);
			if (i + 1 == NR_MEMBER_COLUMNS)
				fputs(col->header, out);
			else
				fprintf(out, "%*s", col->width, col->header);
		} else {
			fprintf(out, ",%s", col->key);
		}
		first = false;
	}
	fputc('\n', out);
}

static bool member_touched(const struct field_stats *st)
{
	return st->loads || st->stores;
}

/* Which members to list: top-level ones always, nested ones when touched (or --all-members). */
static bool member_shown(const struct fields_ctx *c, const struct field_struct *fs, unsigned i)
{
	const struct flat_member *m = &fs->layout->members[i];

	if (c->o->all_members || m->depth == 0 || member_touched(&fs->members[i]))
		return true;
	/* A container whose nested member was touched, so the path reads top-down. */
	for (unsigned k = i + 1; k < fs->layout->nr_members; k++) {
		const struct flat_member *n = &fs->layout->members[k];

		if (n->offset >= m->offset + m->size || n->depth <= m->depth)
			break;
		if (member_touched(&fs->members[k]))
			return true;
	}
	return false;
}

static bool struct_selected(const struct fields_ctx *c, const struct field_struct *fs)
{
	return !c->o->only_struct || flat_layout__same_type(fs->layout->name, c->o->only_struct) ||
	       !strcmp(strip_tag(fs->layout->name), strip_tag(c->o->only_struct));
}

/* A line concerns the selected struct when one of its slots is of it. */
static bool line_selected(const struct fields_ctx *c, const struct field_line *l)
{
	if (!c->o->only_struct)
		return true;
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].layout &&
		    (flat_layout__same_type(l->slots[i].layout->name, c->o->only_struct) ||
		     !strcmp(strip_tag(l->slots[i].layout->name), strip_tag(c->o->only_struct))))
			return true;
	return false;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_attr_text(const char *what, const struct attr_stats *st, FILE *out)
{
	uint64_t resolved = 0;

	for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
		resolved += st->by_kind_weight[k];
	fprintf(out, "# %s: %" PRIu64 ", attributed %" PRIu64 " (%.1f%%)", what, st->weight,
		resolved, pct(resolved, st->weight));
	for (int k = ATTR__NR - 1; k > ATTR_NONE; k--)
		if (st->by_kind_weight[k])
			fprintf(out, ", %s %.1f%%", attr_evidence__name(k),
				pct(st->by_kind_weight[k], st->weight));
	fputc('\n', out);
	for (int r = 1; r < ATTR__REASONS; r++)
		if (st->unresolved_weight[r])
			fprintf(out, "#   unresolved %.1f%% (%" PRIu64 "): %s\n",
				pct(st->unresolved_weight[r], st->weight), st->unresolved_weight[r],
				attr_reason__text(r));
}

static void print_attr_json(const char *key, const struct attr_stats *st, FILE *out)
{
	fprintf(out, "\"%s\":{\"total\":%" PRIu64 ",\"share\":%.4f,\"by_evidence\":{", key,
		st->weight, attr_stats__resolved_share(st));
	for (int k = ATTR_NONE + 1, n = 0; k < ATTR__NR; k++)
		fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", attr_evidence__name(k),
			st->by_kind_weight[k]);
	fputs("},\"unresolved\":{", out);
	for (int r = 1, n = 0; r < ATTR__REASONS; r++)
		if (st->unresolved_weight[r])
			fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", attr_reason__id(r),
				st->unresolved_weight[r]);
	fputs("}}", out);
}

static void print_stdio(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;
	struct strbuf sb = STRBUF_INIT;
	int shown = 0;

	fprintf(out, "# lineup fields: %s, %zu samples with a data address, %u-byte lines\n",
		c->input, c->nr_samples, f->line_size);
	print_attr_text("HITM samples", &f->attr_hitm, out);
	print_attr_text("all samples", &f->attr_all, out);
	if (c->allocs.nr || c->redundant_ips)
		fprintf(out, "# allocation records: %zu; IPs with RMW counts: %" PRIu64 "\n",
			c->allocs.nr, c->redundant_ips);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!struct_selected(c, fs))
			continue;
		fprintf(out, "\n%s (size %" PRIu64 ", %" PRIu64 " cache line%s, %" PRIu64
			" instance%s; %" PRIu64 " HITM, %" PRIu64 " loads, %" PRIu64 " stores)\n",
			fs->layout->name, fs->layout->size,
			(fs->layout->size + f->line_size - 1) / f->line_size,
			(fs->layout->size + f->line_size - 1) / f->line_size == 1 ? "" : "s",
			fs->nr_instances, fs->nr_instances == 1 ? "" : "s",
			field_stats__hitm(&fs->total), fs->total.loads, fs->total.stores);
		print_header(OUT_STDIO, out);
		for (unsigned m = 0; m < fs->layout->nr_members; m++) {
			struct row r = { fs, &fs->layout->members[m], &fs->members[m], f->line_size, c };

			if (member_shown(c, fs, m))
				print_row(&r, OUT_STDIO, out);
		}
		if (member_touched(&fs->members[fs->layout->nr_members])) {
			struct row r = { fs, NULL, &fs->members[fs->layout->nr_members],
					 f->line_size, c };

			print_row(&r, OUT_STDIO, out);
		}
		shown++;
	}
	fprintf(out, "\n# contended cache lines\n");
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		if (l->verdict == LINE_QUIET || !line_selected(c, l))
			continue;
		strbuf__reset(&sb);
		fields__explain_line(f, l, name_code, c, &sb);
		fprintf(out, "\n%s", sb.buf);
	}
	strbuf__release(&sb);
}

static void print_json(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;
	struct strbuf sb = STRBUF_INIT;
	int ns = 0, nl = 0;

	fputs("{\"input\":", out);
	json_text(out, c->input);
	fprintf(out, ",\"line_size\":%u,\"samples\":%zu,\"attribution\":{", f->line_size,
		c->nr_samples);
	print_attr_json("hitm", &f->attr_hitm, out);
	fputc(',', out);
	print_attr_json("all", &f->attr_all, out);
	fputc(',', out);
	print_attr_json("cycles", &f->attr_cycles, out);
	fputs("},\"structs\":[", out);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];
		int nm = 0;

		if (!struct_selected(c, fs))
			continue;
		fprintf(out, "%s{\"type\":", ns++ ? "," : "");
		json_text(out, fs->layout->name);
		fprintf(out, ",\"size\":%" PRIu64 ",\"instances\":%" PRIu64 ",\"members\":[",
			fs->layout->size, fs->nr_instances);
		for (unsigned m = 0; m <= fs->layout->nr_members; m++) {
			struct row r = { fs, m < fs->layout->nr_members ? &fs->layout->members[m] : NULL,
					 &fs->members[m], f->line_size, c };

			if (m < fs->layout->nr_members ? !member_shown(c, fs, m) :
							 !member_touched(&fs->members[m]))
				continue;
			fputs(nm++ ? "," : "", out);
			print_row(&r, OUT_JSON, out);
		}
		fputs("]}", out);
	}
	fputs("],\"lines\":[", out);
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		if (l->verdict == LINE_QUIET || !line_selected(c, l))
			continue;
		fprintf(out, "%s{\"addr\":\"%#" PRIx64 "\",\"verdict\":", nl++ ? "," : "", l->addr);
		json_text(out, line_verdict__name(l->verdict));
		fprintf(out, ",\"hitm\":%" PRIu64 ",\"stores\":%" PRIu64 ",\"loads\":%" PRIu64
			",\"writer_cpus\":%u,\"writer_groups\":%u,\"victims\":%u,\"slots\":[",
			field_stats__hitm(&l->st), l->st.stores, l->st.loads, l->writer_cpus,
			l->nr_groups, l->victims);
		for (size_t k = 0; k < l->nr_slots; k++) {
			const struct line_slot *s = &l->slots[k];
			bool victim = !s->st.stores && s->st.loads && l->victims;

			fprintf(out, "%s{\"type\":", k ? "," : "");
			json_text(out, s->layout ? s->layout->name : "");
			fputs(",\"member\":", out);
			json_text(out, s->layout ? s->path : "");
			fprintf(out, ",\"instance\":\"%#" PRIx64 "\",\"offset\":%u,\"loads\":%" PRIu64
				",\"stores\":%" PRIu64 ",\"locked\":%" PRIu64 ",\"hitm\":%" PRIu64
				",\"cpus_read\":%u,\"cpus_write\":%u,\"group\":%d,\"victim\":%s"
				",\"true_shared\":%s,\"redundant_rmw\":%" PRIu64 ",\"rmw\":%" PRIu64 "}",
				s->base, s->offset, s->st.loads, s->st.stores, s->st.locked,
				field_stats__hitm(&s->st), s->st.cpus_read.nr, s->st.cpus_write.nr,
				s->group, victim ? "true" : "false",
				(int)k == l->true_shared ? "true" : "false", s->redundant_rmw,
				s->rmw_checked);
		}
		strbuf__reset(&sb);
		fields__explain_line(f, l, name_code, c, &sb);
		fputs("],\"explanation\":", out);
		json_text(out, sb.buf ? sb.buf : "");
		fputs("}", out);
	}
	fputs("]}\n", out);
	strbuf__release(&sb);
}

static void print_csv(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;

	print_header(OUT_CSV, out);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!struct_selected(c, fs))
			continue;
		for (unsigned m = 0; m <= fs->layout->nr_members; m++) {
			struct row r = { fs, m < fs->layout->nr_members ? &fs->layout->members[m] : NULL,
					 &fs->members[m], f->line_size, c };

			if (m < fs->layout->nr_members ? !member_shown(c, fs, m) :
							 !member_touched(&fs->members[m]))
				continue;
			print_row(&r, OUT_CSV, out);
		}
	}
}

/* --struct NAME that matched nothing: does it exist at all?  Say so, with the closest names. */
static int wrong_struct(struct fields_ctx *c)
{
	const char *tag = strip_tag(c->o->only_struct);
	const char *close[5];
	int n = 0;

	for (size_t i = 0; i < c->nr_sources; i++) {
		const struct layout_type *lt;
		char err[256];

		if (c->sources[i].src &&
		    layout_source__find(c->sources[i].src, tag, &lt, err, sizeof(err)) == 0) {
			cli__error("%s: no sample was attributed to struct %s", c->input, tag);
			return EXIT_NOTHING;
		}
	}
	for (size_t i = 0; i < c->nr_sources && !n; i++)
		if (c->sources[i].src)
			n = layout_source__closest(c->sources[i].src, tag, close, 5);
	if (!n)
		for (size_t i = 0; i < c->fields->nr_structs && n < 5; i++)
			close[n++] = strip_tag(c->fields->structs[i].layout->name);
	fprintf(stderr, "lineup: no struct named '%s' in the debug info at hand", tag);
	if (n) {
		fputs("; closest:", stderr);
		for (int i = 0; i < n; i++)
			fprintf(stderr, "%s %s", i ? "," : "", close[i]);
	}
	fputc('\n', stderr);
	return EXIT_NOTHING;
}

static bool struct_found(const struct fields_ctx *c)
{
	for (size_t i = 0; i < c->fields->nr_structs; i++)
		if (struct_selected(c, &c->fields->structs[i]))
			return true;
	return false;
}

static int check_opts(struct fields_opts *o)
{
	for (size_t i = 0; i < o->hints.nr; i++) {
		const char *s = o->hints.v[i], *at = strrchr(s, '@');
		char *end;

		if (!at || at == s || !at[1])
			return cli__usage_error(o->cmd, "--type: '%s' is not 'struct T'@ADDR", s);
		errno = 0;
		strtoull(at + 1, &end, 0);
		if (*end || errno)
			return cli__usage_error(o->cmd, "--type: '%s' is not an address", at + 1);
	}
	return 0;
}

static int open_sources(struct fields_ctx *c)
{
	for (size_t i = 0; i < c->o->debug_files.nr; i++) {
		struct source_entry *e = add_source(c, c->o->debug_files.v[i]);

		if (!e->src) {
			cli__error("--debug-file %s: %s", e->path, e->error);
			return EXIT_USAGE;
		}
	}
	if (c->o->vmlinux) {
		struct source_entry *e = add_source(c, c->o->vmlinux);

		if (!e->src) {
			cli__error("--vmlinux %s: %s", e->path, e->error);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static void ctx_release(struct fields_ctx *c)
{
	for (size_t i = 0; i < c->nr_types; i++) {
		free(c->types[i]->name);
		free(c->types[i]->members);
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
	str_list__release(&c->owned);
	u64map__exit(&c->code_of);
	u64map__exit(&c->warned_dso);
	free(c->code);
	free(c->samples);
	alloc_index__exit(&c->allocs);
	if (c->fields)
		fields__delete(c->fields);
	free(c->rmw);
	if (c->vt)
		vartype__delete(c->vt);
	if (c->syms)
		symbols__delete(c->syms);
	if (c->machine)
		machine__delete(c->machine);
	if (c->tp)
		tp_decoder__delete(c->tp);
	if (c->pf)
		perf_file__close(c->pf);
}

static int fields_run(const struct command *cmd, int argc, char **argv)
{
	struct fields_opts o = { .input = "perf.data", .cmd = cmd };
	struct fields_ctx c = { .o = &o };
	struct symbols_options so = { 0 };
	const struct perf_header_info *h;
	int rc, i = cli__parse(cmd, argc, argv, fields_option, &o, &rc);

	if (i < 0)
		goto out_opts;
	if (i < argc) {
		rc = cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
		goto out_opts;
	}
	rc = check_opts(&o);
	if (rc)
		goto out_opts;
	c.input = o.input;
	c.machine = machine__new();
	alloc_index__init(&c.allocs);
	u64map__init(&c.code_of);
	u64map__init(&c.warned_dso);
	rc = open_sources(&c);
	if (rc)
		goto out;
	rc = read_recording(&c);
	if (rc)
		goto out;
	h = perf_file__header(c.pf);
	c.fields = fields__new(o.line_size ? (unsigned)o.line_size :
			       h->cache_line_size ? h->cache_line_size : 64);
	for (size_t k = 0; k < c.nr_rmw; k++)
		fields__add_rmw(c.fields, c.rmw[k].ip, c.rmw[k].total, c.rmw[k].redundant);
	if (!c.nr_samples) {
		cli__error("%s: no sample carries a data address (record with perf c2c record, "
			   "perf mem record, or lineup record)", c.input);
		rc = EXIT_NOTHING;
		goto out;
	}
	so.vmlinux = o.vmlinux;
	so.symfs = o.symfs;
	c.syms = symbols__new(&so);
	c.vt = vartype__new();
	attribute_samples(&c);
	if (o.only_struct && !struct_found(&c)) {
		rc = wrong_struct(&c);
		goto out;
	}
	switch (o.format) {
	case OUT_STDIO:
		print_stdio(&c, stdout);
		break;
	case OUT_JSON:
		print_json(&c, stdout);
		break;
	case OUT_CSV:
		print_csv(&c, stdout);
		break;
	}
	rc = c.fields->nr_structs ? EXIT_OK : EXIT_NOTHING;
	if (rc == EXIT_NOTHING)
		cli__error("%s: no sample could be tied to a struct member (see the reasons above)",
			   c.input);
out:
	ctx_release(&c);
out_opts:
	str_list__release(&o.debug_files);
	str_list__release(&o.hints);
	str_list__release(&o.cache_types);
	return rc;
}

const struct command cmd_fields = {
	.name = "fields",
	.summary = "which struct members the samples touch, who writes them, what sharing it is",
	.usage = "[-i FILE] [-k VMLINUX] [--debug-file F ...] [--struct NAME] "
		 "[--type 'struct T'@ADDR] [--cache-type NAME=TYPE] [--stdio|--json|--csv]",
	.description =
		"Tie every memory sample to a struct type, member and instance by the strongest "
		"evidence at hand (the type of the instruction's memory operand at the IP, a global "
		"or per-CPU variable, an allocation record from kmem tracepoints or the software "
		"collector, a --type hint), then list each struct's members with loads, stores, "
		"local and remote HITMs, mean cycles, the CPUs and threads reading and writing them "
		"and the code touching them, and give each contended cache line a verdict: false "
		"sharing, true sharing (with the per-CPU counter advice and how often the summing "
		"reads run), read-mostly victims, and test-before-set for locked RMWs that find the "
		"bits already set.  What stays unresolved is reported with its share and reason.",
	.options = fields_options,
	.run = fields_run,
};
