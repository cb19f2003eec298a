// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the attribution side of dwarf/: what `lineup fields` asks of an object
 * it did not build.  The input is written to a memfd and opened, by path, through
 *
 *   - dwarf/symbols.h: as a user object (address -> symbol, Source:Line, inline chain, at
 *     objdump addresses and map-relative ones), as a module .ko when it is ET_REL, and as
 *     the -k vmlinux of a kernel map (KASLR reference symbol, per-CPU variables);
 *   - dwarf/vartype.h: the memory operand's type at every instruction with a memory operand
 *     or a call, allocation sites at the calls, globals at offsets in and past each object,
 *     section symbols, source lines;
 *   - dwarf/type_index.h: every struct an answer names, flattened, and the member at the
 *     answer's offset (what sampling/fields_attr.c and analyzer/attr_engine.c do with it);
 *   - dwarf/code.h: the instruction ending at each instruction boundary of a map of the
 *     file, the function of an address, globals' types, DT_NEEDED.
 *
 * The addresses come from the object's own .symtab (or .dynsym), read here with libelf and
 * capstone, and a few from the input's own bytes (e_entry, the first words of .data).  Any
 * crash, sanitizer report, leak, hang or unbounded allocation is a bug in dwarf/ (or in the
 * analyzer's flattening, which it drives).  Nothing outside the input is read on purpose: no
 * build-id cache, no debuginfod, no kallsyms (a debuglink the input names is still looked for
 * beside it, as lineup would).
 *
 * Built by tests/fuzz/debuginfo_run.sh (clang -fsanitize=fuzzer,address,undefined) with the
 * objects of tests/fuzz/debuginfo_seed.c as seeds; tests/symbols/fuzz_debuginfo.sh builds it
 * without libFuzzer (tests/fuzz/fuzz_main.c) and runs every kept seed through it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* memfd_create */
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include "analyzer/flat_layout.h"
#include "dwarf/code.h"
#include "dwarf/symbols.h"
#include "dwarf/type_index.h"
#include "dwarf/vartype.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/*
 * Budgets, spread evenly over the object: each operand query decodes its whole function and
 * each classification decodes from the function's start, a few milliseconds under ASan.
 */
#define MAX_SYMS 40
#define MAX_INSNS 48
#define MAX_OPERANDS 48
#define MAX_CLASSIFY 32
#define MAP_BASE 0x7f0000000000ull	/* where the code reader's map of the file starts */
#define KASLR_SHIFT 0x1000000ull

static csh cs;
static bool cs_ok;
static volatile size_t sink;

/* ---- what to ask: the object's symbols and instructions ---- */

struct probe_sym {
	char name[128];
	uint64_t value, size;		/* st_value, st_size */
	uint64_t file_off;		/* where its first byte lies in the file, or UINT64_MAX */
	bool func;
	const uint8_t *code;		/* its bytes in the input (functions), NULL if none */
	size_t code_len;
	uint16_t insn_end[MAX_INSNS];	/* offsets just past each instruction */
	uint8_t insn_kind[MAX_INSNS];	/* INSN_* */
	unsigned int nr_insns;
};

enum { INSN_MEM = 1, INSN_CALL = 2 };

struct probe {
	struct probe_sym sym[MAX_SYMS];
	size_t nr;
	unsigned int nr_insns, nr_operands;	/* instructions; those with memory or a call */
	bool rel;			/* ET_REL: a .ko, as far as the module loader cares */
	uint64_t text_off;		/* .text's file offset: a module map's pgoff */
	uint64_t extra[4];		/* addresses taken from the input's own bytes */
};

static bool sym_wanted(const GElf_Sym *s)
{
	int t = GELF_ST_TYPE(s->st_info);

	return s->st_name && s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE &&
	       (t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT || t == STT_NOTYPE ||
		t == STT_TLS);
}

static void decode(struct probe_sym *ps, struct probe *p)
{
	cs_insn *insn = NULL;
	size_t n;

	if (!cs_ok || !ps->code)
		return;
	n = cs_disasm(cs, ps->code, ps->code_len, ps->value, MAX_INSNS, &insn);
	for (size_t i = 0; i < n; i++) {
		const cs_x86 *x = &insn[i].detail->x86;
		uint64_t end = insn[i].address + insn[i].size - ps->value;
		uint8_t kind = insn[i].id == X86_INS_CALL ? INSN_CALL : 0;

		for (int k = 0; k < x->op_count; k++)
			if (x->operands[k].type == X86_OP_MEM)
				kind |= INSN_MEM;
		if (end > UINT16_MAX)
			break;
		ps->insn_end[ps->nr_insns] = (uint16_t)end;
		ps->insn_kind[ps->nr_insns++] = kind;
		p->nr_insns++;
		p->nr_operands += kind != 0;
	}
	if (n)
		cs_free(insn, n);
}

/* One symbol: where it is in the file, and its code. */
static void note_sym(Elf *elf, const GElf_Sym *s, const char *name, bool rel, struct probe *p)
{
	struct probe_sym *ps = &p->sym[p->nr];
	Elf_Scn *scn = elf_getscn(elf, s->st_shndx);
	int t = GELF_ST_TYPE(s->st_info);
	GElf_Shdr sh;
	Elf_Data *d;
	uint64_t at;

	memset(ps, 0, sizeof(*ps));
	snprintf(ps->name, sizeof(ps->name), "%s", name);
	ps->value = s->st_value;
	ps->size = s->st_size;
	ps->file_off = UINT64_MAX;
	ps->func = t == STT_FUNC || t == STT_GNU_IFUNC;
	p->nr++;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return;
	at = rel ? s->st_value : s->st_value - sh.sh_addr;
	if (at < sh.sh_size && sh.sh_offset + at >= sh.sh_offset)
		ps->file_off = sh.sh_offset + at;
	if (!(sh.sh_flags & SHF_EXECINSTR))
		return;
	ps->func |= t == STT_NOTYPE;
	d = elf_getdata(scn, NULL);
	if (!ps->func || !d || !d->d_buf || at >= d->d_size)
		return;
	ps->code = (const uint8_t *)d->d_buf + at;
	ps->code_len = d->d_size - at;
	/* its own instructions, as perf names an IP sym+off within the symbol */
	if (ps->code_len > (s->st_size ? s->st_size : 64))
		ps->code_len = s->st_size ? s->st_size : 64;
	if (ps->code_len > 4096)
		ps->code_len = 4096;
	decode(ps, p);
}

/* The symbols to ask about: an even spread over the table, at most MAX_SYMS. */
static void collect(Elf *elf, struct probe *p)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, symsh = { 0 };
	GElf_Ehdr eh;
	Elf_Data *d;
	size_t shstrndx, nr, wanted = 0, stride, k = 0;

	p->nr = 0;
	if (!gelf_getehdr(elf, &eh))
		return;
	p->rel = eh.e_type == ET_REL;
	p->extra[0] = eh.e_entry;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
			symscn = scn;
			symsh = sh;
		}
		if (n && !strcmp(n, ".text"))
			p->text_off = sh.sh_offset;
		if (n && !strcmp(n, ".data") && sh.sh_type == SHT_PROGBITS &&
		    (d = elf_getdata(scn, NULL)) && d->d_buf)
			for (size_t i = 0; i < 3 && (i + 1) * 8 <= d->d_size; i++)
				memcpy(&p->extra[1 + i], (const uint8_t *)d->d_buf + i * 8, 8);
	}
	if (!symscn || !symsh.sh_entsize || !(d = elf_getdata(symscn, NULL)))
		return;
	nr = symsh.sh_size / symsh.sh_entsize;
	if (nr > 1 << 16)
		nr = 1 << 16;
	for (size_t i = 1; i < nr; i++) {
		GElf_Sym s;

		if (gelf_getsym(d, (int)i, &s) && sym_wanted(&s))
			wanted++;
	}
	stride = wanted > MAX_SYMS ? (wanted + MAX_SYMS - 1) / MAX_SYMS : 1;
	for (size_t i = 1; i < nr && p->nr < MAX_SYMS; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || !sym_wanted(&s) || k++ % stride)
			continue;
		name = elf_strptr(elf, symsh.sh_link, s.st_name);
		if (name && *name && strlen(name) < sizeof(p->sym[0].name))
			note_sym(elf, &s, name, p->rel, p);
	}
}

/* ---- the questions ---- */

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void touch_loc(const struct symbols_loc *loc)
{
	char buf[256];

	touch(loc->sym);
	touch(loc->object);
	touch(loc->srcline);
	for (unsigned int i = 0; i < loc->nr_frames; i++) {
		touch(loc->frames[i].function);
		touch(loc->frames[i].file);
		sink += loc->frames[i].line + loc->frames[i].discriminator;
	}
	sink += (size_t)symbols__format_sym(buf, sizeof(buf), '.', loc, 0);
}

static void lookup_objdump(struct symbols *s, struct symbols_dso *d, uint64_t addr)
{
	struct symbols_loc loc;

	symbols__lookup_objdump(s, d, addr, &loc);
	touch_loc(&loc);
}

