// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/symbols.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "dwarf/debuginfo.h"
#include "dwarf/srcfile.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/hmap.h"
#include "util/ksym.h"
#include "util/xalloc.h"

/*
 * libdw lifetime rules kept here: a Dwfl owns its modules, their Elf and Dwarf handles and
 * every string libdw hands out (file names, DIE names).  Each dso keeps its Dwfl open until
 * symbols__delete, and every string that goes into a symbols_loc is copied into the arena
 * first, so nothing returned points into libdw memory.
 */

/*
 * A symbol, and its node in a red-black tree shaped exactly like perf's (dso->symbols): where
 * symbols overlap (a zero-sized _init stretched over .plt and its "name@plt" symbols), perf's
 * symbols__find returns the first containing node on its path from the root, so the tree's
 * shape decides the answer.  The tree is built by the same inserts and erases in the same
 * order, with the kernel's red-black algorithm (lib/rbtree.c), which shapes trees the way the
 * textbook one does.
 */
struct sym {
	uint64_t start, end;
	const char *name;
	int32_t left, right, parent; /* node indices, -1 for none */
	uint8_t type, binding;
	uint8_t red, dead;
};

/*
 * A section of a vmlinux other than .text that holds symbols: perf gives it a map of its own,
 * "[kernel.kallsyms]SECTION", at file offsets, with the section's symbols unfixed (no end or
 * duplicate fixups: those only run on the kernel dso).
 */
struct vsec {
	const char *object;
	uint64_t addr, size, off;
	struct sym *syms;
	size_t nr;
	int32_t root;
};

/* A symbol as binutils' elf_find_function sees it (table order matters: STT_FILE scoping). */
struct bfd_sym {
	uint64_t value, size;
	const char *name;
	uint16_t shndx;
	uint8_t type, bind, vis;
};

struct bfd_sec {
	uint64_t addr, size;
	uint16_t index;
};

struct loc_ent {
	struct loc_ent *next;
	uint64_t addr;
	struct symbols_loc loc;
};

struct symbols_dso {
	char *long_name, *short_name;
	enum symbols_dso_kind kind;
	uint8_t bid[20]; /* the build-id to match: recorded, or read from the file */
	unsigned int bid_size;
	uint8_t key_bid[20]; /* the recorded one, part of the cache key */
	unsigned int key_bid_size;
	struct symbols_dso *hnext;

	bool loaded;
	char *symsrc_path;  /* the file the symbols came from (perf's symsrc_filename) */
	char *runtime_path; /* the file with the program headers */
	char *error;
	struct sym *syms; /* tree nodes in insertion order (erased ones flagged dead) */
	size_t nr_syms;
	int32_t sym_root;
	bool adjust_symbols;
	uint64_t text_offset;	   /* .text sh_addr - sh_offset: map_ip space -> objdump address */
	bool kernel_vmlinux;	   /* kernel symbols from a vmlinux (link-time addresses) */
	bool module_ko;		   /* module symbols from its .ko: .text-relative, perf's remap */
	uint64_t module_text_off;  /* the .ko's .text sh_offset: perf's module map pgoff */
	uint64_t module_text_base; /* where libdwfl put the .ko's .text */
	uint64_t kernel_ref; /* the reference symbol's address in the symbols (kernel_ref()) */
	bool kernel_ref_done, kernel_ref_found;
	uint64_t vmlinux_text_addr, vmlinux_text_size, vmlinux_text_off;
	struct vsec *vsecs; /* a vmlinux's other sections with symbols (perf's extra maps) */
	size_t nr_vsecs;
	char ref_names[4][8]; /* a vmlinux's _text/_stext, from its whole symtab */
	uint64_t ref_addrs[4];
	unsigned int nr_refs;

	Dwfl *dwfl;
	Dwfl_Module *mod;
	bool dwfl_tried;
	/* addr2line's own view of the file: its symbols in table order and its sections */
	struct bfd_sym *bsyms;
	size_t nr_bsyms;
	struct bfd_sec *bsecs;
	size_t nr_bsecs;
	struct cu_range *cus;
	size_t nr_cus;
	bool cu_index_built;

	struct loc_ent **cache;
	size_t cache_size, nr_cache;
};

/* Strings that must outlive libdw: grown in blocks, freed at symbols__delete. */
struct arena_blk {
	struct arena_blk *next;
	size_t used, size;
	char data[];
};

struct symbols {
	struct symbols_options opts;
	char *debug_dir;
	struct symbols_dso **dhash;
	size_t dhash_size, nr_dsos;
	struct arena_blk *arena;
	char *osrelease; /* a copy of opts.osrelease */
	char *vdso_path; /* own_vdso()'s copy */
	bool vdso_tried;
	/* the recorded kernel's build-id, for modules without a .ko */
	bool kernel_seen;
	unsigned int kernel_bid_size;
	uint8_t kernel_bid[20];
};

#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

static const char SRCLINE_UNKNOWN[] = "??:0";

