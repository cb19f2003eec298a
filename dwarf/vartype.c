// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "dwarf/vartype.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf/debuginfo.h"
#include "dwarf/symbols.h"
#include "util/file.h"
#include "util/xalloc.h"

struct sym_entry {
	uint64_t hash;
	const char *name;	/* points into the ELF's string table (lives with the Elf) */
	uint64_t dwfl_addr;	/* the symbol's address as libdwfl lays the object out */
	uint64_t value;		/* st_value in the file */
	uint64_t rel;		/* where a perf-style symbolizer puts it: its file offset */
	uint64_t size;
	uint32_t shndx;
	int type;
};

/* Cached answer: key = hash(sym) ^ off * prime ^ kind. */
struct cached {
	uint64_t key;
	int rc;
	struct vartype_answer a;
};

struct vt_file {
	char *path;
	int rc;			/* VT_OK when open */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	int fd;
	Elf *elf;		/* the file itself, for code bytes and raw symbol values */
	bool rel;		/* ET_REL (a .ko) */
	struct sym_entry *syms;	/* sorted by hash */
	size_t nr_syms;
	struct cached *cache;
	size_t nr_cache, cap_cache;
	struct var_entry *vars;	/* by address, made on first use (vars_made) */
	size_t nr_vars;
	bool vars_made;
};

/*
 * A variable at a fixed address (DW_OP_addr): a global, a file's static, a function's; or a
 * piece of one (clang -O2 makes a static struct's members globals of their own, stats.0 and
 * stats.1: DW_OP_addr A, DW_OP_piece 8, DW_OP_addr B, DW_OP_piece 8).
 */
struct var_entry {
	uint64_t addr;		/* libdwfl's address space */
	uint64_t piece;		/* where in the variable the bytes at @addr are */
	Dwarf_Die die;
	const char *scope;	/* the function a static is local to, NULL at file scope */
};

struct vartype {
	struct vt_file **files;
	size_t nr_files, cap_files;
	char **strings;
	size_t nr_strings, cap_strings;
	csh cs;
	bool cs_open;
};

static const char *keep(struct vartype *vt, char *s)
{
	vt->strings = xgrow(vt->strings, &vt->cap_strings, vt->nr_strings + 1,
			    sizeof(*vt->strings));
	vt->strings[vt->nr_strings++] = s;
	return s;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

struct vartype *vartype__new(void)
{
	struct vartype *vt = xcalloc(1, sizeof(*vt));

	vt->cs_open = cs_open(CS_ARCH_X86, CS_MODE_64, &vt->cs) == CS_ERR_OK;
	if (vt->cs_open)
		cs_option(vt->cs, CS_OPT_DETAIL, CS_OPT_ON);
	return vt;
}

void vartype__delete(struct vartype *vt)
{
	if (!vt)
		return;
	for (size_t i = 0; i < vt->nr_files; i++) {
		struct vt_file *f = vt->files[i];

		if (f->dwfl)
			dwfl_end(f->dwfl);
		if (f->elf)
			elf_end(f->elf);
		if (f->fd >= 0)
			close(f->fd);
		free(f->syms);
		free(f->vars);
		free(f->cache);
		free(f->path);
		free(f);
	}
	free(vt->files);
	for (size_t i = 0; i < vt->nr_strings; i++)
		free(vt->strings[i]);
	free(vt->strings);
	if (vt->cs_open)
		cs_close(&vt->cs);
	free(vt);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;

	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

/*
 * Where dwarf/symbols.h, as perf does, puts a symbol of value @value in section @shndx: its
 * address less the load segment's (or the section's) offset from the file.  For an ET_REL
 * object, its value.
 */
static uint64_t sym_rel(const struct vt_file *f, uint64_t value, uint32_t shndx)
{
	size_t n;
	GElf_Phdr ph;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (f->rel)
		return value;
	if (elf_getphdrnum(f->elf, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			uint64_t sz;

			if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			sz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
			if (sz && value >= ph.p_vaddr && value < ph.p_vaddr + sz)
				return value - (ph.p_vaddr - ph.p_offset);
		}
	}
	scn = elf_getscn(f->elf, shndx);
	return scn && gelf_getshdr(scn, &sh) ? value - (sh.sh_addr - sh.sh_offset) : value;
}

static void load_symbols(struct vartype *vt, struct vt_file *f)
{
	int n = dwfl_module_getsymtab(f->mod);
	size_t cap = 0;

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf,
							   &bias);
		int type = GELF_ST_TYPE(sym.st_info);
		char *dm;

		if (!name || !*name || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE &&
		    type != STT_TLS)
			continue;
		f->syms = xgrow(f->syms, &cap, f->nr_syms + 2, sizeof(*f->syms));
		f->syms[f->nr_syms++] = (struct sym_entry){ hash_str(name), name, addr, sym.st_value,
							    sym_rel(f, sym.st_value, shndx),
							    sym.st_size, shndx, type };
		/* callers name C++ code as perf does (demangled): found by that name too */
		dm = name[0] == '_' && name[1] == 'Z' ? symbols__demangle(name) : NULL;
		if (dm) {
			f->syms[f->nr_syms] = f->syms[f->nr_syms - 1];
			f->syms[f->nr_syms].name = keep(vt, dm);
			f->syms[f->nr_syms++].hash = hash_str(dm);
		}
	}
	if (f->nr_syms)
		qsort(f->syms, f->nr_syms, sizeof(*f->syms), sym_cmp);
}

/*
 * The symbol @name of @f; of several (a static of that name in each of two files, two
 * functions' `static struct stats s`), the one at @start (sym_rel's), else the first.
 */
static const struct sym_entry *find_sym(const struct vt_file *f, const char *name,
					uint64_t start)
{
	uint64_t h = hash_str(name);
	size_t lo = 0, hi = f->nr_syms;
	const struct sym_entry *first = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < f->nr_syms && f->syms[lo].hash == h; lo++) {
		if (strcmp(f->syms[lo].name, name))
			continue;
		if (!start || f->syms[lo].rel == start)
			return &f->syms[lo];
		if (!first)
			first = &f->syms[lo];
	}
	return first;
}

static struct vt_file *get_file(struct vartype *vt, const char *path)
{
	struct vt_file *f;
	char err[512];
	Dwarf_Addr bias;
	GElf_Ehdr eh;

	for (size_t i = 0; i < vt->nr_files; i++)
		if (!strcmp(vt->files[i]->path, path))
			return vt->files[i];
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->fd = -1;
	vt->files = xgrow(vt->files, &vt->cap_files, vt->nr_files + 1, sizeof(*vt->files));
	vt->files[vt->nr_files++] = f;

	elf_version(EV_CURRENT);
	f->fd = file__open_regular(path);
	if (f->fd < 0 || !(f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL)) ||
	    !gelf_getehdr(f->elf, &eh)) {
		f->rc = VT_NO_FILE;
		return f;
	}
	f->rel = eh.e_type == ET_REL;
	switch (debuginfo__open(path, &f->dwfl, &f->mod, &f->dw, err, sizeof(err))) {
	case 0:
		break;
	case -ENODATA:
		f->rc = VT_NO_DEBUGINFO;
		return f;
	default:
		f->rc = VT_NO_FILE;
		return f;
	}
	(void)bias;
	load_symbols(vt, f);
	return f;
}

static struct cached *cache_find(struct vt_file *f, uint64_t key)
{
	for (size_t i = 0; i < f->nr_cache; i++)
		if (f->cache[i].key == key)
			return &f->cache[i];
	return NULL;
}

static int cache_put(struct vt_file *f, uint64_t key, int rc, const struct vartype_answer *a)
{
	/* A bounded linear cache: samples repeat a few hot IPs and variables. */
	if (f->nr_cache < 4096) {
		f->cache = xgrow(f->cache, &f->cap_cache, f->nr_cache + 1, sizeof(*f->cache));
		f->cache[f->nr_cache].key = key;
		f->cache[f->nr_cache].rc = rc;
		if (a)
			f->cache[f->nr_cache].a = *a;
		f->nr_cache++;
	}
	return rc;
}

/* --- types --- */

static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute at;

	if (!dwarf_attr_integrate(die, DW_AT_type, &at))
		return NULL;
	return dwarf_formref_die(&at, out);
}

/* Skip typedefs, const, volatile, restrict, atomic. */
static Dwarf_Die *strip(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die cur = *die;

	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type) {
			*out = cur;
			return out;
		}
		if (!type_of(&cur, &cur))
			return NULL;
	}
	return NULL;
}

static uint64_t die_size(Dwarf_Die *die)
{
	Dwarf_Word sz;

	return dwarf_aggregate_size(die, &sz) == 0 ? sz : 0;
}

/*
 * The typedef naming anonymous struct @die (`typedef struct { ... } T;`, as C libraries and
 * Phoenix write them): a typedef directly under its unit whose type is @die, or NULL.
 */
static const char *typedef_of(Dwarf_Die *die)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	Dwarf_Die cu, child, t;

	if (!dwarf_diecu(die, &cu, NULL, NULL) || dwarf_child(&cu, &child))
		return NULL;
	do {
		if (dwarf_tag(&child) == DW_TAG_typedef && dwarf_diename(&child) &&
		    type_of(&child, &t) && dwarf_dieoffset(&t) == off &&
		    dwarf_cu_getdwarf(t.cu) == dwarf_cu_getdwarf(die->cu))
			return dwarf_diename(&child);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/*
 * "struct NAME" / "union NAME" for a named struct/union DIE, the typedef's name for an
 * anonymous one that a typedef names (pahole's name for it), else NULL.
 */
static char *struct_name(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);
	const char *name = dwarf_diename(die);

	if (dwarf_hasattr(die, DW_AT_declaration))
		return NULL;
	if (!name) {
		name = tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
		       tag == DW_TAG_class_type ? typedef_of(die) : NULL;
		return name ? xstrdup(name) : NULL;
	}
	if (tag == DW_TAG_structure_type)
		return xasprintf("struct %s", name);
	if (tag == DW_TAG_union_type)
		return xasprintf("union %s", name);
	if (tag == DW_TAG_class_type)
		return xasprintf("class %s", name);
	return NULL;
}