/* perf's view of a user object: objdump addresses, and file offsets in a map of it. */
static void probe_user(const char *path, const struct probe *p)
{
	struct symbols_options o = { .debug_dir = "/nonexistent", .kallsyms = "" };
	struct symbols *s = symbols__new(&o);
	struct symbols_dso *d = symbols__dso(s, path, "fuzz", SYMBOLS_DSO_USER, NULL, 0);
	struct symbols_map map = { .start = 0x400000 };
	struct symbols_loc loc;
	const char *name;
	uint64_t start;
	bool obj;

	for (size_t i = 0; i < p->nr; i++) {
		const struct probe_sym *ps = &p->sym[i];

		lookup_objdump(s, d, ps->value);
		lookup_objdump(s, d, ps->value + ps->size / 2);
		lookup_objdump(s, d, ps->value + ps->size);
		for (unsigned int k = 0; k < ps->nr_insns; k += 4)
			lookup_objdump(s, d, ps->value + ps->insn_end[k]);
		if (ps->file_off == UINT64_MAX)
			continue;
		symbols__lookup(s, d, &map, ps->file_off, &loc);
		touch_loc(&loc);
		if (!symbols__find_sym(s, d, ps->file_off, &name, &start, &obj))
			touch(name);
	}
	for (size_t i = 0; i < sizeof(p->extra) / sizeof(p->extra[0]); i++)
		lookup_objdump(s, d, p->extra[i]);
	lookup_objdump(s, d, UINT64_MAX);
	touch(symbols_dso__path(d));
	touch(symbols_dso__error(d));
	if (p->rel) {
		/* a module: its .ko's .text symbols, at .text offsets plus the map's pgoff */
		struct symbols_dso *md = symbols__dso(s, path, "[fuzz]", SYMBOLS_DSO_MODULE, NULL,
						      0);
		struct symbols_map mm = { .start = 0xffffffffc0000000ull, .pgoff = p->text_off };

		for (size_t i = 0; i < p->nr; i++) {
			symbols__lookup(s, md, &mm, p->sym[i].value + p->text_off, &loc);
			touch_loc(&loc);
		}
		symbols__lookup(s, md, &mm, p->extra[1], &loc);
		touch_loc(&loc);
	}
	symbols__delete(s);
}

/* The object as the kernel's -k vmlinux, its first symbol the KASLR reference. */
static void probe_kernel(const char *path, const struct probe *p)
{
	struct symbols_options o = { .debug_dir = "/nonexistent", .vmlinux = path };
	struct symbols *s = symbols__new(&o);
	struct symbols_dso *d = symbols__dso(s, "[kernel.kallsyms]", "[kernel.kallsyms]",
					     SYMBOLS_DSO_KERNEL, NULL, 0);
	struct symbols_map map = { .identity = true };
	struct symbols_loc loc;
	const char *name;
	uint64_t off, size;

	if (p->nr) {
		map.ref_reloc = p->sym[0].value + KASLR_SHIFT;
		map.ref_reloc_name = p->sym[0].name;
	}
	for (size_t i = 0; i < p->nr; i++) {
		symbols__lookup(s, d, &map, p->sym[i].value + KASLR_SHIFT, &loc);
		touch_loc(&loc);
		if (!symbols__percpu_var(s, d, p->sym[i].value & 0xffff, &name, &off, &size))
			touch(name);
	}
	symbols__lookup(s, d, &map, p->extra[0], &loc);
	touch_loc(&loc);
	symbols__delete(s);
}

/* What the field attribution does with an answer: the struct, and the member there. */
/* Where the symbolizer puts @ps: its file offset (perf's layout), 0 where it has none. */
static uint64_t sym_start(const struct probe_sym *ps)
{
	return ps->file_off == UINT64_MAX ? 0 : ps->file_off;
}

static void use_answer(struct type_index *ti, int rc, const struct vartype_answer *a)
{
	const struct flat_layout *fl;
	char buf[256];

	if (rc)
		return;
	touch(a->var);
	touch(a->origin);
	touch(a->type);
	if (!a->type || a->scalar)
		return;
	fl = type_index__find(ti, a->type, false);
	if (!fl)
		return;
	touch(fl->name);
	for (unsigned int i = 0; i < fl->nr_members; i++) {
		touch(fl->members[i].path);
		touch(fl->members[i].type);
	}
	sink += (size_t)flat_layout__name_at(fl, (uint64_t)a->offset, buf, sizeof(buf));
	sink += (size_t)flat_layout__member_at(fl, (uint64_t)a->offset + a->index_scale);
	sink += (size_t)flat_layout__find_type_at(fl, (uint64_t)a->offset, a->type);
	sink += (size_t)flat_layout__flex(fl, buf, sizeof(buf));
}

static void probe_vartype(const char *path, const struct probe *p, struct type_index *ti)
{
	struct vartype *vt = vartype__new();
	struct vartype_answer a;
	unsigned int stride = p->nr_operands / MAX_OPERANDS + 1, n = 0;
	const char *name;
	uint64_t off;
	char buf[256];

	for (size_t i = 0; i < p->nr; i++) {
		const struct probe_sym *ps = &p->sym[i];

		if (ps->func) {
			uint64_t at = 0;

			for (unsigned int k = 0; k < ps->nr_insns; k++) {
				if (ps->insn_kind[k] && n++ % stride == 0)
					use_answer(ti, vartype__operand(vt, path, ps->name, sym_start(ps), at, &a),
						   &a);
				if (ps->insn_kind[k] & INSN_CALL)
					use_answer(ti, vartype__alloc_site(vt, path, ps->name, sym_start(ps), at,
									   64, &a), &a);
				at = ps->insn_end[k];
			}
			if (!vartype__srcline(vt, path, ps->name, sym_start(ps), ps->size / 2, buf,
					      sizeof(buf)))
				touch(buf);
			if (!vartype__section_sym(vt, path, ".text", ps->value, &name, &off))
				touch(name);
		} else {
			const uint64_t offs[] = { 0, ps->size / 2, ps->size ? ps->size - 1 : 1,
						  ps->size, UINT64_MAX / 3 };

			for (size_t k = 0; k < sizeof(offs) / sizeof(offs[0]); k++)
				use_answer(ti, vartype__global(vt, path, ps->name, sym_start(ps), offs[k], &a),
					   &a);
			if (!vartype__section_sym(vt, path, ".data", ps->value, &name, &off))
				touch(name);
		}
	}
	if (p->nr) {
		/* a start the symbolizer would not give: the first of the name is taken */
		use_answer(ti, vartype__operand(vt, path, p->sym[0].name, p->extra[0],
						p->extra[1] & 0xfff, &a), &a);
		use_answer(ti, vartype__alloc_site(vt, path, p->sym[0].name, 0, p->extra[2], 1, &a),
			   &a);
	}
	use_answer(ti, vartype__operand(vt, path, "no such symbol", 0, 0, &a), &a);
	use_answer(ti, vartype__global(vt, path, "no such symbol", 0, 0, &a), &a);
	vartype__delete(vt);
}

static void probe_types(const char *path, const struct probe *p)
{
	struct type_index *ti = type_index__new();
	const char *close[3];
	char err[512];

	if (type_index__add_source(ti, path, err, sizeof(err)) == 0) {
		probe_vartype(path, p, ti);
		/* the seed program's struct, and a miss, as --type and the closest names do */
		use_answer(ti, 0, &(struct vartype_answer){ .type = "struct counter",
							    .offset = 8 });
		sink += (size_t)type_index__has(ti, "struct stats");
		sink += (size_t)type_index__closest(ti, "struct countr", close, 3);
	} else {
		probe_vartype(path, p, ti);
	}
	type_index__delete(ti);
}

/* The breakpoint side: the instruction ending at each boundary, in a map of the whole file. */
static void probe_code(const char *path, size_t size, const struct probe *p)
{
	struct code_reader *r;
	struct access_info info;
	struct global_var gv;
	uint64_t start;
	char err[256], lib[64];
	unsigned int stride = p->nr_insns / MAX_CLASSIFY + 1, n = 0;

	if (code_reader__new(&r) < 0)
		return;
	code_reader__add_map(r, path, MAP_BASE, MAP_BASE + size + 4096, 0, err, sizeof(err));
	for (size_t i = 0; i < p->nr; i++) {
		const struct probe_sym *ps = &p->sym[i];

		if (!ps->func) {
			if (code__find_global(path, ps->name, &gv, err, sizeof(err)) == 0)
				touch(gv.type);
			continue;
		}
		for (unsigned int k = 0; k < ps->nr_insns; k++) {
			if (n++ % stride || ps->file_off == UINT64_MAX)
				continue;
			code_reader__classify(r, MAP_BASE + ps->file_off + ps->insn_end[k], false,
					      &info);
			touch(info.func);
			touch(info.why);
		}
		if (ps->code && ps->nr_insns) {
			unsigned int k = ps->nr_insns / 2;

			code__classify_bytes(ps->code, ps->code_len, ps->value,
					     ps->value + ps->insn_end[k], &info);
			sink += strlen(info.text);
		}
		if (ps->file_off != UINT64_MAX)
			touch(code_reader__function(r, MAP_BASE + ps->file_off + 1, false, &start));
	}
	code_reader__classify(r, MAP_BASE + p->extra[1] % (size + 1), false, &info);
	if (code__needs_library(path, "lib", lib, sizeof(lib)) == 1)
		touch(lib);
	code_reader__delete(r);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* nothing but the input: no build-id cache under $HOME, no debuginfod server */
	setenv("HOME", "/nonexistent", 1);
	unsetenv("DEBUGINFOD_URLS");
	elf_version(EV_CURRENT);
	cs_ok = cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK;
	if (cs_ok)
		cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct probe p;
	char path[64];
	int fd;
	char *copy;
	Elf *elf;

	if (!cs_ok)
		LLVMFuzzerInitialize(NULL, NULL);
	fd = memfd_create("debuginfo_fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* a private copy for libelf here: the input itself must stay untouched */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	memset(&p, 0, sizeof(p));
	if (elf)
		collect(elf, &p);
	probe_user(path, &p);
	probe_kernel(path, &p);
	probe_types(path, &p);
	probe_code(path, size, &p);
	if (elf)
		elf_end(elf);
	free(copy);
	close(fd);
	return 0;
}

/*
 * ---- the structure-aware mutator ----
 *
 * Random bytes in a valid object mostly break its ELF headers, or land in padding, or make
 * libdw refuse a whole unit; they rarely make a location list cover a register it did not, a
 * line program name file 7 of 3, or a symbol's size run past its section.  So four times in
 * five this mutator parses the input's section headers (ELF64 little-endian only, every
 * offset and size checked against the input; sizes and headers are never changed, so libelf
 * still opens the result) and rewrites one to four values inside one section, in place,
 * keeping every field its length:
 *
 *   .debug_info	each DIE attribute found through libdw: references retargeted (the DIE
 *			itself, its parent, another referring DIE, a unit header, past the end),
 *			constants (member locations, array bounds and counts, sizes, file and
 *			line numbers), section offsets, string offsets and indexes, addresses,
 *			flags, inline strings, the abbreviation code of a DIE, unit headers, and
 *			the DWARF expressions of exprloc/block values (below)
 *   .debug_abbrev	tags, children flags, attribute names, forms, implicit constants
 *   .debug_loc(lists)	list entry kinds, begin/end/base addresses and indexes, offset tables,
 *   .debug_(rng)ranges	expression lengths, and the expressions
 *   .debug_line	unit and header fields (version, lengths, opcode_base, line_range,
 *			standard opcode lengths, v5 entry formats and counts), directory and file
 *			entries, and each opcode of the programs and its operands (set_file's
 *			index, set_address, advance_pc/line, extended opcode lengths)
 *   .debug_str,	strings: unterminated (at the section's end: no NUL at all), emptied,
 *   .debug_line_str,	overwritten with "../" paths, format directives, mangled C++ names,
 *   .strtab, .dynstr	or another string of the section
 *   .symtab, .dynsym	st_name, st_info, st_other, st_shndx, st_value, st_size
 *   .text		an instruction's bytes flipped or replaced by one the attribution reads
 *			(memory operands, lock prefix, RIP-relative loads and stores, calls, jumps
 *			to themselves, stack slots, over-long prefixes)
 *   .rela.*		r_offset, symbol index, type, addend (where an ET_REL's DWARF offsets
 *			are)
 *   other .debug_*	aligned 4- and 8-byte words (.debug_addr, .debug_str_offsets, aranges,
 *			frames)
 *
 * Expressions: an opcode replaced (by registers, breg/fbreg, addr/addrx, entry values,
 * implicit pointers, calls, skip/bra, pieces, typed ops, unknown ones), an operand rewritten
 * (register numbers, offsets, branch targets), or the whole expression replaced by one that
 * vartype.c reads (DW_OP_regN; DW_OP_bregN K, DW_OP_stack_value; DW_OP_fbreg; ...) padded with
 * DW_OP_nop.  Integers get 0, 1, +-1, all ones, sign boundaries, powers of two, a bound from
 * elsewhere (a section's size, a count, another section's address), or random bits.  The rest
 * of the time, and when the input is no such ELF, libFuzzer's own byte mutations run.  Not
 * mutated: compressed sections, big-endian or 32-bit objects (except by libFuzzer), .eh_frame
 * as structure (as words only), type units' signatures.
 */

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return n ? (unsigned int)rand_r(seed) % n : 0;
}