static void *arena_alloc(struct symbols *s, size_t n)
{
	struct arena_blk *b = s->arena;

	n = (n + 7) & ~(size_t)7;
	if (!b || b->used + n > b->size) {
		size_t size = n > 65536 ? n : 65536;

		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		b->next = s->arena;
		s->arena = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

static const char *arena_strdup(struct symbols *s, const char *str)
{
	size_t n = strlen(str) + 1;

	return memcpy(arena_alloc(s, n), str, n);
}

struct symbols *symbols__new(const struct symbols_options *opts)
{
	struct symbols *s = xcalloc(1, sizeof(*s));
	const char *home = getenv("HOME");

	if (opts)
		s->opts = *opts;
	if (s->opts.debug_dir)
		s->debug_dir = xstrdup(s->opts.debug_dir);
	else if (home)
		s->debug_dir = xasprintf("%s/.debug", home);
	s->opts.debug_dir = s->debug_dir;
	s->osrelease = s->opts.osrelease ? xstrdup(s->opts.osrelease) : NULL;
	s->opts.osrelease = s->osrelease;
	s->dhash_size = 64;
	s->dhash = xcalloc(s->dhash_size, sizeof(*s->dhash));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return s;
	return s;
}

static void dso__free(struct symbols_dso *d)
{
	free(d->long_name);
	free(d->short_name);
	free(d->symsrc_path);
	free(d->runtime_path);
	free(d->error);
	free(d->syms);
	for (size_t i = 0; i < d->nr_vsecs; i++)
		free(d->vsecs[i].syms);
	free(d->vsecs);
	free(d->bsyms);
	free(d->bsecs);
	free(d->cus);
	if (d->dwfl)
		dwfl_end(d->dwfl);
	for (size_t i = 0; i < d->cache_size; i++) {
		struct loc_ent *e, *n;

		for (e = d->cache[i]; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(d->cache);
	free(d);
}

void symbols__delete(struct symbols *s)
{
	struct arena_blk *b, *n;

	if (!s)
		return;
	for (size_t i = 0; i < s->dhash_size; i++) {
		struct symbols_dso *d, *dn;

		for (d = s->dhash[i]; d; d = dn) {
			dn = d->hnext;
			dso__free(d);
		}
	}
	free(s->dhash);
	for (b = s->arena; b; b = n) {
		n = b->next;
		free(b);
	}
	if (s->vdso_path)
		unlink(s->vdso_path);
	free(s->vdso_path);
	free(s->osrelease);
	free(s->debug_dir);
	free(s);
}

struct symbols_dso *symbols__dso(struct symbols *s, const char *long_name, const char *short_name,
				 enum symbols_dso_kind kind, const uint8_t *build_id,
				 unsigned int build_id_size)
{
	size_t b = (hash_str(long_name) >> 7) & (s->dhash_size - 1);	/* bit 0 is set */
	struct symbols_dso *d;

	if (build_id_size > 20)
		build_id_size = 20;
	for (d = s->dhash[b]; d; d = d->hnext)
		if (!strcmp(d->long_name, long_name) && d->key_bid_size == build_id_size &&
		    (!build_id_size || !memcmp(d->key_bid, build_id, build_id_size)))
			return d;
	d = xcalloc(1, sizeof(*d));
	d->sym_root = -1;
	d->long_name = xstrdup(long_name);
	d->short_name = xstrdup(short_name ? short_name : long_name);
	d->kind = kind;
	d->bid_size = d->key_bid_size = build_id_size;
	if (build_id_size) {
		memcpy(d->bid, build_id, build_id_size);
		memcpy(d->key_bid, build_id, build_id_size);
	}
	d->hnext = s->dhash[b];
	s->dhash[b] = d;
	s->nr_dsos++;
	return d;
}

const char *symbols_dso__path(const struct symbols_dso *dso)
{
	return dso->symsrc_path ? dso->symsrc_path : dso->runtime_path;
}

const char *symbols_dso__error(const struct symbols_dso *dso)
{
	return dso->error;
}

/* ---- symbol tables (perf's dso__load_sym rules) ---- */

struct symtab_builder {
	struct sym *v;
	size_t n, cap;
	int32_t root;
};

static void symtab__add(struct symbols *s, struct symtab_builder *b, uint64_t start, uint64_t size,
			const char *name, uint8_t type, uint8_t binding)
{
	struct sym *sy;

	b->v = xgrow(b->v, &b->cap, b->n + 1, sizeof(*b->v));
	sy = &b->v[b->n++];
	memset(sy, 0, sizeof(*sy));
	sy->start = start;
	sy->end = size ? start + size : start;
	sy->name = arena_strdup(s, name);
	sy->type = type;
	sy->binding = binding;
	sy->left = sy->right = sy->parent = -1;
}

/* ---- the red-black tree (indices into v; -1 is NULL, which is black) ---- */

#define RB_RED(v, i) ((i) >= 0 && (v)[i].red)

static void rb_set_child(struct symtab_builder *t, int32_t parent, int32_t old, int32_t new)
{
	if (parent < 0)
		t->root = new;
	else if (t->v[parent].left == old)
		t->v[parent].left = new;
	else
		t->v[parent].right = new;
	if (new >= 0)
		t->v[new].parent = parent;
}

static void rb_rotate_left(struct symtab_builder *t, int32_t x)
{
	struct sym *v = t->v;
	int32_t y = v[x].right;

	v[x].right = v[y].left;
	if (v[y].left >= 0)
		v[v[y].left].parent = x;
	rb_set_child(t, v[x].parent, x, y);
	v[y].left = x;
	v[x].parent = y;
}

static void rb_rotate_right(struct symtab_builder *t, int32_t x)
{
	struct sym *v = t->v;
	int32_t y = v[x].left;

	v[x].left = v[y].right;
	if (v[y].right >= 0)
		v[v[y].right].parent = x;
	rb_set_child(t, v[x].parent, x, y);
	v[y].right = x;
	v[x].parent = y;
}

/* perf's __symbols__insert: equal starts go right; then the insert rebalance. */
static void rb_insert(struct symtab_builder *t, int32_t z)
{
	struct sym *v = t->v;
	int32_t parent = -1, cur = t->root;

	while (cur >= 0) {
		parent = cur;
		cur = v[z].start < v[cur].start ? v[cur].left : v[cur].right;
	}
	v[z].parent = parent;
	v[z].left = v[z].right = -1;
	v[z].red = 1;
	if (parent < 0)
		t->root = z;
	else if (v[z].start < v[parent].start)
		v[parent].left = z;
	else
		v[parent].right = z;
	while (RB_RED(v, v[z].parent)) {
		int32_t p = v[z].parent, g = v[p].parent, u;

		if (p == v[g].left) {
			u = v[g].right;
			if (RB_RED(v, u)) {
				v[p].red = v[u].red = 0;
				v[g].red = 1;
				z = g;
				continue;
			}
			if (z == v[p].right) {
				rb_rotate_left(t, p);
				z = p;
				p = v[z].parent;
			}
			v[p].red = 0;
			v[g].red = 1;
			rb_rotate_right(t, g);
		} else {
			u = v[g].left;
			if (RB_RED(v, u)) {
				v[p].red = v[u].red = 0;
				v[g].red = 1;
				z = g;
				continue;
			}
			if (z == v[p].left) {
				rb_rotate_right(t, p);
				z = p;
				p = v[z].parent;
			}
			v[p].red = 0;
			v[g].red = 1;
			rb_rotate_left(t, g);
		}
	}
	v[t->root].red = 0;
}

static int32_t rb_first(const struct symtab_builder *t)
{
	int32_t n = t->root;

	while (n >= 0 && t->v[n].left >= 0)
		n = t->v[n].left;
	return n;
}

static int32_t rb_next(const struct symtab_builder *t, int32_t n)
{
	const struct sym *v = t->v;

	if (v[n].right >= 0) {
		n = v[n].right;
		while (v[n].left >= 0)
			n = v[n].left;
		return n;
	}
	while (v[n].parent >= 0 && n == v[v[n].parent].right)
		n = v[n].parent;
	return v[n].parent;
}

/* The kernel's rb_erase: a node with two children is replaced by its successor. */
static void rb_erase(struct symtab_builder *t, int32_t z)
{
	struct sym *v = t->v;
	int32_t x, xp, y = z;
	uint8_t y_red = v[z].red;

	if (v[z].left < 0) {
		x = v[z].right;
		xp = v[z].parent;
		rb_set_child(t, v[z].parent, z, x);
	} else if (v[z].right < 0) {
		x = v[z].left;
		xp = v[z].parent;
		rb_set_child(t, v[z].parent, z, x);
	} else {
		y = v[z].right;
		while (v[y].left >= 0)
			y = v[y].left;
		y_red = v[y].red;
		x = v[y].right;
		if (v[y].parent == z) {
			xp = y;
		} else {
			xp = v[y].parent;
			rb_set_child(t, v[y].parent, y, x);
			v[y].right = v[z].right;
			v[v[y].right].parent = y;
		}
		rb_set_child(t, v[z].parent, z, y);
		v[y].left = v[z].left;
		v[v[y].left].parent = y;
		v[y].red = v[z].red;
	}
	v[z].dead = 1;
	v[z].left = v[z].right = v[z].parent = -1;
	if (y_red)
		return;
	while (x != t->root && !RB_RED(v, x)) {
		int32_t w;

		if (x == v[xp].left) {
			w = v[xp].right;
			if (RB_RED(v, w)) {
				v[w].red = 0;
				v[xp].red = 1;
				rb_rotate_left(t, xp);
				w = v[xp].right;
			}
			if (!RB_RED(v, v[w].left) && !RB_RED(v, v[w].right)) {
				v[w].red = 1;
				x = xp;
				xp = v[x].parent;
			} else {
				if (!RB_RED(v, v[w].right)) {
					v[v[w].left].red = 0;
					v[w].red = 1;
					rb_rotate_right(t, w);
					w = v[xp].right;
				}
				v[w].red = v[xp].red;
				v[xp].red = 0;
				if (v[w].right >= 0)
					v[v[w].right].red = 0;
				rb_rotate_left(t, xp);
				x = t->root;
				break;
			}
		} else {
			w = v[xp].left;
			if (RB_RED(v, w)) {
				v[w].red = 0;
				v[xp].red = 1;
				rb_rotate_right(t, xp);
				w = v[xp].left;
			}
			if (!RB_RED(v, v[w].left) && !RB_RED(v, v[w].right)) {
				v[w].red = 1;
				x = xp;
				xp = v[x].parent;
			} else {
				if (!RB_RED(v, v[w].left)) {
					v[v[w].right].red = 0;
					v[w].red = 1;
					rb_rotate_left(t, w);
					w = v[xp].left;
				}
				v[w].red = v[xp].red;
				v[xp].red = 0;
				if (v[w].left >= 0)
					v[v[w].left].red = 0;
				rb_rotate_right(t, xp);
				x = t->root;
				break;
			}
		}
	}
	if (x >= 0)
		v[x].red = 0;
}

static int prefix_underscores(const char *n)
{
	int c = 0;

	while (n[c] == '_')
		c++;
	return c;
}

/* perf's choose_best_symbol: true when @a is kept over @b. */
static bool sym_better(const struct sym *a, const struct sym *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	size_t na, nb;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if ((b->binding == STB_WEAK) != (a->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	if (prefix_underscores(a->name) != prefix_underscores(b->name))
		return prefix_underscores(a->name) < prefix_underscores(b->name);
	na = strlen(a->name);
	nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	return true; /* x86's arch__choose_best_symbol keeps the first */
}

/*
 * perf's loading: every symbol inserted in table order, then symbols__fixup_end and
 * symbols__fixup_duplicate over the tree in order (erasing the losers).  The builder's array
 * keeps erased nodes (flagged dead) so indices stay valid; *out and *nr hand it over whole.
 */
static void symtab__finish(struct symtab_builder *b, bool is_kallsyms, struct symbols_dso *d)
{
	int32_t prev, cur;

	b->root = -1;
	for (size_t i = 0; i < b->n; i++)
		rb_insert(b, (int32_t)i);
	prev = rb_first(b);
	if (prev >= 0) {
		for (cur = rb_next(b, prev); cur >= 0; prev = cur, cur = rb_next(b, cur)) {
			struct sym *p = &b->v[prev], *c = &b->v[cur];

			if (p->end == p->start) {
				if (is_kallsyms && (!strchr(p->name, '[') != !strchr(c->name, '[')))
					p->end = ((p->end + 4096) + 4095) / 4096 * 4096;
				else
					p->end = c->start;
			}
		}
		if (b->v[prev].end == b->v[prev].start)
			b->v[prev].end = (b->v[prev].start + 4095) / 4096 * 4096 + 4096;
	}
	/* duplicates: of each run of equal starts the best stays (perf's walk, exactly) */
	cur = rb_first(b);
	while (cur >= 0) {
		int32_t next = rb_next(b, cur);

		if (next < 0)
			break;
		if (b->v[cur].start != b->v[next].start) {
			cur = next;
			continue;
		}
		if (sym_better(&b->v[cur], &b->v[next])) {
			rb_erase(b, next);
		} else {
			rb_erase(b, cur);
			cur = next;
		}
	}
	d->syms = b->v;
	d->nr_syms = b->n;
	d->sym_root = b->root;
}

/* A symbol inserted after the fixups (perf's PLT symbols). */
static void symtab__insert_late(struct symtab_builder *b, size_t first_new)
{
	for (size_t i = first_new; i < b->n; i++)
		rb_insert(b, (int32_t)i);
}

/* perf's symbols__find: the first node on the path from the root that contains @addr. */
static const struct sym *symtab__find(const struct sym *v, int32_t root, uint64_t addr)
{
	int32_t n = root;

	while (n >= 0) {
		const struct sym *s = &v[n];

		if (addr < s->start)
			n = s->left;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			n = s->right;
		else
			return s;
	}
	return NULL;
}

static bool elf_section_name_has(Elf *elf, size_t shstrndx, const GElf_Shdr *sh, const char *what)
{
	const char *n = elf_strptr(elf, shstrndx, sh->sh_name);

	return n && strstr(n, what);
}

/* perf's elf_read_program_header: the PT_LOAD containing @vaddr. */
static int load_phdr_for(Elf *elf, uint64_t vaddr, GElf_Phdr *ph)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t sz;

		if (!gelf_getphdr(elf, i, ph) || ph->p_type != PT_LOAD)
			continue;
		sz = ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz;
		if (sz && vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + sz)
			return 0;
	}
	return -1;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Word type, GElf_Shdr *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, out))
			continue;
		n = elf_strptr(elf, shstrndx, out->sh_name);
		if (n && !strcmp(n, name) && (!type || out->sh_type == type))
			return scn;
	}
	return NULL;
}

/*
 * C++ names as perf shows them: perf 6.1 (Debian) calls libiberty's cplus_demangle with
 * DMGL_NO_OPTS for user-space symbols, which prints the bare name: no parameters, no return
 * type, no cv/ref qualifiers, no "[clone .isra.0]".  lineup takes the full demangling from
 * the C++ runtime's __cxa_demangle (found at run time, so lineup needs no C++ at build time)
 * and cuts it down the same way.  Special names (vtables, thunks...) are kept whole.
 */
typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn cxa_demangle(void)
{
	static int tried;
	static cxa_demangle_fn fn;

	if (!tried) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		tried = 1;
		if (h)
			fn = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
	}
	return fn;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/*
 * Scan @d at nesting depth 0, calling out the positions that matter: it skips an operator
 * name's symbol ("operator<", "operator()", "operator->") so that it is not taken for
 * brackets.  Returns the index of the last top-level '(' whose group is not a scope
 * ("(anonymous namespace)::"), or -1; *last_space gets the last top-level space before @end.
 */
static long param_list(const char *d, size_t end, long *last_space)
{
	int depth = 0;
	long open = -1, params = -1;

	*last_space = -1;
	for (size_t i = 0; i < end; i++) {
		char c = d[i];

		if (c == 'o' && !strncmp(d + i, "operator", 8) &&
		    (i == 0 || !ident_char(d[i - 1])) && !ident_char(d[i + 8])) {
			size_t j = i + 8;

			if ((d[j] == '(' && d[j + 1] == ')') || (d[j] == '[' && d[j + 1] == ']'))
				j += 2;
			else
				while (j < end && d[j] && strchr("<>=!+-*/%^&|~,", d[j]))
					j++;
			i = j - 1; /* the loop's i++ lands on what follows the operator */
			continue;
		}
		if (c == '(' || c == '<' || c == '[' || c == '{') {
			if (depth == 0 && c == '(')
				open = (long)i;
			depth++;
		} else if (c == ')' || c == '>' || c == ']' || c == '}') {
			depth--;
			if (depth == 0 && c == ')' && open >= 0 && strncmp(d + i + 1, "::", 2))
				params = open;
		} else if (c == ' ' && depth == 0) {
			/* "operator new", "operator int": the space belongs to the name */
			if (!(i >= 8 && !strncmp(d + i - 8, "operator", 8)))
				*last_space = (long)i;
		}
	}
	return params;
}

char *symbols__demangle(const char *name)
{
	static const char *const special[] = {
	    "vtable for ",
	    "VTT for ",
	    "construction vtable for ",
	    "typeinfo for ",
	    "typeinfo name for ",
	    "typeinfo fn for ",
	    "non-virtual thunk to ",
	    "virtual thunk to ",
	    "covariant return thunk to ",
	    "guard variable for ",
	    "reference temporary",
	    "transaction clone for ",
	    "TLS init function for ",
	    "TLS wrapper function for ",
	    "hidden alias for ",
	    "java Class for ",
	};
	cxa_demangle_fn fn;
	char *d;
	int status = -1;
	long params, space, sp2;

	if (name[0] != '_' || name[1] != 'Z' || !(fn = cxa_demangle()))
		return NULL;
	d = fn(name, NULL, NULL, &status);
	if (!d || status != 0) {
		free(d);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (!strncmp(d, special[i], strlen(special[i])))
			return d;
	params = param_list(d, strlen(d), &space);
	if (params < 0)
		return d;
	d[params] = 0;
	/* a template function's return type comes first: drop it */
	param_list(d, (size_t)params, &sp2);
	if (sp2 >= 0)
		memmove(d, d + sp2 + 1, strlen(d + sp2 + 1) + 1);
	return d;
}

/*
 * Load one symbol table (symtab or dynsym) of @syms into @b.  @runtime supplies program and
 * section headers for NOBITS sections of a debug file, as perf's runtime_ss does.
 */
static int load_elf_syms(struct symbols *s, Elf *syms, Elf *runtime, GElf_Word type, bool kernel,
			 long only_shndx, struct symtab_builder *b)
{
	GElf_Shdr symshdr, sh;
	Elf_Scn *symscn = NULL, *scn;
	Elf_Data *data;
	size_t shstrndx, rt_shstrndx, nr;
	GElf_Ehdr eh;

	if (!gelf_getehdr(syms, &eh) || elf_getshdrstrndx(syms, &shstrndx) ||
	    elf_getshdrstrndx(runtime, &rt_shstrndx))
		return -1;
	while ((symscn = elf_nextscn(syms, symscn)))
		if (gelf_getshdr(symscn, &symshdr) && symshdr.sh_type == type)
			break;
	if (!symscn)
		return 0;
	data = elf_getdata(symscn, NULL);
	if (!data || !symshdr.sh_entsize)
		return -1;
	nr = symshdr.sh_size / symshdr.sh_entsize;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		const char *name;
		int stt;
		bool is_func, is_obj, is_label;
		Elf *secelf = syms;
		size_t secstr = shstrndx;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		stt = GELF_ST_TYPE(sym.st_info);
		is_func = (stt == STT_FUNC || stt == STT_GNU_IFUNC) && sym.st_name &&
			  sym.st_shndx != SHN_UNDEF;
		is_obj = stt == STT_OBJECT && sym.st_name && sym.st_shndx != SHN_UNDEF;
		is_label = stt == STT_NOTYPE && sym.st_name && sym.st_shndx != SHN_UNDEF &&
			   sym.st_shndx != SHN_ABS &&
			   GELF_ST_VISIBILITY(sym.st_other) != STV_HIDDEN &&
			   GELF_ST_VISIBILITY(sym.st_other) != STV_INTERNAL;
		if (!is_func && !is_obj && !is_label)
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		if (only_shndx >= 0 && sym.st_shndx != only_shndx)
			continue;
		scn = elf_getscn(syms, sym.st_shndx);
		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_type == SHT_NOBITS && runtime != syms) {
			scn = elf_getscn(runtime, sym.st_shndx);
			if (!scn || !gelf_getshdr(scn, &sh))
				continue;
			secelf = runtime;
			secstr = rt_shstrndx;
		}
		if (is_label && !elf_section_name_has(secelf, secstr, &sh, "text") &&
		    !elf_section_name_has(secelf, secstr, &sh, "data"))
			continue;
		name = elf_strptr(syms, symshdr.sh_link, sym.st_name);
		if (!name)
			continue;
		if (!kernel) {
			GElf_Phdr ph;

			if (load_phdr_for(runtime, sym.st_value, &ph))
				sym.st_value -= sh.sh_addr - sh.sh_offset;
			else
				sym.st_value -= ph.p_vaddr - ph.p_offset;
		}
		{
			/* perf demangles user-space names only (symbol_conf.demangle_kernel off) */
			char *dm = kernel ? NULL : symbols__demangle(name);

			symtab__add(s, b, sym.st_value, sym.st_size, dm ? dm : name, (uint8_t)stt,
				    (uint8_t)GELF_ST_BIND(sym.st_info));
			free(dm);
		}
	}
	return 0;
}