static bool struct_name_ok(Dwarf_Die *die)
{
	char *n = struct_name(die);
	bool ok = n != NULL;

	free(n);
	return ok;
}

/* A base or pointer type's C name, roughly, for scalar globals. */
static char *scalar_name(Dwarf_Die *die)
{
	Dwarf_Die t;
	const char *name = dwarf_diename(die);

	if (name)
		return xstrdup(name);
	if (dwarf_tag(die) == DW_TAG_pointer_type)
		return type_of(die, &t) && dwarf_diename(&t) ?
			       xasprintf("%s *", dwarf_diename(&t)) : xstrdup("void *");
	return xstrdup("?");
}

/* A function of @cu holds @pc (a -g0 object's code can fall in another CU's wide range). */
static bool cu_has_function(Dwarf_Die *cu, Dwarf_Addr pc)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_haspc(&child, pc) > 0)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * The CU with a function whose code covers @addr: libdwfl's lookup (aranges), else a scan of
 * the CUs (clang emits no .debug_aranges, and a -g0 object's code can fall inside another
 * CU's wide range).  NULL when no function has it: the code has no debug info.
 */
static Dwarf_Die *cu_of(struct vt_file *f, Dwarf_Addr addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(f->mod, addr, bias);

	if (cu && cu_has_function(cu, addr - *bias))
		return cu;
	cu = NULL;
	while ((cu = dwfl_module_nextcu(f->mod, cu, bias)))
		if (dwarf_haspc(cu, addr - *bias) > 0 && cu_has_function(cu, addr - *bias))
			return cu;
	return NULL;
}

/* The address a DW_OP_addr or DW_OP_addrx (DWARF 5, clang) operation names. */
static bool op_address(Dwarf_Attribute *at, Dwarf_Op *op, Dwarf_Addr *out)
{
	Dwarf_Attribute res;

	if (op->atom == DW_OP_addr) {
		*out = op->number;
		return true;
	}
	if (op->atom == DW_OP_addrx || op->atom == DW_OP_GNU_addr_index ||
	    op->atom == DW_OP_constx) {
		return dwarf_getlocation_attr(at, op, &res) == 0 && dwarf_formaddr(&res, out) == 0;
	}
	return false;
}

/* The object symbol covering @addr (libdwfl's address space), or NULL. */
static const struct sym_entry *find_sym_at(const struct vt_file *f, uint64_t addr)
{
	for (size_t i = 0; i < f->nr_syms; i++) {
		const struct sym_entry *e = &f->syms[i];

		if (e->type == STT_OBJECT && addr >= e->dwfl_addr &&
		    addr - e->dwfl_addr < (e->size ? e->size : 1))
			return e;
	}
	return NULL;
}

/* --- globals --- */

static int var_cmp(const void *a, const void *b)
{
	const struct var_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The variables with a fixed address under @parent (into functions and blocks), into @f. */
static void vars_collect(struct vt_file *f, Dwarf_Die *parent, Dwarf_Addr bias,
			 const char *scope, int depth, size_t *cap)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute at;
		Dwarf_Op *expr;
		size_t len;
		Dwarf_Addr va;

		if (tag == DW_TAG_variable && dwarf_attr(&child, DW_AT_location, &at) &&
		    dwarf_getlocation(&at, &expr, &len) == 0) {
			/* an address, or pieces each at an address or nowhere (optimised out) */
			uint64_t piece = 0;
			bool located = false;

			for (size_t i = 0; i < len; i++) {
				if (op_address(&at, &expr[i], &va) && !located &&
				    (i + 1 == len || expr[i + 1].atom == DW_OP_piece)) {
					f->vars = xgrow(f->vars, cap, f->nr_vars + 1,
							sizeof(*f->vars));
					f->vars[f->nr_vars++] = (struct var_entry){
						va + bias, piece, child, scope
					};
					located = true;
				} else if (expr[i].atom == DW_OP_piece) {
					piece += expr[i].number;
					located = false;
				} else {
					break;	/* TLS, a register: no address of its own */
				}
			}
		} else if (tag == DW_TAG_subprogram) {
			vars_collect(f, &child, bias, dwarf_diename(&child), depth + 1, cap);
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_namespace) {
			vars_collect(f, &child, bias, scope, depth + 1, cap);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * The DW_TAG_variable at @addr (libdwfl's space), in any CU, at any depth: a function's
 * `static struct stats s` too, whose symbol is no name of DWARF's (gcc: s.0, s.1).  Else one
 * named @name at the top of a CU whose location is more than an address (TLS).  *@scope: the
 * function a static is local to, NULL at file scope; *@piece: where in the variable @addr is
 * (a piece of a split struct), else 0.
 */
static bool find_variable(struct vt_file *f, const char *name, Dwarf_Addr addr, Dwarf_Die *out,
			  const char **scope, uint64_t *piece)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	size_t lo = 0, hi;

	if (!f->vars_made) {
		size_t cap = 0;

		f->vars_made = true;
		while ((cu = dwfl_module_nextcu(f->mod, cu, &bias)))
			vars_collect(f, cu, bias, NULL, 0, &cap);
		if (f->nr_vars)
			qsort(f->vars, f->nr_vars, sizeof(*f->vars), var_cmp);
	}
	hi = f->nr_vars;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->vars[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nr_vars && f->vars[lo].addr == addr) {
		*out = f->vars[lo].die;
		if (scope)
			*scope = f->vars[lo].scope;
		if (piece)
			*piece = f->vars[lo].piece;
		return true;
	}
	if (scope)
		*scope = NULL;
	if (piece)
		*piece = 0;
	while ((cu = dwfl_module_nextcu(f->mod, cu, &bias))) {
		Dwarf_Die child;

		if (dwarf_child(cu, &child) != 0)
			continue;
		do {
			Dwarf_Attribute at;
			Dwarf_Op *expr;
			size_t len;
			const char *n;
			Dwarf_Addr va;

			if (dwarf_tag(&child) != DW_TAG_variable)
				continue;
			n = dwarf_diename(&child);
			if (!n || strcmp(n, name))
				continue;
			if (!dwarf_attr(&child, DW_AT_location, &at) ||
			    dwarf_getlocation(&at, &expr, &len) != 0 || len < 2 ||
			    !op_address(&at, &expr[0], &va))
				continue;
			*out = child;
			return true;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return false;
}

int vartype__global(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		    uint64_t off, struct vartype_answer *out)
{
	struct vt_file *f = get_file(vt, path);
	const struct sym_entry *se;
	uint64_t key;
	struct cached *c;
	Dwarf_Die var, t, elem;
	struct vartype_answer a = { 0 };
	const char *name, *scope, *in;
	uint64_t piece;
	char *tn;

	if (f->rc)
		return f->rc;
	key = hash_str(sym) ^ (off * 0x9e3779b97f4a7c15ULL) ^ (start * 0xc2b2ae3d27d4eb4fULL) ^ 1;
	c = cache_find(f, key);
	if (c) {
		*out = c->a;
		return c->rc;
	}
	se = find_sym(f, sym, start);
	if (!se)
		return cache_put(f, key, VT_NO_SYMBOL, NULL);
	if (!find_variable(f, sym, se->dwfl_addr, &var, &scope, &piece) || !type_of(&var, &t) ||
	    !strip(&t, &t))
		return cache_put(f, key, VT_NO_VARIABLE, NULL);
	/*
	 * A piece of a split struct lies @piece into the variable, wherever it is: its members
	 * are named right, though each piece's bytes seem an instance of their own when the
	 * pieces are not laid out in the variable's order.
	 */
	off += piece;
	/* DWARF's name: a function's static is s.0 to the symbol table */
	name = dwarf_diename(&var) ? dwarf_diename(&var) : sym;
	a.var = keep(vt, xstrdup(name));
	in = scope ? keep(vt, xasprintf(" (static in %s)", scope)) : "";
	a.offset = (int64_t)off;
	a.size = die_size(&t);
	if (dwarf_tag(&t) == DW_TAG_array_type && type_of(&t, &elem) && strip(&elem, &elem)) {
		uint64_t es;

		/* an array of a typedef'd array (`arr8 x[2]`) is one of their elements */
		for (int i = 0; i < 16 && dwarf_tag(&elem) == DW_TAG_array_type; i++)
			if (!type_of(&elem, &elem) || !strip(&elem, &elem))
				return cache_put(f, key, VT_NO_VARIABLE, NULL);
		es = die_size(&elem);

		tn = struct_name(&elem);
		if (tn && es) {
			/* An array of structs: each element is an instance. */
			a.type = keep(vt, tn);
			a.offset = (int64_t)(off % es);
			a.size = es;
			a.origin = keep(vt, xasprintf("var %s[%" PRIu64 "]%s", name, off / es, in));
		} else {
			free(tn);
			tn = scalar_name(&elem);
			a.type = keep(vt, xasprintf("%s[%" PRIu64 "]", tn, es ? a.size / es : 0));
			free(tn);
			a.scalar = true;
			a.elem_size = es;
			a.origin = keep(vt, xasprintf("var %s%s", name, in));
		}
	} else {
		tn = struct_name(&t);
		if (tn) {
			a.type = keep(vt, tn);
		} else {
			a.type = keep(vt, scalar_name(&t));
			a.scalar = true;
		}
		a.origin = keep(vt, xasprintf("var %s%s", name, in));
	}
	*out = a;
	return cache_put(f, key, VT_OK, &a);
}

/* --- operands --- */

/* DWARF x86-64 register number of a capstone register (any width), -1 if none. */
static int dwarf_reg(x86_reg r)
{
	switch (r) {
	case X86_REG_RAX: case X86_REG_EAX: return 0;
	case X86_REG_RDX: case X86_REG_EDX: return 1;
	case X86_REG_RCX: case X86_REG_ECX: return 2;
	case X86_REG_RBX: case X86_REG_EBX: return 3;
	case X86_REG_RSI: case X86_REG_ESI: return 4;
	case X86_REG_RDI: case X86_REG_EDI: return 5;
	case X86_REG_RBP: case X86_REG_EBP: return 6;
	case X86_REG_RSP: case X86_REG_ESP: return 7;
	case X86_REG_R8: case X86_REG_R8D: return 8;
	case X86_REG_R9: case X86_REG_R9D: return 9;
	case X86_REG_R10: case X86_REG_R10D: return 10;
	case X86_REG_R11: case X86_REG_R11D: return 11;
	case X86_REG_R12: case X86_REG_R12D: return 12;
	case X86_REG_R13: case X86_REG_R13D: return 13;
	case X86_REG_R14: case X86_REG_R14D: return 14;
	case X86_REG_R15: case X86_REG_R15D: return 15;
	default: return -1;
	}
}

static const char *const reg_names[16] = { "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp",
					   "rsp", "r8", "r9", "r10", "r11", "r12", "r13",
					   "r14", "r15" };

/* The code bytes at a symbol + offset, from the file itself. */
static const uint8_t *code_at(struct vt_file *f, const struct sym_entry *se, uint64_t off,
			      size_t *len)
{
	Elf_Scn *scn = elf_getscn(f->elf, se->shndx);
	GElf_Shdr sh;
	Elf_Data *d;
	uint64_t at;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
		return NULL;
	d = elf_getdata(scn, NULL);
	at = (f->rel ? se->value : se->value - sh.sh_addr) + off;
	if (!d || !d->d_buf || at >= d->d_size)
		return NULL;
	*len = d->d_size - at;
	return (const uint8_t *)d->d_buf + at;
}

struct candidate {
	char *type;
	const char *var;
	int64_t offset;
	uint64_t size;
	Dwarf_Die die;		/* the pointee struct */
	bool wrapper;		/* an anonymous struct named by its typedef (atomic_t): the
				 * member of a container more likely than the object itself */
	uint32_t spread;	/* paths that differ: @offset + a multiple of this (0: exact) */
};

/*
 * Does @die (a variable or parameter) live in register @reg at @pc, as the pointer itself
 * (DW_OP_regN: *k = 0) or as the register plus a constant (DW_OP_bregN k; DW_OP_stack_value)?
 */
static bool lives_in(Dwarf_Die *die, Dwarf_Addr pc, int reg, int64_t *k)
{
	Dwarf_Attribute at;
	Dwarf_Op *expr[8];
	size_t len[8];
	int n;

	if (!dwarf_attr_integrate(die, DW_AT_location, &at))
		return false;
	n = dwarf_getlocation_addr(&at, pc, expr, len, 8);
	for (int i = 0; i < n; i++) {
		if (len[i] == 1 && expr[i][0].atom == DW_OP_reg0 + reg) {
			*k = 0;
			return true;
		}
		if (len[i] == 1 && expr[i][0].atom == DW_OP_regx && expr[i][0].number == (unsigned)reg) {
			*k = 0;
			return true;
		}
		if (len[i] == 2 && expr[i][0].atom == DW_OP_breg0 + reg &&
		    expr[i][1].atom == DW_OP_stack_value) {
			*k = (int64_t)expr[i][0].number;
			return true;
		}
	}
	return false;
}

static void consider(Dwarf_Die *die, Dwarf_Addr pc, int reg, int64_t disp, struct candidate *best,
		     bool *any_in_reg)
{
	Dwarf_Die t, p;
	int64_t k;
	char *name;
	uint64_t size;
	int64_t offset;

	if (!lives_in(die, pc, reg, &k))
		return;
	*any_in_reg = true;
	/* the access is at reg + disp = (reg + k) + (disp - k); k is the file's, any 64 bits */
	if (!type_of(die, &t) || !strip(&t, &t) || dwarf_tag(&t) != DW_TAG_pointer_type ||
	    !type_of(&t, &p) || !strip(&p, &p) || __builtin_sub_overflow(disp, k, &offset))
		return;
	name = struct_name(&p);
	size = die_size(&p);
	if (!name || offset < 0 || (uint64_t)offset >= size) {
		free(name);
		return;
	}
	/* The largest struct that holds the offset: the caller's object, not a helper's member. */
	if (best->type && best->size >= size) {
		free(name);
		return;
	}
	free(best->type);
	best->type = name;
	best->var = dwarf_diename(die);
	best->offset = offset;
	best->size = size;
	best->die = p;
	best->wrapper = !dwarf_diename(&p);
}

/*
 * Every variable and parameter in scope at @pc, from the CU down through the function, its
 * lexical blocks and inlined calls (dwarf_getscopes leaves out the callers of an inlined
 * instance, where the interesting pointer usually lives).
 */
static void scan_pc(Dwarf_Die *parent, Dwarf_Addr pc, int depth, bool globals,
		    void (*fn)(Dwarf_Die *die, void *arg), void *arg)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if ((depth || globals) &&
		    (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter))
			fn(&child, arg);
		else if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
			  tag == DW_TAG_inlined_subroutine) && dwarf_haspc(&child, pc) > 0)
			scan_pc(&child, pc, depth + 1, globals, fn, arg);
	} while (dwarf_siblingof(&child, &child) == 0);
}

struct operand_scan {
	Dwarf_Addr pc;
	int reg;
	int64_t disp;
	struct candidate *best;
	bool any;
};

static void operand_var(Dwarf_Die *die, void *arg)
{
	struct operand_scan *os = arg;

	consider(die, os->pc, os->reg, os->disp, os->best, &os->any);
}


/*
 * Members member_pointee and only_place look at for one answer: a hostile object can nest a
 * struct in itself through hundreds of members, and the depth alone would leave members^depth.
 */
#define MEMBER_WALK_BUDGET (1u << 14)

/*
 * The pointer type of the member at byte @off of struct @st (anonymous members searched):
 * its pointee struct in *out.  For a pointer loaded from a member (mov 0x30(%rdi),%rax).
 * Gives up when *budget members have been looked at.
 */
static bool member_pointee(Dwarf_Die *st, uint64_t off, Dwarf_Die *out, int depth,
			   unsigned int *budget)
{
	Dwarf_Die child, t;

	if (depth > 4 || dwarf_child(st, &child) != 0)
		return false;
	do {
		Dwarf_Attribute at;
		Dwarf_Word loc;
		uint64_t sz;

		if (!*budget)
			return false;
		--*budget;
		if (dwarf_tag(&child) != DW_TAG_member ||
		    !dwarf_attr_integrate(&child, DW_AT_data_member_location, &at) ||
		    dwarf_formudata(&at, &loc) != 0 || loc > off)
			continue;
		if (!type_of(&child, &t) || !strip(&t, &t))
			continue;
		if (loc == off && dwarf_tag(&t) == DW_TAG_pointer_type)
			return type_of(&t, out) && strip(out, out) && struct_name_ok(out);
		sz = die_size(&t);
		if ((dwarf_tag(&t) == DW_TAG_structure_type || dwarf_tag(&t) == DW_TAG_union_type) &&
		    off - loc < sz && member_pointee(&t, off - loc, out, depth + 1, budget))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* A local's stack slot: [rbp + disp] or [rsp + disp], no index. */
static bool stack_slot(const cs_x86_op *op)
{
	return op->type == X86_OP_MEM && op->mem.index == X86_REG_INVALID &&
	       (op->mem.base == X86_REG_RBP || op->mem.base == X86_REG_RSP);
}

/*
 * One function decoded.  @pred, @first_pred: the instructions control can come to each one
 * from (made on first use by flow_make); @flow: 1 made, -1 unknown (an indirect jump).
 */
struct trace {
	struct vartype *vt;
	struct vt_file *f;
	Dwarf_Die *cu;
	Dwarf_Addr bias;
	cs_insn *insn;
	size_t n;
	int flow;
	size_t *pred, *first_pred;
};

/* A pointer loaded from a global (mov file(%rip),%r12): what the global points to. */
static bool global_pointer(struct trace *tr, const cs_insn *in, struct candidate *out)
{
	const cs_x86 *x = &in->detail->x86;
	uint64_t a = in->address + in->size + x->operands[1].mem.disp;
	const struct sym_entry *g = find_sym_at(tr->f, a);
	Dwarf_Die var, t, p;
	uint64_t piece;

	if (!g || a != g->dwfl_addr ||
	    !find_variable(tr->f, g->name, g->dwfl_addr, &var, NULL, &piece) || piece ||
	    !type_of(&var, &t) || !strip(&t, &t) || dwarf_tag(&t) != DW_TAG_pointer_type ||
	    !type_of(&t, &p) || !strip(&p, &p))
		return false;
	memset(out, 0, sizeof(*out));
	out->type = struct_name(&p);
	out->size = die_size(&p);
	out->die = p;
	out->var = g->name;
	return out->type != NULL;
}

/* The subprogram of @cu whose code holds @pc (functions nested in others are not seen). */
static bool function_at(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	if (dwarf_child(cu, out) != 0)
		return false;
	do {
		if (dwarf_tag(out) == DW_TAG_subprogram && dwarf_haspc(out, pc) > 0)
			return true;
	} while (dwarf_siblingof(out, out) == 0);
	return false;
}

/*
 * The frame base of the function at @pc as register + constant (*reg, *k): DW_OP_bregN k,
 * DW_OP_regN (k 0: clang's rbp), or DW_OP_call_frame_cfa, which the call frame information
 * puts in terms of a register (gcc's CFA = rbp + 16 after the prologue).
 */
static bool frame_base(struct trace *tr, Dwarf_Addr pc, int *reg, int64_t *k)
{
	Dwarf_Die fn;
	Dwarf_Attribute at;
	Dwarf_Op *expr, *cfa;
	size_t len, nr_cfa;
	Dwarf_CFI *cfi;
	Dwarf_Addr cfi_bias;
	Dwarf_Frame *frame;
	bool ok = false;

	if (!function_at(tr->cu, pc, &fn) || !dwarf_attr_integrate(&fn, DW_AT_frame_base, &at) ||
	    dwarf_getlocation_addr(&at, pc, &expr, &len, 1) != 1 || len != 1)
		return false;
	if (expr[0].atom >= DW_OP_breg0 && expr[0].atom <= DW_OP_breg15) {
		*reg = expr[0].atom - DW_OP_breg0;
		*k = (int64_t)expr[0].number;
		return true;
	}
	if (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg15) {
		*reg = expr[0].atom - DW_OP_reg0;
		*k = 0;
		return true;
	}
	if (expr[0].atom != DW_OP_call_frame_cfa)
		return false;
	cfi = dwfl_module_eh_cfi(tr->f->mod, &cfi_bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc + tr->bias - cfi_bias, &frame) != 0)
		return false;
	/* libdw gives a register + offset rule as DW_OP_bregx reg offset */
	if (dwarf_frame_cfa(frame, &cfa, &nr_cfa) == 0 && nr_cfa == 1) {
		if (cfa[0].atom == DW_OP_bregx && cfa[0].number < 16) {
			*reg = (int)cfa[0].number;
			*k = (int64_t)cfa[0].number2;
			ok = true;
		} else if (cfa[0].atom >= DW_OP_breg0 && cfa[0].atom <= DW_OP_breg15) {
			*reg = cfa[0].atom - DW_OP_breg0;
			*k = (int64_t)cfa[0].number;
			ok = true;
		}
	}
	free(frame);
	return ok;
}

struct slot_scan {
	Dwarf_Addr pc;
	int64_t fbreg;		/* the slot as an offset from the frame base */
	struct candidate *best;
};

/* A local whose home at @pc is the slot (DW_OP_fbreg N), a pointer to a struct. */
static void slot_var(Dwarf_Die *die, void *arg)
{
	struct slot_scan *ss = arg;
	Dwarf_Attribute at;
	Dwarf_Op *expr;
	size_t len;
	Dwarf_Die t, p;

	if (ss->best->type || !dwarf_attr_integrate(die, DW_AT_location, &at) ||
	    dwarf_getlocation_addr(&at, ss->pc, &expr, &len, 1) != 1 || len != 1 ||
	    expr[0].atom != DW_OP_fbreg || (int64_t)expr[0].number != ss->fbreg)
		return;
	if (!type_of(die, &t) || !strip(&t, &t) || dwarf_tag(&t) != DW_TAG_pointer_type ||
	    !type_of(&t, &p) || !strip(&p, &p))
		return;
	ss->best->type = struct_name(&p);
	ss->best->size = die_size(&p);
	ss->best->die = p;
	ss->best->var = dwarf_diename(die);
	ss->best->offset = 0;
}

/*
 * A pointer loaded from a stack slot (mov -0x20(%rbp),%rax: unoptimised code keeps every
 * local in memory): the local living in that slot at instruction @idx, by the function's
 * frame base.
 */
static bool slot_type(struct trace *tr, size_t idx, const cs_x86_op *op, struct candidate *out)
{
	Dwarf_Addr pc = tr->insn[idx].address - tr->bias;
	struct candidate best = { 0 };
	struct slot_scan ss = { pc, 0, &best };
	int reg;
	int64_t k;

	/* the slot is reg + disp = (reg + k) + (disp - k) */
	if (!frame_base(tr, pc, &reg, &k) || reg != dwarf_reg(op->mem.base) ||
	    __builtin_sub_overflow(op->mem.disp, k, &ss.fbreg))
		return false;
	scan_pc(tr->cu, pc, 0, false, slot_var, &ss);
	if (!best.type)
		return false;
	*out = best;
	return true;
}

static bool callee_saved(int reg)
{
	return reg == 3 || reg == 6 || (reg >= 12 && reg <= 15);
}

/* Whether instruction @in writes register @reg (DWARF number; a pop restores, no value). */
static bool writes_reg(struct trace *tr, const cs_insn *in, int reg)
{
	cs_regs rd, wr;
	uint8_t nr_rd, nr_wr;

	if (in->id == X86_INS_POP ||
	    cs_regs_access(tr->vt->cs, in, rd, &nr_rd, wr, &nr_wr) != CS_ERR_OK)
		return false;
	for (uint8_t i = 0; i < nr_wr; i++)
		if (dwarf_reg((x86_reg)wr[i]) == reg)
			return true;
	return false;
}

/*
 * The one instruction of the function that sets @reg, when there is exactly one and it comes
 * before @idx: a loop keeps a pointer computed before it in a callee-saved register across
 * the hooks' calls, and the only value the register can hold there is that one.
 */
static size_t unique_def(struct trace *tr, size_t idx, int reg)
{
	size_t def = SIZE_MAX;

	for (size_t j = 0; j < tr->n; j++) {
		if (!writes_reg(tr, &tr->insn[j], reg))
			continue;
		if (def != SIZE_MAX)
			return SIZE_MAX;
		def = j;
	}
	return def < idx ? def : SIZE_MAX;
}

/* The index of the instruction at @addr, or SIZE_MAX (the decoded code is in address order). */
static size_t insn_index(const struct trace *tr, uint64_t addr)
{
	size_t lo = 0, hi = tr->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tr->insn[mid].address < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tr->n && tr->insn[lo].address == addr ? lo : SIZE_MAX;
}

/*
 * Where control may go after instruction @j: *next (SIZE_MAX: nowhere, or out of the
 * function) and *target (a direct jump's, SIZE_MAX: none, or a tail call).  False where that is
 * unknown: an indirect jump, a jump into the middle of an instruction.
 */
static bool insn_successors(const struct trace *tr, size_t j, size_t *next, size_t *target)
{
	const cs_insn *in = &tr->insn[j];
	const cs_x86 *x = &in->detail->x86;
	const cs_insn *end = &tr->insn[tr->n - 1];
	bool jump = cs_insn_group(tr->vt->cs, in, CS_GRP_JUMP);
	uint64_t to;

	*next = j + 1 < tr->n ? j + 1 : SIZE_MAX;
	*target = SIZE_MAX;
	if (cs_insn_group(tr->vt->cs, in, CS_GRP_RET) || (jump && in->id == X86_INS_JMP))
		*next = SIZE_MAX;
	if (!jump)
		return true;
	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return false;
	to = (uint64_t)x->operands[0].imm;
	if (to < tr->insn[0].address || to >= end->address + end->size)
		return true;	/* a tail call */
	*target = insn_index(tr, to);
	return *target != SIZE_MAX;
}

/* The predecessors of every instruction, once: false when the control flow is unknown. */
static bool flow_make(struct trace *tr)
{
	size_t *count, succ[2];

	if (tr->flow)
		return tr->flow > 0;
	tr->flow = -1;
	if (!tr->n)
		return false;
	count = xcalloc(tr->n + 1, sizeof(*count));
	for (size_t j = 0; j < tr->n; j++) {
		if (!insn_successors(tr, j, &succ[0], &succ[1])) {
			free(count);
			return false;
		}
		for (int k = 0; k < 2; k++)
			if (succ[k] != SIZE_MAX)
				count[succ[k] + 1]++;
	}
	for (size_t j = 0; j < tr->n; j++)
		count[j + 1] += count[j];
	/* j's predecessors: pred[first_pred[j] .. first_pred[j + 1]) */
	tr->first_pred = count;
	tr->pred = xmalloc((count[tr->n] ? count[tr->n] : 1) * sizeof(*tr->pred));
	{
		size_t *fill = xmalloc(tr->n * sizeof(*fill));

		memcpy(fill, count, tr->n * sizeof(*fill));
		for (size_t j = 0; j < tr->n; j++) {
			insn_successors(tr, j, &succ[0], &succ[1]);
			for (int k = 0; k < 2; k++)
				if (succ[k] != SIZE_MAX)
					tr->pred[fill[succ[k]]++] = j;
		}
		free(fill);
	}
	tr->flow = 1;
	return true;
}

/*
 * Whether control can come to instruction @j other than from the one before it (an indirect
 * jump's targets are unknown: not as far as this says).
 */
static bool jump_target(struct trace *tr, size_t j)
{
	if (!flow_make(tr))
		return false;
	for (size_t k = tr->first_pred[j]; k < tr->first_pred[j + 1]; k++)
		if (tr->pred[k] + 1 != j)
			return true;
	return false;
}


/*
 * The writes to @reg whose value can be the one it holds at instruction @idx (reaching
 * definitions, walking the control flow back from @idx): their number, up to @max of them in
 * @defs; -1 when the value may also be another: the caller's (a path from the entry writes
 * nothing), a call's (@reg is one calls may clobber), or when the control flow is unknown.
 * The code before a loop's access ends in a jump, and a loop head is reached from two places:
 * what they agree on is known there all the same.
 */
static int reaching_defs(struct trace *tr, size_t idx, int reg, size_t *defs, int max)
{
	uint8_t *seen;
	size_t *stack, sp = 0;
	int n = 0;

	if (!flow_make(tr))
		return -1;
	seen = xcalloc(tr->n, 1);
	stack = xmalloc(tr->n * sizeof(*stack));
	if (idx == 0)
		n = -1;		/* the function's first instruction: the caller's value */
	for (size_t k = tr->first_pred[idx]; k < tr->first_pred[idx + 1]; k++)
		if (!seen[tr->pred[k]]) {
			seen[tr->pred[k]] = 1;
			stack[sp++] = tr->pred[k];
		}
	while (sp && n >= 0) {
		size_t j = stack[--sp];
		const cs_insn *in = &tr->insn[j];

		if (writes_reg(tr, in, reg)) {
			if (n < max)
				defs[n] = j;
			n++;
			continue;
		}
		if ((cs_insn_group(tr->vt->cs, in, CS_GRP_CALL) && !callee_saved(reg)) || j == 0) {
			n = -1;
			break;
		}
		for (size_t k = tr->first_pred[j]; k < tr->first_pred[j + 1]; k++)
			if (!seen[tr->pred[k]]) {
				seen[tr->pred[k]] = 1;
				stack[sp++] = tr->pred[k];
			}
	}
	free(stack);
	free(seen);
	return n > max ? -1 : n;
}

static bool reg_type(struct trace *tr, size_t idx, int reg, int depth, struct candidate *out);
static bool def_type(struct trace *tr, size_t j, int reg, int depth, struct candidate *out);

/*
 * A pointer reloaded from a frame slot no variable lives in (gcc -O2 spills &h->nr, computed
 * before a loop, around the collector's calls): the value the one store to that slot in the
 * whole function put there, when that store comes before @idx (a frame-pointer slot: rsp
 * moves with pushes).
 */
static bool spilled_type(struct trace *tr, size_t idx, const cs_x86_op *slot, int depth,
			 struct candidate *out)
{
	size_t store = SIZE_MAX;

	if (slot->mem.base != X86_REG_RBP)
		return false;
	for (size_t j = 0; j < tr->n; j++) {
		const cs_x86 *x = &tr->insn[j].detail->x86;

		if (x->op_count < 1 || x->operands[0].type != X86_OP_MEM ||
		    x->operands[0].mem.base != X86_REG_RBP ||
		    x->operands[0].mem.index != X86_REG_INVALID ||
		    x->operands[0].mem.disp != slot->mem.disp)
			continue;
		if (store != SIZE_MAX || tr->insn[j].id != X86_INS_MOV || x->op_count != 2 ||
		    x->operands[1].type != X86_OP_REG)
			return false;	/* written twice, or not by a register copy */
		store = j;
	}
	if (store == SIZE_MAX || store >= idx)
		return false;
	return reg_type(tr, store, dwarf_reg(tr->insn[store].detail->x86.operands[1].reg),
			depth + 1, out);
}

/* The type @reg holds after instruction @j, which sets it. */
static bool def_type(struct trace *tr, size_t j, int reg, int depth, struct candidate *out)
{
	const cs_insn *in = &tr->insn[j];
	const cs_x86 *x = &in->detail->x86;
	struct candidate up = { 0 };
	int src_reg;

	if (x->op_count != 2)
		return false;
	if (x->operands[1].type == X86_OP_REG && in->id == X86_INS_MOV) {
		src_reg = dwarf_reg(x->operands[1].reg);
		return src_reg >= 0 && src_reg != 7 && reg_type(tr, j, src_reg, depth + 1, out);
	}
	if (x->operands[1].type == X86_OP_IMM &&
	    (in->id == X86_INS_ADD || in->id == X86_INS_SUB)) {
		/* &p->member computed in place (add $0x8,%rax) */
		int64_t d = in->id == X86_INS_ADD ? x->operands[1].imm : -x->operands[1].imm;

		if (!reg_type(tr, j, reg, depth + 1, &up))
			return false;
		if (__builtin_add_overflow(up.offset, d, &up.offset) || up.offset < 0 ||
		    (uint64_t)up.offset >= up.size) {
			free(up.type);
			return false;
		}
		*out = up;
		return true;
	}
	if (x->operands[1].type == X86_OP_MEM && x->operands[1].mem.base == X86_REG_RIP &&
	    in->id == X86_INS_MOV)
		return global_pointer(tr, in, out);	/* mov file(%rip),%r12 */
	/* of the loads, only a copy (up->member) or an address (&up->member) keeps a pointer */
	if (x->operands[1].type != X86_OP_MEM || x->operands[1].mem.index != X86_REG_INVALID ||
	    x->operands[1].mem.base == X86_REG_RIP ||
	    (in->id != X86_INS_MOV && in->id != X86_INS_LEA))
		return false;
	if (in->id == X86_INS_MOV && stack_slot(&x->operands[1]) &&
	    slot_type(tr, j, &x->operands[1], out))
		return true;	/* a local's stack slot */
	if (in->id == X86_INS_MOV && stack_slot(&x->operands[1]))
		return spilled_type(tr, j, &x->operands[1], depth, out);
	src_reg = dwarf_reg(x->operands[1].mem.base);
	if (src_reg < 0 || src_reg == 7 || !reg_type(tr, j, src_reg, depth + 1, &up))
		return false;
	if (in->id == X86_INS_LEA) {	/* &up->member: the same object, further in */
		if (__builtin_add_overflow(up.offset, x->operands[1].mem.disp, &up.offset) ||
		    up.offset < 0 || (uint64_t)up.offset >= up.size) {
			free(up.type);
			return false;
		}
		*out = up;
		return true;
	}
	if (in->id == X86_INS_MOV) {	/* up->member, a pointer: its pointee */
		Dwarf_Die p;
		int64_t at;
		unsigned int budget = MEMBER_WALK_BUDGET;

		free(up.type);
		if (__builtin_add_overflow(up.offset, x->operands[1].mem.disp, &at) || at < 0 ||
		    up.spread || !member_pointee(&up.die, (uint64_t)at, &p, 0, &budget))
			return false;	/* (which member, when paths differ, is unknown) */
		memset(out, 0, sizeof(*out));
		out->type = struct_name(&p);
		out->size = die_size(&p);
		out->die = p;
		out->var = NULL;
		return out->type != NULL;
	}
	return false;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The type @reg holds at instruction @idx, by the writes whose value can reach it: one, or
 * several that agree on the struct (clang -O1's `p = which ? &w->p->b : &w->p->a` before one
 * shared addq $1,(%rdx)), the offset then one of theirs: the least, and @out->spread.  Where
 * no write says (the caller's value may reach it), a callee-saved register set once in the
 * whole function has that value: a loop keeps a pointer computed before it across the hooks'
 * calls.
 */
static bool flow_type(struct trace *tr, size_t idx, int reg, int depth, struct candidate *out)
{
	size_t defs[8], def;
	int n = reaching_defs(tr, idx, reg, defs, 8);
	struct candidate c;

	if (n < 0 && callee_saved(reg)) {
		def = unique_def(tr, idx, reg);
		return def != SIZE_MAX && def_type(tr, def, reg, depth, out);
	}
	if (n <= 0 || !def_type(tr, defs[0], reg, depth, out))
		return false;
	for (int i = 1; i < n; i++) {
		uint64_t d;

		memset(&c, 0, sizeof(c));
		if (!def_type(tr, defs[i], reg, depth, &c) || strcmp(c.type, out->type)) {
			free(c.type);
			zfree(&out->type);
			return false;
		}
		d = c.offset > out->offset ? (uint64_t)(c.offset - out->offset) :
					     (uint64_t)(out->offset - c.offset);
		if (c.offset < out->offset)
			out->offset = c.offset;
		out->spread = (uint32_t)gcd(gcd(out->spread, c.spread), d);
		free(c.type);
	}
	return true;
}

/*
 * What struct the pointer in @reg points into just before instruction @idx (and at which
 * offset): a variable living in it (location lists), else, within the few instructions
 * before, the load or address computation that set it from another typed register
 * (mov 0x30(%rdi),%rax with %rdi a struct buffer_head *: %rax is its b_bdev), a local's stack
 * slot, or a copy.  Calls keep callee-saved registers; where the code before is no straight
 * line, a callee-saved register set once in the whole function has that value.
 */
static bool reg_type(struct trace *tr, size_t idx, int reg, int depth, struct candidate *out)
{
	struct candidate best = { 0 };
	struct operand_scan os = { tr->insn[idx].address - tr->bias, reg, 0, &best, false };

	scan_pc(tr->cu, os.pc, 0, false, operand_var, &os);
	if (best.type) {
		*out = best;
		return true;
	}
	if (depth >= 4)
		return false;
	for (size_t j = idx; j-- > 0 && idx - j <= 12;) {
		const cs_insn *in = &tr->insn[j];

		if (jump_target(tr, j + 1))
			break;	/* control comes here from elsewhere too */
		if (cs_insn_group(tr->vt->cs, in, CS_GRP_CALL) && callee_saved(reg))
			continue;
		if (cs_insn_group(tr->vt->cs, in, CS_GRP_JUMP) ||
		    cs_insn_group(tr->vt->cs, in, CS_GRP_CALL) ||
		    cs_insn_group(tr->vt->cs, in, CS_GRP_RET))
			break;
		if (!writes_reg(tr, in, reg))
			continue;
		return def_type(tr, j, reg, depth, out);
	}
	/* no straight line leads to the write: give up rather than guess, unless the control
	 * flow says what the register can hold */
	return flow_type(tr, idx, reg, depth, out);
}

/*
 * No variable lives in the base register: follow how the register got its value in the
 * instructions before (perf's data-type profiling does the same), decoding the whole function.
 */
static bool traced_type(struct vartype *vt, struct vt_file *f, const struct sym_entry *se,
			uint64_t off, Dwarf_Die *cu, Dwarf_Addr bias, int reg, int64_t disp,
			struct candidate *best)
{
	size_t len = 0, n, idx;
	const uint8_t *code = code_at(f, se, 0, &len);
	struct trace tr = { .vt = vt, .f = f, .cu = cu, .bias = bias };
	struct candidate c = { 0 };
	bool ok = false;

	if (!code || off >= len || off > 16384)
		return false;
	/* the whole function: a register set once in it is known anywhere after */
	if (se->size > off && se->size < len)
		len = se->size;
	n = cs_disasm(vt->cs, code, len < 16384 ? len : 16384, se->dwfl_addr, 0, &tr.insn);
	tr.n = n;
	for (idx = 0; idx < n && tr.insn[idx].address != se->dwfl_addr + off; idx++)
		;
	if (idx < n && reg_type(&tr, idx, reg, 0, &c)) {
		int64_t at;

		if (!__builtin_add_overflow(c.offset, disp, &at) && at >= 0 &&
		    (uint64_t)at < c.size) {
			*best = c;
			best->offset = at;
			ok = true;
		} else {
			free(c.type);
		}
	}
	if (n)
		cs_free(tr.insn, n);
	free(tr.pred);
	free(tr.first_pred);
	return ok;
}

/*
 * Code built for the software collector calls __tsan_readN/__tsan_writeN(addr) before each
 * access (the sample's IP is that call): the memory operand is the address computation that
 * put the argument in rdi just before (lea 0x38(%rbx),%rdi; or mov %rbx,%rdi).  Fills *op as
 * that memory operand and *at with the offset of the instruction that computed it.
 */
static bool hook_argument(struct vartype *vt, struct vt_file *f, const struct sym_entry *se,
			  uint64_t off, const cs_insn *call, uint64_t *at, cs_x86_op *op)
{
	const cs_x86 *x = &call->detail->x86;
	const struct sym_entry *target = NULL;
	size_t len = 0, n;
	const uint8_t *code;
	cs_insn *insn = NULL;
	bool found = false;

	if (f->rel || call->id != X86_INS_CALL || x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return false;
	for (size_t i = 0; i < f->nr_syms; i++) {
		const struct sym_entry *e = &f->syms[i];

		if (e->type == STT_FUNC && (uint64_t)x->operands[0].imm >= e->dwfl_addr &&
		    (uint64_t)x->operands[0].imm - e->dwfl_addr < (e->size ? e->size : 1))
			target = e;
	}
	if (!target || strncmp(target->name, "__tsan_", 7) || off > 8192)
		return false;
	code = code_at(f, se, 0, &len);
	if (!code || off > len)
		return false;
	n = cs_disasm(vt->cs, code, off, se->dwfl_addr, 0, &insn);
	for (size_t j = n; j-- > 0 && n - j <= 8 && !found;) {
		const cs_x86 *y = &insn[j].detail->x86;

		if (cs_insn_group(vt->cs, &insn[j], CS_GRP_JUMP) ||
		    cs_insn_group(vt->cs, &insn[j], CS_GRP_CALL) ||
		    cs_insn_group(vt->cs, &insn[j], CS_GRP_RET))
			break;
		if (y->op_count != 2 || y->operands[0].type != X86_OP_REG ||
		    dwarf_reg(y->operands[0].reg) != 5)
			continue;
		if (insn[j].id == X86_INS_LEA && y->operands[1].type == X86_OP_MEM) {
			*op = y->operands[1];
			found = true;
		} else if (insn[j].id == X86_INS_MOV && y->operands[1].type == X86_OP_REG) {
			memset(op, 0, sizeof(*op));
			op->type = X86_OP_MEM;
			op->mem.base = y->operands[1].reg;
			op->mem.index = X86_REG_INVALID;
			found = true;
		} else {
			/* rdi loaded or adjusted (mov -0x10(%rbp),%rdi; add $0x4,%rdi): what
			 * rdi holds at the call, traced from there */
			memset(op, 0, sizeof(*op));
			op->type = X86_OP_MEM;
			op->mem.base = X86_REG_RDI;
			op->mem.index = X86_REG_INVALID;
			*at = off;
			found = true;
			break;
		}
		if (found)
			*at = insn[j].address - se->dwfl_addr;
		else
			break;	/* rdi set some other way */
	}
	if (n)
		cs_free(insn, n);
	return found;
}

/* --- the `this` of inlined member functions --- */

/* The inlined instances holding @pc, outermost first (at most @max). */
static int inlined_chain(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain, int n, int max,
			 int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(parent, &child) != 0)
		return n;
	do {
		int tag = dwarf_tag(&child);

		if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		     tag == DW_TAG_inlined_subroutine) && dwarf_haspc(&child, pc) > 0) {
			if (tag == DW_TAG_inlined_subroutine && n < max)
				chain[n++] = child;
			return inlined_chain(&child, pc, chain, n, max, depth + 1);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

/*
 * The struct an inlined member function's `this` points to (its first parameter, artificial),
 * when `this` has no location there (optimised out: else the location lists answer) and no
 * other pointer is in scope in it: the only object its body reaches through a register.
 */
static bool inlined_this(Dwarf_Die *inl, Dwarf_Die *out)
{
	Dwarf_Die child, t;
	Dwarf_Attribute at;
	bool first = true, found = false, art = false;

	if (dwarf_child(inl, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		bool ptr;

		if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
			continue;
		ptr = type_of(&child, &t) && strip(&t, &t) && (dwarf_tag(&t) == DW_TAG_pointer_type ||
							       dwarf_tag(&t) == DW_TAG_reference_type);
		if (first && tag == DW_TAG_formal_parameter &&
		    dwarf_attr_integrate(&child, DW_AT_artificial, &at) &&
		    dwarf_formflag(&at, &art) == 0 && art && ptr) {
			if (dwarf_hasattr(&child, DW_AT_location) || !type_of(&t, out) ||
			    !strip(out, out) || !struct_name_ok(out))
				return false;
			found = true;
		} else if (ptr) {
			return false;	/* another pointer the access may go through */
		}
		first = false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return found;
}

/*
 * Where struct @inner lies in struct @outer (a member or a base class, at any depth): its
 * offset, when exactly one place holds it; -1 otherwise, and when *budget members have been
 * looked at before the search could tell.
 */
static int64_t only_place(Dwarf_Die *outer, Dwarf_Die *inner, int depth, unsigned int *budget)
{
	Dwarf_Die child, t;
	int64_t at = -1;
	int found = 0;

	if (depth > 4 || dwarf_child(outer, &child) != 0)
		return -1;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc;
		int64_t sub;
		int tag = dwarf_tag(&child);

		if (!*budget)
			return -1;
		--*budget;
		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_attr_integrate(&child, DW_AT_external, &a) ||
		    !type_of(&child, &t) || !strip(&t, &t))
			continue;
		loc = 0;
		if (dwarf_attr_integrate(&child, DW_AT_data_member_location, &a) &&
		    dwarf_formudata(&a, &loc) != 0)
			continue;
		if (dwarf_dieoffset(&t) == dwarf_dieoffset(inner)) {
			at = (int64_t)loc;
			found++;
		} else if ((dwarf_tag(&t) == DW_TAG_structure_type ||
			    dwarf_tag(&t) == DW_TAG_class_type || dwarf_tag(&t) == DW_TAG_union_type) &&
			   (sub = only_place(&t, inner, depth + 1, budget)) >= 0) {
			if (loc > INT64_MAX || __builtin_add_overflow((int64_t)loc, sub, &at))
				return -1;	/* no place an object can have */
			found++;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return found == 1 && *budget ? at : -1;
}

/*
 * No variable at all says what the register points to (clang -O2 keeps no location for a
 * pointer into raw memory, nor for the `this` of the methods inlined on it): where the access
 * lies in inlined member functions, the innermost one's `this` is the pointer (its body
 * reaches no other through a register), and each enclosing one's holds it at the one place
 * its struct has for it (Slot::lock's this->locked, an atomic whose exchange is inlined in
 * it): the outermost such struct, at @disp plus those places.
 */
/*
 * Whether @reg, just before the instruction at @sym+@off, holds a pointer loaded from an
 * object's member (mov 0x8(%rbx),%rax: this->next, of no known type), as far as the straight
 * code before it shows.
 */
static bool loaded_pointer(struct vartype *vt, struct vt_file *f, const struct sym_entry *se,
			   uint64_t off, int reg)
{
	size_t len = 0, n, idx;
	const uint8_t *code = code_at(f, se, 0, &len);
	struct trace tr = { .vt = vt, .f = f };
	bool loaded = false;

	if (!code || off >= len || off > 16384)
		return false;
	n = cs_disasm(vt->cs, code, off, se->dwfl_addr, 0, &tr.insn);
	tr.n = n;
	for (idx = n; idx-- > 0 && n - idx <= 12;) {
		const cs_insn *in = &tr.insn[idx];
		const cs_x86 *x = &in->detail->x86;

		if (cs_insn_group(vt->cs, in, CS_GRP_CALL) && callee_saved(reg))
			continue;
		if (cs_insn_group(vt->cs, in, CS_GRP_JUMP) || cs_insn_group(vt->cs, in, CS_GRP_CALL) ||
		    cs_insn_group(vt->cs, in, CS_GRP_RET))
			break;
		if (!writes_reg(&tr, in, reg))
			continue;
		loaded = in->id == X86_INS_MOV && x->op_count == 2 &&
			 x->operands[1].type == X86_OP_MEM && !stack_slot(&x->operands[1]);
		break;
	}
	if (n)
		cs_free(tr.insn, n);
	return loaded;
}

static bool inlined_type(Dwarf_Die *cu, Dwarf_Addr pc, int64_t disp, struct candidate *best)
{
	Dwarf_Die chain[16], cur, outer;
	int n = inlined_chain(cu, pc, chain, 0, 16, 0), i;
	int64_t offset = disp, at;

	if (!n || !inlined_this(&chain[n - 1], &cur) || disp < 0 ||
	    (uint64_t)disp >= die_size(&cur))
		return false;
	for (i = n - 1; i-- > 0;) {
		unsigned int budget = MEMBER_WALK_BUDGET;

		if (!inlined_this(&chain[i], &outer) ||
		    (at = only_place(&outer, &cur, 0, &budget)) < 0 ||
		    __builtin_add_overflow(offset, at, &at))
			break;
		offset = at;
		cur = outer;
	}
	memset(best, 0, sizeof(*best));
	best->type = struct_name(&cur);
	best->size = die_size(&cur);
	best->die = cur;
	best->var = "this";
	best->offset = offset;
	return best->type != NULL;
}

int vartype__operand(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		     uint64_t off, struct vartype_answer *out)
{
	struct vt_file *f = get_file(vt, path);
	const struct sym_entry *se;
	const uint8_t *code;
	size_t len = 0, n;
	uint64_t key;
	struct cached *c;
	cs_insn *insn = NULL;
	const cs_x86_op *mem = NULL;
	struct candidate best = { 0 };
	bool any = false;
	Dwarf_Die *cu;
	Dwarf_Addr bias, pc;
	int reg, rc;
	struct vartype_answer a = { 0 };
	struct operand_scan os = { 0 };
	cs_x86_op hook_op;
	uint64_t use_off;

	if (f->rc)
		return f->rc;
	key = hash_str(sym) ^ (off * 0x9e3779b97f4a7c15ULL) ^ (start * 0xc2b2ae3d27d4eb4fULL) ^ 2;
	c = cache_find(f, key);
	if (c) {
		*out = c->a;
		return c->rc;
	}
	se = find_sym(f, sym, start);
	if (!se)
		return cache_put(f, key, VT_NO_SYMBOL, NULL);
	/* No DWARF for this code (a -g0 object linked with others that have some) says more
	 * than whatever the instruction is. */
	cu = cu_of(f, se->dwfl_addr + off, &bias);
	if (!cu)
		return cache_put(f, key, VT_NO_DEBUGINFO, NULL);
	code = code_at(f, se, off, &len);
	if (!code || !vt->cs_open)
		return cache_put(f, key, VT_UNDECODABLE, NULL);
	n = cs_disasm(vt->cs, code, len < 16 ? len : 16, se->dwfl_addr + off, 1, &insn);
	if (n < 1)
		return cache_put(f, key, VT_UNDECODABLE, NULL);
	for (int i = 0; i < insn->detail->x86.op_count; i++)
		if (insn->detail->x86.operands[i].type == X86_OP_MEM)
			mem = &insn->detail->x86.operands[i];
	use_off = off;
	if (!mem && hook_argument(vt, f, se, off, insn, &use_off, &hook_op))
		mem = &hook_op;	/* the address a __tsan_* hook call was given */
	if (!mem || mem->mem.base == X86_REG_RIP || (reg = dwarf_reg(mem->mem.base)) < 0 ||
	    reg == 7) {
		cs_free(insn, n);
		return cache_put(f, key, VT_UNDECODABLE, NULL);
	}

	pc = se->dwfl_addr + use_off - bias;
	os = (struct operand_scan){ pc, reg, mem->mem.disp, &best, false };
	if (cu)
		scan_pc(cu, pc, 0, false, operand_var, &os);
	any = os.any;
	if (best.wrapper && cu) {
		/* atomic_inc(&bdev->bd_openers): v is an atomic_t *, the object a block_device
		 * that the code before the access may show */
		struct candidate outer = { 0 };

		if (traced_type(vt, f, se, use_off, cu, bias, reg, mem->mem.disp, &outer) &&
		    outer.size > best.size) {
			free(best.type);
			best = outer;
		} else {
			free(outer.type);
		}
	}
	if (!best.type && cu &&
	    traced_type(vt, f, se, use_off, cu, bias, reg, mem->mem.disp, &best))
		any = true;
	if (!best.type && cu && !loaded_pointer(vt, f, se, use_off, reg) &&
	    inlined_type(cu, se->dwfl_addr + off - bias, mem->mem.disp, &best))
		any = true;
	if (!best.type) {
		rc = !cu ? VT_NO_DEBUGINFO : any ? VT_NOT_STRUCT : VT_NO_VARIABLE;
		cs_free(insn, n);
		return cache_put(f, key, rc, NULL);
	}
	a.type = keep(vt, best.type);
	a.var = keep(vt, xstrdup(best.var ? best.var : "a loaded pointer"));
	a.offset = best.offset;
	a.size = best.size;
	if (mem->mem.index != X86_REG_INVALID)
		a.index_scale = (uint32_t)(mem->mem.scale > 0 ? mem->mem.scale : 1);
	if (best.spread)	/* the base register's value differs by path: as an index would */
		a.index_scale = (uint32_t)gcd(a.index_scale, best.spread);
	a.origin = keep(vt, xasprintf("%s (%s) in %s: %s %s", reg_names[reg], a.var, sym,
				      insn->mnemonic, insn->op_str));
	cs_free(insn, n);
	*out = a;
	return cache_put(f, key, VT_OK, &a);
}

int vartype__section_sym(struct vartype *vt, const char *path, const char *section, uint64_t off,
			 const char **name, uint64_t *sym_off)
{
	struct vt_file *f = get_file(vt, path);
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	uint32_t idx = 0;
	uint64_t sh_addr = 0;
	const struct sym_entry *best = NULL;

	if (f->rc)
		return f->rc;
	if (elf_getshdrstrndx(f->elf, &shstrndx) != 0)
		return VT_NO_SYMBOL;
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(f->elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, section)) {
			idx = (uint32_t)elf_ndxscn(scn);
			sh_addr = f->rel ? 0 : sh.sh_addr;
			break;
		}
	}
	if (!idx)
		return VT_NO_SYMBOL;
	for (size_t i = 0; i < f->nr_syms; i++) {
		const struct sym_entry *e = &f->syms[i];
		uint64_t v = e->value - sh_addr;

		if (e->shndx != idx || e->type != STT_FUNC || v > off ||
		    off - v >= (e->size ? e->size : 1))
			continue;
		if (!best || e->value > best->value)
			best = e;
	}
	if (!best)
		return VT_NO_SYMBOL;
	*name = best->name;
	*sym_off = off - (best->value - sh_addr);
	return 0;
}

int vartype__insn_ending(struct vartype *vt, const char *path, const char *sym,
			 uint64_t sym_start, uint64_t off, uint64_t *start, enum access_kind *kind)
{
	struct vt_file *f = get_file(vt, path);
	const struct sym_entry *se;
	const uint8_t *code;
	size_t len = 0;
	uint64_t key;
	struct cached *c;
	struct access_info ai = { 0 };
	struct vartype_answer a = { 0 };

	if (f->rc)
		return f->rc;
	key = hash_str(sym) ^ (off * 0x9e3779b97f4a7c15ULL) ^
	      (sym_start * 0xc2b2ae3d27d4eb4fULL) ^ 4;
	c = cache_find(f, key);
	if (c) {
		/* kept as the instruction's offset and, in elem_size, its access kind */
		*start = (uint64_t)c->a.offset;
		*kind = (enum access_kind)c->a.elem_size;
		return c->rc;
	}
	se = find_sym(f, sym, sym_start);
	if (!se)
		return cache_put(f, key, VT_NO_SYMBOL, NULL);
	code = code_at(f, se, 0, &len);
	if (!code || !off || off > len || off > 65536)
		return cache_put(f, key, VT_UNDECODABLE, NULL);
	/* from the function's start: x86 cannot be decoded backwards */
	code__classify_bytes(code, off, se->dwfl_addr, se->dwfl_addr + off, &ai);
	if (!ai.insn_len)
		return cache_put(f, key, VT_UNDECODABLE, NULL);
	a.offset = (int64_t)(ai.insn_addr - se->dwfl_addr);
	a.elem_size = ai.kind;
	*start = (uint64_t)a.offset;
	*kind = ai.kind;
	return cache_put(f, key, VT_OK, &a);
}

int vartype__image_rel(struct vartype *vt, const char *path, uint64_t map_start, uint64_t pgoff,
		       uint64_t addr, uint64_t *rel)
{
	struct vt_file *f = get_file(vt, path);
	GElf_Phdr ph;
	size_t n;
	uint64_t bias = 0, v;
	bool mapped = false;

	if (f->rc)
		return f->rc;
	if (f->rel || elf_getphdrnum(f->elf, &n) != 0)
		return VT_NO_SYMBOL;
	/* the load bias, from the segment the mapping shows */
	for (size_t i = 0; i < n && !mapped; i++) {
		uint64_t page;

		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		page = ph.p_offset & ~(uint64_t)0xfff;
		if (pgoff < page || pgoff >= ph.p_offset + ph.p_filesz)
			continue;
		bias = map_start - (ph.p_vaddr - (ph.p_offset - pgoff));
		mapped = true;
	}
	if (!mapped)
		return VT_NO_SYMBOL;
	v = addr - bias;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (v >= ph.p_vaddr && v - ph.p_vaddr < ph.p_memsz) {
			*rel = v - (ph.p_vaddr - ph.p_offset);
			return 0;
		}
	}
	return VT_NO_SYMBOL;
}

int vartype__srcline(struct vartype *vt, const char *path, const char *sym, uint64_t start,
		     uint64_t off, char *buf, size_t size)
{
	struct vt_file *f = get_file(vt, path);
	const struct sym_entry *se;
	Dwfl_Line *line;
	const char *file;
	int lineno = 0;

	if (f->rc)
		return f->rc;
	se = find_sym(f, sym, start);
	if (!se)
		return VT_NO_SYMBOL;
	line = dwfl_module_getsrc(f->mod, se->dwfl_addr + off);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!file)
		return VT_NO_DEBUGINFO;
	snprintf(buf, size, "%s:%d", strrchr(file, '/') ? strrchr(file, '/') + 1 : file, lineno);
	return 0;
}

/* --- allocation sites --- */


struct receiver_scan {
	Dwarf_Addr pc;
	int reg;
	int64_t plus;	/* the register holds the block + plus */
	bool found;
	Dwarf_Die die;
};

/*
 * A pointer variable in the register: the block's.  Not an (inlined) constructor's `this`,
 * which points at one element; and one that points into the block, past new T[n]'s count,
 * only to the first element (a T past @plus).
 */
static void receiver_var(Dwarf_Die *die, void *arg)
{
	struct receiver_scan *rs = arg;
	Dwarf_Attribute at;
	Dwarf_Die t, p;
	bool art = false;
	int64_t k;

	if (rs->found || !lives_in(die, rs->pc, rs->reg, &k) || k ||
	    !type_of(die, &t) || !strip(&t, &t) || dwarf_tag(&t) != DW_TAG_pointer_type)
		return;
	if (dwarf_attr_integrate(die, DW_AT_artificial, &at) && dwarf_formflag(&at, &art) == 0 &&
	    art)
		return;
	if (rs->plus && (rs->plus < 0 || !type_of(&t, &p) || !strip(&p, &p) ||
			 die_size(&p) <= (uint64_t)rs->plus))
		return;
	rs->found = true;
	rs->die = *die;
}

static int reg_of_op(const cs_x86_op *op)
{
	int r = op->type == X86_OP_REG ? dwarf_reg(op->reg) : -1;

	return r >= 0 && r < 16 ? r : -1;
}

/*
 * The variable that receives what the call at @sym+@off returns: follow the result from rax
 * through the instructions after the call (and the stack slots it is spilled to), to a
 * variable living in that register (location lists) or a global it is stored to (a
 * RIP-relative store).  *@into: how far into the block the variable points, the result plus
 * a constant (`new T[n]` of a T with a destructor stores n first and gives the array after
 * it: lea 8(%rax)).
 */
static bool alloc_receiver(struct vartype *vt, struct vt_file *f, const struct sym_entry *se,
			   uint64_t off, Dwarf_Die *cu, Dwarf_Addr bias, Dwarf_Die *out,
			   int64_t *into)
{
	size_t len = 0, n;
	const uint8_t *code = code_at(f, se, off, &len);
	cs_insn *insn = NULL;
	unsigned int regs = 1u << 0;	/* the registers holding the result: rax */
	int64_t plus[16] = { 0 };	/* each one's value: the result + plus[reg] */
	const unsigned int callee_saved = 1u << 3 | 1u << 6 | 0xfu << 12;
	bool found = false;
	/* stack slots holding it: -O0 code spills the result around the hooks' calls */
	struct { x86_reg base; int64_t disp, plus; } slots[8];
	int nr_slots = 0, jumps = 0;

	if (!code || !vt->cs_open)
		return false;
	n = cs_disasm(vt->cs, code, len < 256 ? len : 256, se->dwfl_addr + off, 24, &insn);
	if (n < 2 || insn[0].id != X86_INS_CALL) {
		if (n)
			cs_free(insn, n);
		return false;
	}
	for (size_t i = 1; i < n && !found && (regs || nr_slots); i++) {
		const cs_x86 *x = &insn[i].detail->x86;
		int dst, src;

		for (int r = 0; r < 16 && !found; r++) {
			struct receiver_scan rs = { .pc = insn[i].address - bias, .reg = r,
						    .plus = plus[r] };

			if (!(regs & (1u << r)))
				continue;
			scan_pc(cu, rs.pc, 0, false, receiver_var, &rs);
			if (rs.found) {
				*out = rs.die;
				*into = plus[r];
				found = true;
			}
		}
		if (found)
			break;
		if (insn[i].id == X86_INS_CALL) {
			/* Calls keep callee-saved registers: an instrumented program calls its
			 * hooks between the allocation and the store of its result. */
			regs &= callee_saved;
			continue;
		}
		if (insn[i].id == X86_INS_JMP && x->op_count == 1 &&
		    x->operands[0].type == X86_OP_IMM && jumps++ < 2 &&
		    (uint64_t)x->operands[0].imm >= se->dwfl_addr &&
		    (uint64_t)x->operands[0].imm - se->dwfl_addr < se->size) {
			/* the block continues elsewhere (two call sites sharing the store):
			 * decode on from there */
			uint64_t to = (uint64_t)x->operands[0].imm - se->dwfl_addr;
			const uint8_t *more = code_at(f, se, to, &len);

			cs_free(insn, n);
			n = more ? cs_disasm(vt->cs, more, len < 256 ? len : 256,
					     se->dwfl_addr + to, 24, &insn) : 0;
			if (!n)
				return false;
			i = (size_t)-1;	/* the loop's i++ makes it 0 */
			continue;
		}
		if (insn[i].id == X86_INS_JMP || insn[i].id == X86_INS_RET)
			break;
		dst = x->op_count ? reg_of_op(&x->operands[0]) : -1;
		src = x->op_count > 1 ? reg_of_op(&x->operands[1]) : -1;
		if (insn[i].id == X86_INS_MOV && x->op_count == 2 && src >= 0 &&
		    (regs & (1u << src)) && x->operands[0].type == X86_OP_MEM &&
		    x->operands[0].mem.base == X86_REG_RIP) {
			uint64_t a = insn[i].address + insn[i].size + x->operands[0].mem.disp;
			const struct sym_entry *g = find_sym_at(f, a);
			uint64_t piece;

			if (g && a == g->dwfl_addr &&
			    find_variable(f, g->name, g->dwfl_addr, out, NULL, &piece) && !piece) {
				*into = plus[src];
				found = true;
			}
			break;
		}
		if (insn[i].id == X86_INS_MOV && x->op_count == 2 && src >= 0 &&
		    (regs & (1u << src)) && stack_slot(&x->operands[0])) {
			if (nr_slots < (int)(sizeof(slots) / sizeof(slots[0]))) {
				slots[nr_slots].base = x->operands[0].mem.base;
				slots[nr_slots].plus = plus[src];
				slots[nr_slots++].disp = x->operands[0].mem.disp;
			}
			continue;
		}
		if (insn[i].id == X86_INS_MOV && x->op_count == 2 && dst >= 0 &&
		    stack_slot(&x->operands[1])) {
			int ours = -1;

			for (int k = 0; k < nr_slots; k++)
				if (slots[k].base == x->operands[1].mem.base &&
				    slots[k].disp == x->operands[1].mem.disp)
					ours = k;
			if (ours >= 0) {
				regs |= 1u << dst;
				plus[dst] = slots[ours].plus;
			} else {
				regs &= ~(1u << dst);
			}
			continue;
		}
		if (insn[i].id == X86_INS_LEA && x->op_count == 2 && dst >= 0 &&
		    x->operands[1].type == X86_OP_MEM && x->operands[1].mem.index == X86_REG_INVALID &&
		    x->operands[1].mem.base != X86_REG_RIP &&
		    dwarf_reg(x->operands[1].mem.base) >= 0 &&
		    (regs & (1u << dwarf_reg(x->operands[1].mem.base)))) {
			/* lea K(%reg), %dst: the result + K */
			plus[dst] = plus[dwarf_reg(x->operands[1].mem.base)] + x->operands[1].mem.disp;
			regs |= 1u << dst;
			continue;
		}
		if ((insn[i].id == X86_INS_ADD || insn[i].id == X86_INS_SUB) && x->op_count == 2 &&
		    dst >= 0 && (regs & (1u << dst)) && x->operands[1].type == X86_OP_IMM) {
			plus[dst] += insn[i].id == X86_INS_ADD ? x->operands[1].imm :
								 -x->operands[1].imm;
			continue;
		}
		if (insn[i].id == X86_INS_MOV && x->op_count == 2 && src >= 0 && dst >= 0 &&
		    (regs & (1u << src))) {
			regs |= 1u << dst;
			plus[dst] = plus[src];
		} else if (dst >= 0) {
			regs &= ~(1u << dst);	/* overwritten */
		}
	}
	cs_free(insn, n);
	return found;
}

int vartype__alloc_site(struct vartype *vt, const char *path, const char *sym, uint64_t start,
			uint64_t off, uint64_t size, struct vartype_answer *out)
{
	struct vt_file *f = get_file(vt, path);
	const struct sym_entry *se;
	uint64_t key, sz;
	struct cached *c;
	Dwarf_Die *cu, var, t, p;
	Dwarf_Addr bias;
	struct vartype_answer a = { 0 };
	int64_t into = 0;
	uint64_t avail;
	char *name;

	if (f->rc)
		return f->rc;
	key = hash_str(sym) ^ (off * 0x9e3779b97f4a7c15ULL) ^ (start * 0xc2b2ae3d27d4eb4fULL) ^
	      (size << 2) ^ 3;
	c = cache_find(f, key);
	if (c) {
		*out = c->a;
		return c->rc;
	}
	se = find_sym(f, sym, start);
	if (!se)
		return cache_put(f, key, VT_NO_SYMBOL, NULL);
	cu = cu_of(f, se->dwfl_addr + off, &bias);
	if (!cu)
		return cache_put(f, key, VT_NO_DEBUGINFO, NULL);
	if (!alloc_receiver(vt, f, se, off, cu, bias, &var, &into) || into < 0 ||
	    (uint64_t)into >= size)
		return cache_put(f, key, VT_NO_VARIABLE, NULL);
	a.offset = into;
	if (!type_of(&var, &t) || !strip(&t, &t) || dwarf_tag(&t) != DW_TAG_pointer_type)
		return cache_put(f, key, VT_NOT_STRUCT, NULL);
	a.var = keep(vt, xstrdup(dwarf_diename(&var) ? dwarf_diename(&var) : "?"));
	if (!type_of(&t, &p) || !strip(&p, &p)) {
		/* A void *: no type, but the variable names the block (its accesses may type
		 * it) */
		a.origin = keep(vt, xasprintf("malloc(%" PRIu64 ") in %s for %s", size, sym, a.var));
		*out = a;
		return cache_put(f, key, VT_OK, &a);
	}
	sz = die_size(&p);
	name = struct_name(&p);
	avail = size - (uint64_t)into;	/* what the variable points to */
	if (name && sz && sz <= avail) {
		a.type = keep(vt, name);
		a.size = sz;
	} else {
		/* A scalar array (unsigned *hist = calloc(n, sizeof(*hist))): named after the
		 * variable that holds it, each element a slot of its own. */
		free(name);
		a.type = keep(vt, xasprintf("heap %s", a.var));
		a.scalar = true;
		a.size = avail;
		a.elem_size = sz && sz <= avail ? sz : 1;
	}
	a.origin = keep(vt, xasprintf("malloc(%" PRIu64 ") in %s for %s", size, sym, a.var));
	*out = a;
	return cache_put(f, key, VT_OK, &a);
}