static uint64_t rnd64(unsigned int *seed)
{
	return (uint64_t)rand_r(seed) << 33 ^ (uint64_t)rand_r(seed) << 11 ^ (uint64_t)rand_r(seed);
}

static uint64_t get_le(const uint8_t *p, unsigned int width)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < width && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, unsigned int width, uint64_t v)
{
	for (unsigned int i = 0; i < width && i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

#define MAX_SECS 512

struct sec {
	char name[32];
	uint64_t off, size, addr, flags, entsize;	/* size 0: nothing here to mutate */
	uint32_t type, link, info;
};

struct elf_view {
	struct sec s[MAX_SECS];
	size_t n;
	uint16_t type;
};

/* The section headers of an ELF64 LSB input, each checked against the input's size. */
static bool view_parse(struct elf_view *v, const uint8_t *d, size_t size)
{
	uint64_t shoff, shnum, shstrndx, stroff = 0, strsize = 0;

	v->n = 0;
	if (size < 64 || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS64 ||
	    d[EI_DATA] != ELFDATA2LSB)
		return false;
	v->type = (uint16_t)get_le(d + 16, 2);
	shoff = get_le(d + 0x28, 8);
	if (get_le(d + 0x3a, 2) != 64 || shoff > size || size - shoff < 64)
		return false;
	shnum = get_le(d + 0x3c, 2);
	shstrndx = get_le(d + 0x3e, 2);
	if (!shnum)
		shnum = get_le(d + shoff + 32, 8);	/* section 0's sh_size */
	if (shstrndx == SHN_XINDEX)
		shstrndx = get_le(d + shoff + 40, 4);	/* section 0's sh_link */
	if (shnum > (size - shoff) / 64)
		return false;
	if (shnum > MAX_SECS)
		shnum = MAX_SECS;
	if (shstrndx < shnum) {
		const uint8_t *h = d + shoff + shstrndx * 64;

		stroff = get_le(h + 24, 8);
		strsize = get_le(h + 32, 8);
		if (get_le(h + 4, 4) == SHT_NOBITS || stroff > size || strsize > size - stroff)
			strsize = 0;
	}
	for (uint64_t i = 0; i < shnum; i++) {
		const uint8_t *h = d + shoff + i * 64;
		struct sec *s = &v->s[v->n++];
		uint64_t name = get_le(h, 4);

		memset(s, 0, sizeof(*s));
		s->type = (uint32_t)get_le(h + 4, 4);
		s->flags = get_le(h + 8, 8);
		s->addr = get_le(h + 16, 8);
		s->off = get_le(h + 24, 8);
		s->size = get_le(h + 32, 8);
		s->link = (uint32_t)get_le(h + 40, 4);
		s->info = (uint32_t)get_le(h + 44, 4);
		s->entsize = get_le(h + 56, 8);
		if (s->type == SHT_NOBITS || s->type == SHT_NULL || (s->flags & SHF_COMPRESSED) ||
		    s->off > size || s->size > size - s->off)
			s->size = 0;
		for (size_t k = 0; name < strsize && k + 1 < sizeof(s->name); k++, name++) {
			char c = (char)d[stroff + name];

			if (!c)
				break;
			s->name[k] = c;
		}
	}
	return true;
}

static const struct sec *view_find(const struct elf_view *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->s[i].size && !strcmp(v->s[i].name, name))
			return &v->s[i];
	return NULL;
}

/* A random section whose name starts with @prefix (or of @type, when not 0), NULL if none. */
static const struct sec *view_pick(const struct elf_view *v, const char *prefix, uint32_t type,
				   unsigned int *seed)
{
	const struct sec *found = NULL;
	unsigned int n = 0;

	for (size_t i = 0; i < v->n; i++) {
		const struct sec *s = &v->s[i];

		if (!s->size || (type && s->type != type) ||
		    (prefix && strncmp(s->name, prefix, strlen(prefix))))
			continue;
		if (rnd(seed, ++n) == 0)
			found = s;	/* each with the same chance */
	}
	return found;
}

/* What a field is, so that the value it gets makes sense for it (or is its boundary). */
enum field_kind { F_INT, F_ULEB, F_SLEB, F_EXPR, F_STR, F_REF };
enum field_role {
	R_ANY, R_COUNT, R_OFFSET, R_ADDR, R_INDEX, R_LEN, R_FILE, R_LINE, R_REG, R_FORM, R_ATTR,
	R_TAG, R_OPCODE, R_KIND, R_SYMINFO, R_SHNDX,
};

struct field {
	uint32_t at, len;		/* in the input; F_STR: without its NUL */
	uint8_t kind, role;
	uint64_t hint;			/* the bound that matters: a section size, a count */
	uint64_t base, die, parent;	/* F_REF: what it is relative to, its DIE, the parent */
};

#define MAX_FIELDS 16384

struct fields {
	struct field f[MAX_FIELDS];
	size_t n, seen;
	unsigned int *seed;
	const uint8_t *d;
	size_t size;
};

static void field_add(struct fields *fs, struct field f)
{
	if (!f.len && f.kind != F_STR)
		return;
	/* a reservoir: every field of a big section has the same chance */
	fs->seen++;
	if (fs->n < MAX_FIELDS) {
		fs->f[fs->n++] = f;
	} else {
		uint64_t k = rnd64(fs->seed) % fs->seen;

		if (k < MAX_FIELDS)
			fs->f[k] = f;
	}
}

static void field_int(struct fields *fs, uint64_t at, unsigned int width, uint8_t role,
		      uint64_t hint)
{
	field_add(fs, (struct field){ .at = (uint32_t)at, .len = width, .kind = F_INT,
				      .role = role, .hint = hint });
}

/* A cursor over one section's bytes; any overrun sets @bad and stops the parse. */
struct cur {
	struct fields *fs;
	size_t at, end;
	bool bad;
};

static size_t uleb_len(const uint8_t *p, size_t room)
{
	for (size_t i = 0; i < room && i < 16; i++)
		if (!(p[i] & 0x80))
			return i + 1;
	return 0;
}

static uint64_t uleb_get(const uint8_t *p, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len && i < 10; i++)
		v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
	return v;
}

/* Rewrite a LEB128 in place in exactly @len bytes (the value cut to what fits). */
static void leb_put(uint8_t *p, size_t len, uint64_t v, bool sign)
{
	int64_t sv = (int64_t)v;

	for (size_t i = 0; i < len; i++) {
		uint8_t b;

		if (sign) {
			b = (uint8_t)(sv & 0x7f);
			sv >>= 7;
		} else {
			b = (uint8_t)(v & 0x7f);
			v >>= 7;
		}
		p[i] = (uint8_t)(b | (i + 1 < len ? 0x80 : 0));
	}
}

static uint64_t cur_int(struct cur *c, unsigned int width, uint8_t role, uint64_t hint)
{
	uint64_t v;

	if (c->bad || width > 8 || c->end - c->at < width) {
		c->bad = true;
		return 0;
	}
	v = get_le(c->fs->d + c->at, width);
	field_add(c->fs, (struct field){ .at = (uint32_t)c->at, .len = width, .kind = F_INT,
					 .role = role, .hint = hint });
	c->at += width;
	return v;
}

static uint64_t cur_leb(struct cur *c, bool sign, uint8_t role, uint64_t hint)
{
	size_t n = c->bad ? 0 : uleb_len(c->fs->d + c->at, c->end - c->at);
	uint64_t v;

	if (!n) {
		c->bad = true;
		return 0;
	}
	v = uleb_get(c->fs->d + c->at, n);
	field_add(c->fs, (struct field){ .at = (uint32_t)c->at, .len = (uint32_t)n,
					 .kind = sign ? F_SLEB : F_ULEB, .role = role,
					 .hint = hint });
	c->at += n;
	return v;
}