struct elf_file {
	int fd;
	Elf *elf;
	char *path;
	bool has_symtab, has_dynsym;
};

static void elf_file__close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	f->elf = NULL;
	f->fd = -1;
	f->path = NULL;
}

static bool is_regular(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* A text file named by the recording, for reading; NULL with d->error set. */
static FILE *dso__open_text(struct symbols_dso *d, const char *path)
{
	int fd = file__open_regular(path);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f) {
		d->error = xasprintf("%s: %s", path, fd == -EINVAL ? "not a regular file" :
				     strerror(fd < 0 ? -fd : errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* Open @path as ELF; reject it when the build-id differs from the recorded one (perf's rule). */
static int elf_file__open(struct elf_file *f, const char *path, const struct symbols_dso *d)
{
	GElf_Shdr sh;

	f->fd = -1;
	f->elf = NULL;
	f->path = NULL;
	f->fd = file__open_regular(path);
	if (f->fd < 0)
		return f->fd == -EINVAL ? -ENOENT : f->fd;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		elf_file__close(f);
		return -EINVAL;
	}
	if (d->bid_size) {
		const void *bid;
		ssize_t n = dwelf_elf_gnu_build_id(f->elf, &bid);
		unsigned int k = d->bid_size;

		/* the header's build-ids are zero-padded to 20 bytes */
		while (k > 0 && d->bid[k - 1] == 0 && (ssize_t)k > n)
			k--;
		if (n <= 0 || (size_t)n != k || memcmp(bid, d->bid, k)) {
			elf_file__close(f);
			return -ESTALE;
		}
	}
	f->path = xstrdup(path);
	f->has_symtab = find_section(f->elf, ".symtab", SHT_SYMTAB, &sh) != NULL;
	f->has_dynsym = find_section(f->elf, ".dynsym", SHT_DYNSYM, &sh) != NULL;
	return 0;
}

static void bid_hex(const struct symbols_dso *d, char *out)
{
	for (unsigned int i = 0; i < d->bid_size; i++)
		sprintf(out + 2 * i, "%02x", d->bid[i]);
	out[2 * d->bid_size] = 0;
}

/*
 * A copy of this process's vDSO in a temporary file (removed by symbols__delete), made once:
 * what perf symbolizes a "[vdso]" map with when no copy of the recorded one is cached.
 */
static const char *own_vdso(struct symbols *s)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	unsigned long lo, hi;
	char line[512];
	FILE *maps;
	int fd;

	if (s->vdso_tried)
		return s->vdso_path;
	s->vdso_tried = true;
	if (!base || !(maps = fopen("/proc/self/maps", "re")))
		return NULL;
	hi = 0;
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base)
			break;
		else
			hi = 0;
	fclose(maps);
	if (!hi)
		return NULL;
	s->vdso_path = xstrdup("/tmp/lineup-vdso.XXXXXX");
	fd = mkstemp(s->vdso_path);
	if (fd < 0 || write(fd, (const void *)base, hi - base) != (ssize_t)(hi - base)) {
		if (fd >= 0) {
			close(fd);
			unlink(s->vdso_path);
		}
		zfree(&s->vdso_path);
		return NULL;
	}
	close(fd);
	return s->vdso_path;
}

/* perf's candidate order (binary_type_symtab), each under --symfs. */
static size_t candidates(struct symbols *s, const struct symbols_dso *d, char **out, size_t max)
{
	const char *symfs = s->opts.symfs ? s->opts.symfs : "";
	char hex[41];
	size_t n = 0;

	bid_hex(d, hex);
	/* .gnu_debuglink next to the binary */
	{
		char *bin = xasprintf("%s%s", symfs, d->long_name);
		int fd = file__open_regular(bin);

		if (fd >= 0) {
			Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
			GElf_Word crc;
			const char *link = e ? dwelf_elf_gnu_debuglink(e, &crc) : NULL;

			if (link && n < max) {
				/* perf's debuglink_paths, the first that is a file */
				char *dir = xstrdup(bin), *slash = strrchr(dir, '/'), *c[4];

				if (slash)
					*slash = 0;
				c[0] = xstrdup(link);
				c[1] = xasprintf("%s/%s", dir, link);
				c[2] = xasprintf("%s/.debug/%s", dir, link);
				c[3] = xasprintf("/usr/lib/debug%s/%s", dir, link);
				bool taken = false;

				for (int k = 0; k < 4; k++) {
					if (!taken && n < max && is_regular(c[k])) {
						out[n++] = c[k];
						taken = true;
					} else {
						free(c[k]);
					}
				}
				free(dir);
			}
			if (e)
				elf_end(e);
			close(fd);
		}
		free(bin);
	}
	if (d->bid_size && s->debug_dir && n + 2 <= max) {
		/*
		 * perf's build-id cache: .build-id/xx/rest is the file itself (old style) or a
		 * link to a directory holding "elf" ("vdso" for the vdso) and "debug"
		 */
		char *link = xasprintf("%s/.build-id/%.2s/%s", s->debug_dir, hex, hex + 2);
		bool vdso = d->kind == SYMBOLS_DSO_VDSO;

		if (is_regular(link)) {
			out[n++] = xstrdup(link);
			out[n++] = xstrdup(link);
		} else {
			out[n++] = xasprintf("%s/%s", link, vdso ? "vdso" : "elf");
			out[n++] = xasprintf("%s/%s", link, vdso ? "vdso" : "debug");
		}
		free(link);
	}
	if (n + 2 <= max && d->long_name[0] == '/') {
		out[n++] = xasprintf("%s/usr/lib/debug%s.debug", symfs, d->long_name);
		out[n++] = xasprintf("%s/usr/lib/debug%s", symfs, d->long_name);
	}
	if (d->bid_size && n < max)
		out[n++] =
		    xasprintf("%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex, hex + 2);
	if (n < max && d->long_name[0] == '/')
		out[n++] = xasprintf("%s%s", symfs, d->long_name);
	if (n < max && d->kind == SYMBOLS_DSO_VDSO) {
		/* perf falls back on its own process's vDSO (vdso__dso_findnew's temp copy) */
		const char *own = own_vdso(s);

		if (own)
			out[n++] = xstrdup(own);
	}
	return n;
}

/*
 * perf's dso__synthesize_plt_symbols: one "NAME@plt" per .rela.plt (or .rel.plt) entry,
 * sized and spaced by .plt's sh_entsize after a header of that size, at file offsets.
 */
static void synthesize_plt(struct symbols *s, Elf *elf, struct symtab_builder *b)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *dscn;
	Elf_Data *rel, *syms;
	uint64_t off, entsize;
	size_t nr;

	rscn = find_section(elf, ".rela.plt", 0, &rsh);
	if (!rscn)
		rscn = find_section(elf, ".rel.plt", 0, &rsh);
	dscn = find_section(elf, ".dynsym", SHT_DYNSYM, &dsh);
	if (!rscn || !dscn || rsh.sh_link != elf_ndxscn(dscn) || !rsh.sh_entsize ||
	    !find_section(elf, ".plt", 0, &psh))
		return;
	rel = elf_getdata(rscn, NULL);
	syms = elf_getdata(dscn, NULL);
	if (!rel || !syms)
		return;
	entsize = psh.sh_entsize;
	off = psh.sh_offset + entsize;
	nr = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < nr; i++) {
		GElf_Sym sym;
		const char *name;
		char buf[1024];
		size_t symidx;

		if (rsh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(rel, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(rel, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (!gelf_getsym(syms, (int)symidx, &sym))
			continue;
		name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		{
			char *dm = name ? symbols__demangle(name) : NULL;

			snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name ? name : "");
			free(dm);
		}
		symtab__add(s, b, off, entsize, buf, STT_FUNC, STB_GLOBAL);
		off += entsize;
	}
}

/*
 * perf's dso__load: an object recorded without a build-id gets the one of the file at its
 * path (under --symfs), so the build-id places (cache, /usr/lib/debug/.build-id) are searched.
 */
static void read_file_build_id(struct symbols *s, struct symbols_dso *d)
{
	char *path;
	int fd;

	if (d->bid_size || d->long_name[0] != '/')
		return;
	path = xasprintf("%s%s", s->opts.symfs ? s->opts.symfs : "", d->long_name);
	fd = file__open_regular(path);
	if (fd >= 0) {
		Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		const void *bid;
		ssize_t n = e ? dwelf_elf_gnu_build_id(e, &bid) : -1;

		if (n > 0 && n <= 20) {
			memcpy(d->bid, bid, (size_t)n);
			d->bid_size = (unsigned int)n;
		}
		if (e)
			elf_end(e);
		close(fd);
	}
	free(path);
}

static void dso__load_user(struct symbols *s, struct symbols_dso *d)
{
	char *cand[8];
	size_t nc;
	struct elf_file syms = {.fd = -1}, runtime = {.fd = -1};
	struct symtab_builder b = {0};
	struct strbuf why = STRBUF_INIT;
	GElf_Shdr tsh;

	read_file_build_id(s, d);
	nc = candidates(s, d, cand, 8);
	for (size_t i = 0; i < nc; i++) {
		struct elf_file f;
		int rc = elf_file__open(&f, cand[i], d);

		if (rc) {
			if (rc == -ESTALE)
				strbuf__addf(&why, "%s%s: build-id differs", why.len ? "; " : "",
					     cand[i]);
			continue;
		}
		if (!syms.elf && f.has_symtab) {
			syms = f;
			if (!runtime.elf && f.has_dynsym) {
				runtime = syms;
				runtime.path = xstrdup(f.path);
				runtime.fd = -1; /* shared with syms: closed once */
			}
		} else if (!runtime.elf && f.has_dynsym) {
			runtime = f;
		} else {
			elf_file__close(&f);
		}
		if (syms.elf && runtime.elf)
			break;
	}
	for (size_t i = 0; i < nc; i++)
		free(cand[i]);

	if (!syms.elf && runtime.elf) {
		/* only a dynsym: perf uses it for both roles; symsrc_filename stays unset */
		d->runtime_path = xstrdup(runtime.path);
	} else if (syms.elf) {
		d->symsrc_path = xstrdup(syms.path);
		d->runtime_path = xstrdup(runtime.elf ? runtime.path : syms.path);
	}
	if (!syms.elf && !runtime.elf) {
		d->error = why.len ? xstrdup(why.buf)
				   : xasprintf("%s: no object with symbols found (tried the path, "
					       "debuglink, build-id cache, /usr/lib/debug)",
					       d->long_name);
		strbuf__release(&why);
		return;
	}
	strbuf__release(&why);
	{
		Elf *se = syms.elf ? syms.elf : runtime.elf;
		Elf *re = runtime.elf ? runtime.elf : syms.elf;

		if (find_section(re, ".text", 0, &tsh))
			d->text_offset = tsh.sh_addr - tsh.sh_offset;
		d->adjust_symbols = true;
		if (syms.elf)
			load_elf_syms(s, se, re, SHT_SYMTAB, false, -1, &b);
		/* perf also reads the symbol file's own dynsym */
		load_elf_syms(s, se, re, SHT_DYNSYM, false, -1, &b);
	}
	symtab__finish(&b, false, d);
	/* after the fixups, as perf's dso__load does: "name@plt" for each PLT slot */
	if (d->nr_syms) {
		size_t before = b.n;

		synthesize_plt(s, runtime.elf ? runtime.elf : syms.elf, &b);
		symtab__insert_late(&b, before);
		d->syms = b.v;
		d->nr_syms = b.n;
		d->sym_root = b.root;
	}
	if (runtime.elf == syms.elf)
		runtime.elf = NULL;
	if (runtime.fd == -1 && runtime.elf == NULL)
		free(runtime.path), runtime.path = NULL;
	elf_file__close(&syms);
	elf_file__close(&runtime);
}

/* kallsyms: "ADDR TYPE NAME [MODULE]"; perf keeps T/W/D/B (any case). */
struct kallsyms_load {
	struct symbols *s;
	struct symtab_builder b;
	const char *module;	/* "[name]", or NULL: the kernel's own symbols */
	bool any_addr;
};

static int kallsyms_one(const struct ksym *k, void *arg)
{
	struct kallsyms_load *l = arg;
	char t = (char)toupper((unsigned char)k->type);

	if (t != 'T' && t != 'W' && t != 'D' && t != 'B')
		return 0;
	if (l->module) {
		size_t n = strlen(l->module);

		if (!k->module || n < 2 || strlen(k->module) != n - 2 ||
		    strncmp(k->module, l->module + 1, n - 2))
			return 0;
	} else if (k->module) {
		return 0;
	}
	l->any_addr |= k->addr != 0;
	symtab__add(l->s, &l->b, k->addr, 0, k->name, t == 'D' || t == 'B' ? STT_OBJECT : STT_FUNC,
		    isupper((unsigned char)k->type) ? STB_GLOBAL : STB_LOCAL);
	return 0;
}

static void dso__load_kallsyms(struct symbols *s, struct symbols_dso *d, const char *path,
			       const char *module)
{
	FILE *f = dso__open_text(d, path);
	struct kallsyms_load l = { .s = s, .module = module };
	struct symtab_builder b;
	bool any_addr;

	if (!f)
		return;
	ksym__for_each_in(f, kallsyms_one, &l);
	b = l.b;
	any_addr = l.any_addr;
	fclose(f);
	/* kptr_restrict shows a user every address as 0: no symbols then, as perf has none
	 * ([unknown]), rather than every kernel address in the last symbol at 0. */
	if (!any_addr)
		b.n = 0;
	if (!b.n && !d->error)
		d->error = xasprintf("%s: no symbols%s (kptr_restrict?)", path,
				     module ? " for this module" : "");
	d->symsrc_path = NULL;
	d->runtime_path = xstrdup(path);
	symtab__finish(&b, true, d);
}

/* perf's extra kernel maps: each allocated section but .text that has symbols. */
static void vmlinux_other_sections(struct symbols *s, struct symbols_dso *d, Elf *elf,
				   size_t text_idx)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, cap = 0;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		struct symtab_builder b = {0};
		const char *name;
		struct vsec *v;

		if (elf_ndxscn(scn) == text_idx || !gelf_getshdr(scn, &sh) ||
		    !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		load_elf_syms(s, elf, elf, SHT_SYMTAB, true, (long)elf_ndxscn(scn), &b);
		if (!b.n) {
			free(b.v);
			continue;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		b.root = -1;
		for (size_t i = 0; i < b.n; i++)
			rb_insert(&b, (int32_t)i);
		d->vsecs = xgrow(d->vsecs, &cap, d->nr_vsecs + 1, sizeof(*d->vsecs));
		v = &d->vsecs[d->nr_vsecs++];
		{
			char *o = xasprintf("[kernel.kallsyms]%s", name ? name : "");

			v->object = arena_strdup(s, o);
			free(o);
		}
		v->addr = sh.sh_addr;
		v->size = sh.sh_size;
		v->off = sh.sh_offset;
		v->syms = b.v;
		v->nr = b.n;
		v->root = b.root;
	}
}

/* Remember where the reference symbols are (perf reads them from the whole symtab). */
static void vmlinux_find_ref(struct symbols_dso *d, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize && d->nr_refs < 4; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && (!strcmp(name, "_text") || !strcmp(name, "_stext"))) {
			bool seen = false;

			for (unsigned int k = 0; k < d->nr_refs; k++)
				seen |= !strcmp(d->ref_names[k], name);
			if (!seen) {
				snprintf(d->ref_names[d->nr_refs], sizeof(d->ref_names[0]), "%s",
					 name);
				d->ref_addrs[d->nr_refs++] = sym.st_value;
			}
		}
	}
}

static void dso__load_vmlinux(struct symbols *s, struct symbols_dso *d, const char *path)
{
	struct elf_file f;
	struct symtab_builder b = {0};
	int rc = elf_file__open(&f, path, d);

	if (rc) {
		d->error = xasprintf("%s: %s", path,
				     rc == -ESTALE ? "build-id differs from the "
						     "recording's"
						   : strerror(-rc));
		return;
	}
	if (!f.has_symtab) {
		d->error = xasprintf("%s: no .symtab", path);
		elf_file__close(&f);
		return;
	}
	{
		GElf_Shdr tsh;
		Elf_Scn *text = find_section(f.elf, ".text", SHT_PROGBITS, &tsh);

		/*
		 * perf keeps the kernel dso to .text (other sections' symbols go to other maps)
		 * and moves the kernel map onto .text: start = .text + KASLR shift, pgoff =
		 * .text's file offset (dso__process_kernel_symbol's remap)
		 */
		if (text) {
			d->vmlinux_text_addr = tsh.sh_addr;
			d->vmlinux_text_size = tsh.sh_size;
			d->vmlinux_text_off = tsh.sh_offset;
		}
		load_elf_syms(s, f.elf, f.elf, SHT_SYMTAB, true, text ? (long)elf_ndxscn(text) : -1,
			      &b);
		/* the reference symbol may be anywhere (kallsyms-style lookup by name) */
		if (text) {
			vmlinux_find_ref(d, f.elf);
			vmlinux_other_sections(s, d, f.elf, elf_ndxscn(text));
		}
	}
	d->symsrc_path = xstrdup(path);
	d->runtime_path = xstrdup(path);
	d->kernel_vmlinux = true;
	elf_file__close(&f);
	symtab__finish(&b, false, d);
}

/*
 * A kernel module's .ko, as perf loads it (dso__load_sym with kmodule): its .text symbols
 * (section-relative in an ET_REL) become .text offsets, and perf moves the module map's pgoff
 * to .text's file offset, so that map_ip of an ip is its .text offset plus that file offset.
 * Symbols of other sections go, in perf, to extra maps at made-up addresses; lineup keeps
 * .text only (a module's hot code; see the notes).
 */
static bool dso__load_ko(struct symbols *s, struct symbols_dso *d)
{
	const char *symfs = s->opts.symfs ? s->opts.symfs : "";
	char *cand[4];
	size_t nc = 0;
	struct elf_file f = {.fd = -1};
	struct symtab_builder b = {0};
	GElf_Shdr tsh, symshdr;
	Elf_Scn *text, *scn = NULL;
	Elf_Data *data;
	bool ok = false;

	if (d->bid_size && s->debug_dir) {
		char hex[41];

		bid_hex(d, hex);
		cand[nc++] = xasprintf("%s/.build-id/%.2s/%s/elf", s->debug_dir, hex, hex + 2);
		cand[nc++] =
		    xasprintf("%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs, hex, hex + 2);
	}
	if (d->long_name[0] == '/')
		cand[nc++] = xasprintf("%s%s", symfs, d->long_name);
	for (size_t i = 0; i < nc && !f.elf; i++)
		if (elf_file__open(&f, cand[i], d) == 0 && !f.has_symtab)
			elf_file__close(&f);
	for (size_t i = 0; i < nc; i++)
		free(cand[i]);
	if (!f.elf)
		return false;
	text = find_section(f.elf, ".text", SHT_PROGBITS, &tsh);
	while ((scn = elf_nextscn(f.elf, scn)))
		if (gelf_getshdr(scn, &symshdr) && symshdr.sh_type == SHT_SYMTAB)
			break;
	if (text && scn && symshdr.sh_entsize && (data = elf_getdata(scn, NULL))) {
		size_t nr = symshdr.sh_size / symshdr.sh_entsize, tidx = elf_ndxscn(text);

		for (size_t i = 0; i < nr; i++) {
			GElf_Sym sym;
			const char *name;
			int stt;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx != tidx ||
			    !sym.st_name)
				continue;
			stt = GELF_ST_TYPE(sym.st_info);
			if (stt != STT_FUNC && stt != STT_GNU_IFUNC && stt != STT_OBJECT &&
			    !(stt == STT_NOTYPE && GELF_ST_VISIBILITY(sym.st_other) != STV_HIDDEN &&
			      GELF_ST_VISIBILITY(sym.st_other) != STV_INTERNAL))
				continue;
			name = elf_strptr(f.elf, symshdr.sh_link, sym.st_name);
			if (name)
				symtab__add(s, &b, sym.st_value, sym.st_size, name, (uint8_t)stt,
					    (uint8_t)GELF_ST_BIND(sym.st_info));
		}
		d->module_ko = true;
		d->module_text_off = tsh.sh_offset;
		d->symsrc_path = xstrdup(f.path);
		d->runtime_path = xstrdup(f.path);
		ok = true;
	}
	elf_file__close(&f);
	if (ok)
		symtab__finish(&b, false, d);
	else
		free(b.v);
	return ok;
}

static size_t hex_prefix(const char *p, uint64_t *out)
{
	size_t n = 0;

	*out = 0;
	for (;; n++) {
		int c = p[n], v = c >= '0' && c <= '9'	 ? c - '0'
				  : c >= 'a' && c <= 'f' ? c - 'a' + 10
				  : c >= 'A' && c <= 'F' ? c - 'A' + 10
							 : -1;

		if (v < 0)
			return n;
		*out = (*out << 4) | (uint64_t)v;
	}
}

/*
 * A JIT's symbol map, /tmp/perf-PID.map ("START SIZE NAME" in hex, one a line), read as perf's
 * dso__load_perf_map reads it: at absolute addresses (the map is the identity), no end or
 * duplicate fixups, the last character of each line dropped as its newline.
 */
static void dso__load_perf_map(struct symbols *s, struct symbols_dso *d)
{
	struct symtab_builder b = {0};
	char err[PATH_MAX + 96];
	/* read whole, to its limit: the map's name comes from the recording, and getline would
	 * grow a line of a sparse 50 GB file until memory ran out */
	char *text = file__read_text(d->long_name, FILE_PERF_MAP, err, sizeof(err));
	char *line, *next;
	ssize_t len;

	if (!text) {
		d->error = xstrdup(err);
		return;
	}
	for (line = text; *line; line = next) {
		char *nl = strchr(line, '\n');
		uint64_t start, size;
		size_t k;

		next = nl ? nl + 1 : line + strlen(line);
		len = next - line;
		line[--len] = 0;
		k = hex_prefix(line, &start) + 1;
		if ((ssize_t)k + 2 >= len)
			continue;
		k += hex_prefix(line + k, &size) + 1;
		if ((ssize_t)k + 2 >= len)
			continue;
		symtab__add(s, &b, start, size, line + k, STT_FUNC, STB_GLOBAL);
	}
	free(text);
	b.root = -1;
	for (size_t i = 0; i < b.n; i++)
		rb_insert(&b, (int32_t)i);
	d->syms = b.v;
	d->nr_syms = b.n;
	d->sym_root = b.root;
	d->runtime_path = xstrdup(d->long_name);
}

/*
 * perf's search for a kernel image before kallsyms (dso__load_kernel_sym): the build-id
 * cache's "elf", then its vmlinux_path ("vmlinux", "/boot/vmlinux", and unless --symfs is
 * given /boot/vmlinux-REL, /usr/lib/debug/boot/vmlinux-REL, /lib/modules/REL/build/vmlinux,
 * /usr/lib/debug/lib/modules/REL/vmlinux, /usr/lib/debug/boot/vmlinux-REL.debug, REL the
 * recording's os release), each under --symfs; an image whose build-id is not the recorded
 * one is passed over.  Debian's linux-image-*-dbg installs one of these.
 */
static bool find_vmlinux(struct symbols *s, struct symbols_dso *d)
{
	static const char *const upd[][2] = {
	    {"/boot/vmlinux-", ""},
	    {"/usr/lib/debug/boot/vmlinux-", ""},
	    {"/lib/modules/", "/build/vmlinux"},
	    {"/usr/lib/debug/lib/modules/", "/vmlinux"},
	    {"/usr/lib/debug/boot/vmlinux-", ".debug"},
	};
	const char *symfs = s->opts.symfs ? s->opts.symfs : "";
	char *cand[8];
	size_t nc = 0;
	struct utsname uts;
	const char *rel = s->opts.osrelease;
	bool found = false;

	if (d->bid_size && s->debug_dir) {
		char hex[41];

		bid_hex(d, hex);
		cand[nc++] = xasprintf("%s/.build-id/%.2s/%s/elf", s->debug_dir, hex, hex + 2);
	}
	cand[nc++] = xasprintf("%svmlinux", symfs);
	cand[nc++] = xasprintf("%s/boot/vmlinux", symfs);
	if (!symfs[0]) {
		if (!rel && uname(&uts) == 0)
			rel = uts.release;
		for (size_t i = 0; rel && i < sizeof(upd) / sizeof(upd[0]); i++)
			cand[nc++] = xasprintf("%s%s%s", upd[i][0], rel, upd[i][1]);
	}
	for (size_t i = 0; i < nc; i++) {
		struct elf_file f;

		if (!found && elf_file__open(&f, cand[i], d) == 0) {
			bool ok = f.has_symtab;

			elf_file__close(&f);
			if (ok) {
				dso__load_vmlinux(s, d, cand[i]);
				found = d->kernel_vmlinux;
			}
		}
		free(cand[i]);
	}
	return found;
}

/* The running kernel's build-id, from /sys/kernel/notes (ELF notes); 0 when unknown. */
static unsigned int running_kernel_build_id(uint8_t out[20])
{
	uint8_t buf[4096];
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "re");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > n || namesz > n)
			return 0;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			unsigned int k = descsz > 20 ? 20 : descsz;

			memcpy(out, buf + desc_off, k);
			return k;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return 0;
}

