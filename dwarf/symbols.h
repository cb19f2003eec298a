/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_SYMBOLS_H
#define LINEUP_DWARF_SYMBOLS_H

/*
 * Code addresses to names, the way perf (6.1, built without libbfd, as Debian ships it) names
 * them in its Symbol, Shared Object and Source:Line columns:
 *
 *   - symbols come from the object's ELF .symtab and its .dynsym, both read as perf's
 *     dso__load_sym does: functions, ifuncs and objects with a name and a section, labels in
 *     text/data sections, no SHN_ABS, only SHF_ALLOC sections; user symbols are moved to file
 *     offsets (st_value - (p_vaddr - p_offset) of their segment) because a map's map_ip gives
 *     file offsets; zero-sized symbols are extended to the next one; of several symbols at one
 *     address the best is kept (sized, non-weak, global, fewer leading underscores, longer
 *     name); then "NAME@plt" for each PLT slot; C++ names demangled to the bare name perf
 *     shows (libiberty's DMGL_NO_OPTS: no parameters, return type, qualifiers or clone
 *     suffix); where symbols overlap, the one perf's symbol tree finds first (the tree is
 *     built with the same inserts and erases, so it has perf's shape);
 *   - the file is looked for where perf looks: the .gnu_debuglink file, the build-id cache
 *     (~/.debug/.build-id/xx/rest, a file or a directory with elf/debug/vdso),
 *     /usr/lib/debug/PATH.debug, /usr/lib/debug/PATH, /usr/lib/debug/.build-id/xx/rest.debug,
 *     then PATH itself, all under --symfs when given; a file whose build-id differs from the
 *     recorded one is rejected;
 *   - the kernel ([kernel.kallsyms]) takes its symbols from -k VMLINUX (relocated by the
 *     recording's reference symbol, KASLR), else from an image perf would find (build-id
 *     cache, /boot/vmlinux-REL, /usr/lib/debug/boot/vmlinux-REL...), else from kallsyms when it
 *     is the recorded kernel's (/proc/kallsyms, or the build-id cache's copy); a module's from its
 .ko (the MMAP's path, the build-id cache,
 *     /usr/lib/debug/.build-id) as perf loads it (.text symbols; the map moved to .text's
 *     file offset, see @map_addr), else from kallsyms; a JIT's (anonymous executable memory,
 *     "/tmp/perf-PID.map") from that map file;
 *   - Source:Line is what binutils' `addr2line -i -f` says first (the innermost inlined
 *     location: perf 6.1 runs it), as basename:line (the full path with full_srcline), looked
 *     up at perf's objdump address (map__rip_2objdump), binutils 2.40's quirks included
 *     (its symbol-table fallback "FILE:?" read by perf as line 0, DWARF 5 file 0 for the rows
 *     before a sequence's first file change); when addr2line knows nothing: "SYM+OFFSET"
 *     (decimal) if a symbol covers the address, else "SHORTNAME[HEXADDR]"; "??:0" when the
 *     address has no map at all.  Objects whose name starts with '[' or /tmp/perf- never get
 *     a line.

 * Source lines and inline chains come from libdwfl (the object's DWARF, or its separate
 * debuginfo found by build-id or debuglink).
 *
 * Use, with sampling/machine.h (sampling/session.h's session__lookup does this for a tool;
 * tests/tools/resolve.c for every sample):
 *
 *	struct symbols_options o = { .osrelease = header->osrelease, .vmlinux = opt_k };
 *	struct symbols *syms = symbols__new(&o);
 *	machine__resolve(m, sample, &al);
 *	if (al.map) {
 *		struct symbols_map sm = { al.map->start, al.map->pgoff, al.map->identity,
 *					  al.map->ref_reloc, al.map->ref_reloc_name };
 *		symbols__lookup(syms, dso__symbols(al.dso, syms), &sm, al.addr, &loc);
 *	} else {
 *		symbols__lookup(syms, NULL, NULL, al.addr, &loc);
 *	}
 *	if (loc.no_map) -> as if al.map were NULL
 *	Symbol: symbols__format_sym(buf, size, al.level, &loc, al.addr)
 *	Object: loc.object ?: al.dso ? al.dso->short_name : "[unknown]"
 *	Source:Line: loc.srcline
 *
 * Ownership: struct symbols owns every object it opens (each once, cached by name and
 * build-id) and every string it returns; those stay valid until symbols__delete.  No libdw or
 * libelf type appears here.  Not thread-safe.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbols;
struct symbols_dso;

/**
 * struct symbols_options - where to look.
 * @symfs:	perf's --symfs: a directory prefixed to every path (NULL: none)
 * @vmlinux:	perf's -k: the kernel image for [kernel.kallsyms] (NULL: kallsyms only)
 * @kallsyms:	kallsyms file to use for the kernel (NULL: "/proc/kallsyms"; "" disables)
 * @debug_dir:	the build-id cache (NULL: $HOME/.debug)
 * @full_srcline: print the source file's full path, not its basename (perf's
 *		--full-source-path)
 * @osrelease:	the recording's kernel release (the OSRELEASE header), for the kernel image
 *		search (/usr/lib/debug/boot/vmlinux-REL...); NULL: this machine's
 */