static void cur_skip(struct cur *c, uint64_t n)
{
	if (c->bad || n > c->end - c->at)
		c->bad = true;
	else
		c->at += n;
}

static void cur_str(struct cur *c)
{
	const uint8_t *p = c->fs->d + c->at;
	const uint8_t *nul = c->bad ? NULL : memchr(p, 0, c->end - c->at);

	if (!nul) {
		c->bad = true;
		return;
	}
	field_add(c->fs, (struct field){ .at = (uint32_t)c->at, .len = (uint32_t)(nul - p),
					 .kind = F_STR, .hint = c->end });
	c->at += (size_t)(nul - p) + 1;
}

static void cur_expr(struct cur *c, uint64_t len)
{
	if (c->bad || len > c->end - c->at) {
		c->bad = true;
		return;
	}
	if (len)
		field_add(c->fs, (struct field){ .at = (uint32_t)c->at, .len = (uint32_t)len,
						 .kind = F_EXPR });
	c->at += len;
}

static struct cur cur_of(struct fields *fs, const struct sec *s)
{
	return (struct cur){ .fs = fs, .at = s->off, .end = s->off + s->size };
}

/* A unit's initial length (32- or 64-bit DWARF): sets c->end to the unit's end. */
static size_t unit_begin(struct cur *c, unsigned int *offsize)
{
	size_t sec_end = c->end;
	uint64_t len = cur_int(c, 4, R_LEN, c->end - c->at);

	*offsize = 4;
	if (len == 0xffffffff) {
		len = cur_int(c, 8, R_LEN, c->end - c->at);
		*offsize = 8;
	}
	if (!c->bad && len < c->end - c->at)
		c->end = c->at + len;
	return sec_end;
}

/* A value of @form in a v5 line table header's directory or file entry. */
static void line_form(struct cur *c, uint64_t form, unsigned int offsize, uint64_t content)
{
	switch (form) {
	case DW_FORM_string:
		cur_str(c);
		break;
	case DW_FORM_line_strp:
	case DW_FORM_strp:
	case DW_FORM_sec_offset:
		cur_int(c, offsize, R_OFFSET, 0x1000);
		break;
	case DW_FORM_udata:
		cur_leb(c, false, content == DW_LNCT_directory_index ? R_INDEX : R_ANY, 8);
		break;
	case DW_FORM_data1:
	case DW_FORM_strx1:
		cur_int(c, 1, content == DW_LNCT_directory_index ? R_INDEX : R_ANY, 8);
		break;
	case DW_FORM_data2:
	case DW_FORM_strx2:
		cur_int(c, 2, R_ANY, 8);
		break;
	case DW_FORM_data4:
	case DW_FORM_strx4:
		cur_int(c, 4, R_ANY, 8);
		break;
	case DW_FORM_data8:
		cur_int(c, 8, R_ANY, 8);
		break;
	case DW_FORM_data16:
		cur_int(c, 8, R_ANY, 0);
		cur_int(c, 8, R_ANY, 0);
		break;
	case DW_FORM_block:
		cur_skip(c, cur_leb(c, false, R_LEN, 16));
		break;
	case DW_FORM_strx:
		cur_leb(c, false, R_INDEX, 16);
		break;
	default:
		c->bad = true;	/* what libdw does not know either */
		break;
	}
}

/* Every unit of a .debug_line: header fields, directories and files, and each opcode. */
static void parse_line(struct fields *fs, const struct sec *s)
{
	struct cur c = cur_of(fs, s);

	while (!c.bad && c.end - c.at >= 4) {
		unsigned int offsize;
		size_t sec_end = unit_begin(&c, &offsize), prog;
		uint64_t version, hlen, opcode_base, nfiles = 0;
		uint8_t std_len[256] = { 0 };

		version = cur_int(&c, 2, R_ANY, 5);
		if (version >= 5) {
			cur_int(&c, 1, R_COUNT, 8);	/* address_size */
			cur_int(&c, 1, R_COUNT, 0);	/* segment_selector_size */
		}
		hlen = cur_int(&c, offsize, R_LEN, c.end - c.at);
		prog = !c.bad && hlen <= c.end - c.at ? c.at + hlen : c.end;
		cur_int(&c, 1, R_COUNT, 1);		/* minimum_instruction_length */
		if (version >= 4)
			cur_int(&c, 1, R_COUNT, 1);	/* maximum_operations_per_instruction */
		cur_int(&c, 1, R_ANY, 1);		/* default_is_stmt */
		cur_int(&c, 1, R_ANY, 0xfb);		/* line_base */
		cur_int(&c, 1, R_COUNT, 14);		/* line_range */
		opcode_base = cur_int(&c, 1, R_COUNT, 13);
		for (uint64_t i = 1; i < opcode_base && !c.bad; i++)
			std_len[i] = (uint8_t)cur_int(&c, 1, R_COUNT, 1);
		if (version < 5) {
			while (!c.bad && c.at < prog && fs->d[c.at])
				cur_str(&c);			/* include_directories */
			cur_skip(&c, 1);
			while (!c.bad && c.at < prog && fs->d[c.at]) {
				cur_str(&c);			/* file_names */
				cur_leb(&c, false, R_INDEX, 4);
				cur_leb(&c, false, R_ANY, 0);
				cur_leb(&c, false, R_ANY, 0);
				nfiles++;
			}
		} else {
			for (int k = 0; k < 2 && !c.bad; k++) {	/* directories, then files */
				uint64_t fmt[2][16], nfmt, count;

				nfmt = cur_int(&c, 1, R_COUNT, 2);
				for (uint64_t i = 0; i < nfmt && !c.bad; i++) {
					uint64_t ct = cur_leb(&c, false, R_ANY, DW_LNCT_MD5);
					uint64_t form = cur_leb(&c, false, R_FORM, 0);

					if (i < 16) {
						fmt[0][i] = ct;
						fmt[1][i] = form;
					}
				}
				count = cur_leb(&c, false, R_COUNT, 8);
				if (nfmt > 16)
					c.bad = true;
				if (k)
					nfiles = count;
				for (uint64_t i = 0; i < count && i < 4096 && !c.bad; i++)
					for (uint64_t f = 0; f < nfmt && !c.bad; f++)
						line_form(&c, fmt[1][f], offsize, fmt[0][f]);
			}
		}
		if (c.bad)
			break;
		c.at = prog;
		while (!c.bad && c.at < c.end) {
			uint64_t op = cur_int(&c, 1, R_OPCODE, opcode_base), len;
			size_t sub;

			if (op >= opcode_base)
				continue;		/* a special opcode */
			switch (op) {
			case 0:				/* extended */
				len = cur_leb(&c, false, R_LEN, 9);
				sub = c.at;
				if (!len || c.bad)
					break;
				op = cur_int(&c, 1, R_ANY, DW_LNE_set_discriminator);
				if (op == DW_LNE_set_address && len - 1 <= 8)
					cur_int(&c, (unsigned int)(len - 1), R_ADDR, 0);
				else if (op == DW_LNE_set_discriminator)
					cur_leb(&c, false, R_ANY, 0);
				if (!c.bad && len <= c.end - sub)
					c.at = sub + len;
				else
					c.bad = true;
				break;
			case DW_LNS_advance_pc:
				cur_leb(&c, false, R_LEN, 16);
				break;
			case DW_LNS_advance_line:
				cur_leb(&c, true, R_LINE, 1);
				break;
			case DW_LNS_set_file:
				cur_leb(&c, false, R_FILE, nfiles);
				break;
			case DW_LNS_set_column:
			case DW_LNS_set_isa:
				cur_leb(&c, false, R_ANY, 0);
				break;
			case DW_LNS_fixed_advance_pc:
				cur_int(&c, 2, R_LEN, 16);
				break;
			case DW_LNS_copy:
			case DW_LNS_negate_stmt:
			case DW_LNS_set_basic_block:
			case DW_LNS_const_add_pc:
			case DW_LNS_set_prologue_end:
			case DW_LNS_set_epilogue_begin:
				break;
			default:
				for (unsigned int i = 0; i < std_len[op]; i++)
					cur_leb(&c, false, R_ANY, 0);
				break;
			}
		}
		c.at = c.end;
		c.end = sec_end;
		c.bad = false;
	}
}

/* The abbreviation tables: codes, tags, children flags, attribute names and forms. */
static void parse_abbrev(struct fields *fs, const struct sec *s)
{
	struct cur c = cur_of(fs, s);

	while (!c.bad && c.at < c.end) {
		if (!cur_leb(&c, false, R_INDEX, 64))
			continue;		/* the end of one unit's table */
		cur_leb(&c, false, R_TAG, 0);
		cur_int(&c, 1, R_ANY, 1);
		for (int n = 0; n < 1024 && !c.bad; n++) {
			uint64_t name = cur_leb(&c, false, R_ATTR, 0);
			uint64_t form = cur_leb(&c, false, R_FORM, 0);

			if (form == DW_FORM_implicit_const)
				cur_leb(&c, true, R_ANY, 0);
			if (!name && !form)
				break;
		}
	}
}

/* DWARF 4 .debug_loc (and, without expressions, .debug_ranges): address pairs. */
static void parse_pairs(struct fields *fs, const struct sec *s, bool exprs)
{
	struct cur c = cur_of(fs, s);

	while (!c.bad && c.end - c.at >= 16) {
		uint64_t b = cur_int(&c, 8, R_ADDR, 0), e = cur_int(&c, 8, R_ADDR, 0);

		if ((!b && !e) || b == UINT64_MAX || !exprs)
			continue;	/* the end of a list, or a base address */
		cur_expr(&c, cur_int(&c, 2, R_LEN, 16));
	}
}

/*
 * DWARF 5 .debug_loclists and .debug_rnglists: unit headers, offset tables, and entries
 * whose operands @kinds spells per entry kind: u ULEB128, a address, E counted expression.
 */