static bool bid_equal(const uint8_t *a, unsigned int na, const uint8_t *b, unsigned int nb)
{
	/* the header's build-ids are zero-padded to 20 bytes */
	while (na > 0 && a[na - 1] == 0 && na > nb)
		na--;
	while (nb > 0 && b[nb - 1] == 0 && nb > na)
		nb--;
	return na == nb && !memcmp(a, b, na);
}

/*
 * perf's dso__find_kallsyms: which kallsyms describes the recorded kernel.  An explicit file
 * (perf's --kallsyms) is taken as is; no recorded build-id: /proc/kallsyms; the running
 * kernel's build-id: /proc/kallsyms; else the build-id cache's copy
 * (~/.debug/[kernel.kallsyms]/BUILDID/kallsyms); else none (another machine's kernel: its
 * symbols are not this machine's).  Returns a path to free, or NULL.
 */
static char *kallsyms_for(struct symbols *s, const uint8_t *bid, unsigned int bid_size)
{
	uint8_t running[20];
	unsigned int nr;
	char hex[41], *p;

	if (s->opts.kallsyms)
		return s->opts.kallsyms[0] ? xstrdup(s->opts.kallsyms) : NULL;
	if (!bid_size)
		return xstrdup("/proc/kallsyms");
	nr = running_kernel_build_id(running);
	if (nr && bid_equal(bid, bid_size, running, nr))
		return xstrdup("/proc/kallsyms");
	if (!s->debug_dir)
		return NULL;
	for (unsigned int i = 0; i < bid_size; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	hex[2 * bid_size] = 0;
	p = xasprintf("%s/[kernel.kallsyms]/%s/kallsyms", s->debug_dir, hex);
	if (is_regular(p))
		return p;
	free(p);
	return NULL;
}

static char *kallsyms_error(struct symbols *s, const uint8_t *bid, unsigned int bid_size)
{
	char hex[41];

	for (unsigned int i = 0; i < bid_size; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	hex[2 * bid_size] = 0;
	return xasprintf("[kernel.kallsyms]: no kallsyms or vmlinux with build-id %s (the "
			 "recording's kernel is not this one; looked in %s/[kernel.kallsyms]/; "
			 "give -k VMLINUX)",
			 hex, s->debug_dir ? s->debug_dir : "~/.debug");
}

static void dso__load(struct symbols *s, struct symbols_dso *d)
{
	if (d->loaded)
		return;
	d->loaded = true;
	switch (d->kind) {
	case SYMBOLS_DSO_KERNEL: {
		char *ks;

		if (s->opts.kallsyms) {
			if (s->opts.kallsyms[0])
				dso__load_kallsyms(s, d, s->opts.kallsyms, NULL);
			return;
		}
		if (s->opts.vmlinux) {
			dso__load_vmlinux(s, d, s->opts.vmlinux);
			return;
		}
		s->kernel_bid_size = d->bid_size;
		memcpy(s->kernel_bid, d->bid, d->bid_size);
		s->kernel_seen = true;
		if (find_vmlinux(s, d))
			return;
		if (s->opts.symfs && s->opts.symfs[0])
			return; /* perf: no local kallsyms when a symfs is given */
		ks = kallsyms_for(s, d->bid, d->bid_size);
		if (ks)
			dso__load_kallsyms(s, d, ks, NULL);
		else
			d->error = kallsyms_error(s, d->bid, d->bid_size);
		free(ks);
		return;
	}
	case SYMBOLS_DSO_MODULE: {
		char *ks;

		if (dso__load_ko(s, d))
			return;
		/*
		 * else its symbols from the kernel's kallsyms (at runtime addresses, see
		 * symbols__lookup), when that kallsyms is the recorded kernel's
		 */
		ks = kallsyms_for(s, s->kernel_bid, s->kernel_seen ? s->kernel_bid_size : 0);
		if (ks)
			dso__load_kallsyms(s, d, ks, d->short_name);
		free(ks);
		return;
	}
	case SYMBOLS_DSO_ANON:
		d->error = xasprintf("%s: anonymous memory, no object", d->long_name);
		return;
	case SYMBOLS_DSO_JIT:
		dso__load_perf_map(s, d);
		return;
	case SYMBOLS_DSO_BPF: {
		/* perf gives the map one symbol, the record's name, over its whole length */
		struct symtab_builder b = {0};

		symtab__add(s, &b, 0, UINT64_MAX, d->short_name, STT_FUNC, STB_GLOBAL);
		b.root = -1;
		rb_insert(&b, 0);
		d->syms = b.v;
		d->nr_syms = b.n;
		d->sym_root = b.root;
		return;
	}
	case SYMBOLS_DSO_VDSO:
	case SYMBOLS_DSO_USER:
		dso__load_user(s, d);
		return;
	}
}

int symbols__find_sym(struct symbols *s, struct symbols_dso *d, uint64_t addr, const char **name,
		      uint64_t *start, bool *is_object)
{
	const struct sym *sy;

	dso__load(s, d);
	sy = symtab__find(d->syms, d->sym_root, addr);
	if (!sy)
		return 1;
	*name = sy->name;
	*start = sy->start;
	*is_object = sy->type == STT_OBJECT;
	return 0;
}

/* ---- source lines (libdwfl) ---- */

static const Dwfl_Callbacks offline_callbacks = {
    .find_debuginfo = debuginfo__find,	/* no plain open() of a name a binary gives */
    .section_address = dwfl_offline_section_address,
};

/*
 * What addr2line (binutils) reads besides DWARF: the allocated sections (an address outside
 * all of them is "??") and the symbol table in file order (.symtab, or .dynsym when .symtab
 * has no symbols), for its elf_find_function fallback.
 */
static void load_bfd_view(struct symbols *s, struct symbols_dso *d, const char *path)
{
	struct elf_file f = {.fd = -1};
	const struct symbols_dso nobid = {0};
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	if (elf_file__open(&f, path, &nobid))
		return;
	while ((scn = elf_nextscn(f.elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		d->bsecs = xgrow(d->bsecs, &cap, d->nr_bsecs + 1, sizeof(*d->bsecs));
		d->bsecs[d->nr_bsecs].addr = sh.sh_addr;
		d->bsecs[d->nr_bsecs].size = sh.sh_size;
		d->bsecs[d->nr_bsecs].index = (uint16_t)elf_ndxscn(scn);
		d->nr_bsecs++;
	}
	cap = 0;
	for (int pass = 0; pass < 2 && !d->nr_bsyms; pass++) {
		GElf_Word want = pass ? SHT_DYNSYM : SHT_SYMTAB;
		Elf_Data *data;
		size_t nr;

		scn = NULL;
		while ((scn = elf_nextscn(f.elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == want)
				break;
		if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		nr = sh.sh_size / sh.sh_entsize;
		for (size_t i = 1; i < nr; i++) {
			GElf_Sym sym;
			const char *name;
			struct bfd_sym *b;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			name = elf_strptr(f.elf, sh.sh_link, sym.st_name);
			d->bsyms = xgrow(d->bsyms, &cap, d->nr_bsyms + 1, sizeof(*d->bsyms));
			b = &d->bsyms[d->nr_bsyms++];
			b->value = sym.st_value;
			b->size = sym.st_size;
			b->name = arena_strdup(s, name ? name : "");
			b->shndx = sym.st_shndx;
			b->type = (uint8_t)GELF_ST_TYPE(sym.st_info);
			b->bind = (uint8_t)GELF_ST_BIND(sym.st_info);
			b->vis = (uint8_t)GELF_ST_VISIBILITY(sym.st_other);
		}
	}
	elf_file__close(&f);
}

/* The allocated section addr2line finds @addr in (the first one), or NULL. */
static const struct bfd_sec *bfd_section_of(const struct symbols_dso *d, uint64_t addr)
{
	for (size_t i = 0; i < d->nr_bsecs; i++)
		if (addr >= d->bsecs[i].addr && addr < d->bsecs[i].addr + d->bsecs[i].size)
			return &d->bsecs[i];
	return NULL;
}

/*
 * binutils' elf_find_function: the closest function-like symbol at or below @addr in
 * @sec (no size check), and the STT_FILE before it when that file can be trusted (a local
 * symbol, or no global seen after a second file symbol).  Returns false when there is none.
 */
static bool bfd_find_function(const struct symbols_dso *d, const struct bfd_sec *sec, uint64_t addr,
			      const char **func, const char **file)
{
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL_SEEN } state = NOTHING_SEEN;
	const char *cur_file = NULL;
	uint64_t low = 0, best_size = 0;
	bool found = false;

	for (size_t i = 0; i < d->nr_bsyms; i++) {
		const struct bfd_sym *b = &d->bsyms[i];
		uint64_t size;

		if (b->type == STT_FILE) {
			cur_file = b->name;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL_SEEN;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		/* _bfd_elf_maybe_function_sym */
		if (b->type == STT_SECTION || b->type == STT_OBJECT || b->type == STT_TLS ||
		    b->shndx != sec->index)
			continue;
		if (b->size == 0 && b->bind == STB_LOCAL && b->type == STT_NOTYPE &&
		    b->vis == STV_HIDDEN)
			continue;
		size = b->size ? b->size : 1;
		if (b->value <= addr && (b->value > low || (b->value == low && size > best_size))) {
			*func = b->name;
			*file =
			    (cur_file && (b->bind == STB_LOCAL || state != FILE_AFTER_SYMBOL_SEEN))
				? cur_file
				: NULL;
			low = b->value;
			best_size = size;
			found = true;
		}
	}
	return found;
}

/*
 * libdwfl lays a relocatable .ko's sections out at addresses of its own (and writes them into
 * its section headers): where .text went is the base for .text offsets.
 */
static void module_text_base(struct symbols_dso *d)
{
	Dwarf_Addr bias = 0;
	Elf *elf = d->mod ? dwfl_module_getelf(d->mod, &bias) : NULL;
	GElf_Shdr sh;

	if (elf && find_section(elf, ".text", SHT_PROGBITS, &sh))
		d->module_text_base = sh.sh_addr + bias;
	else
		d->mod = NULL;
}

static void dso__open_dwfl(struct symbols *s, struct symbols_dso *d)
{
	const char *path;
	int fd;

	if (d->dwfl_tried)
		return;
	d->dwfl_tried = true;
	/*
	 * perf's dso__name(): the file the symbols came from, else the recorded name as is
	 * (perf does not put --symfs in front of that one); never for "[...]" and JIT maps.
	 */
	path = d->symsrc_path ? d->symsrc_path : d->long_name;
	if (path[0] == '[' || !strncmp(path, "/tmp/perf-", 10))
		return;
	if ((d->kind == SYMBOLS_DSO_KERNEL && !d->kernel_vmlinux) ||
	    (d->kind == SYMBOLS_DSO_MODULE && !d->module_ko) || d->kind == SYMBOLS_DSO_BPF)
		return;
	/* libdwfl would open() the name itself, and wait forever on a FIFO there */
	fd = file__open_regular(path);
	if (fd < 0)
		return;
	d->dwfl = dwfl_begin(&offline_callbacks);
	if (!d->dwfl) {
		close(fd);
		return;
	}
	d->mod = dwfl_report_offline(d->dwfl, "", path, fd);
	if (!d->mod)
		close(fd);	/* (libdwfl keeps the fd only with the module) */
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (d->module_ko)
		module_text_base(d);
	else
		load_bfd_view(s, d, path);
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n;

	/* binutils prints the linkage name when there is one (C++, mangled), else the name */
	n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return n;
}

/*
 * The CU containing @a (a module address): libdw 0.188 finds none without .debug_aranges
 * (clang emits none), so the CUs' own ranges are indexed once, as binutils does.
 */
struct cu_range {
	Dwarf_Addr lo, hi;
	Dwarf_Off off;
};

static int cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void build_cu_index(struct symbols_dso *d)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	size_t cap = 0;

	d->cu_index_built = true;
	while ((cu = dwfl_module_nextcu(d->mod, cu, &bias))) {
		ptrdiff_t off = 0;
		Dwarf_Addr base, lo, hi;

		while ((off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0) {
			if (hi <= lo)
				continue;
			d->cus = xgrow(d->cus, &cap, d->nr_cus + 1, sizeof(*d->cus));
			d->cus[d->nr_cus].lo = lo;
			d->cus[d->nr_cus].hi = hi;
			d->cus[d->nr_cus].off = dwarf_dieoffset(cu);
			d->nr_cus++;
		}
	}
	if (d->nr_cus)
		qsort(d->cus, d->nr_cus, sizeof(*d->cus), cu_range_cmp);
}

static bool find_cu(struct symbols_dso *d, Dwarf_Addr a, Dwarf_Die *out)
{
	Dwarf_Addr bias;
	Dwarf *dw;
	size_t lo = 0, hi;

	if (!d->cu_index_built)
		build_cu_index(d);
	dw = dwfl_module_getdwarf(d->mod, &bias);
	if (!dw)
		return false;
	hi = d->nr_cus;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cus[mid].lo <= a - bias)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges of different CUs do not nest; scan back a little for overlapping ones */
	for (size_t i = lo; i > 0 && lo - i < 16; i--) {
		const struct cu_range *r = &d->cus[i - 1];

		if (a - bias >= r->lo && a - bias < r->hi)
			return dwarf_offdie(dw, r->off, out) != NULL;
	}
	return false;
}

/*
 * Whether line row @dl was emitted before any DW_LNS_set_file of its sequence, i.e. with the
 * file register's initial value.  libdw hands out rows sorted by address, and a sequence's
 * rows are in address order, so: no row of another file earlier in the same sequence.
 */
static bool implicit_file_row(Dwarf_Die *cudie, Dwarf_Line *dl)
{
	Dwarf_Lines *lines;
	size_t n, lo = 0, hi, i;
	Dwarf_Addr a, la;

	if (dwarf_getsrclines(cudie, &lines, &n) || dwarf_lineaddr(dl, &a))
		return false;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &la) == 0 && la < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && dwarf_onesrcline(lines, i) != dl; i++)
		;
	if (i == n)
		return false;
	while (i-- > 0) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Files *f;
		size_t idx;
		bool end = false;

		if (dwarf_lineendsequence(l, &end) == 0 && end)
			return true;
		if (dwarf_line_file(l, &f, &idx) == 0 && idx != 1)
			return false;
	}
	return true;
}

/* binutils' non_mangled(): languages whose DW_AT_name is the linkage name. */
static bool non_mangled_lang(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Ada83:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_C99:
	case DW_LANG_Ada95:
	case DW_LANG_PLI:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

static bool has_linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	       dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a);
}

/* Whether the binutils-view symbol named @name starts exactly at @addr. */
static bool bfd_sym_starts_at(const struct symbols_dso *d, const char *name, uint64_t addr)
{
	for (size_t i = 0; i < d->nr_bsyms; i++)
		if (d->bsyms[i].value == addr && d->bsyms[i].name == name)
			return true;
	return false;
}

/* The tags dwarf_getscopes descends into (libdw's may_have_scopes). */
static bool scope_tag(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

/* DIEs one lookup may visit, and how deep (imported units count as a level). */
#define SCOPE_WALK_BUDGET 100000
#define SCOPE_WALK_DEPTH 64

/*
 * The innermost subprogram or inlined subroutine holding @pc below @parent into *fn, on the
 * first path of DIEs that hold it, as dwarf_getscopes walks them (an imported unit's children
 * in its place).  Not dwarf_getscopes itself: elfutils 0.188 leaks its array when an inline
 * instance's abstract origin is broken or not found, and only the physical nesting is wanted
 * here.  Bounded in depth and DIEs (a hostile file nests or imports without end).  Returns 1
 * when a child of @parent holds @pc (*fn set when a function is on that path), 0 if none
 * does, -1 when the budget ran out.
 */
static int innermost_function(Dwarf_Die *parent, Dwarf_Addr pc, unsigned int depth,
			      unsigned int *budget, Dwarf_Die *fn)
{
	Dwarf_Die child;
	int rc = 0;

	if (depth >= SCOPE_WALK_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (!*budget)
			return -1;
		--*budget;
		if (tag == DW_TAG_imported_unit) {
			Dwarf_Attribute at;
			Dwarf_Die unit;

			if (dwarf_formref_die(dwarf_attr(&child, DW_AT_import, &at), &unit) &&
			    dwarf_tag(&unit) != DW_TAG_compile_unit &&
			    (rc = innermost_function(&unit, pc, depth + 1, budget, fn)) != 0)
				return rc;
			continue;
		}
		if (dwarf_haspc(&child, pc) <= 0)
			continue;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
			*fn = child;
		if (scope_tag(tag) && dwarf_haschildren(&child) &&
		    innermost_function(&child, pc, depth + 1, budget, fn) < 0)
			return -1;
		return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * `addr2line -f -i` for @addr (an address in the object's own terms): level 0 is the line
 * table's row and the innermost function; each further level is the call site of the level
 * below.  Without a line row, binutils' symbol-table fallback (one level, line 0).  Fills
 * frames in the arena; returns how many (0: addr2line says "??").
 */
static unsigned int dwfl_frames(struct symbols *s, struct symbols_dso *d, uint64_t addr,
				struct symbols_frame **out)
{
	Dwarf_Addr bias = 0, a;
	Dwarf_Line *dl = NULL;
	Dwarf_Die cudie, *scopes = NULL;
	const char *file = NULL;
	int lineno = 0, nscopes = 0;
	struct symbols_frame *fr;
	unsigned int n = 0, cap, disc = 0;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	struct strbuf fsb = STRBUF_INIT;	/* a file name joined to DW_AT_comp_dir */
	const struct bfd_sec *sec = d->module_ko ? NULL : bfd_section_of(d, addr);
	bool have_cu, mangled_lang;

	if (!d->mod || (!sec && !d->module_ko))
		return 0;
	if (dwfl_module_getelf(d->mod, &bias) == NULL)
		return 0;
	/* a module's addresses are .text offsets; libdwfl's are absolute already */
	a = d->module_ko ? d->module_text_base + addr : addr + bias;
	have_cu = find_cu(d, a, &cudie);
	if (have_cu) {
		dwfl_module_getdwarf(d->mod, &bias);
		dl = dwarf_getsrc_die(&cudie, a - bias);
	}
	if (dl) {
		file = srcfile__join(&cudie, dwarf_linesrc(dl, NULL, NULL), &fsb);
		dwarf_lineno(dl, &lineno);
	}
	if (!file) {
		/* no DWARF line: addr2line falls back to the symbol table (line "?") */
		const char *fn = NULL, *ff = NULL;

		if (!sec || !bfd_find_function(d, sec, addr, &fn, &ff))
			return 0;
		fr = arena_alloc(s, sizeof(*fr));
		fr->function = arena_strdup(s, fn);
		fr->file = arena_strdup(s, ff ? ff : "??");
		fr->line = 0;
		fr->discriminator = 0;
		*out = fr;
		return 1;
	}
	{
		Dwarf_Half version = 0;
		Dwarf_Files *lf;
		size_t idx;

		/*
		 * binutils 2.40's addr2line (perf's) starts each sequence of a DWARF 5 line
		 * program with file 0 (the CU's primary file) instead of the register's initial
		 * 1, so rows before the first DW_LNS_set_file are named after the .c file.
		 */
		if (dwarf_cu_info(cudie.cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) == 0 &&
		    version >= 5 && dwarf_line_file(dl, &lf, &idx) == 0 && idx == 1 &&
		    implicit_file_row(&cudie, dl)) {
			const char *f0 = srcfile__name(&cudie, 0, &fsb);

			if (f0)
				file = f0;
		}
		dwarf_linediscriminator(dl, &disc);
	}
	/*
	 * The call chain is the physical nesting of the innermost function instance
	 * (dwarf_getscopes_die), as eu-addr2line -i walks it.
	 */
	{
		unsigned int budget = SCOPE_WALK_BUDGET;
		Dwarf_Die inner = { 0 };

		if (innermost_function(&cudie, a - bias, 0, &budget, &inner) > 0 && inner.addr) {
			nscopes = dwarf_getscopes_die(&inner, &scopes);
			if (nscopes < 0)
				nscopes = 0;
		}
	}
	cap = (unsigned int)nscopes + 1;
	fr = arena_alloc(s, cap * sizeof(*fr));
	fr[0].file = arena_strdup(s, file);
	fr[0].line = (unsigned int)lineno;
	fr[0].function = NULL;
	fr[0].discriminator = disc;
	n = 1;
	dwarf_getsrcfiles(&cudie, &files, &nfiles);
	mangled_lang = !non_mangled_lang(dwarf_srclang(&cudie));
	for (int i = 0; i < nscopes; i++) {
		int tag = dwarf_tag(&scopes[i]);
		Dwarf_Attribute at;
		Dwarf_Word cf = 0, cl = 0, cd = 0;
		const char *fn, *cfile = NULL;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		/*
		 * binutils 2.40 does not resolve DW_FORM_rnglistx (clang's DWARF 5 ranges) for
		 * functions: such an inline instance does not exist for addr2line, and so for perf.
		 */
		if (tag == DW_TAG_inlined_subroutine && dwarf_attr(&scopes[i], DW_AT_ranges, &at) &&
		    dwarf_whatform(&at) == DW_FORM_rnglistx)
			continue;
		fn = die_name(&scopes[i]);
		if (mangled_lang && !has_linkage_name(&scopes[i]) && sec) {
			/*
			 * binutils: a C++ function DWARF gives no linkage name for takes the ELF
			 * symbol's name, at level 0 the nearest symbol (even the caller's, for an
			 * inlined one), above it the symbol starting where the function starts.
			 */
			const char *sn = NULL, *sf = NULL;
			Dwarf_Addr lo;

			if (n == 1) {
				if (bfd_find_function(d, sec, addr, &sn, &sf))
					fn = sn;
			} else if (dwarf_entrypc(&scopes[i], &lo) == 0 &&
				   bfd_find_function(d, sec, lo + bias - (a - addr), &sn, &sf) &&
				   bfd_sym_starts_at(d, sn, lo + bias - (a - addr))) {
				fn = sn;
			}
		}
		fr[n - 1].function = arena_strdup(s, fn ? fn : "??");
		if (tag == DW_TAG_subprogram)
			break;
		/* an inlined call: the next level is the caller, at the call site */
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &at), &cf) == 0 &&
		    files) {
			cfile = srcfile__name(&cudie, cf, &fsb);
			if (!cfile)	/* libdw's placeholder for DWARF 4's 0, as it was */
				cfile = dwarf_filesrc(files, cf, NULL, NULL);
		}
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &at), &cl);
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_GNU_discriminator, &at), &cd);
		fr[n].file = arena_strdup(s, cfile ? cfile : "??");
		fr[n].line = (unsigned int)cl;
		fr[n].function = NULL;
		fr[n].discriminator = (unsigned int)cd;
		n++;
	}
	free(scopes);
	if (!fr[0].function) {
		/* a line but no function DIE (assembly): addr2line names the ELF symbol */
		const char *fn = NULL, *ff = NULL;

		if (sec && bfd_find_function(d, sec, addr, &fn, &ff))
			fr[0].function = arena_strdup(s, fn);
	}
	for (unsigned int i = 0; i < n; i++)
		if (!fr[i].function)
			fr[i].function = "??";
	strbuf__release(&fsb);
	*out = fr;
	return n;
}