struct symbols_options {
	const char *symfs;
	const char *vmlinux;
	const char *kallsyms;
	const char *debug_dir;
	bool full_srcline;
	const char *osrelease;
};

/* The same values as sampling/machine.h's enum dso_kind, so a caller can pass it through. */
enum symbols_dso_kind {
	SYMBOLS_DSO_USER,
	SYMBOLS_DSO_KERNEL,
	SYMBOLS_DSO_MODULE,
	SYMBOLS_DSO_VDSO,
	SYMBOLS_DSO_ANON,
	SYMBOLS_DSO_JIT,
	SYMBOLS_DSO_BPF, /* registered by a KSYMBOL record: its name is its one symbol */
};

/**
 * struct symbols_map - the map an address was found in (sampling/machine.h's struct map).
 * @start, @pgoff: the map's start and file offset
 * @identity:	map_ip is the identity (kernel map, anon memory)
 * @ref_reloc:	kernel map: runtime address of @ref_reloc_name ("_text"), from the kernel
 *		MMAP's pgoff, 0 if unknown; relocates a vmlinux's symbols (KASLR)
 */
struct symbols_map {
	uint64_t start, pgoff;
	bool identity;
	uint64_t ref_reloc;
	const char *ref_reloc_name;
};

/**
 * struct symbols_frame - one level of an inline chain, innermost first.
 * @function:	DWARF name of the function (inlined or not) at this level, "??" if unknown
 * @file:	full path of the source file: for level 0 the line table's, for the others
 *		the call site of the level below (DW_AT_call_file); "??" if unknown
 * @line:	the line, 0 if unknown (addr2line prints "FILE:?", which perf reads as line 0)
 * @discriminator: the line table row's discriminator (level 0), 0 if none
 */
struct symbols_frame {
	const char *function;
	const char *file;
	unsigned int line;
	unsigned int discriminator;
};

/**
 * struct symbols_loc - what lineup knows about one address of one object.
 * @sym:	the ELF symbol covering it, NULL if none
 * @sym_start:	the symbol's start, in @map_addr's space (map-relative, perf's al->addr;
 *		absolute for the kernel)
 * @sym_is_object: the symbol is a data object (STT_OBJECT): perf prints "name+0xOFF"
 * @map_addr:	the address as perf's al->addr reads once the object is loaded: the one
 *		asked, except for a kernel module loaded from its .ko, whose map perf moves to
 *		.text's file offset (pgoff); Symbol and srcline offsets are in this space
 * @object:	perf's Object for the address when it is not the map's own, else NULL: a
 *		vmlinux's sections other than .text get maps of their own in perf
 *		("[kernel.kallsyms].init.text", "[kernel.kallsyms].bss")
 * @no_map:	perf, once the object is loaded, has no map for the address: a -k vmlinux
 *		shrinks the kernel map to .text; print the address as one without a map
 *		(Object "[unknown]", Symbol "[k] 0x...", Source:Line "??:0")
 * @srcline:	perf's Source:Line text (see above)
 * @objdump_addr: the address in the object's own terms (what addr2line was asked)
 * @nr_frames:	length of @frames: 0 when addr2line would say "??" (no line and no symbol);
 *		without DWARF for the address but with a symbol, one frame with line 0
 * @frames:	the inline chain, as `addr2line -f -i` lists it
 */