static void parse_lists(struct fields *fs, const struct sec *s, const char *const *kinds,
			unsigned int nr_kinds)
{
	struct cur c = cur_of(fs, s);

	while (!c.bad && c.end - c.at >= 12) {
		unsigned int offsize;
		size_t sec_end = unit_begin(&c, &offsize);
		uint64_t addr_size, count;

		cur_int(&c, 2, R_ANY, 5);
		addr_size = cur_int(&c, 1, R_COUNT, 8);
		cur_int(&c, 1, R_COUNT, 0);
		count = cur_int(&c, 4, R_COUNT, 0);
		for (uint64_t i = 0; i < count && i < 4096 && !c.bad; i++)
			cur_int(&c, offsize, R_OFFSET, c.end - c.at);
		while (!c.bad && c.at < c.end) {
			uint64_t kind = cur_int(&c, 1, R_KIND, nr_kinds);

			if (kind >= nr_kinds)
				break;
			for (const char *k = kinds[kind]; *k && !c.bad; k++) {
				if (*k == 'u')
					cur_leb(&c, false, R_INDEX, 16);
				else if (*k == 'a')
					cur_int(&c, addr_size <= 8 ? (unsigned int)addr_size : 9,
						R_ADDR, 0);
				else
					cur_expr(&c, cur_leb(&c, false, R_LEN, 16));
			}
		}
		c.at = c.end;
		c.end = sec_end;
		c.bad = false;
	}
}

static const char *const lle_kinds[] = { "", "u", "uuE", "uuE", "uuE", "E", "a", "aaE", "auE",
					 "uu" };
static const char *const rle_kinds[] = { "", "u", "uu", "uu", "uu", "a", "aa", "au" };

static void parse_symtab(struct fields *fs, const struct sec *s, const struct elf_view *v)
{
	uint64_t strsize = s->link < v->n ? v->s[s->link].size : 0;

	for (uint64_t at = s->off + 24; at + 24 <= s->off + s->size; at += 24) {
		field_int(fs, at, 4, R_OFFSET, strsize);
		field_int(fs, at + 4, 1, R_SYMINFO, 0);
		field_int(fs, at + 5, 1, R_ANY, 3);
		field_int(fs, at + 6, 2, R_SHNDX, v->n);
		field_int(fs, at + 8, 8, R_ADDR, 0);
		field_int(fs, at + 16, 8, R_COUNT, 0x1000);
	}
}

static void parse_rela(struct fields *fs, const struct sec *s, const struct elf_view *v)
{
	uint64_t target = s->info < v->n ? v->s[s->info].size : 0;
	uint64_t nsyms = s->link < v->n ? v->s[s->link].size / 24 : 0;

	for (uint64_t at = s->off; at + 24 <= s->off + s->size; at += 24) {
		field_int(fs, at, 8, R_OFFSET, target);
		field_int(fs, at + 8, 4, R_ANY, R_X86_64_NUM);
		field_int(fs, at + 12, 4, R_INDEX, nsyms);
		field_int(fs, at + 16, 8, R_OFFSET, 0x1000);
	}
}

static void parse_strings(struct fields *fs, const struct sec *s)
{
	struct cur c = cur_of(fs, s);

	while (!c.bad && c.at < c.end)
		cur_str(&c);
	if (c.bad && c.at < c.end)	/* an unterminated last string */
		field_add(fs, (struct field){ .at = (uint32_t)c.at,
					      .len = (uint32_t)(c.end - c.at), .kind = F_STR,
					      .hint = c.end });
}

/* .debug_info through libdw: where each attribute's value lies in the input, and its form. */
struct info_walk {
	struct fields *fs;
	const struct elf_view *v;
	uint64_t cu, die, parent;
	unsigned int offsize, addr_size;
};

static uint8_t attr_role(unsigned int name)
{
	switch (name) {
	case DW_AT_upper_bound:
	case DW_AT_lower_bound:
	case DW_AT_count:
	case DW_AT_byte_size:
	case DW_AT_bit_size:
		return R_COUNT;
	case DW_AT_data_member_location:
	case DW_AT_data_bit_offset:
	case DW_AT_bit_offset:
		return R_OFFSET;
	case DW_AT_decl_file:
	case DW_AT_call_file:
		return R_FILE;
	case DW_AT_decl_line:
	case DW_AT_call_line:
		return R_LINE;
	case DW_AT_high_pc:
		return R_LEN;
	default:
		return R_ANY;
	}
}

static uint64_t sec_size(const struct elf_view *v, const char *a, const char *b)
{
	const struct sec *s = view_find(v, a);

	if (!s && b)
		s = view_find(v, b);
	return s ? s->size : 0;
}

static int note_attr(Dwarf_Attribute *a, void *arg)
{
	struct info_walk *w = arg;
	struct fields *fs = w->fs;
	unsigned int form = dwarf_whatform(a), name = dwarf_whatattr(a), width = 0;
	const uint8_t *p = a->valp;
	struct field f = { .kind = F_INT, .role = attr_role(name) };
	Dwarf_Block blk;

	if (!p || p < fs->d || p >= fs->d + fs->size)
		return DWARF_CB_OK;
	f.at = (uint32_t)(p - fs->d);
	switch (form) {
	case DW_FORM_ref1: width = 1; goto ref;
	case DW_FORM_ref2: width = 2; goto ref;
	case DW_FORM_ref4: width = 4; goto ref;
	case DW_FORM_ref8: width = 8; goto ref;
	case DW_FORM_ref_addr:
		width = w->offsize;
ref:
		f.kind = F_REF;
		f.len = width;
		f.base = form == DW_FORM_ref_addr ? 0 : w->cu;
		f.die = w->die;
		f.parent = w->parent;
		break;
	case DW_FORM_data1: case DW_FORM_flag: case DW_FORM_strx1: case DW_FORM_addrx1:
		f.len = 1;
		break;
	case DW_FORM_data2: case DW_FORM_strx2: case DW_FORM_addrx2:
		f.len = 2;
		break;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		f.len = 3;
		break;
	case DW_FORM_data4: case DW_FORM_strx4: case DW_FORM_addrx4: case DW_FORM_ref_sup4:
		f.len = 4;
		break;
	case DW_FORM_data8: case DW_FORM_data16: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		f.len = 8;
		break;
	case DW_FORM_addr:
		f.len = w->addr_size <= 8 ? w->addr_size : 8;
		f.role = R_ADDR;
		break;
	case DW_FORM_sec_offset:
		f.len = w->offsize;
		f.role = R_OFFSET;
		f.hint = name == DW_AT_stmt_list ? sec_size(w->v, ".debug_line", NULL) :
			 name == DW_AT_ranges ? sec_size(w->v, ".debug_rnglists", ".debug_ranges") :
			 sec_size(w->v, ".debug_loclists", ".debug_loc");
		break;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_GNU_strp_alt:
		f.len = w->offsize;
		f.role = R_OFFSET;
		f.hint = sec_size(w->v, form == DW_FORM_line_strp ? ".debug_line_str" :
				  ".debug_str", NULL);
		break;
	case DW_FORM_udata: case DW_FORM_sdata: case DW_FORM_implicit_const:
	case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
	case DW_FORM_rnglistx: case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		f.kind = form == DW_FORM_sdata || form == DW_FORM_implicit_const ? F_SLEB : F_ULEB;
		f.len = (uint32_t)uleb_len(p, (size_t)(fs->d + fs->size - p));
		if (form != DW_FORM_udata && form != DW_FORM_sdata &&
		    form != DW_FORM_implicit_const)
			f.role = R_INDEX;
		break;
	case DW_FORM_string:
		f.kind = F_STR;
		f.len = (uint32_t)strnlen((const char *)p, (size_t)(fs->d + fs->size - p));
		f.hint = f.at + f.len < fs->size ? f.at + f.len + 1 : fs->size;
		if (f.at + f.len >= fs->size)
			return DWARF_CB_OK;
		break;
	case DW_FORM_exprloc: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4:
		if (dwarf_formblock(a, &blk) || !blk.data || blk.data < fs->d ||
		    blk.data > fs->d + fs->size || blk.length > (size_t)(fs->d + fs->size -
									  blk.data))
			return DWARF_CB_OK;
		/* the length in front of it, now and then; mostly the expression */
		f.len = form == DW_FORM_block2 ? 2 : form == DW_FORM_block4 ? 4 : 1;
		f.kind = form == DW_FORM_exprloc || form == DW_FORM_block ? F_ULEB : F_INT;
		f.len = f.kind == F_ULEB ? (uint32_t)(blk.data - p) : f.len;
		f.role = R_LEN;
		f.hint = blk.length;
		if (f.len && rnd(fs->seed, 4) == 0)
			break;
		f = (struct field){ .at = (uint32_t)(blk.data - fs->d), .len = (uint32_t)blk.length,
				    .kind = F_EXPR };
		break;
	default:
		return DWARF_CB_OK;
	}
	if (f.len && f.at + f.len <= fs->size)
		field_add(fs, f);
	return DWARF_CB_OK;
}