static uint64_t objdump_addr(const struct symbols_dso *d, const struct symbols_map *map,
			     uint64_t addr)
{
	if (d->kind == SYMBOLS_DSO_KERNEL) {
		/* identity map: ip; a vmlinux is at link-time addresses: take the KASLR shift off
		 */
		if (d->kernel_vmlinux && map->ref_reloc && d->kernel_ref_found)
			return addr + (d->kernel_ref - map->ref_reloc);
		return addr;
	}
	if (d->kind == SYMBOLS_DSO_MODULE)
		return d->module_ko ? addr - map->pgoff : addr; /* rel: rip - pgoff */
	if (!d->adjust_symbols)
		return addr;
	return addr + d->text_offset;
}

/*
 * The kernel's reference symbol (the name after "[kernel.kallsyms]" in its MMAP, "_text" or
 * "_stext") in the symbols' own terms: a vmlinux's link-time address, or the address in the
 * kallsyms used.  With the recorded runtime address (the MMAP's pgoff) it gives the shift perf
 * applies: a vmlinux relocated by KASLR (map->reloc), or another boot's kallsyms moved to the
 * recorded layout (kallsyms__delta).  The first symbol of that name in file order, even one
 * fixup_duplicate dropped, as kallsyms__get_function_start reads the file.
 */