struct symbols_loc {
	const char *sym;
	uint64_t sym_start;
	bool sym_is_object;
	uint64_t map_addr;
	const char *object;
	bool no_map;
	const char *srcline;
	uint64_t objdump_addr;
	unsigned int nr_frames;
	const struct symbols_frame *frames;
};

struct symbols *symbols__new(const struct symbols_options *opts);
void symbols__delete(struct symbols *s);

/*
 * The object named @long_name (with @build_id when known), opened on first use and cached;
 * @short_name is what perf prints for it (used in "SHORTNAME[ADDR]").  Never NULL: an object
 * that cannot be found still answers (without symbols).  Cheap enough per sample, but callers
 * may keep the pointer (e.g. in sampling's struct dso's priv).
 */
struct symbols_dso *symbols__dso(struct symbols *s, const char *long_name, const char *short_name,
				 enum symbols_dso_kind kind, const uint8_t *build_id,
				 unsigned int build_id_size);

/*
 * Resolve @addr, a map-relative address (perf's al->addr: map_ip of the sample's ip) found in
 * @map, into *loc.  @map NULL means the address had no map: loc gets no symbol and "??:0".
 * Results are cached per (dso, address).  Returns 0.
 */
int symbols__lookup(struct symbols *s, struct symbols_dso *dso, const struct symbols_map *map,
		    uint64_t addr, struct symbols_loc *loc);

/*
 * The same for an address in the object's own terms (what objdump and addr2line show: the
 * link-time virtual address), for tests and tools.
 */
int symbols__lookup_objdump(struct symbols *s, struct symbols_dso *dso, uint64_t objdump_addr,
			    struct symbols_loc *loc);

/*
 * A kernel per-CPU variable by its per-CPU offset (what a `%gs:OFFSET` operand, or an address
 * minus the CPU's __per_cpu_offset, gives): the symbol of the kernel image's .data..percpu
 * section (from -k VMLINUX or the image perf would find) covering @offset.  @kernel is the
 * "[kernel.kallsyms]" dso.  0 with *name, *var_offset (the variable's own per-CPU offset) and
 * *size (0 when the symbol has none); 1 when no image with that section was found or no
 * variable covers @offset.  A perf.data does not carry the per-CPU bases, so turning a data
 * address into an offset is the caller's business (see the notes).
 */
int symbols__percpu_var(struct symbols *s, struct symbols_dso *kernel, uint64_t offset,
			const char **name, uint64_t *var_offset, uint64_t *size);

/* A C++ symbol's name as perf shows it (the bare name), allocated; NULL when not mangled. */
char *symbols__demangle(const char *name);

/* Only the ELF symbol (no DWARF): for callers that need no Source:Line; 0 found, 1 not. */
int symbols__find_sym(struct symbols *s, struct symbols_dso *dso, uint64_t addr, const char **name,
		      uint64_t *start, bool *is_object);

/*
 * perf's Symbol column text: "[L] name" (L the level char: '.' user, 'k' kernel), "[L] name+0xOFF"
 * for a data object, "[L] 0x%016llx" of the address when unresolved: loc->map_addr when @loc
 * is given (perf's al->addr), else @addr.  Writes at most @size bytes, NUL-terminated; returns
 * the length it wanted.
 */
int symbols__format_sym(char *buf, size_t size, char level, const struct symbols_loc *loc,
			uint64_t addr);

/* Where the object was found: the file its symbols came from, NULL if none. */
const char *symbols_dso__path(const struct symbols_dso *dso);
/* Why it has no symbols (a message naming what was tried), or NULL when it has some. */
const char *symbols_dso__error(const struct symbols_dso *dso);

#endif