static void parse_info(struct fields *fs, const struct elf_view *v)
{
	Elf *elf = elf_memory((char *)fs->d, fs->size);
	Dwarf *dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	struct info_walk w = { .fs = fs, .v = v };
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint8_t offsize, addr_size;
	Dwarf_Half version;
	unsigned int budget = 100000;

	while (dw && dwarf_next_unit(dw, off, &next, &hsize, &version, NULL, &addr_size, &offsize,
				     NULL, NULL) == 0) {
		Dwarf_Die stack[64], die;
		int depth = 0;

		w.cu = off;
		w.offsize = version < 3 ? addr_size : offsize;
		w.addr_size = addr_size;
		if (!dwarf_offdie(dw, off + hsize, &die))
			break;
		stack[0] = die;
		while (depth >= 0 && budget--) {
			Dwarf_Die child;
			const uint8_t *code = stack[depth].addr;

			w.die = dwarf_dieoffset(&stack[depth]);
			w.parent = depth ? dwarf_dieoffset(&stack[depth - 1]) : w.die;
			if (code >= fs->d && code < fs->d + fs->size && rnd(fs->seed, 8) == 0)
				field_add(fs, (struct field){
					.at = (uint32_t)(code - fs->d), .kind = F_ULEB,
					.len = (uint32_t)uleb_len(code, (size_t)(fs->d + fs->size -
										 code)),
					.role = R_INDEX, .hint = 64 });
			dwarf_getattrs(&stack[depth], note_attr, &w, 0);
			if (depth + 1 < 64 && dwarf_child(&stack[depth], &child) == 0) {
				stack[++depth] = child;
				continue;
			}
			while (depth >= 0 && dwarf_siblingof(&stack[depth], &stack[depth]) != 0)
				depth--;
		}
		off = next;
	}
	if (dw)
		dwarf_end(dw);
	if (elf)
		elf_end(elf);
	/* and the unit headers themselves */
	{
		const struct sec *s = view_find(v, ".debug_info");
		struct cur c;

		if (!s)
			return;
		c = cur_of(fs, s);
		while (!c.bad && c.end - c.at >= 11) {
			unsigned int os;
			size_t sec_end = unit_begin(&c, &os);
			uint64_t ver = cur_int(&c, 2, R_ANY, 5);

			if (ver >= 5)
				cur_int(&c, 1, R_ANY, DW_UT_type);
			if (ver >= 5)
				cur_int(&c, 1, R_COUNT, 8);
			cur_int(&c, os, R_OFFSET, sec_size(v, ".debug_abbrev", NULL));
			if (ver < 5)
				cur_int(&c, 1, R_COUNT, 8);
			c.at = c.end;
			c.end = sec_end;
		}
	}
}

/* ---- values ---- */

static const uint16_t forms[] = {
	DW_FORM_addr, DW_FORM_block2, DW_FORM_block4, DW_FORM_data2, DW_FORM_data4,
	DW_FORM_data8, DW_FORM_string, DW_FORM_block, DW_FORM_block1, DW_FORM_data1,
	DW_FORM_flag, DW_FORM_sdata, DW_FORM_strp, DW_FORM_udata, DW_FORM_ref_addr, DW_FORM_ref1,
	DW_FORM_ref2, DW_FORM_ref4, DW_FORM_ref8, DW_FORM_ref_udata, DW_FORM_indirect,
	DW_FORM_sec_offset, DW_FORM_exprloc, DW_FORM_flag_present, DW_FORM_strx,
	DW_FORM_addrx, DW_FORM_ref_sup4, DW_FORM_strp_sup, DW_FORM_data16, DW_FORM_line_strp,
	DW_FORM_ref_sig8, DW_FORM_implicit_const, DW_FORM_loclistx, DW_FORM_rnglistx,
	DW_FORM_ref_sup8, DW_FORM_strx1, DW_FORM_strx2, DW_FORM_strx3, DW_FORM_strx4,
	DW_FORM_addrx1, DW_FORM_addrx2, DW_FORM_addrx3, DW_FORM_addrx4, 0, 0x2d, 0x7f,
	DW_FORM_GNU_addr_index, DW_FORM_GNU_str_index, DW_FORM_GNU_ref_alt,
	DW_FORM_GNU_strp_alt,
};

static const uint16_t attrs[] = {
	DW_AT_sibling, DW_AT_location, DW_AT_name, DW_AT_byte_size, DW_AT_bit_size,
	DW_AT_stmt_list, DW_AT_low_pc, DW_AT_high_pc, DW_AT_language, DW_AT_comp_dir,
	DW_AT_const_value, DW_AT_inline, DW_AT_lower_bound, DW_AT_upper_bound,
	DW_AT_abstract_origin, DW_AT_artificial, DW_AT_count, DW_AT_data_member_location,
	DW_AT_decl_file, DW_AT_decl_line, DW_AT_declaration, DW_AT_external, DW_AT_frame_base,
	DW_AT_specification, DW_AT_type, DW_AT_ranges, DW_AT_entry_pc, DW_AT_call_file,
	DW_AT_call_line, DW_AT_data_bit_offset, DW_AT_linkage_name, DW_AT_str_offsets_base,
	DW_AT_addr_base, DW_AT_rnglists_base, DW_AT_loclists_base, DW_AT_MIPS_linkage_name,
	0x2136 /* DW_AT_GNU_discriminator */, 0,
};

static const uint16_t tags[] = {
	DW_TAG_array_type, DW_TAG_class_type, DW_TAG_lexical_block, DW_TAG_member,
	DW_TAG_pointer_type, DW_TAG_reference_type, DW_TAG_compile_unit, DW_TAG_structure_type,
	DW_TAG_subroutine_type, DW_TAG_typedef, DW_TAG_union_type, DW_TAG_inheritance,
	DW_TAG_inlined_subroutine, DW_TAG_subrange_type, DW_TAG_base_type, DW_TAG_const_type,
	DW_TAG_enumeration_type, DW_TAG_formal_parameter, DW_TAG_subprogram, DW_TAG_variable,
	DW_TAG_volatile_type, DW_TAG_restrict_type, DW_TAG_atomic_type, DW_TAG_partial_unit,
	DW_TAG_imported_unit, DW_TAG_call_site, DW_TAG_GNU_call_site, 0,
};

/* A value for an integer of @bits bits that is now @cur: a boundary, or near one. */
static uint64_t pick(unsigned int *seed, uint64_t cur, unsigned int bits, uint64_t hint)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1, v;

	switch (rnd(seed, 18)) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = cur + 1; break;
	case 3: v = cur - 1; break;
	case 4: v = mask; break;
	case 5: v = mask >> 1; break;
	case 6: v = (mask >> 1) + 1; break;
	case 7: v = 1ull << rnd(seed, bits ? bits : 1); break;
	case 8: v = hint; break;
	case 9: v = hint - 1; break;
	case 10: v = hint + 1; break;
	case 11: v = cur ^ (1ull << rnd(seed, bits ? bits : 1)); break;
	case 12: v = cur + rnd(seed, 33) - 16; break;
	case 13: v = cur * 2 + 1; break;
	case 14: v = cur + hint / 2; break;
	case 15: v = hint * 8; break;
	case 16: v = rnd(seed, 256); break;
	default: v = rnd64(seed); break;
	}
	return v & mask;
}

/* An address the object knows: a section's start, middle, end, or just past it. */
static uint64_t pick_addr(unsigned int *seed, const struct elf_view *v, uint64_t cur,
			  unsigned int bits)
{
	const struct sec *s = v->n ? &v->s[rnd(seed, (unsigned int)v->n)] : NULL;

	if (!s || rnd(seed, 3) == 0)
		return pick(seed, cur, bits, 0x1000);
	switch (rnd(seed, 4)) {
	case 0: return s->addr;
	case 1: return s->addr + s->size / 2;
	case 2: return s->addr + s->size;
	default: return s->addr + s->size - 1;
	}
}

static uint64_t pick_role(unsigned int *seed, const struct field *f, uint64_t cur,
			  unsigned int bits, const struct elf_view *v)
{
	static const uint8_t types[] = { STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION, STT_FILE,
					 STT_COMMON, STT_TLS, STT_GNU_IFUNC, 15 };
	static const uint8_t binds[] = { STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE };
	static const uint16_t shndx[] = { SHN_UNDEF, SHN_ABS, SHN_COMMON, SHN_XINDEX, 0xffff,
					  SHN_LORESERVE };

	if (rnd(seed, 4) == 0)
		return pick(seed, cur, bits, f->hint);
	switch (f->role) {
	case R_ADDR:
		return pick_addr(seed, v, cur, bits);
	case R_REG:
		return rnd(seed, 4) ? rnd(seed, 17) :
				      (uint64_t[]){ 31, 32, 127, 128, 65535 }[rnd(seed, 5)];
	case R_FORM:
		return forms[rnd(seed, sizeof(forms) / sizeof(forms[0]))];
	case R_ATTR:
		return attrs[rnd(seed, sizeof(attrs) / sizeof(attrs[0]))];
	case R_TAG:
		return tags[rnd(seed, sizeof(tags) / sizeof(tags[0]))];
	case R_OPCODE:
		return rnd(seed, 2) ? rnd(seed, (unsigned int)f->hint + 1) : rnd(seed, 256);
	case R_KIND:
		return rnd(seed, (unsigned int)f->hint + 2);
	case R_SYMINFO:
		return (uint64_t)binds[rnd(seed, 4)] << 4 | types[rnd(seed, sizeof(types))];
	case R_SHNDX:
		return rnd(seed, 2) ? rnd(seed, (unsigned int)f->hint + 1) :
				      shndx[rnd(seed, sizeof(shndx) / sizeof(shndx[0]))];
	case R_FILE:
	case R_INDEX:
	case R_COUNT:
		return rnd(seed, 2) ? f->hint + rnd(seed, 3) - 1 : pick(seed, cur, bits, f->hint);
	default:
		return pick(seed, cur, bits, f->hint);
	}
}