static void kernel_ref(struct symbols_dso *d, const struct symbols_map *map)
{
	if (d->kind != SYMBOLS_DSO_KERNEL || d->kernel_ref_done || !map->ref_reloc ||
	    !map->ref_reloc_name || !map->ref_reloc_name[0])
		return;
	d->kernel_ref_done = true;
	for (unsigned int i = 0; i < d->nr_refs; i++)
		if (!strcmp(d->ref_names[i], map->ref_reloc_name)) {
			d->kernel_ref = d->ref_addrs[i];
			d->kernel_ref_found = true;
			return;
		}
	for (size_t i = 0; i < d->nr_syms; i++)
		if (!strcmp(d->syms[i].name, map->ref_reloc_name)) {
			d->kernel_ref = d->syms[i].start;
			d->kernel_ref_found = true;
			return;
		}
}

int symbols__lookup(struct symbols *s, struct symbols_dso *d, const struct symbols_map *map,
		    uint64_t addr, struct symbols_loc *loc)
{
	struct loc_ent *e;
	size_t bkt;
	const struct sym *sy;
	uint64_t symaddr = addr, rel = 0;
	struct symbols_frame *frames = NULL;
	char *txt;

	memset(loc, 0, sizeof(*loc));
	if (!map || !d) {
		loc->srcline = SRCLINE_UNKNOWN;
		loc->objdump_addr = addr;
		loc->map_addr = addr;
		return 0;
	}
	if (!d->cache_size) {
		d->cache_size = 256;
		d->cache = xcalloc(d->cache_size, sizeof(*d->cache));
	}
	bkt = (addr * 0x9e3779b97f4a7c15ULL) >> 40 & (d->cache_size - 1);
	for (e = d->cache[bkt]; e; e = e->next)
		if (e->addr == addr) {
			*loc = e->loc;
			return 0;
		}

	dso__load(s, d);
	kernel_ref(d, map);
	if (d->kind == SYMBOLS_DSO_KERNEL && d->kernel_ref_found && map->ref_reloc)
		rel = d->kernel_ref - map->ref_reloc; /* symbol space minus runtime */
	loc->map_addr = addr;
	if (d->kind == SYMBOLS_DSO_KERNEL && d->kernel_vmlinux && d->vmlinux_text_size) {
		/* perf's kernel map is now .text, moved by the KASLR shift, at file offsets */
		uint64_t text_rt = d->vmlinux_text_addr - rel;

		if (addr < text_rt || addr - text_rt >= d->vmlinux_text_size) {
			uint64_t link = addr + rel;
			const struct vsec *v = NULL;

			for (size_t i = 0; i < d->nr_vsecs && !v; i++)
				if (link >= d->vsecs[i].addr &&
				    link - d->vsecs[i].addr < d->vsecs[i].size)
					v = &d->vsecs[i];
			if (!v) {
				loc->no_map = true;
				loc->srcline = SRCLINE_UNKNOWN;
				loc->objdump_addr = addr;
				goto cache;
			}
			/* one of perf's extra maps: no source lines ("[..." names never get any) */
			loc->object = v->object;
			loc->map_addr = link - v->addr + v->off;
			loc->objdump_addr = loc->map_addr;
			sy = symtab__find(v->syms, v->root, link);
			if (sy) {
				loc->sym = sy->name;
				loc->sym_start = sy->start - link + loc->map_addr;
				loc->sym_is_object = sy->type == STT_OBJECT;
				txt = xasprintf("%s+%" PRIu64, sy->name,
						loc->map_addr - loc->sym_start);
			} else {
				txt = xasprintf("%s[%" PRIx64 "]", v->object, loc->map_addr);
			}
			loc->srcline = arena_strdup(s, txt);
			free(txt);
			goto cache;
		}
		loc->map_addr = addr - text_rt + d->vmlinux_text_off;
	}
	if (d->kind == SYMBOLS_DSO_MODULE && d->module_ko) {
		/* .text offsets; perf's al->addr is that plus .text's file offset */
		rel = -map->pgoff;
		loc->map_addr = addr - map->pgoff + d->module_text_off;
	} else if (d->kind == SYMBOLS_DSO_MODULE) {
		rel = map->identity ? 0 : map->start - map->pgoff; /* kallsyms: runtime address */
	}
	symaddr = addr + rel;
	sy = symtab__find(d->syms, d->sym_root, symaddr);
	if (sy) {
		loc->sym = sy->name;
		loc->sym_start = sy->start - symaddr + loc->map_addr;
		loc->sym_is_object = sy->type == STT_OBJECT;
	}
	loc->objdump_addr = objdump_addr(d, map, addr);
	dso__open_dwfl(s, d);
	loc->nr_frames = dwfl_frames(s, d, loc->objdump_addr, &frames);
	loc->frames = frames;
	if (loc->nr_frames) {
		const char *f = frames[0].file;

		if (!s->opts.full_srcline) {
			const char *b = strrchr(f, '/');

			f = b ? b + 1 : f;
		}
		/* addr2line's "FILE:?" is read by perf as line 0 */
		txt = xasprintf("%s:%u", f, frames[0].line);
	} else if (sy) {
		txt = xasprintf("%s+%" PRIu64, sy->name, loc->map_addr - loc->sym_start);
	} else {
		txt = xasprintf("%s[%" PRIx64 "]", d->short_name, loc->objdump_addr);
	}
	loc->srcline = arena_strdup(s, txt);
	free(txt);
cache:

	if (d->nr_cache * 2 >= d->cache_size) {
		size_t nsize = d->cache_size * 2;
		struct loc_ent **nv = xcalloc(nsize, sizeof(*nv));

		for (size_t i = 0; i < d->cache_size; i++)
			while ((e = d->cache[i])) {
				size_t nb = (e->addr * 0x9e3779b97f4a7c15ULL) >> 40 & (nsize - 1);

				d->cache[i] = e->next;
				e->next = nv[nb];
				nv[nb] = e;
			}
		free(d->cache);
		d->cache = nv;
		d->cache_size = nsize;
		bkt = (addr * 0x9e3779b97f4a7c15ULL) >> 40 & (d->cache_size - 1);
	}
	e = xmalloc(sizeof(*e));
	e->addr = addr;
	e->loc = *loc;
	e->next = d->cache[bkt];
	d->cache[bkt] = e;
	d->nr_cache++;
	return 0;
}