/* Length of the DWARF operation at @p (operands included), 0 when unknown or cut off. */
static size_t op_len(const uint8_t *p, size_t room)
{
	size_t n = 1, k;

	if (!room)
		return 0;
#define LEB() do { k = uleb_len(p + n, room - n); if (!k) return 0; n += k; } while (0)
#define FIX(w) do { if (room - n < (w)) return 0; n += (w); } while (0)
	switch (p[0]) {
	case DW_OP_addr: case DW_OP_const8u: case DW_OP_const8s: FIX(8); break;
	case DW_OP_const1u: case DW_OP_const1s: case DW_OP_pick: case DW_OP_deref_size:
	case DW_OP_xderef_size: FIX(1); break;
	case DW_OP_const2u: case DW_OP_const2s: case DW_OP_skip: case DW_OP_bra:
	case DW_OP_call2: FIX(2); break;
	case DW_OP_const4u: case DW_OP_const4s: case DW_OP_call4: case DW_OP_call_ref:
	case DW_OP_GNU_parameter_ref: case DW_OP_GNU_variable_value: FIX(4); break;
	case DW_OP_constu: case DW_OP_consts: case DW_OP_plus_uconst: case DW_OP_regx:
	case DW_OP_piece: case DW_OP_fbreg: case DW_OP_addrx: case DW_OP_constx:
	case DW_OP_GNU_addr_index: case DW_OP_GNU_const_index: case DW_OP_convert:
	case DW_OP_reinterpret: case DW_OP_GNU_convert: case DW_OP_GNU_reinterpret:
		LEB(); break;
	case DW_OP_bregx: case DW_OP_bit_piece: case DW_OP_regval_type:
	case DW_OP_GNU_regval_type: LEB(); LEB(); break;
	case DW_OP_deref_type: case DW_OP_GNU_deref_type: FIX(1); LEB(); break;
	case DW_OP_implicit_pointer: case DW_OP_GNU_implicit_pointer: FIX(4); LEB(); break;
	case DW_OP_implicit_value: case DW_OP_entry_value: case DW_OP_GNU_entry_value: {
		uint64_t len;

		k = uleb_len(p + n, room - n);
		if (!k)
			return 0;
		len = uleb_get(p + n, k);
		n += k;
		if (len > room - n)
			return 0;
		n += len;
		break;
	}
	case DW_OP_const_type: case DW_OP_GNU_const_type:
		LEB();
		if (room - n < 1 || p[n] > room - n - 1)
			return 0;
		n += 1 + p[n];
		break;
	default:
		if (p[0] >= DW_OP_breg0 && p[0] <= DW_OP_breg31)
			LEB();
		break;
	}
#undef LEB
#undef FIX
	return n;
}

static const uint8_t ops[] = {
	DW_OP_addr, DW_OP_deref, DW_OP_const1u, DW_OP_constu, DW_OP_consts, DW_OP_dup,
	DW_OP_plus_uconst, DW_OP_skip, DW_OP_bra, DW_OP_reg0, DW_OP_reg3, DW_OP_reg5,
	DW_OP_reg6, DW_OP_reg15, DW_OP_reg31, DW_OP_breg0, DW_OP_breg5, DW_OP_breg6,
	DW_OP_breg7, DW_OP_regx, DW_OP_fbreg, DW_OP_bregx, DW_OP_piece, DW_OP_deref_size,
	DW_OP_call2, DW_OP_call4, DW_OP_call_ref, DW_OP_call_frame_cfa, DW_OP_bit_piece,
	DW_OP_implicit_value, DW_OP_stack_value, DW_OP_implicit_pointer, DW_OP_addrx,
	DW_OP_constx, DW_OP_entry_value, DW_OP_const_type, DW_OP_regval_type, DW_OP_deref_type,
	DW_OP_convert, DW_OP_GNU_entry_value, DW_OP_GNU_implicit_pointer,
	DW_OP_GNU_parameter_ref, DW_OP_GNU_variable_value, DW_OP_GNU_push_tls_address,
	DW_OP_nop, 0xff, 0x00,
};

/* A whole expression vartype.c reads, into @len bytes, padded with DW_OP_nop. */
static bool expr_template(uint8_t *p, size_t len, unsigned int *seed, const struct elf_view *v)
{
	uint8_t t[32];
	size_t n = 0;
	unsigned int reg = rnd(seed, 4) ? rnd(seed, 16) : rnd(seed, 32);
	int64_t k = (int64_t[]){ 0, 8, -8, 16, -24, 0x40, 0x7fffffff, INT64_MIN }[rnd(seed, 8)];
	uint64_t a;

	switch (rnd(seed, 12)) {
	case 0:
		t[n++] = (uint8_t)(DW_OP_reg0 + reg);
		break;
	case 1:
		t[n++] = (uint8_t)(DW_OP_breg0 + reg);
		leb_put(t + n, 3, (uint64_t)k, true);
		n += 3;
		t[n++] = DW_OP_stack_value;
		break;
	case 2:
		t[n++] = DW_OP_fbreg;
		leb_put(t + n, 3, (uint64_t)k, true);
		n += 3;
		break;
	case 3:
		a = pick_addr(seed, v, 0, 64);
		t[n++] = DW_OP_addr;
		put_le(t + n, 8, a);
		n += 8;
		break;
	case 4:
		t[n++] = DW_OP_call_frame_cfa;
		break;
	case 5:
		t[n++] = DW_OP_regx;
		leb_put(t + n, 2, pick(seed, reg, 14, 16), false);
		n += 2;
		break;
	case 6:
		t[n++] = DW_OP_entry_value;
		t[n++] = 1;
		t[n++] = (uint8_t)(DW_OP_reg0 + reg);
		t[n++] = DW_OP_stack_value;
		break;
	case 7:
		t[n++] = (uint8_t)(DW_OP_reg0 + reg);
		t[n++] = DW_OP_piece;
		t[n++] = 8;
		t[n++] = (uint8_t)(DW_OP_reg0 + rnd(seed, 16));
		t[n++] = DW_OP_piece;
		t[n++] = (uint8_t)rnd(seed, 128);
		break;
	case 8:
		t[n++] = DW_OP_skip;
		put_le(t + n, 2, (uint64_t)-3);	/* to itself */
		n += 2;
		break;
	case 9:
		t[n++] = rnd(seed, 2) ? DW_OP_call4 : DW_OP_GNU_implicit_pointer;
		put_le(t + n, 4, pick(seed, 0, 32, 0x100));
		n += 4;
		t[n++] = 0;
		break;
	case 10:
		t[n++] = DW_OP_bregx;
		leb_put(t + n, 1, reg, false);
		n += 1;
		leb_put(t + n, 2, (uint64_t)k, true);
		n += 2;
		break;
	default:
		t[n++] = DW_OP_addrx;
		leb_put(t + n, 2, pick(seed, 0, 14, 16), false);
		n += 2;
		break;
	}
	if (n > len)
		return false;
	memcpy(p, t, n);
	memset(p + n, DW_OP_nop, len - n);
	return true;
}

static void mutate_expr(uint8_t *p, size_t len, unsigned int *seed, const struct elf_view *v)
{
	size_t starts[64] = { 0 }, nr = 0, at = 0, k, n;
	uint8_t *op;

	while (at < len && nr < 64) {
		starts[nr++] = at;
		n = op_len(p + at, len - at);
		if (!n)
			break;
		at += n;
	}
	op = p + starts[rnd(seed, (unsigned int)nr)];
	switch (rnd(seed, 8)) {
	case 0:
	case 1:
		*op = ops[rnd(seed, sizeof(ops))];
		break;
	case 2:
	case 3:
		if (expr_template(p, len, seed, v))
			break;
		/* fall through */
	case 4:
	case 5:
	case 6:
		/* an operand: the first one of this operation */
		n = op_len(op, len - (size_t)(op - p));
		if (n <= 1) {
			*op = ops[rnd(seed, sizeof(ops))];
			break;
		}
		if ((*op >= DW_OP_breg0 && *op <= DW_OP_breg31) || *op == DW_OP_fbreg ||
		    *op == DW_OP_consts) {
			k = uleb_len(op + 1, n - 1);
			leb_put(op + 1, k, pick(seed, uleb_get(op + 1, k), 7 * (unsigned int)k, 8),
				true);
		} else if (*op == DW_OP_regx || *op == DW_OP_bregx || *op == DW_OP_piece ||
			   *op == DW_OP_constu || *op == DW_OP_plus_uconst || *op == DW_OP_addrx ||
			   *op == DW_OP_constx || *op == DW_OP_entry_value ||
			   *op == DW_OP_GNU_entry_value || *op == DW_OP_implicit_value) {
			bool reg = *op == DW_OP_regx || *op == DW_OP_bregx;
			unsigned int bits;

			k = uleb_len(op + 1, n - 1);
			bits = 7 * (unsigned int)k;
			leb_put(op + 1, k, reg && rnd(seed, 2) ? rnd(seed, 17) :
				pick(seed, reg ? 0 : uleb_get(op + 1, k), bits, reg ? 16 : len),
				false);
		} else if (*op == DW_OP_addr) {
			put_le(op + 1, 8, pick_addr(seed, v, get_le(op + 1, 8), 64));
		} else {
			unsigned int w = n - 1 > 8 ? 8 : (unsigned int)(n - 1);

			put_le(op + 1, w, pick(seed, get_le(op + 1, w), 8 * w, len));
		}
		break;
	default:
		p[rnd(seed, (unsigned int)len)] ^= (uint8_t)(1u << rnd(seed, 8));
		break;
	}
}

static void mutate_str(uint8_t *d, const struct field *f, const struct fields *fs,
		       unsigned int *seed)
{
	static const char *const pats[] = {
		"../../../../../../etc/passwd", "/", "..", "./../x/../../y", "%s%s%s%n%x",
		"_ZN7counter4bumpEPS_l", "_Z",
		"_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
		"_ZN1aclEv", "operator()", "operator<", "(anonymous namespace)::x", "\xff\xfe\x80",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"a/", "/tmp/perf-1.map", "[vdso]", "counter_walk", "g_stats",
	};
	uint8_t *p = d + f->at;
	size_t len = f->len, n;
	const char *pat;

	switch (rnd(seed, 6)) {
	case 0:	/* no terminator: runs into the next string, or off the section's end */
		if (f->at + len < f->hint)
			p[len] = 'A';
		break;
	case 1:
		if (len)
			p[0] = 0;
		break;
	case 2:
	case 3:
		pat = pats[rnd(seed, sizeof(pats) / sizeof(pats[0]))];
		n = strlen(pat) < len ? strlen(pat) : len;
		memcpy(p, pat, n);
		if (n < len)
			p[n] = 0;
		break;
	case 4:
		if (len)
			p[rnd(seed, (unsigned int)len)] = (uint8_t)"/.%\xff\x01 "[rnd(seed, 6)];
		break;
	default: {
		/* another string of the section */
		const struct field *o = &fs->f[rnd(seed, (unsigned int)fs->n)];

		if (o->kind == F_STR && o != f) {
			n = o->len < len ? o->len : len;
			memmove(p, d + o->at, n);
			if (n < len)
				p[n] = 0;
		}
		break;
	}
	}
}