int symbols__format_sym(char *buf, size_t size, char level, const struct symbols_loc *loc,
			uint64_t addr)
{
	if (loc)
		addr = loc->map_addr;
	if (loc && loc->sym) {
		if (loc->sym_is_object)
			return snprintf(buf, size, "[%c] %s+0x%" PRIx64, level, loc->sym,
					addr - loc->sym_start);
		return snprintf(buf, size, "[%c] %s", level, loc->sym);
	}
	return snprintf(buf, size, "[%c] %#.*" PRIx64, level, 16, addr);
}

int symbols__lookup_objdump(struct symbols *s, struct symbols_dso *d, uint64_t objdump_addr,
			    struct symbols_loc *loc)
{
	struct symbols_map map = {0};

	dso__load(s, d);
	if (d->kind == SYMBOLS_DSO_USER || d->kind == SYMBOLS_DSO_VDSO)
		return symbols__lookup(
		    s, d, &map, objdump_addr - (d->adjust_symbols ? d->text_offset : 0), loc);
	map.identity = true;
	return symbols__lookup(s, d, &map, objdump_addr, loc);
}

int symbols__percpu_var(struct symbols *s, struct symbols_dso *d, uint64_t offset,
			const char **name, uint64_t *var_offset, uint64_t *size)
{
	if (!d || d->kind != SYMBOLS_DSO_KERNEL)
		return 1;
	dso__load(s, d);
	for (size_t i = 0; i < d->nr_vsecs; i++) {
		const struct vsec *v = &d->vsecs[i];
		const struct sym *best = NULL;

		if (strcmp(v->object, "[kernel.kallsyms].data..percpu") || offset >= v->size)
			continue;
		/* the variable whose [start, start + size) holds the offset; else the closest
		 * one below it that has no size */
		for (size_t k = 0; k < v->nr; k++) {
			const struct sym *sy = &v->syms[k];
			uint64_t start = sy->start - v->addr;

			if (start > offset)
				continue;
			if (sy->end > sy->start && offset < sy->end - v->addr) {
				best = sy;
				break;
			}
			if (sy->end == sy->start && (!best || sy->start > best->start))
				best = sy;
		}
		if (!best)
			return 1;
		*name = best->name;
		*var_offset = best->start - v->addr;
		*size = best->end - best->start;
		return 0;
	}
	return 1;
}