/* Point reference @f at another DIE: itself, its parent, a referring DIE, a unit, beyond. */
static void retarget(uint8_t *d, const struct fields *fs, const struct field *f,
		     unsigned int *seed)
{
	const struct field *o = &fs->f[rnd(seed, (unsigned int)fs->n)];
	uint64_t target;

	switch (rnd(seed, 7)) {
	case 0: target = f->die; break;
	case 1: target = f->parent; break;
	case 2:
		/* two pointing at each other */
		if (o->kind == F_REF && f->die >= o->base)
			put_le(d + o->at, o->len, f->die - o->base);
		target = o->kind == F_REF ? o->die : f->parent;
		break;
	case 3: target = f->base; break;		/* the unit's header */
	case 4: target = f->base + pick(seed, 0, 16, 0x100); break;
	case 5: target = pick(seed, get_le(d + f->at, f->len), 8 * f->len, 0) + f->base; break;
	default: target = o->kind == F_REF ? o->die : f->die; break;
	}
	if (target >= f->base)
		put_le(d + f->at, f->len, target - f->base);
}

static void mutate_field(uint8_t *d, const struct fields *fs, const struct field *f,
			 unsigned int *seed, const struct elf_view *v)
{
	uint64_t cur;

	switch (f->kind) {
	case F_INT:
		cur = get_le(d + f->at, f->len);
		put_le(d + f->at, f->len, pick_role(seed, f, cur, 8 * f->len, v));
		break;
	case F_ULEB:
	case F_SLEB:
		cur = uleb_get(d + f->at, f->len);
		leb_put(d + f->at, f->len, pick_role(seed, f, cur, 7 * f->len, v),
			f->kind == F_SLEB);
		break;
	case F_EXPR:
		mutate_expr(d + f->at, f->len, seed, v);
		break;
	case F_STR:
		mutate_str(d, f, fs, seed);
		break;
	case F_REF:
		retarget(d, fs, f, seed);
		break;
	}
}

/* Instructions the attribution reads; a 0x44 byte is a disp8 or a register to vary. */
static const struct {
	uint8_t len, b[8];
} insns[] = {
	{ 6, { 0xf0, 0x48, 0x0f, 0xc1, 0x47, 0x08 } },		/* lock xadd [rdi+8], rax */
	{ 4, { 0x48, 0x8b, 0x47, 0x10 } },			/* mov rax, [rdi+0x10] */
	{ 4, { 0x48, 0x89, 0x43, 0x18 } },			/* mov [rbx+0x18], rax */
	{ 7, { 0x48, 0x89, 0x05, 0x10, 0x00, 0x00, 0x00 } },	/* mov [rip+0x10], rax */
	{ 7, { 0x48, 0x8b, 0x05, 0xf0, 0xff, 0xff, 0xff } },	/* mov rax, [rip-0x10] */
	{ 5, { 0xe8, 0x00, 0x00, 0x00, 0x00 } },		/* call next */
	{ 5, { 0xe8, 0xfb, 0xff, 0xff, 0xff } },		/* call itself */
	{ 2, { 0xeb, 0xfe } },					/* jmp itself */
	{ 5, { 0xe9, 0x00, 0x01, 0x00, 0x00 } },		/* jmp forward */
	{ 4, { 0x48, 0x8d, 0x7b, 0x38 } },			/* lea rdi, [rbx+0x38] */
	{ 3, { 0x48, 0x89, 0xdf } },				/* mov rdi, rbx */
	{ 4, { 0x48, 0x8b, 0x45, 0xe8 } },			/* mov rax, [rbp-0x18] */
	{ 4, { 0x48, 0x89, 0x45, 0xe8 } },			/* mov [rbp-0x18], rax */
	{ 4, { 0x48, 0x83, 0xc0, 0x08 } },			/* add rax, 8 */
	{ 5, { 0x48, 0x8b, 0x44, 0xc8, 0x10 } },		/* mov rax, [rax+rcx*8+0x10] */
	{ 1, { 0xc3 } },					/* ret */
	{ 2, { 0xf3, 0xa4 } },					/* rep movsb */
	{ 5, { 0xf0, 0x48, 0x0f, 0xc7, 0x0f } },		/* lock cmpxchg16b [rdi] */
	{ 3, { 0x48, 0x87, 0x07 } },				/* xchg [rdi], rax */
	{ 5, { 0x8b, 0x04, 0x25, 0x00, 0x10 } },		/* mov eax, [0x1000] (cut) */
	{ 8, { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66 } },	/* prefixes */
	{ 1, { 0xcc } },					/* int3 */
};

static bool mutate_text(uint8_t *d, const struct sec *s, unsigned int *seed)
{
	uint64_t starts[256];
	size_t nr = 0, n = 0;
	cs_insn *insn = NULL;
	uint64_t at, room;

	if (cs_ok)
		n = cs_disasm(cs, d + s->off, s->size < 16384 ? s->size : 16384, 0, 0, &insn);
	for (size_t i = 0; i < n; i++)
		if (nr < 256 || rnd(seed, (unsigned int)i + 1) < 256)
			starts[nr < 256 ? nr++ : rnd(seed, 256)] = insn[i].address;
	if (n)
		cs_free(insn, n);
	at = nr && rnd(seed, 8) ? starts[rnd(seed, (unsigned int)nr)] : rnd64(seed) % s->size;
	room = s->size - at;
	switch (rnd(seed, 4)) {
	case 0:
		d[s->off + at + rnd(seed, room < 4 ? (unsigned int)room : 4)] ^=
			(uint8_t)(1u << rnd(seed, 8));
		break;
	default: {
		unsigned int k = rnd(seed, sizeof(insns) / sizeof(insns[0]));
		uint8_t b[8];

		if (insns[k].len > room)
			return false;
		memcpy(b, insns[k].b, insns[k].len);
		if (rnd(seed, 3) == 0 && insns[k].len >= 4)	/* another register or disp */
			b[insns[k].len - 1] = (uint8_t)pick(seed, b[insns[k].len - 1], 8, 0x40);
		if (rnd(seed, 4) == 0 && insns[k].len >= 3 && b[0] == 0x48)
			b[2] ^= (uint8_t)(1u << rnd(seed, 6));	/* ModRM's reg or rm */
		memcpy(d + s->off + at, b, insns[k].len);
		break;
	}
	}
	return true;
}

/* One in-place mutation inside one section; false when there is nothing to mutate. */
static bool mutate_section(uint8_t *data, size_t size, unsigned int *seed)
{
	static struct elf_view v;
	static struct fields fs;
	const struct sec *s = NULL;

	if (!view_parse(&v, data, size))
		return false;
	fs.seed = seed;
	fs.d = data;
	fs.size = size;
	for (int tries = 0; tries < 6; tries++) {
		unsigned int r = rnd(seed, 100);

		fs.n = fs.seen = 0;
		if (r < 26) {
			if (view_find(&v, ".debug_info"))
				parse_info(&fs, &v);
		} else if (r < 38) {
			if ((s = view_find(&v, ".debug_line")))
				parse_line(&fs, s);
		} else if (r < 46) {
			if ((s = view_find(&v, ".debug_loclists")))
				parse_lists(&fs, s, lle_kinds, 10);
			else if ((s = view_find(&v, ".debug_loc")))
				parse_pairs(&fs, s, true);
		} else if (r < 50) {
			if ((s = view_find(&v, ".debug_rnglists")))
				parse_lists(&fs, s, rle_kinds, 8);
			else if ((s = view_find(&v, ".debug_ranges")))
				parse_pairs(&fs, s, false);
		} else if (r < 56) {
			if ((s = view_find(&v, ".debug_abbrev")))
				parse_abbrev(&fs, s);
		} else if (r < 63) {
			bool line = rnd(seed, 3) == 0;

			if ((s = view_find(&v, line ? ".debug_line_str" : ".debug_str")) ||
			    (s = view_find(&v, line ? ".debug_str" : ".debug_line_str")))
				parse_strings(&fs, s);
		} else if (r < 72) {
			if ((s = view_pick(&v, NULL, rnd(seed, 4) ? SHT_SYMTAB : SHT_DYNSYM, seed)))
				parse_symtab(&fs, s, &v);
		} else if (r < 77) {
			if ((s = view_pick(&v, rnd(seed, 4) ? ".strtab" : ".dynstr", 0, seed)))
				parse_strings(&fs, s);
		} else if (r < 87) {
			if ((s = view_pick(&v, ".text", SHT_PROGBITS, seed)) &&
			    mutate_text(data, s, seed))
				return true;
		} else if (r < 92) {
			if ((s = view_pick(&v, ".rela", SHT_RELA, seed)))
				parse_rela(&fs, s, &v);
		} else if ((s = view_pick(&v, ".debug_", 0, seed)) ||
			   (s = view_pick(&v, ".eh_frame", 0, seed))) {
			/* the rest: aligned words */
			unsigned int w = rnd(seed, 2) ? 4 : 8;

			if (s->size >= w) {
				uint64_t at = s->off + (rnd64(seed) % (s->size / w)) * w;
				struct field f = { .at = (uint32_t)at, .len = w, .kind = F_INT,
						   .hint = s->size };

				mutate_field(data, &fs, &f, seed, &v);
				return true;
			}
		}
		if (fs.n) {
			mutate_field(data, &fs, &fs.f[rnd(seed, (unsigned int)fs.n)], seed, &v);
			return true;
		}
	}
	return false;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	unsigned int r = seed, n;
	bool done = false;

	elf_version(EV_CURRENT);
	if (!cs_ok)
		LLVMFuzzerInitialize(NULL, NULL);
	if (rnd(&r, 5) == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	n = 1 + (rnd(&r, 3) == 0 ? rnd(&r, 4) : 0);
	for (unsigned int i = 0; i < n; i++)
		done |= mutate_section(data, size, &r);
	return done ? size : LLVMFuzzerMutate(data, size, max_size);
}
